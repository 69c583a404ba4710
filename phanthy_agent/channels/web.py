"""The local web chat: one HTML page and a WebSocket, served with aiohttp. No ROS.

    GET /?token=T        the chat page (each browser keeps its own chat id in localStorage)
    GET /ws?chat=ID&token=T   WebSocket: {"text": "..."} in; {"from": "robot", "text": "..."} out
    GET /console?token=T      the operator's console (phanthy_agent/channels/console.py)
    GET /console/ws?token=T   its WebSocket: the graph's topics out; say / stop in

Who may do what (the README's threat model):
- Bound to 127.0.0.1 by default. With an access `token` configured, both paths need it (403
  otherwise); a host other than loopback without a token is refused at start.
- Rights come only from a credential: the `?token=` is compared (constant time) with the
  role tokens (`tokens.admin`, `tokens.operator`), then the access token; whoever has neither
  gets the default role, `visitor`. The chat id is a name the page picks, so it grants nothing:
  `roles.operators` / `roles.admins` are refused for this channel, and a default role above
  visitor needs an access token.
- Browsers: a WebSocket whose `Origin` is not the page's own (or in `allowed_origins`) is
  refused, so another site open in a browser on the robot cannot drive it; on loopback the
  `Host` must be a loopback name too (a DNS-rebinding page presents its own host name).
  Clients without an Origin header (not browsers) are judged by their token alone.
- The console shows what people say and can stop the robot: it needs an operator or admin
  role token (`tokens.operator`, `tokens.admin`); only a server with no credential at all
  (loopback, nothing configured) lets whoever reaches it in, as the terminal console does.
Messages that are not JSON with a text field, or longer than MAX_TEXT, are answered with an
error and dropped; the connection stays open.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
from typing import Callable, Dict, Iterable, Mapping, Optional, Set

from aiohttp import WSMsgType, web
from yarl import URL

from .access import AccessPolicy
from .console import ConsoleHub
from .console_page import CONSOLE_PAGE
from .web_page import PAGE

log = logging.getLogger(__name__)

MAX_TEXT = 4000
LOOPBACK = ("127.0.0.1", "localhost", "::1")
_CHAT_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

OnMessage = Callable[[str, str, str, str], None]  # chat_id, sender, role, text


class WebChat:
    def __init__(self, on_message: OnMessage, host: str = "127.0.0.1", port: int = 8765, token: str = "",
                 policy: AccessPolicy = AccessPolicy(), role_tokens: Mapping[str, str] = (),
                 allowed_origins: Iterable[str] = (), console: Optional[ConsoleHub] = None):
        if host not in LOOPBACK and not token:
            raise ValueError(f"refusing to serve the web chat on {host} without a token (set web.token, "
                             f"or keep web.host 127.0.0.1)")
        if policy.operators or policy.admins:
            raise ValueError("chat_web: roles.operators / roles.admins would grant rights to a chat id the "
                             "page picks itself; give operators a credential instead (tokens.operator, "
                             "tokens.admin)")
        if policy.default_role != "visitor" and not token:
            raise ValueError(f"chat_web: roles.default {policy.default_role} without a token would make "
                             f"anyone who reaches the port {policy.default_role}; set token, or use "
                             f"tokens.operator for operators")
        self.role_tokens = {role: t for role, t in dict(role_tokens).items() if t}
        unknown = sorted(set(self.role_tokens) - {"operator", "admin"})
        if unknown:
            raise ValueError(f"chat_web: tokens.{unknown[0]}: only tokens.operator and tokens.admin exist")
        secrets = [t for t in (token, *self.role_tokens.values()) if t]
        if len(set(secrets)) != len(secrets):
            raise ValueError("chat_web: token, tokens.operator and tokens.admin must all differ")
        self.on_message, self.host, self.port, self.token, self.policy = on_message, host, port, token, policy
        self.allowed_origins = {o.rstrip("/") for o in allowed_origins if o}
        self.console = console
        self._sockets: Dict[str, Set[web.WebSocketResponse]] = {}
        self._runner: Optional[web.AppRunner] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None

    async def start(self) -> int:
        """Serve; returns the bound port (useful with port 0)."""
        self._loop = asyncio.get_running_loop()
        app = web.Application()
        app.router.add_get("/", self._page)
        app.router.add_get("/ws", self._ws)
        if self.console is not None:
            self.console.bind(self._loop)
            app.router.add_get("/console", self._console_page)
            app.router.add_get("/console/ws", self._console_ws)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the real port when 0 was asked
        log.info("web chat on http://%s:%d/", self.host, self.port)
        return self.port

    async def stop(self) -> None:
        for sockets in list(self._sockets.values()):
            for ws in list(sockets):
                await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def send(self, chat_id: str, text: str) -> int:
        """Thread-safe: the robot's reply to one chat; returns how many tabs it went to."""
        sockets = list(self._sockets.get(chat_id, ()))
        if self._loop is None or not sockets:
            log.info("web chat %s: no open page for the reply", chat_id)
            return 0
        payload = json.dumps({"from": "robot", "text": text})
        for ws in sockets:
            asyncio.run_coroutine_threadsafe(ws.send_str(payload), self._loop)
        return len(sockets)

    # --- handlers ----------------------------------------------------------------------------
    def _role(self, request: web.Request) -> Optional[str]:
        """The role the request's credential grants; None = not admitted."""
        given = request.query.get("token", "")
        for role in ("admin", "operator"):
            secret = self.role_tokens.get(role)
            if secret and hmac.compare_digest(given.encode(), secret.encode()):
                return role
        if not self.token or hmac.compare_digest(given.encode(), self.token.encode()):
            return self.policy.default_role
        return None

    def _host_ok(self, request: web.Request) -> bool:
        """On loopback, only loopback host names: a DNS-rebinding page sends its own."""
        if self.host not in LOOPBACK:
            return True
        try:
            name = URL(f"http://{request.host}").host or ""
        except ValueError:
            return False
        return name.strip("[]") in LOOPBACK

    def _origin_ok(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser: its token decides
        origin = origin.rstrip("/")
        own = f"{'https' if request.secure else 'http'}://{request.host}"
        return origin == own or origin in self.allowed_origins

    def _refusal(self, request: web.Request) -> Optional[web.Response]:
        if not self._host_ok(request):
            log.warning("web chat: refused a request for host %.80r", request.host)
            return web.Response(status=403, text="host not allowed")
        if self._role(request) is None:
            return web.Response(status=403, text="token required")
        return None

    def _console_refusal(self, request: web.Request) -> Optional[web.Response]:
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        open_server = not self.token and not self.role_tokens  # loopback only (checked at start)
        if not open_server and self._role(request) not in ("operator", "admin"):
            return web.Response(status=403, text="the console needs an operator token (tokens.operator)")
        return None

    async def _console_page(self, request: web.Request) -> web.Response:
        refusal = self._console_refusal(request)
        return refusal or web.Response(text=CONSOLE_PAGE, content_type="text/html")

    def _socket_refusal(self, request: web.Request, refusal: Optional[web.Response]) -> Optional[web.Response]:
        """A WebSocket also needs a browser origin of ours (another site open on the robot's browser)."""
        if refusal is None and not self._origin_ok(request):
            log.warning("web chat: refused a WebSocket to %s from origin %.80r", request.path,
                        request.headers.get("Origin"))
            return web.Response(status=403, text="origin not allowed")
        return refusal

    async def _console_ws(self, request: web.Request) -> web.StreamResponse:
        refusal = self._socket_refusal(request, self._console_refusal(request))
        if refusal is not None:
            return refusal
        ws = web.WebSocketResponse(heartbeat=30)
        await ws.prepare(request)
        log.info("console opened (%s)", self._role(request))
        await self.console.serve(ws)
        return ws

    async def _page(self, request: web.Request) -> web.Response:
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        return web.Response(text=PAGE, content_type="text/html")

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        refusal = self._socket_refusal(request, self._refusal(request))
        if refusal is not None:
            return refusal
        role = self._role(request)
        chat_id = request.query.get("chat", "")
        if not _CHAT_ID.match(chat_id):
            return web.Response(status=400, text="chat must be 1-64 letters, digits, _ or -")
        if not self.policy.admits(chat_id):
            return web.Response(status=403, text="this chat is not allowed")
        ws = web.WebSocketResponse(heartbeat=30)
        await ws.prepare(request)
        self._sockets.setdefault(chat_id, set()).add(ws)
        log.info("web chat %s connected", chat_id)
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._inbound(ws, chat_id, role, msg.data)
                elif msg.type == WSMsgType.ERROR:
                    log.warning("web chat %s: %s", chat_id, ws.exception())
        finally:
            self._sockets.get(chat_id, set()).discard(ws)
        return ws

    async def _inbound(self, ws: web.WebSocketResponse, chat_id: str, role: str, data: str) -> None:
        try:
            text = json.loads(data).get("text")
        except (ValueError, AttributeError):
            text = None
        if not isinstance(text, str) or not text.strip():
            await ws.send_str(json.dumps({"from": "system", "error": "send {\"text\": \"...\"}"}))
            return
        if len(text) > MAX_TEXT:
            await ws.send_str(json.dumps({"from": "system", "error": f"message longer than {MAX_TEXT} characters"}))
            return
        try:
            self.on_message(chat_id, chat_id, role, text.strip())
        except Exception:
            log.exception("web chat %s: message not handed on", chat_id)
            await ws.send_str(json.dumps({"from": "system", "error": "the robot did not get it, try again"}))
