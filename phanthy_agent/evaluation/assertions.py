"""The assertion engine: deterministic checks over one joint trace and the world database after
the run. Pure (no ROS). Each check returns a `Verdict` saying what it expected and what the
trace had, so a failure reads as a bug report.

- said / not_said: a regex (case-insensitive) over what the robot said, as heard;
- called / not_called: tool, an args subset, status, count;
- order: every `after` comes after a `before` (tools or event kinds);
- sql: a query on the world database equals / contains;
- turn: a turn record's end_reason, dialogue_state, inputs; or how many turns there were;
- within_s: the first `to` event after a `from` event comes within max seconds;
- dialogue_state: the last turn's dialogue_state;
- judge: not graded here (evaluation/judge.py; it never replaces these).
"""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
from typing import Any, Dict, List, Optional

from .scenario import Assertion, Called, Order, Sql, TurnCheck, Within
from .trace import EVENT_KINDS, Trace

MAX_SHOWN = 300


@dataclasses.dataclass
class Verdict:
    index: int
    kind: str
    spec: Any
    passed: Optional[bool]  # None: not graded (a judge assertion without --judge)
    expected: str
    found: str

    @property
    def message(self) -> str:
        return f"{self.kind} #{self.index + 1}: expected {self.expected}; found {self.found}"

    def to_dict(self) -> Dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "spec": self.spec, "passed": self.passed,
                "expected": self.expected, "found": self.found}


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "..."


def _regex(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)


def _contains(actual: Any, subset: Any) -> bool:
    """`subset` is in `actual`: dict keys recursively, strings case-insensitively, numbers equal
    (2 == 2.0), lists element-wise by position."""
    if isinstance(subset, dict):
        return isinstance(actual, dict) and all(k in actual and _contains(actual[k], v) for k, v in subset.items())
    if isinstance(subset, list):
        return isinstance(actual, list) and len(actual) == len(subset) and all(
            _contains(a, s) for a, s in zip(actual, subset))
    if isinstance(subset, str) and isinstance(actual, str):
        return " ".join(subset.split()).casefold() == " ".join(actual.split()).casefold()
    if isinstance(subset, bool) or isinstance(actual, bool):
        return subset is actual
    if isinstance(subset, (int, float)) and isinstance(actual, (int, float)):
        return float(subset) == float(actual)
    return subset == actual


def _matching_calls(trace: Trace, spec: Called) -> List[Dict[str, Any]]:
    return [c for c in trace.tool_calls(spec.tool)
            if (spec.status is None or c.get("status") == spec.status) and _contains(c.get("args") or {}, spec.args)]


def _describe_calls(trace: Trace, tool: Optional[str] = None) -> str:
    calls = trace.tool_calls(tool)
    if not calls:
        return "no calls" + (f" of {tool}" if tool else "") + (
            f" (calls made: {', '.join(sorted({c['tool'] for c in trace.tool_calls()}))})" if tool and trace.tool_calls() else "")
    return _short([{"tool": c["tool"], "args": c.get("args"), "status": c.get("status")} for c in calls])


def _called(trace: Trace, spec: Called) -> tuple:
    matches = _matching_calls(trace, spec)
    want = f"{spec.tool}" + (f" with args containing {_short(spec.args)}" if spec.args else "") + (
        f" ending {spec.status}" if spec.status else "")
    if spec.count is None:
        return bool(matches), f"a call of {want}", _describe_calls(trace, spec.tool)
    return len(matches) == spec.count, f"{spec.count} call(s) of {want}", \
        f"{len(matches)}: {_describe_calls(trace, spec.tool)}"


def _points(trace: Trace, name: str, status: Optional[str]) -> List[float]:
    if name.startswith("tool:"):
        name = name[5:]
    elif name in EVENT_KINDS:
        return [e["t"] for e in trace.of(name)]
    return [c["t"] for c in trace.tool_calls(name) if status is None or c.get("status") == status]


def _order(trace: Trace, spec: Order) -> tuple:
    before = _points(trace, spec.before, spec.before_status)
    after = _points(trace, spec.after, spec.after_status)
    early = [t for t in after if not any(b < t for b in before)]
    expected = f"every {spec.after} after a {spec.before}" + (f" ({spec.before_status})" if spec.before_status else "")
    found = (f"{spec.after} at t={_short(early)} with no {spec.before} before" if early
             else f"{spec.before} at {_short(before)}, {spec.after} at {_short(after)}")
    return not early, expected, found


def _sql(world: str, spec: Sql) -> tuple:
    expected = f"{spec.query!r} " + (f"= {_short(spec.equals)}" if spec.equals is not None
                                     else f"to contain the row {_short(spec.contains)}")
    if not world:
        return False, expected, "no world database in this run"
    try:
        with sqlite3.connect(f"file:{world}?mode=ro", uri=True) as db:
            rows = [list(r) for r in db.execute(spec.query).fetchall()]
    except sqlite3.Error as exc:
        return False, expected, f"the query failed: {exc}"
    if spec.equals is not None:
        return _contains(rows, spec.equals), expected, _short(rows)
    return any(_contains(r, spec.contains) for r in rows), expected, _short(rows)


def _turn(trace: Trace, spec: TurnCheck) -> tuple:
    turns = trace.of("turn")
    if spec.count is not None and spec.end_reason is None and spec.dialogue_state is None \
            and spec.inputs is None and spec.inputs_contain is None:
        return len(turns) == spec.count, f"{spec.count} turn(s)", f"{len(turns)}: " + _short(
            [t.get("inputs") for t in turns])
    wanted = {k: v for k, v in (("end_reason", spec.end_reason), ("dialogue_state", spec.dialogue_state),
                                 ("inputs", spec.inputs)) if v is not None}
    expected = f"turn {spec.index}: " + ", ".join(f"{k} {_short(v)}" for k, v in wanted.items()) + (
        f", an input matching {spec.inputs_contain!r}" if spec.inputs_contain else "")
    if spec.count is not None and len(turns) != spec.count:
        return False, expected + f" of {spec.count} turn(s)", f"{len(turns)} turn(s)"
    try:
        turn = turns[spec.index]
    except IndexError:
        return False, expected, f"{len(turns)} turn(s)"
    ok = all(turn.get(k) == v for k, v in wanted.items())
    if spec.inputs_contain:
        ok = ok and any(_regex(spec.inputs_contain).search(i) for i in turn.get("inputs", []))
    shown = {k: turn.get(k) for k in ("end_reason", "dialogue_state", "inputs")}
    return ok, expected, _short(shown)


def _within(trace: Trace, spec: Within) -> tuple:
    starts = _points(trace, spec.start, None)
    expected = f"{spec.end} within {spec.max_s} s of {spec.start}[{spec.index}]"
    try:
        t0 = starts[spec.index]
    except IndexError:
        return False, expected, f"{len(starts)} {spec.start} event(s)"
    ends = [t for t in _points(trace, spec.end, None) if t >= t0]
    if not ends:
        return False, expected, f"no {spec.end} after t={t0:.2f}"
    gap = min(ends) - t0
    return gap <= spec.max_s, expected, f"{gap:.2f} s"


def check(assertion: Assertion, index: int, trace: Trace) -> Verdict:
    kind, spec = assertion.kind, assertion.spec
    shown = spec.model_dump(by_alias=True, exclude_none=True) if hasattr(spec, "model_dump") else spec
    if kind in ("said", "not_said"):
        heard = trace.said()
        try:
            hit = _regex(spec).search(heard)
        except re.error as exc:
            return Verdict(index, kind, shown, False, f"a valid regex {spec!r}", str(exc))
        passed = bool(hit) if kind == "said" else not hit
        expected = f"the robot to say /{spec}/" if kind == "said" else f"the robot never to say /{spec}/"
        found = (f"{hit.group(0)!r} in " if hit else "") + (repr(_short(heard)) if heard else "nothing said")
        return Verdict(index, kind, shown, passed, expected, found)
    if kind == "called":
        passed, expected, found = _called(trace, spec)
    elif kind == "not_called":
        matches = _matching_calls(trace, spec)
        passed, expected, found = not matches, f"no call of {spec.tool}" + (
            f" with args containing {_short(spec.args)}" if spec.args else "") + (
            f" ending {spec.status}" if spec.status else ""), _describe_calls(trace, spec.tool)
    elif kind == "order":
        passed, expected, found = _order(trace, spec)
    elif kind == "sql":
        passed, expected, found = _sql(trace.world, spec)
    elif kind == "turn":
        passed, expected, found = _turn(trace, spec)
    elif kind == "within_s":
        passed, expected, found = _within(trace, spec)
    elif kind == "dialogue_state":
        turns = trace.of("turn")
        last = turns[-1].get("dialogue_state") if turns else None
        passed, expected, found = last == spec, f"the last turn's dialogue_state {spec!r}", repr(last)
    else:  # judge: graded separately
        return Verdict(index, kind, shown, None, spec, "not graded (run with --judge)")
    return Verdict(index, kind, shown, bool(passed), expected, found)


def check_all(assertions: List[Assertion], trace: Trace) -> List[Verdict]:
    return [check(a, i, trace) for i, a in enumerate(assertions)]


def run_passed(trace: Trace, verdicts: List[Verdict]) -> bool:
    """A run passes when the robot ran to the end and no graded assertion failed."""
    return trace.outcome == "completed" and all(v.passed is not False for v in verdicts)


def first_failure(trace: Trace, verdicts: List[Verdict]) -> str:
    if trace.outcome != "completed":
        return f"run {trace.outcome}: {trace.error}" if trace.error else f"run {trace.outcome}"
    failed = [v for v in verdicts if v.passed is False]
    return failed[0].message if failed else ""
