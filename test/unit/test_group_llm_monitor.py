"""The `llm` monitor against the local OpenAI-compatible test server: structured output in,
and the same deterministic checks before anything counts (citations resolve, the right value
is in them, the wrong value in the turn); a broken or silent endpoint leaves the turn to the
offline monitor. Plumbing only: no capable model runs here."""

import json

from phanthy_agent.group.backbone import Backbone
from phanthy_agent.group.factory import LlmSettings
from phanthy_agent.group.focus import Focus
from phanthy_agent.group.ledger import GateConfig
from phanthy_agent.group.llm_monitor import LlmMonitor
from phanthy_agent.group.monitor import Label, Turn
from phanthy_agent.group.offline_monitor import OfflineMonitor
from support.group import OverlapRetriever, library
from support.openai_server import OpenAIServer
from test_group_backbone import LOOSE


def label(label, ids=(), correct="", said="", claim="the point"):
    return {"content": json.dumps({"label": label, "claim": claim, "sentence_ids": list(ids),
                                   "correct_value": correct, "said_value": said})}


def monitor(server):
    lib = library()
    offline = OfflineMonitor(OverlapRetriever(lib), focus=Focus(fixed="whale"), thresholds=LOOSE)
    return LlmMonitor(lib, offline, LlmSettings(base_url=server.base_url, model="test-model", timeout_s=2.0,
                                                max_retries=0))


WRONG = Turn(1, "visitor_2", "Her heart weighed 600 kilograms.")


def test_a_structured_label_that_passes_the_checks_is_a_finding():
    with OpenAIServer([label("wrong", ["whale:3"], "180 kilograms", "600 kilograms")]) as server:
        finding = monitor(server).assess(WRONG)
        request = server.requests[0]
    assert finding.label is Label.WRONG and finding.source == "llm"
    assert finding.citations == ("whale:3",) and finding.value.value == 180.0
    assert request["response_format"]["type"] == "json_schema"
    prompt = request["messages"][1]["content"]
    assert "[whale:3] Her heart alone weighed about 180 kilograms." in prompt and WRONG.text in prompt


def test_a_label_whose_citation_does_not_resolve_or_hold_the_value_is_refused():
    replies = [label("wrong", ["whale:99"], "180 kilograms", "600 kilograms"),
               label("wrong", ["whale:2"], "180 kilograms", "600 kilograms"),
               label("wrong", ["whale:3"], "180 kilograms", "700 kilograms")]
    with OpenAIServer(replies) as server:
        m = monitor(server)
        findings = [m.assess(WRONG) for _ in replies]
    assert [f.label for f in findings] == [Label.ON_TRACK] * 3
    assert m.stats.rejected == 3


def test_a_failing_endpoint_leaves_the_turn_to_the_offline_monitor():
    replies = [{"http_status": 500}, {"malformed": True}, {"content": "not json at all"}]
    with OpenAIServer(replies) as server:
        m = monitor(server)
        findings = [m.assess(WRONG) for _ in replies]
    assert [f.label for f in findings] == [Label.WRONG] * 3 and all(f.source == "offline" for f in findings)
    assert m.stats.failures == 3


def test_the_llm_monitor_goes_through_the_same_guard_and_gate():
    replies = [label("wrong", ["whale:3"], "180 kilograms", "600 kilograms"), label("on_track"),
               label("on_track"), label("on_track")]
    with OpenAIServer(replies) as server:
        m = monitor(server)
        b = Backbone(m.library, m, GateConfig(persistence_turns=2, cooldown_s=0.0))
        for i, text in enumerate([WRONG.text, "Really?", "Oh wait, no, it was 180 kilograms."]):
            b.hear(Turn(i, "A", text, 4.0 * i))
        assert b.next_intervention(20.0) is None, "the group fixed it: the model's finding does not speak"


def test_a_direct_question_is_answered_only_with_a_checked_citation():
    replies = [label("gap", ["whale:3"], "180 kilograms"), label("gap", ["whale:1"], "180 kilograms")]
    with OpenAIServer(replies) as server:
        m = monitor(server)
        b = Backbone(m.library, m, answerer=m.answer_question)
        good = b.answer(Turn(0, "A", "robot, how heavy was her heart?"), "how heavy was her heart?")
        bad = b.answer(Turn(1, "A", "robot, how heavy was her heart?"), "how heavy was her heart?")
    assert good.kind == "answer" and good.citations == ["whale:3"]
    assert bad.kind == "abstain", "a citation that does not hold the value: the fixed abstention, never a guess"
