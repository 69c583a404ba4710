"""Taking the floor, on the fake clock: an intervention waits for an opening (and for the agent
to be idle), yields when a visitor speaks, is replayed, resumed or dropped by how much was
heard, expires when the conversation moved on; in hand-raise mode it raises the hand and
speaks when given the floor, or is dropped after hand_raise_timeout_s; answers go first."""

from phanthy_agent.group.backbone import Intervention
from phanthy_agent.group.floor import (Changed, Floor, FloorConfig, LowerHand, RaiseHand, Say, Stop,
                                       heard_fraction, rest_after)
from support.fakes import FakeClock

TEXT = "Just a small correction: her heart alone weighed about 180 kilograms. It's in The Blue Whale, under The animal."


def item(kind="wrong", text=TEXT, created=100.0):
    return Intervention(id=f"{kind}1", kind=kind, claim="her heart weighed 600 kilograms", text=text,
                        citations=["whale:3"], evidence=["Her heart alone weighed about 180 kilograms."],
                        created=created)


def says(effects):
    return [e for e in effects if isinstance(e, Say)]


def states(effects):
    return [e.state for e in effects if isinstance(e, Changed)]


def floor(clock, **config):
    return Floor(FloorConfig(**config), clock)


def test_an_intervention_waits_for_an_opening_after_the_last_words():
    clock = FakeClock(100.0)
    f = floor(clock, opening_silence_s=1.5)
    f.transcript(t=100.0)
    assert says(f.offer(item())) == [], "someone just spoke"
    clock.advance(1.0)
    assert says(f.tick()) == []
    clock.advance(0.6)
    said = says(f.tick())
    assert len(said) == 1 and said[0].text == TEXT and said[0].intervention.state == "speaking"


def test_no_opening_while_the_vad_hears_speech_or_the_room_is_loud():
    clock = FakeClock(100.0)
    f = floor(clock, opening_silence_s=1.5)
    f.speech(True)
    f.offer(item())
    clock.advance(5.0)
    assert says(f.tick()) == [], "someone is speaking"
    f.speech(False, t=clock())
    clock.advance(2.0)
    f.energy(-20.0, t=clock())  # loud: people talk without the VAD's onset yet, a door, music
    assert says(f.tick()) == []
    clock.advance(0.6)
    f.energy(-60.0, t=clock())
    assert len(says(f.tick())) == 1


def test_an_intervention_never_talks_over_a_reply():
    clock = FakeClock(100.0)
    f = floor(clock)
    f.agent_idle(False)
    f.offer(item())
    clock.advance(10.0)
    assert says(f.tick()) == []
    assert len(says(f.agent_idle(True))) == 1


def test_it_yields_when_a_visitor_speaks_and_is_replayed_when_little_was_heard():
    clock = FakeClock(100.0)
    f = floor(clock)
    clock.advance(2.0)
    request = says(f.offer(item()))[0].request_id
    f.started(request)
    clock.advance(0.5)
    assert [type(e) for e in f.transcript(t=clock())] == [Stop]
    effects = f.finished(request, "Just a small", interrupted=True)
    assert "yielded" in states(effects) and f.queue[0].state == "pending"
    clock.advance(2.0)
    again = says(f.tick())
    assert again[0].text == TEXT, "under a third heard: said again from the start"


def test_it_resumes_with_the_rest_when_some_was_heard():
    clock = FakeClock(100.0)
    f = floor(clock)
    clock.advance(2.0)
    request = says(f.offer(item()))[0].request_id
    heard = "Just a small correction: her heart alone weighed about 180 kilograms. It's"
    f.transcript(t=clock())  # the visitor who spoke over it
    assert says(f.finished(request, heard, interrupted=True)) == [], "not while they speak"
    clock.advance(2.0)
    assert says(f.tick())[0].text == "It's in The Blue Whale, under The animal."


def test_it_is_done_when_most_was_heard():
    clock = FakeClock(100.0)
    f = floor(clock)
    clock.advance(2.0)
    request = says(f.offer(item()))[0].request_id
    effects = f.finished(request, TEXT.rsplit(" ", 2)[0], interrupted=True)
    assert states(effects)[-1] == "delivered" and not f.busy()


def test_a_whole_delivery_is_delivered():
    clock = FakeClock(100.0)
    f = floor(clock)
    clock.advance(2.0)
    request = says(f.offer(item()))[0].request_id
    assert states(f.finished(request, TEXT)) == ["delivered"]


def test_an_intervention_talked_over_again_and_again_is_dropped():
    clock = FakeClock(100.0)
    f = floor(clock, max_attempts=2)
    clock.advance(2.0)
    request = says(f.offer(item()))[0].request_id
    f.transcript(t=clock())  # the visitor who spoke over it
    assert says(f.finished(request, "Just a small", interrupted=True)) == []
    clock.advance(2.0)
    request = says(f.tick())[0].request_id  # said again at the next opening
    effects = f.finished(request, "Just a small", interrupted=True)
    assert states(effects)[-1] == "dropped" and "yielded too often" in effects[-1].intervention.reason
    assert not f.busy()


def test_it_expires_when_the_conversation_moved_on():
    clock = FakeClock(100.0)
    f = floor(clock, usefulness_s=45.0, usefulness_turns=6)
    f.speech(True)  # people keep talking: no opening
    f.offer(item(created=100.0))
    clock.advance(46.0)
    assert states(f.tick()) == ["dropped"] and f.queue == []
    g = floor(clock, usefulness_turns=2)
    g.speech(True)
    g.offer(item(created=clock()))
    for _ in range(2):
        g.transcript(t=clock())
    assert states(g.transcript(t=clock())) == ["dropped"]


def test_a_refused_request_waits_for_the_next_opening():
    clock = FakeClock(100.0)
    f = floor(clock)
    clock.advance(2.0)
    request = says(f.offer(item()))[0].request_id
    assert states(f.refused(request, "busy")) == ["pending"]
    f.transcript(t=clock())
    clock.advance(1.6)
    assert len(says(f.tick())) == 1


def test_a_request_the_agent_never_answers_is_asked_again():
    clock = FakeClock(100.0)
    f = floor(clock, request_timeout_s=5.0)
    clock.advance(2.0)
    says(f.offer(item()))
    clock.advance(5.5)
    assert states(f.tick())[:1] == ["pending"]


def test_hand_raise_is_granted_by_a_phrase_or_the_wake_word():
    clock = FakeClock(100.0)
    f = floor(clock, mode="hand_raise")
    effects = f.offer(item())
    assert any(isinstance(e, RaiseHand) for e in effects) and f.hand_raised.state == "hand_raised"
    clock.advance(20.0)
    granted = f.grant()
    assert isinstance(granted[0], LowerHand) and says(granted)[0].text == TEXT


def test_a_raised_hand_nobody_grants_is_dropped_after_the_timeout():
    clock = FakeClock(100.0)
    f = floor(clock, mode="hand_raise", hand_raise_timeout_s=60.0)
    f.offer(item())
    clock.advance(59.0)
    assert f.tick() == []
    clock.advance(2.0)
    effects = f.tick()
    assert isinstance(effects[0], LowerHand) and states(effects) == ["dropped"]
    assert f.grant() == []


def test_a_direct_answer_goes_first_and_stops_an_intervention_being_said():
    clock = FakeClock(100.0)
    f = floor(clock)
    clock.advance(2.0)
    request = says(f.offer(item()))[0].request_id
    answer = item(kind="answer", text="Her heart alone weighed about 180 kilograms.")
    effects = f.offer(answer)
    assert Stop(request) in effects
    assert says(f.finished(request, "Just a", interrupted=True))[0].intervention.kind == "answer"


def test_fractions_and_rests():
    assert heard_fraction("one two three four", "one two") == 0.5
    assert rest_after("First one. Second one.", "First one. Sec") == "Second one."
    assert rest_after("First one.", "First one.") == ""
