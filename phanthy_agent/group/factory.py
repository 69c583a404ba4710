"""Building the backbone from configuration: the documents (files, folders or glob patterns),
the retriever, the monitor (`offline` | `llm`) and the generator. Used by the proactive node and
the benchmark, so both run the same thing."""

from __future__ import annotations

import dataclasses
import glob
import logging
import pathlib
from typing import List, Optional, Sequence

from phanthy_common.params import resolve_config

from .backbone import Backbone
from .documents import DocumentError, DocumentLibrary
from .entities import EntityIndex
from .focus import Focus
from .ledger import GateConfig
from .offline_monitor import OfflineMonitor
from .retrieval import HybridRetriever

log = logging.getLogger(__name__)

MONITORS = ("offline", "llm")
DOCUMENT_SUFFIXES = (".md", ".markdown", ".txt", ".pdf")


@dataclasses.dataclass(frozen=True)
class LlmSettings:
    base_url: str = "http://127.0.0.1:8080/v1"
    model: str = "default"
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 10.0
    max_retries: int = 1


def document_paths(entries: Sequence[str]) -> List[pathlib.Path]:
    """Files, folders (their documents) or glob patterns; relative names are looked up in config/."""
    paths: List[pathlib.Path] = []
    for entry in entries:
        if not entry:
            continue
        if any(c in entry for c in "*?["):
            base = resolve_config(entry.split("*")[0].rstrip("/") or ".")
            pattern = str(base / entry[len(entry.split("*")[0]):].lstrip("/")) if base else entry
            found = sorted(pathlib.Path(p) for p in glob.glob(pattern))
            if not found:
                raise DocumentError(f"no document matches {entry!r}")
            paths += found
            continue
        path = resolve_config(entry)
        if path is not None and path.is_dir():
            paths += sorted(p for p in path.iterdir() if p.suffix.lower() in DOCUMENT_SUFFIXES)
        elif path is not None:
            paths.append(path)
    if not paths:
        raise DocumentError("no documents configured (parameter `documents`: files, folders or patterns)")
    return paths


def build_backbone(library: DocumentLibrary, monitor: str = "offline", gate: GateConfig = GateConfig(),
                   exhibit: str = "", llm: LlmSettings = LlmSettings(), retriever=None,
                   entities: Optional[EntityIndex] = None) -> Backbone:
    if monitor not in MONITORS:
        raise ValueError(f"monitor must be one of {', '.join(MONITORS)}, not {monitor!r}")
    if exhibit and exhibit not in library.documents:
        raise ValueError(f"exhibit {exhibit!r} is not a document name ({', '.join(library.documents)})")
    retriever = retriever or HybridRetriever(library)
    entities = entities or EntityIndex(library)
    offline = OfflineMonitor(retriever, entities, Focus(fixed=exhibit))
    if monitor == "offline":
        return Backbone(library, offline, gate)
    from .llm_monitor import LlmMonitor
    chosen = LlmMonitor(library, offline, llm)
    return Backbone(library, chosen, gate, answerer=chosen.answer_question)
