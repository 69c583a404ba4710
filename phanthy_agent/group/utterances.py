"""What a turn is, in words: a question (and what kind of answer it wants), an admission of not
knowing, a retraction, and its content words. Pure text rules, no model.

Answer types: "how heavy" wants a mass, "how long" a length or a duration, "when" a calendar
year, "how many teeth" a count of teeth, "where" a place, "who" a person ... A question whose
answer type is known can only be answered by a sentence that holds a value of that type: the
guard that keeps the robot from answering "how much was it insured for" with the price.
"""

from __future__ import annotations

import dataclasses
import re
from typing import FrozenSet, Optional, Tuple

from phanthy_common.lexical import STOPWORDS

from .quantities import UNITS, singular

# what people say before the question itself ("hmm how heavy is it", "so um, when was it
# found"): a recognizer drops the question mark and the commas, so the words must do
FILLERS = r"(?:so|and|but|hey|hmm+|hm+|mm+|um+|uh+|er+|erm|ah+|huh|well|wait|oh|okay|ok|now|right|like)"
WH_START = re.compile(rf"^(?:{FILLERS}[\s,]+)*"
                      r"(what|what's|whats|when|where|who|who's|whom|whose|which|why|how|is|are|was|were|"
                      r"do|does|did|can|could|has|have|had|will|would)\b", re.IGNORECASE)
TAG_QUESTION = re.compile(r"\b(do you know|any idea|i wonder|wonder how|wonder what|wonder when|"
                          r"wonder where|wonder who|wonder why)\b", re.IGNORECASE)
NOT_KNOWING = re.compile(r"\b(i don'?t know|i do not know|no idea|not sure|no clue|dunno|i can'?t remember|"
                         r"i forget|i have no idea|good question|who knows|beats me|hard to say)\b",
                         re.IGNORECASE)
RETRACTION = re.compile(r"\b(no,? wait|wait,? no|sorry,? (?:i|that)|i was wrong|i'?m wrong|my mistake|"
                        r"i mixed (?:it|that|them) up|mixed up|scratch that|i take (?:it|that) back|"
                        r"that'?s not right|that was wrong|that'?s wrong|actually,? no|no,? actually|"
                        r"i misremembered|i got (?:it|that) wrong|i confused|that was the|that'?s the other)\b",
                        re.IGNORECASE)
# words that say what kind of answer a question wants, and the answer types they ask for
TYPE_RULES: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    (r"\bhow long ago\b|\bhow many years ago\b", ("ago",)),
    (r"\bhow often\b|\bhow frequently\b", ("duration",)),
    (r"\bhow (?:heavy|much (?:does|did|do|would|could) (?:\w+ ){0,3}weigh)|\bwhat (?:does|did|do) (?:\w+ ){0,4}weigh|"
     r"\bhow much (?:\w+ ){0,2}(?:weigh|weight)|\bweight\b|\bweigh(?:s|ed)?\b", ("mass",)),
    (r"\bhow (?:long|much time) (?:does|did|do|will|would) (?:\w+ ){0,4}(?:take|last|need)|"
     r"\bhow long (?:did|does|do|was|were|had|has|have) (?:\w+ ){0,3}(?:take|last|live|swing|go|lie|stay)|"
     r"\bhow long ago\b", ("duration", "ago")),
    (r"\bhow long (?:is|was|are|were)\b", ("length", "duration")),
    (r"\bhow (?:long|tall|high|big|wide|deep|far|large|short)\b|\bwhat (?:size|depth|height|length)\b|"
     r"\bhow much (?:\w+ ){0,2}(?:long|tall)", ("length",)),
    (r"\bwhen did (?:\w+ ){0,3}(?:live|die|exist)\b|\bhow long ago\b", ("ago", "year", "age")),
    (r"\bhow old\b|\bwhat age\b", ("age", "ago", "year")),
    (r"\bwhen\b|\bwhat year\b|\bwhich year\b|\bwhat date\b", ("year", "ago")),
    (r"\bhow fast\b|\bwhat speed\b", ("speed",)),
    (r"\bhow hot\b|\bhow cold\b|\bwhat temperature\b", ("temperature",)),
    (r"\bhow much (?:\w+ ){0,5}(?:cost|pay|paid|price|spend|spent|worth)|\bhow much money\b|\bwhat (?:did|does) (?:\w+ ){0,3}cost",
     ("money",)),
    (r"\bhow much (?:liquid|water|fluid)|\bhow many litres|\bhow much does (?:\w+ ){0,3}hold", ("volume",)),
    (r"\bwhat (?:percent|percentage|share)\b", ("percent",)),
    (r"\bhow much\b", ("mass", "volume")),
    (r"\bhow strong\b|\bwhat force\b|\bhow hard (?:\w+ ){0,2}bite", ("force",)),
    (r"\bwhere\b|\bwhich (?:country|place|island|river|city|desert|mine)\b", ("place",)),
    (r"\bwho\b|\bwhose\b|\bwhat (?:was )?(?:his|her|the) name\b|\bwhich (?:person|scientist|man|woman)\b",
     ("person",)),
)
HOW_MANY = re.compile(r"\bhow many (?:(?:of )?(?:the |its |his |her |their )?)(\w+)(?:\s+(\w+))?", re.IGNORECASE)
UNIT_WORDS = frozenset("""years months weeks days hours minutes seconds metres meters kilometres
kilograms kilos tonnes tons litres liters""".split())
# content words that only say what kind of answer is wanted, not what it is about
TYPE_WORDS = frozenset("""heavy weigh weight long tall high big wide deep far large short old age
year when fast speed hot cold temperature much many cost pay paid price worth money percent
percentage strong force hard where who whose name size take took last time ago stand stands stood
measure measures measured height length""".split())
# words a question or claim shares with any sentence of an exhibit: they say nothing of its topic
GENERIC = frozenset("""think thought guess really actually wow huh yeah right mean sure pretty
maybe probably apparently read sign says said panel kind sort thing stuff one bit lot whole
believe remember heard he she they him them his her hers their theirs sorry wait idea good hmm
question wonder okay oh no yes did does do between among during into onto out upon via""".split())
IRREGULAR = {"found": "find", "teeth": "tooth", "ate": "eat", "grew": "grow", "dug": "dig",
             "caught": "catch", "laid": "lay", "stood": "stand", "took": "take", "went": "go",
             "made": "make", "built": "build", "fell": "fall", "saw": "see", "led": "lead",
             "died": "die", "lived": "live", "flew": "fly", "swam": "swim", "bought": "buy",
             "brought": "bring", "kept": "keep", "held": "hold", "hung": "hang", "gave": "give",
             "children": "child", "people": "person", "feet": "foot", "mice": "mouse"}
# a few words people use for what a document says otherwise (the coverage check is word for word)
SYNONYMS = {"discover": "find", "discovered": "find", "spot": "find", "spotted": "find", "unearth": "find",
            "unearthed": "find", "locate": "find", "located": "find", "dig": "find", "dug": "find",
            "pay": "buy", "paid": "buy", "donate": "give", "donated": "give", "get": "give", "got": "give",
            "construct": "make", "constructed": "build", "built": "build", "install": "put",
            "installed": "put", "place": "put", "placed": "put", "assemble": "put", "assembled": "put",
            "show": "open", "shown": "open", "showed": "open", "opened": "open", "big": "size", "large": "size"}
_UNIT_WORDS = frozenset(w for unit in UNITS for w in unit.split())
# the lexical stopwords minus verbs that say what happened ("found", "made", "took")
_STOP = (STOPWORDS - {"find", "make", "take", "see", "show", "give", "use", "look", "go", "goes"}) | GENERIC



ASPECT_WORDS = {"long": "long", "tall": "tall", "high": "tall", "deep": "deep", "depth": "deep",
                "wide": "wide", "big": "", "far": "far"}


def aspect_wanted(text: str) -> str:
    """The direction a length question asks for ("how tall" -> tall), "" when any will do."""
    m = re.search(r"\b(?:how|what) (long|tall|high|deep|wide|far|depth)\b", text.lower())
    return ASPECT_WORDS.get(m.group(1), "") if m else ""


@dataclasses.dataclass(frozen=True)
class Utterance:
    text: str
    is_question: bool
    answer_types: Tuple[str, ...]  # what a question wants (empty: unknown, or not a question)
    not_knowing: bool  # "I don't know", "no idea": never closes an open point
    retraction: bool  # "no wait, I mixed it up": takes back what was just said
    content: FrozenSet[str]  # content words (stemmed), without type words

    @property
    def wants(self) -> str:
        return self.answer_types[0] if self.answer_types else ""


def answer_types(text: str) -> Tuple[str, ...]:
    lowered = text.lower()
    many = HOW_MANY.search(lowered)
    if many:
        thing = many.group(1)
        if thing in UNIT_WORDS:
            return ("duration",) if thing in ("years", "months", "weeks", "days", "hours", "minutes",
                                              "seconds") else ()
        return (f"count:{singular(thing)}", "count")
    found = [(m.start(), order, types) for order, (pattern, types) in enumerate(TYPE_RULES)
             for m in [re.search(pattern, lowered)] if m]
    # the question's own wh-phrase decides: "how hot was it when it landed" wants a temperature
    return min(found)[2] if found else ()


def is_question(text: str) -> bool:
    stripped = text.strip()
    if stripped.endswith("?"):
        return True
    if TAG_QUESTION.search(stripped):
        return True
    first_clause = re.split(r"[,.;!]", stripped, maxsplit=1)[0] if "," not in stripped[:12] else stripped
    return bool(WH_START.match(first_clause)) and not stripped.endswith("!")


def stem(word: str) -> str:
    """A crude stem good enough to tell that two texts speak of the same thing: irregular forms
    mapped, common endings cut, at most 6 letters ("stranded" and "strand", "found" and "find")."""
    word = SYNONYMS.get(IRREGULAR.get(word, word), IRREGULAR.get(word, word))
    for ending in ("ing", "ed", "es", "s"):
        if len(word) > len(ending) + (2 if ending == "s" else 3) and word.endswith(ending) and not word.endswith("ss"):
            word = word[:-len(ending)]
            if ending in ("ing", "ed") and len(word) > 2 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # "digging" -> "dig", "stopped" -> "stop" ("falling" keeps "fall")
            word = SYNONYMS.get(word, word)  # "digging" -> "dig" -> "find"
            break
    return word[:6]


_TYPE_STEMS = frozenset(stem(w) for w in TYPE_WORDS)


def content_words(text: str) -> FrozenSet[str]:
    words = re.findall(r"[a-z]+", text.lower().replace("'s", "").replace("'", ""))
    out = set()
    for word in words:
        if len(word) <= 2 or word in _STOP or word in _UNIT_WORDS:
            continue
        stemmed = stem(word)
        if stemmed not in _TYPE_STEMS:
            out.add(stemmed)
    return frozenset(out)


def analyse(text: str) -> Utterance:
    question = is_question(text)
    return Utterance(text=text, is_question=question, answer_types=answer_types(text) if question else (),
                     not_knowing=bool(NOT_KNOWING.search(text)), retraction=bool(RETRACTION.search(text)),
                     content=content_words(text))


def coverage(words: FrozenSet[str], sentence_words: FrozenSet[str]) -> float:
    """Share of `words` the sentence has (1.0 when there are none to cover)."""
    if not words:
        return 1.0
    return len(words & sentence_words) / len(words)


def type_matches(wanted: str, dimension: str) -> bool:
    """Does a value of `dimension` (a quantity's, or an entity kind) answer type `wanted`?"""
    if wanted == "count":
        return dimension.startswith("count:")
    return wanted == dimension


def mentions_of_type(types: Tuple[str, ...], dimension: str) -> Optional[str]:
    return next((t for t in types if type_matches(t, dimension)), None)
