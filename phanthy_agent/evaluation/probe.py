"""The evaluation probe: one ROS node that plays the visitor (final Transcripts on
voice/transcript in text mode; a live 16 kHz microphone on audio/in in audio mode) and records
what the graph does into the run's Trace (voice/transcript, speaker/playback, phanthy/turns,
phanthy/agent_state), on one clock: seconds since the run started (`t0`, wall time, which is
also what the nodes stamp their messages with).

It only translates: the waits the script needs (`wait_for`) read the recorded trace.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AgentState, AudioFrame, Playback, Transcript, TurnRecord
from phanthy_common.convert import from_time, header
from phanthy_common.qos import LATCHED

from .trace import Trace

RELIABLE = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
AUDIO_QOS = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
RATE = 16000
FRAME = 320  # 20 ms
MS_PER_WORD = 350  # text mode: how long a said sentence "took"
NOISE_RMS = 60.0  # audio mode: a quiet room, so the microphone is never digital silence


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


class EvalProbe(Node):
    def __init__(self, trace: Trace, t0: float, mode: str = "text", **kwargs):
        super().__init__("eval_visitor", **kwargs)
        self.trace, self.t0, self.mode = trace, t0, mode
        self.lock = threading.Condition()
        self.agent_state: Tuple[str, str, int] = ("", "", 0)
        self.speaking = False
        self._utterances: Dict[str, dict] = {}  # utterance id -> its robot_said event
        self._transcripts = self.create_publisher(Transcript, "voice/transcript", RELIABLE)
        self.create_subscription(Transcript, "voice/transcript", self._on_transcript, RELIABLE)
        self.create_subscription(Playback, "speaker/playback", self._on_playback, RELIABLE)
        self.create_subscription(TurnRecord, "phanthy/turns", self._on_turn, RELIABLE)
        self.create_subscription(AgentState, "phanthy/agent_state", self._on_state, LATCHED)
        self._mic_queue: List[Tuple[float, np.ndarray]] = []
        self._stop = threading.Event()
        self._mic: Optional[threading.Thread] = None
        if mode == "audio":
            self._audio = self.create_publisher(AudioFrame, "audio/in", AUDIO_QOS)
            self._noise = np.random.default_rng(0).normal(0, NOISE_RMS, RATE * 10).astype(np.float32)
            self._mic = threading.Thread(target=self._microphone, daemon=True, name="eval-mic")
            self._mic.start()

    def now(self) -> float:
        return time.time() - self.t0

    def _at(self, stamp) -> float:
        t = from_time(stamp)
        return (t - self.t0) if t > 0 else self.now()

    # --- the visitor speaks ------------------------------------------------------------------
    def say_text(self, text: str, confidence: float = 0.9, duration_ms: Optional[int] = None) -> None:
        duration = MS_PER_WORD * max(1, len(text.split())) if duration_ms is None else duration_ms
        with self.lock:
            self.trace.add("visitor_said", self.now(), text=text, mode="text", t_end=self.now())
        self._transcripts.publish(Transcript(
            header=header(time.time()), text=text, is_final=True, audio_duration_ms=int(duration),
            confidence=float(confidence), speaker_id="anonymous_speaker", language="en-US", source="eval"))

    def say_audio(self, text: str, samples: np.ndarray) -> float:
        """Queue the speech on the microphone now; returns when it ends (trace time)."""
        start = time.time() + 0.02
        with self.lock:
            self._mic_queue.append((start, samples))
            end = start + len(samples) / RATE - self.t0
            self.trace.add("visitor_said", start - self.t0, text=text, mode="audio", t_end=round(end, 4))
        return end

    def _microphone(self) -> None:
        t = time.time()
        while not self._stop.is_set():
            delay = t + FRAME / RATE - time.time()  # a frame leaves when a live microphone's would
            if delay > 0:
                time.sleep(delay)
            offset = int((t - self.t0) * RATE) % (len(self._noise) - FRAME)
            out = self._noise[offset:offset + FRAME].copy()
            with self.lock:
                self._mic_queue = [(s, v) for s, v in self._mic_queue if s + len(v) / RATE > t - 1.0]
                sources = list(self._mic_queue)
            for start, samples in sources:
                first = int(round((t - start) * RATE))
                if first + FRAME <= 0 or first >= len(samples):
                    continue
                lo, hi = max(0, first), min(len(samples), first + FRAME)
                out[lo - first:hi - first] += samples[lo:hi]
            data = np.clip(out, -32768, 32767).astype(np.int16)
            self._audio.publish(AudioFrame(header=header(t), sample_rate=RATE, channels=1, data=data.tolist()))
            t += FRAME / RATE

    def close(self) -> None:
        self._stop.set()
        if self._mic is not None:
            self._mic.join(timeout=2.0)

    # --- what the graph does -------------------------------------------------------------------
    def _on_transcript(self, msg: Transcript) -> None:
        if msg.source == "eval":
            return  # our own (text mode): already a visitor_said
        with self.lock:
            self.trace.add("transcript", self._at(msg.header.stamp), text=msg.text, is_final=bool(msg.is_final),
                           confidence=round(float(msg.confidence), 3), speaker_id=msg.speaker_id,
                           speaker_confidence=round(float(msg.speaker_confidence), 3), source=msg.source)
            self.lock.notify_all()

    def _on_playback(self, msg: Playback) -> None:
        t = self._at(msg.header.stamp)
        with self.lock:
            event = self._utterances.get(msg.utterance_id)
            if event is None and msg.utterance_id and msg.state in ("playing", "paused"):
                event = self.trace.add("robot_said", t, text="", full_text=msg.text, t_end=0.0,
                                       status="playing", utterance_id=msg.utterance_id)
                self._utterances[msg.utterance_id] = event
            if event is not None:
                if msg.heard_text:
                    event["text"] = msg.heard_text
                if msg.state in ("stopped", "idle") and event["status"] == "playing":
                    event["t_end"] = round(t, 4)
                    event["status"] = "completed" if _normal(event["text"]) == _normal(event["full_text"]) else "cut"
            self.speaking = msg.state in ("playing", "paused")
            self.lock.notify_all()

    def _on_turn(self, msg: TurnRecord) -> None:
        with self.lock:
            index = len(self.trace.of("turn"))
            try:
                calls = json.loads(msg.tool_calls_json or "[]")
            except ValueError:
                calls = []
            for call in calls if isinstance(calls, list) else []:
                if not isinstance(call, dict):
                    continue
                start = float(call.get("t_start") or 0.0)
                end = float(call.get("t_end") or 0.0)
                self.trace.add("tool_call", start - self.t0 if start else self.now(), tool=call.get("tool", ""),
                               args=call.get("args"), action_id=call.get("action_id", ""),
                               status=call.get("status", ""), result=call.get("result"),
                               error=call.get("error", ""), t_end=round(end - self.t0, 4) if end else 0.0,
                               turn=index)
            rel = lambda t: round(t - self.t0, 4) if t else 0.0  # noqa: E731
            self.trace.add("turn", rel(msg.t_end) or self.now(), index=index, session=msg.session,
                           trigger_source=msg.trigger_source, inputs=list(msg.inputs),
                           input_speakers=list(msg.input_speakers), reply=msg.reply,
                           end_reason=msg.end_reason, dialogue_state=msg.dialogue_state,
                           t_trigger=rel(msg.t_trigger), t_first_token=rel(msg.t_first_token),
                           t_first_audio=rel(msg.t_first_audio))
            self.lock.notify_all()

    def _on_state(self, msg: AgentState) -> None:
        state = (msg.state, msg.voice_state, int(msg.outstanding_actions))
        with self.lock:
            if state != self.agent_state:
                self.agent_state = state
                self.trace.add("state", self._at(msg.header.stamp), state=msg.state, voice_state=msg.voice_state,
                               outstanding_actions=int(msg.outstanding_actions))
            self.lock.notify_all()

    # --- waiting ---------------------------------------------------------------------------
    def wait_for(self, condition: Callable[[], bool], timeout_s: float) -> bool:
        """Wait until `condition()` (called under the lock) holds; False on timeout."""
        deadline = time.time() + timeout_s
        with self.lock:
            while not condition():
                left = deadline - time.time()
                if left <= 0:
                    return False
                self.lock.wait(min(left, 0.1))
            return True

    def idle(self) -> bool:
        state, _, outstanding = self.agent_state
        return state == "idle" and outstanding == 0 and not self.speaking

    def count(self, kind: str) -> int:
        return sum(1 for e in self.trace.events if e["kind"] == kind)

    def last_reply(self) -> str:
        turns = self.trace.of("turn")
        return turns[-1]["reply"] if turns else ""
