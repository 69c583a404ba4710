"""What the visitor actually heard of a speech action (the reply kept in the turn record).

An interrupted speech is cut where playback stopped; the model and the record must know where.
"""

from __future__ import annotations

import json

from .action_tracker import SUCCEEDED, TrackedAction


def heard_text(action: TrackedAction) -> str:
    """What the visitor heard of one speech action, best source first: the heard_text of the
    speaker's result (final, and ordered with the completion), the typed Playback.heard_text
    the speaker published on speaker/playback, the heard_text of its last progress, or all of
    the text if the speech succeeded."""
    result = _json_field(action.result_json, "heard_text")
    if result is not None:
        return result
    if action.heard_text is not None:
        return action.heard_text
    progress = _json_field(action.last_progress_json, "heard_text")
    if progress is not None:
        return progress
    return str(action.args.get("text", "")) if action.status == SUCCEEDED else ""


def _json_field(raw: str, key: str):
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return None
    return str(data[key]) if isinstance(data, dict) and key in data else None
