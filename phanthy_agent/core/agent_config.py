"""The agent core's configuration: the parameters the core reads (`agent.*`, `agent.voice.*`,
`interruption.*`, `roles.speakers.*`; the node builds it from them), each with its default and
meaning, and the check of the roles it names.
"""

from __future__ import annotations

import dataclasses
from typing import Dict, Tuple

from phanthy_common.interruption import InterruptionPolicy

from ..conversation.voice_machine import EXIT_PHRASES, VoiceLines, VoiceTimeouts
from .events import InterruptMode, SteerFrom
from .tools import INTERRUPT_HOOKS, ROLES


@dataclasses.dataclass(frozen=True)
class AgentConfig:
    interrupt_mode: InterruptMode = InterruptMode.STEER
    interruption: InterruptionPolicy = InterruptionPolicy()  # what counts as a request (shared with the speaker)
    speaker_verdict_s: float = 1.5  # words dropped while speaking are taken if the speaker stops for them this soon
    max_steps: int = 8
    turn_timeout_s: float = 300.0
    # the tool that says reply text (a driver's acting tool): "speak" (the first driver declaring
    # it owns it), "speaker/speak" (that driver's) or "" (text only: replies are not spoken)
    speak_tool: str = "speak"
    max_spoken_chars: int = 1000  # bound on one step's reply (~1 minute of speech; 0 = 4,000)
    stream_speech: bool = True  # say a reply's first sentences while the model writes the rest
    interrupt_hooks: Tuple[str, ...] = INTERRUPT_HOOKS
    report_failures: bool = True  # a failed action gives the model one more step to react
    cancel_confirm_timeout_s: float = 2.0
    session: str = "main"
    transcript_grace_s: float = 2.0  # after the visitor stops speaking, wait this long for the text
    words_due_max_s: float = 15.0  # bound on waiting for one visitor's words, whatever the VAD says
    history_turns: int = 12
    history_chars: int = 24_000
    voice: bool = False  # a microphone feeds this agent: run the voice state machine
    wake_gated: bool = True  # voice interactions start with the wake word (else any speech)
    voice_timeouts: VoiceTimeouts = VoiceTimeouts()
    voice_lines: VoiceLines = VoiceLines()
    exit_phrases: Tuple[str, ...] = EXIT_PHRASES
    voice_tick_s: float = 0.25
    speech_role: str = "visitor"  # role of transcripts (whoever stands in front of the robot)
    default_role: str = "operator"  # role of other events without one (inbox, scheduler, peers)
    keep_voice_history: bool = False  # keep closed voice sessions' turns on disk
    steer_from: SteerFrom = SteerFrom.SAME_SPEAKER  # whose words steer a running turn
    # roles of enrolled voices (roles.speakers.<name>): a transcript the asr attributed to that
    # person (verified against their enrolled voice) acts with this role instead of speech_role
    speaker_roles: Dict[str, str] = dataclasses.field(default_factory=dict)


def check_roles(config: AgentConfig) -> None:
    """Every role the configuration names is a known one (else ValueError, naming the parameter)."""
    for name in ("speech_role", "default_role"):
        if getattr(config, name) not in ROLES:
            raise ValueError(f"agent.{name} must be one of {', '.join(ROLES)}, not {getattr(config, name)!r}")
    for speaker, role in config.speaker_roles.items():
        if role not in ROLES:
            raise ValueError(f"roles.speakers.{speaker} must be one of {', '.join(ROLES)}, not {role!r}")
