"""The whole phanthy graph in this process, in its own namespace, with a scripted brain and a
test node that speaks (publishes Transcripts) and listens (state, events, turns, playback)."""

import json
import pathlib
import time
import uuid
from typing import Dict, List, Optional

import yaml
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

from phanthy.msg import AgentEvent, AgentState, Playback, Transcript, TurnRecord
from phanthy_agent.cli import node_factory
from phanthy_common.convert import header
from support.ros_harness import Collect, spin, wait_for

RELIABLE = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)


def overrides(params: Dict) -> List[Parameter]:
    return [Parameter(k, value=v) for k, v in params.items()]


class Graph:
    def __init__(self, tmp_path: pathlib.Path, replies: Optional[list] = None,
                 nodes=("collector", "agent", "speaker", "base", "face"),
                 params: Optional[Dict[str, Dict]] = None, extra_nodes=(), ns: Optional[str] = None):
        self.ns = ns or f"/t{uuid.uuid4().hex[:8]}"  # a fixed one for robots of a fleet
        self.record = tmp_path / "requests.jsonl"
        params = {k: dict(v) for k, v in (params or {}).items()}
        agent = params.setdefault("agent", {})
        if replies is not None:
            script = tmp_path / "script.yaml"
            script.write_text(yaml.safe_dump(replies))
            agent.setdefault("agent.brain", "scripted")
            agent.setdefault("scripted.file", str(script))
            agent.setdefault("scripted.record", str(self.record))
        self.nodes = {name: node_factory(name)(namespace=self.ns,
                                               parameter_overrides=overrides(params.get(name, {})))
                      for name in nodes}
        self.probe = Node(f"probe_{uuid.uuid4().hex[:6]}", namespace=self.ns)
        self._speech = self.probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
        self.states = Collect(self.probe, AgentState, "phanthy/agent_state", LATCHED)
        self.events = Collect(self.probe, AgentEvent, "phanthy/agent_events", RELIABLE)
        self.turns = Collect(self.probe, TurnRecord, "phanthy/turns", RELIABLE)
        self.playback = Collect(self.probe, Playback, "speaker/playback", 10)
        self.group = spin(*self.nodes.values(), *extra_nodes, self.probe)
        self.wait_ready()

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Discovery done: the collector hears us, the agent knows every driver's tools."""
        wait_for(lambda: self._speech.get_subscription_count() > 0, timeout, "the collector's subscription")
        agent = self.nodes.get("agent")
        if agent is not None:
            drivers = {n for n in self.nodes if n in ("speaker", "base", "face", "led", "peers", "collector")}
            wait_for(lambda: drivers <= set(agent.call_in_core(agent.core.registry.drivers)),
                     timeout, f"manifests of {sorted(drivers)}")
            self.states.wait(what="the agent state")

    def say(self, text: str, duration_ms: int = 1500, source: str = "test",
            speaker_id: str = "anonymous_speaker") -> None:
        now = time.time()
        self._speech.publish(Transcript(header=header(now), text=text, is_final=True,
                                        audio_duration_ms=duration_ms, confidence=0.9,
                                        speaker_id=speaker_id, language="en-US", source=source))

    def wait_turns(self, n: int, timeout: float = 60.0) -> List[TurnRecord]:
        return self.turns.wait(lambda ms: len(ms) >= n, timeout, f"{n} turn record(s)")

    def agent_events(self, kind: str) -> List[AgentEvent]:
        return [e for e in self.events.snapshot() if e.kind == kind]

    def requests(self) -> List[dict]:
        if not self.record.exists():
            return []
        return [json.loads(line) for line in self.record.read_text().splitlines() if line.strip()]

    def close(self) -> None:
        if not getattr(self, "_closed", False):
            self._closed = True
            self.group.stop()


def calls(record: TurnRecord) -> List[dict]:
    return json.loads(record.tool_calls_json)
