"""Sessions: isolation (voice vs chat, chat vs chat), persistence across a restart, /new, and
the store's trimming and crash safety."""

import json
import sqlite3
import subprocess
import sys

from phanthy_agent.brains.base import ActionUpdate, Message, ToolCallRequest
from phanthy_agent.conversation.history_store import HistoryStore
from phanthy_agent.conversation.voice_machine import VoiceState
from phanthy_agent.core.agent import AgentConfig
from phanthy_agent.core.events import Event
from support.agent_harness import Harness
from support.agent_harness import speech as speech_event
from support.fake_drivers import FakeExecutor, speak_tool, stop_tool
from support.virtual_time import run


def executor():
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(duration_s=1))
    ex.add("speaker", stop_tool())
    return ex


def chat(text, chat_id, t=0.0):
    return Event(source="chat", priority=8, text=text, stamp=t, session=f"web:{chat_id}")


def voice(text, t=0.0):
    return Event(source="speech", priority=10, kind="transcript", text=text, stamp=t, origin="asr",
                 audio_duration_ms=1200)


def inputs_seen(request):
    return [m.content for m in request.messages if m.meta == "input"]


def test_chats_and_voice_interactions_never_see_each_others_history(tmp_path):
    config = AgentConfig(voice=True)

    async def scenario():
        h = Harness(executor(), [], config=config)
        await h.until(lambda: h.core.voice.state is VoiceState.LISTENING)
        h.core.submit(chat("my name is Ada", "alice"))
        await h.turns(1)
        h.core.submit(chat("what is my name", "bob"))
        await h.turns(2)
        h.core.wake("hey_jarvis")
        h.core.submit(voice("where is the cafe"))
        await h.turns(3)
        h.core.submit(chat("and my name?", "alice"))
        await h.turns(4)
        await h.close()
        return h

    h = run(scenario)
    alice1, bob, spoken, alice2 = h.brain.requests
    assert inputs_seen(bob) == ["what is my name"], "bob's chat does not see alice's"
    assert inputs_seen(spoken) == ["where is the cafe"], "the voice session starts fresh"
    assert inputs_seen(alice2) == ["my name is Ada", "and my name?"]
    sessions = [t.session for t in h.sink.turns]
    assert sessions[:2] == ["web:alice", "web:bob"] and sessions[2].startswith("voice:")
    assert h.sink.turns[2].dialogue_state == "end" and h.sink.turns[0].dialogue_state == ""


def test_each_wake_word_activation_is_a_new_session():
    async def scenario():
        h = Harness(executor(), [], config=AgentConfig(voice=True))
        await h.until(lambda: h.core.voice.state is VoiceState.LISTENING)
        for text in ("my name is Ada", "what is my name"):
            h.core.wake("hey_jarvis")
            h.core.submit(voice(text, h.now()))
            await h.until(lambda: h.core.voice.state is VoiceState.LISTENING and not h.core.tracker.outstanding())
        await h.close()
        return h

    h = run(scenario)
    first, second = h.brain.requests
    assert inputs_seen(second) == ["what is my name"]
    assert h.sink.turns[0].session != h.sink.turns[1].session


def test_history_survives_a_restart_and_new_resets_it(tmp_path):
    db = str(tmp_path / "history.sqlite3")

    async def life(texts):
        h = Harness(executor(), [], store=HistoryStore(db))
        for n, text in enumerate(texts, 1):
            h.core.submit(chat(text, "alice", h.now()))
            if text != "/new":
                await h.until(lambda: len(h.sink.turns) >= len([t for t in texts[:n] if t != "/new"]))
        await h.close()
        h.core.sessions.store.close()
        return h

    run(lambda: life(["my name is Ada"]))
    h = run(lambda: life(["what is my name"]))
    assert inputs_seen(h.brain.requests[0]) == ["my name is Ada", "what is my name"]
    h = run(lambda: life(["/new", "who am I"]))
    assert inputs_seen(h.brain.requests[0]) == ["who am I"]
    assert [e[1] for e in h.sink.events if e[1] == "session_reset"] == ["session_reset"]


def test_the_store_keeps_a_bounded_number_of_turns_and_round_trips_tool_calls(tmp_path):
    store = HistoryStore(str(tmp_path / "h.db"), keep_turns=3)
    call = ToolCallRequest("c1", "navigate_to", '{"place": "gift_shop"}')
    for n in range(5):
        store.append_turn("web:1", [Message("user", f"turn {n}", meta="input"),
                                    Message("assistant", "", [call]), Message("tool", "{}", tool_call_id="c1")])
    turns = store.load_turns("web:1", 10)
    assert [t[0].content for t in turns] == ["turn 2", "turn 3", "turn 4"]
    assert turns[0][1].tool_calls == [call] and turns[0][2].tool_call_id == "c1"
    assert turns[0][0].meta == "input"


def test_an_action_notice_keeps_its_data_on_disk(tmp_path):
    """A brain reads how an action ended (a booking's code) from the notice's data in the history."""
    store = HistoryStore(str(tmp_path / "h.db"))
    update = ActionUpdate("book_tickets", "a1", "succeeded", "", '{"booking": {"code": "K7P2QD"}}')
    store.append_turn("web:1", [Message("user", "[action updates] ...", meta="notice", updates=(update,))])
    [[notice]] = HistoryStore(str(tmp_path / "h.db")).load_turns("web:1", 10)
    assert notice.updates == (update,) and notice.meta == "notice"


def test_an_unreadable_row_is_skipped_not_fatal(tmp_path):
    path = str(tmp_path / "h.db")
    store = HistoryStore(path)
    store.append_turn("web:1", [Message("user", "kept")])
    store._db.execute("INSERT INTO turns (session, t, messages) VALUES ('web:1', 0, 'not json')")
    assert [t[0].content for t in store.load_turns("web:1", 10)] == ["kept"]


CRASHER = """
import os, sys
from phanthy_agent.brains.base import Message
from phanthy_agent.conversation.history_store import HistoryStore
store = HistoryStore(sys.argv[1])
store.append_turn("web:1", [Message("user", "finished turn")])
store._db.execute("BEGIN IMMEDIATE")
store._db.execute("INSERT INTO turns (session, t, messages) VALUES ('web:1', 0, '[]')")
os._exit(9)  # killed mid-write
"""


def test_a_crash_mid_write_keeps_every_finished_turn_and_no_half_turn(tmp_path):
    path = str(tmp_path / "h.db")
    proc = subprocess.run([sys.executable, "-c", CRASHER, path], capture_output=True, text=True)
    assert proc.returncode == 9, proc.stderr
    rows = sqlite3.connect(path).execute("SELECT messages FROM turns").fetchall()
    assert [json.loads(r[0])[0]["content"] for r in rows] == ["finished turn"]


def second_arrives_mid_turn(replies, first, second, at):
    """Two events, the second `at` seconds into the first one's turn; runs both turns."""
    async def scenario():
        h = Harness(executor(), replies)
        h.core.submit(first)
        await h.at(at)
        routing = h.core.submit(second)
        await h.turns(2)
        await h.close()
        return h, routing

    return run(scenario)


def test_a_chat_message_from_another_session_neither_steers_nor_steals_a_spoken_turn():
    """Fault: a web chat message 0.5 s into a voice turn (default session) steered into it:
    the voice turn ended with no reply and the chat turn said the spoken question's answer."""
    replies = [{"match": "opening hours", "delay_s": 3.0, "content": "We open at nine."},
               {"match": "gift shop", "content": "The gift shop is by the exit."}]
    h, routing = second_arrives_mid_turn(replies, speech_event("what are the opening hours"),
                                         chat("where is the gift shop", "alice"), at=0.5)
    assert routing.decision.value == "queue", "another session's message waits for its own turn"
    spoken, chatted = h.sink.turns
    assert (spoken.session, spoken.inputs, spoken.reply) == ("main", ["what are the opening hours"],
                                                             "We open at nine.")
    assert (chatted.session, chatted.inputs, chatted.reply) == ("web:alice", ["where is the gift shop"],
                                                                "The gift shop is by the exit.")
    said = [(c.args["text"]) for c in h.executor.calls("speak")]
    assert said[0] == "We open at nine.", "the visitor's answer is spoken"
    assert [inputs_seen(r) for r in h.brain.requests] == [["what are the opening hours"],
                                                           ["where is the gift shop"]]


def test_the_same_words_from_two_sessions_are_two_requests_not_a_repeat():
    h, routing = second_arrives_mid_turn([{"match": "hello", "delay_s": 1.0, "content": "Hello!"}],
                                         chat("hello", "alice"), chat("hello", "bob"), at=0.2)
    assert routing.decision.value == "queue"
    assert [t.session for t in h.sink.turns] == ["web:alice", "web:bob"]
    assert [t.reply for t in h.sink.turns] == ["Hello!", "Hello!"]
