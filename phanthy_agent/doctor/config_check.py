"""The parameter file a robot would run with: it parses, names known nodes, its choices are
among the allowed values and the files it names exist. What `phanthy run` would refuse, said
before the robot starts (with the line, for a YAML error)."""

from __future__ import annotations

import pathlib
from typing import Iterable, List, Optional, Tuple

import yaml

from phanthy_common.params import resolve_config
from phanthy_common.selfcheck import GLOBAL_SECTIONS, Check, ConfigView

# (node, parameter, default, allowed values)
CHOICES = (
    ("agent", "agent.brain", "offline", ("openai", "offline", "scripted")),
    ("agent", "agent.fallback_brain", "offline", ("openai", "offline", "scripted", "")),
    ("agent", "agent.interrupt_mode", "steer", ("steer", "interrupt", "queue")),
    ("speaker", "engine", "sim", ("sim", "piper")),
    ("speaker", "output", "none", ("device", "wav", "none")),
    ("speaker", "barge_in.on_onset", "pause", ("pause", "duck")),
    ("audio_capture", "source", "device", ("device", "file", "raw", "none")),
    ("asr", "listen_mode", "always", ("always", "wake_word")),
)
# (node, parameter, default, needed only when) : files that must exist
FILES = (
    ("agent", "offline.intents_file", "offline_intents.yaml", None),
    ("agent", "offline.faq_file", "faq.yaml", None),
    ("agent", "agent.environment_file", "museum.md", None),
    ("agent", "agent.identity_file", "", None),
    ("agent", "scripted.file", "", ("agent.brain", "scripted")),
    ("audio_capture", "file.path", "", ("source", "file")),
)
FIX_REFERENCE = "see the configuration reference in README.md"


def load_config(path: Optional[pathlib.Path], known_nodes: Iterable[str]) -> Tuple[Optional[ConfigView], Check]:
    """(the parsed view or None, the verdict on the file itself)."""
    if path is None or not path.exists():
        return None, Check("config", False, f"config file not found: {path}",
                           "give --config an existing file (a path, or a name in config/ such as sim.yaml)")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, Check("config", False, f"{path}: not valid YAML{where}: {problem}",
                           "fix the YAML there (indentation, a missing colon or quote)")
    except (OSError, UnicodeDecodeError) as exc:
        return None, Check("config", False, f"cannot read {path}: {exc}", "check the file and its permissions")
    if not isinstance(data, dict):
        return None, Check("config", False, f"{path} is not a ROS 2 parameter file (a mapping of node names)",
                           "start from config/sim.yaml")
    known = set(known_nodes)
    problems: List[str] = []
    for key, section in data.items():
        name = str(key).strip("/").split("/")[-1]
        if key not in GLOBAL_SECTIONS and name not in known:
            problems.append(f"unknown node {key!r} (known: {', '.join(sorted(known))})")
        elif not isinstance(section, dict) or not isinstance(section.get("ros__parameters", {}), dict) \
                or "ros__parameters" not in section:
            problems.append(f"{key}: needs a `ros__parameters:` mapping")
    if problems:
        return None, Check("config", False, f"{path}: " + "; ".join(problems), FIX_REFERENCE)
    view = ConfigView(data)
    problems = _choices(view) + _files(view)
    if problems:
        return view, Check("config", False, f"{path}: " + "; ".join(problems), FIX_REFERENCE)
    return view, Check("config", True, f"{path}: nodes {', '.join(sorted(view.sections)) or 'none'}")


def _choices(view: ConfigView) -> List[str]:
    out = []
    for node, key, default, allowed in CHOICES:
        if view.has(node):
            value = view.get(node, key, default)
            if value not in allowed:
                out.append(f"{node}.{key} is {value!r}, not one of {' | '.join(a or repr(a) for a in allowed)}")
    return out


def _files(view: ConfigView) -> List[str]:
    out = []
    for node, key, default, condition in FILES:
        if not view.has(node):
            continue
        if condition is not None and view.get(node, condition[0]) != condition[1]:
            continue
        value = str(view.get(node, key, default) or "")
        if not value:
            if condition is not None:
                out.append(f"{node}.{key} is empty but {condition[0]} is {condition[1]}")
            continue
        resolved = resolve_config(value)
        if resolved is None or not resolved.exists():
            out.append(f"{node}.{key}: {value} not found")
    return out
