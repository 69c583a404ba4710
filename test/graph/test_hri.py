"""phanthy in the ROS4HRI shape, over real DDS: the voices' topics carry the right ids and
texts, and `skill/say` speaks through the speaker tool, with its feedback, outcome and cancel."""

import time
import uuid

import pytest
from hri_msgs.msg import IdsList, LiveSpeech
from rclpy.node import Node
from std_msgs.msg import Bool

from phanthy.action import Say
from phanthy.msg import Transcript, VoiceActivity
from phanthy_common.action_client import SpinSafeActionClient
from phanthy_common.convert import header
from phanthy_drivers.hri_node import HriNode, TRACKED_QOS, VOICE_QOS
from phanthy_drivers.speaker import Speaker
from support.graph import RELIABLE, overrides
from support.ros_harness import Collect, spin, wait_for


@pytest.fixture
def robot(ros):
    ns = f"/hri{uuid.uuid4().hex[:6]}"
    hri = HriNode(namespace=ns)
    speaker = Speaker(namespace=ns, parameter_overrides=overrides({"sim.ms_per_char": 30.0}))
    probe = Node(f"probe_{uuid.uuid4().hex[:6]}", namespace=ns)
    group = spin(hri, speaker, probe)
    yield ns, probe
    group.stop()


def transcript(text, speaker_id, final=True):
    return Transcript(header=header(time.time()), text=text, is_final=final, audio_duration_ms=1200,
                      confidence=0.8, speaker_id=speaker_id, language="en-US", source="test")


def activity(speaking):
    return VoiceActivity(header=header(time.time()), speaking=speaking, probability=0.9,
                         event="onset" if speaking else "offset")


def test_each_speaker_id_is_a_voice_with_its_own_speech_and_speaking_topics(robot):
    ns, probe = robot
    speech = {v: Collect(probe, LiveSpeech, f"humans/voices/{v}/speech", VOICE_QOS) for v in ("speaker_1", "speaker_2")}
    speaking = {v: Collect(probe, Bool, f"humans/voices/{v}/is_speaking", VOICE_QOS)
                for v in ("speaker_1", "speaker_2")}
    tracked = Collect(probe, IdsList, "humans/voices/tracked", TRACKED_QOS)
    words = probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
    vad = probe.create_publisher(VoiceActivity, "voice/activity", RELIABLE)
    wait_for(lambda: words.get_subscription_count() and vad.get_subscription_count(), 30, "the hri node")
    words.publish(transcript("where is the", "speaker_1", final=False))
    words.publish(transcript("where is the cafe", "speaker_1"))
    wait_for(lambda: len(speech["speaker_1"].snapshot()) == 2, 30, "speaker_1's speech")
    vad.publish(activity(True))  # two topics: no order between them, so one step at a time
    speaking["speaker_1"].wait(lambda ms: [m.data for m in ms] == [True], timeout=30, what="speaker_1 speaking")
    words.publish(transcript("and the toilets", "speaker_2"))
    speaking["speaker_2"].wait(lambda ms: [m.data for m in ms] == [True], timeout=30, what="the flag moving to speaker_2")
    vad.publish(activity(False))
    wait_for(lambda: len(speaking["speaker_2"].snapshot()) >= 2, 30, "speaker_2 speaking, then not")
    final = [m for m in speech["speaker_2"].wait(timeout=30, what="speaker_2's speech") if m.final]
    assert [m.final for m in final] == ["and the toilets"] and final[0].locale == "en_US"
    assert abs(final[0].confidence - 0.8) < 1e-6
    assert [m.data for m in speaking["speaker_2"].snapshot()] == [True, False]
    first = speech["speaker_1"].snapshot()
    assert [(m.incremental, m.final) for m in first] == [("where is the", ""), ("", "where is the cafe")]
    assert all(m.final != "and the toilets" for m in first), "each voice carries only its own words"
    assert [m.data for m in speaking["speaker_1"].wait(lambda ms: len(ms) >= 2, 30)] == [True, False], \
        "speech began on the voice heard last, then moved to speaker_2 with its words"
    tracked.wait(lambda ms: ms and ms[-1].ids == ["speaker_1", "speaker_2"], 30, "both voices tracked")


def say(probe, text, cancel_after_s=None):
    client = SpinSafeActionClient(probe, Say, "skill/say")
    assert client.wait_for_server(timeout_sec=10.0)
    feedback = []
    send = client.send_goal_async(Say.Goal(input=text, caller="test"),
                                  feedback_callback=lambda m: feedback.append(m.feedback.heard_text))
    wait_for(send.done, 30, "the say goal to be accepted")
    handle = send.result()
    assert handle.accepted
    if cancel_after_s is not None:
        time.sleep(cancel_after_s)
        handle.cancel_goal_async()
    result = handle.get_result_async()
    wait_for(result.done, 30, "the say result")
    return result.result().result, feedback


def test_say_speaks_through_the_speaker_tool_and_reports_what_was_heard(robot):
    _, probe = robot
    text = "Welcome to the museum. The cafe is on the left."
    result, feedback = say(probe, text)
    assert result.status == "succeeded" and result.heard_text == text and result.error_msg == ""
    assert feedback and text.startswith(feedback[0]) and feedback[-1] == text


def test_a_cancelled_say_stops_the_speech_and_says_how_far_it_got(robot):
    _, probe = robot
    text = "This is a long announcement about the opening hours of every hall in the museum today."
    result, _ = say(probe, text, cancel_after_s=0.6)
    assert result.status == "cancelled"
    assert text.startswith(result.heard_text) and len(result.heard_text) < len(text)


def test_say_without_a_speech_tool_fails_with_a_reason(ros):
    ns = f"/hri{uuid.uuid4().hex[:6]}"
    hri = HriNode(namespace=ns, parameter_overrides=overrides({"say.server_wait_s": 0.5}))
    probe = Node(f"probe_{uuid.uuid4().hex[:6]}", namespace=ns)
    group = spin(hri, probe)
    try:
        result, _ = say(probe, "hello")
        assert result.status == "failed" and "speaker/speak is not available" in result.error_msg
    finally:
        group.stop()
