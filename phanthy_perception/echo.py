"""The robot must not hear itself: acoustic echo cancellation of the microphone against what
the speaker played (audio/out, the echo reference), with speexdsp's adaptive filter.

The reference is kept on the shared clock (AudioFrame stamps: capture time for the microphone,
play time for the speaker), so each microphone block is cancelled against the reference samples
played `delay_ms` earlier; the adaptive filter (`filter_ms` long) absorbs the acoustic path and
any residual misalignment within it. One canceller keeps adapting across utterances: it converges
in the first seconds the robot speaks (`bench/speech_facts.py erle`, figures in
bench/README.md) and stays converged while the room stays the same. Pure (no ROS).
"""

from __future__ import annotations

import logging
from typing import Dict, List

import numpy as np
from speexdsp import EchoCanceller as SpeexEchoCanceller

from phanthy_common.audio import RATE, resample
from .vad import VadEvent

log = logging.getLogger(__name__)


class ReferenceBuffer:
    """What the speaker played, as 16 kHz samples on the shared clock (silence where nothing
    played), for the last `seconds`."""

    def __init__(self, seconds: float = 4.0, rate: int = RATE):
        self.rate = rate
        self._size = int(seconds * rate)
        self._samples = np.zeros(self._size, dtype=np.int16)
        self._t_end = 0.0  # time just after the newest sample
        self.active_until = 0.0  # the last time anything non-silent was played

    def add(self, stamp: float, samples: np.ndarray, rate: int) -> None:
        samples = resample(samples, rate, self.rate)
        if self._t_end == 0.0 or stamp > self._t_end + 1.0 or stamp < self._t_end - 1.0:
            self._samples[:] = 0  # first frame, or the clock jumped: start over
            self._t_end = stamp
        gap = int(round((stamp - self._t_end) * self.rate))
        if gap > 0:  # nothing played in between
            self._push(np.zeros(gap, dtype=np.int16))
        elif gap < 0:  # overlapping stamps: overwrite the overlap
            self._samples = np.roll(self._samples, gap)
            self._samples[gap:] = 0
            self._t_end += gap / self.rate
        self._push(samples)
        if np.any(samples):
            self.active_until = self._t_end

    @property
    def t_end(self) -> float:
        """Time just after the newest sample (0.0: nothing yet)."""
        return self._t_end

    def _push(self, samples: np.ndarray) -> None:
        n = len(samples)
        if n == 0:  # an empty frame (x[-0:] would be the whole buffer)
            return
        if n >= self._size:
            self._samples[:] = samples[-self._size:]
        else:
            self._samples = np.roll(self._samples, -n)
            self._samples[-n:] = samples
        self._t_end += n / self.rate

    def window(self, start: float, n: int) -> np.ndarray:
        """n samples from `start` (silence outside what is buffered)."""
        out = np.zeros(n, dtype=np.int16)
        first = int(round((start - (self._t_end - self._size / self.rate)) * self.rate))
        lo, hi = max(0, first), min(self._size, first + n)
        if hi > lo:
            out[lo - first:hi - first] = self._samples[lo:hi]
        return out


class MicEchoCanceller:
    """Cancel the speaker's echo from microphone blocks of `frame` samples (16 kHz)."""

    def __init__(self, frame: int = 160, filter_ms: float = 128.0, delay_ms: float = 0.0,
                 rate: int = RATE):
        self.frame, self.rate, self.delay_s = frame, rate, delay_ms / 1000.0
        self._speex = SpeexEchoCanceller.create(frame, int(filter_ms * rate / 1000), rate)
        self.reference = ReferenceBuffer(rate=rate)
        self._pending = np.zeros(0, dtype=np.int16)
        self._pending_t = 0.0

    def add_reference(self, stamp: float, samples: np.ndarray, rate: int) -> None:
        self.reference.add(stamp, samples, rate)

    def playing(self, t: float, margin_s: float = 0.3) -> bool:
        """Was the speaker playing around time t (echo may be in the microphone)?"""
        return t <= self.reference.active_until + self.delay_s + margin_s

    def process(self, stamp: float, mic: np.ndarray) -> tuple:
        """Cancel echo from a microphone frame of any length; returns (stamp, cleaned) for the
        samples completed so far (whole AEC frames; the remainder waits for the next call)."""
        if len(self._pending) == 0:
            self._pending_t = stamp
        self._pending = np.concatenate([self._pending, mic.astype(np.int16)])
        whole = len(self._pending) // self.frame * self.frame
        if whole == 0:
            return stamp, np.zeros(0, dtype=np.int16)
        t0 = self._pending_t
        out = np.empty(whole, dtype=np.int16)
        for offset in range(0, whole, self.frame):
            t = t0 + offset / self.rate
            block = self._pending[offset:offset + self.frame]
            if self.playing(t):
                ref = self.reference.window(t - self.delay_s, self.frame)
                out[offset:offset + self.frame] = np.frombuffer(
                    self._speex.process(block.tobytes(), ref.tobytes()), dtype=np.int16)
            else:  # nothing played recently: the microphone passes through, the filter keeps its state
                out[offset:offset + self.frame] = block
        self._pending = self._pending[whole:]
        self._pending_t = t0 + whole / self.rate
        return t0, out


class PlaybackLog:
    """What the speaker said and when (speaker/playback), to recognise the robot's own words
    in a transcript: reference-aware gating at the text level, for the echo the canceller missed
    (mostly in its first seconds, before it has converged)."""

    def __init__(self, keep_s: float = 30.0):
        self._keep_s = keep_s
        self._utterances: Dict[str, list] = {}  # id -> [text, t_first, t_last]
        self._state = ("idle", 0.0)  # the newest state and when

    def update(self, utterance_id: str, text: str, state: str, t: float) -> None:
        if not utterance_id or state not in ("playing", "paused", "stopped", "idle"):
            return
        entry = self._utterances.setdefault(utterance_id, [text, t, t])
        entry[2] = t
        self._state = (state, t)
        for uid in [u for u, (_, _, last) in self._utterances.items() if t - last > self._keep_s]:
            del self._utterances[uid]

    def playing(self) -> bool:
        """Is the robot speaking now (as far as the last Playback said)?"""
        return self._state[0] in ("playing", "paused")

    def texts_around(self, t0: float, t1: float, margin_s: float = 1.0) -> List[str]:
        """Texts being played during [t0 - margin, t1 + margin]."""
        return [text for text, first, last in self._utterances.values()
                if first - margin_s <= t1 and t0 <= last + margin_s]


def echo_fraction(mic: np.ndarray, reference: np.ndarray) -> float:
    """How much of a microphone window a delayed copy of the reference explains: the largest
    squared normalized cross-correlation over every alignment (0..1). `reference` starts up to
    the largest expected echo delay before `mic` and is that much longer."""
    m = mic.astype(np.float64)
    r = reference.astype(np.float64)
    n, lags = len(m), len(r) - len(m) + 1
    m_energy = float(np.dot(m, m))
    if n == 0 or lags < 1 or m_energy <= 0.0 or not np.any(r):
        return 0.0
    size = 1 << int(np.ceil(np.log2(len(r) + n)))
    # dots[s] = sum_i r[s + i] * m[i], for every start s of a reference window
    dots = np.fft.irfft(np.fft.rfft(r, size) * np.conj(np.fft.rfft(m, size)), size)[:lags]
    cumulative = np.concatenate([[0.0], np.cumsum(r * r)])
    r_energy = cumulative[n:n + lags] - cumulative[:lags]
    with np.errstate(divide="ignore", invalid="ignore"):
        rho2 = np.where(r_energy > 1e-9, dots * dots / (m_energy * r_energy), 0.0)
    return float(np.clip(np.max(rho2), 0.0, 1.0))


class EchoGate:
    """Double-talk detection on the VAD's events while the robot plays. The VAD is level-blind,
    so it hears whatever echo the canceller has not removed as speech: while the robot talks it
    mostly stays in one long "speech" segment made of the robot's own voice. Speech heard while
    the robot plays counts as the visitor's only if it is clearly louder than the room's noise
    floor AND the delayed reference does not explain it (echo_fraction < threshold), and what
it does not explain is itself louder than the noise floor by loud_db.

    An onset is checked over the speech so far (at least min_window_s, at most max_window_s);
    if the reference explains it, the segment's events are held back. While holding back, the
    gate checks the newest `recheck_window_s` of microphone at every call (every audio frame)
    and lets an onset through as soon as someone talks over the robot: measured on the
    synthetic room (bench/barge_in_detect.py) the reference explains > 0.95 of the echo alone
    in any window, and < 0.5 within 40-60 ms of a visitor's first syllable. Audio whose
    reference has not arrived yet (audio/out late under load) is not judged yet: a missing
    reference would make the robot's voice look like a visitor's."""

    def __init__(self, canceller: "MicEchoCanceller", threshold: float = 0.5, min_window_s: float = 0.064,
                 max_window_s: float = 0.5, max_delay_s: float = 0.25, recheck_window_s: float = 0.064,
                 loud_db: float = 6.0):
        self.canceller, self.threshold = canceller, threshold
        self.min_window_s, self.max_window_s = min_window_s, max_window_s
        self.max_delay_s, self.recheck_window_s = max_delay_s, recheck_window_s
        self.loud = 10 ** (loud_db / 20.0)
        self.mic = ReferenceBuffer(seconds=2.0)  # the raw microphone, same time indexing
        self.clean = ReferenceBuffer(seconds=2.0)  # the canceller's output (add_clean)
        self.noise_floor = 0.0  # RMS of the quietest recent microphone frames
        self.suppressed = False
        self._pause_t = 0.0  # silence start of the current segment's last pause
        self.held_back = 0  # onsets recognised as echo (for logs and benchmarks)
        self.deferred = 0  # checks that judged older audio because the reference was late

    def add_mic(self, stamp: float, samples: np.ndarray) -> None:
        self.mic.add(stamp, samples, RATE)
        rms = float(np.sqrt(np.mean(samples.astype(np.float64) ** 2))) if len(samples) else 0.0
        # a minimum tracker that drifts up slowly: follows the noise, ignores speech
        self.noise_floor = rms if self.noise_floor == 0.0 else min(rms, self.noise_floor * 1.002 + 0.01)

    def fraction(self, t0: float, t1: float) -> tuple:
        """(share of the microphone over [t0, t1] the delayed reference explains, its RMS)."""
        n = max(1, int((t1 - t0) * RATE))
        lag = int((self.max_delay_s + self.canceller.delay_s) * RATE)
        mic = self.mic.window(t0, n)
        ref = self.canceller.reference.window(t0 - self.max_delay_s - self.canceller.delay_s, n + lag)
        rms = float(np.sqrt(np.mean(mic.astype(np.float64) ** 2)))
        return echo_fraction(mic, ref), rms

    def add_clean(self, stamp: float, samples: np.ndarray) -> None:
        """The canceller's output for the same microphone audio."""
        if len(samples):
            self.clean.add(stamp, samples, RATE)

    def judged_until(self, t: float) -> float:
        """The newest time up to which the microphone can be judged: the canceller's output
        lags the microphone by up to one of its frames, and while the robot plays the reference
        of the echo must have arrived (audio/out comes late under load; a missing reference
        would make the robot's own voice look like a visitor's)."""
        if self.clean.t_end:
            t = min(t, self.clean.t_end)
        if self.canceller.playing(t):
            t = min(t, self.canceller.reference.t_end + self.canceller.delay_s)
        return t

    def _visitor(self, t_start: float, t: float) -> tuple:
        """Is the speech in [t_start, t] someone else's? (decision, explained share, rms)

        Explained is the larger of two views of the echo: the delayed reference's correlation
        with the raw microphone (right from the first syllable the robot says, but blind to a
        reverberant path), and the energy the canceller removed (right for any path once it has
        converged). What neither explains must be clearly above the room's noise (a quiet start
        of the robot's voice in the noise is poorly explained, but quiet)."""
        t0 = min(t - self.min_window_s, max(t_start, t - self.max_window_s))
        correlated, rms = self.fraction(t0, t)
        explained = correlated
        unexplained = rms * np.sqrt(max(0.0, 1.0 - correlated))
        if self.clean.t_end >= t - 1e-3:  # the canceller's output covers the window
            clean = self.clean.window(t0, max(1, int((t - t0) * RATE))).astype(np.float64)
            clean_rms = float(np.sqrt(np.mean(clean ** 2)))
            explained = max(explained, 1.0 - min(1.0, (clean_rms / rms) ** 2) if rms > 0 else 0.0)
            unexplained = min(unexplained, clean_rms)
        return unexplained > self.noise_floor * self.loud and explained < self.threshold, explained, rms

    def filter(self, events: list, t_now: float) -> list:
        """The events to publish (VadEvents in, VadEvents out); t_now: end of the audio so far."""
        out = []
        for event in events:
            if event.kind == "onset":
                self._pause_t = 0.0
                if self.canceller.playing(event.t_detected):
                    visitor, explained, rms = self._visitor(event.t_speech_start,
                                                            self.judged_until(event.t_detected))
                    if not visitor:
                        self._hold_back(event, explained, rms)
                        continue
                out.append(event)
            elif self.suppressed:
                if event.kind == "offset":
                    self.suppressed = False
            elif event.kind == "pause":
                self._pause_t = event.t
                out.append(event)
            elif event.kind == "resume" and self._pause_t and self.canceller.playing(event.t_detected) \
                    and not self._visitor(event.t, event.t_detected)[0]:
                # The visitor paused and the robot's voice (back after a barge-in pause) is what
                # "resumed": for listeners the visitor's speech ended at the pause.
                out.append(VadEvent("offset", self._pause_t, event.t_speech_start,
                                    int((event.t_detected - self._pause_t) * 1000), event.t_detected,
                                    event.probability))
                self._hold_back(event, *self._visitor(event.t, event.t_detected)[1:])
            else:
                out.append(event)
        if self.suppressed and self._someone_else(t_now):
            self.suppressed = False
            # someone talks over the robot while the VAD was already hearing its echo; their
            # speech starts about now, not where the held-back echo began (an ASR segment
            # from there would transcribe the robot's own words)
            start = t_now - 2 * self.recheck_window_s
            out.append(VadEvent("onset", start, start, 0, t_now, 1.0))
        return out

    def _someone_else(self, t_now: float) -> bool:
        """While holding back: does the newest audio hold a voice other than the robot's?
        (Also when the robot has stopped playing: silence or noise is no one.)"""
        t = self.judged_until(t_now)
        if t < t_now - 0.025:
            self.deferred += 1
        return self._visitor(t - self.recheck_window_s, t)[0]

    def _hold_back(self, event, explained: float, rms: float) -> None:
        self.suppressed = True
        self.held_back += 1
        log.info("speech at %.2f held back as the robot's own voice (reference explains %.2f, "
                 "rms %.0f, floor %.0f)", event.t, explained, rms, self.noise_floor)
