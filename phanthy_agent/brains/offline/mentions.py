"""A value found in what a visitor said, with its character span (values.py, codes.py, names.py)."""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable


@dataclasses.dataclass(frozen=True)
class Mention:
    value: Any
    start: int
    end: int
    text: str = ""
    weak: bool = False  # a number only by an article ("a ticket")

    def overlaps(self, other: "Mention") -> bool:
        return self.start < other.end and other.start < self.end


def free(mention: Mention, taken: Iterable[Mention]) -> bool:
    return not any(mention.overlaps(t) for t in taken)
