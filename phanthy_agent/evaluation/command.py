"""`phanthy eval [--repeat N] [--jobs J] [--report DIR] [--junit FILE] [--judge] [--param node.param=value]... PATH...`

Exit codes: 0 every scenario passed every repeat, 1 some run failed, 2 a scenario file is not
valid (nothing runs)."""

from __future__ import annotations

import datetime
import os
import pathlib
import sys
import time
from typing import List, Optional

from .scenario import ScenarioError
from .runner import load_all, parse_params, run_suite, scenario_line, summary


def cmd_eval(paths: List[str], repeat: int = 1, jobs: int = 1, report: Optional[str] = None,
             junit: Optional[str] = None, judge: bool = False, params: Optional[List[str]] = None) -> int:
    try:
        scenarios = load_all(paths)
        overrides = parse_params(params or [])
    except ScenarioError as exc:
        print(f"phanthy eval: {exc}", file=sys.stderr)
        return 2
    judge_fn = None
    if judge:
        from .judge import make_judge
        judge_fn = make_judge()
    started = time.time()
    report_dir = pathlib.Path(report) if report else None
    if report_dir is not None:
        report_dir.mkdir(parents=True, exist_ok=True)

    def on_scenario(scenario, runs) -> None:
        print(scenario_line(scenario, runs), flush=True)

    results = run_suite(scenarios, repeat=max(1, repeat), jobs=max(1, jobs), workdir=report_dir,
                        judge=judge_fn, params=overrides, on_scenario=on_scenario)
    wall = time.time() - started
    for line in summary(results, max(1, repeat), wall):
        print(line)
    if report_dir is not None:
        from .report import write_html, write_json
        meta = {"started": datetime.datetime.fromtimestamp(started).isoformat(timespec="seconds"),
                "wall_s": round(wall, 2), "repeat": repeat, "jobs": jobs, "paths": paths, "params": overrides,
                "machine": f"{os.cpu_count()} cores"}
        write_json(results, report_dir / "report.json", meta)
        write_html(results, report_dir / "report.html", max(1, repeat), wall)
        print(f"report: {report_dir / 'report.html'}")
    if junit:
        from .report import write_junit
        write_junit(results, pathlib.Path(junit), wall)
    return 0 if all(r.passed for r in results) else 1
