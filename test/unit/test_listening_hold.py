"""While a visitor is speaking, the robot does not act past their words: acting tools and
finish wait (bounded) for the transcript; a backchannel releases the wait."""

from phanthy_agent.core.agent import AgentConfig
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, navigate_tool, speak_tool, stop_tool
from support.virtual_time import run


def robot():
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(duration_s=2))
    ex.add("speaker", stop_tool())
    ex.add("base", navigate_tool(duration_s=5))
    return ex


def call(name, **args):
    return {"name": name, "arguments": args}


REPLIES = [{"tool_calls": [call("speak", text="Follow me to the dinosaur hall."),
                           call("navigate_to", place="dinosaur_hall"), call("finish")]},
           {"tool_calls": [call("navigate_to", place="gift_shop"), call("finish")]}]


def test_the_robot_does_not_start_walking_while_the_visitor_is_still_talking():
    ex = robot()

    async def scenario():
        h = Harness(ex, REPLIES)
        h.say("take me to the dinosaur hall")
        await h.at(1.5)
        h.core.voice_activity(True)  # the visitor starts talking while the robot speaks
        await h.at(3.0)
        h.core.voice_activity(False)
        await h.at(3.3)
        h.say("actually the gift shop first")
        turns = await h.turns(1)
        await h.close()
        return turns

    [turn] = run(scenario)
    places = [s.args["place"] for s in ex.calls("navigate_to")]
    assert places == ["gift_shop"], "never walked towards the dinosaur hall"
    assert turn.inputs == ["take me to the dinosaur hall", "actually the gift shop first"]


def test_a_backchannel_releases_the_hold_and_the_robot_carries_on():
    ex = robot()

    async def scenario():
        h = Harness(ex, REPLIES[:1])
        h.say("take me to the dinosaur hall")
        await h.at(1.5)
        h.core.voice_activity(True)
        await h.at(1.9)
        h.core.voice_activity(False)
        await h.at(2.3)
        h.say("mm-hm", duration_ms=400)
        turns = await h.turns(1)
        await h.close()
        return turns

    [turn] = run(scenario)
    [nav] = ex.calls("navigate_to")
    assert 2.3 <= nav.t < 2.4, "walks as soon as the backchannel is recognised"
    assert turn.end_reason == "finished"


def test_the_hold_is_bounded_when_no_words_ever_come():
    ex = robot()

    async def scenario():
        h = Harness(ex, REPLIES[:1], AgentConfig(transcript_grace_s=1.0, words_due_max_s=6.0))
        h.say("take me to the dinosaur hall")
        await h.at(1.0)
        h.core.voice_activity(True)  # a noise that the VAD never ends
        turns = await h.turns(1)
        await h.close()
        return turns

    [turn] = run(scenario)
    [nav] = ex.calls("navigate_to")
    assert 7.0 <= nav.t < 7.1 and turn.end_reason == "finished"


def test_when_barge_in_already_stopped_the_speech_the_turn_counts_as_interrupted():
    ex = robot()
    replies = [{"tool_calls": [call("speak", text="A very long story about dinosaurs."), call("finish")]},
               {"tool_calls": [call("finish")]}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("tell me a story")
        await h.at(1.0)
        h.core.voice_activity(True)
        ex.cancel(ex.calls("speak")[0].action_id)  # the speaker's barge-in controller stopped itself
        await h.at(1.8)
        h.core.voice_activity(False)
        await h.at(2.1)
        h.say("where is the cafe")
        turns = await h.turns(2)
        await h.close()
        return turns

    first, second = run(scenario)
    assert first.end_reason == "interrupted" and second.inputs == ["where is the cafe"]
    assert 2.1 <= first.t_end < 2.2


def test_hearing_and_wake_fire_their_hooks():
    from support.fake_drivers import FakeTool
    ex = robot()
    ex.add("face", FakeTool({"name": "show", "hidden": True,
                             "x-hooks": {"on_hearing": {"action": "show", "params": {"state": "listening"}},
                                         "on_wake": {"action": "show", "params": {"state": "attentive"}}}}))

    async def scenario():
        h = Harness(ex, [])
        h.core.wake("hey_jarvis")
        h.core.voice_activity(True)
        h.core.voice_activity(True)  # still the same speech: fired once
        await h.at(1.0)
        await h.close()

    run(scenario)
    assert [hook for hook in ex.hooks_fired() if hook in ("on_wake", "on_hearing")] == ["on_wake", "on_hearing"]


def test_words_handed_out_before_the_end_of_speech_do_not_re_arm_the_hold():
    """The ASR's early final arrives at the VAD's pause hint, before its offset; the offset must
    not make the robot wait transcript_grace_s more (bench/voice.py caught 2 s delays)."""
    ex = robot()

    async def scenario():
        h = Harness(ex, REPLIES)
        h.core.voice_activity(True)
        await h.at(1.0)
        h.say("take me to the dinosaur hall")  # early final, the visitor has just paused
        await h.at(1.25)
        h.core.voice_activity(False)  # the VAD's end of speech
        turns = await h.turns(1)
        await h.close()
        return turns

    run(scenario)
    assert ex.calls("speak")[0].t < 1.3


def test_speech_resuming_after_early_words_holds_again():
    ex = robot()

    async def scenario():
        h = Harness(ex, REPLIES)
        h.say("take me to the dinosaur hall")
        h.core.voice_activity(True)
        await h.at(0.5)
        h.core.voice_activity(True)  # resume: the visitor goes on
        await h.at(1.0)
        h.core.voice_activity(False)
        await h.at(1.3)
        h.say("actually the gift shop first")
        turns = await h.turns(1)
        await h.close()
        return turns

    [turn] = run(scenario)
    assert [s.args["place"] for s in ex.calls("navigate_to")] == ["gift_shop"]
