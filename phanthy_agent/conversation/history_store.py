"""Persistent session history in SQLite (stdlib sqlite3). Pure, no ROS.

One row per turn: the session key, the turn's messages as JSON, the time. A turn is written in
one transaction when it ends (WAL journal, synchronous=FULL): a crash mid-turn loses at most
that unfinished turn, never a finished one, and never leaves a half-written turn behind.

Trimming policy (documented in the README): a session keeps at most `keep_turns` turns on disk
(older rows are deleted as new ones arrive); what is loaded into the model's context is bounded
again by ConversationHistory (whole turns dropped from the oldest, never the system prefix).
No summaries: summarizing needs the model and would rewrite history; dropping whole turns
keeps every tool call next to its result.

`/new` (reset) archives nothing: the chat's rows are deleted, the session starts afresh.
Closed voice sessions are deleted the same way unless `keep_voice` is set.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Callable, List

from ..brains.base import ActionUpdate, Message, ToolCallRequest

UPDATE_FIELDS = [f.name for f in dataclasses.fields(ActionUpdate)]

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT NOT NULL,
    t REAL NOT NULL,
    messages TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS turns_by_session ON turns (session, id);
"""


def message_to_dict(m: Message) -> dict:
    d = {"role": m.role, "content": m.content}
    if m.tool_calls:
        d["tool_calls"] = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in m.tool_calls]
    if m.tool_call_id:
        d["tool_call_id"] = m.tool_call_id
    if m.meta:
        d["meta"] = m.meta
    if m.updates:  # an action notice's data (brains read it, not the prose)
        d["updates"] = [dataclasses.asdict(u) for u in m.updates]
    return d


def message_from_dict(d: dict) -> Message:
    calls = [ToolCallRequest(str(c["id"]), str(c["name"]), str(c.get("arguments", "")))
             for c in d.get("tool_calls", [])]
    updates = tuple(ActionUpdate(**{k: str(u.get(k, "")) for k in UPDATE_FIELDS})
                    for u in d.get("updates", []) if isinstance(u, dict))
    return Message(str(d["role"]), str(d.get("content", "")), calls, str(d.get("tool_call_id", "")),
                   str(d.get("meta", "")), updates)


class HistoryStore:
    def __init__(self, path: str, keep_turns: int = 200, clock: Callable[[], float] = lambda: 0.0):
        self.path, self.keep_turns, self._clock = path, keep_turns, clock
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(Path(path).expanduser()) if path != ":memory:" else path,
                                   check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)

    def append_turn(self, session: str, messages: List[Message]) -> None:
        if not messages:
            return
        payload = json.dumps([message_to_dict(m) for m in messages], ensure_ascii=False)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO turns (session, t, messages) VALUES (?, ?, ?)",
                                 (session, self._clock(), payload))
                self._db.execute(
                    "DELETE FROM turns WHERE session = ? AND id NOT IN "
                    "(SELECT id FROM turns WHERE session = ? ORDER BY id DESC LIMIT ?)",
                    (session, session, self.keep_turns))
                self._db.execute("COMMIT")
            except Exception:
                self._db.execute("ROLLBACK")
                raise

    def load_turns(self, session: str, limit: int) -> List[List[Message]]:
        """The newest `limit` turns of a session, oldest first. Unreadable rows are skipped."""
        with self._lock:
            rows = self._db.execute("SELECT id, messages FROM turns WHERE session = ? ORDER BY id DESC LIMIT ?",
                                    (session, limit)).fetchall()
        turns = []
        for row_id, payload in reversed(rows):
            try:
                turns.append([message_from_dict(d) for d in json.loads(payload)])
            except (ValueError, KeyError, TypeError) as exc:
                log.error("history row %d of %s is unreadable (%s); skipped", row_id, session, exc)
        return turns

    def delete_session(self, session: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM turns WHERE session = ?", (session,))

    def sessions(self) -> List[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT DISTINCT session FROM turns ORDER BY session")]

    def close(self) -> None:
        with self._lock:
            self._db.close()
