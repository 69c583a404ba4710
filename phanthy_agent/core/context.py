"""Layered context: what the model reads at each step, arranged so the stable part can be cached.

1. System prefix = identity + static environment (venue, places, tools). Byte-identical from
   turn to turn; it changes only when a driver's tools change. Nothing dynamic goes here (not
   the time, not the peers: peers are reached through two fixed tools taking a peer id).
2. First user message = dynamic status: time, robot state, outstanding and recently ended
   actions, peers online.
3. History: earlier turns, trimmed by dropping whole turns from the oldest (never rewriting
   the prefix, never splitting a tool call from its result).
4. This turn: its inputs, tool calls, results, notices.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from typing import Callable, List, Optional, Sequence, Tuple

from ..brains.base import META_INPUT, META_NOTICE, META_STATUS, ActionUpdate, Message
from .action_tracker import TrackedAction
from .skills import SkillLibrary
from .tools import RegisteredTool

DEFAULT_IDENTITY = (
    "You are a friendly robot guide. You talk with visitors by voice: keep replies short and "
    "natural, one or two sentences, no lists or markup. Use your tools to act; say what you "
    "are doing. When you are done, call finish.")


@dataclasses.dataclass
class StatusSnapshot:
    wall_time: float
    agent_state: str = "idle"
    robot_status: Sequence[str] = ()
    outstanding: Sequence[TrackedAction] = ()
    recently_ended: Sequence[TrackedAction] = ()
    peers: Sequence[Tuple[str, str]] = ()  # (peer_id, description)
    session: str = ""


class ConversationHistory:
    """Earlier turns of one session, bounded by turn count and size (whole turns dropped)."""

    def __init__(self, max_turns: int = 12, max_chars: int = 24_000):
        self.max_turns, self.max_chars = max_turns, max_chars
        self._turns: List[List[Message]] = []

    def add_turn(self, messages: List[Message]) -> None:
        if messages:
            self._turns.append(list(messages))
        self._trim()

    def messages(self) -> List[Message]:
        return [m for turn in self._turns for m in turn]

    def __len__(self) -> int:
        return len(self._turns)

    def clear(self) -> None:
        self._turns.clear()

    def _trim(self) -> None:
        def size() -> int:
            return sum(len(m.content) + sum(len(c.arguments) for c in m.tool_calls)
                       for turn in self._turns for m in turn)
        while len(self._turns) > self.max_turns or (len(self._turns) > 1 and size() > self.max_chars):
            self._turns.pop(0)


class ContextBuilder:
    def __init__(self, identity: str = DEFAULT_IDENTITY, environment: str = "",
                 local_time: Callable[[float], datetime.datetime] = datetime.datetime.fromtimestamp,
                 skills: Optional[SkillLibrary] = None, progressive_skills: bool = True):
        self.identity = identity.strip()
        self.environment = environment.strip()
        self.skills, self.progressive_skills = skills, progressive_skills
        self._local_time = local_time
        self._cached_key: Tuple = ()
        self._cached_prefix = ""

    def system_prefix(self, tools: Sequence[RegisteredTool]) -> str:
        key = tuple((t.visible_name, t.decl.description, t.decl.acting) for t in tools)
        if key != self._cached_key:
            self._cached_key, self._cached_prefix = key, self._render_prefix(tools)
        return self._cached_prefix

    def _render_prefix(self, tools: Sequence[RegisteredTool]) -> str:
        parts = [self.identity]
        if self.environment:
            parts.append("## Environment\n" + self.environment)
        if tools:
            lines = [f"- {t.visible_name}: {t.decl.description}".rstrip(": ") for t in tools]
            parts.append("## Your tools\n" + "\n".join(lines))
        if self.skills:
            section = self.skills.prefix_section([t.visible_name for t in tools], self.progressive_skills)
            if section:
                parts.append(section)
        parts.append("## Status\nThe first user message of each turn is the robot's current "
                     "status (time, state, running actions), written by the system, not by a "
                     "visitor.")
        return "\n\n".join(parts) + "\n"

    def status_text(self, snap: StatusSnapshot) -> str:
        when = self._local_time(snap.wall_time).strftime("%A %Y-%m-%d %H:%M")
        lines = [f"[status] time: {when}; you are {snap.agent_state}"]
        lines += [f"robot: {item}" for item in snap.robot_status]
        for action in snap.outstanding:
            lines.append(f"running: {action.tool} {json.dumps(action.args, ensure_ascii=False)} "
                         f"(action_id {action.action_id})")
        for action in snap.recently_ended:
            lines.append(describe_ending(action))
        if snap.peers:
            lines.append("peers online: " + ", ".join(
                f"{pid} ({desc})" if desc else pid for pid, desc in snap.peers))
        return "\n".join(lines)

    def build(self, tools: Sequence[RegisteredTool], status: StatusSnapshot,
              history: Sequence[Message], inputs: Sequence[str]) -> List[Message]:
        messages = [Message("system", self.system_prefix(tools)),
                    Message("user", self.status_text(status), meta=META_STATUS)]
        messages += list(history)
        messages += [Message("user", text, meta=META_INPUT) for text in inputs]
        return messages


def describe_ending(action: TrackedAction) -> str:
    """One line telling the model how an action ended."""
    line = f"action {action.tool} (action_id {action.action_id}) {action.status}"
    if action.error:
        line += f": {action.error}"
    if action.result_json:
        line += f"; result: {action.result_json[:500]}"
    return line


def notice_message(actions: Sequence[TrackedAction]) -> Message:
    """How actions ended: rendered for a language model, and as data for any brain."""
    updates = tuple(ActionUpdate(a.tool, a.action_id, a.status, a.error, a.result_json) for a in actions)
    return Message("user", "[action updates]\n" + "\n".join(describe_ending(a) for a in actions),
                   meta=META_NOTICE, updates=updates)
