"""Utterance tracking on a fake clock (no model): the speculative transcription at the VAD's
pause is used at the offset, garbage is dropped, a failing recognizer is reported, audio
intake never waits for the model."""

import threading
import time

import numpy as np
import pytest

from phanthy_perception.asr import (POST_ROLL_S, PRE_ROLL_S, AsrResult, garbage_reason, normalize_text,
                                    word_errors)
from phanthy_perception.utterance import (DroppedTranscript, FailedTranscript, FinalTranscript,
                                          PartialTranscript, SpeechBuffer, TrackerConfig, UtteranceTracker,
                                          Worker)
from support.ros_harness import wait_for
from support.voices import RATE


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


@pytest.mark.parametrize("text,expected", [
    ("Where can I leave my coat? Where can I leave my coat?", "Where can I leave my coat?"),
    ("Can you show me where the gift shop is? Can you show me where the gift", "Can you show me where the gift shop is?"),
    ("No. No. No.", "No."),
    ("Where is the cafe? And the toilets?", "Where is the cafe? And the toilets?"),
])
def test_the_short_window_repeat_is_dropped_without_a_second_decode(text, expected):
    from phanthy_perception.asr import drop_repeated_sentences
    assert drop_repeated_sentences(text) == expected
