"""Skills with progressive disclosure. Pure, no ROS.

A skill is `skills/<name>/SKILL.md`: YAML front matter, then the instructions in Markdown.

    ---
    name: guided_tour
    description: Give a 10-minute tour of the ground floor.
    requirements:
      tools: [navigate_to, speak]   # tools some driver must declare
      binaries: []                  # executables on PATH
      env: []                       # environment variables that must be set
    always: false                   # true: the full text is in every prompt
    ---
    (instructions)

The system prefix lists each skill by name and one-line description, and says why a skill is
unavailable when its requirements are missing; the model reads a skill's full text with the
built-in `load_skill` tool when it needs it. `always` skills are inlined whole. The listing
depends only on the skills and on the tool names, so the prefix stays byte-identical from
turn to turn. Binaries and environment variables are checked when the library is built.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import shutil
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import yaml

log = logging.getLogger(__name__)

MAX_SKILL_CHARS = 20_000


@dataclasses.dataclass(frozen=True)
class Skill:
    name: str
    description: str
    body: str
    path: str = ""
    tools: Tuple[str, ...] = ()
    binaries: Tuple[str, ...] = ()
    env: Tuple[str, ...] = ()
    always: bool = False


def parse_skill(text: str, path: str = "", default_name: str = "") -> Skill:
    """A SKILL.md's text -> Skill; ValueError with the reason when it is malformed."""
    if not text.startswith("---"):
        raise ValueError("no front matter (the file must start with ---)")
    try:
        _, front, body = text.split("---", 2)
        meta = yaml.safe_load(front) or {}
    except ValueError:
        raise ValueError("front matter not closed with ---") from None
    except yaml.YAMLError as exc:
        raise ValueError(f"front matter is not YAML: {exc}") from None
    if not isinstance(meta, dict):
        raise ValueError("front matter must be a mapping")
    name = str(meta.get("name") or default_name).strip()
    description = " ".join(str(meta.get("description") or "").split())
    if not name or not description:
        raise ValueError("name and description are required")
    req = meta.get("requirements") or {}
    if not isinstance(req, dict):
        raise ValueError("requirements must be a mapping (tools, binaries, env)")

    def names(key: str) -> Tuple[str, ...]:
        value = req.get(key) or []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise ValueError(f"requirements.{key} must be a list")
        return tuple(str(v) for v in value)

    body = body.strip()
    if len(body) > MAX_SKILL_CHARS:
        raise ValueError(f"body too long ({len(body)} > {MAX_SKILL_CHARS} characters)")
    return Skill(name, description, body, path, names("tools"), names("binaries"), names("env"),
                 bool(meta.get("always", False)))


class SkillLibrary:
    def __init__(self, skills: Iterable[Skill], which: Callable[[str], Optional[str]] = shutil.which,
                 environ: Mapping[str, str] = os.environ):
        self.skills: Dict[str, Skill] = {}
        for skill in skills:
            if skill.name in self.skills:
                log.error("skill %s defined twice (%s, %s); keeping the first", skill.name,
                          self.skills[skill.name].path, skill.path)
                continue
            self.skills[skill.name] = skill
        # binaries and environment: checked once, here
        self._static_missing = {
            s.name: [f"binary {b}" for b in s.binaries if which(b) is None]
            + [f"environment variable {e}" for e in s.env if not environ.get(e)]
            for s in self.skills.values()}

    @classmethod
    def from_dirs(cls, dirs: Sequence[str], **kw) -> "SkillLibrary":
        """Every `<dir>/<name>/SKILL.md`; a malformed one is logged and skipped."""
        skills: List[Skill] = []
        for directory in dirs:
            root = Path(directory).expanduser()
            if not root.is_dir():
                log.error("skills directory %s does not exist", root)
                continue
            for path in sorted(root.glob("*/SKILL.md")):
                try:
                    skills.append(parse_skill(path.read_text(encoding="utf-8"), str(path), path.parent.name))
                except (ValueError, OSError, UnicodeDecodeError) as exc:
                    log.error("skill %s skipped: %s", path, exc)
        return cls(skills, **kw)

    def __len__(self) -> int:
        return len(self.skills)

    def missing(self, name: str, tool_names: Iterable[str]) -> List[str]:
        skill = self.skills[name]
        have = set(tool_names)
        return [f"tool {t}" for t in skill.tools if t not in have] + self._static_missing[name]

    def prefix_section(self, tool_names: Sequence[str], progressive: bool = True) -> str:
        """The system prefix's part: a listing (progressive) or every skill in full."""
        if not self.skills:
            return ""
        lines, inlined = [], []
        for skill in sorted(self.skills.values(), key=lambda s: s.name):
            missing = self.missing(skill.name, tool_names)
            if missing:
                lines.append(f"- {skill.name}: {skill.description} (unavailable: missing {', '.join(missing)})")
            elif skill.always or not progressive:
                inlined.append(f"### Skill: {skill.name}\n{skill.body}")
            else:
                lines.append(f"- {skill.name}: {skill.description}")
        parts = []
        if lines:
            parts.append("## Skills\nRead a skill's instructions with load_skill before you use it.\n"
                         + "\n".join(lines))
        parts += inlined
        return "\n\n".join(parts)

    def load(self, name: str, tool_names: Iterable[str]) -> dict:
        """The `load_skill` tool's result."""
        skill = self.skills.get(str(name).strip())
        if skill is None:
            return {"error": f"no skill {name!r}; skills: {', '.join(sorted(self.skills)) or 'none'}"}
        missing = self.missing(skill.name, tool_names)
        if missing:
            return {"error": f"skill {skill.name} is unavailable: missing {', '.join(missing)}"}
        return {"skill": skill.name, "instructions": skill.body}
