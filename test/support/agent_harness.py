"""Drive an AgentCore on virtual time: a timeline of events, fake drivers, a scripted brain."""

import asyncio
import contextlib
import dataclasses
from typing import List, Optional

from phanthy_agent.brains.scripted import ScriptedBrain
from phanthy_agent.core.agent import AgentConfig, AgentCore
from phanthy_agent.core.events import Event


@dataclasses.dataclass
class RecordingSink:
    states: list = dataclasses.field(default_factory=list)
    turns: list = dataclasses.field(default_factory=list)
    events: list = dataclasses.field(default_factory=list)

    def state(self, status):
        self.states.append((asyncio.get_event_loop().time(), status))

    def turn(self, result):
        self.turns.append(result)

    def event(self, kind, turn_id, tool, action_id, status, text):
        self.events.append((asyncio.get_event_loop().time(), kind, turn_id, tool, action_id, status, text))

    def kinds(self, kind: str) -> list:
        return [e for e in self.events if e[1] == kind]


def speech(text: str, t: float = 0.0, duration_ms: int = 1500, mode: str = "", source: str = "speech") -> Event:
    return Event(source=source, priority=10, text=text, kind="transcript", stamp=t,
                 audio_duration_ms=duration_ms, interrupt_mode=mode, origin="test")


class Harness:
    def __init__(self, executor, replies, config: Optional[AgentConfig] = None, brain=None, context=None,
                 store=None):
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.executor = executor
        self.brain = brain or ScriptedBrain(replies)
        self.sink = RecordingSink()
        self.core = AgentCore(self.brain, executor, loop.time, config or AgentConfig(), context=context,
                              sink=self.sink, store=store)
        for driver, tools_json in executor.manifests().items():
            assert self.core.update_manifest(driver, tools_json) == []
        self._task = asyncio.ensure_future(self.core.run())

    def now(self) -> float:
        return self.loop.time()

    async def at(self, t: float) -> None:
        await asyncio.sleep(max(0.0, t - self.now()))

    def say(self, text: str, **kw):
        return self.core.submit(speech(text, t=self.now(), **kw))

    async def until(self, predicate, timeout: float = 600.0, step: float = 0.01) -> None:
        deadline = self.now() + timeout
        while not predicate():
            if self.now() > deadline:
                raise AssertionError("condition not reached in virtual time")
            await asyncio.sleep(step)

    async def turns(self, n: int, timeout: float = 600.0) -> List:
        await self.until(lambda: len(self.sink.turns) >= n, timeout)
        return self.sink.turns

    async def close(self) -> None:
        self.core.stop()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
