"""The `scripted` brain: replays a file of model replies, one per model step (for tests).

File (YAML or JSON): a list of replies, or {"replies": [...]}. A reply:
    content: "text to say"                      # optional
    tool_calls:                                 # optional
      - {name: navigate_to, arguments: {place: dinosaur_hall}}
      - {name: speak, arguments: '{"text": "raw JSON string, possibly invalid"}'}
    delay_s: 0.5                                # optional: think this long first
    error: "endpoint down"                      # optional: fail this step (BrainUnavailable)
A reply with `match: <regex>` is a rule instead: it answers (again and again, never consumed)
any step whose newest unanswered input matches (case-insensitive), before the sequential
replies. When the replies run out, every step answers with a plain `finish` call.
"""

from __future__ import annotations

import asyncio
import json
import logging
import pathlib
import re
from typing import Any, List, Optional, Union

import yaml

from .base import BrainReply, BrainRequest, BrainUnavailable, ToolCallRequest, latest_inputs

log = logging.getLogger(__name__)


class ScriptedBrain:
    name = "scripted"

    def __init__(self, replies: List[dict], record_path: Optional[str] = None):
        self._rules = [(re.compile(r["match"], re.I), r) for r in replies if isinstance(r, dict) and "match" in r]
        self._replies = [r for r in replies if not (isinstance(r, dict) and "match" in r)]
        self._calls = 0
        self.requests: List[BrainRequest] = []
        self._record_path = pathlib.Path(record_path) if record_path else None

    @classmethod
    def from_file(cls, path: Union[str, pathlib.Path], record_path: Optional[str] = None) -> "ScriptedBrain":
        data: Any = yaml.safe_load(pathlib.Path(path).read_text(encoding="utf-8"))
        replies = data.get("replies", []) if isinstance(data, dict) else data
        if not isinstance(replies, list):
            raise ValueError(f"{path}: expected a list of replies")
        return cls(replies, record_path)

    @property
    def remaining(self) -> int:
        return len(self._replies)

    async def step(self, request: BrainRequest) -> BrainReply:
        self.requests.append(request)
        self._record(request)
        inputs = latest_inputs(request.messages)
        rule = next((r for pattern, r in self._rules if inputs and pattern.search(inputs[-1])), None)
        if rule is None and not self._replies:
            return BrainReply(tool_calls=[self._call("finish", {})], brain=self.name)
        reply = rule if rule is not None else (self._replies.pop(0) or {})
        if reply.get("delay_s"):
            await asyncio.sleep(float(reply["delay_s"]))
        if reply.get("error"):
            raise BrainUnavailable(str(reply["error"]))
        content = str(reply.get("content") or "")
        if content:
            request.on_text(content)
        calls = [self._call(c.get("name", ""), c.get("arguments", {})) for c in reply.get("tool_calls") or []]
        return BrainReply(content=content, tool_calls=calls, brain=self.name)

    def _call(self, name: str, arguments: Any) -> ToolCallRequest:
        self._calls += 1
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
        return ToolCallRequest(f"call_{self._calls}", name, raw)

    def _record(self, request: BrainRequest) -> None:
        if self._record_path is None:
            return
        entry = {"messages": [m.to_openai() for m in request.messages], "tools": request.tools}
        with self._record_path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    async def close(self) -> None:
        pass
