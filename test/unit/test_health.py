"""The watchdog tells a node that stopped publishing (on the one fake clock), and audio gaps
are counted: the cores behind /diagnostics."""

from phanthy_common.health import OK, STALE, GapCounter, Status, Watchdog
from support.fakes import FakeClock


def levels(dog):
    return {s.name: s.level for s in dog.report()}


def test_a_node_that_keeps_publishing_is_ok():
    clock = FakeClock()
    dog = Watchdog(clock, default_allowance_s=3.0)
    for _ in range(5):
        dog.heard("/vad")
        clock.advance(1.0)
    assert levels(dog) == {"/vad": OK}


def test_a_node_silent_longer_than_its_allowance_is_stale_and_says_for_how_long():
    clock = FakeClock()
    dog = Watchdog(clock, default_allowance_s=3.0)
    dog.heard("/vad")
    clock.advance(3.5)
    [status] = dog.report()
    assert status.level == STALE
    assert "stopped publishing: silent for 3.5 s (allowed 3 s; 1 message(s) before)" == status.message


def test_a_stale_node_that_publishes_again_is_ok_again():
    clock = FakeClock()
    dog = Watchdog(clock, 3.0)
    dog.heard("/vad")
    clock.advance(10)
    assert dog.heard("/vad") is True  # it was stale until now
    assert levels(dog) == {"/vad": OK}


def test_a_watched_topic_that_never_speaks_is_stale_from_the_outset():
    clock = FakeClock()
    dog = Watchdog(clock, 3.0)
    dog.expect("topic /audio/in", 2.0)
    clock.advance(2.5)
    [status] = dog.report()
    assert status.level == STALE and "never heard" in status.message


def test_a_node_that_shut_down_cleanly_is_forgotten_not_missed():
    clock = FakeClock()
    dog = Watchdog(clock, 3.0)
    dog.heard("/speaker")
    dog.forget("/speaker")
    clock.advance(10)
    assert dog.report() == []


def test_a_frame_that_starts_after_the_last_one_ended_is_a_gap_and_its_lost_audio_is_counted():
    gaps = GapCounter()
    for i in range(5):
        gaps.push(i * 0.02, 0.02)  # continuous 20 ms frames
    assert gaps.gaps == 0
    assert gaps.push(0.20, 0.02) is True  # 100 ms lost after the frame ending at 0.10
    assert gaps.gaps == 1 and abs(gaps.lost_s - 0.10) < 1e-9
    assert gaps.values()["frames"] == "6"


def test_jitter_below_half_a_frame_is_not_a_gap():
    gaps = GapCounter()
    gaps.push(0.0, 0.02)
    assert gaps.push(0.029, 0.02) is False


def test_a_status_keeps_its_values_as_text():
    status = Status.of("audio", OK, "fine", frames=3, lost_s=0.25, ok=True)
    assert status.values == (("frames", "3"), ("lost_s", "0.25"), ("ok", "True"))
    assert status.value("frames") == "3"
