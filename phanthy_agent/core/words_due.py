"""Whether a visitor's words are on their way ("words due"): while a visitor speaks, and briefly
after, their transcript is coming; the turn's acting tools and `finish` wait for it (bounded)
instead of acting past it (action_waits.py asks `until()`).

Facts in: the VAD's onset or resume and its offset (`speech`), a final transcript (`arrived`),
the recognizer failing (`none_coming`). Bounds: `agent.words_due_max_s` from an onset,
`agent.transcript_grace_s` after an offset.
"""

from __future__ import annotations

from typing import Callable


class WordsDue:
    def __init__(self, clock: Callable[[], float], transcript_grace_s: float, words_due_max_s: float):
        self._clock = clock
        self._grace_s = transcript_grace_s
        self._max_s = words_due_max_s
        self._until = 0.0
        self.visitor_speaking = False
        self._arrived = False  # a final transcript came since the visitor last (re)started

    def speech(self, speaking: bool) -> None:
        """VAD onset or resume (True) / offset (False)."""
        now = self._clock()
        self.visitor_speaking = speaking
        if speaking:  # an onset, or speech resuming after a pause: more words are on their way
            self._arrived = False
            self._until = now + self._max_s
        elif self._arrived:
            # the ASR handed the words out at the pause hint, before the VAD's end of speech
            # (a final before the offset): nothing more to wait for (measured: re-arming here cost 2 s in 8 %
            # of voice turns)
            self._until = 0.0
        else:
            self._until = now + self._grace_s

    def arrived(self) -> bool:
        """A final transcript came, whatever becomes of it; True when it ended a wait (whoever
        waits must look again)."""
        self._arrived = True
        if not self._until:
            return False
        self._until = 0.0
        return True

    def none_coming(self) -> None:
        """The recognizer failed: no words are coming."""
        self._until = 0.0

    def until(self) -> float:
        """Until when a visitor's words are due, 0.0 when none are."""
        return self._until if self._until > self._clock() else 0.0
