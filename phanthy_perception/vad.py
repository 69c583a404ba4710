"""Voice activity detection, pure (no ROS, no torch): the silero VAD ONNX model run with
onnxruntime, a segmenter turning per-block speech probabilities into onset / pause / resume /
offset events, and a stream gluing both to audio frames of any size.

Every time here comes from the audio sample clock (frame stamps + sample counts), never from
the wall clock, so the same audio always gives the same events.
"""

from __future__ import annotations

import importlib.util
import logging
import os
from dataclasses import dataclass
from typing import List, Optional, Tuple

import numpy as np

from phanthy_common.audio import RATE, Chunker

log = logging.getLogger(__name__)

BLOCK = 512  # samples per model call at 16 kHz (32 ms)
CONTEXT = 64  # samples of the previous block the model sees again
BLOCK_S = BLOCK / RATE


def default_model_path() -> str:
    """The ONNX file bundled in the silero-vad wheel (found without importing the package,
    whose __init__ imports torch)."""
    spec = importlib.util.find_spec("silero_vad")
    if spec is None or not spec.submodule_search_locations:
        raise ValueError("silero VAD model not found: the silero-vad package is not installed")
    return os.path.join(list(spec.submodule_search_locations)[0], "data", "silero_vad.onnx")


class SileroVad:
    """One onnxruntime session (one intra-op thread) and the model's recurrent state."""

    def __init__(self, model_path: Optional[str] = None):
        import onnxruntime as ort

        self.model_path = model_path or default_model_path()
        if not os.path.isfile(self.model_path):
            raise ValueError(f"silero VAD model not found: {self.model_path}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self._session = ort.InferenceSession(self.model_path, sess_options=options,
                                                 providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise ValueError(f"silero VAD model {self.model_path} could not be loaded: {exc}") from exc
        names = {i.name for i in self._session.get_inputs()}
        if not {"input", "state", "sr"} <= names:
            raise ValueError(f"{self.model_path} is not a silero VAD v5+ model (inputs {sorted(names)})")
        self._sr = np.array(RATE, dtype=np.int64)
        self.reset()

    def reset(self) -> None:
        self._state = np.zeros((2, 1, 128), dtype=np.float32)
        self._context = np.zeros((1, CONTEXT), dtype=np.float32)

    def probability(self, block: np.ndarray) -> float:
        """Speech probability of one block of 512 int16 samples at 16 kHz."""
        if len(block) != BLOCK:
            raise ValueError(f"silero VAD needs blocks of {BLOCK} samples, got {len(block)}")
        x = np.empty((1, CONTEXT + BLOCK), dtype=np.float32)
        x[:, :CONTEXT] = self._context
        x[0, CONTEXT:] = np.asarray(block, dtype=np.float32) / 32768.0
        out, self._state = self._session.run(None, {"input": x, "state": self._state, "sr": self._sr})
        self._context = x[:, -CONTEXT:]
        return float(out[0, 0])


@dataclass(frozen=True)
class VadEvent:
    kind: str  # onset | pause | resume | offset
    t: float  # onset: padded speech start; pause: silence start; resume: speech back; offset: end + pad
    t_speech_start: float  # padded start of this speech segment
    silence_ms: int  # trailing silence (pause, offset) or the silence that ended (resume)
    t_detected: float  # end time of the block that decided it
    probability: float  # of that block

    @property
    def speaking(self) -> bool:
        return self.kind != "offset"


def _ms(seconds: float) -> int:
    return int(round(seconds * 1000.0))


class VadSegmenter:
    """Per-block probabilities in, speech segment events out (silero's VADIterator rules,
    plus a minimum speech duration before onset and a pause hint for speculative ASR).

    Idle: a block with p >= threshold starts a candidate, which stays alive while
    p >= neg_threshold and becomes an onset once it spans min_speech_ms. In speech: the first
    block with p < neg_threshold starts the trailing silence (blocks in between thresholds keep
    counting as silence, a block >= threshold ends it); "pause" when it first reaches
    pause_hint_ms, "resume" when speech returns after a pause, "offset" at min_silence_ms.
    """

    def __init__(self, threshold: float = 0.5, min_silence_ms: int = 400, speech_pad_ms: int = 30,
                 min_speech_ms: int = 60, pause_hint_ms: int = 96, neg_threshold: Optional[float] = None,
                 block_s: float = BLOCK_S):
        if not 0.0 < threshold < 1.0:
            raise ValueError(f"threshold must be in (0, 1), got {threshold}")
        if min_silence_ms <= 0:
            raise ValueError(f"min_silence_ms must be > 0, got {min_silence_ms}")
        self.threshold = threshold
        self.neg_threshold = max(0.01, threshold - 0.15) if neg_threshold is None else neg_threshold
        self.min_silence_ms, self.min_speech_ms = int(min_silence_ms), int(min_speech_ms)
        self.pause_hint_ms = int(pause_hint_ms)  # <= 0: no pause events
        self.pad_s = speech_pad_ms / 1000.0
        self.block_s = block_s
        self.reset()

    def reset(self) -> None:
        self.speaking = False
        self._candidate: Optional[float] = None  # start of a not yet confirmed speech run
        self._segment_start = 0.0
        self._silence_start: Optional[float] = None
        self._paused = False

    def _event(self, kind: str, t: float, silence_ms: int, t_detected: float, p: float) -> VadEvent:
        return VadEvent(kind, t, self._segment_start, silence_ms, t_detected, p)

    def feed(self, t: float, p: float) -> List[VadEvent]:
        """One block starting at `t` (s) with speech probability `p`."""
        end = t + self.block_s
        if not self.speaking:
            if p >= self.threshold and self._candidate is None:
                self._candidate = t
            elif p < self.neg_threshold:
                self._candidate = None
            if self._candidate is not None and _ms(end - self._candidate) >= self.min_speech_ms:
                self.speaking, self._silence_start, self._paused = True, None, False
                self._segment_start = max(0.0, self._candidate - self.pad_s)
                self._candidate = None
                return [self._event("onset", self._segment_start, 0, end, p)]
            return []
        if p >= self.threshold:
            events = []
            if self._silence_start is not None and self._paused:
                events.append(self._event("resume", t, _ms(t - self._silence_start), end, p))
            self._silence_start, self._paused = None, False
            return events
        if self._silence_start is None:
            if p >= self.neg_threshold:
                return []  # between thresholds: still speech
            self._silence_start = t
        silence = _ms(end - self._silence_start)
        if silence >= self.min_silence_ms:
            event = self._event("offset", self._silence_start + self.pad_s, silence, end, p)
            self.reset()
            return [event]
        if not self._paused and 0 < self.pause_hint_ms <= silence:
            self._paused = True
            return [self._event("pause", self._silence_start, silence, end, p)]
        return []

    def flush(self, t_end: float) -> List[VadEvent]:
        """The audio stopped at `t_end`: close an open segment (offset), forget a candidate."""
        events = []
        if self.speaking:
            speech_end = t_end if self._silence_start is None else self._silence_start
            events.append(self._event("offset", min(t_end, speech_end + self.pad_s),
                                      _ms(t_end - speech_end), t_end, 0.0))
        self.reset()
        return events


class VadStream:
    """Audio frames of any size and stamp in, events out: Chunker(512) + SileroVad + VadSegmenter.

    Block times are counted in samples from an anchor stamp (no float drift, so any framing of
    the same audio gives bit-identical events); stamps that wander more than RESYNC_S from that
    count (clock drift, jitter) move the anchor, and a gap or jump (> JUMP_S) closes an open
    segment at the last audio time and restarts the model."""

    RESYNC_S = 0.02
    JUMP_S = 0.2  # the Chunker's own gap threshold

    def __init__(self, model: Optional[SileroVad] = None, segmenter: Optional[VadSegmenter] = None,
                 **segmenter_options):
        self.model = model or SileroVad()
        self.segmenter = segmenter or VadSegmenter(**segmenter_options)
        self._chunker = Chunker(BLOCK, RATE)
        self._anchor: Optional[float] = None
        self._count = 0  # blocks since the anchor
        self.t_last: Optional[float] = None  # end of the last processed block
        self.blocks = 0

    @property
    def speaking(self) -> bool:
        return self.segmenter.speaking

    def _clock(self, stamp: float) -> Tuple[float, bool]:
        """The time of the next block, and whether the audio jumped."""
        if self._anchor is not None:
            t = self._anchor + self._count * BLOCK / RATE
            if abs(stamp - t) <= self.RESYNC_S:
                return t, False
        jumped = self._anchor is not None and abs(stamp - t) > self.JUMP_S
        self._anchor, self._count = stamp, 0
        return stamp, jumped

    def push(self, stamp: float, samples: np.ndarray) -> List[VadEvent]:
        """`samples`: int16 mono at 16 kHz; `stamp`: time of its first sample (s)."""
        events: List[VadEvent] = []
        for block_stamp, block in self._chunker.push(stamp, samples):
            t, jumped = self._clock(block_stamp)
            if jumped:
                log.info("audio clock jumped by %.3f s: VAD restarted", t - (self.t_last or t))
                events += self.flush()
            events += self.segmenter.feed(t, self.model.probability(block))
            self._count += 1
            self.t_last = t + BLOCK_S
            self.blocks += 1
        return events

    def flush(self) -> List[VadEvent]:
        """End of audio (or a gap): close an open segment, restart the model's state."""
        events = self.segmenter.flush(self.t_last) if self.t_last is not None else []
        self.model.reset()
        self.segmenter.reset()
        self.t_last = None
        return events

    def reset(self) -> None:
        self._chunker.reset()
        self.model.reset()
        self.segmenter.reset()
        self._anchor, self._count, self.t_last = None, 0, None
