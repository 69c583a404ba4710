"""The operator's console core over real sockets (an aiohttp client as the browser): who may
open it, what a page that opens late catches up on, and its commands."""

import asyncio
import json

import aiohttp

from phanthy_agent.channels.console import ConsoleHub, ConsoleState, console_message
from phanthy_agent.channels.web import WebChat


def event(turn, kind, t):
    return ("event", t, {"turn_id": turn, "kind": kind})


def test_a_late_page_gets_the_latest_state_and_the_finished_turns_with_their_events():
    state = ConsoleState(keep_turns=2)
    for kind, t, data in [("state", 1.0, {"state": "thinking"}), ("state", 2.0, {"state": "idle"}),
                          event("a", "turn_started", 1.0), event("a", "turn_ended", 2.0),
                          ("turn", 2.0, {"turn_id": "a"}), event("b", "turn_started", 3.0)]:
        state.apply(kind, t, data)
    replay = [(m["type"], m["data"].get("turn_id") or m["data"].get("state")) for m in state.snapshot()]
    assert replay == [("event", "a"), ("event", "a"), ("turn", "a"), ("event", "b"), ("state", "idle")]


def test_a_late_page_gets_the_latest_fleet_only():
    state = ConsoleState()
    state.apply("fleet", 1.0, {"peers": [{"peer_id": "robot-b", "online": True}]})
    state.apply("fleet", 2.0, {"peers": [{"peer_id": "robot-b", "online": False}]})
    assert [(m["type"], m["data"]["peers"][0]["online"]) for m in state.snapshot()] == [("fleet", False)]


def test_the_console_keeps_a_bounded_history():
    state = ConsoleState(keep_turns=3, keep_items=5)
    for i in range(50):
        state.apply(*event(f"t{i}", "turn_started", i))
        state.apply("turn", i, {"turn_id": f"t{i}"})
        state.apply("transcript", i, {"text": str(i)})
        state.apply("intervention", i, {"id": str(i % 7)})
    assert len(state.turns) == 3 and len(state.events) <= 4
    assert len(state.transcripts) == 5 and len(state.interventions) == 5


def test_headers_become_a_stamp():
    data = console_message({"header": {"stamp": {"sec": 10, "nanosec": 500_000_000}, "frame_id": ""}, "text": "hi"})
    assert data == {"text": "hi", "stamp": 10.5}


def test_commands_say_and_stop_reach_their_handlers_and_bad_ones_are_answered():
    said, stops = [], []
    hub = ConsoleHub(said.append, lambda: stops.append(1) or "speaker/stop")
    assert hub.command(json.dumps({"type": "say", "text": "  where is the cafe? "}))["what"] == "say"
    assert hub.command(json.dumps({"type": "stop"})) == {"type": "ack", "what": "stop", "result": "speaker/stop"}
    assert said == ["where is the cafe?"] and stops == [1]
    for bad in ("not json", json.dumps({"type": "say", "text": ""}), json.dumps({"type": "say", "text": "x" * 5000}),
                json.dumps({"type": "reboot"}), json.dumps([1])):
        assert hub.command(bad)["type"] == "error"
    assert said == ["where is the cafe?"], "nothing invalid was said"


def serve(web, scenario):
    async def run():
        port = await web.start()
        try:
            async with aiohttp.ClientSession() as http:
                await scenario(http, f"http://127.0.0.1:{port}")
        finally:
            await web.stop()
    asyncio.run(run())


def test_the_console_needs_an_operator_token_once_the_server_has_credentials():
    hub = ConsoleHub(lambda text: None, lambda: "")
    web = WebChat(lambda *a: None, port=0, token="visitors", role_tokens={"operator": "ops"}, console=hub)

    async def scenario(http, base):
        assert (await http.get(f"{base}/console")).status == 403
        assert (await http.get(f"{base}/console?token=visitors")).status == 403, "the chat's token is not enough"
        page = await http.get(f"{base}/console?token=ops")
        assert page.status == 200 and "phanthy console" in await page.text()
        refused = await http.get(f"{base}/console/ws?token=ops", headers={"Origin": "http://evil.example"})
        assert refused.status == 403
    serve(web, scenario)


def test_a_page_sees_what_happened_before_it_opened_then_live_messages_and_can_stop_the_robot():
    stops = []
    hub = ConsoleHub(lambda text: None, lambda: stops.append(1) or "speaker/stop")
    web = WebChat(lambda *a: None, port=0, console=hub)  # loopback, no credentials: open, as the terminal

    async def scenario(http, base):
        hub.publish("state", 1.0, {"state": "thinking"})
        await asyncio.sleep(0.05)
        async with http.ws_connect(f"{base}/console/ws") as ws:
            first = json.loads((await ws.receive()).data)
            assert first == {"type": "state", "stamp": 1.0, "data": {"state": "thinking"}}
            assert json.loads((await ws.receive()).data) == {"type": "live"}
            hub.publish("state", 2.0, {"state": "idle"})
            assert json.loads((await ws.receive()).data)["data"] == {"state": "idle"}
            await ws.send_str(json.dumps({"type": "stop"}))
            assert json.loads((await ws.receive()).data)["result"] == "speaker/stop"
        assert stops == [1]
    serve(web, scenario)
