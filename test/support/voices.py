"""The visitor's voice, synthesized at test time (no recorded files): espeak-ng and piper
utterances, coughs, room noise, silence, mixing and echo, all as 16 kHz mono int16 numpy arrays.
"""

import functools
import subprocess
import wave
from typing import Optional

import numpy as np

from phanthy_agent.evaluation.voice import (  # noqa: F401 (re-exported)
    RATE, piper_samples, read_wav, to_rate, trim)


@functools.lru_cache(maxsize=256)
def _espeak(text: str, voice: str, speed: int, pitch: int) -> bytes:
    return subprocess.run(["espeak-ng", "--stdout", "-v", voice, "-s", str(speed), "-p", str(pitch), text],
                          check=True, capture_output=True).stdout


def espeak(text: str, voice: str = "en-us", speed: int = 160, pitch: int = 50) -> np.ndarray:
    """`text` spoken by espeak-ng, trimmed of its leading/trailing silence."""
    samples, rate = read_wav(_espeak(text, voice, speed, pitch))
    return trim(to_rate(samples, rate))


def piper(text: str) -> np.ndarray:
    """`text` spoken by piper's joe-medium voice (another voice than espeak's)."""
    samples, rate = piper_samples(text)
    return trim(to_rate(samples, rate))


def pitched(samples: np.ndarray, cents: int) -> np.ndarray:
    """The same speech `cents` higher (negative: lower) by sox, formants and all: another
    voice than the one synthesized (how test/benchmark voices beyond piper's joe are made)."""
    out = subprocess.run(["sox", "-t", "raw", "-r", str(RATE), "-e", "signed", "-b", "16", "-c", "1", "-",
                          "-t", "raw", "-", "pitch", str(cents)],
                         input=np.asarray(samples, dtype=np.int16).tobytes(), capture_output=True, check=True).stdout
    return np.frombuffer(out, dtype=np.int16).copy()


def deep_piper(text: str) -> np.ndarray:
    """piper's joe five semitones down: a visitor's voice, not the robot's."""
    return pitched(piper(text), -500)


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * RATE), dtype=np.int16)


def noise(seconds: float, level: float = 200.0, seed: int = 0) -> np.ndarray:
    """Room noise: pink-ish (low-passed) Gaussian noise, RMS about `level`."""
    rng = np.random.default_rng(seed)
    white = rng.normal(0, 1, int(seconds * RATE))
    pink = np.convolve(white, np.ones(8) / 8, mode="same")
    pink *= level / (np.sqrt(np.mean(pink ** 2)) + 1e-9)
    return np.clip(pink, -32768, 32767).astype(np.int16)


def cough(seed: int = 1, seconds: float = 0.35) -> np.ndarray:
    """A cough: a burst of loud broadband noise with a fast attack and decay."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    env = np.exp(-np.linspace(0, 6, n)) * np.minimum(1.0, np.linspace(0, 30, n))
    burst = rng.normal(0, 1, n) * env * 9000
    return np.clip(burst, -32768, 32767).astype(np.int16)


def concat(*parts: np.ndarray) -> np.ndarray:
    return np.concatenate([p.astype(np.int16) for p in parts])


def mix(base: np.ndarray, other: np.ndarray, at_s: float = 0.0, gain: float = 1.0) -> np.ndarray:
    """`other` added into `base` starting at `at_s` (base is extended if needed)."""
    start = int(at_s * RATE)
    out = base.astype(np.int32)
    if start + len(other) > len(out):
        out = np.concatenate([out, np.zeros(start + len(other) - len(out), dtype=np.int32)])
    out[start:start + len(other)] += (other.astype(np.float32) * gain).astype(np.int32)
    return np.clip(out, -32768, 32767).astype(np.int16)


def echo_of(played: np.ndarray, delay_ms: float = 40.0, gain_db: float = -10.0,
            noise_level: Optional[float] = 150.0, seed: int = 0) -> np.ndarray:
    """What the microphone hears of the robot's own output: delayed, attenuated, plus noise."""
    delayed = concat(silence(delay_ms / 1000.0), played)
    out = (delayed.astype(np.float32) * 10 ** (gain_db / 20.0)).astype(np.int16)
    if noise_level:
        out = mix(out, noise(len(out) / RATE, noise_level, seed))
    return out


def write_wav(path, samples: np.ndarray, rate: int = RATE) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype(np.int16).tobytes())


def first_pause(audio, after_s=0.3, min_s=0.08, level=300):
    """Start (s) of the first quiet stretch of min_s after after_s: the comma after "hey jarvis"."""
    step, quiet = 160, 0
    for k in range(int(after_s * RATE) // step, len(audio) // step):
        quiet = 0 if np.abs(audio[k * step:(k + 1) * step].astype(np.int32)).max() > level else quiet + 1
        if quiet * step >= min_s * RATE:
            return (k - quiet + 1) * step / RATE
    raise AssertionError("no pause after the wake phrase")
