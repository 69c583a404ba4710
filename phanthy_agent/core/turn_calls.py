"""A turn's tool calls: running each one (driver tools through the executor and the action
tracker, built-ins here) and recording it twice: for the model (a `tool` message with the
result) and for the TurnRecord (an entry of `tool_calls_json`: tool, args, action id, status,
times, and the result or error once the action ended).

Calls that never ran are recorded as well: `rejected` (unknown tool, not allowed for the role,
invalid arguments) and `skipped` (the visitor said something new first, or they came after
`finish`), so the record shows what the model tried and the model reads why.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Awaitable, Callable, Dict, List, Sequence

from ..brains.base import Message, ToolCallRequest
from .action_tracker import FAILED, TrackedAction
from .tools import RegisteredTool
from .turn_host import TurnHost

log = logging.getLogger(__name__)

MAX_RECORDED_ERROR = 500
MAX_RECORDED_RESULT = 4000  # characters of an action's result_json in the record


class TurnCalls:
    """`entries` is the record (shared with the TurnResult); `messages` the turn's conversation,
    where each result is appended; `wait_for(action)` waits for a non-acting action to end."""

    def __init__(self, host: TurnHost, turn_id: str, entries: List[Dict[str, Any]],
                 messages: List[Message], wait_for: Callable[[TrackedAction], Awaitable[None]]):
        self.host = host
        self.turn_id = turn_id
        self.entries = entries
        self.messages = messages
        self._wait_for = wait_for

    async def execute(self, tool: RegisteredTool, args: dict) -> Dict[str, Any]:
        """Run one validated call; returns what the model reads. An acting tool returns its
        action id as soon as the driver accepted the goal (the ACP waits later); any other
        tool is waited for here."""
        if tool.builtin:
            return self._builtin(tool, args)
        host = self.host
        entry = {"tool": tool.visible_name, "args": args, "action_id": "", "status": "",
                 "t_start": host.clock(), "t_end": 0.0}
        self.entries.append(entry)
        host.emit("tool_call", self.turn_id, tool=tool.visible_name, text=json.dumps(args, ensure_ascii=False))
        started = await host.executor.start(tool.driver, tool.decl.name, args)
        if not started.accepted:
            error = started.error or "the driver rejected the call"
            entry.update(status=FAILED, t_end=host.clock(), error=error)
            host.emit("tool_result", self.turn_id, tool=tool.visible_name, status=FAILED, text=started.error)
            return {"status": FAILED, "error": error}
        entry["action_id"] = started.action_id
        action = host.tracker.register(started.action_id, tool.visible_name, tool.driver, args,
                                       tool.decl.acting, tool.decl.timeout_s, self.turn_id)
        host.refresh_state()
        if tool.decl.acting and not action.terminal:
            entry["status"] = "started"
            return {"action_id": action.action_id, "status": "started"}
        if not action.terminal:
            await self._wait_for(action)
        action.reported = True
        entry.update(status=action.status, t_end=action.t_end)
        return outcome(action)

    def _builtin(self, tool: RegisteredTool, args: dict) -> Dict[str, Any]:
        host = self.host
        if tool.decl.name == "cancel_action":
            action = host.tracker.get(args["action_id"])
            if action is None:
                return {"error": f"no action with id {args['action_id']!r}"}
            if action.terminal:
                return {"status": action.status, "note": "it had already ended"}
            host.executor.cancel(action.action_id)
            return {"status": "cancel requested"}
        if tool.decl.name == "load_skill" and host.context.skills is not None:
            return host.context.skills.load(args["name"], [t.visible_name for t in
                                                           host.registry.visible_tools()])
        return {"error": f"built-in tool {tool.decl.name} is not callable here"}

    def result(self, call: ToolCallRequest, payload: Dict[str, Any]) -> None:
        """What the model reads for `call`."""
        text = json.dumps(payload, ensure_ascii=False, default=str)
        self.messages.append(Message("tool", text, tool_call_id=call.id))
        self.host.emit("tool_result", self.turn_id, tool=call.name,
                       action_id=str(payload.get("action_id", "")), status=str(payload.get("status", "")),
                       text=text)

    def skip(self, calls: Sequence[ToolCallRequest], why: str) -> None:
        for call in calls:
            if call.name != "finish":
                self._record_unrun(call, "skipped", why)
            self.result(call, {"status": "skipped", "reason": why})

    def reject(self, call: ToolCallRequest, error: str) -> None:
        """A call that was not run (unknown tool, not allowed, invalid arguments): the model
        reads why, and the record shows what it tried."""
        self._record_unrun(call, "rejected", error)
        self.result(call, {"error": error})

    def _record_unrun(self, call: ToolCallRequest, status: str, error: str) -> None:
        now = self.host.clock()
        self.entries.append({"tool": call.name, "args": as_recorded(call.arguments), "action_id": "",
                             "status": status, "error": error[:MAX_RECORDED_ERROR],
                             "t_start": now, "t_end": now})

    def settle(self) -> None:
        """The record shows how each action ended (and what it returned), not that it started."""
        for entry in self.entries:
            action = self.host.tracker.get(entry["action_id"]) if entry["action_id"] else None
            if action is None:
                continue
            entry.update(status=action.status if action.terminal else "running", t_end=action.t_end)
            if action.error:
                entry["error"] = action.error[:MAX_RECORDED_ERROR]
            if action.terminal and action.result_json:
                entry["result"] = _bounded_result(action.result_json)


def as_recorded(arguments: Any) -> Any:
    """A model's arguments for the record: the object when they parse, else the raw text (bounded)."""
    if isinstance(arguments, dict) or arguments is None:
        return arguments or {}
    text = str(arguments)
    try:
        parsed = json.loads(text) if len(text) <= 64_000 else None
    except (ValueError, RecursionError):
        parsed = None
    return parsed if isinstance(parsed, dict) else text[:2000]


def _bounded_result(result_json: str) -> Any:
    """An action's result for the record: parsed when it is JSON of a bounded size, else text."""
    if len(result_json) > MAX_RECORDED_RESULT:
        return result_json[:MAX_RECORDED_RESULT]
    try:
        return json.loads(result_json)
    except ValueError:
        return result_json


def outcome(action: TrackedAction) -> Dict[str, Any]:
    """What the model reads of an ended action."""
    out: Dict[str, Any] = {"status": action.status}
    if action.result_json:
        try:
            out["result"] = json.loads(action.result_json)
        except ValueError:
            out["result"] = action.result_json
    if action.error:
        out["error"] = action.error
    return out
