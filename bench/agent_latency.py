"""The stack's own reaction times, with an instant scripted brain (no model latency):

- reaction: a final Transcript published -> the speaker starts playing the reply;
- stop: a visitor's words published while the robot speaks -> the speaker has stopped.

    .venv/bin/python bench/agent_latency.py [--trials 50]

In-process graph (collector, agent, simulated speaker) over real DDS.
"""

import argparse
import pathlib
import sys
import tempfile
import time

import rclpy

sys.path[:0] = [str(pathlib.Path(__file__).resolve().parents[1] / "test"), str(pathlib.Path(__file__).parent)]
from stats import summary  # noqa: E402
from support.graph import Graph  # noqa: E402
from support.ros_harness import wait_for  # noqa: E402

LONG = "Welcome to the museum. " * 20



def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=50)
    args = parser.parse_args()
    replies = []
    for _ in range(args.trials + 1):
        replies += [{"tool_calls": [{"name": "speak", "arguments": {"text": LONG}}, {"name": "finish"}]},
                    {"tool_calls": [{"name": "finish"}]}]
    rclpy.init()
    graph = Graph(pathlib.Path(tempfile.mkdtemp()), replies, nodes=("collector", "agent", "speaker"))
    reaction, stop = [], []
    try:
        for trial in range(args.trials + 1):
            n = len(graph.turns.snapshot())
            seen = len(graph.playback.snapshot())
            t0 = time.perf_counter()
            graph.say(f"tell me about the museum, take {trial}")
            wait_for(lambda: any(m.state == "playing" for m in graph.playback.snapshot()[seen:]), 30, "playing")
            t_play = time.perf_counter()
            time.sleep(0.5)
            seen = len(graph.playback.snapshot())
            t1 = time.perf_counter()
            graph.say(f"thanks, that's enough {trial}")
            wait_for(lambda: any(m.state == "stopped" for m in graph.playback.snapshot()[seen:]), 30, "stopped")
            t_stop = time.perf_counter()
            wait_for(lambda: len(graph.turns.snapshot()) >= n + 2, 30, "both turns")
            if trial:  # the first round warms up discovery and imports
                reaction.append((t_play - t0) * 1000)
                stop.append((t_stop - t1) * 1000)
    finally:
        graph.close()
        rclpy.shutdown()
    print(summary("reaction (transcript -> playing)", reaction))
    print(summary("stop (visitor speaks -> playback stopped)", stop))


if __name__ == "__main__":
    main()
