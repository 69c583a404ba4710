"""The proactive backbone, stage by stage, on hand-built turns: monitor, self-repair guard,
ledger and gate, grounded generation and its citation check, direct questions. The retriever
is word overlap (no model); the real one is exercised in test/models/test_group_monitor.py."""

import pytest

from phanthy_agent.group.backbone import Backbone
from phanthy_agent.group.documents import DocumentLibrary, split_document
from phanthy_agent.group.focus import Focus
from phanthy_agent.group.generation import ABSTENTION, Draft, TemplateGenerator, check
from phanthy_agent.group.ledger import ClaimState, GateConfig
from phanthy_agent.group.monitor import Finding, Label, Turn
from phanthy_agent.group.offline_monitor import OfflineMonitor, Thresholds
from phanthy_agent.group.quantities import extract, same_value
from phanthy_agent.group.repair import repaired_by
from phanthy_agent.group.utterances import content_words, coverage, is_question
from support.group import OverlapRetriever, library

LOOSE = Thresholds(on_topic=0.2, answer=0.3, claim=0.2, relation=0.2, paraphrase=0.9, answer_floor=0.2)


def monitor(exhibit="whale"):
    lib = library()
    return OfflineMonitor(OverlapRetriever(lib), focus=Focus(fixed=exhibit), thresholds=LOOSE)


def backbone(exhibit="whale", gate=GateConfig(persistence_turns=2, cooldown_s=0.0)):
    m = monitor(exhibit)
    return Backbone(m.library, m, gate)


def turns(*texts, start=0, speakers="AB"):
    return [Turn(start + i, speakers[i % len(speakers)], text, stamp=4.0 * (start + i)) for i, text in enumerate(texts)]


def run(b, texts):
    said = []
    for turn in turns(*texts):
        b.hear(turn)
        intervention = b.next_intervention(turn.stamp + 1.5)
        if intervention is not None:
            said.append(intervention)
            b.robot_said(Turn(turn.index, "robot", intervention.text, turn.stamp + 1.5, robot=True))
    return said


# --- documents and values ------------------------------------------------------------------------
def test_sentences_have_stable_ids_with_their_section():
    lib = library()
    heart = lib.get("whale:3")
    assert heart.text == "Her heart alone weighed about 180 kilograms."
    assert heart.section == "The animal" and heart.document == "whale"
    assert lib.documents["whale"].title == "The Blue Whale"
    edited = split_document("whale", library().documents["whale"].title and "# T\n\nA new last line.")
    assert edited.sentences[0].id == "whale:1"


def test_a_missing_citation_does_not_resolve():
    lib = library()
    assert lib.resolve(["whale:3", "rex:2"]) is not None
    assert lib.resolve(["whale:3", "whale:99"]) is None


def test_spoken_numbers_units_and_conversions_compare_by_value():
    said = extract("its heart weighs a hundred and eighty kilos")[0]
    assert (said.value, said.dimension) == (180.0, "mass")
    assert same_value(extract("2.7 tonnes")[0], extract("2,700 kilograms")[0])
    assert not same_value(extract("600 kilograms")[0], extract("180 kilograms")[0])
    assert extract("found in nineteen eighty-seven")[0].value == 1987
    assert extract("Stan has 58 teeth")[0].dimension == "count:tooth"
    assert extract("She was 25 metres long")[0].aspect == "long"
    assert extract("we paid for parking")[0:] == []


# --- the monitor ---------------------------------------------------------------------------------
def test_a_number_swap_is_caught_with_the_sentence_that_has_the_right_value():
    finding = monitor().assess(Turn(3, "A", "I think her heart weighed 600 kilograms."))
    assert finding.label is Label.WRONG
    assert finding.citations == ("whale:3",)
    assert finding.correct == "180 kilograms" and finding.said == "600 kilograms"


def test_a_right_number_is_on_track():
    assert monitor().assess(Turn(3, "A", "Her heart weighed 180 kilograms, wow.")).label is Label.ON_TRACK


def test_a_place_of_another_exhibit_is_a_misattribution():
    finding = monitor().assess(Turn(3, "A", "This whale stranded in South Dakota."))
    assert finding.label is Label.MISATTRIBUTION
    assert finding.correct == "Wexford" and finding.said == "South Dakota"
    assert finding.related == ("rex:3",)


def test_an_open_question_the_documents_answer_is_a_gap():
    finding = monitor().assess(Turn(3, "A", "How heavy was her heart?"))
    assert finding.label is Label.GAP
    assert finding.citations == ("whale:3",) and finding.correct == "180 kilograms"


def test_a_question_the_documents_do_not_answer_is_unanswerable():
    finding = monitor().assess(Turn(3, "A", "How much did it cost to insure the whale skeleton?"))
    assert finding.label is Label.UNANSWERABLE


def test_a_question_said_after_a_filler_and_without_its_question_mark_is_a_gap():
    finding = monitor().assess(Turn(3, "A", "hmm how heavy was her heart"))  # as a recognizer writes it
    assert finding.label is Label.GAP and finding.citations == ("whale:3",)
    assert is_question("so um, when was it found") and not is_question("Hmm, that is a lot.")


def test_another_form_of_a_word_still_covers_what_a_question_asks():
    dig = content_words("How many hours did the dig take?")
    assert coverage(dig, content_words("Digging the skeleton out took 30,000 hours.")) == 1.0
    pegs = content_words("how many minutes between pegs falling")
    assert coverage(pegs, content_words("About one peg falls every 50 minutes.")) == 1.0, "'between' is no topic"


# --- the self-repair guard -------------------------------------------------------------------------
WRONG_HEART = monitor().assess(Turn(0, "A", "Her heart weighed 600 kilograms."))


def test_the_guard_closes_a_claim_only_when_the_right_value_is_said():
    assert repaired_by(WRONG_HEART, "Oh wait, no, her heart was 180 kilograms.")
    assert repaired_by(WRONG_HEART, "Hmm, that's a lot.") is None
    assert repaired_by(WRONG_HEART, "No wait, that's wrong.") is None  # no value, no repair


def test_questions_and_not_knowing_never_close_a_claim():
    assert repaired_by(WRONG_HEART, "Wasn't it 180 kilograms?") is None
    assert repaired_by(WRONG_HEART, "I don't know, maybe 180 kilograms, no idea") is None


def test_a_retraction_closes_a_misattribution():
    wrong_place = monitor().assess(Turn(0, "A", "This whale stranded in South Dakota."))
    assert repaired_by(wrong_place, "Sorry, I mixed it up.")
    assert repaired_by(wrong_place, "Well, it was not South Dakota, I think.")
    assert repaired_by(wrong_place, "It stranded near Wexford.")


# --- ledger, gate, generation: whole conversations -------------------------------------------------
def test_an_uncorrected_swap_is_corrected_after_the_persistence_turns_with_a_citation():
    said = run(backbone(), ["Look at this whale.", "Her heart weighed 600 kilograms.", "Wow.", "Amazing.", "Yes."])
    assert len(said) == 1
    assert said[0].kind == "wrong" and said[0].citations == ["whale:3"]
    assert "180 kilograms" in said[0].text and said[0].evidence == ["Her heart alone weighed about 180 kilograms."]
    assert said[0].turns_late == 2 and said[0].problem_turn == 1


def test_the_same_swap_corrected_two_turns_later_stays_silent():
    said = run(backbone(), ["Look at this whale.", "Her heart weighed 600 kilograms.", "Really?",
                            "Oh wait, no, it was 180 kilograms.", "Okay.", "Nice."])
    assert said == []


def test_a_question_answered_by_a_visitor_stays_silent():
    b = backbone()
    said = run(b, ["How heavy was her heart?", "It says 180 kilograms on the panel.", "Wow.", "Cool."])
    assert said == []
    assert b.ledger.claims[0].state is ClaimState.REPAIRED


def test_an_unanswered_question_gets_the_answer():
    said = run(backbone(), ["How heavy was her heart?", "No idea.", "Hmm.", "Cool."])
    assert [s.kind for s in said] == ["gap"] and "180 kilograms" in said[0].text


def test_an_unanswerable_question_among_visitors_stays_silent():
    b = backbone()
    said = run(b, ["How much did it cost to insure the whale skeleton?", "No idea.", "Hmm.", "Cool.", "Yes."])
    assert said == [] and b.ledger.claims == [], "the robot never invents an answer"


def test_a_repeat_is_suppressed():
    b = backbone()
    first = run(b, ["Her heart weighed 600 kilograms.", "Wow.", "Okay."])
    assert len(first) == 1
    again = []
    for turn in turns("Her heart weighed 600 kilograms, right.", "Hmm.", "Yes.", start=10):
        heard = b.hear(turn)
        if turn.index == 10:
            assert heard.finding.label is Label.WRONG, "the monitor sees the swap again"
        again.append(b.next_intervention(turn.stamp + 1.5))
    assert again == [None, None, None], "the robot said this point already"


def test_the_cooldown_keeps_a_second_intervention_waiting():
    b = backbone(gate=GateConfig(persistence_turns=1, cooldown_s=30.0))
    said = run(b, ["Her heart weighed 600 kilograms.", "Wow.", "The tongue can weigh 9 tonnes.", "Huh.", "Right."])
    assert len(said) == 1, "the tongue waits out the cooldown (4 s turns)"


class BadCitations(TemplateGenerator):
    def draft(self, finding):
        return Draft(finding.label.value, finding.claim, "Her heart weighed 180 kilograms.", ("whale:99",))


def test_an_utterance_whose_citations_do_not_resolve_is_discarded():
    m = monitor()
    b = Backbone(m.library, m, GateConfig(persistence_turns=1, cooldown_s=0.0), generator=BadCitations(m.library))
    said = run(b, ["Her heart weighed 600 kilograms.", "Wow.", "Okay."])
    assert said == []
    assert b.discarded[0].state == "discarded" and "do not resolve" in b.discarded[0].reason


def test_the_citation_check_rejects_numbers_the_cited_sentences_do_not_hold():
    lib = library()
    finding = monitor().assess(Turn(0, "A", "Her heart weighed 600 kilograms."))
    assert check(Draft("wrong", "", "Her heart weighed 180 kilograms.", ("whale:3",)), lib, finding) is None
    assert "none of the cited" in check(Draft("wrong", "", "It weighed 250 kilograms.", ("whale:3",)), lib, finding)
    assert "do not hold" in check(Draft("wrong", "", "She was 25 metres long.", ("whale:2",)), lib, finding)
    four = Draft("wrong", "", "One. Two. Three. Four.", ("whale:3",))
    assert "at most 3" in check(four, lib)


def test_forgetting_a_group_forgets_the_exhibit_it_talked_about_but_not_a_pinned_one():
    lib = library()
    inferred = OfflineMonitor(OverlapRetriever(lib), thresholds=LOOSE)
    b = Backbone(lib, inferred)
    b.hear(Turn(0, "A", "Her heart weighed 600 kilograms, this whale."))
    assert inferred.focus.document == "whale" and b.ledger.claims
    b.forget()
    assert inferred.focus.document is None and b.ledger.claims == [] and len(b.recent) == 0
    pinned = backbone("rex")
    pinned.forget()
    assert pinned.monitor.focus.document == "rex"


# --- direct questions -------------------------------------------------------------------------------
def test_a_direct_question_is_answered_from_the_documents_with_a_citation():
    b = backbone()
    answer = b.answer(Turn(5, "A", "robot, how heavy was her heart?"), "how heavy was her heart?")
    assert answer.kind == "answer" and answer.citations == ["whale:3"] and "180 kilograms" in answer.text


def test_a_direct_question_resolves_it_from_the_last_turns():
    b = backbone()
    b.hear(Turn(0, "A", "Look at her enormous heart."))
    answer = b.answer(Turn(1, "B", "robot, how heavy was it?"), "how heavy was it?")
    assert answer.citations == ["whale:3"]


def test_a_direct_question_the_documents_do_not_cover_gets_the_fixed_abstention():
    answer = backbone().answer(Turn(5, "A", "robot, who designed the lights?"), "who designed the lights?")
    assert answer.kind == "abstain" and answer.text == ABSTENTION and answer.citations == []


@pytest.mark.parametrize("text", ["", "   ", "\x00\x01", "é" * 5000])
def test_odd_turns_are_judged_without_error(text):
    finding = monitor().assess(Turn(0, "A", text))
    assert finding.label in (Label.OFF_TOPIC, Label.ON_TRACK, Label.UNANSWERABLE)
