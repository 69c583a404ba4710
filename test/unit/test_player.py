"""The speaker's real-time player on a fake clock: pacing, pause/resume, stop at a word
boundary, heard text, chunks appended while playing, ducking; the silent engine's timing."""

import numpy as np
import pytest

from phanthy_drivers.player import Player
from phanthy_drivers.tts import SilentEngine, SpeechChunk
from support.fakes import FakeClock


RATE = 16000


def chunk(words_and_ms, text=None, rate=RATE, tail_ms=0):
    """A chunk whose words end at the given times (ms); samples count up so frames are traceable."""
    ends = [(w, int(ms * rate / 1000)) for w, ms in words_and_ms]
    n = ends[-1][1] + int(tail_ms * rate / 1000)
    samples = (np.arange(n) % 30000).astype(np.int16)
    return SpeechChunk(text or " ".join(w for w, _ in words_and_ms), samples, rate, ends)


def play(player, clock, actions=None, until=None, max_steps=100000):
    """Drive the player like the node does: pull, else sleep until next_due() (or the next
    scheduled action). `actions`: {time: fn}. Returns the frames released."""
    actions = dict(actions or {})
    frames = []
    for _ in range(max_steps):
        for t in sorted(k for k in actions if k <= clock.t + 1e-12):
            actions.pop(t)(player)
        if until is not None and clock.t >= until:
            break
        frame = player.pull()
        if frame is not None:
            assert frame.t <= clock.t + 1e-9, "a frame is released once its play time has come"
            frames.append(frame)
            continue
        if player.done and not actions:
            break
        due = player.next_due()
        candidates = [t for t in (due,) if t is not None] + list(actions) + ([until] if until else [])
        if not candidates:
            raise AssertionError(f"stuck at {clock.t}: state {player.state}")
        clock.t = max(clock.t, min(candidates))
    return frames


def test_frames_are_released_in_real_time_and_the_player_ends_idle_and_complete():
    clock = FakeClock()
    player = Player(frame_ms=20, clock=clock)
    player.add(chunk([("one", 400), ("two", 1000)]))
    player.end_input()
    assert player.state == "idle" and player.next_due() == clock.t
    first = player.pull()
    assert first.t == 100.0 and len(first.samples) == 320 and player.state == "playing"
    assert player.pull() is None, "the second frame is not due yet"
    assert player.next_due() == pytest.approx(100.02)
    frames = [first] + play(player, clock)
    assert [round(f.t - 100.0, 6) for f in frames] == [round(0.02 * k, 6) for k in range(50)]
    assert np.array_equal(np.concatenate([f.samples for f in frames]), np.arange(16000) % 30000)
    assert clock.t == pytest.approx(101.0), "done when the last frame has played, not when released"
    assert player.done and player.complete and player.state == "idle"
    assert player.heard_text == "one two" and player.position_ms == 1000


def test_pause_keeps_the_position_and_resume_continues_from_it():
    clock = FakeClock()
    player = Player(20, clock)
    player.add(chunk([("alpha", 500), ("beta", 1000)]))
    player.end_input()
    states = []
    frames = play(player, clock, {100.3: lambda p: (p.pause(), states.append(p.state)),
                                  100.8: lambda p: states.append((p.state, p.position_ms, p.heard_text)),
                                  101.3: lambda p: p.resume()})
    assert states == ["paused", ("paused", 300, "")]
    times = [f.t - 100.0 for f in frames]
    assert max(t for t in times if t < 0.5) == pytest.approx(0.28)
    assert min(t for t in times if t > 0.5) == pytest.approx(1.3), "resumes at once, no samples skipped"
    assert np.array_equal(np.concatenate([f.samples for f in frames]), np.arange(16000) % 30000)
    assert clock.t == pytest.approx(102.0) and player.complete


def test_stop_at_boundary_finishes_a_word_that_ends_within_the_wait():
    clock = FakeClock()
    player = Player(20, clock)
    player.add(chunk([("the", 250), ("fossil", 900), ("room", 1000)], tail_ms=100))
    player.end_input()
    planned = []
    frames = play(player, clock, {100.1: lambda p: planned.append(p.stop_at_boundary(300))})
    assert planned == [pytest.approx(100.25)]
    assert sum(len(f.samples) for f in frames) == 4000, "stops exactly at the word's end sample"
    assert len(frames[-1].samples) == 4000 - 12 * 320, "the last frame is cut at the boundary"
    assert clock.t == pytest.approx(100.25) and player.state == "stopped"
    assert player.heard_text == "the" and not player.complete


def test_stop_at_boundary_stops_at_once_when_the_word_ends_later_than_the_wait():
    clock = FakeClock()
    player = Player(20, clock)
    player.add(chunk([("the", 250), ("fossil", 900), ("room", 1000)]))
    player.end_input()
    planned = []
    frames = play(player, clock, {100.31: lambda p: planned.append((p.stop_at_boundary(300), p.state))})
    # at 0.31 s, 16 frames (0.32 s) are out; "fossil" would end 0.58 s later
    assert planned == [(pytest.approx(100.32), "stopped")]
    assert sum(len(f.samples) for f in frames) == 16 * 320 and player.heard_text == "the"
    assert player.done and not player.complete
    assert player.pull() is None and player.resume() is None and player.state == "stopped"


def test_stop_at_boundary_while_paused_or_before_the_first_frame_stops_now():
    clock = FakeClock()
    player = Player(20, clock)
    assert player.stop_at_boundary() == clock.t and player.state == "stopped"
    player = Player(20, clock)
    player.add(chunk([("a", 200), ("b", 400)]))
    play(player, clock, until=100.1)
    player.pause()
    clock.t += 5
    assert player.stop_at_boundary(300) == clock.t and player.state == "stopped"
    assert player.heard_text == ""


def test_heard_text_is_exact_across_chunks_and_stop_now_keeps_what_was_heard():
    clock = FakeClock()
    player = Player(20, clock)
    player.add(chunk([("Hello", 300), ("there.", 700)], tail_ms=100))
    player.add(chunk([("This", 200), ("is", 300), ("the", 400), ("hall.", 800)]))
    player.end_input()
    seen = {}
    play(player, clock, {
        100.79: lambda p: seen.setdefault("a", (p.heard_text, p.sentence_index, p.current_word)),
        101.02: lambda p: seen.setdefault("b", (p.heard_text, p.sentence, p.current_word)),
        101.25: lambda p: seen.setdefault("c", (p.heard_text, p.stop_now()))})
    assert seen["a"] == ("Hello there.", 0, "This")
    assert seen["b"] == ("Hello there. This", "This is the hall.", "is")
    assert seen["c"][0] == "Hello there. This is the" and player.heard_text == "Hello there. This is the"
    assert player.state == "stopped" and player.position_ms == 1260


def test_chunks_appended_while_playing_continue_without_losing_samples():
    clock = FakeClock()
    player = Player(20, clock)
    first = chunk([("one", 250), ("two", 510)])  # 8160 samples: 25.5 frames
    second = chunk([("three", 300)])
    player.add(first)
    # the second sentence is still being synthesized when the first has played: an underrun
    frames = play(player, clock, {100.9: lambda p: (p.add(second), p.end_input())})
    times = [round(f.t - 100.0, 4) for f in frames]
    assert times[:25] == [round(0.02 * k, 4) for k in range(25)]
    assert times[25] == pytest.approx(0.9), "the half frame waited for the next chunk"
    audio = np.concatenate([f.samples for f in frames])
    assert np.array_equal(audio, np.concatenate([first.samples, second.samples]))
    assert player.heard_text == "one two three" and player.complete
    assert clock.t == pytest.approx(100.9 + (len(audio) - 25 * 320) / RATE)


def test_a_chunk_appended_before_the_stream_runs_dry_plays_seamlessly():
    clock = FakeClock()
    player = Player(20, clock)
    player.add(chunk([("one", 400)]))
    frames = play(player, clock, {100.1: lambda p: (p.add(chunk([("two", 400)])), p.end_input())})
    assert [round(f.t - 100.0, 4) for f in frames] == [round(0.02 * k, 4) for k in range(40)]


def test_chunks_at_another_rate_are_resampled_and_their_word_ends_scaled():
    clock = FakeClock()
    player = Player(20, clock, sample_rate=RATE)
    player.add(chunk([("hi", 500)], rate=22050))
    player.end_input()
    frames = play(player, clock)
    assert sum(len(f.samples) for f in frames) == 8000 and all(f.sample_rate == RATE for f in frames)
    assert player.heard_text == "hi" and player.complete


def test_duck_scales_frames_from_now_on():
    clock = FakeClock()
    player = Player(20, clock)
    loud = SpeechChunk("a", np.full(640, 10000, dtype=np.int16), RATE, [("a", 640)])
    player.add(loud)
    player.end_input()
    a = player.pull()
    player.duck(0.5)
    clock.t += 0.02
    b = player.pull()
    assert a.samples[0] == 10000 and b.samples[0] == 5000


def test_silent_engine_is_the_simulated_speakers_timing():
    engine = SilentEngine(ms_per_char=55, min_word_ms=120, sample_rate=RATE)
    c = engine.synthesize("a hippopotamus")
    assert c.word_ends == [("a", int(0.12 * RATE)), ("hippopotamus", int(round((0.12 + 13 * 0.055) * RATE)))]
    assert len(c.samples) == c.word_ends[-1][1] and not c.samples.any()
