"""The `asr` node: audio/in (phanthy/msg/AudioFrame) and voice/activity (phanthy/msg/VoiceActivity)
in, one final phanthy/msg/Transcript per utterance out on voice/transcript (optionally partial
ones), recognized by faster-whisper (bundled tiny.en) in a worker thread. The logic lives in
phanthy_perception.asr; this node converts messages and publishes."""

from __future__ import annotations

import time
from collections import deque
from typing import Deque, Optional

import numpy as np

from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AgentState, AudioFrame, GroupEvent, Transcript, VoiceActivity, WakeWord

from phanthy_common.text_rules import is_echo

from phanthy_common.convert import from_time, header
from phanthy_common.health import OK, WARN, GapCounter, Status
from phanthy_common.lifecycle import ManagedNode
from phanthy_common.params import Params
from phanthy_common.qos import LATCHED

from .asr import AsrResult, WhisperTranscriber
from .speaker_attribution import ANONYMOUS, AttributionConfig
from .speaker_embedding import SpeakerEncoder
from .speaker_id import SpeakerIdentifier
from .speaker_profiles import DEFAULT_PATH as PROFILES_PATH, ProfileStore
from .utterance import (DroppedTranscript, EarlyTranscript, FailedTranscript, FinalTranscript, Outcome,
                        PartialTranscript, TrackerConfig, Utterance, UtteranceTracker, Worker)
from phanthy_common.audio import RATE, resample
from .echo_node import EchoFrontEnd, PlaybackWatcher
from .wake import ListenGate, WakePhraseMatcher

AUDIO_QOS = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
EVENTS_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)
CONVERSATION_STATES = ("RECOGNIZING", "THINKING", "PLAYING")  # the agent's voice interaction is open


class AsrNode(ManagedNode):
    """`transcriber`: anything with `transcribe(int16 16 kHz) -> AsrResult` (tests inject one
    to load the model once); by default a WhisperTranscriber built from the parameters.
    `speaker_encoder`: likewise for the speaker encoder (a SpeakerEncoder).
    Lifecycle: configure loads the models, activate starts taking audio, cleanup drops them."""
    events_executor = True  # 50 Hz audio/in: spun on the events executor (phanthy_common.runtime)
    reconfigurable = True

    def __init__(self, transcriber=None, speaker_encoder=None, **kwargs):
        super().__init__("asr", automatically_declare_parameters_from_overrides=True, **kwargs)
        self._given_transcriber, self._given_speaker_encoder = transcriber, speaker_encoder
        self.taking_audio = False
        self.transcriber = None
        self.speakers: Optional[SpeakerIdentifier] = None

    def configure(self) -> None:
        transcriber, speaker_encoder, start = self._given_transcriber, self._given_speaker_encoder, time.perf_counter()
        p = self.params = Params(self)
        model = p.get("model", "", "local CTranslate2 Whisper model directory; \"\" = the bundled tiny.en")
        compute_type = p.get("compute_type", "int8", "CTranslate2 compute type")
        cpu_threads = p.get("cpu_threads", 2, "threads for the model")
        window_s = p.get("window_s", 10.0, "encoder window (s) for utterances that fit; longer ones use 30 s")
        language = p.get("language", "en", "language of the speech (and of the transcripts)")
        hotwords = p.get("hotwords", "", "words to bias recognition towards, e.g. \"hey jarvis\"")
        speculative = p.get("speculative", True, "start transcribing at the VAD's pause hint")
        input_topic = p.get("input_topic", "audio/in", "microphone stream (phanthy/msg/AudioFrame)")
        self.partials = p.get("partials", False, "also publish speculative results with is_final=false")
        listen_mode = p.get("listen_mode", "always", "always | wake_word (transcripts only after a wake word)")
        phrases = p.get("wake.phrases", ["hey robot", "hey jarvis"], "wake phrases recognised in transcripts")
        window_s = p.get("wake.window_s", 8.0, "wake_word mode: listening window after a wake (s)")
        two_stage = p.get("wake.two_stage", False, "a wake word counts only if the transcript starts with it")
        self.echo_overlap = p.get("echo.min_overlap", 0.7, "drop transcripts this much made of words being played")
        early_final = p.get("early_final", True,
                            "hand out a transcript at the VAD's pause hint when it reads as a finished "
                            "sentence, before the end of speech is confirmed (faster replies)")
        early_ms = p.get("early_transcript_ms", 600,
                         "while the robot speaks: transcribe a visitor's ongoing speech after this long "
                         "(a partial Transcript the speaker's barge-in decides on; 0 = off)")
        self.echo = EchoFrontEnd(self, p)
        speakers = self._speaker_params(p)
        self.params.warn_unknown()
        self.listen_gate = ListenGate(listen_mode, window_s, self._now, WakePhraseMatcher(phrases), two_stage,
                                      on_transcript_wake=self._transcript_wake)
        self.playback = PlaybackWatcher(self)
        # ValueError: a clear message at start-up (phanthy run logs it and exits 1), no retry loop
        self.transcriber = transcriber or WhisperTranscriber(
            model, compute_type=compute_type, cpu_threads=cpu_threads, window_s=window_s,
            language=language, hotwords=hotwords)
        if transcriber is None:
            self.transcriber.warm_up()  # the first call allocates: keep it out of the first turn
        self.load_s = time.perf_counter() - start
        self.gaps = GapCounter()
        self.counts = {"final": 0, "failed": 0, "gated": 0}
        self.language = language
        self._worker = Worker()
        self.tracker = UtteranceTracker(
            self.transcriber.transcribe, self._now, self._on_outcome,
            TrackerConfig(speculative=speculative, partials=self.partials, early_after_s=early_ms / 1000.0,
                          early_final=early_final),
            submit=self._worker.submit, early_wanted=lambda: self.playback.log.playing())
        self._pub = self.create_publisher(Transcript, "voice/transcript", QoSProfile(
            depth=100, reliability=ReliabilityPolicy.RELIABLE))
        self.create_subscription(AudioFrame, input_topic, self._on_audio, AUDIO_QOS)
        self.create_subscription(VoiceActivity, "voice/activity", self._on_activity, EVENTS_QOS)
        self.create_subscription(WakeWord, "voice/wake", self._on_wake, EVENTS_QOS)
        self.create_subscription(AgentState, "phanthy/agent_state", self._on_agent_state, LATCHED)
        self._wake_pub = self.create_publisher(WakeWord, "voice/wake", EVENTS_QOS)
        self.create_timer(0.1, self.tracker.poll)  # jobs waiting for audio that never came
        self.speakers = None
        self.speaker_ms: Deque[float] = deque(maxlen=1000)  # time identify() added to recent final transcripts
        if speakers is not None:
            self._start_speakers(speakers, speaker_encoder)

    # --- who said it ---------------------------------------------------------------------------
    def _speaker_params(self, p: Params):
        if not p.get("speakers.enabled", True, "attribute each final transcript to a speaker"):
            return None
        defaults = AttributionConfig()
        return dict(
            model_path=p.get("speakers.model_path", "", "ONNX d-vector encoder; \"\" = the bundled one"),
            profiles=p.get("speakers.profiles", PROFILES_PATH, "SQLite file of enrolled voices (phanthy speakers)"),
            reset=p.get("speakers.reset_on_session_end", True,
                        "speaker_1, speaker_2, ... start over when the voice session ends"),
            robot_voice_s=p.get("speakers.robot_voice_s", 4.0,
                                "seconds of the robot's playback learnt as its own voice (0 = off)"),
            config=AttributionConfig(
                same_speaker_threshold=p.get("speakers.same_speaker_threshold", defaults.same_speaker_threshold,
                                             "cosine to a speaker's voice to be them"),
                enrolled_threshold=p.get("speakers.enrolled_threshold", defaults.enrolled_threshold,
                                         "cosine to an enrolled profile to be that person"),
                robot_threshold=p.get("speakers.robot_threshold", defaults.robot_threshold,
                                      "cosine to the robot's own voice to be the robot"),
                min_speech_s=p.get("speakers.min_speech_s", defaults.min_speech_s,
                                   "shorter speech never opens a speaker nor gets a name"),
                max_speakers=p.get("speakers.max_speakers", defaults.max_speakers, "speakers per conversation"),
                forget_after_s=p.get("speakers.forget_after_s", defaults.forget_after_s,
                                     "no speech for this long: a new conversation")))

    def _start_speakers(self, speakers: dict, encoder) -> None:
        # ValueError: a missing or broken model is a clear error at start-up (configure refuses)
        encoder = encoder or SpeakerEncoder(speakers["model_path"])
        self._speaker_reset = speakers["reset"]
        self._speaker_worker = Worker("speaker-worker")
        self.speakers = SpeakerIdentifier(
            encoder, self.tracker.buffer.segment, self._now, speakers["config"],
            ProfileStore(speakers["profiles"]), submit=self._speaker_worker.submit,
            robot_voice_s=speakers["robot_voice_s"])
        self.create_subscription(AudioFrame, "audio/out", self._on_played, AUDIO_QOS)
        self.create_subscription(GroupEvent, "phanthy/group", self._on_group, EVENTS_QOS)
        self.get_logger().info(f"speaker attribution on (model {encoder.id})")

    def _on_played(self, msg: AudioFrame) -> None:
        if self.speakers.learning_robot_voice and len(msg.data) and msg.sample_rate:
            samples = np.frombuffer(msg.data, dtype=np.int16)
            self.speakers.on_played(resample(samples, int(msg.sample_rate), RATE)
                                    if msg.sample_rate != RATE else samples)

    def activate(self) -> None:
        self.taking_audio = True

    def deactivate(self) -> None:
        self.taking_audio = False

    def cleanup(self) -> None:
        self._worker.close()
        if self.speakers is not None:
            self._speaker_worker.close()
        self.transcriber = self.tracker = self.speakers = None

    def diagnostics(self):
        if self.transcriber is None:
            return []
        return [Status.of("model", OK, f"Whisper loaded in {self.load_s:.2f} s",
                          path=getattr(self.transcriber, "path", type(self.transcriber).__name__), load_s=self.load_s),
                Status.of("audio", WARN if self.gaps.gaps else OK, f"{self.gaps.frames} frames, "
                          f"{self.gaps.gaps} gap(s)", **self.gaps.values()),
                Status.of("recognizer", WARN if self.counts["failed"] else OK,
                          f"{self.counts['final']} transcript(s), {self.counts['failed']} failed, "
                          f"{self._worker.pending()} job(s) waiting", queue_depth=self._worker.pending(),
                          **self.counts)]

    # --- which transcripts reach the agent ----------------------------------------------------
    def gate(self, utterance: Utterance) -> Optional[str]:
        """The text to publish, or None: the robot's own words (echo) and, in wake_word mode,
        speech outside a listening window are not for the agent; a leading wake phrase is
        stripped."""
        played = self.playback.log.texts_around(utterance.t_speech_start, utterance.t_speech_end)
        if played and is_echo(utterance.text, played, self.echo_overlap):
            self.get_logger().info(f"echo of the robot's own words dropped: {utterance.text!r}")
            return None
        return self.listen_gate.admit(utterance.text, utterance.t_speech_end)

    def _on_wake(self, msg: WakeWord) -> None:
        if msg.source != "transcript":
            self.listen_gate.on_wake(from_time(msg.header.stamp), msg.keyword)

    def _on_agent_state(self, msg: AgentState) -> None:
        active = msg.voice_state in CONVERSATION_STATES
        if active != self.listen_gate.in_conversation:
            self.get_logger().info(f"voice interaction {'open' if active else 'closed'} ({msg.voice_state})")
            if not active and self.speakers is not None and self._speaker_reset:
                self.speakers.conversation_ended()
        self.listen_gate.set_conversation(active)

    def _on_group(self, msg: GroupEvent) -> None:
        """Group conversations have no voice session: the proactive node says when a group left."""
        if msg.kind == "ended" and self.speakers is not None and self._speaker_reset:
            self.get_logger().info(f"the group left ({msg.reason}): speaker ids start over")
            self.speakers.conversation_ended()

    def _transcript_wake(self, phrase: str, t: float) -> None:
        self._wake_pub.publish(WakeWord(header=header(t), keyword=phrase, score=1.0, source="transcript"))

    # --- in --------------------------------------------------------------------------------
    def _now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def _on_audio(self, msg: AudioFrame) -> None:
        if not self.taking_audio:
            return
        samples = np.frombuffer(msg.data, dtype=np.int16) if len(msg.data) else np.zeros(0, np.int16)
        if msg.channels > 1:
            samples = samples[: len(samples) - len(samples) % msg.channels].reshape(-1, msg.channels)[:, 0]
        if msg.sample_rate and msg.sample_rate != RATE:
            samples = resample(samples, int(msg.sample_rate), RATE)
        stamp, samples = self.echo.clean(from_time(msg.header.stamp), samples)
        if len(samples):
            self.gaps.push(from_time(msg.header.stamp), len(samples) / RATE)
            self.tracker.push_audio(stamp, samples)
            if self.speakers is not None:
                self.speakers.on_audio(self.tracker.buffer.t_end)

    def _on_activity(self, msg: VoiceActivity) -> None:
        kind = msg.event or ("onset" if msg.speaking else "offset")  # v1 publishers: speaking only
        if msg.speaking:
            self.listen_gate.on_speech(from_time(msg.header.stamp))
        if self.speakers is not None:
            self.speakers.on_speech(kind, msg.t_speech_start if kind == "onset" and msg.t_speech_start
                                    else from_time(msg.header.stamp))
        self.tracker.on_event(kind, from_time(msg.header.stamp), msg.t_speech_start, int(msg.silence_ms),
                              msg.t_detected)

    # --- out -------------------------------------------------------------------------------
    def _message(self, utterance: Utterance, text: str, final: bool) -> Transcript:
        result: AsrResult = utterance.result
        return Transcript(
            header=header(utterance.t_speech_end), text=text, is_final=final,
            audio_duration_ms=max(0, utterance.duration_ms), confidence=float(result.confidence),
            speaker_id=ANONYMOUS, language=result.language or self.language, source="asr",
            t_speech_start=utterance.t_speech_start, t_speech_end=utterance.t_speech_end,
            t_eos_detected=utterance.t_eos_detected, t_ready=utterance.t_ready)

    def _on_outcome(self, outcome: Outcome) -> None:
        """A transcription's outcome (on the worker thread)."""
        match outcome:
            case FinalTranscript(utterance=utterance):
                self._publish_final(utterance)
            case PartialTranscript(utterance=utterance):
                self._publish_partial(utterance)
            case EarlyTranscript(utterance=utterance):
                self._publish_early(utterance)
            case FailedTranscript(utterance=utterance):
                self._publish_failure(utterance)
            case DroppedTranscript(utterance=utterance, reason=reason):
                self.get_logger().info(f"dropped {utterance.text!r}: {reason}")

    def _publish_final(self, utterance: Utterance) -> None:
        text = self.gate(utterance)
        if text is None:
            self.counts["gated"] += 1
            self.get_logger().info(f"gated: {utterance.text!r}")
            return
        self.counts["final"] += 1
        msg = self._message(utterance, text, True)
        who = ""
        if self.speakers is not None:
            identified = self.speakers.identify(utterance.t_speech_start, utterance.t_speech_end)
            attribution = identified.attribution
            msg.speaker_id, msg.speaker_confidence = attribution.speaker_id, attribution.confidence
            self.speaker_ms.append(identified.elapsed_ms)
            who = (f", speaker {attribution.speaker_id} ({attribution.kind}, score {attribution.score:.2f}"
                   f"{', ' + attribution.reason if attribution.reason else ''}; +{identified.elapsed_ms:.0f} ms)")
        self._pub.publish(msg)
        self.get_logger().info(
            f"heard {text!r} ({utterance.duration_ms} ms of speech, confidence "
            f"{utterance.result.confidence:.2f}, ready "
            f"{(utterance.t_ready - utterance.t_eos_detected) * 1000:.0f} ms after end of speech, "
            f"asr {utterance.result.latency_ms:.0f} ms{', speculative' if utterance.speculative else ''}{who})")

    def _publish_failure(self, utterance: Utterance) -> None:
        """The visitor said something and the recognizer failed on it: a final Transcript with
        `error` set and no text, so the voice machine can say so instead of waiting in silence."""
        msg = self._message(utterance, "", True)
        msg.error = utterance.result.error
        self.counts["failed"] += 1
        self._pub.publish(msg)
        self.get_logger().error(f"recognition of {utterance.duration_ms} ms of speech failed: {msg.error}")

    def _publish_partial(self, utterance: Utterance) -> None:
        text = self.gate(utterance)
        if text is not None:
            self._pub.publish(self._message(utterance, text, False))

    def _publish_early(self, utterance: Utterance) -> None:
        """What a visitor has said so far while the robot speaks (is_final=false): the speaker's
        barge-in controller reads it; the collector does not forward partials to the agent."""
        self._pub.publish(self._message(utterance, utterance.text, False))
        self.get_logger().info(f"early: {utterance.text!r} after {utterance.duration_ms} ms of speech "
                               f"(confidence {utterance.result.confidence:.2f})")

    def close(self) -> None:
        if self.transcriber is not None:
            self._worker.close()
        if self.speakers is not None:
            self._speaker_worker.close()
