"""Who said it, through the asr node over real DDS (real Whisper, the real speaker encoder):
voices told apart, enrolled voices named, the robot's own voice never given an id, a missing
speaker model refused at start."""

import array
import subprocess
import time
import uuid

import numpy as np
import pytest

from phanthy_perception.speaker_embedding import mean_embedding
from phanthy_perception.speaker_profiles import ProfileStore
from support import voices
from support.ros_harness import wait_for
from support.voices import RATE
from test_asr_node import Microphone

ALTERNATING = [("en-us+f3", "Where is the dinosaur hall?"), ("deep", "Can you take me to the gift shop please?"),
               ("en-us+f3", "What time does the museum close today?"), ("deep", "Is there a cafe on this floor?")]


def voice(name: str, text: str) -> np.ndarray:
    return voices.deep_piper(text) if name == "deep" else voices.espeak(text, voice=name)


def microphone(ros, whisper, speaker_encoder, **params) -> Microphone:
    """The test's utterances are stamped with gaps between them (a real microphone's stream has
    none): the echo canceller, which counts samples, would misplace them, so it is off."""
    return Microphone(ros, whisper, speaker_encoder, **{"aec.enabled": False, **params})


def utter(mic: Microphone, speech: np.ndarray):
    """Play one utterance with the VAD's events; the final transcript. The microphone's audio
    is stamped as if just captured, so the next utterance waits until its audio would follow
    this one's."""
    time.sleep(len(speech) / RATE + 1.2)
    start, end = mic.play(speech)
    mic.event("onset", start - 0.03, start - 0.03, 0, start + 0.06)
    mic.event("offset", end + 0.03, start - 0.03, 400, end + 0.4)
    count = len(mic.heard.snapshot())
    return mic.heard.wait(lambda msgs: len(msgs) > count, timeout=30, what="a transcript")[count]


def test_two_voices_alternating_get_two_ids_in_order_with_a_confidence(ros, whisper, speaker_encoder, tmp_path):
    mic = microphone(ros, whisper, speaker_encoder, **{"speakers.profiles": str(tmp_path / "none.sqlite3")})
    try:
        heard = [utter(mic, voice(v, text)) for v, text in ALTERNATING]
        assert [m.speaker_id for m in heard] == ["speaker_1", "speaker_2", "speaker_1", "speaker_2"]
        assert all(0.5 <= m.speaker_confidence <= 1.0 for m in heard)
    finally:
        mic.close()


def test_the_ids_start_over_when_the_voice_session_ends(ros, whisper, speaker_encoder, tmp_path):
    from phanthy.msg import AgentState
    from phanthy_common.qos import LATCHED

    mic = microphone(ros, whisper, speaker_encoder, **{"speakers.profiles": str(tmp_path / "none.sqlite3")})
    try:
        state = mic.node.create_publisher(AgentState, "phanthy/agent_state", LATCHED)
        state.publish(AgentState(state="idle", voice_state="RECOGNIZING"))
        wait_for(lambda: mic.asr.listen_gate.in_conversation, 10, "the interaction open")
        assert [utter(mic, voice(v, t)).speaker_id for v, t in ALTERNATING[:2]] == ["speaker_1", "speaker_2"]
        state.publish(AgentState(state="idle", voice_state="LISTENING"))  # the visitors left
        wait_for(lambda: not mic.asr.listen_gate.in_conversation, 10, "the interaction closed")
        assert utter(mic, voice(*ALTERNATING[3])).speaker_id == "speaker_1", "the next visitor is speaker_1"
    finally:
        mic.close()


def test_the_ids_start_over_when_the_proactive_node_says_the_group_left(ros, whisper, speaker_encoder, tmp_path):
    from phanthy.msg import GroupEvent
    from support.graph import RELIABLE

    mic = microphone(ros, whisper, speaker_encoder, **{"speakers.profiles": str(tmp_path / "none.sqlite3")})
    try:  # group conversations: no voice session opens or closes
        assert [utter(mic, voice(v, t)).speaker_id for v, t in ALTERNATING[:2]] == ["speaker_1", "speaker_2"]
        group = mic.node.create_publisher(GroupEvent, "phanthy/group", RELIABLE)
        wait_for(lambda: group.get_subscription_count() > 0, 10, "the asr node on phanthy/group")
        group.publish(GroupEvent(kind="ended", reason="nobody spoke for 120 s", speakers=["speaker_1", "speaker_2"]))
        wait_for(lambda: mic.asr.speakers.attributor.speakers == [], 10, "the speakers forgotten")
        assert utter(mic, voice(*ALTERNATING[3])).speaker_id == "speaker_1", "the next group's first voice"
    finally:
        mic.close()


def test_an_enrolled_voice_gets_its_name_and_an_unenrolled_one_does_not(ros, whisper, speaker_encoder, tmp_path):
    store = ProfileStore(str(tmp_path / "speakers.sqlite3"))
    enrollment = ["Hello, I look after the collections in the east wing.",
                  "Please remember my voice so that you know me next time."]
    store.enroll("ada", mean_embedding([speaker_encoder.embed(voice("en-us+f3", t)) for t in enrollment]),
                 speaker_encoder.id, 6.0, 2)
    mic = microphone(ros, whisper, speaker_encoder, **{"speakers.profiles": store.path})
    try:  # ada's longest phrase: 0.89-0.91 to her profile; her 1.5 s one scores only 0.80-0.86
        # against the 0.78 threshold (96 % of enrolled utterances pass it on the bench), which
        # a loaded run once pushed below. This test is about the node naming her, not the model.
        heard = [utter(mic, voice(v, text)) for v, text in (ALTERNATING[2], ALTERNATING[1])]
        assert [m.speaker_id for m in heard] == ["ada", "speaker_1"], [m.text for m in heard]
    finally:
        mic.close()


def test_the_robots_own_voice_gets_no_id(ros, whisper, speaker_encoder, tmp_path):
    """The robot's voice (piper's joe, learnt from what it plays on audio/out) heard again,
    here without its words on speaker/playback so that the echo text gate cannot catch it."""
    from phanthy.msg import AudioFrame
    from phanthy_common.convert import header
    from phanthy_perception.asr_node import AUDIO_QOS

    mic = microphone(ros, whisper, speaker_encoder, **{"speakers.profiles": str(tmp_path / "none.sqlite3")})
    try:
        out = mic.node.create_publisher(AudioFrame, "audio/out", AUDIO_QOS)
        wait_for(lambda: out.get_subscription_count() >= 1, 10, "the asr node on audio/out")
        played = voices.piper("The dinosaur hall is our largest gallery. It holds the skeleton of Stan, "
                              "a Tyrannosaurus rex found in South Dakota.")
        t0 = mic.node.get_clock().now().nanoseconds * 1e-9 - 60.0  # long ago: nothing to cancel now
        for i in range(0, len(played), 320):
            out.publish(AudioFrame(header=header(t0 + i / RATE), sample_rate=RATE, channels=1,
                                   data=array.array("h", played[i:i + 320].tobytes())))
            if i and i % (320 * 50) == 0:
                time.sleep(0.05)  # the speaker paces audio/out in real time; a burst would lose frames
        wait_for(lambda: mic.asr.speakers.attributor.robot_voice is not None, 20, "the robot's voice learnt")
        robot = utter(mic, voices.piper("Would you like to see the space gallery next?"))
        visitor = utter(mic, voice("en-us+f3", "Yes please, and then the cafe."))
        assert (robot.speaker_id, robot.speaker_confidence) == ("anonymous_speaker", 0.0)
        assert visitor.speaker_id == "speaker_1", "the robot opened no speaker"
    finally:
        mic.close()


def test_a_missing_speaker_model_stops_the_node_at_start(ros, whisper, tmp_path):
    from rclpy.parameter import Parameter
    from phanthy_perception.asr_node import AsrNode

    with pytest.raises(ValueError, match="speaker model file not found: " + str(tmp_path / "nope.onnx")):
        AsrNode(transcriber=whisper, namespace=f"/asr_spk_{uuid.uuid4().hex[:8]}",
                parameter_overrides=[Parameter("speakers.model_path", value=str(tmp_path / "nope.onnx"))])


def test_with_attribution_off_every_transcript_stays_anonymous(ros, whisper):
    mic = Microphone(ros, whisper, **{"speakers.enabled": False})
    try:
        msg = utter(mic, voice("en-us+f3", "Where is the dinosaur hall?"))
        assert (msg.speaker_id, msg.speaker_confidence) == ("anonymous_speaker", 0.0)
        assert mic.asr.speakers is None
    finally:
        mic.close()


def test_phanthy_speakers_enrolls_lists_and_removes_a_voice_the_node_then_names(ros, whisper, tmp_path):
    import sys
    cli = [sys.executable, "-m", "phanthy_agent.cli", "speakers", "--profiles", str(tmp_path / "speakers.sqlite3")]
    wavs = []
    for k, text in enumerate(["Hello, I look after the collections in the east wing of the museum.",
                              "Please remember my voice so that you know me the next time I come in."]):
        wavs.append(str(tmp_path / f"ada{k}.wav"))
        voices.write_wav(wavs[-1], voice("en-us+f3", text))
    run = lambda *args: subprocess.run(cli + list(args), capture_output=True, text=True, timeout=60)  # noqa: E731
    enrolled = run("enroll", "ada", *wavs)
    assert enrolled.returncode == 0 and "enrolled ada" in enrolled.stdout, enrolled.stderr
    assert run("list").stdout.startswith("ada\t")
    reserved = run("enroll", "speaker_2", wavs[0])
    assert reserved.returncode == 1 and "reserved" in reserved.stderr
    mic = microphone(ros, whisper, None, **{"speakers.profiles": str(tmp_path / "speakers.sqlite3")})
    try:
        assert utter(mic, voice(*ALTERNATING[2])).speaker_id == "ada"  # the phrase clear of the threshold
        assert run("remove", "ada").returncode == 0
        assert utter(mic, voice("en-us+f3", "And where is the cafe?")).speaker_id == "speaker_1"
    finally:
        mic.close()
    gone = run("remove", "ada")
    assert gone.returncode == 1 and "no enrolled voice named 'ada'" in gone.stderr
