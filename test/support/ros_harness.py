"""Real rclpy nodes over real DDS for integration tests: spin them, wait on events."""

import asyncio
import threading
import time
from typing import Callable, List, Union

from phanthy_common.runtime import NodeGroup


def wait_for(predicate: Callable[[], bool], timeout: float = 20.0,
             what: Union[str, Callable[[], str]] = "condition") -> None:
    """Wait (generously) for something that happens on other threads; fail with `what`
    (a callable is asked at failure time, to describe what the state was)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what() if callable(what) else what}")
        time.sleep(0.01)


class LoopThread:
    """An asyncio loop on its own thread (what the agent node does)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coro, timeout: float = 30.0):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, fn, *args):
        done = threading.Event()
        out: List = []
        self.loop.call_soon_threadsafe(lambda: (out.append(fn(*args)), done.set()))
        done.wait(10)
        return out[0] if out else None

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)


class Collect:
    """Subscribe and keep every message (thread-safe list)."""

    def __init__(self, node, msg_type, topic: str, qos=10):
        self.messages: List = []
        self._lock = threading.Lock()
        self.sub = node.create_subscription(msg_type, topic, self._on, qos)

    def _on(self, msg) -> None:
        with self._lock:
            self.messages.append(msg)

    def snapshot(self) -> List:
        with self._lock:
            return list(self.messages)

    def wait(self, predicate=lambda msgs: bool(msgs), timeout: float = 20.0, what: str = "messages"):
        wait_for(lambda: predicate(self.snapshot()), timeout, what)
        return self.snapshot()


def spin(*nodes) -> NodeGroup:
    return NodeGroup(list(nodes)).start()
