"""One model step's tool calls, run in order, and which of them run at all.

- `finish` ends the batch: the turn's finish (the ACP wait at the end) decides whether the turn
  ends; any call after it is skipped.
- `wait_for_actions` (built-in) is the ACP wait without ending the turn.
- A call is refused (recorded `rejected`, the model reads why) for an unknown tool, a role the
  tool does not allow, or invalid arguments.
- An acting tool first waits for the robot's running actions (ACP).
- New input wins: when a steering message arrives before an acting call or between two calls,
  the rest of the batch is skipped (each skipped call gets a result saying so) so the model
  re-plans with it at the next step.
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, List

from ..brains.base import ToolCallRequest
from .action_waits import ActionWaits, Wait
from .tools import ToolError
from .turn_calls import TurnCalls
from .turn_host import TurnHost

log = logging.getLogger(__name__)

WAIT_TOOL = "wait_for_actions"  # built-in: the ACP wait without ending the turn
SKIPPED_FOR_INPUT = ("not run: the visitor said something new before this call ran; "
                     "decide again with it")


class ToolBatch:
    def __init__(self, host: TurnHost, turn_id: str, calls: TurnCalls, waits: ActionWaits):
        self.host = host
        self.turn_id = turn_id
        self.calls = calls
        self.waits = waits

    async def run(self, calls: List[ToolCallRequest], role: str,
                  finish: Callable[[Any], Awaitable[bool]]) -> bool:
        """Run one step's tool calls for a turn whose inputs have `role`; `finish(arguments)`
        is the turn's finish with the finish call's arguments. True when the turn ended."""
        for index, call in enumerate(calls):
            rest = calls[index + 1:]
            if call.name == "finish":
                ended = await finish(call.arguments)
                self.calls.result(call, {"status": "turn ended" if ended else
                                         "not finished yet: read the action updates"})
                self.calls.skip(rest, "not run: it came after finish")
                return ended
            if call.name == WAIT_TOOL:
                waited = await self.waits.settled(before_acting=True)
                self.calls.result(call, {"status": "new input" if waited is Wait.MESSAGE else "done"})
                if waited is Wait.MESSAGE:
                    self.calls.skip(rest, SKIPPED_FOR_INPUT)
                    return False
                continue
            tool = self.host.registry.resolve(call.name)
            if tool is None:
                self.calls.reject(call, f"unknown tool {call.name!r}; available: " + ", ".join(
                    t.visible_name for t in self.host.registry.visible_tools()))
                continue
            if not tool.decl.allows(role):
                log.warning("turn %s: %s refused for role %s", self.turn_id, call.name, role)
                self.calls.reject(call, f"{call.name} is not allowed in this conversation (the sender "
                                   f"is a {role}; it needs {' or '.join(tool.decl.x_roles)})")
                continue
            try:
                args = self.host.registry.parse_args(tool, call.arguments)
            except ToolError as exc:
                log.warning("turn %s: %s", self.turn_id, exc)
                self.calls.reject(call, str(exc))
                continue
            if tool.decl.acting and await self.waits.settled(before_acting=True) is Wait.MESSAGE:
                self.calls.skip([call] + rest, SKIPPED_FOR_INPUT)
                return False
            self.calls.result(call, await self.calls.execute(tool, args))
            if rest and self.host.inbox.has_steering():
                self.calls.skip(rest, SKIPPED_FOR_INPUT)
                return False
        return False
