"""The fleet on one console, measured as an operator sees it: robot B's agent state changes, how
long until robot A's console shows it. Robot A (`phanthy node chat_web`, namespace /robot_a) and
robot B (`phanthy node peers`, /robot_b) run in processes of their own on one ROS domain; this
script plays robot B's agent (it publishes AgentState on /robot_b/phanthy/agent_state, latched,
as the agent does) and watches A's console in headless Chromium.

    .venv/bin/python bench/fleet_console.py [--changes 30] [--gap 1.0]

- state change -> A's page: from B's AgentState publish (time.time()) to the moment A's page
  changes robot B's row (Date.now() in a MutationObserver; the same machine's clock): B's peers
  driver announces the change at once (rate limit 0.25 s; the changes here are `--gap` apart),
  A's console bridge pushes the fleet to the page;
- gone: from robot B's process ending to A's page showing B as gone (6 s, B's default ttl_s,
  after B's last announcement, which came up to announce_period_s 2 s before it ended; the
  bridge checks every second).
"""

import argparse
import pathlib
import subprocess
import sys
import time

import rclpy
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "test"), str(ROOT / "bench")]
from console import free_port, open_console  # noqa: E402
from phanthy.msg import AgentState  # noqa: E402
from phanthy_common.convert import header  # noqa: E402
from phanthy_common.qos import LATCHED  # noqa: E402
from stats import summary  # noqa: E402
from support.ros_harness import spin, wait_for  # noqa: E402

PHANTHY = str(ROOT / ".venv" / "bin" / "phanthy")
WATCH = """() => { window.__changes = [];
  new MutationObserver(() => { const tr = document.querySelector("#fleet tr[data-peer=robot-b]");
    if (tr && tr.dataset.agentState !== window.__last) { window.__last = tr.dataset.agentState;
      window.__changes.push([Date.now(), tr.dataset.agentState, tr.dataset.status]); } })
  .observe(document.getElementById("fleet"), {subtree: true, childList: true, attributes: true}); }"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between B's state changes")
    args = parser.parse_args()
    port = free_port()
    robot_a = subprocess.Popen([PHANTHY, "node", "chat_web", "--ros-args", "-r", "__ns:=/robot_a",
                                "-p", f"port:={port}", "-p", "peers.self_id:=robot-a"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    robot_b = subprocess.Popen([PHANTHY, "node", "peers", "--ros-args", "-r", "__ns:=/robot_b",
                                "-p", "peer_id:=robot-b", "-p", "description:=guide at the cafe"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rclpy.init()
    agent_b = rclpy.create_node("fleet_bench_agent", namespace="/robot_b")
    states = agent_b.create_publisher(AgentState, "phanthy/agent_state", LATCHED)
    group = spin(agent_b)
    sent, gone_s = [], float("nan")
    try:
        with sync_playwright() as pw:
            browser, page = open_console(pw, port)
            page.wait_for_selector("#fleet tr[data-peer=robot-b][data-status=online]", timeout=30_000)
            wait_for(lambda: states.get_subscription_count() > 0, 30, "robot B's peers driver")
            page.evaluate(WATCH)
            for i in range(args.changes):
                state = ("speaking", "idle")[i % 2]
                now = time.time()
                states.publish(AgentState(header=header(now), state=state, voice_state="STOPPED", session="bench"))
                sent.append((now, state))
                page.wait_for_selector(f"#fleet tr[data-peer=robot-b][data-agent-state={state}]", timeout=10_000)
                time.sleep(args.gap)
            changes = page.evaluate("window.__changes")
            robot_b.terminate()
            robot_b.wait(timeout=20)
            stopped = time.time()
            page.wait_for_selector("#fleet tr[data-peer=robot-b][data-status=gone]", timeout=30_000)
            gone_s = page.evaluate("Date.now()") / 1000 - stopped
            browser.close()
    finally:
        group.stop()
        for proc in (robot_a, robot_b):
            proc.terminate()
            proc.wait(timeout=20)
        rclpy.try_shutdown()
    shown = {}
    for t_ms, state, _ in changes:
        shown.setdefault(state, []).append(t_ms / 1000)
    latency = []
    for t_sent, state in sent:  # the first time the row shows `state` after it was sent
        later = [t for t in shown.get(state, []) if t >= t_sent]
        if later:
            latency.append(1000 * (min(later) - t_sent))
    print(summary("B's agent state -> A's console page", latency))
    print(f"robot B stopped -> shown gone on A's page: {gone_s:.1f} s (B's ttl_s 6)")


if __name__ == "__main__":
    main()
