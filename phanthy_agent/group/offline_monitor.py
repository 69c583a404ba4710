"""The offline monitor (no language model): retrieval finds the sentences a turn is about, and
deterministic checks decide.

- A question is a *gap* when a sentence of the exhibit in focus holds a value of the type the
  question wants (a mass for "how heavy", a year for "when", a place for "where", ...) and
  covers what it asks about (its content words); on topic but no such sentence: *unanswerable*.
- A statement's number is *wrong* when the sentence about the same thing (best subject match,
  same dimension) holds a different value and no sentence about that thing holds the said one
  (a value of a neighbouring sentence is a swap, not a match).
- A name of another exhibit's document (a place, a person) said about the exhibit in focus is a
  *misattribution* when the focus document has a sentence of the same relation with a name of
  that kind ("found in South Dakota" at the whale, which stranded near Wexford).
Everything else is on track or off topic. Thresholds are the cosine + BM25 fusion of
retrieval.py; they were set on the benchmark's ordinary turns (bench/README.md).
"""

from __future__ import annotations

import dataclasses
from typing import List, Optional, Sequence, Tuple

from .entities import EntityIndex, Mention
from .focus import Focus
from .monitor import Finding, Label, Turn, one_line
from .quantities import Quantity, aspects_agree, extract, mask, same_value
from .retrieval import Hit, Retriever
from .utterances import Utterance, analyse, aspect_wanted, content_words, coverage, type_matches

ON_TOPIC = 0.45  # best fused score of a turn about the exhibits at all
ANSWER = 0.55  # fused score of a sentence that answers a question
CLAIM = 0.5  # fused score of the sentence a claimed value is checked against
SUBJECT_MARGIN = 0.08  # a value found in a sentence this much less about the subject is a swap
SPECIFIC = ("age", "speed", "temperature", "force", "percent", "volume")  # kinds an exhibit seldom has twice
RELATION = 0.6  # a misattribution: the focus sentence's score for the turn plus its similarity to
# the sentence the misattributed name comes from


@dataclasses.dataclass(frozen=True)
class Thresholds:
    on_topic: float = ON_TOPIC
    answer: float = ANSWER
    claim: float = CLAIM
    subject_margin: float = SUBJECT_MARGIN
    relation: float = RELATION
    coverage: float = 0.5  # share of a question's content words an answer must have ...
    paraphrase: float = 0.68  # ... unless its cosine similarity is this high (a paraphrase)
    answer_floor: float = 0.25  # an answer that covers what the question asks scores at least this
    answer_window: float = 0.3  # an answer of the asked direction this close to the best goes first
    claim_shared: float = 0.35  # a sentence sharing a word with the claim is checked from this score
    paraphrase_claim: float = 0.6  # ... and one sharing none only when this similar ("this rock weighs")
    other_exhibit: float = 0.15  # a name's own exhibit scores this much above the focus: about it


class OfflineMonitor:
    name = "offline"

    def __init__(self, retriever: Retriever, entities: Optional[EntityIndex] = None,
                 focus: Optional[Focus] = None, thresholds: Thresholds = Thresholds()):
        self.retriever = retriever
        self.library = retriever.library
        self.entities = entities or EntityIndex(self.library)
        self.focus = focus or Focus()
        self.t = thresholds
        self._titles: dict = {}

    # --- the interface -------------------------------------------------------------------------
    def assess(self, turn: Turn, recent: Sequence[Turn] = ()) -> Finding:
        utterance = analyse(turn.text)
        hits = self.retriever.search(turn.text, k=8)
        before = self.focus.document
        focus = self.focus.update(hits)
        named = self._named(turn.text)
        if len(named) == 1:
            focus = named[0]  # "this whale": the turn says which exhibit it is about
        elif before is not None:
            # the group stands at an exhibit: one turn that sounds like another ("how old was she
            # when she died?" at the whale) is about this one, unless it names the other
            focus = before
        base = Finding(Label.OFF_TOPIC, turn.index, one_line(turn.text), speaker=turn.speaker)
        if not hits or hits[0].score < self.t.on_topic or focus is None:
            return base
        if utterance.is_question:
            return self.question(turn, utterance, focus, base)
        return self.statement(turn, utterance, focus, base)

    def forget(self) -> None:
        """A new group: no exhibit in focus from the last one's talk (a pinned one stays)."""
        self.focus.reset()

    # --- questions -----------------------------------------------------------------------------
    def answer_for(self, text: str, utterance: Utterance, focus: str) -> Optional[Tuple[Hit, str, str, object]]:
        """The sentence of the focus exhibit that answers a question: (hit, value as written,
        dimension, Quantity or entity), or None. Only a sentence holding a value of the type
        the question wants can answer it; of those, the best that covers what the question is
        about (its content words), else the best when it is a close paraphrase."""
        if not utterance.answer_types:
            return None  # what would answer it cannot be checked: say nothing rather than guess
        asked = utterance.content - self._exhibit_words(focus)
        typed = []
        for hit in self.retriever.search(text, k=20, documents=[focus]):
            if hit.score < self.t.answer_floor:
                break
            value = self._typed_value(hit, utterance)
            if value is not None:
                typed.append((hit, value))
        if not typed:
            return None
        aspect = aspect_wanted(utterance.text)
        if aspect:  # "how long is Stan": a length said to be a length ("12 metres from nose to tail") first
            explicit = [c for c in typed if getattr(c[1][2], "aspect", "") == aspect]
            if explicit and explicit[0][0].score >= typed[0][0].score - self.t.answer_window:
                typed.sort(key=lambda c: c is not explicit[0])
        if not asked:  # "how heavy is the squid?": the best sentence with a mass (the only one, or a clear match)
            hit, value = typed[0]
            return (hit,) + value if hit.score >= self.t.answer or len(typed) == 1 else None
        covered = [(hit, value) for hit, value in typed
                   if coverage(asked, content_words(hit.sentence.text)) >= self.t.coverage]
        if covered:  # the first answer type the question names wins ("when did she die": ago, not age)
            rank = {t: i for i, t in enumerate(utterance.answer_types)}
            hit, value = min(covered, key=lambda c: (rank.get(c[1][1], rank.get("count", len(rank))),
                                                     self._other_names(c[0], text, c[1][1])))
            return (hit,) + value
        hit, value = typed[0]
        if hit.dense >= self.t.paraphrase:
            return (hit,) + value
        first = [c for c in typed if c[1][1] == typed[0][1][1]]
        if len(first) == 1 and hit.score >= self.t.answer and value[1] in SPECIFIC:
            return (hit,) + value  # the exhibit's only value of that kind ("how old is this rock?")
        return None

    def _other_names(self, hit: Hit, text: str, wanted: str) -> bool:
        """Does the sentence name a place or person the question did not (and did not ask for)?
        "His Paris pendulum had a wire 67 metres long" is about another pendulum."""
        said = {m.entity.name for m in self.entities.mentions(text)}
        return any(e.name not in said and e.kind != wanted and e.kind in ("place", "person")
                   for e in self.entities.in_sentence(hit.sentence))

    def _typed_value(self, hit: Hit, utterance: Utterance) -> Optional[Tuple[str, str, object]]:
        aspect = aspect_wanted(utterance.text)
        for wanted in utterance.answer_types:
            values = [q for q in extract(hit.sentence.text) if type_matches(wanted, q.dimension)
                      and (not aspect or not q.aspect or q.aspect == aspect)]
            values.sort(key=lambda q: q.aspect != aspect)  # the asked direction first
            if values:
                return values[0].text, values[0].dimension, values[0]
            if wanted in ("place", "person"):
                for entity in self.entities.in_sentence(hit.sentence, wanted):
                    return entity.name, wanted, entity
        return None

    def question(self, turn: Turn, utterance: Utterance, focus: str, base: Finding) -> Finding:
        found = self.answer_for(turn.text, utterance, focus)
        if found is None:
            return dataclasses.replace(base, label=Label.UNANSWERABLE)
        return self._gap(base, found)

    def answer_question(self, question: str, context: Sequence[Turn], turn: Turn) -> Optional[Finding]:
        """A direct question: the question alone, then with the last turns before it (most recent
        first) to resolve what "it" is ("how heavy is it?" after "look at that tongue")."""
        utterance = analyse(question)
        if not utterance.answer_types and not utterance.content:
            return None
        hits = self.retriever.search(question, k=8)
        focus = self.focus.update(hits) if hits else self.focus.document
        named = self._named(question)
        if len(named) == 1:
            focus = named[0]
        if focus is None:
            return None
        base = Finding(Label.UNANSWERABLE, turn.index, one_line(question), speaker=turn.speaker)
        texts = [question] + [f"{question} {t.text}" for t in reversed(list(context)[-3:]) if not t.robot]
        for text in texts:
            found = self.answer_for(text, utterance, focus)
            if found is not None:
                return self._gap(base, found)
        return None

    def _gap(self, base: Finding, found) -> Finding:
        hit, correct, dimension, value = found
        return dataclasses.replace(
            base, label=Label.GAP, citations=(hit.sentence.id,), correct=correct, dimension=dimension,
            value=value if isinstance(value, Quantity) else None,
            aliases=tuple(sorted(value.aliases)) if hasattr(value, "aliases") else ())

    # --- statements ----------------------------------------------------------------------------
    def statement(self, turn: Turn, utterance: Utterance, focus: str, base: Finding) -> Finding:
        for said in extract(turn.text):
            finding = self.check_value(turn, said, focus, base)
            if finding is not None:
                return finding
        for mention in self.entities.mentions(turn.text):
            finding = self.check_name(turn, mention, focus, base)
            if finding is not None:
                return finding
        return dataclasses.replace(base, label=Label.ON_TRACK)

    def _named(self, text: str) -> List[str]:
        """The exhibits the text names ("this whale"), not counting a person's or place's name
        ("Stan Sacrison" is not Stan the T. rex)."""
        words = content_words(self.entities.without_names(text) if self.entities.mentions(text) else text)
        return [d for d in self.library.documents if words & self._exhibit_words(d)]

    def _exhibit_words(self, document: str) -> frozenset:
        """Words that name an exhibit: its title's words no other document uses ("whale",
        "mammoth"; not "skeleton"). "The whale" asks about nothing in particular."""
        if not self._titles:
            used = {name: frozenset(w for s in self.library.of_document(name) for w in content_words(s.text))
                    | content_words(doc.title) for name, doc in self.library.documents.items()}
            for name, doc in self.library.documents.items():
                others = set().union(*(words for other, words in used.items() if other != name))
                self._titles[name] = content_words(doc.title) - others
        return self._titles.get(document, frozenset())

    def _subject(self, hit: Hit, words) -> float:
        return hit.score + coverage(words, content_words(hit.sentence.text))

    def check_value(self, turn: Turn, said: Quantity, focus: str, base: Finding) -> Optional[Finding]:
        """A wrong finding for a number the focus exhibit's documents contradict, an on-track one
        when they state it, None when they say nothing of it."""
        words = content_words(mask(turn.text)) - self._exhibit_words(focus)
        candidates: List[Tuple[float, Hit, List[Quantity]]] = []
        for hit in self.retriever.search(turn.text, k=12, documents=[focus]):
            same = [q for q in extract(hit.sentence.text)
                    if q.dimension == said.dimension and aspects_agree(said, q)]
            shared = bool(words & content_words(hit.sentence.text))
            if not same or hit.score < (self.t.claim_shared if shared else self.t.claim):
                continue
            if words and not shared and hit.dense < self.t.paraphrase_claim:
                continue  # nothing the turn speaks of is in the sentence ("parking" vs "carcass")
            candidates.append((self._subject(hit, words), hit, same))
        if not candidates:
            return None
        candidates.sort(key=lambda c: -c[0])
        best_score, best, values = candidates[0]
        for score, hit, same in candidates:
            if score < best_score - self.t.subject_margin:
                break
            if any(same_value(said, q) for q in same):
                return dataclasses.replace(base, label=Label.ON_TRACK, citations=(hit.sentence.id,))
        correct = values[0]
        return dataclasses.replace(
            base, label=Label.WRONG, citations=(best.sentence.id,), correct=correct.text, said=said.text,
            dimension=said.dimension, value=correct)

    def check_name(self, turn: Turn, mention: Mention, focus: str, base: Finding) -> Optional[Finding]:
        entity = mention.entity
        if focus in entity.documents or entity.kind not in ("place", "person"):
            return None
        rest = turn.text[:mention.start] + " " + turn.text[mention.end:]
        words = content_words(rest)
        if any(words & self._exhibit_words(doc) for doc in entity.documents):
            return None  # the turn names the other exhibit: the name is right there
        here = self.retriever.search(rest, k=5, documents=[focus])
        there = self.retriever.search(rest, k=1, documents=entity.documents)
        if there and (not here or there[0].score > here[0].score + self.t.other_exhibit):
            return None  # the turn is about the other exhibit
        # the focus exhibit's sentence of the same relation: it has a name of the same kind and
        # reads like the sentence the name comes from ("found in South Dakota" ~ "stranded near Wexford")
        origin = self.library.get(entity.sentences[0])
        best: Optional[Tuple[float, Hit, object]] = None
        for hit in self.retriever.search(rest, k=len(self.library), documents=[focus]):
            right = self.entities.in_sentence(hit.sentence, entity.kind)
            if not right:
                continue
            score = hit.score + (self.retriever.similarity(origin.text, hit.sentence.text) if origin else 0.0) \
                + 0.5 * coverage(words, content_words(hit.sentence.text)) * bool(words)
            if best is None or score > best[0]:
                best = (score, hit, right[0])
        if best is not None and best[0] >= self.t.relation:
            _, hit, right = best
            return dataclasses.replace(
                base, label=Label.MISATTRIBUTION, citations=(hit.sentence.id,), correct=right.name,
                said=entity.name, dimension=entity.kind, aliases=tuple(sorted(right.aliases)),
                said_aliases=tuple(sorted(entity.aliases)), related=tuple(entity.sentences[:1]))
        return None
