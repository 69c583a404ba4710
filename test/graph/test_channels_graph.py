"""Text channels end to end over real DDS: the web chat page in headless Chromium and Telegram
through a local Bot API server, each a conversation of its own with the agent; a Telegram
visitor cannot make the robot run an operator tool."""

import json
import shutil

from playwright.sync_api import sync_playwright

from phanthy_common.sdk import DriverNode, ToolCall
from support.bot_api import FakeBotApi
from support.ros_harness import spin, wait_for


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def test_a_visitor_chats_with_the_robot_from_the_web_page(graph_factory):
    g = graph_factory([{"content": "The cafe is on the ground floor."}, {"content": "You asked about the cafe."}],
               nodes=("collector", "agent", "speaker", "chat_web"),
               params={"chat_web": {"port": 0}, "speaker": {"sim.ms_per_char": 5.0}})
    port = g.nodes["chat_web"].port
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("#status[data-state=open]", timeout=20_000)
            page.fill("#text", "where is the cafe?")
            page.click("#send")
            page.wait_for_selector(".msg.robot", timeout=30_000)
            assert page.inner_text(".msg.robot") == "The cafe is on the ground floor."
            page.fill("#text", "what did I ask?")
            page.click("#send")
            page.wait_for_function("document.querySelectorAll('.msg.robot').length == 2", timeout=30_000)
        finally:
            browser.close()
    first, second = g.wait_turns(2)
    assert first.session.startswith("web:") and first.session == second.session
    said = [m["content"] for m in g.requests()[1]["messages"] if m["role"] in ("user", "assistant")]
    assert "where is the cafe?" in said, "the second message continues the same conversation"


class PowerDriver(DriverNode):
    def __init__(self, namespace):
        super().__init__("power", namespace=namespace)
        self.shutdowns = 0
        self.add_tool(self.shutdown, "Power the robot off.", roles=["operator"])

    def shutdown(self, call: ToolCall) -> dict:
        self.shutdowns += 1
        return {"status": "powering off"}


def test_telegram_chats_are_separate_and_a_visitor_cannot_run_operator_tools(graph_factory, monkeypatch):
    bot = FakeBotApi().start()
    monkeypatch.setenv("PHANTHY_TELEGRAM_TOKEN", bot.token)
    shutdown = {"tool_calls": [{"name": "shutdown", "arguments": {}}]}
    g = graph_factory([dict(shutdown, match="power off"), {"match": "hello", "content": "Hello!"}],
               nodes=("collector", "agent", "chat_telegram"),
               params={"chat_telegram": {"base_url": bot.url, "allowed_chats": ["100", "200"],
                                         "roles.operators": ["42"], "poll_timeout_s": 1}})
    power = PowerDriver(g.ns)
    group = spin(power)
    try:
        agent = g.nodes["agent"]
        wait_for(lambda: "power" in agent.call_in_core(agent.core.registry.drivers), 30, "power manifest")
        bot.user_writes(200, 7, "power off now")  # a visitor
        g.wait_turns(1)
        assert power.shutdowns == 0
        refusal = [json.loads(m["content"]) for m in g.requests()[1]["messages"] if m["role"] == "tool"]
        assert "not allowed" in refusal[0]["error"]
        bot.user_writes(100, 42, "power off please")  # the operator
        second = g.wait_turns(2)[-1]
        assert power.shutdowns == 1 and second.session == "telegram:100"
        bot.user_writes(200, 7, "hello")
        g.wait_turns(3)
        wait_for(lambda: any(m["text"] == "Hello!" and m["chat_id"] == "200" for m in bot.sent), 20, "the reply")
        sessions = [t.session for t in g.turns.snapshot()]
        assert sessions == ["telegram:200", "telegram:100", "telegram:200"]
    finally:
        group.stop()
        bot.stop()
