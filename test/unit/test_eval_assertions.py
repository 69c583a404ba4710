"""The assertion engine on hand-built traces: each kind passes and fails where it should, with
the message a failure gives."""

import sqlite3

import pytest

from phanthy_agent.evaluation.assertions import check, first_failure, run_passed
from phanthy_agent.evaluation.scenario import Assertion
from phanthy_agent.evaluation.trace import Trace


@pytest.fixture
def trace(tmp_path):
    world = tmp_path / "world.sqlite"
    with sqlite3.connect(world) as db:
        db.executescript("CREATE TABLE bookings (code TEXT, name TEXT, status TEXT);"
                         "INSERT INTO bookings VALUES ('K7P2QD', 'Ada', 'cancelled'), ('ZZ9ZZ9', 'Bo', 'booked');")
    t = Trace("hand-built", world=str(world))
    t.add("visitor_said", 0.5, text="cancel my booking, Ada, K7P2QD", mode="text", t_end=0.5)
    t.add("tool_call", 0.6, tool="get_booking", args={"name": "Ada", "code": "K7P2QD"}, action_id="a1",
          status="succeeded", result={"booking": {"status": "booked"}}, error="", t_end=0.61, turn=0)
    t.add("tool_call", 0.7, tool="cancel_booking", args={"name": "Ada", "code": "K7P2QD"}, action_id="a2",
          status="succeeded", result=None, error="", t_end=0.72, turn=0)
    t.add("robot_said", 0.8, text="Done, your booking K7P2QD is cancelled.", full_text="...", t_end=2.0,
          status="completed", utterance_id="u1")
    t.add("turn", 2.1, index=0, session="main", trigger_source="speech", inputs=["cancel my booking, Ada, K7P2QD"],
          reply="Done", end_reason="finished", dialogue_state="follow_up", t_trigger=0.5, t_first_token=0.55,
          t_first_audio=0.8)
    return t


def verdict(data, trace):
    return check(Assertion.model_validate(data), 0, trace)


@pytest.mark.parametrize("data, passes", [
    ({"said": r"booking \w+ is cancelled"}, True),
    ({"said": "refunded"}, False),
    ({"not_said": "refunded"}, True),
    ({"not_said": "k7p2qd"}, False),  # case-insensitive
    ({"called": {"tool": "cancel_booking"}}, True),
    ({"called": {"tool": "cancel_booking", "args": {"code": "K7P2QD"}, "status": "succeeded"}}, True),
    ({"called": {"tool": "cancel_booking", "args": {"code": "OTHER"}}}, False),
    ({"called": {"tool": "cancel_booking", "status": "failed"}}, False),
    ({"called": {"tool": "cancel_booking", "count": 1}}, True),
    ({"called": {"tool": "cancel_booking", "count": 2}}, False),
    ({"called": {"tool": "refund_booking"}}, False),
    ({"not_called": {"tool": "refund_booking"}}, True),
    ({"not_called": {"tool": "cancel_booking", "status": "succeeded"}}, False),
    ({"order": {"before": "get_booking", "after": "cancel_booking"}}, True),
    ({"order": {"before": "cancel_booking", "after": "get_booking"}}, False),
    ({"order": {"before": "get_booking", "before_status": "failed", "after": "cancel_booking"}}, False),
    ({"order": {"before": "get_booking", "after": "refund_booking"}}, True),  # never happened: holds
    ({"order": {"before": "visitor_said", "after": "robot_said"}}, True),
    ({"sql": {"query": "SELECT status FROM bookings WHERE code = 'K7P2QD'", "equals": [["cancelled"]]}}, True),
    ({"sql": {"query": "SELECT status FROM bookings WHERE code = 'K7P2QD'", "equals": [["booked"]]}}, False),
    ({"sql": {"query": "SELECT code, status FROM bookings", "contains": ["ZZ9ZZ9", "booked"]}}, True),
    ({"sql": {"query": "SELECT code, status FROM bookings", "contains": ["ZZ9ZZ9", "cancelled"]}}, False),
    ({"sql": {"query": "SELECT nothing FROM nowhere", "equals": [[1]]}}, False),
    ({"turn": {"end_reason": "finished", "dialogue_state": "follow_up"}}, True),
    ({"turn": {"end_reason": "interrupted"}}, False),
    ({"turn": {"inputs_contain": "K7P2QD"}}, True),
    ({"turn": {"count": 1}}, True),
    ({"turn": {"count": 2}}, False),
    ({"turn": {"index": 3, "end_reason": "finished"}}, False),
    ({"within_s": {"from": "visitor_said", "to": "robot_said", "max": 0.5}}, True),
    ({"within_s": {"from": "visitor_said", "to": "robot_said", "max": 0.2}}, False),
    ({"within_s": {"from": "visitor_said", "to": "tool:refund_booking", "max": 5}}, False),
    ({"dialogue_state": "follow_up"}, True),
    ({"dialogue_state": "end"}, False),
])
def test_each_assertion_kind_passes_and_fails_where_it_should(trace, data, passes):
    assert verdict(data, trace).passed is passes


def test_a_failure_says_what_it_expected_and_what_the_trace_had(trace):
    v = verdict({"called": {"tool": "refund_booking", "status": "succeeded"}}, trace)
    assert v.message == ("called #1: expected a call of refund_booking ending succeeded; "
                         "found no calls of refund_booking (calls made: cancel_booking, get_booking)")
    v = verdict({"sql": {"query": "SELECT status FROM bookings WHERE code = 'K7P2QD'", "equals": [["booked"]]}}, trace)
    assert "expected \"SELECT status FROM bookings WHERE code = 'K7P2QD'\" = [[\"booked\"]]" in v.message
    assert v.found == '[["cancelled"]]'
    v = verdict({"not_said": "K7P2QD"}, trace)
    assert v.found.startswith("'K7P2QD' in ")
    v = verdict({"within_s": {"from": "visitor_said", "to": "robot_said", "max": 0.2}}, trace)
    assert v.found == "0.30 s"


def test_an_args_subset_compares_numbers_and_names_as_a_person_would(trace):
    trace.add("tool_call", 3.0, tool="book_tickets", args={"tour_id": "dinosaurs-1500", "tickets": 2,
                                                            "name": "Marie  Curie"}, status="succeeded")
    assert verdict({"called": {"tool": "book_tickets", "args": {"tickets": 2.0, "name": "marie curie"}}}, trace).passed
    assert not verdict({"called": {"tool": "book_tickets", "args": {"tickets": True}}}, trace).passed


def test_a_judge_assertion_is_not_graded_by_the_engine(trace):
    v = verdict({"judge": "the robot was polite"}, trace)
    assert v.passed is None
    assert run_passed(trace, [v])  # never the only grader: an ungraded judge does not fail a run


def test_a_run_that_did_not_complete_fails_whatever_its_assertions(trace):
    good = [verdict({"said": "cancelled"}, trace)]
    assert run_passed(trace, good) and first_failure(trace, good) == ""
    trace.outcome, trace.error = "timeout", "not idle by the scenario's timeout (120 s)"
    assert not run_passed(trace, good)
    assert first_failure(trace, good) == "run timeout: not idle by the scenario's timeout (120 s)"


def test_sql_without_a_world_fails_with_the_reason(trace):
    trace.world = ""
    v = verdict({"sql": {"query": "SELECT 1", "equals": [[1]]}}, trace)
    assert v.passed is False and v.found == "no world database in this run"


def test_the_trace_round_trips_through_json(trace):
    import json
    again = Trace.from_dict(json.loads(json.dumps(trace.to_dict())))
    assert again.events == trace.to_dict()["events"] and again.world == trace.world
    assert again.said() == "Done, your booking K7P2QD is cancelled."


def test_judge_assertions_are_graded_by_the_model_and_their_agreement_reported(trace, monkeypatch):
    from support.openai_server import OpenAIServer

    from phanthy_agent.evaluation.assertions import check_all
    from phanthy_agent.evaluation.judge import agreement, make_judge
    from phanthy_agent.evaluation.runner import RunResult
    from phanthy_agent.evaluation.scenario import Scenario

    scenario = Scenario.model_validate({
        "name": "judged", "visitor": {"script": [{"say": "hi"}]},
        "expect": [{"said": "cancelled"}, {"judge": "the robot confirmed the cancellation"}]})
    with OpenAIServer([{"content": "PASS\nIt said the booking is cancelled."},
                       {"content": "FAIL\nNo."}]) as server:
        monkeypatch.setenv("PHANTHY_JUDGE_BASE_URL", server.base_url)
        judge = make_judge()
        first, second = judge(scenario, trace), judge(scenario, trace)
        prompt = server.requests[0]["messages"][0]["content"]
    assert [v.passed for v in first] == [True] and [v.passed for v in second] == [False]
    assert "the robot confirmed the cancellation" in prompt and "tool cancel_booking(" in prompt
    verdicts = check_all(scenario.expect, trace)
    results = [RunResult(scenario, k, trace, verdicts, True, "", judged) for k, judged in enumerate((first, second))]
    assert agreement(results) == (1, 2)


def test_an_unreachable_judge_grades_nothing_and_says_why(trace, monkeypatch):
    from phanthy_agent.evaluation.judge import make_judge
    from phanthy_agent.evaluation.scenario import Scenario

    monkeypatch.setenv("PHANTHY_JUDGE_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens on the discard port
    scenario = Scenario.model_validate({"name": "j", "visitor": {"script": [{"say": "hi"}]},
                                        "expect": [{"judge": "polite"}]})
    [v] = make_judge()(scenario, trace)
    assert v.passed is None and v.found.startswith("judge unavailable")
