"""The agent core as the parts it runs see it (narrow protocols), and what a turn produces.

`TurnHost` is everything a turn may ask of the core; `VoiceHost` (voice_conversation.py)
what the voice side may; both start from `CoreServices`. `TurnResult` is the record of one
finished turn (published as phanthy/msg/TurnRecord).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List, Optional, Protocol

from ..brains.base import Brain
from .action_tracker import ActionTracker
from .context import ContextBuilder, ConversationHistory, StatusSnapshot
from .events import Event
from .executor import ToolExecutor
from .hooks import HookDispatcher
from .inbox import Inbox
from .tools import RegisteredTool, ToolRegistry


class CoreServices(Protocol):
    """What the agent core offers the parts it runs (a turn, the voice side)."""

    config: Any  # AgentConfig
    executor: ToolExecutor
    tracker: ActionTracker

    def emit(self, kind: str, turn_id: str, tool: str = "", action_id: str = "", status: str = "",
             text: str = "") -> None: ...
    def speech_tool(self) -> Optional[RegisteredTool]: ...
    def refresh_state(self) -> None: ...


class TurnHost(CoreServices, Protocol):
    """What a turn may ask of the agent core, and nothing more: the parts it drives (brain,
    drivers, registry, action tracker, inbox, hooks, context), the session it runs in, and a
    few services. The core (AgentCore) is one; a test can be another."""

    clock: Callable[[], float]
    brain: Brain
    registry: ToolRegistry
    inbox: Inbox
    hooks: HookDispatcher
    context: ContextBuilder
    session: str
    history: ConversationHistory

    async def wait_for_change(self, deadline: Optional[float]) -> None: ...
    def status(self) -> StatusSnapshot: ...
    def role_of(self, event: Event) -> str: ...
    def words_due_until(self) -> float: ...
    def note_brain(self, name: str) -> None: ...


@dataclasses.dataclass
class TurnResult:
    turn_id: str
    session: str
    trigger_source: str
    inputs: List[str]
    tool_calls: List[Dict[str, Any]]
    reply: str
    end_reason: str
    t_trigger: float
    t_first_token: float = 0.0
    t_first_audio: float = 0.0
    t_end: float = 0.0
    brains: List[str] = dataclasses.field(default_factory=list)
    steps: int = 0
    error: str = ""
    dialogue_state: str = ""
    t_speech_end: float = 0.0  # voice timing of the triggering transcript
    t_eos_detected: float = 0.0
    t_transcript_ready: float = 0.0
    written: str = ""  # the final reply as the model wrote it (spoken or not)
    input_speakers: List[str] = dataclasses.field(default_factory=list)  # who said each input ("" = unknown)
