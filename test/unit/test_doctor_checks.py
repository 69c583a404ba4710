"""`phanthy doctor`'s verdicts on a configuration and on a language model endpoint, each with
the fix a newcomer needs (the command itself, over DDS and the sound card: test/graph/test_doctor.py)."""

import io
import socket

import yaml

from phanthy_agent.doctor.checks import llm_check
from phanthy_agent.doctor.command import report
from phanthy_agent.doctor.config_check import load_config
from phanthy_common.selfcheck import Check, ConfigView
from support.openai_server import OpenAIServer

NODES = ("collector", "agent", "speaker", "vad", "asr", "audio_capture")


def write(tmp_path, text: str):
    path = tmp_path / "robot.yaml"
    path.write_text(text)
    return path


def agent_config(**llm) -> ConfigView:
    return ConfigView({"agent": {"ros__parameters": {"agent": {"brain": "openai"}, "llm": llm}}})


def test_a_valid_config_is_ok_and_names_its_nodes(tmp_path):
    view, verdict = load_config(write(tmp_path, "speaker:\n  ros__parameters: {engine: sim}\n"), NODES)
    assert verdict.ok and "speaker" in verdict.detail
    assert view.get("speaker", "engine") == "sim"


def test_broken_yaml_is_a_problem_that_names_the_line(tmp_path):
    _, verdict = load_config(write(tmp_path, "speaker:\n  ros__parameters:\n    engine: [sim\n"), NODES)
    assert not verdict.ok
    assert "not valid YAML at line" in verdict.detail and verdict.fix


def test_an_unknown_node_and_a_section_without_parameters_are_problems(tmp_path):
    _, verdict = load_config(write(tmp_path, "speakr:\n  ros__parameters: {}\nagent: {}\n"), NODES)
    assert not verdict.ok
    assert "unknown node 'speakr'" in verdict.detail and "agent: needs a `ros__parameters:`" in verdict.detail


def test_a_choice_outside_the_allowed_values_and_a_missing_file_are_problems(tmp_path):
    text = yaml.safe_dump({"speaker": {"ros__parameters": {"engine": "festival"}},
                           "audio_capture": {"ros__parameters": {"source": "file", "file": {"path": "/nope.wav"}}}})
    _, verdict = load_config(write(tmp_path, text), NODES)
    assert not verdict.ok
    assert "speaker.engine is 'festival', not one of sim | piper" in verdict.detail
    assert "audio_capture.file.path: /nope.wav not found" in verdict.detail


def test_a_missing_config_file_is_a_problem(tmp_path):
    _, verdict = load_config(tmp_path / "absent.yaml", NODES)
    assert not verdict.ok and "not found" in verdict.detail


def test_shared_parameters_apply_to_every_node_and_namespaced_keys_to_theirs():
    view = ConfigView({"/**": {"ros__parameters": {"interruption": {"min_speech_ms": 400}}},
                       "/robot1/speaker": {"ros__parameters": {"engine": "piper"}}})
    assert view.get("speaker", "engine") == "piper"
    assert view.get("speaker", "interruption.min_speech_ms") == 400


def test_an_endpoint_that_calls_tools_is_ok():
    with OpenAIServer() as server:  # answers every request with a tool call
        [check] = llm_check(agent_config(base_url=server.base_url, model="test-model"))
    assert check.ok and "function calling works" in check.detail


def test_an_endpoint_that_answers_without_tools_is_a_problem():
    with OpenAIServer([{"content": "pong"}]) as server:
        [check] = llm_check(agent_config(base_url=server.base_url))
    assert not check.ok and "called no tool" in check.detail and "--jinja" in check.fix


def test_an_unreachable_endpoint_is_a_problem_with_a_fix():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    [check] = llm_check(agent_config(base_url=f"http://127.0.0.1:{port}/v1"), timeout_s=2.0)
    assert not check.ok and "unreachable" in check.detail and "llm.base_url" in check.fix


def test_an_endpoint_failing_with_500_is_a_problem():
    with OpenAIServer([{"http_status": 500}]) as server:
        [check] = llm_check(agent_config(base_url=server.base_url))
    assert not check.ok and "error" in check.detail


def test_the_offline_brain_needs_no_endpoint():
    [check] = llm_check(ConfigView({"agent": {"ros__parameters": {"agent": {"brain": "offline"}}}}))
    assert check.skipped and check.ok


def test_the_report_prints_a_fix_under_each_problem_and_exits_1():
    out = io.StringIO()
    code = report([Check("python", True, "CPython 3.11"), Check("llm", False, "down", "start it"),
                   Check.skip("audio in", "not needed")], out)
    lines = out.getvalue().splitlines()
    assert code == 1
    assert lines[0].startswith("OK") and lines[1].startswith("PROBLEM") and "fix: start it" in lines[2]
    assert lines[3].startswith("SKIP") and lines[-1] == "1 problem(s)"


def test_a_report_without_problems_exits_0():
    out = io.StringIO()
    assert report([Check("python", True, "fine")], out) == 0
    assert out.getvalue().splitlines()[-1] == "all good"
