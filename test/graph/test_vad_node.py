"""The vad node over real DDS: onset then offset, a segment closed when the audio stops, no
start without its model."""

import array
import logging
import uuid

import numpy as np
import pytest
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AudioFrame, VoiceActivity
from phanthy_common.audio import RATE
from phanthy_common.convert import from_time, header
from phanthy_perception.vad_node import VadNode
from support import voices
from support.ros_harness import Collect, spin, wait_for


log = logging.getLogger(__name__)


T0 = 1000.0  # stamp of the first sample: events must follow the audio clock, whatever it is


FIRST = "I would like to borrow a book about robots"  # no commas: no pause inside


# --- the node over DDS -----------------------------------------------------------------------
AUDIO_QOS = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)


ACTIVITY_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)


@pytest.fixture
def rig(ros):
    ns = f"/t{uuid.uuid4().hex[:8]}"
    vad = VadNode(namespace=ns, parameter_overrides=[Parameter("min_silence_ms", value=400)])
    probe = Node(f"probe_{uuid.uuid4().hex[:6]}", namespace=ns)
    pub = probe.create_publisher(AudioFrame, "audio/in", AUDIO_QOS)
    activity = Collect(probe, VoiceActivity, "voice/activity", ACTIVITY_QOS)
    group = spin(vad, probe)
    wait_for(lambda: pub.get_subscription_count() > 0 and vad.activity_pub.get_subscription_count() > 0,
             20, "discovery")
    yield vad, pub, activity
    group.stop()


def frame(stamp, samples, rate=RATE, channels=1):
    return AudioFrame(header=header(stamp), sample_rate=rate, channels=channels,
                      data=array.array("h", np.asarray(samples, dtype=np.int16).tobytes()))


def test_node_publishes_onset_then_offset(rig):
    vad, pub, activity = rig
    speech = voices.espeak(FIRST)
    audio = voices.concat(voices.silence(1.0), speech, voices.silence(1.5))
    # Malformed frames first: skipped, logged once, harmless.
    pub.publish(frame(T0 - 5, voices.silence(0.02), channels=2))
    pub.publish(frame(T0 - 5, [], rate=RATE))
    pub.publish(frame(T0 - 5, voices.silence(0.02), rate=7))
    # 48 kHz, 20 ms frames, as fast as the node takes them (at most 100 frames in flight).
    audio48 = voices.to_rate(audio, RATE, 48000)
    sent = 0
    for i in range(0, len(audio48), 960):
        wait_for(lambda: sent - vad.frames < 100, 20, "the node to take frames")
        pub.publish(frame(T0 + i / 48000, audio48[i:i + 960], rate=48000))
        sent += 1
    msgs = activity.wait(lambda ms: any(m.event == "offset" for m in ms), 30, "an offset")
    assert [m.event for m in msgs] == ["onset", "pause", "offset"]
    onset, offset = msgs[0], msgs[-1]
    start, end = T0 + 1.0, T0 + 1.0 + len(speech) / RATE
    assert onset.speaking and not offset.speaking
    assert abs(from_time(onset.header.stamp) - start) < 0.1 and onset.t_speech_start == pytest.approx(
        from_time(onset.header.stamp), abs=1e-6)
    assert 0 < onset.t_detected - start <= 0.15 and onset.probability >= 0.5
    assert offset.t_speech_start == onset.t_speech_start and offset.silence_ms >= 400
    assert 0.4 <= offset.t_detected - end <= 0.6
    assert len(vad.skipped) == 3 and sum(vad.skipped.values()) == 3
    wait_for(lambda: vad.frames == sent + 3, 20, "every frame processed")
    log.info("node: %d blocks, %.0f us of callback time per 32 ms block (incl. 48k->16k resampling)",
             vad.stream.blocks, vad.busy_s / vad.stream.blocks * 1e6)


def test_node_closes_a_segment_when_the_audio_stops_mid_speech(rig):
    vad, pub, activity = rig
    audio = voices.concat(voices.silence(0.5), voices.espeak(FIRST)[:RATE])
    for i in range(0, len(audio), 320):
        pub.publish(frame(T0 + i / RATE, audio[i:i + 320]))
    msgs = activity.wait(lambda ms: any(m.event == "offset" for m in ms), 20, "an offset after the audio stopped")
    assert [m.event for m in msgs] == ["onset", "offset"]
    assert msgs[1].t_detected == pytest.approx(T0 + (len(audio) // 512) * 512 / RATE)


def test_node_refuses_to_start_without_its_model(ros, tmp_path):
    missing = str(tmp_path / "missing.onnx")
    ns = f"/t{uuid.uuid4().hex[:8]}"
    with pytest.raises(ValueError, match="missing.onnx"):
        VadNode(namespace=ns, parameter_overrides=[Parameter("model_path", value=missing)])
    with pytest.raises(ValueError, match="threshold"):
        VadNode(namespace=ns, parameter_overrides=[Parameter("threshold", value=1.5)])
