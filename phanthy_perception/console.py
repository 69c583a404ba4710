"""The terminal console of `phanthy sim`: what you type is published as a final Transcript
(source "console") on voice/transcript, heard by the agent exactly like speech; live lines show
agent state, tool calls, action completions, what the robot says and turn timing."""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Callable, Optional, TextIO

from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AgentEvent, AgentState, Playback, Transcript, TurnRecord

from phanthy_common.convert import header
from phanthy_common.qos import LATCHED

RELIABLE = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
PROMPT_HELP = "Type what the visitor says (Enter to send, Ctrl-D or /quit to leave)."


class ConsoleNode(Node):
    def __init__(self, out: TextIO = sys.stdout, **kwargs):
        super().__init__("console", **kwargs)
        self._out = out
        self._lock = threading.Lock()
        self.state = ""
        self.turns_seen = 0
        self._pub = self.create_publisher(Transcript, "voice/transcript", RELIABLE)
        self.create_subscription(AgentState, "phanthy/agent_state", self._on_state, LATCHED)
        self.create_subscription(AgentEvent, "phanthy/agent_events", self._on_event, RELIABLE)
        self.create_subscription(TurnRecord, "phanthy/turns", self._on_turn, RELIABLE)
        self.create_subscription(Playback, "speaker/playback", self._on_playback, 10)
        self._said = ""

    def write(self, line: str) -> None:
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()

    def say(self, text: str) -> None:
        now = self.get_clock().now().nanoseconds * 1e-9
        self._pub.publish(Transcript(header=header(now), text=text, is_final=True, audio_duration_ms=0,
                                     confidence=-1.0, speaker_id="anonymous_speaker", language="en-US",
                                     source="console"))

    # --- live lines ------------------------------------------------------------------------
    def _on_state(self, msg: AgentState) -> None:
        if msg.state != self.state:
            self.state = msg.state
            extra = f", {msg.outstanding_actions} running" if msg.outstanding_actions else ""
            self.write(f"  [{msg.state}{extra}]")

    def _on_event(self, msg: AgentEvent) -> None:
        if msg.kind == "tool_call":
            self.write(f"  -> {msg.tool} {msg.text}")
        elif msg.kind == "tool_result" and msg.status in ("failed", "skipped"):
            self.write(f"  <- {msg.tool} {msg.status}: {msg.text[:160]}")
        elif msg.kind == "action_done":
            self.write(f"  <- {msg.tool} {msg.status}" + (f": {msg.text[:120]}" if msg.status != "succeeded" else ""))
        elif msg.kind in ("steering", "queued", "interrupting", "dropped"):
            self.write(f"  ({msg.kind}: {msg.text[:160]})")

    def _on_playback(self, msg: Playback) -> None:
        if msg.state == "playing" and msg.utterance_id != self._said:
            self._said = msg.utterance_id
            self.write(f"robot> {msg.text}")
        elif msg.state == "stopped":
            self.write(f"  (stopped after: {msg.heard_text!r})")

    def _on_turn(self, msg: TurnRecord) -> None:
        self.turns_seen += 1
        first_token = f", first token {msg.t_first_token - msg.t_trigger:.2f} s" if msg.t_first_token else ""
        first_audio = f", first audio {msg.t_first_audio - msg.t_trigger:.2f} s" if msg.t_first_audio else ""
        calls = len(json.loads(msg.tool_calls_json or "[]"))
        self.write(f"  [turn {msg.end_reason} in {msg.t_end - msg.t_trigger:.2f} s{first_token}"
                   f"{first_audio}; {calls} tool calls; brain {msg.brain or '-'}]")
        if msg.error:
            self.write(f"  [turn error: {msg.error}]")


def run_console(node: ConsoleNode, stop: threading.Event, stdin: TextIO = sys.stdin,
                idle_wait_s: float = 120.0, ready: Optional[Callable[[], bool]] = None) -> None:
    """Read lines until EOF or /quit; at EOF wait (bounded) for the robot to finish, then stop."""
    if ready is not None:
        deadline = time.monotonic() + 30.0
        while not ready() and time.monotonic() < deadline and not stop.is_set():
            time.sleep(0.05)
    node.write(PROMPT_HELP)
    sent = 0
    for line in iter(stdin.readline, ""):
        if stop.is_set():
            return
        text = line.strip()
        if text in ("/quit", "/exit"):
            break
        if text:
            node.write(f"you> {text}")
            node.say(text)
            sent += 1
    # End of input: let the robot finish what it was asked (piped use: echo ... | phanthy sim).
    deadline = time.monotonic() + idle_wait_s
    while not stop.is_set() and time.monotonic() < deadline:
        if sent == 0 or (node.turns_seen > 0 and node.state == "idle"):
            break
        time.sleep(0.1)
    stop.set()
