"""The agent core: events in, turns out. Owns the inbox, the action tracker, the tool registry,
hooks, context and history, and runs one turn at a time on an asyncio loop.

Threading: every method runs on the core's event loop; the ROS node hands messages over with
loop.call_soon_threadsafe. Time: `clock` (injected) stamps everything; waits use the loop's
timers, so tests drive the whole core on a virtual-time loop.

Its parts: the configuration (agent_config.py), the state it publishes (agent_status.py), whether
a visitor's words are on their way (words_due.py), the speaker's verdict on words said over the
robot (speaker_verdict.py), the voice side (voice_conversation.py), a turn (turn.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import uuid
from typing import Callable, List, Optional, Protocol, Sequence, Set, Tuple

from ..brains.base import Brain
from ..conversation.history_store import HistoryStore
from ..conversation.sessions import Sessions, is_voice
from ..conversation.voice_machine import VoiceMachine
from .action_tracker import ActionTracker, TrackedAction
from .agent_config import AgentConfig, check_roles
from .agent_status import AgentStatus, StatusPublisher, state_of
from .context import ContextBuilder, ConversationHistory, StatusSnapshot
from .events import Event
from .executor import ToolExecutor
from .hooks import HookDispatcher
from .inbox import Decision, Inbox, InboxConfig, Routing
from .speaker_verdict import SpeakerVerdict
from .tools import LOAD_SKILL, RegisteredTool, ToolRegistry
from .turn import TurnRunner
from .turn_host import TurnResult
from .voice_conversation import VoiceConversation
from .words_due import WordsDue

log = logging.getLogger(__name__)


@dataclasses.dataclass(eq=False)
class TurnHandle:
    """The running turn as the core holds it (in the spirit of LiveKit's SpeechHandle): its id,
    its task, why it is being cancelled, and one way to cancel it."""

    turn_id: str
    runner: Optional[TurnRunner] = None
    task: Optional[asyncio.Future] = None
    cancel_reason: str = ""

    def cancel(self, reason: str) -> bool:
        if self.cancel_reason or self.task is None:
            return False
        self.cancel_reason = reason
        self.task.cancel()
        return True


class AgentSink(Protocol):
    def state(self, status: AgentStatus) -> None: ...
    def turn(self, result: TurnResult) -> None: ...
    def event(self, kind: str, turn_id: str, tool: str, action_id: str, status: str, text: str) -> None: ...


class NullSink:
    def state(self, status): pass
    def turn(self, result): pass
    def event(self, kind, turn_id, tool, action_id, status, text): pass


class AgentCore:
    def __init__(self, brain: Brain, executor: ToolExecutor, clock: Callable[[], float],
                 config: AgentConfig = AgentConfig(), context: Optional[ContextBuilder] = None,
                 sink: Optional[AgentSink] = None,
                 wall_clock: Optional[Callable[[], float]] = None, store: Optional[HistoryStore] = None):
        self.brain, self.executor, self.clock, self.config = brain, executor, clock, config
        check_roles(config)
        self.wall_clock = wall_clock or clock
        self.sink = sink or NullSink()
        self.context = context or ContextBuilder()
        self.registry = ToolRegistry(config.speak_tool)
        if self.context.skills and self.context.progressive_skills:
            self.registry.add_builtin(LOAD_SKILL)
        self.sessions = Sessions(config.session, lambda: ConversationHistory(config.history_turns,
                                                                              config.history_chars),
                                 store=store, keep_voice=config.keep_voice_history)
        self.history = self.sessions.history(config.session)
        self.voice = VoiceMachine(clock, config.voice_timeouts, config.voice_lines,
                                  wake_gated=config.wake_gated, exit_phrases=config.exit_phrases)
        self.conversation = VoiceConversation(self)
        self.tracker = ActionTracker(clock, on_change=self._on_action_change)
        self.inbox = Inbox(InboxConfig(config.interrupt_mode, config.interruption, steer_from=config.steer_from),
                           on_change=self._signal_change,
                           session_of=lambda event: self.sessions.key_for(event, self.voice.session))
        self.hooks = HookDispatcher(self.registry, executor.fire_hook)
        self.session = config.session
        self.last_brain = getattr(brain, "name", "")
        self.robot_status: Sequence[str] = ()
        self.peers: Sequence[Tuple[str, str]] = ()
        self.turns_done = 0
        self._turn: Optional[TurnHandle] = None  # the running turn
        self._starts: List[Event] = []  # events that start the next turn (idle or interrupt)
        self._stopped_before_start: Set[str] = set()  # ids of queued prepared turns already stopped
        self._busy = False
        self._words_due = WordsDue(clock, config.transcript_grace_s, config.words_due_max_s)
        self._changed = asyncio.Event()
        self._stopping = False
        self._status = StatusPublisher(self.sink.state, self.hooks.fire)
        self._verdict = SpeakerVerdict(clock, config.speaker_verdict_s)
        executor.bind(self._on_done, self._on_feedback)

    # --- input -----------------------------------------------------------------------------
    def submit(self, event: Event) -> Routing:
        """Route one P>0 event (call on the core's loop)."""
        if event.priority <= 0:
            log.error("priority-0 event from %s reached the agent; ignoring it", event.source)
            return Routing(Decision.DROP, "priority 0")
        if event.text.strip().lower() == "/new":
            key = self.sessions.key_for(event, self.voice.session)
            self.sessions.reset(key)
            log.info("session %s starts afresh (/new from %s)", key, event.source)
            self.emit("session_reset", self._turn_id(), text=key)
            return Routing(Decision.DROP, "/new: session reset")
        if self._turn is not None and self._turn.cancel_reason:
            routing = self.inbox.decide(event, busy=True, in_flight_texts=self._in_flight(),
                                        turn_session=self._turn_session(), turn_speakers=self._turn_speakers())
            if routing.decision is Decision.INTERRUPT or routing.decision is Decision.START:
                self._starts.append(event)  # a turn is already being cancelled
                return routing
        if event.is_transcript and event.is_final and self._words_due.arrived():
            self._signal_change()  # the words arrived (whatever becomes of them): the waits look again
        routing = self.inbox.submit(event, busy=self._busy, in_flight_texts=self._in_flight(),
                                    speaking=self.current_state() == "speaking",
                                    turn_session=self._turn_session(),
                                    speaker_yielded=self._verdict.yielded(),
                                    turn_speakers=self._turn_speakers())
        text = f"{routing.reason} | {event.text[:200]}" if routing.reason else event.text[:200]
        if routing.decision is Decision.DROP:
            log.info("dropped event from %s: %s", event.source, routing.reason)
            if routing.awaits_speaker:  # unless the speaker stops for these words (its verdict)
                self._verdict.await_verdict(event)
        for old in routing.superseded:
            self.emit("dropped", self._turn_id(), text=f"superseded by a newer transcript | {old.text[:200]}")
        if routing.decision is Decision.START:
            self._busy = True
            self._starts.append(event)
            self._signal_change()
        elif routing.decision is Decision.INTERRUPT:
            self._starts.append(event)
            self.cancel_turn("interrupted")
        if routing.decision is not Decision.DROP and self.config.voice and is_voice(event):
            self.conversation.apply(self.voice.transcript(event.text, event.speaker))
        self.emit({Decision.START: "accepted", Decision.STEER: "steering", Decision.QUEUE: "queued",
                   Decision.INTERRUPT: "interrupting", Decision.DROP: "dropped"}[routing.decision],
                  self._turn_id(), text=text)
        return routing

    def start_prepared(self, event: Event) -> str:
        """A turn whose words another node prepared (`event.prepared_reply`; group conversations).
        It starts only when nothing runs or waits: an intervention never talks over a reply.
        Returns "" when started, else why not."""
        if self._busy or self._turn is not None or self._starts or len(self.inbox) or self.tracker.outstanding():
            return "busy: the robot is answering or speaking"
        self._busy = True
        self._starts.append(event)
        self._signal_change()
        return ""

    def stop_turn(self, turn_id: str) -> bool:
        """End the turn with this id now (a visitor speaks over a prepared turn): interrupted.
        A turn still queued to begin (its say and this stop reached the loop together) begins
        already stopped: it ends interrupted with nothing said."""
        if self._turn is not None and self._turn.turn_id == turn_id:
            self.cancel_turn("interrupted")
            return True
        if any(e.turn_id == turn_id for e in self._starts):
            self._stopped_before_start.add(turn_id)
            return True
        return False

    def voice_activity(self, speaking: bool) -> None:
        """VAD onset or resume (True) / offset (False): while a visitor speaks, and briefly
        after, their words are on their way; acting tools and `finish` wait for them (bounded)
        instead of acting past them."""
        if speaking and not self._words_due.visitor_speaking:
            self.hooks.fire("on_hearing")  # the face can show it is listening
        self.conversation.apply(self.voice.speech(speaking))
        self._words_due.speech(speaking)
        self._signal_change()

    def wake(self, keyword: str) -> None:
        """A wake word or phrase was heard (voice/wake)."""
        log.info("wake: %s", keyword)
        self.hooks.fire("on_wake")
        self.conversation.apply(self.voice.wake())

    def recognition_failed(self, error: str) -> None:
        """The ASR failed on what a visitor said (voice/transcript with `error`)."""
        log.error("speech recognition failed: %s", error)
        self._words_due.none_coming()
        self.conversation.apply(self.voice.recognition_failed())

    def words_due_until(self) -> float:
        """Until when a visitor's words are due (they are speaking, or just stopped), 0.0 when none are."""
        return self._words_due.until()

    def update_manifest(self, driver: str, tools_json: str) -> List[str]:
        errors = self.registry.update_manifest(driver, tools_json)
        for error in errors:
            log.error("%s", error)
        return errors

    # --- the loop --------------------------------------------------------------------------
    async def run(self) -> None:
        """Run turns until stop(). One turn at a time."""
        ticker = None
        if self.config.voice:
            self.conversation.apply(self.voice.start())
            ticker = asyncio.ensure_future(self.conversation.ticks())
        try:
            await self._turn_loop()
        finally:
            if ticker is not None:
                ticker.cancel()

    async def _turn_loop(self) -> None:
        self.refresh_state()
        while not self._stopping:
            triggers = self._take_triggers()
            if not triggers:
                self._busy = False
                self.refresh_state()
                await self.wait_for_change(None)
                continue
            self._busy = True
            await self._run_turn(triggers)

    def stop(self) -> None:
        self._stopping = True
        self.cancel_turn("cancelled")
        self._signal_change()

    def _take_triggers(self) -> List[Event]:
        if self._starts:
            starts, self._starts = self._starts, []
            return starts
        return self.inbox.take_next_trigger()

    async def _run_turn(self, triggers: Sequence[Event]) -> None:
        self.session = self.sessions.key_for(triggers[0] if triggers else None, self.voice.session)
        self.history = self.sessions.history(self.session)
        voice_turn = bool(self.voice.session) and self.session == self.voice.session
        if voice_turn:
            self.conversation.apply(self.voice.turn_started())
        turn = self._turn = TurnHandle(triggers[0].turn_id if triggers and triggers[0].turn_id
                                       else uuid.uuid4().hex[:12])
        if turn.turn_id in self._stopped_before_start:
            self._stopped_before_start.discard(turn.turn_id)
            turn.cancel_reason = "interrupted"  # the runner says nothing of it
        turn.runner = runner = TurnRunner(self, triggers, turn.turn_id, lambda: turn.cancel_reason)
        turn.task = asyncio.ensure_future(runner.run())
        done, _ = await asyncio.wait({turn.task}, timeout=self.config.turn_timeout_s)
        if not done:
            log.error("turn %s exceeded turn_timeout_s=%.0f", turn.turn_id, self.config.turn_timeout_s)
            turn.cancel("timeout")
        result = await turn.task
        if result.end_reason == "timeout" and not result.error:
            result.error = f"turn_timeout_s ({self.config.turn_timeout_s:.0f} s) exceeded"
        self.sessions.record_turn(self.session, runner.history_messages())
        self._turn = None
        if voice_turn:
            self.conversation.turn_ended(runner, result)
        self.conversation.say_pending_lines()
        self.turns_done += 1
        self.emit("turn_ended", turn.turn_id, status=result.end_reason, text=result.reply[:200])
        self.sink.turn(result)
        self.refresh_state()

    def cancel_turn(self, reason: str) -> None:
        """Cancel the running turn (interrupted, timeout, cancelled); once, the first reason wins."""
        if self._turn is not None:
            self._turn.cancel(reason)

    def turn_running(self) -> bool:
        return self._turn is not None

    # --- helpers for the turn --------------------------------------------------------------
    async def wait_for_change(self, deadline: Optional[float]) -> None:
        """Sleep until something changes (action ended, event arrived) or the deadline."""
        # at least 1 ms: a deadline a float-rounding away would otherwise spin without advancing
        timeout = None if deadline is None else max(0.001, deadline - self.clock())
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except asyncio.TimeoutError:
            pass
        self._changed.clear()

    def _signal_change(self) -> None:
        self._changed.set()

    def emit(self, kind: str, turn_id: str, tool: str = "", action_id: str = "",
             status: str = "", text: str = "") -> None:
        self.sink.event(kind, turn_id, tool, action_id, status, text)

    def note_brain(self, name: str) -> None:
        """The brain that answered the turn's last step (shown in the agent state)."""
        self.last_brain = name or self.last_brain

    def speech_tool(self) -> Optional[RegisteredTool]:
        return self.registry.speech_tool()

    def status(self) -> StatusSnapshot:
        return StatusSnapshot(self.wall_clock(), self.current_state(), tuple(self.robot_status),
                              self.tracker.outstanding(), self.tracker.take_unreported(),
                              tuple(self.peers), self.session)

    def _turn_session(self) -> Optional[str]:
        """The session of the running turn, or of the turn about to start; None when idle."""
        if self._turn is not None:
            return self.session
        if self._starts:
            return self.sessions.key_for(self._starts[0], self.voice.session)
        return None

    def _turn_speakers(self) -> List[str]:
        """Who said the inputs of the running turn (or of the turn about to start)."""
        if self._turn is not None and self._turn.runner is not None:
            return self._turn.runner.speakers
        return [e.speaker for e in self._starts]

    def _in_flight(self) -> List[str]:
        return list(self._turn.runner.inputs) if self._turn is not None else []

    def _turn_id(self) -> str:
        return self._turn.turn_id if self._turn is not None else ""

    # --- state -----------------------------------------------------------------------------
    def current_state(self) -> str:
        runner = self._turn.runner if self._turn is not None else None
        return state_of(runner is not None and runner.thinking, runner is not None or self._busy,
                        self.tracker.outstanding(), self.speech_tool())

    def refresh_state(self) -> None:
        """The facts changed (a turn, an action, speech): tell the voice machine whether the
        robot is audible, then publish the status."""
        if self.config.voice:
            self.conversation.apply(self.voice.audio(self.current_state() == "speaking"))
        self.publish_status()

    def publish_status(self) -> None:
        """Publish the agent's state if it changed (and fire the state's hook)."""
        self._status.publish(AgentStatus(self.current_state(), self.voice.state.value, self.session,
                                         len(self.tracker.outstanding()), self.last_brain or ""))

    # --- executor callbacks ----------------------------------------------------------------
    def _on_done(self, action_id: str, status: str, result_json: str, error: str) -> None:
        self.tracker.complete(action_id, status, result_json, error)

    def _on_feedback(self, action_id: str, progress_json: str) -> None:
        self.tracker.feedback(action_id, progress_json)

    def playback(self, utterance_id: str, state: str, heard_text: str, stamp: float = 0.0) -> None:
        """speaker/playback: progress of the speech action whose goal id is utterance_id
        (`stamp`: the message's, when the speaker reported it)."""
        if utterance_id:
            self.tracker.playback(utterance_id, heard_text, playing=state == "playing", stamp=stamp)

    def _on_action_change(self, action: TrackedAction) -> None:
        for event in self._verdict.taken(action):  # the speaker judged: their words are a request
            log.info("the speaker stopped for %.60r: taking it after all", event.text)
            asyncio.get_running_loop().call_soon(self.submit, event)
        self.emit("action_done", action.turn_id, tool=action.tool, action_id=action.action_id,
                  status=action.status, text=action.error or action.result_json[:200])
        self._signal_change()
        self.refresh_state()

    def role_of(self, event: Event) -> str:
        if event.role:
            return event.role
        if event.speaker in self.config.speaker_roles and is_voice(event):
            return self.config.speaker_roles[event.speaker]  # an enrolled voice, verified by the asr
        return self.config.speech_role if event.is_transcript else self.config.default_role
