"""What the robot costs while it only listens: CPU per thread of a real `phanthy run` process
(bench/voice.py's robot: collector, agent, speaker with piper, vad, asr) with the room playing
noise into audio/in, once with the audio nodes on rclpy's standard executor and once on the
events executor (phanthy_common.runtime). Everything it takes competes with the recognizer
for the two cores when the visitor stops talking.

    .venv/bin/python bench/listening_cpu.py [--seconds 15]

CPU from /proc/<pid>/task/*/stat (user + system) over the window; the executor threads carry
their names at the OS level ("ros-vad"); unnamed ones are listed as "python".
"""

import argparse
import os
import pathlib
import sys
import time

import rclpy

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench")]
from voice import Robot  # noqa: E402

from phanthy_common.runtime import EXECUTOR_ENV  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def thread_ticks(pid: int) -> dict:
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{tid}/stat").read()
            name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
        except OSError:  # the thread ended
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        out[tid] = (name, int(fields[11]) + int(fields[12]))
    return out


def measure(mode: str, seconds: float) -> None:
    os.environ[EXECUTOR_ENV] = mode  # the robot process inherits it
    robot = Robot([{"tool_calls": [{"name": "finish"}]}])
    try:
        time.sleep(2.0)
        before, start = thread_ticks(robot.process.pid), time.monotonic()
        time.sleep(seconds)
        after, elapsed = thread_ticks(robot.process.pid), time.monotonic() - start
    finally:
        robot.close()
    by_name = {}
    for tid, (name, ticks) in after.items():
        used = (ticks - before.get(tid, (name, 0))[1]) / TICKS / elapsed * 100.0
        by_name[name] = by_name.get(name, 0.0) + used
    total = sum(by_name.values())
    rows = ", ".join(f"{name} {pct:.1f}" for name, pct in sorted(by_name.items(), key=lambda kv: -kv[1])
                     if pct >= 0.2)
    print(f"{mode} executor for the audio nodes: the listening robot takes {total:.1f} % of a core "
          f"({rows})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    rclpy.init()
    try:
        for mode in ("standard", "events"):
            measure(mode, args.seconds)
    finally:
        rclpy.shutdown()


if __name__ == "__main__":
    main()
