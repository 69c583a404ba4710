"""A whole robot (`phanthy run --config ...`) in a process of its own, in a namespace of its
own, its log in a file (benchmarks: the robot is measured as an operator runs it)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys


def start_robot(config: pathlib.Path, ns: str, work: pathlib.Path, log_level: str = "warn") -> subprocess.Popen:
    """The robot's log goes to $BENCH_ROBOT_LOG, else `work`/robot.log."""
    log = open(os.environ.get("BENCH_ROBOT_LOG", str(work / "robot.log")), "w")
    return subprocess.Popen(
        [sys.executable, "-m", "phanthy_agent.cli", "--log-level", log_level, "run", "--config", str(config),
         "--ros-args", "-r", f"__ns:={ns}", "--log-level", log_level],
        cwd=work, stdout=log, stderr=subprocess.STDOUT)


def stop_robot(process: subprocess.Popen, timeout_s: float = 30.0) -> None:
    process.terminate()
    process.wait(timeout_s)
