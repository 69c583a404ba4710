"""The bundled sentence-embedding model (phanthy_common/embedding.py) on real sentences."""

import threading

import numpy as np
import pytest

from phanthy_common.embedding import SentenceEncoder, shared_encoder


@pytest.fixture(scope="module")
def encoder() -> SentenceEncoder:
    return shared_encoder()


def cosine(encoder, a: str, b: str) -> float:
    va, vb = encoder.encode([a, b])
    return float(va @ vb)


def test_rows_are_unit_vectors_of_the_model_dimension(encoder):
    vectors = encoder.encode(["take me to the cafe", "when do you close?", "hello"])
    assert vectors.shape == (3, encoder.dim) and encoder.dim == 384
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert encoder.name


def test_no_texts_give_an_empty_matrix(encoder):
    assert encoder.encode([]).shape == (0, encoder.dim)


@pytest.mark.parametrize("a, b, unrelated", [
    ("Where are the toilets?", "I need to find a bathroom", "When does the museum close?"),
    ("Take me to the dinosaur hall", "Can you show me where the T. rex skeleton is?", "Is there wifi?"),
    ("I'd like two tickets for the 3 pm tour", "Can I book a tour for two people?", "Where can I park my car?"),
    ("What time do you close?", "How late are you open tonight?", "Can I take photos?"),
    ("Thank you so much", "Thanks a lot, that was helpful", "Cancel my booking"),
])
def test_a_paraphrase_is_closer_than_an_unrelated_question(encoder, a, b, unrelated):
    assert cosine(encoder, a, b) > cosine(encoder, a, unrelated) + 0.15


def test_paraphrases_are_similar_and_unrelated_sentences_are_not(encoder):
    assert cosine(encoder, "Is there a cafe?", "Where can I get a coffee?") > 0.5
    assert cosine(encoder, "Is there a cafe?", "My booking code is K7P2QD") < 0.3


def test_a_batch_gives_the_vectors_of_its_texts_one_by_one(encoder):
    texts = ["a short one", "a considerably longer sentence about the space gallery and its meteorite"]
    batch = encoder.encode(texts)
    for text, row in zip(texts, batch):
        assert float(encoder.encode([text])[0] @ row) > 0.999  # padding does not change a text's vector


def test_a_huge_text_is_cut_not_choked_on(encoder):
    vector = encoder.encode(["blah " * 200_000 + "where are the toilets?"])
    assert vector.shape == (1, encoder.dim) and np.isfinite(vector).all()


def test_threads_may_share_the_encoder(encoder):
    texts = [f"take me to place number {i}" for i in range(8)]
    expected = encoder.encode(texts)
    results, errors = {}, []

    def work(index: int) -> None:
        try:
            for _ in range(5):
                results[index] = encoder.encode([texts[index]])[0]
        except Exception as exc:  # collected: the assertion below names it
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(texts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    assert all(float(results[i] @ expected[i]) > 0.999 for i in range(len(texts)))


def test_the_process_shares_one_encoder():
    assert shared_encoder() is shared_encoder()


def test_it_knows_a_word_as_a_whole_but_not_a_typo(encoder):
    assert encoder.knows("ticket") and encoder.knows("desperate")
    assert not encoder.knows("tikcet") and not encoder.knows("wnat")
