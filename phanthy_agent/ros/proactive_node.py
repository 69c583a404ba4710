"""The `proactive` node (group conversations): follows the group against the exhibit's
documents and steps in, with a cited source, when a fact was missed or misstated and nobody
fixed it. Translates messages for the ProactiveCore (phanthy_agent/group/proactive.py).

In:  voice/transcript (every final Transcript; speaker_id tells people apart), voice/activity,
     voice/wake, phanthy/agent_state, phanthy/agent_events, phanthy/turns, audio/in (energy,
     `energy_topic`).
Out: phanthy/interventions (Intervention, on every change), phanthy/floor_requests
     (FloorRequest: the agent says an intervention in a prepared turn), phanthy/group
     (GroupEvent `ended`: the group left, its conversation is forgotten), the evidence page.
Transcripts are judged on a worker thread (an `llm` monitor may take seconds); callbacks only
queue and translate.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time

import numpy as np
from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import (AgentEvent, AgentState, AudioFrame, FloorRequest, GroupEvent, Intervention as InterventionMsg,
                         Transcript, TurnRecord, VoiceActivity, WakeWord)
from phanthy_common.convert import clean_text, from_time, header, to_time
from phanthy_common.health import OK, WARN, Status
from phanthy_common.lifecycle import ManagedNode
from phanthy_common.params import Params
from phanthy_common.qos import LATCHED

from ..group.addressing import AddressDetector
from ..group.documents import DocumentLibrary
from ..group.evidence_page import EvidencePage
from ..group.factory import LlmSettings, build_backbone, document_paths
from ..group.floor import Floor, FloorConfig
from ..group.group_session import GroupEnded, GroupSession
from ..group.ledger import GateConfig
from ..group.proactive import ProactiveCore, Publish, Request

log = logging.getLogger(__name__)
RELIABLE = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
SENSOR = QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)
TICK_S = 0.1


class ProactiveNode(ManagedNode):
    events_executor = True  # it may take the 50 Hz microphone stream (energy): short callbacks only

    def __init__(self, **kwargs):
        super().__init__("proactive", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        documents = p.get("documents", ["exhibits"], "exhibit documents: files, folders or patterns (Markdown, "
                                                      "text, PDF); relative names are looked up in config/")
        gate = GateConfig(
            persistence_turns=p.get("persistence_turns", 2, "ordinary turns a problem must stand before the robot "
                                                            "steps in (the group's chance to fix it)"),
            cooldown_s=p.get("cooldown_s", 20.0, "at least this long between two interventions"),
            usefulness_turns=p.get("usefulness_turns", 6, "an open point older than this many turns is let go"))
        floor = FloorConfig(
            mode=p.get("mode", "speak", "speak (at an opening) | hand_raise (on_hand_raise, speak when given the floor)"),
            opening_silence_s=p.get("opening_silence_s", 1.5, "silence before the robot takes the floor"),
            max_energy_dbfs=p.get("max_energy_dbfs", -45.0, "the room is quiet enough below this (energy_topic)"),
            hand_raise_timeout_s=p.get("hand_raise_timeout_s", 60.0, "a raised hand nobody grants is dropped after"),
            usefulness_s=p.get("usefulness_s", 45.0, "an intervention not said within this is dropped"),
            usefulness_turns=gate.usefulness_turns,
            replay_below=p.get("replay_below", 0.3, "interrupted with less than this share heard: said again"),
            resume_below=p.get("resume_below", 0.8, "less than this share heard: the rest is said; more: done"))
        llm = LlmSettings(
            base_url=p.get("llm.base_url", LlmSettings.base_url, "the llm monitor's OpenAI-compatible endpoint"),
            model=p.get("llm.model", LlmSettings.model, "model name"),
            api_key_env=p.get("llm.api_key_env", LlmSettings.api_key_env, "environment variable with the key"),
            timeout_s=p.get("llm.timeout_s", LlmSettings.timeout_s, "per request"))
        monitor = p.get("monitor", "offline", "offline (no LLM: retrieval + number and name checks) | llm")
        exhibit = p.get("exhibit", "", "the document the robot stands at ('' = inferred from the talk)")
        names = p.get("names", ["robot", "jarvis"], "the robot's names: a turn that calls it is addressed to it")
        wake_phrases = p.get("wake_phrases", ["hey robot", "hey jarvis"], "phrases that address the robot")
        group_ends_after_s = p.get("group_ends_after_s", 120.0, "nobody spoke for this long: the group is over (its "
                                   "conversation forgotten, speaker ids start over); 0 = never")
        direct_source = p.get("direct_source", "speech", "trigger_source of a direct answer's turn")
        energy_topic = p.get("energy_topic", "", "AudioFrame topic for the room's energy ('' = none)")
        web_enabled = p.get("web.enabled", True, "serve the evidence page")
        web_host = p.get("web.host", "127.0.0.1", "evidence page bind address (loopback by default)")
        web_port = p.get("web.port", 8766, "evidence page port (0 = any free port)")
        web_token = p.get("web.token", "", "required on every request when set (needed off loopback)")
        p.warn_unknown()

        library = DocumentLibrary.load(document_paths(documents))
        backbone = build_backbone(library, monitor, gate, exhibit, llm)
        clock = lambda: self.get_clock().now().nanoseconds * 1e-9  # noqa: E731
        self.core = ProactiveCore(backbone, Floor(floor, clock), AddressDetector(names, wake_phrases), clock,
                                  p.interruption(), direct_source, GroupSession(group_ends_after_s))
        self.library = library

        self._interventions = self.create_publisher(InterventionMsg, "phanthy/interventions", RELIABLE)
        self._requests = self.create_publisher(FloorRequest, "phanthy/floor_requests", RELIABLE)
        self._group = self.create_publisher(GroupEvent, "phanthy/group", RELIABLE)
        self.create_subscription(Transcript, "voice/transcript", self._on_transcript, RELIABLE)
        self.create_subscription(VoiceActivity, "voice/activity", self._on_activity, RELIABLE)
        self.create_subscription(WakeWord, "voice/wake", self._on_wake, RELIABLE)
        self.create_subscription(AgentState, "phanthy/agent_state", self._on_state, LATCHED)
        self.create_subscription(AgentEvent, "phanthy/agent_events", self._on_agent_event, RELIABLE)
        self.create_subscription(TurnRecord, "phanthy/turns", self._on_turn, RELIABLE)
        if energy_topic:
            self.create_subscription(AudioFrame, energy_topic, self._on_audio, SENSOR)
        self._work: "queue.Queue" = queue.Queue(maxsize=1000)
        self._tick_waiting = threading.Event()  # one tick in the queue at a time
        self._worker = threading.Thread(target=self._run_work, name="proactive-core", daemon=True)
        self._worker.start()
        self.create_timer(TICK_S, self._on_tick)
        self.page = None
        self._loop = None
        self.port = 0
        if web_enabled:
            self.page = EvidencePage(library, web_host, web_port, web_token)
            self._loop = asyncio.new_event_loop()
            threading.Thread(target=self._loop.run_forever, name="proactive-web", daemon=True).start()
            self.port = asyncio.run_coroutine_threadsafe(self.page.start(), self._loop).result(10.0)
            self.get_logger().info(f"evidence page: http://{web_host}:{self.port}/")
        self.get_logger().info(f"proactive: {len(library)} sentences in {len(library.documents)} documents, "
                               f"monitor={monitor}, mode={floor.mode}")

    def diagnostics(self):
        waiting = self._work.qsize()
        return [Status.of("documents", OK, f"{len(self.library)} sentences in {len(self.library.documents)} documents",
                          sentences=len(self.library), documents=len(self.library.documents)),
                Status.of("queue", WARN if waiting > 100 else OK, f"{waiting} item(s) waiting", queue_depth=waiting)]

    # --- in (executor thread: queue only) -------------------------------------------------------
    def _queue(self, *item) -> None:
        try:
            self._work.put_nowait(item)
        except queue.Full:
            log.error("proactive: %d items waiting; dropping %s", self._work.qsize(), getattr(item[0], "__name__", item))

    def _on_tick(self) -> None:
        if not self._tick_waiting.is_set():
            self._tick_waiting.set()
            self._queue(self._tick)

    def _tick(self):
        self._tick_waiting.clear()
        return self.core.tick()

    def _on_transcript(self, msg: Transcript) -> None:
        if not msg.is_final or msg.error or not msg.text.strip():
            return
        self._queue(self.core.transcript, clean_text(msg.text), msg.speaker_id, from_time(msg.header.stamp) or None,
                    int(msg.audio_duration_ms), float(msg.confidence))

    def _on_activity(self, msg: VoiceActivity) -> None:
        if msg.event in ("onset", "resume", "offset", ""):
            self._queue(self.core.voice_activity, bool(msg.speaking), from_time(msg.header.stamp) or None)

    def _on_wake(self, msg: WakeWord) -> None:
        self._queue(self.core.wake, from_time(msg.header.stamp) or None)

    def _on_state(self, msg: AgentState) -> None:
        self._queue(self.core.agent_state, msg.state == "idle")

    def _on_agent_event(self, msg: AgentEvent) -> None:
        if msg.kind in ("turn_started", "floor_refused"):
            self._queue(self.core.agent_event, msg.kind, msg.turn_id, msg.text)

    def _on_turn(self, msg: TurnRecord) -> None:
        self._queue(self.core.turn_record, msg.turn_id, msg.reply, msg.end_reason, msg.trigger_source)

    def _on_audio(self, msg: AudioFrame) -> None:
        samples = np.asarray(msg.data, dtype=np.float32)
        if samples.size:
            rms = float(np.sqrt(np.mean(samples * samples))) / 32768.0
            self.core.energy(20.0 * np.log10(max(rms, 1e-9)), from_time(msg.header.stamp) or None)

    # --- the worker --------------------------------------------------------------------------------
    def _run_work(self) -> None:
        while True:
            item = self._work.get()
            if item is None:
                return
            try:
                self._emit(item[0](*item[1:]))
            except Exception:  # one bad turn must not stop the group's follower
                log.exception("proactive: %s failed", getattr(item[0], "__name__", item[0]))

    def _emit(self, outputs) -> None:
        now = time.time()
        for out in outputs or ():
            if isinstance(out, Publish):
                item = out.intervention
                self._interventions.publish(InterventionMsg(
                    header=header(now), id=item.id, kind=item.kind, claim=item.claim[:1000], text=item.text,
                    citations=list(item.citations), evidence=list(item.evidence), state=item.state,
                    turns_late=max(0, int(item.turns_late)), reason=item.reason, heard=item.heard))
                if self.page is not None:
                    self.page.show(item)
            elif isinstance(out, GroupEnded):
                self._group.publish(GroupEvent(header=header(now), kind="ended", reason=out.reason,
                                               speakers=list(out.speakers), turns=out.turns,
                                               started=to_time(out.started), last_heard=to_time(out.last_heard)))
            elif isinstance(out, Request):
                self._requests.publish(FloorRequest(header=header(now), id=out.id, command=out.command,
                                                    trigger_source=out.trigger_source, input=out.input[:1000],
                                                    text=out.text))

    def close(self) -> None:
        self._work.put(None)
        self._worker.join(timeout=3.0)
        if self._loop is not None and self._loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(self.page.stop(), self._loop).result(5.0)
            except Exception:
                log.debug("evidence page did not stop cleanly", exc_info=True)
            self._loop.call_soon_threadsafe(self._loop.stop)
