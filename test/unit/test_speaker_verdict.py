"""The agent trusts the speaker's verdict: words dropped while the robot spoke are taken when
the speaker stops for the visitor soon after, once, and words just after count as said to a
robot that yielded."""

import json

from phanthy_agent.core.action_tracker import TrackedAction
from phanthy_agent.core.events import Event
from phanthy_agent.core.speaker_verdict import SpeakerVerdict
from support.fakes import FakeClock


def speech(status="cancelled", **result):
    return TrackedAction("s1", "speak", "speaker", {"text": "The museum opens at nine."}, True,
                         100.0, 130.0, status=status, result_json=json.dumps(result) if result else "")


def words(text):
    return Event(source="speech", priority=10, text=text, kind="transcript")


def test_words_dropped_while_speaking_are_taken_when_the_speaker_stops_for_the_visitor():
    clock = FakeClock()
    verdict = SpeakerVerdict(clock, verdict_s=1.5)
    question = words("where are the toilets")
    verdict.await_verdict(question)
    clock.advance(0.8)
    assert verdict.taken(speech(stopped_by="visitor", heard_text="The museum")) == [question]
    assert verdict.taken(speech(stopped_by="visitor")) == [], "each is taken once"
    assert verdict.yielded()
    clock.advance(1.6)
    assert not verdict.yielded()


def test_words_dropped_longer_ago_than_the_verdict_window_stay_dropped():
    clock = FakeClock()
    verdict = SpeakerVerdict(clock, verdict_s=1.5)
    verdict.await_verdict(words("mm hm"))
    clock.advance(2.0)
    assert verdict.taken(speech(stopped_by="visitor")) == []


def test_a_speech_that_ended_for_another_reason_takes_nothing():
    clock = FakeClock()
    verdict = SpeakerVerdict(clock, verdict_s=1.5)
    verdict.await_verdict(words("right"))
    assert verdict.taken(speech(status="succeeded", heard_text="The museum opens at nine.")) == []
    assert verdict.taken(speech(stopped_by="operator")) == []
    assert verdict.taken(speech(status="running")) == [], "not ended yet"
    assert not verdict.yielded()


def test_a_malformed_result_is_no_verdict():
    action = speech()
    action.result_json = '{"stopped_by": '
    assert SpeakerVerdict(FakeClock(), verdict_s=1.5).taken(action) == []
