"""The `collector` node: subscribes to the configured sources and calls the collector core.

Priority > 0 sources (Transcript, Event, ChatMessage or std_msgs/String topics) are forwarded on
phanthy/events; priority 0 sources (any message type, best-effort sensor QoS) only feed the
ring buffers and the summarizer, whose status lines go to phanthy/robot_status and whose alerts
are forwarded like any event. The node is also a driver: it serves `query_events`.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any, Dict

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from rclpy.qos import QoSProfile, ReliabilityPolicy, qos_profile_sensor_data

from phanthy.msg import ChatMessage, Event as EventMsg, RobotStatus, Transcript

from phanthy_common.sdk import DriverNode, ToolCall, ToolFailed

from ..collector.config import SourceConfig, parse_sources
from ..collector.router import CollectorCore
from ..core.events import Event
from . import convert
from phanthy_common.convert import MAX_TEXT_CHARS, clean_text, header, message_to_dict
from phanthy_common.health import OK, WARN, Status
from phanthy_common.params import Params
from phanthy_common.qos import LATCHED

RELIABLE = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
AGENT_TYPES = ("phanthy/msg/Transcript", "phanthy/msg/Event", "phanthy/msg/ChatMessage", "std_msgs/msg/String")


def message_type(type_name: str):
    package, kind, name = type_name.split("/")
    try:
        return getattr(importlib.import_module(f"{package}.{kind}"), name)
    except (ImportError, AttributeError):
        raise ValueError(f"message type {type_name!r} is not installed") from None


class CollectorNode(DriverNode):
    """Configured at construction; /diagnostics: each source's buffer depth and the routing counts."""
    needs_threads = False  # its tools answer at once: a single-threaded executor is enough
    def __init__(self, **kwargs):
        super().__init__("collector", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        config = parse_sources(
            p.nested("sources") or None,
            summary_period_s=p.get("summary_period_s", 1.0, "how often the summarizer runs"),
            max_buffers=p.get("max_buffers", 64, "bound on the number of ring buffers"),
            query_limit_max=p.get("query_limit_max", 100, "most events one query returns"))
        tick_s = p.get("tick_period_s", 0.1, "throttle/summarizer timer period")
        p.warn_unknown()
        self.core = CollectorCore(config, self._now, to_dict=message_to_dict)
        self._lock = threading.Lock()  # the core is single-threaded; ingest holds it ~1 us
        self._events = self.create_publisher(EventMsg, "phanthy/events", RELIABLE)
        self._status = self.create_publisher(RobotStatus, "phanthy/robot_status", LATCHED)
        self._last_status: list = []
        # Two groups: a sensor flood queues in its own lane and never holds up addressed events.
        agent_group, sensor_group = MutuallyExclusiveCallbackGroup(), MutuallyExclusiveCallbackGroup()
        for name, source in config.sources.items():
            if source.is_agent_source:
                self._subscribe_agent_source(name, source, agent_group)
            else:
                msg_type = message_type(source.type)
                self.create_subscription(msg_type, source.topic,
                                         lambda msg, n=name: self._on_reading(n, msg),
                                         qos_profile_sensor_data, callback_group=sensor_group)
        self.create_timer(tick_s, self._tick, callback_group=agent_group)
        self.add_tool(self.query_events,
                      "Read recent raw events of one source (sensors included), newest last. "
                      "Without a source, list the sources.",
                      {"type": "object",
                       "properties": {"source": {"type": "string", "enum": [""] + sorted(config.sources)},
                                      "limit": {"type": "integer", "minimum": 1,
                                                "maximum": config.query_limit_max},
                                      "since": {"type": "number", "minimum": 0,
                                                "description": "only events of the last N seconds (0 = any)"}}},
                      timeout_s=5.0)
        self.get_logger().info("collector: " + ", ".join(
            f"{n}(P{s.priority})" for n, s in sorted(config.sources.items())))

    def _now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def _subscribe_agent_source(self, name: str, source: SourceConfig, group) -> None:
        if source.type not in AGENT_TYPES:
            raise ValueError(f"source {name}: priority > 0 sources must be one of {AGENT_TYPES}, "
                             f"not {source.type}")
        msg_type = message_type(source.type)
        self.create_subscription(msg_type, source.topic, lambda msg: self._on_agent_msg(name, msg),
                                 RELIABLE, callback_group=group)

    def _on_agent_msg(self, name: str, msg: Any) -> None:
        now = self._now()
        if isinstance(msg, Transcript) and msg.error:
            self.get_logger().warning(f"{name}: recognition failed ({msg.error[:200]}): nothing to forward")
            return
        if isinstance(msg, Transcript):
            event = convert.transcript_to_event(msg, name, 1, now)
        elif isinstance(msg, EventMsg):
            event = convert.event_from_msg(msg)
        elif isinstance(msg, ChatMessage):
            event = convert.chat_to_event(msg, name, 1, now)
        else:
            event = Event(source=name, priority=1, text=clean_text(msg.data), stamp=now)
        if len(event.text) >= MAX_TEXT_CHARS:
            self.get_logger().warning(f"{name}: text cut to {MAX_TEXT_CHARS} characters")
        with self._lock:
            forward = self.core.ingest(name, event)
        for out in forward:
            if out.is_transcript and not out.is_final:
                continue  # partials stay queryable; only final transcripts are addressed to the agent
            self._events.publish(convert.event_to_msg(out))

    def _on_reading(self, name: str, msg: Any) -> None:
        with self._lock:
            self.core.ingest_reading(name, msg)

    def _tick(self) -> None:
        with self._lock:
            alerts = self.core.tick()
            lines = self.core.status_lines()
        for alert in alerts:
            self._events.publish(convert.event_to_msg(alert))
        if lines != self._last_status:
            self._last_status = lines
            self._status.publish(RobotStatus(header=header(self._now()), lines=lines))

    def diagnostics(self):
        with self._lock:
            depths = {name: self.core.store.count(name) for name in self.core.store.sources()}
            stats, evictions = self.core.stats.as_dict(), self.core.store.evictions
        dropped = stats["unknown_source"] + stats["conversion_errors"]
        return super().diagnostics() + [
            Status.of("queues", WARN if evictions or dropped else OK,
                      f"{len(depths)} buffer(s), {sum(depths.values())} event(s) kept, {evictions} evicted",
                      **{f"depth.{name}": n for name, n in sorted(depths.items())}, evictions=evictions),
            Status.of("routing", WARN if dropped else OK,
                      f"{stats['events_forwarded']} event(s) forwarded to the agent, {dropped} dropped", **stats)]

    def query_events(self, call: ToolCall) -> Dict[str, Any]:
        with self._lock:
            result = self.core.query(call.args.get("source", ""), call.args.get("limit"),
                                     call.args.get("since", 0.0))
        if "error" in result:
            raise ToolFailed(result["error"])
        return result
