"""The claim ledger and the gate: which points are open, and when the robot may raise one.

Every actionable finding becomes an open claim (one per key: the same point said twice is one
claim, kept from its first turn). Each later ordinary turn ages it and runs the self-repair
guard on it. The gate lets a claim through only when
  - it has stood for `persistence_turns` ordinary turns (the group had its chance to fix it),
  - nobody fixed it (the guard),
  - `cooldown_s` passed since the robot last intervened, and
  - the robot has not said this point before (no repeats: Jarvis repeated an already-stated
    fact in 21 of 164 live interventions).
A claim the gate has not let through within `usefulness_turns` expires: the conversation has
moved on. Pure: time comes from the turns' stamps (the caller's clock).
"""

from __future__ import annotations

import dataclasses
import logging
from enum import Enum
from typing import Dict, List, Optional

from .monitor import Finding
from .repair import repaired_by, states_value

log = logging.getLogger(__name__)


class ClaimState(str, Enum):
    OPEN = "open"
    FIRED = "fired"  # the gate let it through: an intervention was made of it
    REPAIRED = "repaired"  # the group fixed it
    EXPIRED = "expired"  # the conversation moved on
    REPEAT = "repeat"  # the robot said it before


@dataclasses.dataclass(frozen=True)
class GateConfig:
    persistence_turns: int = 2
    cooldown_s: float = 20.0
    usefulness_turns: int = 6


@dataclasses.dataclass
class Claim:
    finding: Finding
    opened: int  # turn index of the problem
    age: int = 0  # ordinary turns since
    state: ClaimState = ClaimState.OPEN
    why: str = ""

    @property
    def key(self) -> str:
        return self.finding.key


class ClaimLedger:
    def __init__(self, config: GateConfig = GateConfig(), cited_text=lambda ids: ""):
        self.config = config
        self.claims: List[Claim] = []
        self.said_keys: Dict[str, int] = {}  # points the robot has said -> turn index
        self.last_intervention_at: Optional[float] = None
        self._cited_text = cited_text

    # --- turns -----------------------------------------------------------------------------------
    def observe(self, text: str, index: int, robot: bool = False) -> List[Claim]:
        """A new turn: age the open claims (ordinary turns only) and close what it repairs.
        Returns the claims it closed."""
        closed = []
        for claim in self.open_claims():
            if index <= claim.opened:
                continue
            why = repaired_by(claim.finding, text, self._cited_text(claim.finding.citations))
            if why is None and robot and states_value(claim.finding, text):
                why = "the robot said it"
            if why is not None:
                claim.state, claim.why = ClaimState.REPAIRED, why
                closed.append(claim)
                continue
            if not robot:
                claim.age += 1
        return closed

    def add(self, finding: Finding) -> Optional[Claim]:
        """An actionable finding: a new open claim, or None when its point is open already or
        was said by the robot."""
        if not finding.label.actionable:
            return None
        if any(c.key == finding.key and c.state in (ClaimState.OPEN, ClaimState.FIRED) for c in self.claims):
            return None
        claim = Claim(finding, finding.turn)
        if finding.key in self.said_keys:
            claim.state, claim.why = ClaimState.REPEAT, "the robot said this before"
        self.claims.append(claim)
        self.claims = self.claims[-200:]
        return claim if claim.state is ClaimState.OPEN else None

    # --- the gate ----------------------------------------------------------------------------------
    def expire(self) -> List[Claim]:
        gone = []
        for claim in self.open_claims():
            if claim.age > self.config.usefulness_turns:
                claim.state, claim.why = ClaimState.EXPIRED, f"{claim.age} turns old: the conversation moved on"
                gone.append(claim)
        return gone

    def ready(self, now: float) -> Optional[Claim]:
        """The oldest claim the gate lets through now, or None."""
        if self.last_intervention_at is not None and now - self.last_intervention_at < self.config.cooldown_s:
            return None
        for claim in self.open_claims():
            if claim.age >= self.config.persistence_turns:
                return claim
        return None

    def fire(self, claim: Claim, now: float) -> None:
        claim.state, claim.why = ClaimState.FIRED, "the gate let it through"
        self.last_intervention_at = now
        self.said_keys[claim.key] = claim.opened

    def reopen(self, claim: Claim) -> None:
        """An intervention that was not delivered (dropped before a word): the point is open again
        (and still not said)."""
        if claim.state is ClaimState.FIRED:
            claim.state, claim.why = ClaimState.OPEN, "not delivered"
            self.said_keys.pop(claim.key, None)

    def forget(self) -> None:
        """A new group: no open points, nothing said to it yet, no cooldown from the last one."""
        self.claims, self.said_keys, self.last_intervention_at = [], {}, None

    def open_claims(self) -> List[Claim]:
        return [c for c in self.claims if c.state is ClaimState.OPEN]
