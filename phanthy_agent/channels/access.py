"""Who may talk to the robot through a channel, and with which role. Pure."""

from __future__ import annotations

import dataclasses
from typing import Iterable, Optional, Tuple

from ..core.tools import ROLES


@dataclasses.dataclass(frozen=True)
class AccessPolicy:
    default_role: str = "visitor"  # anyone admitted who is not listed below
    operators: Tuple[str, ...] = ()  # sender ids
    admins: Tuple[str, ...] = ()
    allowed_chats: Tuple[str, ...] = ()  # chat ids admitted; empty = every chat

    def __post_init__(self) -> None:
        if self.default_role not in ROLES:
            raise ValueError(f"default role must be one of {', '.join(ROLES)}, not {self.default_role!r}")

    @classmethod
    def build(cls, default_role: str, operators: Iterable[str] = (), admins: Iterable[str] = (),
              allowed_chats: Iterable[str] = ()) -> "AccessPolicy":
        def ids(values: Iterable[str]) -> Tuple[str, ...]:
            return tuple(str(v).strip() for v in values if str(v).strip())
        return cls(default_role, ids(operators), ids(admins), ids(allowed_chats))

    def admits(self, chat_id: str) -> bool:
        return not self.allowed_chats or str(chat_id) in self.allowed_chats

    def role_of(self, sender: str) -> Optional[str]:
        sender = str(sender)
        if sender in self.admins:
            return "admin"
        if sender in self.operators:
            return "operator"
        return self.default_role
