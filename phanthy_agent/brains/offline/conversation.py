"""The conversation as the offline brain reads it: the messages of the session (history and this
turn) cut into segments, one per thing the visitor said, each with the brain's own calls after
it and how they ended (tool results, action updates). The brain keeps no state of its own:
what it asked, what it booked and what still runs are all read back from here each step.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, Dict, List, Optional

from ..base import META_INPUT, META_NOTICE, ActionUpdate, Message
from .codes import WORD_PAIRS

BUILTINS = ("finish", "cancel_action", "wait_for_actions", "load_skill")
ENDED = ("succeeded", "failed", "cancelled", "timeout", "rejected", "skipped")


@dataclasses.dataclass
class Call:
    id: str
    name: str
    args: Dict[str, Any]
    result: Optional[dict] = None  # what the tool message said (action id, or the outcome)
    update: Optional[ActionUpdate] = None  # how an acting tool ended

    @property
    def action_id(self) -> str:
        return str((self.result or {}).get("action_id", ""))

    @property
    def status(self) -> str:
        """started | succeeded | failed | cancelled | timeout | rejected | skipped | "" (no answer yet)."""
        if self.update is not None:
            return self.update.status
        result = self.result or {}
        if "error" in result and "status" not in result:
            return "rejected"
        return str(result.get("status", ""))

    @property
    def error(self) -> str:
        if self.update is not None:
            return self.update.error
        return str((self.result or {}).get("error", "") or (self.result or {}).get("reason", ""))

    @property
    def output(self) -> Any:
        """The tool's returned value (parsed JSON), once it ended."""
        if self.update is not None:
            try:
                return json.loads(self.update.result_json) if self.update.result_json else {}
            except ValueError:
                return self.update.result_json
        return (self.result or {}).get("result", {})


@dataclasses.dataclass
class Segment:
    text: str  # what the visitor said ("" before the first input)
    calls: List[Call] = dataclasses.field(default_factory=list)
    interrupted: bool = False  # a notice said the visitor cut the robot off

    def __post_init__(self) -> None:
        self.text = unshouted(self.text)

    def finish(self) -> Optional[Call]:
        return next((c for c in reversed(self.calls) if c.name == "finish"), None)

    @property
    def ended_turn(self) -> bool:
        finish = self.finish()
        return finish is not None and finish.status == "turn ended"

    @property
    def asked(self) -> bool:
        """The brain ended the turn waiting for an answer (finish with follow_up)."""
        finish = self.finish()
        return finish is not None and finish.args.get("dialogue_state") == "follow_up"

    def driver_calls(self, speak_tool: str) -> List[Call]:
        return [c for c in self.calls if c.name not in BUILTINS and c.name != speak_tool]


def segments(messages: List[Message]) -> List[Segment]:
    """The messages after the status block, one segment per input."""
    out: List[Segment] = [Segment("")]
    calls: Dict[str, Call] = {}
    by_action: Dict[str, Call] = {}
    for message in messages:
        if message.role == "user" and message.meta == META_INPUT:
            out.append(Segment(message.content.replace("\u2019", "'").strip()))
        elif message.role == "assistant":
            for request in message.tool_calls:
                call = Call(request.id, request.name, _args(request.arguments))
                calls[request.id] = call
                out[-1].calls.append(call)
        elif message.role == "tool" and message.tool_call_id in calls:
            call = calls[message.tool_call_id]
            call.result = _json(message.content)
            if call.action_id:
                by_action[call.action_id] = call
        elif message.role == "user" and message.meta == META_NOTICE:
            for update in message.updates:
                if update.action_id in by_action:
                    by_action[update.action_id].update = update
            if not message.updates and "interrupted" in message.content:
                out[-1].interrupted = True
    return out


def unshouted(text: str) -> str:
    """Text typed in capitals, in lowercase but for what may be part of a code: words with a
    digit ("HW7716"), single letters, two-letter pairs that are no word ("EF 5537"). Written
    in capitals, "SHOW MY BOOKING HW7716" would name the codes SHOW and HW7716."""
    if re.search(r"[a-z]", text) or not re.search(r"(?<![\w-])[A-Z]{3,}(?![\w-])", text):
        return text

    def lower(match: "re.Match") -> str:
        word = match.group(0)
        if word == "A" or len(word) > 2 or word.lower() in WORD_PAIRS:
            return word.lower()
        return word

    said = re.sub(r"(?<![\w-])[A-Z']+(?![\w-])", lower, text)
    # a last word after a code is the name it is under ("CANCEL BOOKING HJ2290 SMITH")
    return re.sub(r"(?<=\d)(\s+)([a-z]+)(?=\W*$)", lambda m: m.group(0) if m.group(2) in _CLOSING else
                  m.group(1) + m.group(2).capitalize(), said)


_CLOSING = {"please", "pls", "thanks", "thank", "ta", "cheers", "now", "today", "done", "ok", "okay", "mate"}


def _args(arguments: str) -> Dict[str, Any]:
    parsed = _json(arguments)
    return parsed if isinstance(parsed, dict) else {}


def _json(text: str) -> Any:
    try:
        value = json.loads(text) if text else {}
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {"value": value}


def flatten(value: Any, depth: int = 0) -> Dict[str, Any]:
    """Scalar fields of a tool's arguments or result, nested objects opened one level
    ({"booking": {"code": ...}} -> {"code": ...}); lists are left out."""
    out: Dict[str, Any] = {}
    if not isinstance(value, dict):
        return out
    for key, item in value.items():
        if isinstance(item, dict) and depth == 0:
            for inner, scalar in flatten(item, 1).items():
                out.setdefault(inner, scalar)
        elif isinstance(item, (str, int, float, bool)) and not isinstance(item, dict):
            out[key] = item
    return out


def list_items(value: Any) -> List[dict]:
    """The first list of objects in a tool's result ({"tours": [...]} -> the tours)."""
    if isinstance(value, list):
        return [i for i in value if isinstance(i, dict)]
    if isinstance(value, dict):
        for item in value.values():
            if isinstance(item, list) and any(isinstance(i, dict) for i in item):
                return [i for i in item if isinstance(i, dict)]
    return []
