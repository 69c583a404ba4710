"""How soon the vad node's front end (echo canceller -> silero VAD -> double-talk gate, and the
fast double-talk cue) tells that a visitor talks over the robot, and whether the robot's own
echo ever passes for a visitor: the node's order of work replayed on synthesized rooms, in data
time (deterministic, no ROS, ~2 min).

    .venv/bin/python bench/barge_in_detect.py [--trials 50]

Each trial: the robot says a long reply (piper) twice, its echo comes back into the microphone
(20-80 ms late, -12..-6 dB) with room noise, and a visitor (espeak / piper, alternating) talks
over the second one 1-3 s in (the canceller has converged by then, as on a robot that has been
talking). Microphone frames are 20 ms and, as from a live microphone (and bench/voice.py's
room), each is available 30 ms after its end: "released" below counts from the visitor's first
sample to the end of processing the frame that let them through, plus those 30 ms. Then the
echo alone is played in harsher rooms (louder echo, reverberation, the reference arriving late)
to count onsets the robot's own voice would cause. Results in bench/README.md.
"""

import argparse
import pathlib
import random
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "test"), str(ROOT / "bench")]
from stats import summary  # noqa: E402
from support import voices  # noqa: E402

from phanthy_common.audio import RATE  # noqa: E402
from phanthy_perception.double_talk import DoubleTalkCue  # noqa: E402
from phanthy_perception.echo import EchoGate, MicEchoCanceller  # noqa: E402
from phanthy_perception.vad import SileroVad, VadSegmenter, VadStream  # noqa: E402

FRAME = 320  # 20 ms microphone frames
RELEASE_S = 0.03  # a frame is available this long after its end
LEAD_S = 0.5  # the robot starts speaking here
REPLY = ("The dinosaur hall is our largest gallery. It holds the skeleton of Stan, a Tyrannosaurus "
         "rex found in South Dakota. Next to him you can see a Triceratops and one of the first birds.")
INTERRUPTIONS = ["Actually, take me to the gift shop first.", "Wait, where are the toilets?",
                 "Sorry, I meant the space gallery.", "Stop, I have a question about tickets.",
                 "Excuse me, is the cafe open now?"]


def reverberate(x: np.ndarray, rt_s: float, seed: int) -> np.ndarray:
    """A direct path plus a decaying diffuse tail `rt_s` long, at the same RMS."""
    n = int(rt_s * RATE)
    tail = np.random.default_rng(seed).normal(0, 1, n) * np.exp(-np.linspace(0, 7, n)) * 0.3
    tail[0] = 1.0
    y = np.convolve(x, tail)[:len(x)]
    return y * np.sqrt(np.mean(x ** 2) / (np.mean(y ** 2) + 1e-9))


def room(robot: np.ndarray, k: int, gain_db: float, reverb_s: float = 0.0, visitor_at=None):
    """(microphone, reference) for one trial; the reference is what the speaker played."""
    delay_s = random.Random(k).uniform(0.02, 0.08)
    echo = robot.astype(np.float64) * 10 ** (gain_db / 20)
    if reverb_s:
        echo = reverberate(echo, reverb_s, k)
    start = int((LEAD_S + delay_s) * RATE)
    mic = np.zeros(start + len(echo) + RATE)
    mic[start:start + len(echo)] += echo
    mic += voices.noise(len(mic) / RATE, 120, seed=k)[:len(mic)]
    if visitor_at is not None:
        text = INTERRUPTIONS[k % len(INTERRUPTIONS)]
        visitor = voices.espeak(text) if k % 2 == 0 else voices.piper(text)
        at = int(visitor_at * RATE)
        mic[at:at + len(visitor)] += visitor[:len(mic) - at]
    reference = np.zeros(len(mic), dtype=np.int16)
    reference[int(LEAD_S * RATE):int(LEAD_S * RATE) + len(robot)] = robot
    return np.clip(mic, -32768, 32767).astype(np.int16), reference


def onsets(model: SileroVad, mic: np.ndarray, reference: np.ndarray, reference_late_s: float = 0.0,
           kinds=("onset",)):
    """Release times (s) of the events of these kinds the vad node would publish."""
    canceller = MicEchoCanceller()
    gate, cue, segment_open = EchoGate(canceller), DoubleTalkCue(), False
    model.reset()
    stream = VadStream(model, VadSegmenter())
    late = int(round(reference_late_s * RATE))
    out = []
    for i in range(0, len(mic) - FRAME, FRAME):
        t, t_end = i / RATE, (i + FRAME) / RATE
        if i >= late:
            canceller.add_reference((i - late) / RATE, reference[i - late:i - late + FRAME], RATE)
        gate.add_mic(t, mic[i:i + FRAME])
        stamp, clean = canceller.process(t, mic[i:i + FRAME])
        events = stream.push(stamp, clean) if len(clean) else []
        gate.add_clean(stamp, clean)
        for e in gate.filter(events, t_end):
            segment_open = e.kind != "offset"
            if e.kind == "onset":
                cue.confirmed()
            if e.kind in kinds:
                out.append(t_end + RELEASE_S)
        out += [t_end + RELEASE_S for kind in cue.frame_audio(
            t_end, mic[i:i + FRAME], clean, gate.noise_floor, canceller.playing(stamp), segment_open)
            if kind in kinds]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=50)
    args = parser.parse_args()
    model = SileroVad()
    once = voices.piper(REPLY)
    robot = np.concatenate([once, np.zeros(int(0.4 * RATE), dtype=np.int16), once])
    rng = random.Random(1)
    firsts = {"onset": [], "candidate": []}
    early = {"onset": 0, "candidate": 0}
    for k in range(args.trials):
        at = LEAD_S + len(once) / RATE + 0.4 + rng.uniform(1.0, 3.0)
        mic, reference = room(robot, k, rng.uniform(-12, -6), visitor_at=at)
        for kind in firsts:
            times = onsets(model, mic, reference, kinds=(kind,))
            early[kind] += sum(t < at for t in times)
            after = [t - at for t in times if t >= at]
            firsts[kind].append(after[0] * 1000 if after else float("inf"))
    for kind, what in (("candidate", "candidate (fast cue)"), ("onset", "onset (VAD + double-talk gate)")):
        got = [x for x in firsts[kind] if x != float("inf")]
        print(summary(f"{what} after the visitor's first sample, incl. the 30 ms microphone", got))
        print(f"  missed: {args.trials - len(got)}/{args.trials}; before the visitor spoke: {early[kind]}")
    print("echo alone, 6 replies (each said twice) per room: onsets / candidates the robot's own voice caused")
    for gain_db, reverb_s, late_s in [(-10, 0, 0), (-6, 0, 0), (-3, 0, 0), (-10, 0, 0.06),
                                      (-10, 0.15, 0), (-6, 0.3, 0)]:
        counts = [sum(len(onsets(model, *room(robot, k, gain_db, reverb_s), reference_late_s=late_s,
                                 kinds=(kind,))) for k in range(6)) for kind in ("onset", "candidate")]
        print(f"  echo {gain_db:+d} dB, reverberation {reverb_s:.2f} s, reference {late_s * 1000:.0f} ms late: "
              f"{counts[0]} / {counts[1]}")


if __name__ == "__main__":
    main()
