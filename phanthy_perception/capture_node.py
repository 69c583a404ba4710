"""The `audio_capture` node: publishes the microphone on audio/in (phanthy/msg/AudioFrame,
16 kHz mono int16, stamp = capture time of the first sample), from a sound card, a WAV file
(paced like a live microphone with file.realtime), a raw s16le stream, or nothing."""

from __future__ import annotations

import array
import logging
import threading
import time
from typing import Optional

import numpy as np

from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AudioFrame

from phanthy_common.convert import header
from phanthy_common.health import OK, WARN, GapCounter, Status
from phanthy_common.lifecycle import ManagedNode
from phanthy_common.params import Params, resolve_config

from phanthy_common.audio import RATE
from .capture import DeviceSource, SourceError, file_frames, paced, raw_frames

log = logging.getLogger(__name__)

AUDIO_QOS = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)


def frame_msg(stamp: float, samples: np.ndarray, rate: int = RATE) -> AudioFrame:
    # array('h') is rclpy's fast path for int16[] (a Python list is ~50x slower)
    return AudioFrame(header=header(stamp), sample_rate=rate, channels=1,
                      data=array.array("h", samples.astype(np.int16).tobytes()))
SOURCES = ("device", "file", "raw", "none")


class AudioCaptureNode(ManagedNode):
    """Lifecycle: configure reads the parameters, activate opens the source and starts
    publishing (a file starts from its beginning), deactivate stops and closes it."""
    reconfigurable = True

    def __init__(self, **kwargs):
        super().__init__("audio_capture", automatically_declare_parameters_from_overrides=True, **kwargs)
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self.frames_published = 0
        self.finished = threading.Event()  # the file or stream ended
        self.gaps = GapCounter()  # audio the sound card lost (xruns)

    def configure(self) -> None:
        p = self.params = Params(self)
        self.source = p.get("source", "device", "device | file | raw | none")
        self.device = p.get("device", "", "input device name (substring) or index; '' = default")
        path = p.get("file.path", "", "WAV file for source=file")
        self.realtime = p.get("file.realtime", True, "pace the file like a live microphone")
        self.tail = p.get("file.tail_silence_s", 1.0, "silence appended after the file (lets the VAD end the utterance)")
        self.raw = p.get("raw.path", "-", "s16le 16 kHz mono stream for source=raw ('-' = stdin)")
        frame_ms = p.get("frame_ms", 20, "samples per message, in ms")
        self.wait_listeners = p.get("file.wait_listeners", 1,
                                    "file/raw: start once this many nodes listen on audio/in")
        self.settle_s = p.get("file.settle_s", 1.0, "file/raw: then wait this long for the others")
        p.warn_unknown()
        if self.source not in SOURCES:
            raise ValueError(f"audio_capture: source must be one of {SOURCES}, not {self.source!r}")
        self.path = str(resolve_config(path)) if path else ""
        if self.source == "file" and not self.path:
            raise SourceError("audio_capture: source=file needs file.path")
        self.frame_samples = int(RATE * frame_ms / 1000)
        self._pub = self.create_publisher(AudioFrame, "audio/in", AUDIO_QOS)

    def activate(self) -> None:
        self._stop = threading.Event()
        self.finished.clear()
        frame_s = self.frame_samples / RATE
        if self.source == "device":
            device_source = DeviceSource(self.device, self.frame_samples)  # SourceError: clear, at start
            frames = device_source.frames(self._stop.is_set)
            self.get_logger().info(f"capturing from {device_source.name} at {device_source.rate} Hz")
        elif self.source == "file":
            frames = paced(file_frames(self.path, self.frame_samples, self.tail), frame_s, self.realtime,
                           stop=self._stop.is_set)
        elif self.source == "raw":
            frames = paced(raw_frames(self.raw, self.frame_samples), frame_s, self.realtime, stop=self._stop.is_set)
        else:
            frames = iter(())
        self._thread = threading.Thread(target=self._publish_all, args=(frames,), name="audio-capture", daemon=True)
        self._thread.start()

    def deactivate(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def diagnostics(self):
        if not hasattr(self, "source"):
            return []
        return [Status.of("audio", WARN if self.gaps.gaps else OK,
                          f"{self.source}: {self.frames_published} frames published, {self.gaps.gaps} xrun(s)",
                          source=self.source, published=self.frames_published, xruns=self.gaps.gaps,
                          lost_s=self.gaps.lost_s)]

    def _wait_for_listeners(self) -> None:
        """A file is not a live microphone: nothing it says may be lost while the listening
        nodes (vad, asr, wake_word) are still starting."""
        deadline = time.monotonic() + 30.0
        while self._pub.get_subscription_count() < self.wait_listeners and time.monotonic() < deadline:
            if self._stop.wait(0.05):
                return
        self._stop.wait(self.settle_s)

    def _publish_all(self, frames) -> None:
        if self.source in ("file", "raw"):
            self._wait_for_listeners()
        try:
            for stamp, samples in frames:
                if self._stop.is_set():
                    break
                self._pub.publish(frame_msg(stamp, samples))
                self.frames_published += 1
                if self.source == "device":  # a file is paced exactly; a sound card may drop
                    self.gaps.push(stamp, len(samples) / RATE)
        except Exception:  # a device that goes away mid-stream: say so; the node stays up
            log.exception("audio capture stopped: the source failed")
        finally:
            self.finished.set()
        if self.source in ("file", "raw"):
            self.get_logger().info(f"{self.source} source ended after {self.frames_published} frames")

    def close(self) -> None:
        self.deactivate()
