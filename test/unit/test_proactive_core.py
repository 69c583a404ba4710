"""The proactive node's core on the fake clock: the group's transcripts in, interventions and
floor requests out (what the node publishes), without ROS."""

from phanthy_agent.group.addressing import AddressDetector
from phanthy_agent.group.backbone import Backbone
from phanthy_agent.group.floor import Floor, FloorConfig
from phanthy_agent.group.group_session import GroupEnded, GroupSession
from phanthy_agent.group.ledger import GateConfig
from phanthy_agent.group.proactive import ProactiveCore, Publish, Request
from support.fakes import FakeClock
from test_group_backbone import monitor


def core(clock, end_after_s=120.0, **floor):
    m = monitor()
    backbone = Backbone(m.library, m, GateConfig(persistence_turns=2, cooldown_s=0.0))
    return ProactiveCore(backbone, Floor(FloorConfig(opening_silence_s=1.5, **floor), clock), AddressDetector(),
                         clock, group=GroupSession(end_after_s))


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


# --- one group after another ------------------------------------------------------------------------
HEART_SWAP = (("visitor_1", "Her heart weighed 600 kilograms."), ("visitor_2", "Wow."), ("visitor_1", "Amazing."))


def deliver(c, outputs):
    [say] = requests(outputs)
    c.agent_event("turn_started", say.id)
    return c.turn_record(say.id, say.text, "finished")


def ended(outputs):
    return [o for o in outputs if isinstance(o, GroupEnded)]


def test_a_group_silent_for_end_after_s_is_over_and_the_next_group_starts_from_nothing():
    clock = FakeClock(100.0)
    c = core(clock, end_after_s=120.0)
    deliver(c, talk(c, clock, *HEART_SWAP) + c.tick())  # the robot told the first group
    clock.advance(110.0)
    assert ended(c.tick()) == [], "two minutes are not over yet"
    clock.advance(10.0)
    [group] = ended(c.tick())
    assert group.speakers == ["visitor_1", "visitor_2"] and group.turns == 3
    assert "120 s" in group.reason and len(c.backbone.recent) == 0
    assert c.backbone.ledger.claims == [] and c.group.speakers == []
    again = talk(c, clock, ("speaker_1", "Her heart weighed 600 kilograms."), ("speaker_2", "Wow."),
                 ("speaker_1", "Amazing.")) + c.tick()
    assert "180 kilograms" in requests(again)[0].text, "the new group never heard it: not a repeat for them"
    assert ended(again) == [] and c.group.speakers == ["speaker_1", "speaker_2"]


def test_a_pause_shorter_than_end_after_s_keeps_the_group_and_what_it_was_told():
    clock = FakeClock(100.0)
    c = core(clock, end_after_s=120.0)
    deliver(c, talk(c, clock, *HEART_SWAP) + c.tick())
    clock.advance(100.0)
    later = talk(c, clock, *HEART_SWAP) + c.tick()
    assert ended(later) == [] and requests(later) == [], "the same group heard it already"
    assert c.group.turns == 6


def test_what_waits_for_a_group_that_left_is_dropped_and_a_raised_hand_lowered():
    clock = FakeClock(100.0)
    c = core(clock, end_after_s=30.0, mode="hand_raise")
    assert requests(talk(c, clock, *HEART_SWAP) + c.tick(), "raise_hand")
    clock.advance(30.0)
    out = c.tick()
    assert requests(out, "lower_hand") and ended(out)
    [dropped] = [o.intervention for o in out if isinstance(o, Publish)]
    assert dropped.state == "dropped" and "the group left" in dropped.reason
    assert c.floor.hand_raised is None and c.floor.queue == []


def test_the_group_is_not_over_while_the_robot_is_speaking_to_it():
    clock = FakeClock(100.0)
    c = core(clock, end_after_s=10.0)
    [say] = requests(talk(c, clock, *HEART_SWAP) + c.tick())
    c.agent_event("turn_started", say.id)
    clock.advance(12.0)
    assert ended(c.tick()) == []
    c.turn_record(say.id, say.text, "finished")
    assert ended(c.tick())


def test_end_after_s_zero_keeps_one_group_forever():
    clock = FakeClock(100.0)
    c = core(clock, end_after_s=0.0)
    talk(c, clock, *HEART_SWAP)
    clock.advance(24 * 3600.0)
    assert ended(c.tick() + c.transcript("Hello again.", "visitor_3", clock())) == []
    assert c.group.speakers == ["visitor_1", "visitor_2", "visitor_3"]
