"""The robustness harness from the Homebot review: 200 voice turns through the agent core and
the scripted brain with injected faults (invalid JSON, missing field, contradictory states,
valid but wrong states, model timeouts and failures, a failing speaker). Every interaction must
get back to LISTENING within its bound: 0 stuck. Prints how each fault was recovered."""

import collections
import json
import random

from phanthy_agent.conversation.voice_machine import VoiceState, VoiceTimeouts
from phanthy_agent.core.agent import AgentConfig
from phanthy_agent.core.events import Event
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, FakeTool, navigate_tool, speak_tool, stop_tool
from support.virtual_time import run

TIMEOUTS = VoiceTimeouts(wake_listen_s=8, follow_up_s=8, continuous_silence_s=20, thinking_s=30,
                         playing_s=120, reprompts=1)


def finish(args):
    return {"name": "finish", "arguments": args}


def speak(text):
    return {"name": "speak", "arguments": {"text": text}}


# fault kind -> (scripted reply, expected final dialogue_state or "" when the turn fails,
#                bound in virtual seconds from the transcript back to LISTENING)
FAULTS = {
    "valid end": ({"tool_calls": [speak("The cafe is downstairs."), finish({"dialogue_state": "end"})]},
                  "end", 10),
    "invalid JSON": ({"tool_calls": [speak("The cafe is downstairs."), finish('{"dialogue_state": "end"')]},
                     "end", 10),
    "missing field": ({"tool_calls": [speak("Shall I show you the way?"), finish({})]}, "follow_up", 30),
    "no finish call": ({"content": "The toilets are next to the entrance."}, "end", 10),
    "unknown value": ({"tool_calls": [speak("Enjoy your visit."), finish({"dialogue_state": "maybe"})]},
                      "end", 10),
    "follow_up after a completed task": ({"tool_calls": [
        {"name": "navigate_to", "arguments": {"place": "gift_shop"}}, speak("Here is the gift shop."),
        finish({"dialogue_state": "follow_up"})]}, "end", 25),
    "end after a question": ({"tool_calls": [speak("Would you like a map?"), finish({"dialogue_state": "end"})]},
                             "follow_up", 30),
    "wrong but valid continuous": ({"tool_calls": [speak("Bye now."), finish({"dialogue_state": "continuous"})]},
                                   "continuous", 30),
    "wrong but valid follow_up": ({"tool_calls": [speak("The hall opens at nine."),
                                                  finish({"dialogue_state": "follow_up"})]}, "follow_up", 30),
    "model timeout": ({"delay_s": 45, "tool_calls": [finish({"dialogue_state": "end"})]}, "", 40),
    "model unavailable": ({"error": "endpoint down"}, "", 10),
    "a tool fails": ({"tool_calls": [{"name": "announce", "arguments": {"text": "Hello"}},
                                     finish({"dialogue_state": "end"})]}, "end", 10),
    "speaker fails": ({"tool_calls": [speak("Welcome!"), finish({"dialogue_state": "continuous"})]}, "", 10),
    "not a dict": ({"tool_calls": [speak("Sure."), finish("[1, 2, 3]")]}, "end", 10),
}


def test_200_voice_turns_with_injected_faults_never_get_stuck():
    rng = random.Random(7)
    kinds = [list(FAULTS)[i % len(FAULTS)] for i in range(200)]
    rng.shuffle(kinds)
    rules = [dict(FAULTS[kind][0], match=f"\\[{i}\\]") for i, kind in enumerate(FAULTS)]
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(duration_s=2))
    ex.add("speaker", stop_tool())
    ex.add("speaker", FakeTool({"name": "announce", "description": "Say through the PA.", "acting": True,
                                "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}},
                               duration_s=0.5, status="failed", error="audio device gone"))
    ex.add("base", navigate_tool(duration_s=5))
    config = AgentConfig(voice=True, voice_timeouts=TIMEOUTS, turn_timeout_s=60, max_steps=4)
    outcomes = []

    async def scenario():
        h = Harness(ex, [], config=config)
        h.brain._rules = [(__import__("re").compile(r.pop("match")), r) for r in rules]
        index = {kind: i for i, kind in enumerate(FAULTS)}
        voice = h.core.voice
        await h.until(lambda: voice.state is VoiceState.LISTENING)
        for n, kind in enumerate(kinds):
            h.core.wake("hey_jarvis")
            h.core.voice_activity(True)
            await h.at(h.now() + 1.5)
            h.core.voice_activity(False)
            t0 = h.now()
            ex.tools[("speaker", "speak")].status = "failed" if kind == "speaker fails" else "succeeded"
            h.core.submit(Event(source="speech", priority=10, kind="transcript", stamp=t0, origin="asr",
                                text=f"visitor {n} asks [{index[kind]}]", audio_duration_ms=1500))
            turns_before = len(h.sink.turns)
            bound = FAULTS[kind][2]
            try:
                await h.until(lambda: voice.state is VoiceState.LISTENING and len(h.sink.turns) > turns_before
                              and not h.core.tracker.outstanding(), timeout=bound)
            except AssertionError:
                outcomes.append((kind, "STUCK in " + voice.state.value, "", h.now() - t0))
                continue
            turn = h.sink.turns[-1]
            repairs = [e[6] for e in h.sink.kinds("dialogue_state") if e[2] == turn.turn_id]
            outcomes.append((kind, turn.dialogue_state or f"LISTENING without a state (turn {turn.end_reason})",
                             repairs[0] if repairs else "", h.now() - t0))
        await h.close()
        return h

    h = run(scenario)
    table = collections.defaultdict(collections.Counter)
    for kind, state, repair, _ in outcomes:
        table[kind][f"{state}" + (f" <- {repair}" if repair else "")] += 1
    print("\nfault -> how it was recovered (count)")
    for kind in FAULTS:
        for how, count in table[kind].items():
            print(f"  {kind:34} {count:3}  {how}")
    stuck = [o for o in outcomes if o[1].startswith("STUCK")]
    print(f"turns: {len(outcomes)}, stuck: {len(stuck)}, "
          f"slowest recovery {max(o[3] for o in outcomes):.1f} s")
    assert len(outcomes) == 200 and stuck == []
    for kind, state, _, _ in outcomes:
        expected = FAULTS[kind][1]
        assert state == expected if expected else state.startswith("LISTENING without"), (kind, state)
    fallback = [s for s in ex.calls("speak") if s.args["text"] == h.core.voice.lines.fallback]
    assert len(fallback) == kinds.count("model timeout") + kinds.count("model unavailable")
    reprompts = [s for s in ex.calls("speak") if s.args["text"] == h.core.voice.lines.reprompt]
    assert len(reprompts) == sum(FAULTS[k][1] == "follow_up" for k in kinds)


def test_a_tool_waiting_for_the_visitors_answer_keeps_the_robot_listening():
    """A driver's multi-step tool (what a registration skill drives) says it waits for the
    next answer: the reply asks nothing and the model says `end`, yet the robot waits for the
    answer (follow_up); once the tool has what it needs, `end` ends the interaction."""
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(duration_s=1))
    ex.add("speaker", stop_tool())
    form = FakeTool({"name": "register_visitor", "description": "Fill the visitor form step by step.",
                     "parameters": {"type": "object", "properties": {"answer": {"type": "string"}}}},
                    result={"next_field": "email", "awaiting_answer": True})
    ex.add("desk", form)
    script = [{"match": "register", "tool_calls": [{"name": "register_visitor", "arguments": {"answer": ""}},
                                                   speak("Your name, please."), finish({"dialogue_state": "end"})]},
              {"match": "ada", "tool_calls": [{"name": "register_visitor", "arguments": {"answer": "Ada"}},
                                              speak("Thank you, you are registered."),
                                              finish({"dialogue_state": "end"})]}]
    config = AgentConfig(voice=True, voice_timeouts=TIMEOUTS, turn_timeout_s=60, max_steps=4)

    async def scenario():
        h = Harness(ex, [], config=config)
        h.brain._rules = [(__import__("re").compile(r.pop("match")), r) for r in script]
        voice = h.core.voice
        await h.until(lambda: voice.state is VoiceState.LISTENING)
        h.core.wake("hey_jarvis")
        h.core.submit(Event(source="speech", priority=10, kind="transcript", stamp=h.now(), origin="asr",
                            text="I want to register", audio_duration_ms=1500))
        await h.until(lambda: len(h.sink.turns) == 1 and voice.state is VoiceState.RECOGNIZING, timeout=10)
        first = h.sink.turns[-1]
        session = voice.session
        form.result = {"awaiting_answer": False, "registered": True}
        h.core.submit(Event(source="speech", priority=10, kind="transcript", stamp=h.now(), origin="asr",
                            text="Ada", audio_duration_ms=600))
        await h.until(lambda: len(h.sink.turns) == 2 and voice.state is VoiceState.LISTENING, timeout=10)
        second = h.sink.turns[-1]
        await h.close()
        return first, second, session

    first, second, session = run(scenario)
    assert first.dialogue_state == "follow_up" and second.dialogue_state == "end"
    assert first.session == second.session == session, "the answer belongs to the same interaction"
