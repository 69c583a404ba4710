"""The operator's console: what it shows, kept from the graph's topics, and its WebSocket
clients. No ROS (the chat_web node feeds it: phanthy_agent/ros/console_bridge.py).

Everything shown comes from a topic as a message `{"type": kind, "stamp": s, "data": {...}}`
(kinds below); `ConsoleState` keeps only what a page that opens late needs to catch up (the
latest state, the last turns with their events, the latest health of each node, ...), bounded,
and replays it as the same messages. The page sends `{"type": "say", "text": ...}` (a
visitor's words) and `{"type": "stop"}` (stop the robot).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
from typing import Any, Callable, Deque, Dict, List, Optional, OrderedDict, Set

log = logging.getLogger(__name__)

# topic-fed kinds: latest only (the page keeps its own history as it watches)
LATEST = ("state", "activity", "playback", "wake", "fleet")
MAX_TEXT = 4000
SEND_QUEUE = 1000  # messages waiting for one slow page; past that it is dropped (it reconnects)


class ConsoleState:
    """Pure: apply(kind, stamp, data) keeps what a late page needs; snapshot() replays it."""

    def __init__(self, keep_turns: int = 20, keep_items: int = 50):
        self.keep_turns = keep_turns
        self.latest: Dict[str, dict] = {}
        self.transcripts: Deque[dict] = collections.deque(maxlen=keep_items)
        self.turns: Deque[dict] = collections.deque(maxlen=keep_turns)
        self.timings: Deque[dict] = collections.deque(maxlen=keep_turns)
        self.events: "OrderedDict[str, List[dict]]" = collections.OrderedDict()  # turn id -> events
        self.interventions: "OrderedDict[str, dict]" = collections.OrderedDict()
        self.health: Dict[str, dict] = {}
        self.keep_items = keep_items

    def apply(self, kind: str, stamp: float, data: dict) -> dict:
        message = {"type": kind, "stamp": stamp, "data": data}
        if kind in LATEST:
            self.latest[kind] = message
        elif kind == "transcript":
            self.transcripts.append(message)
        elif kind == "event":
            turn = str(data.get("turn_id", ""))
            events = self.events.setdefault(turn, [])
            self.events.move_to_end(turn)
            if len(events) < 200:
                events.append(message)
            while len(self.events) > self.keep_turns + 1:
                self.events.popitem(last=False)
        elif kind == "turn":
            self.turns.append(message)
        elif kind == "timing":
            self.timings.append(message)
        elif kind == "intervention":
            self.interventions[str(data.get("id", ""))] = message
            self.interventions.move_to_end(str(data.get("id", "")))
            while len(self.interventions) > self.keep_items:
                self.interventions.popitem(last=False)
        elif kind == "health":
            self.health[str(data.get("node", ""))] = message
        return message

    def snapshot(self) -> List[dict]:
        """The messages that bring a new page up to date, oldest first."""
        out = list(self.health.values()) + list(self.timings)
        kept = {str(t["data"].get("turn_id", "")) for t in self.turns}
        for turn in self.turns:  # finished turns with their events, so they can be replayed
            out += self.events.get(str(turn["data"].get("turn_id", "")), [])
            out.append(turn)
        for turn_id, events in self.events.items():  # the running turn
            if turn_id not in kept:
                out += events
        out += list(self.transcripts) + list(self.interventions.values())
        out += [self.latest[k] for k in LATEST if k in self.latest]
        return out


class _Page:
    def __init__(self, ws, backlog: int) -> None:
        self.ws = ws
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=SEND_QUEUE + backlog)
        self.writer: Optional[asyncio.Future] = None


class ConsoleHub:
    """The console's pages: state fed from any thread (`publish`), each page a bounded queue
    drained by its own writer task; commands from pages handed to `on_say` / `on_stop`."""

    def __init__(self, on_say: Callable[[str], None], on_stop: Callable[[], str], keep_turns: int = 20):
        self.state = ConsoleState(keep_turns)
        self.on_say, self.on_stop = on_say, on_stop
        self._pages: Set[_Page] = set()
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self.sent = 0

    @property
    def pages(self) -> int:
        return len(self._pages)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def publish(self, kind: str, stamp: float, data: dict) -> None:
        """Thread-safe: a topic's message for the console."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._broadcast, kind, stamp, data)

    def _broadcast(self, kind: str, stamp: float, data: dict) -> None:
        text = json.dumps(self.state.apply(kind, stamp, data), default=str)
        for page in list(self._pages):
            if page.queue.full():  # a page that cannot keep up is dropped (it reconnects)
                log.warning("console: a page fell %d messages behind; dropping it", SEND_QUEUE)
                self._pages.discard(page)
                if page.writer is not None:
                    page.writer.cancel()
                asyncio.ensure_future(page.ws.close())
                continue
            page.queue.put_nowait(text)
            self.sent += 1

    async def serve(self, ws) -> None:
        """One page: the snapshot, then live messages; its commands."""
        snapshot = self.state.snapshot() + [{"type": "live"}]  # then live messages follow
        page = _Page(ws, len(snapshot))
        for message in snapshot:
            page.queue.put_nowait(json.dumps(message, default=str))
        self._pages.add(page)
        page.writer = asyncio.ensure_future(self._write(page))
        try:
            async for msg in ws:
                if msg.type == 1:  # aiohttp.WSMsgType.TEXT
                    await ws.send_str(json.dumps(self.command(msg.data)))
        finally:
            self._pages.discard(page)
            page.writer.cancel()

    @staticmethod
    async def _write(page: _Page) -> None:
        while True:
            await page.ws.send_str(await page.queue.get())

    def command(self, raw: str) -> dict:
        """A page's command: {"type": "say", "text": ...} or {"type": "stop"}."""
        try:
            command = json.loads(raw)
            kind = command.get("type")
        except (ValueError, AttributeError):
            return {"type": "error", "error": "send {\"type\": \"say\", \"text\": ...} or {\"type\": \"stop\"}"}
        if kind == "say":
            text = command.get("text")
            if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
                return {"type": "error", "error": f"say needs a text of 1-{MAX_TEXT} characters"}
            self.on_say(text.strip())
            return {"type": "ack", "what": "say", "text": text.strip()}
        if kind == "stop":
            return {"type": "ack", "what": "stop", "result": self.on_stop()}
        return {"type": "error", "error": f"unknown command {kind!r}"}


def console_message(data: Any) -> Any:
    """Plain data fit for JSON: ROS headers as a float `stamp`."""
    if isinstance(data, dict):
        out = {k: console_message(v) for k, v in data.items() if k != "header"}
        head = data.get("header")
        if isinstance(head, dict) and isinstance(head.get("stamp"), dict):
            out["stamp"] = head["stamp"].get("sec", 0) + head["stamp"].get("nanosec", 0) * 1e-9
        return out
    if isinstance(data, list):
        return [console_message(v) for v in data]
    return data
