"""The speaker's verdict on words said over the robot.

While the robot speaks, the inbox drops a visitor's words that do not look like a request
(`Routing.awaits_speaker`). The speaker judges the same audio with the same interruption policy
and, when it stops for the visitor, says so in its result (`stopped_by: visitor`). The agent
trusts that verdict instead of judging again: words dropped up to `agent.speaker_verdict_s`
before are taken after all, and words arriving that long after count as said to a robot that
yielded (`yielded()`, read by the inbox).
"""

from __future__ import annotations

import json
from typing import Callable, List, Tuple

from .action_tracker import TrackedAction
from .events import Event

MAX_AWAITING = 8  # dropped utterances kept for the verdict


class SpeakerVerdict:
    def __init__(self, clock: Callable[[], float], verdict_s: float):
        self._clock = clock
        self._verdict_s = verdict_s
        self._yielded_at = 0.0  # when the speaker last stopped because a visitor spoke
        self._awaiting: List[Tuple[Event, float]] = []  # dropped while speaking, until when

    def await_verdict(self, event: Event) -> None:
        """`event` was dropped while the robot spoke: take it if the speaker stops for it soon."""
        now = self._clock()
        self._awaiting = [(e, d) for e, d in self._awaiting if d >= now][-MAX_AWAITING:]
        self._awaiting.append((event, now + self._verdict_s))

    def taken(self, action: TrackedAction) -> List[Event]:
        """An action changed: when it is a speech the speaker stopped for a visitor, the words
        dropped while it spoke that are now taken after all (each once)."""
        if not (action.terminal and stopped_for_visitor(action)):
            return []
        self._yielded_at = now = self._clock()
        taken, self._awaiting = [e for e, d in self._awaiting if d >= now], []
        return taken

    def yielded(self) -> bool:
        """The speaker stopped for a visitor within the last `agent.speaker_verdict_s`."""
        at = self._yielded_at
        return bool(at) and self._clock() - at <= self._verdict_s


def stopped_for_visitor(action: TrackedAction) -> bool:
    """The speaker's verdict on a speech action: it stopped because a visitor talked over it."""
    if '"stopped_by"' not in action.result_json:
        return False
    try:
        return json.loads(action.result_json).get("stopped_by") == "visitor"
    except (ValueError, AttributeError):
        return False
