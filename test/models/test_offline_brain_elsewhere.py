"""The offline brain on somewhere else and the venue's own things in one utterance (the real
sentence encoder): a request for somewhere else with a remark on the venue after it, the buses
that serve the venue, a booking's code beside words of a refund elsewhere, politeness from
abroad, an errand asked before the words of an FAQ entry."""

import pytest

from test_offline_brain import brain, converse, museum, said  # noqa: F401 (brain is a fixture)


def answer_of(brain, entry):  # noqa: F811
    return next(e.answer.strip() for e in brain.faq if e.id == entry)


@pytest.mark.parametrize("text, reply", [
    # somewhere else asked for, a remark on the venue's own thing after it
    ("Where's the nearest chemist? Your gift shop doesn't sell plasters.", "elsewhere"),
    ("Can you take me to the nearest McDonald's? Your cafe is too posh for the kids.", "elsewhere"),
    ("Is there a hotel nearby? The tour finished later than we thought.", "elsewhere"),
    # an errand asked first, before the words of an FAQ entry
    ("Pay for my lunch, robot, I left my wallet at home", "missing_tool"),
    ("Go and get me a tea from the cafe and bring it back here", "missing_tool"),
    ("Could you tell the shop to hold a T. rex mug for me?", "missing_tool"),
])
def test_somewhere_else_or_an_errand_gets_its_honest_reply(brain, text, reply):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert said(ex) == [brain.cfg.template(reply)] and not ex.calls("navigate_to")


def test_somewhere_else_as_the_reason_for_a_question_about_the_venue_is_still_answered(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["Our hotel is miles away. What time does the museum close tonight?"])
    assert said(ex) == [answer_of(brain, "opening_hours")]


@pytest.mark.parametrize("text", ["Which buses stop near the museum?", "What bus takes us back to the station from here?",
                                  "Is there a bus stop close by?"])
def test_the_buses_that_serve_the_venue_are_answered_from_its_faq(brain, text):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert said(ex) == [answer_of(brain, "parking")]


@pytest.mark.parametrize("text", ["Which bus goes to the hospital?", "Where is the bus station?"])
def test_a_bus_elsewhere_is_not_the_venues(brain, text):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert said(ex) != [answer_of(brain, "parking")]


def test_a_booking_code_keeps_a_refund_the_venues(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["Refund, danke, code K7P2QD, name Lovelace"])
    assert said(ex)[0] != brain.cfg.template("elsewhere") and "refund" in said(ex)[0].lower()


@pytest.mark.parametrize("text, intent", [("Arrivederci, have a lovely afternoon", "goodbye"),
                                          ("Grazie mille, you were very helpful", "thanks")])
def test_politeness_from_abroad_is_understood(brain, text, intent):  # noqa: F811
    assert brain.policy.understanding.pattern(text) == intent or \
        brain.policy.understand(text, {}).kind == "act"


def test_a_number_elsewhere_is_no_booking_code(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["check my swimming pool membership please, number 55120"])
    assert not ex.calls("lookup_membership")
