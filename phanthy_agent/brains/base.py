"""The one interface every brain implements, and the messages it reads and writes.

A brain gets the conversation (system prefix, status, history, inputs, tool results) and the
model-visible tools, and returns text and/or tool calls. Brains: `openai` (any
OpenAI-compatible endpoint), `offline` (rules and FAQ, no model), `scripted` (tests).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Callable, Dict, List, Optional, Protocol, Tuple

log = logging.getLogger(__name__)

# Message.meta values: what a user-role message is, for brains that cannot read prose.
META_STATUS = "status"  # the dynamic status block (first user message)
META_INPUT = "input"  # something the visitor (or a chat, scheduler, peer) said
META_NOTICE = "notice"  # action completions reported by the harness


@dataclasses.dataclass
class ToolCallRequest:
    id: str
    name: str
    arguments: str  # raw JSON text as the model produced it (may be invalid)


@dataclasses.dataclass(frozen=True)
class ActionUpdate:
    """How one of the robot's actions ended, as data (the notice's text renders it for a model)."""
    tool: str
    action_id: str
    status: str  # succeeded | failed | cancelled | timeout
    error: str = ""
    result_json: str = ""


@dataclasses.dataclass
class Message:
    role: str  # system | user | assistant | tool
    content: str = ""
    tool_calls: List[ToolCallRequest] = dataclasses.field(default_factory=list)
    tool_call_id: str = ""
    meta: str = ""
    updates: Tuple[ActionUpdate, ...] = ()  # an "[action updates]" notice: the same, as data

    def to_openai(self) -> Dict[str, Any]:
        if self.role == "tool":
            return {"role": "tool", "tool_call_id": self.tool_call_id, "content": self.content}
        message: Dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function",
                 "function": {"name": c.name, "arguments": c.arguments or "{}"}}
                for c in self.tool_calls]
        return message


@dataclasses.dataclass
class BrainRequest:
    messages: List[Message]
    tools: List[dict]  # OpenAI function-tool specs
    # called with each piece of reply text as it arrives (streaming brains); the first call
    # marks the first token
    on_text: Callable[[str], None] = lambda text: None


@dataclasses.dataclass
class BrainReply:
    content: str = ""
    tool_calls: List[ToolCallRequest] = dataclasses.field(default_factory=list)
    brain: str = ""  # which brain actually answered


class BrainUnavailable(Exception):
    """The brain could not answer (endpoint down, timed out, refused, broken reply)."""


class Brain(Protocol):
    name: str

    async def step(self, request: BrainRequest) -> BrainReply:
        ...

    async def close(self) -> None:
        ...


def unanswered(messages: List[Message], meta: str) -> List[Message]:
    """User messages of one kind (`meta`) since the brain last spoke, in order."""
    found: List[Message] = []
    for message in reversed(messages):
        if message.role == "assistant":
            break
        if message.role == "user" and message.meta == meta:
            found.append(message)
    return list(reversed(found))


def latest_inputs(messages: List[Message]) -> List[str]:
    """Inputs that arrived after the brain last spoke (what it has not answered yet)."""
    return [m.content for m in unanswered(messages, META_INPUT)]


def latest_action_updates(messages: List[Message]) -> List[ActionUpdate]:
    """How actions ended, reported since the brain last spoke (structured: nothing to parse)."""
    return [update for m in unanswered(messages, META_NOTICE) for update in m.updates]


class FallbackBrain:
    """Use the primary brain; when it is unavailable, answer that step with the fallback and
    say so (reply.brain names who answered)."""

    def __init__(self, primary: Brain, fallback: Optional[Brain]):
        self.primary, self.fallback = primary, fallback
        self.name = primary.name
        self.failures = 0  # steps the primary could not answer (for /diagnostics)
        self.last_error = ""

    async def step(self, request: BrainRequest) -> BrainReply:
        try:
            return await self.primary.step(request)
        except BrainUnavailable as exc:
            self.failures += 1
            self.last_error = str(exc)[:200]
            if self.fallback is None:
                raise
            log.error("brain %s unavailable (%s): the %s brain answers this step",
                            self.primary.name, exc, self.fallback.name)
            return await self.fallback.step(request)

    async def close(self) -> None:
        await self.primary.close()
        if self.fallback is not None:
            await self.fallback.close()
