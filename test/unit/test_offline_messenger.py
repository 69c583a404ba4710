"""A request passed on for someone else: the visitor is the messenger, the robot is asked."""

import pytest

from phanthy_agent.brains.offline.messenger import past_the_messenger


@pytest.mark.parametrize("text, passed_on", [
    ("My mum says to book the dinosaur tour and put it under Baker", "book the dinosaur tour and put it under Baker"),
    ("my dad said cancel the dinosaur tour, our name is Kim", "cancel the dinosaur tour, our name is Kim"),
    ("mummy told me to ask if we can book the space tour", "I wonder if we can book the space tour"),
    ("My wife wants to know whether the car park closes", "I wonder whether the car park closes"),
    ("The kids are asking if the cafe sells ice cream", "I wonder if the cafe sells ice cream"),
])
def test_what_is_passed_on_is_asked_without_who_sent_it(text, passed_on):
    assert past_the_messenger(text) == passed_on


@pytest.mark.parametrize("text", ["My mum is in the cafe", "my dad booked it", "Book it for my mum", "the kids are tired"])
def test_talk_about_someone_passes_nothing_on(text):
    assert past_the_messenger(text) == ""
