"""Text channel nodes: `chat_web` (the local web chat page) and `chat_telegram`. Each runs its
channel on an asyncio loop in a thread, publishes what people write on `channels/in`
(phanthy/msg/ChatMessage; the collector routes it to the agent with the session
`<channel>:<chat_id>`) and sends the agent's replies from `channels/out` back to the chat."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time

from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import ChatMessage

from phanthy_common.convert import clean_text, header
from phanthy_common.lifecycle import ManagedNode
from phanthy_common.params import Params

from ..channels.access import AccessPolicy
from ..channels.telegram import TelegramChannel
from ..channels.web import WebChat
from .console_bridge import ConsoleBridge

log = logging.getLogger(__name__)
RELIABLE = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)


class ChannelNode(ManagedNode):
    channel = ""

    def __init__(self, name: str, **kwargs):
        super().__init__(name, automatically_declare_parameters_from_overrides=True, **kwargs)
        self.params = Params(self)
        self._pub = self.create_publisher(ChatMessage, "channels/in", RELIABLE)
        self.create_subscription(ChatMessage, "channels/out", self._on_reply, RELIABLE)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"{name}-loop", daemon=True)

    def policy(self, default_role: str) -> AccessPolicy:
        p = self.params
        return AccessPolicy.build(
            p.get("roles.default", default_role, "role of senders not listed (visitor | operator | admin)"),
            p.get("roles.operators", [""], "sender ids with the operator role"),
            p.get("roles.admins", [""], "sender ids with the admin role"),
            p.get("allowed_chats", [""], "chat ids served ([] = every chat; Telegram: none)"))

    def publish(self, chat_id: str, sender: str, role: str, text: str) -> None:
        """Called on the channel's loop thread: hand a person's message to the graph."""
        self._pub.publish(ChatMessage(header=header(time.time()), channel=self.channel, chat_id=chat_id,
                                      sender=sender, role=role, text=clean_text(text)))

    def _on_reply(self, msg: ChatMessage) -> None:
        if msg.channel == self.channel and msg.text:
            self.deliver(msg.chat_id, msg.text)

    def deliver(self, chat_id: str, text: str) -> None:
        raise NotImplementedError

    def run_on_loop(self, coro, timeout: float = 10.0):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def close(self) -> None:
        if self._loop.is_running():
            try:
                self.run_on_loop(self.shutdown(), timeout=5.0)
            except Exception:
                log.debug("%s: shutdown failed", self.get_name(), exc_info=True)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=3.0)

    async def shutdown(self) -> None:
        pass


class WebChatNode(ChannelNode):
    channel = "web"

    def __init__(self, **kwargs):
        super().__init__("chat_web", **kwargs)
        p = self.params
        console = p.get("console.enabled", True, "serve the operator's console at /console")
        keep_turns = p.get("console.keep_turns", 20, "finished turns a console that opens late catches up on")
        self_id = p.get("peers.self_id", socket.gethostname(),
                        "this robot's peer id (the peers driver's peer_id): marked as this robot in the fleet")
        gone_s = p.get("console.peers_gone_s", 30.0, "a silent robot stays listed as gone this long, then is dropped")
        self.console = ConsoleBridge(self, keep_turns, self_id, gone_s) if console else None
        self.web = WebChat(self.publish, host=p.get("host", "127.0.0.1", "bind address (loopback by default)"),
                           port=p.get("port", 8765, "TCP port (0 = any free port)"),
                           token=p.get("token", "", "required on every request when set (needed off loopback)"),
                           policy=self.policy("visitor"),
                           role_tokens={role: p.get(f"tokens.{role}", "", f"a ?token= that grants the {role} role")
                                        for role in ("operator", "admin")},
                           allowed_origins=p.get("allowed_origins", [""],
                                                 "browser origins besides the page's own that may connect"),
                           console=self.console.hub if self.console else None)
        p.warn_unknown()
        self._thread.start()
        self.port = self.run_on_loop(self.web.start())
        self.get_logger().info(f"web chat: http://{self.web.host}:{self.port}/")

    def deliver(self, chat_id: str, text: str) -> None:
        self.web.send(chat_id, text)

    async def shutdown(self) -> None:
        await self.web.stop()


class TelegramNode(ChannelNode):
    channel = "telegram"

    def __init__(self, **kwargs):
        super().__init__("chat_telegram", **kwargs)
        p = self.params
        token_env = p.get("token_env", "PHANTHY_TELEGRAM_TOKEN", "environment variable holding the bot token")
        self.telegram = TelegramChannel(os.environ.get(token_env, ""), self.publish, self.policy("visitor"),
                                        base_url=p.get("base_url", "https://api.telegram.org", "Bot API server"),
                                        poll_timeout_s=p.get("poll_timeout_s", 25, "long-poll timeout"))
        p.warn_unknown()
        self._thread.start()
        self._task = asyncio.run_coroutine_threadsafe(self.telegram.run(), self._loop)

    def deliver(self, chat_id: str, text: str) -> None:
        self.telegram.send(chat_id, text)

    async def shutdown(self) -> None:
        self.telegram.stop()
        task = self._task
        try:
            await asyncio.wait_for(asyncio.wrap_future(task), timeout=2.0)
        except (asyncio.TimeoutError, Exception):
            task.cancel()
