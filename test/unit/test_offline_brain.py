"""The `offline` brain: rules and FAQ, no model. Unit tests on step(), and one run inside the
agent core on virtual time."""

import asyncio
import json
import pathlib

import pytest
import yaml

from phanthy_agent.brains.base import BrainRequest, Message, ToolCallRequest
from phanthy_agent.brains.offline import FAQ_MIN_SCORE, OfflineBrain
from phanthy_agent.core.action_tracker import TrackedAction
from phanthy_agent.core.context import notice_message
from phanthy_agent.core.tools import ToolRegistry
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, lookup_tool, navigate_tool, speak_tool, stop_tool
from support.virtual_time import run

CONFIG = pathlib.Path(__file__).resolve().parents[2] / "config"
INTENTS, FAQ = CONFIG / "offline_intents.yaml", CONFIG / "faq.yaml"
PLACES = ["entrance", "dinosaur_hall", "gift_shop", "cafe", "second_floor", "toilets", "space_gallery"]
FAQ_ANSWERS = {e["id"]: e["answer"].strip() for e in yaml.safe_load(FAQ.read_text())}


def museum_nav(**kw):
    tool = navigate_tool(**kw)
    tool.decl["parameters"]["properties"]["place"]["enum"] = list(PLACES)
    return tool


def tool_specs(*tools):
    """The OpenAI specs the core hands the brain: the drivers' declarations + finish, cancel."""
    registry = ToolRegistry()
    for index, tool in enumerate(tools):
        assert registry.update_manifest(f"driver{index}", json.dumps([tool.decl])) == []
    return [t.spec() for t in registry.visible_tools()]


ALL_TOOLS = (speak_tool(), museum_nav())


def request(*inputs, tools=ALL_TOOLS, extra=(), on_text=lambda text: None):
    messages = [Message("system", "prefix"), Message("user", "[status] time: now", meta="status")]
    messages += [Message("user", text, meta="input") for text in inputs] + list(extra)
    return BrainRequest(messages, tool_specs(*tools), on_text)


def step(req, brain=None):
    brain = brain or OfflineBrain.from_files(INTENTS, FAQ)
    return asyncio.run(brain.step(req))


def calls(reply):
    return [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]


def said(reply):
    spoken = [args["text"] for name, args in calls(reply) if name == "speak"]
    assert len(spoken) <= 1
    return spoken[0] if spoken else reply.content


@pytest.mark.parametrize("text, place", [
    ("take me to the dinosaur hall", "dinosaur_hall"),
    ("Could you bring us to the dino hall please?", "dinosaur_hall"),
    ("guide me to the Dinosaur-Hall!", "dinosaur_hall"),
    ("take me to the dinosaur hal", "dinosaur_hall"),
    ("I want to see the dinosaurs", "dinosaur_hall"),
    ("go to the giftshop", "gift_shop"),
    ("take me to the toilet", "toilets"),
    ("can you take us to the second floor", "second_floor"),
    ("take me upstairs", "second_floor"),
    ("please walk me to the space gallery.", "space_gallery"),
    ("head to the exit", "entrance"),
])
def test_navigation_speaks_then_walks_then_finishes(text, place):
    reply = step(request(text))
    assert reply.brain == "offline" and reply.content == ""
    assert [name for name, _ in calls(reply)] == ["speak", "navigate_to", "finish"]
    assert calls(reply)[1][1] == {"place": place}
    assert place.replace("_", " ") in said(reply)
    assert all(isinstance(c.arguments, str) for c in reply.tool_calls)


def test_where_is_a_known_place_shows_the_way_and_an_unknown_one_is_answered_from_the_faq():
    reply = step(request("Where are the toilets?"))
    assert calls(reply)[1:] == [("navigate_to", {"place": "toilets"}), ("finish", {})]
    reply = step(request("where is the cloakroom"))
    assert said(reply) == FAQ_ANSWERS["cloakroom"]
    assert [name for name, _ in calls(reply)] == ["speak", "finish"]


def test_an_unknown_place_says_which_places_are_known_instead_of_walking():
    reply = step(request("take me to the moon"))
    assert [name for name, _ in calls(reply)] == ["speak", "finish"]
    text = said(reply)
    assert "moon" in text
    for place in PLACES:
        assert place.replace("_", " ") in text
    # a place the base does not know but the FAQ does: say where it is, do not walk
    reply = step(request("take me to the cloakroom"))
    assert said(reply) == FAQ_ANSWERS["cloakroom"] and [n for n, _ in calls(reply)] == ["speak", "finish"]


def test_without_the_navigation_tool_it_says_it_cannot_do_that():
    reply = step(request("take me to the dinosaur hall", tools=(speak_tool(),)))
    assert [name for name, _ in calls(reply)] == ["speak", "finish"]
    assert "can't" in said(reply)
    # "where is" without a base falls through to the FAQ, which says where things are
    reply = step(request("where are the toilets", tools=(speak_tool(),)))
    assert said(reply) == FAQ_ANSWERS["toilets"]


# right answers: paraphrases that are not in faq.yaml (the calibration set of FAQ_MIN_SCORE)
FAQ_HITS = [
    ("when do you open", "opening_hours"), ("what time does the museum close today", "opening_hours"),
    ("how much is a ticket", "tickets"), ("do children pay", "tickets"), ("is it free", "tickets"),
    ("toilets?", "toilets"), ("I need a restroom", "toilets"), ("where can I change a nappy", "toilets"),
    ("where can I grab a coffee", "cafe"), ("I'm hungry", "cafe"), ("is there food", "cafe"),
    ("do you sell souvenirs", "gift_shop"), ("can I leave my bag somewhere", "cloakroom"),
    ("is there a lift", "wheelchair_access"), ("I use a wheelchair", "wheelchair_access"),
    ("can I take pictures", "photography"), ("is flash photography ok", "photography"),
    ("wifi password please", "wifi"), ("do you have internet", "wifi"),
    ("I lost my wallet", "lost_and_found"), ("are there any tours today", "guided_tours"),
    ("do you have an audio guide", "guided_tours"), ("tell me about the t rex", "t_rex"),
    ("how big is the tyrannosaurus rex", "t_rex"), ("what is upstairs", "second_floor"),
    ("where do I park", "parking"), ("which bus goes here", "parking"),
    ("tell me about meteorites", "space_gallery"), ("what's in the dinosaur hall", "dinosaur_hall"),
]
FAQ_MISSES = [
    "what is the meaning of life", "tell me a joke", "who won the football last night",
    "do you like pizza", "what's the weather like", "how old are you", "what is your name",
    "can you sing a song", "what is the capital of France", "do you dream", "i like trains",
    "what is the moon made of", "how many legs does a spider have", "are you a real person",
    "why is the sky blue", "is the museum haunted", "what is the best museum in the world",
]


@pytest.mark.parametrize("text, entry", FAQ_HITS)
def test_faq_answers_are_spoken_verbatim(text, entry):
    reply = step(request(text))
    assert said(reply) == FAQ_ANSWERS[entry]
    assert [name for name, _ in calls(reply)] == ["speak", "finish"]


@pytest.mark.parametrize("text", FAQ_MISSES)
def test_no_match_gives_the_honest_fallback(text):
    text_said = said(step(request(text)))
    assert "without a language model" in text_said
    assert text_said not in FAQ_ANSWERS.values()


def test_the_faq_threshold_separates_the_calibration_sets():
    brain = OfflineBrain.from_files(INTENTS, FAQ)
    hits = [brain.faq_scores(text)[0][0] for text, _ in FAQ_HITS]
    misses = [brain.faq_scores(text)[0][0] if brain.faq_scores(text) else 0.0 for text in FAQ_MISSES]
    assert max(misses) < FAQ_MIN_SCORE <= min(hits)
    assert brain.min_score == FAQ_MIN_SCORE  # the config file agrees with the code


def test_help_lists_what_the_visible_tools_can_do_and_says_it_runs_offline():
    text = said(step(request("what can you do?", tools=ALL_TOOLS + (lookup_tool(),))))
    assert "without a language model" in text
    assert "walk to a named place" in text and "look something up" in text
    assert "the dinosaur hall" in text
    for internal in ("finish", "cancel", "say a sentence"):
        assert internal not in text.lower()
    text = said(step(request("help", tools=(speak_tool(),))))
    assert "walk" not in text  # no base: it does not claim it can walk


@pytest.mark.parametrize("text, expected", [
    ("stop", "Okay."), ("never mind", "Okay."), ("Cancel that.", "Okay."), ("stop please", "Okay."),
    ("hello", "Hello"), ("thank you!", "welcome"), ("bye", "Goodbye"),
])
def test_small_talk_intents(text, expected):
    reply = step(request(text))
    assert expected in said(reply)
    assert [name for name, _ in calls(reply)] == ["speak", "finish"]


def answered_turn(*notices):
    """An earlier step's reply and tool results, then action-update notices."""
    return [Message("assistant", "", tool_calls=[ToolCallRequest("c1", "navigate_to", '{"place": "cafe"}')]),
            Message("tool", '{"action_id": "a1", "status": "started"}', tool_call_id="c1")] + list(notices)


def ended(tool, status, error=""):
    return TrackedAction("a1", tool, "base", {}, True, 0.0, 60.0, status=status, error=error)


def test_a_failed_action_gets_an_honest_sorry_line_then_finish():
    reply = step(request("take me to the cafe", extra=answered_turn(
        notice_message([ended("speak", "succeeded"), ended("navigate_to", "failed", "path blocked")]))))
    assert [name for name, _ in calls(reply)] == ["speak", "finish"]
    text = said(reply)
    assert text.startswith("Sorry") and "walking there" in text and "path blocked" in text
    reply = step(request("take me to the cafe", extra=answered_turn(
        notice_message([ended("navigate_to", "timeout")]))))
    assert "took too long" in said(reply)


@pytest.mark.parametrize("notices", [
    [], [notice_message([ended("navigate_to", "succeeded")])],
    [notice_message([ended("navigate_to", "cancelled")])],
    [notice_message([ended("speak", "failed", "speaker unplugged")])],  # no speaking about it
])
def test_nothing_new_to_answer_just_finishes(notices):
    reply = step(request("take me to the cafe", extra=answered_turn(*notices)))
    assert calls(reply) == [("finish", {})] and reply.content == ""


@pytest.mark.parametrize("inputs, place", [
    (["take me to the cafe", "no, the gift shop"], "gift_shop"),
    (["take me to the cafe", "sorry, I meant the space gallery instead"], "space_gallery"),
    (["take me to the cafe", "actually take me to the toilets"], "toilets"),
    (["where is the cafe", "no wait, the dinosaur hall"], "dinosaur_hall"),
])
def test_with_several_inputs_the_last_one_wins(inputs, place):
    assert calls(step(request(*inputs)))[1:] == [("navigate_to", {"place": place}), ("finish", {})]


def test_a_correction_that_is_not_a_place_is_answered_on_its_own():
    reply = step(request("take me to the cafe", "never mind"))
    assert said(reply) == "Okay." and [n for n, _ in calls(reply)] == ["speak", "finish"]
    reply = step(request("take me to the cafe", "no, what are your opening hours"))
    assert said(reply) == FAQ_ANSWERS["opening_hours"]


def test_deterministic_and_call_ids_unique_per_instance():
    texts = ["take me to the dino hall", "is there wifi", "tell me a joke"]
    first = [step(request(t)) for t in texts]
    again = [step(request(t)) for t in texts]
    assert first == again  # fresh brains: byte-identical replies, ids included
    brain = OfflineBrain.from_files(INTENTS, FAQ)
    replies = [step(request("take me to the dino hall"), brain) for _ in range(3)]
    assert all(calls(r) == calls(replies[0]) for r in replies)
    ids = [c.id for r in replies for c in r.tool_calls]
    assert len(ids) == len(set(ids))


def test_without_a_speak_tool_the_text_is_the_reply_content():
    heard = []
    reply = step(request("take me to the gift shop", tools=(museum_nav(),), on_text=heard.append))
    assert reply.content == "Certainly, follow me to the gift shop." and heard == [reply.content]
    assert calls(reply) == [("navigate_to", {"place": "gift_shop"}), ("finish", {})]


def test_the_shipped_config_is_consistent():
    faq = yaml.safe_load(FAQ.read_text())
    assert len(faq) >= 15 and len({e["id"] for e in faq}) == len(faq)
    intents = yaml.safe_load(INTENTS.read_text())
    for intent in intents["intents"]:
        for slot in (intent.get("slots") or {}).values():
            assert set(slot.get("aliases", {}).values()) <= set(PLACES)
    assert OfflineBrain.from_files(INTENTS, FAQ).name == "offline"


# --- inside the agent core -------------------------------------------------------------------
def museum_executor(nav):
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(duration_s=3))
    ex.add("speaker", stop_tool())
    ex.add("base", nav)
    return ex


def run_turn(ex, text):
    async def scenario():
        h = Harness(ex, [], brain=OfflineBrain.from_files(INTENTS, FAQ))
        h.say(text)
        [turn] = await h.turns(1)
        await h.close()
        return turn
    return run(scenario)


def test_in_the_core_it_speaks_then_walks_and_the_turn_finishes_after_the_walk():
    ex = museum_executor(museum_nav(duration_s=10))
    turn = run_turn(ex, "take me to the dinosaur hall")
    [speech], [walk] = ex.calls("speak"), ex.calls("navigate_to")
    assert speech.args == {"text": "Certainly, follow me to the dinosaur hall."}
    assert walk.args == {"place": "dinosaur_hall"}
    assert walk.t >= speech.t + 3, "the walk starts after the sentence was spoken"
    assert turn.end_reason == "finished" and turn.t_end >= walk.t + 10 - 1e-6
    assert turn.brains == ["offline"] and turn.steps == 1
    assert turn.reply == "Certainly, follow me to the dinosaur hall."
    assert [c["status"] for c in turn.tool_calls] == ["succeeded", "succeeded"]


def test_in_the_core_a_failed_walk_is_apologised_for():
    nav = museum_nav(duration_s=4)
    nav.status, nav.error = "failed", "path blocked"
    ex = museum_executor(nav)
    turn = run_turn(ex, "take me to the cafe")
    texts = [s.args["text"] for s in ex.calls("speak")]
    assert texts == ["Certainly, follow me to the cafe.",
                     "Sorry, I couldn't finish walking there: path blocked."]
    assert turn.end_reason == "finished" and turn.steps == 2 and turn.error == ""
