"""Every input, kept for a while: bounded per-source ring buffers the model can query.

Each source keeps its newest `buffer_size` entries, raw (an Event, or a sensor payload exactly
as the node received it); the number of buffers is bounded too (the least recently updated is
evicted). Appending is O(1) and never looks inside the payload: conversion to JSON-able dicts
happens only at query time, through the caller's `to_dict`, and only for the entries returned.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections import OrderedDict, deque
from typing import Any, Callable, Deque, Dict, List, Mapping, Optional, Tuple

from ..core.events import Event

log = logging.getLogger(__name__)

MAX_ITEMS = 32  # longest list kept in a query answer (point clouds, ranges, ...)
MAX_CHARS = 1000  # longest string kept in a query answer
MAX_DEPTH = 8


def identity(payload: Any) -> Any:
    return payload


class EventStore:
    """Per-source ring buffers of (stamp, Event-or-payload). Pure; not thread-safe (one owner)."""

    def __init__(self, max_buffers: int = 64, buffer_sizes: Optional[Mapping[str, int]] = None,
                 default_buffer_size: int = 100, query_limit_max: int = 100):
        self.max_buffers = max(1, int(max_buffers))
        self.query_limit_max = max(1, int(query_limit_max))
        self._sizes = dict(buffer_sizes or {})
        self._default_size = max(1, int(default_buffer_size))
        self._buffers: "OrderedDict[str, Deque[Tuple[float, Any]]]" = OrderedDict()
        self._evicted_logged: set = set()
        self.evictions = 0

    # --- ingest (hot path) -----------------------------------------------------------------
    def append(self, source: str, stamp: float, item: Any) -> None:
        """O(1): never converts or inspects `item`."""
        buffer = self._buffers.get(source)
        if buffer is None:
            buffer = self._create(source)
        else:
            self._buffers.move_to_end(source)
        buffer.append((stamp, item))

    def _create(self, source: str) -> Deque[Tuple[float, Any]]:
        while len(self._buffers) >= self.max_buffers:
            evicted, entries = self._buffers.popitem(last=False)
            self.evictions += 1
            level = logging.DEBUG if evicted in self._evicted_logged else logging.WARNING
            if len(self._evicted_logged) < 1024:
                self._evicted_logged.add(evicted)
            log.log(level, "ring buffers full (max_buffers=%d): evicting %r (%d entries), the "
                    "least recently updated, for %r", self.max_buffers, evicted, len(entries),
                    source)
        buffer: Deque[Tuple[float, Any]] = deque(maxlen=self._sizes.get(source, self._default_size))
        self._buffers[source] = buffer
        return buffer

    # --- queries ---------------------------------------------------------------------------
    def __contains__(self, source: str) -> bool:
        return source in self._buffers

    def __len__(self) -> int:
        return len(self._buffers)

    def sources(self) -> List[str]:
        """Source names, least recently updated first."""
        return list(self._buffers)

    def count(self, source: str) -> int:
        buffer = self._buffers.get(source)
        return len(buffer) if buffer is not None else 0

    def summary(self, now: float) -> List[dict]:
        """One line per buffer: name, count, newest stamp and its age; newest-updated last."""
        rows = []
        for name, buffer in self._buffers.items():
            newest = buffer[-1][0] if buffer else None
            rows.append({"source": name, "count": len(buffer), "newest_stamp": newest,
                         "age_s": _round(now - newest) if newest is not None else None})
        return rows

    def query(self, source: str, limit: Any = None, since_s: Any = 0.0, now: float = 0.0,
              to_dict: Callable[[Any], Any] = identity) -> dict:
        """Entries of one source as JSON-able dicts, newest last: at most `limit` (clamped to
        [1, query_limit_max]; invalid -> query_limit_max), only from the last `since_s` seconds
        before `now` when since_s > 0. source="" -> {"sources": summary}. An unknown source
        -> {"error": ...}; never raises."""
        if not source:
            return {"sources": self.summary(now)}
        buffer = self._buffers.get(source)
        if buffer is None:
            known = ", ".join(sorted(self._buffers)) or "none yet"
            return {"error": f"unknown source {source!r} (sources with entries: {known}); "
                             f"query source=\"\" for the list"}
        limit = clamp_limit(limit, self.query_limit_max)
        since = _as_float(since_s)
        cutoff = now - since if since > 0 else -math.inf
        picked: List[Tuple[float, Any]] = []
        for stamp, item in reversed(buffer):
            if stamp >= cutoff:
                picked.append((stamp, item))
                if len(picked) >= limit:
                    break
        entries = [entry_to_dict(stamp, item, now, to_dict) for stamp, item in reversed(picked)]
        return {"source": source, "count": len(buffer), "returned": len(entries), "events": entries}


def clamp_limit(limit: Any, limit_max: int) -> int:
    try:
        value = int(limit)
    except (TypeError, ValueError, OverflowError):
        return limit_max
    return min(max(value, 1), limit_max)


def _as_float(value: Any) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return 0.0
    return value if math.isfinite(value) else 0.0


def _round(value: float) -> float:
    return round(value, 3)


def event_to_dict(event: Event) -> dict:
    """An Event's fields that mean something, JSON-able (defaults omitted)."""
    out: Dict[str, Any] = {"kind": event.kind, "priority": event.priority, "text": event.text}
    defaults = {f.name: f.default for f in dataclasses.fields(Event)
                if f.default is not dataclasses.MISSING}
    for name in ("interrupt_mode", "session", "is_final", "audio_duration_ms", "confidence",
                 "speaker_id", "language", "origin"):
        value = getattr(event, name)
        if value != defaults[name]:
            out[name] = value
    if event.data is not None:
        out["data"] = jsonable(event.data)
    return out


def entry_to_dict(stamp: float, item: Any, now: float, to_dict: Callable[[Any], Any]) -> dict:
    out: Dict[str, Any] = {"stamp": stamp, "age_s": _round(now - stamp)}
    if isinstance(item, Event):
        out.update(event_to_dict(item))
        return out
    try:
        out["data"] = jsonable(to_dict(item))
    except Exception as exc:  # a converter bug must not break the model's tool call
        log.warning("to_dict failed on a %s: %s", type(item).__name__, exc)
        out["error"] = f"could not convert {type(item).__name__}: {exc}"
    return out


def jsonable(value: Any, depth: int = 0) -> Any:
    """A JSON-able copy of `value`, with long lists and strings cut (the model reads it)."""
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return value if len(value) <= MAX_CHARS else value[:MAX_CHARS] + f"... ({len(value)} chars)"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"<{len(value)} bytes>"
    if depth >= MAX_DEPTH:
        return "..."
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if hasattr(value, "tolist"):  # numpy arrays and scalars, array.array: cut before converting
        try:
            size, value = len(value), value[:MAX_ITEMS].tolist()
        except TypeError:  # a numpy scalar
            return jsonable(value.tolist(), depth + 1)
        return _cut([jsonable(v, depth + 1) for v in value], size)
    if isinstance(value, (list, tuple, set, frozenset, deque)):
        items = list(value)
        return _cut([jsonable(v, depth + 1) for v in items[:MAX_ITEMS]], len(items))
    return jsonable(str(value), depth + 1)


def _cut(items: List[Any], size: int) -> List[Any]:
    if size > MAX_ITEMS:
        items.append(f"... ({size - MAX_ITEMS} more)")
    return items
