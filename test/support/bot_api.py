"""A local server speaking the two Telegram Bot API endpoints phanthy uses (getUpdates with
long polling, sendMessage), on a real socket, run on its own thread with aiohttp."""

import asyncio
import threading
from typing import List

from aiohttp import web


class FakeBotApi:
    def __init__(self, token: str = "123:TEST"):
        self.token = token
        self.sent: List[dict] = []
        self.fail_next = 0  # answer this many requests with HTTP 500
        self._updates: List[dict] = []
        self._next_id = 1
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._changed = None
        self.url = ""

    def start(self) -> "FakeBotApi":
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        return self

    async def _start(self):
        self._changed = asyncio.Event()
        app = web.Application()
        app.router.add_post(f"/bot{self.token}/getUpdates", self._get_updates)
        app.router.add_post(f"/bot{self.token}/sendMessage", self._send_message)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"

    def stop(self):
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)

    def user_writes(self, chat_id: int, user_id: int, text=None, **extra):
        def add():
            message = {"message_id": self._next_id, "chat": {"id": chat_id, "type": "private"},
                       "from": {"id": user_id, "is_bot": False, "first_name": "T"}, "date": 0, **extra}
            if text is not None:
                message["text"] = text
            self._updates.append({"update_id": 1000 + self._next_id, "message": message})
            self._next_id += 1
            self._changed.set()
        self._loop.call_soon_threadsafe(add)

    def raw_update(self, update):
        def add():
            self._updates.append(update)
            self._changed.set()
        self._loop.call_soon_threadsafe(add)

    async def _failing(self):
        if self.fail_next > 0:
            self.fail_next -= 1
            return web.json_response({"ok": False, "description": "Internal Server Error"}, status=500)
        return None

    async def _get_updates(self, request):
        failing = await self._failing()
        if failing is not None:
            return failing
        body = await request.json()
        offset, timeout = int(body.get("offset", 0)), min(float(body.get("timeout", 0)), 5.0)
        pending = [u for u in self._updates if u.get("update_id", 0) >= offset]
        if not pending and timeout:
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), timeout)
            except asyncio.TimeoutError:
                pass
            pending = [u for u in self._updates if u.get("update_id", 0) >= offset]
        return web.json_response({"ok": True, "result": pending})

    async def _send_message(self, request):
        failing = await self._failing()
        if failing is not None:
            return failing
        body = await request.json()
        if not str(body.get("text", "")):
            return web.json_response({"ok": False, "description": "Bad Request: message text is empty"}, status=400)
        self.sent.append(body)
        return web.json_response({"ok": True, "result": {"message_id": len(self.sent)}})
