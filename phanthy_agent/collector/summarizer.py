"""The background reader of sensor streams: status lines and alerts from throttled samples.

The main agent never sees priority 0 sources. The summarizer keeps each one's latest throttled
sample (a dict), renders the configured status lines from it, and checks the configured alert
conditions with hysteresis: an alert raises one priority > 0 event when its condition becomes
true and re-arms only after the condition has been false. Conditions and templates read fields
by path (`pose.position.x`, `cells[0]`) from the sample; nothing is evaluated as code.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ..core.events import Event, EventKind
from .config import AlertConfig, SourceConfig
from .fields import MissingField, check, render

log = logging.getLogger(__name__)


class RuleSummarizer:
    """Status lines and hysteresis alerts from each source's latest sample. Pure; one owner."""

    def __init__(self, sources: Mapping[str, SourceConfig], clock: Callable[[], float],
                 stale_after_s: Optional[float] = None):
        """stale_after_s: a status line older than this is marked stale (default: the larger
        of 5 s and 5 x the source's throttle_s)."""
        self._sources = dict(sources)
        self._clock = clock
        self._stale_after_s = stale_after_s
        self._latest: Dict[str, Tuple[float, Mapping[str, Any]]] = {}
        self._armed: Dict[Tuple[str, str], bool] = {}
        self._logged: set = set()

    def update(self, source: str, data: Mapping[str, Any], stamp: float) -> None:
        """The latest throttled sample of a source (its dict form) and when it arrived."""
        if not isinstance(data, Mapping):
            data = {"value": data}
        self._latest[source] = (stamp, data)

    def latest(self, source: str) -> Optional[Mapping[str, Any]]:
        entry = self._latest.get(source)
        return entry[1] if entry else None

    # --- alerts ----------------------------------------------------------------------------
    def evaluate(self) -> List[Event]:
        """Alert events whose condition became true since the last evaluation."""
        raised: List[Event] = []
        for name, source in self._sources.items():
            entry = self._latest.get(name)
            if entry is None or not source.alerts:
                continue
            for alert_name, alert in source.alerts.items():
                event = self._check_alert(name, alert_name, alert, entry[1])
                if event is not None:
                    raised.append(event)
        return raised

    def _check_alert(self, source: str, alert_name: str, alert: AlertConfig,
                     data: Mapping[str, Any]) -> Optional[Event]:
        key = (source, alert_name)
        try:
            active, value = check(alert.condition, data)
        except MissingField as exc:
            self._log_once(("missing", source, alert_name), logging.WARNING,
                           "alert %s.%s (%s): %s in the sample: condition counts as false",
                           source, alert_name, alert.when, exc)
            active, value = False, None
        if not active:
            self._armed[key] = True
            return None
        if not self._armed.get(key, True):
            return None  # still true since it fired: fire again only after it cleared
        self._armed[key] = False
        try:
            text = render(alert.text, data)
        except (LookupError, ValueError, TypeError) as exc:
            self._log_once(("alert_text", source, alert_name), logging.ERROR,
                           "alert %s.%s: cannot render text %r: %s", source, alert_name,
                           alert.text, exc)
            text = f"{source}: {alert_name} ({alert.when}; value {value!r})"
        log.info("alert %s.%s raised: %s", source, alert_name, text)
        return Event(source=source, priority=alert.priority, text=text, kind=EventKind.ALERT.value,
                     stamp=self._clock(), interrupt_mode=alert.interrupt_mode,
                     data={"alert": alert_name, "when": alert.when, "value": value})

    def active_alerts(self) -> List[Tuple[str, str]]:
        """(source, alert) pairs whose condition held at the last evaluation."""
        return [key for key, armed in self._armed.items() if not armed]

    # --- status ----------------------------------------------------------------------------
    def status_lines(self) -> List[str]:
        """One line per source with a status template and a sample, in configuration order; a
        line that cannot be rendered is omitted (logged once)."""
        now = self._clock()
        lines = []
        for name, source in self._sources.items():
            entry = self._latest.get(name)
            if not source.status or entry is None:
                continue
            stamp, data = entry
            try:
                line = render(source.status, data)
            except (LookupError, ValueError, TypeError) as exc:
                self._log_once(("status", name), logging.ERROR,
                               "source %s: cannot render status %r: %s", name, source.status, exc)
                continue
            stale_after = self._stale_after_s
            if stale_after is None:
                stale_after = max(5.0, 5.0 * source.throttle_s)
            age = now - stamp
            if age > stale_after:
                line += f" (stale: {age:.0f} s old)"
            lines.append(line)
        return lines

    def _log_once(self, key: tuple, level: int, message: str, *args: Any) -> None:
        if key in self._logged:
            return
        self._logged.add(key)
        log.log(level, message, *args)
