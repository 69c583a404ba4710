"""Where reply text may be cut for speech, pure (no ROS, no audio): sentence and clause
boundaries.

- `split_sentences(text)`: the chunks the speaker synthesizes one after the other (the first
  audio comes as soon as the first chunk is synthesized; the rest is synthesized while it plays).
- `complete_sentences(text)`: the leading sentences of text still being written that are
  certainly complete (another word follows them), so the agent can start saying them while the
  model writes the rest; `unspoken(reply, said)`: what is left to say once they were said.
"""

from __future__ import annotations

import re
from typing import List, Tuple


ABBREVIATIONS = frozenset("""mr mrs ms dr prof st sr jr mt vs etc e.g i.e eg ie no nos approx ca
cf fig figs jan feb mar apr jun jul aug sep sept oct nov dec inc ltd co corp dept est min max
a.m p.m am pm""".split())
_CLOSERS = "\"')]}»”’"
_SENTENCE_END = re.compile(r"(?:[.!?…]+|\.\.\.)[" + re.escape(_CLOSERS) + r"]*$")
_CLAUSE_END = re.compile(r"(?:[,;:]|[—–])[" + re.escape(_CLOSERS) + r"]*$")
_DASH_TOKENS = frozenset({"-", "--", "—", "–"})


def _ends_sentence(token: str) -> bool:
    if not _SENTENCE_END.search(token):
        return False
    core = token.rstrip(_CLOSERS)
    if core.endswith(("!", "?", "…", "...")):
        return True
    word = core[:-1].lstrip("\"'([{«“‘").lower()  # without the final period
    if word in ABBREVIATIONS or len(word) <= 1:  # "Dr.", "e.g.", an initial "T."
        return False
    if re.fullmatch(r"(?:[a-z]\.)+[a-z]", word):  # "U.S.", "a.m."
        return False
    return True


def _tokens(text: str) -> List[Tuple[str, bool]]:
    """Whitespace-separated tokens, each with: is a line break before it."""
    out = []
    last_end = 0
    for m in re.finditer(r"\S+", text):
        out.append((m.group(0), "\n" in text[last_end:m.start()]))
        last_end = m.end()
    return out


def split_sentences(text: str, max_chars: int = 150, first_max_chars: int = 80,
                    min_chars: int = 20, first_clause: bool = True) -> List[str]:
    """Cut `text` into the chunks synthesized one by one. The rule:

    1. Sentences: a token ending in . ! ? or … (closing quotes/brackets allowed after it) ends a
       sentence, except after an abbreviation ("Dr.", "e.g.", "St."), an initial ("T.") or a
       dotted acronym ("U.S."); a line break also ends one.
    2. A sentence longer than `max_chars` (the very first chunk: `first_max_chars`, so the first
       audio comes fast; Piper's time to first audio grows with the sentence) is cut after
       clause punctuation (, ; : or a dash), keeping every piece at least `min_chars` long, and
       otherwise as long as possible within the limit. A clause still longer than 2 × max_chars
       is cut at word boundaries.
    3. With `first_clause`, the very first chunk ends at the first clause punctuation when the
       sentence goes on after it ("Sure," | "let me help."): Piper's time to the first audio
       grows with the chunk ("Sure," takes about half the time of "Sure, let me help.": 86 vs
       196 ms on one thread here, 40 vs 105 on two), and a pause at a comma is where a speaker
       would pause anyway.

    Words are never cut or altered: " ".join(chunks).split() == text.split().
    """
    tokens = _tokens(text)
    sentences: List[List[str]] = []
    current: List[str] = []
    for token, line_break in tokens:
        if line_break and current:
            sentences.append(current)
            current = []
        current.append(token)
        if _ends_sentence(token):
            sentences.append(current)
            current = []
    if current:
        sentences.append(current)
    chunks: List[str] = []
    if first_clause and sentences:
        head = _first_clause(sentences[0])
        if head:
            chunks.append(" ".join(head))
            sentences[0] = sentences[0][len(head):]
    for words in sentences:
        first_limit = first_max_chars if not chunks else max_chars
        chunks.extend(_split_long(words, first_limit, max_chars, min_chars))
    return chunks


def _first_clause(words: List[str]) -> List[str]:
    """The words up to the first clause break, if the sentence goes on after it; else []."""
    for i, word in enumerate(words[:-1]):
        if _is_clause_break(word):
            return words[:i + 1]
    return []


def _is_clause_break(word: str) -> bool:
    return bool(_CLAUSE_END.search(word)) or word in _DASH_TOKENS


def _split_long(words: List[str], first_limit: int, limit: int, min_chars: int) -> List[str]:
    if len(" ".join(words)) <= first_limit:
        return [" ".join(words)]
    clauses: List[List[str]] = [[]]
    for i, word in enumerate(words):
        clauses[-1].append(word)
        if _is_clause_break(word) and i < len(words) - 1:
            clauses.append([])
    pieces: List[List[str]] = []
    for clause in clauses:
        if pieces:
            piece_limit = first_limit if len(pieces) == 1 else limit
            if (len(" ".join(pieces[-1])) < min_chars
                    or len(" ".join(pieces[-1] + clause)) <= piece_limit):
                pieces[-1].extend(clause)
                continue
        pieces.append(list(clause))
    if len(pieces) > 1 and len(" ".join(pieces[-1])) < min_chars:  # no tiny tail
        tail = pieces.pop()
        pieces[-1].extend(tail)
    out: List[str] = []
    for piece in pieces:
        out.extend(_cut_words(piece, 2 * limit))
    return out


def _cut_words(words: List[str], hard_max: int) -> List[str]:
    out: List[List[str]] = [[]]
    for word in words:
        if out[-1] and len(" ".join(out[-1] + [word])) > hard_max:
            out.append([])
        out[-1].append(word)
    return [" ".join(p) for p in out if p]


def complete_sentences(text: str) -> str:
    """The longest start of `text`, text still being written, that ends with a complete
    sentence: one that another word already follows ("Sure. The ha" -> "Sure."), so neither an
    abbreviation still being typed ("Dr" of "Dr.") nor a sentence end that is really a
    decimal point ("3." of "3.5") is taken for one. A line break ends a sentence too.
    "" when there is none yet."""
    cut = 0
    matches = list(re.finditer(r"\S+", text))
    for i, match in enumerate(matches[:-1]):
        following = matches[i + 1]
        if _ends_sentence(match.group(0)) or "\n" in text[match.end():following.start()]:
            cut = match.end()
    return text[:cut]


def unspoken(content: str, spoken: str) -> str:
    """What is left to say of the reply `content` once `spoken` (its start) was said; all of
    it when it does not start that way (a fallback brain answered instead)."""
    if spoken and content.startswith(spoken):
        return content[len(spoken):].strip()
    return content.strip()


def bound_speech(text: str, max_chars: int) -> str:
    """At most `max_chars` of `text` to say: whole sentences when the first fits, else whole
    words, else a hard cut (a reply of one 1 MB "word")."""
    if max_chars <= 0 or len(text) <= max_chars:
        return text
    head = text[:max_chars + 1]  # the character after the limit tells whether a word ends there
    sentences = complete_sentences(head)
    if sentences.strip():
        return sentences.rstrip()
    words = head[:head.rfind(" ")] if " " in head.strip() else ""
    return (words or text[:max_chars]).rstrip()
