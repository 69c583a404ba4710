"""One interruption policy: the speaker's barge-in and the agent's inbox judge a visitor's words
with the same object, so they cannot disagree; the agent trusts the speaker's verdict."""

import pytest

from phanthy_agent.core.events import Event
from phanthy_agent.core.inbox import Decision, Inbox, InboxConfig
from phanthy_common.interruption import InterruptionPolicy, Verdict
from phanthy_drivers.barge_in import BargeInConfig, BargeInController, Phase
from support.fakes import FakeClock, FakeSpeaker

CASES = [  # text, confidence, duration_ms, verdict
    ("the gift shop please", 0.8, 1200, Verdict.REQUEST),
    ("Stop!", 0.7, 600, Verdict.REQUEST),
    ("yeah okay", 0.9, 900, Verdict.BACKCHANNEL),
    ("And I'm at camp", 0.25, 800, Verdict.UNCLEAR),
    ("the cafe", 0.8, 300, Verdict.SHORT),
    ("here", 0.7, 900, Verdict.FEW_WORDS),
    ("Stop.", 0.8, 350, Verdict.REQUEST),  # said briskly: judged by its words, not its length
    ("wait, stop", 0.8, 450, Verdict.REQUEST),
    ("Stop.", 0.2, 350, Verdict.UNCLEAR),  # a hum heard as "stop" is still unsure
    ("stop by the cafe", 0.8, 300, Verdict.SHORT),  # a sentence, not a command: the length rule holds
]


@pytest.mark.parametrize("text, confidence, duration_ms, verdict", CASES)
def test_the_policy_names_what_the_words_are(text, confidence, duration_ms, verdict):
    assert InterruptionPolicy().judge(text, confidence, duration_ms).verdict is verdict




def speaker_stops(policy: InterruptionPolicy, text, confidence, duration_ms) -> bool:
    clock, speaker = FakeClock(), FakeSpeaker()
    c = BargeInController(BargeInConfig(policy=policy, commit_after_ms=10_000), clock, speaker)
    c.playback(True, "Welcome to the museum, the dinosaur hall is on your left.")
    c.activity("onset", t_speech_start=100.0, t=100.0)
    c.activity("offset", t=clock.advance(duration_ms / 1000.0), silence_ms=0)
    c.transcript(text, t_speech_start=100.0, confidence=confidence, duration_ms=duration_ms)
    return c.phase is Phase.COMMITTED


def agent_takes(policy: InterruptionPolicy, text, confidence, duration_ms) -> bool:
    event = Event(source="speech", priority=10, kind="transcript", text=text, confidence=confidence,
                  audio_duration_ms=duration_ms)
    routing = Inbox(InboxConfig(interruption=policy)).decide(event, busy=True, speaking=True)
    return routing.decision is not Decision.DROP


@pytest.mark.parametrize("policy", [InterruptionPolicy(), InterruptionPolicy(min_speech_ms=200, min_words=1),
                                    InterruptionPolicy(min_confidence=0.2, min_words=3)])
@pytest.mark.parametrize("text, confidence, duration_ms, verdict", CASES)
def test_the_speaker_stops_exactly_for_what_the_agent_takes(policy, text, confidence, duration_ms, verdict):
    assert speaker_stops(policy, text, confidence, duration_ms) == agent_takes(policy, text, confidence, duration_ms)


def test_bad_thresholds_are_refused():
    with pytest.raises(ValueError, match="interruption"):
        InterruptionPolicy(min_confidence=1.5)


def run_over_speech(result):
    """The robot speaks for 1.2 s (its speak ends with `result`); a lone "here" at 1.0 s."""
    from phanthy_agent.core.agent import AgentConfig
    from support.agent_harness import Harness
    from support.fake_drivers import FakeExecutor, speak_tool, stop_tool
    from support.virtual_time import run

    ex = FakeExecutor()
    speak = ex.add("speaker", speak_tool(1.2))
    speak.result = result
    ex.add("speaker", stop_tool())

    async def scenario():
        h = Harness(ex, [{"match": "museum", "content": "The museum has three floors and a cafe."}],
                    AgentConfig())
        h.say("tell me about the museum")
        await h.at(1.0)
        routing = h.say("here", duration_ms=900)
        await h.turns(1)
        await h.at(5.0)
        await h.close()
        return h, routing
    return run(scenario)


def test_words_the_speaker_stopped_for_are_taken_though_the_agent_would_drop_them():
    h, routing = run_over_speech({"stopped_by": "visitor", "heard_text": "The museum has"})
    assert routing.decision is Decision.DROP and routing.awaits_speaker
    inputs = [t.inputs for t in h.sink.turns]
    assert any("here" in i for i in inputs), "the robot stopped for the visitor: their words count"


def test_without_the_speakers_verdict_a_lone_word_over_speech_stays_dropped():
    h, routing = run_over_speech(None)
    assert routing.decision is Decision.DROP
    assert all("here" not in t.inputs for t in h.sink.turns)
