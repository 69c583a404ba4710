"""Routing decisions of the inbox: backchannels, repeats, superseded transcripts, modes."""

import dataclasses

import pytest

from phanthy_agent.core.events import Event, InterruptMode
from phanthy_agent.core.inbox import Decision, Inbox, InboxConfig
from phanthy_common.interruption import InterruptionPolicy


def transcript(text, duration_ms=1200, **kw):
    return Event(source="speech", priority=10, text=text, kind="transcript",
                 audio_duration_ms=duration_ms, **kw)


def test_idle_events_start_a_turn_even_when_short():
    assert Inbox().submit(transcript("yes", duration_ms=200), busy=False).decision is Decision.START


@pytest.mark.parametrize("duration_ms,dropped", [(120, True), (499, True), (500, False), (800, False)])
def test_backchannel_filter_reads_the_typed_audio_duration(duration_ms, dropped):
    # Regression for the reference implementation, whose filter read a field nobody wrote
    # (payload.duration_ms) and so never fired. Only Event.audio_duration_ms carries it.
    routing = Inbox().submit(transcript("the cafe", duration_ms=duration_ms), busy=True)
    assert (routing.decision is Decision.DROP) == dropped
    if dropped:
        assert routing.reason.startswith("backchannel")
    assert {f.name for f in dataclasses.fields(Event)} >= {"audio_duration_ms"}


def test_backchannel_threshold_is_configurable():
    inbox = Inbox(InboxConfig(interruption=InterruptionPolicy(min_speech_ms=250)))
    assert inbox.submit(transcript("the cafe", duration_ms=300), busy=True).decision is Decision.STEER


def test_typed_text_has_no_duration_and_is_never_a_backchannel():
    routing = Inbox().submit(transcript("go on", duration_ms=0, origin="console"), busy=True)
    assert routing.decision is Decision.STEER


def test_exact_repeats_of_in_flight_or_waiting_text_are_dropped():
    inbox = Inbox()
    assert inbox.submit(transcript("Take me to the shop!"), busy=True,
                        in_flight_texts=["take me to the shop"]).decision is Decision.DROP
    assert inbox.submit(transcript("where is the cafe"), busy=True).decision is Decision.STEER
    assert inbox.submit(transcript("Where is the café?"), busy=True).decision is Decision.STEER
    assert inbox.submit(transcript("where is the CAFÉ!"), busy=True).decision is Decision.DROP


def test_a_newer_transcript_supersedes_an_older_one_still_waiting():
    inbox = Inbox()
    inbox.submit(transcript("where is the toilet"), busy=True)
    routing = inbox.submit(transcript("hello? where are the toilets"), busy=True)
    assert [e.text for e in routing.superseded] == ["where is the toilet"]
    assert [e.text for e in inbox.take_steering()] == ["hello? where are the toilets"]


def test_chat_messages_do_not_supersede_each_other():
    inbox = Inbox()
    inbox.submit(Event(source="chat", priority=5, text="one"), busy=True)
    inbox.submit(Event(source="chat", priority=5, text="two"), busy=True)
    assert [e.text for e in inbox.take_steering()] == ["one", "two"]


def test_per_source_modes_and_priority_order_of_the_next_turn_queue():
    inbox = Inbox(InboxConfig(default_mode=InterruptMode.QUEUE))
    inbox.submit(Event(source="scheduler", priority=2, text="tour at 3"), busy=True)
    inbox.submit(Event(source="alert", priority=9, text="battery low"), busy=True)
    assert inbox.submit(Event(source="estop", priority=9, text="stop", interrupt_mode="interrupt"),
                        busy=True).decision is Decision.INTERRUPT
    assert [e.text for e in inbox.take_next_trigger()] == ["battery low"]
    assert [e.text for e in inbox.take_next_trigger()] == ["tour at 3"]
    assert inbox.take_next_trigger() == []


def test_partials_and_empty_texts_never_trigger():
    inbox = Inbox()
    assert inbox.submit(transcript("take me", is_final=False), busy=False).decision is Decision.DROP
    assert inbox.submit(transcript("   "), busy=False).decision is Decision.DROP


def test_unknown_interrupt_mode_is_an_error_not_a_guess():
    with pytest.raises(ValueError, match="unknown interrupt mode"):
        Inbox().submit(Event(source="x", priority=1, text="hi", interrupt_mode="yell"), busy=True)


def test_waiting_queues_are_bounded():
    inbox = Inbox(InboxConfig(max_waiting=3))
    for i in range(10):
        inbox.submit(Event(source="chat", priority=1, text=f"m{i}"), busy=True)
    assert [e.text for e in inbox.take_steering()] == ["m7", "m8", "m9"]


@pytest.mark.parametrize("text", ["Yeah.", "okay okay", "Mm-hm", "uh huh", "Right!", "I see", "got it"])
def test_acknowledgements_of_any_length_are_backchannels_while_busy(text):
    routing = Inbox().submit(transcript(text, duration_ms=900), busy=True)
    assert routing.decision is Decision.DROP and routing.reason.startswith("backchannel")


@pytest.mark.parametrize("text", ["no", "stop", "okay, take me there", "yeah but where is the cafe", "wait",
                                  "and then?", "so the cafe"])
def test_words_that_ask_for_something_are_not_backchannels(text):
    assert Inbox().submit(transcript(text, duration_ms=900), busy=True).decision is Decision.STEER


def test_an_answer_is_not_a_backchannel_when_the_robot_is_idle():
    assert Inbox().submit(transcript("yeah", duration_ms=900), busy=False).decision is Decision.START


@pytest.mark.parametrize("text", ["Mmmmmmmmmmmmmm", "Mm-hmm.", "hmmmm", "Uhm", "yeahhh", "and the hm.",
                                  "and then h m", "yeah, and then"])
def test_hums_however_asr_spells_them_are_backchannels(text):
    assert Inbox().submit(transcript(text, duration_ms=1000), busy=True).decision is Decision.DROP


def test_unclear_speech_while_busy_is_not_a_command_but_unknown_confidence_is_kept():
    inbox = Inbox()
    assert inbox.submit(transcript("and my name is Kim", confidence=0.25), busy=True).decision is Decision.DROP
    assert inbox.submit(transcript("where is the cafe", confidence=0.8), busy=True).decision is Decision.STEER
    assert inbox.submit(transcript("to the toilets", confidence=-1.0), busy=True).decision is Decision.STEER
    assert inbox.submit(transcript("and my name is Kim", confidence=0.25), busy=False).decision is Decision.START


def test_while_the_robot_speaks_a_lone_word_is_no_request_unless_it_asks_to_stop():
    """Whisper hears espeak's "yeah" as "here" (508 ms, confidence 0.55): the finish wait must
    not cut the reply off for it (CI); "stop" and two words still count, and so does typed text."""
    inbox = Inbox()

    def spoken(text, ms=600):
        return Event(source="speech", priority=10, text=text, kind="transcript", audio_duration_ms=ms,
                     confidence=0.55)
    assert inbox.decide(spoken("here."), busy=True, speaking=True).decision is Decision.DROP
    assert inbox.decide(spoken("Stop!"), busy=True, speaking=True).decision is Decision.STEER
    assert inbox.decide(spoken("the gift shop"), busy=True, speaking=True).decision is Decision.STEER
    assert inbox.decide(spoken("here."), busy=True, speaking=False).decision is Decision.STEER
    assert inbox.decide(spoken("here.", ms=0), busy=True, speaking=True).decision is Decision.STEER
    assert Inbox(InboxConfig(interruption=InterruptionPolicy(min_words=0))).decide(
        spoken("here."), busy=True, speaking=True).decision is Decision.STEER
    assert inbox.decide(spoken("here."), busy=True, speaking=True, speaker_yielded=True).decision \
        is Decision.STEER, "the speaker stopped for these words: its verdict is trusted"


@pytest.mark.parametrize("mode", ["steer", "interrupt", "queue", ""])
def test_an_event_of_another_session_waits_for_its_own_turn_whatever_its_mode(mode):
    inbox = Inbox()
    chat = Event(source="chat", priority=8, text="where is the gift shop", session="web:alice",
                 interrupt_mode=mode)
    routing = inbox.submit(chat, busy=True, in_flight_texts=["where is the gift shop"], turn_session="main")
    assert routing.decision is Decision.QUEUE, "another person's turn is neither steered nor cancelled"
    assert not inbox.has_steering() and inbox.take_next_trigger() == [chat]


def test_repeats_and_superseding_stay_within_a_session():
    inbox = Inbox()
    spoken = transcript("the cafe please")
    assert inbox.submit(spoken, busy=True, turn_session="web:bob").decision is Decision.QUEUE
    same_words = Event(source="chat", priority=8, text="the cafe please", session="web:alice")
    assert inbox.submit(same_words, busy=True, turn_session="web:bob").decision is Decision.QUEUE
    newer_speech = transcript("the shop please")
    routing = inbox.submit(newer_speech, busy=True, turn_session="web:bob")
    assert routing.superseded == (spoken,), "a newer transcript replaces only its own session's"
    assert inbox.waiting() == [newer_speech, same_words]  # speech (priority 10) first
