"""When a visitor's words count as a request: the one interruption policy. Pure (no ROS).

The speaker's barge-in controller (should the robot stop talking?) and the agent's inbox
(is this a command, or a backchannel to drop?) judge with the same object, built from the same
parameters (`interruption.*`, set once for every node under `/**` in the YAML), so the two can
never disagree about what "mm-hm" is. Where both see the same words the agent also trusts the
speaker's verdict: when the speaker stopped for the visitor (`stopped_by: visitor`), their
words are a request, whatever they are.

Why these defaults: speech shorter than 500 ms is a backchannel ("yeah", a cough); Whisper
tiny.en invents words for hums with low confidence, and min_confidence sits between hums and
requests (figures: `bench/speech_facts.py hums`, in bench/README.md); and a lone word ("here",
which is how tiny.en often hears a "yeah" in the room) is no reason to cut the robot off unless
it asks to stop ("stop", "wait", "sorry"). A short command to stop ("Stop.", ~350 ms) is judged
by its words, not its length: a visitor who says it briskly must not be ignored.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Tuple

from .text_rules import asks_to_stop, is_backchannel, is_request


class Verdict(str, Enum):
    REQUEST = "request"
    SHORT = "short"  # less speech than min_speech_ms
    BACKCHANNEL = "backchannel"  # only acknowledgement words or hums
    UNCLEAR = "unclear"  # recognized less surely than min_confidence
    FEW_WORDS = "few words"  # fewer than min_words, none of them an interrupt word


@dataclasses.dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    reason: str = ""

    @property
    def is_request(self) -> bool:
        return self.verdict is Verdict.REQUEST

    @property
    def is_backchannel(self) -> bool:
        """Not meant for the robot at all (dropped even while it only thinks)."""
        return self.verdict in (Verdict.SHORT, Verdict.BACKCHANNEL, Verdict.UNCLEAR)


@dataclasses.dataclass(frozen=True)
class InterruptionPolicy:
    min_speech_ms: int = 500  # final words of shorter speech are a backchannel (0 = off)
    min_confidence: float = 0.4  # words recognized less surely are a backchannel (-1 = unknown: kept)
    min_words: int = 2  # fewer words are a request only when one asks to stop (0 = off)
    backchannel_lexicon: bool = True  # "yeah", "okay", "mm-hm"... of any length are backchannels
    extra_backchannels: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.min_speech_ms < 0 or self.min_words < 0 or not -1.0 <= self.min_confidence <= 1.0:
            raise ValueError(f"interruption: min_speech_ms and min_words must be >= 0 and "
                             f"min_confidence within 0..1, not {self}")

    def judge(self, text: str, confidence: float = -1.0, duration_ms: int = 0,
              min_confidence: float = -2.0) -> Judgement:
        """The verdict on a visitor's words (`confidence` 0..1, -1 unknown; `duration_ms` of
        speech, 0 unknown: typed text; `min_confidence` overrides the policy's, e.g. for the
        early transcript of speech still going on)."""
        # a brisk "Stop." is shorter than min_speech_ms and still a command (its confidence is judged)
        if 0 < duration_ms < self.min_speech_ms and not asks_to_stop(text):
            return Judgement(Verdict.SHORT, f"{duration_ms} ms of speech < min_speech_ms {self.min_speech_ms}")
        if self.backchannel_lexicon and is_backchannel(text, self.extra_backchannels):
            return Judgement(Verdict.BACKCHANNEL, f"{text!r} only acknowledges")
        floor = self.min_confidence if min_confidence < -1.0 else min_confidence
        if 0.0 <= confidence < floor:
            return Judgement(Verdict.UNCLEAR, f"unclear speech {text!r} (confidence {confidence:.2f} < {floor})")
        if self.min_words and not is_request(text, self.min_words):
            return Judgement(Verdict.FEW_WORDS, f"{text!r}: fewer than {self.min_words} words, none asks to stop")
        return Judgement(Verdict.REQUEST)
