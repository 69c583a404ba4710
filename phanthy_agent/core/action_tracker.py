"""When it counts as done: the action completion protocol's bookkeeping.

An acting tool returns its action id as soon as the driver accepts the goal; the tracker keeps
every such action until it is terminal (succeeded, failed, cancelled, timeout). A completion
that arrives before the agent registered its action is kept (bounded, for a while) and applied
at registration, so it is never lost. Deadlines come from the driver-declared timeout.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import OrderedDict
from typing import Callable, List, Optional

log = logging.getLogger(__name__)

SUCCEEDED = "succeeded"
FAILED = "failed"
CANCELLED = "cancelled"
TIMEOUT = "timeout"
RUNNING = "running"
TERMINAL = frozenset({SUCCEEDED, FAILED, CANCELLED, TIMEOUT})
STAMP_TRUST_S = 2.0  # a speaker stamp older than this (or ahead of our clock): clocks differ


@dataclasses.dataclass
class TrackedAction:
    action_id: str
    tool: str
    driver: str
    args: dict
    acting: bool
    t_start: float
    deadline: float
    turn_id: str = ""
    status: str = RUNNING
    result_json: str = ""
    error: str = ""
    t_end: float = 0.0
    t_first_feedback: float = 0.0
    last_progress_json: str = ""
    # speech actions: what the speaker reported playing (typed speaker/playback fields)
    heard_text: Optional[str] = None
    t_first_audio: float = 0.0
    reported: bool = False  # the model has been told how it ended

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL

    def summary(self) -> dict:
        return {"tool": self.tool, "args": self.args, "action_id": self.action_id,
                "status": self.status, "t_start": self.t_start, "t_end": self.t_end}


@dataclasses.dataclass
class _UnregisteredCompletion:
    status: str
    result_json: str
    error: str
    t: float


class ActionTracker:
    def __init__(self, clock: Callable[[], float], unregistered_ttl_s: float = 60.0,
                 unregistered_max: int = 256, history_max: int = 256,
                 on_change: Optional[Callable[[TrackedAction], None]] = None):
        self._clock = clock
        self._actions: "OrderedDict[str, TrackedAction]" = OrderedDict()
        self._unregistered: "OrderedDict[str, _UnregisteredCompletion]" = OrderedDict()
        self._unregistered_feedback: "OrderedDict[str, tuple]" = OrderedDict()
        self._unregistered_playback: "OrderedDict[str, tuple]" = OrderedDict()
        self._unregistered_ttl_s = unregistered_ttl_s
        self._unregistered_max = unregistered_max
        self._history_max = history_max
        self._on_change = on_change or (lambda action: None)

    # --- registration and completion -------------------------------------------------------
    def register(self, action_id: str, tool: str, driver: str, args: dict, acting: bool,
                 timeout_s: float, turn_id: str = "") -> TrackedAction:
        now = self._clock()
        action = TrackedAction(action_id, tool, driver, dict(args), acting, now,
                               now + max(0.0, timeout_s), turn_id)
        self._actions[action_id] = action
        self._trim_history()
        unregistered_playback = self._unregistered_playback.pop(action_id, None)
        if unregistered_playback is not None:
            action.t_first_audio, action.heard_text = unregistered_playback
        feedback = self._unregistered_feedback.pop(action_id, None)
        if feedback is not None:
            action.t_first_feedback, action.last_progress_json = feedback
        completion = self._unregistered.pop(action_id, None)
        if completion is not None:
            log.debug("applying completion of %s that arrived before registration", action_id)
            self._finish(action, completion.status, completion.result_json, completion.error, completion.t)
        return action

    def complete(self, action_id: str, status: str, result_json: str = "",
                 error: str = "") -> Optional[TrackedAction]:
        """Record how an action ended. Returns None when the action is not registered yet (the
        completion is kept for register()), or when it had already ended (first end wins)."""
        if status not in TERMINAL:
            log.error("action %s reported unknown status %r: treating it as failed", action_id, status)
            error = error or f"driver reported unknown status {status!r}"
            status = FAILED
        action = self._actions.get(action_id)
        if action is None:
            self._keep_unregistered(action_id, _UnregisteredCompletion(status, result_json, error, self._clock()))
            return None
        if action.terminal:
            log.debug("ignoring %s for %s: already %s", status, action_id, action.status)
            return None
        self._finish(action, status, result_json, error, self._clock())
        return action

    def feedback(self, action_id: str, progress_json: str) -> None:
        action = self._actions.get(action_id)
        if action is None:  # feedback can overtake registration too
            first = self._unregistered_feedback.pop(action_id, (self._clock(), ""))[0]
            self._unregistered_feedback[action_id] = (first, progress_json)
            while len(self._unregistered_feedback) > self._unregistered_max:
                self._unregistered_feedback.popitem(last=False)
            return
        if action.terminal:
            return
        if not action.t_first_feedback:
            action.t_first_feedback = self._clock()
        action.last_progress_json = progress_json

    def playback(self, action_id: str, heard_text: str, playing: bool, stamp: float = 0.0) -> None:
        """Speaker progress for a speech action (speaker/playback: utterance_id = action id).
        `stamp`: when the speaker reported it (its message's stamp): the first audio's time is
        that, not when the news got here; a stamp in the future or more than
        STAMP_TRUST_S old (another machine's clock) is not trusted."""
        now = self._clock()
        heard_at = stamp if stamp and now - STAMP_TRUST_S <= stamp <= now else now  # 0: none
        action = self._actions.get(action_id)
        if action is None:  # playback can overtake registration too
            first = self._unregistered_playback.pop(action_id, (0.0, ""))[0]
            self._unregistered_playback[action_id] = (first or (heard_at if playing else 0.0), heard_text)
            while len(self._unregistered_playback) > self._unregistered_max:
                self._unregistered_playback.popitem(last=False)
            return
        action.heard_text = heard_text
        if playing and not action.t_first_audio:
            action.t_first_audio = heard_at

    def expire(self) -> List[TrackedAction]:
        """Mark every running action past its deadline as timed out; returns them (the caller
        asks the driver to cancel them)."""
        now = self._clock()
        expired = [a for a in self._actions.values() if not a.terminal and now >= a.deadline]
        for action in expired:
            self._finish(action, TIMEOUT, "",
                         f"no result within the driver-declared timeout of "
                         f"{action.deadline - action.t_start:.1f} s", now)
        return expired

    def abandon(self, action_id: str, status: str, error: str) -> None:
        """End an action locally (e.g. cancel requested but the driver never confirmed)."""
        action = self._actions.get(action_id)
        if action is not None and not action.terminal:
            self._finish(action, status, "", error, self._clock())

    # --- queries ---------------------------------------------------------------------------
    def get(self, action_id: str) -> Optional[TrackedAction]:
        return self._actions.get(action_id)

    def unregistered_count(self) -> int:
        """Results kept for actions not registered yet (bounded by unregistered_max)."""
        return len(self._unregistered)

    def outstanding(self, acting_only: bool = True) -> List[TrackedAction]:
        return [a for a in self._actions.values()
                if not a.terminal and (a.acting or not acting_only)]

    def next_deadline(self) -> Optional[float]:
        deadlines = [a.deadline for a in self._actions.values() if not a.terminal]
        return min(deadlines) if deadlines else None

    def take_unreported(self) -> List[TrackedAction]:
        """Acting actions that ended since the model was last told (marks them reported)."""
        ended = [a for a in self._actions.values() if a.terminal and a.acting and not a.reported]
        for action in ended:
            action.reported = True
        return ended

    def for_turn(self, turn_id: str) -> List[TrackedAction]:
        return [a for a in self._actions.values() if a.turn_id == turn_id]

    # --- internals -------------------------------------------------------------------------
    def _finish(self, action: TrackedAction, status: str, result_json: str, error: str,
                t: float) -> None:
        action.status, action.result_json, action.error, action.t_end = status, result_json, error, t
        self._on_change(action)

    def _keep_unregistered(self, action_id: str, completion: _UnregisteredCompletion) -> None:
        now = completion.t
        while self._unregistered and (len(self._unregistered) >= self._unregistered_max
                               or now - next(iter(self._unregistered.values())).t > self._unregistered_ttl_s):
            self._unregistered.popitem(last=False)
        self._unregistered[action_id] = completion

    def _trim_history(self) -> None:
        while len(self._actions) > self._history_max:
            oldest_id, oldest = next(iter(self._actions.items()))
            if not oldest.terminal:
                break  # never forget a running action
            del self._actions[oldest_id]
