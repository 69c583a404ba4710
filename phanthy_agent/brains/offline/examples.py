"""What visitors said before, and what they meant: a memory of labelled utterances, read by
their nearest neighbours.

The encoder ranks an utterance against the intents file's own phrasings (understanding.py) and
the rules tell close meanings apart (choice.py, policy.py). Both were written for the sentences
read while writing them; a new kind of sentence (a new accent, a chat between visitors, a thing
described instead of named) falls between them. The memory holds thousands of utterances
written apart from the brain's files, each with what its author said it meant (the paraphrase
sets of `bench/`, up to the set `bench/example_memory.py` names), and votes by the K closest:
- all K off-topic (and near enough): what the rules took for a request or a question is taken for chat that asks
  nothing of the robot ("we shud of booked the tour online"): the honest fallback;
- all K one request, question or act (and near enough): what the rules could not place is that ("Is my yearly
  subscription still running? ID M-71236" is the membership lookup), its arguments read from
  the words as ever (a request missing one asks for it); and what the rules took for another
  request or question is that one, when the K are nearer still ("How much is a coffee in your
  cafe? I'm not paying six pounds again" asks about the cafe, not the way there), but never a
  greeting, thanks, goodbye or stop in place of a request, and a where-question stays a walk.
- nearly all of a wider circle off-topic (MOSTLY of the WIDE nearest, and near enough): what the
  rules took for a request or a question is chat all the same ("Okay so after the dinosaurs we'll
  find somewhere to sit"), but not a request said in its own verb or with its details, nor the
  way somewhere unless all the circle is chat ("Where is the Polish shop, with Polish food?"),
  nor a question on a topic the memory never holds as asked (the gift shop's hours: its authors
  had no such answer to give, so wrote them as off-topic), nor whether the venue has a thing
  (reading.py).
Anything less leaves the rules' answer alone.

Measured on sets kept out of the memory (bench/README.md, fourteenth round).

File (`examples_file:` in the intents file, next to it): a NumPy `.npz` with
- `model`: the encoder's name (a memory made with another model is not used: logged);
- `mean` (D), `projection` (D x d): the encoder's vectors are centred and projected to d
  dimensions (principal components of the memory's own vectors) to keep the file small;
- `vectors` (N x d, int8): each utterance's projected vector, scaled to int8 (the vote is by
  cosine, which the scaling does not change);
- `labels` (L strings), `label` (N): what each utterance means, as the benchmarks name it (an
  intent, a tool, `faq:<id>`, `unknown:<intent>`, `off_topic`);
- `sets` (S strings), `set` (N): the set each came from (`without` leaves sets out, so that a
  set is measured against a memory that never saw it).
Pure: NumPy only, no ROS, no model of its own.
"""

from __future__ import annotations

import dataclasses
import pathlib
from typing import Dict, Iterable, List, Optional, Sequence, Union

import numpy as np

from .config import FaqEntry, Intent
from .understanding import Meaning


K = 5  # neighbours that vote; a label needs all of them
OFF_TOPIC = "off_topic"
# how close the K-th neighbour must be (cosine, projected), chosen with each set of the memory
# left out in turn and on the sets before it (bench/README.md, fourteenth round): the most
# understood with at most 3 % of off-topic accepted on both; refusing from 0.50 would refuse a
# few of the venue's own questions in its own words ("where can I spend a penny?"), placing from
# 0.50 takes "blah blah blah" for a goodbye
REFUSE_SIMILARITY = 0.60
PLACE_SIMILARITY = 0.55
RELABEL_SIMILARITY = 0.60  # nearer than for placing: the rules had an answer
# the wider off-topic vote: MOSTLY of the WIDE nearest off-topic, the MOSTLY-th of them this near
# (simulated on the memory's sets each left out and on wave R, bench/README.md, sixteenth round)
WIDE, MOSTLY, CHAT_SIMILARITY = 7, 6, 0.50


@dataclasses.dataclass(frozen=True)
class Vote:
    label: str  # what all K neighbours mean ("": they differ)
    similarity: float  # the K-th neighbour's cosine similarity (0.0: they differ)
    chat: float = 0.0  # the MOSTLY-th nearest off-topic neighbour's among the WIDE nearest (0.0: fewer)
    chats: int = 0  # how many of the WIDE nearest are off-topic

    @property
    def refuses(self) -> bool:
        """The neighbours are all chat or things elsewhere, near enough to say so."""
        return self.label == OFF_TOPIC and self.similarity >= REFUSE_SIMILARITY

    @property
    def all_chat(self) -> bool:
        """All of the wider circle are chat or things elsewhere, near enough to say so."""
        return self.mostly_chat and self.chats == WIDE

    @property
    def mostly_chat(self) -> bool:
        """Nearly all of the wider circle are chat or things elsewhere, near enough to say so."""
        return self.chat >= CHAT_SIMILARITY

    @property
    def places(self) -> bool:
        """The neighbours all mean one thing the venue does, near enough to take it as that
        (not a place the venue lacks: `unknown:<intent>` is what the rules say anyway)."""
        return self.label not in ("", OFF_TOPIC) and not self.label.startswith("unknown:") and \
            self.similarity >= PLACE_SIMILARITY

    @property
    def relabels(self) -> bool:
        """The neighbours all mean one thing the venue does, near enough to take it over another
        meaning the rules chose."""
        return self.places and self.similarity >= RELABEL_SIMILARITY


class ExampleMemory:
    def __init__(self, model: str, mean: np.ndarray, projection: np.ndarray, vectors: np.ndarray,
                 labels: Iterable[str], label: np.ndarray, sets: Iterable[str] = (), set_of: Optional[np.ndarray] = None):
        self.model = str(model)
        self.mean = np.asarray(mean, dtype=np.float32)
        self.projection = np.asarray(projection, dtype=np.float32)
        rows = np.asarray(vectors, dtype=np.float32)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        self.vectors = rows / np.where(norms > 0, norms, 1.0)
        self.labels = [str(x) for x in labels]
        self.label = np.asarray(label, dtype=np.int64)
        self.sets = [str(x) for x in sets]
        self.set_of = np.asarray(set_of if set_of is not None else np.zeros(len(self.label)), dtype=np.int64)
        if not (len(self.vectors) == len(self.label) == len(self.set_of)):
            raise ValueError("example memory: vectors, labels and sets differ in length")
        if len(self.vectors) and (self.label.max() >= len(self.labels) or self.vectors.shape[1] != self.projection.shape[1]
                                  or self.projection.shape[0] != self.mean.shape[0]):
            raise ValueError("example memory: label indices or dimensions do not match")

    @classmethod
    def load(cls, path: Union[str, pathlib.Path]) -> "ExampleMemory":
        try:
            with np.load(pathlib.Path(path), allow_pickle=False) as data:
                return cls(str(data["model"]), data["mean"], data["projection"], data["vectors"],
                           data["labels"], data["label"], data["sets"], data["set"])
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path}: not an example memory ({exc})") from None

    def __len__(self) -> int:
        return len(self.vectors)

    def without(self, sets: Iterable[str]) -> "ExampleMemory":
        """The memory with the utterances of these sets left out (a set is measured apart)."""
        gone = {self.sets.index(s) for s in sets if s in self.sets}
        keep = ~np.isin(self.set_of, list(gone))
        kept = ExampleMemory.__new__(ExampleMemory)
        kept.__dict__.update(self.__dict__)
        kept.vectors, kept.label, kept.set_of = self.vectors[keep], self.label[keep], self.set_of[keep]
        return kept

    def vote(self, vector: Optional[np.ndarray]) -> Optional[Vote]:
        """How the utterances closest to this encoder vector vote, or None (no vector, or the
        memory is smaller than WIDE)."""
        if vector is None or len(self.vectors) < WIDE:
            return None
        point = np.einsum("i,ij->j", np.asarray(vector, dtype=np.float32) - self.mean, self.projection)
        norm = float(np.linalg.norm(point))
        if norm == 0.0:
            return None
        # einsum, not `@`: a BLAS matrix-vector product this size wakes OpenBLAS's threads, which
        # then spin for milliseconds on the other core after every step (bench/README.md)
        similarity = np.einsum("ij,j->i", self.vectors, point / norm)
        wide = np.argpartition(-similarity, WIDE - 1)[:WIDE]
        wide = wide[np.argsort(-similarity[wide])]
        off = [float(similarity[i]) for i in wide if self.labels[self.label[i]] == OFF_TOPIC]
        chat = off[MOSTLY - 1] if len(off) >= MOSTLY else 0.0
        labels = set(self.label[wide[:K]].tolist())
        if len(labels) != 1:
            return Vote("", 0.0, chat, len(off))
        return Vote(self.labels[labels.pop()], float(similarity[wide[K - 1]]), chat, len(off))


def meaning_of(label: str, intents: Dict[str, Intent], faq: Sequence[FaqEntry], tools: Dict[str, dict]) -> Optional[Meaning]:
    """The meaning a memory label names, if this venue has it now (its tools are up)."""
    kind, _, name = label.partition(":")
    if kind == "faq":
        entry = next((n for n, e in enumerate(faq) if e.id == name), None)
        return Meaning("faq", str(entry), 1.0) if entry is not None else None
    intent = intents.get(label)
    if intent is not None and (intent.act or intent.tools and all(t in tools for t in intent.tools)):
        return Meaning("intent", label, 1.0)
    return Meaning("tool", label, 1.0) if label in tools else None


def write(path: Union[str, pathlib.Path], model: str, vectors: np.ndarray, labels: List[str], sets: List[str],
          dims: int) -> None:
    """Make a memory file: the encoder's vectors of the utterances, what each means and the set
    each came from; the vectors are kept as their first `dims` principal components, in int8."""
    rows = np.asarray(vectors, dtype=np.float32)
    mean = rows.mean(axis=0)
    _, _, components = np.linalg.svd(rows - mean, full_matrices=False)
    projection = components[:dims].T.astype(np.float32)
    projected = (rows - mean) @ projection
    scale = np.abs(projected).max(axis=1, keepdims=True) / 127.0
    int8 = np.round(projected / np.where(scale > 0, scale, 1.0)).astype(np.int8)
    names, set_names = sorted(set(labels)), list(dict.fromkeys(sets))
    np.savez_compressed(pathlib.Path(path), model=np.array(model), mean=mean, projection=projection, vectors=int8,
                        labels=np.array(names), label=np.array([names.index(x) for x in labels], dtype=np.uint16),
                        sets=np.array(set_names), set=np.array([set_names.index(x) for x in sets], dtype=np.uint16))
