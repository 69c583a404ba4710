"""ROS side of echo handling for the nodes that listen to the microphone (vad, asr): audio/out
is the canceller's reference, speaker/playback tells what text was being played."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AudioFrame, Playback

from phanthy_common.convert import from_time
from phanthy_common.params import Params

from .echo import MicEchoCanceller, PlaybackLog

REFERENCE_QOS = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)


class EchoFrontEnd:
    """Cancels the speaker's echo from a node's microphone frames (parameters aec.*)."""

    def __init__(self, node: Node, params: Params):
        enabled = params.get("aec.enabled", True, "cancel the speaker's echo (reference: audio/out)")
        filter_ms = params.get("aec.filter_ms", 128.0, "echo path the canceller models (ms)")
        delay_ms = params.get("aec.delay_ms", 0.0, "known bulk delay speaker -> microphone (ms)")
        self.canceller: Optional[MicEchoCanceller] = (
            MicEchoCanceller(filter_ms=filter_ms, delay_ms=delay_ms) if enabled else None)
        if self.canceller is not None:
            node.create_subscription(AudioFrame, "audio/out", self._on_reference, REFERENCE_QOS)

    def _on_reference(self, msg: AudioFrame) -> None:
        if len(msg.data) and msg.sample_rate:
            self.canceller.add_reference(from_time(msg.header.stamp),
                                         np.frombuffer(msg.data, dtype=np.int16), int(msg.sample_rate))

    def clean(self, stamp: float, samples: np.ndarray) -> Tuple[float, np.ndarray]:
        if self.canceller is None:
            return stamp, samples
        return self.canceller.process(stamp, samples)


class PlaybackWatcher:
    """Keeps a PlaybackLog from speaker/playback."""

    def __init__(self, node: Node, topic: str = "speaker/playback"):
        self.log = PlaybackLog()
        node.create_subscription(Playback, topic, self._on_playback, REFERENCE_QOS)

    def _on_playback(self, msg: Playback) -> None:
        self.log.update(msg.utterance_id, msg.text, msg.state, from_time(msg.header.stamp))
