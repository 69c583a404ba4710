"""Skills with progressive disclosure: parsing, availability, the prefix listing, load_skill."""

import json

import pytest

from phanthy_agent.core.context import ContextBuilder
from phanthy_agent.core.skills import Skill, SkillLibrary, parse_skill
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, navigate_tool, speak_tool, stop_tool
from support.virtual_time import run

TOUR = """---
name: guided_tour
description: Give a short guided tour.
requirements:
  tools: [navigate_to, speak]
---
Walk to dinosaur_hall first. SECRET-TOUR-STEPS
"""


def test_a_skill_file_is_parsed_with_its_requirements():
    skill = parse_skill(TOUR, "x/SKILL.md")
    assert (skill.name, skill.description, skill.tools) == ("guided_tour", "Give a short guided tour.",
                                                            ("navigate_to", "speak"))
    assert skill.body.endswith("SECRET-TOUR-STEPS") and not skill.always


@pytest.mark.parametrize("text, why", [
    ("no front matter", "no front matter"), ("---\nname: [x\n---\nbody", "not YAML"),
    ("---\nname: x\n---\nbody", "required"), ("---\n- a\n---\nbody", "mapping"),
    ("---\nname: x\ndescription: d\nrequirements: [a]\n---\nbody", "requirements")])
def test_malformed_skills_say_what_is_wrong(text, why):
    with pytest.raises(ValueError, match=why):
        parse_skill(text)


def test_a_malformed_skill_file_is_skipped_and_the_rest_load(tmp_path, caplog):
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "SKILL.md").write_text(TOUR)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "SKILL.md").write_bytes(b"\xff\xfe not utf-8")
    library = SkillLibrary.from_dirs([str(tmp_path), str(tmp_path / "missing")])
    assert list(library.skills) == ["guided_tour"]
    assert "bad/SKILL.md skipped" in caplog.text and "does not exist" in caplog.text


def library():
    return SkillLibrary([
        parse_skill(TOUR),
        Skill("lost_visitor", "When a visitor is lost.", "ALWAYS-BODY: take them to the desk.", always=True),
        Skill("ticket_prices", "Today's prices.", "PRICES-BODY", binaries=("boxoffice-cli",), env=("BOX_TOKEN",)),
    ], which=lambda name: None, environ={})


def test_the_prefix_lists_names_and_descriptions_inlines_always_skills_and_explains_unavailable_ones():
    section = library().prefix_section(["navigate_to", "speak", "finish"])
    assert "- guided_tour: Give a short guided tour." in section
    assert "SECRET-TOUR-STEPS" not in section, "full text only through load_skill"
    assert "ALWAYS-BODY" in section
    assert "ticket_prices: Today's prices. (unavailable: missing binary boxoffice-cli, " \
           "environment variable BOX_TOKEN)" in section
    assert "guided_tour: Give a short guided tour. (unavailable: missing tool navigate_to)" in \
        library().prefix_section(["speak"])


def test_without_progressive_disclosure_every_available_skill_is_inlined():
    section = library().prefix_section(["navigate_to", "speak"], progressive=False)
    assert "SECRET-TOUR-STEPS" in section and "PRICES-BODY" not in section


def test_the_model_loads_a_skill_when_it_needs_it_and_the_prefix_stays_byte_identical():
    ex = FakeExecutor()
    for tool in (speak_tool(1), stop_tool()):
        ex.add("speaker", tool)
    ex.add("base", navigate_tool(1))
    replies = [{"tool_calls": [{"name": "load_skill", "arguments": {"name": "guided_tour"}}]},
               {"tool_calls": [{"name": "load_skill", "arguments": {"name": "ticket_prices"}},
                               {"name": "load_skill", "arguments": {"name": "nope"}}, {"name": "finish"}]},
               {"tool_calls": [{"name": "finish"}]}]

    async def scenario():
        h = Harness(ex, replies, context=ContextBuilder(skills=library()))
        h.say("can I have a tour")
        await h.turns(1)
        h.say("how much is a ticket")
        await h.turns(2)
        await h.close()
        return h

    h = run(scenario)
    first, second, third = h.brain.requests
    assert "load_skill" in [t["function"]["name"] for t in first.tools]
    results = [json.loads(m.content) for m in second.messages if m.role == "tool"]
    assert results[0]["instructions"].endswith("SECRET-TOUR-STEPS")
    results = [json.loads(m.content) for m in third.messages if m.role == "tool"][1:]
    assert "unavailable" in results[0]["error"] and "no skill 'nope'" in results[1]["error"]
    assert first.messages[0].content == third.messages[0].content, "the system prefix is byte-identical"
