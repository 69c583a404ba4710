"""Telegram through the Bot API (long polling), with aiohttp. No ROS.

Uses two endpoints of `{base_url}/bot{token}/`: `getUpdates` (long poll, `offset`, `timeout`)
and `sendMessage` (`chat_id`, `text`). `base_url` is configurable (a local Bot API server, or
a test server). Only chats on the allowlist are served (an empty allowlist serves none: a bot
token alone must not open the robot to the world); others get one polite refusal and are
logged. A sender's role comes from the AccessPolicy (user ids listed as operators or admins).
Network errors and API errors are logged and retried with a backoff up to 30 s; nothing stops
the node.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable, Optional

import aiohttp

from .access import AccessPolicy

log = logging.getLogger(__name__)

MAX_MESSAGE = 4096  # Telegram's limit per message
REFUSAL = "Sorry, this robot does not take messages from this chat."

OnMessage = Callable[[str, str, str, str], None]  # chat_id, sender, role, text


class TelegramChannel:
    def __init__(self, token: str, on_message: OnMessage, policy: AccessPolicy,
                 base_url: str = "https://api.telegram.org", poll_timeout_s: int = 25,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        if not token:
            raise ValueError("no Telegram bot token (set the environment variable named by telegram.token_env)")
        if not policy.allowed_chats:
            log.warning("telegram: the chat allowlist is empty: every chat will be refused")
        self.on_message, self.policy, self.poll_timeout_s = on_message, policy, poll_timeout_s
        self._api = f"{base_url.rstrip('/')}/bot{token}/"
        self._sleep = sleep
        self._offset = 0
        self._refused = set()
        self._session: Optional[aiohttp.ClientSession] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._stopping = False

    async def run(self) -> None:
        """Poll until stop()."""
        self._loop = asyncio.get_running_loop()
        timeout = aiohttp.ClientTimeout(total=self.poll_timeout_s + 10)
        backoff = 1.0
        async with aiohttp.ClientSession(timeout=timeout) as session:
            self._session = session
            while not self._stopping:
                try:
                    updates = await self._call("getUpdates", {"offset": self._offset,
                                                              "timeout": self.poll_timeout_s})
                    backoff = 1.0
                except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as exc:
                    if self._stopping:
                        break
                    log.error("telegram: getUpdates failed (%s); retrying in %.0f s", exc, backoff)
                    await self._sleep(backoff)
                    backoff = min(30.0, backoff * 2)
                    continue
                for update in updates if isinstance(updates, list) else []:
                    await self._update(update)

    def stop(self) -> None:
        self._stopping = True

    def send(self, chat_id: str, text: str) -> None:
        """Thread-safe: the robot's reply to a chat."""
        if self._loop is None:
            log.error("telegram: not running; reply to %s dropped", chat_id)
            return
        asyncio.run_coroutine_threadsafe(self.send_now(chat_id, text), self._loop)

    async def send_now(self, chat_id: str, text: str) -> None:
        for start in range(0, max(1, len(text)), MAX_MESSAGE):
            try:
                await self._call("sendMessage", {"chat_id": chat_id, "text": text[start:start + MAX_MESSAGE]})
            except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as exc:
                log.error("telegram: sendMessage to %s failed: %s", chat_id, exc)
                return

    async def _call(self, method: str, payload: dict):
        assert self._session is not None
        async with self._session.post(self._api + method, json=payload) as response:
            try:
                body = await response.json(content_type=None)
            except ValueError:
                raise ValueError(f"{method}: HTTP {response.status}, not JSON") from None
        if not isinstance(body, dict) or not body.get("ok"):
            description = body.get("description") if isinstance(body, dict) else body
            raise ValueError(f"{method}: {description or f'HTTP {response.status}'}")
        return body.get("result")

    async def _update(self, update) -> None:
        if not isinstance(update, dict) or not isinstance(update.get("update_id"), int):
            log.warning("telegram: malformed update skipped: %r", update)
            return
        self._offset = max(self._offset, update["update_id"] + 1)
        message = update.get("message") or update.get("edited_message")
        if not isinstance(message, dict):
            return  # not a message (a join, a callback): nothing to say
        chat_id = str((message.get("chat") or {}).get("id", ""))
        sender = str((message.get("from") or {}).get("id", ""))
        text = message.get("text")
        if not chat_id:
            return
        if chat_id not in self.policy.allowed_chats:  # strict: an empty allowlist serves nobody
            log.warning("telegram: message from chat %s refused (not on the allowlist)", chat_id)
            if chat_id not in self._refused:
                self._refused.add(chat_id)
                await self.send_now(chat_id, REFUSAL)
            return
        if not isinstance(text, str) or not text.strip():
            await self.send_now(chat_id, "I can only read text messages.")
            return
        try:
            self.on_message(chat_id, sender, self.policy.role_of(sender), text.strip())
        except Exception:
            log.exception("telegram: message from %s not handed on", chat_id)
