"""The offline brain on who is spoken to and what is asked (the real sentence encoder): the robot
turned to after talk to family, a look-up that names no word of calling off, a stop with its
reason, endearments, the others' whereabouts, a word or the venue's history asked about, and
somewhere near the venue rather than in it."""

import pytest

from test_offline_brain import brain, converse, museum, said  # noqa: F401 (brain is a fixture)

NOT_ACTED_ON = ("fallback", "missing_tool", "elsewhere")


def line_of(brain, intent):  # noqa: F811
    return next(i.say for i in brain.cfg.intents if i.name == intent)


def not_acted_on(brain, ex):  # noqa: F811
    replies = [brain.cfg.fallback, brain.cfg.template("missing_tool"), brain.cfg.template("elsewhere")]
    return len(said(ex)) == 1 and said(ex)[0] in replies and not any(
        ex.calls(t) for t in ("navigate_to", "book_tickets", "get_booking", "cancel_booking", "list_tours"))


@pytest.mark.parametrize("text, tool, args", [
    ("Grandma, it's cancel, not change! Robot, cancel the booking for Ada Lovelace please, code K7P2QD.",
     "cancel_booking", {"name": "Ada Lovelace", "code": "K7P2QD"}),
    # the code read out to grandma before the robot is turned to
    ("Grandma, read the code out: K 7 P 2 Q D. Robot, can you see our booking? Name Ada Lovelace.",
     "get_booking", {"name": "Ada Lovelace", "code": "K7P2QD"}),
    ("Grandma, read the number on the card: F 1 0 0 1. Robot, check her membership please.",
     "lookup_membership", {"member_id": "F1001"}),
])
def test_the_robot_turned_to_after_talk_to_family_does_what_it_is_asked(brain, text, tool, args):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert [c.args for c in ex.calls(tool)] == [args]


def test_a_question_turned_to_the_robot_is_answered(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["Grandpa, ask if we can take photos! Go on. Oh, I'll ask. Robot, can we take photos?"])
    [reply] = said(ex)
    assert "photos" in reply and reply != brain.cfg.fallback


@pytest.mark.parametrize("text", ["Is my reservation still on? Name's Ada Lovelace, ref K7P2QD.",
                                  "I booked a tour online, name is Ada Lovelace, code K7P2QD",
                                  "Can you see my tickets? Reference K7P2QD, name Ada Lovelace."])
def test_a_look_up_with_no_word_of_calling_off_never_cancels(brain, text):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert [c.args for c in ex.calls("get_booking")] == [{"name": "Ada Lovelace", "code": "K7P2QD"}]
    assert not ex.calls("cancel_booking") and not ex.calls("refund_booking")


def test_a_cancellation_said_first_is_one_whatever_reason_follows(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["Cancel, please, the tour for Ada Lovelace, code K7P2QD, we must go to the airport."])
    assert ex.calls("cancel_booking") or said(ex)[-1].endswith("?")  # cancelled, or confirmed first
    assert not ex.calls("navigate_to") and not ex.calls("get_booking")


@pytest.mark.parametrize("text, intent", [("Hold on, stop, Jack isn't with us yet.", "stop"),
                                          ("Leave it, love, I'll sort it myself.", "stop"),
                                          ("Never mind, robot, my daughter already found it.", "stop"),
                                          ("Thanks ever so much, pet.", "thanks"), ("nice one robot", "thanks"),
                                          ("I must dash. Cheerio!", "goodbye"),
                                          ("I'll leave you to it, so long.", "goodbye"),
                                          ("What jobs have they got you doing?", "help"),
                                          ("Tell me what you're good at.", "help"),
                                          ("Freya wants to know what you can help with. Can you tell her?", "help"),
                                          # twice and with a reason, parked, from abroad, asked warily
                                          ("Halt, I said halt, stop walking, my knee's gone.", "stop"),
                                          ("nevermind, grandad's found it", "stop"),
                                          ("Let's table this, my manager's calling.", "stop"),
                                          ("Sorry, false alarm, ignore me.", "stop"),
                                          ("Salam alaikum.", "greeting"), ("Hello robot, just checking in.", "greeting"),
                                          ("Shukran, habibi.", "thanks"), ("Thank you, and the kids say thank you too", "thanks"),
                                          ("Tchau tchau, até logo!", "goodbye"),
                                          ("I must be going, my bus is at four, so goodbye.", "goodbye"),
                                          ("can u do anything cool", "help"), ("wait what do u do exactly", "help"),
                                          ("For what I can use you?", "help"), ("How can you help us leaders tonight?", "help")])
def test_stops_thanks_goodbyes_and_what_it_does_in_more_words(brain, text, intent):  # noqa: F811
    assert brain.policy.understanding.pattern(text) == intent or \
        brain.policy.chooser.leading_act(text, {}) == intent


def test_an_endearment_is_not_a_place_elsewhere(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["What are your opening times, pet?"])
    [reply] = said(ex)
    assert "10 am" in reply


@pytest.mark.parametrize("text", ["yeah i'm in the entrance hall where are you", "she's in the gift shop I think",
                                  "i'll see you at the cafe in twenty minutes", "did you get the tickets",
                                  "First dinosaurs, then lunch, then the bus. That's our plan.",
                                  "Hello, love? Yes, we're at the museum. No, we'll be back in time for tea.",
                                  # a word or the venue's history asked about
                                  "How do you spell triceratops?", "define fossil", "What is a fossil?",
                                  "who built this museum", "What year did this museum first open?",
                                  # somewhere near the venue, not in it
                                  "Do you know a bookshop around here that sells science books for children?",
                                  "Where could we get a decent coffee outside the museum?",
                                  "Is there a playground near the museum?", "where's the nearest Nando's from here",
                                  # someone called by name, remarks, thinking aloud
                                  "Jake, put the astronaut helmet down",
                                  "Tom, is the dino tour on the agenda or is it optional?",
                                  "Kenji, wait for me near the gift shop, okay?", "I swear that fossil just looked at me",
                                  "The cleaners haven't done the second-floor toilets yet.",
                                  "Hmm, do I fancy the dinosaur tour or not... I'll think about it.",
                                  "What means the word Tyrannosaurus?"])
def test_the_others_whereabouts_names_called_words_history_and_places_nearby_are_not_acted_on(brain, text):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert not_acted_on(brain, ex), said(ex)


@pytest.mark.parametrize("text", ["Is there a restroom nearby?", "Is there a cafe near here?"])
def test_somewhere_nearby_that_the_venue_has_is_still_answered(brain, text):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert not not_acted_on(brain, ex), said(ex)


@pytest.mark.parametrize("text", ["Where can I spend a penny?", "where can I wash my hands"])
def test_a_place_said_in_a_synonyms_words_is_walked_to(brain, text):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert [c.args for c in ex.calls("navigate_to")] == [{"place": "toilets"}]


def test_a_question_that_is_word_for_word_an_faq_and_a_request_example_is_answered(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["Any accessible toilets?"])
    [reply] = said(ex)
    assert "accessible toilets" in reply and not ex.calls("navigate_to")


@pytest.mark.parametrize("text", ["Let's do the space tour at eleven, just the one ticket."])
def test_lets_with_tickets_is_a_booking_not_talk_among_visitors(brain, text):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert not not_acted_on(brain, ex), said(ex)


@pytest.mark.parametrize("text", ["The gift shop's got the same fridge magnets as last year, I see.",
                                  "the space tour starts at three so we've got time for lunch",
                                  "the next dinosaur tour departs from the dinosaur hall in five minutes",
                                  "Look, Grandad, there's a real space suit!", "Good walking, Ruby, well done.",
                                  "Do you dream at night when the museum's closed?"])
def test_remarks_praise_and_the_robots_own_life_are_not_acted_on(brain, text):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert not_acted_on(brain, ex), said(ex)


def test_a_remark_that_asks_whether_there_is_something_is_answered(brain):  # noqa: F811
    ex = museum()
    converse(brain, ex, ["the wifi keeps dropping out is there a network for visitors"])
    [reply] = said(ex)
    assert "Museum Guest" in reply


@pytest.mark.parametrize("text, place", [("Bitte, take us to the dinosaur hall, the little one loves the T-rex.", "dinosaur_hall"),
                                         ("Entschuldigung, can you walk with us to the space gallery please?", "space_gallery"),
                                         ("Priya, um, no, sorry: can you take me to the gift shop please?", "gift_shop")])
def test_a_politeness_word_from_abroad_or_a_name_with_please_is_still_a_request(brain, text, place):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert [c.args for c in ex.calls("navigate_to")] == [{"place": place}]


@pytest.mark.parametrize("text, intent", [("Farewell, it was lovely to meet you.", "goodbye"),
                                          ("Marvellous, thank you ever so much.", "thanks")])
def test_a_word_before_a_comma_that_is_no_name_keeps_the_act(brain, text, intent):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert said(ex) == [line_of(brain, intent)] or not not_acted_on(brain, ex), said(ex)


@pytest.mark.parametrize("text, tool, args", [
    ("Let's test you. Six tickets please. Dinosaur tour.", "book_tickets", {"tickets": 6}),
    ("I bet you'll get lost halfway, but take me to the space gallery.", "navigate_to", {"place": "space_gallery"})])
def test_a_request_said_after_a_dare_is_done(brain, text, tool, args):  # noqa: F811
    ex = museum()
    converse(brain, ex, [text])
    assert ex.calls(tool) and all(ex.calls(tool)[0].args.get(k) == v for k, v in args.items()) or \
        said(ex)[-1].endswith("?"), said(ex)  # done, or the missing slot asked for
