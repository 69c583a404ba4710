"""Fakes shared by the core tests: the one fake clock, and a speaker for the barge-in controller."""


class FakeClock:
    """A clock the test moves: call it for the time, set `t` or `advance(dt)`."""

    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> float:
        self.t += dt
        return self.t


class FakeSpeaker:
    """What the barge-in controller asks of the speaker (SpeakerControl), recorded."""

    def __init__(self):
        self.calls = []

    def duck(self, gain):
        self.calls.append(("duck", gain))
        return True

    def pause_playback(self):
        self.calls.append(("pause",))
        return True

    def resume_playback(self):
        self.calls.append(("resume",))
        return True

    def stop_at_boundary(self, max_wait_ms):
        self.calls.append(("stop", max_wait_ms))
        return 0.0
