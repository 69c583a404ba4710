"""The joint trace of one evaluation run: what the visitor said, what the robot said as heard,
every tool call, every turn record and state change, on one clock (seconds since the run
started). Plain data; `report.json` holds one per run, and the assertions read nothing else
(plus the world database after the run), so another stack's logs converted to this format can
be graded by the same assertions.

Event kinds and their fields (every event has `t` and `kind`):
  visitor_said   text, mode (text | audio), t_end (audio: when the speech ended)
  transcript     text, is_final, confidence, speaker_id, speaker_confidence, source: what reached
                 voice/transcript
  robot_said     text (as heard), full_text, t_end, status (completed | cut | playing), utterance_id
  tool_call      tool, args, action_id, status, result, error, t_end, turn (index of its turn)
  turn           session, trigger_source, inputs, input_speakers, reply, end_reason, dialogue_state,
                 t_trigger, t_first_token, t_first_audio (0 = none), index
  state          state, voice_state, outstanding_actions
  note           text (the runner's own remarks: a wait that timed out, the visitor's brain)
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional

TRACE_VERSION = 1
EVENT_KINDS = ("visitor_said", "transcript", "robot_said", "tool_call", "turn", "state", "note")


@dataclasses.dataclass
class Trace:
    scenario: str
    run: int = 0
    outcome: str = "completed"  # completed | timeout | start_failed | crashed
    error: str = ""
    t0_unix: float = 0.0
    duration_s: float = 0.0
    events: List[Dict[str, Any]] = dataclasses.field(default_factory=list)
    world: str = ""  # the world database file after the run ("" = none)
    process_s: float = 0.0  # the run's whole process, start-up and shutdown included (runner.py)

    def add(self, kind: str, t: float, **fields: Any) -> Dict[str, Any]:
        event = {"t": round(t, 4), "kind": kind, **fields}
        self.events.append(event)
        return event

    def of(self, kind: str) -> List[Dict[str, Any]]:
        return sorted((e for e in self.events if e["kind"] == kind), key=lambda e: e["t"])

    def tool_calls(self, tool: Optional[str] = None) -> List[Dict[str, Any]]:
        return [e for e in self.of("tool_call") if tool is None or e["tool"] == tool]

    def said(self) -> str:
        """Everything the robot said, as heard, in order."""
        return " ".join(e["text"] for e in self.of("robot_said") if e.get("text"))

    def to_dict(self) -> Dict[str, Any]:
        data = dataclasses.asdict(self)
        data["version"] = TRACE_VERSION
        data["events"] = sorted(self.events, key=lambda e: e["t"])
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Trace":
        fields = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in fields})
