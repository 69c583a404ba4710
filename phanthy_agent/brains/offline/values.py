"""Values in what a visitor says: numbers in words or digits, clock times, and which enum value
a phrase means (booking codes: codes.py; people's names: names.py). Pure functions over text;
each finder returns `Mention`s (mentions.py) with their character span, so a time ("three
o'clock") is not also read as a count ("three") and a code is not read as a number.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from .mentions import Mention, free as _free

UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
         "fifteen sixteen seventeen eighteen nineteen").split()
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}
WORD_VALUES = {w: i for i, w in enumerate(UNITS)}
WORD_VALUES.update(TENS)
WORD_VALUES.update({"a": 1, "an": 1, "single": 1, "couple": 2, "pair": 2, "both": 2, "hundred": 100,
                    "dozen": 12, "once": 1, "twice": 2})
# "a"/"an" only count before a unit word ("a ticket"); "couple" in "a couple of tickets"
WEAK_WORDS = {"a", "an", "both", "once", "twice", "couple", "pair", "dozen", "single"}
HOUR_WORDS = {w: i for i, w in enumerate(UNITS) if 1 <= i <= 12}
# an hour said without am/pm below this is taken as the afternoon ("the three o'clock tour" is
# 15:00): opening hours are daytime, and nobody books a 3 am tour
AFTERNOON_BEFORE = 8


# --- clock times -----------------------------------------------------------------------------
_HOUR = r"(\d{1,2}|" + "|".join(sorted(HOUR_WORDS, key=len, reverse=True)) + r")"
_AMPM = r"\s*(a\.?\s?m\.?|p\.?\s?m\.?|in the morning|in the afternoon|in the evening|at night|tonight)?"
TIME_PATTERNS = [
    (re.compile(r"\b(\d{1,2})[:.](\d{2})\b" + _AMPM, re.I), "hm"),
    (re.compile(r"\bhalf\s+past\s+" + _HOUR + r"\b" + _AMPM, re.I), "half"),
    (re.compile(r"\bhalf\s+" + _HOUR + r"\b" + _AMPM, re.I), "half"),  # British: "half three" is 3:30
    # "eleven thirty", "two fifteen", "four forty-five"
    (re.compile(r"\b" + _HOUR + r"\s+(fifteen|thirty|forty[\s-]?five)\b" + _AMPM, re.I), "spoken"),
    (re.compile(r"\bquarter\s+past\s+" + _HOUR + r"\b" + _AMPM, re.I), "quarter_past"),
    (re.compile(r"\bquarter\s+to\s+" + _HOUR + r"\b" + _AMPM, re.I), "quarter_to"),
    (re.compile(r"\b" + _HOUR + r"\s*o'?\s?clock\b" + _AMPM, re.I), "h"),
    (re.compile(r"\b" + _HOUR + r"\s*(a\.?\s?m\.?|p\.?\s?m\.?)(?=\W|$)", re.I), "h"),
    (re.compile(r"\b(noon|midday)\b", re.I), "noon"),
    # "the tour at one", "at 11": an hour after "at" that no unit follows ("at one point" is not)
    (re.compile(r"\bat\s+" + _HOUR + r"\b(?!\s*(?:[:.]\d|people|persons?|tickets?|seats?|places?|"
                r"adults?|children|kids|of|point|least|most|once|all))" + _AMPM, re.I), "h"),
]


def _hour(token: str) -> int:
    return int(token) if token.isdigit() else HOUR_WORDS[token.lower()]


def _clock(hour: int, minute: int, suffix: Optional[str]) -> Optional[str]:
    suffix = (suffix or "").lower().replace(".", "").replace(" ", "")
    if suffix in ("pm", "intheafternoon", "intheevening", "atnight", "tonight") and hour < 12:
        hour += 12
    elif suffix in ("am", "inthemorning") and hour == 12:
        hour = 0
    elif not suffix and 1 <= hour < AFTERNOON_BEFORE:
        hour += 12
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return f"{hour:02d}:{minute:02d}"


def find_times(text: str) -> List[Mention]:
    """Clock times as "HH:MM" (24 h): "3 pm", "15:00", "three o'clock", "half past two", "noon"."""
    found: List[Mention] = []
    for pattern, kind in TIME_PATTERNS:
        for m in pattern.finditer(text):
            if kind == "noon":
                value: Optional[str] = "12:00"
            elif kind == "hm":
                value = _clock(int(m.group(1)), int(m.group(2)), m.group(3))
            elif kind == "spoken":
                minute = {"fifteen": 15, "thirty": 30}.get(m.group(2).lower(), 45)
                value = _clock(_hour(m.group(1)), minute, m.group(3))
            else:
                hour, suffix = _hour(m.group(1)), m.group(2)
                minute = {"half": 30, "quarter_past": 15, "quarter_to": 45}.get(kind, 0)
                value = _clock(hour - 1 if kind == "quarter_to" else hour, minute, suffix)
            mention = Mention(value, m.start(), m.end(), m.group(0))
            if value and _free(mention, found):
                found.append(mention)
    return sorted(found, key=lambda x: x.start)


def spoken_time(hhmm: str) -> str:
    """"15:00" -> "3 pm", "14:30" -> "2:30 pm" (how a time is said); anything else unchanged."""
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", str(hhmm).strip())
    if not m:
        return str(hhmm)
    hour, minute = int(m.group(1)), int(m.group(2))
    suffix = "am" if hour < 12 else "pm"
    hour = hour % 12 or 12
    return f"{hour} {suffix}" if minute == 0 else f"{hour}:{minute:02d} {suffix}"


# --- numbers ---------------------------------------------------------------------------------
_NUMBER = re.compile(r"\b(\d+(?:\.\d+)?|(?:" + "|".join(TENS) + r")(?:[\s-](?:" + "|".join(UNITS[1:10])
                     + r"))?|" + "|".join(sorted(WORD_VALUES, key=len, reverse=True)) + r")\b", re.I)
_PRONOUN_ONE = re.compile(r"\b(?:that|this|the|which|each|every|any|no|other|another|first|last|next|same|"
                          r"earlier|later)\s+$", re.I)
# "the dinosaur one", "the 2 o'clock one please": a pronoun after what it stands for, no count
_PRONOUN_ONE_AFTER = re.compile(r"\b(?:the|that|this|which)\s+(?:(?!(?:for|with|of|to|at|and|by|in|on|just|only)\b)"
                                r"[\w']+\s+){1,3}$", re.I)
_COUNTED = {"ticket", "tickets", "person", "people", "adult", "adults", "child", "children", "kid", "kids", "seat",
            "seats", "place", "places", "of", "more", "extra", "additional"}
_UNIT_AFTER = re.compile(r"\s*(?:of\s+)?(?:the\s+)?([a-z]+)", re.I)


# how many people, said without a number: "just me", "for myself" (1); "both of us", "me and my
# wife" (2). Their unit is "people", so they count tickets, seats, places.
_PARTY = [(re.compile(r"\b(?:(?:just|only)\s+(?:me|myself|the\s+one(?:\s+of\s+us)?)|(?:by|for)\s+myself|"
                      r"me\s+alone|on\s+my\s+own)\b", re.I), 1),
          (re.compile(r"\b(?:both\s+of\s+us|the\s+two\s+of\s+us|us\s+two|me\s+(?:and|n|&)\s+(?:my|the)\s+(?:wife|husband|"
                      r"partner|friend|son|daughter|mum|mom|dad|mother|father|brother|sister|kid|child|"
                      r"boyfriend|girlfriend|bf|gf|grandson|granddaughter|colleague)(?!\s*s\b))\b|"
                      r"\bmy\s+(?:wife|husband|partner|friend|son|daughter|mum|mom|dad|mother|father|brother|sister|"
                      r"grandson|granddaughter|colleague)\s+and\s+(?:me|myself|i)\b", re.I), 2),
          (re.compile(r"\bme\s+(?:and|n|&)\s+(?:nana|nan|gran|granny|grandma|grandad|grandpa|mum|mom|dad)\b", re.I), 2),
          (re.compile(r"\bme\s+(?:and|n|&)\s+(?:the|my|our)\s+twins\b", re.I), 3),
          (re.compile(r"\bme\s+(?:and|n|&)\s+(?:the|my|our)\s+triplets\b", re.I), 4)]
# a count written as people text it: "dinosaur tour 4pm x3"
_TIMES_SIGN = re.compile(r"(?<![\w-])x\s?([1-9]\d?)(?![\w:.])", re.I)


# a party said in parts: "two adults and one child" (3), "me and my 2 kids" (3)
_COUNT = r"(\d{1,2}|a|an|(?:" + "|".join(TENS) + r")(?:[\s-](?:" + "|".join(UNITS[1:10]) + r"))?|" + \
    "|".join(UNITS[19:12:-1] + UNITS[1:13]) + r")"  # "twenty-two of us", "fifteen kids"
_PEOPLE = (r"(?:adults?|grown[\s-]?ups?|children|child|kids?|teenagers?|teens?|students?|seniors?|pensioners?|"
           r"people|persons?|infants?|babies|baby|toddlers?|friends?|sons?|daughters?|grandchildren|grandkids?|"
           r"boys?|girls?|pupils?|teachers?|parents?|carers?|helpers?|leaders?|mums?|moms?|dads?|"
           r"(?:(?<=little\s)|(?<=young\s))ones)")
_PARTS = re.compile(rf"\b{_COUNT}\s+(?:little\s+|young\s+)?{_PEOPLE}"
                    rf"(?:(?:\s*,\s*|\s*,?\s*(?:and|plus|&|\+)\s*|\s+){_COUNT}\s+(?:little\s+|young\s+)?{_PEOPLE})+\b", re.I)
_GROUP_OF = re.compile(rf"\b(?:family|party|group|class|team)\s+of\s+{_COUNT}\b", re.I)
# a recognizer's homophones before a count noun: "can I get for tickets" (4), "to tickets please" (2)
_HOMOPHONE = re.compile(r"(?:^\W*|\b(?:get|want|need|book|buy|reserve|have|like|take|and|for)\s+)(for|to|too)\s+"
                        r"(?=(?:tickets?|people|places|seats|adults|kids|children|persons)\b)", re.I)
_ME_AND = re.compile(rf"\b(?:me|myself)\s+(?:and|plus|&|\+)\s+(?:my|the|our)\s+{_COUNT}\s+{_PEOPLE}\b", re.I)


def _count(token: str) -> int:
    token = token.lower()
    if token.isdigit():
        return int(token)
    return 1 if token in ("a", "an") else sum(WORD_VALUES[w] for w in re.split(r"[\s-]", token))


# a party listed person by person: "me, the wife and our three kids" (5), "my nan and me" (2)
_RELATIVE = (r"(?:wife|husband|partner|friend|son|daughter|mum|mom|dad|mother|father|brother|sister|kid|child|"
             r"boyfriend|girlfriend|grandson|granddaughter|colleague|nan|nana|gran|granny|grandma|grandpa|grandad|"
             r"aunt|auntie|uncle|cousin|niece|nephew|baby|teacher|carer|mate)")
_MEMBER = (rf"(?:me|myself|i|(?:my|the|our)\s+{_RELATIVE}|(?:my|our|the)?\s*{_COUNT}\s+(?:little\s+|young\s+)?{_PEOPLE}|"
           rf"(?:a|one)\s+(?:little|young|small)\s+one|"  # "two adults and a little one"
           # "my six bridesmaids", "the three monsters", "the twins", "Mr and Mrs Okafor"
           rf"(?:my|the|our)\s+{_COUNT}\s+(?:little\s+)?(?!of\b)[a-z]+s\b|(?:my|the|our)\s+twins|(?-i:Mr\.?\s+and\s+Mrs\.?\s+[A-Z][a-z]+))")
# said without commas too: "me my husband and the twins"
_LIST = re.compile(rf"\b{_MEMBER}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+plus\s+|(?<=\bme)\s+(?=my\s)){_MEMBER})+\b", re.I)
_WITH = re.compile(rf"\b(?:me\s+)?with\s+(?:my|our)\s+{_RELATIVE}\b(?!\s*s\b)", re.I)
_OF_US = re.compile(rf"\b{_COUNT}\s+of\s+us\b", re.I)
# the visitor and others by name or pronoun: "me and her" (2), "me n Ruby" (2), "me, Tom, Ellie and Raj" (4)
_OTHER = rf"(?:her|him|(?-i:[A-Z][a-z]+)|(?:my|the|our)\s+{_RELATIVE})"
_ME_AND_OTHERS = re.compile(rf"\b(?:me|myself)((?:\s*,\s*{_OTHER})*(?:\s*,?\s+(?:and|n|&)\s+{_OTHER})+\b)", re.I)


def _member_count(member: str) -> int:
    counted = re.search(rf"\b{_COUNT}\s+", member, re.I)
    return _count(counted.group(1)) if counted else 2 if re.search(r"\btwins\b|\bMr\.?\s+and\s+Mrs\b", member) else 1


def _party_list(text: str) -> List[Mention]:
    found = [Mention(_listed(whole.group(0)), whole.start(), whole.end(), "people") for whole in _LIST.finditer(text)]
    found += [Mention(2, m.start(), m.end(), "people") for m in _WITH.finditer(text) if _free(Mention(2, m.start(), m.end()), found)]
    found += [Mention(_count(m.group(1)), m.start(), m.end(), "people") for m in _OF_US.finditer(text)]
    return found + [Mention(1 + len(re.findall(_OTHER, m.group(1), re.I)), m.start(), m.end(), "people")
                    for m in _ME_AND_OTHERS.finditer(text) if _free(Mention(0, m.start(), m.end()), found)]


def _listed(party: str) -> int:
    """How many a list of people counts; a count and then who they are ("two people, me and my
    son") is the count."""
    counts = [_member_count(m.group(0)) for m in re.finditer(_MEMBER, party, re.I)]
    if len(counts) > 2 and re.match(rf"\s*{_COUNT}\s+(?:people|persons)\W+(?:me|myself)\b", party, re.I) and \
            counts[0] == sum(counts[1:]):
        return counts[0]
    return sum(counts)


def _party_parts(text: str) -> List[Mention]:
    found = [Mention(sum(_count(c) for c in re.findall(rf"\b{_COUNT}\s+(?:little\s+|young\s+)?{_PEOPLE}",
                                                     m.group(0), re.I)), m.start(), m.end(), "people")
             for m in _PARTS.finditer(text)]
    found += [Mention(_count(m.group(1)) + 1, m.start(), m.end(), "people") for m in _ME_AND.finditer(text)]
    found += [Mention(_count(m.group(1)), m.start(), m.end(), "people") for m in _GROUP_OF.finditer(text)]
    return found + [Mention(4 if m.group(1).lower() == "for" else 2, m.start(1), m.end(1), "tickets")
                    for m in _HOMOPHONE.finditer(text)]


def find_numbers(text: str, taken: Sequence[Mention] = ()) -> List[Mention]:
    """Numbers in digits or words ("two", "twenty-five", "a couple of"), each with the word after
    it (`text`, the unit: "tickets"), skipping spans already taken (times, codes); and the size
    of a party said without a number ("just me", "both of us": unit "people")."""
    found: List[Mention] = []
    for mention in _party_list(text) + _party_parts(text):
        if _free(mention, taken) and _free(mention, found):
            found.append(mention)
    for pattern, size in _PARTY:
        for m in pattern.finditer(text):
            mention = Mention(size, m.start(), m.end(), "people")
            if _free(mention, taken) and _free(mention, found):
                found.append(mention)
    for m in _TIMES_SIGN.finditer(text):
        mention = Mention(int(m.group(1)), m.start(), m.end(), "tickets")
        if _free(mention, taken) and _free(mention, found):
            found.append(mention)
    for m in _NUMBER.finditer(text):
        token = m.group(1).lower()
        if re.fullmatch(r"\d+(?:\.\d+)?", token):
            value: Any = float(token) if "." in token else int(token)
        elif " " in token or "-" in token:
            tens, unit = re.split(r"[\s-]", token)
            value = TENS[tens] + WORD_VALUES[unit]
        else:
            value = WORD_VALUES[token]
        unit_match = _UNIT_AFTER.match(text, m.end())
        unit = unit_match.group(1).lower() if unit_match else ""
        if token in WEAK_WORDS and (not unit or unit in WORD_VALUES or unit in ("of",)):
            continue
        if token in ("a", "an") and unit in ("lot", "bit", "few", "little", "moment", "minute", "second"):
            continue
        if unit in DURATION_UNITS:
            continue  # "trying to book for ten minutes now": how long, never how many
        if token == "one" and (_PRONOUN_ONE.search(text[:m.start()]) or
                               (_PRONOUN_ONE_AFTER.search(text[:m.start()]) and unit not in _COUNTED)):
            continue  # "that one", "the one at ten", "the space one": a pronoun
        mention = Mention(value, m.start(), m.end(), unit, token in ("a", "an"))
        if _free(mention, taken) and _free(mention, found):
            found.append(mention)
    return sorted(found, key=lambda x: x.start)


DURATION_UNITS = {"second", "seconds", "secs", "minute", "minutes", "mins", "min", "hour", "hours", "hrs", "day", "days",
                  "week", "weeks", "month", "months", "year", "years", "yrs"}


# --- enum values -----------------------------------------------------------------------------
FILLER = {"the", "a", "an", "please", "now", "thanks", "kindly", "then", "again", "to", "me", "us",
          "first", "instead", "actually", "rather", "no", "oh", "one", "there", "way", "i", "mean", "meant"}
TYPO_RATIO = 0.88  # a one-word typo of a one-word enum name or alias of 4+ letters ("caffe" -> cafe 0.89)
FUZZY_CUTOFF = 0.75  # difflib ratio a phrase needs for an enum value ("dino hall" -> dinosaur_hall 0.82)


def plain(text: str) -> str:
    """Without accents ("café" -> "cafe")."""
    return "".join(c for c in unicodedata.normalize("NFKD", str(text)) if not unicodedata.combining(c))


def words(text: str) -> List[str]:
    """Lowercase words with a crude singular (toilets -> toilet, dinosaurs -> dinosaur)."""
    out = re.findall(r"[a-z0-9]+", plain(text).lower().replace("'", "").replace("_", " "))
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in out]


# a verb said only to be ruled out ("Not cancel, just check my booking", "don't change it, just
# tell me what's on it", "no need to walk me"): the word after the negation is not asked for
# (but "don't book that after all", "I don't want to move it any more" take a request back)
NEGATED = re.compile(r"\b(?:not|don'?t|do\s+not|never|no\s+need\s+to|without)\s+(?:(?:want|need)\s+to\s+|wanna\s+)?"
                     r"(?:cancel(?:l?ing)?|chang(?:e|ing)|mov(?:e|ing)|switch(?:ing)?|book(?:ing)?|refund(?:ing)?|walk(?:ing)?|tak(?:e|ing)|check(?:ing)?|"
                     r"reschedul(?:e|ing))\b(?:\s+(?:it|that|this|me|us))?(?![^.,;!?]*\b(?:after\s+all|any\s*more)\b)", re.I)


# a booking made before, asked about ("What time did I book for earlier?", "You helped me book an
# hour ago, can we make it earlier?"): no new booking is asked for
BOOKED_BEFORE = re.compile(r"\b(?:did\s+(?:i|we)\s+book|(?:you\s+)?helped\s+(?:me|us)\s+(?:to\s+)?book)\b", re.I)


def unnegated(text: str) -> str:
    """The text without the requests it rules out (NEGATED), unless nothing else is said, and
    with a booking made before said as one (BOOKED_BEFORE)."""
    kept = NEGATED.sub(" ", text)
    kept = kept if len(words(kept)) >= 2 else text
    return BOOKED_BEFORE.sub(lambda m: "is my booking" if m.group(0).lower().startswith("did") else "made my booking", kept)


def said_words(text: str) -> Set[str]:
    """`words`, with each -ing form's verb too ("needs refunding": refund, "changing": change,
    "cancelling": cancel), for telling which request's verb was said; not "booking", a thing
    booked, nor a past form ("I booked the tour": no new booking), nor a verb ruled out (NEGATED)."""
    found = set(words(unnegated(text)))
    for w in list(found):
        base = w[:-3] if len(w) > 5 and w.endswith("ing") and w != "booking" else ""
        if base:
            found |= {base, base + "e"} | ({base[:-1]} if base[-1] == base[-2] else set())
    return found


def _norm(text: str) -> str:
    return " ".join(w for w in words(text) if w not in FILLER)


# a place named as where something is or happened, not as where to go ("I left my glasses in the
# space gallery", "are selfies ok in the dinosaur hall", "I'm at the cafe, where is the exit?"):
# a preposition of place, an article and up to three words ("get in", "go in" still go there)
_LOCATED = re.compile(r"(?<!\bget\s)(?<!\bgo\s)(?<!\bcome\s)\b(?:in\s+front\s+of|next\s+to|in|inside|at|near|by|"
                      r"around|outside|within|behind|beside|from)\s+(?:(?:the|a|an|this|that|our|my|your)\s+)?"
                      r"[A-Za-z'-]+(?:\s+[A-Za-z'-]+){0,2}", re.I)


def unlocated(text: str) -> str:
    """`text` without the places it names as locations (see _LOCATED)."""
    return _LOCATED.sub(" , ", text)


def resolve_enum(phrase: str, values: Sequence[Any], aliases: Dict[str, Any]) -> Optional[Any]:
    """The enum value a phrase means: exact, alias, word containment, then difflib."""
    norm = _norm(phrase)
    if not norm:
        return None
    pool = {_norm(str(v)): v for v in values}
    pool.update({_norm(a): v for a, v in aliases.items() if v in values and _norm(a) not in pool})
    pool.pop("", None)
    if norm in pool:
        return pool[norm]
    joined = {k.replace(" ", ""): v for k, v in pool.items()}
    if norm.replace(" ", "") in joined:  # "rest room" is "restroom", "gift shop" "giftshop"
        return joined[norm.replace(" ", "")]
    said = set(norm.split())
    inside = {repr(v): v for k, v in pool.items() if said <= set(k.split())}
    if len(inside) == 1:  # "dinosaurs" -> dinosaur_hall
        return next(iter(inside.values()))
    around = [k for k in pool if set(k.split()) <= said and len(said - set(k.split())) <= 1]
    if around:  # "the dinosaur hall downstairs"
        return pool[max(around, key=len)]
    close = difflib.get_close_matches(norm, sorted(pool), n=1, cutoff=FUZZY_CUTOFF)
    return pool[close[0]] if close else None


def find_enum(text: str, values: Sequence[Any], aliases: Dict[str, Any]) -> Optional[Tuple[Any, str]]:
    """The enum value a phrase inside `text` names, and the phrase: the longest span of up to
    four words that resolves (whole words only, so "a cafe near the shop" names the cafe)."""
    tokens = re.findall(r"[A-Za-z0-9'_-]+", plain(text))
    pool_words = {w for v in list(values) + list(aliases) for w in words(str(v))}
    pool_words |= {"".join(words(str(v))) for v in list(values) + list(aliases)}
    exact = {_norm(str(v)) for v in values} | {_norm(a) for a in aliases}
    found = []
    for size in range(min(4, len(tokens)), 0, -1):
        for i in range(len(tokens) - size + 1):
            span = tokens[i:i + size]
            said = words(" ".join(span))
            if not set(said + ["".join(said)]) & pool_words and not (
                    size == 1 and len(said) == 1 and len(said[0]) >= 4 and
                    difflib.get_close_matches(said[0], [w for w in pool_words if len(w) >= 4], n=1, cutoff=TYPO_RATIO)):
                continue
            if _set_aside(tokens, i) or {"not", "instead", "rather"} & {t.lower() for t in span}:  # "the cafe, not the gift shop"
                continue
            phrase = " ".join(span)
            value = _exactish(phrase, values, aliases)
            if value is not None:
                found.append((_norm(phrase) not in exact, -size, i, value, phrase))
    if not found:
        return None
    # a value or alias said whole before a part of one ("which floor are the toilets on"), then the longest
    *_, value, phrase = min(found, key=lambda f: f[:3])
    return value, phrase


def _set_aside(tokens: Sequence[str], index: int) -> bool:
    """Whether the words before tokens[index] set what follows aside ("not (the) ...", "instead
    of ...", "rather than ...")."""
    before = [t.lower() for t in tokens[max(0, index - 3):index]]
    while before and before[-1] in ("the", "your", "a", "an", "that", "this"):
        before.pop()
    return before[-1:] == ["not"] or before[-2:] in (["instead", "of"], ["rather", "than"])


def _exactish(phrase: str, values: Sequence[Any], aliases: Dict[str, Any]) -> Optional[Any]:
    """resolve_enum without fuzzy matching of spans that share no word (no "moon base" -> cafe)."""
    norm = _norm(phrase)
    if not norm:
        return None
    value = resolve_enum(phrase, values, aliases)
    if value is None:
        return None
    pool = {_norm(str(v)) for v in values} | {_norm(a) for a in aliases}
    # a one-word typo of a one-word name counts too ("the caffe"), closer than the enum cutoff
    return value if any(set(norm.split()) & set(k.split()) or norm.replace(" ", "") == k.replace(" ", "") or
                        (" " not in norm and " " not in k and len(norm) >= 4 and len(k) >= 4 and
                         difflib.SequenceMatcher(None, norm, k).ratio() >= TYPO_RATIO)
                        for k in pool) else None
