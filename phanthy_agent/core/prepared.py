"""Prepared turns (group conversations): what a FloorRequest asks of the agent core.

    say         start a turn that says `text` verbatim (the turn's id is the request's, its
                trigger_source and input the request's); refused while anything runs or waits:
                an intervention never talks over a reply (AgentEvent `floor_refused`)
    stop        end that turn now (a visitor speaks over it): interrupted, as heard; a turn
                still queued to begin begins stopped and says nothing
    raise_hand  fire `on_hand_raise` (face/LED show the robot has something to say)
    lower_hand  fire `on_hand_lower`
"""

from __future__ import annotations

import dataclasses
import logging

from .events import Event, EventKind

log = logging.getLogger(__name__)

PRIORITY = 5


@dataclasses.dataclass(frozen=True)
class FloorCommand:
    id: str
    command: str
    trigger_source: str = "proactive"
    input: str = ""
    text: str = ""
    stamp: float = 0.0


def handle(core, request: FloorCommand) -> str:
    """Apply one request to the core (on its loop); returns "" or why it was refused."""
    if request.command == "say":
        if not request.id or not request.text.strip():
            why = "a say request needs an id and text"
        else:
            why = core.start_prepared(Event(source=request.trigger_source, priority=PRIORITY, text=request.input,
                                            kind=EventKind.TEXT.value, stamp=request.stamp or core.clock(),
                                            prepared_reply=request.text, turn_id=request.id))
        if why:
            log.info("floor request %s refused: %s", request.id, why)
            core.emit("floor_refused", request.id, text=why)
        return why
    if request.command == "stop":
        core.stop_turn(request.id)
        return ""
    if request.command in ("raise_hand", "lower_hand"):
        core.hooks.fire("on_hand_raise" if request.command == "raise_hand" else "on_hand_lower")
        return ""
    log.error("floor request %s: unknown command %r (say | stop | raise_hand | lower_hand)", request.id,
              request.command)
    core.emit("floor_refused", request.id, text=f"unknown command {request.command!r}")
    return f"unknown command {request.command!r}"
