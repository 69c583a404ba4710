"""Schema-driven slot filling: a tool's arguments from what the visitor said, read off the
tool's JSON Schema, so a driver's new tool needs no rules.

Each parameter gets a kind from its schema: `enum` (an enum, or `oneOf`/`anyOf` of `const`s
whose `title` is the display name; `x-aliases` {phrase: value} adds names), `integer` /
`number` (digits or words: "two tickets"), `time` ("HH:MM" patterns or a name with "time":
"three o'clock", "half past two"), `name` (a parameter called *name*: "my name is Ada
Lovelace"), `code` (*code*, *_id*, *number*: "K7P2QD", "F-1001"), `source` (a string whose
description names another visible tool, "The tour's id from list_tours": resolved from that
tool's result by `match_item`), `boolean`, and `text` (filled only by an answer to its question).
Values outside the schema's bounds are reported, never clamped ("fifty tickets" stays a problem).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .codes import find_codes
from .mentions import Mention
from .names import find_names
from .values import FILLER, find_enum, find_numbers, find_times, spoken_time, unlocated, words

# units that count people, so count tickets, seats, places ("for 2 people", "four of us")
SEATS = {"ticket", "place", "seat", "spot", "space", "booking", "reservation"}  # "a place on the tour", "a booking"
PEOPLE = {"people", "persons", "person", "us", "adults", "adult", "children", "kids", "guests", "visitors"}
SELF_CORRECTION = re.compile(r"\b(?:no\W+wait|no\W+sorry|sorry\W+no|i\s+mean|i\s+meant|no\W+no|actually\s+no|or\s+rather)\b|"
                             r"(?<=\w)\s+no\s+(?=the\b)|[\u2014\u2013]\s*no\b,?", re.I)
# a value said again, corrected: "three, no four", "Z P 3 3 0 1, sorry, Z P 3 3 0 7"
VALUE_FIX = re.compile(r"^(?:\s+(?:tickets?|people|persons|places|seats|of\s+us))?[,;.\s\u2014\u2013-]*(?:no|sorry|i\s+mean|or\s+rather|actually|wait)\b[\W]*"
                       r"(?:(?:no|sorry|i\s+mean|it'?s|wait|make\s+(?:that|it))\b[\W]*)*$", re.I)
# ... or with other words between ("two tickets, name of Okafor, no wait, make that three tickets")
LATER_FIX = re.compile(r"(?:\bno\W+(?:wait|sorry)|\bsorry\W+no|\bmake\s+(?:that|it)|[,;.]\s*sorry)\W*$", re.I)
RENAMED = re.compile(r"\b(?:no|sorry|i\s+mean|or\s+rather|actually)\b", re.I)  # said between two names
CLOCK = re.compile(r"o'?clock|\b(?:am|pm|at|half|quarter)\b", re.I)  # a time corrected, not the count
# a total said after its parts ("eight kids plus two mums, so ten")
TOTAL = re.compile(r"\b(?:so|that'?s|making|makes|total(?:\s+of)?)\s+$", re.I)
DESTINATION = re.compile(r"\b(?:to|towards|into)\s+(?:the\s+)?", re.I)
TIME_PATTERN_HINT = re.compile(r"\[0-2\]|\\d\{1,2\}:|HH:MM|:\[0-5\]")
YES = re.compile(r"^\W*(?:yes|yeah|yep|sure|ok(?:ay)?|please do|do it|go ahead|correct|right|"
                 r"that's right|absolutely|of course|please)\b", re.I)
NO = re.compile(r"^\W*(?:no|nope|nah|don'?t|do not|not now|cancel|never ?mind|stop)\b", re.I)


@dataclasses.dataclass(frozen=True)
class Slot:
    name: str
    kind: str
    required: bool
    schema: dict
    source: str = ""  # the tool whose result lists the values
    enum: Tuple[Any, ...] = ()
    aliases: Tuple[Tuple[str, Any], ...] = ()
    titles: Tuple[Tuple[Any, str], ...] = ()  # value -> display name

    @property
    def label(self) -> str:
        """How the robot names the slot when it asks ("tour", "booking code")."""
        text = str(self.schema.get("title") or self.name).replace("_", " ")
        return re.sub(r"\bid\b", "", text).strip() or text

    def display(self, value: Any) -> str:
        titles = dict(self.titles)
        if value in titles:
            return titles[value]
        if self.kind == "time":
            return spoken_time(str(value))
        return str(value).replace("_", " ")


@dataclasses.dataclass
class Filled:
    args: Dict[str, Any] = dataclasses.field(default_factory=dict)
    problems: Dict[str, str] = dataclasses.field(default_factory=dict)  # said, but not allowed
    unknown: Dict[str, str] = dataclasses.field(default_factory=dict)  # a phrase naming no enum value


def slots_of(spec: dict, tool_names: Sequence[str], aliases: Optional[Dict[str, Dict[str, Any]]] = None) -> List[Slot]:
    """The slots of one tool (its OpenAI function spec); `aliases` {param: {phrase: value}}
    come from the intents file."""
    params = spec.get("parameters") or {}
    required = set(params.get("required") or [])
    out = []
    for name, schema in (params.get("properties") or {}).items():
        if not isinstance(schema, dict):
            continue
        enum, titles = _enum_of(schema)
        extra = {title: value for value, title in titles.items()}  # a display name names its value
        extra.update(schema["x-aliases"] if isinstance(schema.get("x-aliases"), dict) else {})
        extra.update((aliases or {}).get(name) or {})
        source = next((t for t in tool_names if t != spec.get("name") and
                       re.search(rf"\b{re.escape(t)}\b", str(schema.get("description", "")))), "")
        out.append(Slot(name, _kind(name, schema, enum, source), name in required, schema, source,
                        tuple(enum), tuple(extra.items()), tuple(titles.items())))
    return out


def request_slots(intent, names: Sequence[str], tools: Dict[str, dict]) -> List[Slot]:
    """The slots of a request's tools in order, each parameter once; `intent` (or None) adds
    its slot aliases."""
    aliases = {p: c.aliases for p, c in (intent.slots if intent else {}).items()}
    seen, out = set(), []
    for name in names:
        for slot in slots_of(tools[name], list(tools), aliases) if name in tools else []:
            if slot.name not in seen:
                seen.add(slot.name)
                out.append(slot)
    return out


def _enum_of(schema: dict) -> Tuple[List[Any], Dict[Any, str]]:
    if isinstance(schema.get("enum"), list):
        return list(schema["enum"]), {}
    options = schema.get("oneOf") or schema.get("anyOf") or []
    consts = [o for o in options if isinstance(o, dict) and "const" in o]
    if consts and len(consts) == len(options):
        return [o["const"] for o in consts], {o["const"]: str(o["title"]) for o in consts if o.get("title")}
    return [], {}


def _kind(name: str, schema: dict, enum: List[Any], source: str) -> str:
    kind = schema.get("type")
    lowered = name.lower()
    if enum:
        return "enum"
    if kind in ("integer", "number"):
        return kind
    if kind == "boolean":
        return "boolean"
    if source:
        return "source"
    if schema.get("format") == "time" or "time" in lowered.split("_") or \
            TIME_PATTERN_HINT.search(str(schema.get("pattern", ""))):
        return "time"
    if "name" in lowered.split("_"):
        return "name"
    if re.search(r"(^|_)(code|id|number|no|pin|ref|reference)$", lowered):
        return "code"
    return "text"


def fill(slots: Sequence[Slot], text: str, destinations: bool = False, about: Sequence[Slot] = ()) -> Filled:
    """Every slot the utterance fills (source slots excepted: they need their tool's result). An
    enum value named as a location ("I left my bag in the cafe") counts only when no other is
    named, and with `destinations` not at all. `about`: the request's other slots, whose words
    say what an article counts ("a tour" is one ticket, "a photo" none)."""
    out = Filled()
    times = find_times(text)
    said_codes = find_codes(text)
    codes = _corrected(text, said_codes)
    numbers = _corrected(text, find_numbers(text, times + said_codes))
    names = _renamed(text, find_names(text, times + said_codes))
    code_slots = [s for s in slots if s.kind == "code"]
    numeric = [s for s in slots if s.kind in ("integer", "number")]
    for slot in slots:
        if slot.kind == "enum":
            # "the space no wait the dinosaur hall": what follows the last correction
            fixed = list(SELF_CORRECTION.finditer(text))
            found = find_enum(unlocated(text[fixed[-1].end():]), slot.enum, dict(slot.aliases)) if fixed else None
            # "bringing me to the museum shop on the way out": where the request goes to
            cues = list(DESTINATION.finditer(unlocated(text)))
            found = found or (find_enum(unlocated(text)[cues[-1].end():], slot.enum, dict(slot.aliases)) if cues else None)
            found = found or find_enum(unlocated(text), slot.enum, dict(slot.aliases))
            if found is None and not destinations:
                found = find_enum(text, slot.enum, dict(slot.aliases))
            if found is not None:
                out.args[slot.name] = found[0]
        elif slot.kind == "time" and times:
            # "from three o'clock to one o'clock": the new value is the last one
            late = re.search(r"\bfrom\b.+\bto\b", text, re.I)
            out.args[slot.name] = (times[-1] if late else times[0]).value
        elif slot.kind == "name" and names:
            out.args[slot.name] = names[0].value
        elif slot.kind == "code" and codes:
            index = code_slots.index(slot)
            if index < len(codes):
                out.args[slot.name] = codes[index].value
        elif slot.kind == "boolean":
            if YES.search(text):
                out.args[slot.name] = True
            elif NO.search(text):
                out.args[slot.name] = False
    _assign_numbers(numeric, numbers, out, _hints(list(slots) + list(about)))
    return out


def _corrected(text: str, found: List[Mention]) -> List[Mention]:
    """Without a value the visitor corrected straight away ("three, no four": four)."""
    last = found[-1] if found else None
    if last is not None and len(found) > 1 and TOTAL.search(text[:last.start]) and \
            all(m.end <= last.start for m in found[:-1]):
        return [last]
    return [m for m, after in zip(found, found[1:] + [None])
            if after is None or not (VALUE_FIX.match(text[m.end:after.start]) or LATER_FIX.search(text[m.end:after.start])
                                     and not CLOCK.search(text[m.end:after.start]))]


def _renamed(text: str, names: List[Mention]) -> List[Mention]:
    """Without a name the visitor took back for a later one ("under Patel — no, sorry, it's under
    my husband's name, Sharma", "Kowalski, sorry, Kowalska")."""
    return [m for m, after in zip(names, names[1:] + [None])
            if after is None or not RENAMED.search(text[m.end:after.start])]


def _hints(slots: Sequence[Slot]) -> set:
    """The words a request's slots are described with (their names, descriptions, titles)."""
    return {w for s in slots for w in words(s.name + " " + str(s.schema.get("description", "")) + " " +
                                            str(s.schema.get("title", "")))}


def _assign_numbers(slots: List[Slot], numbers: List[Mention], out: Filled, request_words: set = frozenset()) -> None:
    """A number goes to the slot its unit word names ("50 seats" -> seats or capacity ...), or,
    with one numeric slot, the number of people said ("for 2 people", "four of us"), else the
    first number, one said as a number before an article ("a tour for 2": 2)."""
    free = list(numbers)
    for slot in slots:
        hints = _hints([slot])
        mention = next((m for m in free if m.text and words(m.text) and words(m.text)[0] in hints), None)
        if mention is None and len(slots) == 1 and free:
            people = [m for m in free if m.text.lower() in PEOPLE]
            # an article counts one of what the request is about ("a tour"), not "a photo of us"
            named = [m for m in free if m.weak and (m.text.lower() in PEOPLE or words(m.text)[:1] and
                                                    words(m.text)[0] in request_words | SEATS)]
            mention = next(iter(people or [m for m in free if not m.weak] or named), None)
        if mention is None:
            continue
        free.remove(mention)
        value = mention.value
        if slot.kind == "integer" and isinstance(value, float):
            value = int(value) if value.is_integer() else value
        problem = out_of_bounds(slot, value)
        if problem:
            out.problems[slot.name] = problem
        else:
            out.args[slot.name] = value


def out_of_bounds(slot: Slot, value: Any) -> str:
    low, high = slot.schema.get("minimum"), slot.schema.get("maximum")
    if isinstance(value, (int, float)) and ((low is not None and value < low) or
                                            (high is not None and value > high)):
        if low is not None and high is not None:
            return f"the {slot.label} must be between {low} and {high}"
        return f"the {slot.label} must be at least {low}" if low is not None else \
            f"the {slot.label} can be at most {high}"
    return ""


def answer(slot: Slot, text: str) -> Optional[Any]:
    """The value of `slot` in an answer to the robot's question about it ("Marie Curie.",
    "two", "the one o'clock"): the slot's own finder first, then the whole answer for names
    and free text."""
    filled = fill([dataclasses.replace(slot, required=True)], text)
    if slot.name in filled.args:
        return filled.args[slot.name]
    if slot.name in filled.problems:
        return None
    bare = re.sub(r"^\W*(?:it'?s|it is|that'?s|my \w+ is|the \w+ is|i'?m|i am|call me|um+|uh+|er+|ok(?:ay)?|"
                  r"sure|yes|well)\b\W*", "", text.strip(), flags=re.I).strip(" .!?,")
    if slot.kind == "name" and bare and len(bare.split()) <= 4:
        return " ".join(w[:1].upper() + w[1:] for w in bare.split())
    if slot.kind == "code" and bare:
        joined = re.sub(r"[\s,.]", "", bare).upper()
        return joined if 3 <= len(joined) <= 16 and joined.replace("-", "").isalnum() else None
    if slot.kind == "text" and bare:
        return bare
    return None


_REASON = re.compile(r"\s+(?:i|we|i'm|we're|i've|we've|i'll|we'll|so|because|cos|as|since|while|but|where|"
                     r"to\s+(?:pick|collect|get|hand|drop|sort|leave|meet|buy|pay|use|ask|find)|please)\b", re.I)


def loose_phrase(text: str) -> str:
    """What a visitor named after "to", "is", "find" ("take me to the moon base" -> "the moon
    base"): the words of an enum slot that matched nothing, for an honest "I don't know ...".
    Empty when the request names nothing."""
    text = text.strip()
    for m in reversed(list(re.finditer(r"\b(?:to|towards|into|is|are|find|see|visit|where's)\s+", text, re.I))):
        # the last cue names the place ("I need to leave my coat, can you take me to the cloakroom?")
        phrase = re.split(r"[,.!?;]", text[m.end():])[0].strip()
        # the place, not the reason after it ("the cloak room i need my coat", "the cloakroom so I can ...")
        if not re.match(r"(?:some|any)\s*(?:where|place)|a\s+place\b", phrase, re.I):  # "somewhere I can sit"
            phrase = _REASON.split(phrase)[0].strip()
        phrase = re.sub(r"\s+(?:please|now|first|instead)$", "", phrase, flags=re.I)
        # "somewhere to eat in the museum": the venue itself names no place in it
        phrase = re.sub(r"\s+(?:in|at|inside)\s+(?:the\s+)?(?:museum|building|here)$|\s+here$", "", phrase, flags=re.I)
        if 0 < len(phrase.split()) <= 6:
            return phrase
    return ""


def match_item(text: str, items: List[dict], key: str) -> List[dict]:
    """The items of a source tool's result that `text` names, best first: words shared with the
    item's text fields, and a clock time it states ("the three o'clock dinosaur tour" ->
    dinosaurs-1500). Several equally good items: the visitor must choose."""
    items = [i for i in items if isinstance(i, dict) and key in i]
    item_words = [set(words(" ".join(str(v) for v in i.values() if isinstance(v, str)))) for i in items]
    common = set.intersection(*item_words) if len(item_words) > 1 else set()  # "tour" in every tour
    said = set(words(text)) - FILLER - common
    times = [m.value for m in find_times(text)]
    if times and re.search(r"\bfrom\b.+\bto\b", text, re.I):
        times = times[-1:]
    scored = []
    for item, known in zip(items, item_words):
        fields = [str(v) for v in item.values() if isinstance(v, str)]
        shared = said & known
        time_hit = any(t in fields for t in times)
        if times and not time_hit and any(re.fullmatch(r"\d{2}:\d{2}", f) for f in fields):
            continue  # a time was said and this item is at another time
        score = len(shared) + (3 if time_hit else 0)
        if score:
            scored.append((score, item))
    if not scored:
        return []
    best = max(s for s, _ in scored)
    return [item for s, item in scored if s == best]
