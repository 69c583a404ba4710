"""The operator's console in headless Chromium over real DDS: it renders the states from the
topics, a turn's timeline appears (and replays), what the operator types reaches the agent as a
visitor's words, the stop button (and Escape) stops the robot speaking, speaker ids and
interventions with their evidence are shown."""

import contextlib
import time

import pytest
from playwright.sync_api import sync_playwright

from phanthy.msg import Intervention, Transcript
from phanthy_common.convert import header
from support.graph import RELIABLE, calls
from test_channels_graph import CHROMIUM, CHROMIUM_ARGS

LONG = ("Welcome to the museum. Our collection covers four floors: the dinosaur hall, the gallery of "
        "minerals, the history of flight and the garden of the senses, with a cafe on the ground floor.")


@contextlib.contextmanager
def console_page(g):
    """Graph g's console, open and connected, in headless Chromium."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"http://127.0.0.1:{g.nodes['chat_web'].port}/console")
            page.wait_for_selector("#conn[data-state=open]", timeout=20_000)
            yield page
        finally:
            browser.close()


@pytest.fixture
def console(graph_factory):
    g = graph_factory([{"content": "The cafe is on the ground floor."}, {"content": LONG}],
                      nodes=("collector", "agent", "speaker", "face", "chat_web", "health"),
                      params={"chat_web": {"port": 0}, "speaker": {"sim.ms_per_char": 60.0}})
    with console_page(g) as page:
        yield g, page


def test_the_console_shows_the_states_and_a_typed_turn_with_its_timeline(console):
    g, page = console
    page.wait_for_selector("body[data-agent-state=idle][data-voice-state=STOPPED]", timeout=20_000)
    page.wait_for_selector(f"#health tr[data-node='{g.ns}/speaker'][data-level=OK]", timeout=20_000)
    page.keyboard.press("/")  # the keyboard reaches the visitor's input
    page.keyboard.type("where is the cafe?")
    page.keyboard.press("Enter")
    [turn] = g.wait_turns(1)
    assert turn.inputs == ["where is the cafe?"] and turn.trigger_source == "speech"
    page.wait_for_selector("#hearing li:has-text('where is the cafe?')", timeout=20_000)
    page.wait_for_selector("#timeline .bar.succeeded", timeout=20_000)
    assert "speak succeeded" in page.inner_text("#timeline")
    assert page.inner_text("#said") == "The cafe is on the ground floor."
    row = page.wait_for_selector(f"#turns li[data-turn='{turn.turn_id}']", timeout=20_000)
    assert "The cafe is on the ground floor." in row.inner_text()
    page.wait_for_selector("#latency .spark", timeout=20_000)
    page.focus(f"#turns li[data-turn='{turn.turn_id}'] button.replay")
    page.keyboard.press("Enter")  # replay the finished turn's timeline
    page.wait_for_selector(f"body[data-replayed='{turn.turn_id}']", timeout=20_000)
    assert "speak succeeded" in page.inner_text("#timeline")


def test_the_stop_button_stops_the_robot_speaking(console):
    g, page = console
    page.fill("#say", "hello")
    page.click("#send")
    g.wait_turns(1)
    page.fill("#say", "tell me about the museum")
    page.click("#send")
    page.wait_for_selector("body[data-playback=playing]", timeout=20_000)
    time.sleep(1.0)  # a few words in
    page.click("#stop")
    second = g.wait_turns(2)[-1]
    speech = [c for c in calls(second) if c["tool"] == "speak"]
    assert speech and speech[0]["status"] == "cancelled"
    assert second.reply and LONG.startswith(second.reply) and len(second.reply) < len(LONG)
    page.wait_for_selector("body:not([data-playback=playing])", timeout=20_000)
    assert page.inner_text("#said") == second.reply, "the page shows what was heard"


def test_speaker_ids_and_interventions_with_their_evidence_are_shown(console):
    g, page = console
    words = g.probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
    interventions = g.probe.create_publisher(Intervention, "phanthy/interventions", RELIABLE)
    time.sleep(0.5)  # discovery of the new publishers
    words.publish(Transcript(header=header(time.time()), text="the tower was built in", is_final=False,
                             audio_duration_ms=900, confidence=0.7, speaker_id="speaker_2", language="en-US",
                             source="asr"))
    page.wait_for_selector("#partial:has-text('speaker_2: the tower was built in')", timeout=20_000)
    interventions.publish(Intervention(
        header=header(time.time()), id="iv1", kind="wrong", claim="the tower was built in 1920",
        text="It was finished in 1889.", citations=["tower.md:3"],
        evidence=["The tower was completed in March 1889."], state="hand_raised", turns_late=1))
    item = page.wait_for_selector("#interventions li[data-id=iv1]", timeout=20_000)
    text = item.inner_text()
    assert "wrong - hand_raised" in text and "tower.md:3 The tower was completed in March 1889." in text
    interventions.publish(Intervention(header=header(time.time()), id="iv1", kind="wrong",
                                       claim="the tower was built in 1920", text="It was finished in 1889.",
                                       citations=["tower.md:3"], evidence=["The tower was completed in March 1889."],
                                       state="delivered", turns_late=1))
    page.wait_for_selector("#interventions li[data-id=iv1]:has-text('wrong - delivered')", timeout=20_000)
    assert page.locator("#interventions li").count() == 1, "one line per intervention, its state updated"
