"""The wake_word node over real DDS: voice/wake from audio/in."""

import uuid

import numpy as np

from phanthy_common.audio import resample
from support.voices import concat, espeak, first_pause, silence


RATE = 16000


T0 = 1000.0  # stamp of the first sample of every stream


SENTENCE = "hey jarvis, take me to the dinosaur hall"


# --- the node over DDS -----------------------------------------------------------------------
def test_the_wake_word_node_publishes_voice_wake_from_audio_in(ros):
    from rclpy.node import Node
    from rclpy.parameter import Parameter
    from rclpy.qos import QoSProfile, ReliabilityPolicy

    from phanthy.msg import AudioFrame, WakeWord
    from phanthy_common.convert import from_time, header
    from phanthy_perception.wake_node import WakeWordNode
    from support.ros_harness import Collect, spin, wait_for

    ns = f"/w{uuid.uuid4().hex[:8]}"
    node = WakeWordNode(namespace=ns, parameter_overrides=[Parameter("models", value=["hey_jarvis"]),
                                                           Parameter("threshold", value=0.5)])
    probe = Node(f"probe_{uuid.uuid4().hex[:6]}", namespace=ns)
    audio_pub = probe.create_publisher(AudioFrame, "audio/in",
                                       QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE))
    wakes = Collect(probe, WakeWord, "voice/wake", QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE))
    group = spin(node, probe)
    try:
        wait_for(lambda: audio_pub.get_subscription_count() > 0 and node._pub.get_subscription_count() > 0,
                 what="discovery")
        first, second = espeak(SENTENCE), espeak("hey jarvis")
        audio = concat(silence(1.0), first, silence(2.5), second, silence(1.0))
        ends = [1.0 + first_pause(first), 1.0 + len(first) / RATE + 2.5 + len(second) / RATE]
        at_48k = resample(audio, RATE, 48000)  # the node resamples what is not 16 kHz
        for i in range(0, len(at_48k), 4800):  # 100 ms frames
            audio_pub.publish(AudioFrame(header=header(T0 + i / 48000), sample_rate=48000, channels=1,
                                         data=at_48k[i:i + 4800].tolist()))
        # the second phrase is the end marker: anything spurious would have arrived before it
        msgs = wakes.wait(lambda m: len(m) >= 2, timeout=30, what="two wake words")
        assert len(msgs) == 2
        for msg, end in zip(msgs, ends):
            assert (msg.keyword, msg.source) == ("hey_jarvis", "openwakeword") and msg.score >= 0.5
            assert -0.1 <= from_time(msg.header.stamp) - T0 - end <= 0.45
        assert node.real_time_factor < 0.5  # measured about 0.05 (one model, with resampling)
    finally:
        group.stop()  # destroys both nodes
