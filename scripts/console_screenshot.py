"""Makes docs/console.png: the console of an in-process robot (scripted brain, simulated speaker)
in headless Chromium, after a typed turn, with two people speaking (speaker ids), an
intervention with its evidence and a fleet of three robots (this one, one speaking, one gone),
taken while the robot speaks.

    .venv/bin/python scripts/console_screenshot.py [docs/console.png]
"""

import pathlib
import sys
import tempfile
import time

import rclpy
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "test"), str(ROOT / "test" / "graph")]
from phanthy.msg import Intervention, PeerAnnounce, Transcript  # noqa: E402
from phanthy_common.convert import header  # noqa: E402
from support.graph import RELIABLE, Graph  # noqa: E402
from test_channels_graph import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (test/graph is not a package)

LONG = ("The tower was finished in March 1889 for the World's Fair; it was the tallest structure in "
        "the world for forty-one years.")


def main() -> None:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "console.png")
    rclpy.init()
    g = Graph(pathlib.Path(tempfile.mkdtemp()),
              [{"content": "The cafe is on the ground floor, next to the shop."}, {"content": LONG}],
              nodes=("collector", "agent", "speaker", "face", "chat_web", "health", "peers"),
              params={"chat_web": {"port": 0, "peers.self_id": "guide-1"}, "speaker": {"sim.ms_per_char": 60.0},
                      "agent": {"peers.self_id": "guide-1"},
                      "peers": {"peer_id": "guide-1", "description": "museum guide robot, main entrance",
                                "console_url": "https://guide-1.local:8765/console"}})
    others = g.probe.create_publisher(PeerAnnounce, "/phanthy/peers", RELIABLE)
    words = g.probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
    interventions = g.probe.create_publisher(Intervention, "phanthy/interventions", RELIABLE)

    def heard(speaker: str, text: str, final: bool) -> None:
        words.publish(Transcript(header=header(time.time()), text=text, is_final=final, audio_duration_ms=1800,
                                 confidence=0.82, speaker_id=speaker, language="en-US", source="asr"))
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1050})
            page.goto(f"http://127.0.0.1:{g.nodes['chat_web'].port}/console")
            page.wait_for_selector("#conn[data-state=open]", timeout=20_000)
            others.publish(PeerAnnounce(header=header(time.time()), peer_id="guide-3", ttl_s=1.0,
                                        description="guide robot, first floor", agent_state="idle",
                                        voice_state="LISTENING"))  # announced once: gone by the picture
            page.fill("#say", "where is the cafe?")
            page.keyboard.press("Enter")
            g.wait_turns(1)
            interventions.publish(Intervention(
                header=header(time.time()), id="iv1", kind="wrong", claim="the tower was built in 1920",
                text="It was finished in 1889.", citations=["tower.md:3"],
                evidence=["The tower was completed in March 1889."], state="delivered", turns_late=1))
            heard("speaker_1", "I think the tower was built in 1920.", True)
            page.wait_for_selector("body[data-playback=playing]", timeout=30_000)
            time.sleep(2.0)
            heard("speaker_2", "oh so it is older than", False)
            others.publish(PeerAnnounce(header=header(time.time()), peer_id="guide-2", ttl_s=6.0,
                                        description="guide robot, cafe", agent_state="speaking",
                                        voice_state="PLAYING", console_url="https://guide-2.local:8765/console"))
            page.wait_for_selector("#fleet tr[data-peer=guide-3][data-status=gone]", timeout=20_000)
            page.wait_for_selector("#fleet tr[data-peer=guide-2][data-status=online]", timeout=20_000)
            page.screenshot(path=str(out), full_page=True)
            browser.close()
    finally:
        g.close()
        rclpy.try_shutdown()
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
