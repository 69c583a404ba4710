"""The asr node over real DDS: one final Transcript per utterance, partials first, a finished
sentence handed out at the pause, no start without its model."""

import array
import time
import uuid

import numpy as np
import pytest

from phanthy_perception.asr import WhisperTranscriber, normalize_text, word_errors
from support import voices
from support.ros_harness import Collect, spin, wait_for
from support.voices import RATE, concat, espeak, silence


# --- the node ---------------------------------------------------------------------------
def test_a_missing_model_stops_the_node_at_start_with_the_path(ros, tmp_path):
    from rclpy.parameter import Parameter
    from phanthy_perception.asr_node import AsrNode

    with pytest.raises(ValueError, match="not found: " + str(tmp_path / "nope")):
        AsrNode(parameter_overrides=[Parameter("model", value=str(tmp_path / "nope"))],
                namespace=f"/asr_missing_{uuid.uuid4().hex[:8]}")


class Microphone:
    """An asr node and a test node in a fresh namespace: the test node plays the microphone
    (audio/in) and the VAD (voice/activity, from the known speech boundaries) and listens."""

    def __init__(self, ros, whisper, speaker_encoder=None, **params):
        from rclpy.parameter import Parameter
        from phanthy.msg import AudioFrame, Transcript, VoiceActivity
        from phanthy_perception.asr_node import AUDIO_QOS, EVENTS_QOS, AsrNode

        ns = f"/asr_test_{uuid.uuid4().hex[:8]}"
        overrides = [Parameter(k, value=v) for k, v in params.items()]
        self.asr = AsrNode(transcriber=whisper, speaker_encoder=speaker_encoder, namespace=ns,
                           parameter_overrides=overrides)
        self.node = ros.create_node("mic", namespace=ns)
        self.audio = self.node.create_publisher(AudioFrame, "audio/in", AUDIO_QOS)
        self.vad = self.node.create_publisher(VoiceActivity, "voice/activity", EVENTS_QOS)
        self.heard = Collect(self.node, Transcript, "voice/transcript", 100)
        self.group = spin(self.asr, self.node)
        wait_for(lambda: self.audio.get_subscription_count() and self.vad.get_subscription_count()
                 and self.asr._pub.get_subscription_count(), 10, "discovery")

    def play(self, speech: np.ndarray, before: float = 0.5, after: float = 0.6) -> tuple:
        """Publish the audio as if just captured; returns (speech start, speech end)."""
        from phanthy.msg import AudioFrame
        from phanthy_common.convert import header

        audio = concat(silence(before), speech, silence(after))
        t0 = self.node.get_clock().now().nanoseconds * 1e-9 - len(audio) / RATE
        for i in range(0, len(audio), 320):
            self.audio.publish(AudioFrame(header=header(t0 + i / RATE), sample_rate=RATE, channels=1,
                                          data=array.array("h", audio[i:i + 320].tobytes())))
            if i and i % (320 * 50) == 0:
                time.sleep(0.05)  # a burst beyond the queue's depth (200 frames) would lose frames
        return t0 + before, t0 + before + len(speech) / RATE

    def event(self, event: str, stamp: float, start: float, silence_ms: int, detected: float) -> None:
        from phanthy.msg import VoiceActivity
        from phanthy_common.convert import header

        self.vad.publish(VoiceActivity(header=header(stamp), speaking=event != "offset", probability=0.9,
                                       event=event, t_speech_start=start, silence_ms=silence_ms,
                                       t_detected=detected))

    def close(self) -> None:
        self.group.stop()


def test_the_node_publishes_one_final_transcript_per_utterance(ros, whisper):
    mic = Microphone(ros, whisper)
    try:
        speech = espeak("take me to the dinosaur hall")
        start, end = mic.play(speech)
        mic.event("onset", start - 0.03, start - 0.03, 0, start + 0.06)  # VAD pads by 30 ms
        mic.event("pause", end, start - 0.03, 160, end + 0.16)
        mic.event("offset", end + 0.03, start - 0.03, 400, end + 0.4)
        [msg] = mic.heard.wait(timeout=30, what="a transcript")
        assert msg.is_final and msg.source == "asr" and msg.speaker_id == "speaker_1"
        assert word_errors("take me to the dinosaur hall", msg.text) <= 1, msg.text
        assert abs(msg.audio_duration_ms - len(speech) / 16) <= 100
        assert msg.t_speech_start == pytest.approx(start - 0.03) and msg.t_speech_end == pytest.approx(end + 0.03)
        assert msg.t_eos_detected == pytest.approx(end + 0.4) and msg.t_ready >= msg.t_eos_detected
        assert 0.0 < msg.confidence <= 1.0 and msg.language == "en"
    finally:
        mic.close()


def test_with_partials_the_pause_result_comes_first_and_the_final_repeats_it(ros, whisper):
    mic = Microphone(ros, whisper, partials=True, early_final=False)
    try:
        start, end = mic.play(voices.piper("Where are the bathrooms?"))
        mic.event("onset", start - 0.03, start - 0.03, 0, start + 0.06)
        mic.event("pause", end, start - 0.03, 160, end + 0.16)
        [partial] = mic.heard.wait(timeout=30, what="a partial transcript")
        mic.event("offset", end + 0.03, start - 0.03, 400, end + 0.4)
        [_, final] = mic.heard.wait(lambda msgs: len(msgs) == 2, timeout=30, what="the final transcript")
        assert not partial.is_final and final.is_final
        assert normalize_text(partial.text) == normalize_text(final.text) == "where are the bathrooms"
        assert final.t_ready >= partial.t_ready and final.t_ready >= final.t_eos_detected
        assert partial.t_speech_end == pytest.approx(end) and final.t_speech_end == pytest.approx(end + 0.03)
    finally:
        mic.close()


def test_a_finished_sentence_is_handed_out_at_the_pause_before_the_end_of_speech(ros, whisper):
    mic = Microphone(ros, whisper)  # early_final on by default
    try:
        start, end = mic.play(voices.piper("Where are the bathrooms?"))
        mic.event("onset", start - 0.03, start - 0.03, 0, start + 0.06)
        mic.event("pause", end, start - 0.03, 160, end + 0.16)
        [final] = mic.heard.wait(timeout=30, what="the transcript before the offset")
        assert final.is_final and normalize_text(final.text) == "where are the bathrooms"
        mic.event("offset", end + 0.03, start - 0.03, 400, end + 0.4)
        mic.event("onset", end + 1.0, end + 1.0, 0, end + 1.06)  # nothing heard twice
        assert len(mic.heard.snapshot()) == 1
    finally:
        mic.close()
