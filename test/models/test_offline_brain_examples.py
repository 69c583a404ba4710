"""The offline brain with its example memory (the real sentence encoder, the shipped
config/offline_examples.npz), in whole turns: what the rules alone could not place is placed,
with its arguments; chat and things elsewhere that the rules took for a request or an FAQ
question get the honest answer, and so when nearly all of a wider circle call such words chat
(not a question the memory never holds as asked, nor a place said alone); a question the rules took for another request is the one meant;
a vote that is not unanimous, a fallback a rule chose, a where-question (still a walk), a
driver's own tool and a meaning whose tool is down are left alone. Each case is also run with the memory taken away,
so the test shows the memory is what decides."""

import contextlib
import logging

import numpy as np
import pytest

from phanthy_agent.brains.offline.examples import write, ExampleMemory
from test_offline_brain import brain, converse, museum, said  # noqa: F401 (brain is a fixture)


@contextlib.contextmanager
def rules_only(brain):  # noqa: F811
    memory, brain.policy.examples = brain.policy.examples, None
    try:
        yield brain
    finally:
        brain.policy.examples = memory


def test_the_shipped_memory_is_loaded_from_the_intents_file(brain):  # noqa: F811
    assert brain.cfg.examples_file == "offline_examples.npz"
    assert len(brain.policy.examples) > 10000 and brain.policy.examples.model == brain.understanding.encoder.name


@pytest.mark.parametrize("text", ["wagwan, mi card M-12345 still good?", "yo bot, M-12345, am I still in?"])
def test_what_the_rules_cannot_place_is_placed_by_what_visitors_meant(brain, text):  # noqa: F811
    with rules_only(brain):  # the rules alone give up or ask "did you mean ...?"
        ex = museum()
        converse(brain, ex, [text])
        assert not ex.calls("lookup_membership")
    ex = museum()
    converse(brain, ex, [text])
    [call] = ex.calls("lookup_membership")
    assert call.args == {"member_id": "M-12345"}


@pytest.mark.parametrize("text, rules_say", [
    ("Please take one picture of me and my sister with your camera.", "photography"),
    ("Not about the space gallery — who invented the telephone?", "space_gallery"),
    ("where can I buy nappies round here, we've run out", None),  # the rules walk to the entrance
])
def test_chat_and_things_elsewhere_the_rules_took_for_the_venues_get_the_honest_answer(brain, text, rules_say):  # noqa: F811
    with rules_only(brain):
        ex = museum()
        converse(brain, ex, [text])
        if rules_say:
            assert said(ex) == [next(e.answer.strip() for e in brain.faq if e.id == rules_say)]
        else:
            assert ex.calls("navigate_to")
    ex = museum()
    converse(brain, ex, [text])
    assert said(ex) == [brain.cfg.fallback] and not ex.calls("navigate_to")


@pytest.mark.parametrize("text, rules_say", [
    ("No, the dinosaurs first, we do the space gallery after lunch.", None),  # the rules walk to the gallery
    ("Are you starving? Or we could wait till lunch.", "cafe"),
    ("Where is the Polish shop, you know, with Polish food?", None),  # all seven chat: not the way to the gift shop
])
def test_chat_most_of_the_wider_circle_call_chat_gets_the_honest_answer(brain, text, rules_say):  # noqa: F811
    vote = brain.policy.examples.vote(brain.understanding.vector(text, {}))
    assert vote.mostly_chat and not vote.refuses  # not all five nearest: the wider circle decides
    test_chat_and_things_elsewhere_the_rules_took_for_the_venues_get_the_honest_answer(brain, text, rules_say)


@pytest.mark.parametrize("text, entry, tool", [
    ("Is the gift shop still open?", "gift_shop", None),  # the memory's authors had no such answer to give
    ("loo", None, "navigate_to"),  # a place said alone: the way there
])
def test_what_the_wider_circle_of_chat_does_not_take_over(brain, text, entry, tool):  # noqa: F811
    assert brain.policy.examples.vote(brain.understanding.vector(text, {})).mostly_chat
    ex = museum()
    converse(brain, ex, [text])
    assert entry is None or said(ex) == [next(e.answer.strip() for e in brain.faq if e.id == entry)]
    assert tool is None or ex.calls(tool)


def test_a_fallback_a_rule_chose_is_not_overruled(brain, caplog):  # noqa: F811
    # said to someone else (a rule), though the memory's nearest are all walks there
    text = "okay everybody, wait here by the cafe"
    ex = museum()
    with caplog.at_level(logging.INFO):
        converse(brain, ex, [text])
    assert said(ex) == [brain.cfg.fallback] and not ex.calls("navigate_to")
    assert "is like what visitors meant" not in caplog.text


def own_memory(encoder, tmp_path, texts, labels):
    write(tmp_path / "own.npz", encoder.name, encoder.encode(texts), labels, ["own"] * len(texts), dims=8)
    return ExampleMemory.load(tmp_path / "own.npz")


def test_a_meaning_whose_tool_is_down_is_not_placed_and_a_split_vote_changes_nothing(brain, tmp_path):  # noqa: F811
    text = "yo bot, M-12345, am I still in?"
    encoder = brain.understanding.encoder
    said_before = [f"yo bot, M-{n}, am I still in?" for n in range(1, 9)]
    split = own_memory(encoder, tmp_path, said_before, ["membership", "thanks"] * 4)
    vote = split.vote(brain.understanding.vector(text, {}))
    assert vote.label == "" and not (vote.places or vote.refuses or vote.mostly_chat)
    memory = brain.policy.examples
    try:
        brain.policy.examples = split
        ex = museum()
        converse(brain, ex, [text])
        assert not ex.calls("lookup_membership") and said(ex) == [brain.cfg.fallback]
        brain.policy.examples = memory
        ex = museum(box_office=False)  # the box office is down: no membership lookup to place it as
        converse(brain, ex, [text])
        with rules_only(brain):
            alone = museum(box_office=False)
            converse(brain, alone, [text])
        assert said(ex) == said(alone) and not ex.calls("lookup_membership")
    finally:
        brain.policy.examples = memory


def test_a_vote_is_by_the_encoders_vectors(brain):  # noqa: F811
    """The memory's projection keeps the neighbours the encoder's own vectors have (a sanity
    check that the shipped file matches the running model, not only its name)."""
    memory = brain.policy.examples
    vectors = brain.understanding.encoder.encode(["where are the toilets please", "what time do you close today"])
    points = (vectors - memory.mean) @ memory.projection
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    labels = [memory.labels[memory.label[int(np.argmax(memory.vectors @ p))]] for p in points]
    assert labels[0] in ("navigate", "faq:toilets") and labels[1] == "faq:opening_hours"


@pytest.mark.parametrize("text, entry", [
    ("How much is a coffee in your café? I'm not paying six pounds again.", "cafe"),  # the rules walk there
    ("yo how long is the t rex from head to tail", "t_rex"),  # the rules walk to the hall
])
def test_a_question_the_rules_took_for_another_request_is_what_visitors_meant(brain, text, entry):  # noqa: F811
    with rules_only(brain):
        ex = museum()
        converse(brain, ex, [text])
        assert ex.calls("navigate_to")
    ex = museum()
    converse(brain, ex, [text])
    assert said(ex) == [next(e.answer.strip() for e in brain.faq if e.id == entry)] and not ex.calls("navigate_to")


@pytest.mark.parametrize("text, tool", [
    ("Where are the toilets?", "navigate_to"),  # the memory's authors wrote the toilets' answer: still a walk
    ("how much are the tours", "list_tours"),  # the day's tours with their prices, not the admission prices
    ("Add a new tour at eight pm called Night tour with 50 seats for free.", None),  # a driver's own tool: the rules'
])
def test_what_the_memory_does_not_take_over(brain, text, tool):  # noqa: F811
    with rules_only(brain):
        ex = museum()
        converse(brain, ex, [text])
        alone = [(s.tool, s.args) for s in ex.started], said(ex)
    ex = museum()
    converse(brain, ex, [text])
    assert ([(s.tool, s.args) for s in ex.started], said(ex)) == alone
    assert tool is None or ex.calls(tool)
