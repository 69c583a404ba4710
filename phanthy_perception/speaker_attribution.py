"""Who said it, pure (no ROS; time from an injected clock): one utterance's voice embedding in,
a speaker id and a confidence out.

Policy, in order:
  1. The robot's own voice (its embedding learnt from audio/out) is not a participant: no id
     (`anonymous_speaker`), and it never joins or opens a speaker.
  2. An enrolled person: the utterance's own similarity to their profile is at least
     `enrolled_threshold` (calibrated on bench/speakers.py for a false-accept rate <= 1 %), and
     the speech lasts at least `min_speech_s`. Every utterance is verified on its own: nothing
     inherits a name from a cluster, so an unknown voice is never given a known person's name
     (and role), however it was clustered.
  3. Otherwise online clustering within the conversation: the nearest speaker's centroid at
     least `same_speaker_threshold` away joins it (speaker_1, speaker_2, ... in order of first
     appearance); else a new speaker. Speech shorter than `min_speech_s` joins a speaker only
     when clearly theirs (`short_margin` above the threshold) and never opens one: too little
     voice to tell (`anonymous_speaker`).
`reset()` starts a new conversation (the asr node calls it when the voice session ends);
`forget_after_s` without any utterance does the same.

Confidence (0..1) says how far the decision was from its threshold: 0.5 on the threshold, 1.0
at `confidence_span` (cosine) or more away; 0 when there is no attribution.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
from typing import Callable, Dict, List, Optional

import numpy as np

log = logging.getLogger(__name__)

ANONYMOUS = "anonymous_speaker"
CLUSTER_ID = re.compile(r"^speaker_\d+$")


@dataclasses.dataclass(frozen=True)
class AttributionConfig:
    same_speaker_threshold: float = 0.62  # cosine to a speaker's centroid to be them (bench/speakers.py)
    enrolled_threshold: float = 0.78  # cosine to an enrolled profile (false accepts <= 1 % on the bench)
    robot_threshold: float = 0.6  # cosine to the robot's own voice (its own utterances 0.67-0.85, visitors <= 0.45)
    min_speech_s: float = 0.6  # shorter speech never opens a speaker nor gets a name
    short_margin: float = 0.1  # short speech joins a speaker only this far above the threshold
    max_speakers: int = 8  # per conversation; then new voices stay anonymous
    forget_after_s: float = 600.0  # no utterance for this long: a new conversation
    confidence_span: float = 0.2


@dataclasses.dataclass(frozen=True)
class Attribution:
    speaker_id: str
    confidence: float
    kind: str  # enrolled | joined | new | robot | anonymous
    score: float = 0.0  # the cosine similarity the decision rested on
    reason: str = ""


@dataclasses.dataclass
class _Cluster:
    speaker_id: str
    total: np.ndarray  # sum of member embeddings (the centroid's direction)
    count: int = 1

    @property
    def centroid(self) -> np.ndarray:
        return self.total / (np.linalg.norm(self.total) + 1e-12)


class SpeakerAttributor:
    def __init__(self, clock: Callable[[], float], config: AttributionConfig = AttributionConfig(),
                 profiles: Optional[Dict[str, np.ndarray]] = None):
        self.clock, self.config = clock, config
        self._lock = threading.RLock()  # attribute() on the asr worker, reset() on a ROS callback
        self.profiles: Dict[str, np.ndarray] = {}
        self.set_profiles(profiles or {})
        self.robot_voice: Optional[np.ndarray] = None
        self._clusters: List[_Cluster] = []
        self._last = -np.inf

    def set_profiles(self, profiles: Dict[str, np.ndarray]) -> None:
        self.profiles = {name: _unit(v) for name, v in profiles.items()}

    def set_robot_voice(self, embedding: Optional[np.ndarray]) -> None:
        self.robot_voice = None if embedding is None else _unit(embedding)

    def reset(self) -> None:
        """A new conversation: speaker_1 is whoever speaks next."""
        with self._lock:
            if self._clusters:
                log.info("speakers reset (%d in the last conversation)", len(self._clusters))
            self._clusters = []

    @property
    def speakers(self) -> List[str]:
        return [c.speaker_id for c in self._clusters]

    def attribute(self, embedding: Optional[np.ndarray], speech_s: float) -> Attribution:
        with self._lock:
            return self._attribute(embedding, speech_s)

    def _attribute(self, embedding: Optional[np.ndarray], speech_s: float) -> Attribution:
        cfg, now = self.config, self.clock()
        if embedding is None:
            return Attribution(ANONYMOUS, 0.0, "anonymous", reason="no audio")
        if now - self._last > cfg.forget_after_s:
            self.reset()
        self._last = now
        e = _unit(embedding)
        short = speech_s < cfg.min_speech_s
        nearest, best = self._nearest(e)
        if self.robot_voice is not None:
            robot = float(e @ self.robot_voice)
            if robot >= cfg.robot_threshold and robot > best:
                return Attribution(ANONYMOUS, 0.0, "robot", robot, "the robot's own voice")
        not_enrolled = ""  # why no enrolled name, for the log
        if self.profiles and not short:
            name, score = max(((n, float(e @ p)) for n, p in self.profiles.items()), key=lambda x: x[1])
            if score >= cfg.enrolled_threshold:
                return Attribution(name, self._confidence(score, cfg.enrolled_threshold), "enrolled", score)
            not_enrolled = f"nearest enrolled {name} {score:.2f} < {cfg.enrolled_threshold:.2f}"
        threshold = cfg.same_speaker_threshold + (cfg.short_margin if short else 0.0)
        if nearest is not None and best >= threshold:
            nearest.total = nearest.total + e
            nearest.count += 1
            return Attribution(nearest.speaker_id, self._confidence(best, threshold), "joined", best, not_enrolled)
        if short:
            return Attribution(ANONYMOUS, 0.0, "anonymous", best,
                               f"{speech_s:.2f} s of speech: too little to tell a new voice")
        if len(self._clusters) >= cfg.max_speakers:
            return Attribution(ANONYMOUS, 0.0, "anonymous", best, f"{cfg.max_speakers} speakers already")
        cluster = _Cluster(f"speaker_{len(self._clusters) + 1}", e.copy())
        self._clusters.append(cluster)
        return Attribution(cluster.speaker_id, self._confidence(best if nearest else -1.0, threshold), "new",
                           best if nearest else 0.0, not_enrolled)

    def _nearest(self, e: np.ndarray):
        if not self._clusters:
            return None, -1.0
        scores = [float(e @ c.centroid) for c in self._clusters]
        i = int(np.argmax(scores))
        return self._clusters[i], scores[i]

    def _confidence(self, score: float, threshold: float) -> float:
        return round(0.5 + 0.5 * min(1.0, abs(score - threshold) / self.config.confidence_span), 3)


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    return v / (np.linalg.norm(v) + 1e-12)
