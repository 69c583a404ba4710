"""The proactive backbone: each turn of the group's conversation through monitor, self-repair
guard, ledger and gate, and out as an intervention whose citations hold; direct questions
answered from the documents or with the fixed abstention.

    backbone.hear(turn)          an ordinary turn (people among themselves)
    backbone.robot_said(turn)    the robot's own turn (what it said is said: no repeats)
    backbone.next_intervention(now)   the gate: an Intervention ready for the floor, or None
    backbone.answer(turn, text)  a direct question (addressed to the robot)

No single model decision makes the robot speak: a monitor's finding only opens a claim; the
guard closes it when the group fixes it; the gate decides; the check discards a draft whose
citations do not hold. Pure: no ROS, time from the turns' stamps.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import uuid
from typing import Deque, List, Optional, Sequence

from .documents import DocumentLibrary
from .generation import Draft, TemplateGenerator, check, evidence
from .ledger import Claim, ClaimLedger, ClaimState, GateConfig
from .monitor import Finding, Label, Monitor, Turn
from .repair import repaired_by

log = logging.getLogger(__name__)

CONTEXT_TURNS = 8  # the turns a direct question may refer back to (Jarvis: the last eight)


@dataclasses.dataclass
class Intervention:
    """What the robot will say (or said), with its evidence: published on phanthy/interventions."""
    id: str
    kind: str  # gap | wrong | misattribution | answer | abstain
    claim: str
    text: str
    citations: List[str]
    evidence: List[str]
    state: str = "pending"  # pending | hand_raised | speaking | delivered | yielded | dropped | discarded
    turns_late: int = 0  # ordinary turns between the problem and this intervention
    problem_turn: int = -1
    created: float = 0.0
    reason: str = ""  # why it was dropped or discarded
    heard: str = ""  # what of it was said, as heard
    claim_ref: Optional[Claim] = dataclasses.field(default=None, repr=False, compare=False)


@dataclasses.dataclass
class Heard:
    """What one ordinary turn did to the backbone (for logs, tests and the benchmark)."""
    finding: Finding
    repaired: List[Claim] = dataclasses.field(default_factory=list)
    expired: List[Claim] = dataclasses.field(default_factory=list)
    opened: Optional[Claim] = None


class Backbone:
    def __init__(self, library: DocumentLibrary, monitor: Monitor, gate: GateConfig = GateConfig(),
                 generator=None, answerer=None):
        self.library = library
        self.monitor = monitor
        self.generator = generator or TemplateGenerator(library)
        self.answerer = answerer  # (question, context turns) -> Finding or None; default: the monitor's
        self.ledger = ClaimLedger(gate, cited_text=lambda ids: " ".join(evidence(library, ids)))
        self.recent: Deque[Turn] = collections.deque(maxlen=CONTEXT_TURNS)
        self.discarded: List[Intervention] = []  # the newest 50, for tests and logs
        self._unreported: List[Intervention] = []

    # --- turns -----------------------------------------------------------------------------------
    def hear(self, turn: Turn) -> Heard:
        repaired = self.ledger.observe(turn.text, turn.index)
        try:
            finding = self.monitor.assess(turn, list(self.recent))
        except Exception as exc:  # a broken monitor must not take the node down: the turn is unjudged
            log.error("monitor %s failed on turn %d: %s", getattr(self.monitor, "name", "?"), turn.index, exc)
            finding = Finding(Label.OFF_TOPIC, turn.index, turn.text[:300], speaker=turn.speaker, source="error")
        self.recent.append(turn)
        opened = self.ledger.add(finding)
        return Heard(finding, repaired, self.ledger.expire(), opened)

    def robot_said(self, turn: Turn) -> List[Claim]:
        self.recent.append(turn)
        return self.ledger.observe(turn.text, turn.index, robot=True)

    def forget(self) -> None:
        """The group left: its turns, its open points, what the robot told it and the exhibit it
        talked about are forgotten (the next group starts from nothing)."""
        self.recent.clear()
        self.ledger.forget()
        forget = getattr(self.monitor, "forget", None)  # a monitor that keeps state (the focus)
        if forget is not None:
            forget()

    def still_needed(self, intervention: Intervention, turn: Turn) -> Optional[str]:
        """Does this turn make a pending intervention pointless (someone said it meanwhile)?"""
        claim = intervention.claim_ref
        if claim is None:
            return None
        return repaired_by(claim.finding, turn.text, " ".join(intervention.evidence))

    # --- the gate ----------------------------------------------------------------------------------
    def next_intervention(self, now: float) -> Optional[Intervention]:
        """The gate's next intervention with a checked draft, or None. A draft that fails the
        citation check is discarded (kept in `discarded`, never said) and its claim closed."""
        while True:
            claim = self.ledger.ready(now)
            if claim is None:
                return None
            draft = self._draft(claim.finding)
            problem = check(draft, self.library, claim.finding) if draft else "no draft"
            intervention = self._make(draft, claim, now) if draft else None
            if problem is not None:
                log.warning("intervention on %r discarded: %s", claim.finding.claim[:80], problem)
                claim.state, claim.why = ClaimState.EXPIRED, f"discarded: {problem}"
                if intervention is not None:
                    intervention.state, intervention.reason = "discarded", problem
                    self.discarded = (self.discarded + [intervention])[-50:]
                    self._unreported = (self._unreported + [intervention])[-50:]
                continue
            self.ledger.fire(claim, now)
            return intervention

    def take_discarded(self) -> List[Intervention]:
        """Interventions discarded since the last call (to publish once, as `discarded`)."""
        taken, self._unreported = self._unreported, []
        return taken

    def _draft(self, finding: Finding) -> Optional[Draft]:
        try:
            return self.generator.draft(finding)
        except Exception as exc:
            log.error("generator %s failed: %s", getattr(self.generator, "name", "?"), exc)
            return None

    def _make(self, draft: Draft, claim: Optional[Claim], now: float, problem_turn: int = -1) -> Intervention:
        return Intervention(
            id=uuid.uuid4().hex[:12], kind=draft.kind, claim=draft.claim, text=draft.text,
            citations=list(draft.citations), evidence=evidence(self.library, draft.citations),
            turns_late=claim.age if claim else 0, problem_turn=claim.opened if claim else problem_turn,
            created=now, claim_ref=claim)

    # --- direct questions ------------------------------------------------------------------------
    def answer(self, turn: Turn, question: str) -> Intervention:
        """A question addressed to the robot: answered from the documents (the last turns
        resolve what "it" is), or the fixed abstention. Never invents."""
        finding = None
        try:
            finding = (self.answerer or self._monitor_answer)(question, list(self.recent), turn)
        except Exception as exc:
            log.error("answering %r failed: %s", question[:80], exc)
        draft = self.generator.answer(question, finding)
        problem = check(draft, self.library, finding if draft.kind == "answer" else None)
        if problem is not None:
            log.warning("answer to %r discarded (%s): abstaining", question[:80], problem)
            draft = self.generator.answer(question, None)
        self.recent.append(turn)
        return self._make(draft, None, turn.stamp, turn.index)

    def _monitor_answer(self, question: str, context: Sequence[Turn], turn: Turn) -> Optional[Finding]:
        answer = getattr(self.monitor, "answer_question", None)
        return answer(question, context, turn) if answer else None
