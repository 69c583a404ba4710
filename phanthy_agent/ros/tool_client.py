"""The agent's ToolExecutor over ROS 2: one ActionClient per driver tool (`<driver>/<tool>`).

Runs rclpy calls from the agent's asyncio loop and hands rclpy's callbacks (executor threads)
back to the loop with call_soon_threadsafe. A goal's UUID is its action id.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import Dict, Tuple

from rclpy.action import ActionClient
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.node import Node

from phanthy.action import Tool
from phanthy_common.action_client import SpinSafeActionClient

from ..core.executor import StartResult
from ..core.tools import HookTarget

log = logging.getLogger(__name__)


class RosToolExecutor:
    def __init__(self, node: Node, loop: asyncio.AbstractEventLoop, server_wait_s: float = 2.0,
                 accept_timeout_s: float = 5.0, hook_timeout_s: float = 1.0):
        self._node, self._loop = node, loop
        self._server_wait_s, self._accept_timeout_s = server_wait_s, accept_timeout_s
        self._hook_timeout_s = hook_timeout_s
        self._clients: Dict[Tuple[str, str], ActionClient] = {}
        self._handles: Dict[str, object] = {}  # action id -> ClientGoalHandle
        self._lock = threading.Lock()
        self._group = ReentrantCallbackGroup()
        self._on_done = self._on_feedback = None
        self.start_failures: Dict[str, str] = {}  # driver -> why its last call could not start

    def reachable(self, driver: str, tool: str) -> bool:
        """The driver's action server for `tool` is up (the graph knows it)."""
        return self._client(driver, tool).server_is_ready()

    def bind(self, on_done, on_feedback) -> None:
        self._on_done, self._on_feedback = on_done, on_feedback

    def _client(self, driver: str, tool: str) -> ActionClient:
        with self._lock:
            client = self._clients.get((driver, tool))
            if client is None:
                client = SpinSafeActionClient(self._node, Tool, f"{driver}/{tool}", callback_group=self._group)
                self._clients[(driver, tool)] = client
            return client

    async def _server_ready(self, client: ActionClient, wait_s: float) -> bool:
        deadline = self._loop.time() + wait_s
        while not client.server_is_ready():
            if self._loop.time() >= deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    def _to_loop(self, rclpy_future) -> asyncio.Future:
        future = self._loop.create_future()

        def done(f) -> None:
            error = f.exception()  # read here: an unread rclpy exception is printed at teardown
            value = None if error is not None else f.result()

            def settle() -> None:
                if future.done():
                    return
                if error is not None:
                    future.set_exception(error)
                else:
                    future.set_result(value)
            if not self._loop.is_closed():
                self._loop.call_soon_threadsafe(settle)

        rclpy_future.add_done_callback(done)
        return future

    async def start(self, driver: str, tool: str, args: dict) -> StartResult:
        result = await self._start(driver, tool, args)
        if result.accepted:
            self.start_failures.pop(driver, None)
        else:
            self.start_failures[driver] = result.error
        return result

    async def _start(self, driver: str, tool: str, args: dict) -> StartResult:
        client = self._client(driver, tool)
        if not await self._server_ready(client, self._server_wait_s):
            return StartResult(False, error=f"driver {driver!r} is not available ({driver}/{tool} has no server)")

        def feedback(msg) -> None:  # may overtake the acceptance: the tracker keeps it
            self._loop.call_soon_threadsafe(self._on_feedback, bytes(msg.goal_id.uuid).hex(),
                                            msg.feedback.progress_json)

        try:
            send = client.send_goal_async(Tool.Goal(args_json=json.dumps(args)), feedback_callback=feedback)
            handle = await asyncio.wait_for(self._to_loop(send), self._accept_timeout_s)
        except asyncio.TimeoutError:
            return StartResult(False, error=f"driver {driver!r} did not accept the goal within "
                                            f"{self._accept_timeout_s:.1f} s")
        except Exception as exc:
            return StartResult(False, error=f"sending the goal to {driver}/{tool} failed: {exc}")
        if not handle.accepted:
            return StartResult(False, error=f"driver {driver!r} rejected the call")
        action_id = bytes(handle.goal_id.uuid).hex()
        with self._lock:
            self._handles[action_id] = handle
        handle.get_result_async().add_done_callback(lambda f: self._result_arrived(action_id, f))
        return StartResult(True, action_id)

    def _result_arrived(self, action_id: str, future) -> None:
        with self._lock:
            self._handles.pop(action_id, None)
        try:
            result = future.result().result
            status, result_json, error = result.status, result.result_json, result.error
        except Exception as exc:
            status, result_json, error = "failed", "", f"no result from the driver: {exc}"
        self._loop.call_soon_threadsafe(self._on_done, action_id, status, result_json, error)

    def cancel(self, action_id: str) -> None:
        with self._lock:
            handle = self._handles.get(action_id)
        if handle is None:
            return
        try:
            handle.cancel_goal_async()
        except Exception:
            log.exception("cancel request for %s failed", action_id)

    def fire_hook(self, target: HookTarget, hook: str) -> None:
        if _on_loop(self._loop):
            self._loop.create_task(self._fire(target, hook))
        else:
            asyncio.run_coroutine_threadsafe(self._fire(target, hook), self._loop)

    async def _fire(self, target: HookTarget, hook: str) -> None:
        """Send the hook goal; bounded by hook_timeout_s, never awaited by the turn."""
        client = self._client(target.driver, target.action)
        try:
            if not await self._server_ready(client, self._hook_timeout_s):
                log.warning("hook %s: %s/%s is not available", hook, target.driver, target.action)
                return
            send = client.send_goal_async(Tool.Goal(args_json=json.dumps(target.params)))
            handle = await asyncio.wait_for(self._to_loop(send), self._hook_timeout_s)
            log.debug("hook %s -> %s/%s accepted=%s", hook, target.driver, target.action, handle.accepted)
        except asyncio.TimeoutError:
            log.warning("hook %s: %s/%s did not answer within %.1f s", hook, target.driver,
                        target.action, self._hook_timeout_s)
        except Exception:
            log.exception("hook %s -> %s/%s failed", hook, target.driver, target.action)

    def destroy(self) -> None:
        with self._lock:
            clients = list(self._clients.values())
            self._clients.clear()
        for client in clients:
            client.destroy()


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
