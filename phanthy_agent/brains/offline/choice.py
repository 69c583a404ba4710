"""Which meaning an utterance is taken as, among those the encoder ranks close to the best.

The sentence encoder ranks the intents, tools and FAQ entries by meaning (understanding.py);
close scores are told apart by what the words say, read off the tools' schemas:
- the request whose required arguments the words fill best wins ("sign us up for the tour at
  one, four people, name of Ada" is a booking, though "tour" sounds like the tour list); a
  multi-step request counts its first step (a move books what it cancelled); a place named as
  where something is ("I left my bag in the cafe") is no destination; a new time the words ask
  for ("to 11:30") counts against a request that cannot take one;
- a question the FAQ answers best stays a question, about the entry it names
  (`Understanding.subject`);
- a short utterance that names one request's place and nothing understood is that request
  ("wc please, where?").
Pure: no ROS, no model of its own.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Set, Tuple

from .config import Intent, IntentsFile
from .slots import Slot, fill, request_slots
from .addressee import ASKS_SOMETHING, CLAUSE_END, TO_SOMEONE_ELSE
from .codes import find_codes
from .elsewhere import phrase_pattern
from .names import NAME_STOP
from .values import find_enum, find_numbers, find_times, said_words, words
from .understanding import SUBJECT_MARGIN, Meaning, Understanding
from .wording import (
    QUESTION, ASKS_WHETHER, ASKS_ABOUT, ASKS_MAY, ABOUT_THE_WORLD, WORLD_FACT, WORD_OR_HISTORY, STOP_WORD,
    STOP_CLAUSE, CALLED_BY_NAME, NOT_NAMES, TO_A_STRANGER, OUTSIDE_VENUE, NEAR_VENUE, VENUE_SERVICE, ESCORT,
    WHERE, BARE_FILLER, TARGET_TIME, WANTS, ASKED_TO_DO, OWN, ASKED_OF_ROBOT, ASKED_FOR, REMARK, TAG_QUESTION, ASKS_ANYTHING, GOING,
    LEADING_FILLER, SERVES_THE_VENUE, SO_STOP,
)


WANT_MARGIN = 0.15  # how far below the FAQ's question a wanted request may be
NAMED_WORDS = 6  # an utterance this short that names a place and nothing understood walks there
# how many are coming ("seven tickets", "ten of us", "two adults"): only a booking takes that
FIRST_PERSON = re.compile(r"\b(?:i|i'?ve|i'?m|we|we'?ve|we'?re|my|our|me|us)\b", re.I)
HEADCOUNT = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty)\s+"
                       r"(?:tickets?|places|seats|spots|of\s+us|people|persons|adults?|children|kids|pupils|students)\b", re.I)
# the way asked, in words WHERE and ESCORT do not read ("which way?", "wheres the hall", "lead on")
WAY_ASKED = re.compile(r"\b(?:which|what)\s+way\b|\bwheres\b|\blead\s+(?:on|the\s+way)\b|\bshow\s+(?:me|us)\s+the\s+way\b|"
                       r"\bhow\s+do\s+(?:i|we)\s+get\s+(?:to|back)\b|\bdirections?\b", re.I)
FILLED = 0.5  # a request whose required arguments the words fill this far competes from further down
SLOT_MARGIN = 0.08  # meanings this close to the best are told apart by the slots the words fill
STATEMENT_WORDS = 6  # shorter, a place said is a request ("the dinosaur hall, please")


class Chooser:
    def __init__(self, cfg: IntentsFile, understanding: Understanding):
        self.cfg, self.understanding = cfg, understanding
        self._intents = {i.name: i for i in cfg.intents}
        def alternatives(phrases: List[str]) -> str:
            return r"(?:" + "|".join(r"\s+".join(re.escape(w) for w in e.split()) for e in phrases) + r")\b"
        asked = cfg.errands + cfg.asked_errands
        self._errand = re.compile(ASKED_OF_ROBOT + alternatives(asked), re.I) if asked else None
        # as said too: a synonym may have read one away ("push the pram" reads "move the pram")
        self._asked_only = re.compile(ASKED_OF_ROBOT + alternatives(cfg.asked_errands), re.I) if cfg.asked_errands else None
        self._errand_named = re.compile(r"\b" + alternatives(cfg.errands), re.I) if cfg.errands else None

    def errand(self, best: Meaning, text: str, tools: Dict[str, dict]) -> bool:
        """An errand asked of the robot that it has no tool for ("can you carry my bags to the
        car?" is not the cloakroom's answer; "I need to pay for my parking, can you do that for
        me?"): asked first, or named and asked for anywhere. Not a request whose arguments the
        words fill. Read with the synonyms ("call off" is "cancel")."""
        if self._errand is None:
            return False
        if best.kind == "tool" and best.score >= self.cfg.accept:
            return False  # a driver's own tool does it ("could you water the plants" once a garden driver is up)
        if self.asked_errand(text):  # asked first: "can you take a photo of the kids by the T. rex?"
            return True
        if best.kind != "faq" and self.evidence(best, text, tools) > 0:
            return False
        said = self.understanding.normalized(text)
        return bool(self._errand_named and self._errand_named.search(said) and ASKED_FOR.search(said))

    def leading_request(self, ranked: List[Meaning], text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """A request named by its verb first thing, said as a command ("book 5 tickets pls",
        "Cancel, please, the tour for Ivanova, ... we must go to the airport", "Rebook me onto
        the 3pm tour"): that request when its meaning is at least `suggest`, whatever scores
        higher or a later clause's pattern."""
        said = words(self.understanding.normalized(text))
        while said and said[0] in LEADING_FILLER:
            said.pop(0)
        if not said:
            return None
        names = [i.name for i in self.cfg.intents] + [m.key for m in ranked if m.kind == "tool"]
        return next((m for m in ranked if m.kind != "faq" and m.score >= self.cfg.suggest and
                     said[0] in self._verbs(m, names) and not (m.kind == "intent" and self._intents[m.key].act)),
                    None)

    @staticmethod
    def remark(text: str) -> bool:
        """A statement about a place or a tour that asks for nothing (REMARK, no ASKS_ANYTHING)."""
        return bool(REMARK.search(text)) and not ASKS_ANYTHING.search(text) and not re.search(r"\bor\s+(?!no\b|not\b)\w+[^?]*\?", text) \
            and not TAG_QUESTION.search(text)

    def news(self, best: Meaning, text: str, tools: Dict[str, dict]) -> bool:
        """A statement that names a place the robot could walk to but asks for nothing (GOING)."""
        if best.kind == "faq" or not self._place_slots(best, tools) or "?" in text:
            return False
        if len(text.split()) < STATEMENT_WORDS or ASKS_ANYTHING.search(text) or GOING.search(text):
            return False
        clauses = [c for c in re.split(r"[,.!;:]+", text) if c.strip()]
        # a clause that asks ("..., is that okay") or is a place alone ("Gift shop. Now. Before ...")
        return not any(ASKS_WHETHER.search(c) or self.bare_place(c, tools) is not None for c in clauses)

    def asked_errand(self, text: str) -> bool:
        """An errand asked of the robot first thing ("could you hold my bag while I go to the loo?")."""
        if self._asked_only is not None and self._asked_only.search(text):
            return True
        return self._errand is not None and bool(self._errand.search(self.understanding.normalized(text)))

    def leading_act(self, text: str, tools: Dict[str, dict]) -> Optional[str]:
        """A greeting, thanks, goodbye or stop said whole in the first clauses, the rest small
        talk that asks for nothing ("Thank you! You're really clever.", "Farewell, it was lovely
        to meet you", "no, no, stop walking please, wait"): that act. Not when the rest asks for
        something, names a code or somewhere else, or is said to someone else ("thanks, where's
        the cafe?", "hello, is the bank open?")."""
        for end in (m.end() for m in CLAUSE_END.finditer(text)):
            head, rest = text[:end], text[end:]
            if not rest.strip():
                return None
            name = self.understanding.pattern(head)
            if name is None or not self._intents[name].act:
                continue
            again = self.understanding.pattern(rest)  # "hallo, guten Tag": the same act twice
            if again is not None and self._intents[again].act == self._intents[name].act:
                return name
            if find_codes(rest) or again is not None or TO_SOMEONE_ELSE.search(rest) or self.asked_errand(rest):
                return None  # "Hello, sorry, could you fetch me a glass of water?" asks an errand
            ranked = self.understanding.rank(rest, tools)
            if ranked and ranked[0].kind == "intent" and self._intents[ranked[0].key].act:
                # "it was lovely to meet you"; but "hello, what can you do?" asks
                asks = self._intents[ranked[0].key].act == "help" and ranked[0].score >= self.cfg.accept
                return None if asks and self._intents[name].act != "help" else name
            if self._news_after(name, head, rest, ranked):  # "Cheerio, our bus is here."
                return name
            idle = bool(ranked) and ranked[0].score < self.cfg.suggest
            return name if idle and self.understanding.out_of_scope(rest) < self.cfg.suggest else None
        return None

    def stop_said(self, text: str) -> bool:
        """A clause that only says stop among others that ask for nothing ("Actually, forgive me, stop
        there, I've changed my mind.", "Oh, I'm so sorry, never mind, I've just spotted my husband")."""
        clauses = [c for c in re.split(r"[,.;!?]+", text) if c.strip()]
        so_stop = SO_STOP.search(text)
        if so_stop and FIRST_PERSON.search(text[:so_stop.start()]) and not find_codes(text) and \
                not any(ASKS_SOMETHING.search(c) for c in clauses[:-1]):
            return True  # not "the gift shop's a rip off, so don't bother" (to the others)
        stops = [c for c in clauses if STOP_CLAUSE.search(c)]
        others = [c for c in clauses if not STOP_CLAUSE.search(c) and len(c.split()) > 1]
        if not stops or len(clauses) < 2 or find_codes(text) or TO_SOMEONE_ELSE.search(text):
            return False  # "nah the gift shop's a total rip off, don't bother" is said to the others
        return not any(ASKS_SOMETHING.search(c) or REMARK.search(c) for c in others)  # "Oh, the wifi's back on my phone"

    def _news_after(self, name: str, head: str, rest: str, ranked: List[Meaning]) -> bool:
        """Thanks, a goodbye or a stop (said with a word of stopping, not only "hang on") and then
        news that asks for nothing ("Please stop walking, my daughter needs a minute", "Perfect,
        thanks! The kids loved talking to you."): the act stands, whatever the news is near."""
        act = self._intents[name].act
        if act not in ("thanks", "goodbye", "stop") or ASKS_SOMETHING.search(rest):
            return False
        if act == "stop" and not STOP_WORD.search(head):
            return False  # "hang on, I can't hear you, the signal's terrible" is the phone's
        asked = ranked[0] if ranked else None  # "cancel it. the booking. under Imogen." asks for the booking
        return asked is None or asked.kind != "intent" or bool(self._intents[asked.key].act) or asked.score < self.cfg.accept

    def best(self, ranked: List[Meaning], text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """The top meaning; among those within SLOT_MARGIN of it, the request whose required
        arguments the words fill best ("sign us up for the tour at one, four people, name of
        Ada" is a booking, though "tour" makes it sound like the tour list; "dinosaurs please"
        is a walk). A question the FAQ answers best stays a question, whatever place it names
        ("when does the cafe close?" is not a walk to the cafe)."""
        if find_codes(text):  # a booking reference or a member number is for a request, not a stop
            ranked = [m for m in ranked if not (m.kind == "intent" and self._intents[m.key].act)]
        if not ranked:
            return None
        if ranked[0].kind == "faq" and QUESTION.search(text):
            subject = self.understanding.subject(ranked, text)
            return self.walk_to(subject, text, tools) or subject
        said = said_words(self.understanding.normalized(text))
        names = [i.name for i in self.cfg.intents] + [m.key for m in ranked if m.kind == "tool"]
        if ranked[0].kind == "faq" and WANTS.search(text):
            # "I need seven tickets", "I'd like to book tickets": a request the words fill or name,
            # though the FAQ's question sounds nearer
            wanted = [m for m in ranked if m.kind != "faq" and m.score >= max(self.cfg.accept, ranked[0].score - WANT_MARGIN)
                      and (self.evidence(m, text, tools) > 0 or self._verbs(m, names) & said)]
            ranked = wanted + [m for m in ranked if m not in wanted] if wanted else ranked
        wants = bool(WANTS.search(text) or ASKED_TO_DO.search(text))
        # "I'd like to cancel the dinosaur tour for the Greens": the request named, a little further down
        close = [m for m in ranked if m.score >= ranked[0].score - SLOT_MARGIN or
                 wants and m.kind != "faq" and m.score >= ranked[0].score - WANT_MARGIN and self._verbs(m, names) & said]
        if ranked[0].kind != "faq" and self.needs_nothing(ranked[0], tools) and HEADCOUNT.search(text) and \
                not (ASKS_ABOUT.search(text) or ASKS_WHETHER.search(text)):
            # "seven tickets, dinosaur tour at four o'clock, under Ramirez": the words fill a
            # request a little further down, not the tour list the tour's name sounds like
            close += [m for m in ranked if m not in close and m.kind != "faq" and self._counts(m, tools) and
                      m.score >= ranked[0].score - WANT_MARGIN and self.evidence(m, text, tools) >= FILLED]
        named = {m.key: bool(self._verbs(m, names) & said) for m in close}
        best = max(close, key=lambda m: (named[m.key] and sum(named.values()) == 1, self.evidence(m, text, tools), named[m.key], m.score))
        if best.kind != "faq" and (ASKS_WHETHER.search(text) or ASKS_ABOUT.search(text)) and self._place_slots(best, tools):
            # "are the toilets free to use?", "is there a gender neutral loo?": answered, not walked to
            best = next((m for m in ranked if m.kind == "faq" and m.score >= best.score - SLOT_MARGIN), best)
        elif best.kind != "faq" and ASKS_WHETHER.search(text) and not ASKS_MAY.search(text) and not named[best.key] and \
                self._takes_details(best, tools) and not any(not m.weak for m in find_numbers(text, find_times(text))):
            # "is there a space tour later on?", "do the tours have a signer?": what is there, not a booking
            best = next((m for m in close if m.kind == "faq" or not self._takes_details(m, tools)), best)
        if best.kind != "faq" and self._names_place_as_where(best, text, tools):
            # "I left my scarf in the dinosaur hall, what should I do": no walk, a question
            best = next((m for m in ranked if m.kind == "faq" and m.score >= best.score - SUBJECT_MARGIN), best)
        # "I left my glasses in the space gallery": the gallery is where, the question is lost property
        best = self.understanding.subject(ranked[ranked.index(best):], text) if best.kind == "faq" else best
        return self.walk_to(best, text, tools) or best

    def _request(self, meaning: Meaning) -> Tuple[Optional[Intent], List[str]]:
        """The intent (or None) and the tools a meaning asks for: an intent's, a tool's own, or none."""
        intent = self._intents.get(meaning.key) if meaning.kind == "intent" else None
        names = (intent.tools if intent else []) if meaning.kind == "intent" else [meaning.key] if meaning.kind == "tool" else []
        return intent, names

    def details_said(self, meaning: Meaning, text: str, tools: Dict[str, dict]) -> bool:
        """A request that needs the visitor's details, said with them: its booking code, or its
        count and name ("Just wanna double check what time our slot is, under Achterberg,
        reference ZK 8 1 4 0"): taken though the words around them are unusual."""
        intent, names = self._request(meaning)
        every = request_slots(intent, names, tools)
        if not names or not self._takes_details(meaning, tools) or self.evidence(meaning, text, tools) < FILLED:
            return False
        code = any(s.kind == "code" for s in every) and any(any(c.isdigit() for c in str(m.value)) for m in find_codes(text))
        return code or self._counts(meaning, tools) and bool(HEADCOUNT.search(text))

    def held(self, meaning: Meaning, text: str, tools: Dict[str, dict], way: bool = True) -> bool:
        """What the rules' own request rests on, that a memory of other visitors' words should not
        overrule: its verb said ("reschedule our tickets to ...": a move), its details said (a
        name, a count, a code), or the way asked to a place ("wheres the dinosaur hall",
        "T-rex skeleton, which way?"; not with `way` False) or a place said alone ("dinosaurs please")."""
        if meaning.kind not in ("intent", "tool"):
            return False
        names = [i.name for i in self.cfg.intents]
        if self._verbs(meaning, names) & said_words(self.understanding.normalized(text)):
            return True
        if self._takes_details(meaning, tools) and self.evidence(meaning, text, tools) >= FILLED:
            return True
        return self.to_a_place(meaning, text, tools, way)

    def to_a_place(self, meaning: Meaning, text: str, tools: Dict[str, dict], way: bool = True) -> bool:
        """A request that takes a place, with the way asked (`way`) or a place said alone."""
        return bool(self._place_slots(meaning, tools)) and (way and self.asks_the_way(text) or self.bare_place(text, tools) is not None)

    @staticmethod
    def asks_the_way(text: str) -> bool:
        """Whether the visitor asks the way somewhere or to be taken there."""
        return bool(WHERE.search(text) or ESCORT.search(text) or WAY_ASKED.search(text))

    def _counts(self, meaning: Meaning, tools: Dict[str, dict]) -> bool:
        """A request that takes how many (a required number: tickets)."""
        intent, names = self._request(meaning)
        return any(s.required and s.kind in ("integer", "number") for s in request_slots(intent, names, tools))

    def needs_nothing(self, meaning: Meaning, tools: Dict[str, dict]) -> bool:
        """A request that takes no required argument at all (the tour list)."""
        intent, names = self._request(meaning)
        return bool(names) and all(n in tools for n in names) and \
            not any(s.required for s in request_slots(intent, names, tools))

    def _takes_details(self, meaning: Meaning, tools: Dict[str, dict]) -> bool:
        """A request that needs the visitor's details (a count, a name, a code), not a look-up."""
        intent, names = self._request(meaning)
        return any(s.required and s.kind not in ("source", "enum") for s in request_slots(intent, names, tools))

    def verbs_said(self, meaning: Meaning, said: Set[str]) -> Set[str]:
        """The request's own verbs (`_verbs`) among the words said."""
        return self._verbs(meaning, [i.name for i in self.cfg.intents]) & said

    def _verbs(self, meaning: Meaning, names: List[str]) -> Set[str]:
        """The words a request is named by: the first of its name ("cancel" of `cancel`,
        "refund" of `refund_booking`), if no other name (`names`) has it ("booking" names
        several), and its intent's `verbs` ("move", "switch" of a change of booking): said, they
        tell requests the words fill equally well apart ("cancel the dinosaur tour I booked,
        code ..., name ..." is no move, though the encoder puts it nearer one)."""
        named = words(meaning.key) if meaning.kind in ("intent", "tool") else []
        others = {w for key in names if key != meaning.key for w in words(key)}
        intent = self._intents.get(meaning.key) if meaning.kind == "intent" else None
        return ({named[0]} if named and named[0] not in others else set()) | set(intent.verbs if intent else [])

    def bare_place(self, text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """An utterance that is a place and nothing else ("space gallery", "gift shop?", "the loo
        please") is a walk there, however well the place's FAQ entry scores."""
        said = [w for w in words(text) if w not in BARE_FILLER]
        if not 0 < len(said) <= 4:
            return None
        for name, place in self._walks(tools):
            found = find_enum(text, place.enum, dict(place.aliases))
            if found is not None and set(said) <= set(words(found[1])):
                return Meaning("intent", name, 1.0)
        return None

    def _walks(self, tools: Dict[str, dict]) -> List[Tuple[str, Slot]]:
        """The intents whose request takes a place (a required enum), with that slot."""
        walks = []
        for intent in self.cfg.intents:
            places = self._place_slots(Meaning("intent", intent.name, 1.0), tools) if intent.tools else []
            walks += [(intent.name, places[0])] if places else []
        return walks

    def walk_to(self, best: Meaning, text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """A where-question, or a request to be taken, whose FAQ answer is about a place the
        robot can walk to is a walk there ("where can I buy postcards?", "T-rex! where is it?",
        "show us the rockets and planets"): a guide shows the way."""
        if best.kind != "faq" or not (WHERE.search(text) or ESCORT.search(text)):
            return None
        entry = self.understanding.faq[int(best.key)].id.replace("_", " ")
        return next((Meaning("intent", name, best.score) for name, place in self._walks(tools)
                     if entry and fill([place], entry).args), None)

    def _names_place_as_where(self, meaning: Meaning, text: str, tools: Dict[str, dict]) -> bool:
        """A request for a place that the words name only as where something is."""
        enums = self._place_slots(meaning, tools)
        return bool(enums) and bool(fill(enums, text).args) and not fill(enums, text, destinations=True).args

    @staticmethod
    def world_fact(text: str) -> bool:
        """A fact about the world, not about the venue's services (WORLD_FACT)."""
        return bool(WORLD_FACT.search(text)) and not VENUE_SERVICE.search(text) or bool(WORD_OR_HISTORY.search(text))

    def calls_someone(self, text: str) -> bool:
        """Someone called by name first (CALLED_BY_NAME), with no code said, the robot not
        addressed and no "please" or thanks after (a stranger is asked so): the visitor's own name
        comes with a code; a word of the venue's, an interjection or a politeness word from abroad
        (NOT_NAMES: "Bitte, ...", "Farewell, ...") is no name."""
        called = CALLED_BY_NAME.match(text)
        if called is None or find_codes(text) or re.search(r"\brobot\b", text, re.I):
            return False
        word = called.group(1)
        if TO_A_STRANGER.search(text[called.end():]):
            return False
        return not (word.lower() in NOT_NAMES or word in NAME_STOP or word.lower().endswith("ly") or
                    {word.lower(), word.lower() + "s"} & self.understanding.vocabulary)

    def outside(self, best: Meaning, text: str) -> bool:
        """An FAQ answer asked for somewhere outside the venue (OUTSIDE_VENUE), or nearby
        (NEAR_VENUE) without naming the entry's subject ("is there a restroom nearby?" names it)."""
        if best.kind != "faq" or not (OUTSIDE_VENUE.search(text.lower()) or NEAR_VENUE.search(text)):
            return False
        entry = self.understanding.faq[int(best.key)]
        if SERVES_THE_VENUE.search(text):
            return False  # "is there a bus stop near the museum?": the venue's own buses
        if OUTSIDE_VENUE.search(text.lower()):
            return not re.search(r"\boutside\b", entry.answer)  # "which bus stops outside the museum?"
        if not entry.id:
            return True
        # the subject's words, or their stems ("can I park nearby": parking)
        stems = [rf"\b{re.escape(w[:max(4, len(w) - 3)])}\w*" for w in entry.id.split("_") if len(w) >= 4]
        subject = [entry.id.replace("_", " ")] + [phrase for i in self.cfg.intents for c in i.slots.values()
                                                   for phrase, value in c.aliases.items() if value == entry.id]
        said = self.understanding.normalized(text)
        return not phrase_pattern(subject).search(said) and not any(re.search(s, said) for s in stems)

    def about_the_world(self, best: Meaning, text: str) -> bool:
        """A fact about the world, not about the venue's services (WORLD_FACT), or a question
        about the world's past or an opinion (ABOUT_THE_WORLD) that `best`, an FAQ entry or a
        request, does not name (the FAQ's own "how tall was the T. rex?" names it)."""
        if best.kind == "intent" and self._intents[best.key].act:
            return False
        if self.world_fact(text):
            # "how old is the T. rex, older than the groom?": the FAQ's subject asked first, then a joke
            first = re.split(r"[,.;!?]+\s*", self.understanding.normalized(text).strip())[0]
            return not (best.kind == "faq" and self.understanding.names(best, first) and not self.world_fact(first))
        if not ABOUT_THE_WORLD.search(text):
            return False
        return not (best.kind == "faq" and self.understanding.names(best, text))

    def _place_slots(self, meaning: Meaning, tools: Dict[str, dict]) -> List[Slot]:
        """The required enum slots (a place) of a request."""
        intent, names = self._request(meaning)
        return [s for s in request_slots(intent, names, tools) if s.kind == "enum" and s.required]

    def evidence(self, meaning: Meaning, text: str, tools: Dict[str, dict]) -> float:
        intent, names = self._request(meaning)
        if not names or any(n not in tools for n in names):
            return 0.0
        every = request_slots(intent, names, tools)
        # the later steps are filled from the results of the first (a move books what was cancelled)
        slots = [s for s in request_slots(intent, names[:1], tools)
                 if s.required and s.kind != "source"]
        # a place named as a location is no destination ("I left my bag in the cafe")
        evidence = len(set(fill(slots, text, destinations=True, about=every).args)) / len(slots) if slots else 0.0
        if TARGET_TIME.search(text) and not any(s.kind in ("time", "source") for s in every):
            evidence -= 0.5  # "reschedule booking K7P2QD to 11:30": a new time it cannot take
        elif find_times(text) and every and all(s.kind == "enum" for s in every if s.required):
            evidence -= 0.5  # "put us down for the dinosaur one at quarter past twelve": no walk has a time
        if any(any(c.isdigit() for c in str(m.value)) for m in find_codes(text)) and every and \
                not any(s.kind == "code" for s in every):
            evidence -= 0.5  # "I'd rather do the space tour instead, code TK 8024": no walk takes a code
        if any(s.kind == "code" and s.required for s in every) and not OWN.search(text) and not find_codes(text):
            evidence -= 0.5  # "what time is the space tour?": nobody's booking
        return evidence

    def named_value(self, text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """The one request whose required choice (an enum: a place) a short utterance names
        as a destination, when nothing else was understood; None if none or several."""
        if len(text.split()) > NAMED_WORDS:
            return None
        found = []
        for name in tools:
            intent = next((i for i in self.cfg.intents if i.tools == [name]), None)
            enums = [s for s in request_slots(intent, [name], tools) if s.kind == "enum" and s.required]
            if enums and fill(enums, text, destinations=True).args:
                found.append(Meaning("intent", intent.name, 1.0) if intent else Meaning("tool", name, 1.0))
        return found[0] if len(found) == 1 else None
