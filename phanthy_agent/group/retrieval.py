"""Which document sentences a turn is about: sentence-embedding retrieval with a lexical second
signal, over every sentence of the library.

`HybridRetriever` encodes every sentence once (the shared encoder, `phanthy_common.embedding`)
and scores a query by cosine similarity plus a share of its BM25 score
(`phanthy_common.lexical`), normalized by the best BM25 score of that query: embeddings know
that "how heavy" and "weighed" go together; BM25 knows that "krill" was said word for word.
The stages downstream see only the `Retriever` protocol, so their tests can hand-build hits.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
from typing import Callable, Collection, List, Optional, Protocol

import numpy as np

from .documents import DocumentLibrary, Sentence

log = logging.getLogger(__name__)

LEXICAL_WEIGHT = 0.25  # the BM25 share next to the cosine (both about 0..1)


@dataclasses.dataclass(frozen=True)
class Hit:
    sentence: Sentence
    score: float  # fused: cosine + LEXICAL_WEIGHT * normalized BM25
    dense: float = 0.0  # cosine similarity
    lexical: float = 0.0  # BM25 / the query's best BM25 (0..1)


class Retriever(Protocol):
    library: DocumentLibrary

    def search(self, text: str, k: int = 5, documents: Optional[Collection[str]] = None) -> List[Hit]:
        """The k best sentences for `text` (only of `documents` when given), best first."""
        ...

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of two texts (0 when unrelated)."""
        ...


class HybridRetriever:
    def __init__(self, library: DocumentLibrary, encoder=None,
                 lexical_factory: Optional[Callable] = None, cache_size: int = 256):
        if encoder is None:
            from phanthy_common.embedding import shared_encoder
            encoder = shared_encoder()
        if lexical_factory is None:
            from phanthy_common.lexical import LexicalIndex
            lexical_factory = LexicalIndex
        self.library = library
        self.encoder = encoder
        texts = [s.text for s in library.sentences]
        self._matrix = encoder.encode(texts) if texts else np.zeros((0, encoder.dim), dtype=np.float32)
        self._lexical = lexical_factory(texts)
        self._doc_of = np.array([s.document for s in library.sentences], dtype=object)
        self._cache: "collections.OrderedDict[str, np.ndarray]" = collections.OrderedDict()
        self._cache_size = cache_size

    def embed(self, text: str) -> np.ndarray:
        vector = self._cache.get(text)
        if vector is None:
            vector = self.encoder.encode([text])[0]
            self._cache[text] = vector
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(text)
        return vector

    def search(self, text: str, k: int = 5, documents: Optional[Collection[str]] = None) -> List[Hit]:
        if not self.library.sentences or not text.strip():
            return []
        dense = self._matrix @ self.embed(text)
        lexical = np.asarray(self._lexical.scores(text), dtype=np.float64)
        best = lexical.max() if lexical.size else 0.0
        lexical = lexical / best if best > 0 else lexical
        fused = dense + LEXICAL_WEIGHT * lexical
        if documents is not None:
            allowed = np.isin(self._doc_of, list(documents))
            fused = np.where(allowed, fused, -np.inf)
        order = np.argsort(-fused)[:k]
        return [Hit(self.library.sentences[i], float(fused[i]), float(dense[i]), float(lexical[i]))
                for i in order if np.isfinite(fused[i])]

    def similarity(self, a: str, b: str) -> float:
        return float(self.embed(a) @ self.embed(b))
