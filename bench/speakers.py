"""Speaker attribution on synthesized conversations: accuracy per utterance, clustering purity,
false accepts of enrolled speakers, time added to a transcript, memory.

    .venv/bin/python bench/speakers.py [--conversations 40] [--latency 24] [--seed 0]

Voices (8 visitors, all synthesized at run time; the robot is piper's joe): espeak-ng en-us,
en-us+f3, en-us+m7, en+klatt, en-gb-scotland+f2, and piper joe pitch-shifted by sox -5, +3 and
+6 semitones (joe is the only piper voice shipped in a PyPI package). They were picked from 19
candidates as voices the encoder can tell apart at all: several espeak variants share their
synthesizer's formants (en-us and en+croak: cosine 0.98 between their centroids) and are one
voice to it.

Conditions: `clean` (the utterance alone), `room` (room noise, and the robot's own voice, joe,
talking at -10 dB with a 40 ms delay, through the echo canceller phanthy runs, speexdsp).

1. Conversations: 2-4 visitors each, 10 utterances in random order, through the online
   clustering (phanthy_perception/speaker_attribution.py). An utterance is correct when its id
   is the one its speaker got most often in that conversation, and no other speaker's; purity
   = share of each id's utterances from its main speaker.
2. Enrollment: 4 voices enrolled (3 sentences each), every utterance of the 4 others (never
   enrolled) checked against them: a false accept is an unknown voice given an enrolled name.
   The enrolled threshold is swept; the default must keep false accepts <= 1 %.
3. Added latency: the asr node's path on a timeline: audio arrives in 20 ms frames in real time,
   the window embeddings run on their worker while the visitor speaks, Whisper transcribes at
   the pause hint (96 ms after the last syllable) on its own thread, and `identify()` is timed
   when the transcript is ready.
4. Memory: resident memory the speaker encoder adds (model loaded, 50 utterances embedded).
"""

import argparse
import gc
import pathlib
import random
import sys
import threading
import time
from collections import Counter, defaultdict

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "test"), str(ROOT / "bench")]
from stats import summary  # noqa: E402
from support import voices  # noqa: E402

from phanthy_common.audio import RATE  # noqa: E402
from phanthy_perception.echo import MicEchoCanceller  # noqa: E402
from phanthy_perception.speaker_attribution import AttributionConfig, SpeakerAttributor  # noqa: E402
from phanthy_perception.speaker_embedding import WINDOW_S, SpeakerEncoder, mean_embedding  # noqa: E402

ESPEAK = ["en-us", "en-us+f3", "en-us+m7", "en+klatt", "en-gb-scotland+f2"]
PIPER_SHIFTS = [-500, 300, 600]  # cents
VOICES = [f"espeak:{v}" for v in ESPEAK] + [f"piper:{c:+d}" for c in PIPER_SHIFTS]
SENTENCES = [
    "Where is the dinosaur hall?", "Can you take me to the gift shop, please?",
    "What time does the museum close today?", "I would like two tickets for the space tour.",
    "Is there a cafe on this floor?", "Tell me about the mammoth skeleton.",
    "How much is a family membership?", "Actually, let's go to the planets exhibit first.",
    "Do you have a map of the museum?", "Where can I leave my coat and my bag?",
    "Is the planetarium show suitable for children?", "My daughter would love to see the butterflies.",
    "Can we take photos in the galleries?", "Which way are the toilets?",
    "How long does the guided tour take?", "We are looking for the Egyptian mummies.",
]
ENROLL = ["Hello, my name is on the staff list and I work here on weekdays.",
          "I look after the collections in the east wing of the building.",
          "Please remember my voice so that you recognize me next time."]
SHORT = ["Yes.", "Okay.", "No thanks.", "Sure."]


def say(voice: str, text: str) -> np.ndarray:
    kind, name = voice.split(":")
    if kind == "espeak":
        return voices.espeak(text, voice=name)
    return voices.pitched(voices.piper(text), int(name))


def in_room(samples: np.ndarray, seed: int) -> np.ndarray:
    """The utterance as the asr node gets it in a room: noise, the robot (joe) talking at -10 dB
    40 ms late, and the echo canceller removing what it can of the robot."""
    rng = random.Random(seed)
    robot = voices.piper(rng.choice(SENTENCES))
    n = len(samples) + RATE // 2
    robot = np.resize(robot, n)
    mic = voices.mix(voices.mix(voices.silence(n / RATE), samples, 0.25),
                     voices.echo_of(robot, 40.0, -10.0, noise_level=120.0, seed=seed))[:n]
    aec = MicEchoCanceller()
    t0, frame = 1000.0, 320
    for k in range(0, n, frame):
        aec.add_reference(t0 + k / RATE, robot[k:k + frame], RATE)
    cleaned = []
    for k in range(0, n - frame + 1, frame):
        _, out = aec.process(t0 + k / RATE, mic[k:k + frame])
        cleaned.append(out)
    out = np.concatenate(cleaned)
    return out[int(0.25 * RATE) - 1600: int(0.25 * RATE) + len(samples) + 3200]  # 0.1 s / 0.2 s around


def score_conversation(truth, predicted):
    """(correct utterances, {pred id: Counter of true speakers})."""
    by_true = defaultdict(Counter)
    by_pred = defaultdict(Counter)
    for t, p in zip(truth, predicted):
        by_true[t][p] += 1
        by_pred[p][t] += 1
    owner = {}
    for t, counts in sorted(by_true.items(), key=lambda kv: -max(kv[1].values())):
        for p, _ in counts.most_common():
            if p != "anonymous_speaker" and p not in owner.values():
                owner[t] = p
                break
    correct = sum(1 for t, p in zip(truth, predicted) if owner.get(t) == p)
    return correct, by_pred


def conversations(encoder, args, cache):
    rng = random.Random(args.seed)
    print("\n1. Conversations: accuracy per utterance, purity")
    for condition in ("clean", "room"):
        for threshold in args.same_thresholds:
            cfg = AttributionConfig(same_speaker_threshold=threshold)
            total = correct = long_total = long_correct = anonymous = 0
            purity_num = purity_den = 0
            rng.seed(args.seed)
            for c in range(args.conversations):
                people = rng.sample(VOICES, rng.choice([2, 3, 4]))
                order = [rng.choice(people) for _ in range(10)]
                attributor = SpeakerAttributor(lambda: 0.0, cfg)
                truth, predicted, durations = [], [], []
                for i, person in enumerate(order):
                    text = rng.choice(SENTENCES + SHORT[:1]) if i % 5 else rng.choice(SENTENCES)
                    key = (person, text, condition, c * 100 + i if condition == "room" else 0)
                    if key not in cache:
                        audio = say(person, text)
                        cache[key] = encoder.embed(in_room(audio, key[3]) if condition == "room" else audio), \
                            len(audio) / RATE
                    emb, seconds = cache[key]
                    a = attributor.attribute(emb, seconds)
                    truth.append(person)
                    predicted.append(a.speaker_id)
                    durations.append(seconds)
                ok, by_pred = score_conversation(truth, predicted)
                total += len(truth)
                correct += ok
                for p, counts in by_pred.items():
                    if p != "anonymous_speaker":
                        purity_num += max(counts.values())
                        purity_den += sum(counts.values())
                anonymous += predicted.count("anonymous_speaker")
                kept = [k for k, d in enumerate(durations) if d >= 1.0]
                ok_long, _ = score_conversation([truth[k] for k in kept], [predicted[k] for k in kept])
                long_total += len(kept)
                long_correct += ok_long
            print(f"  {condition:5} threshold {threshold:.2f}: accuracy {100 * correct / total:.1f} % "
                  f"({correct}/{total}), utterances >= 1 s {100 * long_correct / max(1, long_total):.1f} % "
                  f"({long_correct}/{long_total}), purity {100 * purity_num / max(1, purity_den):.1f} %, "
                  f"anonymous {anonymous}")


def enrollment(encoder, args, cache):
    print("\n2. Enrollment: unknown voices given an enrolled name (false accepts)")
    rng = random.Random(args.seed + 1)
    rows = defaultdict(lambda: [0, 0, 0, 0])  # threshold -> [false accepts, impostor trials, accepted genuine, genuine]
    for split in range(args.splits):
        enrolled = rng.sample(VOICES, 4)
        profiles = {v: mean_embedding([encoder.embed(say(v, s)) for s in ENROLL]) for v in enrolled}
        for condition in ("clean", "room"):
            for v in VOICES:
                for j, text in enumerate(SENTENCES):
                    key = (v, text, condition, 5000 + j if condition == "room" else 0)
                    if key not in cache:
                        audio = say(v, text)
                        cache[key] = encoder.embed(in_room(audio, key[3]) if condition == "room" else audio), \
                            len(audio) / RATE
                    emb, seconds = cache[key]
                    for threshold in args.enrolled_thresholds:
                        cfg = AttributionConfig(enrolled_threshold=threshold)
                        a = SpeakerAttributor(lambda: 0.0, cfg, profiles).attribute(emb, seconds)
                        row = rows[(condition, threshold)]
                        if v in enrolled:
                            row[3] += 1
                            row[2] += a.speaker_id == v
                        else:
                            row[1] += 1
                            row[0] += a.kind == "enrolled"
    for (condition, threshold), (fa, trials, acc, genuine) in sorted(rows.items()):
        print(f"  {condition:5} threshold {threshold:.2f}: false accepts {fa}/{trials} "
              f"({100 * fa / trials:.2f} %), enrolled voices recognized {acc}/{genuine} ({100 * acc / genuine:.1f} %)")


def rss_mib() -> float:
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024.0
    return 0.0


def memory(args):
    print("\nMemory")
    audio = [say(VOICES[k % len(VOICES)], SENTENCES[k % len(SENTENCES)]) for k in range(50)]  # piper loaded first
    gc.collect()
    before = rss_mib()
    encoder = SpeakerEncoder()
    loaded = rss_mib()
    peak = loaded
    for samples in audio:
        encoder.embed(samples)
        peak = max(peak, rss_mib())
    print(f"  resident memory: +{loaded - before:.1f} MiB once loaded, +{peak - before:.1f} MiB after "
          f"50 utterances (process {peak:.0f} MiB)")
    window = audio[0][:int(WINDOW_S * RATE)]
    times = []
    for _ in range(20):
        began = time.perf_counter()
        encoder.window_embeddings(window)
        times.append((time.perf_counter() - began) * 1000)
    print(f"  {summary('one 0.8 s window (front end + encoder, one onnxruntime thread)', times)}")
    return encoder


def latency(encoder, args):
    """The asr node's timeline, in real time, with Whisper on its own thread (as in the node)."""
    from phanthy_perception.asr import WhisperTranscriber
    from phanthy_perception.speaker_id import SpeakerIdentifier
    from phanthy_perception.utterance import SpeechBuffer, Worker

    print("\n3. Time added to a transcript (real time, Whisper alongside)")
    whisper = WhisperTranscriber()
    whisper.warm_up()
    buffer = SpeechBuffer()
    worker = Worker("speaker-worker")
    ident = SpeakerIdentifier(encoder, buffer.segment, time.monotonic, submit=worker.submit)
    rng = random.Random(args.seed + 2)
    added, asr_ms, pending = [], [], []
    t0 = time.monotonic()
    clock = 0.0
    for k in range(args.latency):
        audio = voices.concat(voices.silence(0.3), say(rng.choice(VOICES), rng.choice(SENTENCES)), voices.silence(0.6))
        start, end = clock + 0.3, clock + len(audio) / RATE - 0.6
        hint_at = end + 0.096
        asr_done = threading.Event()
        hinted = False
        for i in range(0, len(audio), 320):
            t = clock + i / RATE
            target = t0 + t
            delay = target - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            buffer.push(t, audio[i:i + 320])
            if abs(t - start) < 0.01:
                ident.on_speech("onset", start)
            ident.on_audio(t + 0.02)
            if not hinted and t >= hint_at:
                hinted = True
                seg = buffer.segment(start - 0.1, t)

                def transcribe(seg=seg):
                    began = time.perf_counter()
                    whisper.transcribe(seg)
                    asr_ms.append((time.perf_counter() - began) * 1000)
                    asr_done.set()
                threading.Thread(target=transcribe, daemon=True).start()
        asr_done.wait(10)
        ident.on_speech("offset", end)
        added.append(ident.identify(start, end).elapsed_ms)
        clock += len(audio) / RATE
        pending.append(end - start)
    worker.close()
    print(f"  {summary('added to the transcript (identify() once it is ready)', added)}")
    print(f"  {summary('Whisper on the same utterances, for scale', asr_ms)}")
    print(f"  {summary('speech', pending, 's')}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--conversations", type=int, default=40)
    ap.add_argument("--splits", type=int, default=3, help="random choices of the 4 enrolled voices")
    ap.add_argument("--latency", type=int, default=24, help="utterances timed on the real-time timeline")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--same-thresholds", type=float, nargs="+",
                    default=[AttributionConfig.same_speaker_threshold])
    ap.add_argument("--enrolled-thresholds", type=float, nargs="+",
                    default=[AttributionConfig.enrolled_threshold])
    ap.add_argument("--skip", nargs="*", default=[], choices=["conversations", "enrollment", "latency", "memory"])
    args = ap.parse_args()
    print(f"voices: {', '.join(VOICES)}; robot: piper joe")
    encoder = memory(args) if "memory" not in args.skip else SpeakerEncoder()
    cache = {}
    if "conversations" not in args.skip:
        conversations(encoder, args, cache)
    if "enrollment" not in args.skip:
        enrollment(encoder, args, cache)
    if "latency" not in args.skip:
        latency(encoder, args)


if __name__ == "__main__":
    main()
