"""Enrolled voices, stored locally: one SQLite file (the asr node's `speakers.profiles`, by default
~/.local/state/phanthy/speakers.sqlite3), one row per person: the mean embedding of their
enrollment recordings, the model it was made with (a profile is only comparable with embeddings
of the same model), how much speech it rests on. Pure (no ROS). `phanthy speakers` writes it;
the asr node reads it (again whenever the file changes)."""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import sqlite3
import time
from typing import Dict, List, Optional

import numpy as np

from .speaker_attribution import ANONYMOUS, CLUSTER_ID

log = logging.getLogger(__name__)

DEFAULT_PATH = "~/.local/state/phanthy/speakers.sqlite3"
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")
SCHEMA = """CREATE TABLE IF NOT EXISTS speakers (
    name TEXT PRIMARY KEY, embedding BLOB NOT NULL, model TEXT NOT NULL,
    seconds REAL NOT NULL, recordings INTEGER NOT NULL, enrolled_at REAL NOT NULL)"""


@dataclasses.dataclass(frozen=True)
class Profile:
    name: str
    embedding: np.ndarray
    model: str
    seconds: float
    recordings: int
    enrolled_at: float


def check_name(name: str) -> str:
    """A person's name as a speaker id: letters, digits, _ and -, starting with a letter, at
    most 32; never an id the clustering hands out (speaker_N, anonymous_speaker)."""
    if not NAME.match(name or ""):
        raise ValueError(f"speaker name {name!r}: use 1-32 letters, digits, _ or -, starting with a letter")
    if name == ANONYMOUS or CLUSTER_ID.match(name):
        raise ValueError(f"speaker name {name!r} is reserved for voices nobody enrolled")
    return name


class ProfileStore:
    def __init__(self, path: str = DEFAULT_PATH):
        self.path = os.path.expanduser(path)

    def _connect(self) -> sqlite3.Connection:
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        db = sqlite3.connect(self.path, timeout=5.0)
        db.execute(SCHEMA)
        return db

    def enroll(self, name: str, embedding: np.ndarray, model: str, seconds: float, recordings: int) -> Profile:
        """Store (or replace) a person's profile."""
        check_name(name)
        vector = np.asarray(embedding, dtype=np.float32)
        profile = Profile(name, vector, model, float(seconds), int(recordings), time.time())
        with self._connect() as db:
            db.execute("INSERT OR REPLACE INTO speakers VALUES (?, ?, ?, ?, ?, ?)",
                       (name, vector.tobytes(), model, profile.seconds, profile.recordings, profile.enrolled_at))
        return profile

    def remove(self, name: str) -> bool:
        if not os.path.exists(self.path):
            return False
        with self._connect() as db:
            return db.execute("DELETE FROM speakers WHERE name = ?", (name,)).rowcount > 0

    def profiles(self) -> List[Profile]:
        if not os.path.exists(self.path):
            return []
        with self._connect() as db:
            rows = db.execute("SELECT name, embedding, model, seconds, recordings, enrolled_at "
                              "FROM speakers ORDER BY name").fetchall()
        return [Profile(n, np.frombuffer(e, dtype=np.float32).copy(), m, s, r, t) for n, e, m, s, r, t in rows]

    def for_model(self, model: str) -> Dict[str, np.ndarray]:
        """The profiles made with `model` (others are logged and skipped: re-enroll them)."""
        out = {}
        for p in self.profiles():
            if p.model != model:
                log.error("speaker profile %r was enrolled with another model (%s, not %s): ignored; "
                          "enroll it again", p.name, p.model, model)
                continue
            out[p.name] = p.embedding
        return out

    def stamp(self) -> Optional[float]:
        """When the file last changed (None: no file)."""
        try:
            return os.stat(self.path).st_mtime_ns / 1e9
        except OSError:
            return None
