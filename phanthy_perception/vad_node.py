"""The `vad` node: audio/in (AudioFrame) in, voice/activity (VoiceActivity) out.

One event per onset, pause, resume and offset of speech, stamped with audio sample-clock times
(header.stamp = event time, see phanthy_perception.vad). Frames at other rates are resampled to
16 kHz; malformed frames are skipped (logged once per kind of problem).
"""

from __future__ import annotations

import time
from typing import Dict, Optional

import numpy as np
from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AudioFrame, VoiceActivity
from phanthy_common.convert import from_time, header
from phanthy_common.health import OK, WARN, GapCounter, Status
from phanthy_common.lifecycle import ManagedNode
from phanthy_common.params import Params

from phanthy_common.audio import RATE, resample
from .echo import EchoGate
from .double_talk import DoubleTalkCue
from .echo_node import EchoFrontEnd
from .vad import SileroVad, VadEvent, VadSegmenter, VadStream

AUDIO_QOS = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
ACTIVITY_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)
MIN_RATE, MAX_RATE = 8000, 192000
STALL_S = 1.0  # no audio for this long (wall time) while speaking: close the segment


class VadNode(ManagedNode):
    """Lifecycle: configure loads the model and subscribes, activate starts taking audio
    (frames that arrive while inactive are dropped), cleanup drops the model."""
    events_executor = True  # 50 Hz audio/in: spun on the events executor (phanthy_common.runtime)
    reconfigurable = True

    def __init__(self, **kwargs):
        super().__init__("vad", automatically_declare_parameters_from_overrides=True, **kwargs)
        self.params = Params(self)
        self.taking_audio = False

    def configure(self) -> None:
        start = time.perf_counter()
        self.echo = EchoFrontEnd(self, self.params)
        dtd = self.params.get("echo.dtd_threshold", 0.5,
                              "speech the robot's delayed output explains this much is its own echo (0: off)")
        self.echo_gate = (EchoGate(self.echo.canceller, dtd)
                          if self.echo.canceller is not None and dtd > 0 else None)
        cue = self.params.get("barge_in_cue.enabled", True,
                              "publish 'candidate' the moment the echo canceller's output says someone "
                              "talks over the robot (the speaker pauses; 'dismissed' if no onset follows)")
        self.cue = DoubleTalkCue(
            erle_min_db=self.params.get("barge_in_cue.erle_min_db", 12.0,
                                        "canceller convergence (ERLE, dB) before the cue is trusted"),
            confirm_s=self.params.get("barge_in_cue.confirm_s", 0.3,
                                      "an onset must follow a candidate within this long")) \
            if cue and self.echo_gate is not None else None
        self.stream, topic = self._configure(self.params)  # ValueError: a clear error, no half-built node
        self.load_s = time.perf_counter() - start
        self.skipped: Dict[str, int] = {}
        self.frames = 0  # frames received (good or not)
        self.published = 0
        self.busy_s = 0.0  # processing time spent in frame callbacks (for load figures)
        self.gaps = GapCounter()  # audio lost before it reached this node
        self._last_frame: Optional[float] = None  # monotonic time of the last good frame
        self._segment_open = False  # an onset was published and its offset not yet
        self.activity_pub = self.create_publisher(VoiceActivity, "voice/activity", ACTIVITY_QOS)
        self.create_subscription(AudioFrame, topic, self._on_frame, AUDIO_QOS)
        self.create_timer(0.25, self._check_stall)
        self.get_logger().info(f"listening on {topic} (model {self.stream.model.model_path})")

    def activate(self) -> None:
        self.taking_audio = True

    def deactivate(self) -> None:
        self.taking_audio = False
        for event in self.stream.flush():  # an open segment ends now, not never
            self._publish(event)

    def cleanup(self) -> None:
        self.stream = self.echo = self.echo_gate = self.cue = None

    def diagnostics(self):
        if getattr(self, "stream", None) is None:
            return []
        skipped = sum(self.skipped.values())
        return [Status.of("model", OK, f"silero VAD loaded in {self.load_s:.2f} s",
                          path=self.stream.model.model_path, load_s=self.load_s),
                Status.of("audio", WARN if self.gaps.gaps or skipped else OK,
                          f"{self.frames} frames, {self.gaps.gaps} gap(s), {skipped} malformed",
                          events_published=self.published, busy_s=self.busy_s, malformed=skipped,
                          **self.gaps.values())]

    @staticmethod
    def _configure(p: Params):
        segmenter = VadSegmenter(
            threshold=p.get("threshold", 0.5, "speech probability that starts speech (0..1)"),
            min_silence_ms=p.get("min_silence_ms", 400, "silence that ends speech (offset)"),
            speech_pad_ms=p.get("speech_pad_ms", 30, "padding before onset / after the end of speech"),
            min_speech_ms=p.get("min_speech_ms", 60, "speech needed before an onset"),
            pause_hint_ms=p.get("pause_hint_ms", 96, "silence that raises a pause event (0: none; counted in 32 ms blocks)"))
        model_path = p.get("model_path", "", "silero VAD ONNX file ('' = the one bundled in silero-vad)")
        topic = p.get("input_topic", "audio/in", "AudioFrame topic to listen to")
        p.warn_unknown()
        return VadStream(SileroVad(model_path or None), segmenter), topic

    def _skip(self, reason: str) -> None:  # returns None, so `return self._skip(...)` skips
        if reason not in self.skipped:
            self.get_logger().warning(f"skipping malformed audio frames: {reason} (logged once)")
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def _samples(self, msg: AudioFrame) -> Optional[np.ndarray]:
        if msg.channels != 1:
            return self._skip(f"channels={msg.channels}, expected 1")
        if not MIN_RATE <= msg.sample_rate <= MAX_RATE:
            return self._skip(f"sample_rate={msg.sample_rate}, expected {MIN_RATE}..{MAX_RATE}")
        if len(msg.data) == 0:
            return self._skip("empty frame")
        try:
            samples = np.frombuffer(msg.data, dtype=np.int16)
        except (TypeError, ValueError):
            samples = np.asarray(msg.data, dtype=np.int16)
        return resample(samples, msg.sample_rate, RATE) if msg.sample_rate != RATE else samples

    def _on_frame(self, msg: AudioFrame) -> None:
        if not self.taking_audio:
            return
        start = time.perf_counter()
        self.frames += 1
        samples = self._samples(msg)
        if samples is not None:
            self._last_frame = time.monotonic()
            raw_stamp = from_time(msg.header.stamp)
            self.gaps.push(raw_stamp, len(samples) / RATE)
            raw_end = raw_stamp + len(samples) / RATE
            if self.echo_gate is not None:
                self.echo_gate.add_mic(raw_stamp, samples)
            stamp, samples = self.echo.clean(raw_stamp, samples)
            events = self.stream.push(stamp, samples) if len(samples) else []
            if self.echo_gate is not None:
                self.echo_gate.add_clean(stamp, samples)
                events = self.echo_gate.filter(events, raw_end)
            for event in events:
                self._publish(event)
            if self.cue is not None and len(samples):
                self._cue(stamp, samples)
        self.busy_s += time.perf_counter() - start

    def _cue(self, stamp: float, clean: np.ndarray) -> None:
        """The fast double-talk cue over the canceller's newest output (phanthy_perception/double_talk.py)."""
        t_end = stamp + len(clean) / RATE
        kinds = self.cue.frame_audio(t_end, self.echo_gate.mic.window(stamp, len(clean)), clean,
                                     self.echo_gate.noise_floor, self.echo.canceller.playing(stamp),
                                     self._segment_open)
        for kind in kinds:
            start = stamp if kind == "candidate" else t_end
            self.activity_pub.publish(VoiceActivity(
                header=header(start), speaking=False, probability=0.0, event=kind, t_speech_start=start,
                silence_ms=0, t_detected=t_end))
            self.published += 1
            self.get_logger().debug(f"{kind} at {start:.3f}")

    def _check_stall(self) -> None:
        """The audio stopped mid-speech (file ended, microphone unplugged): end the segment at
        the last audio time rather than leave listeners waiting for an offset forever."""
        if self.stream.speaking and self._last_frame is not None \
                and time.monotonic() - self._last_frame > STALL_S:
            self.get_logger().info("audio stopped during speech: closing the segment")
            for event in self.stream.flush():
                self._publish(event)

    def _publish(self, e: VadEvent) -> None:
        if e.kind == "onset":
            self._segment_open = True
            if self.cue is not None:
                self.cue.confirmed()
        elif e.kind == "offset":
            self._segment_open = False
        self.activity_pub.publish(VoiceActivity(
            header=header(e.t), speaking=e.speaking, probability=e.probability, event=e.kind,
            t_speech_start=e.t_speech_start, silence_ms=e.silence_ms, t_detected=e.t_detected))
        self.published += 1
        self.get_logger().debug(f"{e.kind} at {e.t:.3f} (decided {e.t_detected:.3f}, p={e.probability:.2f})")
