"""Scenario files: the shipped suite is valid; a bad file is a clear error naming the line and
field; the visitor's rules decide deterministically; a model
visitor talks to an OpenAI-compatible server (the local test server) and stops when done or down."""

import pathlib
import textwrap

import pytest

from phanthy_agent.evaluation.runner import load_all, rate_with_se, suite_rates
from phanthy_agent.evaluation.scenario import ScenarioError, load
from phanthy_agent.evaluation.scenario import VisitorBrain
from phanthy_agent.evaluation.visitor import OpenAIVisitor, RulesVisitor
from support.openai_server import OpenAIServer

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOOD = """\
name: closing time
tags: [simple]
visitor:
  mode: text
  script:
    - say: When does the museum close?
    - wait: reply
expect:
  - said: "6 pm"
"""


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_the_shipped_suite_is_valid_and_large_enough():
    scenarios = load_all([str(ROOT / "eval")])
    assert len(scenarios) >= 40
    tags = [t for s in scenarios for t in s.tags]
    for tag in ("simple", "complex", "adversarial"):
        assert tags.count(tag) >= 8, tag
    assert sum(s.visitor.mode == "audio" for s in scenarios) >= 8


def test_a_good_file_loads(tmp_path):
    s = load(write(tmp_path, GOOD))
    assert s.name == "closing time" and s.visitor.script[1].wait == "reply"
    assert s.expect[0].kind == "said" and s.expect[0].spec == "6 pm"


@pytest.mark.parametrize("change, message", [
    (("    - wait: reply\n", "    - wait: later\n"), "s.yaml:7: visitor.script.1"),
    (("  - said: \"6 pm\"\n", "  - sayd: \"6 pm\"\n"), "s.yaml:9: expect.0"),
    (("  mode: text\n", "  mode: video\n"), "s.yaml:4: visitor.mode: Input should be 'text' or 'audio'"),
    (("  - said: \"6 pm\"\n", "  - said: \"6 pm\"\n    called: {tool: x}\n"), "exactly one kind"),
    (("    - wait: reply\n", "    - wait: reply\n      say: hello\n"), "a step is either"),
    (("name: closing time\n", ""), "name: Field required"),
    (("  - said: \"6 pm\"\n", "  - sql: {query: SELECT 1}\n"), "`equals: [[...]]` or `contains: [...]`"),
])
def test_a_bad_file_names_the_line_and_the_field(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    with pytest.raises(ScenarioError) as error:
        load(write(tmp_path, GOOD.replace(old, new)))
    assert message in str(error.value)


def test_broken_yaml_and_unknown_params_are_clear_errors(tmp_path):
    with pytest.raises(ScenarioError, match=r"s.yaml:3: not valid YAML"):
        load(write(tmp_path, "name: x\ntags: [simple\nvisitor: {}\n"))
    with pytest.raises(ScenarioError, match="must be `node.param`"):
        load(write(tmp_path, GOOD + "robot: {params: {brain: offline}}\n"))
    with pytest.raises(ScenarioError, match="no such file"):
        load_all([str(tmp_path / "missing")])


def test_two_scenarios_may_not_share_a_name(tmp_path):
    write(tmp_path, GOOD, "a.yaml")
    write(tmp_path, GOOD, "b.yaml")
    with pytest.raises(ScenarioError, match="also used by"):
        load_all([str(tmp_path)])


def test_a_rules_visitor_answers_the_first_unused_matching_rule():
    v = RulesVisitor(VisitorBrain(kind="rules", rules=[{"when": "name", "say": "Marie Curie."},
                                                       {"when": "how many|name", "say": "Two."}],
                                  otherwise=None))
    assert v.next("What is your name?") == "Marie Curie."
    assert v.next("And your name again?") == "Two."  # the first rule is used up
    assert v.next("Your name?") is None  # nothing left: the visitor is done


def test_a_model_visitor_keeps_its_goal_private_reads_the_robot_as_the_user_and_stops_when_done():
    with OpenAIServer([{"content": "Ada Lovelace, code K7P2QD."}, {"content": "[done]"}]) as server:
        brain = VisitorBrain(kind="openai", base_url=server.base_url, model="test-model")
        visitor = OpenAIVisitor(brain, goal="cancel booking K7P2QD", opening="I want to cancel my booking.")
        assert visitor.next("May I have your name and booking code?") == "Ada Lovelace, code K7P2QD."
        assert visitor.next("Your booking is cancelled.") is None
        first = server.requests[0]["messages"]
        assert first[0]["role"] == "system" and "cancel booking K7P2QD" in first[0]["content"]
        assert first[1:] == [{"role": "assistant", "content": "I want to cancel my booking."},
                             {"role": "user", "content": "May I have your name and booking code?"}]
        assert server.requests[1]["messages"][-1] == {"role": "user", "content": "Your booking is cancelled."}


def test_a_model_visitor_whose_model_fails_stops_and_the_run_is_graded():
    with OpenAIServer([{"http_status": 500}, {"http_status": 500}, {"http_status": 500}]) as server:
        brain = VisitorBrain(kind="openai", base_url=server.base_url, model="test-model")
        assert OpenAIVisitor(brain, goal="g", opening="hi", timeout_s=5).next("Hello!") is None


def test_pass_rates_carry_standard_errors():
    assert rate_with_se([True, True, False, False]) == (0.5, 0.25)

    class R:  # the fields suite_rates reads
        def __init__(self, run, passed):
            self.run, self.passed = run, passed

    mean, se = suite_rates([R(0, True), R(0, False), R(1, True), R(1, True)], repeat=2)
    assert mean == 0.75 and se == pytest.approx(0.25)


def test_param_overrides_parse_as_yaml_and_malformed_ones_are_errors():
    from phanthy_agent.evaluation.runner import parse_params
    assert parse_params(["agent.agent.brain=openai", "speaker.sim.ms_per_char=20", "x.flag=true"]) == {
        "agent.agent.brain": "openai", "speaker.sim.ms_per_char": 20, "x.flag": True}
    for bad in ("brain=openai", "agent.agent.brain", "a.b=[unclosed"):
        with pytest.raises(ScenarioError, match="--param"):
            parse_params([bad])


def test_a_run_into_a_report_directory_used_before_builds_its_world_afresh(tmp_path):
    from phanthy_agent.evaluation.run_one import build_world
    scenario = next(s for s in load_all([str(ROOT / "eval")]) if s.sql_sources())
    world = tmp_path / "world.sqlite"
    build_world(scenario, world)
    build_world(scenario, world)  # was: "table tours already exists", every scenario failed to start
    import sqlite3
    db = sqlite3.connect(world)
    assert db.execute("select count(*) from tours").fetchone()[0] > 0
    db.close()
