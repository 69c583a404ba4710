"""Run ROS 2 nodes in one process until SIGINT/SIGTERM, then shut down cleanly (exit 0).

Used by `phanthy run`, `phanthy sim`, `phanthy node <name>` and the `ros2 run phanthy <node>`
executables. Driver authors can use it for their own drivers:

    from phanthy_common.runtime import run_nodes
    sys.exit(run_nodes(lambda: [MyDriver()]))
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import threading
from typing import Callable, List, Optional, Sequence

import rclpy
from rclpy.executors import Executor, MultiThreadedExecutor, SingleThreadedExecutor
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions

from .lifecycle import ManagedNode, bring_up_all

try:  # rclpy >= 9 (Kilted): callbacks dispatched from C++
    from rclpy.experimental import EventsExecutor
except ImportError:  # pragma: no cover - older rclpy
    EventsExecutor = None

log = logging.getLogger(__name__)

EXECUTOR_ENV = "PHANTHY_EXECUTOR"  # "standard": no events executor for the audio nodes


def executor_for(node: Node, threads: int = 4):
    """The executor a node spins on (see NodeGroup)."""
    if getattr(node, "needs_threads", False):
        return MultiThreadedExecutor(num_threads=threads)
    if getattr(node, "events_executor", False) and EventsExecutor is not None \
            and os.environ.get(EXECUTOR_ENV, "") != "standard":
        return EventsExecutor(context=node.context)
    return SingleThreadedExecutor(context=node.context)


class NodeGroup:
    """Nodes spinning in the background, each on its own executor and thread.

    Measured here (the vad node with a 50 Hz microphone, next to a speaking robot): one
    MultiThreadedExecutor for the whole graph fell seconds behind (51 of ~1000 frames
    processed). rclpy's multi-threaded executor busy-loops while a mutually exclusive callback
    group is occupied and more work for it is pending, holding the GIL the busy callback needs.
    So: one executor per node; single-threaded for nodes whose callbacks are short, multi-
    threaded only for drivers (long tool handlers must not block cancels and other calls).

    Nodes that take the 50 Hz microphone stream (`events_executor = True`: vad, asr,
    wake_word) spin on rclpy's EventsExecutor: the standard executors rebuild their wait set in
    Python for every message (~1.5 ms of CPU per frame and node). The robot only listening
    (bench/listening_cpu.py): vad 13.8 % + asr 9.9 % of a core on SingleThreadedExecutors,
    9.0 % + 3.5 % on EventsExecutors (one shared single-threaded executor for both: no better);
    the recognizer, which shares the two cores with them, has its transcript out ~50 ms sooner
    (bench/voice.py latency). PHANTHY_EXECUTOR=standard puts them back on SingleThreadedExecutors
    (it is `rclpy.experimental`)."""

    def __init__(self, nodes: Sequence[Node], threads: int = 4,
                 on_crash: Optional[Callable[[], None]] = None):
        self.nodes = list(nodes)
        self.crashed = False
        self._stopping = False
        self._on_crash = on_crash
        self.executors = []
        self._threads = []
        for node in self.nodes:
            executor = executor_for(node, threads)
            executor.add_node(node)
            self.executors.append(executor)
            self._threads.append(threading.Thread(target=self._spin, args=(executor, node), daemon=True,
                                                  name=f"ros-{node.get_name()}"))


    def start(self) -> "NodeGroup":
        for thread in self._threads:
            thread.start()
        return self

    def _spin(self, executor, node: Node) -> None:
        name_os_thread(threading.current_thread().name)
        try:
            if EventsExecutor is not None and not isinstance(executor, Executor):
                # its spin() (rclpy 9.1.2) busy-loops a core and runs no callback; spin_once works
                while not self._stopping and node.context.ok():
                    executor.spin_once(timeout_sec=0.5)
            else:
                executor.spin()
        except Exception:
            if self._stopping:  # shutdown races end up here
                log.debug("executor stopped", exc_info=True)
                return
            # Nothing spins any more: say so loudly and let the process end (exit code 1)
            # rather than hang as a deaf robot.
            log.critical("the ROS executor crashed; nodes no longer receive anything", exc_info=True)
            self.crashed = True
            if self._on_crash is not None:
                self._on_crash()

    def stop(self) -> None:
        self._stopping = True
        for node in self.nodes:
            close = getattr(node, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:
                    log.exception("closing node %s failed", node.get_name())
        for node in self.nodes:  # then the lifecycle says so: deactivated, finalized
            if isinstance(node, ManagedNode):
                node.bring_down()
        for executor in self.executors:
            executor.shutdown(timeout_sec=3.0)
        for thread in self._threads:
            thread.join(timeout=3.0)
        for node in self.nodes:
            try:
                node.destroy_node()
            except Exception:
                log.debug("destroy_node %s failed", node.get_name(), exc_info=True)


M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)
MALLOC_ARENAS = 2


def limit_malloc_arenas(count: int = MALLOC_ARENAS) -> bool:
    """Let the threads created from now on share `count` glibc malloc arenas (glibc's default:
    8 per core, each keeping its own freed memory). The robot's threads (executors, the speaker's
    synthesis, the recognizer's worker) each grew an arena of their own: with 2 the whole voice
    stack peaked at 499 MiB instead of 625 (bench/voice.py barge_in, 15 trials each; playback
    paused alike, 65 vs 78 ms median). An operator's own MALLOC_ARENA_MAX wins. True when the
    limit was set."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        return bool(ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, int(count)))
    except (OSError, AttributeError):  # not glibc: nothing to do
        return False


PR_SET_NAME = 15  # prctl option (linux/prctl.h)


def name_os_thread(name: str) -> None:
    """Give the calling thread its name at the OS level too (15 characters), so `top -H`,
    `ps -L` and /proc/<pid>/task/*/comm tell "ros-vad" from "ros-asr" (Python before 3.14
    leaves them all "python")."""
    try:
        ctypes.CDLL("libc.so.6").prctl(PR_SET_NAME, name.encode()[:15], 0, 0, 0)
    except (OSError, AttributeError):  # not Linux/glibc: names only matter for inspection
        pass


def release_free_memory() -> None:
    """glibc keeps freed heap for reuse; after start-up (model loading) hand it back."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to do
        pass


def run_nodes(make_nodes: Callable[[], List[Node]], ros_args: Optional[List[str]] = None,
              stop: Optional[threading.Event] = None,
              foreground: Optional[Callable[[threading.Event], None]] = None) -> int:
    """Init rclpy, build the nodes, spin until a signal (or `stop`), shut down. Returns the
    exit code. `foreground(stop)` runs on the main thread instead of waiting (the console)."""
    stop = stop or threading.Event()
    limit_malloc_arenas()  # before the nodes start their threads
    # Signals first: a SIGINT/SIGTERM during start-up must also end in a clean exit.
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    rclpy.init(args=["phanthy"] + list(ros_args or []), signal_handler_options=SignalHandlerOptions.NO)
    group = None
    try:
        try:
            nodes = make_nodes()
            bring_up_all(nodes)  # managed nodes built unconfigured: configure all (models), then activate
            release_free_memory()  # what loading the models freed goes back to the system
            group = NodeGroup(nodes, on_crash=stop.set).start()
        except Exception as exc:
            log.error("could not start: %s", exc, exc_info=log.isEnabledFor(logging.DEBUG))
            return 1
        log.info("running %s", ", ".join(n.get_name() for n in group.nodes))
        if foreground is not None:
            foreground(stop)
        while not stop.wait(0.2):
            pass
        log.info("shutting down")
        return 1 if group.crashed else 0
    finally:
        if group is not None:
            group.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if rclpy.ok():
            rclpy.shutdown()
