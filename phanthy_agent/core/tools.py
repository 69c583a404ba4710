"""The tools the agent can call: driver manifests in, model-visible tool specs and validated
arguments out. The core reads what each driver declares (acting, timeout, hidden, x-hooks)
and never guesses from names."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from typing import Any, Dict, List, Optional, Tuple, Union

import pydantic

from phanthy_common.schemas import ArgumentsRejected, SchemaRejected, ToolSchema, parse_arguments

log = logging.getLogger(__name__)

HOOK_NAMES = (
    "on_interrupt_speak", "on_interrupt_motion", "on_interrupt_all", "on_wake", "on_hearing",
    "on_thinking", "on_speaking", "on_idle", "on_error",
    "on_hand_raise", "on_hand_lower",  # group conversations: the robot has something to say / no longer
)
INTERRUPT_HOOKS = ("on_interrupt_speak", "on_interrupt_motion")
ROLES = ("visitor", "operator", "admin")  # who sent a message, least trusted first


def least_trusted(roles) -> str:
    """The role a turn acts with: the least trusted of its inputs' roles."""
    ranked = [r for r in roles if r in ROLES]
    return min(ranked, key=ROLES.index) if ranked else "visitor"
BUILTIN_DRIVER = ""  # tools the agent itself implements (finish, cancel_action)
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class HookBinding(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    action: str
    params: Dict[str, Any] = {}


class ToolDeclaration(pydantic.BaseModel):
    """One entry of a driver's tools_json (see the README's driver guide)."""

    model_config = pydantic.ConfigDict(extra="allow", populate_by_name=True)
    name: str
    description: str = ""
    parameters: Dict[str, Any] = {"type": "object", "properties": {}}
    acting: bool = False
    timeout_s: float = pydantic.Field(30.0, gt=0)
    hidden: bool = False
    x_hooks: Dict[str, HookBinding] = pydantic.Field(default_factory=dict, alias="x-hooks")
    # who may call it: sender roles (empty = everyone; admin always may)
    x_roles: List[str] = pydantic.Field(default_factory=list, alias="x-roles")
    # destructive or costly: the robot asks the visitor first (true, or the question to ask,
    # with {argument} placeholders); models read it in the description, the offline brain asks
    x_confirm: Union[bool, str] = pydantic.Field(False, alias="x-confirm")
    # a few phrasings of a request for this tool (what the offline brain matches by meaning)
    x_examples: List[pydantic.constr(max_length=200)] = pydantic.Field(
        default_factory=list, alias="x-examples", max_length=50)

    @pydantic.field_validator("x_roles")
    @classmethod
    def _known_roles(cls, value: List[str]) -> List[str]:
        unknown = sorted(set(value) - set(ROLES))
        if unknown:
            raise ValueError(f"unknown roles {unknown}; known: {list(ROLES)}")
        return value

    def allows(self, role: str) -> bool:
        return not self.x_roles or role == "admin" or role in self.x_roles

    @pydantic.field_validator("name")
    @classmethod
    def _valid_name(cls, value: str) -> str:
        if not _NAME.match(value):
            raise ValueError(f"tool name {value!r} must match {_NAME.pattern}")
        return value

    _schema: Optional[ToolSchema] = pydantic.PrivateAttr(None)

    @pydantic.model_validator(mode="after")
    def _compile_schema(self) -> "ToolDeclaration":
        try:
            self._schema = ToolSchema(self.parameters)
        except SchemaRejected as exc:
            raise ValueError(f"parameters: {exc}") from None
        return self

    @property
    def schema(self) -> ToolSchema:
        """The compiled parameter schema (checked when the declaration was made)."""
        return self._schema

    @pydantic.field_validator("x_hooks")
    @classmethod
    def _known_hooks(cls, value: Dict[str, HookBinding]) -> Dict[str, HookBinding]:
        unknown = sorted(set(value) - set(HOOK_NAMES))
        if unknown:
            raise ValueError(f"unknown hook names {unknown}; known: {list(HOOK_NAMES)}")
        return value


@dataclasses.dataclass(frozen=True)
class RegisteredTool:
    driver: str
    decl: ToolDeclaration
    visible_name: str  # what the model calls it (driver-qualified only on a name clash)

    @property
    def builtin(self) -> bool:
        return self.driver == BUILTIN_DRIVER

    def spec(self) -> dict:
        """OpenAI function-tool form, plus the declaration's `x-confirm`, `x-examples` and
        `x-roles` when given (brains read them; the openai brain sends them as prose or not)."""
        function: Dict[str, Any] = {"name": self.visible_name, "description": self.decl.description,
                                    "parameters": self.decl.parameters}
        if self.decl.x_confirm:
            function["x-confirm"] = self.decl.x_confirm
        if self.decl.x_roles:
            function["x-roles"] = list(self.decl.x_roles)
        if self.decl.x_examples:
            function["x-examples"] = list(self.decl.x_examples)
        return {"type": "function", "function": function}


@dataclasses.dataclass(frozen=True)
class HookTarget:
    driver: str
    action: str
    params: Dict[str, Any]


BUILTIN_TOOLS = (
    ToolDeclaration(
        name="finish",
        description="End your turn. Call it when you have done and said everything needed. "
                    "It waits for your running actions (speech, motion) to complete.",
        parameters={"type": "object", "properties": {"dialogue_state": {
            "type": "string", "enum": ["end", "follow_up", "continuous"],
            "description": "Spoken conversations: end (done), follow_up (you asked the visitor "
                           "something: wait for the answer) or continuous (the visitor wants to "
                           "keep talking)."}}}),
    ToolDeclaration(
        name="wait_for_actions",
        description="Wait until your running actions (speech, motion, bookings) have ended, or "
                    "until the visitor says something new; how they ended comes as action "
                    "updates. Use it to tell the visitor the outcome of an action.",
        parameters={"type": "object", "properties": {}}),
    ToolDeclaration(
        name="cancel_action",
        description="Cancel one of your running actions by its action_id (listed in the status).",
        parameters={"type": "object", "properties": {"action_id": {"type": "string"}},
                    "required": ["action_id"]}),
)


LOAD_SKILL = ToolDeclaration(
    name="load_skill",
    description="Read the full instructions of one of your skills (listed under Skills).",
    parameters={"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})


class ToolError(Exception):
    """A tool call the model got wrong; the message goes back to the model."""


class ToolRegistry:
    """`speech_tool`: the tool that says replies, "name" (its owner is the first driver that
    declares it) or "driver/name" (that driver's); "" = none (a text-only deployment). The
    speech tool keeps its plain name: another driver declaring it is refused, loudly. Names
    of built-in tools are reserved."""

    def __init__(self, speech_tool: str = "speak") -> None:
        driver, _, name = speech_tool.rpartition("/")
        self.speech_name, self._speech_driver = name, driver
        self._builtins: Tuple[ToolDeclaration, ...] = BUILTIN_TOOLS
        self._by_driver: Dict[str, List[ToolDeclaration]] = {}
        self._visible: Dict[str, RegisteredTool] = {}
        self._by_qualified: Dict[Tuple[str, str], RegisteredTool] = {}
        self._rebuild()

    # --- manifests -------------------------------------------------------------------------
    def update_manifest(self, driver: str, tools_json: str) -> List[str]:
        """Replace a driver's tools. Invalid declarations are skipped; returns the errors."""
        if not driver or not _NAME.match(driver):
            return [f"invalid driver name {driver!r}"]
        try:
            entries = json.loads(tools_json)
        except (ValueError, TypeError) as exc:
            return [f"driver {driver}: tools_json is not JSON: {exc}"]
        if not isinstance(entries, list):
            return [f"driver {driver}: tools_json must be a JSON array"]
        decls, errors = [], []
        for index, entry in enumerate(entries):
            try:
                decl = ToolDeclaration.model_validate(entry)
                refusal = self._refusal(driver, decl.name)
                if refusal:
                    raise ValueError(refusal)
                if decl.name in {d.name for d in decls}:
                    raise ValueError("declared twice in this manifest")
                decls.append(decl)
            except (pydantic.ValidationError, ValueError, TypeError) as exc:
                errors.append(f"driver {driver}: tool #{index} "
                              f"{entry.get('name') if isinstance(entry, dict) else ''!r} rejected: {exc}")
        self._by_driver[driver] = decls
        self._rebuild()
        return errors

    def _refusal(self, driver: str, name: str) -> str:
        """Why `driver` may not declare a tool `name` ("" = it may)."""
        if name in {d.name for d in self._builtins} or name == LOAD_SKILL.name:
            return f"{name!r} is the name of a built-in tool of the agent; rename the driver's tool"
        if name == self.speech_name:
            owner = self.speech_owner()
            if owner and owner != driver:
                how = ("agent.speak_tool names it" if self._speech_driver
                       else "it declared it first; set agent.speak_tool to <driver>/" + name + " to choose")
                return (f"{name!r} is the speech tool, which belongs to driver {owner!r} ({how}); "
                        f"a second {name!r} would leave replies unspoken")
        return ""

    def speech_owner(self) -> str:
        """The driver whose tool says replies ("" = none yet)."""
        if self._speech_driver or not self.speech_name:
            return self._speech_driver
        for driver, decls in self._by_driver.items():  # in arrival order
            if any(d.name == self.speech_name for d in decls):
                return driver
        return ""

    def speech_tool(self) -> Optional[RegisteredTool]:
        """The speech tool as the model sees it, or None (not declared, or none configured)."""
        owner = self.speech_owner()
        return self.get(owner, self.speech_name) if owner else None

    def add_builtin(self, decl: ToolDeclaration) -> None:
        """A built-in tool that exists only in some deployments (load_skill, with skills)."""
        if decl.name not in {d.name for d in self._builtins}:
            self._builtins += (decl,)
            self._rebuild()

    def remove_driver(self, driver: str) -> None:
        if self._by_driver.pop(driver, None) is not None:
            self._rebuild()

    def drivers(self) -> List[str]:
        return sorted(self._by_driver)

    def tool_names(self, driver: str) -> List[str]:
        return [d.name for d in self._by_driver.get(driver, [])]

    def _rebuild(self) -> None:
        everything = [(BUILTIN_DRIVER, d) for d in self._builtins]
        everything += [(drv, d) for drv in sorted(self._by_driver) for d in self._by_driver[drv]]
        counts: Dict[str, int] = {}
        for _, decl in everything:
            if not decl.hidden:
                counts[decl.name] = counts.get(decl.name, 0) + 1
        self._visible, self._by_qualified = {}, {}
        for driver, decl in everything:
            clash = counts.get(decl.name, 0) > 1 and driver != BUILTIN_DRIVER
            visible = f"{driver}__{decl.name}" if clash else decl.name
            tool = RegisteredTool(driver, decl, visible)
            self._by_qualified[(driver, decl.name)] = tool
            if not decl.hidden and visible not in self._visible:
                self._visible[visible] = tool
        clashes = sorted(n for n, c in counts.items() if c > 1)
        if clashes:
            log.warning("tool names declared by several drivers, shown driver-qualified: %s", clashes)

    # --- lookups ---------------------------------------------------------------------------
    def visible_tools(self) -> List[RegisteredTool]:
        return [self._visible[name] for name in sorted(self._visible)]

    def resolve(self, visible_name: str) -> Optional[RegisteredTool]:
        return self._visible.get(visible_name)

    def get(self, driver: str, name: str) -> Optional[RegisteredTool]:
        return self._by_qualified.get((driver, name))

    def hook_targets(self, hook: str) -> List[HookTarget]:
        """Every driver action bound to this hook, each once."""
        targets: List[HookTarget] = []
        for driver in sorted(self._by_driver):
            for decl in self._by_driver[driver]:
                binding = decl.x_hooks.get(hook)
                if binding is None:
                    continue
                target = HookTarget(driver, binding.action, dict(binding.params))
                if target not in targets:
                    targets.append(target)
        return targets

    # --- arguments -------------------------------------------------------------------------
    def parse_args(self, tool: RegisteredTool, raw: Any) -> dict:
        """Parse and validate a model's arguments; raises ToolError with a message for it."""
        try:
            args = parse_arguments(raw)
            tool.decl.schema.check(args)
        except ArgumentsRejected as exc:
            raise ToolError(f"invalid arguments for {tool.visible_name}: {exc}") from None
        return args
