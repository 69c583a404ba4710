"""The `wake_word` node: openWakeWord on `audio/in`, detections on `voice/wake`
(phanthy/msg/WakeWord, header.stamp = detection time, source "openwakeword")."""

from __future__ import annotations

import time

import numpy as np
from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AudioFrame, WakeWord

from phanthy_common.convert import from_time, header
from phanthy_common.health import OK, WARN, Status
from phanthy_common.lifecycle import ManagedNode
from phanthy_common.params import Params

from phanthy_common.audio import RATE, resample
from .wake import WakeWordDetector

AUDIO_QOS = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
WAKE_QOS = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
LOAD_WINDOW_S = 30.0  # audio seconds over which the processing load is checked
LOAD_WARN = 0.5  # warn when processing takes more than half of real time


class WakeWordNode(ManagedNode):
    """Lifecycle: configure loads the models, activate starts taking audio, cleanup drops them."""
    events_executor = True  # 50 Hz audio/in: spun on the events executor (phanthy_common.runtime)
    reconfigurable = True

    def __init__(self, **kwargs):
        super().__init__("wake_word", automatically_declare_parameters_from_overrides=True, **kwargs)
        self.taking_audio = False
        self.detector = None

    def configure(self) -> None:
        start = time.perf_counter()
        self.params = Params(self)
        models = self.params.get("models", ["hey_jarvis"], "openWakeWord bundled model names or .onnx paths")
        threshold = self.params.get("threshold", 0.5, "score (0..1) at which a wake word fires")
        refractory_s = self.params.get("refractory_s", 2.0, "quiet time after a detection, per keyword")
        topic = self.params.get("input_topic", "audio/in", "AudioFrame topic to listen to")
        self.params.warn_unknown()
        self.detector = WakeWordDetector(models, threshold, refractory_s)
        self.load_s = time.perf_counter() - start
        self.load = {"audio_s": 0.0, "cpu_s": 0.0, "max_frame_s": 0.0}  # since start
        self._window = [0.0, 0.0]  # audio seconds, cpu seconds in the current load window
        self._pub = self.create_publisher(WakeWord, "voice/wake", WAKE_QOS)
        self.create_subscription(AudioFrame, topic, self._on_audio, AUDIO_QOS)
        self.get_logger().info(f"listening on {topic} for {', '.join(self.detector.models)} "
                               f"(threshold {threshold}, refractory {refractory_s} s)")

    def activate(self) -> None:
        self.taking_audio = True

    def deactivate(self) -> None:
        self.taking_audio = False

    def cleanup(self) -> None:
        self.detector = None

    def diagnostics(self):
        if self.detector is None:
            return []
        factor = self.real_time_factor
        return [Status.of("model", OK, f"openWakeWord {', '.join(self.detector.models)} loaded in {self.load_s:.2f} s",
                          models=",".join(self.detector.models), load_s=self.load_s),
                Status.of("load", WARN if factor > LOAD_WARN else OK, f"{factor:.1%} of real time",
                          real_time_factor=factor, **self.load)]

    def _on_audio(self, msg: AudioFrame) -> None:
        if not self.taking_audio:
            return
        samples = np.asarray(msg.data, dtype=np.int16)
        if msg.channels > 1:
            samples = samples[:len(samples) - len(samples) % msg.channels].reshape(-1, msg.channels)[:, 0]
        rate = msg.sample_rate or RATE
        started = time.perf_counter()
        detections = self.detector.push(from_time(msg.header.stamp), resample(samples, rate, RATE))
        self._account(len(samples) / rate, time.perf_counter() - started)
        for det in detections:
            self.get_logger().info(f"wake word {det.keyword} (score {det.score:.2f}) at {det.t:.2f}")
            self._pub.publish(WakeWord(header=header(det.t), keyword=det.keyword, score=det.score,
                                       source="openwakeword"))

    def _account(self, audio_s: float, cpu_s: float) -> None:
        self.load["audio_s"] += audio_s
        self.load["cpu_s"] += cpu_s
        self.load["max_frame_s"] = max(self.load["max_frame_s"], cpu_s)
        self._window[0] += audio_s
        self._window[1] += cpu_s
        if self._window[0] >= LOAD_WINDOW_S:
            factor = self._window[1] / self._window[0]
            if factor > LOAD_WARN:
                self.get_logger().warning(f"wake word detection takes {factor:.0%} of real time: "
                                          "the CPU is overloaded or too many models are loaded")
            else:
                self.get_logger().debug(f"wake word detection load {factor:.1%} of real time")
            self._window = [0.0, 0.0]

    @property
    def real_time_factor(self) -> float:
        """Processing time / audio time since start (must stay well below 1)."""
        return self.load["cpu_s"] / self.load["audio_s"] if self.load["audio_s"] else 0.0
