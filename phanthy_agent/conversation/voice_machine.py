"""The voice state machine: STOPPED, LISTENING, RECOGNIZING, THINKING, PLAYING. Pure, no ROS;
time from an injected clock, advanced by `tick()`.

    STOPPED      voice off (`start()` -> LISTENING)
    LISTENING    waiting for the wake word (or, `always` listening, for any speech)
    RECOGNIZING  a visitor may be speaking to the robot: after a wake, after a `follow_up` or
                 `continuous` reply; a final transcript -> THINKING
    THINKING     a turn runs (speech now steers it: stays THINKING); its audio -> PLAYING
    PLAYING      the robot speaks; the turn's end applies its dialogue_state; a visitor's
                 request (barge-in, steering) -> THINKING

Every waiting state is bounded (VoiceTimeouts): nothing the model, the ASR or the TTS does, or
fails to do, keeps the machine anywhere for longer than its timeout.
  RECOGNIZING after a wake: `wake_listen_s` without words -> LISTENING (session closed);
              after follow_up: `follow_up_s`, then one re-prompt, then LISTENING;
              in continuous mode: `continuous_silence_s` -> LISTENING;
              while speech is in progress the wait extends, at most `max_utterance_s`.
  THINKING    `thinking_s` without audio or a turn end -> the turn is aborted, fallback line,
              LISTENING.
  PLAYING     `playing_s` (a stuck speaker) -> LISTENING.
Failures: an ASR failure in RECOGNIZING, an LLM failure or a TTS failure -> say the short
fallback line (when the speaker can), close the session, LISTENING.

Sessions: a wake (or, always listening, the first speech) opens `voice:<uuid>`; returning to
LISTENING or STOPPED closes it. The next visitor starts fresh. Speakers (Transcript.speaker_id,
when the recognizer tells voices apart): once the robot has waited `follow_up_s` for an answer
(re-prompting, or in continuous mode), words from a speaker who has not spoken in the session
are another visitor taking over: the session is closed and a new one opened for them, so they
do not continue someone else's conversation. Within `follow_up_s` another speaker joins the
session (a companion answering the robot's question).

The machine decides; the caller acts on the returned `Effect`s (say a line, open/close a
session, publish the state). `history` keeps (time, from, to, why) for tests and logs.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from enum import Enum
from typing import Callable, List, Optional, Tuple, Union

from .dialogue_state import DialogueState

log = logging.getLogger(__name__)


class VoiceState(str, Enum):
    STOPPED = "STOPPED"
    LISTENING = "LISTENING"
    RECOGNIZING = "RECOGNIZING"
    THINKING = "THINKING"
    PLAYING = "PLAYING"


@dataclasses.dataclass(frozen=True)
class VoiceTimeouts:
    wake_listen_s: float = 8.0  # after a wake word, how long the visitor may take to start
    follow_up_s: float = 8.0  # waiting for the answer to the robot's question
    continuous_silence_s: float = 20.0  # continuous mode ends after this much silence
    max_utterance_s: float = 30.0  # one visitor utterance, however long the VAD says
    thinking_s: float = 30.0  # a turn without audio or an end (the model, the tools)
    playing_s: float = 120.0  # one spoken reply
    reprompts: int = 1  # re-prompts after an unanswered follow_up


@dataclasses.dataclass(frozen=True)
class VoiceLines:
    reprompt: str = "Sorry, I didn't catch that. Could you say it again?"
    fallback: str = "Sorry, something went wrong. Please try again."
    goodbye: str = ""  # said when continuous mode ends by an exit phrase ("" = nothing)


EXIT_PHRASES = ("goodbye", "bye", "bye bye", "that's all", "that is all", "stop listening",
                "thank you that's all", "see you", "we're done", "that will be all")


@dataclasses.dataclass(frozen=True)
class Say:
    """Say a line (a re-prompt, the fallback, a goodbye)."""
    text: str


@dataclasses.dataclass(frozen=True)
class OpenSession:
    session: str


@dataclasses.dataclass(frozen=True)
class CloseSession:
    session: str


@dataclasses.dataclass(frozen=True)
class StateChanged:
    state: "VoiceState"


@dataclasses.dataclass(frozen=True)
class AbortTurn:
    """Cancel the running turn (it took too long, or the speech failed)."""
    reason: str


Effect = Union[Say, OpenSession, CloseSession, StateChanged, AbortTurn]


class VoiceMachine:
    def __init__(self, clock: Callable[[], float], timeouts: VoiceTimeouts = VoiceTimeouts(),
                 lines: VoiceLines = VoiceLines(), wake_gated: bool = True,
                 exit_phrases: Tuple[str, ...] = EXIT_PHRASES,
                 new_session_id: Callable[[], str] = lambda: f"voice:{uuid.uuid4()}"):
        self._clock, self.timeouts, self.lines = clock, timeouts, lines
        self.wake_gated, self.exit_phrases = wake_gated, tuple(_norm(p) for p in exit_phrases)
        self._new_session_id = new_session_id
        self.state = VoiceState.STOPPED
        self.session = ""
        self.continuous = False
        self._since = clock()
        self._wait_s = 0.0  # bound of the current RECOGNIZING/THINKING/PLAYING stay
        self._waiting_for = ""  # "wake" | "follow_up" | "continuous": why RECOGNIZING
        self._reprompts_left = 0
        self._speech_since = 0.0  # a visitor is speaking (VAD) since
        self._answer_wait_since: Optional[float] = None  # the reply ended: waiting for an answer since
        self.speakers: List[str] = []  # who has spoken in the session (known speakers only)
        self._turn_running = False
        self.history: List[Tuple[float, str, str, str]] = []

    # --- inputs ------------------------------------------------------------------------------
    def start(self) -> List[Effect]:
        if self.state is VoiceState.STOPPED:
            return self._go(VoiceState.LISTENING, "voice started")
        return []

    def stop(self) -> List[Effect]:
        return self._end_interaction(VoiceState.STOPPED, "voice stopped")

    def wake(self) -> List[Effect]:
        """The wake word (or phrase): a new interaction, whatever was going on."""
        effects: List[Effect] = []
        if self.state is VoiceState.STOPPED:
            return effects
        if self.session and self.state in (VoiceState.LISTENING, VoiceState.RECOGNIZING):
            effects += self._close_session()
        if not self.session:
            effects += self._open_session()
        if self.state in (VoiceState.LISTENING, VoiceState.RECOGNIZING):
            effects += self._recognize("wake", self.timeouts.wake_listen_s, "wake word")
        return effects  # THINKING/PLAYING: a wake word mid-reply is just speech

    def speech(self, speaking: bool) -> List[Effect]:
        """VAD onset (True) / offset (False)."""
        now = self._clock()
        self._speech_since = now if speaking else 0.0
        if speaking and self.state is VoiceState.LISTENING and not self.wake_gated:
            return self._open_session() + self._recognize("wake", self.timeouts.wake_listen_s, "speech")
        return []

    def transcript(self, text: str, speaker: str = "") -> List[Effect]:
        """A final transcript the agent accepted as a request (not a backchannel); `speaker`:
        who said it ("" = unknown)."""
        effects: List[Effect] = []
        if self.state is VoiceState.LISTENING:  # the ASR's gate let it through: an interaction
            effects = self._open_session() + self._recognize("wake", self.timeouts.wake_listen_s, "words")
        elif self._taken_over_by(speaker):
            log.info("voice: %s takes over after %.1f s without an answer: a new session", speaker,
                     self._clock() - self._answer_wait_since)
            effects = self._close_session() + self._open_session()
        if speaker and speaker not in self.speakers:
            self.speakers.append(speaker)
        if self.state is VoiceState.RECOGNIZING:
            if self.continuous and self._is_exit(text):
                effects = [Say(self.lines.goodbye)] if self.lines.goodbye else []
                return effects + self._end_interaction(VoiceState.LISTENING, f"exit phrase {text!r}")
            self._speech_since = 0.0
            return effects + self._go(VoiceState.THINKING, "the visitor spoke", self.timeouts.thinking_s)
        if self.state is VoiceState.PLAYING:  # barge-in or steering: the turn takes it in
            return self._go(VoiceState.THINKING, "the visitor spoke over the reply", self.timeouts.thinking_s)
        if self.state is VoiceState.THINKING:
            self._since = self._clock()  # steering: the turn goes on, with more to think about
        return []

    def turn_started(self) -> List[Effect]:
        self._turn_running, self._waiting_for = True, ""
        if self.state in (VoiceState.RECOGNIZING, VoiceState.LISTENING) and self.session:
            return self._go(VoiceState.THINKING, "a turn started", self.timeouts.thinking_s)
        return []

    def audio(self, playing: bool) -> List[Effect]:
        """The speaker started (True) or ended (False) an utterance."""
        if playing and self.state in (VoiceState.THINKING, VoiceState.RECOGNIZING) and self.session:
            return self._go(VoiceState.PLAYING, "the robot speaks", self.timeouts.playing_s)
        if not playing and self.state is VoiceState.PLAYING and self._turn_running:
            return self._go(VoiceState.THINKING, "the reply paused, the turn goes on", self.timeouts.thinking_s)
        if not playing and self.state is VoiceState.PLAYING and self._waiting_for:
            # a re-prompt (no turn) ended: wait for the answer again, timer restarted
            wait = self.timeouts.follow_up_s if self._waiting_for == "follow_up" else \
                self.timeouts.continuous_silence_s if self._waiting_for == "continuous" else self.timeouts.wake_listen_s
            return self._go(VoiceState.RECOGNIZING, "the re-prompt ended", wait)
        return []

    def turn_finished(self, state: DialogueState, interrupted: bool = False) -> List[Effect]:
        """The turn ended with this (already validated) dialogue_state."""
        self._turn_running = False
        if self.state not in (VoiceState.THINKING, VoiceState.PLAYING) or not self.session:
            return []
        if interrupted:  # the visitor's words start the next turn: keep listening to them
            return self._recognize("follow_up", self.timeouts.follow_up_s, "turn interrupted")
        if state is DialogueState.END:
            self.continuous = False
            return self._end_interaction(VoiceState.LISTENING, "dialogue_state end")
        if state is DialogueState.CONTINUOUS:
            self.continuous = True
        if self.continuous and state is not DialogueState.FOLLOW_UP:
            return self._recognize("continuous", self.timeouts.continuous_silence_s, "dialogue_state continuous")
        self._reprompts_left = self.timeouts.reprompts
        return self._recognize("follow_up", self.timeouts.follow_up_s, "dialogue_state follow_up")

    def recognition_failed(self) -> List[Effect]:
        """The ASR failed on the visitor's speech: in RECOGNIZING (they were answering or
        starting) the fallback line and LISTENING; in THINKING/PLAYING the running turn goes on
        (that speech could only have steered it)."""
        if self.state is not VoiceState.RECOGNIZING:
            return []
        self._speech_since = 0.0
        return self.failure("asr")

    def failure(self, what: str, turn_over: bool = False) -> List[Effect]:
        """ASR, LLM or TTS failed: abort the running turn (unless `turn_over`), say the fallback
        line (not after a TTS failure), LISTENING."""
        if self.state in (VoiceState.STOPPED, VoiceState.LISTENING):
            return []
        effects = [AbortTurn(what)] if self._turn_running and not turn_over else []
        if what != "tts" and self.lines.fallback:
            effects.append(Say(self.lines.fallback))
        self._turn_running = False
        return effects + self._end_interaction(VoiceState.LISTENING, f"{what} failed")

    def tick(self) -> List[Effect]:
        """Time passing: apply the timeouts."""
        now = self._clock()
        if self.state not in (VoiceState.RECOGNIZING, VoiceState.THINKING, VoiceState.PLAYING):
            return []
        waited = now - self._since
        if self.state is VoiceState.RECOGNIZING and self._speech_since:
            if now - self._speech_since < self.timeouts.max_utterance_s:
                return []  # the visitor is talking: their words are on the way
        if waited < self._wait_s:
            return []
        if self.state is VoiceState.RECOGNIZING:
            if self._waiting_for == "follow_up" and self._reprompts_left > 0:
                self._reprompts_left -= 1
                self._since = now
                return [Say(self.lines.reprompt)] + self._note("re-prompt: no answer yet")
            return self._end_interaction(VoiceState.LISTENING, f"no words for {waited:.1f} s")
        if self.state is VoiceState.THINKING:
            return self.failure(f"thinking ({waited:.0f} s without a reply)")
        self._turn_running = False
        return self._end_interaction(VoiceState.LISTENING, f"playing for {waited:.0f} s")

    # --- internals -----------------------------------------------------------------------------
    def _taken_over_by(self, speaker: str) -> bool:
        """Another visitor speaks once the robot has waited follow_up_s for an answer."""
        return bool(self.state is VoiceState.RECOGNIZING and self._waiting_for in ("follow_up", "continuous")
                    and speaker and self.speakers and speaker not in self.speakers
                    and self._answer_wait_since is not None
                    and self._clock() - self._answer_wait_since >= self.timeouts.follow_up_s)

    def _is_exit(self, text: str) -> bool:
        said = _norm(text)
        return any(said == p or said.startswith(p + " ") or said.endswith(" " + p) for p in self.exit_phrases)

    def _recognize(self, why: str, wait_s: float, reason: str) -> List[Effect]:
        self._waiting_for = why
        self._answer_wait_since = self._clock() if why in ("follow_up", "continuous") else None
        return self._go(VoiceState.RECOGNIZING, reason, wait_s)

    def _open_session(self) -> List[Effect]:
        self.session = self._new_session_id()
        self.continuous, self.speakers = False, []
        return [OpenSession(self.session)]

    def _close_session(self) -> List[Effect]:
        closed, self.session, self.continuous, self.speakers = self.session, "", False, []
        return [CloseSession(closed)] if closed else []

    def _end_interaction(self, to: VoiceState, why: str) -> List[Effect]:
        if self.state is to and not self.session:
            return []
        self._speech_since = 0.0
        return self._close_session() + self._go(to, why)

    def _go(self, to: VoiceState, why: str, wait_s: float = 0.0) -> List[Effect]:
        frm, self.state = self.state, to
        self._since, self._wait_s = self._clock(), wait_s
        self.history.append((self._since, frm.value, to.value, why))
        log.info("voice: %s -> %s (%s)", frm.value, to.value, why)
        return [StateChanged(to)]

    def _note(self, why: str) -> List[Effect]:
        self.history.append((self._clock(), self.state.value, self.state.value, why))
        log.info("voice: %s (%s)", self.state.value, why)
        return []


def _norm(text: str) -> str:
    return " ".join("".join(ch.lower() if ch.isalnum() or ch in "' " else " " for ch in text).split())
