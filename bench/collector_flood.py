"""How long a transcript takes through the collector, with and without a sensor flood.

    .venv/bin/python bench/collector_flood.py [--trials 50]

Runs the collector node in this process; a second process floods `battery` (priority 0) as
fast as it can publish. Measures publish -> arrival on phanthy/events for final Transcripts.
"""

import argparse
import pathlib
import subprocess
import sys
import threading
import time
import uuid

import rclpy
from rclpy.node import Node

sys.path[:0] = [str(pathlib.Path(__file__).resolve().parents[1] / "test"), str(pathlib.Path(__file__).parent)]
from phanthy.msg import Event, Transcript  # noqa: E402
from phanthy_agent.ros.collector_node import CollectorNode  # noqa: E402
from phanthy_common.runtime import NodeGroup  # noqa: E402
from stats import summary  # noqa: E402
from support.graph import RELIABLE, overrides  # noqa: E402

FLOOD = """
import sys, rclpy
from rclpy.node import Node
from sensor_msgs.msg import BatteryState
rclpy.init()
node = Node("flood", namespace=sys.argv[1])
pub = node.create_publisher(BatteryState, "battery", 10)
msg = BatteryState(percentage=0.8)
while rclpy.ok():
    pub.publish(msg)
"""


def measure(probe, pub, arrived, trials):
    latencies = []
    for i in range(trials):
        key = f"trial {i} {uuid.uuid4().hex[:6]}"
        done = threading.Event()
        arrived[key] = done
        t0 = time.perf_counter()
        pub.publish(Transcript(text=key, is_final=True, audio_duration_ms=1000, source="bench"))
        if done.wait(10.0):
            latencies.append((arrived[key + "/t"] - t0) * 1000)
        time.sleep(0.05)
    return latencies



def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=50)
    args = parser.parse_args()
    rclpy.init()
    ns = f"/bench{uuid.uuid4().hex[:6]}"
    collector = CollectorNode(namespace=ns, parameter_overrides=overrides({
        "sources.speech.topic": "voice/transcript", "sources.speech.type": "phanthy/msg/Transcript",
        "sources.speech.priority": 10, "sources.battery.topic": "battery",
        "sources.battery.type": "sensor_msgs/msg/BatteryState", "sources.battery.priority": 0,
        "sources.battery.status": "battery {percentage:.0%}"}))
    probe = Node("bench_probe", namespace=ns)
    arrived = {}
    sensor_events = []

    def on_event(msg):
        if msg.source == "battery":
            sensor_events.append(msg)
        if msg.text in arrived:
            arrived[msg.text + "/t"] = time.perf_counter()
            arrived[msg.text].set()
    probe.create_subscription(Event, "phanthy/events", on_event, RELIABLE)
    pub = probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
    group = NodeGroup([collector, probe]).start()
    while pub.get_subscription_count() == 0:
        time.sleep(0.05)
    measure(probe, pub, arrived, 5)  # warm-up
    quiet = measure(probe, pub, arrived, args.trials)
    flood = subprocess.Popen([sys.executable, "-c", FLOOD, ns])
    time.sleep(3.0)
    before = collector.core.stats.readings_received
    t0 = time.perf_counter()
    flooded = measure(probe, pub, arrived, args.trials)
    rate = (collector.core.stats.readings_received - before) / (time.perf_counter() - t0)
    flood.terminate()
    flood.wait()
    print(summary("quiet  ", quiet))
    print(summary("flooded", flooded) + f"  (collector received {rate:.0f} battery readings/s; "
          f"of them reaching phanthy/events: {len(sensor_events)})")
    group.stop()
    rclpy.shutdown()


if __name__ == "__main__":
    main()
