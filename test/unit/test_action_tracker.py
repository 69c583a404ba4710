from phanthy_agent.core.action_tracker import ActionTracker
from support.fakes import FakeClock




def test_completion_before_registration_is_applied_at_registration():
    clock = FakeClock()
    tracker = ActionTracker(clock)
    assert tracker.complete("a1", "succeeded", '{"ok": true}') is None
    clock.t += 0.01
    action = tracker.register("a1", "blink", "led", {}, True, 5.0)
    assert action.terminal and action.status == "succeeded" and action.result_json == '{"ok": true}'
    assert tracker.outstanding() == []


def test_deadlines_turn_into_timeouts():
    clock = FakeClock()
    tracker = ActionTracker(clock)
    tracker.register("a1", "navigate_to", "base", {}, True, 10.0)
    tracker.register("a2", "speak", "speaker", {}, True, 60.0)
    assert tracker.next_deadline() == 110.0
    clock.t = 110.0
    [expired] = tracker.expire()
    assert expired.action_id == "a1" and expired.status == "timeout" and "10.0 s" in expired.error
    assert [a.action_id for a in tracker.outstanding()] == ["a2"]


def test_first_end_wins_and_unknown_status_is_a_failure():
    tracker = ActionTracker(FakeClock())
    tracker.register("a1", "speak", "speaker", {}, True, 60.0)
    tracker.complete("a1", "cancelled")
    assert tracker.complete("a1", "succeeded") is None
    assert tracker.get("a1").status == "cancelled"
    tracker.register("a2", "speak", "speaker", {}, True, 60.0)
    tracker.complete("a2", "done!")
    assert tracker.get("a2").status == "failed" and "unknown status" in tracker.get("a2").error


def test_non_acting_actions_are_not_outstanding_for_the_protocol():
    tracker = ActionTracker(FakeClock())
    tracker.register("q", "lookup", "kb", {}, False, 5.0)
    assert tracker.outstanding() == [] and len(tracker.outstanding(acting_only=False)) == 1


def test_memory_is_bounded_but_running_actions_are_kept():
    clock = FakeClock()
    tracker = ActionTracker(clock, unregistered_max=4, history_max=3)
    tracker.register("run", "navigate_to", "base", {}, True, 100.0)
    for i in range(10):
        tracker.register(f"d{i}", "blink", "led", {}, True, 1.0)
        tracker.complete(f"d{i}", "succeeded")
        tracker.complete(f"ghost{i}", "succeeded")  # never registered
    assert tracker.get("run") is not None
    assert tracker.unregistered_count() <= 4


def test_unreported_endings_are_reported_once():
    tracker = ActionTracker(FakeClock())
    tracker.register("a", "speak", "speaker", {}, True, 5.0)
    tracker.complete("a", "failed", error="speaker unplugged")
    assert [a.action_id for a in tracker.take_unreported()] == ["a"]
    assert tracker.take_unreported() == []


def test_the_first_audio_is_when_the_speaker_played_it_not_when_the_news_arrived():
    clock = FakeClock()
    tracker = ActionTracker(clock)
    clock.t = 100.0
    tracker.register("a1", "speak", "speaker", {"text": "Sure."}, True, 60.0)
    clock.t = 100.3
    tracker.playback("a1", "", playing=True, stamp=100.29)  # stamped by the speaker 10 ms earlier
    assert tracker.get("a1").t_first_audio == 100.29
    # overtaking registration, the stamp is kept too
    tracker.playback("a2", "", playing=True, stamp=100.25)
    tracker.register("a2", "speak", "speaker", {"text": "Hi."}, True, 60.0)
    assert tracker.get("a2").t_first_audio == 100.25
    # another machine's clock (ahead, or far behind): our own time instead
    for stamp in (100.5, 90.0):
        tracker.register(f"s{stamp}", "speak", "speaker", {"text": "Hi."}, True, 60.0)
        tracker.playback(f"s{stamp}", "", playing=True, stamp=stamp)
        assert tracker.get(f"s{stamp}").t_first_audio == 100.3
