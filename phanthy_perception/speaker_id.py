"""Speaker identification for the asr node, pure (no ROS; injected clock): the audio the
transcript covers -> a voice embedding -> an Attribution (phanthy_perception/speaker_attribution.py).

While a visitor speaks, the 0.8 s windows of their speech are embedded as they complete (on
`submit`, the node's speaker worker thread), so when the transcript is ready only the last
window or two remain. The robot's own voice is learnt from what it plays (audio/out): the first
`robot_voice_s` seconds of loud playback become the robot's embedding, which no utterance is
ever attributed to. Enrolled profiles are re-read whenever their file changes."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from typing import Callable, List, Optional

import numpy as np

from phanthy_common.audio import RATE

from .speaker_attribution import ANONYMOUS, Attribution, AttributionConfig, SpeakerAttributor
from .speaker_embedding import STRIDE_S, WindowCache
from .speaker_profiles import ProfileStore

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Identified:
    attribution: Attribution
    elapsed_ms: float  # time spent identifying once the transcript was ready (added latency)


class SpeakerIdentifier:
    def __init__(self, encoder, segment: Callable[[float, float], np.ndarray], clock: Callable[[], float],
                 config: AttributionConfig = AttributionConfig(), store: Optional[ProfileStore] = None,
                 submit: Optional[Callable[[Callable[[], None]], None]] = None,
                 robot_voice_s: float = 4.0):
        self.encoder = encoder
        self.windows = WindowCache(encoder, segment)
        self.attributor = SpeakerAttributor(clock, config)
        self.store = store
        self._submit = submit or (lambda fn: fn())
        self._store_stamp: Optional[float] = None
        self._speech_start: Optional[float] = None
        self._filled_until = -np.inf
        self._lock = threading.Lock()
        self.robot_voice_s = robot_voice_s
        self._played: List[np.ndarray] = []
        self._played_s = 0.0
        self._robot_learnt = robot_voice_s <= 0
        self.reload_profiles()

    # --- profiles ----------------------------------------------------------------------------
    def reload_profiles(self) -> None:
        if self.store is None:
            return
        stamp = self.store.stamp()
        if stamp == self._store_stamp:
            return
        self._store_stamp = stamp
        try:
            profiles = self.store.for_model(self.encoder.id)
        except Exception:
            log.exception("could not read the speaker profiles in %s", self.store.path)
            return
        self.attributor.set_profiles(profiles)
        log.info("enrolled speakers: %s", ", ".join(sorted(profiles)) or "none")

    # --- while the visitor speaks --------------------------------------------------------------
    def on_speech(self, kind: str, t: float) -> None:
        """VAD events: onset / resume start (or continue) the speech whose windows are embedded
        as they complete; offset ends it."""
        with self._lock:
            if kind == "onset" or (kind == "resume" and self._speech_start is None):
                self._speech_start, self._filled_until = t, -np.inf
            elif kind == "offset":
                self._speech_start = None

    def on_audio(self, t_end: float) -> None:
        """The microphone buffer now reaches t_end: embed the windows completed since."""
        with self._lock:
            start = self._speech_start
            if start is None or t_end - self._filled_until < STRIDE_S:
                return
            self._filled_until = t_end
        self._submit(lambda: self.windows.fill(start, t_end))

    # --- the robot's own voice -----------------------------------------------------------------
    @property
    def learning_robot_voice(self) -> bool:
        """Is what the robot plays still wanted (until its voice is learnt)?"""
        return not self._robot_learnt

    def on_played(self, samples: np.ndarray) -> None:
        """What the robot plays (16 kHz int16): its first seconds of loud audio are its voice."""
        if self._robot_learnt or not len(samples):
            return
        if np.sqrt(np.mean(samples.astype(np.float32) ** 2)) < 300.0:
            return  # silence between words
        self._played.append(np.asarray(samples, dtype=np.int16))
        self._played_s += len(samples) / RATE
        if self._played_s >= self.robot_voice_s:
            audio, self._played, self._robot_learnt = np.concatenate(self._played), [], True
            self._submit(lambda: self._learn_robot_voice(audio))

    def _learn_robot_voice(self, audio: np.ndarray) -> None:
        self.attributor.set_robot_voice(self.encoder.embed(audio))
        log.info("learnt the robot's own voice from %.1f s of its playback", len(audio) / RATE)

    # --- the transcript ------------------------------------------------------------------------
    def identify(self, t0: float, t1: float) -> Identified:
        """Who spoke between t0 and t1 (the utterance's speech, audio clock)."""
        started = time.perf_counter()
        self.reload_profiles()
        try:
            embedding = self.windows.utterance(t0, t1)
        except Exception as exc:  # a broken model must not lose the transcript
            log.exception("speaker embedding failed")
            attribution = Attribution(ANONYMOUS, 0.0, "anonymous", reason=f"embedding failed: {exc}")
        else:
            attribution = self.attributor.attribute(embedding, t1 - t0)
        elapsed = (time.perf_counter() - started) * 1000.0
        return Identified(attribution, elapsed)

    def conversation_ended(self) -> None:
        self.attributor.reset()
