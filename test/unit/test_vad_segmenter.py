"""The VAD segmenter's rules on made-up probabilities (no model): onsets, pauses, offsets."""

import pytest

from phanthy_perception.vad import VadSegmenter


def kinds(events):
    return [e.kind for e in events]


# --- segmenter rules (pure, probabilities made up) ------------------------------------------
def feed(seg, probs, t0=0.0):
    out = []
    for i, p in enumerate(probs):
        out += seg.feed(t0 + i * 0.032, p)
    return out


def test_a_single_speech_block_is_not_an_onset():
    seg = VadSegmenter(min_speech_ms=60)
    assert feed(seg, [0.0, 0.9, 0.0, 0.0]) == []
    events = feed(VadSegmenter(min_speech_ms=60), [0.0, 0.9, 0.4, 0.0])  # in-between keeps the run
    assert kinds(events) == ["onset"]
    assert events[0].t == pytest.approx(0.032 - 0.030) and events[0].t_detected == pytest.approx(0.096)


def test_segment_events_follow_the_block_clock():
    seg = VadSegmenter(min_silence_ms=400, pause_hint_ms=160, speech_pad_ms=30, min_speech_ms=60)
    probs = [0.9] * 10 + [0.1] * 6 + [0.9] * 5 + [0.1] * 13
    events = feed(seg, probs, t0=50.0)
    assert kinds(events) == ["onset", "pause", "resume", "pause", "offset"]
    onset, pause, resume, _, offset = events
    assert onset.t == pytest.approx(50.0 - 0.03) and onset.t_detected == pytest.approx(50.064)
    assert pause.t == pytest.approx(50.32) and pause.silence_ms == 160 and pause.speaking
    assert resume.t == pytest.approx(50.512) and resume.silence_ms == 192
    silence_start = 50.0 + 21 * 0.032
    assert offset.t == pytest.approx(silence_start + 0.03) and offset.silence_ms == 416
    assert offset.t_detected == pytest.approx(silence_start + 13 * 0.032) and not offset.speaking
    assert {e.t_speech_start for e in events} == {onset.t}


def test_the_default_pause_hint_comes_with_the_third_silent_block():
    # silence is counted in 32 ms blocks: 96 ms is three; the former default (100) meant four,
    # starting every speculative transcription 32 ms later (bench/README.md: 651.6 -> 619.4 ms)
    events = feed(VadSegmenter(), [0.9] * 10 + [0.1] * 4)
    assert kinds(events) == ["onset", "pause"]
    assert events[1].silence_ms == 96 and events[1].t_detected == pytest.approx(13 * 0.032)


def test_no_pause_events_when_the_hint_is_off_and_flush_closes_a_segment():
    seg = VadSegmenter(pause_hint_ms=0)
    assert kinds(feed(seg, [0.9] * 5 + [0.0] * 5)) == ["onset"]
    [offset] = seg.flush(0.32)
    assert offset.kind == "offset" and offset.silence_ms == 160 and offset.t == pytest.approx(0.16 + 0.03)
    assert seg.flush(1.0) == [] and not seg.speaking
