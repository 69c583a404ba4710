"""Who said it, end to end: two visitors in the simulated room (real vad, asr with the speaker
encoder, collector, agent, piper speaker), one microphone."""

from phanthy.msg import Transcript
from support import voices
from support.graph import RELIABLE, calls
from support.ros_harness import Collect
from test_voice import tc, voice_graph  # noqa: F401 (voice_graph: the fixture)


def test_another_visitors_words_during_a_walk_do_not_steer_it_they_get_their_own_turn(voice_graph):
    g, room = voice_graph([{"tool_calls": [tc("speak", text="Follow me."), tc("navigate_to", place="dinosaur_hall")]},
                           {"tool_calls": [tc("finish")]},
                           {"tool_calls": [tc("speak", text="The cafe is on the ground floor."), tc("finish")]}],
                          params={"base": {"speed_mps": 1.0}})
    transcripts = Collect(g.probe, Transcript, "voice/transcript", RELIABLE)
    # one phrase: a trailing ", please" was once split off as an utterance of its own under load
    room.say(voices.espeak("Could you please take me to the dinosaur hall?", voice="en-us+f3"))
    g.playback.wait(lambda ms: any(m.text == "Follow me." and m.state == "idle" for m in ms), 30, "the robot said it")
    room.say(voices.deep_piper("Where is the cafe in this museum?"), delay_s=1.0)
    first, second = g.wait_turns(2, timeout=90)
    finals = [t for t in transcripts.snapshot() if t.source == "asr" and t.is_final]
    assert [t.speaker_id for t in finals] == ["speaker_1", "speaker_2"], [(t.text, t.speaker_id) for t in finals]
    assert len(first.inputs) == 1 and list(first.input_speakers) == ["speaker_1"], first.inputs
    assert [c["tool"] for c in calls(first)] == ["speak", "navigate_to"]
    assert calls(first)[1]["status"] == "succeeded", "the other visitor's words cancelled nothing"
    assert "cafe" in second.inputs[0].lower() and list(second.input_speakers) == ["speaker_2"]
