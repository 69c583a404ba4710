"""When to stop: the speaker's barge-in controller. Pure (no ROS), driven by an injected clock.

While the robot speaks and a visitor starts talking (VAD onset), playback pauses (or ducks) at
once. Pausing is the default: while the decision is pending the microphone then hears the
visitor only, not the robot (the VAD is level-blind: a ducked echo kept the visitor's "speech"
going in tests). The interruption is then committed (paused: the speech ends where it paused;
ducked: it finishes the word it was on if that ends within boundary_ms, else stops at once) when
  - the visitor's words so far (the ASR's early transcript, ~0.6 s into their speech while it
    still goes on, or the final one) are not the robot's own words (echo) and are a request by
    the interruption policy (phanthy_common/interruption.py, shared with the agent's inbox:
    not a backchannel, not too short, recognized surely enough, enough words or one that asks
    to stop), or
  - the speech lasts commit_after_ms whatever its words.
The early transcript needs early_min_confidence instead of the policy's min_confidence. Early
words that call for attention ("actually", "sorry", "wait", "where": phanthy_common/text_rules.py)
commit at once; other early words only once the speech has outlasted a backchannel
(early_commit_after_ms), holding the reply until then or until the final words decide: tiny.en
made "in the nature." at 0.72 of piper's 0.7 s "mm-hm", whose final words are a hum.
Duration alone is not enough below commit_after_ms: synthesized "mm-hm" lasts 0.64-0.86 s
(espeak-ng, piper), longer than the policy's 500 ms, and a listener's "mmmm-hmm" is not a
request to stop. Otherwise playback comes back: as soon as a short speech pauses (the
VAD's silence reaching release_after_ms, 160 ms: backchannels resume fast), or when it yields no words in
transcript_wait_s (a cough, a door). A transcript arriving after that can still commit.

Sooner than the VAD: a "candidate" (the vad node's fast double-talk cue from the echo
canceller, phanthy_perception/double_talk.py) pauses playback ~80 ms before the VAD's onset
could; the onset that follows turns it into a visitor's segment as above, a "dismissed" (or
candidate_timeout_s without an onset) resumes playback. A candidate alone never commits.
"""

from __future__ import annotations

import dataclasses
import logging
from enum import Enum
from typing import Callable, List, Optional, Protocol, Sequence, Tuple

from phanthy_common.interruption import InterruptionPolicy
from phanthy_common.text_rules import calls_for_attention, is_echo

log = logging.getLogger(__name__)


class SpeakerControl(Protocol):
    def duck(self, gain: float) -> bool: ...
    def pause_playback(self) -> bool: ...
    def resume_playback(self) -> bool: ...
    def stop_at_boundary(self, max_wait_ms: float) -> Optional[float]: ...


@dataclasses.dataclass(frozen=True)
class BargeInConfig:
    enabled: bool = True
    commit_after_ms: int = 1500  # visitor speech this long commits the interruption, whatever its words
    policy: InterruptionPolicy = InterruptionPolicy()  # which words are a request (the agent's too)
    early_min_confidence: float = 0.5  # the policy's min_confidence for the early transcript of
    # ongoing speech (tiny.en made "Yeah, man, make sure." at 0.42 of a hum's first 0.6 s; a
    # real request that misses it still commits on its final words or after commit_after_ms)
    early_commit_after_ms: float = 900.0  # early words commit once the speech lasts this long
    # (synthesized "mm-hm" lasts 0.64-0.86 s; a request goes on, a backchannel has ended)
    on_onset: str = "pause"  # pause | duck: what playback does while undecided
    duck_gain: float = 0.15  # about -16 dB
    boundary_ms: float = 300.0  # finish the current word if it ends within this
    transcript_wait_s: float = 1.5  # after a short speech, how long its words may take
    late_commit_s: float = 1.0  # a transcript this long after a release can still commit (later:
    # the robot has been talking again for a while; the agent still gets the words and steers)
    onset_lookback_s: float = 0.1  # VAD onsets arrive 60-150 ms after the speech started
    candidate_timeout_s: float = 0.6  # a candidate no onset confirmed (its "dismissed" lost)
    release_after_ms: float = 160.0  # the visitor's silence that lets the reply go on (the VAD's
    # pause hint comes sooner, for the recognizer: resuming at a comma would make the robot blurt)


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
    silent_since: float = 0.0  # clock time the visitor's silence began, by the VAD's count
    released_at: float = 0.0
    tentative: bool = False  # a candidate: maybe speech, no onset yet
    early_request: str = ""  # early words that are a request, waiting for the speech to go on


class BargeInController:
    def __init__(self, config: BargeInConfig, clock: Callable[[], float], speaker: SpeakerControl):
        self.config, self._clock, self._speaker = config, clock, speaker
        self.phase = Phase.IDLE
        self.segment: Optional[Segment] = None
        self._played: List[str] = []  # texts of this utterance (and the previous), for echo
        self._released: List[Segment] = []  # released recently: a late transcript may commit
        self.committed_at = 0.0  # clock time the controller last stopped the robot for a visitor
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

    def activity(self, kind: str, t_speech_start: float = 0.0, t: float = 0.0, silence_ms: int = 0) -> None:
        """A VoiceActivity event: onset | pause | resume | offset (t = event time; silence_ms:
        the silence the VAD has counted so far, pause and offset)."""
        if not self.config.enabled or self.phase in (Phase.IDLE, Phase.COMMITTED):
            return
        now = self._clock()
        if kind == "candidate":
            if self.phase is Phase.WATCHING:
                self.segment = Segment(t_start=now, t_onset=now, tentative=True)
                self._hold("a sound over our voice, maybe speech (candidate)")
            return
        if kind == "dismissed":
            if self.phase is Phase.HELD and self.segment is not None and self.segment.tentative:
                self.segment = None
                self._release("no speech followed the sound")
            return
        if kind == "onset":
            # The VAD's padded start can lie far back when the probability hovered below the
            # threshold for a while (a residual echo does): count the speech from at most
            # onset_lookback_s before the onset reached us.
            start = max(t_speech_start or t or now, now - self.config.onset_lookback_s)
            self.segment = Segment(t_start=start, t_onset=now)
            if self.phase is not Phase.HELD:
                self._hold("visitor started speaking")
        elif kind in ("pause", "offset") and self.phase is Phase.HELD and self.segment is not None:
            self.segment.t_end = t or now
            self.segment.silent_since = now - silence_ms / 1000.0
            if self._speech_s(self.segment.t_end) * 1000 >= self.config.commit_after_ms:
                self._commit(f"{self._speech_s(self.segment.t_end) * 1000:.0f} ms of speech")
            else:  # back to normal once the silence is a real pause; decide on its words
                self._release_at_pause(now, final=kind == "offset")
        elif kind == "resume" and self.phase is Phase.HELD and self.segment is not None \
                and not self.segment.tentative:
            self.segment.t_end = self.segment.silent_since = 0.0  # a short gap: still held
        elif kind == "resume" and self.phase is Phase.WAITING and self.segment is not None:
            self.segment.t_end = self.segment.silent_since = 0.0
            self._hold("visitor speaks again")

    def transcript(self, text: str, t_speech_start: float = 0.0, final: bool = True,
                   confidence: float = -1.0, duration_ms: int = 0) -> None:
        """A transcript of the visitor's speech: final, or the early one of ongoing speech
        (confidence 0..1, -1 unknown; duration_ms of speech, 0 unknown)."""
        if not self.config.enabled or self.phase in (Phase.IDLE, Phase.COMMITTED):
            return
        if not self._concerns_us(t_speech_start):
            return
        if not final and self.phase is not Phase.HELD:
            # The speech already ended: its final transcript, decoded on all of it, is due
            # within ~0.3 s; an early guess on its first 0.6 s ("yeah" heard as "here") must
            # not stop the robot now.
            self._note("listen", f"early words after the speech ended, waiting for the final: {text!r}")
            return
        if is_echo(text, self._played):
            self._release(f"echo of our own words: {text!r}")
            return
        floor = self.config.policy.min_confidence if final else self.config.early_min_confidence
        judgement = self.config.policy.judge(text, confidence, duration_ms if final else 0, min_confidence=floor)
        if judgement.is_request and not final and not calls_for_attention(text) and not self._outlasted_backchannel():
            self.segment.early_request = text
            self._note("listen", f"early words {text!r} are a request if the speech goes on")
        elif judgement.is_request:
            self._commit(f"the visitor said {text!r}")
        elif final:
            self._release(f"no request: {judgement.reason}")
        else:
            self._note("listen", f"no request so far: {judgement.reason}")

    def tick(self) -> None:
        """Time passing: long speech commits; a short speech without words is let go."""
        if not self.config.enabled or self.segment is None:
            return
        now = self._clock()
        if self.phase is Phase.HELD and self.segment.tentative:
            if now - self.segment.t_onset >= self.config.candidate_timeout_s:
                self.segment = None
                self._release("no onset confirmed the candidate")
            return  # a candidate alone never commits
        if self.phase is Phase.HELD and self.segment.silent_since:
            self._release_at_pause(now)
        elif self.phase is Phase.HELD and self.segment.early_request and not self.segment.t_end \
                and self._outlasted_backchannel():
            self._commit(f"the visitor said {self.segment.early_request!r} and went on")
        elif self.phase is Phase.HELD and not self.segment.t_end \
                and (now - self.segment.t_start) * 1000 >= self.config.commit_after_ms:
            self._commit(f"speech longer than {self.config.commit_after_ms} ms")
        elif self.phase is Phase.WAITING and now - self.segment.released_at > self.config.transcript_wait_s:
            self.phase, self.segment = Phase.WATCHING, None
            self._note("gave up", "no words came (a cough, a noise)")

    # --- decisions ---------------------------------------------------------------------------
    def _speech_s(self, t_end: float) -> float:
        return max(0.0, t_end - self.segment.t_start) if self.segment else 0.0

    def _outlasted_backchannel(self) -> bool:
        """Has the visitor's speech, still going on, lasted longer than a backchannel?"""
        return (self._clock() - self.segment.t_start) * 1000 >= self.config.early_commit_after_ms

    def _concerns_us(self, t_speech_start: float) -> bool:
        if self.phase in (Phase.HELD, Phase.WAITING):
            return True
        now = self._clock()
        self._released = [s for s in self._released if now - s.released_at <= self.config.late_commit_s]
        return any(abs(s.t_start - t_speech_start) < 1.0 for s in self._released) if t_speech_start else False

    def _release_at_pause(self, now: float, final: bool = False) -> None:
        """Short speech has gone quiet: let the reply go on once the silence is long enough (at
        once on the VAD's end of speech), waiting for its words. Early words that were a
        request keep it held ("The gift shop, ..." then a comma): the speech going on or the final
        words decide, within transcript_wait_s."""
        if self.segment.early_request:
            if now - self.segment.silent_since >= self.config.transcript_wait_s:
                self._release("the early request's final words never came", waiting=True)
            return
        if final or now - self.segment.silent_since >= self.config.release_after_ms / 1000.0 - 1e-6:
            self._release("the visitor paused", waiting=True)

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
        self.committed_at = self._clock()
        # paused: stay silent (the stop is where it paused); ducked: finish the word, then stop
        wait_ms = 0.0 if self.config.on_onset == "pause" else self.config.boundary_ms
        stop_at = self._speaker.stop_at_boundary(wait_ms)
        self._note("stop", f"{why}; stopping at {stop_at}")

    def _note(self, action: str, why: str) -> None:
        self.log.append((self._clock(), action, why))
        log.info("barge-in: %s (%s)", action, why)

    def actions(self, kind: Optional[str] = None) -> Sequence[Tuple[float, str, str]]:
        return [entry for entry in self.log if kind is None or entry[1] == kind]
