"""The group in front of the robot: who has spoken, and when the group is over.

Visitors come to an exhibit in groups and leave; the next group never heard what the last one
said nor what the robot told them. A group is over when nobody has said anything for
`end_after_s` (a museum group that lingers still talks within a minute or two; the next one
starts from silence). Then the proactive core forgets the group's conversation (its turns, open
points, what the robot said to it, the exhibit in focus, waiting interventions) and the node
announces it (phanthy/group), so the recognizer's speaker ids start over with speaker_1 instead
of growing across groups. `end_after_s <= 0` keeps one group forever. Pure: time is the caller's.
"""

from __future__ import annotations

import dataclasses
from typing import Dict, List, Optional


@dataclasses.dataclass(frozen=True)
class GroupEnded:
    """A group is over: announce it (phanthy/group) and start the next one from nothing."""
    speakers: List[str]  # its speaker ids, in the order they first spoke ("" = unknown not listed)
    turns: int  # its turns (addressed to the robot or not)
    started: float  # time of its first turn
    last_heard: float  # time of its last turn
    reason: str


class GroupSession:
    def __init__(self, end_after_s: float = 120.0):
        self.end_after_s = end_after_s
        self.turns_by_speaker: Dict[str, int] = {}  # in order of first turn
        self.turns = 0
        self.started: Optional[float] = None
        self.last_heard: Optional[float] = None

    @property
    def speakers(self) -> List[str]:
        return [s for s in self.turns_by_speaker if s]

    def heard(self, speaker: str, t: float) -> None:
        """A visitor's final transcript at t (`speaker` "" when unknown)."""
        if self.started is None:
            self.started = t
        self.last_heard = t if self.last_heard is None else max(self.last_heard, t)
        self.turns += 1
        self.turns_by_speaker[speaker] = self.turns_by_speaker.get(speaker, 0) + 1

    def over(self, now: float) -> bool:
        """Has the group been silent for `end_after_s`? (Never while nobody has spoken.)"""
        return (self.end_after_s > 0 and self.last_heard is not None
                and now - self.last_heard >= self.end_after_s)

    def end(self, reason: str = "") -> GroupEnded:
        """Forget this group (the next turn starts a new one) and say what it was."""
        ended = GroupEnded(self.speakers, self.turns, self.started or 0.0, self.last_heard or 0.0,
                           reason or f"nobody spoke for {self.end_after_s:g} s")
        self.turns_by_speaker, self.turns, self.started, self.last_heard = {}, 0, None, None
        return ended
