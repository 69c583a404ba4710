"""Is the robot addressed? In a group only the wake word or the robot's name makes a turn a
request to it ("hey robot, how old is this skeleton?", "robot, who found it?", "... what do you
think, robot?"); every other turn is the people talking among themselves.

A wake word heard by openWakeWord (voice/wake) binds to the next final transcript that ends
within `bind_s` after it (Jarvis binds a wake event to the same speaker's turn that overlaps it
or begins within 5 s). A wake word alone ("hey robot", "yes, robot?") with no question is a
*floor grant*: it gives a raised hand the floor. Pure; time is the caller's.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Optional, Sequence

GRANT_PHRASES = ("yes", "go ahead", "what is it", "what's up", "tell us", "you wanted to say something",
                 "do you want to say something", "you had something", "go on", "speak", "yes please", "sure")


@dataclasses.dataclass(frozen=True)
class Address:
    addressed: bool
    text: str  # without the wake word or name
    grant: bool = False  # gives the robot the floor (wake word or name with no request)


class AddressDetector:
    def __init__(self, names: Sequence[str] = ("robot", "jarvis"),
                 wake_phrases: Sequence[str] = ("hey robot", "hey jarvis", "ok robot", "okay robot"),
                 bind_s: float = 5.0, grant_phrases: Sequence[str] = GRANT_PHRASES):
        self.names = tuple(n.lower() for n in names if n)
        self.wake_phrases = tuple(p.lower() for p in wake_phrases if p)
        self.bind_s = bind_s
        self.grant_phrases = tuple(p.lower() for p in grant_phrases)
        self._wake_at: Optional[float] = None
        alternatives = "|".join(re.escape(x) for x in sorted(self.wake_phrases + self.names, key=len, reverse=True))
        self._leading = re.compile(rf"^\W*(?:{alternatives})\b[\s,.!?:;-]*", re.IGNORECASE) if alternatives else None
        names = "|".join(re.escape(n) for n in self.names)
        self._trailing = re.compile(rf"[\s,]+(?:{names})\s*([?.!]*)\s*$", re.IGNORECASE) if names else None

    def wake(self, t: float) -> None:
        """voice/wake: a wake word was heard at t."""
        self._wake_at = t

    def forget(self) -> None:
        self._wake_at = None

    def classify(self, text: str, t: float) -> Address:
        """A final transcript that ended at t."""
        stripped = text.strip()
        woken = self._wake_at is not None and 0.0 <= t - self._wake_at <= self.bind_s
        rest = stripped
        named = False
        if self._leading is not None:
            m = self._leading.match(rest)
            if m:
                named, rest = True, rest[m.end():]
        if not named and self._trailing is not None:
            m = self._trailing.search(rest)
            if m:
                named, rest = True, rest[:m.start()] + m.group(1)
        if not (named or woken):
            return Address(False, stripped)
        if woken:
            self._wake_at = None  # one wake word, one turn
        rest = rest.strip()
        words = re.sub(r"[^\w\s']", " ", rest.lower()).split()
        grant = not words or " ".join(words) in self.grant_phrases
        return Address(True, rest, grant=grant)
