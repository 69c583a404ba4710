"""Wake word: openWakeWord on the audio stream, a wake phrase at the start of a transcript, and
the gate that decides which transcripts the robot listens to. Pure (no ROS, injected time).

- `WakeWordDetector`: openWakeWord 0.5.1 bundled models, run with onnxruntime, fed 80 ms blocks.
- `WakePhraseMatcher`: "hey robot, ..." / "Hey Jervis. ..." at the start of a transcript.
- `ListenGate`: "always" listening, or "wake_word" gated with a listening window.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from phanthy_common.audio import RATE, Chunker

log = logging.getLogger(__name__)

FRAME = 1280  # openWakeWord's step: 80 ms at 16 kHz
WARMUP_S = 2.0  # silence fed at start: flushes openWakeWord's random initial features


@dataclass(frozen=True)
class WakeDetection:
    keyword: str  # the model name as configured ("hey_jarvis")
    score: float
    t: float  # time of the end of the 80 ms block whose score crossed the threshold


class WakeWordDetector:
    """openWakeWord on a 16 kHz int16 stream. One detection per spoken phrase: a keyword fires
    when its score reaches `threshold`, then stays silent until `refractory_s` has passed AND its
    score has fallen below the threshold again (scores stay high for ~0.5 s after a phrase).

    `models` are bundled model names (see `bundled_models()`) or paths to .onnx model files.
    `model` injects any object with openWakeWord's `predict(int16[1280]) -> {label: score}`.
    A real model is warmed up with 2 s of silence: openWakeWord starts from random features and
    returns 0 for its first 5 blocks (and again after its reset(), which we therefore never call).
    A gap or jump in the stamps (> 0.2 s) restarts the 80 ms blocking, not the model."""

    def __init__(self, models: Sequence[str] = ("hey_jarvis",), threshold: float = 0.5,
                 refractory_s: float = 2.0, model=None):
        if isinstance(models, str):
            models = [models]
        if not models:
            raise ValueError("no wake word model given; bundled: " + ", ".join(bundled_models()))
        self.threshold, self.refractory_s = float(threshold), float(refractory_s)
        if model is None:
            names, sources = _resolve(models)
            from openwakeword.model import Model  # 2-3 s import (sklearn): only when needed
            model = Model(wakeword_models=sources, inference_framework="onnx")
            self.models = tuple(names)
            self._labels = {name: _labels(model, name) for name in self.models}
            silence = np.zeros(FRAME, dtype=np.int16)
            for _ in range(int(WARMUP_S * RATE / FRAME)):  # also past the 5 blocks it zeroes
                model.predict(silence)
        else:
            self.models = tuple(models)
            self._labels = {name: [name] for name in self.models}
        self._model = model
        self._chunker = Chunker(FRAME, RATE)
        self._last: Dict[str, float] = {}
        self._armed: Dict[str, bool] = {name: True for name in self.models}
        self.last_scores: Dict[str, float] = {name: 0.0 for name in self.models}

    def push(self, stamp: float, samples: np.ndarray) -> List[WakeDetection]:
        """Feed samples (16 kHz int16) whose first sample was captured at `stamp` (seconds)."""
        detections = []
        for t0, block in self._chunker.push(stamp, np.asarray(samples, dtype=np.int16)):
            scores = self._model.predict(block)
            t = t0 + FRAME / RATE
            for name in self.models:
                score = float(max(scores.get(label, 0.0) for label in self._labels[name]))
                self.last_scores[name] = score
                if score < self.threshold:
                    self._armed[name] = True
                    continue
                if not self._armed[name]:
                    continue
                self._armed[name] = False  # this crossing is used up, detection or not
                last = self._last.get(name)
                if last is None or t - last >= self.refractory_s:
                    self._last[name] = t
                    detections.append(WakeDetection(name, score, t))
        return detections


def bundled_models() -> List[str]:
    import openwakeword
    return sorted(openwakeword.models)


def _resolve(models: Sequence[str]) -> Tuple[List[str], List[str]]:
    """Our names, and what to give openWakeWord: a bundled model's name (openWakeWord then keys it
    by that name and knows the timer model's class labels) or an .onnx path (keyed by the file
    name). Strict: openWakeWord itself takes any substring of a file name ("a" -> alexa)."""
    import openwakeword
    names = []
    for model in models:
        key = str(model).strip().lower().replace(" ", "_").replace("-", "_")
        if key in openwakeword.models:
            names.append(key)
        elif str(model).endswith(".onnx") and os.path.isfile(model):
            names.append(os.path.splitext(os.path.basename(model))[0])
        else:
            bundled = ", ".join(sorted(openwakeword.models))
            raise ValueError(f"unknown wake word model {model!r}: openWakeWord {_version()} bundles "
                             f"{bundled} (or give the path of an .onnx model file)")
    sources = [name if name in openwakeword.models else str(model) for name, model in zip(names, models)]
    return names, sources


def _labels(model, name: str) -> List[str]:
    """Prediction keys of one model: its name, or its class labels (the timer model)."""
    if model.model_outputs.get(name, 1) == 1:
        return [name]
    return list(model.class_mapping[name].values())


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("openwakeword")
    except Exception:
        return "?"


# --- wake phrase in a transcript --------------------------------------------------------------
GREETINGS = frozenset({"hey", "hay", "hei", "heh", "hi"})  # heard for one another by ASR
FILLERS = frozenset({"um", "uh", "oh", "ah", "er", "erm", "hmm", "so", "well", "ok", "okay"})
_WORD = re.compile(r"[a-z0-9']+")
_LEADING_JUNK = re.compile(r"^[\W_]+", re.UNICODE)


def _fold(text: str) -> Tuple[str, List[int]]:
    """Lower-case ASCII letters of `text`, and for each the index of its original character."""
    chars, index = [], []
    for i, ch in enumerate(text):
        for c in unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode().lower():
            chars.append(c)
            index.append(i)
    return "".join(chars), index


class WakePhraseMatcher:
    """A wake phrase at the very start of a transcript (never in the middle).

    Tolerance, in this order: case, punctuation and accents are ignored ("Hey, Jarvis!");
    one leading filler word is skipped ("Um, hey robot"); a first word in GREETINGS stands for
    any other ("hi robot", "hay jarvis"); the words may be merged or split by one ("heyjarvis",
    "hey jar vis"; a merged word must keep the phrase's first letter, so the bare name
    "Jarvis, ..." is not a wake phrase); then the letters of the heard words must be similar to
    the phrase's (difflib ratio >= `cutoff`, default 0.8: "hey jervis", "hey robert" pass;
    "hey travis", "hey there", "hey robin", "hey bob" do not). "a robot" is NOT taken for
    "hey robot": "A robot like you ..." is an ordinary sentence, and stripping its start would
    change its meaning. Of two candidate spans the higher ratio wins, then the exact word count."""

    def __init__(self, phrases: Sequence[str] = ("hey robot", "hey jarvis"), cutoff: float = 0.8):
        if isinstance(phrases, str):
            phrases = [phrases]
        self.phrases = [p for p in phrases if _WORD.findall(_fold(p)[0])]
        self.cutoff = cutoff
        self._words = [_WORD.findall(_fold(p)[0]) for p in self.phrases]

    def match(self, text: str) -> Optional[Tuple[str, str]]:
        """(phrase, remainder) if `text` starts with a wake phrase; remainder is the rest of the
        original text without leading punctuation ("" if nothing follows)."""
        folded, index = _fold(text)
        tokens = [(m.group(), index[m.end() - 1] + 1) for m in _WORD.finditer(folded)]
        if tokens and tokens[0][0] in FILLERS and len(tokens) > 1:
            starts = (0, 1)
        else:
            starts = (0,)
        best = None  # (ranking key, phrase, end offset of the phrase in `text`)
        for phrase, words in zip(self.phrases, self._words):
            target = "".join(words)
            for start in starts:
                for extra in (0, -1, 1):
                    k = len(words) + extra
                    span = tokens[start:start + k]
                    if k < 1 or len(span) < k:
                        continue
                    heard = [w for w, _ in span]
                    if extra < 0 and heard[0][0] != target[0]:  # merged words keep the first letter
                        continue
                    if len(heard) > 1 and heard[0] in GREETINGS and words[0] in GREETINGS:
                        heard[0] = words[0]
                    ratio = difflib.SequenceMatcher(None, "".join(heard), target).ratio()
                    key = (ratio, extra == 0, start == 0)
                    if ratio >= self.cutoff and (best is None or key > best[0]):
                        best = (key, phrase, span[-1][1])
        if best is None:
            return None
        return best[1], _LEADING_JUNK.sub("", text[best[2]:]).strip()


# --- the gate ---------------------------------------------------------------------------------
class ListenGate:
    """Which transcripts reach the agent.

    mode "always": every non-empty transcript, a leading wake phrase stripped.
    mode "wake_word": only while the listening window is open. `on_wake(t)` opens it (or extends
    it) until t + window_s; `on_speech(t)` (voice activity) extends an open window to t + window_s;
    an admitted transcript extends it too. A transcript that itself starts with a wake phrase
    opens the window (transcript-based wake) and is admitted with the phrase stripped. A
    transcript that is only the wake phrase ("Hey Jarvis.") returns None but opens the window.

    two_stage=True (wake_word mode): an openWakeWord detection `on_wake(t, keyword)` does not open
    the window by itself; it is pending until t + window_s (extended by on_speech like a window).
    The first transcript admitted while the window is closed and a detection is pending must
    start with that keyword's phrase ("hey_jarvis" -> "hey jarvis", matched like
    WakePhraseMatcher): then the window opens at the transcript's time and the remainder is
    returned; otherwise the detection is discarded as a false fire and the transcript dropped.
    A transcript wake phrase without a pending detection does not open the window either, so
    custom phrases that no openWakeWord model covers ("hey robot") cannot wake a two-stage gate.
    Detections and speech while the window is open only extend it; `on_wake(t)` without a
    keyword (a button, a test) opens the window directly.

    `t` arguments are seconds on the caller's clock (the transcript's stamp); when omitted,
    `clock()` is used. `on_transcript_wake(phrase, t)` is called when a transcript's wake phrase
    is accepted (to publish voice/wake with source "transcript")."""

    MODES = ("always", "wake_word")

    def __init__(self, mode: str = "always", window_s: float = 8.0, clock: Callable[[], float] = time.monotonic,
                 matcher: Optional[WakePhraseMatcher] = None, two_stage: bool = False,
                 on_transcript_wake: Optional[Callable[[str, float], None]] = None):
        if mode not in self.MODES:
            raise ValueError(f"unknown listen mode {mode!r}; one of {', '.join(self.MODES)}")
        self.mode, self.window_s, self.clock, self.two_stage = mode, float(window_s), clock, two_stage
        self.matcher = matcher or WakePhraseMatcher()
        self.on_transcript_wake = on_transcript_wake
        self.open_until = float("-inf")
        self.in_conversation = False
        self._pending: Optional[Tuple[str, float]] = None  # (keyword, valid until)
        self._keyword_matchers: Dict[str, WakePhraseMatcher] = {}

    def is_open(self, t: Optional[float] = None) -> bool:
        return self.mode == "always" or self.in_conversation or self._now(t) <= self.open_until

    def set_conversation(self, active: bool) -> None:
        """The agent's voice interaction is open (RECOGNIZING, THINKING, PLAYING): the visitor's
        answer to a question, or their words in continuous mode, need no wake word. When it
        ends (back to LISTENING) the wake word's window closes too: the robot said goodbye, so
        what is said next is not for it without a new wake word."""
        if self.in_conversation and not active:
            self.open_until, self._pending = float("-inf"), None
        self.in_conversation = active

    def on_wake(self, t: Optional[float] = None, keyword: str = "") -> None:
        t = self._now(t)
        if keyword:
            self._keyword_matcher(keyword)
        if self.two_stage and keyword and not self.is_open(t):
            self._pending = (keyword, t + self.window_s)
            log.debug("wake word %r at %.2f: waiting for the transcript to confirm it", keyword, t)
            return
        self._extend(t)

    def on_speech(self, t: Optional[float] = None) -> None:
        t = self._now(t)
        if self.mode == "wake_word" and t <= self.open_until:
            self._extend(t)
        if self._pending and t <= self._pending[1]:
            self._pending = (self._pending[0], max(self._pending[1], t + self.window_s))

    def admit(self, text: str, t: Optional[float] = None) -> Optional[str]:
        """The text the agent should hear (wake phrase stripped), or None to drop it."""
        t = self._now(t)
        text = (text or "").strip()
        if not text:
            return None
        pending, self._pending = self._pending, None
        if pending and t > pending[1]:
            pending = None
        if self.mode == "wake_word" and self.two_stage and not self.is_open(t):
            if pending is None:
                log.debug("dropped (window closed, no wake word): %r", text)
                return None
            found = self._keyword_matcher(pending[0]).match(text)
            if found is None:
                log.info("wake word %r not confirmed by the transcript %r: ignored", pending[0], text)
                return None
            return self._woke(found, t)
        found = self._match(text)
        if found is not None:
            return self._woke(found, t)
        if not self.is_open(t):
            log.debug("dropped (window closed): %r", text)
            return None
        self._extend(t)
        return text

    # --- internals ----------------------------------------------------------------------------
    def _woke(self, found: Tuple[str, str], t: float) -> Optional[str]:
        phrase, remainder = found
        self._extend(t)
        if self.on_transcript_wake is not None:
            self.on_transcript_wake(phrase, t)
        return remainder or None

    def _match(self, text: str) -> Optional[Tuple[str, str]]:
        found = self.matcher.match(text)
        for matcher in self._keyword_matchers.values():
            if found is not None:
                break
            found = matcher.match(text)
        return found

    def _keyword_matcher(self, keyword: str) -> WakePhraseMatcher:
        if keyword not in self._keyword_matchers:
            self._keyword_matchers[keyword] = WakePhraseMatcher((keyword.replace("_", " "),), self.matcher.cutoff)
        return self._keyword_matchers[keyword]

    def _extend(self, t: float) -> None:
        self.open_until = max(self.open_until, t + self.window_s)

    def _now(self, t: Optional[float]) -> float:
        return self.clock() if t is None else float(t)
