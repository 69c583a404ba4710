"""Health in plain data: a diagnostic status (the shape of diagnostic_msgs/DiagnosticStatus),
the watchdog that tells a node that stopped publishing, and the audio gap counter behind the
xrun figures. No ROS; clocks are injected.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Dict, List, Mapping, Optional, Tuple

OK, WARN, ERROR, STALE = 0, 1, 2, 3  # diagnostic_msgs/DiagnosticStatus levels
LEVEL_NAMES = {OK: "OK", WARN: "WARN", ERROR: "ERROR", STALE: "STALE"}


@dataclasses.dataclass(frozen=True)
class Status:
    """One component's health: `name` ("vad: model"), a level, one line, key-value details."""
    name: str
    level: int
    message: str
    values: Tuple[Tuple[str, str], ...] = ()

    @classmethod
    def of(cls, name: str, level: int, message: str, **values) -> "Status":
        return cls(name, level, message, tuple((k, _text(v)) for k, v in values.items()))

    def value(self, key: str, default: str = "") -> str:
        return dict(self.values).get(key, default)


def _text(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value == value else "nan"
    return str(value)


class Watchdog:
    """Who stopped publishing: every source (a node's diagnostics, a watched topic) that was
    heard once and then not for longer than its allowance is STALE until it is heard again.

        dog.heard("/robot/vad")            # on each message
        dog.report()                        # [Status("/robot/vad", STALE, "silent for 3.2 s (allowed 3 s)")]
    """

    def __init__(self, clock: Callable[[], float], default_allowance_s: float = 3.0):
        self._clock = clock
        self.default_allowance_s = default_allowance_s
        self._last: Dict[str, float] = {}
        self._allowance: Dict[str, float] = {}
        self._count: Dict[str, int] = {}

    def expect(self, source: str, allowance_s: float) -> None:
        """A source with its own allowance (watched from the start: silent from the outset is stale too)."""
        self._allowance[source] = allowance_s
        self._last.setdefault(source, self._clock())
        self._count.setdefault(source, 0)

    def heard(self, source: str) -> bool:
        """Record a message; True when the source was stale (or new) until now."""
        was_missing = source not in self._last or self._count.get(source, 0) == 0 or self._stale(source)
        self._last[source] = self._clock()
        self._count[source] = self._count.get(source, 0) + 1
        return was_missing

    def forget(self, source: str) -> None:
        """A source that ended on purpose (a node shut down cleanly) is not missed."""
        for table in (self._last, self._allowance, self._count):
            table.pop(source, None)

    def _stale(self, source: str) -> bool:
        return self._clock() - self._last[source] > self._allowance.get(source, self.default_allowance_s)

    def silent_for(self, source: str) -> Optional[float]:
        return self._clock() - self._last[source] if source in self._last else None

    def report(self) -> List[Status]:
        out = []
        for source in sorted(self._last):
            allowed = self._allowance.get(source, self.default_allowance_s)
            silent = self._clock() - self._last[source]
            if self._stale(source):
                heard = f"{self._count[source]} message(s) before" if self._count[source] else "never heard"
                out.append(Status.of(source, STALE, f"stopped publishing: silent for {silent:.1f} s "
                                     f"(allowed {allowed:g} s; {heard})", silent_s=silent, allowed_s=allowed))
            else:
                out.append(Status.of(source, OK, f"publishing (last {silent:.1f} s ago)", silent_s=silent,
                                     allowed_s=allowed, messages=self._count[source]))
        return out


class GapCounter:
    """Audio that should be continuous: a frame that starts later than the previous one ended
    (by more than `tolerance` of a frame) is a gap: samples lost (an xrun at the sound card, or
    frames lost on the way). Counts gaps and the audio they lost."""

    def __init__(self, tolerance: float = 0.5):
        self.tolerance = tolerance
        self.gaps = 0
        self.lost_s = 0.0
        self.frames = 0
        self._end: Optional[float] = None

    def push(self, stamp: float, duration_s: float) -> bool:
        """True when this frame follows a gap."""
        self.frames += 1
        gap = self._end is not None and stamp - self._end > self.tolerance * duration_s
        if gap:
            self.gaps += 1
            self.lost_s += stamp - self._end
        if self._end is None or stamp + duration_s > self._end:
            self._end = stamp + duration_s
        return gap

    def values(self) -> Mapping[str, str]:
        return {"frames": str(self.frames), "gaps": str(self.gaps), "lost_s": _text(self.lost_s)}
