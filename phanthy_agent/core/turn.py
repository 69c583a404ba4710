"""One turn: model -> tool calls -> results -> ... -> finish, with steering and the action
completion protocol (ACP).

- Steering: events the inbox routed as `steer` are injected as user messages at the next model
  step; when one arrives during a tool batch, the rest of the batch is skipped (each skipped
  call gets a result saying so) so the model re-plans with it.
- ACP: an acting tool returns its action id once the driver accepted the goal. Before the next
  acting tool, the turn waits until every outstanding action is terminal, or a new steering
  message arrives. `finish` waits the same way; if the message wins, the interrupt hooks fire,
  outstanding actions are cancelled and the turn ends `interrupted` (the message starts the
  next turn). Non-acting tools never wait. The waits and the clean-up are `action_waits.py`.

Which of a step's tool calls run (finish, `wait_for_actions`, refusals, skipping after new
input) is `tool_batch.py`; running each call and recording it (for the model and for the
TurnRecord) is `turn_calls.py`.
Saying the reply (and what of it the visitor heard) is `turn_speech.py`.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any, Callable, Dict, List, Sequence, Tuple

from phanthy_common.sentences import bound_speech, unspoken

from ..brains.base import BrainReply, BrainRequest, BrainUnavailable, Message
from .action_tracker import CANCELLED, FAILED, TIMEOUT
from .action_waits import ActionWaits, Wait
from .context import notice_message
from .events import Event
from .streamed_speech import SpeechWhileWritten
from .tool_batch import ToolBatch
from .tools import least_trusted
from .turn_calls import TurnCalls
from .turn_speech import TurnSpeech
from .turn_host import TurnHost, TurnResult

log = logging.getLogger(__name__)

MAX_TOOL_CALLS_PER_STEP = 16
MAX_REPLY_CHARS = 4000


class TurnRunner:
    """Runs one turn for its host. `cancel_reason()` says why the host cancelled the turn's task
    (the host's turn handle holds it: interrupted, timeout, cancelled)."""

    def __init__(self, host: TurnHost, triggers: Sequence[Event], turn_id: str = "",
                 cancel_reason: Callable[[], str] = lambda: ""):
        self.host = host
        self.cfg = host.config
        self.turn_id = turn_id or uuid.uuid4().hex[:12]
        self.triggers = list(triggers)
        self._events: List[Event] = list(triggers)  # every input event, for the role
        self.inputs: List[str] = []
        self.thinking = False
        self._cancel_reason = cancel_reason
        self._messages: List[Message] = []
        self._history_start = 0
        self._calls: List[Dict[str, Any]] = []
        self._final_text = ""
        self.dialogue_state_raw: Any = None  # the finish call's raw arguments (voice turns)
        self.waits = ActionWaits(host)
        self.calls = TurnCalls(host, self.turn_id, self._calls, self._messages, self.waits.ended)
        self.speech = TurnSpeech(host, self.turn_id, self.waits, self.calls.execute)
        self.batch = ToolBatch(host, self.turn_id, self.calls, self.waits)
        self.result = TurnResult(
            self.turn_id, host.session, self.triggers[0].source if self.triggers else "",
            self.inputs, self._calls, "", "finished",
            min((e.stamp for e in self.triggers if e.stamp), default=host.clock()))
        first = self.triggers[0] if self.triggers else None
        if first is not None:
            self.result.t_speech_end = first.t_speech_end
            self.result.t_eos_detected = first.t_eos_detected
            self.result.t_transcript_ready = first.t_transcript_ready

    # --- entry point -----------------------------------------------------------------------
    async def run(self) -> TurnResult:
        host, result = self.host, self.result
        host.emit("turn_started", self.turn_id, text=" | ".join(e.text for e in self.triggers))
        self.inputs.extend(e.text for e in self.triggers)
        self.result.input_speakers.extend(e.speaker_id if e.is_transcript else "" for e in self.triggers)
        self._messages[:] = host.context.build(host.registry.visible_tools(), host.status(),
                                               host.history.messages(), self.inputs)
        self._history_start = len(self._messages) - len(self.inputs)
        try:
            if self.triggers and self.triggers[0].prepared_reply:
                await self._say_prepared(self.triggers[0].prepared_reply)
            else:
                await self._steps()
        except asyncio.CancelledError:
            # interrupt mode or the turn timeout: the core cancelled us and said why
            result.end_reason = self._cancel_reason() or "cancelled"
            await self.waits.cancel_all(f"turn {result.end_reason}")
        except BrainUnavailable as exc:
            log.error("turn %s: no brain could answer: %s", self.turn_id, exc)
            result.end_reason, result.error = "error", f"brain unavailable: {exc}"
            host.hooks.fire("on_error")
            await self.waits.cancel_all("brain unavailable")
        except Exception as exc:  # a bug must end the turn, not the agent
            log.exception("turn %s failed", self.turn_id)
            result.end_reason, result.error = "error", f"{type(exc).__name__}: {exc}"
            host.hooks.fire("on_error")
            await self.waits.cancel_all("internal error")
        finally:
            self.thinking = False
            result.t_end = host.clock()
            result.reply = self.speech.reply_as_heard(self._final_text)
            result.written = self._final_text
            self._record_unspoken()
            result.t_first_audio = self.speech.first_audio()
            self.calls.settle()
        return result

    def _record_unspoken(self) -> None:
        """A reply the robot could not say is never recorded as said: `reply` stays empty and
        the turn says why."""
        why = self.speech.why_not_spoken()
        if why and not self.result.error:
            self.result.error = why
            if self.result.end_reason == "finished":
                self.result.end_reason = "error"

    def history_messages(self) -> List[Message]:
        """This turn's conversation (inputs onward) for the session history. Tool calls left
        without a result (a cancelled turn) are dropped, so the history stays valid."""
        turn = self._messages[self._history_start:]
        answered = {m.tool_call_id for m in turn if m.role == "tool"}
        kept = []
        for m in turn:
            if m.role == "assistant" and m.tool_calls and not all(c.id in answered for c in m.tool_calls):
                if m.content:
                    kept.append(Message("assistant", m.content))
                continue
            kept.append(m)
        if self.result.end_reason == "interrupted" and self.result.reply:
            kept.append(Message("user", f"[the visitor interrupted you; they heard: "
                                        f"{self.result.reply!r}]", meta="notice"))
        return kept

    # --- the step loop ---------------------------------------------------------------------
    async def _steps(self) -> None:
        for step in range(self.cfg.max_steps):
            self.result.steps = step + 1
            self._inject_pending()
            reply, said_while_written = await self._think()
            calls = reply.tool_calls[:MAX_TOOL_CALLS_PER_STEP]
            if len(reply.tool_calls) > len(calls):
                log.warning("turn %s: model asked for %d tool calls; running the first %d",
                            self.turn_id, len(reply.tool_calls), len(calls))
            self._messages.append(Message("assistant", reply.content, tool_calls=calls))
            if reply.content.strip():
                self._final_text = reply.content
                rest = unspoken(reply.content, said_while_written)
                if rest:
                    await self.speech.say(rest)
            if not calls:
                if await self._finish():
                    return
                continue
            if await self.batch.run(calls, self.role, self._finish_call):
                return
        self.result.end_reason = "error"
        self.result.error = f"step limit ({self.cfg.max_steps}) reached"
        log.error("turn %s: %s", self.turn_id, self.result.error)
        await self.waits.cancel_all("step limit")

    async def _say_prepared(self, text: str) -> None:
        """A prepared turn (group conversations): its words come with the request and are said
        as they are, through the speech tool; no brain is asked. The ACP wait at the end is a
        normal turn's (a message arriving first interrupts it)."""
        if self._cancel_reason():  # stopped before it began (AgentCore.stop_turn): nothing is said
            self.result.end_reason = self._cancel_reason()
            return
        self.result.steps = 1
        self.result.brains.append("prepared")
        self.result.t_first_token = self.host.clock()
        self._final_text = text
        self._messages.append(Message("assistant", text))
        await self.speech.say(bound_speech(text, self.cfg.max_spoken_chars))
        if not await self._finish():
            self.result.end_reason, self.result.error = "error", "the prepared reply could not be said"

    @property
    def speakers(self) -> List[str]:
        """Who said the turn's inputs, as far as known (steering events waiting included)."""
        return [e.speaker for e in self._events]

    @property
    def role(self) -> str:
        """The least trusted role among the turn's inputs: a visitor's words steered into an
        operator's turn do not borrow the operator's rights."""
        return least_trusted(self.host.role_of(e) for e in self._events)

    def _inject_pending(self) -> None:
        steered = self.host.inbox.take_steering()
        self._events.extend(steered)
        for event in steered:
            self.inputs.append(event.text)
            self.result.input_speakers.append(event.speaker_id if event.is_transcript else "")
            self._messages.append(Message("user", event.text, meta="input"))
            self.host.emit("steered", self.turn_id, text=event.text)
        ended = self.host.tracker.take_unreported()
        if ended:
            self._messages.append(notice_message(ended))

    async def _think(self) -> Tuple[BrainReply, str]:
        """One model step: the reply (bounded), and the start of it already said while the model
        wrote it (`agent.stream_speech`, streamed_speech.py; `_steps` says the rest)."""
        host = self.host
        streamed = SpeechWhileWritten(self.speech.say,
                                      lambda: self.cfg.stream_speech and host.speech_tool() is not None,
                                      self.cfg.max_spoken_chars)

        def on_text(delta: str) -> None:
            if not self.result.t_first_token:
                self.result.t_first_token = host.clock()
            streamed.on_text(delta)

        request = BrainRequest(list(self._messages), [t.spec() for t in host.registry.visible_tools()],
                               on_text)
        self.thinking = True
        host.refresh_state()
        try:
            reply = await host.brain.step(request)
        except BaseException:
            streamed.cancel()
            raise
        finally:
            self.thinking = False
            host.refresh_state()
        await streamed.settle()
        if not self.result.t_first_token:
            self.result.t_first_token = host.clock()
        if reply.brain and (not self.result.brains or self.result.brains[-1] != reply.brain):
            self.result.brains.append(reply.brain)
        host.note_brain(reply.brain)
        if len(reply.content) > MAX_REPLY_CHARS:
            log.warning("turn %s: reply of %d characters truncated", self.turn_id, len(reply.content))
            reply.content = reply.content[:MAX_REPLY_CHARS]
        if len(reply.content) > self.cfg.max_spoken_chars > 0:
            # about 15 characters a second: 1,000 are a minute of speech
            log.warning("turn %s: reply of %d characters cut to agent.max_spoken_chars (%d) for speech",
                        self.turn_id, len(reply.content), self.cfg.max_spoken_chars)
            reply.content = bound_speech(reply.content, self.cfg.max_spoken_chars)
        return reply, streamed.said

    async def _finish_call(self, arguments) -> bool:
        """The model called `finish` (its arguments carry a voice turn's dialogue_state)."""
        self.dialogue_state_raw = arguments
        return await self._finish()

    async def _finish(self) -> bool:
        """The ACP wait at the end of the turn; True when the turn ends."""
        if await self.waits.settled(before_acting=False) is Wait.MESSAGE:
            log.info("turn %s: the visitor spoke while finishing: stopping", self.turn_id)
            self.result.end_reason = "interrupted"
            await self.waits.cancel_all("new message while finishing")
            return True
        if self.host.inbox.has_steering() and any(a.status == CANCELLED for a in self.speech.actions()):
            # the visitor cut the robot off (barge-in stopped the speech before the words came)
            self.result.end_reason = "interrupted"
            return True
        failed = [a for a in self.host.tracker.for_turn(self.turn_id)
                  if a.acting and not a.reported and a.status in (FAILED, TIMEOUT)]
        if failed and self.cfg.report_failures and self.result.steps < self.cfg.max_steps:
            log.info("turn %s: %d action(s) failed; giving the model a step to react",
                     self.turn_id, len(failed))
            return False
        self.result.end_reason = "finished"
        return True
