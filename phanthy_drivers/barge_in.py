"""When to stop: the speaker's barge-in controller. Pure (no ROS), driven by an injected clock.

While the robot speaks and a visitor starts talking (VAD onset), playback ducks (or pauses) at
once. The interruption is then committed, and the speech stopped at the next word boundary if
one is near (<= boundary_ms) else at once, when
  - the visitor's speech lasts threshold_ms (the agent's barge_in_threshold_ms), or
  - its transcript is neither a backchannel ("yeah", "mm-hm") nor the robot's own words (echo).
Otherwise playback comes back: as soon as a short speech pauses (the VAD's pause hint, ~160 ms of
silence: backchannels resume fast), or when a short speech yields no words in
transcript_wait_s (a cough, a door). A transcript arriving after that can still commit.
"""

from __future__ import annotations

import dataclasses
import logging
from enum import Enum
from typing import Callable, List, Optional, Protocol, Sequence, Tuple

from phanthy_agent.core.backchannel import is_backchannel, is_echo

log = logging.getLogger(__name__)


class SpeakerControl(Protocol):
    def duck(self, gain: float) -> bool: ...
    def pause_playback(self) -> bool: ...
    def resume_playback(self) -> bool: ...
    def stop_at_boundary(self, max_wait_ms: float) -> Optional[float]: ...


@dataclasses.dataclass(frozen=True)
class BargeInConfig:
    enabled: bool = True
    threshold_ms: int = 500  # visitor speech this long commits the interruption
    on_onset: str = "duck"  # duck | pause: what playback does while undecided
    duck_gain: float = 0.15  # about -16 dB
    boundary_ms: float = 300.0  # finish the current word if it ends within this
    transcript_wait_s: float = 1.5  # after a short speech, how long its words may take
    late_commit_s: float = 2.5  # a transcript this long after a release can still commit
    extra_backchannels: Tuple[str, ...] = ()


class Phase(str, Enum):
    IDLE = "idle"  # not speaking
    WATCHING = "watching"  # speaking, nobody else
    HELD = "held"  # speaking, a visitor too: ducked/paused, undecided
    WAITING = "waiting"  # the visitor's short speech ended: waiting for its words
    COMMITTED = "committed"  # stopping for the visitor


@dataclasses.dataclass
class Segment:
    t_start: float  # speech start (VAD, padded)
    t_onset: float  # when the onset reached us
    t_end: float = 0.0  # speech end, once known
    released_at: float = 0.0


class BargeInController:
    def __init__(self, config: BargeInConfig, clock: Callable[[], float], speaker: SpeakerControl):
        self.config, self._clock, self._speaker = config, clock, speaker
        self.phase = Phase.IDLE
        self.segment: Optional[Segment] = None
        self._played: List[str] = []  # texts of this utterance (and the previous), for echo
        self._released: List[Segment] = []  # released recently: a late transcript may commit
        self.log: List[Tuple[float, str, str]] = []  # (time, action, why) for tests and benchmarks

    # --- inputs ------------------------------------------------------------------------------
    def playback(self, playing: bool, text: str = "") -> None:
        """The speaker started (or ended) an utterance."""
        if playing:
            if text and (not self._played or self._played[-1] != text):
                self._played = (self._played + [text])[-3:]
            if self.phase is Phase.IDLE:
                self.phase = Phase.WATCHING
        else:
            self.phase, self.segment = Phase.IDLE, None

    def activity(self, kind: str, t_speech_start: float = 0.0, t: float = 0.0) -> None:
        """A VoiceActivity event: onset | pause | resume | offset (t = event time)."""
        if not self.config.enabled or self.phase in (Phase.IDLE, Phase.COMMITTED):
            return
        now = self._clock()
        if kind == "onset":
            self.segment = Segment(t_start=t_speech_start or t or now, t_onset=now)
            if self.phase is not Phase.HELD:
                self._hold("visitor started speaking")
        elif kind in ("pause", "offset") and self.phase is Phase.HELD and self.segment is not None:
            self.segment.t_end = t or now
            if self._speech_s(self.segment.t_end) * 1000 >= self.config.threshold_ms:
                self._commit(f"{self._speech_s(self.segment.t_end) * 1000:.0f} ms of speech")
            else:  # short so far: back to normal at once, decide on its words
                self._release("short speech paused", waiting=True)
        elif kind == "resume" and self.phase is Phase.WAITING and self.segment is not None:
            self.segment.t_end = 0.0
            self._hold("visitor speaks again")

    def transcript(self, text: str, t_speech_start: float = 0.0) -> None:
        """A final transcript of the visitor's speech."""
        if not self.config.enabled or self.phase in (Phase.IDLE, Phase.COMMITTED):
            return
        if not self._concerns_us(t_speech_start):
            return
        if is_echo(text, self._played):
            self._release(f"echo of our own words: {text!r}")
        elif is_backchannel(text, self.config.extra_backchannels):
            self._release(f"backchannel: {text!r}")
        else:
            self._commit(f"the visitor said {text!r}")

    def tick(self) -> None:
        """Time passing: long speech commits; a short speech without words is let go."""
        if not self.config.enabled or self.segment is None:
            return
        now = self._clock()
        if self.phase is Phase.HELD and not self.segment.t_end \
                and (now - self.segment.t_start) * 1000 >= self.config.threshold_ms:
            self._commit(f"speech longer than {self.config.threshold_ms} ms")
        elif self.phase is Phase.WAITING and now - self.segment.released_at > self.config.transcript_wait_s:
            self.phase, self.segment = Phase.WATCHING, None
            self._note("gave up", "no words came (a cough, a noise)")

    # --- decisions ---------------------------------------------------------------------------
    def _speech_s(self, t_end: float) -> float:
        return max(0.0, t_end - self.segment.t_start) if self.segment else 0.0

    def _concerns_us(self, t_speech_start: float) -> bool:
        if self.phase in (Phase.HELD, Phase.WAITING):
            return True
        now = self._clock()
        self._released = [s for s in self._released if now - s.released_at <= self.config.late_commit_s]
        return any(abs(s.t_start - t_speech_start) < 1.0 for s in self._released) if t_speech_start else False

    def _hold(self, why: str) -> None:
        self.phase = Phase.HELD
        if self.config.on_onset == "pause":
            self._speaker.pause_playback()
        else:
            self._speaker.duck(self.config.duck_gain)
        self._note(self.config.on_onset, why)

    def _release(self, why: str, waiting: bool = False) -> None:
        if self.config.on_onset == "pause":
            self._speaker.resume_playback()
        else:
            self._speaker.duck(1.0)
        if self.segment is not None:
            self.segment.released_at = self._clock()
            self._released.append(self.segment)
        self.phase = Phase.WAITING if waiting else Phase.WATCHING
        if not waiting:
            self.segment = None
        self._note("resume", why)

    def _commit(self, why: str) -> None:
        self.phase = Phase.COMMITTED
        if self.config.on_onset == "pause":
            self._speaker.resume_playback()  # finish the word it was on, then stop
        stop_at = self._speaker.stop_at_boundary(self.config.boundary_ms)
        self._note("stop", f"{why}; stopping at {stop_at}")

    def _note(self, action: str, why: str) -> None:
        self.log.append((self._clock(), action, why))
        log.info("barge-in: %s (%s)", action, why)

    def actions(self, kind: Optional[str] = None) -> Sequence[Tuple[float, str, str]]:
        return [entry for entry in self.log if kind is None or entry[1] == kind]
