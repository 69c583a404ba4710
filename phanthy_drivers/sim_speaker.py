"""Simulated speaker: `speak` plays for a time proportional to the text, word by word, and
reports truthfully (an interrupted speech is `cancelled`, with what was heard). `stop` (hidden)
is bound to on_interrupt_speak. Like a real speaker it is paced in real time and publishes
what it plays on audio/out (here: silence, since it makes no sound) and speaker/playback on
every change."""

from __future__ import annotations

import threading
from typing import List

from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AudioFrame, Playback

from phanthy_agent.ros.params import Params

from .sdk import DriverNode, ToolCall
from .util import stamp_now

PLAYBACK_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)
SPEAK_PARAMETERS = {"type": "object",
                    "properties": {"text": {"type": "string", "minLength": 1, "maxLength": 4000,
                                            "description": "What to say, in plain words."}},
                    "required": ["text"]}


class SimSpeaker(DriverNode):
    def __init__(self, **kwargs):
        super().__init__("speaker", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        self.ms_per_char = p.get("sim.ms_per_char", 55.0, "simulated speaking rate")
        self.min_word_ms = p.get("sim.min_word_ms", 120.0, "shortest simulated word")
        p.get("output", "none", "device | wav | none (the simulated speaker makes no sound)")
        p.get("wav.dir", "", "where the wav output writes (unused by the simulated speaker)")
        p.get("engine", "sim", "sim (no audio) | piper (the voice issue)")
        self.frame_s = p.get("frame_ms", 20, "audio/out frame length") / 1000.0
        self.sample_rate = p.get("sample_rate", 16000, "audio/out sample rate")
        p.warn_unknown()
        self._playback = self.create_publisher(Playback, "speaker/playback", PLAYBACK_QOS)
        self._audio_out = self.create_publisher(AudioFrame, "audio/out", 50)
        self._one_at_a_time = threading.Lock()
        self.add_tool(self.speak, "Say something aloud to the visitor.", SPEAK_PARAMETERS,
                      acting=True, timeout_s=120.0, hooks={"on_interrupt_speak": "stop"})
        self.add_tool(self.stop, "Stop speaking now.", hidden=True)
        self._publish("idle", "", "", 0, "")

    def word_durations(self, words: List[str]) -> List[float]:
        return [max(self.min_word_ms, (len(w) + 1) * self.ms_per_char) / 1000.0 for w in words]

    def speak(self, call: ToolCall) -> dict:
        text = call.args["text"].strip()
        words = text.split()
        while not self._one_at_a_time.acquire(timeout=0.05):
            if call.cancelled:
                return {"heard_text": "", "position_ms": 0}
        try:
            heard: List[str] = []
            position = 0.0
            self._publish("playing", call.goal_id, text, 0, "")
            call.feedback({"state": "playing", "position_ms": 0, "heard_text": ""})
            for word, duration in zip(words, self.word_durations(words)):
                if not self._play_silence(call, duration):
                    break
                heard.append(word)
                position += duration
                self._publish("playing", call.goal_id, text, int(position * 1000), " ".join(heard))
                call.feedback({"state": "playing", "position_ms": int(position * 1000),
                               "heard_text": " ".join(heard)})
            state = "stopped" if call.cancelled else "idle"
            self._publish(state, call.goal_id, text, int(position * 1000), " ".join(heard))
            return {"heard_text": " ".join(heard), "position_ms": int(position * 1000),
                    "complete": len(heard) == len(words)}
        finally:
            self._one_at_a_time.release()

    def _play_silence(self, call: ToolCall, seconds: float) -> bool:
        """Publish `seconds` of silence on audio/out, paced in real time; False if cancelled."""
        samples = int(self.sample_rate * self.frame_s)
        for _ in range(max(1, round(seconds / self.frame_s))):
            self._audio_out.publish(AudioFrame(header=stamp_now(self), sample_rate=self.sample_rate,
                                               channels=1, data=[0] * samples))
            if not call.wait(self.frame_s):
                return False
        return True

    def stop(self, call: ToolCall) -> dict:
        return {"stopped": self.cancel_running("speak")}

    def _publish(self, state: str, utterance_id: str, text: str, position_ms: int, heard: str) -> None:
        self._playback.publish(Playback(header=stamp_now(self), state=state, utterance_id=utterance_id,
                                        text=text, position_ms=position_ms, heard_text=heard))
