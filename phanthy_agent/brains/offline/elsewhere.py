"""Things outside the venue: an utterance that names a place, business, service or event the
venue does not have ("when does the zoo open?", "book me a train ticket") is out of scope,
however closely its form matches one of the venue's own requests.

Meaning alone cannot tell these apart. The sentence encoder scores "when does the zoo open"
against the museum's "when do you open?" as high as a real paraphrase, and no threshold
separates them: replacing the unknown word with "museum" raised the score of off-topic
questions (zoo +0.34) about as much as that of in-domain ones (card +0.26, building +0.20).
Out-of-scope examples about other places were tried too; they took the museum's own questions
("how much is a bus ticket?" took "how much is a ticket?"). bench/README.md, "Offline brain",
has the figures.

So the intents file lists words that name things elsewhere (`elsewhere_words`: the town's
businesses, transport, events). A word the venue's own files use (its FAQ, its intents'
examples and slot aliases, its tools' descriptions, examples and places) is not elsewhere for
it: a museum whose FAQ mentions its library keeps "library" in scope. Plurals count ("buses").
Such a word is the venue's only where its files use it, though: "how do I get here by bus?" is
the FAQ's, "where is the bus company's lost property?" is not the lost property entry's
(`in_scope_named`, checked against the texts of what the utterance was understood as).
Pure: no ROS, no model."""

from __future__ import annotations

import functools
import re
from typing import Iterable, List, Optional, Pattern, Sequence, Tuple

READ_CHARS = 1500  # characters of an utterance read (what the encoder reads, about 256 tokens)


class Elsewhere:
    def __init__(self, words: Sequence[str], world: Iterable[str]):
        wanted = sorted({" ".join(w.lower().split()) for w in words if w and w.strip()}, key=len, reverse=True)
        # a word of the venue's own files is the venue's (each text read once per process: a new
        # tool set reads only its own texts)
        used = set().union(*(_used(tuple(wanted), str(t)) for t in world)) if wanted else set()
        self._patterns = {w: phrase_pattern([w]) for w in wanted}
        self.in_scope = [w for w in wanted if any(self._patterns[w].search(u) for u in used)]
        self.words = [w for w in wanted if w not in self.in_scope]
        self._regex: Optional[Pattern] = phrase_pattern(self.words) if self.words else None

    def in_scope_named(self, text: str) -> List[str]:
        """The words of the list the venue's own files use that the utterance names."""
        return [w for w in self.in_scope if self._patterns[w].search(_asked(text))]

    def named(self, text: str) -> str:
        """The first word or phrase of the list the utterance names ("" for none); not in a
        reason given for the request ("because our train was late, could we have a refund?", "...
        before we head for the train")."""
        if self._regex is None or not text:
            return ""
        found = self._regex.search(_asked(text))
        return found.group(0).lower() if found else ""


# a reason or the time left ("because our train was late", "before we head for the train")
REASON = re.compile(r"\b(?:because|cause|'cause|since|before\s+(?:we|i|our|my)\b)[^,.;!?]*", re.I)


def _asked(text: str) -> str:
    return REASON.sub(" ", text[:READ_CHARS])


# the booking, ticket or membership is the other place's ("refund my theatre tickets, booking
# TH5590", "cancel my gym membership, member number G-55012"): its code is not the venue's
BOOKING_OF = r"(?:\s+\w+)?\s+(?:tickets?|bookings?|reservations?|memberships?|seats?)\b"


def owns_the_booking(text: str, thing: str) -> bool:
    """Whether the thing elsewhere is what the booking, tickets or membership said are for."""
    return bool(re.search(r"\b(?:my|our|his|her|their|the|a|an)\s+(?:\w+\s+)?" + phrase_pattern([thing]).pattern + BOOKING_OF,
                          _asked(text), re.I))


@functools.lru_cache(maxsize=8192)
def _used(wanted: Tuple[str, ...], text: str) -> frozenset:
    """The words of `wanted` that `text` uses."""
    said = text.lower().replace("_", " ")
    return frozenset(" ".join(m.group(0).lower().split()) for m in phrase_pattern(wanted).finditer(said))


def phrase_pattern(words: Sequence[str]) -> Pattern:
    """Whole words, any spacing between a phrase's words, an optional plural ending
    ("buses", "libraries"). Compiled once per list (a new tool set builds its lists again)."""
    return _compiled(tuple(words))


@functools.lru_cache(maxsize=1024)
def _compiled(words: Tuple[str, ...]) -> Pattern:
    def one(word: str) -> str:
        *head, last = word.split()
        if re.search(r"[^aeiou]y$", last):
            last = re.escape(last[:-1]) + "(?:y|ies)"
        else:
            last = re.escape(last) + "(?:s|es)?"
        return r"\s+".join([re.escape(w) for w in head] + [last])
    return re.compile(rf"\b(?:{'|'.join(one(w) for w in words)})\b", re.I)
