"""A fast cue that someone started talking over the robot, from the echo canceller's own
numbers: once the canceller has converged it removes all but a small, steady share of the
robot's voice from the microphone (its echo return loss enhancement, ERLE); a new voice in the
room is not in the reference, so the canceller's output suddenly carries most of the microphone
energy. That shows in the first 20 ms frame of the visitor's speech, ~80 ms before the VAD's
onset (which needs 60 ms of speech in 32 ms blocks and a clear probability): measured on the
synthetic room, cue 24 ms vs onset 105 ms after the visitor's first sample, median
(bench/barge_in_detect.py).

The cue is only a "candidate": the speaker pauses at once and resumes if no onset confirms it
within `confirm_s` (a cough, a door). It is off until the canceller has converged (ERLE above
`erle_min_db`) and while nothing plays: in a room the canceller cannot model (a reverberation
longer than its filter) it stays off and barge-in waits for the VAD as before. Each reply
(playback after `idle_reset_s` of silence) proves the convergence anew: a mobile robot's echo
path changes between replies, and a canceller still tuned to the old one leaves the robot's
voice in its output (measured: 10-12 false cues per 6 replies whose path changed, 0 with the
reset; bench/voice.py echo). Pure (no ROS).
"""

from __future__ import annotations

import math
from typing import List, Optional

import numpy as np


class DoubleTalkCue:
    def __init__(self, erle_min_db: float = 12.0, residual_share: float = 0.6, loud_db: float = 15.5,
                 confirm_s: float = 0.3, smoothing: float = 0.05, echo_loud_db: float = 6.0,
                 idle_reset_s: float = 1.0):
        self.erle_min_db, self.residual_share = erle_min_db, residual_share
        self.loud = 10 ** (loud_db / 20.0)  # the residual over the noise floor (RMS ratio)
        self.echo_loud = 10 ** (echo_loud_db / 20.0)  # microphone level that teaches the ERLE
        self.confirm_s, self.smoothing = confirm_s, smoothing
        self.erle_db = 0.0  # smoothed over frames of the robot's voice alone, this reply
        self.idle_reset_s = idle_reset_s
        self._idle_since: Optional[float] = None  # nothing playing since
        self.pending: Optional[float] = None  # time of an unconfirmed cue
        self.cues = self.dismissed = 0

    @property
    def converged(self) -> bool:
        return self.erle_db >= self.erle_min_db

    def frame(self, t_end: float, mic_energy: float, clean_energy: float, noise_floor: float,
              playing: bool, segment_open: bool) -> List[str]:
        """One stretch of microphone audio ending at `t_end`: its mean energy before and after
        the canceller, the room's noise floor (RMS), whether the robot's voice may be in it and
        whether listeners already know someone speaks (a published onset). Returns the events
        to publish: "candidate" (someone may have started talking over the robot) or
        "dismissed" (nobody confirmed the last one)."""
        events = self.poll(t_end)
        if not playing:
            self._idle_since = t_end if self._idle_since is None else self._idle_since
            if t_end - self._idle_since >= self.idle_reset_s:
                self.erle_db = 0.0  # the next reply proves the canceller anew
            return events
        self._idle_since = None
        if segment_open:
            return events
        floor = max(noise_floor, 1.0)
        new_sound = (self.converged and self.pending is None
                     and clean_energy > (self.loud * floor) ** 2
                     and clean_energy > self.residual_share * mic_energy)
        if new_sound:
            self.pending, self.cues = t_end, self.cues + 1
            return events + ["candidate"]
        if self.pending is None and mic_energy > (self.echo_loud * floor) ** 2:
            erle = 10.0 * math.log10(mic_energy / max(clean_energy, 1.0))
            self.erle_db += self.smoothing * (erle - self.erle_db)
        return events

    def frame_audio(self, t_end: float, mic: np.ndarray, clean: np.ndarray, noise_floor: float,
                    playing: bool, segment_open: bool) -> List[str]:
        """`frame` on the samples themselves: the raw microphone and the canceller's output
        over the same stretch of time."""
        return self.frame(t_end, float(np.mean(mic.astype(np.float64) ** 2)),
                          float(np.mean(clean.astype(np.float64) ** 2)), noise_floor, playing, segment_open)

    def poll(self, t: float) -> List[str]:
        if self.pending is not None and t - self.pending >= self.confirm_s:
            self.pending, self.dismissed = None, self.dismissed + 1
            return ["dismissed"]
        return []

    def confirmed(self) -> None:
        """An onset was published: the candidate was someone speaking."""
        self.pending = None
