"""The agent core's side of the voice state machine: what the machine's effects do (say a
line, close a session, abort a turn), the dialogue_state of a finished voice turn (validated
and repaired, phanthy_agent/conversation/dialogue_state.py), and the machine's clock ticks."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import List, Protocol, Sequence

from ..conversation.dialogue_state import ReplyFacts, resolve_dialogue_state
from ..conversation.sessions import Sessions
from ..conversation.voice_machine import (AbortTurn, CloseSession, Effect, OpenSession, Say, StateChanged,
                                          VoiceMachine)
from .turn import TurnRunner
from .turn_host import CoreServices, TurnResult

log = logging.getLogger(__name__)


def awaiting_answer(actions) -> bool:
    """Does the turn's last tool result that says so wait for the visitor's answer? A driver's
    multi-step tool (a form, a quiz: what a skill drives) returns {"awaiting_answer": true}
    while it needs the next answer, false once it has what it needs."""
    said = None
    for action in sorted(actions, key=lambda a: a.t_end or a.t_start):
        if not action.result_json or "awaiting_answer" not in action.result_json:
            continue
        try:
            result = json.loads(action.result_json)
        except ValueError:
            continue
        if isinstance(result, dict) and "awaiting_answer" in result:
            said = result["awaiting_answer"] is True
    return bool(said)


class VoiceHost(CoreServices, Protocol):
    """What the voice side may ask of the agent core (AgentCore is one)."""

    voice: VoiceMachine
    sessions: Sessions

    def turn_running(self) -> bool: ...
    def cancel_turn(self, reason: str) -> None: ...
    def publish_status(self) -> None: ...


class VoiceConversation:
    def __init__(self, core: VoiceHost):
        self.core = core
        self.voice = core.voice
        self._lines_after_turn: List[str] = []  # lines due once the running turn is over

    async def ticks(self) -> None:
        while True:
            await asyncio.sleep(self.core.config.voice_tick_s)
            self.apply(self.voice.tick())

    def turn_ended(self, runner: TurnRunner, result: TurnResult) -> None:
        """Apply the turn's dialogue_state (validated, repaired) or its failure to the machine."""
        core = self.core
        speech = core.speech_tool()
        spoken = [c for c in result.tool_calls if speech is not None and c["tool"] == speech.visible_name]
        if result.end_reason in ("error", "timeout"):
            self.apply(self.voice.failure("llm" if "brain" in result.error else "turn", turn_over=True))
            return
        if spoken and all(c["status"] == "failed" for c in spoken):
            log.error("turn %s: the speaker failed every time; ending the voice interaction", runner.turn_id)
            self.apply(self.voice.failure("tts", turn_over=True))
            return
        acted = [c for c in result.tool_calls if speech is None or c["tool"] != speech.visible_name]
        facts = ReplyFacts(reply=result.reply,
                           task_completed=bool(acted) and all(c["status"] == "succeeded" for c in acted),
                           skill_awaiting_answer=awaiting_answer(core.tracker.for_turn(runner.turn_id)),
                           continuous_mode=self.voice.continuous)
        resolution = resolve_dialogue_state(runner.dialogue_state_raw, facts)
        result.dialogue_state = resolution.state.value
        if resolution.repaired:
            log.warning("turn %s: dialogue_state %r -> %s (%s)", runner.turn_id, resolution.raw[:80],
                        resolution.state.value, resolution.repair)
        core.emit("dialogue_state", runner.turn_id, status=resolution.state.value, text=resolution.repair)
        self.apply(self.voice.turn_finished(resolution.state, interrupted=result.end_reason == "interrupted"))

    def apply(self, effects: Sequence[Effect]) -> None:
        core = self.core
        for effect in effects:
            match effect:
                case Say(text=text) if core.turn_running():
                    self._lines_after_turn.append(text)  # after the turn's stop hooks
                case Say(text=text):
                    self.say_outside_turn(text)
                case CloseSession(session=session):
                    core.sessions.close(session)
                case AbortTurn(reason=reason):
                    log.error("voice: aborting the running turn (%s)", reason)
                    core.cancel_turn("timeout")
                case StateChanged():
                    core.publish_status()
                case OpenSession():
                    pass  # the next voice turn's session key is the machine's

    def say_pending_lines(self) -> None:
        lines, self._lines_after_turn = self._lines_after_turn, []
        for line in lines:
            self.say_outside_turn(line)

    def say_outside_turn(self, text: str) -> None:
        """A re-prompt or fallback line: spoken, tracked (so the robot is `speaking`), no turn."""
        core = self.core
        speech = core.speech_tool()
        if speech is None or not text:
            return

        async def say() -> None:
            started = await core.executor.start(speech.driver, speech.decl.name, {"text": text})
            if started.accepted:
                core.tracker.register(started.action_id, speech.visible_name, speech.driver,
                                      {"text": text}, True, speech.decl.timeout_s, "")
                core.refresh_state()
            else:
                log.error("could not say %r: %s", text, started.error)
        asyncio.ensure_future(say())
