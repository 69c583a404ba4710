"""A name spelled out letter by letter ("Brown, B-R-O-W-N", "the name is N-G-U-Y-E-N"): the
letters are the name, neither a booking code nor words to match. Pure functions over text,
shared by codes.py (no code) and names.py (the name)."""

from __future__ import annotations

import re
from typing import Iterator, Optional, Tuple

# three or more single letters, apart ("B-R-O-W-N", "D U B O I S", "K.O.W.")
SPELLING = re.compile(r"(?<![\w'-])((?:[A-Za-z][\s.-]+){2,}[A-Za-z])(?![\w-])")
# the cue of a name said only in letters ("the name is N-G-U-Y-E-N", "spelled K-O-W-...")
_NAME_CUE = re.compile(r"\b(?:(?:sur|last\s+|family\s+)?name(?:\s+is|'s|:)?|spel(?:led|t|ling)(?:\s+(?:is|as))?|"
                       r"spells?)\W*$", re.I)
WORD = r"[a-zß-öø-ÿ\u0100-\u017f][a-zß-öø-ÿ\u0100-\u017f'-]+"


def letters(spelled: str) -> str:
    """The spelled letters joined, in lowercase ("B-R-O-W-N" -> "brown")."""
    return re.sub(r"[\s.,-]", "", spelled).lower()


def word_spelled(text: str, start: int, end: int) -> Optional[re.Match]:
    """The word said elsewhere in the text that text[start:end], letter by letter, spells."""
    spelled = letters(text[start:end])
    return next((m for m in re.finditer(rf"(?<![\w'-])({WORD})(?![\w'-])", text, re.I)
                 if m.group(1).lower() == spelled and not start <= m.start() < end), None)


def spelled_as_a_name(text: str, start: int) -> bool:
    """Letters at text[start:] follow a name's cue ("the name is", "spelled")."""
    return bool(_NAME_CUE.search(text[max(0, start - 30):start]))


def spellings(text: str) -> Iterator[Tuple[int, int]]:
    """The spans of the letter-by-letter spellings in the text."""
    for found in SPELLING.finditer(text):
        yield found.start(1), found.end(1)
