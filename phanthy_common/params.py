"""Parameters the nav2 way: declared up front with defaults and descriptions, read with the
default's type (a YAML `20` for a float parameter is fine), unknown keys reported."""

from __future__ import annotations

import os
import pathlib
from typing import Any, Dict, Iterable, Optional, Set, Tuple

from rcl_interfaces.msg import ParameterDescriptor
from rclpy.node import Node

from .interruption import InterruptionPolicy

REPO_CONFIG = pathlib.Path(__file__).resolve().parents[1] / "config"
ROS_BUILTIN = frozenset({"use_sim_time", "start_type_description_service"})  # rclpy declares these
SHARED_PREFIXES = ("interruption",)  # set once for every node (`/**` in the YAML): never "unknown"
RENAMED = {  # old parameter -> the one that replaced it (reported, not silently ignored)
    "agent.min_confidence_busy": "interruption.min_confidence",
    "agent.min_words_over_speech": "interruption.min_words",
    "barge_in.min_confidence": "interruption.min_confidence",
    "barge_in.min_words": "interruption.min_words",
    "barge_in.min_speech_ms": "interruption.min_speech_ms",
    "barge_in.backchannels": "interruption.backchannels",
    "agent.listen_hold_max_s": "agent.words_due_max_s",
}


class Params:
    """Wraps a node created with automatically_declare_parameters_from_overrides=True."""

    def __init__(self, node: Node):
        self.node = node
        self.declared: Set[str] = set()
        self.prefixes: Tuple[str, ...] = ()

    def get(self, name: str, default: Any, description: str = "") -> Any:
        self.declared.add(name)
        if not self.node.has_parameter(name):
            self.node.declare_parameter(name, default, ParameterDescriptor(description=description))
        value = self.node.get_parameter(name).value
        return _coerce(name, value, default)

    def nested(self, prefix: str) -> Dict[str, Any]:
        """Parameters under `prefix.` as nested dicts: sources.battery.topic -> {battery: {topic}}."""
        self.prefixes += (prefix,)
        out: Dict[str, Any] = {}
        for name, param in self.node.get_parameters_by_prefix(prefix).items():
            cursor = out
            parts = name.split(".")
            for part in parts[:-1]:
                cursor = cursor.setdefault(part, {})
            cursor[parts[-1]] = param.value
        return out

    def unknown(self) -> list:
        names = [n for n in self.node.list_parameters([], 0).names if n not in ROS_BUILTIN]
        return sorted(n for n in names if n not in self.declared
                      and not any(n.startswith(p + ".") for p in self.prefixes + SHARED_PREFIXES))

    def warn_unknown(self) -> None:
        for name in self.unknown():
            if name in RENAMED:
                self.node.get_logger().error(f"parameter {name!r} was renamed: set {RENAMED[name]!r} "
                                             f"(under /** in the YAML: every node reads it); ignored")
            else:
                self.node.get_logger().warning(f"unknown parameter {name!r} ignored (typo?)")

    def interruption(self) -> InterruptionPolicy:
        """The interruption policy: the same `interruption.*` parameters in every node."""
        default = InterruptionPolicy()
        return InterruptionPolicy(
            min_speech_ms=self.get("interruption.min_speech_ms", default.min_speech_ms,
                                   "final words of shorter speech are a backchannel (no command, no reason to stop)"),
            min_confidence=self.get("interruption.min_confidence", default.min_confidence,
                                    "words recognized less surely are a backchannel (0..1)"),
            min_words=self.get("interruption.min_words", default.min_words,
                               "fewer words are a request (and stop the robot) only when one asks to stop"),
            extra_backchannels=tuple(w for w in self.get("interruption.backchannels", [""],
                                                         "more backchannel words") if w))


def _coerce(name: str, value: Any, default: Any) -> Any:
    if default is None or value is None:
        return value
    try:
        if isinstance(default, bool):
            return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes")
        if isinstance(default, float):
            return float(value)
        if isinstance(default, int):
            return int(value)
        if isinstance(default, str):
            return str(value)
        if isinstance(default, (list, tuple)):
            if isinstance(value, str):  # `models: hey_jarvis` in YAML is a string, not a list
                return [item.strip() for item in value.split(",") if item.strip()]
            return list(value)
    except (TypeError, ValueError):
        raise ValueError(f"parameter {name!r}: {value!r} is not a {type(default).__name__}") from None
    return value


def config_dirs() -> Iterable[pathlib.Path]:
    env = os.environ.get("PHANTHY_CONFIG_DIR")
    if env:
        yield pathlib.Path(env)
    yield REPO_CONFIG
    try:
        from ament_index_python.packages import get_package_share_directory
        yield pathlib.Path(get_package_share_directory("phanthy")) / "config"
    except Exception:
        return


def resolve_config(path: str) -> Optional[pathlib.Path]:
    """An absolute path, a path relative to the working directory, or a file name in the
    package's config/ directory (the repository's, else the installed share/phanthy/config)."""
    if not path:
        return None
    candidate = pathlib.Path(path).expanduser()
    if candidate.is_absolute() or candidate.exists():
        return candidate
    for directory in config_dirs():
        if (directory / path).exists():
            return directory / path
    return candidate
