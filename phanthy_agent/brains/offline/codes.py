"""Booking codes and member numbers in what a visitor says, written ("K7P2QD", "F-1001") or
spelled aloud as a recognizer writes it ("K 7 P 2 Q D", "b x 4 8 2 1", "bravo x-ray four eight
two one", "em seven seven ...", "DQ 5590", "M B X seventy two", "member id four four one nine oh
two", "r2 941", "772 019"). Pure functions over text.
"""

from __future__ import annotations

import re
from typing import List, Tuple

from .mentions import Mention, free as _free
from .spelling import spelled_as_a_name

CAPS_WORDS = {"I", "OK", "AM", "PM", "TV", "ID", "UK", "USA", "EU", "T", "A", "WIFI"}

_CODE = re.compile(r"(?<![\w-])([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)(?![\w-])")
_SPELLED = re.compile(r"(?<!\w)((?:[A-Z0-9][\s,.-]+){3,11}[A-Z0-9])(?![\w'\u2019])")


# how people spell a code aloud: letters, the radio alphabet, digits and their words
NATO = {w: w[0] for w in "alpha alfa bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima mike "
        "november oscar papa quebec romeo sierra tango uniform victor whiskey whisky xray yankee zulu".split()}
NATO["x-ray"] = "x"
DIGIT_WORDS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine".split())}
DIGIT_WORDS.update(oh="0", nought="0", naught="0")  # "P, L, eight, eight, four, nought"
# two digits said as one number inside a code ("M B X seventy two", "v x e nineteen")
TEENS = {w: str(i) for i, w in enumerate("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                                         "nineteen".split(), start=10)}
TENS = {w: str(i) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)}
# letters said by their names, where the name is no English word ("em seven seven ...")
LETTER_NAMES = {"aitch": "h", "ee": "e", "cee": "c", "cue": "q", "dee": "d", "ef": "f", "el": "l", "em": "m", "en": "n",
                "ess": "s", "ex": "x", "gee": "g", "jay": "j", "kay": "k", "pee": "p", "ar": "r", "tee": "t",
                "vee": "v", "zed": "z", "zee": "z", "ay": "a", "ell": "l", "eff": "f", "arr": "r"}
# letters said as the words that sound like them ("tee are", "zed why", "jay why"), read as letters only
# inside a code, or first when a letter and another character follow ("are jay 4 6 6 0")
SOUNDALIKE_LETTERS = {"are": "r", "why": "y", "you": "u", "u": "u", "bee": "b", "see": "c", "sea": "c", "eye": "i",
                      "queue": "q", "tea": "t", "pea": "p", "oh": "o"}
SPOKEN_DASH = {"dash", "hyphen"}
HOMOPHONE_DIGITS = {"for": "4", "to": "2", "too": "2"}
COUNTED = re.compile(r"(?:people|persons?|tickets?|adults?|kids?|children|of|places|seats)$")
FILLERS = {"um", "uh", "er", "erm", "uhm", "umm"}
# two-letter words, which do not start a code ("is 4 0 2 2"); any other pair may ("LM 4 0 2 2", "mn 1 2 7 0")
WORD_PAIRS = {"is", "it", "in", "on", "at", "to", "my", "me", "we", "us", "an", "as", "be", "by", "do", "go", "he",
               "if", "no", "of", "or", "so", "up", "am", "hi", "ok", "oh", "id", "pm", "uk", "tv", "eu",
               "um", "uh", "er", "ah", "ha", "ya", "yo", "ye", "mm", "hm"}
_SPOKEN_TOKEN = re.compile(r"(?<![A-Za-z0-9'])(?:[A-Za-z]+(?:-[A-Za-z]+)?|\d+)(?![A-Za-z0-9'])")
_SPOKEN_GAP = re.compile(r"(?=[^\s,]*[\s,])[\s,.-]+")  # a space or a comma: "HP-2046" is written, not spoken
_LETTERS_DIGITS = re.compile(r"(?<![\w-])([A-Z]{1,3})\s+(\d{3,6})(?![\w-])")
# a letter and a digit, then a group of digits ("r2 941", "l4 dash 118"); six digits read as two
# groups of three ("771 203", "the ID's 772 019")
_PAIR_THEN_DIGITS = re.compile(r"(?<![\w-])([A-Za-z]{1,2}\d{1,2})(?:\s+(?:dash|hyphen)\s+|\s+)(\d{2,4})(?![\w-])")
# a code read out in pairs ("H7 Q1 B6", "K7 P2 QD"): three groups of two capitals or digits, with
# letters and digits both at least twice
_PAIRS = re.compile(r"(?<![\w-])([A-Z0-9]{2}(?:\s[A-Z0-9]{2}){2})(?![\w-])")
_GROUPED_DIGITS = re.compile(r"(?<![\w-])(\d{3})\s(\d{3})(?![\w-])")


def _spelled(word: str) -> str:
    """The character a word spells in a code ("bravo" b, "seven" 7, "aitch" h), or ""."""
    return NATO.get(word) or DIGIT_WORDS.get(word) or LETTER_NAMES.get(word) or ""


def _code_char(word: str) -> bool:
    return bool(_spelled(word) or len(word) == 1 or word.isdigit())


def _homophone_digit(text: str, word: str, following: str, tokens: List["re.Match"], index: int) -> bool:
    """Whether a recognizer's "for", "to" inside a spelled code is the digit ("d nine nine for
    one", "h j seven to to one"): "for" before a character said alone, not before a count ("... for
    two people") or a name; "to" only doubled ("move KS 9 0 0 2 to two pm" is a time)."""
    after_next = tokens[index + 2].group(0).lower() if index + 2 < len(tokens) else ""
    previous = tokens[index - 1].group(0).lower() if index else ""
    if word != "for":
        return following in ("to", "too") or previous in ("to", "too")
    if not following:
        return True
    alone = index + 2 >= len(tokens) or bool(_SPOKEN_GAP.fullmatch(text[tokens[index + 1].end():tokens[index + 2].start()]))
    return _code_char(following) and alone and not COUNTED.match(after_next)


def _spoken_codes(text: str) -> List[Mention]:
    """Codes spelled a character at a time in lowercase or in words, as a recognizer writes
    them: "b x 4 8 2 1", "bravo x-ray four eight two one" (four characters or more, letters
    and digits both); and "DQ 5590", letters then digits."""
    found: List[Mention] = []
    run: List[Tuple[str, "re.Match"]] = []

    def close() -> None:
        # "a", "I" start sentences, not codes, unless a letter follows ("the reference is a b 1 1 2 2")
        while run and run[0][1].group(0).lower() in ("a", "i") and not (len(run) > 1 and run[1][0].isalpha()) and \
                not (run[0][1].group(0).lower() == "a" and _cued(text, run[0][1].start())):  # "member id a zero zero ..."
            run.pop(0)
        chars = "".join(c for c, _ in run)
        # three characters said one by one, or letters then a group of digits ("kl 1187", "m 55019")
        grouped = len(run) == 2 and run[0][0].isalpha() and run[1][0].isdigit() and len(run[1][0]) >= 3
        # ... or a number said a digit at a time after its cue ("member id four four one nine oh two")
        first = run[0][1].start() if run else 0
        before = re.search(r"[A-Za-z]+\s*$", text[:first]) if run and len(run[0][0]) == 2 else None  # "fifty five"
        digits = chars.isdigit() and (len(run) >= 4 or len(chars) >= 5) and \
            (_cued(text, first) or before is not None and _cued(text, before.start()))
        if len(chars) >= 4 and (len(run) >= 3 or grouped or digits) and (any(c.isdigit() for c in chars) and
                                                               any(c.isalpha() for c in chars) or digits):
            found.append(Mention(chars.upper(), run[0][1].start(), run[-1][1].end(),
                                 text[run[0][1].start():run[-1][1].end()]))
        run.clear()

    position = 0
    tokens = list(_SPOKEN_TOKEN.finditer(text))
    skip = -1
    for index, m in enumerate(tokens):
        word = m.group(0).lower()
        if word in FILLERS and run:
            position = m.end()  # "M, uh, six two, zero, eight, three"
            continue
        if word in SPOKEN_DASH and run:
            position = m.end()  # "m dash six two zero zero three"
            continue
        following = tokens[index + 1].group(0).lower() if index + 1 < len(tokens) else ""
        after_next = tokens[index + 2].group(0).lower() if index + 2 < len(tokens) else ""
        if word == "double" and following in ("u", "you") and _SPOKEN_GAP.fullmatch(text[m.end():tokens[index + 1].start()]):
            continue  # "double u kay ...": the letter w, said in two words
        ahead = index + 2 if word == "as" and following == "in" else index + 1
        spelled = tokens[ahead].group(0).lower() if word in ("like", "as", "for") and ahead < len(tokens) else ""
        if spelled and run and len(run[-1][0]) == 1 and run[-1][0].isalpha() and spelled[:1] == run[-1][0] \
                and len(spelled) > 2:
            skip = ahead  # "M like Mexico", "R as in Rome": the word only spells the letter said
            continue
        if index <= skip:
            position = m.end()
            continue
        if word in ("double-u", "double-you") or (word in ("u", "you") and index and
                                                  tokens[index - 1].group(0).lower() == "double"):
            char = "w"
        elif word == "oh":
            # "oh" is the letter o next to a letter ("oh ar six", "double-u oh four"), else the digit 0
            after = following if following in SOUNDALIKE_LETTERS else \
                (_spelled(following) or following)
            before = run[-1][0] if run and _SPOKEN_GAP.fullmatch(text[position:m.start()]) else ""
            letter_next = bool(after) and after[:1].isalpha() and following not in WORD_PAIRS
            char = "o" if (before.isalpha() or (not before and letter_next)) else "0"
        elif word == "double" and _code_char(following):
            char = None  # "double tee 6 1 5 7": the next character twice
            doubled = _spelled(following) or following
            if len(doubled) == 1 and _SPOKEN_GAP.fullmatch(text[m.end():tokens[index + 1].start()]):
                if run and not _SPOKEN_GAP.fullmatch(text[position:m.start()]):
                    close()
                run.append((doubled, m))
                position = m.end()
                continue
        elif m.group(0).isupper() and len(word) == 2 and m.group(0) not in CAPS_WORDS:
            char = word  # "EF 5537": two capitals written are two letters, not the name of one
        elif word in HOMOPHONE_DIGITS and run and _SPOKEN_GAP.fullmatch(text[position:m.start()]) and \
                _homophone_digit(text, word, following, tokens, index):
            char = HOMOPHONE_DIGITS[word]  # a recognizer's "d nine nine for one", "h j seven to to one"
        elif (run or _cued(text, m.start())) and (word in TEENS or word in TENS):
            char = TEENS.get(word) or TENS[word] + "0"  # "k l s forty six": 46
            unit = DIGIT_WORDS.get(following) if word in TENS and following != "oh" else None
            if unit not in (None, "0") and _SPOKEN_GAP.fullmatch(text[m.end():tokens[index + 1].start()]):
                char, skip = TENS[word] + unit, index + 1
        else:
            char = _spelled(word) or (word if len(word) == 1 or word.isdigit() else None)
        after = tokens[index + 2].group(0).lower() if index + 2 < len(tokens) else ""
        # "are jay 4 6 6 0", "see why four four ...": a soundalike starts a code a letter and a character follow
        starts = not run and bool(LETTER_NAMES.get(following) or NATO.get(following) or
                                  (following in SOUNDALIKE_LETTERS and _code_char(after)))
        if char is None and word in SOUNDALIKE_LETTERS and (starts or run and _SPOKEN_GAP.fullmatch(text[position:m.start()])
                                                            and (_code_char(following) or following in SPOKEN_DASH)):
            char = SOUNDALIKE_LETTERS[word]  # "tee are eight one ...", "zed why three ...", not "... 9 0 are you"
        if char in ("a", "i") and run and following and not _code_char(following) and following not in SPOKEN_DASH:
            char = None  # "M 6 3 0 5 8, I keep forgetting": the word, not a last letter
        if char is None and len(word) == 2 and word.isalpha() and word not in WORD_PAIRS:
            close()
            char = word  # a letter pair starts a code ("LM 4 0 2 2")
        if char is None or (run and not _SPOKEN_GAP.fullmatch(text[position:m.start()])):
            close()
        if char is not None:  # a number said in two words ends with its second
            run.append((char, tokens[skip] if skip == index + 1 and char[:1].isdigit() and len(char) == 2 else m))
        position = run[-1][1].end() if char is not None else m.end()
    close()
    for m in _LETTERS_DIGITS.finditer(text):
        mention = Mention(m.group(1) + m.group(2), m.start(), m.end(), m.group(0))
        if m.group(1) not in CAPS_WORDS and _free(mention, found):  # "ID 6002" is the number 6002
            found.append(mention)
    for m in list(_PAIR_THEN_DIGITS.finditer(text)) + list(_GROUPED_DIGITS.finditer(text)):
        mention = Mention(f"{m.group(1).upper()}{m.group(2)}", m.start(), m.end(), m.group(0))
        if _free(mention, found) and (m.re is _PAIR_THEN_DIGITS or _cued(text, m.start()) or _ID_NAMED.search(text)):
            found.append(mention)
    return found


def find_codes(text: str) -> List[Mention]:
    """Booking codes, member numbers: "K7P2QD", "F-1001", "AAAAAA", spelled "K 7 P 2 Q D",
    "b x 4 8 2 1", "bravo x-ray four eight two one", and "DQ 5590"."""
    found = [m for m in _spoken_codes(text)]
    for m in _PAIRS.finditer(text):
        joined = m.group(1).replace(" ", "")
        mention = Mention(joined, m.start(), m.end(), m.group(0))
        if sum(c.isdigit() for c in joined) >= 2 and sum(c.isalpha() for c in joined) >= 2 and _free(mention, found):
            found.append(mention)
    for m in _SPELLED.finditer(text):
        spelled = m.group(1)
        if re.match(r"\s+[a-z]", text[m.end():]):
            spelled = re.sub(r",\s*[AI]$", "", spelled)  # "code G-E-5-8-1-V, I need to know": the word I
        joined = re.sub(r"[\s,.-]", "", spelled)
        mention = Mention(joined, m.start(), m.start(1) + len(spelled), spelled)
        if (any(c.isdigit() for c in joined) or len(joined) >= 4) and _free(mention, found):
            found.append(mention)
    for m in _CODE.finditer(text):
        token = m.group(1)
        bare = token.replace("-", "")
        if not 4 <= len(bare) <= 12 or token.upper() in CAPS_WORDS:
            continue
        has_digit = any(c.isdigit() for c in bare)
        has_alpha = any(c.isalpha() for c in bare)
        # a word in capitals only after a code's cue ("code AAAAAA"): "CANCEL booking UJ-8873",
        # "on YOUR end" are shouted words
        coded = (has_digit and has_alpha) or (token.isupper() and has_alpha and _cued(text, m.start())) \
            or ("-" in token and has_digit) or _numbered(text, m.start(), bare)
        if coded and not re.fullmatch(r"\d{1,2}(am|pm)", bare, re.I):
            mention = Mention(token.upper(), m.start(), m.end(), token)
            if _free(mention, found):
                found.append(mention)
    return sorted([m for m in found if not _spells_a_word(text, m)], key=lambda x: x.start)


def _spells_a_word(text: str, mention: Mention) -> bool:
    """Letters only, spelling a word said elsewhere or after a name's cue: a name spelled out
    ("Brown, B-R-O-W-N", "the name is N-G-U-Y-E-N"), not a code."""
    rest = text[:mention.start] + " " + text[mention.end:]
    said = {w.upper() for w in re.findall(r"[A-Za-z]+", rest)}
    spelled_apart = re.search(r"[A-Za-z][\s.-]+[A-Za-z][\s.-]+[A-Za-z]", mention.text)
    if not str(mention.value).isalpha():
        # the name spelled, then a count ("Name's Olsen, O L S E N, three tickets")
        head = re.match(r"[A-Za-z]{3,}(?=\d+$)", str(mention.value))
        return bool(head and spelled_apart and head.group(0).upper() in said)
    if spelled_apart and spelled_as_a_name(text, mention.start):
        return True
    return str(mention.value).upper() in said


# a number is an id, not a count, when it is long ("77201") or named one ("ID 6002", "number 4411")
_ID_CUE = re.compile(r"(?:\b(?:id|number|no|code|membership|member|card|pass|booking|reservation|ref|reference)|#)\W{0,3}"
                     r"(?:is\s+|was\s+)?$", re.I)


# an id named anywhere ("The ID's 772 019", "my membership card ... 771 203")
_ID_NAMED = re.compile(r"\b(?:id|number|membership|member|card|code|reference|ref)\b", re.I)


def _cued(text: str, start: int) -> bool:
    return bool(_ID_CUE.search(text[max(0, start - 24):start]))


def _numbered(text: str, start: int, bare: str) -> bool:
    return bare.isdigit() and (len(bare) >= 5 or _cued(text, start))
