"""Group conversations in audio mode (bench/proactive.py audio): a few generated conversations
spoken by several synthesized voices (piper's joe, espeak-ng's American, British and a
higher-pitched voice) into the room's microphone, through the real perception stack (vad,
asr with tiny.en) of a `phanthy run` robot with the proactive node and the agent. The
visitors let the robot finish when it speaks. Transcripts carry the asr's speaker ids
(speaker attribution: speaker_1, speaker_2, ... by voice).

Scored by content, not by turn index (the recognizer may merge or split turns): an event is
addressed when an intervention that states its gold value comes after its problem turn and
before its window ends; a silent event is kept when none does. Also: the word error rate of
the transcripts against what was said.
"""

from __future__ import annotations

import pathlib
import sys
import tempfile
import time
import uuid

import yaml
from rclpy.node import Node

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "test"), str(ROOT / "bench")]

from phanthy.msg import AgentState, Intervention, Transcript, TurnRecord  # noqa: E402
from phanthy_agent.evaluation.group_conversations import SPEAK  # noqa: E402
from phanthy_agent.evaluation.group_score import states  # noqa: E402
from phanthy_perception.asr import normalize_text, word_errors  # noqa: E402
from support import voices  # noqa: E402
from support.graph import LATCHED, RELIABLE  # noqa: E402
from support.room import Room  # noqa: E402
from support.robot_process import start_robot, stop_robot  # noqa: E402
from support.ros_harness import Collect, spin, wait_for  # noqa: E402

TURNS = 24  # of each conversation: its first events
GAP_S = 0.7  # between two visitors' turns: shorter than the robot's opening
WINDOW = 6  # turns after the problem in which an intervention counts
VOICES = {
    "visitor_1": lambda text: voices.piper(text),
    "visitor_2": lambda text: voices.espeak(text, "en-us", 165, 45),
    "visitor_3": lambda text: voices.espeak(text, "en-gb", 155, 60),
    "visitor_4": lambda text: voices.espeak(text, "en-us", 145, 80),
}


def robot_config(work: pathlib.Path) -> pathlib.Path:
    config = {
        "collector": {"ros__parameters": {"sources": {"speech": {"topic": "voice/transcript",
                                                                "type": "phanthy/msg/Transcript", "priority": 0}}}},
        "agent": {"ros__parameters": {"agent": {"brain": "offline"}}},
        "speaker": {"ros__parameters": {"engine": "sim", "output": "none"}},
        "face": {"ros__parameters": {}},
        "vad": {"ros__parameters": {}},
        "asr": {"ros__parameters": {"listen_mode": "always"}},
        "proactive": {"ros__parameters": {"documents": [str(ROOT / "config" / "exhibits")],
                                          "web": {"enabled": False}, "energy_topic": "audio/in"}},
    }
    path = work / "robot.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


class AudioRobot:
    def __init__(self):
        work = pathlib.Path(tempfile.mkdtemp())
        self.ns = f"/group{uuid.uuid4().hex[:6]}"
        self.process = start_robot(robot_config(work), self.ns, work, "warn")
        self.probe = Node(f"observer_{uuid.uuid4().hex[:6]}", namespace=self.ns)
        self.turns = Collect(self.probe, TurnRecord, "phanthy/turns", RELIABLE)
        self.states = Collect(self.probe, AgentState, "phanthy/agent_state", LATCHED)
        self.interventions = Collect(self.probe, Intervention, "phanthy/interventions", RELIABLE)
        self.transcripts = Collect(self.probe, Transcript, "voice/transcript", RELIABLE)
        self.room = Room(self.ns, echo=False)
        self.group = spin(self.probe, self.room)
        wait_for(lambda: self.states.snapshot() and self.probe.count_subscribers("phanthy/floor_requests") > 0
                 and self.probe.count_subscribers("audio/in") >= 3, 120, "the robot process")
        time.sleep(3.0)

    def speaking(self) -> bool:
        states = self.states.snapshot()
        return bool(states) and states[-1].state != "idle"

    def close(self) -> None:
        self.room.close()
        self.group.stop()
        stop_robot(self.process)


def play(robot: AudioRobot, conversation) -> list:
    """Say the conversation's first TURNS turns; returns [(turn index, time it ended)]."""
    ended = []
    for turn in conversation.turns[:TURNS]:
        samples = VOICES.get(turn.speaker, VOICES["visitor_2"])(turn.text)
        _, end = robot.room.say(samples, delay_s=0.05)
        time.sleep(max(0.0, end - time.time()) + GAP_S)
        ended.append((turn.index, end))
        deadline = time.time() + 4.0  # the robot may take the floor after this turn: let it finish
        while time.time() < deadline:
            if robot.speaking():
                wait_for(lambda: not robot.speaking(), 60, "the robot to finish")
                time.sleep(0.6)
                break
            time.sleep(0.1)
    time.sleep(4.0)
    return ended


def judge(conversation, ended, delivered) -> dict:
    out = {"speak": 0, "addressed": 0, "silent": 0, "kept_silent": 0, "ordinary": 0}
    used = set()
    times = dict(ended)
    last = ended[-1][0]
    for event in conversation.events:
        if event.turn > last:
            continue
        start = times[event.turn]
        stop = times.get(min(event.turn + WINDOW, last), start + 60) + 8.0
        hits = [m for m, t in delivered if start <= t <= stop and event.value and states(event.value, m.text)]
        used.update(id(m) for m in hits)
        if event.kind in SPEAK:
            out["speak"] += 1
            out["addressed"] += bool(hits)
        else:
            out["silent"] += 1
            out["kept_silent"] += not hits
    out["ordinary"] = sum(1 for m, _ in delivered if id(m) not in used)
    return out


def run_audio(args) -> None:
    import rclpy
    from proactive import material
    _, conversations = material(args.seed, 1, 0)
    picked, seen = [], set()
    for conv in conversations:  # one per exhibit, the first few exhibits
        if conv.document not in seen:
            seen.add(conv.document)
            picked.append(conv)
    picked = picked[:args.conversations]
    rclpy.init()
    totals = {"speak": 0, "addressed": 0, "silent": 0, "kept_silent": 0, "ordinary": 0, "errors": 0, "words": 0}
    try:
        for conv in picked:
            robot = AudioRobot()
            try:
                ended = play(robot, conv)
                delivered = [(m, m.header.stamp.sec + m.header.stamp.nanosec * 1e-9)
                             for m in robot.interventions.snapshot() if m.state == "delivered"]
                result = judge(conv, ended, delivered)
                heard = " ".join(t.text for t in robot.transcripts.snapshot() if t.is_final)
                said = " ".join(t.text for t in conv.turns[:TURNS])
                result["errors"] = word_errors(said, heard)
                result["words"] = len(normalize_text(said).split())
                print(f"{conv.id}: {result} transcripts {len(robot.transcripts.snapshot())}, "
                      f"interventions {[m.text[:60] for m, _ in delivered]}")
                for key in totals:
                    totals[key] += result[key]
            finally:
                robot.close()
    finally:
        rclpy.shutdown()
    print(f"\naudio mode, {len(picked)} conversations of {TURNS} turns, 4 synthesized voices:")
    print(f"  events to speak on addressed: {totals['addressed']}/{totals['speak']}")
    print(f"  events to stay silent on kept silent: {totals['kept_silent']}/{totals['silent']}")
    print(f"  interventions on ordinary turns: {totals['ordinary']}")
    print(f"  word error rate of the transcripts: {100.0 * totals['errors'] / max(1, totals['words']):.1f} %")
