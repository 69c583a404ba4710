"""The dialogue policy: from the conversation to the brain's next move.

Each step re-reads the session (conversation.py). The inputs since the last turn that ended
without a question (the "chain": a turn that asked, or a turn still running, continues it) are
interpreted in order, each against the frame the one before left:

1. "stop", "never mind" (patterns, or the stop act by meaning): running actions are cancelled.
2. An answer to what the frame asked: the asked slot (its own finder, or the whole answer for a
   name or a code), any other slot it fills, yes/no to a confirmation, the choice among listed
   entries. A clear request of another kind instead starts afresh.
3. A correction ("actually, the gift shop first", "no, three tickets", "try code BBBBBB"): a
   correction word, or no meaning of its own, and a slot value of the frame (or of the last
   request of the session) that differs: the request is re-issued with it, what still runs of
   the old one is cancelled. A request that already succeeded is re-issued only when all its
   arguments are enum values (walking somewhere else); a booking is not booked twice.
4. Otherwise by meaning (understanding.py): accepted -> the intent, tool or FAQ answer; in the
   "did you mean" band -> the question (a yes runs it); below -> the honest fallback.
The frame is then carried out by the planner (plan.py); acts and answers are said.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Dict, List, Optional, Sequence

from .replies import capabilities, failure, humanize
from .config import FaqEntry, Intent, IntentsFile
from .conversation import BUILTINS, Call, Segment, flatten, segments
from .addressee import (after_the_pause, before_the_remark, past_the_assistant, past_the_doubt, past_the_wake_words,
                        said_to_someone_else, turned_to_robot, without_asides)
from .choice import Chooser
from .wording import ESCORT, NEAR_VENUE, WHERE
from .plan import Frame, Next, Planner
from .slots import NO, YES, answer, fill, loose_phrase, request_slots
from .codes import find_codes
from .values import find_numbers, find_times, resolve_enum
from .understanding import Meaning, Understanding

SOCIAL_ACTS = ("greeting", "thanks", "goodbye")
# ... and below `suggest` when nothing else comes close ("much obliged, my metal friend": a
# thanks the encoder scores 0.33, the next meaning 0.26)
SOCIAL_FLOOR, SOCIAL_LEAD = 0.30, 0.05
# a request's pattern gives way when the whole utterance is this close to something the venue
# does not do ("how do astronauts go to the toilet in space": 0.79 to "how do astronauts breathe in space?")
OUT_OF_SCOPE_SURE = 0.75
NEARBY = re.compile(r"\b(?:nearest|nearby|near\s+here|round\s+here|around\s+here|close\s+by|in\s+town)\b", re.I)
log = logging.getLogger(__name__)

CORRECTION = re.compile(r"^\W*(?:(?:no|nope|sorry|actually|oh|wait|rather|not that|i mean|i meant|"
                        r"make it|instead|try|change it to|let's say)\b\W*)+|\W*\b(?:instead|actually)\W*$", re.I)
REFERENCE = re.compile(r"\b(?:there|it|that(?: place)?|this(?: place)?|the same)\b", re.I)
# a clause that sets a place aside ("And don't say the cafe.", "Your cafe doesn't count.", "not your cafe")
SET_ASIDE = re.compile(r"\b(?:not|don'?t\s+(?:say|offer|suggest|tell\s+me)|doesn'?t\s+count|instead\s+of|rather\s+than)\b", re.I)
GREETING_WAKE = re.compile(r"^\W*(?:hi|hello|hiya)\b", re.I)  # "Hi robot, we've just arrived": a greeting
GREETING = re.compile(r"^\W*(?:hi|hello|hey|good (?:morning|afternoon|evening))\b", re.I)
MAX_CHAIN = 8  # inputs read back into one request
MAX_ASKS = 2  # the same question asked again at most this often, then the fallback


class Policy:
    def __init__(self, cfg: IntentsFile, faq: Sequence[FaqEntry], understanding: Understanding,
                 speak_tool: str = "speak"):
        self.cfg, self.faq, self.understanding = cfg, list(faq), understanding
        self.planner = Planner(cfg)
        self.chooser = Chooser(cfg, understanding)
        self.speak_tool = speak_tool
        self.intents: Dict[str, Intent] = {i.name: i for i in cfg.intents}
        self._topic = ""  # what the robot said last (set per step)

    # --- the step ------------------------------------------------------------------------------
    def next(self, messages, specs: Dict[str, dict]) -> Next:
        tools = {n: s for n, s in specs.items() if n not in BUILTINS and n != self.speak_tool}
        segs = segments(messages)
        current = len(segs) - 1
        if current == 0:
            return Next(state="end")
        start = current
        while start > 1 and current - start < MAX_CHAIN and (not segs[start - 1].ended_turn or segs[start - 1].asked):
            start -= 1
        known = self._known(segs[:current])
        request = self._last_request(segs, start, tools)
        self._topic = self._last_said(segs[:current])
        frame: Optional[Frame] = None
        for index in range(start, current + 1):
            frame = self._interpret(segs, index, frame, request, tools, known)
            if frame.kind == "request":
                request = frame
        seg = segs[current]
        if seg.finish() is not None and seg.finish().status != "skipped":
            return self._after_finish(seg, frame)
        return self._act(frame, segs, tools, known)

    def understand(self, text: str, specs: Dict[str, dict]) -> Frame:
        """How a lone utterance, the first of a conversation, is understood (benchmarks, tests)."""
        tools = {n: s for n, s in specs.items() if n not in BUILTINS and n != self.speak_tool}
        segs = [Segment(""), Segment(text)]
        self._topic = ""
        return self._interpret(segs, 1, None, None, tools, {})

    def _act(self, frame: Frame, segs: List[Segment], tools: Dict[str, dict], known: Dict[str, Any]) -> Next:
        current = segs[-1]
        cancels = [("cancel_action", {"action_id": a}) for a in frame.cancel
                   if not any(c.name == "cancel_action" and c.args.get("action_id") == a for c in current.calls)]
        if frame.kind == "request":
            calls = [c for s in segs[frame.since:] for c in s.calls]
            before = [c for s in segs[:frame.since] for c in s.driver_calls(self.speak_tool)]
            nxt = self.planner.next(frame, tools, calls, known, before)
            nxt.calls = cancels + nxt.calls
            return nxt
        if current.calls:  # said already: the turn only has to end
            return Next(state="end")
        return Next(calls=cancels, say=self._say(frame, tools, current.text),
                    state="follow_up" if frame.kind == "suggest" else "end")

    def _after_finish(self, seg: Segment, frame: Frame) -> Next:
        """The turn went on after finish (an action failed after all): say so once."""
        lines = []
        for index, call in enumerate(seg.calls):
            later_speech = any(c.name == self.speak_tool for c in seg.calls[index + 1:])
            if call.name not in BUILTINS and call.name != self.speak_tool and \
                    call.status in ("failed", "timeout") and not later_speech:
                lines.append(failure(self.cfg, call.name, call.status, call.error, frame.intent))
        return Next(say=" ".join(lines[:2]), state="end")

    def _say(self, frame: Frame, tools: Dict[str, dict], text: str) -> str:
        if frame.kind == "faq":
            return frame.answer
        if frame.kind == "suggest":
            return self.cfg.did_you_mean.format(option=self._label(frame.answer, tools))
        if frame.kind == "declined":
            return self.cfg.template(frame.answer or "cancelled")
        if frame.kind == "elsewhere":
            return self.cfg.template("elsewhere")
        if frame.kind == "act" and frame.answer == "help":
            hello = "Hello! " if GREETING.search(text) else ""
            return hello + capabilities(self.cfg, tools, bool(self.faq))
        if frame.kind == "act" and frame.answer == "stop" and frame.cancel:
            return self.cfg.template("stopped")
        if frame.kind == "act" and frame.intent is not None:
            return frame.intent.say
        return self.cfg.fallback

    # --- interpretation ------------------------------------------------------------------------
    def _interpret(self, segs: List[Segment], index: int, prev: Optional[Frame], request: Optional[Frame],
                   tools: Dict[str, dict], known: Dict[str, Any]) -> Frame:
        text = segs[index].text
        if not text:
            return prev or Frame("fallback", since=index)
        text = without_asides(after_the_pause(text) or text)  # "... — Maya, don't lick that — ..."
        text = turned_to_robot(text) or text  # "Grandma, it's cancel! Robot, cancel the booking ..."
        text = past_the_assistant(text) or text  # "Hey Google, show me booking RT9052"
        if self.understanding.pattern(text) is None and not GREETING_WAKE.match(text):
            text = past_the_wake_words(text) or text  # "Hey robot, wifi" (not "Hi robot, can you hear me?")
        text = past_the_doubt(text) or text  # "Let's test you. Six tickets please."
        pattern = self.understanding.pattern(text) or self.chooser.leading_act(text, tools) or \
            (self._stop_intent() if self.chooser.stop_said(text) else None)
        ranked = self.understanding.rank(text, tools)
        # "I'd like to cancel, the reference is 3FG7H" is the booking's, not a stop
        if self._act_of(pattern, ranked) == "stop" and (pattern is not None or not find_codes(text) and
                                                        not said_to_someone_else(text)):
            return Frame("act", self.intents[self._stop_intent()], answer="stop", since=index,
                         cancel=self._running(segs, request))
        if prev is not None and prev.kind == "request":
            calls = [c for s in segs[prev.since:index] for c in s.calls]
            asked = self.planner.next(prev, tools, calls, known).ask if segs[index - 1].asked else ""
            frame = self._answer(prev, asked, text, index, ranked, pattern, tools)
            if frame is not None:
                return frame
        if prev is not None and prev.kind == "suggest" and segs[index - 1].asked:
            if YES.search(text):
                return self._frame_for(self._meaning(prev.answer), prev.texts[-1], prev.since, tools)
            if NO.search(text):
                return Frame("declined", answer="cancelled", since=index)
        if request is not None:
            frame = self._correction(request, text, index, ranked, pattern, segs, tools)
            if frame is not None:
                return frame
        frame = self._new(text, index, ranked, pattern, tools)
        question = before_the_remark(text) if frame.kind == "fallback" else ""
        if question:  # "How do I get on the wi-fi? He's been trying for ten minutes": the question
            log.info("offline: %r is understood by its question %r", text, question)
            pattern = self.understanding.pattern(question) or self.chooser.leading_act(question, tools)
            retried = self._new(question, index, self.understanding.rank(question, tools), pattern, tools)
            # not a greeting said before a question nothing answers ("Hello there, who's the Prime Minister?")
            return frame if retried.kind == "act" and retried.answer in SOCIAL_ACTS else retried
        return frame

    def _answer(self, prev: Frame, asked: str, text: str, index: int, ranked: List[Meaning],
                pattern: Optional[str], tools: Dict[str, dict]) -> Optional[Frame]:
        slots = self._slots(prev, tools)
        filled = fill(slots, CORRECTION.sub("", text))
        changed = {k: v for k, v in filled.args.items() if prev.args.get(k) != v}
        if asked == "confirm":
            if changed or filled.problems:
                return _updated(prev, changed, filled.problems, text, confirmed=False)
            if YES.search(text):
                return _updated(prev, {}, {}, text, confirmed=True)
            if NO.search(text):
                return Frame("declined", answer="confirm_declined", since=index)
            return None
        if asked.startswith("slot:"):
            slot = next(s for s in slots if s.name == asked[5:])
            # "no, three tickets" answers another slot: it is not a name
            value = answer(slot, text) if not changed and not CORRECTION.search(text) else None
            if value is not None:
                changed[slot.name] = value
            if changed or filled.problems:
                return _updated(prev, changed, filled.problems, text)
            if self._accepted(ranked, pattern):
                return None
            if prev.asks + 1 >= MAX_ASKS:
                return Frame("fallback", since=index)
            return _updated(prev, {}, {}, text, asks=prev.asks + 1)
        if asked.startswith("choice:"):
            if self._accepted(ranked, pattern) and not changed and not _names_item(text):
                return None
            return _updated(prev, changed, filled.problems, text)
        return None

    def _correction(self, target: Frame, text: str, index: int, ranked: List[Meaning],
                    pattern: Optional[str], segs: List[Segment], tools: Dict[str, dict]) -> Optional[Frame]:
        marked = bool(CORRECTION.search(text))
        if not marked and self._accepted(ranked, pattern):
            return None
        slots = self._slots(target, tools)
        filled = fill(slots, CORRECTION.sub("", text))
        changed = {k: v for k, v in filled.args.items() if target.args.get(k) != v}
        if not changed and not filled.problems:
            return None
        calls = [c for s in segs[target.since:index] for c in s.calls if c.name in target.tools]
        done = bool(calls) and all(c.status == "succeeded" for c in calls)
        if done and any(s.kind != "enum" for s in slots if s.name in target.args):
            return None  # a booking is not made twice: the request below decides
        frame = _updated(target, changed, filled.problems, text, confirmed=False)
        frame.since, frame.cancel = index, self._running(segs, target)
        log.info("offline: %r corrects %s: %s", text, target.tools, changed)
        return frame

    def _new(self, text: str, index: int, ranked: List[Meaning], pattern: Optional[str],
             tools: Dict[str, dict]) -> Frame:
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
        if best is not None and best.score >= self.cfg.suggest:
            frame = self._frame_for(best, text, index, tools, ranked) if best.kind != "faq" else None
            if frame is not None and frame.kind == "request" and frame.unknown:
                return frame  # "take me to the moon base": say which places there are
            log.info("offline: %r is unsure (%s %s %.2f): did you mean", text, best.kind, best.key, best.score)
            return Frame("suggest", answer=f"{best.kind}:{best.key}", texts=[text], since=index)
        log.info("offline: %r matches nothing (best %.2f): fallback", text, best.score if best else 0.0)
        return Frame("fallback", since=index, texts=[text])

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

    # --- helpers -------------------------------------------------------------------------------
    def _last_said(self, segs: List[Segment]) -> str:
        for seg in reversed(segs):
            for call in reversed(seg.calls):
                if call.name == self.speak_tool and call.args.get("text"):
                    return str(call.args["text"])
        return ""

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

    def _accepted(self, ranked: List[Meaning], pattern: Optional[str]) -> bool:
        return pattern is not None or bool(ranked and ranked[0].score >= self.cfg.accept)

    def _act_of(self, pattern: Optional[str], ranked: List[Meaning]) -> str:
        if pattern is not None:
            return self.intents[pattern].act or ""
        if ranked and ranked[0].kind == "intent" and ranked[0].score >= self.cfg.accept:
            return self.intents[ranked[0].key].act or ""
        return ""

    def _stop_intent(self) -> str:
        return next(i.name for i in self.cfg.intents if i.act == "stop")

    def _slots(self, frame: Frame, tools: Dict[str, dict]):
        return request_slots(frame.intent, frame.tools, tools)

    def _meaning(self, key: str) -> Meaning:
        kind, _, name = key.partition(":")
        return Meaning(kind, name, 1.0)

    def _label(self, key: str, tools: Dict[str, dict]) -> str:
        meaning = self._meaning(key)
        if meaning.kind == "faq":
            return self.faq[int(meaning.key)].questions[0].rstrip("?").lower()
        intent = self.intents.get(meaning.key)
        if intent is not None:
            return intent.label or (intent.examples[0] if intent.examples else humanize(intent.name))
        return humanize(meaning.key)

    def _running(self, segs: List[Segment], frame: Optional[Frame]) -> List[str]:
        """Action ids of the frame's calls still running (what a stop or a correction cancels)."""
        if frame is None:
            return []
        return [c.action_id for s in segs[frame.since:] for c in s.calls
                if c.name not in BUILTINS and c.name != self.speak_tool and c.status == "started" and c.action_id]

    def _known(self, segs: List[Segment]) -> Dict[str, Any]:
        """What the session established: the arguments and results of its successful calls."""
        known: Dict[str, Any] = {}
        for seg in segs:
            for call in seg.driver_calls(self.speak_tool):
                if call.status == "succeeded":
                    known.update(flatten(call.args))
                    known.update(flatten(call.output))
        return known

    def _last_request(self, segs: List[Segment], start: int, tools: Dict[str, dict]) -> Optional[Frame]:
        """The session's last request before the chain, as a frame (what a correction corrects)."""
        for index in range(start - 1, 0, -1):
            calls = segs[index].driver_calls(self.speak_tool)
            if calls:
                call: Call = calls[-1]
                intent = next((i for i in self.cfg.intents if i.tool == call.name), None) or \
                    next((i for i in self.cfg.intents if call.name in i.steps), None)
                return Frame("request", intent, [call.name], dict(call.args), [segs[index].text], index)
        return None


def _updated(prev: Frame, changed: Dict[str, Any], problems: Dict[str, str], text: str,
             confirmed: Optional[bool] = None, asks: int = 0) -> Frame:
    args = {k: v for k, v in prev.args.items() if k not in problems}
    args.update(changed)
    return Frame("request", prev.intent, list(prev.tools), args, [text] + prev.texts, prev.since,
                 prev.confirmed if confirmed is None else confirmed, problems, "" if changed else prev.unknown,
                 "", [], asks)


def _names_item(text: str) -> bool:
    return bool(re.search(r"\b(?:the|one|first|second|last|earlier|later|\d)\b", text, re.I))
