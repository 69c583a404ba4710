"""Role-based tool access: tools declare `x-roles`; a visitor cannot make the robot run an
operator tool, whatever the model does."""

import json

from phanthy_agent.core.events import Event
from phanthy_agent.core.tools import ToolRegistry
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, FakeTool, speak_tool, stop_tool
from support.virtual_time import run


def shutdown_tool():
    return FakeTool({"name": "shutdown", "description": "Power the robot off.", "x-roles": ["operator"],
                     "parameters": {"type": "object", "properties": {}}})


def executor():
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(1))
    ex.add("speaker", stop_tool())
    ex.add("power", shutdown_tool())
    return ex


SHUTDOWN = {"tool_calls": [{"name": "shutdown", "arguments": {}}]}


def chat(text, role, chat_id="ops"):
    return Event(source="chat", priority=8, text=text, session=f"web:{chat_id}", sender=chat_id, role=role)


def tool_results(request):
    return [json.loads(m.content) for m in request.messages if m.role == "tool"]


def scenario_with(*events, steer=None, replies=(SHUTDOWN,)):
    ex = executor()

    async def scenario():
        h = Harness(ex, list(replies))
        for event in events:
            h.core.submit(event)
        if steer is not None:
            await h.at(0.001)
            h.core.submit(steer)
        await h.turns(1)
        await h.close()
        return h
    return ex, run(scenario)


def test_a_visitor_cannot_run_an_operator_tool():
    ex, h = scenario_with(Event(source="speech", priority=10, kind="transcript", text="turn yourself off",
                                audio_duration_ms=1200))
    assert ex.calls("shutdown") == []
    [refusal] = tool_results(h.brain.requests[1])
    assert "not allowed" in refusal["error"] and "visitor" in refusal["error"]


def test_an_operator_can_and_an_admin_always_can():
    for role in ("operator", "admin"):
        ex, h = scenario_with(chat("power off please", role))
        assert len(ex.calls("shutdown")) == 1, role


def test_a_visitor_steering_into_an_operators_turn_does_not_borrow_its_rights():
    ask = {"delay_s": 1.0, "tool_calls": [{"name": "speak", "arguments": {"text": "Are you sure?"}}]}
    ex, h = scenario_with(chat("power off please", "operator"),
                          # a visitor writing in the same (group) chat: same session, another sender
                          steer=Event(source="chat", priority=8, text="yes do it", session="web:ops",
                                      sender="guest", role="visitor"),
                          replies=(ask, SHUTDOWN))
    assert ex.calls("shutdown") == []
    assert h.sink.turns[0].inputs == ["power off please", "yes do it"]


def test_a_manifest_with_an_unknown_role_is_rejected():
    ex = FakeExecutor()
    ex.add("power", FakeTool({"name": "shutdown", "x-roles": ["superuser"]}))

    [error] = ToolRegistry().update_manifest("power", ex.manifests()["power"])
    assert "unknown roles ['superuser']" in error
