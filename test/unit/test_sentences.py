"""Where reply text is cut for speech: sentence and clause boundaries (the speaker's chunks)."""

from phanthy_common.sentences import split_sentences


def test_split_sentences_cuts_after_sentence_ends_but_not_after_abbreviations_or_initials():
    text = "Dr. Smith found the T. rex in the U.S. in 1990! Isn't that great? It is... truly.\nAsk me more"
    assert split_sentences(text) == ["Dr. Smith found the T. rex in the U.S. in 1990!", "Isn't that great?",
                                     "It is...", "truly.", "Ask me more"]


def test_split_sentences_cuts_a_long_first_sentence_at_a_clause_and_keeps_every_word():
    text = ("Welcome to the natural history museum, where the dinosaur hall is on your left, the gift "
            "shop is downstairs next to the cafe, and the planetarium opens at noon; tickets are sold "
            "at the entrance desk, which is just behind you. Enjoy your visit.")
    chunks = split_sentences(text, first_clause=False)
    assert " ".join(chunks).split() == text.split()
    assert chunks[0] == "Welcome to the natural history museum, where the dinosaur hall is on your left,"
    assert len(chunks[0]) <= 80 and all(len(c) <= 150 for c in chunks)
    assert all(c.rstrip().endswith((",", ";", ".")) for c in chunks)
    assert chunks[-1] == "Enjoy your visit."
    short = "Short and sweet, really, no need to cut."
    assert split_sentences(short, first_clause=False) == [short]
    assert split_sentences("  ") == []


def test_the_first_chunk_ends_at_the_first_clause_so_the_first_audio_comes_sooner():
    assert split_sentences("Sure, let me help. Follow me.") == ["Sure,", "let me help.", "Follow me."]
    text = ("Welcome to the natural history museum, where the dinosaur hall is on your left, the gift "
            "shop is downstairs next to the cafe, and the planetarium opens at noon. Enjoy your visit.")
    chunks = split_sentences(text)
    assert chunks[0] == "Welcome to the natural history museum,"
    assert " ".join(chunks).split() == text.split() and chunks[-1] == "Enjoy your visit."
    # only a clause that the sentence goes on after; numbers are not clauses
    assert split_sentences("Hello, ") == ["Hello,"]
    assert split_sentences("It costs 1,000 euros. Cash only.") == ["It costs 1,000 euros.", "Cash only."]
    assert split_sentences("Well - maybe.") == ["Well -", "maybe."]


def test_split_sentences_never_leaves_a_tiny_piece_and_cuts_runaway_clauses_at_words():
    chunks = split_sentences("Well, " + "very " * 20 + "long, ok.", first_max_chars=40, min_chars=20,
                             first_clause=False)
    assert chunks[0].startswith("Well, very") and chunks[-1].endswith("long, ok."), chunks
    runaway = " ".join(["word"] * 200)
    chunks = split_sentences(runaway)
    assert " ".join(chunks) == runaway and all(len(c) <= 300 for c in chunks)
