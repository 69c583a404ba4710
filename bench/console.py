"""The operator's console, measured as an operator uses it: a robot (`phanthy run`: collector,
agent with an instant scripted brain, simulated speaker, face, chat_web with the console,
health) in its own process, the console open in headless Chromium.

    .venv/bin/python bench/console.py [--turns 12]

- state change -> page: the agent publishes phanthy/agent_state (stamped with its clock), the
  page receives it over the console's WebSocket (Date.now() on the same machine's clock); every
  change of every turn, snapshot messages excluded;
- CPU while the robot talks: a ~9 s reply played by the simulated speaker (a playback message
  per word), the robot's process with no page open, then with the console open, and Chromium's
  processes (browser, renderer, GPU, utility) with the console open (and, for reference, with
  the robot idle); % of one core.
"""

import argparse
import os
import pathlib
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import rclpy
import yaml
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "test"), str(ROOT / "bench")]
from phanthy.msg import Transcript, TurnRecord  # noqa: E402
from phanthy_common.convert import header  # noqa: E402
from stats import summary  # noqa: E402
from support.graph import RELIABLE  # noqa: E402
from support.ros_harness import Collect, spin, wait_for  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LONG = ("Welcome to the museum. Our collection covers four floors: the dinosaur hall, the gallery "
        "of minerals, the history of flight and the garden of the senses.")
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_ticks(pids) -> int:
    total = 0
    for pid in pids:
        try:
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total


def descendants(pid: int):
    children = {}
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def chromium_pids():
    return [p for p in descendants(os.getpid())
            if "chrom" in pathlib.Path(f"/proc/{p}/comm").read_text(errors="replace").lower()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def open_console(pw, port: int, timeout_s: float = 30.0):
    """Chromium with the console at `port` open and connected, once the server answers."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/console", timeout=1)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{port}/console")
    page.wait_for_selector("#conn[data-state=open]", timeout=20_000)
    return browser, page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=12)
    args = parser.parse_args()
    tmp, port, ns = pathlib.Path(tempfile.mkdtemp()), free_port(), "/console_bench"
    short = [{"content": f"Reply number {i}."} for i in range(args.turns)]
    (tmp / "script.yaml").write_text(yaml.safe_dump(short + [{"content": LONG}, {"content": LONG}]))
    sim = yaml.safe_load((ROOT / "config" / "sim.yaml").read_text())
    config = {k: sim[k] for k in ("collector", "speaker", "face", "health")}
    config["agent"] = {"ros__parameters": {"agent": {"brain": "scripted"}, "scripted": {"file": str(tmp / "script.yaml")}}}
    config["chat_web"] = {"ros__parameters": {"port": port}}
    (tmp / "robot.yaml").write_text(yaml.safe_dump(config))
    robot = subprocess.Popen([str(ROOT / ".venv" / "bin" / "phanthy"), "run", "--config", str(tmp / "robot.yaml"),
                              "--ros-args", "-r", f"__ns:={ns}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rclpy.init()
    probe = rclpy.create_node("console_bench", namespace=ns)
    speech = probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
    turns = Collect(probe, TurnRecord, "phanthy/turns", RELIABLE)
    group = spin(probe)

    def say(text: str, n: int) -> None:
        speech.publish(Transcript(header=header(time.time()), text=text, is_final=True, confidence=0.9,
                                  speaker_id="anonymous_speaker", language="en-US", source="bench"))
        turns.wait(lambda ms: len(ms) >= n, 60, f"{n} turns")

    try:
        wait_for(lambda: speech.get_subscription_count() > 0, 30, "the robot")
        with sync_playwright() as pw:
            browser, page = open_console(pw, port)
            for i in range(args.turns):
                say(f"question {i}", i + 1)
                time.sleep(0.3)
            latency = page.evaluate("window.__console.stateLatency")
            page.close()  # CPU while the robot talks: first with no page open
            time.sleep(1.0)
            before, t0 = cpu_ticks([robot.pid]), time.monotonic()
            say("tell me about the museum", args.turns + 1)
            robot_alone = (cpu_ticks([robot.pid]) - before) / TICKS / (time.monotonic() - t0) * 100
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/console")
            page.wait_for_selector("#conn[data-state=open]", timeout=20_000)
            time.sleep(1.0)
            chromium = chromium_pids()
            before_browser, t0 = cpu_ticks(chromium), time.monotonic()
            time.sleep(5.0)  # the robot idle, the console open (its nodes' health once a second)
            browser_idle = (cpu_ticks(chromium) - before_browser) / TICKS / (time.monotonic() - t0) * 100
            before_robot, before_browser, t0 = cpu_ticks([robot.pid]), cpu_ticks(chromium), time.monotonic()
            say("tell me more about the museum", args.turns + 2)
            wall = time.monotonic() - t0
            robot_with = (cpu_ticks([robot.pid]) - before_robot) / TICKS / wall * 100
            browser_cpu = (cpu_ticks(chromium) - before_browser) / TICKS / wall * 100
            messages = page.evaluate("window.__console.messages")
            browser.close()
    finally:
        group.stop()
        robot.terminate()
        robot.wait(timeout=20)
        rclpy.try_shutdown()
    print(summary("state change -> console page", latency))
    print(f"while the robot talks ({wall:.1f} s reply, {messages} console messages in all): robot process "
          f"{robot_alone:.1f} % of a core without a page, {robot_with:.1f} % with the console open; "
          f"Chromium (all its processes) {browser_cpu:.1f} % ({browser_idle:.1f} % with the robot idle)")


if __name__ == "__main__":
    main()
