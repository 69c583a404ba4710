"""The monitor's vocabulary: a turn of the group's conversation, what the monitor says about it
(a `Finding`), and the one interface both monitors implement (`offline`: retrieval plus number
and name checks, `llm`: a model with structured output). Whatever a monitor says goes through
the same deterministic self-repair guard, ledger and gate (repair.py, ledger.py)."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Optional, Protocol, Sequence, Tuple

from .quantities import Quantity


class Label(str, Enum):
    GAP = "gap"  # an open question the documents answer
    WRONG = "wrong"  # a value the documents contradict (a number swap of the same unit)
    MISATTRIBUTION = "misattribution"  # a fact of another exhibit, person or place
    ON_TRACK = "on_track"
    OFF_TOPIC = "off_topic"
    UNANSWERABLE = "unanswerable"  # a question on topic the documents do not answer

    @property
    def actionable(self) -> bool:
        return self in (Label.GAP, Label.WRONG, Label.MISATTRIBUTION)


@dataclasses.dataclass(frozen=True)
class Turn:
    index: int  # 0-based among the conversation's turns (the robot's included)
    speaker: str  # Transcript.speaker_id ("" or "anonymous_speaker" when unknown)
    text: str
    stamp: float = 0.0
    robot: bool = False  # said by the robot itself


@dataclasses.dataclass(frozen=True)
class Finding:
    label: Label
    turn: int  # the turn the point was made in
    claim: str  # the statement or question it is about, normalized to one line
    citations: Tuple[str, ...] = ()  # sentence ids that ground it (the correct value is in the first)
    correct: str = ""  # the documents' value as written ("180 kilograms", "Wexford")
    said: str = ""  # the value as said ("600 kilograms", "South Dakota"); "" for a question
    dimension: str = ""  # mass, count:tooth, year, place, person, ... ("" unknown)
    value: Optional[Quantity] = None  # the correct value, when it is a quantity
    aliases: Tuple[str, ...] = ()  # lowercase forms of the correct name, when it is a name
    said_aliases: Tuple[str, ...] = ()  # lowercase forms of the wrong name said (misattribution)
    related: Tuple[str, ...] = ()  # where a misattributed fact really belongs (sentence ids)
    speaker: str = ""
    source: str = "offline"  # which monitor said so

    @property
    def key(self) -> str:
        """What the point is about: the grounding sentence, the kind of value and the value. Two
        findings with one key are the same point (the ledger keeps one, the gate says it once)."""
        where = self.citations[0] if self.citations else self.claim.lower()
        return f"{where}|{self.dimension}|{self.correct.lower()}"  # one sentence may hold two facts


class Monitor(Protocol):
    name: str

    def assess(self, turn: Turn, recent: Sequence[Turn]) -> Finding:
        """Label one ordinary turn (`recent`: the turns before it, oldest first)."""
        ...


def one_line(text: str, limit: int = 300) -> str:
    return " ".join(text.split())[:limit]
