"""The offline monitor on the shipped exhibit documents with the real sentence encoder: the
checks the benchmark counts, on a few hand-written turns."""

import pathlib

import pytest

from phanthy_agent.group.documents import DocumentLibrary
from phanthy_agent.group.focus import Focus
from phanthy_agent.group.monitor import Label, Turn
from phanthy_agent.group.offline_monitor import OfflineMonitor
from phanthy_agent.group.retrieval import HybridRetriever

EXHIBITS = pathlib.Path(__file__).resolve().parents[2] / "config" / "exhibits"


@pytest.fixture(scope="module")
def retriever():
    return HybridRetriever(DocumentLibrary.load(sorted(EXHIBITS.glob("*.md"))))


def judge(retriever, text, exhibit=""):
    monitor = OfflineMonitor(retriever, focus=Focus(fixed=exhibit))
    if not exhibit:
        monitor.assess(Turn(0, "A", "Look at the size of this whale skeleton!"))
    return monitor.assess(Turn(1, "B", text))


def test_a_swapped_number_is_caught_at_the_exhibit_the_group_stands_at(retriever):
    finding = judge(retriever, "I think her heart weighed 600 kilograms.")
    assert finding.label is Label.WRONG and finding.citations == ("blue_whale:5",)
    assert finding.correct == "180 kilograms"


def test_a_right_number_in_other_words_is_on_track(retriever):
    assert judge(retriever, "Her heart was about a hundred and eighty kilos, wow.").label is Label.ON_TRACK


def test_the_place_of_another_exhibit_is_a_misattribution(retriever):
    finding = judge(retriever, "They found this whale in South Dakota.")
    assert finding.label is Label.MISATTRIBUTION and finding.correct == "Wexford"


def test_a_question_the_documents_answer_and_one_they_do_not(retriever):
    gap = judge(retriever, "How many teeth does Stan have?", exhibit="t_rex")
    assert gap.label is Label.GAP and gap.citations == ("t_rex:7",) and gap.correct == "58 teeth"
    assert judge(retriever, "How fast could Stan run?", exhibit="t_rex").label is Label.UNANSWERABLE


def test_off_topic_talk_with_numbers_is_left_alone(retriever):
    assert not judge(retriever, "Parking was 12 pounds, can you believe it?").label.actionable
    assert not judge(retriever, "My sister turns 25 years old next week.").label.actionable
