"""Typos mended before ranking ("wnat to book a tuor" -> "want to book a tour").

A word the encoder does not know as a word (it would piece it together from fragments) that is
one slip from a word of the venue's examples (two letters swapped, or difflib ratio >=
SPELL_RATIO with the same first letter) is taken as that word. Only for ranking: arguments are
read from what was said. Plain Python over text, no model of its own.
"""

from __future__ import annotations

import difflib
import re
from typing import Callable, Dict, Set

SPELL_CHARS = 1500  # characters of an utterance mended (the encoder reads 256 tokens)
SPELL_RATIO = 0.8  # difflib ratio of a typo to the word it means ("tickts" -> "tickets" 0.92)
CACHE = 1024  # typos remembered with what they were mended to


class TypoMender:
    def __init__(self, knows: Callable[[str], bool] = lambda word: False) -> None:
        self._knows = knows  # whether the encoder knows a word as a whole word
        self._mended: Dict[str, str] = {}  # typo -> the word it was mended to (or itself)

    def mend(self, text: str, vocabulary: Set[str]) -> str:
        """The text with each unknown word one slip from a word of `vocabulary` replaced by it."""
        def mend_word(match: "re.Match") -> str:
            word = match.group(0)
            lower = word.lower()
            if len(lower) < 4 or lower in vocabulary or self._knows(lower):
                return word
            fixed = self._mended.get(lower)
            if fixed is None:
                fixed = closest(lower, vocabulary) or lower
                if len(self._mended) < CACHE:
                    self._mended[lower] = fixed
            return word if fixed == lower else fixed

        # a huge input is not mended word by word: the encoder reads only its start
        return re.sub(r"[A-Za-z]+", mend_word, text[:SPELL_CHARS]) + text[SPELL_CHARS:]


def closest(word: str, vocabulary: Set[str]) -> str:
    """The vocabulary word `word` is one slip from, or ""."""
    letters = sorted(word)
    swapped = [v for v in vocabulary if len(v) == len(word) and v[0] == word[0] and sorted(v) == letters]
    if swapped:
        return min(swapped)
    close = [v for v in vocabulary if v[0] == word[0] and abs(len(v) - len(word)) <= 2]
    found = difflib.get_close_matches(word, close, n=1, cutoff=SPELL_RATIO)
    return found[0] if found else ""
