"""The field language of sensor rules: paths into a sample, `field op number` conditions and
status/alert templates. Parsed with regexes and evaluated by lookup and comparison only; no
expression is ever evaluated as code and no attribute of an object is ever read.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import operator
import re
import string
from typing import Any, Mapping, Sequence, Tuple, Union

_SEGMENT = r"[A-Za-z][A-Za-z0-9_]*"
# a field path: `percentage`, `pose.position.x`, `cell_voltage[0]`
FIELD_PATH = re.compile(rf"{_SEGMENT}(?:\.{_SEGMENT}|\[\d+\])*")
_PATH_PART = re.compile(rf"\.?({_SEGMENT})|\[(\d+)\]")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_CONDITION = re.compile(rf"\s*({FIELD_PATH.pattern})\s*(<=|>=|==|!=|<|>)\s*({_NUMBER})\s*")
_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
        "==": operator.eq, "!=": operator.ne}

Path = Tuple[Union[str, int], ...]


@dataclasses.dataclass(frozen=True)
class Condition:
    path: Path  # ("pose", "position", "x") or ("cell_voltage", 0)
    op: str  # < <= > >= == !=
    threshold: float
    expr: str


def split_path(path: str) -> Path:
    """`pose.position.x` -> ("pose", "position", "x"); `cells[0]` -> ("cells", 0)."""
    if not FIELD_PATH.fullmatch(path):
        raise ValueError(f"invalid field path {path!r} (e.g. percentage, pose.position.x)")
    return tuple(name if name else int(index) for name, index in _PATH_PART.findall(path))


def parse_condition(expr: str) -> Condition:
    match = _CONDITION.fullmatch(expr or "")
    if match is None:
        raise ValueError(f"invalid alert condition {expr!r}: expected `field op number`, e.g. "
                         f"'percentage < 0.2' or 'pose.position.x >= 3' (op: < <= > >= == !=)")
    path, op, number = match.groups()
    return Condition(split_path(path), op, float(number), expr.strip())


def check_template(template: str) -> str:
    """A str.format template whose fields are field paths only (no positional fields)."""
    try:
        for _, field, spec, _ in string.Formatter().parse(template):
            if field is None:
                continue
            if not FIELD_PATH.fullmatch(field):
                raise ValueError(f"{{{field}}} is not a field path like {{percentage}} or "
                                 f"{{pose.position.x}}")
            if spec:
                check_template(spec)
    except ValueError as exc:
        raise ValueError(f"invalid format template {template!r}: {exc}") from None
    return template


class MissingField(LookupError):
    pass


def resolve(data: Any, path: Path) -> Any:
    """The value at `path` in nested mappings and sequences; MissingField when absent."""
    value = data
    for part in path:
        try:
            if isinstance(part, int):
                if isinstance(value, (str, bytes, Mapping)):
                    raise TypeError
                value = value[part]
            elif isinstance(value, Mapping):
                value = value[part]
            else:
                raise TypeError
        except (KeyError, IndexError, TypeError):
            raise MissingField(_path_text(path)) from None
    return value


def _path_text(path: Path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


class _PathFormatter(string.Formatter):
    """str.format whose fields are paths into the sample (no attribute access on objects)."""

    def get_field(self, field_name: str, args: Sequence[Any],
                  kwargs: Mapping[str, Any]) -> Tuple[Any, str]:
        return resolve(kwargs, split_path(field_name)), field_name


_FORMATTER = _PathFormatter()


def render(template: str, data: Mapping[str, Any]) -> str:
    """Raises MissingField, ValueError or TypeError when the sample does not fit the template."""
    return _FORMATTER.vformat(template, (), data)


def check(condition: Condition, data: Mapping[str, Any]) -> Tuple[bool, Any]:
    """(condition holds, the field's value); raises MissingField when the field is absent or
    not a number (NaN counts as absent)."""
    value = resolve(data, condition.path)
    if not isinstance(value, numbers.Real) or (isinstance(value, float) and math.isnan(value)):
        raise MissingField(f"{_path_text(condition.path)} is not a number ({value!r})")
    return bool(_OPS[condition.op](value, condition.threshold)), value
