"""Values in what a visitor says: numbers in words or digits, clock times, booking codes,
people's names, and which enum value a phrase means. Pure functions over text; each finder
returns `Mention`s with their character span, so a time ("three o'clock") is not also read as
a count ("three") and a code is not read as a number.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import unicodedata
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

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
CAPS_WORDS = {"I", "OK", "AM", "PM", "TV", "ID", "UK", "USA", "EU", "T", "A", "WIFI"}
NAME_STOP = {"I", "Im", "My", "The", "A", "An", "Hi", "Hello", "Hey", "Thanks", "Thank", "Can", "Could",
             "Please", "Yes", "No", "Is", "Are", "What", "When", "Where", "Which", "Who", "How", "Why",
             "Do", "Does", "And", "But", "So", "Actually", "Sorry", "Ok", "Okay", "Book", "Cancel",
             "Take", "Tell", "Show", "Now", "Then", "Try", "Code", "Booking", "Ignore", "You", "We",
             "Our", "It", "That", "This", "There", "Here", "Oh", "Well", "Also", "Just", "Refund",
             "Two", "Three", "One", "Four", "Five", "Mr", "Mrs", "Ms", "Dr", "Museum", "My", "Name",
             "Surname", "Ref", "Reference", "Member", "Hmm", "Um", "Uh"}


@dataclasses.dataclass(frozen=True)
class Mention:
    value: Any
    start: int
    end: int
    text: str = ""
    weak: bool = False  # a number only by an article ("a ticket")

    def overlaps(self, other: "Mention") -> bool:
        return self.start < other.end and other.start < self.end


def _free(mention: Mention, taken: Iterable[Mention]) -> bool:
    return not any(mention.overlaps(t) for t in taken)


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
_UNIT_AFTER = re.compile(r"\s*(?:of\s+)?(?:the\s+)?([a-z]+)", re.I)


# how many people, said without a number: "just me", "for myself" (1); "both of us", "me and my
# wife" (2). Their unit is "people", so they count tickets, seats, places.
_PARTY = [(re.compile(r"\b(?:(?:just|only)\s+(?:me|myself|the\s+one(?:\s+of\s+us)?)|(?:by|for)\s+myself|"
                      r"me\s+alone|on\s+my\s+own)\b", re.I), 1),
          (re.compile(r"\b(?:both\s+of\s+us|the\s+two\s+of\s+us|us\s+two|me\s+and\s+(?:my|the)\s+(?:wife|husband|"
                      r"partner|friend|son|daughter|mum|mom|dad|mother|father|brother|sister|kid|child|"
                      r"boyfriend|girlfriend|grandson|granddaughter|colleague)(?!\s*s\b))\b|"
                      r"\bmy\s+(?:wife|husband|partner|friend|son|daughter|mum|mom|dad|mother|father|brother|sister|"
                      r"grandson|granddaughter|colleague)\s+and\s+(?:me|myself|i)\b", re.I), 2)]


# a party said in parts: "two adults and one child" (3), "me and my 2 kids" (3)
_COUNT = r"(\d{1,2}|a|an|" + "|".join(UNITS[1:13]) + r")"
_PEOPLE = (r"(?:adults?|grown[\s-]?ups?|children|child|kids?|teenagers?|teens?|students?|seniors?|pensioners?|"
           r"people|persons?|infants?|babies|baby|toddlers?|friends?|sons?|daughters?|grandchildren|grandkids?|"
           r"boys?|girls?|pupils?)")
_PARTS = re.compile(rf"\b{_COUNT}\s+(?:little\s+|young\s+)?{_PEOPLE}"
                    rf"(?:(?:\s*,\s*|\s*,?\s*(?:and|plus|&|\+)\s*|\s+){_COUNT}\s+(?:little\s+|young\s+)?{_PEOPLE})+\b", re.I)
_GROUP_OF = re.compile(rf"\b(?:family|party|group|class|team)\s+of\s+{_COUNT}\b", re.I)
# a recognizer's homophones before a count noun: "can I get for tickets" (4), "to tickets please" (2)
_HOMOPHONE = re.compile(r"(?:^\W*|\b(?:get|want|need|book|buy|reserve|have|like|take|and)\s+)(for|to|too)\s+"
                        r"(?=(?:tickets?|people|places|seats|adults|kids|children)\b)", re.I)
_ME_AND = re.compile(rf"\b(?:me|myself)\s+(?:and|plus|&|\+)\s+(?:my|the|our)\s+{_COUNT}\s+{_PEOPLE}\b", re.I)


def _count(token: str) -> int:
    token = token.lower()
    return int(token) if token.isdigit() else 1 if token in ("a", "an") else WORD_VALUES[token]


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
    found = [m for m in _party_parts(text) if _free(m, taken)]
    for pattern, size in _PARTY:
        for m in pattern.finditer(text):
            mention = Mention(size, m.start(), m.end(), "people")
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
        if token == "one" and _PRONOUN_ONE.search(text[:m.start()]):
            continue  # "that one", "the one at ten": a pronoun
        mention = Mention(value, m.start(), m.end(), unit, token in ("a", "an"))
        if _free(mention, taken) and _free(mention, found):
            found.append(mention)
    return sorted(found, key=lambda x: x.start)


# --- codes -----------------------------------------------------------------------------------
_CODE = re.compile(r"(?<![\w-])([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)(?![\w-])")
_SPELLED = re.compile(r"(?<!\w)((?:[A-Z0-9][\s,.-]+){3,11}[A-Z0-9])(?!\w)")


# how people spell a code aloud: letters, the radio alphabet, digits and their words
NATO = {w: w[0] for w in "alpha alfa bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima mike "
        "november oscar papa quebec romeo sierra tango uniform victor whiskey whisky xray yankee zulu".split()}
NATO["x-ray"] = "x"
DIGIT_WORDS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine".split())}
DIGIT_WORDS["oh"] = "0"
# letters said by their names, where the name is no English word ("em seven seven ...")
LETTER_NAMES = {"aitch": "h", "cee": "c", "cue": "q", "dee": "d", "ef": "f", "el": "l", "em": "m", "en": "n",
                "ess": "s", "ex": "x", "gee": "g", "jay": "j", "kay": "k", "pee": "p", "ar": "r", "tee": "t",
                "vee": "v", "zed": "z", "zee": "z"}
SPOKEN_DASH = {"dash", "hyphen"}
# two-letter words, which do not start a code ("is 4 0 2 2"); any other pair may ("LM 4 0 2 2", "mn 1 2 7 0")
_WORD_PAIRS = {"is", "it", "in", "on", "at", "to", "my", "me", "we", "us", "an", "as", "be", "by", "do", "go", "he",
               "if", "no", "of", "or", "so", "up", "am", "hi", "ok", "oh", "id", "pm", "uk", "tv", "eu"}
_SPOKEN_TOKEN = re.compile(r"(?<![A-Za-z0-9'])(?:[A-Za-z]+(?:-[A-Za-z]+)?|\d+)(?![A-Za-z0-9'])")
_SPOKEN_GAP = re.compile(r"(?=[^\s,]*[\s,])[\s,.-]+")  # a space or a comma: "HP-2046" is written, not spoken
_LETTERS_DIGITS = re.compile(r"(?<![\w-])([A-Z]{1,3})\s+(\d{3,6})(?![\w-])")


def _spoken_codes(text: str) -> List[Mention]:
    """Codes spelled a character at a time in lowercase or in words, as a recognizer writes
    them: "b x 4 8 2 1", "bravo x-ray four eight two one" (four characters or more, letters
    and digits both); and "DQ 5590", letters then digits."""
    found: List[Mention] = []
    run: List[Tuple[str, "re.Match"]] = []

    def close() -> None:
        # "a", "I" start sentences, not codes, unless a letter follows ("the reference is a b 1 1 2 2")
        while run and run[0][1].group(0).lower() in ("a", "i") and not (len(run) > 1 and run[1][0].isalpha()):
            run.pop(0)
        chars = "".join(c for c, _ in run)
        # three characters said one by one, or letters then a group of digits ("kl 1187", "m 55019")
        grouped = len(run) == 2 and run[0][0].isalpha() and run[1][0].isdigit() and len(run[1][0]) >= 3
        if len(chars) >= 4 and (len(run) >= 3 or grouped) and any(c.isdigit() for c in chars) and \
                any(c.isalpha() for c in chars):
            found.append(Mention(chars.upper(), run[0][1].start(), run[-1][1].end(),
                                 text[run[0][1].start():run[-1][1].end()]))
        run.clear()

    position = 0
    for m in _SPOKEN_TOKEN.finditer(text):
        word = m.group(0).lower()
        if word in SPOKEN_DASH and run:
            position = m.end()  # "m dash six two zero zero three"
            continue
        char = NATO.get(word) or DIGIT_WORDS.get(word) or LETTER_NAMES.get(word) or \
            (word if len(word) == 1 or word.isdigit() else None)
        if char is None and len(word) == 2 and word.isalpha() and word not in _WORD_PAIRS:
            close()
            char = word  # a letter pair starts a code ("LM 4 0 2 2")
        if char is None or (run and not _SPOKEN_GAP.fullmatch(text[position:m.start()])):
            close()
        if char is not None:
            run.append((char, m))
        position = m.end()
    close()
    for m in _LETTERS_DIGITS.finditer(text):
        mention = Mention(m.group(1) + m.group(2), m.start(), m.end(), m.group(0))
        if m.group(1) not in CAPS_WORDS and _free(mention, found):  # "ID 6002" is the number 6002
            found.append(mention)
    return found


def find_codes(text: str) -> List[Mention]:
    """Booking codes, member numbers: "K7P2QD", "F-1001", "AAAAAA", spelled "K 7 P 2 Q D",
    "b x 4 8 2 1", "bravo x-ray four eight two one", and "DQ 5590"."""
    found = [m for m in _spoken_codes(text)]
    for m in _SPELLED.finditer(text):
        joined = re.sub(r"[\s,.-]", "", m.group(1))
        mention = Mention(joined, m.start(), m.end(), m.group(0))
        if (any(c.isdigit() for c in joined) or len(joined) >= 4) and _free(mention, found):
            found.append(mention)
    for m in _CODE.finditer(text):
        token = m.group(1)
        bare = token.replace("-", "")
        if not 4 <= len(bare) <= 12 or token.upper() in CAPS_WORDS:
            continue
        has_digit = any(c.isdigit() for c in bare)
        has_alpha = any(c.isalpha() for c in bare)
        coded = (has_digit and has_alpha) or (token.isupper() and has_alpha) or ("-" in token and has_digit) \
            or _numbered(text, m.start(), bare)
        if coded and not re.fullmatch(r"\d{1,2}(am|pm)", bare, re.I):
            mention = Mention(token.upper(), m.start(), m.end(), token)
            if _free(mention, found):
                found.append(mention)
    return sorted(found, key=lambda x: x.start)


# a number is an id, not a count, when it is long ("77201") or named one ("ID 6002", "number 4411")
_ID_CUE = re.compile(r"(?:\b(?:id|number|no|code|membership|member|card|pass|booking|reservation)|#)\W{0,3}"
                     r"(?:is\s+|was\s+)?$", re.I)


def _numbered(text: str, start: int, bare: str) -> bool:
    return bare.isdigit() and (len(bare) >= 5 or bool(_ID_CUE.search(text[max(0, start - 24):start])))


# --- names -----------------------------------------------------------------------------------
# a capitalized word, with the capitals and joins names have: O'Brien, Al-Sayed, McDonald
_UPPER, _LOWER = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ"  # with the accented letters of names ("Hans Müller")
_NAME_WORD = rf"(?:[{_UPPER}][{_LOWER}]+(?:[{_UPPER}][{_LOWER}]+)?|[{_UPPER}](?=['\-][{_UPPER}]))(?:['\-][{_UPPER}]?[{_LOWER}]+)*"
_NAME = rf"({_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})"
_NAME_CUES = [re.compile(p + _NAME) for p in (
    r"\b(?i:my name is|my name's|name is|name's|i am|i'm|im|this is|it's|it is|under the name(?: of)?|"
    r"in the name of|name of|(?:sur|last |family )?name(?:\s+is|'s)?:?|under)\s+", r"\b(?i:for|called|named|booked by|by)\s+",
    r"\b(?i:for|under)\s+the\s+(?=[A-Z]\S*\s+(?i:family|party|group)\b)",  # "for the Nakamura family"
    r"\b(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+")]
# a name a recognizer wrote in lowercase, after a cue no other word follows ("name dubois", "surname
# svensson"); and a possessive before the booking ("Chen's booking")
_LOWER_WORD = r"[a-zß-öø-ÿ][a-zß-öø-ÿ'-]+"
_LOWER_NAME = re.compile(rf"\b(?i:(?:my\s+|the\s+)?(?:sur|last\s+|family\s+)?name(?:\s+is|'s)?:?|(?:it'?s\s+|booked\s+)?under"
                         rf"(?:\s+the\s+name(?:\s+of)?)?)\s+({_LOWER_WORD}(?:\s+{_LOWER_WORD})?)\b"
                         rf"|\bfor\s+({_LOWER_WORD})(?=\s*(?:[,.!?]|$|\s+(?:please|code|ref|reference)\b))")
_OWNER = re.compile(rf"({_NAME_WORD})'s\s+(?i:booking|reservation|tickets?|tour)\b")
# a lone name set off at the end ("..., for myself, Priya") or said next to a code ("R4T8WZ
# Okafor", "Tanaka, D3M7T")
_CODE_AHEAD = r"(?=\s*,?\s*(?=[A-Z]*\d)[A-Z0-9]{4,}\b)"
_LONE_NAME = re.compile(rf"(?:,\s*|(?<=[A-Z0-9]{{4}})\s+|(?<=[A-Z0-9]{{4}}),\s*)({_NAME_WORD})\W*$"
                        rf"|(?<![\w'])({_NAME_WORD}){_CODE_AHEAD}")


_NOT_NAMES = {"is", "please", "and", "the", "a", "an", "of", "for", "on", "under", "was", "here", "there", "again",
              "code", "booking", "number", "thanks", "it", "that", "this", "as", "to", "in", "my", "your", "our", "i",
              "we", "me", "us", "you", "ref", "reference", "pls", "now", "today", "tomorrow", "too", "so", "but", "with",
              "at", "by", "or", "and", "then", "can", "could", "would", "will", "should", "do", "did", "have", "has",
              "want", "need", "like", "name", "surname", "tour", "tours", "ticket", "tickets", "people", "person", "two",
              "three", "four", "five", "six", "seven", "eight", "nine", "ten", "one", "stairs", "age", "sixteen",
              "eighteen", "twelve", "eleven", "him", "her", "them", "everyone", "all", "family", "kids", "children",
              "myself", "yourself", "ourselves", "himself", "herself", "themselves"}


def _titled(word: str) -> str:
    """A name written in lowercase, capitalized as names are ("o'brien" -> "O'Brien")."""
    return re.sub(r"(^|['-])([a-zß-öø-ÿ])", lambda m: m.group(1) + m.group(2).upper(), word)


def find_names(text: str, taken: Sequence[Mention] = ()) -> List[Mention]:
    """People's (and things') names: after a cue ("my name is Ada Lovelace", "for Marie Curie",
    "called Night tour"), else a run of two to four capitalized words ("Alan Turing, code ...")."""
    found: List[Mention] = []
    for cue in _NAME_CUES:
        for m in cue.finditer(text):
            words = [w for w in m.group(1).split()]
            while words and words[-1] in NAME_STOP:
                words.pop()
            if words and words[0] not in NAME_STOP:
                value = " ".join(words)
                mention = Mention(value, m.start(1), m.start(1) + len(value), m.group(0))
                if _free(mention, taken) and _free(mention, found):
                    found.append(mention)
    for m in re.finditer(rf"{_NAME_WORD}(?:\s+{_NAME_WORD}){{1,3}}", text):
        words = m.group(0).split()
        while words and words[0] in NAME_STOP:
            words.pop(0)
        while words and words[-1] in NAME_STOP:
            words.pop()
        if len(words) >= 2:
            value = " ".join(words)
            start = text.index(value, m.start())
            mention = Mention(value, start, start + len(value), value)
            if _free(mention, taken) and _free(mention, found):
                found.append(mention)
    for m in list(_LOWER_NAME.finditer(text)) + list(_OWNER.finditer(text)) if not found else []:
        group = next(g for g in range(1, (m.lastindex or 1) + 1) if m.group(g))
        parts = m.group(group).split()
        if parts[-1].lower() in _NOT_NAMES:  # "name is anna and ...": one word
            parts = parts[:-1]
        if not parts or parts[0].lower() in _NOT_NAMES or parts[0] in NAME_STOP:
            continue
        value = " ".join(_titled(w) for w in parts)
        start = m.start(group)
        mention = Mention(value, start, start + len(" ".join(parts)), m.group(0))
        if _free(mention, taken):
            found.append(mention)
            break
    if not found:
        for m in _LONE_NAME.finditer(text):
            group = 1 if m.group(1) else 2
            if m.group(group) in NAME_STOP:
                continue
            mention = Mention(m.group(group), m.start(group), m.end(group), m.group(0))
            if _free(mention, taken):
                found.append(mention)
                break
    return sorted(found, key=lambda x: x.start)


# --- enum values -----------------------------------------------------------------------------
FILLER = {"the", "a", "an", "please", "now", "thanks", "kindly", "then", "again", "to", "me", "us",
          "first", "instead", "actually", "rather", "no", "oh", "one", "there", "way", "i", "mean", "meant"}
FUZZY_CUTOFF = 0.75  # difflib ratio a phrase needs for an enum value ("dino hall" -> dinosaur_hall 0.82)


def plain(text: str) -> str:
    """Without accents ("café" -> "cafe")."""
    return "".join(c for c in unicodedata.normalize("NFKD", str(text)) if not unicodedata.combining(c))


def words(text: str) -> List[str]:
    """Lowercase words with a crude singular (toilets -> toilet, dinosaurs -> dinosaur)."""
    out = re.findall(r"[a-z0-9]+", plain(text).lower().replace("'", "").replace("_", " "))
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in out]


def _norm(text: str) -> str:
    return " ".join(w for w in words(text) if w not in FILLER)


# a place named as where something is or happened, not as where to go ("I left my glasses in the
# space gallery", "are selfies ok in the dinosaur hall", "I'm at the cafe, where is the exit?"):
# a preposition of place, an article and up to three words ("get in", "go in" still go there)
_LOCATED = re.compile(r"(?<!\bget\s)(?<!\bgo\s)(?<!\bcome\s)\b(?:in|inside|at|near|by|around|outside|within|"
                      r"behind|beside|next\s+to|from)\s+(?:(?:the|a|an|this|that|our|my|your)\s+)?"
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
    best: Optional[Tuple[Any, str]] = None
    best_len = 0
    for size in range(min(4, len(tokens)), 0, -1):
        for i in range(len(tokens) - size + 1):
            span = tokens[i:i + size]
            if not set(words(" ".join(span)) + ["".join(words(" ".join(span)))]) & pool_words:
                continue
            phrase = " ".join(span)
            value = _exactish(phrase, values, aliases)
            if value is not None and size > best_len:
                best, best_len = (value, phrase), size
        if best is not None:
            return best
    return None


def _exactish(phrase: str, values: Sequence[Any], aliases: Dict[str, Any]) -> Optional[Any]:
    """resolve_enum without fuzzy matching of spans that share no word (no "moon base" -> cafe)."""
    norm = _norm(phrase)
    if not norm:
        return None
    value = resolve_enum(phrase, values, aliases)
    if value is None:
        return None
    pool = {_norm(str(v)) for v in values} | {_norm(a) for a in aliases}
    return value if any(set(norm.split()) & set(k.split()) or norm.replace(" ", "") == k.replace(" ", "")
                        for k in pool) else None
