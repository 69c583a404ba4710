"""Double-talk detection (EchoGate) on synthesized speech: the robot's voice coming back
through the microphone is held back; a visitor talking over it is let through within a few
VAD blocks of their first syllable (data time, not wall time)."""

import numpy as np

from phanthy_perception.audio import RATE
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


def run_gate(visitor_at_s):
    robot, mic = room(visitor_at_s)
    robot = np.concatenate([robot, np.zeros(max(0, len(mic) - len(robot)), dtype=np.int16)])
    canceller = MicEchoCanceller()
    gate = EchoGate(canceller)
    released = []
    for start in range(0, len(mic) - BLOCK, BLOCK):
        t = start / RATE
        canceller.add_reference(t, robot[start:start + BLOCK], RATE)  # audio/out, as it plays
        gate.add_mic(t, mic[start:start + BLOCK])
        t_end = t + BLOCK / RATE
        # the level-blind VAD hears the echo as speech from 0.3 s on: one onset, then nothing
        events = [VadEvent("onset", 0.27, 0.27, 0, t_end, 0.9)] if t <= 0.3 < t_end else []
        released += [e.t_detected for e in gate.filter(events, t_end) if e.kind == "onset"]
    return released


def test_the_robots_own_voice_is_held_back_for_the_whole_reply():
    assert run_gate(None) == []


def test_a_visitor_talking_over_the_robot_is_let_through_within_a_few_blocks():
    visitor_at = 2.5
    released = run_gate(visitor_at)
    assert released, "the visitor was never let through"
    assert visitor_at < released[0] <= visitor_at + 0.2, released


def test_an_empty_reference_frame_changes_nothing():
    canceller = MicEchoCanceller()
    canceller.add_reference(0.0, np.full(BLOCK, 1000, dtype=np.int16), RATE)
    before = canceller.reference.window(0.0, BLOCK).copy()
    canceller.add_reference(BLOCK / RATE, np.zeros(0, dtype=np.int16), RATE)
    assert np.array_equal(canceller.reference.window(0.0, BLOCK), before)
