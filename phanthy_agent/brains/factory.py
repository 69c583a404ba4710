"""Build the configured brain: openai (with the offline brain as fallback), offline, scripted."""

from __future__ import annotations

import dataclasses
import logging
from typing import Optional

from .base import Brain, FallbackBrain

log = logging.getLogger(__name__)

BRAINS = ("openai", "offline", "scripted")


@dataclasses.dataclass(frozen=True)
class BrainSettings:
    brain: str = "offline"
    fallback: str = "offline"  # "" = none: an unreachable endpoint ends the turn with an error
    speak_tool: str = "speak"
    base_url: str = "http://127.0.0.1:8080/v1"
    model: str = "default"
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 20.0
    temperature: float = 0.3
    max_retries: int = 2
    intents_file: Optional[str] = None
    faq_file: Optional[str] = None
    embeddings: bool = True  # offline brain: sentence embeddings (False: words only, no model loaded)
    scripted_file: Optional[str] = None
    scripted_record: Optional[str] = None


def make_brain(settings: BrainSettings) -> Brain:
    kind = settings.brain.strip().lower()
    if kind not in BRAINS:
        raise ValueError(f"agent.brain must be one of {BRAINS}, not {settings.brain!r}")
    brain = _make(kind, settings)
    fallback = settings.fallback.strip().lower()
    if kind == "openai" and fallback:
        if fallback not in BRAINS or fallback == "openai":
            raise ValueError(f"agent.fallback_brain must be offline, scripted or empty, not {fallback!r}")
        return FallbackBrain(brain, _make(fallback, settings))
    return brain


def _make(kind: str, s: BrainSettings) -> Brain:
    if kind == "openai":
        from .openai_brain import OpenAIBrain
        return OpenAIBrain(base_url=s.base_url, model=s.model, api_key_env=s.api_key_env,
                           timeout_s=s.timeout_s, temperature=s.temperature, max_retries=s.max_retries)
    if kind == "offline":
        from .offline import OfflineBrain
        if not s.intents_file or not s.faq_file:
            raise ValueError("the offline brain needs offline.intents_file and offline.faq_file")
        return OfflineBrain.from_files(s.intents_file, s.faq_file, speak_tool=s.speak_tool.rpartition("/")[2],
                                       **({} if s.embeddings else {"encoder": None}))
    from .scripted import ScriptedBrain
    if not s.scripted_file:
        raise ValueError("agent.brain=scripted needs scripted.file")
    return ScriptedBrain.from_file(s.scripted_file, record_path=s.scripted_record or None)
