"""Lexical retrieval: BM25 (Okapi, `rank-bm25`) over short texts, with the tokenizer it needs.

The second signal next to sentence embeddings (`phanthy_common.embedding`): embeddings know that
"loo" and "toilets" mean the same; BM25 knows that "meteorite" was said, word for word, even
when the embedding of the whole sentence drifts. `LexicalIndex(texts).scores(query)` gives one
score per text (0 when no content word is shared).

Tokens: lowercase words without stopwords, with a crude stemming (toilets -> toilet,
opening -> open, galleries -> gallery), so question variants need not repeat word forms.
"""

from __future__ import annotations

import re
from typing import Iterable, List, Optional, Sequence

import numpy as np
from rank_bm25 import BM25Okapi

# words every request shares, which carry no topic
STOPWORDS = frozenset("""a an the is are was be am do does did can could would will should may might
i im me my we us our you your it its this that these there here of to in on at for from with and
or any some something anything anywhere somewhere what whats where wheres when how which who why
please hi hello tell about get got go goes have has had use need want like know many much ok okay
yes no just really today now see find look show give make take let lets""".split())


def tokenize(text: str, stopwords: Iterable[str] = STOPWORDS) -> List[str]:
    """Content words of `text`, crudely stemmed (see the module docstring)."""
    stop = stopwords if isinstance(stopwords, (set, frozenset)) else set(stopwords)
    out = []
    for word in re.findall(r"[a-z0-9]+", text.lower().replace("'", "")):
        if word in stop:
            continue
        if len(word) > 5 and word.endswith("ing"):
            word = word[:-3]
        elif len(word) > 4 and word.endswith("ies"):
            word = word[:-3] + "y"
        elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


class LexicalIndex:
    """BM25 over a fixed list of texts. Texts with no content word get no document (score 0)."""

    def __init__(self, texts: Sequence[str], stopwords: Iterable[str] = STOPWORDS):
        self.stopwords = frozenset(stopwords)
        self.size = len(texts)
        docs = [tokenize(t, self.stopwords) for t in texts]
        self._rows = [i for i, d in enumerate(docs) if d]
        self._bm25: Optional[BM25Okapi] = BM25Okapi([docs[i] for i in self._rows]) if self._rows else None

    def scores(self, query: str) -> np.ndarray:
        """One BM25 score per text (float64, 0 where nothing matched)."""
        out = np.zeros(self.size)
        tokens = tokenize(query, self.stopwords)
        if self._bm25 is not None and tokens:
            out[self._rows] = self._bm25.get_scores(tokens)
        return out
