"""Group-conversation test material: a small exhibit library and a retriever without a model
(word overlap), so the backbone's stages are tested on hand-built turns in the unit tier."""

from phanthy_agent.group.documents import DocumentLibrary
from phanthy_agent.group.retrieval import Hit
from phanthy_agent.group.utterances import content_words

WHALE = """# The Blue Whale

## The animal
The skeleton belonged to a female blue whale. She was 25 metres long when she died.
Her heart alone weighed about 180 kilograms. The tongue of a blue whale can weigh 2.7 tonnes.

## Discovery
The whale stranded near Wexford in 1891. A harbour pilot named Thomas Doyle reported the stranding.
"""
REX = """# Stan, the T. rex

## The animal
Stan measures 12 metres from nose to tail. Stan has 58 teeth.

## Discovery
Stan was found in South Dakota. The excavation was led by Peter Larson.
"""


def library() -> DocumentLibrary:
    return DocumentLibrary.from_texts({"whale": WHALE, "rex": REX})


class OverlapRetriever:
    """Retriever by shared content words (Jaccard, plus 0.4 for any shared word): no model."""

    def __init__(self, library: DocumentLibrary):
        self.library = library

    def _score(self, a: str, b: str) -> float:
        wa, wb = content_words(a), content_words(b)
        if not wa or not wb:
            return 0.0
        shared = len(wa & wb)
        return shared / len(wa | wb) + (0.4 if shared else 0.0)

    def search(self, text, k=5, documents=None):
        hits = [Hit(s, self._score(text, s.text), self._score(text, s.text)) for s in self.library.sentences
                if documents is None or s.document in documents]
        hits.sort(key=lambda h: -h.score)
        return hits[:k]

    def similarity(self, a, b):
        return self._score(a, b)
