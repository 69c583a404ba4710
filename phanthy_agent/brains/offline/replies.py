"""What the offline brain says: templates filled with slot values as spoken ("15:00" is "3 pm",
dinosaur_hall is "the dinosaur hall"), the short capabilities answer, a tool's result read out,
and the lines for asking, confirming and failing. Everything it says comes from here and the
intents and FAQ files.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence

from .values import spoken_time
from .config import Intent, IntentsFile
from .conversation import flatten, list_items
from .slots import Slot

MAX_FIELDS = 5  # fields of a tool's result read out when no template says which
MAX_ITEMS = 4  # entries of a listed result


class _Fmt(dict):
    def __missing__(self, key: str) -> str:
        return ""


def join(items: Sequence[str], word: str = "and") -> str:
    items = [i for i in items if i]
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def humanize(name: str) -> str:
    return str(name).replace("_", " ").strip()


def spoken(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value)
    return spoken_time(text) if re.fullmatch(r"\d{1,2}:\d{2}", text) else humanize(text)


def fill(template: str, values: Dict[str, Any], slots: Sequence[Slot] = (),
         intent: Optional[Intent] = None, **extra: str) -> str:
    """`template` with {field}s as spoken; a slot's value by its display name."""
    out = _Fmt({k: spoken(v) for k, v in values.items()})
    for slot in slots:
        if slot.name in values:
            out[slot.name] = display(slot, intent, values[slot.name])
    out.update(extra)
    return re.sub(r"\s+([.,!?])", r"\1", template.format_map(out)).strip()


def display(slot: Slot, intent: Optional[Intent], value: Any) -> str:
    """A slot value as said: the intents file's display ("the {words}"), else the slot's own."""
    words = slot.display(value)
    shape = intent.slots[slot.name].display if intent and slot.name in intent.slots else ""
    return shape.format(words=words) if shape else words


def capabilities(cfg: IntentsFile, tools: Dict[str, dict], has_faq: bool) -> str:
    """One or two sentences: what it can do with the tools it has now (never every description)."""
    things: List[str] = []
    covered = set()
    for intent in cfg.intents:
        if intent.tools and all(t in tools for t in intent.tools):
            covered.update(intent.tools)
            if intent.capability and intent.capability not in things:
                things.append(intent.capability)
    for name in sorted(tools):
        if name not in covered and not tools[name].get("x-roles"):
            things.append(humanize(name))
    shown = things[:cfg.capabilities.max_items - (1 if has_faq else 0)]  # the first few, not all
    if has_faq:
        shown.append(cfg.capabilities.faq)
    if not shown:
        return cfg.capabilities.none
    return cfg.capabilities.intro.format_map(_Fmt(things=join(shown)))


def result_text(intent: Optional[Intent], cfg: IntentsFile, output: Any, values: Dict[str, Any],
                slots: Sequence[Slot]) -> str:
    """The line after the last step succeeded: the intent's `done`, else the result read out."""
    items = list_items(output)
    if intent is not None and intent.done and _fields(intent.done) <= set(values) | {"items"}:
        said_items = [fill(intent.item or "{name}", flatten(i)) for i in items[:MAX_ITEMS]]
        return fill(intent.done, values, slots, intent, items=join(said_items))
    if items:
        listed = [", ".join(spoken(v) for v in list(flatten(i).values())[:3]) for i in items[:MAX_ITEMS]]
        return cfg.template("result_intro") + "; ".join(listed) + "."
    fields = flatten(output)
    if fields:
        said = [f"{humanize(k)} {spoken(v)}" for k, v in list(fields.items())[:MAX_FIELDS]]
        return cfg.template("result_intro") + ", ".join(said) + "."
    return cfg.template("done")


def _fields(template: str) -> set:
    return set(re.findall(r"\{(\w+)\}", template))


def action_phrase(tool: str, args: Dict[str, Any], slots: Sequence[Slot], intent: Optional[Intent]) -> str:
    """"cancel booking (Ada Lovelace, K7P2QD)": what a confirmation or a sorry line names."""
    shown = [s.display(args[s.name]) for s in slots if s.name in args][:3]
    name = humanize(tool)
    return f"{name} ({', '.join(shown)})" if shown else name


def failure(cfg: IntentsFile, tool: str, status: str, error: str, intent: Optional[Intent]) -> str:
    action = cfg.action_names.get(tool) or (intent.label if intent and intent.label else humanize(tool))
    error = (error or "no reason given").strip().rstrip(".")[:160]
    key = "timeout" if status == "timeout" else "failed"
    return cfg.template(key).format_map(_Fmt(action=action, error=error))


def question(cfg: IntentsFile, intent: Optional[Intent], slot: Slot, problem: str = "") -> str:
    asked = (intent.ask.get(slot.name) if intent else "") or cfg.template("ask").format_map(_Fmt(label=slot.label))
    if problem:
        return cfg.template("problem").format_map(_Fmt(problem=problem, label=slot.label, question=asked))
    return asked


def choice(cfg: IntentsFile, intent: Optional[Intent], options: List[dict]) -> str:
    said = [fill(intent.item if intent and intent.item else "{name}", flatten(o)) for o in options[:MAX_ITEMS]]
    return cfg.template("ask_choice").format_map(_Fmt(options=join(said, "or")))
