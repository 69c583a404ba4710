"""Microphone sources for the `audio_capture` node: a sound card (PyAudio), a WAV file, a raw
s16le stream (a file, a FIFO or stdin), or nothing. Each yields 16 kHz mono int16 frames stamped
with the capture time of their first sample. Pure of ROS; the node publishes what they yield."""

from __future__ import annotations

import logging
import sys
import time
import wave
from typing import Callable, Iterator, Optional, Tuple

import numpy as np
import pyaudio

from phanthy_common.audio import RATE, resample

log = logging.getLogger(__name__)

Frame = Tuple[float, np.ndarray]


class SourceError(ValueError):
    """The configured source cannot be opened (missing file, no such device, ...)."""


def paced(frames: Iterator[np.ndarray], frame_s: float, realtime: bool,
          clock: Callable[[], float] = time.time, sleep: Callable[[float], None] = time.sleep,
          stop: Callable[[], bool] = lambda: False) -> Iterator[Frame]:
    """Stamp frames on a sample clock starting now; with `realtime`, release each frame when
    a live microphone would have delivered it (at the end of its duration)."""
    start = clock()
    for index, frame in enumerate(frames):
        if stop():
            return
        stamp = start + index * frame_s
        if realtime:
            delay = stamp + frame_s - clock()
            if delay > 0:
                sleep(delay)
        yield stamp, frame


def split_frames(samples: np.ndarray, frame_samples: int) -> Iterator[np.ndarray]:
    for offset in range(0, len(samples) - frame_samples + 1, frame_samples):
        yield samples[offset:offset + frame_samples]
    rest = len(samples) % frame_samples
    if rest:
        yield np.concatenate([samples[-rest:], np.zeros(frame_samples - rest, dtype=np.int16)])


def read_wav(path: str) -> np.ndarray:
    """A WAV file as 16 kHz mono int16 (first channel; resampled when needed)."""
    try:
        with wave.open(path, "rb") as w:
            if w.getsampwidth() != 2:
                raise SourceError(f"{path}: only 16-bit PCM WAV is supported (sample width {w.getsampwidth()})")
            samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
            channels, rate = w.getnchannels(), w.getframerate()
    except (OSError, wave.Error, EOFError) as exc:
        raise SourceError(f"cannot read WAV file {path!r}: {exc}") from None
    if channels > 1:
        samples = samples.reshape(-1, channels)[:, 0]
    return resample(samples, rate, RATE)


def file_frames(path: str, frame_samples: int, tail_silence_s: float = 1.0) -> Iterator[np.ndarray]:
    samples = read_wav(path)
    samples = np.concatenate([samples, np.zeros(int(tail_silence_s * RATE), dtype=np.int16)])
    return split_frames(samples, frame_samples)


def raw_frames(path: str, frame_samples: int) -> Iterator[np.ndarray]:
    """s16le 16 kHz mono from a file, a FIFO or "-" (stdin), until it ends."""
    try:
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        raise SourceError(f"cannot open raw audio stream {path!r}: {exc}") from None

    def frames() -> Iterator[np.ndarray]:
        with stream:
            while True:
                data = stream.read(frame_samples * 2)
                if not data:
                    return
                if len(data) % 2:
                    data = data[:-1]
                frame = np.frombuffer(data, dtype=np.int16)
                if len(frame) < frame_samples:
                    frame = np.concatenate([frame, np.zeros(frame_samples - len(frame), dtype=np.int16)])
                yield frame
    return frames()


def find_input_device(pa, device: str) -> Optional[int]:
    """Index of the input device named (substring, case-insensitive) or numbered `device`;
    None for the default. SourceError listing the input devices when there is no match."""
    inputs = [(i, pa.get_device_info_by_index(i)) for i in range(pa.get_device_count())]
    inputs = [(i, info) for i, info in inputs if info.get("maxInputChannels", 0) > 0]
    listing = "; ".join(f"{i}: {info['name']}" for i, info in inputs) or "none"
    if not inputs:
        raise SourceError(f"no audio input device found (input devices: {listing}); "
                          "use source:=file or source:=raw on a machine without a microphone")
    if device == "":
        return None
    if device.isdigit():
        if any(i == int(device) for i, _ in inputs):
            return int(device)
    else:
        for i, info in inputs:
            if device.lower() in info["name"].lower():
                return i
    raise SourceError(f"no audio input device {device!r} (input devices: {listing})")


class DeviceSource:
    """A microphone through PyAudio: 16 kHz mono int16 when the device supports it, otherwise
    captured at its default rate and resampled."""

    def __init__(self, device: str, frame_samples: int):
        self._pa = pyaudio.PyAudio()
        try:
            index = find_input_device(self._pa, device)
            info = (self._pa.get_device_info_by_index(index) if index is not None
                    else self._pa.get_default_input_device_info())
            self.rate = RATE
            try:
                self._pa.is_format_supported(RATE, input_device=info["index"], input_channels=1,
                                             input_format=pyaudio.paInt16)
            except ValueError:
                self.rate = int(info["defaultSampleRate"])
            self._frames_per_read = int(frame_samples * self.rate / RATE)
            self._stream = self._pa.open(format=pyaudio.paInt16, channels=1, rate=self.rate, input=True,
                                         input_device_index=info["index"],
                                         frames_per_buffer=self._frames_per_read)
            self.name = info["name"]
        except SourceError:
            self._pa.terminate()
            raise
        except (OSError, IOError) as exc:
            self._pa.terminate()
            raise SourceError(f"cannot open audio input {device or 'default'!r}: {exc}") from None

    def frames(self, stop: Callable[[], bool]) -> Iterator[Frame]:
        try:
            while not stop():
                data = self._stream.read(self._frames_per_read, exception_on_overflow=False)
                stamp = time.time() - self._frames_per_read / self.rate  # first sample's capture time
                yield stamp, resample(np.frombuffer(data, dtype=np.int16), self.rate, RATE)
        finally:
            self._stream.stop_stream()
            self._stream.close()
            self._pa.terminate()
