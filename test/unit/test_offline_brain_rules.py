"""The offline brain without its sentence encoder (patterns and words only): its files, how it
reads the conversation back, and the moves that need no meaning. Meaning is test/models."""

import asyncio
import json
import pathlib

import pytest

from phanthy_agent.brains.base import ActionUpdate, BrainRequest, Message, ToolCallRequest
from phanthy_agent.brains.offline import OfflineBrain
from phanthy_agent.brains.offline.config import load_faq, load_intents
from phanthy_agent.brains.offline.conversation import flatten, list_items, segments
from phanthy_agent.core.tools import ToolRegistry
from support.fake_drivers import navigate_tool, speak_tool

CONFIG = pathlib.Path(__file__).resolve().parents[2] / "config"


@pytest.fixture(scope="module")
def brain():
    return OfflineBrain.from_files(CONFIG / "offline_intents.yaml", CONFIG / "faq.yaml", encoder=None)


def specs(*tools):
    registry = ToolRegistry()
    for index, tool in enumerate(tools):
        assert registry.update_manifest(f"driver{index}", json.dumps([tool.decl])) == []
    return [t.spec() for t in registry.visible_tools()]


def step(brain, messages, tools=(speak_tool(), navigate_tool())):
    reply = asyncio.run(brain.step(BrainRequest([Message("system", "x"), Message("user", "[status]", meta="status")]
                                                + messages, specs(*tools))))
    return reply, [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]


def said(text):
    return Message("user", text, meta="input")


def test_a_request_by_pattern_speaks_walks_and_waits_for_the_walk(brain):
    reply, calls = step(brain, [said("take me to the gift shop")])
    assert calls == [("speak", {"text": "Certainly, follow me to the gift shop."}),
                     ("navigate_to", {"place": "gift_shop"}), ("wait_for_actions", {})]
    assert reply.brain == "offline"


def test_after_the_walk_it_says_where_it_is_and_ends(brain):
    history = [said("take me to the gift shop"),
               Message("assistant", "", [ToolCallRequest("a", "navigate_to", '{"place": "gift_shop"}'),
                                         ToolCallRequest("b", "wait_for_actions", "{}")]),
               Message("tool", '{"action_id": "x1", "status": "started"}', tool_call_id="a"),
               Message("tool", '{"status": "done"}', tool_call_id="b"),
               Message("user", "[action updates] ...", meta="notice",
                       updates=(ActionUpdate("navigate_to", "x1", "succeeded", "", '{"arrived": true}'),))]
    _, calls = step(brain, history)
    assert calls == [("speak", {"text": "Here we are: the gift shop."}), ("finish", {"dialogue_state": "end"})]


def test_a_failed_walk_is_apologised_for(brain):
    history = [said("take me to the gift shop"),
               Message("assistant", "", [ToolCallRequest("a", "navigate_to", '{"place": "gift_shop"}')]),
               Message("tool", '{"action_id": "x1", "status": "started"}', tool_call_id="a"),
               Message("user", "[action updates] ...", meta="notice",
                       updates=(ActionUpdate("navigate_to", "x1", "failed", "path blocked"),))]
    _, calls = step(brain, history)
    assert calls[0] == ("speak", {"text": "Sorry, I couldn't finish walking there: path blocked."})


def test_without_the_walking_tool_it_says_it_cannot(brain):
    _, calls = step(brain, [said("take me to the cafe")], tools=(speak_tool(),))
    assert calls[0] == ("speak", {"text": "Sorry, I can't walk anywhere right now, so I can't take you there."})


def test_without_a_speech_tool_the_line_is_the_reply_text(brain):
    reply, calls = step(brain, [said("hello")], tools=(navigate_tool(),))
    assert reply.content.startswith("Hello!") and calls == [("finish", {"dialogue_state": "end"})]


def test_stop_with_nothing_running_just_says_okay(brain):
    _, calls = step(brain, [said("never mind")])
    assert calls == [("speak", {"text": "Okay."}), ("finish", {"dialogue_state": "end"})]


def test_words_alone_still_answer_a_plain_faq_question(brain):
    _, calls = step(brain, [said("what is the wifi password")])
    assert "Museum Guest" in calls[0][1]["text"]


def test_a_stop_with_a_reassurance_is_still_a_stop(brain):
    _, calls = step(brain, [said("no, stop, that's fine")])
    assert calls[0] == ("speak", {"text": "Okay."})


def test_see_you_next_time_is_goodbye(brain):
    _, calls = step(brain, [said("see you next time, robot")])
    assert calls[-1] == ("finish", {"dialogue_state": "end"}) and "Goodbye" in calls[0][1]["text"]


def test_typos_are_mended_against_the_examples_words_for_ranking_only(brain):
    understanding = brain.policy.understanding
    assert understanding.spelled("is there wfii in the musuem?") == "is there wifi in the museum?"
    # a word the examples nearly have is mended; a name nowhere near one stays
    assert understanding.spelled("Lovelace, a tikcet") == "Lovelace, a ticket"


def test_closer_to_an_out_of_scope_example_than_to_anything_it_does_is_the_fallback():
    cfg = load_intents({"accept": 0.3, "suggest": 0.25,
                        "out_of_scope": ["what's the weather forecast for tomorrow", "will it rain today"],
                        "intents": [{"name": "navigate", "tool": "navigate_to",
                                     "examples": ["take me to the cafe", "show me the way to the shop"]}]})
    faq = [{"id": "wifi", "questions": ["is there wifi", "what is the wifi password"], "answer": "Yes, free."}]
    brain = OfflineBrain(cfg, faq, encoder=None)
    assert brain.policy.understanding.rank("is the weather nice tomorrow", {}) == []
    _, calls = step(brain, [said("is the weather nice tomorrow")])
    assert "language model" in calls[0][1]["text"]
    _, calls = step(brain, [said("is there wifi")])
    assert calls[0] == ("speak", {"text": "Yes, free."})


def test_the_conversation_is_read_back_with_outcomes():
    messages = [said("book it"),
                Message("assistant", "", [ToolCallRequest("a", "book_tickets", '{"tickets": 2}'),
                                          ToolCallRequest("f", "finish", '{"dialogue_state": "follow_up"}')]),
                Message("tool", '{"action_id": "x", "status": "started"}', tool_call_id="a"),
                Message("tool", '{"status": "turn ended"}', tool_call_id="f"),
                Message("user", "[action updates]", meta="notice",
                        updates=(ActionUpdate("book_tickets", "x", "succeeded", "", '{"booking": {"code": "AB12CD"}}'),)),
                said("thanks")]
    first, second = segments(messages)[1:]
    [book, finish] = first.calls
    assert book.status == "succeeded" and book.output == {"booking": {"code": "AB12CD"}}
    assert first.ended_turn and first.asked and second.text == "thanks" and not second.calls
    assert flatten(book.output) == {"code": "AB12CD"}
    assert list_items({"tours": [{"a": 1}], "n": 2}) == [{"a": 1}]


@pytest.mark.parametrize("intents, message", [
    ({"intents": [{"name": "x", "tool": "a", "act": "stop", "examples": ["x"]}]}, "exactly one of act, tool, steps"),
    ({"intents": [{"name": "x", "act": "dance", "examples": ["x"]}]}, "act must be one of"),
    ({"intents": [{"name": "x", "tool": "a"}]}, "give patterns or examples"),
    ({"templates": {"nope": "x"}}, "unknown templates"),
    ({"acept": 0.5}, "acept"),
    ({"intents": [{"name": "x", "act": "help", "examples": ["x"], "cues": "(can"}]}, "intent 'x': bad regex"),
])
def test_a_bad_intents_file_is_a_clear_error(intents, message):
    with pytest.raises(ValueError, match=message):
        load_intents(intents)


def test_a_bad_faq_entry_is_a_clear_error():
    with pytest.raises(ValueError, match="answer"):
        load_faq([{"id": "x", "questions": ["q"]}])


def test_the_shipped_files_load():
    cfg = load_intents(CONFIG / "offline_intents.yaml")
    assert cfg.suggest < cfg.accept and {i.act for i in cfg.intents} >= {"stop", "greeting", "help", "goodbye"}
    assert len(load_faq(CONFIG / "faq.yaml")) >= 10


# --- things outside the venue (elsewhere.py) ---------------------------------------------------
def test_a_word_naming_a_place_elsewhere_is_found_whole_plural_and_any_spacing():
    from phanthy_agent.brains.offline.elsewhere import Elsewhere
    rule = Elsewhere(["zoo", "bus station", "pub"], world=["The cafe is by the entrance."])
    assert rule.named("When does the Zoo open?") == "zoo"
    assert rule.named("where are the bus  stations") == "bus  stations"
    assert rule.named("any pubs near here") == "pubs"
    assert rule.named("a zookeeper talk?") == "" and rule.named("the public toilets") == ""


def test_a_word_the_venues_own_files_use_stays_in_scope():
    from phanthy_agent.brains.offline.elsewhere import Elsewhere
    rule = Elsewhere(["library", "zoo"], world=["Our Libraries are on the first floor."])
    assert rule.in_scope == ["library"] and rule.words == ["zoo"]
    assert rule.named("is the library open") == ""


@pytest.mark.parametrize("text, thing, owns", [
    ("Please refund my theatre tickets, booking TH5590", "theatre", True),
    ("Cancel my gym membership please, member number G-55012", "gym", True),
    ("Our train was late so we missed the tour, refund please, code AB1234", "train", False),
    ("We missed the train, refund my tickets, code AB1234", "train", False),
])
def test_a_booking_for_somewhere_else_is_told_from_a_reason_given_for_the_venues(text, thing, owns):
    from phanthy_agent.brains.offline.elsewhere import owns_the_booking
    assert owns_the_booking(text, thing) is owns


def _venue_brain():
    cfg = load_intents({
        "accept": 0.2, "suggest": 0.15, "elsewhere_words": ["zoo", "library", "station"],
        "templates": {"elsewhere": "I only know this place."},
        "intents": [{"name": "goodbye", "act": "goodbye", "patterns": [r"\bbye\W*$"], "say": "Bye!"},
                    {"name": "navigate", "tool": "navigate_to", "patterns": [r"\bwhere are the toilets\b"],
                     "examples": ["take me to the cafe"]}]})
    faq = [{"id": "hours", "questions": ["when do you open"], "answer": "We open at ten."},
           {"id": "library", "questions": ["when does the library open"], "answer": "Our library opens at noon."}]
    return OfflineBrain(cfg, faq, encoder=None)


def test_a_question_about_somewhere_else_gets_the_elsewhere_answer_not_the_venues():
    brain = _venue_brain()
    _, calls = step(brain, [said("when does the zoo open")])
    assert calls[0] == ("speak", {"text": "I only know this place."})
    _, calls = step(brain, [said("when does the library open")])  # the venue's own library
    assert calls[0] == ("speak", {"text": "Our library opens at noon."})


def test_a_tools_pattern_does_not_take_a_request_about_somewhere_else_but_a_farewell_is_still_one():
    brain = _venue_brain()
    _, calls = step(brain, [said("where are the toilets at the station?")])
    assert calls[0] == ("speak", {"text": "I only know this place."}) and len(calls) == 2
    _, calls = step(brain, [said("we're off to the zoo now, bye")])
    assert calls[0] == ("speak", {"text": "Bye!"})


@pytest.mark.parametrize("text, intent", [
    ("no no, stop walking", "stop"), ("never mind, I'll find it myself", "stop"), ("yo robot", "greeting"),
    ("cheers buddy", "thanks"), ("well, we're off home now, bye", "goodbye"), ("cya", "goodbye"),
    ("never mind, take me to the cafe", "navigate"), ("thanks, can you take me to the cafe?", "navigate"),
    ("take me to the exit, bye", "navigate"), ("two tickets for the dinosaur tour, thanks, bye", None),
])
def test_small_talk_and_stop_patterns_cover_everyday_ways_and_no_request(brain, text, intent):
    assert brain.policy.understanding.pattern(text) == intent


def test_matching_reads_text_speak_and_accents_but_the_arguments_keep_what_was_said():
    from phanthy_agent.brains.offline.spoken import normalized
    assert normalized("wat r ur functions pls") == "what are your functions please"
    assert normalized("Café, 2moro?") == "Cafe, tomorrow?"
    assert normalized("Rory's U-boat") == "Rory's U-boat", "only whole words"


def test_a_bad_faq_pattern_is_a_clear_error():
    with pytest.raises(ValueError, match=r"patterns"):
        load_faq([{"id": "x", "questions": ["q"], "answer": "a", "patterns": ["(unclosed"]}])



@pytest.mark.parametrize("text, outcome", [  # a place walked to, or the first words said
    ("Hey robot, take me to the gift shop", "gift_shop"),
    ("OK museum, the dinosaur hall please", "dinosaur_hall"),
    ("hi robot", "Hello!"), ("Hey robot, stop", "Okay.")])
def test_wake_words_before_a_request_are_an_address_and_alone_a_greeting(brain, text, outcome):
    _, calls = step(brain, [said(text)])
    if outcome.islower():
        assert calls[1] == ("navigate_to", {"place": outcome})
    else:
        assert calls[0][1]["text"].startswith(outcome) and calls[1][0] == "finish"


def test_an_aside_to_the_family_is_not_read_into_the_request(brain):
    _, calls = step(brain, [said("Take me to the gift shop \u2014 Maya, don't lick that \u2014 please")])
    assert calls[1] == ("navigate_to", {"place": "gift_shop"})


@pytest.mark.parametrize("text, reply", [
    ("hang on erm actually don't bother", "Okay."), ("scratch that um nothing", "Okay."),
    ("Please stop walking, my daughter needs a minute.", "Okay."),
    ("Perfect, thanks! The kids loved talking to you.", "You're welcome!"),
    ("Cheerio, our bus is here.", "Goodbye")])
def test_hesitations_and_news_after_thanks_a_goodbye_or_a_stop_leave_the_act(brain, text, reply):
    _, calls = step(brain, [said(text)])
    assert calls[0][1]["text"].startswith(reply) and calls[1][0] == "finish"


def test_hold_on_and_then_news_is_no_stop(brain):
    _, calls = step(brain, [said("hang on, hang on, I can't hear you, the signal's terrible")])
    assert not calls[0][1]["text"].startswith("Okay.")


@pytest.mark.parametrize("text", ["Hello there, would you take a photograph of the three of us in front of the dinosaur?",
                                  "erm can you draw me a dinosaur", "Forgive me, would you dance with me?",
                                  "Will yer carry me bags round for us?", "Could you remind me at three o'clock that it's time to leave?"])
def test_errands_asked_after_a_polite_opening_or_in_dialect_are_errands(brain, text):
    assert brain.policy.chooser.asked_errand(text)


@pytest.mark.parametrize("text", ["Can you help us with anything, or are you just decorative?",
                                  "Are you just for directions, or can you do other stuff too?",
                                  "The kids want to know what you can do, can you tell them?",
                                  "What can you actually do, apart from block the corridor?", "What can ye dae, then?"])
def test_what_the_robot_can_do_asked_with_a_jibe_or_in_dialect_is_the_capabilities_question(brain, text):
    assert brain.policy.understanding.pattern(text) == "help"


@pytest.mark.parametrize("text, stop", [
    ("Actually, forgive me, stop there, I've changed my mind.", True), ("Ah, no, let's not bother after all. Scrap that, sorry.", True),
    ("Oh, I'm so sorry, never mind, I've just spotted my husband waving at me.", True), ("Whoa there, stop walkin'", True),
    ("Shut up, robot. Please.", True), ("Take me to the cafe, stop, the gift shop", False), ("stop, code AB1234", False),
    ("hold on, hold on, I've dropped my glove", False), ("stop", False),
    ("nah the gift shop's a total rip off, don't bother", False), ("Oh, the wifi's back on my phone, never mind", False)])
def test_a_clause_that_only_says_stop_among_others_asking_nothing_is_a_stop(brain, text, stop):
    assert brain.policy.chooser.stop_said(text) == stop


@pytest.mark.parametrize("text", ["Oi, robot.", "Howya", "Howzit", "Ow do!", "What's the story, bud?", "Howay, hello there, pet!"])
def test_greetings_of_british_and_irish_speech_are_greetings(brain, text):
    assert brain.policy.understanding.pattern(text) == "greeting"


@pytest.mark.parametrize("text", ["Oi, wait for me!", "Oi, Liam, over here!"])
def test_a_call_to_someone_else_is_no_greeting(brain, text):
    assert brain.policy.understanding.pattern(text) != "greeting"
