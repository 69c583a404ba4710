"""The `phanthy` command.

  phanthy run --config FILE     every node with a section in FILE, in one process, headless
  phanthy sim [--config FILE] [--brain NAME]
                                the embedded default: whole graph, simulated drivers, console
  phanthy sim --audio           the same with the microphone and loudspeaker (config/voice.yaml)
  phanthy eval [--repeat N] [--jobs J] [--report DIR] [--junit FILE] PATH...
                                grade whole conversations (scenario files; README "Evaluation")
  phanthy node NAME [ROS ARGS]  one node (what `ros2 run phanthy NAME` runs)
  phanthy nodes                 the node names
  phanthy devices               the audio devices (for audio_capture.device / speaker.device)
  phanthy doctor [--config FILE]
                                what is wrong with this machine or configuration (exit 1 if anything)
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pathlib
import sqlite3
import sys
import tempfile
import threading
import time
from typing import Dict, List, Optional

import yaml

from phanthy_drivers.audio_out import describe_devices, list_devices
from phanthy_common.runtime import run_nodes
from phanthy_perception.console import ConsoleNode, run_console
from phanthy_perception.speaker_profiles import DEFAULT_PATH as PROFILES_PATH, ProfileStore

from . import __version__
from phanthy_common.params import resolve_config

log = logging.getLogger("phanthy")

# node name -> "module:factory"; factories take rclpy Node keyword arguments
NODES: Dict[str, str] = {
    "collector": "phanthy_agent.ros.collector_node:CollectorNode",
    "agent": "phanthy_agent.ros.agent_node:AgentNode",
    "speaker": "phanthy_drivers.speaker:Speaker",
    "base": "phanthy_drivers.sim_base:SimBase",
    "face": "phanthy_drivers.sim_face:make_face",
    "led": "phanthy_drivers.sim_face:make_led",
    "peers": "phanthy_drivers.peers:PeersDriver",
    "box_office": "phanthy_drivers.box_office:BoxOfficeDriver",
    "audio_capture": "phanthy_perception.capture_node:AudioCaptureNode",
    "vad": "phanthy_perception.vad_node:VadNode",
    "asr": "phanthy_perception.asr_node:AsrNode",
    "wake_word": "phanthy_perception.wake_node:WakeWordNode",
    "console": "phanthy_perception.console:ConsoleNode",
    "chat_web": "phanthy_agent.ros.chat_node:WebChatNode",
    "chat_telegram": "phanthy_agent.ros.chat_node:TelegramNode",
    "proactive": "phanthy_agent.ros.proactive_node:ProactiveNode",
    "health": "phanthy_agent.ros.health_node:HealthNode",
    "hri": "phanthy_drivers.hri_node:HriNode",
}
GLOBAL_SECTIONS = ("/**", "**")
SIM_CONFIG = "sim.yaml"
VOICE_CONFIG = "voice.yaml"


def node_factory(name: str):
    module, attr = NODES[name].split(":")
    return getattr(importlib.import_module(module), attr)


def sections(config_path: pathlib.Path) -> List[str]:
    """Node names with a section in a ROS 2 parameter file (keys may be /name or ns/name)."""
    try:
        data = yaml.safe_load(config_path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"cannot read config {config_path}: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{config_path} is not a ROS 2 parameter file (a mapping of node names)")
    names = []
    for key in data:
        if key in GLOBAL_SECTIONS:
            continue
        name = str(key).strip("/").split("/")[-1]
        if name not in NODES:
            raise ValueError(f"{config_path}: unknown node {key!r}; known: {', '.join(NODES)}")
        names.append(name)
    return names


def any_namespace(config_path: pathlib.Path) -> str:
    """The parameter file with plain node keys ("speaker") made to match that node in any
    namespace ("/**/speaker"): ROS matches a plain key against "/speaker" only, so under
    `--ros-args -r __ns:=/robot1` every section would silently not apply. Keys that name a
    namespace already ("/robot1/speaker", "/**") are kept. Returns a temporary file's path."""
    data = yaml.safe_load(config_path.read_text(encoding="utf-8")) or {}
    rewritten = {(key if str(key).startswith("/") or key in GLOBAL_SECTIONS else f"/**/{key}"): value
                 for key, value in data.items()}
    out = tempfile.NamedTemporaryFile("w", prefix=f"{config_path.stem}-", suffix=".yaml", delete=False)
    with out:
        yaml.safe_dump(rewritten, out, sort_keys=False)
    return out.name


def _setup_logging(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S")


# Nodes that load models start first: loading Whisper briefly takes ~100 MiB more than it keeps,
# and that peak then comes before the other models are resident (the process's peak memory is
# what a robot must have; measured 625 -> see bench/README.md).
LOAD_FIRST = ("asr", "wake_word", "speaker", "vad")


def configured_nodes(config: str):
    """The parameter file and the node names it configures (model loaders first); ValueError
    with the reason."""
    path = resolve_config(config)
    if path is None or not path.exists():
        raise ValueError(f"config file not found: {config}")
    names = [n for n in sections(path) if n != "console"]
    return path, sorted(names, key=lambda n: LOAD_FIRST.index(n) if n in LOAD_FIRST else len(LOAD_FIRST))


def cmd_run(config: str, extra_ros_args: Optional[List[str]] = None) -> int:
    try:
        path, names = configured_nodes(config)
    except ValueError as exc:
        print(f"phanthy: {exc}", file=sys.stderr)
        return 2
    if not names:
        print(f"phanthy: {path} has no node sections; nothing to run", file=sys.stderr)
        return 2
    ros_args = ["--ros-args", "--params-file", any_namespace(path)] + list(extra_ros_args or [])
    log.info("starting %s from %s", ", ".join(names), path)
    return run_nodes(lambda: [node_factory(n)(autostart=False) for n in names], ros_args)


def cmd_sim(config: Optional[str], brain: Optional[str], extra_ros_args: Optional[List[str]] = None) -> int:
    try:
        path, names = configured_nodes(config or SIM_CONFIG)
    except ValueError as exc:
        print(f"phanthy: {exc}", file=sys.stderr)
        return 2
    # the console is the interface: ROS's own INFO lines would bury it
    ros_args = ["--ros-args", "--params-file", any_namespace(path), "--log-level", "warn"]
    overlay = None
    if brain:
        overlay = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
        yaml.safe_dump({"/**/agent": {"ros__parameters": {"agent": {"brain": brain}}}}, overlay)
        overlay.close()
        ros_args += ["--params-file", overlay.name]
    ros_args += list(extra_ros_args or [])
    console: List[ConsoleNode] = []

    started: Dict[str, object] = {}

    def make_nodes():
        started.update((n, node_factory(n)(autostart=False)) for n in names)
        console.append(ConsoleNode())
        return list(started.values()) + console

    def ready() -> bool:
        """The agent knows every configured driver's tools (else the first line would be
        answered without, say, the speaker)."""
        agent = started.get("agent")
        heard = console[0].count_subscribers("voice/transcript") > 0
        if agent is None or not heard:
            return heard
        drivers = {n for n, node in started.items() if hasattr(node, "driver")}
        return drivers <= set(agent.call_in_core(agent.core.registry.drivers))

    def foreground(stop: threading.Event) -> None:
        run_console(console[0], stop, ready=ready)

    try:
        return run_nodes(make_nodes, ros_args, foreground=foreground)
    finally:
        if overlay is not None:
            os.unlink(overlay.name)


def cmd_devices() -> int:
    devices = list_devices()
    if not devices:
        print(describe_devices(devices))
        return 1
    print(f"{'index':>5}  {'in':>3} {'out':>3}  {'rate':>6}  name")
    for index, name, ins, outs, rate in devices:
        print(f"{index:>5}  {ins:>3} {outs:>3}  {rate:>6.0f}  {name}")
    print("\nUse the index or part of the name: audio_capture.device, speaker.device.")
    return 0


def cmd_doctor(config: str) -> int:
    """The checks of every package: the agent's (Python, ROS, DDS, config, language model), the
    perception's (microphone, listening models) and the drivers' (loudspeaker, voice)."""
    from phanthy_drivers import selfcheck as speaking
    from phanthy_perception import selfcheck as listening

    from .doctor.command import cmd_doctor as run

    def probes(view):
        return listening.model_probes(view) + speaking.voice_probes(view)

    def devices(view):
        found = speaking.audio_devices()
        return [listening.input_check(view, found), speaking.output_check(view, found)]

    known = [n for n in NODES if n != "console"]
    return run(config, known, probes, devices, sys.stdout)


def cmd_speakers(args) -> int:
    """`phanthy speakers enroll NAME WAV... | list | remove NAME`: the asr node recognizes an
    enrolled voice by name (its role: the agent's roles.speakers.NAME)."""
    store = ProfileStore(args.profiles)
    try:
        if args.action == "enroll":
            from phanthy_perception.speaker_embedding import SpeakerEncoder
            from phanthy_perception.speaker_enroll import enroll
            done = enroll(store, SpeakerEncoder(args.model), args.name, args.wavs)
            for warning in done.warnings:
                print(f"phanthy: warning: {warning}", file=sys.stderr)
            print(f"enrolled {done.profile.name}: {done.profile.seconds:.1f} s of speech from "
                  f"{done.profile.recordings} recording(s), model {done.profile.model}, in {store.path}")
        elif args.action == "list":
            profiles = store.profiles()
            for p in profiles:
                print(f"{p.name}\t{p.seconds:.1f} s\t{p.recordings} recording(s)\tmodel {p.model}\t"
                      f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(p.enrolled_at))}")
            if not profiles:
                print(f"no enrolled voices in {store.path}")
        elif not store.remove(args.name):
            print(f"phanthy: no enrolled voice named {args.name!r} in {store.path}", file=sys.stderr)
            return 1
        else:
            print(f"removed {args.name}")
    except (ValueError, sqlite3.Error) as exc:
        print(f"phanthy: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_node(name: str, ros_args: List[str]) -> int:
    if name not in NODES or name == "console":
        print(f"phanthy: unknown node {name!r}; known: {', '.join(n for n in NODES if n != 'console')}",
              file=sys.stderr)
        return 2
    return run_nodes(lambda: [node_factory(name)(autostart=False)], ros_args)


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ros_args: List[str] = []
    if "--ros-args" in argv:  # everything after --ros-args belongs to ROS
        index = argv.index("--ros-args")
        argv, ros_args = argv[:index], argv[index:]
    parser = argparse.ArgumentParser(prog="phanthy", description="phanthy robot dialogue stack")
    parser.add_argument("--version", action="version", version=f"phanthy {__version__}")
    parser.add_argument("--log-level", default=os.environ.get("PHANTHY_LOG_LEVEL", "info"))
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="run the nodes configured in a parameter file, headless")
    run.add_argument("--config", required=True, help="ROS 2 parameter file (YAML)")
    sim = sub.add_parser("sim", help="simulated museum robot with a terminal console")
    sim.add_argument("--config", help=f"parameter file (default: config/{SIM_CONFIG})")
    sim.add_argument("--brain", choices=["openai", "offline", "scripted"], help="override agent.brain")
    sim.add_argument("--audio", action="store_true",
                     help=f"talk through the microphone and loudspeaker (default config: config/{VOICE_CONFIG})")
    ev = sub.add_parser("eval", help="grade whole conversations from scenario files")
    ev.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders of *.yaml")
    ev.add_argument("--repeat", type=int, default=1, help="runs per scenario (pass rates with standard errors)")
    ev.add_argument("--jobs", type=int, default=1, help="runs at a time (each its own graph and ROS domain)")
    ev.add_argument("--report", metavar="DIR", help="write DIR/report.json, DIR/report.html and each run's files")
    ev.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    ev.add_argument("--judge", action="store_true", help="grade `judge:` assertions with an LLM (PHANTHY_JUDGE_*)")
    ev.add_argument("--param", action="append", default=[], metavar="NODE.PARAM=VALUE",
                    help="override a robot parameter in every scenario (e.g. agent.agent.brain=openai)")
    node = sub.add_parser("node", help="run one node (as `ros2 run phanthy NAME`)")
    node.add_argument("name")
    sub.add_parser("nodes", help="list the node names")
    sub.add_parser("devices", help="list the audio devices")
    doctor = sub.add_parser("doctor", help="check this machine and a configuration (exit 1 on any problem)")
    doctor.add_argument("--config", default=SIM_CONFIG, help=f"parameter file (default: config/{SIM_CONFIG})")
    spk = sub.add_parser("speakers", help="enrolled voices: enroll, list, remove")
    spk.add_argument("--profiles", default=PROFILES_PATH, help=f"profile file (default {PROFILES_PATH}, "
                                                                 "the asr node's speakers.profiles)")
    spk_sub = spk.add_subparsers(dest="action", required=True)
    spk_enroll = spk_sub.add_parser("enroll", help="enroll NAME from WAV recordings of their voice")
    spk_enroll.add_argument("name")
    spk_enroll.add_argument("wavs", nargs="+", metavar="WAV")
    spk_enroll.add_argument("--model", default="", help="ONNX d-vector encoder (default: the bundled one)")
    spk_sub.add_parser("list", help="list the enrolled voices")
    spk_remove = spk_sub.add_parser("remove", help="forget an enrolled voice")
    spk_remove.add_argument("name")
    args = parser.parse_args(argv)
    quiet = args.command in ("sim", "doctor")  # their own output is the interface
    _setup_logging(os.environ.get("PHANTHY_LOG_LEVEL", "warning") if quiet else args.log_level)
    if args.command == "run":
        return cmd_run(args.config, ros_args)
    if args.command == "sim":
        return cmd_sim(args.config or (VOICE_CONFIG if args.audio else None), args.brain, ros_args)
    if args.command == "eval":
        from .evaluation.command import cmd_eval
        return cmd_eval(args.paths, args.repeat, args.jobs, args.report, args.junit, args.judge, args.param)
    if args.command == "devices":
        return cmd_devices()
    if args.command == "doctor":
        return cmd_doctor(args.config)
    if args.command == "speakers":
        return cmd_speakers(args)
    if args.command == "node":
        return cmd_node(args.name, ros_args)
    if args.command == "nodes":
        print("\n".join(n for n in NODES if n != "console"))
        return 0
    parser.print_help()
    return 0


def node_main(name: str) -> None:
    """Entry point of the `ros2 run phanthy <name>` executables."""
    argv = sys.argv[1:]
    ros_args = argv[argv.index("--ros-args"):] if "--ros-args" in argv else []
    _setup_logging(os.environ.get("PHANTHY_LOG_LEVEL", "info"))
    sys.exit(cmd_node(name, ros_args))


if __name__ == "__main__":
    sys.exit(main())
