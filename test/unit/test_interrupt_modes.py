"""When to listen: steer (default), interrupt and queue on the agent core, on virtual time."""

import json

from phanthy_agent.core.agent import AgentConfig
from phanthy_agent.core.events import Event, InterruptMode
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, lookup_tool, navigate_tool, speak_tool, stop_tool
from support.virtual_time import run


def robot():
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(duration_s=2))
    ex.add("speaker", stop_tool())
    ex.add("base", navigate_tool(duration_s=20))
    ex.add("kb", lookup_tool(0.1))
    return ex


def call(name, **args):
    return {"name": name, "arguments": args}


def test_a_correction_while_the_model_thinks_joins_the_running_turn():
    ex = robot()
    replies = [{"delay_s": 1.5, "tool_calls": [call("speak", text="Taking you to the second floor.")]},
               {"tool_calls": [call("speak", text="Alright, the stairs then."), call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("go to the second floor")
        await h.at(0.7)
        h.say("take the stairs, not the lift")
        turns = await h.turns(1)
        await h.at(h.now() + 5)
        await h.close()
        return h, turns

    h, turns = run(scenario)
    assert len(turns) == 1, "steering must not start a second turn"
    [turn] = turns
    assert turn.inputs == ["go to the second floor", "take the stairs, not the lift"]
    # injected at the very next model step: the second request ends with the correction
    second = h.brain.requests[1].messages
    assert [m.content for m in second if m.meta == "input"][-1] == "take the stairs, not the lift"
    assert not ex.cancels, "steering cancels nothing"
    assert turn.end_reason == "finished"


def test_a_steering_message_during_a_tool_batch_skips_the_rest_of_the_batch():
    ex = robot()
    replies = [{"tool_calls": [call("speak", text="One moment."), call("lookup", q="a"),
                               call("navigate_to", place="dinosaur_hall")]},
               {"tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("take me to the dinosaur hall")
        await h.at(0.5)  # while navigate_to waits for the speech to end
        h.say("no wait, the gift shop")
        await h.turns(1)
        await h.close()
        return h

    h = run(scenario)
    assert not ex.calls("navigate_to"), "the call still waiting when the visitor spoke is not run"
    results = [json.loads(m.content) for m in h.brain.requests[1].messages if m.role == "tool"]
    assert results[-1]["status"] == "skipped"
    assert h.brain.requests[1].messages[-1].content == "no wait, the gift shop"


def test_interrupt_mode_cancels_the_model_call_and_starts_a_new_turn_at_once():
    ex = robot()
    replies = [{"delay_s": 30, "content": "never said"},
               {"tool_calls": [call("speak", text="The gift shop is downstairs."), call("finish")]}]

    async def scenario():
        h = Harness(ex, replies, AgentConfig(interrupt_mode=InterruptMode.INTERRUPT))
        h.say("tell me everything about dinosaurs")
        await h.at(2.0)
        h.say("where is the gift shop")
        turns = await h.turns(2)
        await h.close()
        return h, turns

    h, (first, second) = run(scenario)
    assert first.end_reason == "interrupted" and first.t_end < 2.1
    assert "never said" not in first.reply
    assert second.inputs == ["where is the gift shop"]
    assert second.t_end < 5.0
    assert [s.args["text"] for s in ex.calls("speak")] == ["The gift shop is downstairs."]


def test_interrupt_mode_per_source_stops_running_actions_and_fires_hooks():
    ex = robot()
    replies = [{"tool_calls": [call("navigate_to", place="dinosaur_hall"), call("finish")]},
               {"tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)  # default steer, but this source interrupts
        h.say("take me to the dinosaur hall")
        await h.at(5.0)
        h.say("stop right now", mode="interrupt")
        turns = await h.turns(2)
        await h.close()
        return turns

    first, second = run(scenario)
    assert first.end_reason == "interrupted"
    assert ex.cancels and 5.0 <= ex.cancels[0][1] < 5.1
    assert ("on_interrupt_motion", "base", "halt") in {(h[0], h[1], h[2]) for h in ex.hooks}
    assert [c["status"] for c in first.tool_calls] == ["cancelled"]
    assert second.inputs == ["stop right now"]


def test_queue_mode_runs_the_event_after_the_current_turn():
    ex = robot()
    replies = [{"tool_calls": [call("speak", text="Here is a long story."), call("finish")]},
               {"tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("tell me a story")
        await h.at(0.5)
        h.core.submit(Event(source="chat", priority=5, text="operator: battery check at 5pm",
                            interrupt_mode="queue"))
        turns = await h.turns(2)
        await h.close()
        return turns

    first, second = run(scenario)
    assert first.end_reason == "finished" and first.inputs == ["tell me a story"]
    assert second.trigger_source == "chat" and second.t_trigger >= 0
    assert second.inputs == ["operator: battery check at 5pm"]


def test_backchannels_and_repeats_while_busy_do_not_stop_the_robot():
    ex = robot()
    replies = [{"tool_calls": [call("speak", text="A long explanation of fossils."), call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("tell me about fossils")
        await h.at(0.5)
        h.say("mm-hm", duration_ms=300)  # a backchannel
        h.say("tell me about fossils")  # the repeat of someone who got no feedback
        turns = await h.turns(1)
        await h.at(h.now() + 3)
        await h.close()
        return h, turns

    h, turns = run(scenario)
    assert len(turns) == 1 and turns[0].end_reason == "finished"
    assert turns[0].reply == "A long explanation of fossils."
    reasons = [e[6] for e in h.sink.kinds("dropped")]
    assert any(r.startswith("backchannel") for r in reasons)
    assert any(r.startswith("repeat") for r in reasons)


def test_final_text_without_tool_calls_is_spoken_and_finish_waits_for_it():
    ex = robot()
    replies = [{"content": "The dinosaur hall is on the left."}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("where are the dinosaurs")
        [turn] = await h.turns(1)
        await h.close()
        return turn

    turn = run(scenario)
    assert [s.args for s in ex.calls("speak")] == [{"text": "The dinosaur hall is on the left."}]
    assert turn.reply == "The dinosaur hall is on the left."
    assert turn.t_end >= 2.0 and turn.t_first_audio > 0
