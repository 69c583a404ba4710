"""The `health` node: the watchdog. Every phanthy node publishes its diagnostics on
`/diagnostics` once a second (phanthy_common/lifecycle.py); a node that stops (a crashed or
stuck executor, a killed process) stops publishing, and this node reports it STALE on
`/diagnostics` ("<node>: stopped publishing: silent for 3.4 s") and in its log. Topics that must
keep flowing (the microphone on audio/in, say) can be watched too.

Parameters: `stale_after_s` (3.0: a node silent this long is stale), `topics.<name>.topic`,
`topics.<name>.type` (`pkg/msg/Name`), `topics.<name>.max_silence_s` (2.0). A node that shuts
down cleanly (its last report says `finalized`) is forgotten, not missed.
"""

from __future__ import annotations

import threading

from diagnostic_msgs.msg import DiagnosticArray
from rclpy.qos import qos_profile_sensor_data

from phanthy_common.health import STALE, Watchdog
from phanthy_common.lifecycle import DIAGNOSTICS_TOPIC, ManagedNode
from phanthy_common.params import Params

from .collector_node import message_type


class HealthNode(ManagedNode):
    """Configured at construction; /diagnostics: one status per watched node and topic."""

    def __init__(self, **kwargs):
        super().__init__("health", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        stale_after = p.get("stale_after_s", 3.0, "a node whose diagnostics are silent this long is stale")
        topics = p.nested("topics")
        p.warn_unknown()
        self._lock = threading.Lock()
        self.watchdog = Watchdog(lambda: self.get_clock().now().nanoseconds * 1e-9, stale_after)
        self._reported_stale: set = set()
        self.create_subscription(DiagnosticArray, DIAGNOSTICS_TOPIC, self._on_diagnostics, 50)
        for name, spec in sorted(topics.items()):
            topic, allowance = str(spec.get("topic", "")), float(spec.get("max_silence_s", 2.0))
            if not topic or not spec.get("type"):
                raise ValueError(f"health: topics.{name} needs topic and type")
            source = f"topic {self.resolve_topic_name(topic)}"
            self.watchdog.expect(source, allowance)
            self.create_subscription(message_type(str(spec["type"])), topic,
                                     lambda _msg, s=source: self._on_topic(s), qos_profile_sensor_data)
        self.create_timer(0.5, self._check)

    def _on_diagnostics(self, msg: DiagnosticArray) -> None:
        if not msg.status:
            return
        source = msg.status[0].hardware_id
        if source == self.get_fully_qualified_name():
            return
        finalized = any(s.name.endswith(": lifecycle") and s.message == "finalized" for s in msg.status)
        with self._lock:
            if finalized:
                self.watchdog.forget(source)
                self._reported_stale.discard(source)
            else:
                self._heard(source)

    def _on_topic(self, source: str) -> None:
        with self._lock:
            self._heard(source)

    def _heard(self, source: str) -> None:  # under the lock
        self.watchdog.heard(source)
        if source in self._reported_stale:
            self._reported_stale.discard(source)
            self.get_logger().info(f"{source} is publishing again")

    def _check(self) -> None:
        with self._lock:
            report = self.watchdog.report()
        for status in report:
            if status.level == STALE and status.name not in self._reported_stale:
                self._reported_stale.add(status.name)
                self.get_logger().error(f"{status.name}: {status.message}")

    def diagnostics(self):
        with self._lock:
            return self.watchdog.report()
