"""Conversations over real DDS: the voice state machine on phanthy/agent_state, voice sessions
opened by voice/wake, dialogue_state in the TurnRecord, history across an agent restart."""

import time


from phanthy.msg import Transcript, WakeWord
from phanthy_agent.conversation.voice_machine import VoiceLines
from phanthy_common.convert import header
from support.graph import RELIABLE
from support.ros_harness import wait_for


def tc(name, **args):
    return {"name": name, "arguments": args}


def voice_states(g):
    states = []
    for m in g.states.snapshot():
        if not states or states[-1] != m.voice_state:
            states.append(m.voice_state)
    return states


def test_a_wake_word_interaction_asks_waits_re_prompts_and_returns_to_listening(graph_factory):
    g = graph_factory([{"tool_calls": [tc("speak", text="Shall I take you to the dinosaur hall?"), tc("finish")]}],
               params={"agent": {"agent.voice.enabled": True, "agent.voice.follow_up_s": 1.5},
                       "speaker": {"sim.ms_per_char": 10.0}})
    wake = g.probe.create_publisher(WakeWord, "voice/wake", RELIABLE)
    speech = g.probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
    wait_for(lambda: wake.get_subscription_count() > 0, 20, "the agent's wake subscription")
    g.states.wait(lambda ms: ms[-1].voice_state == "LISTENING", 20, "LISTENING")
    wake.publish(WakeWord(header=header(time.time()), keyword="hey_jarvis", score=0.9, source="openwakeword"))
    g.states.wait(lambda ms: ms[-1].voice_state == "RECOGNIZING", 20, "RECOGNIZING after the wake word")
    speech.publish(Transcript(header=header(time.time()), text="where are the dinosaurs", is_final=True,
                              audio_duration_ms=1400, confidence=0.8, source="asr"))
    [turn] = g.wait_turns(1)
    assert turn.session.startswith("voice:") and turn.dialogue_state == "follow_up"
    g.playback.wait(lambda ms: any(m.text == VoiceLines.reprompt for m in ms), 30, "the re-prompt")
    g.states.wait(lambda ms: ms[-1].voice_state == "LISTENING" and voice_states(g).count("LISTENING") >= 2,
                  30, "back to LISTENING")
    states = voice_states(g)
    start = states.index("RECOGNIZING")
    assert states[start:start + 3] == ["RECOGNIZING", "THINKING", "PLAYING"], states
    assert states[-3:] == ["PLAYING", "RECOGNIZING", "LISTENING"], states
    repairs = g.agent_events("dialogue_state")
    assert repairs and "missing" in repairs[0].text and "question" in repairs[0].text


def test_a_recognizer_failure_after_the_wake_word_gets_the_fallback_line_not_silence(graph_factory):
    g = graph_factory([{"tool_calls": [tc("finish")]}],
                      params={"agent": {"agent.voice.enabled": True}, "speaker": {"sim.ms_per_char": 10.0}})
    wake = g.probe.create_publisher(WakeWord, "voice/wake", RELIABLE)
    speech = g.probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
    wait_for(lambda: wake.get_subscription_count() > 0 and speech.get_subscription_count() >= 2, 20,
             "the agent's and the collector's subscriptions")
    g.states.wait(lambda ms: ms[-1].voice_state == "LISTENING", 20, "LISTENING")
    wake.publish(WakeWord(header=header(time.time()), keyword="hey_jarvis", score=0.9, source="openwakeword"))
    g.states.wait(lambda ms: ms[-1].voice_state == "RECOGNIZING", 20, "RECOGNIZING after the wake word")
    speech.publish(Transcript(header=header(time.time()), text="", is_final=True, audio_duration_ms=1400,
                              confidence=-1.0, source="asr", error="RuntimeError: model crashed"))
    g.playback.wait(lambda ms: any(m.text == VoiceLines.fallback for m in ms), 30, "the fallback line")
    g.states.wait(lambda ms: ms[-1].voice_state == "LISTENING" and voice_states(g).count("LISTENING") >= 2,
                  30, "back to LISTENING")
    assert g.turns.snapshot() == [], "a failed recognition is no request"


def test_the_history_survives_an_agent_restart(graph_factory, tmp_path):
    db = str(tmp_path / "history.sqlite3")
    params = {"agent": {"agent.history_db": db}}
    g = graph_factory([{"content": "Nice to meet you, Ada."}], nodes=("collector", "agent", "speaker"), params=params)
    g.say("my name is Ada")
    g.wait_turns(1)
    g.close()
    g = graph_factory([{"content": "You are Ada."}], nodes=("collector", "agent", "speaker"), params=params)
    g.say("what is my name")
    g.wait_turns(1)
    request = g.requests()[-1]  # the record file is shared by both graphs
    said = [m["content"] for m in request["messages"] if m["role"] in ("user", "assistant")]
    assert "my name is Ada" in said and "Nice to meet you, Ada." in said and said[-1] == "what is my name"
