"""The evidence page: the robot's current intervention next to the cited passage, highlighted
in its document, so the group can check what the robot said. aiohttp, served like the web
chat: bound to 127.0.0.1 by default, a host off loopback only with an access token (`?token=`
on every request), loopback host names only on loopback (DNS rebinding). No ROS.

    GET /                 the page (it polls the two below twice a second)
    GET /api/current      the current intervention as JSON ({} before the first)
    GET /api/documents    every document: title, sections, sentences with their ids
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import logging
import threading
from typing import Optional

from aiohttp import web
from yarl import URL

from .backbone import Intervention
from .documents import DocumentLibrary
from .evidence_html import PAGE

log = logging.getLogger(__name__)

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def intervention_json(item: Optional[Intervention], library: DocumentLibrary) -> dict:
    if item is None:
        return {}
    cited = [library.get(c) for c in item.citations]
    return {"id": item.id, "kind": item.kind, "claim": item.claim, "text": item.text, "state": item.state,
            "citations": list(item.citations), "evidence": list(item.evidence), "turns_late": item.turns_late,
            "reason": item.reason,
            "documents": sorted({s.document for s in cited if s is not None}),
            # a cited id whose sentence changed since (the document was edited) is shown as stale
            "stale": [c for c, s, e in zip(item.citations, cited, item.evidence) if s is None or s.text != e]}


def documents_json(library: DocumentLibrary) -> dict:
    return {name: {"title": doc.title,
                   "sections": [{"title": title, "sentences": [{"id": s.id, "text": s.text} for s in sentences]}
                                for title, sentences in doc.sections()]}
            for name, doc in library.documents.items()}


class EvidencePage:
    def __init__(self, library: DocumentLibrary, host: str = "127.0.0.1", port: int = 8766, token: str = ""):
        if host not in LOOPBACK and not token:
            raise ValueError(f"refusing to serve the evidence page on {host} without a token (set web.token, "
                             f"or keep web.host 127.0.0.1)")
        self.library, self.host, self.port, self.token = library, host, port, token
        self._current: Optional[Intervention] = None
        self._lock = threading.Lock()
        self._runner: Optional[web.AppRunner] = None
        self._documents = json.dumps(documents_json(library))

    def show(self, item: Intervention) -> None:
        """Thread-safe: the intervention to show (a snapshot)."""
        with self._lock:
            self._current = dataclasses.replace(item)

    async def start(self) -> int:
        app = web.Application()
        app.router.add_get("/", self._page)
        app.router.add_get("/api/current", self._current_json)
        app.router.add_get("/api/documents", self._documents_json)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        self.port = self._runner.addresses[0][1]
        log.info("evidence page on http://%s:%d/", self.host, self.port)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def _refusal(self, request: web.Request) -> Optional[web.Response]:
        if self.host in LOOPBACK:
            try:
                name = (URL(f"http://{request.host}").host or "").strip("[]")
            except ValueError:
                name = ""
            if name not in LOOPBACK:
                return web.Response(status=403, text="host not allowed")
        if self.token and not hmac.compare_digest(request.query.get("token", "").encode(), self.token.encode()):
            return web.Response(status=403, text="token required")
        return None

    async def _page(self, request: web.Request) -> web.Response:
        return self._refusal(request) or web.Response(text=PAGE, content_type="text/html")

    async def _current_json(self, request: web.Request) -> web.Response:
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        with self._lock:
            body = intervention_json(self._current, self.library)
        return web.json_response(body, headers={"Cache-Control": "no-store"})

    async def _documents_json(self, request: web.Request) -> web.Response:
        return self._refusal(request) or web.Response(text=self._documents, content_type="application/json")
