"""The offline brain's files: intents (`offline.intents_file`) and FAQ (`offline.faq_file`),
validated with pydantic so a typo is a clear error naming the field.

Intents file (YAML), a mapping (a bare list is taken as `intents`):
    fallback: "..."                 # the honest answer to what it did not understand
    did_you_mean: "... {option}?"   # below the accept threshold, above the suggest threshold
    accept: 0.50, suggest: 0.42     # meaning thresholds (see understanding.py for how they were set)
    templates: {...}                # missing_tool, unknown_value, failed, timeout, ask, confirm, ...
    capabilities: {intro: "...", faq: "...", max_items: 4}
    action_names: {tool: "walking there"}   # how the sorry line names a failed action
    intents: [...]
    out_of_scope: ["...", ...]      # what visitors ask that the venue does not do (the town,
                                    # the weather, trivia): closer to one of these than to
                                    # anything it does, an utterance gets the honest fallback
    elsewhere_words: ["zoo", ...]   # words naming places, businesses, transport, events outside
                                    # the venue: an utterance naming one that the venue's own
                                    # files never use is out of scope (`elsewhere` template;
                                    # elsewhere.py says why meaning alone cannot tell)
    errands: ["carry", ...]         # what visitors ask the robot itself to do that it does not
                                    # ("can you carry my bags", "take a photo of us"): asked of
                                    # the robot, they get `missing_tool`, never an FAQ answer
    asked_errands: ["open the", ...]   # errands only when asked of the robot first thing ("can
                                    # you open the door?"), their words being ordinary anywhere
                                    # else ("what time do you open the doors?")
    examples_file: offline_examples.npz   # what visitors said before and meant, voted on by
                                    # nearest neighbours (examples.py); relative to this file
    synonyms: {"call off": "cancel"}   # words the encoder does not place near the examples'
                                    # own, read as those for ranking and patterns only (the
                                    # arguments are read from what was said)
An intent: `name`; `act` (a conversation act: stop, greeting, thanks, goodbye, help, yes, no) or
`tool` (a driver tool) or `steps` (tools run in order, each filled from the utterance and the
results before it: a change of booking is [cancel_booking, book_tickets]); `patterns`
(regexes over the whole utterance, tried before meaning); `examples` (phrasings: the meaning
matcher's data); `cues` (a regex some words of which an utterance must have to be
understood as this intent by meaning alone, not by a pattern: the encoder places small talk
about the robot near "what can you do?"; a greeting, thanks or goodbye with its cue words said is
accepted from `suggest`, since a "you're welcome" to a thanks is harmless and "did you mean
thanks?" absurd); `verbs` (words that, said, name this request among others the words fill as well: "move",
"switch" for a change of booking; the first word of the intent's name is one); `label` (for "did you mean ..."); `capability` (the phrase in "what can you
do"); `say` (said before an acting tool: "Certainly, follow me to {place}."); `done` (said
after the last tool succeeded, with its arguments and result fields); `item` (how `{items}` in
`done` says each entry of a listed result); `ask` ({param: question});
`unknown`, `missing_tool`; `slots` ({param: {display: "the {words}", aliases: {phrase: value}}}).
A tool with no intent is still understood: its description and its declaration's `x-examples`
are its examples (understanding.py).

FAQ file: a list (or {entries: [...]}) of {id, questions: [...], answer}.
"""

from __future__ import annotations

import pathlib
import re
from typing import Any, Dict, List, Optional, Union

import pydantic
import yaml

ACTS = ("stop", "greeting", "thanks", "goodbye", "help", "yes", "no")

TEMPLATES = {
    "missing_tool": "Sorry, I can't do that right now.",
    "unknown_value": "Sorry, I don't know {value}. I know {known}.",
    "failed": "Sorry, I couldn't finish {action}: {error}.",
    "timeout": "Sorry, {action} took too long, so I stopped.",
    "ask": "What {label} would you like?",
    "ask_choice": "Which one: {options}?",
    "problem": "Sorry, {problem}. What {label} would you like?",
    "confirm": "Just to be sure: shall I {action}?",
    "confirm_declined": "Okay, I won't.",
    "not_allowed": "Sorry, I'm not allowed to {action} for you.",
    "ack": "Okay, {action}.",
    "done": "Done.",
    "already": "That's already done.",
    "stopped": "Okay, I've stopped.",
    "cancelled": "Okay, never mind.",
    "result_intro": "Here's what I found: ",
    "elsewhere": "Sorry, I can only help with things here, so I can't help with that.",
}


class SlotConfig(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    display: str = "{words}"
    aliases: Dict[str, Any] = {}


class Intent(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    name: str
    act: Optional[str] = None
    tool: Optional[str] = None
    steps: List[str] = []
    patterns: List[str] = []
    examples: List[str] = []
    cues: str = ""
    verbs: List[str] = []
    label: str = ""
    capability: str = ""
    say: str = ""
    done: str = ""
    item: str = ""
    ask: Dict[str, str] = {}
    unknown: str = ""
    missing_tool: str = ""
    slots: Dict[str, SlotConfig] = {}

    @pydantic.model_validator(mode="after")
    def _one_kind(self) -> "Intent":
        kinds = [k for k in (self.act, self.tool, self.steps or None) if k]
        if len(kinds) != 1:
            raise ValueError(f"intent {self.name!r}: give exactly one of act, tool, steps")
        if self.act and self.act not in ACTS:
            raise ValueError(f"intent {self.name!r}: act must be one of {ACTS}")
        if not self.patterns and not self.examples and self.act not in ("yes", "no"):
            raise ValueError(f"intent {self.name!r}: give patterns or examples")
        for regex in self.patterns + ([self.cues] if self.cues else []):
            try:
                re.compile(regex)
            except re.error as exc:
                raise ValueError(f"intent {self.name!r}: bad regex {regex!r}: {exc}") from None
        return self

    @property
    def tools(self) -> List[str]:
        return [self.tool] if self.tool else list(self.steps)


class Capabilities(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    intro: str = "I can {things}."
    faq: str = "answer questions about the museum"
    none: str = "I can answer a few common questions."
    max_items: int = pydantic.Field(4, ge=1, le=10)


class IntentsFile(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    fallback: str = ("I'm running without a language model right now, so I can only give directions "
                     "and answer a few common questions.")
    did_you_mean: str = "I'm not sure I understood. Did you mean {option}?"
    accept: float = pydantic.Field(0.50, ge=0, le=2)
    suggest: float = pydantic.Field(0.42, ge=0, le=2)
    templates: Dict[str, str] = {}
    capabilities: Capabilities = Capabilities()
    action_names: Dict[str, str] = {}
    intents: List[Intent] = []
    out_of_scope: List[str] = []
    elsewhere_words: List[str] = []
    synonyms: Dict[str, str] = {}
    errands: List[str] = []
    asked_errands: List[str] = []
    examples_file: Optional[str] = None

    @pydantic.field_validator("templates")
    @classmethod
    def _known_templates(cls, value: Dict[str, str]) -> Dict[str, str]:
        unknown = sorted(set(value) - set(TEMPLATES))
        if unknown:
            raise ValueError(f"unknown templates {unknown}; known: {sorted(TEMPLATES)}")
        return {**TEMPLATES, **value}

    def template(self, key: str) -> str:
        return self.templates.get(key) or TEMPLATES[key]


class FaqEntry(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    id: str = ""
    questions: List[str] = pydantic.Field(min_length=1)
    answer: str = pydantic.Field(min_length=1)
    # regexes over the whole utterance that make it this entry's question outright, after the
    # intents' patterns and unless it names somewhere else ("I left my scarf in the cafe")
    patterns: List[str] = []

    @pydantic.field_validator("patterns")
    @classmethod
    def _compiles(cls, value: List[str]) -> List[str]:
        for pattern in value:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"pattern {pattern!r}: {exc}") from None
        return value


def load_intents(source: Union[str, pathlib.Path, list, dict, IntentsFile]) -> IntentsFile:
    if isinstance(source, IntentsFile):
        return source
    data = _yaml(source)
    if isinstance(data, list):
        data = {"intents": data}
    try:
        return IntentsFile.model_validate(data or {})
    except pydantic.ValidationError as exc:
        raise ValueError(f"{_name(source)}: {_errors(exc)}") from None


def load_faq(source: Union[str, pathlib.Path, list, dict]) -> List[FaqEntry]:
    data = _yaml(source) or []
    if isinstance(data, dict):
        data = data.get("entries", [])
    if not isinstance(data, list):
        raise ValueError(f"{_name(source)}: expected a list of FAQ entries")
    try:
        return [FaqEntry.model_validate(e) for e in data]
    except pydantic.ValidationError as exc:
        raise ValueError(f"{_name(source)}: {_errors(exc)}") from None


def _yaml(source: Union[str, pathlib.Path, list, dict]) -> Any:
    if isinstance(source, (list, dict)):
        return source
    return yaml.safe_load(pathlib.Path(source).read_text(encoding="utf-8"))


def _name(source: Any) -> str:
    return str(source) if isinstance(source, (str, pathlib.Path)) else "offline brain config"


def _errors(exc: pydantic.ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
