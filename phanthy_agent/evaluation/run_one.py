"""One evaluation run in its own process: a fresh graph (the scenario's robot config with its
overrides, in the ROS domain the runner gave this process), a fresh copy of the world database
and history, the visitor played by the probe, and the trace written to `<workdir>/trace.json`.

    python -m phanthy_agent.evaluation.run_one SCENARIO.yaml WORKDIR [--run K]

The runner (runner.py) starts it with ROS_DOMAIN_ID set, and kills it if it outlives the
scenario's timeout; a robot that fails to start is a trace with outcome `start_failed`.
"""

from __future__ import annotations

import argparse
import json
import logging
import pathlib
import sqlite3
import sys
import tempfile
import time
from typing import Any, Dict, List

import yaml

from phanthy_common.params import resolve_config

from .scenario import Scenario, Step, load
from .trace import Trace

log = logging.getLogger("phanthy.eval")

READY_TIMEOUT_S = 60.0
REPLY_TIMEOUT_S = 60.0  # a turn may speak for a minute (agent.max_spoken_chars)
SPEAKING_TIMEOUT_S = 20.0
SETTLE_S = {"text": 0.6, "audio": 2.0}  # idle this long counts as idle (audio: the recognizer may still be busy)
WORLD_USERS = ("box_office",)  # nodes that take the world database as their `database` parameter


def build_world(scenario: Scenario, path: pathlib.Path) -> None:
    """The world database, afresh: each `sqlite` item is a .sql file (relative to the scenario)
    or SQL text, executed in order. A database left by an earlier run into the same report
    directory goes first (its tables would already exist)."""
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    try:
        for item in scenario.sql_sources():
            source = scenario.folder / item
            sql = source.read_text(encoding="utf-8") if item.strip().endswith(".sql") else item
            db.executescript(sql)
        db.commit()
    finally:
        db.close()


def robot_config(scenario: Scenario) -> pathlib.Path:
    local = scenario.folder / scenario.robot.config
    if local.exists():
        return local
    found = resolve_config(scenario.robot.config)
    if found is None or not found.exists():
        raise ValueError(f"robot config not found: {scenario.robot.config} (next to the scenario or in config/)")
    return found


def overrides(scenario: Scenario, names: List[str], world: pathlib.Path, workdir: pathlib.Path) -> Dict[str, Any]:
    """A ROS parameter file of the scenario's `node.param: value` overrides, the world database
    for the nodes that use one, and a fresh history."""
    nodes: Dict[str, Dict[str, Any]] = {}
    for key, value in scenario.robot.params.items():
        node, param = key.split(".", 1)
        if isinstance(value, str) and value.startswith(("./", "../")):  # a file next to the scenario
            value = str((scenario.folder / value).resolve())
        nodes.setdefault(node, {})[param] = value
    for name in names:
        if name in WORLD_USERS:
            nodes.setdefault(name, {})["database"] = str(world)
    if "agent" in names:
        nodes.setdefault("agent", {})["agent.history_db"] = str(workdir / "history.sqlite")
    out: Dict[str, Any] = {}
    for node, params in nodes.items():
        tree: Dict[str, Any] = {}
        for dotted, value in params.items():
            *parents, leaf = dotted.split(".")
            branch = tree
            for part in parents:
                branch = branch.setdefault(part, {})
            branch[leaf] = value
        out[f"/**/{node}"] = {"ros__parameters": tree}
    return out


class Run:
    def __init__(self, scenario: Scenario, workdir: pathlib.Path, run: int):
        self.scenario, self.workdir, self.index = scenario, workdir, run
        self.t0 = time.time()
        self.trace = Trace(scenario.name, run, t0_unix=self.t0)
        self.deadline = self.t0 + scenario.timeout_s
        self.probe = None

    def left(self, cap: float) -> float:
        return max(0.0, min(cap, self.deadline - time.time()))

    def note(self, text: str) -> None:
        log.info("%s: %s", self.scenario.name, text)
        with self.probe.lock:
            self.trace.add("note", self.probe.now(), text=text)

    # --- the visitor -----------------------------------------------------------------------
    def say(self, step: Step) -> None:
        probe = self.probe
        if step.barge_in_after_s is not None:
            said_before = probe.count("robot_said")
            if not probe.wait_for(lambda: probe.count("robot_said") > said_before or probe.speaking,
                                  self.left(SPEAKING_TIMEOUT_S)):
                self.note(f"barge_in_after_s: the robot did not start speaking; saying {step.say!r} anyway")
            else:
                time.sleep(min(step.barge_in_after_s, self.left(step.barge_in_after_s)))
        if self.scenario.visitor.mode == "audio":
            from .voice import synthesize
            end = probe.say_audio(step.say, synthesize(step.say, step.voice))
            time.sleep(max(0.0, min(end - probe.now(), self.left(60.0))))
        else:
            probe.say_text(step.say, step.confidence, step.duration_ms)

    def wait(self, step: Step, turns_before: int) -> None:
        probe = self.probe
        if step.wait == "reply":
            if not probe.wait_for(lambda: probe.count("turn") > turns_before, self.left(REPLY_TIMEOUT_S)):
                self.note(f"wait: reply timed out ({REPLY_TIMEOUT_S:.0f} s without a turn record)")
        elif step.wait == "idle":
            self.wait_idle()
        else:
            time.sleep(min(float(step.wait), self.left(float(step.wait))))

    def wait_idle(self) -> bool:
        probe, settle = self.probe, SETTLE_S[self.scenario.visitor.mode]
        while time.time() < self.deadline:
            if not probe.wait_for(probe.idle, self.left(REPLY_TIMEOUT_S)):
                break
            events = len(self.trace.events)
            time.sleep(min(settle, self.left(settle)))
            with probe.lock:
                if probe.idle() and len(self.trace.events) == events:
                    return True
        self.note("wait: idle timed out")
        return False

    def play_script(self) -> None:
        turns_at_say = 0
        for step in self.scenario.visitor.script:
            if time.time() >= self.deadline:
                break
            if step.say is not None:
                turns_at_say = self.probe.count("turn")
                self.say(step)
            else:
                self.wait(step, turns_at_say)

    def play_goal(self) -> None:
        from .visitor import make_visitor
        v = self.scenario.visitor
        visitor = make_visitor(v.brain, v.goal, v.opening)
        line = v.opening
        for _ in range(v.max_turns):
            turns = self.probe.count("turn")
            self.say(Step(say=line))
            self.wait(Step(wait="reply"), turns)
            self.wait_idle()
            line = visitor.next(self.probe.last_reply())
            if not line or time.time() >= self.deadline:
                return

    # --- the whole run ---------------------------------------------------------------------
    def execute(self) -> Trace:
        from phanthy_agent.cli import configured_nodes, node_factory, any_namespace
        from phanthy_common.runtime import NodeGroup
        import rclpy
        from .probe import EvalProbe

        world = self.workdir / "world.sqlite"
        group = None
        try:
            (self.workdir / "history.sqlite").unlink(missing_ok=True)  # each run's conversation history is its own
            build_world(self.scenario, world)
            self.trace.world = str(world)
            config, names = configured_nodes(str(robot_config(self.scenario)))
            overlay = self.workdir / "overrides.yaml"
            overlay.write_text(yaml.safe_dump(overrides(self.scenario, names, world, self.workdir)))
            rclpy.init(args=["phanthy-eval", "--ros-args", "--params-file", any_namespace(config),
                             "--params-file", str(overlay), "--log-level", "warn"])
            nodes = {n: node_factory(n)() for n in names}
            self.probe = EvalProbe(self.trace, self.t0, self.scenario.visitor.mode)
            group = NodeGroup(list(nodes.values()) + [self.probe]).start()
            if not self._ready(nodes):
                self.trace.outcome, self.trace.error = "start_failed", \
                    f"the agent did not see every driver's tools within {READY_TIMEOUT_S:.0f} s"
                return self.trace
            self.note(f"robot ready: {', '.join(names)}")
            if self.scenario.visitor.goal:
                self.play_goal()
            else:
                self.play_script()
            if not self.wait_idle() or time.time() >= self.deadline:
                self.trace.outcome = "timeout"
                self.trace.error = f"not idle by the scenario's timeout ({self.scenario.timeout_s:.0f} s)"
        except Exception as exc:
            log.exception("run failed")
            self.trace.outcome = "start_failed" if self.probe is None else "crashed"
            self.trace.error = f"{type(exc).__name__}: {exc}"
        finally:
            if self.probe is not None:
                self.probe.close()
            if group is not None:
                group.stop()
            if rclpy.ok():
                rclpy.shutdown()
            self.trace.duration_s = round(time.time() - self.t0, 3)
        return self.trace

    def _ready(self, nodes: Dict[str, Any]) -> bool:
        agent = nodes.get("agent")
        if agent is None:
            return True
        drivers = {n for n, node in nodes.items() if hasattr(node, "driver")}
        deadline = time.time() + READY_TIMEOUT_S
        while time.time() < deadline:
            if drivers <= set(agent.call_in_core(agent.core.registry.drivers)) \
                    and self.probe.agent_state[0] == "idle":
                return True
            time.sleep(0.05)
        return False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="phanthy-eval-run")
    parser.add_argument("scenario")
    parser.add_argument("workdir")
    parser.add_argument("--run", type=int, default=0)
    parser.add_argument("--log-level", default="warning")
    parser.add_argument("--param", action="append", default=[], help="node.param=JSON, over the scenario's")
    args = parser.parse_args(argv)
    logging.basicConfig(level=getattr(logging, args.log_level.upper(), logging.WARNING),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S")
    workdir = pathlib.Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    scenario = load(args.scenario)
    for item in args.param:  # `phanthy eval --param`: the same overrides for every scenario
        key, _, value = item.partition("=")
        scenario.robot.params[key] = json.loads(value)
    trace = Run(scenario, workdir, args.run).execute()
    out = workdir / "trace.json"
    with tempfile.NamedTemporaryFile("w", dir=workdir, delete=False, suffix=".tmp") as f:
        json.dump(trace.to_dict(), f, ensure_ascii=False, default=str)
    pathlib.Path(f.name).replace(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
