"""How the agent core reaches drivers, without knowing about ROS.

The ROS implementation (phanthy_agent.ros.tool_client) sends phanthy/action/Tool goals; tests
use in-memory fakes. Completions and feedback come back through the callbacks given to bind(),
possibly before start() has returned (the tracker keeps such early completions).
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Protocol

from .tools import HookTarget

DoneCallback = Callable[[str, str, str, str], None]  # action_id, status, result_json, error
FeedbackCallback = Callable[[str, str], None]  # action_id, progress_json


@dataclasses.dataclass(frozen=True)
class StartResult:
    accepted: bool
    action_id: str = ""
    error: str = ""


class ToolExecutor(Protocol):
    def bind(self, on_done: DoneCallback, on_feedback: FeedbackCallback) -> None:
        """Where completions and feedback go; called once, before any start()."""

    async def start(self, driver: str, tool: str, args: dict) -> StartResult:
        """Send the goal; return once the driver accepted or rejected it (or is unreachable)."""

    def cancel(self, action_id: str) -> None:
        """Ask the driver to cancel; never blocks. The outcome arrives through on_done."""

    def fire_hook(self, target: HookTarget, hook: str) -> None:
        """Send a hook goal and return at once; a slow or dead driver is bounded by the
        executor's hook timeout and never delays the caller."""
