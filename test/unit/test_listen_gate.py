"""When the robot listens (no model): the transcript wake phrase, the listen gate's modes and
windows, two-stage confirmation."""

import pytest

from phanthy_perception.wake import ListenGate, WakePhraseMatcher
from support.fakes import FakeClock


# --- wake phrase in a transcript -------------------------------------------------------------
@pytest.mark.parametrize("text, phrase, rest", [
    ("Hey Jarvis, take me to the dinosaur hall.", "hey jarvis", "take me to the dinosaur hall."),
    ("hey, jarvis! take me to the dinosaur hall", "hey jarvis", "take me to the dinosaur hall"),
    ("Hey Jervis. Where is the cafe?", "hey jarvis", "Where is the cafe?"),
    ("HEY ROBOT - where am I?", "hey robot", "where am I?"),
    ("Hi robot, where am I?", "hey robot", "where am I?"),
    ("Hey Robert, where am I?", "hey robot", "where am I?"),
    ("Um, hey robot, take me to the exit.", "hey robot", "take me to the exit."),
    ("Heyjarvis what's this?", "hey jarvis", "what's this?"),
    ("Hey jar vis, what's this?", "hey jarvis", "what's this?"),
    ("Héy Jàrvis — où est le café ?", "hey jarvis", "où est le café ?"),
    ("Hey Jarvis.", "hey jarvis", ""),
])
def test_the_matcher_finds_the_wake_phrase_and_returns_the_remainder(text, phrase, rest):
    assert WakePhraseMatcher().match(text) == (phrase, rest)


@pytest.mark.parametrize("text", [
    "Take me to the dinosaur hall, hey jarvis.",  # not at the start
    "I told the robot hey robot twice.",
    "A robot like you must be tired.",  # "a robot" is not taken for "hey robot" (documented)
    "Jarvis, where is the exit?",  # the bare name is not the phrase
    "Hey there, what is your name?", "Hey, can you help me?", "Hey Robin!", "Hey Bob.", "", "...",
])
def test_the_matcher_ignores_everything_else(text):
    assert WakePhraseMatcher().match(text) is None


def test_always_mode_admits_everything_and_strips_a_leading_wake_phrase():
    gate = ListenGate("always", clock=FakeClock())
    assert gate.admit("Where is the cafe?") == "Where is the cafe?"
    assert gate.admit("Hey robot, where is the cafe?") == "where is the cafe?"
    assert gate.admit("Hey robot.") is None
    assert gate.admit("   ") is None


def test_wake_word_mode_listens_only_inside_the_window_which_speech_extends():
    clock = FakeClock()
    gate = ListenGate("wake_word", window_s=8.0, clock=clock)
    assert gate.admit("Where is the cafe?") is None
    gate.on_wake(100.0, "hey_jarvis")
    clock.t = 105.0
    assert gate.admit("Hey Jarvis, where is the cafe?") == "where is the cafe?"
    assert gate.admit("and the shop?", 112.9) == "and the shop?"  # extended by the last admit (105)
    gate.on_speech(120.0)  # open until 120.9: speech extends it to 128
    assert gate.is_open(127.9) and gate.admit("still there?", 127.9) == "still there?"
    assert not gate.is_open(136.0)
    assert gate.admit("talking to someone else", 136.0) is None
    gate.on_speech(137.0)  # speech does not open a closed window
    assert gate.admit("still talking to someone else", 137.5) is None


def test_an_open_voice_interaction_needs_no_wake_word_for_the_answer():
    """After a follow_up question the agent's voice_state is RECOGNIZING: the ASR node holds the
    gate open, so "yes please" reaches the agent without "hey jarvis"."""
    gate = ListenGate("wake_word", window_s=8.0, clock=FakeClock())
    assert gate.admit("yes please", 100.0) is None
    gate.set_conversation(True)
    assert gate.admit("yes please", 100.0) == "yes please"
    gate.set_conversation(False)
    assert gate.admit("and the cafe?", 300.0) is None


def test_the_end_of_an_interaction_closes_the_wake_words_window():
    gate = ListenGate("wake_word", window_s=8.0, clock=FakeClock())
    gate.on_wake(100.0, "hey_jarvis")
    gate.set_conversation(True)
    assert gate.admit("take me to the dinosaur hall", 101.0) == "take me to the dinosaur hall"
    gate.set_conversation(False)  # the robot's `end`: back to LISTENING
    assert gate.admit("what time is it", 104.0) is None, "said within 8 s of the wake word, but after goodbye"
    gate.on_wake(110.0, "hey_jarvis")
    assert gate.admit("where is the cafe", 111.0) == "where is the cafe"


def test_a_transcript_starting_with_the_wake_phrase_opens_the_window():
    woke = []
    gate = ListenGate("wake_word", clock=FakeClock(), on_transcript_wake=lambda p, t: woke.append((p, t)))
    assert gate.admit("Hey robot, take me to the dinosaur hall", 200.0) == "take me to the dinosaur hall"
    assert gate.admit("and then to the exit", 205.0) == "and then to the exit"
    assert woke == [("hey robot", 200.0)]


def test_a_wake_phrase_alone_returns_nothing_but_opens_the_window():
    gate = ListenGate("wake_word", clock=FakeClock())
    assert gate.admit("Hey Jarvis.", 200.0) is None
    assert gate.is_open(207.0)
    assert gate.admit("Where is the exit?", 207.0) == "Where is the exit?"


def test_the_phrase_of_a_detected_keyword_is_stripped_even_if_not_configured():
    gate = ListenGate("wake_word", matcher=WakePhraseMatcher(["hey robot"]), clock=FakeClock())
    gate.on_wake(300.0, "alexa")
    assert gate.admit("Alexa, where is the exit?", 301.0) == "where is the exit?"


def test_two_stage_a_detection_opens_the_window_only_if_the_transcript_confirms_it():
    gate = ListenGate("wake_word", window_s=8.0, two_stage=True, clock=FakeClock())
    gate.on_wake(100.0, "hey_jarvis")
    assert not gate.is_open(100.5)
    assert gate.admit("Hey Jarvis, where is the cafe?", 101.5) == "where is the cafe?"
    assert gate.admit("and the shop?", 105.0) == "and the shop?"
    # a false fire: the transcript does not start with the phrase, so it is dropped
    gate.on_wake(120.0, "hey_jarvis")
    assert gate.admit("I love the dinosaurs", 121.0) is None
    assert gate.admit("Hey Jarvis, hello", 122.0) is None  # the detection was used up
    # a phrase alone (no detection) does not wake a two-stage gate
    assert gate.admit("Hey robot, hello", 130.0) is None
    # a detection expires after the window, unless speech keeps it pending
    gate.on_wake(140.0, "hey_jarvis")
    assert gate.admit("Hey Jarvis, hello", 148.5) is None
    gate.on_wake(150.0, "hey_jarvis")
    gate.on_speech(156.0)
    assert gate.admit("Hey Jarvis, sorry, a long question", 163.0) == "sorry, a long question"


def test_the_gate_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="always, wake_word"):
        ListenGate("push_to_talk")
