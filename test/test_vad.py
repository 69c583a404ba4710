"""Voice activity detection: the segmenter's rules on made-up probabilities, silero on
synthesized speech with known boundaries, and the `vad` node over real DDS."""

import array
import logging
import statistics
import time
import uuid

import numpy as np
import pytest
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy

from phanthy.msg import AudioFrame, VoiceActivity
from phanthy_common.convert import from_time, header
from phanthy_common.audio import RATE
from phanthy_perception.vad import BLOCK, SileroVad, VadSegmenter, VadStream
from phanthy_perception.vad_node import VadNode
from support import voices
from support.ros_harness import Collect, spin, wait_for

log = logging.getLogger(__name__)

T0 = 1000.0  # stamp of the first sample: events must follow the audio clock, whatever it is
FIRST = "I would like to borrow a book about robots"  # no commas: no pause inside
SECOND = "Where can I find the library"


@pytest.fixture(scope="module")
def model():
    return SileroVad()


def run(model, audio, frame=None, stamp=T0):
    model.reset()
    stream = VadStream(model)
    if frame is None:
        return stream.push(stamp, audio)
    events = []
    for i in range(0, len(audio), frame):
        events += stream.push(stamp + i / RATE, audio[i:i + frame])
    return events


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


# --- silero on synthesized speech -------------------------------------------------------------
def test_one_sentence_gives_one_segment_with_a_pause_hint_first(model):
    speech = voices.espeak(FIRST)
    start, end = T0 + 1.0, T0 + 1.0 + len(speech) / RATE
    events = run(model, voices.concat(voices.silence(1.0), speech, voices.silence(1.5)))
    assert kinds(events) == ["onset", "pause", "offset"]
    onset, pause, offset = events
    lag = onset.t_detected - start
    log.info("onset decided %.0f ms after the true start (event time %+.0f ms); offset decided %.0f ms "
             "after the true end", lag * 1000, (onset.t - start) * 1000, (offset.t_detected - end) * 1000)
    assert 0.0 < lag <= 0.150
    assert abs(onset.t - start) < 0.100 and onset.t_speech_start == onset.t
    assert 0.400 <= offset.t_detected - end <= 0.600
    assert pause.t_detected < offset.t_detected and pause.t == offset.t - 0.030
    assert offset.t_speech_start == onset.t and offset.silence_ms >= 400
    assert [e.speaking for e in events] == [True, True, False]


def test_a_short_gap_is_a_pause_and_a_resume_within_one_segment(model):
    first, second = voices.espeak(FIRST), voices.espeak(SECOND)
    audio = voices.concat(voices.silence(1.0), first, voices.silence(0.25), second, voices.silence(1.5))
    events = run(model, audio)
    assert kinds(events) == ["onset", "pause", "resume", "pause", "offset"]
    resume = events[2]
    second_start = T0 + 1.0 + len(first) / RATE + 0.25
    assert abs(resume.t - second_start) < 0.1 and resume.silence_ms < 400


def test_a_long_gap_makes_two_segments(model):
    first, second = voices.espeak(FIRST), voices.espeak(SECOND)
    audio = voices.concat(voices.silence(1.0), first, voices.silence(0.8), second, voices.silence(1.5))
    segments = [e for e in run(model, audio) if e.kind in ("onset", "offset")]
    assert kinds(segments) == ["onset", "offset", "onset", "offset"]
    second_start = T0 + 1.0 + len(first) / RATE + 0.8
    assert abs(segments[2].t - second_start) < 0.1
    assert segments[3].t_speech_start == segments[2].t != segments[0].t


@pytest.mark.parametrize("audio", [voices.silence(3.0), voices.noise(4.0),
                                   voices.noise(4.0, level=1500, seed=3)],
                         ids=["silence", "room_noise", "loud_room_noise"])
def test_no_speech_no_events(model, audio):
    assert run(model, audio) == []


def test_cough_behaviour_is_documented(model):
    """Measured: silero's probability stays below 0.3 on voices.cough (seeds 1-8, 0.2-0.6 s,
    gain 0.3-3), so a cough alone never starts speech. This records it; if a model update
    changes it, the agent's barge-in logic must filter coughs itself."""
    events = []
    for seed in (1, 2, 3):
        events += run(model, voices.concat(voices.silence(0.5), voices.cough(seed), voices.silence(1.0)))
    assert events == []


def test_same_audio_same_events_whatever_the_framing(model):
    audio = voices.concat(voices.silence(0.7), voices.espeak(FIRST), voices.silence(0.25),
                          voices.espeak(SECOND), voices.silence(1.0))
    whole = run(model, audio)
    assert len(whole) >= 4
    assert run(model, audio) == whole
    assert run(model, audio, frame=BLOCK) == whole
    assert run(model, audio, frame=333) == whole
    assert run(model, audio, frame=320) == whole


def test_a_clock_jump_closes_the_open_segment(model):
    model.reset()
    stream = VadStream(model)
    speech = voices.espeak(FIRST)
    assert kinds(stream.push(T0, voices.concat(voices.silence(0.5), speech[:RATE]))) == ["onset"]
    events = stream.push(T0 + 60.0, voices.silence(1.0))  # another source, a minute later
    assert kinds(events) == ["offset"] and events[0].t_detected <= T0 + 1.5 + 1e-6
    assert not stream.speaking


def test_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="nowhere.onnx"):
        SileroVad(str(tmp_path / "nowhere.onnx"))
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="bad.onnx"):
        SileroVad(str(bad))


def test_keeps_up_with_real_time(model):
    audio = voices.concat(voices.silence(0.5), voices.espeak(FIRST))
    blocks = [audio[i:i + BLOCK] for i in range(0, len(audio) - BLOCK + 1, BLOCK)]
    costs = []
    for block in blocks * 3:
        start = time.perf_counter()
        model.probability(block)
        costs.append(time.perf_counter() - start)
    median = statistics.median(costs)
    log.info("silero per 32 ms block: median %.0f us, max %.0f us", median * 1e6, max(costs) * 1e6)
    assert median < 0.032 / 4  # a quarter of real time at most, on a loaded CI machine


# --- the node over DDS -----------------------------------------------------------------------
AUDIO_QOS = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
ACTIVITY_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)


@pytest.fixture
def rig(ros):
    ns = f"/t{uuid.uuid4().hex[:8]}"
    vad = VadNode(namespace=ns, parameter_overrides=[Parameter("min_silence_ms", value=400)])
    probe = Node(f"probe_{uuid.uuid4().hex[:6]}", namespace=ns)
    pub = probe.create_publisher(AudioFrame, "audio/in", AUDIO_QOS)
    activity = Collect(probe, VoiceActivity, "voice/activity", ACTIVITY_QOS)
    group = spin(vad, probe)
    wait_for(lambda: pub.get_subscription_count() > 0 and vad.activity_pub.get_subscription_count() > 0,
             20, "discovery")
    yield vad, pub, activity
    group.stop()


def frame(stamp, samples, rate=RATE, channels=1):
    return AudioFrame(header=header(stamp), sample_rate=rate, channels=channels,
                      data=array.array("h", np.asarray(samples, dtype=np.int16).tobytes()))


@pytest.mark.ros
def test_node_publishes_onset_then_offset(rig):
    vad, pub, activity = rig
    speech = voices.espeak(FIRST)
    audio = voices.concat(voices.silence(1.0), speech, voices.silence(1.5))
    # Malformed frames first: skipped, logged once, harmless.
    pub.publish(frame(T0 - 5, voices.silence(0.02), channels=2))
    pub.publish(frame(T0 - 5, [], rate=RATE))
    pub.publish(frame(T0 - 5, voices.silence(0.02), rate=7))
    # 48 kHz, 20 ms frames, as fast as the node takes them (at most 100 frames in flight).
    audio48 = voices.to_rate(audio, RATE, 48000)
    sent = 0
    for i in range(0, len(audio48), 960):
        wait_for(lambda: sent - vad.frames < 100, 20, "the node to take frames")
        pub.publish(frame(T0 + i / 48000, audio48[i:i + 960], rate=48000))
        sent += 1
    msgs = activity.wait(lambda ms: any(m.event == "offset" for m in ms), 30, "an offset")
    assert [m.event for m in msgs] == ["onset", "pause", "offset"]
    onset, offset = msgs[0], msgs[-1]
    start, end = T0 + 1.0, T0 + 1.0 + len(speech) / RATE
    assert onset.speaking and not offset.speaking
    assert abs(from_time(onset.header.stamp) - start) < 0.1 and onset.t_speech_start == pytest.approx(
        from_time(onset.header.stamp), abs=1e-6)
    assert 0 < onset.t_detected - start <= 0.15 and onset.probability >= 0.5
    assert offset.t_speech_start == onset.t_speech_start and offset.silence_ms >= 400
    assert 0.4 <= offset.t_detected - end <= 0.6
    assert len(vad.skipped) == 3 and sum(vad.skipped.values()) == 3
    wait_for(lambda: vad.frames == sent + 3, 20, "every frame processed")
    log.info("node: %d blocks, %.0f us of callback time per 32 ms block (incl. 48k->16k resampling)",
             vad.stream.blocks, vad.busy_s / vad.stream.blocks * 1e6)


@pytest.mark.ros
def test_node_closes_a_segment_when_the_audio_stops_mid_speech(rig):
    vad, pub, activity = rig
    audio = voices.concat(voices.silence(0.5), voices.espeak(FIRST)[:RATE])
    for i in range(0, len(audio), 320):
        pub.publish(frame(T0 + i / RATE, audio[i:i + 320]))
    msgs = activity.wait(lambda ms: any(m.event == "offset" for m in ms), 20, "an offset after the audio stopped")
    assert [m.event for m in msgs] == ["onset", "offset"]
    assert msgs[1].t_detected == pytest.approx(T0 + (len(audio) // 512) * 512 / RATE)


@pytest.mark.ros
def test_node_refuses_to_start_without_its_model(ros, tmp_path):
    missing = str(tmp_path / "missing.onnx")
    ns = f"/t{uuid.uuid4().hex[:8]}"
    with pytest.raises(ValueError, match="missing.onnx"):
        VadNode(namespace=ns, parameter_overrides=[Parameter("model_path", value=missing)])
    with pytest.raises(ValueError, match="threshold"):
        VadNode(namespace=ns, parameter_overrides=[Parameter("threshold", value=1.5)])
