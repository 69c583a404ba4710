"""Numbers with their units in text, so a said value can be checked against a document's.

`extract(text)` finds quantities: a number (digits, "1,600", "2.7", or words: "a hundred and
eighty", turned into digits by `text2num`), an optional scale ("4.5 billion") and a unit,
converted to the unit's base (2.7 tonnes -> 2700 kg). The unit gives the *dimension* two
values must share to be compared: mass, length, duration, age ("28 years old"), time ago
("10,000 years ago"), calendar year ("in 1987": a bare four-digit number), speed, force,
temperature, volume, money, percent, and counts of a thing ("58 teeth" -> count:tooth).
`same_value` compares with a tolerance (10 %: "about 180" is 180; calendar years exactly).
A bare number without a unit ("he was 35") is not extracted: nothing to check it against.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Dict, List, Optional, Tuple

from text_to_num import alpha2digit

# unit word -> (dimension, factor to the dimension's base unit)
UNITS: Dict[str, Tuple[str, float]] = {}


def _units(dimension: str, factor: float, *words: str) -> None:
    for word in words:
        UNITS[word] = (dimension, factor)


_units("mass", 1.0, "kg", "kgs", "kilogram", "kilograms", "kilogramme", "kilogrammes", "kilo", "kilos")
_units("mass", 0.001, "g", "gram", "grams", "gramme", "grammes")
_units("mass", 1000.0, "tonne", "tonnes", "ton", "tons", "metric ton", "metric tons")
_units("length", 1.0, "m", "metre", "metres", "meter", "meters")
_units("length", 0.01, "cm", "centimetre", "centimetres", "centimeter", "centimeters")
_units("length", 0.001, "mm", "millimetre", "millimetres", "millimeter", "millimeters")
_units("length", 1000.0, "km", "kilometre", "kilometres", "kilometer", "kilometers")
_units("length", 0.3048, "foot", "feet", "ft")
_units("length", 0.0254, "inch", "inches")
_units("length", 1609.344, "mile", "miles")
_units("duration", 1.0, "year", "years", "yr", "yrs")
_units("duration", 1 / 12, "month", "months")
_units("duration", 7 / 365.25, "week", "weeks")
_units("duration", 1 / 365.25, "day", "days")
_units("duration", 1 / 8766, "hour", "hours", "hr", "hrs")
_units("duration", 1 / 525960, "minute", "minutes", "min", "mins")
_units("duration", 1 / 31557600, "second", "seconds", "sec", "secs", "s")
_units("speed", 1.0, "km/h", "kph", "kmh", "kilometres per hour", "kilometers per hour")
_units("speed", 1.609344, "mph", "miles per hour", "miles an hour")
_units("force", 1.0, "newton", "newtons", "n")
_units("temperature", 1.0, "degrees celsius", "degrees", "degree", "°c", "celsius", "c")
_units("volume", 1.0, "litre", "litres", "liter", "liters", "l")
_units("money", 1.0, "pound", "pounds", "dollar", "dollars", "euro", "euros", "quid", "bucks")
_units("percent", 1.0, "percent", "per cent", "%")
SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_SCALE_WORDS = {"1000": "thousand", "1000000": "million", "1000000000": "billion"}
# the unit words of one or more words, longest first (so "degrees celsius" beats "degrees")
_UNIT_PATTERN = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_NUMBER = r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w])"
_QUANTITY = re.compile(
    _NUMBER + r"(?:\s*(thousand|million|billion))?(?:\s*(" + _UNIT_PATTERN + r")(?![\w/]))?"
    r"(?:\s+(old|ago|long|tall|high|deep|across|wide|away))?", re.IGNORECASE)
_COUNTED = re.compile(r"\s+(?:[a-z]+\s+){0,2}?([a-z]+s|teeth|feet|people|mice|geese|children)\b")
_NOT_COUNTED = frozenset("""years months weeks days hours minutes seconds times things ones others
percent is was has does its this his hers ours yours theirs as us thus yes bus gas plus""".split())
IRREGULAR = {"teeth": "tooth", "people": "person", "mice": "mouse", "geese": "goose", "children": "child",
             "species": "species", "series": "series"}
# a dimension whose values must match exactly (a calendar year is right or wrong)
EXACT = frozenset({"year"})
TOLERANCE = 0.1


# which way a length goes, from the words next to it: "25 metres long" is not "500 metres deep"
ASPECTS = {"long": ("long", "longest", "length", "measure", "measures", "from"), "tall": ("tall", "tallest", "high", "height", "stand", "stands", "stood",
           "shoulder", "hips"), "deep": ("deep", "depth", "buried", "dive", "below", "deeper", "down"),
           "wide": ("across", "wide", "width", "diameter"), "far": ("away", "far", "distance", "carry", "heard")}
_ASPECT_OF = {word: aspect for aspect, words in ASPECTS.items() for word in words}
# nouns a value can be "of" right after its unit: what it measures, when a sentence has several
_MEASURED = frozenset("""iron nickel krill water liquid rock stone metal bone bones meat food sand
gold silver copper carbon oxygen ice""".split())


@dataclasses.dataclass(frozen=True)
class Quantity:
    value: float  # in the dimension's base unit
    dimension: str  # mass | length | duration | age | ago | year | ... | count:<thing>
    text: str  # as written, e.g. "2.7 tonnes"
    start: int = 0  # character span in the normalized text (words turned to digits)
    end: int = 0
    aspect: str = ""  # a length's direction (long | tall | deep | wide | far), "" unknown
    of: str = ""  # the word right after it that says what it measures ("92 percent iron"), "" none

    def __str__(self) -> str:
        return self.text


def digits(text: str) -> str:
    """Number words as digits ("a hundred and eighty" -> "a 180"); years said in pairs
    ("nineteen eighty-seven" -> "19 87") joined back ("1987")."""
    try:
        out = alpha2digit(text, "en", threshold=0)
    except Exception:  # text2num is strict about odd input; the text as written still has digits
        out = text
    out = re.sub(r"\b(1[0-9]|20) ([0-9]{2})\b", r"\1\2", out)
    # "67 million" comes out as "67 1000000": keep the scale as a word ("67 million")
    return re.sub(r"(\d)\s+(1000|1000000|1000000000)(?![\d,.])",
                  lambda m: f"{m.group(1)} {_SCALE_WORDS[m.group(2)]}", out)


def _number(raw: str) -> float:
    return float(raw.replace(",", ""))


def singular(word: str) -> str:
    word = word.lower()
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def extract(text: str) -> List[Quantity]:
    """The quantities in `text` (see the module docstring), in order."""
    normalized = digits(text)
    found: List[Quantity] = []
    for m in _QUANTITY.finditer(normalized):
        raw, scale, unit, suffix = m.group(1), m.group(2), m.group(3), (m.group(4) or "").lower()
        value = _number(raw) * (SCALES[scale.lower()] if scale else 1.0)
        end = m.end()
        if unit:
            dimension, factor = UNITS[unit.lower()]
            value *= factor
            if dimension == "duration" and suffix in ("old", "ago"):
                dimension = "age" if suffix == "old" else "ago"
            label = m.group(0) if suffix in ("old", "ago") else normalized[m.start():m.end(3)]
            if dimension != "duration" or suffix not in ("old", "ago"):
                end = m.end(3)
            aspect = _aspect(normalized, m.start(), end) if dimension == "length" else ""
            follows = re.match(r"\s+(?:of\s+)?([a-z]{3,})\b", normalized[end:end + 30].lower())
            of = follows.group(1) if follows and follows.group(1) in _MEASURED else ""
            found.append(Quantity(value, dimension, label.strip(), m.start(), end, aspect, of))
            continue
        counted = _COUNTED.match(normalized, m.end(2) if scale else m.end(1))
        if counted and counted.group(1).lower() not in _NOT_COUNTED:
            thing = singular(counted.group(1))
            found.append(Quantity(value, f"count:{thing}", normalized[m.start():counted.end()].strip(),
                                  m.start(), counted.end()))
        elif not scale and re.fullmatch(r"1\d{3}|20\d{2}", raw):
            found.append(Quantity(value, "year", raw, m.start(), m.end(1)))
    return found


def _aspect(text: str, start: int, end: int) -> str:
    """The nearest aspect word after the value (within 3 words), else before it (within 4)."""
    after = re.findall(r"[a-z]+", text[end:end + 40].lower())[:3]
    before = re.findall(r"[a-z]+", text[max(0, start - 50):start].lower())[-4:]
    for word in after + list(reversed(before)):
        if word in _ASPECT_OF:
            return _ASPECT_OF[word]
    return ""


def aspects_agree(a: Quantity, b: Quantity) -> bool:
    """Nothing says the two measure different things (a length's direction, "percent iron" vs
    "percent nickel")."""
    return (not a.aspect or not b.aspect or a.aspect == b.aspect) and (not a.of or not b.of or a.of == b.of)


def same_value(a: Quantity, b: Quantity, tolerance: float = TOLERANCE) -> bool:
    """The same dimension and value (within `tolerance`, relative; exact for calendar years)."""
    if a.dimension != b.dimension:
        return False
    if a.dimension in EXACT:
        return round(a.value) == round(b.value)
    scale = max(abs(a.value), abs(b.value))
    return scale == 0 or abs(a.value - b.value) <= tolerance * scale


def find_value(quantities: List[Quantity], target: Quantity) -> Optional[Quantity]:
    """The first of `quantities` that states `target`'s value."""
    return next((q for q in quantities if same_value(q, target)), None)


def mask(text: str) -> str:
    """The text with its quantities removed (digits normalized): what the sentence is about,
    for comparing subjects without the values."""
    normalized = digits(text)
    spans = [(q.start, q.end) for q in extract(text)]
    for start, end in reversed(spans):
        normalized = normalized[:start] + " " + normalized[end:]
    return normalized
