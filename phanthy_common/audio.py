"""Audio plumbing shared by the perception nodes and the speaker: fixed-size blocks with
sample-accurate timestamps, format conversion, resampling. Pure (no ROS)."""

from __future__ import annotations

import functools
from typing import List, Tuple

import numpy as np
from scipy.signal import firwin, resample_poly

RATE = 16000


def to_float(samples: np.ndarray) -> np.ndarray:
    return samples.astype(np.float32) / 32768.0


def to_int16(samples: np.ndarray) -> np.ndarray:
    return np.clip(np.round(samples * 32768.0), -32768, 32767).astype(np.int16)


@functools.lru_cache(maxsize=16)
def _lowpass(up: int, down: int) -> np.ndarray:
    # resample_poly's own default design, computed once per ratio (designing it on every
    # 20 ms frame cost 3 ms at 44.1 kHz; the cached filter 0.25 ms)
    max_rate = max(up, down)
    return firwin(2 * 10 * max_rate + 1, 1.0 / max_rate, window=("kaiser", 5.0))


def resample(samples: np.ndarray, rate: int, target: int) -> np.ndarray:
    """int16 in, int16 out (polyphase filter)."""
    if rate == target or len(samples) == 0:
        return samples.astype(np.int16)
    g = int(np.gcd(rate, target))
    up, down = target // g, rate // g
    out = resample_poly(samples.astype(np.float32), up, down, window=_lowpass(up, down))
    return np.clip(out, -32768, 32767).astype(np.int16)


class Chunker:
    """Re-cut a stream of frames of any size into blocks of `size` samples, each stamped with
    the time of its first sample (derived from the frame stamps and the sample rate)."""

    def __init__(self, size: int, rate: int = RATE):
        self.size, self.rate = size, rate
        self._buffer = np.zeros(0, dtype=np.int16)
        self._t0 = 0.0  # time of _buffer[0]

    def push(self, stamp: float, samples: np.ndarray) -> List[Tuple[float, np.ndarray]]:
        if len(self._buffer) == 0:
            self._t0 = stamp
        else:
            expected = self._t0 + len(self._buffer) / self.rate
            if abs(stamp - expected) > 0.2:  # a gap or a jump (new source): start over
                self._buffer, self._t0 = np.zeros(0, dtype=np.int16), stamp
        self._buffer = np.concatenate([self._buffer, samples.astype(np.int16)])
        blocks = []
        while len(self._buffer) >= self.size:
            blocks.append((self._t0, self._buffer[:self.size]))
            self._buffer = self._buffer[self.size:]
            self._t0 += self.size / self.rate
        return blocks

    def reset(self) -> None:
        self._buffer = np.zeros(0, dtype=np.int16)
