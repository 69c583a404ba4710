"""What a visitor means: the intents, tools and FAQ entries ranked by meaning, offline.

Every candidate has example texts: an intent its `examples` (and its tools' `x-examples`), a
driver tool without an intent its description's first sentence, its name in words and its
`x-examples` (so a tool added at run time is understood with no rules), an FAQ entry its
questions and its answer's sentences (what an answer says is what it answers). An utterance
scores against each example by

    score = cosine(sentence embeddings)  +  LEX_WEIGHT * bm25 / (bm25 + LEX_HALF)

(all-MiniLM-L6-v2, `phanthy_common.embedding`; BM25 over the same examples,
`phanthy_common.lexical`), and a candidate takes its best example. An intent's `patterns`
(regexes over the whole utterance) win outright, with score 1. Before ranking, typos are mended
against the examples' words (`spelled`: "wnat to book a tuor"); the intents file's
`out_of_scope` examples rank too, and an utterance closest to one of them matches nothing; so
does one that names a thing outside the venue (`elsewhere_words`, elsewhere.py).

Thresholds (`accept`, `suggest` in the intents file): at or above `accept` the brain acts; from
`suggest` up it asks "did you mean ...?"; below it gives the honest fallback. Calibrated on
`bench/paraphrases.yaml` (written apart from the intents file: 5+ phrasings per intent and
FAQ entry, and off-topic requests) with `bench/offline_brain.py paraphrases --sweep`, and
checked on sets written without reading the brain's files (none of their sentences is in
them): at the shipped 0.50 / 0.42, 95.2 % of 146 / 0 of 30 off-topic accepted on the first set;
on the last ten blind sets, each measured before it was read, 88.7 % of 1,930 / 3.8 % of 1,100
(bench/README.md has every set, the sweeps and how the examples grew). Without the
embedding model (not installed: logged as an error) the score is the lexical term alone,
scaled to the same range.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import re
from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from phanthy_common.lexical import STOPWORDS, LexicalIndex

from .config import FaqEntry, IntentsFile
from .elsewhere import Elsewhere, owns_the_booking, phrase_pattern
from .codes import find_codes
from .names import find_names, spelling_said
from .addressee import ASKS_SOMETHING
from .typos import SPELL_CHARS, TypoMender
from .spoken import ENDEARMENT, HESITATION, normalized
from .values import unlocated, unnegated
from .wording import KIND_NAMES, SERVES_THE_VENUE

log = logging.getLogger(__name__)

LEX_WEIGHT = 0.15
LEX_HALF = 4.0  # the BM25 score that gives half the lexical term (one rare shared word ~ 4-5)
VENUE_WORDS = ["museum", "here", "this place", "tour", "booking", "reservation", "ticket", "member", "membership"]
CLAUSE_WORDS = 3  # a clause this long is ranked on its own too (requests among context)
CLAUSE_PENALTY = 0.05  # what a request found in one clause of several gives up against the whole
SUBJECT_MARGIN = 0.2  # an FAQ entry whose subject the question names wins over a closer one by this
CACHE = 1024  # embeddings of recent utterances kept
STOP = STOPWORDS | {"robot", "museum"}
# how a visitor addresses the robot before saying what they want ("hey robot, stop walking",
# "excuse me, um, is there somewhere to eat"): ranked without it, it made every such request a greeting
ADDRESS = re.compile(r"^\W*(?:(?:(?:hey|hi|hiya|hello|hallo|oi|yo)(?:\s+there)?|excuse\s+me|pardon\s+me|"
                     r"good\s+(?:morning|afternoon|evening)|um+|uh+|erm?|(?:mister\s+|mr\.?\s+)?robot|"
                     + "|".join(KIND_NAMES) + r")\b[\s,.!?;:-]*)+",
                     re.I)
ADDRESSED_WORDS = 3  # what follows an address is ranked alone when it has this many words
# a question what a place holds: the place named "in the ..." is its subject
CONTENTS = re.compile(r"^\W*(?:is\s+there|are\s+there|have\s+you\s+got|do\s+you\s+have|which|what)\b[^?.!]*\bin\s+(?:the|your)\b", re.I)
# a thing set beside what is asked about ("besides the T. rex", "apart from the rockets")
SET_BESIDE = re.compile(r"\b(?:besides|apart\s+from|other\s+than|except(?:\s+for)?|aside\s+from|as\s+well\s+as)\s+(?:the\s+|your\s+)?"
                        r"[\w.'-]+(?:\s+[\w.'-]+){0,2}?(?=\s+(?:in|at|on|up)\b|\s*[,?.!]|\s*$)", re.I)
VENUE_HERE = re.compile(r"\b(?:in|inside|at|around|within)\s+(?:the|this|your)\s+(?:museum|building)\b", re.I)


@dataclasses.dataclass(frozen=True)
class Meaning:
    kind: str  # intent | tool | faq | elsewhere (an out-of-scope example: ranked first, nothing matches)
    key: str  # intent name, tool name, FAQ entry index
    score: float
    example: str = ""  # the example that matched best


class _Rows:
    """Example texts, whose candidate each belongs to, their embeddings and a BM25 index."""

    def __init__(self, rows: List[Tuple[str, str, str]], encoder) -> None:
        self.owners = [(kind, key) for kind, key, _ in rows]
        self.texts = [text for _, _, text in rows]
        self.vectors = encoder.encode(self.texts) if encoder is not None else None
        self.lexical = LexicalIndex(self.texts, STOP)
        # ties (the same words as an FAQ question and a request's example) go to the FAQ entry,
        # whatever the rows' order: "any accessible toilets?" is answered
        self.faq_last = np.array([0 if kind == "faq" else 1 for kind, _ in self.owners])
        self.words = {w for t in self.texts for w in re.findall(r"[a-z]+", t.lower())}
        self.elsewhere = Elsewhere([], [])  # the tools' rows: what is not the venue's (elsewhere.py)


class Understanding:
    def __init__(self, cfg: IntentsFile, faq: Sequence[FaqEntry], encoder=None):
        self.cfg, self.faq, self.encoder = cfg, list(faq), encoder
        self._patterns = [(i.name, [re.compile(p, re.I) for p in i.patterns]) for i in cfg.intents]
        self._cues = {i.name: re.compile(i.cues, re.I) for i in cfg.intents if i.cues}
        self._faq_patterns = [(n, [re.compile(p, re.I) for p in e.patterns]) for n, e in enumerate(self.faq) if e.patterns]
        self._synonyms = {k.lower(): v for k, v in cfg.synonyms.items()}
        self._synonym = phrase_pattern(list(self._synonyms)) if self._synonyms else None
        self._covered = {t for i in cfg.intents for t in i.tools}
        self._tool_rows: Dict[Tuple, _Rows] = {}
        self._cache: "collections.OrderedDict[str, np.ndarray]" = collections.OrderedDict()
        self._typos = TypoMender(lambda word: self.encoder is not None and self.encoder.knows(word))
        rows = [("intent", i.name, ex) for i in cfg.intents for ex in i.examples]
        rows += [("faq", str(n), q) for n, e in enumerate(self.faq) for q in e.questions]
        # what an answer says is what it answers ("a model of the solar system")
        rows += [("faq", str(n), a) for n, e in enumerate(self.faq) for a in _sentences(e.answer)]
        # the venue's own words (elsewhere.py): everything but the out-of-scope examples
        self._world = [t for _, _, t in rows] + [i.label for i in cfg.intents] + \
            [f"{phrase} {c.display}" for i in cfg.intents for c in i.slots.values() for phrase in c.aliases]
        rows += [("elsewhere", "", t) for t in cfg.out_of_scope]
        self._static = _Rows(rows, encoder)
        self._static.elsewhere = Elsewhere(cfg.elsewhere_words, self._world)  # read the files' words once

    @property
    def vocabulary(self) -> Set[str]:
        """The words of the venue's own texts (examples, FAQ, out-of-scope examples), lowercase."""
        return self._static.words

    # --- ranking -------------------------------------------------------------------------------
    def pattern(self, text: str) -> Optional[str]:
        """The first intent (file order) one of whose patterns matches the utterance."""
        text = self.normalized(text)
        said = ADDRESS.sub("", text, count=1)  # "hey robot, stop walking"
        for name, regexes in self._patterns:
            if any(r.search(text) or said != text and r.search(said) for r in regexes):
                return name
        return None

    def faq_pattern(self, text: str) -> Optional[Meaning]:
        """The first FAQ entry (file order) one of whose patterns matches the utterance."""
        text = self.normalized(text)
        return next((Meaning("faq", str(n), 1.0) for n, regexes in self._faq_patterns
                     if any(r.search(text) for r in regexes)), None)

    def venue_named(self, text: str, tools: Dict[str, dict]) -> bool:
        """Whether the text names the venue or one of its own things (places, FAQ subjects)."""
        own = VENUE_WORDS + [e.id.replace("_", " ") for e in self.faq if e.id] + \
            [v.replace("_", " ") for v in _enums(tools)] + \
            [phrase for i in self.cfg.intents for c in i.slots.values() for phrase in c.aliases]
        return bool(phrase_pattern(own).search(self.normalized(text)))

    def _asked_there(self, text: str, tools: Dict[str, dict], elsewhere: Elsewhere) -> bool:
        """The sentences naming somewhere else ask and name nothing of the venue's, the others ask
        nothing and give no code or number: the venue's own thing is a remark after the request
        ("Where's the nearest cashpoint? Your gift shop's card machine is broken", "Can you take me to
        the nearest Starbucks? Your cafe is nice but I'm loyal.")."""
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]
        there = [s for s in sentences if elsewhere.named(_without_names(s))]
        rest = " ".join(s for s in sentences if s not in there)
        return bool(there and rest) and all(ASKS_SOMETHING.search(s) and not self.venue_named(s, tools) for s in there) \
            and not ASKS_SOMETHING.search(rest) and not re.search(r"\d", rest) and not find_codes(rest)

    def _is_act(self, kind: str, key: str) -> bool:
        intent = next((i for i in self.cfg.intents if i.name == key), None) if kind == "intent" else None
        return intent is not None and bool(intent.act)

    def pattern_sentence(self, text: str) -> str:
        """The sentence of the utterance in which `pattern()` found its intent."""
        sentences = re.split(r"(?<=[.!?;])\s+", text)
        name = self.pattern(text)
        return next((s for s in sentences if name is not None and self.pattern(s) == name), text)

    def rank(self, text: str, tools: Dict[str, dict], whole: str = "") -> List[Meaning]:
        """Every candidate once, best first (patterns are `pattern()`'s business). An intent's cue
        words may be anywhere in the `whole` utterance, of which `text` is part ("Cancel, please,
        the tour for Ivanova, ... we must go to the airport": the rest is ranked, "cancel" is said)."""
        whole = whole or text
        best: Dict[Tuple[str, str], Meaning] = {}
        tool_rows = self._rows_for(tools)
        said = ADDRESS.sub("", text, count=1)
        if said != text and len(said.split()) >= ADDRESSED_WORDS:
            # "hey robot, is there somewhere to eat": what follows the address, when it is understood
            ranked = self.rank(said, tools, whole)
            if ranked and ranked[0].score >= self.cfg.accept:
                return ranked
        text = self.spelled(unnegated(self.normalized(text)), tool_rows)  # "not cancel, just check it"
        clauses = [c for c in _clauses(text[:SPELL_CHARS]) if len(c.split()) >= CLAUSE_WORDS]
        thing = tool_rows.elsewhere.named(_without_names(text)) if not SERVES_THE_VENUE.search(text) else ""
        if thing:
            # "we've got a train at five, what time does the museum shut?": the rest may still be the venue's
            every = _clauses(text[:SPELL_CHARS])  # short ones too: "Toilets, quickly please, before the train"
            rest = [c for c in every if not tool_rows.elsewhere.named(_without_names(c))]
            # only a rest that names the venue's own things or a booking's code ("I lost my passport at the
            # airport, what do I do?": the rest is about the passport; "I want to join the library, can you
            # sign me up?"), unless it only remarks on them after asking for somewhere else
            own = rest and len(rest) < len(every) and (self.venue_named(", ".join(rest), tools) or
                                                       _booking_code(", ".join(rest))) and \
                not self._asked_there(text, tools, tool_rows.elsewhere) and not owns_the_booking(text, thing)
            ranked = self.rank(", ".join(rest), tools, whole) if own else []
            if ranked and ranked[0].score >= self.cfg.accept:
                return ranked
            log.info("offline: %r is out of scope (names %r, which is not here)", text, thing)
            return []
        for rows in (self._static, tool_rows):
            if not rows.texts:
                continue
            scores = self._scores(text, rows)
            for index in np.lexsort((rows.faq_last, -scores)):
                kind, key = rows.owners[index]
                if (kind, key) not in best:
                    best[(kind, key)] = Meaning(kind, key, float(scores[index]), rows.texts[index])
            # a request said in one clause of several ("any chance of moving us to a later slot, say
            # four fifteen? booking's under Tanaka, JP-6620"): that clause's score, a little less
            for clause in clauses if len(clauses) > 1 else []:
                for index, score in enumerate(self._scores(clause, rows) - CLAUSE_PENALTY):
                    kind, key = rows.owners[index]
                    if kind in ("intent", "tool") and not self._is_act(kind, key) and score > best[(kind, key)].score:
                        best[(kind, key)] = Meaning(kind, key, float(score), rows.texts[index])
        ranked = sorted(best.values(), key=lambda m: -m.score)
        if ranked and ranked[0].kind == "elsewhere" and (_booking_code(text[:SPELL_CHARS]) or SERVES_THE_VENUE.search(text)):
            # "Refund bitte, code ZZ1188": a booking's code; "which bus goes back to the station from here?"
            ranked = [m for m in ranked if m.kind != "elsewhere"]
        if ranked and ranked[0].kind == "elsewhere":
            log.info("offline: %r is out of scope (like %r, %.2f)", text, ranked[0].example, ranked[0].score)
            return []
        intents = {i.name: i for i in self.cfg.intents}
        # an intent for tools that are not there now is ranked, and answered honestly (missing_tool);
        # one whose cue words are not said is not ("tell us a joke, robot" is not "what can you do?")
        return [m for m in ranked if m.kind not in ("intent", "elsewhere") or m.key in intents and
                (m.key not in self._cues or self._cues[m.key].search(text) or self._cues[m.key].search(self.normalized(whole)))]

    def normalized(self, text: str) -> str:
        """`normalized` with the intents file's synonyms ("scrap my booking" -> "cancel my booking"),
        and the venue named as where "here" ("anywhere to eat in the museum": the museum's name
        drew it to "when does the museum open?")."""
        text = VENUE_HERE.sub("here", ENDEARMENT.sub("", HESITATION.sub("", normalized(_codes_written(spelling_said(text))))))
        if self._synonym is None:
            return text
        return self._synonym.sub(self._synonym_of, text)

    def _synonym_of(self, match: "re.Match") -> str:
        said = re.sub(r"\s+", " ", match.group(0).lower())
        if said in self._synonyms:
            return self._synonyms[said]
        for ending in ("es", "s"):  # "bank holidays": the plural of the synonym
            if said.endswith(ending) and said[:-len(ending)] in self._synonyms:
                return self._synonyms[said[:-len(ending)]] + "s"
        return match.group(0)

    def out_of_scope(self, text: str) -> float:
        """How close the utterance comes to the intents file's out-of-scope examples."""
        rows = [i for i, (kind, _) in enumerate(self._static.owners) if kind == "elsewhere"]
        if not rows:
            return 0.0
        return float(self._scores(self.spelled(self.normalized(text)), self._static)[rows].max())

    def spelled(self, text: str, tool_rows: Optional[_Rows] = None) -> str:
        """The utterance with its typos mended against the examples' words (typos.py)."""
        return self._typos.mend(text, self._static.words | (tool_rows.words if tool_rows is not None else set()))

    def _scores(self, text: str, rows: _Rows) -> np.ndarray:
        bm25 = rows.lexical.scores(text)
        lexical = bm25 / (bm25 + LEX_HALF)
        if rows.vectors is None:
            return 0.2 + 0.8 * lexical  # no model: the lexical signal, on the same scale
        return rows.vectors @ self._embed(text) + LEX_WEIGHT * lexical

    def vector(self, text: str, tools: Dict[str, dict]) -> Optional[np.ndarray]:
        """The encoder's vector of these words as `rank` reads them (typos mended, synonyms read;
        cached, so no second embedding), or None without a model."""
        if self.encoder is None:
            return None
        return self._embed(self.spelled(self.normalized(text), self._rows_for(tools)))

    def _embed(self, text: str) -> np.ndarray:
        vector = self._cache.get(text)
        if vector is None:
            vector = self.encoder.encode([text])[0]
            self._cache[text] = vector
            if len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(text)
        return vector

    def subject(self, ranked: List[Meaning], text: str) -> Meaning:
        """The FAQ entry a question is about: when it names another entry's subject (its id:
        "the cafe") and not the best entry's, that entry, if within SUBJECT_MARGIN ("what time
        does the cafe close?" is the cafe's hours, not the museum's)."""
        top = ranked[0]
        close = [m for m in ranked[1:] if m.kind == "faq" and m.score >= top.score - SUBJECT_MARGIN]
        aside = SET_BESIDE.sub(" ", text)
        if aside != text and self._names_entry(top, text) and not self._names_entry(top, aside):
            # "anything besides the T. rex in the dinosaur hall?": the hall's
            other = next((m for m in close if self._names_entry(m, aside)), None)
            if other is not None:
                return other
        if self._names_entry(top, unlocated(aside)):
            return top
        named = next((m for m in close if self._names_entry(m, unlocated(aside))), None)
        if named is not None:
            return named
        if self._names_entry(top, text) and not CONTENTS.search(text):
            # named only as where: "are selfies ok in the dinosaur hall?" (not "is there a Triceratops in ...")
            return next((m for m in close if not self._names_entry(m, text)), top)
        return top

    def names(self, meaning: Meaning, text: str) -> bool:
        """Whether the utterance names the FAQ entry's subject (its id: "the T rex")."""
        return self._names_entry(meaning, text)

    def _names_entry(self, meaning: Meaning, text: str) -> bool:
        entry_id = self.faq[int(meaning.key)].id
        return bool(entry_id) and bool(phrase_pattern([entry_id.replace("_", " ")]).search(self.normalized(text)))

    def foreign(self, text: str, meaning: Meaning, tools: Dict[str, dict]) -> str:
        """A thing outside the venue the utterance names that the venue's files use, but not
        the texts of `meaning` ("the bus company's lost property" is not the lost property
        entry's bus; elsewhere.py); "" for none."""
        rows = self._rows_for(tools)
        named = rows.elsewhere.in_scope_named(_without_names(self.spelled(self.normalized(text), rows)))
        if not named:
            return ""
        clauses = _clauses(text)
        rest = [c for c in clauses if not rows.elsewhere.in_scope_named(self.normalized(c))]
        if rest and len(rest) < len(clauses) and self.venue_named(", ".join(rest), tools):
            return ""  # "my bus leaves at six, what time does the museum close today?": context
        own = [t for r in (self._static, rows) for (kind, key), t in zip(r.owners, r.texts)
               if (kind, key) == (meaning.kind, meaning.key)]
        intent = next((i for i in self.cfg.intents if i.name == meaning.key), None) if meaning.kind == "intent" else None
        if meaning.kind == "faq":
            own += [self.faq[int(meaning.key)].answer]
        if intent is not None:
            own += [phrase for c in intent.slots.values() for phrase in c.aliases] + [intent.label]
        names = intent.tools if intent is not None else [meaning.key] if meaning.kind == "tool" else []
        own += _enums({n: tools[n] for n in names if n in tools})  # "water the plants in the library"
        own_text = " ".join(own).lower()
        return next((w for w in named if not phrase_pattern([w]).search(own_text)), "")

    def elsewhere(self, text: str, tools: Dict[str, dict]) -> str:
        """The thing outside the venue the utterance names ("" for none; elsewhere.py)."""
        rows = self._rows_for(tools)
        return rows.elsewhere.named(_without_names(self.spelled(self.normalized(text), rows)))

    # --- the tools' own examples ---------------------------------------------------------------
    def _rows_for(self, tools: Dict[str, dict]) -> _Rows:
        key = tuple(sorted((n, str(s.get("description", "")), str(s.get("x-examples", "")),
                            str(s.get("parameters", ""))) for n, s in tools.items()))
        rows = self._tool_rows.get(key)
        if rows is None:
            rows = _Rows(self._tool_examples(tools), self.encoder)
            rows.elsewhere = Elsewhere(self.cfg.elsewhere_words, self._world + rows.texts + _enums(tools))
            if len(self._tool_rows) > 8:  # the oldest tool set goes
                self._tool_rows.pop(next(iter(self._tool_rows)))
            self._tool_rows[key] = rows
        return rows

    def _tool_examples(self, tools: Dict[str, dict]) -> List[Tuple[str, str, str]]:
        rows = []
        for name, spec in sorted(tools.items()):
            examples = [str(e) for e in spec.get("x-examples") or [] if isinstance(e, str)][:50]
            owner = next((("intent", i.name) for i in self.cfg.intents if name in i.tools), None)
            if owner is not None:  # an intent covers it: its x-examples join the intent's
                rows += [(owner[0], owner[1], e) for e in examples]
                continue
            description = str(spec.get("description") or "").strip()
            first = re.split(r"(?<=[.!?])\s", description, maxsplit=1)[0] if description else ""
            examples += [e for e in (first, name.replace("_", " ")) if e]
            rows += [("tool", name, e) for e in examples]
        return rows


def _clauses(text: str) -> List[str]:
    """The utterance's clauses, as punctuation sets them off."""
    return [c.strip() for c in re.split(r"[,.;!?]+", text) if c.strip()]


def _codes_written(text: str) -> str:
    """Codes spelled aloud written as codes ("golf hotel five one five one" -> "GH5151"): the
    radio alphabet's words mean nothing here ("hotel" is somewhere else)."""
    for code in reversed(find_codes(text[:SPELL_CHARS])):
        if " " in code.text.strip():
            text = text[:code.start] + code.value + text[code.end:]
    return text


def _booking_code(text: str) -> bool:
    """A code of letters and digits, as the venue's bookings have (not a gym's member number)."""
    return any(re.search(r"[A-Za-z]", c.value) and re.search(r"\d", c.value) for c in find_codes(text))


def _without_names(text: str) -> str:
    """The utterance without people's names ("name is Park Ji-woo" names no park)."""
    for name in reversed(find_names(text[:SPELL_CHARS], find_codes(text[:SPELL_CHARS]))):
        if name.text.lower() != name.value.lower() or " " not in name.value:  # a cue's name, or one word
            text = text[:name.start] + text[name.start + len(name.value):]
    return text


def _enums(tools: Dict[str, dict]) -> List[str]:
    """The values the tools' arguments may take (the places, the tours): the venue's own words."""
    found: List[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            found.extend(str(v) for v in node.get("enum") or [] if isinstance(v, (str, int, float)))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk([spec.get("parameters") for spec in tools.values()])
    return found


def _sentences(text: str) -> List[str]:
    return [t.strip() for t in re.split(r"(?<=[.!?])\s+", text.strip()) if len(t.split()) >= 3]
