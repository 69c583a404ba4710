"""What the collector listens to: sources, their priorities and their sensor rules.

Sources come from configuration (ROS parameters `sources.<name>.<field>`), never from guessing
at a topic's or a source's name. Priority > 0 sources address the robot and go to the main
agent; priority 0 sources are sensor streams that only the background summarizer reads.
Alert conditions are `field op number` expressions parsed with a regex, never evaluated as code.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Mapping, Optional

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, ValidationInfo, \
    field_validator, model_validator

from ..core.events import InterruptMode
from .fields import Condition, check_template, parse_condition

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SHAPES = {"name": (_NAME, "battery: letters, digits and _"),
           "topic": (re.compile(r"\S+"), "battery_state"),
           "type": (re.compile(r"[A-Za-z][A-Za-z0-9_]*/msg/[A-Z][A-Za-z0-9]*"),
                    "sensor_msgs/msg/BatteryState")}


class ConfigError(ValueError):
    """The collector configuration is invalid; the message names each source and field."""


class AlertConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    when: str
    text: str
    priority: int = Field(5, ge=1, le=255, strict=True)
    interrupt_mode: str = "queue"
    _condition: Optional[Condition] = PrivateAttr(None)

    @field_validator("when")
    @classmethod
    def _check_when(cls, value: str) -> str:
        parse_condition(value)
        return value.strip()

    @field_validator("text")
    @classmethod
    def _check_text(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("alert text must not be empty")
        return check_template(value)

    @field_validator("interrupt_mode")
    @classmethod
    def _check_mode(cls, value: str) -> str:
        return _mode(value)

    def model_post_init(self, __context: Any) -> None:
        self._condition = parse_condition(self.when)

    @property
    def condition(self) -> Condition:
        return self._condition


class SourceConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    topic: str
    type: str
    priority: int = Field(ge=0, le=255, strict=True)  # uint8 in phanthy/msg/Event
    interrupt_mode: str = ""  # "" = the agent's default; P>0 only
    session: str = ""  # "" = the agent's default session; P>0 only
    throttle_s: float = Field(1.0, gt=0.0)  # P=0 only
    buffer_size: int = Field(100, ge=1, le=100_000, strict=True)
    status: str = ""  # P=0 only: template over the latest sample, e.g. "battery {percentage:.0%}"
    alerts: Dict[str, AlertConfig] = Field(default_factory=dict)  # P=0 only

    @field_validator("name", "topic", "type")
    @classmethod
    def _check_names(cls, value: str, info: ValidationInfo) -> str:
        pattern, example = _SHAPES[info.field_name]
        if not pattern.fullmatch(value):
            raise ValueError(f"invalid {info.field_name} {value!r} (expected e.g. {example})")
        return value

    @field_validator("interrupt_mode")
    @classmethod
    def _check_mode(cls, value: str) -> str:
        return _mode(value)

    @field_validator("status")
    @classmethod
    def _check_status(cls, value: str) -> str:
        return check_template(value)

    @field_validator("alerts")
    @classmethod
    def _check_alert_names(cls, value: Dict[str, AlertConfig]) -> Dict[str, AlertConfig]:
        for name in value:
            if not _NAME.fullmatch(name):
                raise ValueError(f"invalid alert name {name!r} (letters, digits and _)")
        return value

    @model_validator(mode="after")
    def _fields_match_priority(self) -> "SourceConfig":
        if self.priority > 0:
            wrong = [f for f in ("status", "alerts") if getattr(self, f)]
            wrong += ["throttle_s"] if self.throttle_s != 1.0 else []
            if wrong:
                raise ValueError(f"{', '.join(wrong)}: only for priority 0 (sensor) sources; "
                                 f"this source has priority {self.priority}")
        else:
            wrong = [f for f in ("interrupt_mode", "session") if getattr(self, f)]
            if wrong:
                raise ValueError(f"{', '.join(wrong)}: only for priority > 0 sources; a "
                                 f"priority 0 source never reaches the agent")
        return self

    @property
    def is_agent_source(self) -> bool:
        return self.priority > 0


class CollectorConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sources: Dict[str, SourceConfig] = Field(default_factory=lambda: default_sources())
    summary_period_s: float = Field(1.0, gt=0.0)
    max_buffers: int = Field(64, ge=1, strict=True)
    query_limit_max: int = Field(100, ge=1, strict=True)

    @model_validator(mode="after")
    def _check_sources(self) -> "CollectorConfig":
        topics: Dict[str, str] = {}
        for key, source in self.sources.items():
            if source.name != key:
                raise ValueError(f"sources.{key}: name {source.name!r} differs from its key")
            if source.topic in topics:
                raise ValueError(f"sources.{key}: topic {source.topic!r} is already used by "
                                 f"source {topics[source.topic]!r}")
            topics[source.topic] = key
        return self


def _mode(value: str) -> str:
    return InterruptMode.parse(value, InterruptMode.STEER).value if value else ""


def default_sources() -> Dict[str, SourceConfig]:
    """Used when no source is configured: speech, chat, the generic inbox and the text channels."""
    return {
        "speech": SourceConfig(name="speech", topic="voice/transcript",
                               type="phanthy/msg/Transcript", priority=10),
        "chat": SourceConfig(name="chat", topic="chat/in", type="phanthy/msg/Transcript",
                             priority=8),
        "inbox": SourceConfig(name="inbox", topic="phanthy/inbox", type="phanthy/msg/Event",
                              priority=5),
        "channels": SourceConfig(name="channels", topic="channels/in", type="phanthy/msg/ChatMessage",
                                 priority=8),
    }


def nest_dotted(flat: Mapping[str, Any]) -> Dict[str, Any]:
    """{"sources.battery.topic": "x"} -> {"sources": {"battery": {"topic": "x"}}}; nested dicts
    pass through and merge with dotted keys."""
    nested: Dict[str, Any] = {}
    for key, value in flat.items():
        parts = str(key).split(".")
        if isinstance(value, Mapping):
            value = nest_dotted(value)
        for part in reversed(parts[1:]):
            value = {part: value}
        _merge(nested, parts[0], value, parts[0])
    return nested


def _merge(node: Dict[str, Any], key: str, value: Any, where: str) -> None:
    if key not in node:
        node[key] = value
    elif isinstance(node[key], dict) and isinstance(value, dict):
        for sub_key, sub_value in value.items():
            _merge(node[key], sub_key, sub_value, f"{where}.{sub_key}")
    else:
        raise ConfigError(f"{where}: given twice (or both as a value and a group)")


def parse_sources(tree: Optional[Mapping[str, Any]] = None, **settings: Any) -> CollectorConfig:
    """Validate the collector configuration. `tree` is either the collector's parameter tree,
    {"sources": {"battery": {"topic": ..., "alerts": {"low": {"when": ...}}}},
    "summary_period_s": 1.0}, or (when it has no `sources` key and not only setting keys) the
    sources dict itself, as Params.nested("sources") gives it. Dotted keys are nested first;
    keyword `settings` (summary_period_s, max_buffers, query_limit_max) override the tree's.
    No (or empty) sources -> default_sources(). Raises ConfigError naming source and field."""
    tree = nest_dotted(tree or {})
    if "sources" not in tree and not set(tree) <= set(CollectorConfig.model_fields):
        tree = {"sources": tree}
    tree.update(settings)
    sources = tree.get("sources")
    if not sources:
        tree["sources"] = default_sources()
    elif isinstance(sources, Mapping):
        tree["sources"] = {key: ({"name": key, **value} if isinstance(value, Mapping) else value)
                           for key, value in sources.items()}
    try:
        return CollectorConfig.model_validate(tree)
    except ValidationError as exc:
        raise ConfigError("invalid collector configuration:\n" + _describe(exc)) from None


def _describe(exc: ValidationError) -> str:
    lines = []
    for error in exc.errors():
        loc = "".join(f"{part}: " if i == len(error["loc"]) - 1 else f"{part}."
                      for i, part in enumerate(error["loc"]))
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            model = _model_at(error["loc"])
            allowed = ", ".join(model.model_fields) if model else ""
            message = "unknown field" + (f" (allowed: {allowed})" if allowed else "")
        elif error["type"] == "missing":
            message = "required field is missing"
        elif "input" in error and error["type"] not in ("value_error", "assertion_error"):
            message += f" (got {error['input']!r})"
        lines.append(f"  {loc}{message}")
    return "\n".join(lines)


def _model_at(loc: tuple) -> Optional[type]:
    depth = len(loc) - 1  # the unknown field's parent
    if depth == 0:
        return CollectorConfig
    if loc[0] == "sources" and depth == 2:
        return SourceConfig
    if loc[0] == "sources" and depth == 4 and loc[2] == "alerts":
        return AlertConfig
    return None
