"""When to listen: what a P>0 event does when it reaches the agent.

The inbox decides, for each event, whether it starts a turn, steers the running one,
interrupts it, waits for the next turn, or is dropped (partials, backchannels, repeats,
superseded transcripts), and it holds the events that wait: the steering queue (consumed at
the running turn's next model step) and the next-turn queue.

Sessions: an event steers or interrupts only a turn of its own session (`session_of(event)` ==
the running turn's session). Anything else waits for a turn of its own, whatever its mode: one
person's message must never steer into, cancel or take the answer of another person's turn.
Repeats and superseding are judged within a session too (two chats may both say "hello").

Speakers (`steer_from` = same_speaker): within a session, a transcript steers or interrupts only
a turn one of whose inputs its speaker said; another speaker's words wait for their own turn (a
different person's remark is not a correction of someone else's request). When either side's
speaker is unknown (no attribution), it steers as before.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import deque
from enum import Enum
from typing import Callable, Deque, Iterable, List, Optional

from phanthy_common.interruption import InterruptionPolicy, Verdict
from .events import ANONYMOUS_SPEAKER, Event, InterruptMode, SteerFrom, normalize_text

log = logging.getLogger(__name__)


class Decision(str, Enum):
    START = "start"  # idle: the event starts a turn
    STEER = "steer"
    INTERRUPT = "interrupt"
    QUEUE = "queue"
    DROP = "drop"


@dataclasses.dataclass(frozen=True)
class Routing:
    decision: Decision
    reason: str = ""
    superseded: tuple = ()  # older waiting transcripts this event replaced
    awaits_speaker: bool = False  # dropped while the robot spoke: a request after all if the speaker stops for it


@dataclasses.dataclass(frozen=True)
class InboxConfig:
    default_mode: InterruptMode = InterruptMode.STEER
    # what counts as a request, shared with the speaker's barge-in (phanthy_common/interruption.py):
    # while busy, backchannels (short speech, "yeah", unclear words) are dropped; while the robot
    # speaks, so are words too few to ask for anything, unless the speaker stopped for them
    interruption: InterruptionPolicy = InterruptionPolicy()
    max_waiting: int = 64  # bound on each queue; the oldest is dropped (logged) beyond it
    steer_from: SteerFrom = SteerFrom.SAME_SPEAKER


class Inbox:
    """Routing decisions plus the two waiting queues. Pure; not thread-safe (one owner)."""

    def __init__(self, config: InboxConfig = InboxConfig(),
                 on_change: Optional[Callable[[], None]] = None,
                 session_of: Callable[[Event], str] = lambda event: event.session):
        self.config = config
        self.session_of = session_of
        self._steering: Deque[Event] = deque()
        self._next_turn: List[Event] = []
        self._on_change = on_change or (lambda: None)

    # --- decisions -------------------------------------------------------------------------
    def decide(self, event: Event, busy: bool, in_flight_texts: Iterable[str] = (),
               speaking: bool = False, turn_session: Optional[str] = None,
               speaker_yielded: bool = False, turn_speakers: Iterable[str] = ()) -> Routing:
        """Decide without changing any state (`speaking`: the robot is talking; `turn_session`:
        the running turn's session, None when unknown = the event's own; `speaker_yielded`:
        the speaker just stopped for the visitor, so their words are a request: its verdict is
        trusted, not judged again; `turn_speakers`: who said the running turn's inputs, as
        far as known)."""
        if event.is_transcript and not event.is_final:
            return Routing(Decision.DROP, "partial transcript")
        if not event.text.strip():
            return Routing(Decision.DROP, "empty text")
        if not busy:
            return Routing(Decision.START)
        if event.is_transcript and not speaker_yielded:
            judgement = self.config.interruption.judge(event.text, event.confidence, event.audio_duration_ms)
            if judgement.is_backchannel or (judgement.verdict is Verdict.FEW_WORDS and speaking
                                            and event.audio_duration_ms > 0):
                where = " while the robot speaks" if judgement.verdict is Verdict.FEW_WORDS else ""
                return Routing(Decision.DROP, f"backchannel{where}: {judgement.reason}", awaits_speaker=speaking)
        session = self.session_of(event)
        own_turn = turn_session is None or turn_session == session
        key = normalize_text(event.text)
        same_session = [e for e in self.waiting() if self.session_of(e) == session]
        earlier = (list(in_flight_texts) if own_turn else []) + [e.text for e in same_session]
        if any(normalize_text(t) == key for t in earlier):
            return Routing(Decision.DROP, "repeat of a waiting or in-flight text")
        superseded = tuple(e for e in same_session if e.is_transcript) if event.is_transcript else ()
        if not own_turn:
            return Routing(Decision.QUEUE, f"waits for its own turn: session {session!r} "
                                           f"while a turn of {turn_session!r} runs", superseded)
        mode = InterruptMode.parse(event.interrupt_mode, self.config.default_mode)
        others = self._another_speaker(event, turn_speakers)
        if mode is not InterruptMode.QUEUE and others:
            return Routing(Decision.QUEUE, f"{event.speaker} waits for their own turn: {others}'s runs "
                                           f"(steer_from {self.config.steer_from.value})", superseded)
        return Routing(Decision(mode.value), superseded=superseded)

    def _another_speaker(self, event: Event, turn_speakers: Iterable[str]) -> str:
        """The running turn's speakers when the event's is known and not among them, else ""."""
        known = [s for s in turn_speakers if s and s != ANONYMOUS_SPEAKER]
        if self.config.steer_from is not SteerFrom.SAME_SPEAKER or not event.speaker or not known:
            return ""
        return "" if event.speaker in known else ", ".join(dict.fromkeys(known))

    def submit(self, event: Event, busy: bool, in_flight_texts: Iterable[str] = (),
               speaking: bool = False, turn_session: Optional[str] = None,
               speaker_yielded: bool = False, turn_speakers: Iterable[str] = ()) -> Routing:
        """Decide and apply: STEER and QUEUE events are stored here; START and INTERRUPT are
        the caller's to act on; DROP is forgotten."""
        routing = self.decide(event, busy, in_flight_texts, speaking, turn_session, speaker_yielded,
                              turn_speakers)
        if routing.superseded:
            # A newer transcript replaces an older one still waiting: the older is usually the
            # repeat a visitor produced because the robot gave no feedback.
            self._steering = deque(e for e in self._steering if e not in routing.superseded)
            self._next_turn = [e for e in self._next_turn if e not in routing.superseded]
        if routing.decision is Decision.STEER:
            self._push(self._steering, event, "steering")
        elif routing.decision is Decision.QUEUE:
            self._push(self._next_turn, event, "next-turn")
            # Higher priority first; equal priorities keep arrival order (sort is stable).
            self._next_turn.sort(key=lambda e: -e.priority)
        if routing.decision in (Decision.STEER, Decision.QUEUE) or routing.superseded:
            self._on_change()
        return routing

    def _push(self, queue, event: Event, name: str) -> None:
        if len(queue) >= self.config.max_waiting:
            dropped = queue.popleft() if isinstance(queue, deque) else queue.pop(0)
            log.warning("%s queue full (%d): dropping oldest event from %s: %.60r",
                        name, self.config.max_waiting, dropped.source, dropped.text)
        queue.append(event)

    # --- the waiting events ----------------------------------------------------------------
    def waiting(self) -> List[Event]:
        return list(self._steering) + list(self._next_turn)

    def has_steering(self) -> bool:
        return bool(self._steering)

    def take_steering(self) -> List[Event]:
        """Events to inject at the running turn's next model step."""
        taken = list(self._steering)
        self._steering.clear()
        return taken

    def take_next_trigger(self) -> List[Event]:
        """Events that start the next turn: leftover steering events all together (they were
        meant for the turn that just ended), otherwise the first queued event."""
        if self._steering:
            return self.take_steering()
        if self._next_turn:
            return [self._next_turn.pop(0)]
        return []

    def __len__(self) -> int:
        return len(self._steering) + len(self._next_turn)
