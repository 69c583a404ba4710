"""The offline brain's paraphrase sets as scoring cases (bench/offline_brain.py paraphrases).

Two sets, one scoring rule. A case is an utterance, the label it must be understood as (an
intent of config/offline_intents.yaml, a tool, `faq:<id>`, `unknown:<intent>` for a request
that names nothing the world has, or `off_topic`), the arguments the understood request must
carry, and other answers that are right too.

- `bench/paraphrases.yaml` is written in the brain's own names (its header says how).
- `bench/paraphrases_heldout.yaml` was written without reading the brain's files, in its
  author's own vocabulary; `heldout_cases` maps that vocabulary onto the brain's names and the
  simulated museum's world (the base's seven places, the box office's demo data) with the
  tables below. The mapping translates names; it never changes what a visitor asked for.
  Decisions where the world and the set differ:
  * a place the world does not have (the information desk, the cloakroom, the lifts, first
    aid, the exit): right is saying there is no such place (`unknown:navigate`: "Sorry, I
    don't know a place called ... I can take you to ..."), or the FAQ entry of that very place
    (the cloakroom's says where it is); for the exit, the entrance too, in every set (the
    venue's intents file says the way out is the entrance: `exit: entrance`; the held-out set's
    author had written so, the later authors did not know the venue);
  * a tour and a time slot are not scored: the box office's tour is a value `list_tours`
    lists, chosen by the planner after the lookup, not by understanding (the first set does not
    score them either), and the set's slots (2 pm, half past two, ...) are not the demo's;
  * a question *where* a place is that the set labels with that place's FAQ answer only
    ("where are the toilets?"): walking there is right too, as most authors marked with `also`,
    unless the visitor says not to be taken ("just tell me, I don't need you to walk");
  * member ids and booking codes are scored as written, but for case, spaces and dashes
    ("BX-4821" said as "b x 4 8 2 1" is BX4821: the driver's lookup decides what a code is;
    a member id said as a plain number is still the id the visitor gave).
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
from typing import Any, Dict, List, Tuple

import yaml

# the held-out set's words -> the simulated museum's place enum (None: not a place it has)
PLACES = {"entrance": "entrance", "dinosaur hall": "dinosaur_hall", "space gallery": "space_gallery",
          "gift shop": "gift_shop", "cafe": "cafe", "toilets": "toilets", "exit": None,
          "information desk": None, "cloakroom": None, "lifts": None, "first aid": None}
# the held-out set's answer topics -> the FAQ entries of config/faq.yaml
TOPICS = {"opening_hours": "opening_hours", "ticket_prices": "tickets", "wifi": "wifi",
          "photography": "photography", "cafe": "cafe", "toilets": "toilets",
          "lost_and_found": "lost_and_found", "accessibility": "wheelchair_access",
          # from the eighty-eighth set on, the header names the venue's other answers too: the
          # earlier authors, not told of them, wrote such questions as off-topic trivia
          "parking": "parking", "t_rex": "t_rex", "dinosaur_hall_exhibits": "dinosaur_hall",
          "space_gallery_exhibits": "space_gallery", "upstairs": "second_floor", "audio_guides": "guided_tours"}
TALK = {"hello": "greeting", "thanks": "thanks", "goodbye": "goodbye", "capabilities": "help"}
# the held-out set's requests -> intents, and its argument names -> the tools' parameters
REQUESTS = {"walk": "navigate", "book": "book", "find_booking": "booking_details",
            "move_booking": "change_booking", "cancel_booking": "cancel", "refund_booking": "refund",
            "membership": "membership", "list_tours": "list_tours", "stop": "stop"}
ARGS = {"tickets": "tickets", "name": "name", "code": "code", "member_id": "member_id"}
NOT_SCORED = {"tour", "time"}  # see the module docstring


@dataclasses.dataclass
class Case:
    say: str
    expect: str  # a label, or "off_topic"
    args: Dict[str, Any] = dataclasses.field(default_factory=dict)
    also: List[Tuple[str, Dict[str, Any]]] = dataclasses.field(default_factory=list)
    kind: str = ""  # the kind of request, for the breakdown of misses (the set's own words)


def original_cases(path: pathlib.Path) -> List[Case]:
    """bench/paraphrases.yaml: {label: [{say, args, also}]} in the brain's names."""
    return [Case(item["say"], expect, dict(item.get("args") or {}),
                 [(item["also"], {})] if item.get("also") else [], expect)
            for expect, items in yaml.safe_load(path.read_text()).items() for item in items]


def heldout_cases(path: pathlib.Path, faq_ids: List[str]) -> List[Case]:
    """bench/paraphrases_heldout.yaml, its outcomes mapped onto the brain's names."""
    data = yaml.safe_load(path.read_text())
    cases = []
    for item in data["in_domain"]:
        outcomes = [_outcome(item["expect"], faq_ids)] + [_outcome(o, faq_ids) for o in item.get("also") or []]
        (expect, args), *also = outcomes
        # a place the world lacks: its own FAQ entry, if there is one, is right too
        also += [(f"faq:{p.replace(' ', '_')}", {}) for o in [item["expect"]] + list(item.get("also") or [])
                 if (p := o.get("place")) and PLACES.get(p) is None and p.replace(" ", "_") in faq_ids]
        also += [("navigate", {"place": "entrance"}) for o in [item["expect"]] if o.get("place") == "exit"]
        also += [("navigate", {"place": place}) for place in [_asked_where(item["say"], item["expect"])] if place]
        cases.append(Case(item["say"], expect, args, also, _kind(item["expect"])))
    cases += [Case(item["say"], "off_topic", kind="off_topic") for item in data["off_topic"]]
    return cases


WHERE = re.compile(r"\bwhere\b", re.I)
ONLY_TOLD = re.compile(r"\b(?:don'?t|do\s+not|no)\s+need\s+(?:you\s+)?to\s+(?:take|walk|show|bring)|\bjust\s+tell\b|"
                       r"\bmerely\s+to\s+tell\b|\bdon'?t\s+(?:take|walk)\s+(?:me|us)\b", re.I)


def _asked_where(say: str, outcome: dict) -> str:
    """The place of a question *where* it is, labelled as its FAQ answer: walking there is right
    too, as the authors of the earlier sets marked with `also` (not when the visitor says not to)."""
    place = PLACES.get(str(outcome.get("answer", "")).replace("_", " "))
    return place if place and WHERE.search(say) and not ONLY_TOLD.search(say) else ""


def _kind(outcome: dict) -> str:
    """The set's own name of what was asked: `walk`, `book`, `answer:wifi`, `talk:hello`."""
    if "answer" in outcome or "talk" in outcome:
        key = "answer" if "answer" in outcome else "talk"
        return f"{key}:{outcome[key]}"
    return outcome["do"]


def _outcome(outcome: dict, faq_ids: List[str]) -> Tuple[str, Dict[str, Any]]:
    if outcome.get("off_topic"):  # an `also`: the honest answer is as right (the tenth set has one)
        return "off_topic", {}
    if "answer" in outcome:
        entry = TOPICS[outcome["answer"]]
        assert entry in faq_ids, f"no FAQ entry {entry} for {outcome}"
        return f"faq:{entry}", {}
    if "talk" in outcome:
        return TALK[outcome["talk"]], {}
    intent = REQUESTS[outcome["do"]]
    if outcome["do"] == "walk":
        place = PLACES[outcome["place"].replace("_", " ")]  # the seventh set's author wrote dinosaur_hall
        return (intent, {"place": place}) if place else (f"unknown:{intent}", {})
    args = {ARGS[k]: v for k, v in outcome.items() if k != "do" and k not in NOT_SCORED}
    return intent, args
