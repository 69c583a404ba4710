"""The console's feed, on the chat_web node: the graph's topics as console messages (the console
keeps no state of its own: what it shows is what these topics carried), a visitor's typed words
as a Transcript on voice/transcript (source `web_console`), and "stop the robot": the interrupt
hooks every driver declared (on_interrupt_speak, on_interrupt_motion, on_interrupt_all), sent
as Tool goals, as the agent does on an interruption.

The fleet: every robot announcing on /phanthy/peers (this one too), kept in a PeerDirectory on
this machine's clock and sent to the pages as one `fleet` message whenever what it shows changes
and every second (how long ago each robot was heard; online, gone after its ttl, then dropped).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Dict, List

from diagnostic_msgs.msg import DiagnosticArray
from rclpy.action import ActionClient
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

from phanthy.action import Tool
from phanthy.msg import (AgentEvent, AgentState, Intervention, PeerAnnounce, Playback, ToolManifest, Transcript,
                         TurnRecord, TurnTiming, VoiceActivity, WakeWord)
from phanthy_common.convert import clean_text, from_time, header, message_to_dict
from phanthy_common.lifecycle import DIAGNOSTICS_TOPIC
from phanthy_common.peers import PeerDirectory
from phanthy_common.qos import LATCHED

from ..channels.console import ConsoleHub, console_message
from ..core.tools import ToolRegistry

log = logging.getLogger(__name__)

RELIABLE = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
MANIFESTS = QoSProfile(depth=16, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
STOP_HOOKS = ("on_interrupt_speak", "on_interrupt_motion", "on_interrupt_all")
LEVELS = {0: "OK", 1: "WARN", 2: "ERROR", 3: "STALE"}

# (kind, message type, topic, QoS)
FEEDS = (
    ("state", AgentState, "phanthy/agent_state", LATCHED),
    ("activity", VoiceActivity, "voice/activity", RELIABLE),
    ("wake", WakeWord, "voice/wake", RELIABLE),
    ("transcript", Transcript, "voice/transcript", RELIABLE),
    ("event", AgentEvent, "phanthy/agent_events", RELIABLE),
    ("turn", TurnRecord, "phanthy/turns", RELIABLE),
    ("playback", Playback, "speaker/playback", RELIABLE),
    ("timing", TurnTiming, "phanthy/turn_timing", RELIABLE),
    ("intervention", Intervention, "phanthy/interventions", RELIABLE),
)
FLEET_PERIOD_S = 1.0


class ConsoleBridge:
    def __init__(self, node: Node, keep_turns: int = 20, self_id: str = "", peers_gone_s: float = 30.0):
        self.node = node
        self.hub = ConsoleHub(self.say, self.stop, keep_turns)
        self.registry = ToolRegistry()
        self._group = ReentrantCallbackGroup()
        self._clients: Dict[str, ActionClient] = {}
        self._speech = node.create_publisher(Transcript, "voice/transcript", RELIABLE)
        for kind, msg_type, topic, qos in FEEDS:
            node.create_subscription(msg_type, topic, lambda msg, k=kind: self._feed(k, msg), qos)
        node.create_subscription(DiagnosticArray, DIAGNOSTICS_TOPIC, self._on_diagnostics, 50)
        node.create_subscription(ToolManifest, "phanthy/tools", self._on_manifest, MANIFESTS)
        self.fleet = PeerDirectory(time.monotonic, self_id, linger_s=peers_gone_s, keep_self=True)
        node.create_subscription(PeerAnnounce, "/phanthy/peers", self._on_peer, RELIABLE)
        node.create_timer(FLEET_PERIOD_S, self._publish_fleet)
        self._fleet_shown = False

    def _feed(self, kind: str, msg) -> None:
        data = console_message(message_to_dict(msg))
        if kind == "turn":  # the record's calls as data, not a string in a string
            try:
                data["tool_calls"] = json.loads(data.pop("tool_calls_json", "") or "[]")
            except ValueError:
                data["tool_calls"] = []
        self.hub.publish(kind, data.get("stamp") or time.time(), data)

    def _on_peer(self, msg: PeerAnnounce) -> None:
        before = self.fleet.get(msg.peer_id)
        back = self.fleet.announce(msg.peer_id, msg.description, msg.ttl_s, msg.agent_state, msg.voice_state,
                                   msg.console_url)
        if back or self.fleet.changed(msg.peer_id, before):  # new, back, or showing something else
            self._publish_fleet()

    def _publish_fleet(self) -> None:
        peers = self.fleet.fleet()
        if peers or self._fleet_shown:  # once more when the last robot is dropped
            self.hub.publish("fleet", time.time(), {"peers": peers})
        self._fleet_shown = bool(peers)

    def _on_diagnostics(self, msg: DiagnosticArray) -> None:
        if not msg.status:
            return
        node = msg.status[0].hardware_id
        statuses = [{"name": s.name[len(node) + 2:] if s.name.startswith(node + ": ") else s.name,
                     "level": LEVELS.get(s.level[0] if isinstance(s.level, bytes) else int(s.level), "?"),
                     "message": s.message, "values": {kv.key: kv.value for kv in s.values}} for s in msg.status]
        self.hub.publish("health", from_time(msg.header.stamp), {"node": node, "statuses": statuses})

    def _on_manifest(self, msg: ToolManifest) -> None:
        refused = self.registry.update_manifest(msg.driver, msg.tools_json)
        if refused:
            log.debug("console: %s tools not usable for stop: %s", msg.driver, refused)

    # --- what the page asks ----------------------------------------------------------------------
    def say(self, text: str) -> None:
        """A visitor's typed words, heard by the agent as speech (as the terminal console's)."""
        self._speech.publish(Transcript(header=header(time.time()), text=clean_text(text), is_final=True,
                                        audio_duration_ms=0, confidence=-1.0, speaker_id="anonymous_speaker",
                                        language="en-US", source="web_console"))

    def stop(self) -> str:
        """Fire every interrupt hook the drivers declared (without waiting for them)."""
        targets = {(t.driver, t.action, json.dumps(t.params, sort_keys=True))
                   for hook in STOP_HOOKS for t in self.registry.hook_targets(hook)}
        sent: List[str] = []
        for driver, action, params in sorted(targets):
            client = self._clients.get(f"{driver}/{action}")
            if client is None:
                client = self._clients[f"{driver}/{action}"] = ActionClient(
                    self.node, Tool, f"{driver}/{action}", callback_group=self._group)
            if client.server_is_ready():
                client.send_goal_async(Tool.Goal(args_json=params))
                sent.append(f"{driver}/{action}")
        log.info("console: stop sent to %s", ", ".join(sent) or "nobody (no interrupt hooks declared)")
        return ", ".join(sent) or "no driver declared an interrupt hook"
