"""The `phanthy` command as an operator uses it: run, sim, node; clean exits; clear errors."""

import pathlib
import signal
import subprocess
import sys
import time
import uuid

import pytest
import yaml
from rclpy.node import Node

from phanthy.msg import Transcript, TurnRecord
from support.graph import RELIABLE
from support.ros_harness import Collect, spin, wait_for

ROOT = pathlib.Path(__file__).resolve().parents[2]
PHANTHY = [sys.executable, "-m", "phanthy_agent.cli"]
SIM = yaml.safe_load((ROOT / "config" / "sim.yaml").read_text())


def fast_sim_config(tmp_path, keep=None) -> pathlib.Path:
    config = {k: v for k, v in SIM.items() if keep is None or k in keep}
    if "base" in config:
        config["base"]["ros__parameters"]["speed_mps"] = 8.0
    path = tmp_path / "fast.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def test_sim_answers_a_visitor_typed_on_the_console_and_exits_at_end_of_input(tmp_path):
    config = fast_sim_config(tmp_path)
    result = subprocess.run(PHANTHY + ["sim", "--config", str(config)], input="take me to the dinosaur hall\n",
                            capture_output=True, text=True, timeout=180, cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 0, result.stderr[-2000:]
    assert "you> take me to the dinosaur hall" in out
    assert "robot> Certainly, follow me to the dinosaur hall." in out
    assert "-> navigate_to {\"place\": \"dinosaur_hall\"}" in out
    assert "<- navigate_to succeeded" in out
    assert "[turn finished in" in out and "brain offline" in out


def test_run_is_headless_serves_a_turn_and_exits_0_on_sigterm(ros, tmp_path):
    config = fast_sim_config(tmp_path, keep=("collector", "agent", "speaker"))
    # the file's plain node keys apply in the namespace the robot runs in (-r __ns:=...)
    (tmp_path / "script.yaml").write_text(yaml.safe_dump([{"content": "We open every day from nine, says the script."}]))
    data = yaml.safe_load(config.read_text())
    data["agent"]["ros__parameters"].setdefault("agent", {})["brain"] = "scripted"
    data["agent"]["ros__parameters"]["scripted"] = {"file": str(tmp_path / "script.yaml")}
    config.write_text(yaml.safe_dump(data))
    ns = f"/cli{uuid.uuid4().hex[:6]}"
    proc = subprocess.Popen(PHANTHY + ["run", "--config", str(config), "--ros-args", "-r", f"__ns:={ns}"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    probe = Node(f"cli_probe_{uuid.uuid4().hex[:6]}", namespace=ns)
    turns = Collect(probe, TurnRecord, "phanthy/turns", RELIABLE)
    speech = probe.create_publisher(Transcript, "voice/transcript", RELIABLE)
    group = spin(probe)
    try:
        wait_for(lambda: speech.get_subscription_count() > 0, 60, "the collector of `phanthy run`")
        wait_for(lambda: probe.count_publishers("phanthy/turns") > 0, 60, "the agent of `phanthy run`")
        time.sleep(1.0)  # the agent also needs the speaker's manifest; a turn works either way
        speech.publish(Transcript(text="when do you close", is_final=True, audio_duration_ms=1200, source="test"))
        [turn] = turns.wait(timeout=60, what="a turn from `phanthy run`")
        assert turn.end_reason == "finished" and turn.reply == "We open every day from nine, says the script."
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        group.stop()
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in proc.stdout.read()


def test_run_exits_0_on_sigint(tmp_path):
    config = fast_sim_config(tmp_path, keep=("face",))
    proc = subprocess.Popen(PHANTHY + ["run", "--config", str(config)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    try:
        wait_for(lambda: "running face" in proc.stdout.readline(), 60, "start-up")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("config,expect", [
    ({"agnet": {"ros__parameters": {}}}, "unknown node 'agnet'"),
    (None, "config file not found"),
])
def test_run_refuses_bad_configs_clearly(tmp_path, config, expect):
    path = tmp_path / "bad.yaml"
    if config is not None:
        path.write_text(yaml.safe_dump(config))
    result = subprocess.run(PHANTHY + ["run", "--config", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and expect in (result.stderr + result.stdout)


def test_a_bad_parameter_is_a_clear_error_not_a_crash_loop(tmp_path):
    result = subprocess.run(PHANTHY + ["node", "agent", "--ros-args", "-p", "agent.brain:=genius"],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 1
    assert "agent.brain must be one of" in result.stderr and "Traceback" not in result.stderr


def test_without_a_sound_card_audio_is_a_clear_error_not_a_crash_loop(tmp_path):
    result = subprocess.run(PHANTHY + ["sim", "--audio"], input="", capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert result.returncode == 1
    assert "no audio input device" in result.stderr or "no audio" in result.stderr.lower(), result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    devices = subprocess.run(PHANTHY + ["devices"], capture_output=True, text=True, timeout=60)
    assert devices.returncode == 1 and "no audio devices" in devices.stdout
