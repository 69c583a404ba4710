"""ASR latency and word error rate by strategy, on synthesized museum-visitor sentences
(espeak-ng and piper voices, 0.9-8 s), bundled faster-whisper tiny.en, int8, beam 1, 2 threads:

- transcribe: `WhisperModel.transcribe(beam_size=1, language="en",
  condition_on_previous_text=False, vad_filter=False, without_timestamps=True, temperature=0.0)`
  (always encodes a 30 s padded window);
- window-10: CTranslate2 `generate()` on a 10 s padded mel window, through
  `phanthy_perception.asr.WhisperTranscriber(window_s=10)` (what the asr node runs);
- window-30: the same direct call on a 30 s window (separates the window from the wrapper).

Clips get the silence the node's tracker adds around the VAD boundaries (PRE_ROLL_S, POST_ROLL_S).

    .venv/bin/python bench/asr_window.py [--reps 3] [--windows 10,30]

Each utterance is run `reps` times per strategy, strategies interleaved (so load from other
processes hits them alike), after one warm-up call each. WER: word edit distance over all
reference words, texts normalized by `phanthy_perception.asr.normalize_text` (lowercase, no
punctuation, numbers as spoken).
"""

import argparse
import os
import pathlib
import statistics
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "test")]
from phanthy_perception.asr import (POST_ROLL_S, PRE_ROLL_S, WhisperTranscriber, normalize_text,  # noqa: E402
                                    word_errors)
from support.voices import concat, espeak, piper, silence  # noqa: E402

SENTENCES = [
    "Where are the bathrooms?",
    "Yes, please.",
    "Take me to the dinosaur hall.",
    "How old is this skeleton?",
    "Hey Jarvis, what time does the museum close today?",
    "Can you show me where the gift shop is?",
    "Is there a place to eat on the second floor?",
    "What is the biggest animal in this museum?",
    "Thank you, that was really interesting.",
    "Are there any guided tours in Spanish this afternoon?",
    "Could you tell me more about the painting with the sunflowers?",
    "My daughter wants to see the butterflies. Which way should we go?",
    "Do you have room for twenty five people at ten o'clock?",
    "How much does a ticket for the planetarium show cost for two adults and three children?",
    "I lost my little brother near the entrance. He is wearing a red jacket and a blue cap. "
    "Can you help me find him?",
    "We would like to visit the space exhibition first, then the ancient Egypt rooms, and finish "
    "with the ocean gallery before lunch.",
    "Excuse me, my grandmother cannot walk very far, so is there an elevator or a wheelchair we "
    "could borrow for the afternoon?",
    "Hello robot, we are a school class from Lyon and our teacher says you can tell us about the "
    "whale skeleton hanging from the ceiling.",
]


def utterances():
    for voice, speak in (("espeak", espeak), ("piper", piper)):
        for text in SENTENCES:
            yield voice, text, concat(silence(PRE_ROLL_S), speak(text), silence(POST_ROLL_S))


def strategies(windows):
    model = WhisperTranscriber(window_s=10.0)

    def transcribe(audio):
        segments, _ = model.model.transcribe(
            audio.astype(np.float32) / 32768.0, beam_size=1, language="en", condition_on_previous_text=False,
            vad_filter=False, without_timestamps=True, temperature=0.0)
        return " ".join(s.text.strip() for s in segments), 0

    out = {"transcribe": transcribe}
    for window in windows:
        direct = WhisperTranscriber(window_s=float(window))
        out[f"window-{window:g}"] = lambda audio, direct=direct: retried(direct, direct.transcribe(audio))
    return out


def retried(model, result):
    """(text, 1 if the output looped and was decoded again on a 30 s window else 0)"""
    return result.text, int(result.window_s > model.window_s and result.duration_ms < model.window_s * 1000)


def spread(values):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]  # noqa: E731
    return f"{statistics.median(values):.0f} ({pick(0.1):.0f}-{pick(0.9):.0f}; {values[0]:.0f}-{values[-1]:.0f})"



def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--windows", default="10,30", help="direct-call windows (s), comma separated")
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    clips = list(utterances())
    runs = strategies([float(w) for w in args.windows.split(",") if w])
    for fn in runs.values():
        fn(clips[0][2])  # warm-up
    # piper samples noise (VITS): its clips, so its WER, differ a little from run to run
    latency = {name: {"short": [], "mid": [], "long": []} for name in runs}
    errors = {name: {"espeak": 0, "piper": 0} for name in runs}
    retries = {name: 0 for name in runs}
    words = {"espeak": 0, "piper": 0}
    for rep in range(args.reps):
        for voice, text, audio in clips:
            seconds = len(audio) / 16000 - PRE_ROLL_S - POST_ROLL_S  # speech
            bucket = "short" if seconds < 2.5 else "mid" if seconds < 5 else "long"
            if rep == 0:
                words[voice] += len(normalize_text(text).split())
            names = list(runs)
            for name in names[rep % len(names):] + names[:rep % len(names)]:
                t0 = time.perf_counter()
                hypothesis, retry = runs[name](audio)
                latency[name][bucket].append((time.perf_counter() - t0) * 1000)
                if rep == 0:
                    retries[name] += retry
                    wrong = word_errors(text, hypothesis)
                    errors[name][voice] += wrong
                    if wrong:
                        print(f"  {name:10s} {voice:6s} {wrong} error(s): {text!r} -> {hypothesis!r}")
    total = sum(words.values())
    print(f"\n{len(clips)} utterances ({len(SENTENCES)} sentences x 2 voices, {total} words, "
          f"{PRE_ROLL_S:g} s / {POST_ROLL_S:g} s silence around), {args.reps} runs each; 1-min load average "
          f"{load_start:.1f} at start, {os.getloadavg()[0]:.1f} at end; latency ms: median (p10-p90; min-max)")
    print("| strategy | all clips | speech < 2.5 s | 2.5-5 s | 5-8 s | WER espeak | WER piper | WER all "
          "| looped, redone on 30 s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in runs:
        b = latency[name]
        e = errors[name]
        print(f"| {name} | {spread(b['short'] + b['mid'] + b['long'])} | {spread(b['short'])} | "
              f"{spread(b['mid'])} | {spread(b['long'])} | {100 * e['espeak'] / words['espeak']:.1f} % | "
              f"{100 * e['piper'] / words['piper']:.1f} % | {100 * (e['espeak'] + e['piper']) / total:.1f} % | {retries[name]} |")


if __name__ == "__main__":
    main()
