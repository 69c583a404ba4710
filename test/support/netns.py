"""Hosts of our own on this machine: network namespaces joined by a veth pair (needs root and
iproute2), to run robots as if on two machines of one LAN.

    with TwoHosts() as hosts:             # hosts.a / hosts.b: namespace names
        subprocess.Popen(hosts.run("a", [...]), env=hosts.env(...))

`TwoHosts.unavailable()` says why namespaces cannot be made here (tests skip with that reason).
"""

from __future__ import annotations

import os
import subprocess
import uuid
from typing import Dict, List, Optional

SUBNET = "10.231.{}.{}"  # addresses inside our own namespaces only


def _ip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10)


class TwoHosts:
    def __init__(self) -> None:
        tag = uuid.uuid4().hex[:6]
        self.names = {"a": f"phanthy-a-{tag}", "b": f"phanthy-b-{tag}"}
        self.links = {"a": f"vpa{tag}", "b": f"vpb{tag}"}
        octet = int(tag[:2], 16)
        self.addresses = {"a": SUBNET.format(octet, 1), "b": SUBNET.format(octet, 2)}
        self._made: List[str] = []

    @staticmethod
    def unavailable() -> Optional[str]:
        """None when network namespaces can be created here, else why not."""
        probe = f"phanthy-probe-{uuid.uuid4().hex[:6]}"
        try:
            result = _ip("netns", "add", probe)
        except FileNotFoundError:
            return "iproute2 (`ip`) is not installed"
        if result.returncode != 0:
            return f"`ip netns add` failed: {result.stderr.strip() or result.returncode} (needs root)"
        _ip("netns", "del", probe)
        return None

    def __enter__(self) -> "TwoHosts":
        for host, ns in self.names.items():
            self._check(_ip("netns", "add", ns))
            self._made.append(ns)
        self._check(_ip("link", "add", self.links["a"], "type", "veth", "peer", "name", self.links["b"]))
        for host, ns in self.names.items():
            link = self.links[host]
            self._check(_ip("link", "set", link, "netns", ns))
            self._check(_ip("-n", ns, "addr", "add", f"{self.addresses[host]}/24", "dev", link))
            self._check(_ip("-n", ns, "link", "set", "lo", "up"))
            self._check(_ip("-n", ns, "link", "set", link, "up"))
            # DDS discovery is multicast (SPDP, 239.255.0.1): route it over the link
            self._check(_ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", link))
        return self

    def __exit__(self, *exc) -> None:
        for ns in self._made:  # deleting a namespace deletes its end of the veth pair, and so both
            _ip("netns", "del", ns)

    @staticmethod
    def _check(result: subprocess.CompletedProcess) -> None:
        if result.returncode != 0:
            raise RuntimeError(f"ip {' '.join(result.args[1:])}: {result.stderr.strip()}")

    def link_down(self, host: str) -> None:
        self._check(_ip("-n", self.names[host], "link", "set", self.links[host], "down"))

    def run(self, host: str, command: List[str]) -> List[str]:
        """The command line that runs `command` on a host."""
        return ["ip", "netns", "exec", self.names[host], *command]

    @staticmethod
    def env(domain_id: int, extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
        """What a robot on the LAN runs with: one domain for the fleet, discovery over the subnet,
        DDS over UDP only (the two namespaces share /dev/shm: Fast DDS would otherwise carry data
        through shared memory and the network would not be tested)."""
        env = dict(os.environ)
        env.update({"ROS_DOMAIN_ID": str(domain_id), "ROS_AUTOMATIC_DISCOVERY_RANGE": "SUBNET",
                    "FASTDDS_BUILTIN_TRANSPORTS": "UDPv4", "PYTHONUNBUFFERED": "1"})
        env.pop("ROS_STATIC_PEERS", None)
        env.update(extra or {})
        return env
