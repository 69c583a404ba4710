"""Text channel cores over real sockets: the web chat (aiohttp client as the browser) and the
Telegram adapter against a local Bot API server."""

import asyncio
import json
import time

import aiohttp
import pytest

from phanthy_agent.channels.access import AccessPolicy
from phanthy_agent.channels.telegram import REFUSAL, TelegramChannel
from phanthy_agent.channels.web import WebChat
from support.bot_api import FakeBotApi


def test_roles_come_from_the_policy_and_bad_roles_are_refused():
    policy = AccessPolicy.build("visitor", operators=["7"], admins=["9", ""])
    assert [policy.role_of(s) for s in ("1", "7", "9")] == ["visitor", "operator", "admin"]
    with pytest.raises(ValueError, match="default role"):
        AccessPolicy.build("root")


def test_the_web_chat_is_not_exposed_without_a_token():
    with pytest.raises(ValueError, match="without a token"):
        WebChat(lambda *a: None, host="0.0.0.0")


def test_web_chat_messages_in_replies_out_and_bad_input_answered():
    got = []

    async def scenario():
        web = WebChat(lambda *a: got.append(a), port=0, token="s3cret")
        port = await web.start()
        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            assert (await http.get(f"{base}/")).status == 403
            page = await http.get(f"{base}/?token=s3cret")
            assert page.status == 200 and "Talk to the robot" in await page.text()
            assert (await http.get(f"{base}/ws?chat=abc&token=nope")).status == 403
            assert (await http.get(f"{base}/ws?chat=../x&token=s3cret")).status == 400
            async with http.ws_connect(f"{base}/ws?chat=abc&token=s3cret") as ws:
                await ws.send_str(json.dumps({"text": "  where is the cafe?  "}))
                await ws.send_str("not json")
                assert "error" in json.loads((await ws.receive()).data)
                await ws.send_str(json.dumps({"text": "x" * 5000}))
                assert "longer than" in json.loads((await ws.receive()).data)["error"]
                assert web.send("abc", "Downstairs.") == 1 and web.send("other", "nobody") == 0
                assert json.loads((await ws.receive()).data) == {"from": "robot", "text": "Downstairs."}
        await web.stop()

    asyncio.run(scenario())
    assert got == [("abc", "abc", "visitor", "where is the cafe?")]


def chat_roles(web, attempts):
    """Each attempt: (query, headers); returns the HTTP status or the role the message carried."""
    got, outcomes = [], []
    web.on_message = lambda *a: got.append(a)

    async def scenario():
        port = await web.start()
        async with aiohttp.ClientSession() as http:
            for query, headers in attempts:
                url = f"http://127.0.0.1:{port}/ws?{query}"
                headers = {k: v.replace("{port}", str(port)) for k, v in headers.items()}
                try:
                    async with http.ws_connect(url, headers=headers) as ws:
                        await ws.send_str(json.dumps({"text": "power off"}))
                        await ws.close()
                    await wait_async(lambda: len(got) == len([o for o in outcomes if isinstance(o, str)]) + 1)
                    outcomes.append(got[-1][2])
                except aiohttp.WSServerHandshakeError as exc:
                    outcomes.append(exc.status)
        await web.stop()

    asyncio.run(scenario())
    return outcomes


async def wait_async(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        await asyncio.sleep(0.01)


def test_web_chat_rights_come_from_a_role_token_never_from_the_chat_id():
    web = WebChat(None, port=0, role_tokens={"operator": "op-secret", "admin": "adm-secret"})
    assert chat_roles(web, [("chat=boss", {}), ("chat=boss&token=guess", {}), ("chat=x&token=op-secret", {}),
                            ("chat=y&token=adm-secret", {})]) == ["visitor", "visitor", "operator", "admin"]
    with pytest.raises(ValueError, match="tokens.operator"):
        WebChat(None, policy=AccessPolicy.build("visitor", operators=["boss"]))
    with pytest.raises(ValueError, match="without a token"):
        WebChat(None, policy=AccessPolicy.build("operator"))
    with pytest.raises(ValueError, match="must all differ"):
        WebChat(None, token="same", role_tokens={"operator": "same"})


def test_web_chat_refuses_foreign_origins_and_rebound_host_names():
    web = WebChat(None, port=0, allowed_origins=["https://console.example"])
    outcomes = chat_roles(web, [
        ("chat=a", {"Origin": "http://evil.example"}),
        ("chat=a", {"Origin": "null"}),
        ("chat=a", {"Origin": "http://evil.example", "Host": "evil.example:8765"}),  # DNS rebinding
        ("chat=b", {}),  # not a browser
        ("chat=c", {"Origin": "https://console.example"}),
        ("chat=d", {"Origin": "http://127.0.0.1:{port}"}),  # the page's own (the browser test in
    ])                                                      # test_channels_graph opens it for real)
    assert outcomes == [403, 403, 403, "visitor", "visitor", "visitor"]


def wait_until(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.02)


@pytest.fixture
def bot_api():
    server = FakeBotApi().start()
    yield server
    server.stop()


def run_telegram(bot_api, policy, script):
    got = []

    async def scenario():
        channel = TelegramChannel(bot_api.token, lambda *a: got.append(a), policy, base_url=bot_api.url,
                                  poll_timeout_s=1, sleep=lambda s: asyncio.sleep(min(s, 0.05)))
        task = asyncio.ensure_future(channel.run())
        await asyncio.get_running_loop().run_in_executor(None, script, channel, got)
        channel.stop()
        await asyncio.wait_for(task, 10)

    asyncio.run(scenario())
    return got


def test_telegram_serves_allowlisted_chats_with_their_roles_and_refuses_others(bot_api):
    policy = AccessPolicy.build("visitor", operators=["42"], allowed_chats=["100", "200"])

    def script(channel, got):
        bot_api.user_writes(100, 42, "status please")
        bot_api.user_writes(200, 7, "hello robot")
        bot_api.user_writes(300, 8, "let me in")
        bot_api.user_writes(300, 8, "please")
        bot_api.user_writes(200, 7, sticker={"file_id": "x"})
        bot_api.raw_update({"bogus": True})
        wait_until(lambda: len(got) == 2 and len(bot_api.sent) == 2)
        channel.send("100", "All systems fine. " * 300)  # longer than one Telegram message
        wait_until(lambda: len(bot_api.sent) == 4)

    got = run_telegram(bot_api, policy, script)
    assert got == [("100", "42", "operator", "status please"), ("200", "7", "visitor", "hello robot")]
    assert bot_api.sent[0] == {"chat_id": "300", "text": REFUSAL}, "refused once, not per message"
    assert bot_api.sent[1]["chat_id"] == "200" and "text" in bot_api.sent[1]["text"]
    assert [len(m["text"]) for m in bot_api.sent[2:]] == [4096, 18 * 300 - 4096]


def test_telegram_rides_out_api_errors(bot_api):
    bot_api.fail_next = 3

    def script(channel, got):
        bot_api.user_writes(100, 1, "are you there")
        wait_until(lambda: got)

    got = run_telegram(bot_api, AccessPolicy.build("visitor", allowed_chats=["100"]), script)
    assert got == [("100", "1", "visitor", "are you there")]


def test_telegram_needs_a_token():
    with pytest.raises(ValueError, match="token"):
        TelegramChannel("", lambda *a: None, AccessPolicy())
