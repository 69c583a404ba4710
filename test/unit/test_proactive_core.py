"""The proactive node's core on the fake clock: the group's transcripts in, interventions and
floor requests out (what the node publishes), without ROS."""

from phanthy_agent.group.addressing import AddressDetector
from phanthy_agent.group.backbone import Backbone
from phanthy_agent.group.floor import Floor, FloorConfig
from phanthy_agent.group.ledger import GateConfig
from phanthy_agent.group.proactive import ProactiveCore, Publish, Request
from support.fakes import FakeClock
from test_group_backbone import monitor


def core(clock, **floor):
    m = monitor()
    backbone = Backbone(m.library, m, GateConfig(persistence_turns=2, cooldown_s=0.0))
    return ProactiveCore(backbone, Floor(FloorConfig(opening_silence_s=1.5, **floor), clock), AddressDetector(),
                         clock)


def talk(c, clock, *lines):
    out = []
    for speaker, text in lines:
        out += c.transcript(text, speaker, clock(), duration_ms=1500, confidence=0.9)
        clock.advance(3.0)
    return out


def requests(outputs, command="say"):
    return [o for o in outputs if isinstance(o, Request) and o.command == command]


def published(outputs):
    return [(o.intervention.kind, o.intervention.state) for o in outputs if isinstance(o, Publish)]


def test_an_uncorrected_claim_becomes_a_proactive_turn_and_is_delivered_when_heard_whole():
    clock = FakeClock(100.0)
    c = core(clock)
    out = talk(c, clock, ("visitor_1", "Her heart weighed 600 kilograms."), ("visitor_2", "Wow."),
               ("visitor_1", "Amazing."))
    [say] = requests(out + c.tick())
    assert say.trigger_source == "proactive" and "180 kilograms" in say.text
    assert say.input == "Her heart weighed 600 kilograms."
    c.agent_event("turn_started", say.id)
    done = c.turn_record(say.id, say.text, "finished")
    assert published(done)[0] == ("wrong", "delivered")


def test_a_direct_question_is_answered_in_a_normal_turn_at_once():
    clock = FakeClock(100.0)
    c = core(clock)
    out = c.transcript("Hey robot, how heavy was her heart?", "visitor_2", clock())
    [say] = requests(out)
    assert say.trigger_source == "speech" and say.input == "how heavy was her heart?"
    assert "180 kilograms" in say.text and published(out)[0][0] == "answer"


def test_a_visitor_talking_over_it_stops_the_turn():
    clock = FakeClock(100.0)
    c = core(clock)
    talk(c, clock, ("visitor_1", "Her heart weighed 600 kilograms."), ("visitor_2", "Wow."), ("visitor_1", "Yes."))
    [say] = requests(c.tick())
    c.agent_event("turn_started", say.id)
    assert requests(c.transcript("Wait, let me say something first.", "visitor_2", clock()), "stop")
    assert requests(c.transcript("Mm-hm.", "visitor_2", clock(), duration_ms=300), "stop") == [], "a backchannel"


def test_in_hand_raise_mode_the_hand_goes_up_and_a_grant_gives_the_floor():
    clock = FakeClock(100.0)
    c = core(clock, mode="hand_raise")
    out = talk(c, clock, ("visitor_1", "Her heart weighed 600 kilograms."), ("visitor_2", "Wow."), ("visitor_1", "Yes."))
    assert requests(out, "raise_hand") and not requests(out)
    granted = c.transcript("Yes, robot?", "visitor_2", clock())
    assert requests(granted, "lower_hand") and requests(granted)[0].trigger_source == "proactive"


def test_a_refusal_by_the_busy_agent_keeps_it_for_the_next_opening():
    clock = FakeClock(100.0)
    c = core(clock)
    talk(c, clock, ("visitor_1", "Her heart weighed 600 kilograms."), ("visitor_2", "Wow."), ("visitor_1", "Yes."))
    [say] = requests(c.tick())
    assert published(c.agent_event("floor_refused", say.id, "busy")) == [("wrong", "pending")]
    clock.advance(2.0)
    assert requests(c.tick())
