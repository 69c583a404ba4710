"""Carrying out a request: the next calls of a frame (a tool, or several tools in order), read
off what was already done. Pure: the frame, the visible tools, the calls made for it so far
(with their outcomes) and the values the session already knows give the next `Next`.

For each step in order: fill its arguments (the visitor's words and answers, then a source
tool's result for `source` slots, then the results of the steps before it, then, for names and
codes only, what this session already established); a required one missing -> ask; a value
out of bounds -> say so and ask; `x-confirm` and not confirmed -> ask; not called yet -> call
it (an acting tool after its `say` line, then `wait_for_actions`, so the turn stays open: what
the visitor says meanwhile steers it, and the outcome is read at the next step); running ->
wait; failed -> the sorry line; succeeded -> the next step. After the last: the `done` line.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .replies import action_phrase, choice, display, failure, fill, humanize, join, question, result_text
from .config import Intent, IntentsFile
from .conversation import Call, flatten, list_items
from .slots import Slot, match_item, slots_of

WAIT = "wait_for_actions"
AGAIN = re.compile(r"\b(?:another|more|again|extra|also|as well|too)\b", re.I)
IDENTITY_KINDS = ("name", "code")  # what a session's earlier requests may fill in a later one


@dataclasses.dataclass
class Frame:
    """What the visitor wants, as understood so far."""
    kind: str  # request | act | faq | suggest | fallback | elsewhere | declined | unknown
    intent: Optional[Intent] = None
    tools: List[str] = dataclasses.field(default_factory=list)
    args: Dict[str, Any] = dataclasses.field(default_factory=dict)
    texts: List[str] = dataclasses.field(default_factory=list)  # its utterances, newest first
    since: int = 0  # the segment from which calls count for it
    confirmed: bool = False
    problems: Dict[str, str] = dataclasses.field(default_factory=dict)
    unknown: str = ""  # an enum phrase that named nothing known ("the moon base")
    answer: str = ""  # act name, FAQ answer, suggested meaning
    cancel: List[str] = dataclasses.field(default_factory=list)  # action ids to stop first
    asks: int = 0  # questions asked without an answer that fits


@dataclasses.dataclass
class Next:
    calls: List[Tuple[str, dict]] = dataclasses.field(default_factory=list)
    say: str = ""
    say_first: bool = False  # the line before the calls (an acknowledgement before acting)
    state: Optional[str] = None  # finish with this dialogue_state; None: the turn goes on
    ask: str = ""  # what the line asks: "confirm", "slot:<name>", "choice:<name>"


class Planner:
    def __init__(self, cfg: IntentsFile):
        self.cfg = cfg

    def next(self, frame: Frame, tools: Dict[str, dict], calls: List[Call], known: Dict[str, Any],
             before: Sequence[Call] = ()) -> Next:
        """`calls`: made for this frame so far; `before`: the session's earlier calls (a request
        made and done already is not made twice: "book two tickets ..." said again)."""
        values: Dict[str, Any] = {}
        output: Any = {}
        slots: List[Slot] = []
        intent = frame.intent
        for step, tool in enumerate(frame.tools):
            spec = tools.get(tool)
            if spec is None:
                return Next(say=(intent.missing_tool if intent and intent.missing_tool else
                                 self.cfg.template("missing_tool")), state="end")
            slots = slots_of(spec, list(tools), {p: c.aliases for p, c in (intent.slots if intent else {}).items()})
            probe = self._probe(tool, spec, slots, calls, intent)
            if probe is not None:
                return probe
            calls = [c for c in calls if not (c.name == tool and _is_probe(c))]
            args, pending = self._arguments(frame, slots, tools, calls, values if step else {}, known)
            if pending is not None:
                return pending
            if spec.get("x-confirm") and not frame.confirmed:
                confirm = spec["x-confirm"]
                text = (fill(confirm, args, slots, intent) if isinstance(confirm, str) else
                        self.cfg.template("confirm").format(action=action_phrase(tool, args, slots, intent)))
                return Next(say=text, state="follow_up", ask="confirm")
            call = next((c for c in reversed(calls) if c.name == tool), None)
            twice = next((c for c in reversed(before) if c.name == tool and c.args == args and
                          c.status == "succeeded"), None)
            if call is None and twice is not None and any(s.kind != "enum" for s in slots if s.name in args) \
                    and not AGAIN.search(" ".join(frame.texts[:1])):
                values.update(flatten(twice.args))
                values.update(flatten(twice.output))
                return Next(say=self.cfg.template("already") + " " +
                            result_text(intent, self.cfg, twice.output, values, slots), state="end")
            if call is None:
                # every call is followed by the wait: the brain does not see which tools act,
                # and after a lookup (answered at once) the wait ends at once
                ack = fill(intent.say, args, slots, intent) if intent and intent.say else ""
                return Next(calls=[(tool, args), (WAIT, {})], say=ack, say_first=True)
            status = call.status
            if status in ("started", ""):
                waited = any(c.name == WAIT and c.status for c in calls[calls.index(call) + 1:])
                return Next(state="end") if waited else Next(calls=[(WAIT, {})])
            if status != "succeeded":
                if status in ("cancelled", "skipped"):
                    return Next(state="end")
                return Next(say=failure(self.cfg, tool, status, call.error, intent), state="end")
            values.update(flatten(call.args))
            values.update(flatten(call.output))
            output = call.output
        values.update(frame.args)
        return Next(say=result_text(intent, self.cfg, output, values, slots), state="end")

    def _probe(self, tool: str, spec: dict, slots: List[Slot], calls: List[Call],
               intent: Optional[Intent]) -> Optional[Next]:
        """A tool only some roles may use (`x-roles`) is first called with no arguments: the
        agent checks the sender's role before the arguments (the brain cannot see the role), so
        a visitor hears it is not for them, and staff are then asked for what is missing."""
        if not spec.get("x-roles") or not any(s.required for s in slots):
            return None
        probe = next((c for c in calls if c.name == tool and _is_probe(c)), None)
        if probe is None:
            return Next(calls=[(tool, {})])
        if "not allowed" in probe.error:
            first = re.split(r"(?<=[.!?])\s", str(spec.get("description") or ""), maxsplit=1)[0]
            action = re.sub(r"\s*\([^)]*\)", "", first).strip(" .") or humanize(tool)
            return Next(say=self.cfg.template("not_allowed").format(action=action[:1].lower() + action[1:]),
                        state="end")
        return None

    def _arguments(self, frame: Frame, slots: List[Slot], tools: Dict[str, dict], calls: List[Call],
                   earlier: Dict[str, Any], known: Dict[str, Any]) -> Tuple[Dict[str, Any], Optional[Next]]:
        args: Dict[str, Any] = {}
        for slot in slots:
            value = frame.args.get(slot.name)
            if value is None and slot.kind == "source" and slot.required:
                # a later step names its own entry (a move to the tour it names), asked for if none is
                value, pending = self._from_source(frame, slot, tools, calls, True)
                if pending is not None:
                    return args, pending
            if value is None:
                value = earlier.get(slot.name)
            if value is None and slot.kind in IDENTITY_KINDS and slot.required:
                value = known.get(slot.name)
            if value is not None:
                args[slot.name] = value
        for slot in slots:
            if slot.required and slot.name not in args:
                if slot.kind == "enum" and frame.unknown:
                    known_values = join([display(slot, frame.intent, v) for v in slot.enum])
                    line = (frame.intent.unknown if frame.intent and frame.intent.unknown else
                            self.cfg.template("unknown_value"))
                    value = fill(line, {}, value=frame.unknown, known=known_values)
                    return args, Next(say=value, state="end")
                return args, Next(say=question(self.cfg, frame.intent, slot, frame.problems.get(slot.name, "")),
                                  state="follow_up", ask=f"slot:{slot.name}")
        return args, None

    def _from_source(self, frame: Frame, slot: Slot, tools: Dict[str, dict], calls: List[Call],
                     must: bool) -> Tuple[Any, Optional[Next]]:
        """A value listed by another tool ("The tour's id from list_tours"): call it, then pick
        the entry the visitor named (their newest words first); none named and `must`: ask
        which (the listed entries as the choice)."""
        lookup = next((c for c in reversed(calls) if c.name == slot.source), None)
        if lookup is None:
            return None, Next(calls=[(slot.source, {}), (WAIT, {})])
        if lookup.status in ("started", ""):
            return None, Next(calls=[(WAIT, {})])
        items = list_items(lookup.output) if lookup.status == "succeeded" else []
        for text in frame.texts:
            found = match_item(text, items, slot.name)
            if len(found) == 1:
                return found[0][slot.name], None
            if found:
                return None, Next(say=choice(self.cfg, frame.intent, found), state="follow_up",
                                  ask=f"choice:{slot.name}")
        if must and items:
            return None, Next(say=choice(self.cfg, frame.intent, items), state="follow_up",
                              ask=f"choice:{slot.name}")
        return None, None


def _is_probe(call: Call) -> bool:
    return call.args == {} and call.status == "rejected"
