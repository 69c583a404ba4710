"""Peer message latency between two robots on two hosts: network namespaces joined by a veth
pair on this machine (needs root and iproute2), one ROS domain for the fleet, each robot in its
own namespace (/robot_a, /robot_b), DDS over UDP only. Robot A's probe calls its peers driver's
send_to_peer; robot B's probe hears the PeerMessage on the wire and the event its peers driver
puts on phanthy/inbox (what the collector hands the agent).

    .venv/bin/python bench/fleet_latency.py [--messages 50]

Two figures: wire (the PeerMessage's stamp at robot A's publish -> robot B's probe) and
tool call -> inbox (robot A's probe calls send_to_peer -> the event on robot B's inbox: the
action round trip in A, the wire, the driver in B). Both hosts share one clock.
"""

import argparse
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "test")]
from stats import summary  # noqa: E402
from support.fleet import lines, probe, robot, stop  # noqa: E402
from support.netns import TwoHosts  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=50)
    args = parser.parse_args()
    why_not = TwoHosts.unavailable()
    if why_not:
        sys.exit(f"network namespaces cannot be created here: {why_not}")
    domain = int(os.environ.get("ROS_DOMAIN_ID", "77"))
    with TwoHosts() as hosts:
        robots = [robot(hosts, "a", "robot-a", domain), robot(hosts, "b", "robot-b", domain)]
        try:
            listener = probe(hosts, "b", "listen", "robot-a", args.messages, domain)
            caller = probe(hosts, "a", "call", "robot-b", args.messages, domain, interval_s=0.1)
            sent, heard = lines(caller), lines(listener)
        finally:
            stop(robots)
    wire = [line["latency_s"] * 1000 for line in heard if "wire" in line]
    inbox = []
    for line in heard:
        match = re.search(r"sent at (\d+\.\d+)", line.get("inbox", ""))
        if match:
            inbox.append((line["t"] - float(match.group(1))) * 1000)
    print(f"sent {sum(1 for s in sent if s.get('status') == 'succeeded')}/{args.messages}, "
          f"inbox events {len(inbox)}")
    print(summary("wire: PeerMessage A -> B", wire))
    print(summary("tool call on A -> event on B's inbox", inbox))


if __name__ == "__main__":
    main()
