"""No turn hangs: step limit, turn timeout, brains that fail, tools the model gets wrong."""

import json

from phanthy_agent.brains.base import FallbackBrain
from phanthy_agent.brains.scripted import ScriptedBrain
from phanthy_agent.core.agent import AgentConfig
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, navigate_tool, speak_tool, stop_tool
from support.virtual_time import run


def robot():
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(1))
    ex.add("speaker", stop_tool())
    ex.add("base", navigate_tool(duration_s=30))
    return ex


def one_turn(replies, config=None, brain=None, ex=None):
    ex = ex or robot()

    async def scenario():
        h = Harness(ex, replies, config, brain=brain)
        h.say("hello robot")
        [turn] = await h.turns(1)
        await h.close()
        return h, turn
    return (ex,) + run(scenario)


def test_a_model_that_never_finishes_hits_the_step_limit():
    looping = [{"tool_calls": [{"name": "cancel_action", "arguments": {"action_id": "nope"}}]}] * 20
    ex, h, turn = one_turn(looping, AgentConfig(max_steps=4))
    assert turn.end_reason == "error" and "step limit (4)" in turn.error and turn.steps == 4


def test_the_turn_timeout_ends_a_turn_stuck_in_a_long_action_and_cancels_it():
    replies = [{"tool_calls": [{"name": "navigate_to", "arguments": {"place": "gift_shop"}},
                               {"name": "finish"}]}]
    ex, h, turn = one_turn(replies, AgentConfig(turn_timeout_s=10))
    assert turn.end_reason == "timeout" and 9.99 <= turn.t_end < 11
    assert ex.cancels and json.loads(json.dumps(turn.tool_calls))[0]["status"] == "cancelled"
    assert "on_interrupt_motion" in ex.hooks_fired()


def test_an_unavailable_brain_without_fallback_ends_the_turn_with_an_error():
    ex, h, turn = one_turn([{"error": "connection refused"}])
    assert turn.end_reason == "error" and "brain unavailable: connection refused" in turn.error


def test_the_fallback_brain_answers_and_the_record_says_so():
    primary = ScriptedBrain([{"error": "endpoint down"}])
    primary.name = "openai"
    fallback = ScriptedBrain([{"content": "I am the backup."}])
    ex, h, turn = one_turn([], brain=FallbackBrain(primary, fallback))
    assert turn.end_reason == "finished" and turn.reply == "I am the backup."
    assert turn.brains == ["scripted"]


def test_tool_errors_go_back_to_the_model_and_the_turn_continues():
    replies = [{"tool_calls": [{"name": "navigate_to", "arguments": "{\"place\": "},
                               {"name": "navigate_to", "arguments": {"place": "atlantis"}},
                               {"name": "navigate_to", "arguments": "[1, 2]"},
                               {"name": "fly", "arguments": {}},
                               {"name": "stop", "arguments": {}}]},
               {"tool_calls": [{"name": "speak", "arguments": {"text": "Sorry, I got confused."}},
                               {"name": "finish"}]}]
    ex, h, turn = one_turn(replies)
    results = [json.loads(m.content) for m in h.brain.requests[1].messages if m.role == "tool"]
    assert "not valid JSON" in results[0]["error"]
    assert '"atlantis" is not one of' in results[1]["error"]
    assert "must be a JSON object" in results[2]["error"]
    assert "unknown tool 'fly'" in results[3]["error"]
    assert "unknown tool 'stop'" in results[4]["error"], "hidden tools are not callable by the model"
    assert not ex.calls("navigate_to") and turn.reply == "Sorry, I got confused."
    tried = [(c["tool"], c["status"]) for c in turn.tool_calls]
    assert tried == [("navigate_to", "rejected")] * 3 + [("fly", "rejected"), ("stop", "rejected"),
                                                          ("speak", "succeeded")], "the record shows what the model tried"
    assert turn.tool_calls[0]["args"] == "{\"place\": " and "not valid JSON" in turn.tool_calls[0]["error"]
    assert turn.tool_calls[1]["args"] == {"place": "atlantis"} and "atlantis" in turn.tool_calls[1]["error"]
    assert "unknown tool 'fly'" in turn.tool_calls[3]["error"]


def test_calls_skipped_for_a_new_message_are_in_the_record():
    replies = [{"delay_s": 0.5, "tool_calls": [{"name": "speak", "arguments": {"text": "Let me think."}},
                                              {"name": "navigate_to", "arguments": {"place": "cafe"}}]},
               {"content": "Going to the shop instead."}]
    ex = robot()

    async def scenario():
        h = Harness(ex, replies)
        h.say("take me to the cafe")
        await h.at(0.3)
        h.say("no wait, the shop")
        [turn] = await h.turns(1)
        await h.close()
        return turn

    turn = run(scenario)
    skipped = [c for c in turn.tool_calls if c["status"] == "skipped"]
    assert [c["tool"] for c in skipped] == ["speak", "navigate_to"] and "said something new" in skipped[0]["error"]
    assert not ex.calls("navigate_to")


def test_a_huge_reply_is_cut_for_speech_at_a_boundary():
    sentence = "The dinosaur hall has many bones. "
    ex, h, turn = one_turn([{"content": sentence * 100}, {"content": "x" * 1_000_000}],
                           AgentConfig(max_spoken_chars=200, max_steps=3))
    said = [c.args["text"] for c in ex.calls("speak")]
    assert said[0] == (sentence * 5).strip(), "whole sentences, within the bound"
    assert len(said) == 1 or len(said[1]) <= 200
