"""Names in the documents (people, places, named things) and which document each belongs to,
so a fact moved to the wrong exhibit ("this whale was found in South Dakota") can be caught.

The inventory is read from the documents themselves: runs of capitalized words (with the
small joiners of names: "Mare aux Songes", "Hell Creek Formation"), not counting a
sentence's first word unless the run goes on ("Lucia Ferrer donated ..."). Each name gets a
kind from the words before it in the documents: a *person* after "named", "by", "Dr.",
"painter", ...; a *place* after "in", "near", "at", "from", "off", "on"; else *name*. A
person's last name alone ("Larson") is a name of theirs too. In what people say, names are
found case-insensitively (a recognizer may not capitalize), whole words only.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Dict, Iterable, List, Optional, Set

from .documents import DocumentLibrary, Sentence

JOINERS = frozenset({"of", "de", "du", "la", "le", "aux", "van", "von", "da", "del", "the"})
NOT_NAMES = frozenset("""The A An It Its His Her Their Our Your This That These Those In On At By
For From When While After Before During If As Here There Each Every Some Most Many Visitors
Scientists Nobody Getting Digging One Two Three He She They We You I Dutch French Amateur Rats
Blue Giant Woolly Adult Amethyst Lava Scans Celsius Earth""".split())
PERSON_CUES = ("named", "by", "dr.", "dr", "painter", "sculptor", "engineer", "physicist",
               "naturalist", "captain", "scientist", "miner", "herder", "schoolteacher", "pilot")
PLACE_CUES = ("in", "near", "at", "from", "off", "on")
TITLES = ("Dr.", "Dr", "Prof.", "Mr.", "Mrs.", "Ms.")
MONTHS = frozenset("January February March April May June July August September October November December".split())
KINDS = ("person", "place", "name")


@dataclasses.dataclass
class Entity:
    name: str  # as written in the documents
    kind: str  # person | place | name
    documents: Set[str] = dataclasses.field(default_factory=set)
    sentences: List[str] = dataclasses.field(default_factory=list)  # ids, in order
    aliases: Set[str] = dataclasses.field(default_factory=set)  # lowercase forms matched in speech


@dataclasses.dataclass(frozen=True)
class Mention:
    entity: Entity
    alias: str
    start: int
    end: int


def _runs(text: str) -> Iterable[re.Match]:
    word = r"[A-Z][\w'’-]*\.?"
    return re.finditer(rf"(?<![\w']){word}(?:\s+(?:(?:{'|'.join(JOINERS)})\s+)?{word})*", text)


def _kind_before(text: str, start: int) -> str:
    before = [w for w in re.findall(r"[\w.]+", text[:start].lower()) if w != "the"][-2:]
    if before and before[-1] in PERSON_CUES or (len(before) == 2 and before[0] in ("named", "by")):
        return "person"
    if before and before[-1] in PLACE_CUES:
        return "place"
    if len(before) == 2 and before[1] == "of" and before[0] in ("island", "coast", "city", "town", "river", "bank"):
        return "place"
    return "name"


def names_in(sentence: Sentence) -> List[tuple]:
    """(name, kind) of each name in a document sentence."""
    out = []
    for m in _runs(sentence.text):
        name = m.group(0).rstrip(".")
        words = name.split()
        if m.start() == 0 or sentence.text[:m.start()].strip().endswith(('"', "“")):
            while words and words[0] in NOT_NAMES:
                words = words[1:]
            if len(words) < 2 and m.start() == 0 and len(name.split()) == 1:
                continue  # a capitalized first word alone is just a sentence start
        words = [w for w in words if w not in NOT_NAMES and w not in MONTHS]
        titled = bool(words) and words[0] in TITLES
        if titled:
            words = words[1:]
        while words and words[0].lower() in JOINERS:
            words = words[1:]
        while words and words[-1].lower() in JOINERS:
            words = words[:-1]
        if not words:
            continue
        name = " ".join(words)
        if name.lower() in ("t", "t. rex", "rex"):
            continue
        kind = "person" if titled else _kind_before(sentence.text, m.start() + m.group(0).find(words[0]))
        out.append((name, kind))
    return out


class EntityIndex:
    """The documents' names, by lowercase alias."""

    def __init__(self, library: DocumentLibrary):
        self.entities: Dict[str, Entity] = {}
        for sentence in library.sentences:
            for name, kind in names_in(sentence):
                entity = self.entities.setdefault(name, Entity(name, kind))
                if entity.kind == "name" and kind != "name":
                    entity.kind = kind
                entity.documents.add(sentence.document)
                entity.sentences.append(sentence.id)
        common = {w for s in library.sentences for w in re.findall(r"\b[a-z][a-z'-]+\b", s.text)}
        for entity in self.entities.values():
            entity.aliases.add(entity.name.lower())
            parts = entity.name.split()
            if entity.kind == "person" and len(parts) >= 2 and parts[-1].lower() not in common:
                entity.aliases.add(parts[-1].lower())  # "Larson" is Peter Larson ("Marsh" is also a marsh)
        self._by_alias: Dict[str, Entity] = {}
        for entity in sorted(self.entities.values(), key=lambda e: len(e.name)):
            for alias in entity.aliases:
                self._by_alias[alias] = entity
        aliases = sorted(self._by_alias, key=len, reverse=True)
        self._pattern = re.compile(r"\b(" + "|".join(re.escape(a) for a in aliases) + r")\b",
                                   re.IGNORECASE) if aliases else None

    def mentions(self, text: str) -> List[Mention]:
        """The documents' names said in `text` (longest alias first, no overlaps)."""
        if self._pattern is None:
            return []
        return [Mention(self._by_alias[m.group(1).lower()], m.group(1), m.start(), m.end())
                for m in self._pattern.finditer(text)]

    def in_sentence(self, sentence: Sentence, kind: Optional[str] = None) -> List[Entity]:
        found = [m.entity for m in self.mentions(sentence.text)]
        seen: List[Entity] = []
        for entity in found:
            if entity not in seen and (kind is None or entity.kind == kind):
                seen.append(entity)
        return seen

    def without_names(self, text: str) -> str:
        """The text with the documents' names taken out ("Stan Sacrison reported it" says
        nothing about Stan the T. rex)."""
        for m in reversed(self.mentions(text)):
            text = text[:m.start] + " " + text[m.end:]
        return text

    def get(self, name: str) -> Optional[Entity]:
        return self.entities.get(name) or self._by_alias.get(name.lower())
