"""Grounded generation: what the robot says about a point, with every claim citing the
sentences it comes from, and the check that throws away anything whose citations do not hold.

The offline generator says the cited sentence itself (one short lead-in, the sentence, where to
find it), so what it says is the document's. Whatever writes the text (this, or a model), the
check is the same: at most three sentences, every cited id resolves, the documents' value is in
the cited sentences and in the text, and no number in the text is missing from the cited
sentences. An utterance that fails it is discarded, never said.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from typing import List, Optional, Sequence, Tuple

from phanthy_common.sentences import split_sentences

from .documents import DocumentLibrary, Sentence
from .monitor import Finding, Label
from .quantities import extract, same_value
from .repair import states_value

MAX_SENTENCES = 3
ABSTENTION = "That isn't covered in the exhibit's documents."
LEAD_INS = {
    Label.WRONG: ("Just a small correction: ", "Sorry to jump in, but ", "Actually, "),
    Label.MISATTRIBUTION: ("Small correction: ", "Sorry to jump in: ", "Actually, "),
    Label.GAP: ("If it helps: ", "By the way, ", "To answer that: "),
}
_NO_LIMIT = 10**9


@dataclasses.dataclass(frozen=True)
class Draft:
    kind: str  # gap | wrong | misattribution | answer | abstain
    claim: str
    text: str
    citations: Tuple[str, ...]


def _pick(options: Sequence[str], key: str) -> str:
    digest = int(hashlib.sha1(key.encode("utf-8")).hexdigest()[:8], 16)
    return options[digest % len(options)]


def _lower_first(text: str) -> str:
    """'Her heart ...' -> 'her heart ...' after a lead-in (names keep their capital)."""
    first = text.split(" ", 1)[0]
    if first in ("I",) or (len(first) > 1 and first[1:].lower() != first[1:]):
        return text
    common = re.fullmatch(r"(The|A|An|Her|His|Its|It|She|He|They|Their|In|At|On|One|Our|Each|Every|"
                          r"When|Blue|Giant|Woolly|Adult|Scientists|Visitors|Nobody|This|These|Its)", first)
    return text[0].lower() + text[1:] if common else text


def where(library: DocumentLibrary, sentence: Sentence) -> str:
    document = library.documents.get(sentence.document)
    title = document.title if document else sentence.document
    return f"It's in {title}, under {sentence.section}." if sentence.section else f"It's in {title}."


class TemplateGenerator:
    """The offline generator: the cited sentence, said with a lead-in."""

    name = "offline"

    def __init__(self, library: DocumentLibrary):
        self.library = library

    def draft(self, finding: Finding) -> Optional[Draft]:
        cited = self.library.resolve(finding.citations[:1])
        if not cited:
            return None
        sentence = cited[0]
        lead = _pick(LEAD_INS.get(finding.label, ("",)), finding.key)
        body = lead + (_lower_first(sentence.text) if lead else sentence.text)
        parts = [body]
        citations = [sentence.id]
        if finding.label is Label.MISATTRIBUTION and finding.related:
            other = self.library.get(finding.related[0])
            document = self.library.documents.get(other.document) if other else None
            if other is not None and document is not None:
                parts.append(f"{finding.said} belongs to {document.title}.")
                citations.append(other.id)
        else:
            parts.append(where(self.library, sentence))
        return Draft(finding.label.value, finding.claim, " ".join(parts), tuple(citations))

    def answer(self, question: str, finding: Optional[Finding]) -> Draft:
        """A direct question: the answer sentence, or the fixed abstention."""
        if finding is None or finding.label is not Label.GAP:
            return Draft("abstain", question, ABSTENTION, ())
        cited = self.library.resolve(finding.citations[:1])
        if not cited:
            return Draft("abstain", question, ABSTENTION, ())
        return Draft("answer", question, f"{cited[0].text} {where(self.library, cited[0])}", (cited[0].id,))


def check(draft: Draft, library: DocumentLibrary, finding: Optional[Finding] = None) -> Optional[str]:
    """Why the draft must be discarded, or None when it may be said."""
    if draft.kind == "abstain":
        return None if draft.text == ABSTENTION else "an abstention must be the fixed sentence"
    if not draft.text.strip():
        return "empty text"
    if not draft.citations:
        return "no citation"
    sentences = library.resolve(draft.citations)
    if sentences is None:
        missing = [c for c in draft.citations if library.get(c) is None]
        return f"citations do not resolve: {', '.join(missing)}"
    pieces = split_sentences(draft.text, max_chars=_NO_LIMIT, first_max_chars=_NO_LIMIT, first_clause=False)
    if len(pieces) > MAX_SENTENCES:
        return f"{len(pieces)} sentences (at most {MAX_SENTENCES})"
    cited = " ".join(s.text for s in sentences)
    cited_values = extract(cited)
    for said in extract(draft.text):
        if not any(same_value(said, q) for q in cited_values):
            return f"{said.text!r} is in none of the cited sentences"
    if finding is not None and (finding.value is not None or finding.aliases):
        if not states_value(finding, cited):
            return f"the cited sentences do not hold {finding.correct!r}"
        if not states_value(finding, draft.text):
            return f"the text does not say {finding.correct!r}"
    return None


def evidence(library: DocumentLibrary, citations: Sequence[str]) -> List[str]:
    return [s.text for s in (library.resolve(citations) or [])]
