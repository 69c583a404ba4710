"""The `openai` brain over real HTTP against a local OpenAI-compatible test server."""

import asyncio
import json
import logging
import socket
import time

import pytest

from phanthy_agent.brains.base import BrainRequest, BrainUnavailable, FallbackBrain, Message, ToolCallRequest
from phanthy_agent.brains.openai_brain import OpenAIBrain
from phanthy_agent.brains.scripted import ScriptedBrain
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, navigate_tool
from support.openai_server import OpenAIServer

NAV_SPEC = {"type": "function", "function": {
    "name": "navigate_to", "description": "Walk to a named place.",
    "parameters": {"type": "object", "properties": {"place": {"type": "string"}}, "required": ["place"]}}}


def run(coro_factory, timeout_s: float = 30.0):
    """Run on a normal asyncio loop (real HTTP is involved), with a safety timeout."""
    async def main():
        return await asyncio.wait_for(coro_factory(), timeout_s)
    return asyncio.run(main())


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(name, **args):
    return {"name": name, "arguments": args}


def user(text):
    return BrainRequest([Message("system", "You are a museum guide."), Message("user", text, meta="input")],
                        [NAV_SPEC])


@pytest.fixture
def server():
    with OpenAIServer(model="test-model") as s:
        yield s


async def step_once(brain: OpenAIBrain, request: BrainRequest):
    try:
        return await brain.step(request)
    finally:
        await brain.close()


def test_streamed_text_arrives_in_several_deltas_the_first_before_the_reply_completes(server):
    text = "Hello there, welcome to the natural history museum!"
    server.add({"content": text, "pause_after_first_delta": True})
    seen = []  # (delta, responses the server had completed when it arrived)

    def on_text(delta):
        seen.append((delta, server.completed))
        server.resume.set()  # only now may the server send the rest of the reply

    request = user("hi")
    request.on_text = on_text
    reply = run(lambda: step_once(OpenAIBrain(server.base_url, "test-model"), request))
    assert reply.content == text and reply.tool_calls == [] and reply.brain == "openai"
    assert len(seen) >= 3
    assert "".join(d for d, _ in seen) == text
    assert seen[0][1] == 0, "the first delta must reach on_text while the reply is still streaming"
    assert server.completed == 1


def test_tool_calls_come_back_with_raw_arguments_even_invalid_json(server):
    broken = '{"text": "unterminated'
    server.add({"content": "Follow me.", "tool_calls": [call("navigate_to", place="dinosaur_hall"),
                                                       {"name": "speak", "arguments": broken}]})
    reply = run(lambda: step_once(OpenAIBrain(server.base_url, "test-model"), user("dinosaurs?")))
    assert reply.content == "Follow me."
    assert [c.name for c in reply.tool_calls] == ["navigate_to", "speak"]
    assert json.loads(reply.tool_calls[0].arguments) == {"place": "dinosaur_hall"}
    assert reply.tool_calls[1].arguments == broken
    ids = [c.id for c in reply.tool_calls]
    assert all(ids) and len(set(ids)) == 2


def test_the_request_carries_model_temperature_messages_and_tools(server):
    messages = [Message("system", "You are a museum guide."),
                Message("user", "status: idle", meta="status"),
                Message("user", "take me to the dinosaur hall", meta="input"),
                Message("assistant", "", tool_calls=[ToolCallRequest("call_a", "navigate_to",
                                                                     '{"place": "dinosaur_hall"}')]),
                Message("tool", '{"status": "started"}', tool_call_id="call_a")]

    async def scenario():
        brain = OpenAIBrain(server.base_url, "my-model", temperature=0.7, max_tokens=123)
        try:
            await brain.step(BrainRequest(messages, [NAV_SPEC]))
            await brain.step(BrainRequest(messages[:3], []))
        finally:
            await brain.close()

    run(scenario)
    first, second = server.requests
    assert first["model"] == "my-model" and first["temperature"] == 0.7 and first["max_tokens"] == 123
    assert first["stream"] is True
    assert [m["role"] for m in first["messages"]] == ["system", "user", "user", "assistant", "tool"]
    assert first["messages"][3]["tool_calls"][0]["id"] == "call_a"
    assert first["messages"][3]["tool_calls"][0]["function"] == {"name": "navigate_to",
                                                                 "arguments": '{"place": "dinosaur_hall"}'}
    assert first["messages"][4] == {"role": "tool", "tool_call_id": "call_a", "content": '{"status": "started"}'}
    assert first["tools"] == [NAV_SPEC]
    assert "tools" not in second, "no tools: the parameter is omitted"


def test_a_500_is_retried_then_raises_brain_unavailable(server):
    server.add(*[{"http_status": 500, "retry_after_ms": 10}] * 3)
    with pytest.raises(BrainUnavailable, match="500"):
        run(lambda: step_once(OpenAIBrain(server.base_url, "m", max_retries=2), user("hi")))
    assert len(server.requests) == 3


def test_a_500_then_success_is_answered_by_the_retry(server):
    server.add({"http_status": 503, "retry_after_ms": 10}, {"content": "Hello!"})
    reply = run(lambda: step_once(OpenAIBrain(server.base_url, "m", max_retries=2), user("hi")))
    assert reply.content == "Hello!" and len(server.requests) == 2


def test_an_auth_error_is_not_retried_and_raises_brain_unavailable(server):
    server.add({"http_status": 401, "error": "invalid api key"})
    with pytest.raises(BrainUnavailable, match="401"):
        run(lambda: step_once(OpenAIBrain(server.base_url, "m", max_retries=2), user("hi")))
    assert len(server.requests) == 1


def test_a_hanging_server_raises_brain_unavailable_after_the_timeout(server):
    server.add({"hang": True})
    t0 = time.monotonic()
    with pytest.raises(BrainUnavailable, match="did not answer"):
        run(lambda: step_once(OpenAIBrain(server.base_url, "m", timeout_s=0.5, max_retries=0), user("hi")))
    elapsed = time.monotonic() - t0
    assert 0.4 <= elapsed < 3.0, elapsed


def test_connection_refused_raises_brain_unavailable():
    url = f"http://127.0.0.1:{closed_port()}/v1"
    t0 = time.monotonic()
    with pytest.raises(BrainUnavailable, match="cannot reach"):
        run(lambda: step_once(OpenAIBrain(url, "m", timeout_s=2, max_retries=0), user("hi")))
    assert time.monotonic() - t0 < 2.0


def test_a_malformed_response_raises_brain_unavailable(server):
    server.add({"malformed": True})
    with pytest.raises(BrainUnavailable, match="broken reply"):
        run(lambda: step_once(OpenAIBrain(server.base_url, "m", max_retries=0), user("hi")))


def test_cancelling_the_step_aborts_the_request_promptly(server):
    server.add({"delay_s": 30, "content": "too late"}, {"content": "next answer"})

    async def scenario():
        brain = OpenAIBrain(server.base_url, "m", timeout_s=60, max_retries=0)
        try:
            task = asyncio.ensure_future(brain.step(user("hi")))
            while not server.requests:  # the request reached the server; it is now delaying
                await asyncio.sleep(0.01)
            t0 = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            cancel_s = time.monotonic() - t0
            after = await brain.step(user("still there?"))  # the client is still usable
            return cancel_s, after
        finally:
            await brain.close()

    cancel_s, after = run(scenario)
    assert cancel_s < 0.5
    assert after.content == "next answer"


def test_a_missing_api_key_uses_a_placeholder_and_says_so(server, monkeypatch, caplog):
    monkeypatch.delenv("PHANTHY_TEST_NO_SUCH_KEY", raising=False)
    server.add({"content": "ok"})
    with caplog.at_level(logging.INFO, logger="phanthy_agent.brains.openai_brain"):
        reply = run(lambda: step_once(OpenAIBrain(server.base_url, "m", api_key_env="PHANTHY_TEST_NO_SUCH_KEY"),
                                      user("hi")))
    assert reply.content == "ok"
    assert [r for r in caplog.records if "PHANTHY_TEST_NO_SUCH_KEY" in r.getMessage()]


def test_agent_core_runs_a_turn_with_the_openai_brain(server):
    server.add({"tool_calls": [call("navigate_to", place="dinosaur_hall")]},
               {"tool_calls": [call("finish")]})
    ex = FakeExecutor()
    ex.add("base", navigate_tool(duration_s=0.05))

    async def scenario():
        brain = OpenAIBrain(server.base_url, "test-model", timeout_s=10)
        h = Harness(ex, [], brain=brain)
        try:
            h.say("take me to the dinosaur hall")
            [turn] = await h.turns(1, timeout=20)
            return turn
        finally:
            await h.close()
            await brain.close()

    turn = run(scenario)
    assert turn.end_reason == "finished", turn.error
    assert [c["tool"] for c in turn.tool_calls] == ["navigate_to"]
    assert turn.tool_calls[0]["args"] == {"place": "dinosaur_hall"}
    assert turn.brains == ["openai"]
    assert len(ex.calls("navigate_to")) == 1
    # the second model step saw the first call's result, tied to its id
    first, second = server.requests[:2]
    assert first["messages"][-1] == {"role": "user", "content": "take me to the dinosaur hall"}
    assert "navigate_to" in [t["function"]["name"] for t in first["tools"]]
    call_id = second["messages"][-2]["tool_calls"][0]["id"]
    assert second["messages"][-1]["role"] == "tool" and second["messages"][-1]["tool_call_id"] == call_id


def test_fallback_brain_answers_when_the_endpoint_is_down():
    url = f"http://127.0.0.1:{closed_port()}/v1"
    ex = FakeExecutor()
    ex.add("base", navigate_tool(duration_s=0.05))

    async def scenario():
        direct = FallbackBrain(OpenAIBrain(url, "m", max_retries=0),
                               ScriptedBrain([{"content": "I can still help."}]))
        reply = await direct.step(user("hi"))
        await direct.close()
        brain = FallbackBrain(OpenAIBrain(url, "m", max_retries=0),
                              ScriptedBrain([{"tool_calls": [call("navigate_to", place="gift_shop")]},
                                             {"tool_calls": [call("finish")]}]))
        h = Harness(ex, [], brain=brain)
        try:
            h.say("where is the gift shop")
            [turn] = await h.turns(1, timeout=20)
            return reply, turn
        finally:
            await h.close()
            await brain.close()

    reply, turn = run(scenario)
    assert reply.brain == "scripted" and reply.content == "I can still help."
    assert turn.end_reason == "finished", turn.error
    assert turn.brains == ["scripted"]
    assert [c["tool"] for c in turn.tool_calls] == ["navigate_to"]
