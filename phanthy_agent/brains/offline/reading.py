"""A new utterance read on its own: which frame it makes (Policy._interpret calls `_new` once an
utterance is neither a stop, an answer to what was asked, nor a correction).

The rules are tried in order, each with its reason logged: said to someone else, a remark that
asks nothing, somewhere else, an errand the robot does not run, a request named first, a fact
about the world, a pattern, a place said alone, an FAQ pattern, then the meaning the encoder
ranks best (choice.py picks among close ones) at or above `accept`, a value named alone, "did you
mean" from `suggest`, else the fallback. The example memory's vote comes last
(`_recalled`, examples.py). `_frame_for` turns a meaning into a frame: an FAQ answer, an act, or
a request with the arguments its words fill (a place from the robot's last line, from the
synonyms' words, or from the FAQ entry the words mean).
A mixin of Policy (policy.py), which holds the files, the chooser, the planner and the memory.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Dict, List, Optional, Sequence

from .addressee import said_to_someone_else
from .codes import find_codes
from .examples import meaning_of
from .plan import Frame
from .slots import fill, loose_phrase, request_slots
from .understanding import Meaning
from .values import find_numbers, find_times, resolve_enum, said_words, words
from .wording import ASKS_WHAT_THE_VENUE_HAS, BREAK_THE_RULES, ESCORT, NEAR_VENUE, WHERE

log = logging.getLogger(__name__)

SOCIAL_ACTS = ("greeting", "thanks", "goodbye")
# ... and below `suggest` when nothing else comes close ("much obliged, my metal friend": a
# thanks the encoder scores 0.33, the next meaning 0.26)
SOCIAL_FLOOR, SOCIAL_LEAD = 0.30, 0.05
# a request's pattern gives way when the whole utterance is this close to something the venue
# does not do ("how do astronauts go to the toilet in space": 0.79 to "how do astronauts breathe in space?")
OUT_OF_SCOPE_SURE = 0.75
NEARBY = re.compile(r"\b(?:nearest|nearby|near\s+here|round\s+here|around\s+here|close\s+by|in\s+town)\b", re.I)
REFERENCE = re.compile(r"\b(?:there|it|that(?: place)?|this(?: place)?|the same)\b", re.I)
# a clause that sets a place aside ("And don't say the cafe.", "Your cafe doesn't count.", "not your cafe")
SET_ASIDE = re.compile(r"\b(?:not|don'?t\s+(?:say|offer|suggest|tell\s+me)|doesn'?t\s+count|instead\s+of|rather\s+than)\b", re.I)
# a question about what something costs
PRICE = re.compile(r"\b(?:how\s+much|cost\w*|price\w*|pricey|charge\w*|fee|fees|expensive|cheap)\b", re.I)
# words that name a request on a booking only when a booking code is said with them ("Check
# LM5520 under Rossi", "bump WQ7730 to quarter to four"; "check" alone is a membership's too)
CODE_VERBS = {"booking_details": {"check", "find", "status", "look"}, "change_booking": {"bump", "shift", "push", "later", "earlier"},
              "cancel": {"withdraw", "withdrawing"}, "refund": {"money"}}
MEMBER_ID = re.compile(r"M-?\d+", re.I)
UNPLACED = "unplaced"  # a fallback for words that match nothing (not one a rule chose): memory may place it


class Reading:
    def _recalled(self, frame: Frame, text: str, index: int, tools: Dict[str, dict]) -> Frame:
        """What the example memory's unanimous vote on the words makes of the rules' frame
        (examples.py): a request, question or act taken for chat is the fallback, but for an act
        said in its pattern's words ("Alright?" is a greeting); what the rules could not place
        ("did you mean", UNPLACED) is what was meant, filled from the words; a request or question
        the rules took for another is the one meant (`_taken_for_another`)."""
        vote = self.examples.vote(self.understanding.vector(text, tools)) if self.examples is not None else None
        if vote is None:
            return frame
        patterned_act = frame.kind == "act" and self.understanding.pattern(text) is not None
        if vote.refuses and frame.kind in ("request", "faq", "act") and not patterned_act and \
                not ASKS_WHAT_THE_VENUE_HAS.search(text) and not self._held(frame, text, tools, place=True):
            # not "can I get a cup of tea here" (asked of the venue), nor "Would it be at all
            # possible to be shown to the gift shop? ..." (the way asked); but "book a restaurant"
            log.info("offline: %r is like what visitors say among themselves or ask elsewhere (%.2f): fallback",
                     text, vote.similarity)
            return Frame("fallback", since=index, texts=[text])
        if vote.mostly_chat and self._chat_after_all(frame, text, tools, way=not vote.all_chat):
            log.info("offline: %r is mostly like what visitors say among themselves or ask elsewhere (%.2f): fallback",
                     text, vote.chat)
            return Frame("fallback", since=index, texts=[text])
        act = self.intents[vote.label].act if vote.label in self.intents else None
        unplaced = (frame.kind == "suggest" or frame.kind == "fallback" and frame.answer == UNPLACED) and \
            vote.places and act != "stop" and (act not in SOCIAL_ACTS or vote.relabels)
        # a stop cancels what runs: only in a stop's own words ("mmm" is none); a greeting, thanks or
        # goodbye only as near as a relabelling ("blah blah" is no goodbye: "ok bye bye" at 0.55)
        other = not act and self._taken_for_another(frame, vote, text, tools)
        meaning = meaning_of(vote.label, self.intents, self.faq, tools) if unplaced or other else None
        # "where's the loo?" is still a walk there, whatever the memory's authors called it
        meaning = meaning and (self.chooser.walk_to(meaning, text, tools) or meaning)
        if meaning is None or other and meaning.key == self._label_of(frame).replace("unknown:", ""):
            return frame
        if other and meaning.kind == "faq" and frame.intent is not None and PRICE.search(text) and \
                self.chooser.needs_nothing(Meaning("intent", frame.intent.name, 1.0), tools):
            return frame  # "how much are the tours?": the day's tours with their prices answer it best
        log.info("offline: %r is like what visitors meant as %s (%.2f)", text, vote.label, vote.similarity)
        return self._frame_for(meaning, text, index, tools)

    def _taken_for_another(self, frame: Frame, vote, text: str, tools: Dict[str, dict]) -> bool:
        """Whether the rules answered a question or made a request other than the one the vote
        means, near enough to take it over; not a driver's own tool (the memory's authors never saw
        it), nor a request said in its own verb, with its details or as the way to a place, nor the
        answer where a place is to a visitor who asked the way there."""
        own = self._label_of(frame).replace("unknown:", "")
        if not vote.relabels or vote.label == own:
            return False
        if frame.kind == "faq":  # not where the place asked for is ("Lead me to the information desk, ...")
            return not self.chooser.asks_the_way(text)
        return frame.kind == "request" and frame.intent is not None and \
            not self.chooser.held(Meaning("intent", own, 1.0), text, tools)

    def _chat_after_all(self, frame: Frame, text: str, tools: Dict[str, dict], way: bool = True) -> bool:
        """Whether the rules' request or answer may give way to a wider circle of chat: not one
        the memory never holds as meant (a driver's own tool; the gift shop's hours, which its
        authors wrote as off-topic, having no such answer to give), nor a request said in its own
        verb, with its details or (with `way`) as the way to a place, nor whether the venue has a thing ("do you
        sell coffee?": the memory's chat names coffee often)."""
        own = self._label_of(frame)
        if frame.kind not in ("request", "faq") or own not in self.examples.labels or ASKS_WHAT_THE_VENUE_HAS.search(text):
            return False
        return frame.kind == "faq" or not self._held(frame, text, tools, way)

    def _held(self, frame: Frame, text: str, tools: Dict[str, dict], way: bool = True, place: bool = False) -> bool:
        """A request of the rules' that rests on its verb, its details, a place alone or (`way`)
        the way asked (Chooser.held); with `place`, only on the place."""
        own = self._label_of(frame).replace("unknown:", "")
        if frame.kind != "request" or not own:
            return False
        meaning = Meaning("intent", own, 1.0)
        return self.chooser.to_a_place(meaning, text, tools, way) if place else self.chooser.held(meaning, text, tools, way)

    def _label_of(self, frame: Frame) -> str:
        """The frame's meaning as the memory names it (`faq:<id>`, an intent or a tool)."""
        if frame.kind == "faq":
            return next((f"faq:{e.id}" for e in self.faq if e.answer.strip() == frame.answer.strip()), "")
        name = frame.intent.name if frame.intent is not None else frame.tools[0] if frame.tools else ""
        return f"unknown:{name}" if frame.unknown and not frame.args else name

    def _new(self, text: str, index: int, ranked: List[Meaning], pattern: Optional[str],
             tools: Dict[str, dict]) -> Frame:
        if BREAK_THE_RULES.search(text):
            log.info("offline: %r asks the robot to drop its rules: fallback", text)
            return Frame("fallback", since=index, texts=[text])
        if (said_to_someone_else(text) or self.chooser.calls_someone(text)) and \
                (pattern is None or self.intents[pattern].act is None):
            log.info("offline: %r is said to someone else: fallback", text)
            return Frame("fallback", since=index, texts=[text])
        if pattern is None and self.chooser.remark(text):
            log.info("offline: %r is a remark that asks for nothing: fallback", text)
            return Frame("fallback", since=index, texts=[text])
        # "where's the toilet at the bus station?": a request's pattern does not make it the venue's
        elsewhere = not ranked and bool(self.understanding.elsewhere(text, tools))
        if elsewhere and pattern is not None and len(self.understanding.pattern_sentence(text)) < len(text):
            # "show me to the entrance? My taxi is picking me up there": the request's own sentence decides
            elsewhere = bool(self.understanding.elsewhere(self.understanding.pattern_sentence(text), tools))
        if pattern is not None and self.intents[pattern].act is None and not elsewhere:
            elsewhere = self._set_aside_for_elsewhere(text, tools)
        if pattern is not None and self.intents[pattern].act is None and not elsewhere:
            # "where are the toilets at the station?": somewhere the request's words are not about
            elsewhere = bool(self.understanding.foreign(text, Meaning("intent", pattern, 1.0), tools))
            answered = ranked[0] if elsewhere and ranked and ranked[0].kind == "faq" and WHERE.search(text) else None
            if answered is not None and answered.score >= self.cfg.accept and \
                    not self.understanding.foreign(text, answered, tools):
                return self._frame_for(answered, text, index, tools)  # "where is the car park?": the FAQ's
            if not elsewhere and self.chooser.asked_errand(text):
                log.info("offline: %r is an errand the robot does not run (not %s)", text, pattern)
                return Frame("declined", answer="missing_tool", since=index, texts=[text])
        lead = self.chooser.leading_request(ranked, text, tools) if pattern is None or \
            self.intents[pattern].act is None else None
        if lead is not None and not elsewhere and lead.key != pattern and not self.understanding.foreign(text, lead, tools):
            log.info("offline: %r names %s %s first", text, lead.kind, lead.key)
            return self._frame_for(lead, text, index, tools, ranked)
        if pattern is not None and self.intents[pattern].act is None and \
                (self.chooser.world_fact(text) or
                 not ranked and self.understanding.out_of_scope(text) >= OUT_OF_SCOPE_SURE):
            log.info("offline: %r asks about the world, not %s: fallback", text, pattern)
            return Frame("fallback", since=index, texts=[text])  # "how do astronauts go to the toilet?"
        if pattern is not None and not (elsewhere and self.intents[pattern].act is None):
            return self._frame_for(Meaning("intent", pattern, 1.0), text, index, tools)
        if elsewhere:
            return Frame("elsewhere", since=index, texts=[text])
        bare = self.chooser.bare_place(text, tools)
        if bare is not None:  # "space gallery", "gift shop?"
            return self._frame_for(bare, text, index, tools)
        tool_does_it = bool(ranked) and ranked[0].kind == "tool" and ranked[0].score >= self.cfg.accept
        if not tool_does_it and self.chooser.asked_errand(text):  # "Pay for my coffee, robot, ...": not lost property
            log.info("offline: %r is an errand the robot does not run", text)
            return Frame("declined", answer="missing_tool", since=index, texts=[text])
        answered = self.understanding.faq_pattern(text)
        if answered is not None and not self.understanding.foreign(text, answered, tools):
            return self._frame_for(answered, text, index, tools)  # "has anyone handed in a blue backpack?"
        best = self.chooser.best(ranked, text, tools)
        thing = self.understanding.foreign(text, best, tools) if best is not None else ""
        if thing and best.score >= self.cfg.suggest:
            log.info("offline: %r names %r, which %s %s does not", text, thing, best.kind, best.key)
            return Frame("elsewhere", since=index, texts=[text])
        if best is not None and self.chooser.errand(best, text, tools):
            log.info("offline: %r is an errand the robot does not run (not %s %s)", text, best.kind, best.key)
            return Frame("declined", answer="missing_tool", since=index, texts=[text])
        if best is not None and self.chooser.news(best, text, tools):
            log.info("offline: %r names a place but asks for nothing: fallback", text)
            return Frame("fallback", since=index, texts=[text])
        if best is not None and self.chooser.outside(best, text):
            log.info("offline: %r asks for somewhere outside the venue, not %s", text, best.key)
            return Frame("elsewhere", since=index, texts=[text])
        if best is not None and self.chooser.about_the_world(best, text):
            log.info("offline: %r asks about the world, not %s %s: fallback", text, best.kind, best.key)
            return Frame("fallback", since=index, texts=[text])
        if best is not None and (best.score >= self.cfg.accept or self._social(best, ranked)):
            return self._frame_for(best, text, index, tools, ranked)
        # not when it is like something the venue does not do ("recommend a restaurant nearby")
        named = self.chooser.named_value(text, tools) if not elsewhere and \
            self.understanding.out_of_scope(text) < self.cfg.suggest else None
        if named is not None:  # "wc please, where?", "souvenir shop this way?"
            log.info("offline: %r names a value of %s only", text, named.key)
            return self._frame_for(named, text, index, tools, ranked)
        coded = self._named_with_a_code(text, tools)
        if coded is not None:  # "Reschedule. DK4470. Later, like three.", "bump WQ7730 to quarter to four"
            log.info("offline: %r names %s with a booking code", text, coded.key)
            return self._frame_for(coded, text, index, tools, ranked)
        if best is not None and best.score >= self.cfg.suggest:
            frame = self._frame_for(best, text, index, tools, ranked) if best.kind != "faq" else None
            if frame is not None and frame.kind == "request" and frame.unknown:
                return frame  # "take me to the moon base": say which places there are
            log.info("offline: %r is unsure (%s %s %.2f): did you mean", text, best.kind, best.key, best.score)
            return Frame("suggest", answer=f"{best.kind}:{best.key}", texts=[text], since=index)
        log.info("offline: %r matches nothing (best %.2f): fallback", text, best.score if best else 0.0)
        return Frame("fallback", answer=UNPLACED, since=index, texts=[text])

    def _named_with_a_code(self, text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """The one request on a booking that the words name by its verb, said with a booking code
        (the encoder makes little of a code: "Check LM5520 under Rossi" scores 0.31); None when no
        code is said, or no request or more than one is named."""
        codes = [c for c in find_codes(text) if not MEMBER_ID.fullmatch(c.value)]
        if not codes:
            return None
        said = said_words(self.understanding.normalized(text))
        named = []
        for intent in self.cfg.intents:
            meaning = Meaning("intent", intent.name, 1.0)
            up = bool(intent.tools) and all(t in tools for t in intent.tools)
            if up and any(s.name == "code" for s in request_slots(intent, intent.tools, tools)) and \
                    (self.chooser.verbs_said(meaning, said) or said & CODE_VERBS.get(intent.name, set())):
                named.append(meaning)
        return named[0] if len(named) == 1 else None

    def _set_aside_for_elsewhere(self, text: str, tools: Dict[str, dict]) -> bool:
        """Somewhere outside asked for, the venue's own place named only to be set aside ("Where's
        the nearest McDonald's? And don't say the cafe.", "a pizza place? Your cafe doesn't count")."""
        clauses = [c for c in re.split(r"[,.;!?]+", text) if c.strip()]
        kept = ", ".join(c for c in clauses if not SET_ASIDE.search(c))
        if not kept or len(kept) == len(", ".join(clauses)):
            return False
        return bool(self.understanding.elsewhere(kept, tools)) or \
            bool(NEAR_VENUE.search(kept)) and not self.understanding.venue_named(kept, tools)

    def _frame_for(self, meaning: Meaning, text: str, index: int, tools: Dict[str, dict],
                   ranked: Sequence[Meaning] = ()) -> Frame:
        if meaning.kind == "faq":
            return Frame("faq", answer=self.faq[int(meaning.key)].answer.strip(), since=index, texts=[text])
        intent = self.intents.get(meaning.key) if meaning.kind == "intent" else None
        if intent is not None and intent.act:
            return Frame("act", intent, answer=intent.act, since=index, texts=[text])
        names = intent.tools if intent is not None else [meaning.key]
        faq = next((m for m in ranked if m.kind == "faq"), None)
        if any(t not in tools for t in names) and faq is not None and faq.score >= self.cfg.accept:
            return self._frame_for(faq, text, index, tools)  # no base: "where is the cafe" is answered
        frame = Frame("request", intent, list(names), texts=[text], since=index)
        filled = fill(self._slots(frame, tools), text)
        frame.args, frame.problems = dict(filled.args), dict(filled.problems)
        counts = find_numbers(text, find_times(text) + find_codes(text)) if len(names) > 1 else []
        if counts and all(m.weak or not m.text for m in counts):
            # a move: "we booked a tour" counts nothing, nor "bring our tour forward to ten" (no
            # unit: a time); the later steps take the booking's own
            for slot in self._slots(frame, tools):
                if slot.kind in ("integer", "number"):
                    frame.args.pop(slot.name, None)
        enums = [s for s in self._slots(frame, tools) if s.kind == "enum" and s.required]
        for slot in enums:
            if slot.name not in frame.args and REFERENCE.search(text):
                value = self._from_topic(slot)
                if value is not None:  # "can you take me there?" after the cafe's answer
                    frame.args[slot.name] = value
        if enums and not any(s.name in frame.args for s in enums):
            # "where can I spend a penny?": the place the synonyms' words name
            frame.args.update(fill(enums, self.understanding.normalized(text)).args)
        if enums and not any(s.name in frame.args for s in enums):
            frame.unknown = loose_phrase(text)
            if not frame.unknown and NEARBY.search(text) and meaning.kind != "faq":
                log.info("offline: %r asks for somewhere nearby that is no place here", text)
                return Frame("elsewhere", since=index, texts=[text])  # "where's the nearest maccies"
            # "where can I buy a postcard?": the place whose FAQ entry the whole question means
            looked_up = frame.unknown or (text if WHERE.search(text) or ESCORT.search(text) else "")
            answers = self.understanding.rank(looked_up, {}) if looked_up else []
            if answers and answers[0].kind == "faq" and answers[0].score >= self.cfg.accept:
                if self.chooser.outside(answers[0], text):  # "where's the nearest Nando's?"
                    return Frame("elsewhere", since=index, texts=[text])
                entry = self.faq[int(answers[0].key)]
                value = resolve_enum(entry.id, enums[0].enum, dict(enums[0].aliases)) if entry.id else None
                if value is None and self.understanding.foreign(text, answers[0], tools):
                    return Frame("elsewhere", since=index, texts=[text])  # "where's the bus company's ..."
                if value is None:
                    return self._frame_for(answers[0], text, index, tools)  # "take me to the cloakroom"
                # "somewhere to eat": the place whose FAQ entry the words mean
                frame.args[enums[0].name], frame.unknown = value, ""
        log.info("offline: %r -> %s %s", text, names, frame.args)
        return frame

    def _from_topic(self, slot) -> Any:
        """An enum value the robot's last line was about: its FAQ entry's id, else the first
        value it named."""
        entry = next((e for e in self.faq if e.answer.strip() == self._topic.strip()), None)
        if entry is not None and entry.id:
            value = resolve_enum(entry.id, slot.enum, dict(slot.aliases))
            if value is not None:
                return value
        found = [(self._topic.lower().find(str(v).replace("_", " ")), v) for v in slot.enum]
        found = [(i, v) for i, v in found if i >= 0]
        return min(found)[1] if found else None

    def _social(self, best: Meaning, ranked: Sequence[Meaning]) -> bool:
        """A greeting, thanks or goodbye understood by meaning with its cue words said ("I do
        appreciate it, thank you kindly"): accepted from `suggest`, as nothing is done, or from
        SOCIAL_FLOOR when it leads every other meaning by SOCIAL_LEAD."""
        intent = self.intents.get(best.key) if best.kind == "intent" else None
        if intent is None or intent.act not in SOCIAL_ACTS or not intent.cues:
            return False
        runner_up = max((m.score for m in ranked if m.key != best.key or m.kind != best.kind), default=0.0)
        return best.score >= self.cfg.suggest or best.score >= SOCIAL_FLOOR and best.score - runner_up >= SOCIAL_LEAD
