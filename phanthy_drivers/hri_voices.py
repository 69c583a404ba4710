"""What the robot hears, as ROS4HRI (REP-155) voices: one voice per speaker id, the speech
heard from it (incremental and final) and whether it is speaking, and the voices tracked now.
No ROS; the `hri` node (phanthy_drivers/hri_node.py) publishes what this returns.

Who is speaking: the VAD does not know (issue 16's attribution arrives with the transcript), so
`is_speaking` goes to the voice of the last transcript (`anonymous_speaker` before any); when a
transcript names another voice while speech goes on, the speaking flag moves to it.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable, Dict, List, Optional, Union

DEFAULT_VOICE = "anonymous_speaker"


@dataclasses.dataclass(frozen=True)
class Speech:
    voice: str
    incremental: str
    final: str
    confidence: float
    locale: str


@dataclasses.dataclass(frozen=True)
class Speaking:
    voice: str
    speaking: bool


Update = Union[Speech, Speaking]


def voice_id(speaker_id: str) -> str:
    """A ROS4HRI id usable as a topic name token: lower case letters, digits and `_`, not
    starting with a digit ("Alice Smith" -> "alice_smith", "" -> anonymous_speaker)."""
    token = re.sub(r"[^a-z0-9_]+", "_", (speaker_id or "").strip().lower()).strip("_")[:48]
    if not token:
        return DEFAULT_VOICE
    return f"v_{token}" if token[0].isdigit() else token


def locale_of(language: str) -> str:
    """IETF "en-US" -> ROS4HRI's "en_US"."""
    parts = (language or "").replace("_", "-").split("-")
    if len(parts) >= 2 and parts[0] and parts[1]:
        return f"{parts[0].lower()}_{parts[1].upper()}"
    return parts[0].lower()


class HumanVoices:
    def __init__(self, clock: Callable[[], float], ttl_s: float = 30.0, max_voices: int = 64):
        self._clock, self.ttl_s, self.max_voices = clock, ttl_s, max_voices
        self._last_heard: Dict[str, float] = {}
        self.current = DEFAULT_VOICE
        self.speaking = False

    def _known(self, voice: str) -> str:
        """The voice, or the default one when the bound of distinct voices is reached."""
        if voice not in self._last_heard and len(self._last_heard) >= self.max_voices:
            self._forget_old()
            if len(self._last_heard) >= self.max_voices:
                return DEFAULT_VOICE
        self._last_heard[voice] = self._clock()
        return voice

    def transcript(self, speaker_id: str, text: str, is_final: bool, confidence: float,
                   language: str) -> List[Update]:
        voice = self._known(voice_id(speaker_id))
        updates: List[Update] = []
        if voice != self.current:
            if self.speaking:
                updates += [Speaking(self.current, False), Speaking(voice, True)]
            self.current = voice
        confidence = float(confidence) if confidence is not None and 0.0 <= confidence <= 1.0 else 0.0
        updates.append(Speech(voice, "" if is_final else text, text if is_final else "", confidence,
                              locale_of(language)))
        return updates

    def activity(self, speaking: bool) -> List[Update]:
        if speaking == self.speaking:
            return []
        self.speaking = speaking
        self._known(self.current)
        return [Speaking(self.current, speaking)]

    def _forget_old(self) -> None:
        now = self._clock()
        for voice, t in list(self._last_heard.items()):
            if now - t > self.ttl_s and voice != self.current:
                del self._last_heard[voice]

    def tracked(self) -> List[str]:
        """Voices heard within ttl_s (the one speaking now included)."""
        self._forget_old()
        return sorted(self._last_heard)

    def last_voice(self) -> Optional[str]:
        return self.current if self._last_heard else None
