"""Speaking a reply while the model still writes it (agent.stream_speech): the sentence rule,
what is left to say, and a turn against a streaming OpenAI-compatible server."""

import asyncio

from phanthy_agent.brains.openai_brain import OpenAIBrain
from phanthy_agent.core.agent import AgentConfig
from phanthy_common.sentences import complete_sentences, unspoken
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, speak_tool
from support.openai_server import OpenAIServer


def test_a_sentence_counts_as_complete_only_once_another_word_follows_it():
    assert complete_sentences("Sure. The ha") == "Sure."
    assert complete_sentences("Sure.") == "", "the model may still be writing 'Sure.' further"
    assert complete_sentences("Sure. ") == "", "nothing follows yet"
    assert complete_sentences("The hall is upstairs. Follow me! It is") == "The hall is upstairs. Follow me!"
    assert complete_sentences("Dr. Smith found it") == "", "an abbreviation ends no sentence"
    assert complete_sentences("It is 3.5 metres") == ""
    assert complete_sentences("Room list\nThe cafe") == "Room list", "a line break ends one"
    assert complete_sentences("") == ""


def test_what_is_left_to_say_is_the_rest_of_the_reply_or_all_of_another_one():
    assert unspoken("Sure. Follow me to the hall.", "Sure.") == "Follow me to the hall."
    assert unspoken("Sure.", "Sure.") == ""
    assert unspoken("I can still help.", "Sure.") == "I can still help.", "a fallback brain's reply"
    assert unspoken(" Hello. ", "") == "Hello."


def run_turn(server, executor, config=None, paused=False):
    async def scenario():
        brain = OpenAIBrain(server.base_url, "test-model", timeout_s=10)
        h = Harness(executor, [], brain=brain, config=config)
        try:
            h.say("where is the dinosaur hall")
            seen_paused = None
            if paused:
                # the server holds the rest of the reply until told: what was said meanwhile?
                await h.until(lambda: executor.calls("speak"), timeout=10)
                seen_paused = [c.args["text"] for c in executor.calls("speak")]
                server.resume.set()
            [turn] = await h.turns(1, timeout=20)
            return turn, seen_paused
        finally:
            await h.close()
            await brain.close()
    return asyncio.run(asyncio.wait_for(scenario(), 30))


REPLY = "Sure. Follow me, the dinosaur hall is just upstairs on the left."


def test_the_first_sentence_is_said_while_the_model_still_writes_the_rest():
    executor = FakeExecutor()
    executor.add("speaker", speak_tool(duration_s=0.2))
    with OpenAIServer([{"content": REPLY, "pause_after_first_delta": True}]) as server:
        turn, said_while_writing = run_turn(server, executor, paused=True)
    assert said_while_writing == ["Sure."], "the speaker got the first sentence before the reply was complete"
    assert [c.args["text"] for c in executor.calls("speak")] == [
        "Sure.", "Follow me, the dinosaur hall is just upstairs on the left."]
    assert turn.end_reason == "finished" and turn.reply == REPLY, "both parts were heard, in order"


def test_with_stream_speech_off_the_reply_is_said_in_one_piece_once_written():
    executor = FakeExecutor()
    executor.add("speaker", speak_tool(duration_s=0.2))
    with OpenAIServer([{"content": REPLY}]) as server:
        turn, _ = run_turn(server, executor, AgentConfig(stream_speech=False))
    assert [c.args["text"] for c in executor.calls("speak")] == [REPLY]
    assert turn.end_reason == "finished" and turn.reply == REPLY


def test_a_reply_that_arrives_whole_is_said_in_one_piece():
    executor = FakeExecutor()
    executor.add("speaker", speak_tool(duration_s=0.2))

    async def scenario():
        h = Harness(executor, [{"content": REPLY}])  # the scripted brain hands over whole replies
        try:
            h.say("where is the dinosaur hall")
            [turn] = await h.turns(1, timeout=20)
            return turn
        finally:
            await h.close()

    turn = asyncio.run(scenario())
    assert [c.args["text"] for c in executor.calls("speak")] == [REPLY]
    assert turn.reply == REPLY
