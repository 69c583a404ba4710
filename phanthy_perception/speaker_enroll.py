"""Enrolling a person's voice from WAV recordings (`phanthy speakers enroll NAME WAV...`), pure
(no ROS): each file's speech (quiet 20 ms frames dropped) is embedded, the mean of all files is
the person's profile in the ProfileStore."""

from __future__ import annotations

import dataclasses
from typing import List, Sequence

import numpy as np

from phanthy_common.audio import RATE

from .capture import read_wav
from .speaker_embedding import mean_embedding
from .speaker_profiles import Profile, ProfileStore, check_name

MIN_SPEECH_S = 1.0  # per recording
ADVISED_S = 5.0  # in all: less gives a shakier profile (a warning, not an error)
FRAME = RATE // 50


@dataclasses.dataclass(frozen=True)
class Enrolled:
    profile: Profile
    warnings: List[str]


def speech_of(samples: np.ndarray) -> np.ndarray:
    """The 20 ms frames louder than a tenth of the recording's loudest ones (and than 300)."""
    n = len(samples) // FRAME
    if n == 0:
        return samples[:0]
    frames = samples[: n * FRAME].reshape(n, FRAME)
    rms = np.sqrt(np.mean(frames.astype(np.float32) ** 2, axis=1))
    floor = max(300.0, 0.1 * float(np.percentile(rms, 95)))
    return frames[rms > floor].reshape(-1)


def enroll(store: ProfileStore, encoder, name: str, paths: Sequence[str]) -> Enrolled:
    """Embed the recordings and store the profile; ValueError says what is wrong."""
    check_name(name)
    if not paths:
        raise ValueError("give at least one WAV recording of the person speaking")
    embeddings, seconds, warnings = [], 0.0, []
    for path in paths:
        speech = speech_of(read_wav(path))  # a SourceError (ValueError) says what is wrong with the file
        length = len(speech) / RATE
        if length < MIN_SPEECH_S:
            raise ValueError(f"{path}: {length:.1f} s of speech; each recording needs at least {MIN_SPEECH_S:g} s")
        embeddings.append(encoder.embed(speech))
        seconds += length
    if round(seconds, 1) < ADVISED_S:
        warnings.append(f"only {seconds:.1f} s of speech in all; {ADVISED_S:g} s or more make a steadier profile")
    profile = store.enroll(name, mean_embedding(embeddings), encoder.id, seconds, len(paths))
    return Enrolled(profile, warnings)
