"""The `offline` brain: rules and an FAQ, no language model (used when none is configured or
the endpoint is down). Deterministic; everything it says comes from its config files.

Each step answers the newest unanswered input (several inputs: the last one wins, earlier ones
were corrected) with ONE reply whose tool calls do everything and end with `finish`, e.g.
[speak("Certainly, follow me to the dinosaur hall."), navigate_to(place="dinosaur_hall"), finish].
Order: intents (file order, first that applies) -> a correction of an earlier input's slot
("no, the gift shop") -> FAQ (BM25) -> the honest fallback. A slot naming no known value is
answered by the FAQ when it can ("take me to the cloakroom"), else by the `unknown` line. With
no new input, failed or timed-out actions in the "[action updates]" notices get a sorry line.

Intents file (YAML): a list of intents, or a mapping with `intents:` and optionally
`fallback`, `faq_min_score`, `templates` (missing_tool, unknown_value, failed, timeout,
capabilities_none), `action_names` ({tool: "walking there"}), `help_skip` ([tools]). An intent:
    name: navigate
    patterns: ['\\b(?:take|bring) (?:me|us) to (?P<place>.+)']  # re.I; named groups = slots
    tool: navigate_to             # optional; without it the intent only says `say`
    args: {place: "{place}"}      # tool parameters from slots; enum parameters are matched
    say: "Certainly, follow me to {place}."  # {slot}: display name; {capabilities}: tools
    unknown: "..."                # optional: no enum value matched ({value}, {known})
    missing_tool: "..."           # optional: the tool is not available now
    fall_through: false           # true: tool missing -> later rules (the FAQ) answer instead
    slots: {place: {display: "the {words}", aliases: {restroom: toilets}}}
"where is X" walks there (a guide robot shows the way); without a base it falls through to
the FAQ. FAQ file: a list (or {entries: [...]}) of {id, questions: [...], answer}.
"""

from __future__ import annotations

import difflib
import itertools
import json
import logging
import pathlib
import re
from typing import Any, Dict, List, Optional, Tuple, Union

import yaml
from rank_bm25 import BM25Okapi

from phanthy_common import lexical

from .base import ActionUpdate, BrainReply, BrainRequest, ToolCallRequest, latest_action_updates, latest_inputs

log = logging.getLogger(__name__)

# BM25 score a question variant needs for its FAQ answer. Stopwords removed, a question sharing
# no content word with the FAQ scores 0; one sharing a word scores ~2.4 (word in 3-4 of the 68
# questions of config/faq.yaml) to ~5 (word in one). Calibration (test/test_offline_brain.py):
# paraphrases not in the file scored >= 2.41, off-topic questions 0, except ones sharing a
# distinctive word ("what time is it in tokyo" -> opening hours, 3.8) that no threshold can
# tell from a right one-word match. 2.0 sits in the gap; it grows with the corpus (idf), so
# recheck when the FAQ changes a lot (faq_min_score in the intents file overrides it).
FAQ_MIN_SCORE = 2.0
# difflib ratio a slot value needs to match an enum value ("dino hall" -> dinosaur_hall: 0.82)
FUZZY_CUTOFF = 0.7
DEFAULTS = {
    "fallback": "I'm running without a language model right now, so I can only give directions "
                "and answer a few common questions.",
    "missing_tool": "Sorry, I can't do that right now.",
    "unknown_value": "Sorry, I don't know {value}. I know {known}.",
    "failed": "Sorry, I couldn't finish {action}: {error}.",
    "timeout": "Sorry, {action} took too long, so I stopped.",
    "capabilities_none": "talk with you",
}
FILLER = {"the", "a", "an", "please", "now", "thanks", "kindly", "then", "again"}
CORRECTION = re.compile(r"^\W*(?:(?:no|nope|sorry|actually|oh|wait|rather|not that|i mean|"
                        r"i meant|make it|instead)\b\W*)+|\W*\b(?:instead|actually|please)\W*$", re.I)
# words every visitor question shares (checked before stemming)
STOPWORDS = lexical.STOPWORDS | {"robot", "museum"}
Reply = Tuple[str, List[Tuple[str, dict]]]


def _words(text: str) -> List[str]:
    """Lowercase words with a crude singular (toilets -> toilet, dinosaurs -> dinosaur)."""
    words = re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words]


def _norm(text: str) -> str:
    return " ".join(w for w in _words(text.replace("_", " ")) if w not in FILLER)


def tokenize(text: str) -> List[str]:
    """FAQ tokens: words without stopwords, crude stemming (toilets -> toilet, opening -> open)."""
    return lexical.tokenize(text, STOPWORDS)


def _join(items: List[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class _Fmt(dict):
    def __missing__(self, key: str) -> str:
        return ""


class OfflineBrain:
    name = "offline"

    def __init__(self, intents: Union[list, dict], faq: list, speak_tool: str = "speak"):
        cfg = intents if isinstance(intents, dict) else {"intents": intents}
        self.speak_tool = speak_tool
        self.templates = {**DEFAULTS, **(cfg.get("templates") or {})}
        if cfg.get("fallback"):
            self.templates["fallback"] = str(cfg["fallback"])
        self.action_names: Dict[str, str] = dict(cfg.get("action_names") or {})
        self.help_skip = set(cfg.get("help_skip") or ("finish", "cancel_action")) | {speak_tool}
        self.min_score = float(cfg.get("faq_min_score", FAQ_MIN_SCORE))
        self.intents: List[dict] = []
        for raw in cfg.get("intents") or []:
            intent = dict(raw)
            intent["regexes"] = [re.compile(p, re.I) for p in raw.get("patterns") or []]
            self.intents.append(intent)
        self.faq: List[dict] = [e for e in faq if e.get("answer")]
        self._faq_of: List[int] = []  # BM25 document -> FAQ entry
        docs: List[List[str]] = []
        for index, entry in enumerate(self.faq):
            questions = entry.get("questions") or [entry.get("question", "")]
            for question in questions:
                if tokenize(question):
                    docs.append(tokenize(question))
                    self._faq_of.append(index)
        self._bm25 = BM25Okapi(docs) if docs else None
        self._ids = itertools.count(1)

    @classmethod
    def from_files(cls, intents_path: Union[str, pathlib.Path], faq_path: Union[str, pathlib.Path],
                   speak_tool: str = "speak") -> "OfflineBrain":
        intents = yaml.safe_load(pathlib.Path(intents_path).read_text(encoding="utf-8")) or []
        faq: Any = yaml.safe_load(pathlib.Path(faq_path).read_text(encoding="utf-8")) or []
        faq = faq.get("entries", []) if isinstance(faq, dict) else faq
        if not isinstance(intents, (list, dict)) or not isinstance(faq, list):
            raise ValueError(f"{intents_path} / {faq_path}: unexpected structure")
        return cls(intents, faq, speak_tool)

    # --- the step ----------------------------------------------------------------------------
    async def step(self, request: BrainRequest) -> BrainReply:
        tools = {s["function"]["name"]: s["function"] for s in request.tools
                 if isinstance(s, dict) and isinstance(s.get("function"), dict)}
        inputs = latest_inputs(request.messages)
        if inputs:
            text, calls = self._answer(inputs, tools)
        else:
            text, calls = self._sorry(latest_action_updates(request.messages)), []
        tool_calls = [self._call(name, args) for name, args in calls] + [self._call("finish", {})]
        if text and self.speak_tool in tools:
            return BrainReply(tool_calls=[self._call(self.speak_tool, {"text": text})] + tool_calls,
                              brain=self.name)
        if text:
            request.on_text(text)
        return BrainReply(content=text, tool_calls=tool_calls, brain=self.name)

    def _call(self, name: str, args: dict) -> ToolCallRequest:
        return ToolCallRequest(f"offline_{next(self._ids)}", name, json.dumps(args, ensure_ascii=False))

    def _answer(self, inputs: List[str], tools: Dict[str, dict]) -> Reply:
        text = inputs[-1].replace("\u2019", "'").strip()
        reply = self._match_intents(text, tools)
        if reply is None and len(inputs) > 1:
            reply = self._correction(inputs[:-1], text, tools)
        if reply is None:
            answer = self.faq_answer(text)
            reply = (answer, []) if answer else None
        if reply is None:
            log.info("offline: no rule or FAQ entry for %r: fallback", text)
            reply = (self.templates["fallback"], [])
        return reply

    # --- intents -----------------------------------------------------------------------------
    def _match_intents(self, text: str, tools: Dict[str, dict]) -> Optional[Reply]:
        for intent in self.intents:
            match = next((m for m in (r.search(text) for r in intent["regexes"]) if m), None)
            if match is None:
                continue
            slots = {k: (v or "").strip(" \t.,!?") for k, v in match.groupdict().items()}
            reply = self._apply(intent, slots, tools)
            if reply is not None:
                log.info("offline: intent %s for %r", intent.get("name"), text)
                return reply
        return None

    def _correction(self, earlier: List[str], text: str, tools: Dict[str, dict]) -> Optional[Reply]:
        """'take me to the cafe' + 'no, the gift shop': the new text replaces the slot."""
        value = CORRECTION.sub("", text).strip(" \t.,!?")
        for previous in reversed(earlier):
            for intent in self.intents:
                match = next((m for m in (r.search(previous) for r in intent["regexes"]) if m), None)
                if match is not None and intent.get("tool") and len(match.groupdict()) == 1 and value:
                    reply = self._apply(intent, {next(iter(match.groupdict())): value}, tools, True)
                    if reply is not None:
                        log.info("offline: %r corrects %r (intent %s)", text, previous, intent.get("name"))
                    return reply
        return None

    def _apply(self, intent: dict, slots: Dict[str, str], tools: Dict[str, dict],
               strict: bool = False) -> Optional[Reply]:
        """The intent's reply, or None: later rules answer (strict: unless it fully applies)."""
        wants_help = "{capabilities}" in str(intent.get("say"))
        fmt = _Fmt(slots, capabilities=self._capabilities(tools) if wants_help else "")
        tool = intent.get("tool")
        if not tool:
            return intent.get("say", "").format_map(fmt), []
        spec = tools.get(tool)
        if spec is None:
            return None if strict or intent.get("fall_through") else (
                intent.get("missing_tool", self.templates["missing_tool"]).format_map(fmt), [])
        props = (spec.get("parameters") or {}).get("properties") or {}
        args = {}
        for param, template in (intent.get("args") or {}).items():
            slot = re.fullmatch(r"\{(\w+)\}", str(template))
            value = str(template).format_map(_Fmt(slots))
            enum = (props.get(param) or {}).get("enum")
            if not enum:
                args[param] = value
                continue
            cfg = (intent.get("slots") or {}).get(slot.group(1) if slot else param) or {}
            resolved = self.resolve(value, enum, cfg.get("aliases") or {})
            if resolved is None:
                if strict:
                    return None
                answer = self.faq_answer(value)  # "take me to the cloakroom": say where it is
                if answer:
                    return answer, []
                known = _join([self._display(cfg, e) for e in enum])
                unknown = intent.get("unknown", self.templates["unknown_value"])
                return unknown.format_map(_Fmt(fmt, value=value or "that", known=known)), []
            args[param] = resolved
            if slot:
                fmt[slot.group(1)] = self._display(cfg, resolved)
        return intent.get("say", "").format_map(fmt), [(tool, args)]

    @staticmethod
    def resolve(value: str, enum: List[Any], aliases: Dict[str, str]) -> Optional[str]:
        """The enum value a spoken slot means: exact, alias, word containment, then difflib."""
        norm = _norm(value)
        if not norm:
            return None
        pool = {_norm(str(e)): str(e) for e in enum}
        pool.update({_norm(a): str(t) for a, t in aliases.items() if t in enum and _norm(a) not in pool})
        if norm in pool:
            return pool[norm]
        words = set(norm.split())
        inside = sorted({t for k, t in pool.items() if words <= set(k.split())})
        if len(inside) == 1:  # "dinosaurs" -> dinosaur_hall
            return inside[0]
        around = [k for k in pool if set(k.split()) <= words and len(words - set(k.split())) <= 1]
        if around:  # "the dinosaur hall downstairs"
            return pool[max(around, key=len)]
        close = difflib.get_close_matches(norm, sorted(pool), n=1, cutoff=FUZZY_CUTOFF)
        return pool[close[0]] if close else None

    @staticmethod
    def _display(cfg: dict, value: str) -> str:
        return str(cfg.get("display", "{words}")).format(words=str(value).replace("_", " "))

    def _capabilities(self, tools: Dict[str, dict]) -> str:
        """What the visible tools can do, from their descriptions (for the help intent)."""
        slot_cfg = {(i.get("tool"), p): (i.get("slots") or {}).get(str(t).strip("{}")) or {}
                    for i in self.intents for p, t in (i.get("args") or {}).items()}
        parts = []
        for name in sorted(tools):
            description = str(tools[name].get("description") or "").strip().rstrip(".")
            if name in self.help_skip or not description:
                continue
            part = description[0].lower() + description[1:]
            props = (tools[name].get("parameters") or {}).get("properties") or {}
            for param, schema in props.items():
                if isinstance(schema, dict) and schema.get("enum"):
                    cfg = slot_cfg.get((name, param), {})
                    part += " (" + _join([self._display(cfg, e) for e in schema["enum"]]) + ")"
            parts.append(part)
        return "; ".join(parts) if parts else self.templates["capabilities_none"]

    # --- FAQ ---------------------------------------------------------------------------------
    def faq_scores(self, text: str) -> List[Tuple[float, int]]:
        """(best BM25 score over its question variants, entry index), best first."""
        tokens = tokenize(text)
        if self._bm25 is None or not tokens:
            return []
        best: Dict[int, float] = {}
        for doc, score in enumerate(self._bm25.get_scores(tokens)):
            entry = self._faq_of[doc]
            best[entry] = max(best.get(entry, 0.0), float(score))
        return sorted(((s, e) for e, s in best.items()), key=lambda x: (-x[0], x[1]))

    def faq_answer(self, text: str) -> str:
        scores = self.faq_scores(text)
        if not scores or scores[0][0] < self.min_score:
            log.info("offline: no FAQ answer for %r (best %.2f < %.2f)", text,
                     scores[0][0] if scores else 0.0, self.min_score)
            return ""
        entry = self.faq[scores[0][1]]
        log.info("offline: FAQ %s for %r (score %.2f)", entry.get("id", scores[0][1]), text, scores[0][0])
        return str(entry["answer"]).strip()

    # --- notices -----------------------------------------------------------------------------
    def _sorry(self, updates: List[ActionUpdate]) -> str:
        lines = []
        for update in updates:
            # a failed speech is not apologised for by speaking (it would fail again)
            if update.status not in ("failed", "timeout") or update.tool == self.speak_tool:
                continue
            action = self.action_names.get(update.tool, f"the {update.tool.replace('_', ' ')} action")
            error = (update.error or "no reason given").strip().rstrip(".")[:120]
            lines.append(self.templates[update.status].format_map(_Fmt(action=action, error=error)))
        return " ".join(lines[:2])

    async def close(self) -> None:
        pass
