"""The agent's state, computed from facts, and its publication.

`state_of` says what the robot is doing (thinking, speaking, acting, idle) from the running
turn, the outstanding actions and the speech tool; `StatusPublisher` publishes an `AgentStatus`
(phanthy/agent_state) when it changed and fires the new state's hook (`on_thinking`,
`on_speaking`, `on_idle`).
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Optional, Sequence

from .action_tracker import TrackedAction
from .tools import RegisteredTool

STATE_HOOKS = {"thinking": "on_thinking", "speaking": "on_speaking", "idle": "on_idle"}


@dataclasses.dataclass(frozen=True)
class AgentStatus:
    state: str
    voice_state: str
    session: str
    outstanding_actions: int
    brain: str


def state_of(model_thinking: bool, turn_active: bool, outstanding: Sequence[TrackedAction],
             speech: Optional[RegisteredTool]) -> str:
    """`model_thinking`: the running turn waits for the model; `turn_active`: a turn runs or is
    about to start."""
    if model_thinking:
        return "thinking"
    if speech is not None and any(a.tool == speech.visible_name and a.driver == speech.driver
                                  for a in outstanding):
        return "speaking"
    if outstanding:
        return "acting"
    return "thinking" if turn_active else "idle"


class StatusPublisher:
    """`publish(status)` hands the status to `send` if it changed; `fire_hook(name)` fires a hook."""

    def __init__(self, send: Callable[[AgentStatus], None], fire_hook: Callable[[str], None]):
        self._send = send
        self._fire_hook = fire_hook
        self._last: Optional[AgentStatus] = None

    def publish(self, status: AgentStatus) -> None:
        if status == self._last:
            return
        previous = self._last.state if self._last else ""
        self._last = status
        if status.state != previous and status.state in STATE_HOOKS:
            self._fire_hook(STATE_HOOKS[status.state])
        self._send(status)
