"""Real-time playback of one utterance, as a pure state machine on an injected clock.

No ROS, no audio device, no threads of its own. Whoever owns it (the speaker node's playback
thread, a test with a fake clock) asks `pull()` for the next frame; a frame is handed out only
once its play time has come, so frames leave the player paced in real time:

    player = Player(frame_ms=20, clock=time.monotonic)
    player.add(chunk)              # SpeechChunks, appendable while playing
    player.end_input()             # no more chunks: the player may finish
    while not player.done:
        frame = player.pull()      # a Frame whose play time has come, or None
        if frame is not None:
            sink.write(frame.t, frame.samples, frame.sample_rate)
        else:
            sleep_until(player.next_due())   # None: waiting for input or resume

Timeline. The chunks form one stream of samples at one rate (the first chunk's, or the rate
given; later chunks at another rate are resampled). Frame k of the stream is due at
`next_due`; each released frame moves `next_due` by its duration. A frame's `t` is the play time
of its first sample. After a pause, or when the stream ran dry because synthesis was slower than
playback, the schedule restarts at the time the next frame is released, so the gap is a gap in
time, never a skipped sample. `position` counts the samples released; a word is heard (part of
`heard_text`) once its end sample has been released, so up to one frame early.

States (those of phanthy/msg/Playback): idle (nothing released yet, or everything played),
playing (also while waiting for the next chunk), paused, stopped. `done` is true once the
utterance is over: played to the end (idle, `complete`) or stopped. After the last frame the
player stays `playing` until that frame's play time is over, so `done` means the sound ended.

Thread safety: every public method takes the player's lock, so a controller may call `pause()`,
`stop_at_boundary()`... from another thread while the owner pulls frames.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

import numpy as np

from .tts import SpeechChunk

IDLE, PLAYING, PAUSED, STOPPED = "idle", "playing", "paused", "stopped"


@dataclass
class Frame:
    t: float  # play time of the first sample (player clock)
    samples: np.ndarray  # int16
    sample_rate: int
    start: int  # stream position (samples) of the first sample

    @property
    def duration_s(self) -> float:
        return len(self.samples) / float(self.sample_rate)


@dataclass
class _Chunk:
    text: str
    start: int  # stream position of the first sample
    end: int
    first_word: int  # index in Player._words


class Player:
    def __init__(self, frame_ms: float = 20.0, clock: Callable[[], float] = time.monotonic,
                 sample_rate: Optional[int] = None):
        self.frame_ms = float(frame_ms)
        self.clock = clock
        self.sample_rate = int(sample_rate) if sample_rate else 0
        self._lock = threading.RLock()
        self._audio: List[np.ndarray] = []  # pending sample blocks, in order
        self._available = 0  # samples appended so far (stream length)
        self._chunks: List[_Chunk] = []
        self._words: List[Tuple[str, int]] = []  # (word, end in stream samples)
        self._input_ended = False
        self._position = 0  # samples released
        self._anchor: Optional[Tuple[float, int]] = None  # (time, stream position) of the schedule
        self._restart = True  # the next release starts a new schedule (start, after pause or underrun)
        self._stop_at: Optional[int] = None  # stop when the position reaches this sample
        self._stopped = False
        self._paused = False
        self._started = False
        self._end_time: Optional[float] = None  # when the last released sample has played
        self._gain = 1.0

    # --- input ---------------------------------------------------------------------------------
    def add(self, chunk: SpeechChunk) -> None:
        """Append a synthesized chunk (the next sentence while the current one plays)."""
        with self._lock:
            if self._input_ended:
                raise RuntimeError("add() after end_input()")
            samples = np.asarray(chunk.samples, dtype=np.int16)
            scale = 1.0
            if not self.sample_rate:
                self.sample_rate = int(chunk.sample_rate)
            elif chunk.sample_rate != self.sample_rate:
                from phanthy_common.audio import resample  # scipy.signal: ~1 s to import, rarely needed
                samples = resample(samples, chunk.sample_rate, self.sample_rate)
                scale = self.sample_rate / float(chunk.sample_rate)
            start = self._available
            self._chunks.append(_Chunk(chunk.text, start, start + len(samples), len(self._words)))
            for word, end in chunk.word_ends:
                self._words.append((word, start + min(len(samples), int(round(end * scale)))))
            if len(samples):
                self._audio.append(samples)
                self._available += len(samples)

    def end_input(self) -> None:
        """No more chunks: once the stream is played, the utterance is complete."""
        with self._lock:
            self._input_ended = True
            if self._available == 0 and self._end_time is None:
                self._end_time = self.clock()  # nothing to play: done at once

    # --- output --------------------------------------------------------------------------------
    @property
    def frame_samples(self) -> int:
        return max(1, int(round((self.sample_rate or 16000) * self.frame_ms / 1000.0)))

    def pull(self) -> Optional[Frame]:
        """The next frame if its play time has come (by the clock), else None."""
        with self._lock:
            if self._stopped or self._paused or not self.sample_rate:
                return None
            now = self.clock()
            limit = self._available if self._stop_at is None else min(self._available, self._stop_at)
            want = self.frame_samples
            left = limit - self._position
            final = self._input_ended or self._stop_at is not None and self._stop_at <= self._available
            if left <= 0 or (left < want and not final):
                # waiting for input (a partial frame waits for the rest unless it is the end):
                # the schedule restarts when it comes, never before the released audio ends
                self._restart = True
                return None
            if self._restart:  # (re)start the schedule: now, or when the last frame ends
                self._anchor = (self._released_end(), self._position)
                self._restart = False
            due = self._due()
            if now < due:
                return None
            size = min(want, left)
            samples = self._take(size)
            if self._gain != 1.0:
                samples = np.clip(samples.astype(np.float32) * self._gain, -32768, 32767).astype(np.int16)
            frame = Frame(due, samples, self.sample_rate, self._position)
            self._position += size
            self._started = True
            if self._position >= limit and final:
                self._end_time = self._due()  # the last frame plays until then
            return frame

    def next_due(self) -> Optional[float]:
        """When pull() will next have something (clock time): the next frame's play time, or
        the end of the last frame; None while waiting for input or resume, or when done."""
        with self._lock:
            if self.done or self._paused:
                return None
            if self._end_time is not None:
                return self._end_time
            limit = self._available if self._stop_at is None else min(self._available, self._stop_at)
            left = limit - self._position
            final = self._input_ended or self._stop_at is not None and self._stop_at <= self._available
            if left <= 0 or (left < self.frame_samples and not final):
                return None
            return self._released_end()

    def _released_end(self) -> float:
        """When the audio released so far has played (now if it has)."""
        now = self.clock()
        return now if self._anchor is None else max(now, self._due())

    def _due(self) -> float:
        """Play time of the sample at the current position, on the current schedule."""
        t, position = self._anchor
        return t + (self._position - position) / float(self.sample_rate)

    def _take(self, size: int) -> np.ndarray:
        parts = []
        while size > 0:
            block = self._audio[0]
            if len(block) <= size:
                parts.append(block)
                size -= len(block)
                self._audio.pop(0)
            else:
                parts.append(block[:size])
                self._audio[0] = block[size:]
                size = 0
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    # --- control -------------------------------------------------------------------------------
    def pause(self) -> None:
        """Stop releasing frames now; the position is kept."""
        with self._lock:
            if not self.done:
                self._paused = True

    def resume(self) -> None:
        """Continue from the position; the next frame is released at once."""
        with self._lock:
            if self._paused:
                self._paused = False
                self._restart = True
                if self._end_time is not None:  # paused during the last frame's tail
                    self._end_time = max(self._end_time, self.clock())

    def stop_now(self) -> float:
        """Stop releasing frames; returns the time the already released audio ends."""
        with self._lock:
            if not self.done:
                self._stopped = True
                self._stop_at = self._position
            return self._released_end()

    def stop_at_boundary(self, max_wait_ms: float = 300.0) -> float:
        """Finish the word being played if its end is due within `max_wait_ms`, else stop now.
        Returns the planned stop time (clock): when the last sample to be played ends."""
        with self._lock:
            now = self.clock()
            if self.done:
                return now
            if self._paused or not self._started:
                return self.stop_now()
            released_end = self._released_end()
            target = next((end for _, end in self._words if end >= self._position), None)
            if target is not None and target <= self._available:
                stop_time = released_end + (target - self._position) / float(self.sample_rate)
                if stop_time - now <= max_wait_ms / 1000.0:
                    if self._stop_at is None or target < self._stop_at:
                        self._stop_at = target
                    if target == self._position:
                        self._stopped = True
                        return released_end
                    return stop_time
            return self.stop_now()

    def duck(self, gain: float) -> None:
        """Scale the frames released from now on (1.0 = as synthesized, 0.3 ≈ -10 dB)."""
        with self._lock:
            self._gain = max(0.0, float(gain))

    # --- status --------------------------------------------------------------------------------
    @property
    def state(self) -> str:
        with self._lock:
            self._settle()
            if self._stopped:
                return STOPPED
            if self._paused:
                return PAUSED
            if not self._started or self._end_time is not None and self.clock() >= self._end_time:
                return IDLE
            return PLAYING

    @property
    def done(self) -> bool:
        with self._lock:
            self._settle()
            return self._stopped or (self._end_time is not None and self.clock() >= self._end_time
                                     and not self._paused)

    @property
    def stopping(self) -> bool:
        """A stop_at_boundary() stop is planned and its word is still playing."""
        with self._lock:
            self._settle()
            return self._stop_at is not None and not self._stopped

    @property
    def complete(self) -> bool:
        """Played to the end (every sample of every chunk, input ended, never stopped)."""
        with self._lock:
            return self.done and not self._stopped

    def _settle(self) -> None:
        """A planned stop (stop_at_boundary) becomes `stopped` once its last sample has played."""
        if self._stopped or self._end_time is None or self._stop_at is None or self._paused:
            return
        at_the_end = self._input_ended and self._stop_at >= self._available  # that is complete
        if self.clock() >= self._end_time and not at_the_end:
            self._stopped = True

    @property
    def position(self) -> int:
        """Samples released so far."""
        with self._lock:
            return self._position

    @property
    def position_ms(self) -> int:
        with self._lock:
            return int(self._position * 1000 // self.sample_rate) if self.sample_rate else 0

    @property
    def heard_words(self) -> int:
        with self._lock:
            n = 0
            for _, end in self._words:
                if end > self._position:
                    break
                n += 1
            return n

    @property
    def heard_text(self) -> str:
        """The words whose end has been released, joined by single spaces."""
        with self._lock:
            return " ".join(w for w, _ in self._words[:self.heard_words])

    @property
    def text(self) -> str:
        with self._lock:
            return " ".join(c.text for c in self._chunks)

    @property
    def word_count(self) -> int:
        with self._lock:
            return len(self._words)

    @property
    def current_word(self) -> str:
        """The word being played (the next to end), "" when none."""
        with self._lock:
            n = self.heard_words
            return self._words[n][0] if n < len(self._words) else ""

    @property
    def sentence_index(self) -> int:
        """Index of the chunk being played (the one holding the last released sample)."""
        with self._lock:
            sample = max(0, self._position - 1)
            for i, chunk in enumerate(self._chunks):
                if chunk.start <= sample < chunk.end:
                    return i
            return max(0, len(self._chunks) - 1) if self._position else 0

    @property
    def sentence(self) -> str:
        with self._lock:
            return self._chunks[self.sentence_index].text if self._chunks else ""

    @property
    def duration_s(self) -> float:
        """Audio appended so far."""
        with self._lock:
            return self._available / float(self.sample_rate) if self.sample_rate else 0.0
