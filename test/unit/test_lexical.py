"""BM25 retrieval (phanthy_common/lexical.py)."""

from phanthy_common.lexical import LexicalIndex, tokenize


def test_tokens_drop_stopwords_and_fold_word_forms():
    assert tokenize("Where are the toilets?") == ["toilet"]
    assert tokenize("What are your opening hours?") == ["open", "hour"]
    assert tokenize("the galleries") == ["gallery"]


def test_the_text_sharing_the_rarer_word_scores_highest():
    index = LexicalIndex(["Where are the toilets?", "Is there a cafe?", "Are the toilets clean?",
                          "When do you close?", "Is there wifi?"])
    scores = index.scores("a cafe near the toilets please")
    assert scores.argmax() == 1  # "cafe" is in one text, "toilets" in two
    assert scores[0] > 0 and scores[3] == scores[4] == 0


def test_no_shared_content_word_scores_zero_everywhere():
    index = LexicalIndex(["Where are the toilets?", "Is there a cafe?", "what is it"])
    assert not index.scores("tell me about it").any()
    assert index.scores("").shape == (3,)


def test_an_empty_index_scores_nothing():
    assert LexicalIndex([]).scores("cafe").shape == (0,)
