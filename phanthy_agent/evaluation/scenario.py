"""Scenario files for `phanthy eval`: YAML, validated with pydantic; a bad file is a
`ScenarioError` naming the file, the line and the field.

    name: two tickets for the 3 pm tour
    tags: [simple]
    robot: {config: robot.yaml, params: {agent.agent.brain: offline}}
    world: {sqlite: world/museum.sql}
    visitor:
      mode: text                      # text | audio
      script:
        - say: Two tickets for the three o'clock dinosaur tour, please. My name is Ada.
        - wait: reply                 # reply | idle | seconds
    expect:
      - called: {tool: book_tickets, args: {tickets: 2}, status: succeeded}
      - said: "[A-Z0-9]{6}"

The full reference is in the README ("Evaluation"). Paths (robot.config, world.sqlite files)
are relative to the scenario file; a robot config may also be a name in config/.
"""

from __future__ import annotations

import pathlib
from typing import Any, Dict, List, Literal, Optional, Union

import pydantic
import yaml
from pydantic import BaseModel, ConfigDict, Field

TAGS_KNOWN = ("simple", "complex", "adversarial")


class ScenarioError(ValueError):
    """A scenario file that cannot be run; the message names the file, line and field."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- the visitor ----------------------------------------------------------------------------
class Step(Strict):
    say: Optional[str] = Field(None, min_length=1, max_length=20000)
    wait: Optional[Union[Literal["reply", "idle"], float]] = None
    barge_in_after_s: Optional[float] = Field(None, ge=0, le=60)
    confidence: float = Field(0.9, ge=0, le=1)  # text mode: the Transcript's confidence
    duration_ms: Optional[int] = Field(None, ge=0, le=60000)  # text mode: default ~350 ms a word
    voice: Literal["piper", "espeak"] = "piper"  # audio mode: who synthesizes the visitor

    @pydantic.model_validator(mode="after")
    def _one_kind(self):
        if (self.say is None) == (self.wait is None):
            raise ValueError("a step is either `say: TEXT` or `wait: reply | idle | SECONDS`")
        if self.barge_in_after_s is not None and self.say is None:
            raise ValueError("barge_in_after_s belongs to a `say` step")
        if isinstance(self.wait, float) and not 0 <= self.wait <= 120:
            raise ValueError("wait: seconds must be between 0 and 120")
        return self


class Rule(Strict):
    when: str = Field(min_length=1)  # regex over the robot's last reply (case-insensitive)
    say: str = Field(min_length=1, max_length=2000)
    once: bool = True


class VisitorBrain(Strict):
    kind: Literal["rules", "openai"] = "rules"
    rules: List[Rule] = Field(default_factory=list)
    otherwise: Optional[str] = None  # rules: said when no rule matches (else the visitor is done)
    base_url: str = "http://127.0.0.1:8080/v1"  # openai
    model: str = "default"
    api_key_env: str = "OPENAI_API_KEY"


class Visitor(Strict):
    mode: Literal["text", "audio"] = "text"
    script: List[Step] = Field(default_factory=list)
    goal: Optional[str] = None
    opening: Optional[str] = None  # goal-driven: the first thing the visitor says
    brain: Optional[VisitorBrain] = None
    max_turns: int = Field(8, ge=1, le=50)

    @pydantic.model_validator(mode="after")
    def _script_or_goal(self):
        if bool(self.script) == bool(self.goal):
            raise ValueError("a visitor has either a `script` or a `goal` (with `opening` and a `brain`)")
        if self.goal and (not self.opening or self.brain is None):
            raise ValueError("a goal-driven visitor needs `opening` and `brain`")
        return self


# --- the robot and the world ----------------------------------------------------------------
class Robot(Strict):
    config: str = "robot.yaml"
    params: Dict[str, Any] = Field(default_factory=dict)  # "node.param.name": value

    @pydantic.field_validator("params")
    @classmethod
    def _node_dot_param(cls, params):
        for key in params:
            if "." not in key:
                raise ValueError(f"parameter {key!r} must be `node.param` (e.g. agent.agent.brain)")
        return params


class World(Strict):
    sqlite: Union[str, List[str]] = Field(default_factory=list)  # SQL or .sql files, in order


# --- assertions -----------------------------------------------------------------------------
class Called(Strict):
    tool: str
    args: Dict[str, Any] = Field(default_factory=dict)  # a subset the call's arguments contain
    status: Optional[str] = None  # succeeded | failed | cancelled | timeout | rejected | skipped
    count: Optional[int] = Field(None, ge=0)  # exactly this many matching calls (default: at least one)


class Order(Strict):
    """Every `after` (a tool name, or a trace event kind: visitor_said, robot_said, ...) comes
    after a `before`; holds trivially when `after` never happened (pair it with `called`)."""
    before: str
    after: str
    before_status: Optional[str] = None  # only calls of `before` with this status count (e.g. succeeded)
    after_status: Optional[str] = None


class Sql(Strict):
    query: str
    equals: Optional[List[List[Any]]] = None
    contains: Optional[List[Any]] = None  # a row the result holds

    @pydantic.model_validator(mode="after")
    def _one(self):
        if (self.equals is None) == (self.contains is None):
            raise ValueError("an sql assertion has `equals: [[...]]` or `contains: [...]`")
        return self


class TurnCheck(Strict):
    index: int = -1  # which turn record (0 = first, -1 = last)
    end_reason: Optional[str] = None
    dialogue_state: Optional[str] = None
    inputs: Optional[List[str]] = None  # exactly these inputs
    inputs_contain: Optional[str] = None  # a regex one of the inputs matches
    count: Optional[int] = Field(None, ge=0)  # how many turn records the run has


class Within(Strict):
    start: str = Field(alias="from")  # event kind, or tool:NAME
    end: str = Field(alias="to")
    max_s: float = Field(alias="max", gt=0)
    index: int = 0  # which `from` event (0 = the first, -1 = the last)
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Assertion(Strict):
    said: Optional[str] = None  # regex over what the robot said, as heard
    not_said: Optional[str] = None
    called: Optional[Called] = None
    not_called: Optional[Called] = None
    order: Optional[Order] = None
    sql: Optional[Sql] = None
    turn: Optional[TurnCheck] = None
    within_s: Optional[Within] = None
    dialogue_state: Optional[str] = None  # the last voice turn's dialogue_state
    judge: Optional[str] = None  # natural language, graded by an LLM (eval --judge); never the only grader

    @pydantic.model_validator(mode="after")
    def _exactly_one(self):
        given = [k for k, v in self if v is not None]
        if len(given) != 1:
            raise ValueError(f"an assertion has exactly one kind; found {given or 'none'} "
                             f"(kinds: said, not_said, called, not_called, order, sql, turn, within_s, "
                             f"dialogue_state, judge)")
        return self

    @property
    def kind(self) -> str:
        return next(k for k, v in self if v is not None)

    @property
    def spec(self) -> Any:
        return getattr(self, self.kind)


class Scenario(Strict):
    name: str = Field(min_length=1, max_length=200)
    tags: List[str] = Field(default_factory=list)
    description: str = ""
    robot: Robot = Field(default_factory=Robot)
    world: World = Field(default_factory=World)
    visitor: Visitor
    expect: List[Assertion] = Field(min_length=1)
    timeout_s: float = Field(120.0, gt=0, le=1800)  # the whole run
    path: Optional[str] = Field(None, exclude=True)  # set by load()

    @property
    def folder(self) -> pathlib.Path:
        return pathlib.Path(self.path).parent if self.path else pathlib.Path.cwd()

    def sql_sources(self) -> List[str]:
        items = [self.world.sqlite] if isinstance(self.world.sqlite, str) else list(self.world.sqlite)
        return items


# --- loading --------------------------------------------------------------------------------
def _line_of(node: Optional[yaml.Node], loc) -> int:
    """The 1-based line of the YAML node at a pydantic error location (the deepest that exists)."""
    line = node.start_mark.line + 1 if node is not None else 0
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            match = [v for k, v in node.value if k.value == key]
            if not match:
                key_nodes = [k for k, _ in node.value if k.value == key]
                return key_nodes[0].start_mark.line + 1 if key_nodes else line
            node = match[0]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            continue  # a union branch or a validator's name: stay where we are
        line = node.start_mark.line + 1
    return line


def _union_branch(part) -> bool:
    """pydantic names the branch of a union it tried ("literal['reply','idle']", "float")."""
    return isinstance(part, str) and ("[" in part or part in ("float", "int", "str", "bool"))


def load(path: Union[str, pathlib.Path]) -> Scenario:
    path = pathlib.Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read: {exc}") from None
    try:
        node = yaml.compose(text)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise ScenarioError(f"{path}{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}:1: a scenario is a mapping (name, tags, robot, world, visitor, expect)")
    try:
        scenario = Scenario.model_validate(data)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"] if not _union_branch(p)) or "(top level)"
        message = first["msg"].removeprefix("Value error, ")
        raise ScenarioError(f"{path}:{_line_of(node, first['loc'])}: {field}: {message}"
                            + (f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else "")) from None
    scenario.path = str(path)
    return scenario


def discover(paths: List[str]) -> List[pathlib.Path]:
    """Scenario files from files and folders (folders: every *.yaml below, sorted; files whose
    name starts with '_' and robot configs referenced by scenarios are not scenarios)."""
    found: List[pathlib.Path] = []
    for item in paths:
        p = pathlib.Path(item)
        if p.is_dir():
            found += sorted(f for f in p.rglob("*.yaml") if _is_scenario_file(f))
        elif p.exists():
            found.append(p)
        else:
            raise ScenarioError(f"{p}: no such file or folder")
    return found


def _is_scenario_file(path: pathlib.Path) -> bool:
    if path.name.startswith("_"):
        return False
    try:
        head = path.read_text(encoding="utf-8")[:4000]
    except (OSError, UnicodeDecodeError):
        return True  # load() will say why
    return "ros__parameters" not in head  # a robot parameter file beside the scenarios
