"""Robots of a fleet on the two hosts of support.netns.TwoHosts: each runs `phanthy node
peers` in its own namespace (/robot_a, /robot_b) on one ROS domain, and a probe
(support/fleet_probe.py) on its host reports what it saw as JSON lines."""

import json
import pathlib
import subprocess
import sys
from typing import List

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROBE = str(ROOT / "test" / "support" / "fleet_probe.py")


def robot(hosts, host: str, peer_id: str, domain_id: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "phanthy_agent.cli", "node", "peers", "--ros-args", "-r",
               f"__ns:=/robot_{host}", "-p", f"peer_id:={peer_id}", "-p", "announce_period_s:=0.5"]
    return subprocess.Popen(hosts.run(host, command), env=hosts.env(domain_id), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)


def probe(hosts, host: str, mode: str, peer: str, messages: int, domain_id: int,
          interval_s: float = 0.2, timeout_s: float = 90.0) -> subprocess.Popen:
    command = [sys.executable, PROBE, mode, "--ns", f"/robot_{host}", "--peer", peer, "--messages", str(messages),
               "--interval", str(interval_s), "--timeout", str(timeout_s)]
    return subprocess.Popen(hosts.run(host, command), env=hosts.env(domain_id, {"PYTHONPATH": str(ROOT)}),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


def lines(proc: subprocess.Popen, timeout: float = 180.0) -> List[dict]:
    out, err = proc.communicate(timeout=timeout)
    if proc.returncode != 0:
        raise AssertionError(f"probe exited {proc.returncode}: {err[-3000:]}")
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def stop(robots: List[subprocess.Popen]) -> None:
    """Terminate the robots; one that does not end within a minute (a loaded machine) is killed,
    never left behind, and the test then fails on its return code."""
    for proc in robots:
        proc.terminate()
    for proc in robots:
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)
