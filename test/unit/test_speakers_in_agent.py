"""Who said it, in the agent: steering only from the turn's own speaker (agent.steer_from), the
voice session handed to another visitor after a follow-up timeout, the speakers in the turn
record, roles of enrolled voices; on virtual time and a fake clock."""

import dataclasses

import pytest

from phanthy_agent.conversation.dialogue_state import DialogueState
from phanthy_agent.conversation.voice_machine import CloseSession, OpenSession, VoiceState
from phanthy_agent.core.agent import AgentConfig, AgentCore
from phanthy_agent.core.events import Event, SteerFrom
from phanthy_agent.core.inbox import Decision, Inbox, InboxConfig
from support.agent_harness import Harness, speech
from support.fake_drivers import FakeExecutor, navigate_tool, speak_tool, stop_tool
from support.fakes import FakeClock
from support.virtual_time import run
from test_voice_machine import T, a_reply, advance, m  # noqa: F401 (m: the machine fixture)


def said_by(speaker: str, text: str, **kw) -> Event:
    return dataclasses.replace(speech(text, **kw), speaker_id=speaker, origin="asr")


def robot():
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(duration_s=2))
    ex.add("speaker", stop_tool())
    ex.add("base", navigate_tool(duration_s=20))
    return ex


def call(name, **args):
    return {"name": name, "arguments": args}


# --- the inbox ------------------------------------------------------------------------------

def test_a_correction_from_another_speaker_does_not_steer_it_waits_for_its_own_turn():
    inbox = Inbox()
    routing = inbox.submit(said_by("speaker_2", "no, the gift shop"), busy=True, turn_speakers=["speaker_1"])
    assert routing.decision is Decision.QUEUE and "speaker_2" in routing.reason
    assert not inbox.has_steering()


def test_a_correction_from_the_same_speaker_steers():
    routing = Inbox().submit(said_by("speaker_1", "no, the gift shop"), busy=True, turn_speakers=["speaker_1"])
    assert routing.decision is Decision.STEER


@pytest.mark.parametrize("event_speaker,turn_speakers", [("anonymous_speaker", ["speaker_1"]),
                                                         ("speaker_2", ["anonymous_speaker"]), ("speaker_2", [])])
def test_when_either_speaker_is_unknown_words_steer_as_before(event_speaker, turn_speakers):
    routing = Inbox().submit(said_by(event_speaker, "no, the gift shop"), busy=True, turn_speakers=turn_speakers)
    assert routing.decision is Decision.STEER


def test_steer_from_is_parsed_and_a_typo_is_a_clear_error():
    assert SteerFrom.parse(" Anyone ") is SteerFrom.ANYONE
    with pytest.raises(ValueError, match="agent.steer_from must be same_speaker or anyone"):
        SteerFrom.parse("same_person")


def test_steer_from_anyone_lets_every_speaker_steer():
    inbox = Inbox(InboxConfig(steer_from=SteerFrom.ANYONE))
    routing = inbox.submit(said_by("speaker_2", "no, the gift shop"), busy=True, turn_speakers=["speaker_1"])
    assert routing.decision is Decision.STEER


# --- the agent core, on virtual time ----------------------------------------------------------

def test_another_visitors_remark_while_walking_waits_and_the_turn_records_who_said_what():
    ex = robot()
    replies = [{"tool_calls": [call("speak", text="Follow me."), call("navigate_to", place="dinosaur_hall")]},
               {"tool_calls": [call("finish")]},
               {"tool_calls": [call("speak", text="The cafe is on the ground floor."), call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.core.submit(said_by("speaker_1", "take me to the dinosaur hall", t=h.now()))
        await h.at(3.0)
        h.core.submit(said_by("speaker_2", "where is the cafe", t=h.now()))
        turns = await h.turns(2)
        await h.close()
        return h, turns

    h, turns = run(scenario)
    first, second = turns
    assert first.inputs == ["take me to the dinosaur hall"] and first.input_speakers == ["speaker_1"]
    assert second.inputs == ["where is the cafe"] and second.input_speakers == ["speaker_2"]
    assert not ex.cancels, "the other visitor's words cancelled nothing"


def test_a_correction_by_the_same_visitor_joins_their_turn_and_is_listed_with_its_speaker():
    ex = robot()
    replies = [{"delay_s": 1.5, "tool_calls": [call("speak", text="Taking you upstairs.")]},
               {"tool_calls": [call("speak", text="The stairs then."), call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.core.submit(said_by("speaker_1", "go to the second floor", t=h.now()))
        await h.at(0.7)
        h.core.submit(said_by("speaker_1", "take the stairs, not the lift", t=h.now()))
        turns = await h.turns(1)
        await h.close()
        return turns

    [turn] = run(scenario)
    assert turn.inputs == ["go to the second floor", "take the stairs, not the lift"]
    assert turn.input_speakers == ["speaker_1", "speaker_1"]


def test_typed_inputs_have_no_speaker_in_the_record():
    ex = robot()

    async def scenario():
        h = Harness(ex, [{"tool_calls": [call("finish")]}])
        h.core.submit(Event(source="chat", priority=8, text="hello"))
        turns = await h.turns(1)
        await h.close()
        return turns

    [turn] = run(scenario)
    assert turn.input_speakers == [""]


def test_an_enrolled_voice_gets_its_configured_role_and_only_by_voice():
    config = AgentConfig(speaker_roles={"ada": "operator"})
    core = AgentCore(None, FakeExecutor(), FakeClock(), config)
    assert core.role_of(said_by("ada", "open the staff door")) == "operator"
    assert core.role_of(said_by("speaker_1", "open the staff door")) == "visitor"
    typed = dataclasses.replace(said_by("ada", "open the staff door"), origin="console")
    assert core.role_of(typed) == "visitor", "a name typed into a transcript proves no voice"


def test_a_configured_speaker_role_must_be_a_role():
    with pytest.raises(ValueError, match="roles.speakers.ada"):
        AgentCore(None, FakeExecutor(), FakeClock(), AgentConfig(speaker_roles={"ada": "boss"}))


# --- the voice session ------------------------------------------------------------------------

def test_another_speaker_after_the_follow_up_timeout_gets_a_session_of_their_own(m):
    clock, machine = m
    machine.wake()
    machine.transcript("where is the dinosaur hall", "speaker_1")
    first = machine.session
    machine.turn_started()
    machine.turn_finished(DialogueState.FOLLOW_UP)
    advance(clock, machine, T.follow_up_s + 0.5)  # no answer: re-prompted, still listening
    assert machine.state is VoiceState.RECOGNIZING and machine.session == first
    effects = machine.transcript("is the cafe open", "speaker_2")
    assert CloseSession(first) in effects and OpenSession(machine.session) in effects
    assert machine.session != first and machine.state is VoiceState.THINKING
    assert machine.speakers == ["speaker_2"]


def test_another_speaker_answering_within_the_follow_up_joins_the_session(m):
    clock, machine = m
    machine.wake()
    machine.transcript("where can we eat", "speaker_1")
    session = machine.session
    machine.turn_started()
    machine.turn_finished(DialogueState.FOLLOW_UP)
    clock.t += 2
    machine.transcript("something vegetarian please", "speaker_2")
    assert machine.session == session and machine.speakers == ["speaker_1", "speaker_2"]


def test_the_same_speaker_after_the_timeout_keeps_the_session(m):
    clock, machine = m
    machine.wake()
    a_reply(clock, machine, DialogueState.FOLLOW_UP)
    machine.speakers[:] = ["speaker_1"]
    session = machine.session
    advance(clock, machine, T.follow_up_s + 0.5)
    machine.transcript("sorry, yes please", "speaker_1")
    assert machine.session == session


def test_without_speaker_ids_the_session_goes_on_as_before(m):
    clock, machine = m
    machine.wake()
    a_reply(clock, machine, DialogueState.FOLLOW_UP)
    session = machine.session
    advance(clock, machine, T.follow_up_s + 0.5)
    machine.transcript("yes please")
    assert machine.session == session
