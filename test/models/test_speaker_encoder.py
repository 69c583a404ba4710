"""The bundled speaker encoder on synthesized voices (espeak-ng, piper): voices told apart,
the same voice kept, enrolled voices recognized and unknown ones not (the calibrated defaults)."""

import numpy as np
import pytest

from phanthy_perception.speaker_attribution import ANONYMOUS, SpeakerAttributor
from phanthy_perception.speaker_embedding import mean_embedding
from support import voices
from support.fakes import FakeClock

SENTENCES = ["Where is the dinosaur hall?", "Can you take me to the gift shop, please?",
             "What time does the museum close today?", "Is there a cafe on this floor?",
             "How much is a family membership?", "Tell me about the mammoth skeleton."]


VOICES = {"us": lambda t: voices.espeak(t, voice="en-us"), "us_f3": lambda t: voices.espeak(t, voice="en-us+f3"),
          "klatt": lambda t: voices.espeak(t, voice="en+klatt"), "deep": voices.deep_piper}


@pytest.fixture(scope="module")
def embed(speaker_encoder):
    cache = {}

    def embed(voice: str, text: str) -> np.ndarray:
        if (voice, text) not in cache:
            cache[voice, text] = speaker_encoder.embed(VOICES[voice](text))
        return cache[voice, text]
    return embed


def test_two_voices_alternating_get_two_ids_in_order(embed):
    attributor = SpeakerAttributor(FakeClock())
    order = ["us_f3", "deep", "us_f3", "deep", "us_f3", "deep"]
    ids = [attributor.attribute(embed(v, SENTENCES[i]), 2.0).speaker_id for i, v in enumerate(order)]
    assert ids == ["speaker_1", "speaker_2"] * 3


def test_the_same_voice_keeps_its_id_across_utterances(embed):
    attributor = SpeakerAttributor(FakeClock())
    for voice in ("klatt", "us"):
        got = {attributor.attribute(embed(voice, s), 2.0).speaker_id for s in SENTENCES}
        assert len(got) == 1 and ANONYMOUS not in got


def test_an_enrolled_voice_is_recognized_and_the_others_are_not(speaker_encoder, embed):
    enrollment = ["Hello, I look after the collections in the east wing.",
                  "Please remember my voice so that you know me next time."]
    profile = mean_embedding([speaker_encoder.embed(voices.espeak(t, voice="en-us+f3")) for t in enrollment])
    attributor = SpeakerAttributor(FakeClock(), profiles={"ada": profile})
    assert [attributor.attribute(embed("us_f3", s), 2.0).speaker_id for s in SENTENCES[:3]] == ["ada"] * 3
    for voice in ("us", "klatt", "deep"):
        for s in SENTENCES:
            assert attributor.attribute(embed(voice, s), 2.0).speaker_id != "ada"


def test_an_utterance_and_its_window_cache_agree(speaker_encoder):
    """Windows embedded while the visitor speaks give the utterance's voice, not another."""
    from phanthy_perception.speaker_embedding import WindowCache
    audio = voices.concat(voices.silence(0.4), voices.espeak(SENTENCES[1], voice="en+klatt"), voices.silence(0.4))

    def segment(t0, t1):
        k0, k1 = max(0, int(round(t0 * 16000))), min(len(audio), int(round(t1 * 16000)))
        return audio[k0:k1] if k1 > k0 else audio[:0]
    cache = WindowCache(speaker_encoder, segment)
    start, end = 0.4, len(audio) / 16000 - 0.4
    cache.fill(start, end - 0.5)  # while speaking
    from_windows = cache.utterance(start, end)
    whole = speaker_encoder.embed(audio[int(start * 16000):int(end * 16000)])
    assert float(from_windows @ whole) > 0.9
