"""The `agent` node: translates ROS messages to and from the agent core. No mechanism here.

In:  phanthy/events (Event, from the collector), phanthy/tools (ToolManifest),
     phanthy/robot_status (RobotStatus), /phanthy/peers (PeerAnnounce).
Out: phanthy/agent_state (AgentState), phanthy/turns (TurnRecord), phanthy/agent_events
     (AgentEvent), and Tool goals to the drivers.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import logging
import socket
import sqlite3
import threading
import time

from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

from phanthy.msg import (AgentEvent, AgentState, ChatMessage, Event as EventMsg, FloorRequest, PeerAnnounce, Playback,
                         RobotStatus, ToolManifest, Transcript, TurnRecord, TurnTiming, VoiceActivity,
                         WakeWord)

from phanthy_common.convert import clean_text, from_time
from phanthy_common.health import ERROR, OK, WARN, Status
from phanthy_common.lifecycle import ManagedNode
from phanthy_common.interruption import InterruptionPolicy
from phanthy_common.params import Params, resolve_config
from phanthy_common.peers import PeerDirectory
from phanthy_common.qos import LATCHED

from ..brains.factory import BrainSettings, make_brain
from ..conversation.history_store import HistoryStore
from ..conversation.voice_machine import EXIT_PHRASES, VoiceLines, VoiceTimeouts
from ..core.agent import AgentConfig, AgentCore
from ..core.context import DEFAULT_IDENTITY, ContextBuilder
from ..core import prepared
from ..core.events import InterruptMode, SteerFrom
from ..core.skills import SkillLibrary
from ..core.tools import INTERRUPT_HOOKS
from . import convert
from .tool_client import RosToolExecutor

log = logging.getLogger(__name__)

RELIABLE = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
MANIFESTS = QoSProfile(depth=16, reliability=ReliabilityPolicy.RELIABLE,
                       durability=DurabilityPolicy.TRANSIENT_LOCAL)


def _read(path: str, what: str) -> str:
    resolved = resolve_config(path)
    if resolved is None:
        return ""
    try:
        return resolved.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read {what} {path!r}: {exc}") from None


class AgentNode(ManagedNode):
    """Configured at construction (its brain, history and skills load then); lifecycle state and
    /diagnostics: the brain's failures, the inbox, each driver's reachability."""

    def __init__(self, **kwargs):
        super().__init__("agent", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        config = AgentConfig(
            interrupt_mode=InterruptMode.parse(p.get("agent.interrupt_mode", "steer",
                                                     "steer | interrupt | queue"), InterruptMode.STEER),
            interruption=agent_interruption(p),
            speaker_verdict_s=p.get("agent.speaker_verdict_s", 1.5,
                                    "words dropped while speaking are taken if the speaker stops for them this soon"),
            max_steps=p.get("agent.max_steps", 8, "model steps per turn"),
            turn_timeout_s=p.get("agent.turn_timeout_s", 300.0, "hard limit of one turn"),
            speak_tool=p.get("agent.speak_tool", "speak", "the tool that says reply text"),
            max_spoken_chars=p.get("agent.max_spoken_chars", 1000,
                                   "bound on one reply's text (about a minute of speech)"),
            stream_speech=p.get("agent.stream_speech", True,
                                "say a reply's first sentences while the model still writes the rest"),
            interrupt_hooks=tuple(p.get("agent.interrupt_hooks", list(INTERRUPT_HOOKS),
                                        "hooks fired (with on_interrupt_all) on every interrupt")),
            report_failures=p.get("agent.report_failures", True,
                                  "a failed action gives the model one more step to react"),
            cancel_confirm_timeout_s=p.get("agent.cancel_confirm_timeout_s", 2.0,
                                           "wait this long for drivers to confirm a cancel"),
            session=p.get("agent.session", "main", "conversation session name"),
            history_turns=p.get("agent.history_turns", 12, "turns kept in history"),
            history_chars=p.get("agent.history_chars", 24000, "history size bound"),
            transcript_grace_s=p.get("agent.transcript_grace_s", 2.0,
                                     "after a visitor stops speaking, wait this long for their words"),
            words_due_max_s=p.get("agent.words_due_max_s", 15.0, "bound on waiting for a speaking visitor"),
            speech_role=p.get("agent.speech_role", "visitor", "role of spoken requests (visitor | operator | admin)"),
            default_role=p.get("agent.default_role", "operator", "role of events that name none (inbox, scheduler)"),
            keep_voice_history=p.get("agent.keep_voice_history", False, "keep ended voice sessions on disk"),
            steer_from=SteerFrom.parse(p.get("agent.steer_from", SteerFrom.SAME_SPEAKER.value,
                                        "whose words steer a running turn: same_speaker | anyone")),
            speaker_roles={name: str(role) for name, role in p.nested("roles.speakers").items()},
            voice=p.get("agent.voice.enabled", False, "a microphone feeds this agent: run the voice state machine"),
            wake_gated=p.get("agent.voice.wake_gated", True, "interactions start with the wake word (else any speech)"),
            voice_timeouts=VoiceTimeouts(
                wake_listen_s=p.get("agent.voice.wake_listen_s", 8.0, "after a wake word, wait this long for words"),
                follow_up_s=p.get("agent.voice.follow_up_s", 8.0, "wait this long for the answer to a question"),
                continuous_silence_s=p.get("agent.voice.continuous_silence_s", 20.0,
                                           "continuous mode ends after this much silence"),
                max_utterance_s=p.get("agent.voice.max_utterance_s", 30.0, "bound on one utterance"),
                thinking_s=p.get("agent.voice.thinking_s", 30.0, "a voice turn without audio is aborted after this"),
                playing_s=p.get("agent.voice.playing_s", 120.0, "bound on one spoken reply"),
                reprompts=p.get("agent.voice.reprompts", 1, "re-prompts after an unanswered question")),
            voice_lines=VoiceLines(
                reprompt=p.get("agent.voice.reprompt", VoiceLines.reprompt, "said when a question goes unanswered"),
                fallback=p.get("agent.voice.fallback", VoiceLines.fallback, "said after a failure"),
                goodbye=p.get("agent.voice.goodbye", "", "said when continuous mode ends by an exit phrase")),
            exit_phrases=tuple(p.get("agent.voice.exit_phrases", list(EXIT_PHRASES),
                                     "phrases that end continuous mode")))
        identity = p.get("agent.identity", "", "system prompt text (overrides identity_file)")
        identity_file = p.get("agent.identity_file", "", "file with the system prompt")
        environment_file = p.get("agent.environment_file", "museum.md", "static environment description")
        settings = BrainSettings(
            brain=p.get("agent.brain", "offline", "openai | offline | scripted"),
            fallback=p.get("agent.fallback_brain", "offline", "brain used when openai is unreachable ('' = none)"),
            speak_tool=config.speak_tool,
            base_url=p.get("llm.base_url", "http://127.0.0.1:8080/v1", "OpenAI-compatible endpoint"),
            model=p.get("llm.model", "default", "model name"),
            api_key_env=p.get("llm.api_key_env", "OPENAI_API_KEY", "environment variable holding the key"),
            timeout_s=p.get("llm.timeout_s", 20.0, "per-request timeout"),
            temperature=p.get("llm.temperature", 0.3, "sampling temperature"),
            max_retries=p.get("llm.max_retries", 2, "retries on connection errors and 5xx"),
            intents_file=str(resolve_config(p.get("offline.intents_file", "offline_intents.yaml", "intent rules"))),
            faq_file=str(resolve_config(p.get("offline.faq_file", "faq.yaml", "FAQ entries"))),
            embeddings=p.get("offline.embeddings", True, "understand by meaning (the bundled sentence "
                             "encoder); false: by words only"),
            scripted_file=str(resolve_config(p.get("scripted.file", "", "replies for agent.brain=scripted")) or ""),
            scripted_record=p.get("scripted.record", "", "append each scripted request here (JSON lines)"))
        hook_timeout = p.get("tools.hook_timeout_s", 1.0, "bound on each hook goal")
        server_wait = p.get("tools.server_wait_s", 2.0, "how long to wait for a driver's action server")
        accept_timeout = p.get("tools.accept_timeout_s", 5.0, "how long a driver may take to accept a goal")
        playback_topic = p.get("agent.playback_topic", "speaker/playback",
                               "the speaker's Playback topic (what was heard, first audio)")
        skills_dirs = p.get("agent.skills_dirs", ["skills"], "directories of <name>/SKILL.md skills ('' = none)")
        progressive = p.get("agent.skills_progressive", True,
                            "list skills by name and load them with load_skill (false: inline every skill)")
        history_db = p.get("agent.history_db", "", "SQLite file of the session histories ('' = memory only)")
        keep_turns = p.get("agent.history_keep_turns", 200, "turns kept on disk per session")
        self.self_id = p.get("peers.self_id", socket.gethostname(),
                             "this robot's peer id, as the peers driver's peer_id (its own announcements are ignored)")
        p.warn_unknown()

        skills = SkillLibrary.from_dirs([str(resolve_config(d)) for d in skills_dirs if d])
        context = ContextBuilder(
            identity=identity or (_read(identity_file, "agent.identity_file") if identity_file else DEFAULT_IDENTITY),
            environment=_read(environment_file, "agent.environment_file") if environment_file else "",
            skills=skills, progressive_skills=progressive)
        brain = make_brain(settings)

        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="agent-core", daemon=True)
        self.executor_bridge = RosToolExecutor(self, self._loop, server_wait, accept_timeout, hook_timeout)
        clock = lambda: self.get_clock().now().nanoseconds * 1e-9  # noqa: E731
        store = None
        if history_db:
            try:
                store = HistoryStore(history_db, keep_turns, clock=time.time)
            except (OSError, sqlite3.Error) as exc:
                self.get_logger().error(f"agent.history_db {history_db!r} unusable ({exc}): "
                                        f"histories are kept in memory only")
        self.core = AgentCore(brain, self.executor_bridge, clock, config, context, sink=self, wall_clock=clock,
                              store=store)
        self.peers = PeerDirectory(clock, self.self_id)

        self._state_pub = self.create_publisher(AgentState, "phanthy/agent_state", LATCHED)
        self._turn_pub = self.create_publisher(TurnRecord, "phanthy/turns", RELIABLE)
        self._chat_pub = self.create_publisher(ChatMessage, "channels/out", RELIABLE)
        self._timing_pub = self.create_publisher(TurnTiming, "phanthy/turn_timing", RELIABLE)
        self._event_pub = self.create_publisher(AgentEvent, "phanthy/agent_events", RELIABLE)
        self.create_subscription(EventMsg, "phanthy/events", self._on_event, RELIABLE)
        self.create_subscription(ToolManifest, "phanthy/tools", self._on_manifest, MANIFESTS)
        self.create_subscription(RobotStatus, "phanthy/robot_status", self._on_robot_status, LATCHED)
        self.create_subscription(PeerAnnounce, "/phanthy/peers", self._on_peer, RELIABLE)
        self.create_subscription(Playback, playback_topic, self._on_playback, RELIABLE)
        self.create_subscription(VoiceActivity, "voice/activity", self._on_voice_activity, RELIABLE)
        self.create_subscription(WakeWord, "voice/wake", self._on_wake, RELIABLE)
        self.create_subscription(FloorRequest, "phanthy/floor_requests", self._on_floor_request, RELIABLE)
        # only the recognizer's failures: the words themselves come through the collector
        self.create_subscription(Transcript, "voice/transcript", self._on_transcript, RELIABLE)
        self.create_timer(1.0, self._expire_peers)

        self._thread.start()
        self._run = asyncio.run_coroutine_threadsafe(self.core.run(), self._loop)
        self.get_logger().info(f"agent ready: brain={settings.brain} interrupt_mode={config.interrupt_mode.value}")

    # --- in --------------------------------------------------------------------------------
    def _on_event(self, msg: EventMsg) -> None:
        event = convert.event_from_msg(msg)
        self._loop.call_soon_threadsafe(self.core.submit, event)

    def _on_manifest(self, msg: ToolManifest) -> None:
        self._loop.call_soon_threadsafe(self.core.update_manifest, msg.driver, msg.tools_json)

    def _on_voice_activity(self, msg: VoiceActivity) -> None:
        if msg.event in ("onset", "resume", "offset", ""):
            self._loop.call_soon_threadsafe(self.core.voice_activity, bool(msg.speaking))

    def _on_floor_request(self, msg: FloorRequest) -> None:
        """Group conversations: the proactive node's prepared turns (core/prepared.py)."""
        self._loop.call_soon_threadsafe(prepared.handle, self.core, prepared.FloorCommand(
            msg.id[:64], msg.command, clean_text(msg.trigger_source)[:64] or "proactive",
            clean_text(msg.input)[:1000], clean_text(msg.text)[:4000], from_time(msg.header.stamp)))

    def _on_transcript(self, msg: Transcript) -> None:
        if msg.error:
            self._loop.call_soon_threadsafe(self.core.recognition_failed, clean_text(msg.error)[:200])

    def _on_wake(self, msg: WakeWord) -> None:
        self._loop.call_soon_threadsafe(self.core.wake, msg.keyword)

    def _on_playback(self, msg: Playback) -> None:
        self._loop.call_soon_threadsafe(self.core.playback, msg.utterance_id, msg.state, msg.heard_text,
                                        from_time(msg.header.stamp))

    def _on_robot_status(self, msg: RobotStatus) -> None:
        lines = tuple(clean_text(line)[:200] for line in msg.lines[:32])
        self._loop.call_soon_threadsafe(setattr, self.core, "robot_status", lines)

    def _on_peer(self, msg: PeerAnnounce) -> None:
        if self.peers.announce(msg.peer_id, msg.description, msg.ttl_s):
            log.info("peer %s appeared", msg.peer_id)
        self._publish_peers()

    def _expire_peers(self) -> None:
        for peer_id in self.peers.expire():
            log.info("peer %s is gone", peer_id)
        self._publish_peers()

    def _publish_peers(self) -> None:
        self._loop.call_soon_threadsafe(setattr, self.core, "peers", tuple(self.peers.peers()))

    # --- out (AgentSink; called on the core's loop) -----------------------------------------
    def _now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def state(self, status) -> None:
        self._state_pub.publish(convert.status_to_msg(status, self._now()))

    def turn(self, result) -> None:
        self._turn_pub.publish(convert.turn_to_msg(result, self._now()))
        answer = result.reply or result.written or result.error  # as heard, else as written
        reply = convert.chat_reply(result.session, answer, self._now())
        if reply is not None:  # a text channel's conversation: the reply goes back to it
            self._chat_pub.publish(reply)
        if result.t_speech_end:  # a voice turn: where its time went
            self._timing_pub.publish(convert.turn_timing_msg(result, self._now()))
        log.info("turn %s %s in %.2f s: %r", result.turn_id, result.end_reason,
                 result.t_end - result.t_trigger, result.reply[:80])

    def event(self, kind, turn_id, tool, action_id, status, text) -> None:
        self._event_pub.publish(convert.agent_event_to_msg(self._now(), kind, turn_id, tool,
                                                           action_id, status, text))

    # --- health ------------------------------------------------------------------------------
    def _core_health(self) -> dict:
        core = self.core
        return {"brain": core.last_brain, "waiting": len(core.inbox), "turns": core.turns_done,
                "drivers": {d: (core.registry.tool_names(d) or [""])[0] for d in core.registry.drivers()}}

    def diagnostics(self):
        try:
            core = self.call_in_core(self._core_health, timeout=1.0)
        except Exception as exc:  # the core loop is stuck: that is the news
            return [Status.of("core", ERROR, f"the agent core does not answer: {type(exc).__name__}")]
        brain = self.core.brain
        failures, last_error = getattr(brain, "failures", 0), getattr(brain, "last_error", "")
        statuses = [
            Status.of("brain", WARN if failures else OK,
                      f"{core['brain']}: {failures} LLM failure(s)" + (f", last: {last_error}" if failures else ""),
                      brain=core["brain"], llm_failures=failures, last_error=last_error,
                      turns=core["turns"]),
            Status.of("inbox", OK, f"{core['waiting']} event(s) waiting", queue_depth=core["waiting"])]
        for driver, tool in sorted(core["drivers"].items()):
            up = bool(tool) and self.executor_bridge.reachable(driver, tool)
            failure = self.executor_bridge.start_failures.get(driver, "")
            statuses.append(Status.of(f"driver {driver}", OK if up and not failure else ERROR,
                                      ("reachable" if up else "not reachable: no action server")
                                      + (f"; last call failed to start: {failure}" if failure else ""),
                                      reachable=up, last_start_error=failure))
        return statuses

    # --- lifecycle -------------------------------------------------------------------------
    def call_in_core(self, fn, *args, timeout: float = 5.0):
        """Run fn(*args) on the core's loop and return its result (for tests and tools)."""
        future: concurrent.futures.Future = concurrent.futures.Future()

        def run() -> None:
            try:
                future.set_result(fn(*args))
            except Exception as exc:
                future.set_exception(exc)
        self._loop.call_soon_threadsafe(run)
        return future.result(timeout)

    async def _wind_down(self) -> None:
        """Close the brain and end what is still pending (hook goals in flight)."""
        await self.core.brain.close()
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    def close(self) -> None:
        """Stop the core: the running turn is cancelled (hooks fire, actions are cancelled)."""
        if not self._loop.is_running():
            return
        self._loop.call_soon_threadsafe(self.core.stop)
        try:
            self._run.result(timeout=self.core.config.cancel_confirm_timeout_s + 2.0)
        except Exception:
            log.debug("agent core did not stop cleanly", exc_info=True)
        try:
            asyncio.run_coroutine_threadsafe(self._wind_down(), self._loop).result(timeout=3.0)
        except Exception:
            log.debug("agent wind-down failed", exc_info=True)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=2.0)
        if self.core.sessions.store is not None:
            self.core.sessions.store.close()


def agent_interruption(p: Params) -> InterruptionPolicy:
    """`interruption.*`, with the contract's `agent.barge_in_threshold_ms` as the agent's alias
    of `interruption.min_speech_ms` (the speaker reads only the latter: set that one)."""
    policy = p.interruption()
    alias = p.get("agent.barge_in_threshold_ms", -1,
                  "alias of interruption.min_speech_ms for the agent only (-1 = that value)")
    if alias >= 0 and alias != policy.min_speech_ms:
        log.warning("agent.barge_in_threshold_ms %d differs from interruption.min_speech_ms %d, which the "
                    "speaker uses: set interruption.min_speech_ms (under /**) to change both", alias,
                    policy.min_speech_ms)
        policy = dataclasses.replace(policy, min_speech_ms=alias)
    return policy
