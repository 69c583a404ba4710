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
4. Otherwise a new utterance, read on its own (reading.py): by meaning (understanding.py),
   accepted -> the intent, tool or FAQ answer; in the "did you mean" band -> the question (a yes
   runs it); below -> the honest fallback; the example memory's vote last (examples.py).
The frame is then carried out by the planner (plan.py); acts and answers are said.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Dict, List, Optional, Sequence

from .replies import capabilities, failure, humanize
from .config import FaqEntry, Intent, IntentsFile
from .conversation import BUILTINS, Call, Segment, flatten, segments
from .addressee import (ASKS_SOMETHING, after_the_pause, before_the_pause, before_the_remark, past_the_assistant,
                        past_the_doubt, past_the_hold, past_the_wake_words, said_to_someone_else, turned_to_robot,
                        without_asides)
from .choice import Chooser
from .messenger import past_the_messenger
from .plan import Frame, Next, Planner
from .slots import NO, YES, answer, fill, request_slots
from .codes import find_codes
from .spoken import unstammered
from .understanding import Meaning, Understanding
from .examples import ExampleMemory
from .reading import SOCIAL_ACTS, Reading

log = logging.getLogger(__name__)

DASHES = re.compile(r"\s*[\u2014\u2013]\s*|\s+-{1,2}\s+")  # an aside set off ("goodbye — sorry, bus to catch")
CORRECTION = re.compile(r"^\W*(?:(?:no|nope|sorry|actually|oh|wait|rather|not that|i mean|i meant|"
                        r"make it|instead|try|change it to|let's say)\b\W*)+|\W*\b(?:instead|actually)\W*$", re.I)
GREETING_WAKE = re.compile(r"^\W*(?:hi|hello|hiya)\b", re.I)  # "Hi robot, we've just arrived": a greeting
GREETING = re.compile(r"^\W*(?:hi|hello|hey|good (?:morning|afternoon|evening))\b", re.I)
# a request beside thanks or a goodbye ("Shukran habibi, and now book the space tour, five people")
PARTING_WITH_A_REQUEST = re.compile(r"\d|\b(?:book(?:ing)?|reserve|cancel|refund|move|change|tickets?|tour|people|adults?|child(?:ren)?|"
                                    r"take\s+(?:me|us)|"
                                    r"(?:i|we)(?:'d|\s+would)\s+(?:like|love)|(?:i|we)\s+(?:want|need))\b", re.I)
MAX_CHAIN = 8  # inputs read back into one request
MAX_ASKS = 2  # the same question asked again at most this often, then the fallback


class Policy(Reading):
    def __init__(self, cfg: IntentsFile, faq: Sequence[FaqEntry], understanding: Understanding,
                 speak_tool: str = "speak", examples: Optional[ExampleMemory] = None):
        self.cfg, self.faq, self.understanding, self.examples = cfg, list(faq), understanding, examples
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
    def _act_beside_an_aside(self, text: str) -> str:
        """A greeting, thanks or goodbye said in a sentence of its own before talk to someone else;
        a greeting, thanks, goodbye, stop or capabilities question said in its own words beside
        an aside set off by a dash that asks nothing and names no booking code ("goodbye — sorry, bus to catch", "what can you
        do — sorry, eating", "cancel — I mean, don't worry about it, sorry"); "" when there is none,
        acts of two kinds, or the aside asks something."""
        sentences = re.split(r"(?<=[.!?])\s+", text.strip())
        first = self.understanding.pattern(sentences[0]) if len(sentences) > 1 and "?" not in sentences[0] else None
        if first is not None and self.intents[first].act in SOCIAL_ACTS and said_to_someone_else(" ".join(sentences[1:])):
            return sentences[0]  # "Bye robot! Wave bye-bye, everyone", "Hi there. Look, kids, it's a robot!"
        named = [(c, self.understanding.pattern(c)) for c in (c.strip() for c in re.split(r"[,;.!]+", text)) if c]
        acts = {self.intents[name].act for _, name in named if name is not None}
        parting = [c for c, name in named if name is not None and self.intents[name].act in ("thanks", "goodbye")]
        if len(named) > 2 and parting and len(acts) == 1 and "?" not in text and not find_codes(text) and \
                not any(ASKS_SOMETHING.search(c) for c, _ in named) and not said_to_someone_else(text) and \
                not PARTING_WITH_A_REQUEST.search(text) and not re.match(r"\W*(?:mm+-?hm+|uh-huh)\b", text, re.I):
            # "oh lovely, thanks ever so much, the kids are thrilled, that's made the afternoon" (not
            # "Mm, yes, I'll ring you back after the tour, love. Bye.", a call)
            return parting[0]
        parts = [p.strip(" ,") for p in DASHES.split(text) if p.strip(" ,")]
        if len(parts) < 2:
            return ""
        acts = [(p, name) for p in parts if (name := self.understanding.pattern(p)) is not None and self.intents[name].act
                and not (self.intents[name].act == "greeting" and "?" in p)]  # "Hello? Hello — you're breaking up"
        asides = [p for p in parts if p not in [a for a, _ in acts]]
        if not acts or len({name for _, name in acts}) > 1 or \
                any(ASKS_SOMETHING.search(p) or find_codes(p) for p in asides):  # "Cancel it — ... code w two r ..."
            return ""
        return acts[0][0]

    def _interpret(self, segs: List[Segment], index: int, prev: Optional[Frame], request: Optional[Frame],
                   tools: Dict[str, dict], known: Dict[str, Any]) -> Frame:
        text = segs[index].text
        if not text:
            return prev or Frame("fallback", since=index)
        text = unstammered(text)  # "c-c-can I book"
        text = past_the_hold(text) or text  # "Hold on, Mum. Where are the toilets?"
        text = without_asides(after_the_pause(text) or text)  # "... — Maya, don't lick that — ..."
        text = before_the_pause(text) or text  # "Is the café open? ...Okay, then we'll eat there."
        text = turned_to_robot(text) or text  # "Grandma, it's cancel! Robot, cancel the booking ..."
        text = past_the_assistant(text) or text  # "Hey Google, show me booking RT9052"
        if self.understanding.pattern(text) is None and not GREETING_WAKE.match(text):
            text = past_the_wake_words(text) or text  # "Hey robot, wifi" (not "Hi robot, can you hear me?")
        text = past_the_doubt(text) or text  # "Let's test you. Six tickets please."
        text = past_the_messenger(text) or text  # "My mum says to book the dinosaur tour"
        if self.understanding.pattern(text) is None:
            text = self._act_beside_an_aside(text) or text  # "bye, robot — wave bye-bye, sweetie"
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
            frame = frame if retried.kind == "act" and retried.answer in SOCIAL_ACTS else retried
        frame = self._recalled(frame, text, index, tools)
        meaning = self._meaning(frame.answer) if frame.kind == "suggest" else None
        if meaning is not None and self.chooser.details_said(meaning, text, tools):
            # "Just wanna double check what time our slot is, under Achterberg, reference ZK 8 1 4 0"
            log.info("offline: %r gives the details %s %s takes: no need to ask", text, meaning.kind, meaning.key)
            return self._frame_for(meaning, text, index, tools)
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

    # --- helpers -------------------------------------------------------------------------------
    def _last_said(self, segs: List[Segment]) -> str:
        for seg in reversed(segs):
            for call in reversed(seg.calls):
                if call.name == self.speak_tool and call.args.get("text"):
                    return str(call.args["text"])
        return ""

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
