"""The dialogue_state contract: what the robot does after a voice reply. Pure, no ROS.

Each voice reply carries one of
  - `end`: the interaction is over; back to waiting for the wake word;
  - `follow_up`: the robot asked something: listen for the answer (no wake word), bounded by
    a timeout with one short re-prompt;
  - `continuous`: stay in conversation (no wake word) until an exit phrase, a silence timeout
    or an explicit `end`.

The model states it through the `finish` tool's `dialogue_state` argument (structured output
through a tool the model already calls). Whatever arrives is validated here and, when missing,
invalid or contradictory, repaired by one documented policy; every repair carries its reason
(logged by the caller and counted by the fault harness). The policy, in order:

1. Parse: a dict `{"dialogue_state": ...}`, a JSON string of one, or a bare string. Spelling
   variants ("Follow-up", "FOLLOW UP", "followup") are accepted quietly; anything else is
   *invalid*, no value at all is *missing*.
2. Missing or invalid: a reply ending in a question, or a skill still waiting for an answer,
   means `follow_up`; in continuous mode, `continuous` (a repair never ends a conversation the
   visitor asked to keep going); otherwise `end`.
3. Contradictions, fixed even when the value is valid:
   - `end` while the reply asks a question or a skill waits for an answer -> `follow_up`
     (the robot would ask and walk away);
   - `follow_up` after a completed task (acting tools ran and succeeded), with no question
     in the reply and no skill waiting -> `end` (nothing to wait for; continuous mode:
     `continuous`).
4. `end` in continuous mode is honoured: the model's explicit `end` leaves continuous mode
   (it may have heard a farewell the exit phrases miss). Only the model's own valid `end`
   does that; repairs never do. `follow_up` in continuous mode answers the question and
   stays continuous afterwards.
"""

from __future__ import annotations

import dataclasses
import json
import re
from enum import Enum
from typing import Any, Optional


class DialogueState(str, Enum):
    END = "end"
    FOLLOW_UP = "follow_up"
    CONTINUOUS = "continuous"


_SPELLINGS = {re.sub(r"[^a-z]", "", s.value): s for s in DialogueState}


@dataclasses.dataclass(frozen=True)
class ReplyFacts:
    """What the turn did, to judge the model's dialogue_state against."""
    reply: str = ""
    task_completed: bool = False  # acting tools ran this turn and all succeeded
    skill_awaiting_answer: bool = False
    continuous_mode: bool = False  # the conversation is in continuous mode


@dataclasses.dataclass(frozen=True)
class Resolution:
    state: DialogueState
    raw: str  # what the model gave, as text ("" = nothing)
    repair: str = ""  # why the state differs from what the model said ("" = taken as given)

    @property
    def repaired(self) -> bool:
        return bool(self.repair)


def parse_dialogue_state(raw: Any) -> tuple[Optional[DialogueState], str]:
    """(state or None, problem): problem is "" when valid, else "missing" or "invalid: ..."."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None, "missing"
    value = raw
    if isinstance(raw, (bytes, bytearray)):
        value = raw.decode("utf-8", errors="replace")
    if isinstance(value, str) and value.strip().startswith(("{", "[", '"')):
        try:
            value = json.loads(value)
        except ValueError as exc:
            return None, f"invalid: not JSON ({exc.msg})"
    if isinstance(value, dict):
        if "dialogue_state" not in value:
            return None, "missing"
        value = value["dialogue_state"]
        if value is None:
            return None, "missing"
    if not isinstance(value, str):
        return None, f"invalid: {type(value).__name__} {str(value)[:40]!r}"
    state = _SPELLINGS.get(re.sub(r"[^a-z]", "", value.lower()))
    if state is None:
        return None, f"invalid: {value[:40]!r}"
    return state, ""


def asks_question(reply: str) -> bool:
    """The reply's last sentence is a question."""
    return reply.rstrip().rstrip("\"')]").endswith("?")


def resolve_dialogue_state(raw: Any, facts: ReplyFacts) -> Resolution:
    """The state to act on, repaired by the module's policy when needed."""
    raw_text = raw if isinstance(raw, str) else ("" if raw is None else json.dumps(raw, default=str))
    state, problem = parse_dialogue_state(raw)
    waits_for_answer = asks_question(facts.reply) or facts.skill_awaiting_answer
    why_wait = "the reply asks a question" if asks_question(facts.reply) else "a skill waits for an answer"
    if state is None:
        if waits_for_answer:
            return Resolution(DialogueState.FOLLOW_UP, raw_text, f"{problem}; {why_wait}")
        if facts.continuous_mode:
            return Resolution(DialogueState.CONTINUOUS, raw_text, f"{problem}; continuous mode goes on")
        return Resolution(DialogueState.END, raw_text, f"{problem}; nothing to wait for")
    if state is DialogueState.END and waits_for_answer:
        return Resolution(DialogueState.FOLLOW_UP, raw_text, f"end contradicts: {why_wait}")
    if state is DialogueState.FOLLOW_UP and not waits_for_answer and facts.task_completed:
        fixed = DialogueState.CONTINUOUS if facts.continuous_mode else DialogueState.END
        return Resolution(fixed, raw_text, "follow_up contradicts: the task is done and nothing was asked")
    return Resolution(state, raw_text)
