"""The five-state voice machine on a fake clock: transitions, sessions, timeouts, failures."""

import itertools

import pytest

from phanthy_agent.conversation.dialogue_state import DialogueState
from phanthy_agent.conversation.voice_machine import OpenSession, Say, VoiceMachine, VoiceState, VoiceTimeouts
from support.fakes import FakeClock

S = VoiceState
T = VoiceTimeouts(wake_listen_s=8, follow_up_s=6, continuous_silence_s=20, max_utterance_s=30,
                  thinking_s=30, playing_s=120, reprompts=1)




@pytest.fixture
def m():
    clock = FakeClock(0.0)
    ids = itertools.count(1)
    machine = VoiceMachine(clock, T, new_session_id=lambda: f"voice:{next(ids)}")
    machine.start()
    return clock, machine


def advance(clock, machine, seconds, step=0.25):
    effects = []
    end = clock.t + seconds
    while clock.t < end - 1e-9:
        clock.t = min(end, clock.t + step)
        effects += machine.tick()
    return effects


def says(effects):
    return [e.text for e in effects if isinstance(e, Say)]


def a_reply(clock, m, state, text="The dinosaur hall is upstairs."):
    m.transcript("where is the dinosaur hall")
    m.turn_started()
    m.audio(True)
    clock.t += 2
    m.audio(False)
    return m.turn_finished(state)


def test_a_wake_opens_a_session_and_end_closes_it(m):
    clock, machine = m
    assert machine.state is S.LISTENING and machine.session == ""
    effects = machine.wake()
    assert machine.state is S.RECOGNIZING and machine.session == "voice:1"
    assert OpenSession("voice:1") in effects
    a_reply(clock, machine, DialogueState.END)
    assert machine.state is S.LISTENING and machine.session == ""
    assert [h[2] for h in machine.history] == ["LISTENING", "RECOGNIZING", "THINKING", "PLAYING",
                                               "THINKING", "LISTENING"]
    machine.wake()
    assert machine.session == "voice:2", "the next visitor starts fresh"


def test_a_wake_without_words_times_out_back_to_listening(m):
    clock, machine = m
    machine.wake()
    advance(clock, machine, 7.9)
    assert machine.state is S.RECOGNIZING
    advance(clock, machine, 0.5)
    assert machine.state is S.LISTENING and machine.session == ""


def test_speech_in_progress_extends_the_wait_but_not_forever(m):
    clock, machine = m
    machine.wake()
    clock.t = 5
    machine.speech(True)
    advance(clock, machine, 20)
    assert machine.state is S.RECOGNIZING, "the visitor is still talking"
    advance(clock, machine, 11)
    assert machine.state is S.LISTENING, "max_utterance_s bounds even endless 'speech'"


def test_follow_up_waits_re_prompts_once_then_gives_up(m):
    clock, machine = m
    machine.wake()
    a_reply(clock, machine, DialogueState.FOLLOW_UP, "Shall I take you there?")
    assert machine.state is S.RECOGNIZING and machine.session
    effects = advance(clock, machine, 6.1)
    assert says(effects) == [machine.lines.reprompt] and machine.state is S.RECOGNIZING
    effects = advance(clock, machine, 6.1)
    assert says(effects) == [] and machine.state is S.LISTENING and machine.session == ""


def test_an_answer_to_the_follow_up_continues_the_same_session(m):
    clock, machine = m
    machine.wake()
    a_reply(clock, machine, DialogueState.FOLLOW_UP)
    session = machine.session
    clock.t += 2
    machine.transcript("yes please")
    assert machine.state is S.THINKING and machine.session == session


def test_continuous_mode_stays_until_an_exit_phrase(m):
    clock, machine = m
    machine.wake()
    a_reply(clock, machine, DialogueState.CONTINUOUS)
    assert machine.state is S.RECOGNIZING and machine.continuous
    advance(clock, machine, 15)
    a_reply(clock, machine, DialogueState.FOLLOW_UP)  # a question inside continuous mode
    assert machine.continuous, "follow_up answers the question and stays continuous"
    machine.transcript("and the cafe?")
    machine.turn_started()
    machine.turn_finished(DialogueState.CONTINUOUS)
    machine.transcript("okay goodbye")
    assert machine.state is S.LISTENING and machine.session == "" and not machine.continuous


def test_continuous_mode_ends_after_the_silence_timeout(m):
    clock, machine = m
    machine.wake()
    a_reply(clock, machine, DialogueState.CONTINUOUS)
    advance(clock, machine, 19.5)
    assert machine.state is S.RECOGNIZING
    advance(clock, machine, 1)
    assert machine.state is S.LISTENING


def test_end_after_continuous_ends_the_conversation(m):
    clock, machine = m
    machine.wake()
    a_reply(clock, machine, DialogueState.CONTINUOUS)
    a_reply(clock, machine, DialogueState.END)
    assert machine.state is S.LISTENING and not machine.continuous


def test_thinking_too_long_says_the_fallback_line_and_returns_to_listening(m):
    clock, machine = m
    machine.wake()
    machine.transcript("where is the cafe")
    machine.turn_started()
    effects = advance(clock, machine, 30.5)
    assert says(effects) == [machine.lines.fallback] and machine.state is S.LISTENING
    assert machine.turn_finished(DialogueState.FOLLOW_UP) == [], "a late turn end changes nothing"
    assert machine.state is S.LISTENING


@pytest.mark.parametrize("what, fallback", [("asr", True), ("llm", True), ("tts", False)])
def test_failures_return_to_a_known_state(m, what, fallback):
    clock, machine = m
    machine.wake()
    machine.transcript("hello")
    effects = machine.failure(what)
    assert machine.state is S.LISTENING and machine.session == ""
    assert bool(says(effects)) is fallback


def test_a_recognition_failure_while_listening_to_the_visitor_says_the_fallback_line(m):
    clock, machine = m
    machine.wake()
    machine.speech(True)
    machine.speech(False)
    effects = machine.recognition_failed()
    assert says(effects) == [machine.lines.fallback]
    assert machine.state is S.LISTENING and machine.session == ""


def test_a_recognition_failure_during_a_turn_leaves_the_turn_alone(m):
    clock, machine = m
    machine.wake()
    machine.transcript("tell me about the dinosaurs")
    machine.turn_started()
    assert machine.recognition_failed() == [] and machine.state is S.THINKING
    machine.audio(True)
    assert machine.recognition_failed() == [] and machine.state is S.PLAYING
    assert machine.session == "voice:1"


def test_a_stuck_speaker_is_bounded(m):
    clock, machine = m
    machine.wake()
    machine.transcript("tell me everything")
    machine.turn_started()
    machine.audio(True)
    advance(clock, machine, 121)
    assert machine.state is S.LISTENING


def test_speech_over_the_reply_goes_back_to_thinking_and_an_interrupted_turn_keeps_listening(m):
    clock, machine = m
    machine.wake()
    machine.transcript("tell me about the museum")
    machine.turn_started()
    machine.audio(True)
    machine.transcript("actually, the gift shop first")
    assert machine.state is S.THINKING
    machine.turn_finished(DialogueState.END, interrupted=True)
    assert machine.state is S.RECOGNIZING and machine.session


def test_always_listening_opens_a_session_on_speech_and_stopped_ignores_everything():
    clock = FakeClock(0.0)
    machine = VoiceMachine(clock, T, wake_gated=False)
    assert machine.wake() == [] and machine.state is S.STOPPED
    machine.start()
    machine.speech(True)
    assert machine.state is S.RECOGNIZING and machine.session.startswith("voice:")
    machine.stop()
    assert machine.state is S.STOPPED and machine.session == ""
