"""Driver SDK: expose a robot capability as a tool the agent discovers and calls.

A driver node declares tools (name, description, JSON Schema parameters, acting, timeout_s,
hidden, x-hooks), serves each as a `phanthy/action/Tool` action `<driver>/<tool>` that accepts
cancels, and publishes its manifest on `phanthy/tools` (reliable, transient_local). See the
README's driver guide for a complete driver.

    class Gripper(DriverNode):
        def __init__(self, **kw):
            super().__init__("gripper", **kw)
            self.add_tool(self.grip, "Close the gripper.", {...}, acting=True, timeout_s=10,
                          hooks={"on_interrupt_motion": "release"})
            self.add_tool(self.release, hidden=True)

        def grip(self, call: ToolCall) -> dict: ...
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

from phanthy.action import Tool
from phanthy.msg import ToolManifest
from phanthy_common.health import OK, Status
from phanthy_common.lifecycle import ManagedNode
from phanthy_common.schemas import ArgumentsRejected, ToolSchema, parse_arguments

log = logging.getLogger(__name__)

MANIFEST_TOPIC = "phanthy/tools"
MANIFEST_QOS = QoSProfile(depth=16, reliability=ReliabilityPolicy.RELIABLE,
                          durability=DurabilityPolicy.TRANSIENT_LOCAL)
EMPTY_PARAMETERS = {"type": "object", "properties": {}}

HookSpec = Union[str, Mapping[str, Any]]  # "stop" or {"action": "show", "params": {...}}


class ToolFailed(Exception):
    """Raise from a handler to end the call with status "failed" and this message."""


class ToolCall:
    """One running call of a tool, as the handler sees it."""

    def __init__(self, tool: str, args: dict, goal_handle, goal_id: str):
        self.tool, self.args, self.goal_id = tool, args, goal_id
        self._goal_handle = goal_handle
        self._cancel = threading.Event()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to `seconds`; False as soon as the call is cancelled."""
        return not self._cancel.wait(max(0.0, seconds))

    def feedback(self, progress: Mapping[str, Any]) -> None:
        self._goal_handle.publish_feedback(Tool.Feedback(progress_json=json.dumps(progress)))

    def request_cancel(self) -> None:
        self._cancel.set()


class DriverNode(ManagedNode):
    # Tool handlers run for seconds on executor threads; cancels and other calls must get through.
    needs_threads = True

    def __init__(self, driver: str, node_name: Optional[str] = None, **node_kwargs):
        super().__init__(node_name or driver, **node_kwargs)
        self.driver = driver
        self._declarations: List[dict] = []
        self._servers: List[ActionServer] = []
        self._running: Dict[str, ToolCall] = {}  # goal id -> call
        self._running_lock = threading.Lock()
        self._group = ReentrantCallbackGroup()  # long handlers must not block cancels
        self._manifest_pub = self.create_publisher(ToolManifest, MANIFEST_TOPIC, MANIFEST_QOS)
        self._published_once = False
        self._manifest_timer = self.create_timer(0.05, self._publish_first_manifest)
        self.tool_outcomes = {"succeeded": 0, "failed": 0, "cancelled": 0}  # ended calls, for /diagnostics

    # --- declaring tools -------------------------------------------------------------------
    def add_tool(self, handler: Callable[[ToolCall], Optional[dict]], description: str = "",
                 parameters: Optional[dict] = None, *, name: Optional[str] = None,
                 acting: bool = False, timeout_s: float = 30.0, hidden: bool = False,
                 hooks: Optional[Mapping[str, HookSpec]] = None, roles: Sequence[str] = (),
                 confirm: Union[bool, str] = False, examples: Sequence[str] = ()) -> None:
        """Declare a tool and serve it. `hooks` maps hook names (on_interrupt_speak, ...) to
        one of this driver's tools: "stop" or {"action": "show", "params": {"state": "x"}}.
        `roles`: who may have the robot call it (visitor, operator, admin; empty = everyone).
        `confirm` (`x-confirm`): the robot asks the visitor first (True, or the question).
        `examples` (`x-examples`): a few phrasings of a request for it (the offline brain)."""
        name = name or handler.__name__
        parameters = parameters or dict(EMPTY_PARAMETERS)
        schema = ToolSchema(parameters)  # SchemaRejected (a ValueError) names what is wrong
        decl = {"name": name, "description": description, "parameters": parameters,
                "acting": acting, "timeout_s": timeout_s, "hidden": hidden,
                "x-hooks": {hook: ({"action": spec, "params": {}} if isinstance(spec, str)
                                   else {"action": spec["action"], "params": dict(spec.get("params", {}))})
                            for hook, spec in (hooks or {}).items()}}
        if roles:
            decl["x-roles"] = list(roles)
        if confirm:
            decl["x-confirm"] = confirm
        if examples:
            decl["x-examples"] = [str(e) for e in examples]
        self._declarations.append(decl)
        self._servers.append(ActionServer(
            self, Tool, f"{self.driver}/{name}",
            execute_callback=lambda goal_handle: self._execute(name, handler, schema, goal_handle),
            goal_callback=lambda goal: GoalResponse.ACCEPT,
            cancel_callback=self._on_cancel_request,
            callback_group=self._group))
        if self._published_once:
            self.publish_manifest()

    def publish_manifest(self) -> None:
        self._manifest_pub.publish(ToolManifest(driver=self.driver,
                                                tools_json=json.dumps(self._declarations)))

    def _publish_first_manifest(self) -> None:
        self._manifest_timer.cancel()
        self._published_once = True
        self.publish_manifest()

    # --- for handlers ----------------------------------------------------------------------
    def cancel_running(self, tool: Optional[str] = None) -> int:
        """Cancel running calls (of one tool, or all), e.g. from a hidden `stop` tool."""
        with self._running_lock:
            calls = [c for c in self._running.values() if tool is None or c.tool == tool]
        for call in calls:
            call.request_cancel()
        return len(calls)

    def close(self) -> None:
        """Shutting down: cancel running calls so their handlers return before the node goes."""
        self.cancel_running()

    def diagnostics(self) -> List[Status]:
        with self._running_lock:
            running = len(self._running)
        return [Status.of("tools", OK, f"{len(self._declarations)} tool(s), {running} running",
                          tools=len(self._declarations), running=running, **self.tool_outcomes)]

    def deactivate(self) -> None:
        """Inactive: running calls are cancelled and new ones refused."""
        self.cancel_running()

    def running_calls(self, tool: Optional[str] = None) -> List[ToolCall]:
        with self._running_lock:
            return [c for c in self._running.values() if tool is None or c.tool == tool]

    # --- serving ---------------------------------------------------------------------------
    def _on_cancel_request(self, goal_handle) -> CancelResponse:
        goal_id = bytes(goal_handle.goal_id.uuid).hex()
        with self._running_lock:
            call = self._running.get(goal_id)
        if call is not None:
            call.request_cancel()
        return CancelResponse.ACCEPT

    def _execute(self, name: str, handler, schema: ToolSchema, goal_handle) -> Tool.Result:
        goal_id = bytes(goal_handle.goal_id.uuid).hex()
        if not self.is_active:
            return self._end(goal_handle, "failed", None,
                             f"{self.driver} is {self.lifecycle_state} (lifecycle): activate it first")
        try:
            args = parse_arguments(goal_handle.request.args_json or "{}")
        except ArgumentsRejected as exc:
            return self._end(goal_handle, "failed", None, f"args_json is not a JSON object: {exc}")
        try:
            schema.check(args)
        except ArgumentsRejected as exc:
            return self._end(goal_handle, "failed", None, f"invalid arguments: {exc}")
        call = ToolCall(name, args, goal_handle, goal_id)
        with self._running_lock:
            self._running[goal_id] = call
        if goal_handle.is_cancel_requested:
            call.request_cancel()
        try:
            result = handler(call)
            status = "cancelled" if call.cancelled else "succeeded"
            return self._end(goal_handle, status, result, "")
        except ToolFailed as exc:
            return self._end(goal_handle, "cancelled" if call.cancelled else "failed", None, str(exc))
        except Exception as exc:  # a handler bug fails the call, not the node
            log.exception("%s/%s raised", self.driver, name)
            return self._end(goal_handle, "failed", None, f"driver error: {type(exc).__name__}: {exc}")
        finally:
            with self._running_lock:
                self._running.pop(goal_id, None)

    def _end(self, goal_handle, status: str, result: Optional[dict], error: str) -> Tool.Result:
        self.tool_outcomes[status] = self.tool_outcomes.get(status, 0) + 1
        end_goal(goal_handle, status)
        return Tool.Result(status=status, result_json=json.dumps(result) if result is not None else "",
                           error=error)


def end_goal(goal_handle, status: str) -> None:
    """The result's status is the truth; the goal state follows it: succeeded, canceled (only
    when a cancel was asked for), else aborted."""
    if status == "succeeded":
        goal_handle.succeed()
    elif status == "cancelled" and goal_handle.is_cancel_requested:
        goal_handle.canceled()
    else:
        goal_handle.abort()
