"""Peers: other robots on the LAN, reached through two fixed tools taking a peer id.

Announces this robot on /phanthy/peers with its live state (from its own phanthy/agent_state:
periodically, and promptly when the state changes, rate-limited), keeps a directory of the
others, serves `list_peers` and `send_to_peer`, and turns messages addressed to this robot into
events on phanthy/inbox (a priority source of the collector)."""

from __future__ import annotations

import socket

from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AgentState, Event as EventMsg, PeerAnnounce, PeerMessage
from phanthy_common.peers import (MAX_DESCRIPTION, AnnounceSchedule, PeerDirectory, bounded_state,
                                  console_url_or_empty)
from phanthy_common.params import Params
from phanthy_common.qos import LATCHED

from .sdk import DriverNode, ToolCall, ToolFailed
from .util import stamp_now

FLEET_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)
MAX_MESSAGE_CHARS = 2000


class PeersDriver(DriverNode):
    needs_threads = False  # its tools answer at once: a single-threaded executor is enough
    def __init__(self, **kwargs):
        super().__init__("peers", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        self.peer_id = p.get("peer_id", socket.gethostname(), "this robot's id in the fleet")
        self.description = p.get("description", "phanthy robot", "what this robot is, for the others")
        period = p.get("announce_period_s", 2.0, "how often to announce this robot")
        self.ttl_s = p.get("ttl_s", 6.0, "peers silent for this long are forgotten")
        min_interval = p.get("state_min_interval_s", 0.25,
                             "a state change is announced at once, but at most this often")
        url = p.get("console_url", "", "this robot's console as other robots' operators reach it (http(s); '' = none)")
        self.console_url = console_url_or_empty(url)
        if url and not self.console_url:
            self.get_logger().error(f"console_url {url[:80]!r} is not an http(s) address of at most 300 "
                                    "characters: not announced")
        p.warn_unknown()
        self.directory = PeerDirectory(self._now, self.peer_id)
        self.schedule = AnnounceSchedule(self._now, period, min_interval)
        self.schedule.update(("", ""))
        self._announce_pub = self.create_publisher(PeerAnnounce, "/phanthy/peers", FLEET_QOS)
        self._message_pub = self.create_publisher(PeerMessage, "/phanthy/peer_messages", FLEET_QOS)
        self._inbox = self.create_publisher(EventMsg, "phanthy/inbox", FLEET_QOS)
        self.create_subscription(PeerAnnounce, "/phanthy/peers", self._on_announce, FLEET_QOS)
        self.create_subscription(PeerMessage, "/phanthy/peer_messages", self._on_message, FLEET_QOS)
        self.create_subscription(AgentState, "phanthy/agent_state", self._on_agent_state, LATCHED)
        self.create_timer(self.schedule.min_interval_s or period, self._tick)
        self.add_tool(self.list_peers, "List the other robots you can message.")
        self.add_tool(self.send_to_peer, "Send a short text message to another robot.",
                      {"type": "object",
                       "properties": {"peer_id": {"type": "string"},
                                      "text": {"type": "string", "minLength": 1,
                                               "maxLength": MAX_MESSAGE_CHARS}},
                       "required": ["peer_id", "text"]})

    def _now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def _on_agent_state(self, msg: AgentState) -> None:
        self.schedule.update((bounded_state(msg.state), bounded_state(msg.voice_state)))
        self._tick()

    def _tick(self) -> None:
        if self.is_active and self.schedule.due():  # inactive: it serves no calls, so it is not in the fleet
            agent_state, voice_state = self.schedule.content
            self._announce_pub.publish(PeerAnnounce(
                header=stamp_now(self), peer_id=self.peer_id, description=self.description[:MAX_DESCRIPTION],
                ttl_s=float(self.ttl_s), agent_state=agent_state, voice_state=voice_state,
                console_url=self.console_url))

    def _on_announce(self, msg: PeerAnnounce) -> None:
        if self.directory.announce(msg.peer_id, msg.description, msg.ttl_s, msg.agent_state, msg.voice_state,
                                   msg.console_url):
            self.get_logger().info(f"peer {msg.peer_id} appeared")

    def _on_message(self, msg: PeerMessage) -> None:
        if msg.to_peer != self.peer_id:
            return
        text = msg.text.replace("\x00", "")[:MAX_MESSAGE_CHARS]
        self._inbox.publish(EventMsg(header=stamp_now(self), source="peer", priority=5, kind="text",
                                     text=f"[message from robot {msg.from_peer}] {text}"))

    def list_peers(self, call: ToolCall) -> dict:
        return {"peers": [{"peer_id": p.peer_id, "description": p.description, "state": p.agent_state}
                          for p in self.directory.online()]}

    def send_to_peer(self, call: ToolCall) -> dict:
        peer_id = call.args["peer_id"]
        if peer_id not in self.directory:
            raise ToolFailed(f"no peer {peer_id!r} online; known: "
                             + (", ".join(pid for pid, _ in self.directory.peers()) or "none"))
        self._message_pub.publish(PeerMessage(header=stamp_now(self), from_peer=self.peer_id,
                                              to_peer=peer_id, text=call.args["text"]))
        return {"sent": True}
