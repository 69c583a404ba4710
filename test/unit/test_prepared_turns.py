"""Prepared turns (group conversations): the proactive node's words are said as they are,
through the speech tool, in a turn with the request's id and trigger source; never over a
reply; stopped by id when a visitor speaks over them."""

from phanthy_agent.core.events import Event
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, speak_tool, stop_tool
from support.virtual_time import run

SAY = "Just a small correction: her heart weighed about 180 kilograms."


def robot(speak_s=1.0):
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(speak_s))
    ex.add("speaker", stop_tool())
    return ex


def prepared(text=SAY, turn_id="iv1-1", source="proactive", claim="her heart weighed 600 kilograms"):
    return Event(source=source, priority=5, text=claim, prepared_reply=text, turn_id=turn_id)


def test_a_prepared_turn_says_its_words_without_asking_the_brain():
    async def scenario():
        h = Harness(robot(), [{"content": "The brain would say this."}])
        assert h.core.start_prepared(prepared()) == ""
        [turn] = await h.turns(1)
        await h.close()
        return h, turn
    h, turn = run(scenario)
    assert turn.turn_id == "iv1-1" and turn.trigger_source == "proactive"
    assert turn.inputs == ["her heart weighed 600 kilograms"] and turn.reply == SAY
    assert turn.brains == ["prepared"] and turn.end_reason == "finished"
    assert [c.args["text"] for c in h.executor.calls("speak")] == [SAY], "the brain was not asked"


def test_a_prepared_turn_is_refused_while_the_robot_answers():
    async def scenario():
        h = Harness(robot(speak_s=3.0), [{"content": "We open at nine."}])
        h.say("when do you open")
        await h.until(lambda: h.core.current_state() == "speaking")
        refused = h.core.start_prepared(prepared())
        [turn] = await h.turns(1)
        await h.close()
        return refused, turn
    refused, turn = run(scenario)
    assert "busy" in refused
    assert turn.trigger_source == "speech", "only the visitor's turn ran"


def test_a_prepared_turn_stopped_by_id_ends_interrupted_with_what_was_heard():
    async def scenario():
        h = Harness(robot(speak_s=4.0), [])
        h.core.start_prepared(prepared())
        await h.until(lambda: h.core.current_state() == "speaking")
        await h.at(h.now() + 1.0)
        assert not h.core.stop_turn("another-id")
        assert h.core.stop_turn("iv1-1")
        [turn] = await h.turns(1)
        await h.close()
        return h, turn
    h, turn = run(scenario)
    assert turn.end_reason == "interrupted" and turn.turn_id == "iv1-1"
    assert "on_interrupt_speak" in h.executor.hooks_fired()


def test_a_floor_request_while_busy_is_refused_with_an_agent_event_and_bad_ones_too():
    from phanthy_agent.core.prepared import FloorCommand, handle

    async def scenario():
        h = Harness(robot(speak_s=3.0), [{"content": "We open at nine."}])
        h.say("when do you open")
        await h.until(lambda: h.core.current_state() == "speaking")
        busy = handle(h.core, FloorCommand("iv2-1", "say", "proactive", "a claim", SAY))
        odd = handle(h.core, FloorCommand("iv3-1", "dance"))
        empty = handle(h.core, FloorCommand("iv4-1", "say"))
        await h.turns(1)
        await h.close()
        return h, busy, odd, empty
    h, busy, odd, empty = run(scenario)
    refused = [(e[2], e[6]) for e in h.sink.kinds("floor_refused")]
    assert [turn_id for turn_id, _ in refused] == ["iv2-1", "iv3-1", "iv4-1"]
    assert "busy" in busy and "unknown command" in odd and "needs an id and text" in empty


def test_a_stop_that_arrives_before_the_prepared_turn_began_still_stops_it():
    """The say and the stop come on one topic, in order, and can both reach the core's loop
    before the turn begins (a loaded machine): the stop must not be lost."""
    async def scenario():
        h = Harness(robot(speak_s=4.0), [])
        assert h.core.start_prepared(prepared()) == ""
        assert not h.core.turn_running()
        assert h.core.stop_turn("iv1-1"), "a queued prepared turn is stopped too"
        assert not h.core.stop_turn("another-id")
        [turn] = await h.turns(1)
        await h.close()
        return h, turn
    h, turn = run(scenario)
    assert turn.end_reason == "interrupted" and turn.turn_id == "iv1-1" and turn.reply == ""
    assert not h.executor.calls("speak"), "nothing of it was said"
