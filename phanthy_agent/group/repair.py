"""The self-repair check: did the group fix an open point itself? Deterministic, so no model
can talk the robot into or out of speaking.

A point closes only when a turn actually states the documents' value (the same number in the
same dimension, or the right name), in a statement: a question ("was it 180?") and "I don't
know" never close it. A misattribution also closes on a retraction ("no wait, I mixed it up",
or the wrong name said with a negation: "not in South Dakota"). The robot's own turns close
what they state too (then it has said it: no repeat).
"""

from __future__ import annotations

import re
from typing import Optional

from .monitor import Finding, Label
from .quantities import extract, same_value
from .utterances import analyse, content_words, coverage

NEGATION = r"\b(?:not|n't|never|wasn'?t|isn'?t|no)\b"


def _says_name(text: str, aliases) -> bool:
    lowered = text.lower()
    return any(re.search(rf"\b{re.escape(alias)}\b", lowered) for alias in aliases)


def _negates_name(text: str, aliases) -> bool:
    lowered = text.lower()
    for alias in aliases:
        for m in re.finditer(rf"\b{re.escape(alias)}\b", lowered):
            if re.search(NEGATION, lowered[max(0, m.start() - 30):m.start()]):
                return True
    return False


def states_value(finding: Finding, text: str) -> bool:
    """Does `text` state the documents' value of this point (whatever else it does)?"""
    if finding.value is not None:
        return any(same_value(q, finding.value) for q in extract(text))
    if finding.aliases:
        return _says_name(text, finding.aliases)
    return False


def repaired_by(finding: Finding, text: str, cited_text: str = "") -> Optional[str]:
    """Why this turn closes the open point, or None (the guard)."""
    said = analyse(text)
    if said.is_question or said.not_knowing:
        return None
    if states_value(finding, text):
        return f"the turn states {finding.correct}"
    if finding.label is Label.MISATTRIBUTION:
        if said.retraction or _negates_name(text, finding.said_aliases):
            return "the claim was taken back"
    if finding.value is None and not finding.aliases and cited_text:
        # an answer without a typed value: the turn must say most of what the sentence says
        if coverage(content_words(cited_text), content_words(text)) >= 0.6:
            return "the turn states the cited sentence"
    return None
