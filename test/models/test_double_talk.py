"""The fast double-talk cue (phanthy_perception/double_talk.py) on a synthesized room: the
robot's voice comes back through the microphone; once the echo canceller has converged, a
visitor talking over it is cued within a few frames of their first syllable (data time), the
echo alone never is, and before convergence the cue stays off."""

import numpy as np
import pytest

from phanthy_common.audio import RATE
from phanthy_perception.double_talk import DoubleTalkCue
from phanthy_perception.echo import EchoGate, MicEchoCanceller
from support import voices

FRAME = 320
ROBOT = ("The dinosaur hall is our largest gallery. It holds the skeleton of Stan, a Tyrannosaurus "
         "rex found in South Dakota. Next to him you can see a Triceratops.")


@pytest.fixture(scope="module")
def robot():
    return voices.espeak(ROBOT)


def run(robot, visitor_at_s=None, confirm_at_s=None):
    """The vad node's order of work per 20 ms frame; returns [(time, event)]."""
    echo = voices.echo_of(robot, delay_ms=40, gain_db=-8, noise_level=None)
    mic = voices.mix(voices.noise(len(echo) / RATE + 0.5, level=120), echo)
    if visitor_at_s is not None:
        mic = voices.mix(mic, voices.espeak("actually take me to the gift shop first", pitch=80), at_s=visitor_at_s)
    reference = np.concatenate([robot, np.zeros(len(mic) - len(robot), dtype=np.int16)])
    canceller, cue = MicEchoCanceller(), DoubleTalkCue()
    gate = EchoGate(canceller)
    events, segment_open = [], False
    for i in range(0, len(mic) - FRAME, FRAME):
        t, t_end = i / RATE, (i + FRAME) / RATE
        canceller.add_reference(t, reference[i:i + FRAME], RATE)
        gate.add_mic(t, mic[i:i + FRAME])
        stamp, clean = canceller.process(t, mic[i:i + FRAME])
        if confirm_at_s is not None and t < confirm_at_s <= t_end:
            cue.confirmed()
            segment_open = True
        events += [(t_end, kind) for kind in cue.frame_audio(
            t_end, mic[i:i + FRAME], clean, gate.noise_floor, canceller.playing(t), segment_open)]
    return events, cue


def test_the_echo_alone_is_never_cued_and_the_canceller_converges(robot):
    events, cue = run(robot)
    assert events == []
    assert cue.converged, f"ERLE {cue.erle_db:.1f} dB"


def test_a_visitor_over_the_converged_echo_is_cued_within_three_frames(robot):
    visitor_at = 5.0
    events, cue = run(robot, visitor_at)
    assert events and events[0][1] == "candidate", events
    assert visitor_at < events[0][0] <= visitor_at + 0.06, events


def test_an_unconfirmed_candidate_is_dismissed_and_a_confirmed_one_is_not(robot):
    visitor_at = 5.0
    events, _ = run(robot, visitor_at)
    assert [kind for _, kind in events[:2]] == ["candidate", "dismissed"]
    assert events[1][0] - events[0][0] == pytest.approx(0.3, abs=0.021)
    events, _ = run(robot, visitor_at, confirm_at_s=visitor_at + 0.1)
    assert [kind for _, kind in events] == ["candidate"]


def test_no_cue_before_the_canceller_has_converged(robot):
    events, cue = run(robot, visitor_at_s=0.3)
    assert not [e for e in events if e[0] < 0.6], events


def test_a_new_echo_path_for_the_next_reply_is_not_cued(robot):
    """A mobile robot's echo path changes between replies: the canceller, still tuned to the
    old path, leaves the robot's voice in its output until it has re-converged."""
    first = voices.echo_of(robot, delay_ms=30, gain_db=-12, noise_level=None)
    second = voices.echo_of(robot, delay_ms=75, gain_db=-6, noise_level=None)
    gap = voices.silence(1.5)
    mic = voices.mix(voices.noise((len(first) + len(gap) + len(second)) / RATE + 0.5, level=120),
                     voices.concat(first, gap, second))
    played = voices.concat(robot, voices.silence(len(first) / RATE - len(robot) / RATE), gap, robot)
    reference = np.concatenate([played, np.zeros(len(mic) - len(played), dtype=np.int16)])
    canceller, cue = MicEchoCanceller(), DoubleTalkCue()
    gate = EchoGate(canceller)
    events = []
    for i in range(0, len(mic) - FRAME, FRAME):
        t, t_end = i / RATE, (i + FRAME) / RATE
        canceller.add_reference(t, reference[i:i + FRAME], RATE)
        gate.add_mic(t, mic[i:i + FRAME])
        _, clean = canceller.process(t, mic[i:i + FRAME])
        events += cue.frame_audio(t_end, mic[i:i + FRAME], clean, gate.noise_floor, canceller.playing(t), False)
    assert events == [] and cue.converged
