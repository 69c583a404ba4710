"""The visitor's voice in audio-mode scenarios: synthesized at run time (piper's bundled voice,
or Debian's espeak-ng when installed), 16 kHz mono int16, trimmed of leading and trailing
silence."""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
import wave

import numpy as np
from scipy.signal import resample_poly

RATE = 16000


def to_rate(samples: np.ndarray, rate: int, target: int = RATE) -> np.ndarray:
    if rate == target:
        return samples.astype(np.int16)
    g = int(np.gcd(rate, target))
    out = resample_poly(samples.astype(np.float32), target // g, rate // g)
    return np.clip(out, -32768, 32767).astype(np.int16)


def trim(samples: np.ndarray, threshold: int = 300) -> np.ndarray:
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > threshold)
    return samples[loud[0]:loud[-1] + 1] if len(loud) else samples


@functools.lru_cache(maxsize=1)
def _piper():
    from phanthy_drivers.tts import PiperEngine
    return PiperEngine(alignments=False, threads=1)


def synthesize(text: str, voice: str = "piper") -> np.ndarray:
    if voice == "espeak":
        if shutil.which("espeak-ng") is None:
            raise RuntimeError("voice: espeak needs Debian's espeak-ng (scripts/setup.sh installs it)")
        wav = subprocess.run(["espeak-ng", "--stdout", "-v", "en-us", "-s", "160", text],
                             check=True, capture_output=True, timeout=30).stdout
        with wave.open(io.BytesIO(wav)) as w:
            samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
            rate = w.getframerate()
        return trim(to_rate(samples, rate))
    chunk = _piper().synthesize(text)
    return trim(to_rate(chunk.samples, chunk.sample_rate))
