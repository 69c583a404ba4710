"""The event type every mechanism speaks: what arrived, from where, how urgent."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any, Mapping, Optional

from phanthy_common.text_rules import normalize_text  # noqa: F401 (part of the event vocabulary)

ANONYMOUS_SPEAKER = "anonymous_speaker"  # Transcript.speaker_id when nobody could tell who spoke


class SteerFrom(str, Enum):
    """Whose words may steer or interrupt a running turn (agent.steer_from)."""

    SAME_SPEAKER = "same_speaker"  # only the turn's own speakers'; another speaker's wait (queue)
    ANYONE = "anyone"

    @classmethod
    def parse(cls, value: str) -> "SteerFrom":
        try:
            return cls(value.strip().lower())
        except ValueError:
            raise ValueError(f"agent.steer_from must be same_speaker or anyone, not {value!r}") from None


class InterruptMode(str, Enum):
    """What a P>0 event does to a running turn."""

    STEER = "steer"  # join the running turn at its next model step
    INTERRUPT = "interrupt"  # cancel the running turn, start a new one with this event
    QUEUE = "queue"  # trigger the next turn after this one ends

    @classmethod
    def parse(cls, value: str, default: "InterruptMode") -> "InterruptMode":
        if not value:
            return default
        try:
            return cls(value.strip().lower())
        except ValueError:
            raise ValueError(f"unknown interrupt mode {value!r} (steer | interrupt | queue)") from None


class EventKind(str, Enum):
    TRANSCRIPT = "transcript"  # speech (or typed text) from voice/transcript
    TEXT = "text"  # a chat message, a scheduler or subagent report, a peer message
    ALERT = "alert"  # raised by the sensor summarizer
    READING = "reading"  # a sensor sample (priority 0)
    ACTION = "action"  # an action completion that matters after its turn ended


@dataclasses.dataclass(frozen=True)
class Event:
    source: str
    priority: int
    text: str = ""
    kind: str = EventKind.TEXT.value
    stamp: float = 0.0
    interrupt_mode: str = ""  # "" = the agent's default
    session: str = ""
    sender: str = ""  # a chat message's author (channel's id)
    role: str = ""  # the sender's role (visitor | operator | admin); "" = the agent's default
    # transcript fields (typed: the backchannel filter reads audio_duration_ms, nothing else)
    is_final: bool = True
    audio_duration_ms: int = 0  # 0 = not speech (typed text): never a backchannel by length
    confidence: float = -1.0
    speaker_id: str = ""
    language: str = ""
    origin: str = ""
    # voice timing of a transcript (seconds, 0 = unknown), for the turn record
    t_speech_end: float = 0.0
    t_eos_detected: float = 0.0
    t_transcript_ready: float = 0.0
    # a sensor reading's fields (priority 0 sources), for the summarizer and query_events
    data: Optional[Mapping[str, Any]] = None

    @property
    def is_transcript(self) -> bool:
        return self.kind == EventKind.TRANSCRIPT.value

    @property
    def speaker(self) -> str:
        """Who said it, when the recognizer could tell (speaker_1, ..., or an enrolled name);
        "" when unknown (typed text, `anonymous_speaker`, no attribution)."""
        if not self.is_transcript or self.speaker_id in ("", ANONYMOUS_SPEAKER):
            return ""
        return self.speaker_id




