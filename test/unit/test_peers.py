"""The fleet's pure parts on the fake clock: the directory of robots with their states (online,
gone after their ttl, dropped after the linger), and when a robot announces itself (every
period, promptly on a state change, never in a burst)."""

from phanthy_common.peers import AnnounceSchedule, PeerDirectory, console_url_or_empty
from support.fakes import FakeClock


def test_a_peer_is_online_with_its_state_until_its_ttl_then_forgotten():
    clock = FakeClock()
    peers = PeerDirectory(clock, self_id="robot-a")
    assert peers.announce("robot-b", "guide at the door", 6.0, "speaking", "PLAYING")
    assert not peers.announce("robot-b", "guide at the door", 6.0, "idle", "LISTENING"), "known already"
    assert not peers.announce("robot-a", "myself", 6.0), "a robot does not list itself"
    assert peers.peers() == [("robot-b", "guide at the door")]
    assert peers.get("robot-b").agent_state == "idle"
    clock.advance(5.9)
    assert "robot-b" in peers
    clock.advance(0.2)
    assert peers.expire() == ["robot-b"] and peers.peers() == [] and peers.get("robot-b") is None


def test_a_silent_peer_lingers_as_gone_then_is_dropped_and_may_come_back():
    clock = FakeClock()
    fleet = PeerDirectory(clock, self_id="robot-a", linger_s=10.0, keep_self=True)
    fleet.announce("robot-a", "me", 2.0, "idle", "STOPPED")
    fleet.announce("robot-b", "guide", 2.0, "thinking", "THINKING")
    clock.advance(1.5)
    fleet.announce("robot-a", "me", 2.0, "idle", "STOPPED")
    assert [(p["peer_id"], p["online"], p["heard_s_ago"], p["this_robot"]) for p in fleet.fleet()] == [
        ("robot-a", True, 0.0, True), ("robot-b", True, 1.5, False)]
    clock.advance(1.0)  # robot-b silent for 2.5 s, past its 2 s ttl
    fleet.announce("robot-a", "me", 2.0)
    assert fleet.expire() == ["robot-b"]
    [b] = [p for p in fleet.fleet() if p["peer_id"] == "robot-b"]
    assert (b["online"], b["agent_state"], b["heard_s_ago"]) == (False, "thinking", 2.5)
    assert "robot-b" not in fleet and fleet.peers() == [("robot-a", "me")], "a gone peer cannot be messaged"
    clock.advance(9.6)  # 2 s ttl + 10 s linger after it was last heard
    fleet.announce("robot-a", "me", 2.0)
    assert [p["peer_id"] for p in fleet.fleet()] == ["robot-a"]
    assert fleet.announce("robot-b", "guide", 2.0, "idle"), "a robot that comes back is new again"


def test_a_gone_peer_that_announces_again_is_back():
    clock = FakeClock()
    fleet = PeerDirectory(clock, linger_s=30.0)
    fleet.announce("robot-b", "guide", 2.0)
    clock.advance(3.0)
    assert fleet.expire() == ["robot-b"] and fleet.expire() == [], "gone is reported once"
    assert fleet.announce("robot-b", "guide", 2.0), "back"
    assert [p["online"] for p in fleet.fleet()] == [True]


def test_what_a_peer_shows_changing_is_noticed_and_times_alone_are_not():
    clock = FakeClock()
    fleet = PeerDirectory(clock)
    assert fleet.changed("robot-b", None) is False
    fleet.announce("robot-b", "guide", 6.0, "idle", "LISTENING")
    assert fleet.changed("robot-b", None), "a new peer"
    before = fleet.get("robot-b")
    clock.advance(1.0)
    fleet.announce("robot-b", "guide", 6.0, "idle", "LISTENING")
    assert not fleet.changed("robot-b", before)
    fleet.announce("robot-b", "guide", 6.0, "speaking", "PLAYING")
    assert fleet.changed("robot-b", before)


def test_an_announcement_is_bounded_and_a_console_url_must_be_http():
    fleet = PeerDirectory(FakeClock(), max_peers=2)
    fleet.announce("robot-b", "d" * 5000, 6.0, "s" * 1000, "v\x00" * 100, "javascript:alert(1)")
    b = fleet.get("robot-b")
    assert (len(b.description), len(b.agent_state), len(b.voice_state), b.console_url) == (200, 32, 32, "")
    assert "\x00" not in b.voice_state
    fleet.announce("robot-c", "", 6.0, console_url="https://robot-c.local:8765/console")
    assert fleet.get("robot-c").console_url == "https://robot-c.local:8765/console"
    assert not fleet.announce("robot-d", "", 6.0) and fleet.get("robot-d") is None, "at most max_peers"
    assert not fleet.announce("", "no id", 6.0)
    fleet.announce("robot-b", "", float("nan"))
    assert fleet.get("robot-b").expires_at == fleet.get("robot-b").heard_at + 1.0, "a NaN ttl is the shortest"
    fleet.announce("robot-b", "", float("inf"))
    assert fleet.get("robot-b").expires_at == fleet.get("robot-b").heard_at + 3600.0, "an endless ttl is an hour"
    for bad in ("ftp://x", "http://a b", "http://" + "x" * 400, "http://x\ny", ""):
        assert console_url_or_empty(bad) == ""


def test_a_robot_announces_every_period_and_at_once_when_its_state_changes():
    clock = FakeClock(0.0)
    schedule = AnnounceSchedule(clock, period_s=2.0, min_interval_s=0.25)
    schedule.update(("idle", "LISTENING"))
    assert schedule.due(), "the first announcement goes out at once"
    sent = []
    for step in range(1, 41):  # 4 s ticking every 0.1 s, the state unchanged
        clock.t = step * 0.1
        if schedule.due():
            sent.append(round(clock.t, 1))
    assert sent == [2.0, 4.0]
    clock.t = 4.3
    schedule.update(("thinking", "THINKING"))
    assert schedule.due() and schedule.content == ("thinking", "THINKING"), "a change goes out promptly"


def test_a_state_flipping_fast_is_announced_at_the_minimum_interval_ending_on_the_latest():
    clock = FakeClock(0.0)
    schedule = AnnounceSchedule(clock, period_s=2.0, min_interval_s=0.25)
    schedule.update("idle")
    assert schedule.due()
    sent = []
    for step in range(1, 11):  # ten changes in 0.5 s, the node checking after each and on its timer
        clock.t = step * 0.05
        schedule.update(f"state {step}")
        if schedule.due():
            sent.append((round(clock.t, 2), schedule.content))
    assert sent == [(0.25, "state 5"), (0.5, "state 10")]
    clock.t = 0.6
    schedule.update("idle")
    assert not schedule.due(), "within the minimum interval of the last one"
    clock.t = 0.75
    assert schedule.due() and schedule.content == "idle", "the latest state follows at the interval"
    clock.t = 1.0
    assert not schedule.due(), "nothing new: back to the period"
