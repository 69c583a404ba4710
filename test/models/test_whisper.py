"""faster-whisper (tiny.en, bundled) on synthesized speech: sentences word for word, the 30 s
window, noise and coughs give nothing, hotwords, a missing model."""

import numpy as np
import pytest

from phanthy_perception.asr import (POST_ROLL_S, PRE_ROLL_S, AsrResult, WhisperTranscriber, garbage_reason,
                                    normalize_text, resolve_model, word_errors)
from support import voices
from support.voices import RATE, concat, cough, espeak, noise, silence


def around(speech: np.ndarray) -> np.ndarray:
    """What the tracker gives the model: the speech with the silence around the VAD boundaries."""
    return concat(silence(PRE_ROLL_S), speech, silence(POST_ROLL_S))


# --- recognition ------------------------------------------------------------------------
SENTENCES = ["Take me to the dinosaur hall.", "Hey Jarvis, what time does the museum close today?",
             "Can you show me where the gift shop is?", "Do you have room for twenty five people at ten o'clock?"]


@pytest.mark.parametrize("voice", [espeak, voices.piper], ids=["espeak", "piper"])
@pytest.mark.parametrize("text", SENTENCES)
def test_a_sentence_comes_out_word_for_word(whisper, voice, text):
    audio = around(voice(text))
    result = whisper.transcribe(audio)
    assert word_errors(text, result.text) <= (1 if voice is espeak else 0), result.text  # espeak: robotic
    assert 0.5 < result.confidence <= 1.0 and result.language == "en"
    assert abs(result.duration_ms - len(audio) / 16) <= 1


def test_an_utterance_longer_than_the_window_uses_the_30_s_window(whisper):
    text = ("I lost my little brother near the entrance. He is wearing a red jacket and a blue cap. "
            "Can you help me find him? We would like to visit the space exhibition first. "
            "Is there an elevator near the gift shop?")
    long = around(voices.piper(text))
    assert len(long) / RATE > 10.0
    result = whisper.transcribe(long)
    assert result.window_s == 30.0 and word_errors(text, result.text) <= 2, result.text


@pytest.mark.parametrize("name,audio", [
    ("room noise", noise(1.0, 300)), ("loud noise", noise(0.8, 2000, seed=2)),
    ("cough", concat(silence(0.1), cough(seed=1), silence(0.2))),
    ("cough in noise", concat(noise(0.3, 200), cough(seed=3), noise(0.3, 200))), ("silence", silence(1.0))])
def test_noise_and_coughs_give_no_transcript(whisper, name, audio):
    result = whisper.transcribe(audio)
    assert garbage_reason(result) is not None, f"{name} heard as {result}"


def test_hotwords_help_with_the_wake_phrase(whisper):
    text = "Hey Jarvis, take me to the dinosaur hall."
    biased = WhisperTranscriber(hotwords="hey jarvis")
    assert normalize_text(biased.transcribe(around(espeak(text))).text).startswith("hey jarvis")


def test_a_missing_model_is_a_clear_error_naming_the_path(tmp_path):
    with pytest.raises(ValueError, match=str(tmp_path / "nope")):
        WhisperTranscriber(model=str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="no model.bin"):
        resolve_model(str(tmp_path))
    with pytest.raises(ValueError, match="downloaded"):
        resolve_model("base.en")


def result(text: str, logprob: float = -0.2, no_speech: float = 0.1) -> AsrResult:
    return AsrResult(text, float(np.exp(logprob)), "en", 1000, 100.0, logprob, no_speech)
