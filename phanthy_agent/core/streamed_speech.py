"""Speech while the model writes (`agent.stream_speech`): one model step's first complete
sentences are said while the model still writes the rest; the turn says the rest once the step
returned (phanthy_common.sentences.unspoken). With a model writing ~30 tokens/s, the first
audio comes after its first sentence, not after the whole reply. A reply that arrives whole (the
speech not yet started when the step returns) is said in one piece.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Optional

from phanthy_common.sentences import bound_speech, complete_sentences


class SpeechWhileWritten:
    """For one model step: feed it the text deltas (`on_text`); `settle()` once the step
    returned, `cancel()` if it failed. `said` is the start of the reply it said ("" if none).

    `say(text)` speaks (the turn's speech); `can_say()` is whether to speak while writing now
    (streaming enabled and a speech tool available)."""

    def __init__(self, say: Callable[[str], Awaitable[None]], can_say: Callable[[], bool],
                 max_spoken_chars: int):
        self._say = say
        self._can_say = can_say
        self._max_spoken_chars = max_spoken_chars
        self._written = ""
        self._speech: Optional[asyncio.Future] = None
        self._started = False
        self.said = ""

    def on_text(self, delta: str) -> None:
        if self._speech is not None or not self._can_say():
            return
        self._written += delta
        ready = bound_speech(complete_sentences(self._written), self._max_spoken_chars)
        if ready.strip():
            self.said = ready
            self._speech = asyncio.ensure_future(self._say_started(ready))

    async def _say_started(self, text: str) -> None:
        self._started = True
        await self._say(text)

    def cancel(self) -> None:
        """The step failed or the turn was cancelled: a started speech is stopped with the turn."""
        if self._speech is not None:
            self._speech.cancel()

    async def settle(self) -> None:
        """The step returned: a speech that never ran is dropped (the whole reply is said in one
        piece); a started one is awaited, so its speak action is started (or skipped) before
        anything else of the step runs."""
        if self._speech is not None and not self._started:
            self._speech.cancel()
            self.said = ""
        elif self._speech is not None:
            await self._speech
