"""`phanthy doctor [--config FILE]`: every check, one line each (OK / PROBLEM / SKIP), a `fix:`
line under each problem, exit code 0 when nothing is wrong, 1 otherwise. The slow checks
(DDS discovery, model loads, the language model) run at once, each in its own thread."""

from __future__ import annotations

import concurrent.futures
import time
from typing import Callable, Iterable, List, Optional, TextIO

from phanthy_common.params import resolve_config
from phanthy_common.selfcheck import Check, ConfigView, Probe

from .checks import dds_check, llm_check, python_check, ros_check
from .config_check import load_config

# What the other packages check (given by the `phanthy` command, which may import them all):
# the slow probes of a configuration (model loads) and the quick device checks.
ProbesFor = Callable[[ConfigView], List[Probe]]
DeviceChecks = Callable[[ConfigView], List[Check]]


def run_checks(config: str, known_nodes: Iterable[str], probes_for: ProbesFor,
               device_checks: DeviceChecks) -> List[Check]:
    checks = [python_check(), ros_check()]
    view, verdict = load_config(resolve_config(config), known_nodes)
    checks.append(verdict)
    probes: List[Probe] = [lambda: [dds_check()]] if checks[1].ok else []
    if view is not None:
        probes += [lambda: llm_check(view)] + list(probes_for(view))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(probes))) as pool:
        futures = [pool.submit(probe) for probe in probes]
        if view is not None:
            checks += device_checks(view)
        for future in futures:
            try:
                checks += future.result()
            except Exception as exc:  # a check's own bug must not hide the others
                checks.append(Check("doctor", False, f"a check failed: {type(exc).__name__}: {exc}",
                                    "report this as a bug"))
    return checks


def report(checks: List[Check], out: TextIO, elapsed_s: Optional[float] = None) -> int:
    width = max((len(c.name) for c in checks), default=8)
    for check in checks:
        out.write(f"{check.status:<8} {check.name:<{width}}  {check.detail}\n")
        if not check.ok and check.fix:
            out.write(f"{'':<8} {'':<{width}}  fix: {check.fix}\n")
    problems = sum(not c.ok for c in checks)
    took = f" in {elapsed_s:.1f} s" if elapsed_s is not None else ""
    out.write(f"{problems} problem(s){took}\n" if problems else f"all good{took}\n")
    return 1 if problems else 0


def cmd_doctor(config: str, known_nodes: Iterable[str], probes_for: ProbesFor, device_checks: DeviceChecks,
               out: TextIO) -> int:
    start = time.monotonic()
    checks = run_checks(config, known_nodes, probes_for, device_checks)
    return report(checks, out, time.monotonic() - start)
