"""The speaker node over real DDS: speech played in real time on audio/out and written as WAV,
cancels with what was heard, barge-in control, synthesis errors, a missing sound card."""

import json
import time
import uuid
import wave

import numpy as np
import pytest
from rclpy.node import Node

from phanthy.msg import AudioFrame, Playback
from phanthy_agent.ros.tool_client import RosToolExecutor
from phanthy_common.sentences import split_sentences
from phanthy_drivers.audio_out import AudioDeviceError, list_devices
from phanthy_drivers.speaker import AUDIO_OUT_QOS, PLAYBACK_QOS, Speaker
from phanthy_drivers.tts import SilentEngine
from support.graph import overrides
from support.ros_harness import Collect, LoopThread, spin, wait_for


RATE = 16000


@pytest.fixture
def node_rig(ros, tmp_path):
    made = []

    def make(**params):
        ns = f"/spk{uuid.uuid4().hex[:8]}"
        speaker = Speaker(namespace=ns, parameter_overrides=overrides(params))
        client = Node(f"spk_client_{uuid.uuid4().hex[:6]}", namespace=ns)
        audio = Collect(client, AudioFrame, "audio/out", AUDIO_OUT_QOS)
        playback = Collect(client, Playback, "speaker/playback", PLAYBACK_QOS)
        loop = LoopThread()
        done, feedback = [], []
        executor = RosToolExecutor(client, loop.loop, server_wait_s=10.0)
        executor.bind(lambda *a: done.append((time.monotonic(),) + a), lambda *a: feedback.append(a))
        group = spin(speaker, client)
        made.append((group, loop))
        return speaker, executor, loop, audio, playback, done, feedback
    yield make
    for group, loop in made:
        group.stop()
        loop.stop()


def result_of(done, action_id, timeout=30.0):
    wait_for(lambda: any(d[1] == action_id for d in done), timeout, f"result of {action_id}")
    _, _, status, result_json, error = next(d for d in done if d[1] == action_id)
    return status, (json.loads(result_json) if result_json else None), error


def test_piper_speech_is_played_in_real_time_on_audio_out_and_written_as_wav(node_rig, tmp_path):
    speaker, executor, loop, audio, playback, done, feedback = node_rig(
        engine="piper", output="wav", **{"wav.dir": str(tmp_path)})
    text = "Welcome to the museum. The dinosaur hall is on your left, next to the cafe."
    t0 = time.monotonic()
    started = loop.run(executor.start("speaker", "speak", {"text": text}), timeout=30)
    assert started.accepted
    status, result, error = result_of(done, started.action_id)
    elapsed = next(d[0] for d in done if d[1] == started.action_id) - t0
    assert (status, error) == ("succeeded", "") and result["complete"] and result["heard_text"] == text

    frames = audio.wait(lambda ms: sum(len(m.data) for m in ms) >= result["position_ms"] * 22.05 - 1,
                        10, "every frame on audio/out")
    assert {m.sample_rate for m in frames} == {22050}
    played_s = sum(len(m.data) for m in frames) / 22050.0
    assert played_s == pytest.approx(result["position_ms"] / 1000.0, abs=0.001)
    stamps = [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 for m in frames]
    steps = [b - a - len(m.data) / 22050.0 for a, b, m in zip(stamps, stamps[1:], frames)]
    gaps = [round(g, 3) for g in steps if abs(g) > 0.001]
    # a frame follows the previous one sample-accurately, except for a gap where the next
    # sentence was not synthesized in time (a loaded machine): never an overlap
    assert len(gaps) <= len(split_sentences(text)) - 1 and all(g > 0 for g in gaps), gaps
    span = stamps[-1] - stamps[0] + len(frames[-1].data) / 22050.0
    print(f"\n[speaker] {played_s:.2f} s of speech played over {span:.2f} s (gaps {gaps}); "
          f"goal took {elapsed:.2f} s")
    assert played_s - 0.1 <= elapsed <= span + 3.0, "paced in real time (first audio within 3 s)"
    assert sum(1 for m in frames if len(m.data) == 441) >= len(frames) - 2, "20 ms frames"

    wav_path = tmp_path / f"{started.action_id}.wav"
    with wave.open(str(wav_path)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (22050, 1, 2)
        assert w.getnframes() == sum(len(m.data) for m in frames)
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    assert np.array_equal(data, np.concatenate([np.asarray(m.data, dtype=np.int16) for m in frames]))

    states = [m.state for m in playback.wait(lambda ms: any(m.state == "idle" and m.utterance_id for m in ms),
                                             10, "idle after playing")
              if m.utterance_id == started.action_id]
    assert states[0] == "playing" and states[-1] == "idle" and set(states) == {"playing", "idle"}
    heard = [m.heard_text for m in playback.snapshot() if m.utterance_id == started.action_id]
    assert len(set(heard)) == len(text.split()) + 1, "a Playback message at least per word"
    progress = [json.loads(f[1]) for f in feedback if f[0] == started.action_id]
    assert {"state", "position_ms", "heard_text", "sentence"} <= set(progress[-1])
    assert progress[0]["sentence"] == "Welcome to the museum."


def test_a_cancel_mid_utterance_is_cancelled_with_what_was_heard(node_rig, tmp_path):
    speaker, executor, loop, audio, playback, done, _ = node_rig(
        engine="piper", output="wav", **{"wav.dir": str(tmp_path)})
    text = ("The museum opened in 1881. Its collection has more than eighty million specimens, "
            "from meteorites to dinosaurs, and a blue whale hangs in the main hall.")
    started = loop.run(executor.start("speaker", "speak", {"text": text}), timeout=30)
    playback.wait(lambda ms: any(m.heard_text.count(" ") >= 3 for m in ms), 20, "a few words played")
    loop.call(executor.cancel, started.action_id)
    status, result, _ = result_of(done, started.action_id)
    assert status == "cancelled" and not result["complete"]
    words = result["heard_text"].split()
    assert 4 <= len(words) < len(text.split()) and words == text.split()[:len(words)]
    last = playback.wait(lambda ms: ms[-1].state == "stopped", 10, "stopped")[-1]
    assert last.heard_text == result["heard_text"] and last.utterance_id == started.action_id
    n = sum(len(m.data) for m in audio.wait(lambda ms: sum(len(m.data) for m in ms)
                                            >= result["position_ms"] * 22.05 - 1, 10, "frames"))
    assert n / 22050.0 == pytest.approx(result["position_ms"] / 1000.0, abs=0.001)


def test_barge_in_controls_pause_resume_and_stop_at_a_word_boundary(node_rig):
    speaker, executor, loop, _, playback, done, _ = node_rig(engine="sim")
    text = " ".join(f"word{i}" for i in range(40))
    started = loop.run(executor.start("speaker", "speak", {"text": text}), timeout=30)
    playback.wait(lambda ms: any(m.heard_text.count(" ") >= 2 for m in ms), 20, "a few words played")
    assert speaker.pause_playback()
    paused_at = speaker.playback_status()
    time.sleep(0.5)
    assert speaker.playback_status()["position_ms"] == paused_at["position_ms"]
    playback.wait(lambda ms: ms[-1].state == "paused", 5, "paused published")
    assert speaker.resume_playback() and not speaker.resume_playback()
    time.sleep(0.2)
    now = speaker.get_clock().now().nanoseconds * 1e-9
    planned = speaker.stop_at_boundary(300)
    assert now - 0.05 <= planned <= now + 0.35
    status, result, _ = result_of(done, started.action_id)
    assert status == "cancelled" and not result["complete"]
    words = result["heard_text"].split()
    assert words == text.split()[:len(words)] and len(words) >= 4
    last = playback.wait(lambda ms: ms[-1].state == "stopped", 5, "stopped")[-1]
    assert last.heard_text == result["heard_text"]
    assert speaker.stop_at_boundary(300) is None and not speaker.pause_playback(), "nothing playing any more"


def test_output_device_without_a_sound_card_is_a_clear_error_at_start(ros):
    if any(d[3] > 0 for d in list_devices()):
        pytest.skip("this machine has an audio output device")
    no_card = "no default audio output device; PortAudio found no audio devices"
    with pytest.raises(AudioDeviceError, match=no_card):
        Speaker(namespace=f"/spk{uuid.uuid4().hex[:8]}", parameter_overrides=overrides({"output": "device"}))
    with pytest.raises(AudioDeviceError, match="no audio output device named 'Scarlett'"):
        Speaker(namespace=f"/spk{uuid.uuid4().hex[:8]}",
                parameter_overrides=overrides({"output": "device", "device": "Scarlett"}))


class BrokenAfterFirst(SilentEngine):
    def __init__(self):
        super().__init__(sample_rate=RATE)
        self.calls = 0

    def synthesize(self, text):
        self.calls += 1
        if self.calls > 1:
            raise RuntimeError("voice model crashed")
        return super().synthesize(text)


def test_a_synthesis_error_fails_the_goal_and_a_second_speak_waits_its_turn(node_rig):
    speaker, executor, loop, _, playback, done, _ = node_rig(engine="sim")
    speaker.engine = BrokenAfterFirst()
    first = loop.run(executor.start("speaker", "speak", {"text": "One two. Three four."}), timeout=30)
    second = loop.run(executor.start("speaker", "speak", {"text": "Five."}), timeout=30)
    status, _, error = result_of(done, first.action_id)
    assert status == "failed" and "voice model crashed" in error
    assert result_of(done, second.action_id)[0] == "failed", "it ran after the first (the engine stays broken)"
    first_msgs = [m for m in playback.snapshot() if m.utterance_id == first.action_id]
    assert first_msgs and first_msgs[-1].state == "stopped"
    ends = [d[0] for d in done]
    assert ends[0] <= ends[1]
