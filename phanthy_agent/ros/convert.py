"""Translate between phanthy messages and the pure cores' types. Nothing else."""

from __future__ import annotations

import json
from typing import Any, Dict

from phanthy_common.convert import clean_text, from_time, header
from phanthy.msg import AgentEvent, AgentState, ChatMessage, Event as EventMsg, TurnRecord, TurnTiming

from ..core.agent_status import AgentStatus
from ..core.events import Event, EventKind
from ..core.turn_host import TurnResult


def event_from_msg(msg: EventMsg) -> Event:
    return Event(source=msg.source, priority=int(msg.priority), text=clean_text(msg.text),
                 kind=msg.kind or EventKind.TEXT.value, stamp=from_time(msg.header.stamp),
                 interrupt_mode=msg.interrupt_mode, session=msg.session, sender=msg.sender, role=msg.role,
                 is_final=msg.is_final,
                 audio_duration_ms=int(msg.audio_duration_ms), confidence=float(msg.confidence),
                 speaker_id=msg.speaker_id, language=msg.language, origin=msg.origin,
                 t_speech_end=msg.t_speech_end, t_eos_detected=msg.t_eos_detected,
                 t_transcript_ready=msg.t_transcript_ready)


def event_to_msg(event: Event) -> EventMsg:
    return EventMsg(header=header(event.stamp), source=event.source,
                    priority=max(0, min(255, int(event.priority))),
                    interrupt_mode=event.interrupt_mode, kind=event.kind, text=event.text,
                    session=event.session, sender=event.sender, role=event.role, is_final=event.is_final,
                    audio_duration_ms=max(0, int(event.audio_duration_ms)),
                    confidence=float(event.confidence), speaker_id=event.speaker_id,
                    language=event.language, origin=event.origin,
                    t_speech_end=float(event.t_speech_end), t_eos_detected=float(event.t_eos_detected),
                    t_transcript_ready=float(event.t_transcript_ready))


def transcript_to_event(msg, source: str, priority: int, stamp: float) -> Event:
    """A phanthy/msg/Transcript as the collector forwards it: every field typed."""
    return Event(source=source, priority=priority, text=clean_text(msg.text),
                 kind=EventKind.TRANSCRIPT.value,
                 stamp=from_time(msg.header.stamp) or stamp, is_final=msg.is_final,
                 audio_duration_ms=int(msg.audio_duration_ms), confidence=float(msg.confidence),
                 speaker_id=msg.speaker_id, language=msg.language, origin=msg.source,
                 t_speech_end=msg.t_speech_end, t_eos_detected=msg.t_eos_detected,
                 t_transcript_ready=msg.t_ready)


def status_to_msg(status: AgentStatus, now: float) -> AgentState:
    return AgentState(header=header(now), state=status.state, voice_state=status.voice_state,
                      session=status.session, outstanding_actions=status.outstanding_actions,
                      brain=status.brain)


def turn_to_msg(result: TurnResult, now: float) -> TurnRecord:
    return TurnRecord(
        header=header(now), session=result.session, trigger_source=result.trigger_source,
        inputs=list(result.inputs), tool_calls_json=json.dumps(result.tool_calls, default=str),
        reply=result.reply, end_reason=result.end_reason, dialogue_state=result.dialogue_state,
        t_trigger=result.t_trigger, t_first_token=result.t_first_token,
        t_first_audio=result.t_first_audio, t_end=result.t_end, turn_id=result.turn_id,
        brain=",".join(result.brains), steps=result.steps, error=result.error,
        t_speech_end=result.t_speech_end, t_eos_detected=result.t_eos_detected,
        t_transcript_ready=result.t_transcript_ready, input_speakers=list(result.input_speakers))


def turn_timing_msg(result: TurnResult, now: float) -> TurnTiming:
    """Stage latencies of a voice turn (ms); None for turns that did not start from speech."""
    def ms(a: float, b: float) -> float:
        return round((b - a) * 1000.0, 1) if a and b and b >= a else 0.0
    return TurnTiming(header=header(now), turn_id=result.turn_id,
                      eos_ms=ms(result.t_speech_end, result.t_eos_detected),
                      asr_ms=ms(result.t_eos_detected, result.t_transcript_ready),
                      agent_ms=ms(result.t_transcript_ready, result.t_first_token),
                      speech_ms=ms(result.t_first_token, result.t_first_audio),
                      voice_to_voice_ms=ms(result.t_speech_end, result.t_first_audio))


def agent_event_to_msg(now: float, kind: str, turn_id: str, tool: str, action_id: str,
                       status: str, text: str) -> AgentEvent:
    return AgentEvent(header=header(now), turn_id=turn_id, kind=kind, tool=tool,
                      action_id=action_id, status=status, text=text)



def event_as_dict(event: Event) -> Dict[str, Any]:
    return {"source": event.source, "priority": event.priority, "kind": event.kind,
            "text": event.text, "stamp": event.stamp}


def chat_to_event(msg, source: str, priority: int, stamp: float) -> Event:
    """A phanthy/msg/ChatMessage from a channel: its session is `<channel>:<chat_id>`."""
    channel = msg.channel.strip() or source
    chat_id = msg.chat_id.strip() or "default"
    return Event(source=source, priority=priority, text=clean_text(msg.text), kind=EventKind.TEXT.value,
                 stamp=from_time(msg.header.stamp) or stamp, session=f"{channel}:{chat_id}",
                 sender=msg.sender, role=msg.role, origin=channel)


def chat_reply(session: str, text: str, now: float, voice_prefix: str = "voice"):
    """The robot's reply to a chat session as a ChatMessage for channels/out (None for sessions
    that are not `<channel>:<chat_id>` of a text channel)."""
    channel, sep, chat_id = session.partition(":")
    if not sep or not chat_id or channel == voice_prefix or not text.strip():
        return None
    return ChatMessage(header=header(now), channel=channel, chat_id=chat_id, sender="robot", role="",
                       text=text)
