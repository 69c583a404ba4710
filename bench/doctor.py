"""Wall time of `phanthy doctor` as a newcomer runs it (a fresh process each time, the
command's whole life: imports, checks, exit), with the sim configuration (no models) and the
voice configuration (loads silero VAD, Whisper tiny.en, openWakeWord and the Piper voice).

    .venv/bin/python bench/doctor.py [--trials 10]

Goal: under 5 s. On a machine without a sound card the voice configuration reports two
problems (no microphone, no loudspeaker); the time is the same.
"""

import argparse
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench")]
from stats import summary  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=10)
    args = parser.parse_args()
    env = {**os.environ, "ROS_DOMAIN_ID": os.environ.get("ROS_DOMAIN_ID", "77")}
    for config in ("sim.yaml", "voice.yaml"):
        walls = []
        for _ in range(args.trials):
            start = time.perf_counter()
            result = subprocess.run([str(ROOT / ".venv" / "bin" / "phanthy"), "doctor", "--config", config],
                                    capture_output=True, text=True, env=env, timeout=60)
            walls.append(time.perf_counter() - start)
        print(f"{config}: exit {result.returncode}, last verdict: {result.stdout.splitlines()[-1]}")
        print(summary(f"phanthy doctor --config {config}", walls, "s"))


if __name__ == "__main__":
    main()
