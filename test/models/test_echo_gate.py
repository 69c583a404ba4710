"""Double-talk detection (EchoGate) on synthesized speech: the robot's voice coming back
through the microphone is held back; a visitor talking over it is let through within about
two VAD blocks of their first syllable (data time, not wall time), and a late echo reference
never makes the robot's own voice pass for a visitor's."""

import numpy as np

from phanthy_common.audio import RATE
from phanthy_perception.echo import EchoGate, MicEchoCanceller
from phanthy_perception.vad import VadEvent
from support import voices

BLOCK = 512  # the VAD's block: 32 ms


def room(visitor_at_s):
    robot = voices.espeak("The dinosaur hall is on the first floor, next to the big staircase. "
                          "Our T rex is called Stan and he is sixty six million years old.")
    echo = voices.echo_of(robot, delay_ms=50, gain_db=-8)
    mic = voices.mix(voices.noise(len(echo) / RATE, level=150), echo)
    if visitor_at_s is not None:
        mic = voices.mix(mic, voices.espeak("actually take me to the gift shop first", pitch=80), at_s=visitor_at_s)
    return robot, mic


FRAME = 320  # the microphone's 20 ms frames


def run_gate(visitor_at_s, reference_late_s=0.0, robot_at_s=0.0):
    """The vad node's order of work per microphone frame; the reference (audio/out) reaches
    the gate `reference_late_s` after the audio it describes was played."""
    robot, mic = room(visitor_at_s)
    robot = np.concatenate([robot, np.zeros(max(0, len(mic) - len(robot)), dtype=np.int16)])
    canceller = MicEchoCanceller()
    gate = EchoGate(canceller)
    late = int(round(reference_late_s * RATE))
    released = []
    for start in range(0, len(mic) - FRAME, FRAME):
        t, t_end = start / RATE, (start + FRAME) / RATE
        if start - late >= 0:  # audio/out, as it plays (or later)
            canceller.add_reference((start - late) / RATE, robot[start - late:start - late + FRAME], RATE)
        gate.add_mic(t, mic[start:start + FRAME])
        stamp, clean = canceller.process(t, mic[start:start + FRAME])
        gate.add_clean(stamp, clean)
        # the level-blind VAD hears the echo as speech from 0.3 s on: one onset, then nothing
        events = [VadEvent("onset", 0.27, 0.27, 0, t_end, 0.9)] if t <= 0.3 < t_end else []
        released += [e.t_detected for e in gate.filter(events, t_end) if e.kind == "onset"]
    return released


def test_the_robots_own_voice_is_held_back_for_the_whole_reply():
    assert run_gate(None) == []


def test_a_visitor_talking_over_the_robot_is_let_through_within_about_two_vad_blocks():
    visitor_at = 2.5
    released = run_gate(visitor_at)
    assert released, "the visitor was never let through"
    assert visitor_at < released[0] <= visitor_at + 0.08, released


def test_a_late_reference_never_lets_the_robots_voice_through():
    # audio/out reaching the vad node 60 ms late (a loaded machine): the newest microphone
    # audio has no reference yet and would look like a visitor if it were judged
    assert run_gate(None, reference_late_s=0.06) == []


def test_a_visitor_still_gets_through_when_the_reference_is_late():
    visitor_at = 2.5
    released = run_gate(visitor_at, reference_late_s=0.06)
    assert released and visitor_at < released[0] <= visitor_at + 0.08 + 0.06, released


def test_a_quiet_start_of_the_robots_voice_in_the_noise_is_not_a_visitor():
    canceller = MicEchoCanceller()
    gate = EchoGate(canceller)
    quiet = (voices.espeak("hello there") * 0.02).astype(np.int16)  # a few times the noise's level
    noise = voices.noise(1.0, level=150)
    for start in range(0, RATE - FRAME, FRAME):
        t = start / RATE
        canceller.add_reference(t, np.full(FRAME, 3000, dtype=np.int16), RATE)  # something else plays
        gate.add_mic(t, noise[start:start + FRAME])
        gate.add_clean(*canceller.process(t, noise[start:start + FRAME]))
    # a quiet sound the reference does not explain, hardly above the noise: held back
    assert not gate._visitor(0.5, 0.564)[0]


def test_an_empty_reference_frame_changes_nothing():
    canceller = MicEchoCanceller()
    canceller.add_reference(0.0, np.full(BLOCK, 1000, dtype=np.int16), RATE)
    before = canceller.reference.window(0.0, BLOCK).copy()
    canceller.add_reference(BLOCK / RATE, np.zeros(0, dtype=np.int16), RATE)
    assert np.array_equal(canceller.reference.window(0.0, BLOCK), before)
