"""`phanthy eval`: every scenario, `repeat` times, each run in its own process and ROS domain
(run_one.py), `jobs` at a time; grades each trace (assertions.py), prints one line per
scenario and a summary, writes the reports. A run that fails to start, crashes or outlives its
timeout is a failed run, never a skipped one.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import math
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable, Dict, List, Optional

import yaml

from .assertions import Verdict, check_all, first_failure, run_passed
from .scenario import Scenario, ScenarioError, discover, load
from .trace import Trace

START_MARGIN_S = 60.0  # a run's process may take this much longer than its scenario's timeout
DOMAIN_RANGE = (1, 101)  # ROS domain ids whose ports are safe on Linux


@dataclasses.dataclass
class RunResult:
    scenario: Scenario
    run: int
    trace: Trace
    verdicts: List[Verdict]
    passed: bool
    failure: str
    judge: List[Verdict] = dataclasses.field(default_factory=list)

    def to_dict(self) -> dict:
        return {"scenario": self.scenario.name, "file": self.scenario.path, "tags": self.scenario.tags,
                "run": self.run, "passed": self.passed, "first_failure": self.failure,
                "verdicts": [v.to_dict() for v in self.verdicts],
                "judge": [v.to_dict() for v in self.judge], "trace": self.trace.to_dict()}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "scenario"


def parse_params(items: List[str]) -> Dict[str, object]:
    """`node.param=value` overrides for every scenario (`phanthy eval --param`); values are YAML
    (`agent.agent.brain=openai`, `speaker.sim.ms_per_char=20`). ScenarioError when malformed."""
    out: Dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or "." not in key.strip():
            raise ScenarioError(f"--param {item!r}: expected node.param=value (e.g. agent.agent.brain=openai)")
        try:
            out[key.strip()] = yaml.safe_load(value) if value.strip() else ""
        except yaml.YAMLError as exc:
            raise ScenarioError(f"--param {item!r}: the value is not valid YAML: {exc}") from None
    return out


def load_all(paths: List[str]) -> List[Scenario]:
    """Every scenario, or ScenarioError for the first bad file (nothing runs then)."""
    files = discover(paths)
    if not files:
        raise ScenarioError(f"no scenario files in {' '.join(paths)}")
    scenarios = [load(f) for f in files]
    names: Dict[str, str] = {}
    for s in scenarios:
        if s.name in names:
            raise ScenarioError(f"{s.path}: name {s.name!r} is also used by {names[s.name]}")
        names[s.name] = s.path
    return scenarios


class DomainPool:
    """One ROS domain id per concurrent run, none the calling process uses."""

    def __init__(self, jobs: int):
        own = os.environ.get("ROS_DOMAIN_ID", "0")
        ids = [d for d in range(*DOMAIN_RANGE) if str(d) != own]
        random.Random(os.getpid()).shuffle(ids)
        self._free = ids[:max(1, jobs)]
        self._lock = threading.Lock()

    def take(self) -> int:
        with self._lock:
            return self._free.pop()

    def give(self, domain: int) -> None:
        with self._lock:
            self._free.append(domain)


def run_scenario(scenario: Scenario, run: int, workdir: pathlib.Path, domain: int,
                 params: Optional[Dict[str, object]] = None) -> Trace:
    workdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, ROS_DOMAIN_ID=str(domain), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST",
               PYTHONUNBUFFERED="1")
    log_path = workdir / "robot.log"
    started = time.monotonic()
    with open(log_path, "w", encoding="utf-8") as log_file:
        process = subprocess.Popen([sys.executable, "-m", "phanthy_agent.evaluation.run_one",
                                    str(scenario.path), str(workdir), "--run", str(run)]
                                   + [a for k, v in (params or {}).items() for a in ("--param", f"{k}={json.dumps(v)}")],
                                   stdout=log_file, stderr=subprocess.STDOUT, env=env)
        try:
            code = process.wait(timeout=scenario.timeout_s + START_MARGIN_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            return Trace(scenario.name, run, outcome="timeout",
                         error=f"the run did not end within {scenario.timeout_s + START_MARGIN_S:.0f} s; killed")
    trace_file = workdir / "trace.json"
    if not trace_file.exists():
        tail = log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-5:]
        return Trace(scenario.name, run, outcome="crashed",
                     error=f"exit code {code}, no trace; log: " + " | ".join(tail))
    trace = Trace.from_dict(json.loads(trace_file.read_text(encoding="utf-8")))
    trace.process_s = round(time.monotonic() - started, 3)
    return trace


def grade(scenario: Scenario, run: int, trace: Trace, judge: Optional[Callable] = None) -> RunResult:
    verdicts = check_all(scenario.expect, trace)
    judged = judge(scenario, trace) if judge is not None else []
    return RunResult(scenario, run, trace, verdicts, run_passed(trace, verdicts), first_failure(trace, verdicts),
                     judged)


def run_suite(scenarios: List[Scenario], repeat: int = 1, jobs: int = 1,
              workdir: Optional[pathlib.Path] = None, judge: Optional[Callable] = None,
              params: Optional[Dict[str, object]] = None,
              on_scenario: Optional[Callable[[Scenario, List[RunResult]], None]] = None) -> List[RunResult]:
    root = pathlib.Path(workdir or tempfile.mkdtemp(prefix="phanthy-eval-"))
    pool = DomainPool(jobs)
    results: Dict[str, List[RunResult]] = {s.name: [] for s in scenarios}
    lock = threading.Lock()

    def one(scenario: Scenario, run: int) -> None:
        domain = pool.take()
        try:
            trace = run_scenario(scenario, run, root / "runs" / f"{slug(scenario.name)}-{run + 1}", domain, params)
        finally:
            pool.give(domain)
        result = grade(scenario, run, trace, judge)
        with lock:
            results[scenario.name].append(result)
            done = len(results[scenario.name]) == repeat
        if done and on_scenario is not None:
            on_scenario(scenario, sorted(results[scenario.name], key=lambda r: r.run))

    tasks = [(s, k) for k in range(repeat) for s in scenarios]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as executor:
        for future in [executor.submit(one, s, k) for s, k in tasks]:
            future.result()
    return [r for s in scenarios for r in sorted(results[s.name], key=lambda r: r.run)]


# --- figures ----------------------------------------------------------------------------------
def rate_with_se(passes: List[bool]) -> tuple:
    n = len(passes)
    p = sum(passes) / n if n else 0.0
    return p, math.sqrt(p * (1 - p) / n) if n else 0.0


def suite_rates(results: List[RunResult], repeat: int) -> tuple:
    """Completion over the suite: the mean of the per-repeat completion rates and its standard
    error over repeats (VAmoS's run-level SE; 0 with one repeat)."""
    per_repeat = []
    for k in range(repeat):
        runs = [r.passed for r in results if r.run == k]
        if runs:
            per_repeat.append(sum(runs) / len(runs))
    if not per_repeat:
        return 0.0, 0.0
    mean = sum(per_repeat) / len(per_repeat)
    if len(per_repeat) < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in per_repeat) / (len(per_repeat) - 1)
    return mean, math.sqrt(var / len(per_repeat))


def by_tag(results: List[RunResult]) -> Dict[str, tuple]:
    tags: Dict[str, List[bool]] = {}
    for r in results:
        for tag in r.scenario.tags or ["untagged"]:
            tags.setdefault(tag, []).append(r.passed)
    return {t: (sum(v), len(v)) for t, v in sorted(tags.items())}


def scenario_line(scenario: Scenario, runs: List[RunResult]) -> str:
    k = sum(r.passed for r in runs)
    if k == len(runs):
        return f"PASS {scenario.name} ({k}/{len(runs)})"
    first = next(r for r in runs if not r.passed)
    return f"FAIL {scenario.name} ({k}/{len(runs)}): {first.failure}"


def summary(results: List[RunResult], repeat: int, wall_s: float) -> List[str]:
    scenarios = {}
    for r in results:
        scenarios.setdefault(r.scenario.name, []).append(r.passed)
    passed = sum(all(v) for v in scenarios.values())
    mean, se = suite_rates(results, repeat)
    lines = [f"{passed}/{len(scenarios)} scenarios passed every run; runs passed "
             f"{sum(r.passed for r in results)}/{len(results)}; completion {100 * mean:.1f} %"
             + (f" ± {100 * se:.1f} (SE over {repeat} repeats)" if repeat > 1 else "")
             + f"; {wall_s:.1f} s"]
    if any(r.judge for r in results):
        from .judge import agreement
        agree, compared = agreement(results)
        lines.append(f"judge agreed with the deterministic assertions on {agree}/{compared} runs")
    lines.append("by tag: " + ", ".join(f"{t} {k}/{n} ({100 * k / n:.0f} %)" for t, (k, n) in by_tag(results).items()))
    return lines
