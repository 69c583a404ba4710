"""The built-in `wait_for_actions` (the ACP wait without ending the turn) and the tool
declarations `x-confirm` / `x-examples`, on the agent core on virtual time."""

import json

from phanthy_agent.brains.openai_brain import endpoint_tool
from phanthy_agent.core.tools import ToolRegistry
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, FakeTool, navigate_tool, speak_tool
from support.virtual_time import run


def robot():
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(duration_s=1))
    ex.add("base", navigate_tool(duration_s=10))
    return ex


def call(name, **args):
    return {"name": name, "arguments": args}


def test_waiting_for_actions_ends_when_the_walk_ends_and_its_outcome_is_read_next():
    ex = robot()
    replies = [{"tool_calls": [call("navigate_to", place="gift_shop"), call("wait_for_actions")]},
               {"tool_calls": [call("speak", text="Here we are."), call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("take me to the gift shop")
        turns = await h.turns(1)
        await h.close()
        return h, turns

    h, [turn] = run(scenario)
    second = h.brain.requests[1]
    waited = [json.loads(m.content) for m in second.messages if m.role == "tool"][-1]
    assert waited == {"status": "done"}
    [notice] = [m for m in second.messages if m.meta == "notice"]
    assert [(u.tool, u.status) for u in notice.updates] == [("navigate_to", "succeeded")]
    [speech] = ex.calls("speak")
    assert speech.t >= ex.calls("navigate_to")[0].t + 10 - 1e-6
    assert turn.end_reason == "finished"


def test_the_visitor_speaking_ends_the_wait_and_joins_the_turn_without_stopping_the_walk():
    ex = robot()
    replies = [{"tool_calls": [call("navigate_to", place="gift_shop"), call("wait_for_actions")]},
               {"tool_calls": [call("speak", text="Yes, there is a lift."), call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("take me to the gift shop")
        await h.at(3.0)
        h.say("is there a lift on the way")
        turns = await h.turns(1)
        await h.close()
        return h, turns

    h, [turn] = run(scenario)
    waited = [json.loads(m.content) for m in h.brain.requests[1].messages if m.role == "tool"][-1]
    assert waited == {"status": "new input"}
    assert turn.inputs == ["take me to the gift shop", "is there a lift on the way"]
    assert not ex.cancels and [c["status"] for c in turn.tool_calls if c["tool"] == "navigate_to"] == ["succeeded"]


def test_confirm_and_examples_reach_the_brains_and_the_endpoint_reads_them_as_prose():
    tool = FakeTool({"name": "erase", "description": "Erase the guest book.", "acting": True,
                     "x-confirm": True, "x-examples": ["wipe the guest book"]})
    registry = ToolRegistry()
    assert registry.update_manifest("book", json.dumps([tool.decl])) == []
    [spec] = [t.spec() for t in registry.visible_tools() if t.visible_name == "erase"]
    assert spec["function"]["x-confirm"] is True and spec["function"]["x-examples"] == ["wipe the guest book"]
    sent = endpoint_tool(spec)["function"]
    assert not [k for k in sent if k.startswith("x-")]
    assert sent["description"] == "Erase the guest book. Before calling it, ask the visitor to confirm."


def test_too_many_examples_are_refused_with_the_declaration():
    tool = {"name": "erase", "x-examples": ["x"] * 51}
    [error] = ToolRegistry().update_manifest("book", json.dumps([tool]))
    assert "x-examples" in error
