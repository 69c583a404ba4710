"""The offline brain's example memory (phanthy_agent/brains/offline/examples.py): a vote needs all
K nearest utterances to agree and to be near enough, or MOSTLY of the WIDE nearest to be chat, a file written is the file read, a set is
left out on request, a bad file or another model's memory is a clear outcome; and the shipped
memory is exactly the paraphrase sets it names."""

import logging
import pathlib
import sys
import types

import numpy as np
import pytest

from phanthy_agent.brains.offline import OfflineBrain
from phanthy_agent.brains.offline.config import load_faq
from phanthy_agent.brains.offline.examples import (CHAT_SIMILARITY, K, MOSTLY, PLACE_SIMILARITY, REFUSE_SIMILARITY,
                                                   WIDE, ExampleMemory, Vote, write)

ROOT = pathlib.Path(__file__).resolve().parents[2]
AXES = np.eye(8, dtype=np.float32)


def cloud(axis, n, rng):
    """n unit vectors close to one axis."""
    points = AXES[axis] + 0.05 * rng.standard_normal((n, 8)).astype(np.float32)
    return points / np.linalg.norm(points, axis=1, keepdims=True)


@pytest.fixture
def memory(tmp_path):
    rng = np.random.default_rng(7)
    vectors = np.vstack([cloud(0, 10, rng), cloud(1, 10, rng), cloud(2, 3, rng), cloud(3, 3, rng)])
    labels = ["off_topic"] * 10 + ["membership"] * 10 + ["faq:cafe"] * 3 + ["navigate"] * 3
    sets = ["a"] * 5 + ["b"] * 5 + ["a"] * 10 + ["b"] * 6
    write(tmp_path / "memory.npz", "test-model", vectors, labels, sets, dims=6)
    return ExampleMemory.load(tmp_path / "memory.npz")


def test_a_memory_written_is_read_back_with_its_labels_sets_and_model(memory):
    assert (len(memory), memory.model) == (26, "test-model")
    assert sorted(memory.labels) == ["faq:cafe", "membership", "navigate", "off_topic"]
    assert memory.sets == ["a", "b"]
    assert memory.vectors.shape == (26, 6)


def test_the_k_nearest_agreeing_is_the_vote(memory):
    vote = memory.vote(AXES[1])
    assert vote.label == "membership" and vote.similarity > 0.9
    assert memory.vote(AXES[0]).label == "off_topic"


def test_neighbours_that_disagree_or_a_vector_with_no_direction_give_no_vote(memory):
    mixed = AXES[2] + AXES[3]  # three cafe questions and three walks nearest: no K agree
    vote = memory.vote(mixed / np.linalg.norm(mixed))
    assert (vote.label, vote.similarity, vote.chat) == ("", 0.0, 0.0)
    assert not (vote.refuses or vote.places or vote.relabels or vote.mostly_chat)
    assert memory.vote(None) is None
    assert memory.vote(memory.mean) is None  # the centre itself: nothing is nearer than anything


def test_a_memory_smaller_than_the_wider_circle_never_votes(tmp_path):
    rng = np.random.default_rng(1)
    write(tmp_path / "small.npz", "m", cloud(0, WIDE - 1, rng), ["thanks"] * (WIDE - 1), ["a"] * (WIDE - 1), dims=4)
    assert ExampleMemory.load(tmp_path / "small.npz").vote(AXES[0]) is None


@pytest.mark.parametrize("chat_rows, mostly", [(MOSTLY, True), (MOSTLY - 1, False)])
def test_mostly_chat_needs_that_many_of_the_wider_circle_off_topic(tmp_path, chat_rows, mostly):
    rng = np.random.default_rng(3)
    # the chat rows nearest the axis, the requests a little further off it, more of them elsewhere
    near = cloud(4, chat_rows, rng)
    further = AXES[4] + 0.3 * AXES[5]
    others = np.tile(further / np.linalg.norm(further), (WIDE, 1))
    vectors = np.vstack([near, others, cloud(6, 10, rng)])
    labels = ["off_topic"] * chat_rows + ["book"] * WIDE + ["thanks"] * 10
    write(tmp_path / "circle.npz", "m", vectors, labels, ["a"] * len(labels), dims=7)
    vote = ExampleMemory.load(tmp_path / "circle.npz").vote(AXES[4])
    assert vote.mostly_chat is mostly
    assert (vote.chat > 0.9) is mostly
    assert not vote.places  # chat places no request


def test_a_set_left_out_no_longer_votes(memory):
    assert memory.vote(AXES[1]).label == "membership"  # all ten membership rows are set a's
    without_a = memory.without(["a"])
    assert len(without_a) == 11 and len(memory) == 26  # the memory itself is unchanged
    left = without_a.vote(AXES[1])
    assert left is None or left.label != "membership"
    assert without_a.vote(AXES[0]).label == "off_topic"  # set b's five off-topic rows still vote
    assert memory.without(["no such set"]).vote(AXES[1]).label == "membership"


@pytest.mark.parametrize("label, similarity, refuses, places", [
    ("off_topic", REFUSE_SIMILARITY, True, False),
    ("off_topic", REFUSE_SIMILARITY - 0.01, False, False),
    ("membership", PLACE_SIMILARITY, False, True),
    ("membership", PLACE_SIMILARITY - 0.01, False, False),
    ("unknown:navigate", 0.99, False, False),  # the rules already say the venue has no such place
])
def test_a_vote_refuses_or_places_only_when_near_enough(label, similarity, refuses, places):
    vote = Vote(label, similarity)
    assert (vote.refuses, vote.places) == (refuses, places)


def test_mostly_chat_only_when_the_chat_is_near_enough():
    assert Vote("", 0.0, CHAT_SIMILARITY).mostly_chat
    assert not Vote("", 0.0, CHAT_SIMILARITY - 0.01).mostly_chat
    assert not Vote("off_topic", 0.99).mostly_chat  # the unanimous vote is `refuses`, not this


def test_a_file_that_is_not_a_memory_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match="bad.npz: not an example memory"):
        ExampleMemory.load(bad)
    with pytest.raises(ValueError, match="missing.npz: not an example memory"):
        ExampleMemory.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "partial.npz", model=np.array("m"), mean=np.zeros(8))
    with pytest.raises(ValueError, match="partial.npz: not an example memory"):
        ExampleMemory.load(tmp_path / "partial.npz")


class OtherEncoder:
    """Not the model the memory was made with (every text on the same axis)."""
    name, dim = "some-other-model", 8

    def encode(self, texts):
        return np.tile(AXES[0], (len(texts), 1))


def test_a_memory_made_with_another_model_is_not_used(memory, caplog):
    faq = [{"id": "cafe", "questions": ["where is the cafe?"], "answer": "Ground floor."}]
    with caplog.at_level(logging.WARNING):
        brain = OfflineBrain({"intents": []}, faq, encoder=OtherEncoder(), examples=memory)
    assert brain.policy.examples is None
    assert "made with test-model, not some-other-model: not used" in caplog.text
    assert OfflineBrain({"intents": []}, faq, encoder=None, examples=memory).policy.examples is None


def test_the_shipped_memory_is_the_sets_it_names_row_for_row():
    sys.path.insert(0, str(ROOT / "bench"))
    from example_memory import memory_sets  # noqa: E402 (bench/ is not a package)
    from offline_brain import CONFIG, load_set  # noqa: E402
    shipped = ExampleMemory.load(CONFIG / "offline_examples.npz")
    faq = types.SimpleNamespace(faq=load_faq(CONFIG / "faq.yaml"))
    names = memory_sets()
    assert names[0] == "blind88" and shipped.sets == names
    for index, name in enumerate(names):
        rows = shipped.set_of == index
        meant = [shipped.labels[i] for i in shipped.label[rows]]
        assert meant == [case.expect for case in load_set(name, faq)], f"{name} changed: rebuild the memory"


def test_a_label_is_placed_only_as_a_meaning_the_venue_has_now():
    from phanthy_agent.brains.offline.config import load_intents
    from phanthy_agent.brains.offline.examples import meaning_of
    cfg = load_intents({"intents": [{"name": "thanks", "act": "thanks", "examples": ["thank you"]},
                                    {"name": "membership", "tool": "lookup_membership", "examples": ["my membership"]}]})
    intents = {i.name: i for i in cfg.intents}
    faq = load_faq([{"id": "cafe", "questions": ["where is the cafe?"], "answer": "Ground floor."},
                    {"id": "wifi", "questions": ["is there wifi?"], "answer": "Yes."}])
    up = {"lookup_membership": {}, "water_plants": {}}
    assert (meaning_of("faq:wifi", intents, faq, up).kind, meaning_of("faq:wifi", intents, faq, up).key) == ("faq", "1")
    assert meaning_of("faq:parking", intents, faq, up) is None  # no such entry here
    assert meaning_of("thanks", intents, faq, {}).key == "thanks"  # an act needs no tool
    assert meaning_of("membership", intents, faq, up).kind == "intent"
    assert meaning_of("membership", intents, faq, {}) is None  # its tool is down
    assert meaning_of("water_plants", intents, faq, up).kind == "tool"  # a driver's tool, no intent
    assert meaning_of("book", intents, faq, up) is None
