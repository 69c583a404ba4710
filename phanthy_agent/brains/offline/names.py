"""People's names in what a visitor says: after a cue ("my name is Ada Lovelace", "under
Okafor", "for the Nakamura family", "Mr Abara"), in lowercase as a recognizer writes them after
a name cue ("name's john smith"), a run of capitalized words, or a lone name next to a code.
Pure functions over text.
"""

from __future__ import annotations

import re
from typing import List, Sequence

from .mentions import Mention, free as _free
from .spelling import letters, spelled_as_a_name, spellings, word_spelled
from .wording import NOT_NAMES

NAME_STOP = {"I", "Im", "My", "The", "A", "An", "Hi", "Hello", "Hey", "Thanks", "Thank", "Can", "Could",
             "Please", "Yes", "No", "Is", "Are", "What", "When", "Where", "Which", "Who", "How", "Why",
             "Do", "Does", "And", "But", "So", "Actually", "Sorry", "Ok", "Okay", "Book", "Cancel",
             "Take", "Tell", "Show", "Now", "Then", "Try", "Code", "Booking", "Ignore", "You", "We",
             "Our", "It", "That", "This", "There", "Here", "Oh", "Well", "Also", "Just", "Refund",
             "Two", "Three", "One", "Four", "Five", "Mr", "Mrs", "Ms", "Dr", "Museum", "My", "Name",
             "Surname", "Ref", "Reference", "Member", "Hmm", "Um", "Uh", "Move", "Change", "Check", "Swap",
             "Switch", "Reschedule", "Rebook", "Find", "Look", "Scrap", "Confirm", "Give", "Get", "Put", "Sign",
             "Reserve", "Pull", "Expenses", "Er", "Erm", "Reservation", "Mister", "Missus", "Dinosaur", "Space", "Tour",
             "Morning", "Afternoon", "Evening", "Earlier", "Later", "Like",
             # days and months ("we booked the dinosaur tour for Saturday, right?")
             "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January", "February",
             "March", "April", "June", "July", "August", "September", "October", "November", "December"}

# a capitalized word, with the capitals and joins names have: O'Brien, Al-Sayed, McDonald
# with the accented letters of names ("Hans Müller", "Zielińska", "Łukasz": Latin Extended-A, whose
# capitals and small letters alternate, counts as both)
_UPPER, _LOWER = "A-ZÀ-ÖØ-Þ\u0100-\u017f", "a-zß-öø-ÿ\u0100-\u017f"
_NAME_WORD = rf"(?:[{_UPPER}][{_LOWER}]+(?:[{_UPPER}][{_LOWER}]+)?|[{_UPPER}](?=['\-][{_UPPER}]))(?:['\-][{_UPPER}]?[{_LOWER}]+)*"
# with the particles of family names between ("Van der Berg", "Ana de la Cruz")
# and the lowercase particle a family name may start with ("de Vries", "van der Meer")
_NAME = rf"((?:(?:van|von|de|da|di|du|del|della|la|le|ter|ten)\s+(?:(?:der|den|la|los|las)\s+)?(?={_NAME_WORD}))?"
_NAME += rf"{_NAME_WORD}(?:\s+(?:(?:van|von|der|den|de|da|di|du|del|della|la|le|bin|ibn)\s+)*{_NAME_WORD}){{0,3}})"
# hesitations between the cue and the name ("name's uh Okafor")
_FILLERS = r"(?:(?i:uh+|um+|umm|erm+|er|uhm|ah)\W+)*"
_NAME_CUES = [re.compile(p + _FILLERS + _NAME) for p in (
    r"\b(?i:my name is|my name's|name is|name's|i am|i'm|im|this is|it's|it is|under the name(?: of)?|"
    r"in the name of|name o[f']|on (?:the )?name(?: of)?|(?:reservation|booking) is on|name na|(?:sur|last |family )?name(?:\s+is|'s)?[:,]?|under)\s+", r"\b(?i:for|called|named|booked by|booked as|by)\s+",
    r"\b(?i:for|under)\s+the\s+(?=[A-Z]\S*\s+(?i:family|party|group)\b)",  # "for the Nakamura family"
    r"\b(?:Mr|Mrs|Ms|Miss|Dr|Prof|(?i:mister|missus))\.?\s+")]
# a name a recognizer wrote in lowercase, after a cue no other word follows ("name dubois", "surname
# svensson"); and a possessive before the booking ("Chen's booking")
_LOWER_WORD = r"[a-zß-öø-ÿ\u0100-\u017f][a-zß-öø-ÿ\u0100-\u017f'-]+"
_LOWER_NAME = re.compile(rf"\b(?i:(?:my\s+|the\s+)?(?:sur|last\s+|family\s+)?names?(?:\s+is|\s+of|'s)?:?|mister|missus|(?:it'?s\s+|booked\s+)?under"
                         rf"(?:\s+the\s+name(?:\s+of)?)?|in\s+the\s+name\s+of)\s+({_LOWER_WORD}(?:\s+(?:al|el|de|da|di|van|von|der|bin|le|la|du)"
                         rf"(?=\s))?(?:\s+{_LOWER_WORD})?)\b"
                         rf"|\bfor\s+({_LOWER_WORD}(?:\s+{_LOWER_WORD})?)(?=\s*(?:[,.!?]|$|\s+(?:please|code|ref|reference|booking|reservation|"
                         rf"one|two|three|four|five|six|seven|eight|nine|ten|\d+)\b))")
_OWNER = re.compile(rf"({_NAME_WORD})'s\s+(?i:booking|reservation|tickets?|tour)\b")
# "the Mbeki booking", "Mazur is the name", "we are the family Kowalski"
_NAMED_AS = re.compile(rf"\b(?i:the)\s+({_NAME_WORD})\s+(?i:booking|reservation|party|group)\b"
                       rf"|(?<![\w'])({_NAME_WORD})(?:\s+(?i:is)|'s)\s+(?i:the\s+(?:sur|last\s+|family\s+)?name)\b"
                       rf"|\b(?i:the\s+family)\s+({_NAME_WORD})\b")
# a lone name set off at the end ("..., for myself, Priya") or said next to a code ("R4T8WZ
# Okafor", "Tanaka, D3M7T")
_CODE_AHEAD = r"(?=\s*[,.]?\s*(?:(?i:code|ref|reference|booking|number)\s+)?(?=[A-Z-]*\d)[A-Z0-9]{2,}(?:-[A-Z0-9]{2,})?\b)"
_LONE_NAME = re.compile(rf"(?:,\s*|(?<=[A-Z0-9]{{4}})\s+|(?<=[A-Z0-9]{{4}}),\s*)({_NAME_WORD})"
                        rf"(?:\W+(?i:cheers|thanks|thank\s+you|ta|done|please|pls))?\W*$"
                        rf"|(?<![\w'])({_NAME_WORD}){_CODE_AHEAD}"
                        rf"|(?<=[A-Z0-9]{{4}})[.,]\s*({_NAME_WORD})(?:[.,]|\s*[\u2014\u2013])(?=\s|$)")  # "My booking. GN-2075. Tanaka.", "R1P7C4, Delgado — no, ..."

# a lone name said just before a code found in any spelling ("Kowalski, code G H eight eight ...",
# "Harrington, XR 5502", "Schmidt, oh ar six six ...")
_NAME_THEN_CODE = re.compile(rf"(?<![\w'])((?:(?:[Vv]an|[Vv]on|[Dd]e|[Dd]er|[Dd]en|[Dd]a|[Dd]i|[Ll]e|[Ll]a|[Tt]er)\s+)*{_NAME_WORD})[,.]?\s*(?:(?i:and)\s+)?(?:(?i:the)\s+)?(?:(?i:code|ref|reference|booking|number)(?:'s)?\s*){{0,2}}(?:(?i:is)\s+)?$")
# a family named in the plural ("we're the Hendersons", "it's the Bakers", "for the Joneses"): the name
_FAMILY = re.compile(rf"\b(?i:we(?:'re|\s+are)|it'?s|it\s+is|for|under|booked\s+as)\s+the\s+([{_UPPER}][{_LOWER}]+?)(?:e?s)\b"
                     rf"(?!\s+(?i:family|party|group|tour|gallery|hall|booking)\b)")


_SELF_NAMED = re.compile(rf"^\W*(?:(?i:hi|hello|hey|yes|yeah|ok|okay)\W+)*({_NAME_WORD}(?:\s+{_NAME_WORD})?)\s+(?i:here)\b(?!\s+(?i:is|are|was))")


def _stop_word(word: str) -> bool:
    """A word of NAME_STOP, or its possessive ("Booking's Hartley", "Code's M, P, 3 ...")."""
    return re.sub(r"'s$", "", word) in NAME_STOP


def _before_a_code(text: str, codes: Sequence[Mention]) -> List[Mention]:
    for code in codes:
        m = _NAME_THEN_CODE.search(text[:code.start])
        if m and not _stop_word(m.group(1)) and m.group(1).lower() not in NOT_NAMES:  # not "Code's M, P, 3, ...", "Lovely. Code ..."
            return [Mention(m.group(1), m.start(1), m.end(1), m.group(0))]
    return []


_NOT_NAMES = {"is", "please", "and", "the", "a", "an", "of", "for", "on", "under", "was", "here", "there", "again",
              "code", "booking", "number", "thanks", "it", "that", "this", "as", "to", "in", "my", "your", "our", "i",
              "we", "me", "us", "you", "ref", "reference", "pls", "now", "today", "tomorrow", "too", "so", "but", "with",
              "at", "by", "or", "and", "then", "can", "could", "would", "will", "should", "do", "did", "have", "has",
              "want", "need", "like", "name", "surname", "tour", "tours", "ticket", "tickets", "people", "person", "two",
              "three", "four", "five", "six", "seven", "eight", "nine", "ten", "one", "stairs", "age", "sixteen",
              "eighteen", "twelve", "eleven", "him", "her", "them", "everyone", "all", "family", "kids", "children",
              "myself", "yourself", "ourselves", "himself", "herself", "themselves", "twenty", "thirty", "forty",
              "fifty", "sixty", "hundred", "dozen", "pupils", "students", "adults", "scouts", "guides", "residents",
              "spelled", "spelt", "spelling"}


def _titled(word: str) -> str:
    """A name written in lowercase, capitalized as names are ("o'brien" -> "O'Brien", "mcgregor" ->
    "McGregor")."""
    return re.sub(r"(^[Mm]c|^|['-])([a-zß-öø-ÿ])", lambda m: m.group(1).capitalize() + m.group(2).upper(), word)


def find_names(text: str, taken: Sequence[Mention] = ()) -> List[Mention]:
    """People's (and things') names: after a cue ("my name is Ada Lovelace", "for Marie Curie",
    "called Night tour"), else a run of two to four capitalized words ("Alan Turing, code ...")."""
    found: List[Mention] = []
    for m in _FAMILY.finditer(text):
        mention = Mention(m.group(1), m.start(1), m.end(1), m.group(0))
        if m.group(1) not in NAME_STOP and _free(mention, taken):
            found.append(mention)
            break
    for cue in _NAME_CUES if not found else []:
        for m in cue.finditer(text):
            words = [w for w in m.group(1).split()]
            while words and words[-1] in NAME_STOP:
                words.pop()
            if words and not _stop_word(words[0]) and len(words[0]) > 1:  # "N-G-U-Y-E-N" is spelled
                value = " ".join(words)
                mention = Mention(value, m.start(1), m.start(1) + len(value), m.group(0))
                if _free(mention, taken) and _free(mention, found):
                    found.append(mention)
    for m in re.finditer(rf"{_NAME_WORD}(?:\s+{_NAME_WORD}){{1,3}}", text):
        words = m.group(0).split()
        while words and _stop_word(words[0]):  # "Booking's Hartley"
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
        if len(parts) > 1 and parts[0].lower() in ("mister", "missus", "mr", "mrs"):
            parts = parts[1:]  # "for mister okafor"
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
        found += _before_a_code(text, taken)
    for m in _NAMED_AS.finditer(text) if not found else []:
        group = next(g for g in (1, 2, 3) if m.group(g))
        mention = Mention(m.group(group), m.start(group), m.end(group), m.group(0))
        if m.group(group) not in NAME_STOP and _free(mention, taken):
            found.append(mention)
            break
    said_here = _SELF_NAMED.search(text) if not found else None  # "Mehta here, booking code ..."
    if said_here and said_here.group(1) not in NAME_STOP:
        found.append(Mention(said_here.group(1), said_here.start(1), said_here.end(1), said_here.group(0)))
    if not found:
        for m in _LONE_NAME.finditer(text):
            group = next(g for g in (1, 2, 3) if m.group(g))
            if _stop_word(m.group(group)) or m.group(group).lower() in NOT_NAMES:  # "Lovely, code ...", "Code's EH2284"
                continue
            mention = Mention(m.group(group), m.start(group), m.end(group), m.group(0))
            if _free(mention, taken):
                found.append(mention)
                break
    return sorted((_untitled(m) for m in found or _spelled_out(text, taken)), key=lambda x: x.start)


_TITLE = re.compile(r"^(?:Doctor|Professor|Reverend|Sir|Dame)\s+(?=\S)")


def _untitled(mention: Mention) -> Mention:
    """The name without a title before it ("the name is Doctor Okafor")."""
    value = _TITLE.sub("", str(mention.value))
    return mention if value == mention.value or not value else Mention(value, mention.start, mention.end, mention.text, mention.weak)


def spelling_said(text: str) -> str:
    """The text without a name's spelling letter by letter ("Adeyemi, A-D-E-Y-E-M-I" ->
    "Adeyemi, "): the letters are neither a code nor words to match."""
    for start, end in reversed(list(spellings(text))):
        if word_spelled(text, start, end) is not None:
            text = text[:start] + text[end:]
    return text


def _spelled_out(text: str, taken: Sequence[Mention]) -> List[Mention]:
    """A name said and spelled ("Brown, B-R-O-W-N"), else one only spelled after its cue ("the
    name is N-G-U-Y-E-N")."""
    for start, end in spellings(text):
        said = word_spelled(text, start, end)
        if said is not None:
            mention = Mention(_titled(said.group(1).lower()), said.start(1), said.end(1), said.group(0))
        elif spelled_as_a_name(text, start):
            mention = Mention(_titled(letters(text[start:end])), start, end, text[start:end])
        else:
            continue
        if _free(mention, taken):
            return [mention]
    return []
