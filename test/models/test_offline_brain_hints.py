"""The offline brain on requests around words that would mislead it (the real sentence encoder):
a request ruled out by name beside the one asked for, a stop in plain or beginners' words, a
request of the visitor's own after talk about someone else, a request asked in one clause of a
long ramble, thanks among small talk, a smart speaker's words, a booking given up without the
word "cancel"."""

import pytest

from test_offline_brain import brain, converse, museum, said  # noqa: F401 (brain is a fixture)


@pytest.mark.parametrize("text", ["Don't cancel anything, just look up my booking please — Ferreira, code QP4471.",
                                  "Not refund, only tell me what's on booking QP4471 under Ferreira."])
def test_a_request_ruled_out_by_name_is_not_made(brain, text):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert not ex.calls("cancel_booking") and not ex.calls("refund_booking")
    assert [c.args for c in ex.calls("get_booking")] == [{"name": "Ferreira", "code": "QP4471"}]


@pytest.mark.parametrize("text", ["Let's just leave it there.", "Oh, we've changed our minds about all that.",
                                  "Hold on, I don't need that any more.", "no, I change mind, nothing", "wait, not need",
                                  "Oh, don't do that after all."])
def test_a_stop_in_plain_or_beginners_words_is_a_stop(brain, text):  # noqa: F811
    assert brain.policy.understanding.pattern(text) == "stop"


def test_a_booking_wanted_after_talk_about_someone_else_is_made(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["my nephew says he wants to be an astronaut, bless him, anyway we'd like to book "
                         "the space tour at eleven, two tickets, name Haddad"])
    [book] = ex.calls("book_tickets")
    assert (book.args["tickets"], book.args["name"]) == (2, "Haddad")


def test_a_walk_asked_in_one_clause_of_a_ramble_is_taken(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["my aunt's been sat on that bench for ages and I told her I'd ask you, since that's "
                         "what you're for, isn't it, so could you take us both to the gift shop, she's not quick"])
    assert [w.args for w in ex.calls("navigate_to")] == [{"place": "gift_shop"}]


def test_thanks_among_small_talk_is_thanks(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["oh brilliant, thank you so much, the children are delighted, that's the afternoon sorted"])
    assert said(ex) == [next(i.say for i in brain.cfg.intents if i.name == "thanks")]


@pytest.mark.parametrize("text, tool, args", [
    ("OK robot, navigate to the gift shop.", "navigate_to", {"place": "gift_shop"}),
    ("Robot, delete my booking, code QP4471, name Ferreira.", "cancel_booking", {"name": "Ferreira", "code": "QP4471"}),
])
def test_a_smart_speakers_words_are_the_request(brain, text, tool, args):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert [c.args for c in ex.calls(tool)] == [args]


def test_a_tour_given_a_miss_is_a_cancellation(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["We'll have to give it a miss, sorry, booking QP4471 under Ferreira."])
    assert [c.args for c in ex.calls("cancel_booking")] == [{"name": "Ferreira", "code": "QP4471"}]



@pytest.mark.parametrize("text, entry", [("The toilets are on this floor, aren't they?", "toilets"),
                                         ("There's wifi for visitors, isn't there?", "wifi"),
                                         ("Under-fives get in free, right?", "tickets")])
def test_a_fact_checked_with_a_tag_question_is_answered(brain, text, entry):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert said(ex) == [next(e.answer.strip() for e in brain.faq if e.id == entry)]


def test_a_remark_about_what_was_seeking_agreement_is_not_a_question(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["The dinosaur tour was brilliant, wasn't it?"])
    assert said(ex) == [brain.cfg.fallback]
