"""Which exhibit the group is talking about: each turn's retrieval hits add to their document's
weight, older turns fade. "It", "this one", "he" in a question then mean the focus exhibit,
and a place or person of another exhibit said about it is a misattribution."""

from __future__ import annotations

from typing import Dict, Iterable, Optional

from .retrieval import Hit

DECAY = 0.8  # each turn keeps this share of the weight before it
FLOOR = 0.35  # a hit adds what its score exceeds this by
MIN_WEIGHT = 0.15  # below this no exhibit is in focus


class Focus:
    def __init__(self, fixed: str = ""):
        self.fixed = fixed  # an operator may pin the exhibit (the robot stands at one)
        self.weights: Dict[str, float] = {}

    def update(self, hits: Iterable[Hit]) -> Optional[str]:
        for doc in list(self.weights):
            self.weights[doc] *= DECAY
        for hit in list(hits)[:3]:
            gain = hit.score - FLOOR
            if gain > 0:
                self.weights[hit.sentence.document] = self.weights.get(hit.sentence.document, 0.0) + gain
        return self.document

    @property
    def document(self) -> Optional[str]:
        if self.fixed:
            return self.fixed
        if not self.weights:
            return None
        doc, weight = max(self.weights.items(), key=lambda item: item[1])
        return doc if weight >= MIN_WEIGHT else None

    def reset(self) -> None:
        self.weights.clear()
