"""The action completion protocol on the agent core, on virtual time."""

import json

from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, FakeTool, lookup_tool, navigate_tool, speak_tool, stop_tool
from support.virtual_time import run


def executor_with(*tools):
    ex = FakeExecutor()
    for driver, tool in tools:
        ex.add(driver, tool)
    return ex


def call(name, **args):
    return {"name": name, "arguments": args}


def test_acting_tool_returns_its_action_id_before_the_action_ends():
    ex = executor_with(("base", navigate_tool(duration_s=10)))
    replies = [{"tool_calls": [call("navigate_to", place="dinosaur_hall")]},
               {"tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("take me to the dinosaur hall")
        [turn] = await h.turns(1)
        second_request = h.brain.requests[1]
        tool_msg = [m for m in second_request.messages if m.role == "tool"][0]
        await h.close()
        return h, turn, tool_msg

    h, turn, tool_msg = run(scenario)
    result = json.loads(tool_msg.content)
    assert result["status"] == "started"
    assert result["action_id"] == ex.started[0].action_id
    # the model's second step happened long before the walk ended; the turn ended after it
    assert turn.end_reason == "finished"
    assert turn.t_end >= ex.started[0].t + 10 - 1e-6
    assert turn.tool_calls[0]["action_id"] == ex.started[0].action_id


def test_next_acting_tool_waits_for_outstanding_actions_but_a_query_does_not():
    ex = executor_with(("speaker", speak_tool(duration_s=3)), ("speaker", stop_tool()),
                       ("base", navigate_tool(duration_s=10)), ("kb", lookup_tool(0.2)))
    replies = [{"tool_calls": [call("speak", text="Follow me please"), call("lookup", q="route"),
                               call("navigate_to", place="gift_shop")]},
               {"tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("where is the gift shop")
        [turn] = await h.turns(1)
        await h.close()
        return turn

    turn = run(scenario)
    speak, lookup, nav = ex.calls("speak")[0], ex.calls("lookup")[0], ex.calls("navigate_to")[0]
    assert lookup.t < speak.t + 3, "a non-acting tool must not wait for the speech"
    assert nav.t >= speak.t + 3, "an acting tool waits until the speech has ended"
    assert turn.t_end >= nav.t + 10 - 1e-6, "finish waits for the walk"
    assert [c["status"] for c in turn.tool_calls] == ["succeeded"] * 3


def test_finish_wait_ends_when_the_visitor_speaks_and_the_message_starts_the_next_turn():
    face = FakeTool({"name": "show", "hidden": True,
                     "x-hooks": {"on_interrupt_all": {"action": "show", "params": {"state": "listening"}}}})
    ex = executor_with(("speaker", speak_tool(duration_s=30)), ("speaker", stop_tool()),
                       ("base", navigate_tool()), ("face", face))
    long_text = " ".join(f"word{i}" for i in range(60))
    replies = [{"tool_calls": [call("speak", text=long_text), call("finish")]},
               {"tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("tell me about the t-rex")
        await h.at(10.0)
        h.say("actually where is the gift shop")
        turns = await h.turns(2)
        await h.close()
        return h, turns

    h, (first, second) = run(scenario)
    assert first.end_reason == "interrupted"
    assert 10.0 <= first.t_end < 10.5, "the robot stops when the visitor speaks, not after 30 s"
    fired = {(hook, driver, action) for hook, driver, action, _, t in ex.hooks if t < 10.5}
    assert {("on_interrupt_all", "face", "show"), ("on_interrupt_speak", "speaker", "stop"),
            ("on_interrupt_motion", "base", "halt")} <= fired
    assert ex.cancels and ex.cancels[0][1] < 10.5
    # what was heard: about a third of the words, not the whole text
    heard = first.reply.split()
    assert 10 <= len(heard) <= 30 and heard[0] == "word0"
    assert second.inputs == ["actually where is the gift shop"]
    assert second.trigger_source == "speech"


def test_a_dead_driver_yields_timeout_and_the_turn_still_ends():
    nav = navigate_tool(timeout_s=20)
    nav.never_ends = True
    ex = executor_with(("base", nav))
    replies = [{"tool_calls": [call("navigate_to", place="gift_shop"), call("finish")]},
               {"content": "", "tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("go to the gift shop")
        [turn] = await h.turns(1)
        await h.close()
        return h, turn

    h, turn = run(scenario)
    assert turn.end_reason == "finished"
    assert 20.0 <= turn.t_end < 21.0
    assert ex.cancels, "a timed-out action is cancelled at the driver"
    # the failure reached the model: its second step reads an action update saying timeout
    notices = [m.content for m in h.brain.requests[1].messages if m.meta == "notice"]
    assert notices and "timeout" in notices[-1]


def test_an_unreachable_driver_is_a_failed_tool_result_not_a_hang():
    nav = navigate_tool()
    nav.reachable = False
    ex = executor_with(("base", nav))
    replies = [{"tool_calls": [call("navigate_to", place="gift_shop")]}, {"tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("go to the gift shop")
        [turn] = await h.turns(1)
        await h.close()
        return h, turn

    h, turn = run(scenario)
    result = json.loads([m for m in h.brain.requests[1].messages if m.role == "tool"][0].content)
    assert result["status"] == "failed" and "not available" in result["error"]
    assert turn.end_reason == "finished" and turn.t_end < 1.0


def test_a_completion_that_arrives_before_registration_is_not_lost():
    led = FakeTool({"name": "blink", "acting": True, "timeout_s": 30}, complete_inside_start=True,
                   result={"blinked": 3})
    ex = executor_with(("led", led))
    replies = [{"tool_calls": [call("blink")]}, {"tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("blink please")
        [turn] = await h.turns(1)
        await h.close()
        return h, turn

    h, turn = run(scenario)
    assert turn.t_end < 1.0, "finish must not wait 30 s for an action that already ended"
    result = json.loads([m for m in h.brain.requests[1].messages if m.role == "tool"][0].content)
    assert result == {"status": "succeeded", "result": {"blinked": 3}}
    assert turn.tool_calls[0]["status"] == "succeeded"


def test_a_failed_action_gives_the_model_a_step_to_say_so():
    nav = navigate_tool(duration_s=2)
    nav.status, nav.error = "failed", "path blocked"
    ex = executor_with(("base", nav), ("speaker", speak_tool(1)))
    replies = [{"tool_calls": [call("navigate_to", place="gift_shop"), call("finish")]},
               {"tool_calls": [call("speak", text="Sorry, the path is blocked."), call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("go to the gift shop")
        [turn] = await h.turns(1)
        await h.close()
        return h, turn

    h, turn = run(scenario)
    notices = [m.content for m in h.brain.requests[1].messages if m.meta == "notice"]
    assert "failed: path blocked" in notices[-1]
    assert turn.reply == "Sorry, the path is blocked."
    assert turn.end_reason == "finished" and turn.steps == 2


def test_the_reply_comes_from_the_speakers_typed_playback_when_its_result_has_none():
    speaker = speak_tool(duration_s=4)
    speaker.speech = False  # a speaker whose result carries no heard_text
    ex = executor_with(("speaker", speaker))
    replies = [{"tool_calls": [call("speak", text="one two three four"), call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("count for me")
        await h.until(lambda: ex.calls("speak"))
        action_id = ex.calls("speak")[0].action_id
        await h.at(1.0)
        h.core.playback(action_id, "playing", "one")
        await h.at(2.0)
        h.core.playback(action_id, "playing", "one two")
        h.say("stop")
        turns = await h.turns(1)
        await h.close()
        return turns[0]

    turn = run(scenario)
    assert turn.end_reason == "interrupted" and turn.reply == "one two"
    assert turn.t_first_audio == 1.0


def test_the_scripted_brain_answers_by_rule_when_an_input_matches():
    from phanthy_agent.brains.scripted import ScriptedBrain
    ex = executor_with(("speaker", speak_tool(1)))
    brain = ScriptedBrain([{"match": "dinosaur", "tool_calls": [call("speak", text="Big bones."), call("finish")]},
                           {"tool_calls": [call("speak", text="Next."), call("finish")]}])

    async def scenario():
        h = Harness(ex, [], brain=brain)
        for text in ("tell me about dinosaurs", "and the cafe?", "more dinosaurs"):
            h.say(text)
            await h.turns(len(h.sink.turns) + 1)
        await h.close()
        return h.sink.turns

    turns = run(scenario)
    assert [t.reply for t in turns] == ["Big bones.", "Next.", "Big bones."]
