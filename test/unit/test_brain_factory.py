import socket

import pytest

from phanthy_agent.brains.base import BrainRequest, FallbackBrain, Message
from phanthy_agent.brains.factory import BrainSettings, make_brain
from phanthy_common.params import resolve_config

import asyncio


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def offline_files():
    # words only: the unit tier loads no model
    return dict(intents_file=str(resolve_config("offline_intents.yaml")), faq_file=str(resolve_config("faq.yaml")),
                embeddings=False)


def test_openai_falls_back_to_the_offline_brain_which_says_who_answered():
    brain = make_brain(BrainSettings(brain="openai", base_url=f"http://127.0.0.1:{closed_port()}/v1",
                                     timeout_s=1.0, max_retries=0, **offline_files()))
    assert isinstance(brain, FallbackBrain)
    request = BrainRequest([Message("system", "x"), Message("user", "when do you open", meta="input")],
                           tools=[{"type": "function", "function": {"name": "speak", "description": "",
                                   "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}}}])
    reply = asyncio.run(brain.step(request))
    assert reply.brain == "offline"
    assert reply.tool_calls[0].name == "speak" and "10" in reply.tool_calls[0].arguments


@pytest.mark.parametrize("settings,message", [
    (BrainSettings(brain="genius"), "agent.brain must be one of"),
    (BrainSettings(brain="scripted"), "needs scripted.file"),
    (BrainSettings(brain="offline"), "needs offline.intents_file"),
    (BrainSettings(brain="openai", fallback="openai", **offline_files()), "fallback_brain must be"),
])
def test_misconfiguration_is_a_clear_error(settings, message):
    with pytest.raises(ValueError, match=message):
        make_brain(settings)
