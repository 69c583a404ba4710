"""Two robots on two hosts (network namespaces joined by a veth pair, DDS over UDP only): they
discover each other, see each other in list_peers and exchange messages with send_to_peer.
Skipped, with the reason, only where network namespaces cannot be created (not root, no
iproute2)."""

import os

import pytest

from support.fleet import lines, probe, robot, stop
from support.netns import TwoHosts

WHY_NOT = TwoHosts.unavailable()
pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=f"network namespaces cannot be created here: {WHY_NOT}")


def test_two_robots_on_two_hosts_see_each_other_and_exchange_messages():
    domain = int(os.environ["ROS_DOMAIN_ID"])
    with TwoHosts() as hosts:
        robots = [robot(hosts, "a", "robot-a", domain), robot(hosts, "b", "robot-b", domain)]
        try:
            listener = probe(hosts, "b", "listen", "robot-a", 5, domain)
            caller = probe(hosts, "a", "call", "robot-b", 5, domain)
            sent, heard = lines(caller), lines(listener)
        finally:
            stop(robots)
    assert {"peers": ["robot-b"]} in sent, "robot A's list_peers shows robot B"
    assert {"peers": ["robot-a"]} in heard, "robot B's list_peers shows robot A"
    assert [line["status"] for line in sent if "sent" in line] == ["succeeded"] * 5
    inbox = [line["inbox"] for line in heard if "inbox" in line]
    assert len(inbox) == 5 and all(text.startswith("[message from robot robot-a] message ") for text in inbox)
    wire = [line for line in heard if "wire" in line]
    assert wire and all(line["from"] == "robot-a" for line in wire)
    assert all(proc.returncode == 0 for proc in robots), "both robots shut down cleanly"


def test_robots_whose_link_is_down_do_not_see_each_other():
    """The messages above crossed the link: without it there is no peer (nothing leaks through
    shared memory or the host's loopback)."""
    domain = int(os.environ["ROS_DOMAIN_ID"])
    with TwoHosts() as hosts:
        hosts.link_down("b")
        robots = [robot(hosts, "a", "robot-a", domain), robot(hosts, "b", "robot-b", domain)]
        try:
            caller = probe(hosts, "a", "call", "robot-b", 1, domain, timeout_s=6)
            out, _ = caller.communicate(timeout=60)
        finally:
            stop(robots)
    assert caller.returncode == 1 and '{"peers": []}' in out
