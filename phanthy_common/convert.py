"""ROS message helpers every package uses: stamps, headers, text bounds, any message as plain data."""

from __future__ import annotations

import math
from typing import Any

from builtin_interfaces.msg import Time
from std_msgs.msg import Header

MAX_TEXT_CHARS = 8000  # longer texts are cut (and the cut logged by the caller)
MAX_ARRAY_ITEMS = 32  # sensor arrays (point clouds, scans) are summarized, not copied


def to_time(seconds: float) -> Time:
    if not math.isfinite(seconds) or seconds < 0:
        seconds = 0.0
    sec = int(seconds)
    return Time(sec=sec, nanosec=int(round((seconds - sec) * 1e9)) % 1_000_000_000)


def from_time(stamp: Time) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


def header(seconds: float, frame_id: str = "") -> Header:
    return Header(stamp=to_time(seconds), frame_id=frame_id)


def clean_text(text: str) -> str:
    """rclpy decodes strings as UTF-8 with replacement; also bound the length and drop NULs."""
    return text.replace("\x00", "")[:MAX_TEXT_CHARS]

def message_to_dict(msg: Any, depth: int = 0) -> Any:
    """Any ROS message as plain data (for sensor readings: summarizer and query_events)."""
    if depth > 8:
        return "..."
    if hasattr(msg, "get_fields_and_field_types"):
        return {name: message_to_dict(getattr(msg, name), depth + 1)
                for name in msg.get_fields_and_field_types()}
    if isinstance(msg, (bytes, bytearray)):
        return {"bytes": len(msg)}
    if isinstance(msg, (list, tuple)) or type(msg).__name__ in ("array", "ndarray"):
        items = list(msg)
        out = [message_to_dict(x, depth + 1) for x in items[:MAX_ARRAY_ITEMS]]
        if len(items) > MAX_ARRAY_ITEMS:
            out.append(f"... {len(items) - MAX_ARRAY_ITEMS} more")
        return out
    if isinstance(msg, float) and not math.isfinite(msg):
        return str(msg)
    if hasattr(msg, "item"):  # numpy scalars
        return msg.item()
    return msg


def stamp_of(msg: Any, fallback: float) -> float:
    head = getattr(msg, "header", None)
    stamp = getattr(head, "stamp", None)
    value = from_time(stamp) if stamp is not None else 0.0
    return value or fallback
