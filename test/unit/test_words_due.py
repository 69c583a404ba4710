"""Whether a visitor's words are on their way: from an onset (bounded), for a grace after the
pause, and not at all once the final transcript came or the recognizer failed."""

from phanthy_agent.core.words_due import WordsDue
from support.fakes import FakeClock


def words_due(clock):
    return WordsDue(clock, transcript_grace_s=2.0, words_due_max_s=15.0)


def test_words_are_due_from_an_onset_until_the_bound_whatever_the_vad_says():
    clock = FakeClock()
    due = words_due(clock)
    assert due.until() == 0.0
    due.speech(True)
    assert due.visitor_speaking and due.until() == 115.0
    clock.advance(15.5)
    assert due.until() == 0.0, "a VAD stuck on speech does not hold the robot forever"


def test_after_the_pause_the_transcript_gets_a_grace():
    clock = FakeClock()
    due = words_due(clock)
    due.speech(True)
    clock.advance(3.0)
    due.speech(False)
    assert not due.visitor_speaking and due.until() == 105.0


def test_a_final_transcript_ends_the_wait_and_says_so_once():
    clock = FakeClock()
    due = words_due(clock)
    due.speech(True)
    assert due.arrived() is True
    assert due.until() == 0.0
    assert due.arrived() is False, "nothing was due any more: no one needs to look again"


def test_words_handed_out_before_the_vad_ended_leave_nothing_to_wait_for_at_the_pause():
    clock = FakeClock()
    due = words_due(clock)
    due.speech(True)
    due.arrived()  # the recognizer's final came at the pause hint
    due.speech(False)
    assert due.until() == 0.0
    due.speech(True)  # speech resumes: new words are on their way
    assert due.until() == 115.0


def test_a_recognition_failure_means_no_words_are_coming():
    clock = FakeClock()
    due = words_due(clock)
    due.speech(True)
    due.none_coming()
    assert due.until() == 0.0
