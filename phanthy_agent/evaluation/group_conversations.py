"""The group-conversation benchmark's generator, in the style of CHI-180-proactive: exhibit
documents + hand-written fact items (bench/group/items/*.yaml) -> multi-party conversations
(2-4 visitors, ordinary turns in between) with planted events, deterministic for a seed.

Events and their ideal action (the robot's):
  gap              a question nobody answers, the documents do      -> speak, with the answer
  wrong            a number swapped for another of the same unit    -> speak, with the right value
  misattribution   a place or person of another exhibit             -> speak, with the right one
  self_correction  a wrong claim the speaker repairs two turns later -> silent
  resolved         a question another visitor answers right away    -> silent (own conversations,
                   so silence is not the no-repeat rule: as CHI-180-proactive does)
  unanswerable     a question the documents do not answer            -> silent (never invent)
Every other turn is ordinary: chatter about the exhibit, correct facts, off-topic talk (some of
it with numbers); silence is right there. Items are independent of the monitor's own
extraction: each names its sentence by a quote and its value as said, and loading checks both
against the document (a wrong item is an error, not a silent benchmark bug).
"""

from __future__ import annotations

import dataclasses
import pathlib
import random
import re
from typing import Dict, List, Optional, Sequence

import yaml

from phanthy_agent.group.documents import DocumentLibrary

SPEAK = ("gap", "wrong", "misattribution")
SILENT = ("self_correction", "resolved", "unanswerable")
MAIN_EVENTS = ("gap", "gap", "gap", "wrong", "wrong", "misattribution", "self_correction",
               "self_correction", "unanswerable")
RESOLVED_EVENTS = 4
NAMES = ("Ana", "Ben", "Chloe", "Dev", "Emma", "Farid", "Grace", "Hugo", "Ines", "Jonas")
CLAIM_WRAPS = ("I think {c}.", "Apparently {c}.", "{C}, I read.", "The sign said {c}.", "You know, {c}.",
               "{C}.", "I'm pretty sure {c}.", "Fun fact: {c}.")
ASK_WRAPS = ("{Q}", "Hmm, {q}", "So {q}", "I wonder, {q}", "{Q}")
NON_ANSWERS = ("No idea.", "Hmm, good question.", "I'm not sure.", "I don't know, but it must be a lot.",
               "No clue, honestly.", "I can't remember.", "Who knows?")
REACTIONS = ("Wow.", "Really? That's a lot.", "No way.", "Huh, I didn't know that.", "That's crazy.", "Okay.",
             "Interesting.", "Oh, cool.")
BRIEF = ("Huh.", "Hmm.", "Really?", "Okay.", "Oh.")
REPAIRS_NUMBER = ("Oh wait, no, {c}.", "Sorry, I got that wrong, {c}.", "Actually no, I misremembered: {c}.",
                  "Wait, I mixed it up. {C}.")
REPAIRS_NAME = ("Sorry, I mixed it up, {c}.", "No wait, {c}, not {w}.", "Actually no, that's wrong: {c}.")
ANSWERS = ("{C}, it says on the panel.", "I just read it: {c}.", "{C}.", "It says here {c}.")
OFF_TOPIC = ("Should we get coffee after this?", "My feet are killing me.", "Where did the kids go?",
             "We've been here for two hours already.", "Parking was 12 pounds, can you believe it?",
             "My sister turns 25 years old next week.", "The bus leaves at 5.", "I need to find the toilets.",
             "Did you see the gift shop?", "I paid 30 pounds for the tickets.", "It's raining again outside.",
             "Let's meet the others at 3 o'clock.", "I'm getting hungry.", "Can you take a photo of me?",
             "My phone is almost dead.", "We should come back in summer.")
BACKCHANNELS = ("Yeah.", "Mm-hm.", "Right.", "True.", "Ha, yes.", "Totally.")


@dataclasses.dataclass(frozen=True)
class Fact:
    document: str
    id: str
    sentence: str  # the grounding sentence's id
    value: str  # as said
    kind: str  # number | place | person
    wrong: tuple
    claim: tuple
    ask: tuple

    @property
    def key(self) -> str:
        return f"{self.document}:{self.id}"


@dataclasses.dataclass(frozen=True)
class Exhibit:
    document: str
    names: tuple
    chatter: tuple
    facts: tuple
    unanswerable: tuple


@dataclasses.dataclass(frozen=True)
class PlannedTurn:
    index: int
    speaker: str
    text: str
    stamp: float
    event: int = -1  # the event this turn belongs to (-1: an ordinary turn)


@dataclasses.dataclass(frozen=True)
class Event:
    id: int
    kind: str
    turn: int  # the problem's turn (the question, the wrong claim)
    fact: str  # "<document>:<item>" ("" for unanswerable)
    sentence: str  # the gold sentence id ("" for unanswerable)
    value: str  # the gold value as said
    wrong: str = ""  # the wrong value said (wrong, misattribution, self_correction)

    @property
    def expects_speech(self) -> bool:
        return self.kind in SPEAK


@dataclasses.dataclass
class Conversation:
    id: str
    document: str
    speakers: List[str]
    turns: List[PlannedTurn]
    events: List[Event]


def _find_sentence(library: DocumentLibrary, document: str, quote: str) -> str:
    matches = [s.id for s in library.of_document(document) if quote in s.text]
    if len(matches) != 1:
        raise ValueError(f"{document}: the quote {quote!r} is in {len(matches)} sentences (needs exactly 1)")
    return matches[0]


def load_exhibits(library: DocumentLibrary, items_dir: pathlib.Path) -> List[Exhibit]:
    """The items of every exhibit, each checked against its document."""
    from phanthy_agent.group.quantities import extract, same_value
    exhibits = []
    for path in sorted(items_dir.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        document = data["document"]
        if document not in library.documents:
            raise ValueError(f"{path}: no document {document!r}")
        facts = []
        for item in data["facts"]:
            sentence_id = _find_sentence(library, document, item["sentence"])
            text = library.get(sentence_id).text
            kind = item.get("kind", "number")
            value = str(item["value"])
            if kind == "number":
                said = extract(value)
                if len(said) != 1 or not any(same_value(said[0], q) for q in extract(text)):
                    raise ValueError(f"{path}: {item['id']}: {value!r} is not the value of {sentence_id}")
            elif value not in text:
                raise ValueError(f"{path}: {item['id']}: {value!r} is not in {sentence_id}")
            facts.append(Fact(document, item["id"], sentence_id, value, kind, tuple(map(str, item.get("wrong", ()))),
                              tuple(item["claim"]), tuple(item["ask"])))
        exhibits.append(Exhibit(document, tuple(data["exhibit"]), tuple(data["chatter"]), tuple(facts),
                                tuple(data["unanswerable"])))
    return exhibits


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _wrap(rng: random.Random, wraps: Sequence[str], clause: str, **extra) -> str:
    clause = clause.rstrip(".")
    return rng.choice(wraps).format(c=clause, C=_cap(clause), q=clause[:1].lower() + clause[1:], Q=_cap(clause),
                                    **extra)


class Generator:
    def __init__(self, exhibits: Sequence[Exhibit], seed: int = 15, turn_s: float = 4.0, noisy: float = 0.1):
        self.exhibits = list(exhibits)
        self.seed = seed
        self.turn_s = turn_s
        self.noisy = noisy  # share of turns written the way a recognizer might (no capitals, no punctuation)
        self._by_kind: Dict[str, List[Fact]] = {}
        for exhibit in self.exhibits:
            for fact in exhibit.facts:
                self._by_kind.setdefault(fact.kind, []).append(fact)

    def conversations(self, per_exhibit: int = 8, resolved_per_exhibit: int = 2) -> List[Conversation]:
        out = []
        for exhibit in self.exhibits:
            for n in range(per_exhibit):
                out.append(self.conversation(exhibit, n))
            for n in range(resolved_per_exhibit):
                out.append(self.conversation(exhibit, n, resolved=True))
        return out

    # --- one conversation ------------------------------------------------------------------------
    def conversation(self, exhibit: Exhibit, n: int, resolved: bool = False) -> Conversation:
        rng = random.Random(f"{self.seed}:{exhibit.document}:{n}:{resolved}")
        speakers = rng.sample(NAMES, rng.randint(2, 4))
        conv = Conversation(f"{exhibit.document}-{'resolved' if resolved else 'main'}-{n}", exhibit.document,
                            speakers, [], [])
        kinds = ["resolved"] * RESOLVED_EVENTS if resolved else list(MAIN_EVENTS)
        rng.shuffle(kinds)
        numbers = [f for f in exhibit.facts if f.kind == "number"]
        names = [f for f in exhibit.facts if f.kind != "number"]
        rng.shuffle(numbers)
        rng.shuffle(names)
        unanswerable = list(exhibit.unanswerable)
        rng.shuffle(unanswerable)
        used: List[Fact] = []
        plan = []
        for kind in kinds:
            if kind == "unanswerable":
                plan.append((kind, None))
                continue
            pool = names if kind == "misattribution" else (numbers + names if kind in ("gap", "resolved") else numbers)
            fact = next(f for f in pool if f not in used)
            used.append(fact)
            plan.append((kind, fact))
        spare = [f for f in exhibit.facts if f not in used]
        self._say(conv, rng, rng.choice(speakers), rng.choice(exhibit.chatter))
        self._filler(conv, rng, exhibit, spare, rng.randint(1, 2))
        for kind, fact in plan:
            self._event(conv, rng, exhibit, kind, fact, unanswerable)
            self._filler(conv, rng, exhibit, spare, rng.randint(5, 8))
        return conv

    def _say(self, conv: Conversation, rng: random.Random, speaker: str, text: str, event: int = -1,
             noisy_ok: bool = True) -> int:
        if noisy_ok and rng.random() < self.noisy:
            text = re.sub(r"[,.!](?!\d)", "", text.lower())
            if rng.random() < 0.5:
                text = text.replace("?", "")
        index = len(conv.turns)
        stamp = round(index * self.turn_s + rng.uniform(-0.8, 0.8), 2)
        conv.turns.append(PlannedTurn(index, f"visitor_{conv.speakers.index(speaker) + 1}", text, stamp, event))
        return index

    def _filler(self, conv, rng, exhibit: Exhibit, spare: List[Fact], count: int) -> None:
        for _ in range(count):
            roll = rng.random()
            speaker = rng.choice(conv.speakers)
            if roll < 0.3:
                text = rng.choice(exhibit.chatter)
            elif roll < 0.5 and spare:
                fact = rng.choice(spare)
                text = _wrap(rng, CLAIM_WRAPS, rng.choice(fact.claim).format(v=fact.value))
            elif roll < 0.8:
                text = rng.choice(OFF_TOPIC)
            else:
                text = rng.choice(BACKCHANNELS)
            self._say(conv, rng, speaker, text)

    def _event(self, conv: Conversation, rng: random.Random, exhibit: Exhibit, kind: str,
               fact: Optional[Fact], unanswerable: List[str]) -> None:
        event_id = len(conv.events)
        x, y = rng.sample(conv.speakers, 2)
        if kind == "unanswerable":
            question = unanswerable.pop() if unanswerable else exhibit.unanswerable[0]
            turn = self._say(conv, rng, x, _wrap(rng, ASK_WRAPS, question), event_id)
            self._say(conv, rng, y, rng.choice(NON_ANSWERS), event_id)
            conv.events.append(Event(event_id, kind, turn, "", "", ""))
            return
        assert fact is not None
        right = rng.choice(fact.claim).format(v=fact.value)
        if kind in ("gap", "resolved"):
            turn = self._say(conv, rng, x, _wrap(rng, ASK_WRAPS, rng.choice(fact.ask)), event_id)
            if kind == "resolved":
                if rng.random() < 0.4:
                    self._say(conv, rng, y, rng.choice(BRIEF), event_id)
                self._say(conv, rng, y, _wrap(rng, ANSWERS, right), event_id, noisy_ok=False)
            else:
                self._say(conv, rng, y, rng.choice(NON_ANSWERS), event_id)
            conv.events.append(Event(event_id, kind, turn, fact.key, fact.sentence, fact.value))
            return
        wrong = self._wrong_value(rng, fact, kind)
        claim = rng.choice(fact.claim)
        turn = self._say(conv, rng, x, _wrap(rng, CLAIM_WRAPS, claim.format(v=wrong)), event_id)
        if kind == "self_correction":
            self._say(conv, rng, y, rng.choice(BRIEF), event_id)
            repairs = REPAIRS_NUMBER if fact.kind == "number" else REPAIRS_NAME
            self._say(conv, rng, x, _wrap(rng, repairs, claim.format(v=fact.value), w=wrong), event_id, noisy_ok=False)
        else:
            self._say(conv, rng, y, rng.choice(REACTIONS), event_id)
        conv.events.append(Event(event_id, kind, turn, fact.key, fact.sentence, fact.value, wrong))

    def _wrong_value(self, rng: random.Random, fact: Fact, kind: str) -> str:
        if fact.kind == "number":
            return rng.choice(fact.wrong)
        others = [f for f in self._by_kind.get(fact.kind, []) if f.document != fact.document]
        return rng.choice(others).value  # a place or person of another exhibit


def counts(conversations: Sequence[Conversation]) -> Dict[str, int]:
    out: Dict[str, int] = {"conversations": len(conversations),
                           "turns": sum(len(c.turns) for c in conversations),
                           "events": sum(len(c.events) for c in conversations)}
    for conv in conversations:
        for event in conv.events:
            out[event.kind] = out.get(event.kind, 0) + 1
    out["ordinary_turns"] = sum(1 for c in conversations for t in c.turns if t.event < 0)
    return out
