"""Sessions: which conversation an event belongs to, and each one's history. Pure, no ROS.

Session keys:
  - `channel:chat_id` for text channels (the event's `session` field, set by the channel);
  - `voice:<uuid>` for speech heard by the robot's microphone (`origin == "asr"`), opened at a
    wake-word activation and closed when that interaction ends (VoiceMachine);
  - the agent's default session (`agent.session`, "main") for everything else (the sim console,
    the scheduler, tests).
Voice and text histories never mix: a turn reads and extends only its own session's history.
A closed voice session's history is dropped; `reset(key)` (a chat's `/new`) starts it afresh.
With a HistoryStore every finished turn is also written to SQLite and a session's history is
loaded from it on first use: a restart loses nothing.
"""

from __future__ import annotations

import logging
from typing import Callable, Dict, List, Optional

from ..brains.base import Message
from ..core.context import ConversationHistory
from ..core.events import Event
from .history_store import HistoryStore

log = logging.getLogger(__name__)

VOICE_ORIGINS = ("asr",)


def is_voice(event: Event) -> bool:
    return event.is_transcript and event.origin in VOICE_ORIGINS


class Sessions:
    def __init__(self, default_key: str, new_history: Callable[[], ConversationHistory],
                 store: Optional[HistoryStore] = None, keep_voice: bool = False):
        self.default_key = default_key
        self._new_history = new_history
        self._histories: Dict[str, ConversationHistory] = {}
        self.store, self.keep_voice = store, keep_voice

    def key_for(self, event: Optional[Event], voice_session: str = "") -> str:
        if event is None:
            return self.default_key
        if event.session:
            return event.session
        if voice_session and is_voice(event):
            return voice_session
        return self.default_key

    def history(self, key: str) -> ConversationHistory:
        """The session's history, loaded from the store the first time it is asked for."""
        if key not in self._histories:
            history = self._histories[key] = self._new_history()
            if self.store is not None:
                try:
                    for turn in self.store.load_turns(key, history.max_turns):
                        history.add_turn(turn)
                except Exception:
                    log.exception("could not load the history of %s; starting it empty", key)
        return self._histories[key]

    def record_turn(self, key: str, messages: List[Message]) -> None:
        """A finished turn: into the history, and to disk (a failing disk loses no turn in memory)."""
        self.history(key).add_turn(messages)
        if self.store is not None:
            try:
                self.store.append_turn(key, messages)
            except Exception:
                log.exception("could not persist a turn of %s", key)

    def reset(self, key: str) -> None:
        """`/new`: the session starts afresh, in memory and on disk."""
        self._histories.pop(key, None)
        if self.store is not None:
            self.store.delete_session(key)

    def close(self, key: str) -> None:
        """A voice interaction ended: its history goes (kept on disk only with keep_voice)."""
        self._histories.pop(key, None)
        if self.store is not None and not self.keep_voice:
            self.store.delete_session(key)

    def __contains__(self, key: str) -> bool:
        return key in self._histories
