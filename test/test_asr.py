"""Speech recognition: synthesized sentences come out word for word, noise comes out as nothing,
the transcription started at the VAD's pause is the one used at the offset, and the asr node
turns audio + VAD events into one final Transcript."""

import array
import threading
import time
import uuid

import numpy as np
import pytest

from support import voices
from support.ros_harness import Collect, spin, wait_for
from support.voices import RATE, concat, cough, espeak, noise, silence

from phanthy_perception.asr import (POST_ROLL_S, PRE_ROLL_S, AsrResult, WhisperTranscriber, garbage_reason,
                                    normalize_text, resolve_model, word_errors)
from phanthy_perception.utterance import (DroppedTranscript, FailedTranscript, FinalTranscript, PartialTranscript,
                                          SpeechBuffer, TrackerConfig, UtteranceTracker, Worker)


@pytest.fixture(scope="module")
def whisper():
    model = WhisperTranscriber()  # bundled tiny.en, 10 s window
    model.warm_up()
    return model


def around(speech: np.ndarray) -> np.ndarray:
    """What the tracker gives the model: the speech with the silence around the VAD boundaries."""
    return concat(silence(PRE_ROLL_S), speech, silence(POST_ROLL_S))


# --- recognition ------------------------------------------------------------------------
SENTENCES = ["Take me to the dinosaur hall.", "Hey Jarvis, what time does the museum close today?",
             "Can you show me where the gift shop is?", "Do you have room for twenty five people at ten o'clock?"]


@pytest.mark.parametrize("voice", [espeak, voices.piper], ids=["espeak", "piper"])
@pytest.mark.parametrize("text", SENTENCES)
def test_a_sentence_comes_out_word_for_word(whisper, voice, text):
    audio = around(voice(text))
    result = whisper.transcribe(audio)
    assert word_errors(text, result.text) <= (1 if voice is espeak else 0), result.text  # espeak: robotic
    assert 0.5 < result.confidence <= 1.0 and result.language == "en"
    assert abs(result.duration_ms - len(audio) / 16) <= 1


def test_an_utterance_longer_than_the_window_uses_the_30_s_window(whisper):
    text = ("I lost my little brother near the entrance. He is wearing a red jacket and a blue cap. "
            "Can you help me find him? We would like to visit the space exhibition first. "
            "Is there an elevator near the gift shop?")
    long = around(voices.piper(text))
    assert len(long) / RATE > 10.0
    result = whisper.transcribe(long)
    assert result.window_s == 30.0 and word_errors(text, result.text) <= 2, result.text


@pytest.mark.parametrize("name,audio", [
    ("room noise", noise(1.0, 300)), ("loud noise", noise(0.8, 2000, seed=2)),
    ("cough", concat(silence(0.1), cough(seed=1), silence(0.2))),
    ("cough in noise", concat(noise(0.3, 200), cough(seed=3), noise(0.3, 200))), ("silence", silence(1.0))])
def test_noise_and_coughs_give_no_transcript(whisper, name, audio):
    result = whisper.transcribe(audio)
    assert garbage_reason(result) is not None, f"{name} heard as {result}"


def test_hotwords_help_with_the_wake_phrase(whisper):
    text = "Hey Jarvis, take me to the dinosaur hall."
    biased = WhisperTranscriber(hotwords="hey jarvis")
    assert normalize_text(biased.transcribe(around(espeak(text))).text).startswith("hey jarvis")


def test_a_missing_model_is_a_clear_error_naming_the_path(tmp_path):
    with pytest.raises(ValueError, match=str(tmp_path / "nope")):
        WhisperTranscriber(model=str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="no model.bin"):
        resolve_model(str(tmp_path))
    with pytest.raises(ValueError, match="downloaded"):
        resolve_model("base.en")


# --- text rules -------------------------------------------------------------------------
def test_normalized_text_has_numbers_as_spoken_and_no_punctuation():
    assert normalize_text("At 10:30, the 2nd floor!") == "at ten thirty the second floor"
    assert normalize_text("Room for 25 people? It's 1,000 years old.") == \
        "room for twenty five people its one thousand years old"
    assert word_errors("Take me to the dinosaur hall.", "take me to the dinosaur hole") == 1


def result(text: str, logprob: float = -0.2, no_speech: float = 0.1) -> AsrResult:
    return AsrResult(text, float(np.exp(logprob)), "en", 1000, 100.0, logprob, no_speech)


@pytest.mark.parametrize("text,logprob,no_speech", [
    ("", -0.2, 0.1), (" .", -0.9, 0.9), ("...", -0.2, 0.1), ("[BLANK_AUDIO]", -0.3, 0.2),
    ("(music)", -0.5, 0.3), ("*coughs*", -0.5, 0.3), ("I'm gonna go.", -1.8, 0.86),
    ("Thank you.", -1.5, 0.3), (" you", -1.6, 0.5)])
def test_garbage_is_dropped(text, logprob, no_speech):
    assert garbage_reason(result(text, logprob, no_speech)) is not None


@pytest.mark.parametrize("text,logprob,no_speech", [
    ("Thank you.", -0.2, 0.47), ("Yeah.", -0.93, 0.77), ("Okay.", -0.8, 0.14), ("MMMM", -1.6, 0.34)])
def test_short_real_words_are_kept(text, logprob, no_speech):
    assert garbage_reason(result(text, logprob, no_speech)) is None


# --- audio buffer -----------------------------------------------------------------------
def test_the_buffer_cuts_segments_on_the_sample_clock_across_the_ring():
    buffer = SpeechBuffer(seconds=1.0)
    ramp = np.arange(2 * RATE, dtype=np.int16)
    for i in range(0, len(ramp), 320):  # 20 ms frames from t = 100 s
        buffer.push(100.0 + i / RATE, ramp[i:i + 320])
    assert buffer.t_end == pytest.approx(102.0)
    assert list(buffer.segment(101.5, 101.5 + 4 / RATE)) == [24000, 24001, 24002, 24003]
    assert len(buffer.segment(100.0, 102.0)) == RATE  # only the last second is kept
    assert buffer.segment(101.0, 102.0)[0] == RATE


def test_a_gap_in_the_stream_becomes_silence_and_a_jump_back_starts_over():
    buffer = SpeechBuffer(seconds=5.0)
    buffer.push(10.0, np.ones(RATE, dtype=np.int16))
    buffer.push(11.5, np.full(RATE, 2, dtype=np.int16))  # 0.5 s lost
    assert set(buffer.segment(11.0, 11.5)) == {0} and set(buffer.segment(11.5, 12.5)) == {2}
    buffer.push(3.0, np.full(160, 3, dtype=np.int16))
    assert buffer.t_end == pytest.approx(3.01) and len(buffer.segment(0, 100)) == 160


# --- utterance tracking on a fake clock ---------------------------------------------------
class Timeline:
    """A fake clock, a fake model that takes `latency` s of that clock, and what came out."""

    def __init__(self, texts=("take me to the dinosaur hall",), latency=0.2, submit=None):
        self.now, self.latency = 0.0, latency
        self.texts = list(texts)
        self.calls, self.finals, self.partials, self.dropped = [], [], [], []
        self.tracker = UtteranceTracker(self.transcribe, lambda: self.now, self.record,
                                        TrackerConfig(partials=True), submit=submit)

    def record(self, outcome):
        match outcome:
            case FinalTranscript(utterance=u):
                self.finals.append(u)
            case PartialTranscript(utterance=u):
                self.partials.append(u)
            case DroppedTranscript(utterance=u, reason=why):
                self.dropped.append((u, why))

    def transcribe(self, audio):
        self.calls.append(len(audio) / RATE)
        self.now += self.latency
        text = self.texts[min(len(self.calls), len(self.texts)) - 1]
        return AsrResult(text, 0.9, "en", int(len(audio) / 16), self.latency * 1000, -0.1, 0.05)

    def audio(self, t0, t1):
        for t in np.arange(t0, t1 - 1e-9, 0.02):
            self.tracker.push_audio(t, np.full(320, 100, dtype=np.int16))

    def at(self, now, kind, t, **fields):
        self.now = now
        self.tracker.on_event(kind, t, **fields)


def test_the_transcription_started_at_the_pause_is_used_at_the_offset():
    # speech 1.00-2.50 s; pause hint after 160 ms of silence; offset after 400 ms
    line = Timeline()
    line.audio(0.0, 2.7)
    line.at(1.10, "onset", 0.97, t_speech_start=0.97)
    line.at(2.67, "pause", 2.50, t_speech_start=0.97, silence_ms=160, t_detected=2.66)
    ready_at = line.now
    line.audio(2.7, 2.92)
    line.at(2.92, "offset", 2.53, t_speech_start=0.97, silence_ms=400, t_detected=2.90)
    assert len(line.calls) == 1 and line.calls[0] == pytest.approx(2.66 - 0.97 + PRE_ROLL_S, abs=0.02)
    [final] = line.finals
    assert final.speculative and final.text == "take me to the dinosaur hall"
    assert final.t_transcribed == ready_at < 2.90  # ready before the VAD even decided
    assert (final.t_speech_start, final.t_speech_end, final.t_eos_detected) == (0.97, 2.53, 2.90)
    assert final.t_ready == 2.92 and final.duration_ms == 1560
    assert [(p.text, p.t_speech_end) for p in line.partials] == [("take me to the dinosaur hall", 2.50)]


def test_the_speculative_transcription_starts_on_the_audio_the_vad_has_seen():
    # the pause is decided at 2.72 (wall clock), on audio up to 2.50 + 0.16 s of silence; the
    # microphone's frames after 2.66 are still on their way: the model must not wait for them
    line = Timeline()
    line.audio(0.0, 2.66)
    line.at(1.10, "onset", 0.97, t_speech_start=0.97)
    line.at(2.72, "pause", 2.50, t_speech_start=0.97, silence_ms=160, t_detected=2.72)
    assert line.calls == [pytest.approx(2.66 - 0.97 + PRE_ROLL_S, abs=0.02)]


def test_a_failing_recognizer_reports_the_utterance_as_failed_not_silently_dropped():
    failed = []

    def broken(audio):
        raise RuntimeError("CUDA out of memory")

    finals = []
    tracker = UtteranceTracker(broken, lambda: 3.0, lambda o: (failed if isinstance(o, FailedTranscript)
                                                               else finals).append(o.utterance))
    tracker.push_audio(0.0, np.full(int(3.0 * RATE), 100, dtype=np.int16))
    tracker.on_event("onset", 0.97, t_speech_start=0.97)
    tracker.on_event("offset", 2.53, t_speech_start=0.97, silence_ms=400, t_detected=2.90)
    assert finals == []
    [utterance] = failed
    assert utterance.text == "" and utterance.result.error == "RuntimeError: CUDA out of memory"
    assert (utterance.t_speech_start, utterance.t_speech_end) == (0.97, 2.53)


def test_speech_after_the_pause_discards_the_speculative_result():
    line = Timeline(texts=["where are", "where are the bathrooms"])
    line.audio(0.0, 4.0)
    line.at(1.2, "onset", 1.0, t_speech_start=1.0)
    line.at(1.9, "pause", 1.7, silence_ms=160, t_detected=1.86)
    line.at(2.0, "resume", 1.95, silence_ms=250, t_detected=1.98)
    line.at(3.4, "offset", 3.0, t_speech_start=1.0, silence_ms=400, t_detected=3.37)
    [final] = line.finals
    assert final.text == "where are the bathrooms" and not final.speculative
    assert line.calls[1] == pytest.approx(3.0 + POST_ROLL_S - 1.0 + PRE_ROLL_S, abs=0.02)


def test_a_discarded_speculative_job_never_reaches_the_model():
    queued = []
    line = Timeline(submit=queued.append)
    line.audio(0.0, 4.0)
    line.at(1.2, "onset", 1.0)
    line.at(1.9, "pause", 1.7, silence_ms=160, t_detected=1.86)
    line.at(2.0, "resume", 1.95)
    line.at(3.4, "offset", 3.0, t_speech_start=1.0, silence_ms=400, t_detected=3.37)
    for job in queued:
        job()
    assert len(queued) == 2 and len(line.calls) == 1 and len(line.finals) == 1


def test_an_offset_during_the_speculative_transcription_waits_for_it():
    queued = []
    line = Timeline(submit=queued.append)
    line.audio(0.0, 3.0)
    line.at(1.2, "onset", 1.0)
    line.at(1.9, "pause", 1.7, silence_ms=160, t_detected=1.86)
    line.at(2.2, "offset", 1.73, silence_ms=400, t_detected=2.1)
    assert line.finals == [] and len(queued) == 1
    queued.pop()()
    [final] = line.finals
    assert final.speculative and len(line.calls) == 1 and final.t_ready == final.t_transcribed == pytest.approx(2.4)


def test_an_event_ahead_of_its_audio_waits_for_the_audio():
    line = Timeline()
    line.audio(0.0, 1.5)
    line.at(1.2, "onset", 1.0)
    line.at(1.9, "pause", 1.7, silence_ms=160, t_detected=1.86)
    assert line.calls == []
    line.audio(1.5, 1.9)
    assert line.calls == [pytest.approx(0.96, abs=0.02)]


def test_noise_heard_as_stock_phrases_is_dropped_not_published():
    line = Timeline()
    line.transcribe = lambda audio: AsrResult("Thank you.", 0.2, "en", 800, 50.0, -1.6, 0.3)
    line.tracker._transcribe = line.transcribe
    line.audio(0.0, 2.0)
    line.at(1.0, "onset", 0.5)
    line.at(1.5, "offset", 0.9, silence_ms=400, t_detected=1.3)
    assert line.finals == [] and "stock hallucination" in line.dropped[0][1]


def test_audio_intake_never_waits_for_the_model():
    release, started = threading.Event(), threading.Event()
    finals = []

    def slow(audio):
        started.set()
        release.wait(10)
        return AsrResult("where are the bathrooms", 0.9, "en", 1000, 1.0, -0.1, 0.0)

    worker = Worker()
    tracker = UtteranceTracker(slow, time.monotonic, lambda o: finals.append(o.utterance), submit=worker.submit)
    try:
        tracker.push_audio(0.0, np.zeros(2 * RATE, dtype=np.int16))
        tracker.on_event("onset", 0.5)
        tracker.on_event("offset", 1.5, silence_ms=400, t_detected=1.9)
        assert started.wait(10)
        t0 = time.monotonic()
        for i in range(100):  # 2 s of audio while the model is busy
            tracker.push_audio(2.0 + i * 0.02, np.zeros(320, dtype=np.int16))
        tracker.on_event("onset", 3.0)
        assert time.monotonic() - t0 < 2.0 and finals == []  # blocked, it would take 10 s
        release.set()
        wait_for(lambda: finals, 10, "the final transcript")
    finally:
        release.set()
        worker.close()


# --- the node ---------------------------------------------------------------------------
@pytest.mark.ros
def test_a_missing_model_stops_the_node_at_start_with_the_path(ros, tmp_path):
    from rclpy.parameter import Parameter
    from phanthy_perception.asr_node import AsrNode

    with pytest.raises(ValueError, match="not found: " + str(tmp_path / "nope")):
        AsrNode(parameter_overrides=[Parameter("model", value=str(tmp_path / "nope"))],
                namespace=f"/asr_missing_{uuid.uuid4().hex[:8]}")


class Microphone:
    """An asr node and a test node in a fresh namespace: the test node plays the microphone
    (audio/in) and the VAD (voice/activity, from the known speech boundaries) and listens."""

    def __init__(self, ros, whisper, **params):
        from rclpy.parameter import Parameter
        from phanthy.msg import AudioFrame, Transcript, VoiceActivity
        from phanthy_perception.asr_node import AUDIO_QOS, EVENTS_QOS, AsrNode

        ns = f"/asr_test_{uuid.uuid4().hex[:8]}"
        overrides = [Parameter(k, value=v) for k, v in params.items()]
        self.asr = AsrNode(transcriber=whisper, namespace=ns, parameter_overrides=overrides)
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
        return t0 + before, t0 + before + len(speech) / RATE

    def event(self, event: str, stamp: float, start: float, silence_ms: int, detected: float) -> None:
        from phanthy.msg import VoiceActivity
        from phanthy_common.convert import header

        self.vad.publish(VoiceActivity(header=header(stamp), speaking=event != "offset", probability=0.9,
                                       event=event, t_speech_start=start, silence_ms=silence_ms,
                                       t_detected=detected))

    def close(self) -> None:
        self.group.stop()


@pytest.mark.ros
def test_the_node_publishes_one_final_transcript_per_utterance(ros, whisper):
    mic = Microphone(ros, whisper)
    try:
        speech = espeak("take me to the dinosaur hall")
        start, end = mic.play(speech)
        mic.event("onset", start - 0.03, start - 0.03, 0, start + 0.06)  # VAD pads by 30 ms
        mic.event("pause", end, start - 0.03, 160, end + 0.16)
        mic.event("offset", end + 0.03, start - 0.03, 400, end + 0.4)
        [msg] = mic.heard.wait(timeout=30, what="a transcript")
        assert msg.is_final and msg.source == "asr" and msg.speaker_id == "anonymous_speaker"
        assert word_errors("take me to the dinosaur hall", msg.text) <= 1, msg.text
        assert abs(msg.audio_duration_ms - len(speech) / 16) <= 100
        assert msg.t_speech_start == pytest.approx(start - 0.03) and msg.t_speech_end == pytest.approx(end + 0.03)
        assert msg.t_eos_detected == pytest.approx(end + 0.4) and msg.t_ready >= msg.t_eos_detected
        assert 0.0 < msg.confidence <= 1.0 and msg.language == "en"
    finally:
        mic.close()


@pytest.mark.ros
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


@pytest.mark.parametrize("text,expected", [
    ("Where can I leave my coat? Where can I leave my coat?", "Where can I leave my coat?"),
    ("Can you show me where the gift shop is? Can you show me where the gift", "Can you show me where the gift shop is?"),
    ("No. No. No.", "No."),
    ("Where is the cafe? And the toilets?", "Where is the cafe? And the toilets?"),
])
def test_the_short_window_repeat_is_dropped_without_a_second_decode(text, expected):
    from phanthy_perception.asr import drop_repeated_sentences
    assert drop_repeated_sentences(text) == expected
