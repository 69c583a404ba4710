"""The dialogue_state contract: validation and the repair policy (pure)."""

import pytest

from phanthy_agent.conversation.dialogue_state import (DialogueState, ReplyFacts, parse_dialogue_state,
                                                       resolve_dialogue_state)

END, FOLLOW_UP, CONTINUOUS = DialogueState.END, DialogueState.FOLLOW_UP, DialogueState.CONTINUOUS


@pytest.mark.parametrize("raw, state", [
    ('{"dialogue_state": "end"}', END), ({"dialogue_state": "follow_up"}, FOLLOW_UP),
    ("continuous", CONTINUOUS), ('{"dialogue_state": "Follow-up"}', FOLLOW_UP), ("FOLLOW UP", FOLLOW_UP),
    (b'{"dialogue_state": "end"}', END)])
def test_valid_values_and_spelling_variants_are_accepted(raw, state):
    assert parse_dialogue_state(raw) == (state, "")


@pytest.mark.parametrize("raw, problem", [
    (None, "missing"), ("", "missing"), ("{}", "missing"), ('{"dialogue_state": null}', "missing"),
    ('{"dialogue_state": "end"', "invalid"), ('{"dialogue_state": "maybe"}', "invalid"),
    ({"dialogue_state": 3}, "invalid"), ("[1, 2]", "invalid"), ('"bye"', "invalid")])
def test_missing_and_invalid_values_are_told_apart(raw, problem):
    state, why = parse_dialogue_state(raw)
    assert state is None and why.startswith(problem), why


def test_a_missing_state_after_a_question_waits_for_the_answer():
    r = resolve_dialogue_state(None, ReplyFacts(reply="Shall I take you there?"))
    assert r.state is FOLLOW_UP and "missing" in r.repair and "question" in r.repair


def test_an_invalid_state_after_a_statement_ends_the_conversation():
    r = resolve_dialogue_state("{not json", ReplyFacts(reply="The cafe is on the left."))
    assert r.state is END and r.repair.startswith("invalid")


def test_a_skill_waiting_for_an_answer_implies_follow_up():
    r = resolve_dialogue_state("end", ReplyFacts(reply="Please spell your name.", skill_awaiting_answer=True))
    assert r.state is FOLLOW_UP and "skill" in r.repair


def test_end_after_a_question_is_a_contradiction_repaired_to_follow_up():
    r = resolve_dialogue_state({"dialogue_state": "end"}, ReplyFacts(reply="Which floor?"))
    assert r.state is FOLLOW_UP and r.repair.startswith("end contradicts")


def test_follow_up_after_a_completed_task_with_nothing_asked_ends():
    r = resolve_dialogue_state("follow_up", ReplyFacts(reply="Here is the gift shop.", task_completed=True))
    assert r.state is END and r.repair.startswith("follow_up contradicts")


def test_follow_up_without_a_question_but_no_completed_task_is_taken_as_given():
    r = resolve_dialogue_state("follow_up", ReplyFacts(reply="Tell me when you are ready."))
    assert r.state is FOLLOW_UP and not r.repaired


def test_repairs_never_end_a_continuous_conversation():
    for raw in (None, "garbage", '{"x": 1}'):
        r = resolve_dialogue_state(raw, ReplyFacts(reply="The T. rex is 12 m long.", continuous_mode=True))
        assert r.state is CONTINUOUS and r.repaired
    r = resolve_dialogue_state("follow_up", ReplyFacts(reply="Done.", task_completed=True, continuous_mode=True))
    assert r.state is CONTINUOUS


def test_the_models_own_end_in_continuous_mode_is_honoured():
    r = resolve_dialogue_state("end", ReplyFacts(reply="Goodbye, enjoy the museum.", continuous_mode=True))
    assert r.state is END and not r.repaired
