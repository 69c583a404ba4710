"""Other robots on the LAN: who announced itself recently, in which state, and when to announce
this robot. The model reaches the others through two fixed tools (list_peers, send_to_peer)
taking a peer id, so the tool list and the system prefix never change when a peer comes or goes;
the operator's console shows the whole fleet with each robot's live state.

Pure: no ROS; time comes from an injected clock."""

from __future__ import annotations

import dataclasses
from typing import Callable, Dict, Hashable, List, Optional, Tuple

# Bounds on what an announcement carries (a peer's message is never trusted to be small).
MAX_DESCRIPTION = 200
MAX_STATE = 32
MAX_URL = 300
TTL_S = (1.0, 3600.0)  # a peer's ttl is clamped to this (NaN: the shortest)


def bounded_state(text: str) -> str:
    return text.replace("\x00", "")[:MAX_STATE]


def console_url_or_empty(url: str) -> str:
    """A console address worth linking to: http(s), bounded, no spaces; anything else is ""."""
    url = url.strip()
    ok = (url.startswith(("http://", "https://")) and len(url) <= MAX_URL
          and not any(c.isspace() or ord(c) < 32 for c in url))
    return url if ok else ""


@dataclasses.dataclass(frozen=True)
class Peer:
    """One robot as last heard. `heard_at` and `expires_at` are on the directory's clock."""
    peer_id: str
    description: str
    agent_state: str = ""  # idle | thinking | acting | speaking ("" = not known yet)
    voice_state: str = ""  # STOPPED | LISTENING | RECOGNIZING | THINKING | PLAYING
    console_url: str = ""
    heard_at: float = 0.0
    expires_at: float = 0.0

    def shown(self) -> Tuple[str, str, str, str]:
        """What an observer sees change (the times aside)."""
        return self.description, self.agent_state, self.voice_state, self.console_url


class PeerDirectory:
    """Peers announced within their ttl are online; with `linger_s` > 0 a silent peer is kept,
    gone, that much longer before it is dropped (the console shows it as gone meanwhile)."""

    def __init__(self, clock: Callable[[], float], self_id: str = "", max_peers: int = 256,
                 linger_s: float = 0.0, keep_self: bool = False):
        self._clock, self.self_id, self._max = clock, self_id, max_peers
        self.linger_s, self.keep_self = max(0.0, linger_s), keep_self
        self._peers: Dict[str, Peer] = {}
        self._gone: set = set()

    def announce(self, peer_id: str, description: str, ttl_s: float, agent_state: str = "",
                 voice_state: str = "", console_url: str = "") -> bool:
        """Record an announcement; True if the peer is new (or back after it was gone)."""
        if not peer_id or (peer_id == self.self_id and not self.keep_self):
            return False
        before = self._peers.get(peer_id)
        if before is None and len(self._peers) >= self._max:
            return False
        now, ttl_s = self._clock(), min(TTL_S[1], max(TTL_S[0], ttl_s))  # max() keeps 1.0 over a NaN
        self._peers[peer_id] = Peer(peer_id, description[:MAX_DESCRIPTION], bounded_state(agent_state),
                                    bounded_state(voice_state), console_url_or_empty(console_url),
                                    now, now + ttl_s)
        back = peer_id in self._gone
        self._gone.discard(peer_id)
        return before is None or back

    def changed(self, peer_id: str, before: Optional[Peer]) -> bool:
        """Whether `peer_id` now shows something else than `before` (None: it was not known)."""
        now = self._peers.get(peer_id)
        return (before is None) != (now is None) or (now is not None and now.shown() != before.shown())

    def get(self, peer_id: str) -> Optional[Peer]:
        return self._peers.get(peer_id)

    def expire(self) -> List[str]:
        """Forget who is past ttl (+ linger); the ids that went silent since the last call."""
        now = self._clock()
        silent = [pid for pid, p in self._peers.items() if p.expires_at <= now and pid not in self._gone]
        self._gone.update(silent)
        for pid in [pid for pid, p in self._peers.items() if p.expires_at + self.linger_s <= now]:
            del self._peers[pid]
            self._gone.discard(pid)
        return silent

    def peers(self) -> List[Tuple[str, str]]:
        """(peer_id, description) of the peers online now."""
        return [(p.peer_id, p.description) for p in self.online()]

    def online(self) -> List[Peer]:
        self.expire()
        return sorted((p for p in self._peers.values() if p.peer_id not in self._gone), key=lambda p: p.peer_id)

    def fleet(self) -> List[dict]:
        """Every peer still kept, online or gone, with how long ago it was heard (for a console)."""
        self.expire()
        now = self._clock()
        return [{"peer_id": p.peer_id, "description": p.description, "agent_state": p.agent_state,
                 "voice_state": p.voice_state, "console_url": p.console_url,
                 "online": p.peer_id not in self._gone, "heard_s_ago": round(max(0.0, now - p.heard_at), 1),
                 "this_robot": p.peer_id == self.self_id}
                for p in sorted(self._peers.values(), key=lambda p: p.peer_id)]

    def __contains__(self, peer_id: str) -> bool:
        return any(p.peer_id == peer_id for p in self.online())


class AnnounceSchedule:
    """When to announce this robot: every `period_s`, and promptly when what it announces
    changes, but never twice within `min_interval_s` (a robot flipping state many times a
    second announces its latest state at that pace, never a burst). The node calls `due()`
    from a timer ticking every `min_interval_s` and right after `update()`."""

    def __init__(self, clock: Callable[[], float], period_s: float, min_interval_s: float):
        self._clock = clock
        self.period_s = max(0.05, period_s)
        self.min_interval_s = max(0.0, min(min_interval_s, self.period_s))
        self._content: Hashable = None
        self._sent: Hashable = None
        self._last: Optional[float] = None

    def update(self, content: Hashable) -> None:
        self._content = content

    def due(self) -> bool:
        """True when an announcement should go out now (the caller then sends `content`)."""
        now = self._clock()
        if self._last is not None:
            since = now - self._last
            changed = self._content != self._sent
            if since < self.period_s and not (changed and since >= self.min_interval_s):
                return False
        self._last, self._sent = now, self._content
        return True

    @property
    def content(self) -> Hashable:
        return self._content
