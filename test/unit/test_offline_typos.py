"""Typos mended before ranking (typos.py): one slip from a venue word, nothing else."""

from phanthy_agent.brains.offline.typos import SPELL_CHARS, TypoMender, closest

VOCABULARY = {"want", "book", "tour", "tickets", "toilet", "cancel"}


def test_letters_swapped_or_one_slip_away_are_the_venue_word():
    mender = TypoMender()
    assert mender.mend("wnat to book a tuor", VOCABULARY) == "want to book a tour"
    assert mender.mend("two tickts please", VOCABULARY) == "two tickets please"


def test_a_word_the_encoder_knows_or_a_short_one_is_left_as_said():
    mender = TypoMender(knows=lambda word: word == "tours")
    assert mender.mend("tours tuor", VOCABULARY) == "tours tour"
    assert mender.mend("a bok", VOCABULARY) == "a bok"  # three letters: too short to guess


def test_a_word_far_from_every_venue_word_stays():
    assert closest("zebra", VOCABULARY) == ""
    assert TypoMender().mend("zebra crossing", VOCABULARY) == "zebra crossing"


def test_only_the_start_of_a_huge_input_is_mended():
    text = "tuor " * (SPELL_CHARS // 5 + 100)
    mended = TypoMender().mend(text, VOCABULARY)
    assert mended.startswith("tour tour")
    assert mended.endswith("tuor ")
    assert len(mended) == len(text)
