"""What the proactive node does, without ROS: the group's transcripts in; interventions (to
publish) and floor requests (to the agent) out.

Each final transcript is either addressed to the robot (the wake word or its name: a direct
question, answered from the documents in a normal turn, or a floor grant for a raised hand) or
an ordinary turn among people (through the backbone: monitor, guard, ledger, gate). The floor
(floor.py) decides when an intervention is said; the agent says it in a prepared turn
(FloorRequest `say`, TurnRecord back with what was heard) and ends that turn when a visitor
speaks over it (`stop`). The robot's own turns go to the ledger too: what it said, it does not
repeat. A group that has been silent for `GroupSession.end_after_s` is over (group_session.py):
its conversation is forgotten and `GroupEnded` goes out (the node announces it on phanthy/group).
Thread-safe: one lock (the node judges transcripts on a worker thread).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from typing import Callable, List, Optional, Union

from phanthy_common.interruption import InterruptionPolicy

from .addressing import AddressDetector
from .backbone import Backbone, Intervention
from .floor import ANSWER_KINDS, Changed, Floor, LowerHand, RaiseHand, Say, Stop
from .group_session import GroupEnded, GroupSession
from .monitor import Turn
from .utterances import is_question

log = logging.getLogger(__name__)

PROACTIVE_SOURCE = "proactive"  # the trigger_source of the turns that say interventions
UNKNOWN_SPEAKERS = ("", "anonymous_speaker")


@dataclasses.dataclass(frozen=True)
class Request:
    """A FloorRequest for the agent."""
    id: str
    command: str  # say | stop | raise_hand | lower_hand
    trigger_source: str = ""
    input: str = ""
    text: str = ""


@dataclasses.dataclass(frozen=True)
class Publish:
    intervention: Intervention  # a snapshot: publish it on phanthy/interventions


Output = Union[Request, Publish, GroupEnded]


class ProactiveCore:
    def __init__(self, backbone: Backbone, floor: Floor, address: AddressDetector,
                 clock: Callable[[], float], policy: InterruptionPolicy = InterruptionPolicy(),
                 direct_source: str = "speech", group: Optional[GroupSession] = None):
        self.backbone, self.floor, self.address = backbone, floor, address
        self.group = group or GroupSession()
        self.clock = clock
        self.policy = policy
        self.direct_source = direct_source  # the trigger_source of a direct answer's turn
        self.turn_index = 0
        self.current: Optional[Intervention] = None  # the newest intervention (for the page)
        self._lock = threading.RLock()

    # --- in ------------------------------------------------------------------------------------
    def transcript(self, text: str, speaker: str = "", t: Optional[float] = None, duration_ms: int = 0,
                   confidence: float = -1.0) -> List[Output]:
        """A final transcript from voice/transcript (a visitor's words)."""
        text = " ".join(text.split())[:2000]
        if not text:
            return []
        t = self.clock() if t is None else t
        speaker = "" if speaker in UNKNOWN_SPEAKERS else speaker
        with self._lock:
            ended = self._group_over(t)
            self.group.heard(speaker, t)
            return ended + self._transcript(text, speaker, t, duration_ms, confidence)

    def _transcript(self, text: str, speaker: str, t: float, duration_ms: int, confidence: float) -> List[Output]:
        """One visitor's turn (under the lock): addressed to the robot, or among the people."""
        address = self.address.classify(text, t)
        turn = Turn(self.turn_index, speaker, text, t)
        self.turn_index += 1
        if address.addressed:
            self.floor.transcript(t, ordinary=False, request=False)
            if address.grant or (self.floor.hand_raised is not None and not is_question(address.text)):
                return self._out(self.floor.grant())
            if not is_question(address.text):
                log.info("addressed, but not a question: %r (left to the people)", address.text[:80])
                return []
            answer = self.backbone.answer(turn, address.text)
            log.info("direct question %r -> %s %s", address.text[:80], answer.kind, answer.citations)
            return self._out(self.floor.offer(answer))
        self.backbone.hear(turn)
        effects = []
        for waiting in self.floor.queue + ([self.floor.hand_raised] if self.floor.hand_raised else []):
            why = self.backbone.still_needed(waiting, turn)
            if why:
                effects += self.floor.drop(waiting.id, f"a visitor said it: {why}")
        asks = self.policy.judge(text, confidence, duration_ms).is_request
        effects += self.floor.transcript(t, ordinary=True, request=asks)
        return self._out(effects) + self._gate()

    def wake(self, t: Optional[float] = None) -> List[Output]:
        """voice/wake: binds to the next transcript; gives a raised hand the floor at once."""
        with self._lock:
            self.address.wake(self.clock() if t is None else t)
            return self._out(self.floor.grant()) if self.floor.hand_raised is not None else []

    def voice_activity(self, speaking: bool, t: Optional[float] = None) -> None:
        with self._lock:
            self.floor.speech(speaking, t)

    def energy(self, dbfs: float, t: Optional[float] = None) -> None:
        """50 times a second from the microphone: no lock (a deque append), so a turn being
        judged (an llm monitor's seconds) never holds up the audio callback."""
        self.floor.energy(dbfs, t)

    def agent_state(self, idle: bool) -> List[Output]:
        with self._lock:
            return self._out(self.floor.agent_idle(idle))

    def agent_event(self, kind: str, turn_id: str, text: str = "") -> List[Output]:
        with self._lock:
            if kind == "turn_started":
                self.floor.started(turn_id)
                return []
            if kind == "floor_refused":
                return self._out(self.floor.refused(turn_id, text))
            return []

    def turn_record(self, turn_id: str, reply: str, end_reason: str, trigger_source: str = "",
                    t: Optional[float] = None) -> List[Output]:
        """A finished turn of the agent: what the robot said is said (no repeats); the end of a
        prepared turn tells the floor how much was heard."""
        t = self.clock() if t is None else t
        with self._lock:
            if reply:
                self.backbone.robot_said(Turn(self.turn_index, "robot", reply, t, robot=True))
            effects = self.floor.finished(turn_id, reply, interrupted=end_reason != "finished")
            return self._out(effects) + self._gate()

    def tick(self) -> List[Output]:
        with self._lock:
            return self._group_over(self.clock()) + self._out(self.floor.tick()) + self._gate()

    # --- the group --------------------------------------------------------------------------------
    def _group_over(self, now: float) -> List[Output]:
        """The group has been silent long enough: forget it (not while the robot speaks to it)."""
        if not self.group.over(now) or self.floor.current is not None:
            return []
        ended = self.group.end()
        log.info("the group is over (%s): %d turns of %s; its conversation is forgotten", ended.reason,
                 ended.turns, ", ".join(ended.speakers) or "unknown speakers")
        effects = self.floor.forget(f"the group left ({ended.reason})")
        self.backbone.forget()
        self.address.forget()
        return self._out(effects) + self._discarded() + [ended]

    # --- out -----------------------------------------------------------------------------------
    def _gate(self) -> List[Output]:
        if self.floor.busy():
            return []
        intervention = self.backbone.next_intervention(self.clock())
        if intervention is None:
            return self._discarded()
        log.info("intervention %s (%s, %d turns late): %r", intervention.id, intervention.kind,
                 intervention.turns_late, intervention.text[:100])
        return self._discarded() + self._out(self.floor.offer(intervention))

    def _discarded(self) -> List[Output]:
        """Drafts the citation check threw away are published once, as `discarded`."""
        return [Publish(dataclasses.replace(d)) for d in self.backbone.take_discarded()]

    def _out(self, effects) -> List[Output]:
        out: List[Output] = []
        for effect in effects:
            match effect:
                case Say(intervention=item, text=text, request_id=request_id):
                    source = self.direct_source if item.kind in ANSWER_KINDS else PROACTIVE_SOURCE
                    out.append(Request(request_id, "say", source, item.claim, text))
                case Stop(request_id=request_id):
                    out.append(Request(request_id, "stop"))
                case RaiseHand(intervention=item):
                    out.append(Request(item.id, "raise_hand"))
                case LowerHand():
                    out.append(Request("", "lower_hand"))
                case Changed(intervention=item, state=state):
                    snapshot = dataclasses.replace(item, state=state or item.state)
                    self.current = snapshot
                    out.append(Publish(snapshot))
        return out
