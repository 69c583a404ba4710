"""Not every event deserves to interrupt a conversation: the collector's routing core.

Priority > 0 sources (speech, chat, scheduler, subagent reports, peer messages) are forwarded
to the main agent at once, with the priority, interrupt mode and session their configuration
gives them. Priority 0 sources (battery, IMU, odometry, ...) never reach the agent: each keeps
only its latest pending sample, handed to the summarizer at most once per throttle_s (latest
wins), and the summarizer runs every summary_period_s and may raise alert events. Everything,
raw and unthrottled, also lands in a bounded ring buffer the model can query.

The priority 0 ingest path is O(1) and never converts or inspects the payload, so a sensor flood
cannot delay a transcript. The ROS node owns the subscriptions, the timer calling tick() and
the query tool; this core has no ROS import and reads time from the injected clock.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from typing import Any, Callable, Dict, List, Optional

from ..core.events import Event
from .config import CollectorConfig, SourceConfig
from .ring_buffer import EventStore, identity
from .summarizer import RuleSummarizer

log = logging.getLogger(__name__)

_EPSILON = 1e-9  # 10 ticks of 0.1 s sum to 0.9999999999999999


@dataclasses.dataclass
class CollectorStats:
    events_received: int = 0  # ingest() calls for priority > 0 sources
    readings_received: int = 0  # ingest_reading() calls for priority 0 sources
    samples_summarized: int = 0  # throttled samples handed to the summarizer
    readings_skipped: int = 0  # readings superseded before their source's throttle let them through
    summaries_run: int = 0
    events_forwarded: int = 0  # events returned to forward: ingest() plus alerts from tick()
    alerts_raised: int = 0
    unknown_source: int = 0  # dropped: the source is not configured
    conversion_errors: int = 0  # to_dict failed on a sample

    def as_dict(self) -> Dict[str, int]:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class _Pending:
    """A priority 0 source's throttle state."""
    throttle_s: float
    stamp: float = 0.0
    payload: Any = None
    has_payload: bool = False
    last_handed: float = -math.inf


class CollectorCore:
    """Routes ingested events; pure, not thread-safe (call it from one thread or under a lock)."""

    def __init__(self, config: CollectorConfig, clock: Callable[[], float],
                 to_dict: Callable[[Any], Any] = identity):
        self.config = config
        self._clock = clock
        self._to_dict = to_dict
        self._sources: Dict[str, SourceConfig] = dict(config.sources)
        self.store = EventStore(config.max_buffers,
                                {n: s.buffer_size for n, s in self._sources.items()},
                                query_limit_max=config.query_limit_max)
        self.summarizer = RuleSummarizer(
            {n: s for n, s in self._sources.items() if not s.is_agent_source}, clock)
        self._pending: Dict[str, _Pending] = {
            n: _Pending(s.throttle_s) for n, s in self._sources.items() if not s.is_agent_source}
        self._last_summary = -math.inf
        self._warned: set = set()
        self.stats = CollectorStats()
        if config.max_buffers < len(self._sources):
            log.warning("max_buffers=%d is less than the %d configured sources: their ring "
                        "buffers will evict each other", config.max_buffers, len(self._sources))

    # --- configuration ---------------------------------------------------------------------
    def source(self, name: str) -> Optional[SourceConfig]:
        return self._sources.get(name)

    def is_agent_source(self, name: str) -> bool:
        """True for a configured priority > 0 source (its events go to the main agent)."""
        source = self._sources.get(name)
        return source is not None and source.is_agent_source

    def agent_sources(self) -> List[SourceConfig]:
        return [s for s in self._sources.values() if s.is_agent_source]

    def sensor_sources(self) -> List[SourceConfig]:
        return [s for s in self._sources.values() if not s.is_agent_source]

    # --- ingest ----------------------------------------------------------------------------
    def ingest(self, source_name: str, event: Event) -> List[Event]:
        """An event from a priority > 0 source: stored, and returned as [event] to forward now,
        with source = source_name, stamp = arrival time (the clock), priority = the configured
        one, interrupt_mode and session = the configured ones when set, else the event's own.
        An event of a priority 0 source is treated as a reading (stored, never forwarded); one
        of an unknown source is dropped (logged once). Returns [] then."""
        source = self._sources.get(source_name)
        if source is None:
            self._unknown(source_name)
            return []
        if not source.is_agent_source:
            self._warn_once(("p0_ingest", source_name), "source %r has priority 0: its events are "
                            "readings (use ingest_reading); not forwarding", source_name)
            self.ingest_reading(source_name, event)
            return []
        now = self._clock()
        routed = dataclasses.replace(
            event, source=source_name, stamp=now, priority=source.priority,
            interrupt_mode=source.interrupt_mode or event.interrupt_mode,
            session=source.session or event.session)
        self.store.append(source_name, now, routed)
        self.stats.events_received += 1
        self.stats.events_forwarded += 1
        return [routed]

    def ingest_reading(self, source_name: str, payload: Any) -> None:
        """A raw sample of a priority 0 source (the ROS message as received). O(1): stored in
        the ring buffer and kept as the source's latest pending sample, never converted here."""
        pending = self._pending.get(source_name)
        if pending is None:
            if source_name in self._sources:  # a priority > 0 source: keep it, forward nothing
                self._warn_once(("p1_reading", source_name), "source %r has priority > 0: "
                                "readings of it are stored, not forwarded", source_name)
                self.store.append(source_name, self._clock(), payload)
            else:
                self._unknown(source_name)
            return
        now = self._clock()
        self.store.append(source_name, now, payload)
        self.stats.readings_received += 1
        if pending.has_payload:
            self.stats.readings_skipped += 1
        pending.stamp, pending.payload, pending.has_payload = now, payload, True

    # --- the background cadence ------------------------------------------------------------
    def tick(self) -> List[Event]:
        """Call on a timer (e.g. every 0.1 s). Hands each priority 0 source's latest sample to
        the summarizer at most once per its throttle_s, runs the summarizer every
        summary_period_s, and returns the alert events to forward (priority > 0)."""
        now = self._clock()
        for name, pending in self._pending.items():
            if not pending.has_payload or now - pending.last_handed < pending.throttle_s - _EPSILON:
                continue
            payload, pending.payload, pending.has_payload = pending.payload, None, False
            pending.last_handed = now
            try:
                data = self._to_dict(payload)
            except Exception as exc:  # one bad message must not stop the other sources
                self.stats.conversion_errors += 1
                self._warn_once(("to_dict", name), "source %r: to_dict failed on a %s: %s",
                                name, type(payload).__name__, exc)
                continue
            self.summarizer.update(name, data, pending.stamp)
            self.stats.samples_summarized += 1
        if now - self._last_summary < self.config.summary_period_s - _EPSILON:
            return []
        self._last_summary = now
        self.stats.summaries_run += 1
        alerts = self.summarizer.evaluate()
        for alert in alerts:
            self.store.append(alert.source, now, alert)
        self.stats.alerts_raised += len(alerts)
        self.stats.events_forwarded += len(alerts)
        return alerts

    def status_lines(self) -> List[str]:
        """The summarizer's status lines (e.g. "battery 76%"), for the agent's context."""
        return self.summarizer.status_lines()

    # --- the query_events tool -------------------------------------------------------------
    def query(self, source: str = "", limit: Any = None, since_s: Any = 0.0) -> dict:
        """query_events(source, limit, since): JSON-able, never raises. source="" lists the
        configured sources and every buffer (name, priority, count, newest stamp, age)."""
        now = self._clock()
        source = (source or "").strip()
        if source and source not in self.store:
            if source in self._sources:
                return {"source": source, "count": 0, "returned": 0, "events": []}
            return {"error": f"unknown source {source!r}; configured sources: "
                             f"{', '.join(self._sources) or 'none'}"}
        answer = self.store.query(source, limit, since_s, now, self._to_dict)
        if not source:
            rows = {row["source"]: row for row in answer["sources"]}
            for name in self._sources:
                rows.setdefault(name, {"source": name, "count": 0, "newest_stamp": None,
                                       "age_s": None})
            for name, row in rows.items():
                configured = self._sources.get(name)
                row["priority"] = configured.priority if configured else None
            answer["sources"] = list(rows.values())
        return answer

    # --- internals -------------------------------------------------------------------------
    def _unknown(self, source_name: str) -> None:
        self.stats.unknown_source += 1
        self._warn_once(("unknown", source_name), "dropping input from unconfigured source %r "
                        "(configured: %s)", source_name, ", ".join(self._sources))

    def _warn_once(self, key: tuple, message: str, *args: Any) -> None:
        if key in self._warned:
            return
        if len(self._warned) < 1024:
            self._warned.add(key)
        log.warning(message, *args)
