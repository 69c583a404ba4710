"""Taking the floor: when an intervention is said, and what happens when someone talks over it.

- **Speak mode**: an intervention waits for an *opening*: nobody speaking (the VAD), the last
  speech ended `opening_silence_s` ago, the microphone's energy low (below `max_energy_dbfs`
  over the last half second); without a microphone, `opening_silence_s` since the last
  transcript. And the agent must be idle: an intervention never talks over a reply.
- **Hand-raise mode**: it raises the robot's hand instead (`RaiseHand`: the agent fires the
  `on_hand_raise` hook, face and LED show it) and speaks when someone gives it the floor (a
  phrase or the wake word, `grant()`); without a grant within `hand_raise_timeout_s` it is dropped.
- **Yielding**: while it speaks, a visitor's words (a request by the interruption policy, as the
  speaker's barge-in judges them) stop it (`Stop`); in audio mode the speaker's barge-in has
  usually paused it already. By the share of it that was heard: little (< `replay_below`) ->
  said again from the start at the next opening; some (< `resume_below`) -> the rest is said;
  most -> done (delivered).
- **Usefulness**: an intervention not said within `usefulness_s` or `usefulness_turns`
  ordinary turns is dropped: the conversation has moved on.
- **Direct answers** (answer | abstain) go first and need no opening: someone asked.
Pure: every input carries its time or reads the injected clock; outputs are typed effects.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
from typing import Callable, Deque, List, Optional, Tuple, Union

from phanthy_common.sentences import split_sentences

from .backbone import Intervention

log = logging.getLogger(__name__)

ANSWER_KINDS = ("answer", "abstain")


@dataclasses.dataclass(frozen=True)
class FloorConfig:
    mode: str = "speak"  # speak | hand_raise
    opening_silence_s: float = 1.5
    max_energy_dbfs: float = -45.0
    energy_window_s: float = 0.5
    hand_raise_timeout_s: float = 60.0
    usefulness_s: float = 45.0
    usefulness_turns: int = 6
    replay_below: float = 0.3
    resume_below: float = 0.8
    max_attempts: int = 3
    request_timeout_s: float = 5.0  # no turn started for a request after this: ask again
    speech_timeout_s: float = 60.0  # no end of the turn after this: give up on it

    def __post_init__(self):
        if self.mode not in ("speak", "hand_raise"):
            raise ValueError(f"mode must be speak or hand_raise, not {self.mode!r}")


@dataclasses.dataclass(frozen=True)
class Say:
    intervention: Intervention
    text: str
    request_id: str


@dataclasses.dataclass(frozen=True)
class Stop:
    request_id: str


@dataclasses.dataclass(frozen=True)
class RaiseHand:
    intervention: Intervention


@dataclasses.dataclass(frozen=True)
class LowerHand:
    pass


@dataclasses.dataclass(frozen=True)
class Changed:
    intervention: Intervention  # its state changed: publish it
    state: str = ""  # the state it changed to (the intervention itself may have moved on since)


Effect = Union[Say, Stop, RaiseHand, LowerHand, Changed]


def heard_fraction(text: str, heard: str) -> float:
    words = len(text.split())
    return min(1.0, len(heard.split()) / words) if words else 1.0


def rest_after(text: str, heard: str) -> str:
    """What is left to say after `heard`, from the first sentence not heard whole."""
    said_words = len(heard.split())
    done = 0
    for index, sentence in enumerate(pieces := split_sentences(text, max_chars=10**9, first_max_chars=10**9,
                                                                first_clause=False)):
        done += len(sentence.split())
        if done > said_words:
            return " ".join(pieces[index:])
    return ""


class Floor:
    def __init__(self, config: FloorConfig, clock: Callable[[], float]):
        self.config = config
        self.clock = clock
        self.queue: List[Intervention] = []  # waiting, answers first
        self.current: Optional[Intervention] = None  # being said (or asked to be)
        self.hand_raised: Optional[Intervention] = None
        self._request: Optional[Tuple[str, float, bool]] = None  # (request id, sent at, started)
        self._attempts: dict = {}
        self._text: dict = {}  # intervention id -> what is left to say
        self._turns_since: dict = {}
        self._speaking = False  # the VAD hears someone
        self._last_speech = -1e9  # end of the last speech (VAD offset or a transcript)
        self._vad_seen = False
        self._energy: Deque[Tuple[float, float]] = collections.deque(maxlen=200)
        self._agent_idle = True
        self._requests = 0

    # --- inputs ------------------------------------------------------------------------------
    def offer(self, intervention: Intervention) -> List[Effect]:
        self._text[intervention.id] = intervention.text
        self._turns_since[intervention.id] = 0
        if intervention.kind in ANSWER_KINDS:
            self.queue.insert(sum(1 for i in self.queue if i.kind in ANSWER_KINDS), intervention)
            effects: List[Effect] = [Changed(intervention, intervention.state)]
            if self.current is not None and self.current.kind not in ANSWER_KINDS and self._request:
                effects.append(Stop(self._request[0]))  # a question to the robot goes first
            return effects + self.tick()
        self.queue.append(intervention)
        return [Changed(intervention, intervention.state)] + self.tick()

    def speech(self, active: bool, t: Optional[float] = None) -> None:
        """VAD onset (True) / offset (False)."""
        self._vad_seen = True
        self._speaking = active
        if not active:
            self._last_speech = t if t is not None else self.clock()

    def energy(self, dbfs: float, t: Optional[float] = None) -> None:
        self._energy.append((t if t is not None else self.clock(), dbfs))

    def agent_idle(self, idle: bool) -> List[Effect]:
        self._agent_idle = idle
        return self.tick()

    def transcript(self, t: Optional[float] = None, ordinary: bool = True, request: bool = True) -> List[Effect]:
        """A visitor's final transcript (`ordinary`: among people, not to the robot; `request`:
        words that ask for the floor by the interruption policy, not a backchannel)."""
        now = t if t is not None else self.clock()
        self._last_speech = max(self._last_speech, now)
        effects: List[Effect] = []
        if ordinary:
            for key in self._turns_since:
                self._turns_since[key] += 1
        if request and self.current is not None and self._request is not None:
            effects.append(Stop(self._request[0]))  # a visitor speaks: yield
        return effects + self.tick()

    def drop(self, intervention_id: str, reason: str) -> List[Effect]:
        """The caller found it pointless (a visitor said it meanwhile)."""
        for item in list(self.queue):
            if item.id == intervention_id:
                self.queue.remove(item)
                return self._end(item, "dropped", reason)
        if self.hand_raised is not None and self.hand_raised.id == intervention_id:
            item, self.hand_raised = self.hand_raised, None
            return [LowerHand()] + self._end(item, "dropped", reason)
        return []

    def grant(self) -> List[Effect]:
        """Someone gave the robot the floor ("yes, robot?", the wake word)."""
        if self.hand_raised is None or not self._agent_idle or self.current is not None:
            return []
        item, self.hand_raised = self.hand_raised, None
        return [LowerHand()] + self._say(item)

    def forget(self, reason: str) -> List[Effect]:
        """The group left: what waits for it (queued, a raised hand) is dropped. What the robot is
        saying right now ends on its own (`finished`)."""
        effects: List[Effect] = []
        for item in list(self.queue):
            self.queue.remove(item)
            effects += self._end(item, "dropped", reason)
        if self.hand_raised is not None:
            item, self.hand_raised = self.hand_raised, None
            effects = [LowerHand()] + self._end(item, "dropped", reason) + effects
        return effects

    def started(self, request_id: str) -> None:
        if self._request is not None and self._request[0] == request_id:
            self._request = (request_id, self.clock(), True)

    def refused(self, request_id: str, reason: str = "") -> List[Effect]:
        """The agent would not take the floor (busy): wait for the next opening."""
        if self._request is None or self._request[0] != request_id or self.current is None:
            return []
        item, self.current, self._request = self.current, None, None
        log.info("floor request %s refused (%s): waiting for the next opening", request_id, reason)
        item.state = "pending"
        self._requeue(item)
        return [Changed(item, item.state)]

    def finished(self, request_id: str, heard: str, interrupted: bool = False) -> List[Effect]:
        """The turn that said it ended; `heard`: what of it was said, as heard."""
        if self._request is None or self._request[0] != request_id or self.current is None:
            return []
        item, self.current, self._request = self.current, None, None
        text = self._text.get(item.id, item.text)
        item.heard = (item.heard + " " + heard).strip() if item.heard else heard
        fraction = heard_fraction(text, heard)
        if fraction >= 0.999 and not interrupted:
            return self._end(item, "delivered", "") + self.tick()
        effects = self._set(item, "yielded", f"{fraction:.0%} heard")
        attempts = self._attempts.get(item.id, 0)
        if fraction >= self.config.resume_below:
            return effects + self._end(item, "delivered", f"{fraction:.0%} heard: the rest is dropped") + self.tick()
        if attempts >= self.config.max_attempts:
            return effects + self._end(item, "dropped", "yielded too often") + self.tick()
        if fraction >= self.config.replay_below:
            self._text[item.id] = rest_after(text, heard) or text  # resume with the rest
        item.state = "pending"
        self._requeue(item)
        return effects + [Changed(item, item.state)] + self.tick()

    # --- time ---------------------------------------------------------------------------------
    def tick(self) -> List[Effect]:
        now = self.clock()
        effects: List[Effect] = []
        effects += self._expire(now)
        if self._request is not None:
            request_id, sent, started = self._request
            limit = self.config.speech_timeout_s if started else self.config.request_timeout_s
            if now - sent > limit:
                log.warning("floor request %s: no %s after %.0f s", request_id,
                            "end of the turn" if started else "turn", limit)
                effects += self.refused(request_id, "no answer from the agent")
            return effects
        if not self.queue or not self._agent_idle:
            return effects
        head = self.queue[0]
        if head.kind in ANSWER_KINDS:
            self.queue.pop(0)
            return effects + self._say(head)
        if self.config.mode == "hand_raise":
            if self.hand_raised is None:
                self.hand_raised = self.queue.pop(0)
                self.hand_raised.created = min(self.hand_raised.created or now, now)
                self._hand_since = now
                return effects + [RaiseHand(self.hand_raised)] + self._set(self.hand_raised, "hand_raised")
            return effects
        if self.is_opening(now):
            return effects + self._say(self.queue.pop(0))
        return effects

    def is_opening(self, now: Optional[float] = None) -> bool:
        now = self.clock() if now is None else now
        if self._speaking or now - self._last_speech < self.config.opening_silence_s:
            return False
        recent = [db for t, db in self._energy if now - t <= self.config.energy_window_s]
        return not recent or max(recent) <= self.config.max_energy_dbfs

    # --- internals ------------------------------------------------------------------------------
    def _say(self, item: Intervention) -> List[Effect]:
        self._requests += 1
        request_id = f"{item.id}-{self._requests}"
        self._attempts[item.id] = self._attempts.get(item.id, 0) + 1
        self.current = item
        self._request = (request_id, self.clock(), False)
        return self._set(item, "speaking") + [Say(item, self._text.get(item.id, item.text), request_id)]

    def _requeue(self, item: Intervention) -> None:
        """Back to the front of the queue, behind any answer (a question to the robot goes first)."""
        answers = sum(1 for i in self.queue if i.kind in ANSWER_KINDS)
        self.queue.insert(0 if item.kind in ANSWER_KINDS else answers, item)

    def _expire(self, now: float) -> List[Effect]:
        effects: List[Effect] = []
        cfg = self.config
        for item in list(self.queue):
            if item.kind in ANSWER_KINDS:
                continue
            age = now - item.created
            if age > cfg.usefulness_s or self._turns_since.get(item.id, 0) > cfg.usefulness_turns:
                self.queue.remove(item)
                effects += self._end(item, "dropped", "the conversation moved on")
        if self.hand_raised is not None:
            waited = now - getattr(self, "_hand_since", now)
            if waited > cfg.hand_raise_timeout_s:
                item, self.hand_raised = self.hand_raised, None
                effects += [LowerHand()] + self._end(item, "dropped",
                                                     f"nobody gave the floor in {cfg.hand_raise_timeout_s:.0f} s")
        return effects

    def _set(self, item: Intervention, state: str, reason: str = "") -> List[Effect]:
        item.state = state
        if reason:
            item.reason = reason
        return [Changed(item, state)]

    def _end(self, item: Intervention, state: str, reason: str) -> List[Effect]:
        self._text.pop(item.id, None)
        self._turns_since.pop(item.id, None)
        self._attempts.pop(item.id, None)
        return self._set(item, state, reason)

    def busy(self) -> bool:
        return self.current is not None or self.hand_raised is not None or bool(self.queue)
