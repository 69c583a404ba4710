"""The `offline` brain: a conversation without a language model (used when none is configured
or the endpoint is down). Deterministic; it keeps no state of its own (everything is read back
from the conversation it is given); everything it says comes from its files and the tools'
results.

A step answers with one reply whose tool calls carry out the policy's next move (policy.py):
[speak(line)] + calls + [finish(dialogue_state)] (the line after the calls unless it
acknowledges an acting tool: "Certainly, follow me to the dinosaur hall." then navigate_to),
and `wait_for_actions` after a driver call so the outcome is read at the next step.
"""

from __future__ import annotations

import gc
import itertools
import json
import logging
import pathlib
from typing import Any, Dict, Optional, Union

from phanthy_common.embedding import EncoderUnavailable, shared_encoder

from ..base import BrainReply, BrainRequest, ToolCallRequest
from .config import IntentsFile, load_faq, load_intents
from .examples import ExampleMemory
from .policy import Policy
from .understanding import Understanding

log = logging.getLogger(__name__)

SHARED = "shared"  # the process's sentence encoder (phanthy_common.embedding)


def default_encoder() -> Any:
    """The bundled sentence encoder, or None (logged: the brain then matches words only)."""
    try:
        return shared_encoder()
    except EncoderUnavailable as exc:
        log.error("offline brain: no sentence embeddings (%s): matching by words only", exc)
        return None


class OfflineBrain:
    name = "offline"

    def __init__(self, intents: Union[list, dict, IntentsFile], faq: list, speak_tool: str = "speak", encoder: Any = SHARED,
                 examples: Optional[ExampleMemory] = None):
        self.cfg = load_intents(intents)
        self.faq = load_faq(faq)
        self.speak_tool = speak_tool
        encoder = default_encoder() if encoder == SHARED else encoder
        self.understanding = Understanding(self.cfg, self.faq, encoder)
        self.policy = Policy(self.cfg, self.faq, self.understanding, speak_tool, _usable(examples, encoder))
        self._ids = itertools.count(1)
        # what was just loaded lives as long as the process: kept out of the collector's full
        # passes, which otherwise scanned it every few hundred steps (a 40-50 ms step; bench/README.md)
        gc.freeze()

    @classmethod
    def from_files(cls, intents_path: Union[str, pathlib.Path], faq_path: Union[str, pathlib.Path],
                   speak_tool: str = "speak", encoder: Any = SHARED) -> "OfflineBrain":
        cfg = load_intents(pathlib.Path(intents_path))
        examples = ExampleMemory.load(pathlib.Path(intents_path).parent / cfg.examples_file) if cfg.examples_file else None
        return cls(cfg, _faq_list(faq_path), speak_tool, encoder, examples)

    async def step(self, request: BrainRequest) -> BrainReply:
        specs: Dict[str, dict] = {}
        for spec in request.tools:
            function = spec.get("function") if isinstance(spec, dict) else None
            if isinstance(function, dict) and function.get("name"):
                specs[str(function["name"])] = function
        move = self.policy.next(request.messages, specs)
        calls = [self._call(name, args) for name, args in move.calls]
        if move.state is not None:
            calls.append(self._call("finish", {"dialogue_state": move.state} if move.state else {}))
        if move.say and self.speak_tool in specs:
            speech = self._call(self.speak_tool, {"text": move.say})
            # stopping what runs comes first: the speech (acting) would wait for it to end
            cancels = [c for c in calls if c.name == "cancel_action"]
            rest = [c for c in calls if c.name != "cancel_action"]
            calls = cancels + ([speech] + rest if move.say_first else _before_finish(rest, speech))
            return BrainReply(tool_calls=calls, brain=self.name)
        if move.say:
            request.on_text(move.say)  # no speech tool: the reply text is the answer
        return BrainReply(content=move.say, tool_calls=calls, brain=self.name)

    def _call(self, name: str, args: dict) -> ToolCallRequest:
        return ToolCallRequest(f"offline_{next(self._ids)}", name, json.dumps(args, ensure_ascii=False))

    async def close(self) -> None:
        pass


def _before_finish(calls, speech):
    """The line goes after the calls (it reports them) but before `finish`."""
    if calls and calls[-1].name == "finish":
        return calls[:-1] + [speech, calls[-1]]
    return calls + [speech]


def _usable(examples: Optional[ExampleMemory], encoder: Any) -> Optional[ExampleMemory]:
    """The example memory, if the encoder that made it is the one running (its vectors are that model's)."""
    if examples is None or encoder is None:
        return None  # no model, no vectors to vote on (default_encoder logged why)
    name = getattr(encoder, "name", None)
    if name != examples.model:
        log.warning("offline brain: the example memory was made with %s, not %s: not used", examples.model, name)
        return None
    log.info("offline brain: %d remembered utterances vote on what it hears", len(examples))
    return examples


def _faq_list(path: Union[str, pathlib.Path]) -> list:
    return [e.model_dump() for e in load_faq(pathlib.Path(path))]

