"""Where the speaker's frames go: a sound card (`DeviceSink`), one WAV file per utterance
(`WavSink`) or nowhere (`NullSink`). The speaker paces frames in real time whatever the sink, so
a sink only writes. No ROS.

A sink's life: `open()` at node start (a missing device fails here, with what was found),
then per utterance `begin(utterance_id)`, `write(stamp, frame, rate)` per frame, `end()`;
`close()` at shutdown.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
import threading
import wave
from typing import Iterator, List, Optional, Tuple, Union

import numpy as np

DeviceInfo = Tuple[int, str, int, int, float]  # index, name, max in, max out, default rate


class AudioDeviceError(RuntimeError):
    """The configured audio device cannot be used (the message says what exists)."""


class NullSink:
    """Plays nothing (the frames still go to audio/out)."""

    def open(self) -> None: ...

    def begin(self, utterance_id: str) -> None: ...

    def write(self, stamp: float, frame: np.ndarray, rate: int) -> None: ...

    def end(self) -> None: ...

    def close(self) -> None: ...


class WavSink:
    """One mono 16-bit WAV per utterance: `<dir>/<utterance_id>.wav`, at the frames' rate."""

    def __init__(self, directory: Union[str, pathlib.Path]):
        if not str(directory):
            raise ValueError("output 'wav' needs wav.dir (the directory to write to)")
        self.dir = pathlib.Path(directory).expanduser()
        self._file: Optional[wave.Wave_write] = None
        self._utterance = ""
        self.last_path: Optional[pathlib.Path] = None

    def open(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)

    def path_for(self, utterance_id: str) -> pathlib.Path:
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", utterance_id) or "utterance"
        return self.dir / f"{safe}.wav"

    def begin(self, utterance_id: str) -> None:
        self.end()
        self._utterance = utterance_id

    def write(self, stamp: float, frame: np.ndarray, rate: int) -> None:
        if self._file is None:
            self.last_path = self.path_for(self._utterance)
            self._file = wave.open(str(self.last_path), "wb")
            self._file.setnchannels(1)
            self._file.setsampwidth(2)
            self._file.setframerate(int(rate))
        elif int(rate) != self._file.getframerate():
            raise ValueError(f"sample rate changed within an utterance "
                             f"({self._file.getframerate()} -> {rate})")
        self._file.writeframes(np.asarray(frame, dtype="<i2").tobytes())

    def end(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def close(self) -> None:
        self.end()


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """PortAudio's ALSA and JACK probes print dozens of lines on stderr on machines without a
    sound server; hide them (file descriptor 2, process-wide, for the duration of the probe)."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _pyaudio():
    try:
        import pyaudio
    except ImportError:
        raise AudioDeviceError("output 'device' needs PyAudio (pip install PyAudio; apt install "
                               "portaudio19-dev)") from None
    with _quiet_stderr():
        return pyaudio, pyaudio.PyAudio()


def list_devices() -> List[DeviceInfo]:
    """Audio devices PortAudio sees: (index, name, max_input_channels, max_output_channels,
    default_rate)."""
    _, pa = _pyaudio()
    try:
        return _devices(pa)
    finally:
        pa.terminate()


def _devices(pa) -> List[DeviceInfo]:
    out = []
    for i in range(pa.get_device_count()):
        info = pa.get_device_info_by_index(i)
        out.append((int(info["index"]), str(info["name"]), int(info["maxInputChannels"]),
                    int(info["maxOutputChannels"]), float(info["defaultSampleRate"])))
    return out


def describe_devices(devices: List[DeviceInfo]) -> str:
    if not devices:
        return "PortAudio found no audio devices at all (no sound card, or no access to it)"
    return "PortAudio lists: " + "; ".join(f"[{i}] {name!r} (in {ins}, out {outs}, {rate:.0f} Hz)"
                                           for i, name, ins, outs, rate in devices)


def find_output_device(devices: List[DeviceInfo], device: Union[str, int],
                       default_index: Optional[int]) -> DeviceInfo:
    """`device`: "" = the default output device, an index, or (part of) a name, case-insensitive
    (an exact name wins over a partial one). AudioDeviceError naming what exists otherwise."""
    outputs = [d for d in devices if d[3] > 0]
    spec = str(device).strip()
    if spec == "":
        match = [d for d in outputs if d[0] == default_index] or outputs[:1]
        what = "no default audio output device"
    elif re.fullmatch(r"\d+", spec):
        match = [d for d in outputs if d[0] == int(spec)]
        what = f"no audio output device with index {spec}"
    else:
        match = ([d for d in outputs if d[1].lower() == spec.lower()]
                 or [d for d in outputs if spec.lower() in d[1].lower()])
        what = f"no audio output device named {spec!r}"
    if not match:
        raise AudioDeviceError(f"{what}; {describe_devices(devices)}")
    return match[0]


class LinearResampler:
    """Streaming resampler (linear interpolation, state kept across frames so frame edges do not
    click). Used only when the device refuses the speech's own rate."""

    def __init__(self, rate_in: int, rate_out: int):
        self.step = rate_in / float(rate_out)
        self._last = 0.0  # last input sample of the previous frame
        self._phase = 0.0  # position of the next output sample, relative to _last (0..1)

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        x = np.concatenate([[self._last], frame.astype(np.float64)])
        positions = np.arange(self._phase, len(x) - 1, self.step)
        out = np.interp(positions, np.arange(len(x)), x)
        if len(positions):
            self._phase = positions[-1] + self.step - (len(x) - 1)
        else:
            self._phase -= len(x) - 1
        self._last = x[-1]
        return np.clip(np.round(out), -32768, 32767).astype(np.int16)


class DeviceSink:
    """A PortAudio output stream (blocking writes). Opened at the speech's own rate when the
    device takes it, else at the device's default rate with `LinearResampler`. `prebuffer_ms`
    of silence starts each utterance so the thread's scheduling jitter never starves the card."""

    def __init__(self, device: Union[str, int] = "", prebuffer_ms: float = 40.0):
        self.device = device
        self.prebuffer_ms = prebuffer_ms
        self.info: Optional[DeviceInfo] = None
        self._pa = None
        self._pyaudio = None
        self._stream = None
        self._stream_rate = 0
        self._input_rate = 0
        self._resampler: Optional[LinearResampler] = None
        self._lock = threading.Lock()
        self._new_utterance = False

    def open(self) -> None:
        self._pyaudio, self._pa = _pyaudio()
        try:
            devices = _devices(self._pa)
            try:
                default = int(self._pa.get_default_output_device_info()["index"])
            except (IOError, OSError):
                default = None
            self.info = find_output_device(devices, self.device, default)
        except Exception:
            self.close()
            raise

    def begin(self, utterance_id: str) -> None:
        self._new_utterance = True

    def write(self, stamp: float, frame: np.ndarray, rate: int) -> None:
        with self._lock:
            if self._pa is None:
                raise AudioDeviceError("DeviceSink.write before open()")
            if self._stream is None or rate != self._input_rate:
                self._open_stream(int(rate))
            if self._new_utterance:
                self._new_utterance = False
                silence = np.zeros(int(self._stream_rate * self.prebuffer_ms / 1000.0), dtype=np.int16)
                self._stream.write(silence.tobytes())
            data = np.asarray(frame, dtype=np.int16)
            if self._resampler is not None:
                data = self._resampler(data)
            self._stream.write(data.tobytes(), exception_on_underflow=False)

    def _open_stream(self, rate: int) -> None:
        self._close_stream()
        index = self.info[0]
        stream_rate = rate
        try:
            self._pa.is_format_supported(rate, output_device=index, output_channels=1,
                                         output_format=self._pyaudio.paInt16)
        except ValueError:
            stream_rate = int(self.info[4])
        self._resampler = LinearResampler(rate, stream_rate) if stream_rate != rate else None
        try:
            self._stream = self._pa.open(format=self._pyaudio.paInt16, channels=1, rate=stream_rate,
                                         output=True, output_device_index=index,
                                         frames_per_buffer=max(64, stream_rate // 50))
        except (IOError, OSError) as exc:
            raise AudioDeviceError(f"cannot open audio output [{index}] {self.info[1]!r} at "
                                   f"{stream_rate} Hz: {exc}") from None
        self._stream_rate, self._input_rate = stream_rate, rate

    def end(self) -> None:
        pass  # the stream stays open; between utterances the card plays silence

    def _close_stream(self) -> None:
        if self._stream is not None:
            try:
                self._stream.stop_stream()
                self._stream.close()
            except Exception:
                pass
            self._stream = None

    def close(self) -> None:
        with self._lock:
            self._close_stream()
            if self._pa is not None:
                self._pa.terminate()
                self._pa = None


def make_sink(output: str, wav_dir: str = "", device: Union[str, int] = ""):
    """The sink for the speaker's `output` parameter: device | wav | none."""
    output = (output or "none").strip().lower()
    if output == "none":
        return NullSink()
    if output == "wav":
        return WavSink(wav_dir)
    if output == "device":
        return DeviceSink(device)
    raise ValueError(f"output must be device, wav or none, not {output!r}")
