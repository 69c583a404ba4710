"""When to stop, on the speaker's barge-in controller with a fake clock and a fake speaker."""

import pytest

from phanthy_drivers.barge_in import BargeInConfig, BargeInController, Phase
from support.fakes import FakeClock, FakeSpeaker






@pytest.fixture
def rig():
    clock, speaker = FakeClock(), FakeSpeaker()
    controller = BargeInController(BargeInConfig(on_onset="duck"), clock, speaker)
    controller.playback(True, "The dinosaur hall is on the left. Our T rex is called Stan.")
    return clock, speaker, controller


def short_speech(clock, c, speech_end, pause_seen, start=100.0):
    """A visitor speaks from `start` to `speech_end`; the VAD's pause hint arrives at `pause_seen`."""
    c.activity("onset", start, start)
    clock.t = pause_seen
    c.activity("pause", start, speech_end, silence_ms=160)


def test_an_onset_ducks_at_once_and_words_commit_a_stop_at_a_word_boundary(rig):
    clock, speaker, c = rig
    c.activity("onset", t_speech_start=99.95, t=99.95)
    assert speaker.calls == [("duck", 0.15)]
    clock.t = 100.6
    c.tick()
    assert c.phase is Phase.HELD, "duration below commit_after_ms decides nothing"
    clock.t = 100.8
    c.transcript("actually take me", t_speech_start=99.95, final=False)  # the early transcript
    assert c.phase is Phase.COMMITTED and speaker.calls[-1] == ("stop", 300.0)


def test_early_words_that_call_for_nobody_wait_until_the_speech_outlasts_a_backchannel(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.7
    c.transcript("the gift shop", t_speech_start=100.0, final=False, confidence=0.8)
    assert c.phase is Phase.HELD, "0.7 s of speech: a backchannel could still be this long"
    clock.t = 100.91
    c.tick()
    assert c.phase is Phase.COMMITTED and speaker.calls[-1] == ("stop", 300.0)


def test_early_words_of_a_hum_that_then_ends_do_not_stop_the_robot(rig):
    """The audio eval: tiny.en made "in the nature." (0.72) of piper's 0.7 s "mm-hm" while it
    lasted, and "and the hm." of all of it."""
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.65
    c.transcript("in the nature.", t_speech_start=100.0, final=False, confidence=0.72)
    assert c.phase is Phase.HELD
    clock.t = 100.75
    c.tick()
    c.activity("offset", 100.0, 100.7, silence_ms=300)
    clock.t = 100.95
    c.tick()
    assert c.phase is Phase.HELD, "held until the final words decide"
    c.transcript("and the hm.", t_speech_start=100.0, confidence=0.5, duration_ms=700)
    assert c.phase is Phase.WATCHING and all(call[0] != "stop" for call in speaker.calls)
    assert speaker.calls[-1] == ("duck", 1.0), "the reply goes on"


def test_early_words_that_are_a_request_keep_the_reply_held_over_a_comma(rig):
    """"The gift shop, | then the cafe": early words that are a request; the comma's silence
    must not let the robot blurt before the rest of the sentence."""
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.6
    c.transcript("The gift shop", t_speech_start=100.0, final=False, confidence=0.8)
    c.activity("pause", 100.0, 100.55, silence_ms=160)
    clock.t = 100.8
    c.tick()
    assert c.phase is Phase.HELD and speaker.calls == [("duck", 0.15)], "no blurt at the comma"
    c.activity("resume", 100.0, 100.8)
    clock.t = 101.0
    c.tick()
    assert c.phase is Phase.COMMITTED


def test_early_request_words_whose_final_never_comes_let_the_reply_go_on(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.6
    c.transcript("The gift shop", t_speech_start=100.0, final=False, confidence=0.8)
    c.activity("offset", 100.0, 100.65, silence_ms=300)  # silent since 100.3
    clock.t = 101.7
    c.tick()
    assert c.phase is Phase.HELD
    clock.t = 101.85  # transcript_wait_s (1.5) of silence
    c.tick()
    assert c.phase is Phase.WAITING and speaker.calls[-1] == ("duck", 1.0)


def test_long_speech_commits_even_without_words(rig):
    clock, speaker, c = rig
    c.activity("onset", t_speech_start=100.0, t=100.0)
    clock.t = 101.4
    c.tick()
    assert c.phase is Phase.HELD
    clock.t = 101.55
    c.tick()
    assert c.phase is Phase.COMMITTED


def test_a_long_mm_hm_is_heard_out_and_not_an_interruption(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.8
    c.transcript("Mmmm", t_speech_start=100.0, final=False)
    assert c.phase is Phase.HELD
    clock.t = 101.1
    c.activity("pause", 100.0, 100.9, silence_ms=160)
    clock.t = 101.3
    c.transcript("Mmmmmmmmmm-hmm.", t_speech_start=100.0)
    assert c.phase is Phase.WATCHING and all(call[0] != "stop" for call in speaker.calls)


def test_a_backchannel_resumes_at_its_pause_and_never_stops_the_robot(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.5
    c.activity("pause", 100.0, 100.3, silence_ms=160)  # 300 ms of "mm-hm", silence began
    assert speaker.calls == [("duck", 0.15), ("duck", 1.0)], "back to full volume at the pause"
    clock.t = 100.9
    c.transcript("Mm-hmm.", t_speech_start=100.0)
    assert c.phase is Phase.WATCHING and all(call[0] != "stop" for call in speaker.calls)


def test_a_short_gap_in_the_visitors_speech_keeps_the_reply_held_a_real_pause_lets_it_go_on(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.6
    c.activity("pause", 100.0, 100.45, silence_ms=100)  # "Actually," ... (the ASR's early hint)
    c.tick()
    assert c.phase is Phase.HELD and speaker.calls == [("duck", 0.15)], "no blurt at a comma"
    clock.t = 100.65
    c.activity("resume", 100.0, 100.62)  # "... take me to the gift shop"
    clock.t = 100.9
    c.tick()
    assert c.phase is Phase.HELD and speaker.calls == [("duck", 0.15)]
    c.activity("pause", 100.0, 100.8, silence_ms=100)  # a "yeah" that ended: no words yet
    clock.t = 100.95
    c.tick()
    assert c.phase is Phase.HELD
    clock.t = 100.97  # 100 ms + 70 ms of silence
    c.tick()
    assert c.phase is Phase.WAITING and speaker.calls == [("duck", 0.15), ("duck", 1.0)]


def test_a_short_command_stops_the_robot_when_its_words_arrive(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.55
    c.activity("pause", 100.0, 100.35, silence_ms=160)
    clock.t = 100.8
    c.transcript("Stop!", t_speech_start=100.0)
    assert c.phase is Phase.COMMITTED and speaker.calls[-1][0] == "stop"


def test_the_robots_own_words_coming_back_are_not_an_interruption(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.4
    c.activity("pause", 100.0, 100.2, silence_ms=160)
    clock.t = 100.9
    c.transcript("the dinosaur hall is on the", t_speech_start=100.0)
    assert c.phase is Phase.WATCHING and all(call[0] != "stop" for call in speaker.calls)


def test_a_cough_without_words_is_let_go(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.45
    c.activity("pause", 100.0, 100.3, silence_ms=160)
    clock.t = 102.0
    c.tick()
    assert c.phase is Phase.WATCHING and c.segment is None
    assert [a for _, a, _ in c.log] == ["duck", "resume", "gave up"]


def test_pause_mode_pauses_at_once_and_stays_silent_when_it_commits():
    clock, speaker = FakeClock(), FakeSpeaker()
    c = BargeInController(BargeInConfig(on_onset="pause"), clock, speaker)
    c.playback(True, "hello there")
    c.activity("onset", 100.0, 100.0)
    clock.t = 101.6
    c.tick()
    assert speaker.calls == [("pause",), ("stop", 0.0)]


def test_nothing_happens_when_the_robot_is_not_speaking_or_barge_in_is_off():
    clock, speaker = FakeClock(), FakeSpeaker()
    c = BargeInController(BargeInConfig(), clock, speaker)
    c.activity("onset", 100.0, 100.0)
    off = BargeInController(BargeInConfig(enabled=False), clock, speaker)
    off.playback(True, "x")
    off.activity("onset", 100.0, 100.0)
    clock.t = 101.0
    c.tick(), off.tick()
    assert speaker.calls == []


def test_speech_that_resumes_after_a_pause_is_held_again_and_can_commit(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.35
    c.activity("pause", 100.0, 100.2, silence_ms=160)
    clock.t = 100.45
    c.activity("resume", 100.0, 100.45)
    assert c.phase is Phase.HELD and speaker.calls[-1] == ("duck", 0.15)
    clock.t = 101.6
    c.tick()
    assert c.phase is Phase.COMMITTED


def test_words_the_recognizer_is_unsure_of_do_not_stop_the_robot(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.8
    c.transcript("and my m h n", t_speech_start=100.0, final=False, confidence=0.25)
    clock.t = 101.1
    c.activity("pause", 100.0, 101.0, silence_ms=160)
    c.transcript("and my name is Kim", t_speech_start=100.0, confidence=0.25)
    assert c.phase is Phase.WATCHING and all(call[0] != "stop" for call in speaker.calls)


def test_an_early_guess_arriving_after_the_speech_ended_waits_for_the_final_words(rig):
    """CI caught espeak's "yeah" early-transcribed as "here" just after its pause: the early
    guess on the first 0.6 s must not stop the robot once the final transcript is due."""
    clock, speaker, c = rig
    short_speech(clock, c, speech_end=100.55, pause_seen=100.7)
    clock.t = 100.75
    c.transcript("here", t_speech_start=100.0, final=False, confidence=0.6)
    assert c.phase is Phase.WAITING and all(call[0] != "stop" for call in speaker.calls)
    clock.t = 100.9
    c.transcript("Yeah.", t_speech_start=100.0, confidence=0.7)
    assert c.phase is Phase.WATCHING and all(call[0] != "stop" for call in speaker.calls)


def test_the_final_words_of_a_short_request_still_commit_after_an_early_guess(rig):
    clock, speaker, c = rig
    short_speech(clock, c, speech_end=100.6, pause_seen=100.7)
    c.transcript("wait", t_speech_start=100.0, final=False, confidence=0.6)
    clock.t = 100.9
    c.transcript("Wait, stop.", t_speech_start=100.0, confidence=0.7)
    assert c.phase is Phase.COMMITTED and speaker.calls[-1][0] == "stop"


def test_words_of_speech_shorter_than_the_agents_threshold_do_not_stop_the_robot(rig):
    """The agent drops finals under barge_in_threshold_ms as backchannels; the speaker must not
    stop for them either (CI: a 348 ms fragment of "yeah" came out as "Here.")."""
    clock, speaker, c = rig
    short_speech(clock, c, speech_end=100.35, pause_seen=100.5)
    clock.t = 100.6
    c.transcript("Here.", t_speech_start=100.0, confidence=0.7, duration_ms=348)
    assert c.phase is Phase.WATCHING and all(call[0] != "stop" for call in speaker.calls)
    short_speech(clock, c, speech_end=101.6, pause_seen=101.8, start=101.0)
    c.transcript("Stop here.", t_speech_start=101.0, confidence=0.7, duration_ms=600)
    assert c.phase is Phase.COMMITTED


@pytest.mark.parametrize("words, stops", [("here", False), ("Museum.", False), ("Stop!", True),
                                          ("What?", True), ("Sorry", True), ("the gift shop", True)])
def test_a_lone_word_stops_the_robot_only_when_it_asks_to(rig, words, stops):
    clock, speaker, c = rig
    short_speech(clock, c, speech_end=100.6, pause_seen=100.8)
    c.transcript(words, t_speech_start=100.0, confidence=0.6, duration_ms=600)
    assert (c.phase is Phase.COMMITTED) is stops


def test_words_arriving_long_after_the_robot_resumed_do_not_stop_it_again(rig):
    """A hum decoded as "And then make him." 2.2 s after the robot had resumed (CI): too late to
    cut the robot off; the agent still gets the words."""
    clock, speaker, c = rig
    short_speech(clock, c, speech_end=100.8, pause_seen=101.0)
    clock.t = 102.6
    c.tick()
    assert c.phase is Phase.WATCHING
    clock.t = 103.2
    c.transcript("And then make him.", t_speech_start=100.0, confidence=0.5, duration_ms=900)
    assert c.phase is Phase.WATCHING and all(call[0] != "stop" for call in speaker.calls)


def test_words_arriving_within_the_transcript_wait_still_stop_the_robot(rig):
    clock, speaker, c = rig
    short_speech(clock, c, speech_end=100.45, pause_seen=100.6)
    clock.t = 101.9
    c.tick()
    assert c.phase is Phase.WAITING
    c.transcript("Stop!", t_speech_start=100.0, confidence=0.6, duration_ms=550)
    assert c.phase is Phase.COMMITTED


def test_an_early_guess_needs_more_confidence_than_final_words(rig):
    clock, speaker, c = rig
    c.activity("onset", 100.0, 100.0)
    clock.t = 100.7
    c.transcript("Yeah, man, make sure.", t_speech_start=100.0, final=False, confidence=0.42)
    assert c.phase is Phase.HELD
    c.transcript("Wait, I have a question.", t_speech_start=100.0, final=False, confidence=0.55)
    assert c.phase is Phase.COMMITTED


def pause_rig():
    clock, speaker = FakeClock(), FakeSpeaker()
    c = BargeInController(BargeInConfig(on_onset="pause"), clock, speaker)
    c.playback(True, "The dinosaur hall is on the left. Our T rex is called Stan.")
    return clock, speaker, c


def test_a_candidate_pauses_at_once_and_the_onset_that_follows_makes_it_a_visitors_speech():
    clock, speaker, c = pause_rig()
    c.activity("candidate", 100.0, 100.0)
    assert speaker.calls == [("pause",)] and c.phase is Phase.HELD
    clock.t = 100.08
    c.activity("onset", 99.98, 99.98)
    assert speaker.calls == [("pause",)], "already paused: no second pause"
    assert not c.segment.tentative
    clock.t = 101.6
    c.tick()
    assert c.phase is Phase.COMMITTED and speaker.calls[-1] == ("stop", 0.0)


def test_a_dismissed_candidate_resumes_and_never_commits():
    clock, speaker, c = pause_rig()
    c.activity("candidate", 100.0, 100.0)
    clock.t = 100.3
    c.activity("dismissed", 100.3, 100.3)
    assert speaker.calls == [("pause",), ("resume",)] and c.phase is Phase.WATCHING
    clock.t = 100.5
    c.transcript("take me to the gift shop", t_speech_start=100.0)
    assert c.phase is Phase.WATCHING, "a dismissed sound has no words to commit on"


def test_a_candidate_whose_dismissal_is_lost_resumes_on_its_own_and_never_commits_on_time():
    clock, speaker, c = pause_rig()
    c.activity("candidate", 100.0, 100.0)
    clock.t = 100.5
    c.tick()
    assert c.phase is Phase.HELD
    clock.t = 100.61
    c.tick()
    assert speaker.calls == [("pause",), ("resume",)] and c.phase is Phase.WATCHING
    clock.t = 102.0
    c.tick()
    assert ("stop", 0.0) not in speaker.calls


def test_a_candidate_while_the_visitor_is_already_heard_changes_nothing():
    clock, speaker, c = pause_rig()
    c.activity("onset", 100.0, 100.0)
    c.activity("candidate", 100.1, 100.1)
    c.activity("dismissed", 100.4, 100.4)
    assert speaker.calls == [("pause",)] and c.phase is Phase.HELD and not c.segment.tentative
