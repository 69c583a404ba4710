"""What the robot hears, as ROS4HRI voices: one per speaker id, topic-safe ids, speech as it
forms and when final, the speaking flag on the voice that speaks, and who is tracked."""

from phanthy_drivers.hri_voices import DEFAULT_VOICE, HumanVoices, Speaking, Speech, locale_of, voice_id
from support.fakes import FakeClock


def test_speaker_ids_become_topic_safe_voice_ids():
    assert voice_id("speaker_1") == "speaker_1"
    assert voice_id("Alice Smith") == "alice_smith"
    assert voice_id("2nd-visitor") == "v_2nd_visitor"
    assert voice_id("") == DEFAULT_VOICE and voice_id("  !!") == DEFAULT_VOICE


def test_ietf_language_tags_become_ros4hri_locales():
    assert locale_of("en-US") == "en_US" and locale_of("en") == "en" and locale_of("") == ""


def test_a_partial_transcript_is_incremental_and_a_final_one_is_final_speech_of_its_voice():
    voices = HumanVoices(FakeClock())
    [partial] = voices.transcript("speaker_1", "where is the", False, 0.5, "en-US")
    [final] = voices.transcript("speaker_1", "where is the cafe", True, 0.9, "en-US")
    assert partial == Speech("speaker_1", "where is the", "", 0.5, "en_US")
    assert final == Speech("speaker_1", "", "where is the cafe", 0.9, "en_US")


def test_the_vad_marks_the_last_voice_speaking_and_a_new_voice_takes_the_flag():
    voices = HumanVoices(FakeClock())
    assert voices.activity(True) == [Speaking(DEFAULT_VOICE, True)]
    updates = voices.transcript("speaker_2", "hello", False, 0.8, "en")
    assert updates[:2] == [Speaking(DEFAULT_VOICE, False), Speaking("speaker_2", True)]
    assert voices.activity(False) == [Speaking("speaker_2", False)]
    assert voices.activity(False) == [], "no change, nothing to say"


def test_voices_leave_the_tracked_list_when_not_heard_for_the_ttl():
    clock = FakeClock()
    voices = HumanVoices(clock, ttl_s=30.0)
    voices.transcript("speaker_1", "hi", True, 0.9, "en")
    clock.advance(20)
    voices.transcript("speaker_2", "hello", True, 0.9, "en")
    assert voices.tracked() == ["speaker_1", "speaker_2"]
    clock.advance(15)
    assert voices.tracked() == ["speaker_2"]


def test_a_flood_of_new_speaker_ids_is_bounded():
    voices = HumanVoices(FakeClock(), max_voices=3)
    for i in range(10):
        voices.transcript(f"speaker_{i}", "hi", True, 0.9, "en")
    assert len(voices.tracked()) == 3
