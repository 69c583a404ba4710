"""In-memory drivers for the agent core: a ToolExecutor whose tools take scripted virtual time."""

import asyncio
import dataclasses
import json
import uuid
from typing import Callable, Dict, List, Optional, Tuple

from phanthy_agent.core.executor import StartResult


@dataclasses.dataclass
class FakeTool:
    decl: dict
    duration_s: float = 0.0  # virtual seconds until the result
    status: str = "succeeded"
    result: Optional[dict] = None
    error: str = ""
    reachable: bool = True  # False: the driver is not there (start fails)
    never_ends: bool = False  # accepted, then silence (a dead driver)
    ignores_cancel: bool = False
    complete_inside_start: bool = False  # the result arrives before start() returns
    speech: bool = False  # result carries heard_text, proportional to time played
    # the result computed from the arguments when the action ends (an exception: failed, with
    # its message): a stateful driver such as the box office on its real database layer
    handler: Optional[Callable[[dict], dict]] = None


@dataclasses.dataclass
class Started:
    action_id: str
    driver: str
    tool: str
    args: dict
    t: float
    handle: Optional[asyncio.TimerHandle] = None
    ended: bool = False


class FakeExecutor:
    def __init__(self) -> None:
        self.tools: Dict[Tuple[str, str], FakeTool] = {}
        self.started: List[Started] = []
        self.cancels: List[Tuple[str, float]] = []
        self.hooks: List[Tuple[str, str, str, dict, float]] = []  # hook, driver, action, params, t
        self._on_done = self._on_feedback = None

    # test set-up ------------------------------------------------------------------------
    def add(self, driver: str, tool: FakeTool) -> FakeTool:
        self.tools[(driver, tool.decl["name"])] = tool
        return tool

    def manifests(self) -> Dict[str, str]:
        by_driver: Dict[str, list] = {}
        for (driver, _), tool in self.tools.items():
            by_driver.setdefault(driver, []).append(tool.decl)
        return {d: json.dumps(decls) for d, decls in by_driver.items()}

    def calls(self, tool: str) -> List[Started]:
        return [s for s in self.started if s.tool == tool]

    def hooks_fired(self) -> List[str]:
        return [h[0] for h in self.hooks]

    # ToolExecutor ---------------------------------------------------------------------------
    def bind(self, on_done, on_feedback) -> None:
        self._on_done, self._on_feedback = on_done, on_feedback

    async def start(self, driver: str, tool: str, args: dict) -> StartResult:
        loop = asyncio.get_running_loop()
        spec = self.tools.get((driver, tool))
        await asyncio.sleep(0.005)  # goal round trip
        if spec is None or not spec.reachable:
            return StartResult(False, error=f"driver {driver} is not available")
        started = Started(uuid.uuid4().hex, driver, tool, dict(args), loop.time())
        self.started.append(started)
        if spec.speech:
            self._on_feedback(started.action_id, json.dumps({"heard_text": "", "position_ms": 0}))
        if spec.complete_inside_start:
            self._end(started, spec.status)
        elif not spec.never_ends:
            started.handle = loop.call_later(spec.duration_s, self._end, started, spec.status)
        return StartResult(True, started.action_id)

    def cancel(self, action_id: str) -> None:
        loop = asyncio.get_event_loop()
        self.cancels.append((action_id, loop.time()))
        for started in self.started:
            spec = self.tools[(started.driver, started.tool)]
            if started.action_id == action_id and not started.ended and not spec.ignores_cancel:
                if started.handle:
                    started.handle.cancel()
                loop.call_soon(self._end, started, "cancelled")

    def fire_hook(self, target, hook: str) -> None:
        self.hooks.append((hook, target.driver, target.action, target.params,
                           asyncio.get_event_loop().time()))
        if target.action == "stop":  # a stop hook ends that driver's running actions
            for started in self.started:
                if started.driver == target.driver and not started.ended:
                    self.cancel(started.action_id)

    def _end(self, started: Started, status: str) -> None:
        if started.ended:
            return
        started.ended = True
        spec = self.tools[(started.driver, started.tool)]
        result = dict(spec.result or {})
        error = spec.error if status == "failed" else ""
        if spec.handler is not None and status == "succeeded":
            try:
                result = spec.handler(started.args)
            except Exception as exc:  # the driver's refusal: a failed action, as the SDK reports it
                status, error, result = "failed", str(exc), {}
        if spec.speech:
            text = started.args.get("text", "")
            played = 1.0 if status == "succeeded" else (
                (asyncio.get_event_loop().time() - started.t) / spec.duration_s if spec.duration_s else 0)
            words = text.split()
            result["heard_text"] = " ".join(words[:int(len(words) * min(1.0, played))])
        self._on_done(started.action_id, status, json.dumps(result) if result else "", error)


def speak_tool(duration_s: float = 3.0) -> FakeTool:
    return FakeTool({"name": "speak", "description": "Say a sentence aloud.",
                     "parameters": {"type": "object", "properties": {"text": {"type": "string"}},
                                    "required": ["text"]},
                     "acting": True, "timeout_s": 60,
                     "x-hooks": {"on_interrupt_speak": {"action": "stop", "params": {}}}},
                    duration_s=duration_s, speech=True)


def stop_tool() -> FakeTool:
    return FakeTool({"name": "stop", "description": "", "hidden": True})


def navigate_tool(duration_s: float = 10.0, timeout_s: float = 120) -> FakeTool:
    return FakeTool({"name": "navigate_to", "description": "Walk to a named place.",
                     "parameters": {"type": "object",
                                    "properties": {"place": {"type": "string",
                                                             "enum": ["dinosaur_hall", "gift_shop", "second_floor"]}},
                                    "required": ["place"]},
                     "acting": True, "timeout_s": timeout_s,
                     "x-hooks": {"on_interrupt_motion": {"action": "halt", "params": {}}}},
                    duration_s=duration_s, result={"arrived": True})


def lookup_tool(duration_s: float = 0.2) -> FakeTool:
    return FakeTool({"name": "lookup", "description": "Look something up.",
                     "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
                     "acting": False, "timeout_s": 5},
                    duration_s=duration_s, result={"answer": 42})


def box_office_tools(seed_demo: bool = True) -> List[FakeTool]:
    """The box office's declared tools, each answered by the real database layer (in memory)."""
    from phanthy_drivers.box_office import declarations
    from phanthy_drivers.box_office_db import BoxOffice
    office = BoxOffice(":memory:", seed_demo=seed_demo)
    methods = {"list_tours": lambda a: office.list_tours(a.get("name", "")),
               "book_tickets": lambda a: office.book(a["tour_id"], a["tickets"], a["name"]),
               "get_booking": lambda a: office.get_booking(a["name"], a["code"]),
               "cancel_booking": lambda a: office.cancel(a["name"], a["code"]),
               "refund_booking": lambda a: office.refund(a["name"], a["code"]),
               "lookup_membership": lambda a: office.lookup_membership(a.get("member_id", ""), a.get("name", "")),
               "add_tour": lambda a: office.add_tour(a["tour_id"], a["name"], a["start_time"], a["capacity"],
                                                     a["price_eur"])}
    return [FakeTool(decl, duration_s=0.01, handler=methods[decl["name"]]) for decl in declarations()]
