"""Voice benchmarks on real models over real DDS, with synthesized visitors in a simulated room
(the robot's own voice comes back into the microphone: delayed, attenuated, with noise).

    .venv/bin/python bench/voice.py latency      [--trials 50]   # visitor's last syllable -> robot's first audio
    .venv/bin/python bench/voice.py barge_in     [--trials 50]   # interrupting speech stops the robot
    .venv/bin/python bench/voice.py backchannels [--trials 60]   # yeah/okay/mm-hm/uh-huh/right/cough do not
    .venv/bin/python bench/voice.py echo         [--trials 50]   # the robot never interrupts itself

The robot is a real `phanthy run` process (collector, agent, speaker with piper, vad, asr), as on
a robot; this process is the room: it plays the visitor and the robot's echo into audio/in and
watches the topics. The brain is scripted and instant. Results in bench/README.md.

Environment: PAUSE_HINT_MS (the vad's pause_hint_ms, 96), PIPER_THREADS (the speaker's
voice.threads, 2), BENCH_LOG (the robot's log level, warn), BENCH_ROBOT_LOG (where its log
goes; default robot.log in its temporary directory), SPEAKERS (0 = the asr node without speaker
attribution, for an A/B; default 1).
"""

import argparse
import os
import pathlib
import random
import sys
import tempfile
import time
import uuid

import rclpy

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "test"), str(ROOT / "bench")]
from stats import summary  # noqa: E402
from support import voices  # noqa: E402
import yaml  # noqa: E402
from rclpy.node import Node  # noqa: E402

from phanthy.msg import AgentState, Playback, Transcript, TurnRecord, VoiceActivity  # noqa: E402
from support.graph import LATCHED, RELIABLE, calls  # noqa: E402
from support.room import Room  # noqa: E402
from support.robot_process import start_robot, stop_robot  # noqa: E402
from support.ros_harness import Collect, spin, wait_for  # noqa: E402

from phanthy_perception.asr import normalize_text, word_errors  # noqa: E402

PAUSE_HINT_MS = int(os.environ.get("PAUSE_HINT_MS", "96"))
PIPER_THREADS = int(os.environ.get("PIPER_THREADS", "2"))
LOG_LEVEL = os.environ.get("BENCH_LOG", "warn")  # for the CLI and ROS alike: debug, info, warn, error
SPEAKERS = os.environ.get("SPEAKERS", "1") != "0"  # the asr node's speaker attribution (speakers.enabled)
QUESTIONS = ["When does the museum close?", "Where are the toilets?", "Can you take me to the dinosaur hall?",
             "How much is a ticket for children?", "Is there a cafe in the museum?",
             "Where can I leave my coat?", "Do you have a map of the museum?", "Which way is the gift shop?",
             "Can I take photos in the galleries?", "Where is the space gallery?"]
INTERRUPTIONS = ["Actually, take me to the gift shop first.", "Wait, where are the toilets?",
                 "Sorry, I meant the space gallery.", "Stop, I have a question about tickets.",
                 "Excuse me, is the cafe open now?"]
BACKCHANNELS = ["yeah", "okay", "mm-hm", "uh-huh", "right", "cough"]
REPLY = ("The dinosaur hall is our largest gallery. It holds the skeleton of Stan, a Tyrannosaurus "
         "rex found in South Dakota. Next to him you can see a Triceratops and one of the first birds.")


def voice(text: str, k: int):
    return voices.espeak(text) if k % 2 == 0 else voices.piper(text)


class Robot:
    """`phanthy run` in its own process and namespace, with a scripted brain; this process is
    the room (microphone, echo, noise) and an observer of the robot's topics."""

    def __init__(self, replies, **room_kwargs):
        work = pathlib.Path(tempfile.mkdtemp())
        (work / "script.yaml").write_text(yaml.safe_dump(replies))
        config = {
            "collector": {"ros__parameters": {}},
            "agent": {"ros__parameters": {"agent": {"brain": "scripted"},
                                          "scripted": {"file": str(work / "script.yaml")}}},
            "speaker": {"ros__parameters": {"engine": "piper", "output": "none",
                                            "voice": {"threads": PIPER_THREADS}}},
            "vad": {"ros__parameters": {"pause_hint_ms": PAUSE_HINT_MS}},
            "asr": {"ros__parameters": {"speakers": {"enabled": SPEAKERS}}},
        }
        (work / "robot.yaml").write_text(yaml.safe_dump(config))
        self.ns = f"/bench{uuid.uuid4().hex[:6]}"
        self.process = start_robot(work / "robot.yaml", self.ns, work, LOG_LEVEL)
        self.probe = Node(f"observer_{uuid.uuid4().hex[:6]}", namespace=self.ns)
        self.turns = Collect(self.probe, TurnRecord, "phanthy/turns", RELIABLE)
        self.states = Collect(self.probe, AgentState, "phanthy/agent_state", LATCHED)
        self.playback = Collect(self.probe, Playback, "speaker/playback", RELIABLE)
        self.activity = Collect(self.probe, VoiceActivity, "voice/activity", RELIABLE)
        self.transcripts = Collect(self.probe, Transcript, "voice/transcript", RELIABLE)
        self._typed = self.probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
        self.room = Room(self.ns, **room_kwargs)
        self.group = spin(self.probe, self.room)
        wait_for(lambda: self._typed.get_subscription_count() >= 2 and self.states.snapshot(), 90,
                 "the robot process")
        time.sleep(3.0)  # models warm, manifests in

    def say_typed(self, text: str) -> None:
        self._typed.publish(Transcript(text=text, is_final=True, source="bench", confidence=-1.0))

    def wait_idle(self, n_turns: int, timeout: float = 90.0) -> None:
        self.turns.wait(lambda ms: len(ms) >= n_turns, timeout, f"{n_turns} turns")
        wait_for(lambda: self.states.snapshot()[-1].state == "idle", timeout, "idle")

    def peak_rss_mib(self) -> float:
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def close(self) -> None:
        print(f"peak resident memory of the robot process (the whole stack): {self.peak_rss_mib():.0f} MiB")
        self.room.close()
        self.group.stop()
        stop_robot(self.process)


def latency(trials: int) -> None:
    robot = Robot([{"tool_calls": [{"name": "speak", "arguments": {"text": "Sure, let me help."}},
                                   {"name": "finish"}]}] * (trials + 2))
    v2v, stages, errors, words, pause_ms = [], [], 0, 0, []
    try:
        for k in range(trials + 1):
            text = QUESTIONS[k % len(QUESTIONS)]
            _, true_end = robot.room.say(voice(text, k), delay_s=0.3)
            robot.wait_idle(k + 1)
            turn = robot.turns.snapshot()[-1]
            if k == 0:
                continue  # warm-up
            v2v.append((turn.t_first_audio - true_end) * 1000)
            playing = _first(robot.playback.snapshot(), "playing", turn.t_trigger)
            stages.append(((turn.t_transcript_ready - true_end) * 1000,
                           (turn.t_first_audio - turn.t_transcript_ready) * 1000,
                           (turn.t_trigger - turn.t_transcript_ready) * 1000,
                           (turn.t_first_token - turn.t_trigger) * 1000,
                           ((playing or turn.t_first_audio) - turn.t_first_token) * 1000,
                           (turn.t_first_audio - (playing or turn.t_first_audio)) * 1000))
            pauses = [a.t_detected for a in robot.activity.snapshot()
                      if a.event == "pause" and a.t_detected > true_end - 0.2]
            if pauses:
                pause_ms.append((min(pauses) - true_end) * 1000)
            errors += word_errors(text, turn.inputs[0] if turn.inputs else "")
            words += len(normalize_text(text).split())
            time.sleep(0.5)
    finally:
        robot.close()
    print(summary("voice-to-voice (last syllable -> first audio)", v2v))
    print(summary("  pause hint (speculative transcription starts) after the last syllable", pause_ms))
    print(summary("  transcript ready after the last syllable", [s[0] for s in stages]))
    print(summary("  first audio after the transcript (agent + speaker + piper)", [s[1] for s in stages]))
    print(summary("    transcript ready -> the agent has it (asr -> collector -> agent)", [s[2] for s in stages]))
    print(summary("    -> the brain's first tool call", [s[3] for s in stages]))
    print(summary("    -> the speaker plays (goal, piper's first chunk)", [s[4] for s in stages]))
    print(summary("    -> TurnRecord.t_first_audio (the speaker's stamp; 0 unless clocks disagree)", [s[5] for s in stages]))
    print(f"word error rate: {errors}/{words} = {100.0 * errors / max(1, words):.1f} %")
    print(f"microphone (room) thread worst lateness: {robot.room.max_lag_s * 1000:.0f} ms")


def _speaking(robot) -> None:
    wait_for(lambda: any(m.state == "playing" for m in robot.playback.snapshot()[-3:]), 30, "speaking")


def _first(msgs, state: str, after: float):
    times = [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 for m in msgs if m.state == state]
    times = [t for t in times if t >= after]
    return min(times) if times else None


LONG_REPLY_RULES = [{"match": "tell me about the dinosaurs",
                     "tool_calls": [{"name": "speak", "arguments": {"text": REPLY}}, {"name": "finish"}]},
                    {"match": ".", "tool_calls": [{"name": "finish"}]}]


def _trial_turns(robot, before: int, timeout: float = 90.0):
    """The turns of one trial: wait for at least one, then for the robot to be idle and quiet."""
    robot.wait_idle(before + 1, timeout)
    settled = time.monotonic() + 2.0
    count = len(robot.turns.snapshot())
    while time.monotonic() < settled:
        time.sleep(0.2)
        now = len(robot.turns.snapshot())
        if now != count or robot.states.snapshot()[-1].state != "idle":
            count, settled = now, time.monotonic() + 2.0
    return robot.turns.snapshot()[before:]


def barge_in(trials: int) -> None:
    robot = Robot(LONG_REPLY_RULES)
    rng = random.Random(1)
    stopped, pause_ms, stop_ms, missed = 0, [], [], []
    try:
        for k in range(trials + 1):
            before = len(robot.turns.snapshot())
            robot.say_typed(f"tell me about the dinosaurs, take {k}")
            _speaking(robot)
            text = INTERRUPTIONS[k % len(INTERRUPTIONS)]
            start, _ = robot.room.say(voice(text, k), delay_s=rng.uniform(1.0, 3.0))
            turns = _trial_turns(robot, before)
            if k == 0:
                continue
            if calls(turns[0])[0]["status"] == "cancelled":
                stopped += 1
            else:
                missed.append(text)
            msgs = robot.playback.snapshot()
            paused, ended = _first(msgs, "paused", start - 0.3), _first(msgs, "stopped", start - 0.3)
            if paused:
                pause_ms.append((paused - start) * 1000)
            if ended:
                stop_ms.append((ended - start) * 1000)
            time.sleep(0.5)
    finally:
        robot.close()
    print(f"interruptions that stopped the robot: {stopped}/{trials} = {100.0 * stopped / trials:.1f} %"
          + (f"; not stopped by: {missed}" if missed else ""))
    print(summary("playback paused after the visitor's speech onset", pause_ms))
    print(summary("playback stopped after the visitor's speech onset", stop_ms))


def backchannels(trials: int) -> None:
    robot = Robot(LONG_REPLY_RULES)
    ended, resume_ms, by_kind, paused_n = 0, [], {}, 0
    try:
        for k in range(trials + 1):
            kind = BACKCHANNELS[k % len(BACKCHANNELS)]
            before = len(robot.turns.snapshot())
            robot.say_typed(f"tell me about the dinosaurs, take {k}")
            _speaking(robot)
            samples = voices.cough(seed=k) if kind == "cough" else voice(kind, k)
            start, end = robot.room.say(samples, delay_s=1.5)
            turns = _trial_turns(robot, before)
            if k == 0:
                continue
            cut = calls(turns[0])[0]["status"] != "succeeded" or len(turns) > 1
            ended += cut
            by_kind.setdefault(kind, [0, 0])[0] += cut
            by_kind[kind][1] += 1
            msgs = [m for m in robot.playback.snapshot()
                    if m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 >= start - 0.3]
            states = [m.state for m in msgs]
            if "paused" in states:
                paused_n += 1
                i = states.index("paused")
                back = [m for m in msgs[i:] if m.state == "playing"]
                if back:
                    resume_ms.append((back[0].header.stamp.sec + back[0].header.stamp.nanosec * 1e-9 - end) * 1000)
    finally:
        robot.close()
    print(f"backchannels that ended the robot's turn: {ended}/{trials} = {100.0 * ended / trials:.1f} %  ("
          + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in by_kind.items()) + ")")
    print(f"backchannels that paused playback: {paused_n}/{trials}")
    if resume_ms:
        print(summary("playback back after the backchannel ended", resume_ms))


def echo(trials: int) -> None:
    texts = [REPLY, "The cafe is on the ground floor, in the west wing. It serves lunch until three.",
             "Tickets are free for children under twelve. Adults pay fifteen euros.",
             "The space gallery has a real meteorite you can touch. It is on the first floor."]
    rules = [{"match": f"topic {i}$", "tool_calls": [{"name": "speak", "arguments": {"text": text}},
                                                      {"name": "finish"}]} for i, text in enumerate(texts)]
    robot = Robot(rules + [{"match": ".", "tool_calls": [{"name": "finish"}]}], noise_level=150)
    rng = random.Random(2)
    interrupted, extra_turns = 0, 0
    try:
        for k in range(trials):
            robot.room.echo_delay_s = rng.uniform(0.02, 0.08)
            robot.room.echo_gain = 10 ** (rng.uniform(-12.0, -6.0) / 20.0)
            before = len(robot.turns.snapshot())
            robot.say_typed(f"tell me something, take {k}, topic {k % len(texts)}")
            turns = _trial_turns(robot, before)
            interrupted += calls(turns[0])[0]["status"] != "succeeded"
            extra_turns += len(turns) - 1
    finally:
        robot.close()
    pauses = sum(m.state == "paused" for m in robot.playback.snapshot())
    heard = [t.text for t in robot.transcripts.snapshot() if t.source == "asr" and t.is_final]
    print(f"self-interruptions: {interrupted}/{trials} replies; false pauses: {pauses}; "
          f"transcripts of its own voice published: {len(heard)} {heard[:3]}; turns started by echo: "
          f"{extra_turns}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["latency", "barge_in", "backchannels", "echo"])
    parser.add_argument("--trials", type=int, default=50)
    args = parser.parse_args()
    rclpy.init()
    try:
        {"latency": latency, "barge_in": barge_in, "backchannels": backchannels, "echo": echo}[args.what](args.trials)
    finally:
        rclpy.shutdown()


if __name__ == "__main__":
    main()
