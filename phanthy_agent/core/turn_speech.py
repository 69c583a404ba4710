"""A turn's speech: reply text said through the configured speech tool (an acting tool like any
other, after the ACP wait), and what of it reached the visitor for the TurnRecord: the reply as
heard (cut where an interrupted speech stopped), the first audio, or why it was never said.
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Dict, List

from .action_tracker import FAILED, TrackedAction
from .action_waits import ActionWaits, Wait
from .heard import heard_text
from .tools import RegisteredTool
from .turn_host import TurnHost

log = logging.getLogger(__name__)


class TurnSpeech:
    """`execute(tool, args)` runs one call of the turn (turn_calls.TurnCalls.execute)."""

    def __init__(self, host: TurnHost, turn_id: str, waits: ActionWaits,
                 execute: Callable[[RegisteredTool, dict], Awaitable[Dict[str, Any]]]):
        self.host = host
        self.turn_id = turn_id
        self._waits = waits
        self._execute = execute
        self._unspoken: List[str] = []  # reply text there was no speech tool to say

    async def say(self, text: str) -> None:
        """Speak reply text through the configured speech tool, once the robot's actions ended."""
        tool = self.host.speech_tool()
        if tool is None:
            if self.host.config.speak_tool:  # configured, but no driver offers it (now)
                self._unspoken.append(text)
            return  # a text-only deployment (agent.speak_tool ""): the reply is in the TurnRecord
        if await self._waits.settled(before_acting=True) is Wait.MESSAGE:
            return
        outcome = await self._execute(tool, {"text": text})
        if outcome.get("status") == FAILED:
            log.error("turn %s: could not speak: %s", self.turn_id, outcome.get("error"))

    def actions(self) -> List[TrackedAction]:
        """The turn's speech actions (the speech tool's, this turn's)."""
        speech = self.host.speech_tool()
        if speech is None:
            return []
        return [a for a in self.host.tracker.for_turn(self.turn_id)
                if a.driver == speech.driver and a.tool == speech.visible_name]

    def reply_as_heard(self, written: str) -> str:
        """What the visitor heard of the turn's reply (`written` in a text-only deployment)."""
        if not self.host.config.speak_tool:
            return written
        parts = [heard_text(a) for a in self.actions()]
        return " ".join(p for p in parts if p)

    def first_audio(self) -> float:
        times = [a.t_first_audio or a.t_first_feedback for a in self.actions()]
        times = [t for t in times if t]
        return min(times) if times else 0.0

    def why_not_spoken(self) -> str:
        """A reply the robot could not say is never recorded as said: why ("" when all was said
        or nothing was to be); logged and emitted (`not_spoken`) once per turn."""
        if not self._unspoken:
            return ""
        speak_tool = self.host.config.speak_tool
        why = (f"reply not spoken: the speech tool {speak_tool!r} is not available "
               f"(no driver declares it; agent.speak_tool '' for a text-only robot)")
        log.error("turn %s: %s: %.80r", self.turn_id, why, " ".join(self._unspoken))
        self.host.emit("not_spoken", self.turn_id, tool=speak_tool, text=why)
        return why
