"""The `llm` monitor: a language model behind an OpenAI-compatible endpoint labels each turn
with structured output (a JSON schema), and the same deterministic checks decide what it may
say as the offline monitor's findings: the cited sentence ids must resolve, the documents'
value must be in the cited sentences, a wrong value must be in the turn. A reply that fails
them is not a finding (logged, counted); an endpoint that fails (timeout, error status, a
reply that is not the schema) leaves the turn to the offline monitor. Either way the finding
then goes through the self-repair guard, the ledger and the gate like any other.

The prompt holds the numbered sentences that matter (the exhibit in focus and the retrieval's
best matches), the last turns and the new one, as Jarvis's monitor does with its document.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from typing import Dict, List, Optional, Sequence

from .documents import DocumentLibrary
from .monitor import Finding, Label, Turn, one_line
from .offline_monitor import OfflineMonitor
from .quantities import extract, same_value

log = logging.getLogger(__name__)

LABELS = [label.value for label in Label]
SCHEMA = {
    "type": "object",
    "properties": {
        "label": {"type": "string", "enum": LABELS},
        "claim": {"type": "string", "description": "the point of the turn, as one statement or question"},
        "sentence_ids": {"type": "array", "items": {"type": "string"},
                         "description": "ids of the sentences that ground it, e.g. blue_whale:5"},
        "correct_value": {"type": "string", "description": "the documents' value (number with unit, or name)"},
        "said_value": {"type": "string", "description": "the wrong value said in the turn, if any"},
    },
    "required": ["label", "claim", "sentence_ids", "correct_value", "said_value"],
    "additionalProperties": False,
}
SYSTEM = """You follow a group of museum visitors talking at an exhibit. You see the exhibit's
documents as numbered sentences. Label the NEW turn:
- gap: an open question the sentences answer (give the answering sentence ids and the value)
- wrong: a number or value the sentences contradict (ids, the right value, the wrong value said)
- misattribution: a place or person of another exhibit said about this one (ids, right and wrong name)
- on_track: consistent with the sentences; off_topic: not about the exhibits;
- unanswerable: a question on topic the sentences do not answer.
Use only the sentences shown. Answer with JSON only."""
CONTEXT_SENTENCES = 40
CONTEXT_TURNS = 6


@dataclasses.dataclass
class LlmStats:
    requests: int = 0
    failures: int = 0  # endpoint errors, timeouts, replies not in the schema: the offline monitor answered
    rejected: int = 0  # well-formed replies the deterministic checks refused


class LlmMonitor:
    name = "llm"

    def __init__(self, library: DocumentLibrary, offline: OfflineMonitor, settings, client=None):
        self.library = library
        self.offline = offline  # its retrieval picks the sentences shown; it answers when the model fails
        self.settings = settings
        self.stats = LlmStats()
        if client is None:
            import openai
            client = openai.OpenAI(base_url=settings.base_url, api_key=os.environ.get(settings.api_key_env) or "none",
                                   timeout=settings.timeout_s, max_retries=settings.max_retries)
        self.client = client

    # --- the interface ---------------------------------------------------------------------------
    def forget(self) -> None:
        """A new group: the offline monitor's focus (the exhibit) is the group's."""
        self.offline.forget()

    def assess(self, turn: Turn, recent: Sequence[Turn] = ()) -> Finding:
        fallback = self.offline.assess(turn, recent)  # keeps the focus current; the answer if the model fails
        reply = self._ask(self._prompt(turn.text, recent, fallback))
        if reply is None:
            return fallback
        return self._finding(reply, turn) or dataclasses.replace(
            fallback if not fallback.label.actionable else Finding(Label.ON_TRACK, turn.index, one_line(turn.text)),
            source=self.name)

    def answer_question(self, question: str, context: Sequence[Turn], turn: Turn) -> Optional[Finding]:
        asked = Turn(turn.index, turn.speaker, question, turn.stamp)
        reply = self._ask(self._prompt(question, context, None, direct=True))
        if reply is None:
            return self.offline.answer_question(question, context, turn)
        finding = self._finding(reply, asked)
        return finding if finding is not None and finding.label is Label.GAP else None

    # --- the model -------------------------------------------------------------------------------
    def _sentences(self, text: str) -> List[str]:
        ids: List[str] = []
        focus = self.offline.focus.document
        if focus:
            ids += [s.id for s in self.library.of_document(focus)]
        ids += [h.sentence.id for h in self.offline.retriever.search(text, k=12) if h.sentence.id not in ids]
        return ids[:CONTEXT_SENTENCES]

    def _prompt(self, text: str, recent: Sequence[Turn], fallback: Optional[Finding], direct: bool = False) -> list:
        lines = [f"[{sid}] {self.library.get(sid).text}" for sid in self._sentences(text)]
        history = [f"{t.speaker or 'visitor'}{' (robot)' if t.robot else ''}: {t.text}" for t in list(recent)[-CONTEXT_TURNS:]]
        task = ("The NEW turn is a question to you: label it gap if the sentences answer it, else unanswerable."
                if direct else "Label the NEW turn.")
        user = "SENTENCES\n" + "\n".join(lines) + "\n\nRECENT TURNS\n" + ("\n".join(history) or "(none)") + \
               f"\n\nNEW TURN\n{text}\n\n{task}"
        return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]

    def _ask(self, messages: list) -> Optional[dict]:
        self.stats.requests += 1
        try:
            response = self.client.chat.completions.create(
                model=self.settings.model, messages=messages, temperature=0,
                response_format={"type": "json_schema", "json_schema": {"name": "turn_label", "schema": SCHEMA,
                                                                       "strict": True}})
            content = response.choices[0].message.content or ""
            reply = json.loads(content)
            if not isinstance(reply, dict) or reply.get("label") not in LABELS:
                raise ValueError(f"not the schema: {content[:120]!r}")
            return reply
        except Exception as exc:  # the endpoint is down, slow, or said something else: offline decides
            self.stats.failures += 1
            log.warning("llm monitor: %s: %s (the offline monitor answers)", type(exc).__name__, str(exc)[:200])
            return None

    # --- the deterministic checks ------------------------------------------------------------------
    def _finding(self, reply: Dict, turn: Turn) -> Optional[Finding]:
        label = Label(reply["label"])
        claim = one_line(str(reply.get("claim") or turn.text))
        base = Finding(label, turn.index, claim, speaker=turn.speaker, source=self.name)
        if not label.actionable:
            return base
        ids = [str(i) for i in reply.get("sentence_ids") or []][:5]
        cited = self.library.resolve(ids) if ids else None
        correct = str(reply.get("correct_value") or "").strip()
        said = str(reply.get("said_value") or "").strip()
        why = self._refusal(cited, correct, said, label, turn.text)
        if why:
            self.stats.rejected += 1
            log.info("llm monitor: %s on %r refused: %s", label.value, turn.text[:80], why)
            return None
        text = " ".join(s.text for s in cited)
        value = next((q for q in extract(text) if any(same_value(q, c) for c in extract(correct))), None)
        entity = None if value is not None else self.offline.entities.get(correct)
        return dataclasses.replace(
            base, citations=tuple(ids), correct=value.text if value is not None else correct, said=said,
            dimension=value.dimension if value is not None else (entity.kind if entity else "name"), value=value,
            aliases=tuple(sorted(entity.aliases)) if entity else ((correct.lower(),) if value is None else ()),
            said_aliases=(said.lower(),) if said and value is None else ())

    def _refusal(self, cited, correct: str, said: str, label: Label, turn_text: str) -> str:
        if not cited:
            return "no citation that resolves"
        text = " ".join(s.text for s in cited)
        values = extract(correct)
        if values:
            if not any(same_value(v, q) for v in values for q in extract(text)):
                return f"{correct!r} is not in the cited sentences"
        elif not correct or correct.lower() not in text.lower():
            return f"{correct!r} is not in the cited sentences"
        if label in (Label.WRONG, Label.MISATTRIBUTION):
            said_values = extract(said)
            in_turn = (any(same_value(v, q) for v in said_values for q in extract(turn_text)) if said_values
                       else bool(said) and said.lower() in turn_text.lower())
            if not in_turn:
                return f"the wrong value {said!r} is not in the turn"
            if said_values and values and same_value(said_values[0], values[0]):
                return "the value said is the documents' value"
        return ""
