"""The exhibit's documents, cut into numbered sentences that interventions cite.

A document is a Markdown or plain-text file (PDF through `pypdf` when it is installed: one
section per page). Its name is the file's stem (`blue_whale.md` -> `blue_whale`); its sentences
are numbered from 1 in reading order, headings excluded, so a sentence id `<document>:<n>`
(`blue_whale:5`) stays the same as long as the text before it does. Each sentence keeps its
document, its section (the Markdown heading above it, or `page N`) and its text, verbatim.
`digest` (a short hash of the text) lets a display tell when a cited id no longer points at
the text it was cited for (the document changed since).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import pathlib
import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from phanthy_common.sentences import split_sentences

log = logging.getLogger(__name__)

MAX_DOCUMENT_CHARS = 2_000_000  # a document bigger than this is cut (logged): bounded memory
_NO_LIMIT = 10**9


@dataclasses.dataclass(frozen=True)
class Sentence:
    id: str  # "<document>:<n>"
    document: str
    index: int  # 1-based, in reading order
    section: str
    text: str

    @property
    def digest(self) -> str:
        return hashlib.sha1(self.text.encode("utf-8")).hexdigest()[:10]


@dataclasses.dataclass(frozen=True)
class Document:
    name: str
    title: str
    path: str
    sentences: Tuple[Sentence, ...]

    def sections(self) -> List[Tuple[str, List[Sentence]]]:
        """The sentences grouped by section, in order (for display)."""
        out: List[Tuple[str, List[Sentence]]] = []
        for sentence in self.sentences:
            if not out or out[-1][0] != sentence.section:
                out.append((sentence.section, []))
            out[-1][1].append(sentence)
        return out


class DocumentError(ValueError):
    """A document that cannot be read (missing, unreadable, empty)."""


def split_document(name: str, text: str, title: str = "") -> Document:
    """Markdown or plain text -> a Document. Headings (`#`, `##`, ...) name the sections; the
    first level-1 heading is the title; blank lines end paragraphs; list markers are dropped."""
    if len(text) > MAX_DOCUMENT_CHARS:
        log.warning("document %s has %d characters: only the first %d are used", name, len(text),
                    MAX_DOCUMENT_CHARS)
        text = text[:MAX_DOCUMENT_CHARS]
    section = ""
    sentences: List[Sentence] = []
    paragraph: List[str] = []

    def flush() -> None:
        joined = " ".join(paragraph).strip()
        paragraph.clear()
        if not joined:
            return
        for piece in split_sentences(joined, max_chars=_NO_LIMIT, first_max_chars=_NO_LIMIT,
                                     first_clause=False):
            piece = piece.strip()
            if piece:
                sentences.append(Sentence(f"{name}:{len(sentences) + 1}", name, len(sentences) + 1,
                                          section, piece))

    for raw in text.splitlines():
        line = raw.strip()
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        if heading:
            flush()
            label = heading.group(2).strip().strip("#").strip()
            if len(heading.group(1)) == 1 and not title:
                title = label
            else:
                section = label
            continue
        if not line:
            flush()
            continue
        paragraph.append(re.sub(r"^(?:[-*+]|\d+[.)])\s+", "", line))
    flush()
    return Document(name, title or name.replace("_", " "), "", tuple(sentences))


def _read_pdf(path: pathlib.Path) -> str:
    try:
        from pypdf import PdfReader
    except ImportError:
        raise DocumentError(f"{path}: reading PDF needs the package pypdf (pip install pypdf)") from None
    try:
        pages = PdfReader(str(path)).pages
        return "\n\n".join(f"## page {n}\n\n{page.extract_text() or ''}" for n, page in enumerate(pages, 1))
    except Exception as exc:  # pypdf raises many kinds on broken files
        raise DocumentError(f"{path}: not a readable PDF ({exc})") from None


def load_document(path: pathlib.Path, name: Optional[str] = None) -> Document:
    if not path.is_file():
        raise DocumentError(f"document {path} not found")
    if path.suffix.lower() == ".pdf":
        text = _read_pdf(path)
    else:
        try:
            text = path.read_bytes().decode("utf-8", errors="replace")
        except OSError as exc:
            raise DocumentError(f"cannot read document {path}: {exc}") from None
    document = split_document(name or path.stem, text)
    if not document.sentences:
        raise DocumentError(f"document {path} has no sentences")
    return dataclasses.replace(document, path=str(path))


class DocumentLibrary:
    """Every sentence of the configured documents, by id and in order."""

    def __init__(self, documents: Sequence[Document]):
        names = [d.name for d in documents]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise DocumentError(f"two documents share the name {', '.join(duplicates)} (file stems must differ)")
        self.documents: Dict[str, Document] = {d.name: d for d in documents}
        self.sentences: List[Sentence] = [s for d in documents for s in d.sentences]
        self._by_id: Dict[str, Sentence] = {s.id: s for s in self.sentences}
        self.position: Dict[str, int] = {s.id: i for i, s in enumerate(self.sentences)}

    @classmethod
    def load(cls, paths: Iterable[pathlib.Path]) -> "DocumentLibrary":
        return cls([load_document(pathlib.Path(p)) for p in paths])

    @classmethod
    def from_texts(cls, texts: Dict[str, str]) -> "DocumentLibrary":
        """For tests and tools: {name: markdown}."""
        return cls([split_document(name, text) for name, text in texts.items()])

    def get(self, sentence_id: str) -> Optional[Sentence]:
        return self._by_id.get(sentence_id)

    def resolve(self, ids: Iterable[str]) -> Optional[List[Sentence]]:
        """The sentences of these ids, or None when any id does not resolve."""
        found = [self._by_id.get(i) for i in ids]
        return None if any(s is None for s in found) else found  # type: ignore[return-value]

    def of_document(self, name: str) -> List[Sentence]:
        document = self.documents.get(name)
        return list(document.sentences) if document else []

    def __len__(self) -> int:
        return len(self.sentences)
