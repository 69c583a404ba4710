"""From VAD events to one transcript per utterance, pure (no ROS): a ring buffer of recent
audio, the utterance tracker (a speculative transcription starts at the VAD's pause hint, so the
text is often ready when the end of speech is confirmed) and the worker thread that runs the
model off the audio path."""

from __future__ import annotations

import logging
import math
import queue
import threading
from dataclasses import dataclass
from typing import Callable, List, Optional, Union

import numpy as np

from .asr import POST_ROLL_S, PRE_ROLL_S, AsrResult, garbage_reason
from phanthy_common.audio import RATE

log = logging.getLogger(__name__)


class SpeechBuffer:
    """The last `seconds` of 16 kHz int16 audio on a sample clock: the first frame's stamp
    plus samples counted since. A forward gap (> `jump_s`) is filled with silence, a backward
    jump or a gap longer than the buffer starts over at the new stamp. Thread-safe."""

    def __init__(self, seconds: float = 30.0, rate: int = RATE, jump_s: float = 0.2):
        self.rate, self.jump_s = rate, jump_s
        self._data = np.zeros(int(seconds * rate), dtype=np.int16)
        self._lock = threading.Lock()
        self._origin: Optional[float] = None  # time of sample number 0
        self._count = 0  # samples written since the origin

    @property
    def t_end(self) -> float:
        """Time just after the last sample (-inf when empty)."""
        with self._lock:
            return -math.inf if self._origin is None else self._origin + self._count / self.rate

    def push(self, stamp: float, samples: np.ndarray) -> None:
        samples = np.asarray(samples, dtype=np.int16)
        with self._lock:
            if self._origin is not None:
                gap = stamp - (self._origin + self._count / self.rate)
                if gap < -self.jump_s or gap > len(self._data) / self.rate:
                    self._origin = None
                elif gap > self.jump_s:
                    self._write(np.zeros(int(round(gap * self.rate)), dtype=np.int16))
            if self._origin is None:
                self._origin, self._count = stamp, 0
            self._write(samples)

    def _write(self, samples: np.ndarray) -> None:
        size = len(self._data)
        samples = samples[-size:]
        at = self._count % size
        first = min(len(samples), size - at)
        self._data[at:at + first] = samples[:first]
        self._data[:len(samples) - first] = samples[first:]
        self._count += len(samples)

    def segment(self, t0: float, t1: float) -> np.ndarray:
        """The samples between t0 and t1 (clipped to what the buffer holds)."""
        with self._lock:
            if self._origin is None:
                return np.zeros(0, dtype=np.int16)
            size = len(self._data)
            k0 = max(int(round((t0 - self._origin) * self.rate)), self._count - size, 0)
            k1 = min(int(round((t1 - self._origin) * self.rate)), self._count)
            if k1 <= k0:
                return np.zeros(0, dtype=np.int16)
            return np.take(self._data, np.arange(k0, k1) % size)


@dataclass(frozen=True)
class Utterance:
    text: str
    result: AsrResult
    t_speech_start: float  # audio clock (padded VAD boundaries)
    t_speech_end: float
    t_eos_detected: float  # when the VAD decided the speech had ended
    t_transcribed: float  # tracker clock: the ASR result was ready
    t_ready: float  # tracker clock: handed out as final (>= the offset's arrival)
    speculative: bool  # the transcription started at the pause was used

    @property
    def duration_ms(self) -> int:
        return int(round((self.t_speech_end - self.t_speech_start) * 1000.0))


@dataclass(frozen=True)
class _Transcription:
    utterance: Utterance


@dataclass(frozen=True)
class FinalTranscript(_Transcription):
    """What the visitor said in one speech segment (the transcript to publish)."""


@dataclass(frozen=True)
class PartialTranscript(_Transcription):
    """A speculative transcript at a pause (the speech may go on)."""


@dataclass(frozen=True)
class EarlyTranscript(_Transcription):
    """What the visitor has said so far, while they still speak (for the speaker's barge-in)."""


@dataclass(frozen=True)
class FailedTranscript(_Transcription):
    """The visitor spoke and the recognizer failed on it (utterance.result.error)."""


@dataclass(frozen=True)
class DroppedTranscript(_Transcription):
    """A final transcript that is no speech (garbage_reason says why)."""
    reason: str


Outcome = Union[FinalTranscript, PartialTranscript, EarlyTranscript, DroppedTranscript, FailedTranscript]


@dataclass(frozen=True)
class TrackerConfig:
    speculative: bool = True  # transcribe at pauses, so the final is ready at the offset
    partials: bool = False  # hand out the speculative transcripts too (PartialTranscript)
    audio_wait_s: float = 1.0  # a job starts after this even if its audio never came
    pre_roll_s: float = PRE_ROLL_S
    post_roll_s: float = POST_ROLL_S
    early_after_s: float = 0.0  # an EarlyTranscript this far into speech, when wanted (0 = never)
    # a speculative transcript that reads as a finished sentence is final at once, without
    # waiting for the VAD's end of speech (~250 ms sooner); if the visitor goes on, the rest
    # becomes an utterance of its own
    early_final: bool = False


class _Job:
    def __init__(self, start: float, end: float, t0: float, t1: float, requested: float, speculative: bool):
        self.start, self.end, self.t0, self.t1 = start, end, t0, t1  # speech (so far); audio to transcribe
        self.requested, self.speculative = requested, speculative
        self.early = False  # an early look at ongoing speech, never the final transcript
        self.dropped = False
        self.result: Optional[AsrResult] = None
        self.t_done = 0.0
        self.final: Optional[tuple] = None  # (t_speech_start, t_speech_end, t_eos) once chosen


class UtteranceTracker:
    """VAD events and audio in, one typed Outcome per transcription out (`on_outcome`): a
    FinalTranscript per speech segment, and Partial, Early, Dropped or Failed ones.

    onset: a segment starts. pause (silence began, still speech): transcribe [start, now]
    speculatively. resume: discard that. offset: use the speculative result if it covers all
    the speech (no resume since), else transcribe [start, speech end] (both from `pre_roll_s`
    before the start; the final one up to `post_roll_s` after the end). Results that
    `garbage_reason` rejects are DroppedTranscripts. With `config.partials`, non-garbage
    speculative results are also handed out as they come.

    Transcriptions run through `submit(fn)`: inline by default (tests on a fake clock), a
    `Worker` thread in the node, so audio and events never wait for the model. A job starts
    once the buffer holds its audio (events may overtake audio) or after `audio_wait_s`
    (checked on each push, event and `poll()`). `early_wanted()`: is an early look at ongoing
    speech wanted now (the robot speaks: the barge-in controller decides on it)."""

    def __init__(self, transcribe: Callable[[np.ndarray], AsrResult], clock: Callable[[], float],
                 on_outcome: Callable[[Outcome], None], config: TrackerConfig = TrackerConfig(),
                 buffer: Optional[SpeechBuffer] = None,
                 submit: Optional[Callable[[Callable[[], None]], None]] = None,
                 early_wanted: Callable[[], bool] = lambda: False):
        self._transcribe, self._clock, self._on_outcome = transcribe, clock, on_outcome
        self.config = config
        self.buffer = buffer or SpeechBuffer()
        self._submit = submit or (lambda fn: fn())
        self._early_wanted = early_wanted
        self._lock = threading.Lock()
        self._start: Optional[float] = None
        self._spec: Optional[_Job] = None
        self._early_for: Optional[float] = None  # the segment start an early look was taken for
        self._published = False
        self._waiting: List[_Job] = []

    def push_audio(self, stamp: float, samples: np.ndarray) -> None:
        self.buffer.push(stamp, samples)
        self.poll()

    def on_event(self, kind: str, t: float, t_speech_start: float = 0.0, silence_ms: int = 0,
                 t_detected: float = 0.0) -> None:
        """A VAD event (phanthy/msg/VoiceActivity fields; `t` = its stamp; 0 = unknown)."""
        ready = None
        with self._lock:
            if kind in ("onset", "pause", "resume") and self._spec is not None:
                self._spec.dropped, self._spec = True, None
            if kind == "onset":
                self._start, self._published = t_speech_start or t, False
            elif kind == "resume" and self._published:
                self._start, self._published = t, False  # the visitor goes on: a new utterance
            elif kind == "offset" and self._published:
                self._start, self._published = None, False  # already handed out
            elif kind == "pause" and self.config.speculative and self._start is not None:
                # up to the audio the VAD had seen (not its wall-clock decision time, whose audio
                # is still on its way from the microphone: measured ~50 ms of waiting)
                seen = t + silence_ms / 1000.0 if silence_ms else (t_detected or t)
                self._spec = self._queue(self._start, t, seen, speculative=True)
            elif kind == "offset":
                ready = self._offset(t, t_speech_start, silence_ms, t_detected)
        if ready is not None:
            self._hand_out(ready)
        self.poll()

    def _offset(self, t: float, t_speech_start: float, silence_ms: int, t_detected: float) -> Optional[_Job]:
        start = self._start if self._start is not None else t_speech_start
        spec, self._spec, self._start = self._spec, None, None
        if not start:
            log.info("speech offset at %.3f without a known start: ignored", t)
            return None
        silence_start = t_detected - silence_ms / 1000.0 if t_detected and silence_ms else t
        if spec is not None and spec.t1 >= silence_start - 0.05:  # it heard all the speech
            spec.final = (start, t, t_detected or t)
            return spec if spec.result is not None else None  # else handed out when done
        if spec is not None:
            spec.dropped = True
        t1 = max(t, min(t + self.config.post_roll_s, t_detected or math.inf))  # audio the VAD has seen
        self._queue(start, t, t1, speculative=False).final = (start, t, t_detected or t)
        return None

    def _queue(self, start: float, end: float, t1: float, speculative: bool) -> _Job:
        job = _Job(start, end, start - self.config.pre_roll_s, t1, self._clock(), speculative)
        self._waiting.append(job)
        return job

    def poll(self) -> None:
        """Start the jobs whose audio is in (or that waited too long)."""
        t_end, now = self.buffer.t_end, self._clock()
        with self._lock:
            early_after = self.config.early_after_s
            if early_after and self._start is not None and self._early_for != self._start \
                    and t_end - self._start >= early_after and self._early_wanted():
                self._early_for = self._start
                self._queue(self._start, t_end, t_end, speculative=True).early = True
            ready = [j for j in self._waiting if not j.dropped and
                     (t_end >= j.t1 - 0.001 or now - j.requested > self.config.audio_wait_s)]
            self._waiting = [j for j in self._waiting if not j.dropped and j not in ready]
        for job in ready:
            self._submit(lambda job=job: self._run(job))

    def _run(self, job: _Job) -> None:
        if job.dropped:  # discarded while queued: skip the model
            return
        audio = self.buffer.segment(job.t0, job.t1)
        try:
            result = self._transcribe(audio)
        except Exception as exc:
            log.exception("transcription of %.2f s of audio failed", len(audio) / RATE)
            result = AsrResult("", -1.0, "", int(len(audio) * 1000 / RATE), 0.0,
                               error=f"{type(exc).__name__}: {exc}"[:200])
        with self._lock:
            job.result, job.t_done = result, self._clock()
            if self.config.early_final and job is self._spec and job.final is None and _finished_sentence(result) \
                    and garbage_reason(result) is None:
                job.final = (job.start, job.end, job.t_done)
                self._spec, self._published = None, True
            wanted = job.final is not None or job.early or (job is self._spec and self.config.partials)
        if wanted:
            self._hand_out(job)

    def _hand_out(self, job: _Job) -> None:
        start, end, eos = job.final or (job.start, job.end, 0.0)
        utterance = Utterance(job.result.text.strip(), job.result, start, end, eos, job.t_done,
                              self._clock(), job.speculative)
        outcome = _outcome(job, utterance)
        if outcome is not None:
            self._on_outcome(outcome)


def _outcome(job: _Job, utterance: Utterance) -> Optional[Outcome]:
    """What a finished job is: its purpose (final, early look, speculative) and its result."""
    reason = garbage_reason(job.result)
    if job.result.error:
        # a failed final: the visitor spoke and nobody will know what; other failures: nothing
        return FailedTranscript(utterance) if job.final is not None else None
    if job.early and job.final is None:
        return EarlyTranscript(utterance) if reason is None else None
    if job.final is None:
        return PartialTranscript(utterance) if reason is None else None
    return FinalTranscript(utterance) if reason is None else DroppedTranscript(utterance, reason)


def _finished_sentence(result: AsrResult) -> bool:
    """Whisper ends what it takes for a complete sentence with . ? or !"""
    return result.text.rstrip().endswith((".", "?", "!")) and not result.text.rstrip().endswith("...")


class Worker:
    """One daemon thread running submitted callables in order (the transcriptions)."""

    def __init__(self, name: str = "asr-worker"):
        self._queue: "queue.Queue[Optional[Callable[[], None]]]" = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[[], None]) -> None:
        self._queue.put(fn)

    def pending(self) -> int:
        """Jobs waiting (the running one not counted): the recognizer's queue depth."""
        return self._queue.qsize()

    def close(self, timeout: float = 5.0) -> None:
        self._queue.put(None)
        self._thread.join(timeout)

    def _loop(self) -> None:
        while (fn := self._queue.get()) is not None:
            try:
                fn()
            except Exception:
                log.exception("ASR worker job failed")
