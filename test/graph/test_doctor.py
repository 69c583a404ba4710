"""`phanthy doctor` as a newcomer runs it: every line OK (or SKIP) on a healthy machine and
exit 0; each fault it checks, made to happen, is a PROBLEM line with a fix and exit 1."""

import pathlib
import subprocess
import sys

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
PHANTHY = [sys.executable, "-m", "phanthy_agent.cli", "doctor"]


def doctor(tmp_path, config, env=None):
    import os
    path = config
    if isinstance(config, dict):
        path = tmp_path / "robot.yaml"
        path.write_text(yaml.safe_dump(config))
    result = subprocess.run(PHANTHY + ["--config", str(path)], capture_output=True, text=True, timeout=60,
                            cwd=tmp_path, env={**os.environ, **(env or {})})
    lines = {}
    for line in result.stdout.splitlines():
        status, _, rest = line.partition(" ")
        if status in ("OK", "PROBLEM", "SKIP"):
            name, _, detail = rest.strip().partition("  ")
            lines[name.strip()] = (status, detail.strip())
    return result, lines


def fix_after(result, name: str) -> str:
    out = result.stdout.splitlines()
    index = next(i for i, line in enumerate(out) if line.startswith("PROBLEM") and f" {name}  " in line)
    return out[index + 1].strip()


def test_a_healthy_machine_with_the_sim_config_is_all_good(tmp_path):
    result, lines = doctor(tmp_path, "sim.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].startswith("all good in")
    assert {"python", "ros", "config", "dds", "llm", "audio in", "audio out"} <= set(lines)
    assert all(status in ("OK", "SKIP") for status, _ in lines.values())
    assert "passed a message" in lines["dds"][1] or "message through" in lines["dds"][1]


NEEDS_SOUND = {"audio_capture": {"ros__parameters": {"source": "device"}},
               "speaker": {"ros__parameters": {"engine": "sim", "output": "device"}}}


def test_no_sound_card_is_a_problem_when_the_config_needs_one(tmp_path):
    from phanthy_drivers.selfcheck import audio_devices
    if audio_devices():
        pytest.skip("this machine has a sound card: the fault 'no sound card' cannot be made here")
    result, lines = doctor(tmp_path, NEEDS_SOUND)
    assert result.returncode == 1
    assert "no audio input device" in lines["audio in"][1]
    assert lines["audio in"][0] == "PROBLEM" and lines["audio out"][0] == "PROBLEM"
    assert "audio_capture.source: file" in fix_after(result, "audio in")
    assert "speaker.output: wav" in fix_after(result, "audio out")


def test_a_broken_audio_system_is_a_problem_not_a_crash_of_the_doctor(tmp_path):
    empty_alsa = tmp_path / "asound.conf"
    empty_alsa.write_text("")  # ALSA without its configuration: PortAudio aborts the process
    result, lines = doctor(tmp_path, NEEDS_SOUND, env={"ALSA_CONFIG_PATH": str(empty_alsa)})
    assert result.returncode == 1
    assert lines["audio in"] == ("PROBLEM", "PortAudio crashed (SIGABRT) while listing the devices")
    assert lines["dds"][0] == "OK"


def test_a_missing_model_is_a_problem(tmp_path):
    config = {"vad": {"ros__parameters": {"model_path": str(tmp_path / "missing" / "silero.onnx")}}}
    result, lines = doctor(tmp_path, config)
    assert result.returncode == 1
    assert lines["model vad"][0] == "PROBLEM" and "not found" in lines["model vad"][1]
    assert "vad.model_path" in fix_after(result, "model vad")


def test_an_unreachable_language_model_is_a_problem(tmp_path):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = {"agent": {"ros__parameters": {"agent": {"brain": "openai"},
                                            "llm": {"base_url": f"http://127.0.0.1:{port}/v1"}}}}
    result, lines = doctor(tmp_path, config)
    assert result.returncode == 1
    assert lines["llm"][0] == "PROBLEM" and "unreachable" in lines["llm"][1]
    assert "llm.base_url" in fix_after(result, "llm")


def test_a_broken_config_is_a_problem_and_the_machine_checks_still_run(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("agent:\n  ros__parameters:\n    agent: {brain: openai\n")
    result, lines = doctor(tmp_path, path)
    assert result.returncode == 1
    assert lines["config"][0] == "PROBLEM" and "not valid YAML at line" in lines["config"][1]
    assert lines["python"][0] == "OK" and lines["dds"][0] == "OK"
