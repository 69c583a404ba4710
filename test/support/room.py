"""A room with a microphone, for voice tests: a node that publishes audio/in in real time (20 ms
frames), mixing what the visitor says (scheduled utterances) with what the robot plays
(audio/out, delayed, attenuated) and room noise — the robot hears itself, as on a real robot."""

import threading
import time
from typing import List, Tuple

import numpy as np
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AudioFrame
from phanthy_common.convert import from_time
from phanthy_common.audio import RATE, resample
from phanthy_perception.capture_node import frame_msg
from support import voices

AUDIO_QOS = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
FRAME = 320  # 20 ms


class Room(Node):
    def __init__(self, namespace: str, echo_delay_ms: float = 40.0, echo_gain_db: float = -10.0,
                 noise_level: float = 120.0, echo: bool = True):
        super().__init__(f"room_{namespace.strip('/')}", namespace=namespace)
        self.echo = echo
        self.echo_delay_s, self.echo_gain = echo_delay_ms / 1000.0, 10 ** (echo_gain_db / 20.0)
        self._noise = voices.noise(10.0, noise_level, seed=7) if noise_level else np.zeros(RATE * 10, np.int16)
        self._lock = threading.Lock()
        self._played: List[Tuple[float, np.ndarray]] = []  # (stamp, 16 kHz samples) of audio/out
        self._visitor: List[Tuple[float, np.ndarray]] = []  # (start time, samples)
        self._pub = self.create_publisher(AudioFrame, "audio/in", AUDIO_QOS)
        self.create_subscription(AudioFrame, "audio/out", self._on_out, AUDIO_QOS)
        self._stop = threading.Event()
        self.max_lag_s = 0.0  # worst lateness of a microphone frame (a starved test machine)
        self.t0 = time.time()
        self._thread = threading.Thread(target=self._run, daemon=True, name="room-mic")
        self._thread.start()

    def say(self, samples: np.ndarray, delay_s: float = 0.0) -> Tuple[float, float]:
        """The visitor says `samples` starting `delay_s` from now; returns (start, end) times."""
        start = time.time() + delay_s
        with self._lock:
            self._visitor.append((start, samples))
        return start, start + len(samples) / RATE

    def _on_out(self, msg: AudioFrame) -> None:
        samples = resample(np.frombuffer(msg.data, dtype=np.int16), int(msg.sample_rate), RATE)
        with self._lock:
            self._played.append((from_time(msg.header.stamp), samples))
            self._played = [p for p in self._played if p[0] > time.time() - 5.0]

    def _mix(self, t: float) -> np.ndarray:
        """The microphone's 20 ms starting at time t."""
        out = np.zeros(FRAME, dtype=np.float32)
        offset = int((t - self.t0) * RATE) % (len(self._noise) - FRAME)
        out += self._noise[offset:offset + FRAME]
        with self._lock:
            sources = [(s, v, 1.0) for s, v in self._visitor]
            if self.echo:
                sources += [(s + self.echo_delay_s, v, self.echo_gain) for s, v in self._played]
        for start, samples, gain in sources:
            first = int(round((t - start) * RATE))
            if first + FRAME <= 0 or first >= len(samples):
                continue
            lo, hi = max(0, first), min(len(samples), first + FRAME)
            out[lo - first:hi - first] += samples[lo:hi] * gain
        return np.clip(out, -32768, 32767).astype(np.int16)

    def _run(self) -> None:
        t = time.time()
        while not self._stop.is_set():
            # release each frame when a live microphone would have: at the end of its 20 ms
            delay = t + FRAME / RATE + 0.03 - time.time()  # +30 ms: the echo of a frame played now
            if delay > 0:
                time.sleep(delay)
            self.max_lag_s = max(self.max_lag_s, -delay)
            self._pub.publish(frame_msg(t, self._mix(t)))
            t += FRAME / RATE

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
