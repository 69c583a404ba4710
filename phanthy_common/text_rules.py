"""Is it a command at all? Backchannels ("mm-hm", "yeah") and the robot's own voice coming
back through the microphone (echo) are not. Pure text rules, shared by the agent's inbox, the
speaker's barge-in controller and the ASR node; `normalize_text` is also how repeats are recognised.

Durations are the first filter (interruption.min_speech_ms, on the typed
Transcript.audio_duration_ms: phanthy_common/interruption.py); these text rules catch what
duration cannot: a long "yeah" and the robot transcribing itself.
"""

from __future__ import annotations

import re
from typing import Iterable, List, Sequence


_NOT_WORD = re.compile(r"[^\w]+", re.UNICODE)

def normalize_text(text: str) -> str:
    """Case- and punctuation-insensitive form used to recognise repeats."""
    return " ".join(_NOT_WORD.sub(" ", text.casefold()).split())


# Words that acknowledge without asking for anything. ASR renders "mm-hm" and "uh-huh" in many
# ways (measured: tiny.en turns them into random short words too, hence the duration filter).
BACKCHANNEL_WORDS = frozenset("""
    yeah yea yep yes yup ya okay ok k right alright sure uh huh uhhuh uh-huh mhm mm mmm hm hmm
    mmhm mm-hm hmhm aha ah oh ooh wow cool nice great good i see see got it gotcha
    indeed true exactly totally interesting
""".split())
# Words that carry no request of their own: next to an acknowledgement or a hum they leave it
# one. tiny.en writes piper's "mm-hm" as "and the hm." or "and then h m" now and then (the
# audio eval, 1 run in 138).
FILLERS = frozenset("and the a an then so um uh er erm well".split())
NOT_BACKCHANNEL = frozenset("no stop wait what why how where who when which not don't dont cancel".split())
# One word that asks the speaker to stop ("stop", "what?", "sorry"): a request on its own. Any
# other lone word ("here", "museum") is not enough to cut the robot off (LiveKit calls the knob
# min_interruption_words); it still reaches the agent, which steers with it.
INTERRUPT_WORDS = NOT_BACKCHANNEL | frozenset("sorry excuse hey hello pause quiet hold actually hang".split())
# Commands to stop, which people say briskly: "Stop." takes about 350 ms, less than any
# duration that tells a backchannel from a request, so a short command is judged by its words.
STOP_COMMANDS = frozenset("stop wait cancel pause quiet halt enough".split())
MAX_STOP_COMMAND_WORDS = 3  # "stop", "wait, stop", "please stop now"; longer is a sentence


_REPEATS = re.compile(r"(.)\1+")
_HUM = re.compile(r"^[mhnu]+$")  # "mmmm", "hmm", "mhm", "uhm": hums, however ASR spells them


def _words(text: str) -> List[str]:
    """Lowercase words, hyphens split ("mm-hm" -> mm, hm)."""
    return normalize_text(text).replace("-", " ").split()


def _squash(word: str) -> str:
    return _REPEATS.sub(r"\1", word)  # "mmmmhmm" -> "mhm", "yeahhh" -> "yeah"


def is_backchannel(text: str, extra_words: Iterable[str] = (), max_words: int = 4) -> bool:
    """True when the text is only acknowledgement words or hums (at most `max_words`), with at
    most filler words beside them ("and the hm")."""
    words = _words(text)
    if not words or len(words) > max_words:
        return False
    lexicon = BACKCHANNEL_WORDS | {w.lower() for w in extra_words}
    squashed_lexicon = {_squash(w) for w in lexicon}
    acknowledging = [w for w in words if w in lexicon or _squash(w) in squashed_lexicon or _HUM.match(w)]
    return bool(acknowledging) and all(w in FILLERS for w in words if w not in acknowledging) \
        and not any(w in NOT_BACKCHANNEL for w in words)


def echo_overlap(heard: str, played_texts: Sequence[str]) -> float:
    """Fraction of the heard words (at least 2 letters) that occur in what the robot played."""
    words = [w for w in normalize_text(heard).split() if len(w) > 1]
    if not words:
        return 0.0
    played = set(normalize_text(" ".join(played_texts)).split())
    return sum(w in played for w in words) / len(words)


def is_echo(heard: str, played_texts: Sequence[str], min_overlap: float = 0.7, min_words: int = 1) -> bool:
    """True when a transcript is (mostly) the robot's own recent words: its voice came back
    through the microphone. `played_texts`: what the speaker played around the utterance."""
    words = [w for w in normalize_text(heard).split() if len(w) > 1]
    return len(words) >= min_words and echo_overlap(heard, played_texts) >= min_overlap


def asks_to_stop(text: str) -> bool:
    """A brisk command to stop ("Stop.", "wait, stop"): a few words, one of them a stop command."""
    words = normalize_text(text).split()
    return 0 < len(words) <= MAX_STOP_COMMAND_WORDS and any(w in STOP_COMMANDS for w in words)


def calls_for_attention(text: str) -> bool:
    """Does the text hold a word that asks the speaker to stop or listen ("actually", "sorry",
    "wait", "where")? Hums misheard as words ("in the nature.") hold none."""
    return any(w in INTERRUPT_WORDS for w in _words(text))


def is_request(text: str, min_words: int = 2) -> bool:
    """Enough words to interrupt a speaker: `min_words` or more, or one interrupt word."""
    words = _words(text)
    return len(words) >= min_words or any(w in INTERRUPT_WORDS for w in words)
