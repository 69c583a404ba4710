"""Other robots on the LAN: who announced itself recently. The model reaches them through two
fixed tools (list_peers, send_to_peer) taking a peer id, so the tool list and the system
prefix never change when a peer comes or goes."""

from __future__ import annotations

from typing import Callable, Dict, List, Tuple


class PeerDirectory:
    def __init__(self, clock: Callable[[], float], self_id: str = "", max_peers: int = 256):
        self._clock, self.self_id, self._max = clock, self_id, max_peers
        self._peers: Dict[str, Tuple[str, float]] = {}  # id -> (description, expires at)

    def announce(self, peer_id: str, description: str, ttl_s: float) -> bool:
        """Record an announcement; True if the peer is new."""
        if not peer_id or peer_id == self.self_id:
            return False
        new = peer_id not in self._peers
        if new and len(self._peers) >= self._max:
            return False
        self._peers[peer_id] = (description[:200], self._clock() + max(1.0, ttl_s))
        return new

    def expire(self) -> List[str]:
        now = self._clock()
        gone = [pid for pid, (_, until) in self._peers.items() if until <= now]
        for pid in gone:
            del self._peers[pid]
        return gone

    def peers(self) -> List[Tuple[str, str]]:
        self.expire()
        return sorted((pid, desc) for pid, (desc, _) in self._peers.items())

    def __contains__(self, peer_id: str) -> bool:
        return any(pid == peer_id for pid, _ in self.peers())
