"""Who an utterance is said to (addressee.py, pure): the robot turned to after talk to someone
else, and the talk among visitors that is no request."""

import pytest

from phanthy_agent.brains.offline.addressee import (after_the_pause, asked_as_a_question, before_the_pause, before_the_remark,
                                                    past_the_assistant, past_the_doubt, past_the_hold, past_the_wake_words,
                                                    said_to_someone_else, turned_to_robot, without_asides)

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("text, asked", [
    ("Grandma, it's cancel, not change! Robot, cancel the booking please.", "cancel the booking please."),
    ("No, TOILETS. Excuse me, robot, where are the toilets?", "where are the toilets?"),
    # the last address counts
    ("Robot, wait. Grandpa, hush. Robot, book two tickets.", "book two tickets."),
])
def test_what_follows_the_robot_addressed_in_a_later_sentence_is_the_request(text, asked):
    assert turned_to_robot(text) == asked


def test_a_code_read_out_before_the_robot_is_turned_to_comes_with_the_request():
    said = turned_to_robot("Grandma, read the code out: Z W 5 5 8 0. Robot, can you see our booking?")
    assert said == "can you see our booking? Z W 5 5 8 0."


def test_a_code_said_to_the_robot_is_not_doubled_with_one_read_out_before():
    assert turned_to_robot("It's AB-1234 or CD-5678? Robot, look up CD-5678.") == "look up CD-5678."


@pytest.mark.parametrize("text", ["Robot, take me to the cafe.", "Never mind, robot, my daughter found it.",
                                  "thanks, robot.", "The robot is cute. Look at it."])
def test_an_address_first_or_in_the_same_sentence_or_none_is_not_a_turn(text):
    assert turned_to_robot(text) == ""


@pytest.mark.parametrize("text", ["yeah i'm in the entrance hall where are you", "she's in the gift shop I think",
                                  "i'll see you at the cafe in twenty minutes", "did you get the tickets",
                                  "That's our plan.", "Hi, it's Claire from Oakfield, is the coach on time?",
                                  "Hello, love? Yes, we're at the museum."])
def test_the_others_whereabouts_a_meeting_a_plan_and_a_call_are_said_to_someone_else(text):
    assert said_to_someone_else(text)


@pytest.mark.parametrize("text", ["Let's do the space tour at eleven, just the one ticket.",
                                  "hiya, it's me again from the school, can you book the dinosaur tour?",
                                  "She's in the cafe, can you take me there?", "did you get my booking?"])
def test_a_request_that_sounds_like_talk_among_visitors_is_the_robots(text):
    assert not said_to_someone_else(text)


@pytest.mark.parametrize("text, rest", [
    ("Let's test you. Six tickets please. Dinosaur tour.", "Six tickets please. Dinosaur tour."),
    ("Hmm, I'm sceptical, but let's try it: dinosaur tour at ten fifteen.", "dinosaur tour at ten fifteen."),
    ("My wife doesn't believe you can do this. Prove her wrong: the space tour at noon.", "the space tour at noon."),
    ("I bet you'll get lost halfway, but take me to the space gallery.", "take me to the space gallery."),
    ("Can you tell me the ticket prices, or is that above your pay grade?", "Can you tell me the ticket prices"),
    ("What's the wifi called? I don't suppose you know either.", "What's the wifi called?"),
])
def test_a_dare_or_a_doubt_around_a_request_is_set_aside(text, rest):
    assert past_the_doubt(text) == rest


@pytest.mark.parametrize("text", ["Take me to the space gallery.", "I bet you a fiver that robot can't climb stairs",
                                  "Let's test you."])
def test_no_dare_or_nothing_after_it_leaves_the_text_as_it_is(text):
    assert past_the_doubt(text) == ""


@pytest.mark.parametrize("text", ["Has anyone got the tickets? Dave, you had the tickets",
                                  "Did you pay for the tour already or do I need to",
                                  "Who wants to do the space tour after lunch, hands up",
                                  "Honestly, your father's been in the toilets for twenty minutes",
                                  "Where did Priya go, was she heading to the toilets?",
                                  "grandad says the dinosaur hall was totally different when he was little",
                                  "No, the tour's at two, we've got ages yet.",
                                  "we'll do the tour next time it's too hot",
                                  "Don't forget, everyone back to the dinosaur hall after the tour",
                                  "Hi, yeah, we're just by the dinosaur hall, where are you lot?",
                                  "Put your phone away and look at the fossils."])
def test_the_others_tickets_whereabouts_words_and_plans_are_said_to_someone_else(text):
    assert said_to_someone_else(text)


@pytest.mark.parametrize("text", ["Mummy says you can take us to the dinosaurs. Can you?",
                                  "my son's been going on about the T rex all morning so can you show us the way",
                                  "my daughter's got an interview at the same time so we'd like a refund",
                                  "Space tour at three for two please and — Maisie, put that down! — name's Tom Bright"])
def test_what_someone_said_or_did_before_a_request_is_its_reason(text):
    assert not said_to_someone_else(text)


@pytest.mark.parametrize("text", ["take me to the toilets, hurry up", "show us round the space gallery, let's go",
                                  "Oh she wants to see the T. rex — can you walk us over to where the skeletons are?",
                                  "I wonder if I might put my name down for the dinosaur tour."])
def test_what_follows_a_request_to_be_taken_somewhere_is_still_the_robots(text):
    assert not said_to_someone_else(text)


@pytest.mark.parametrize("text, rest", [
    ("Hey robot, wifi", "wifi"), ("OK museum, cancel booking AB1234", "cancel booking AB1234"),
    ("Robot: where are the toilets", "where are the toilets"), ("Hello Mr Robot, where's the shop?", "where's the shop?"),
    # nothing after the wake words, or no wake words at all
    ("Hi robot", ""), ("hey there, where is the cafe", ""), ("robot the cafe", ""),
])
def test_what_follows_a_smart_speakers_wake_words_is_the_request(text, rest):
    assert past_the_wake_words(text) == rest


@pytest.mark.parametrize("text, rest", [
    ("Dinosaur tour at 2, name's Kowalski \u2014 Maya don't lick that \u2014 K O W A L S K I",
     "Dinosaur tour at 2, name's Kowalski, K O W A L S K I"),
    ("I need to move my booking \u2014 sorry, Mum, I'll call you back \u2014 move it to half three",
     "I need to move my booking, move it to half three"),
])
def test_an_aside_to_the_family_between_dashes_is_set_aside(text, rest):
    assert without_asides(text) == rest


@pytest.mark.parametrize("text", ["Two tickets \u2014 no, three \u2014 for the space tour",
                                  "Take me to the cafe - the one upstairs - please"])
def test_a_correction_or_a_detail_between_dashes_is_the_visitors_own(text):
    assert without_asides(text) == text


def test_after_talk_to_someone_else_and_a_pause_the_robot_is_asked():
    assert after_the_pause("Grandpa, ask about the wifi! ... Erm, is there a wireless network?") == \
        "Erm, is there a wireless network?"


@pytest.mark.parametrize("text", ["Hmm... where is the cafe?", "Where is the cafe? ... the cafe",
                                  "Dave, you had the tickets. ... Dave, where did you put them?"])
def test_a_pause_without_talk_to_others_before_it_or_with_more_after_it_changes_nothing(text):
    assert after_the_pause(text) == ""


@pytest.mark.parametrize("text", ["nah the gift shop's a total rip off, don't bother", "I booked the eleven o'clock one, didn't I say?",
                                  "Our Susan booked the dinosaur tour for us", "the booking confirmation is in my email somewhere",
                                  "We'll do the dinosaur tour after lunch, alright?", "Yeah, the tour's not till two, we've got ages.",
                                  "wait who has the tickets", "Can someone grab the first aid kit off the coach?",
                                  "Hello? Hello, Janet? I'm at the museum.", "Did you put the tickets in your bag or in mine?"])
def test_opinions_plans_and_bookings_told_to_the_others_are_said_to_someone_else(text):
    assert said_to_someone_else(text)


@pytest.mark.parametrize("text", ["nah leave it", "We booked the 3pm tour but need to cancel", "can anyone tell me where the toilets are",
                                  "my booking is on my phone, code AB-1234, can you check it", "I think I left my phone in the cafe",
                                  "How much do the tickets cost? Grandad says it's a rip-off."])
def test_a_request_near_such_words_is_the_robots(text):
    assert not said_to_someone_else(text)


@pytest.mark.parametrize("text", ["How do I get on the wi-fi? He's been trying for ten minutes and he's going purple",
                                  "What can you actually do? He thinks you're just a fancy bin",
                                  "When do you open tomorrow? She wants to come back for the gift shop"])
def test_a_question_to_the_robot_before_a_remark_about_the_others_is_the_robots(text):
    assert not said_to_someone_else(text)


@pytest.mark.parametrize("text, question", [
    ("What's on the menu in the cafe? He's been going on about cake for an hour", "What's on the menu in the cafe?"),
    ("Is there a car park here? We left the car by the station", "Is there a car park here?"),
    ("Where's the cafe? Is it far?", ""),  # two questions
    ("Can you book the space tour? Take the Hendersons too", ""),  # the rest asks too
    ("Mum, where's the cafe? I'm starving", ""),  # the question is someone else's
    ("Can we see our booking? The code is AB1234", ""),  # the rest reads out a code
    ("Where is the toilet", ""),  # no remark after it
    ("Hello? Yeah, we're at the museum, I'll call you back", ""),  # a call answered
])
def test_the_question_before_a_remark_that_asks_nothing(text, question):
    assert before_the_remark(text) == question


@pytest.mark.parametrize("text", ["hi love yeah um we're just in the dinosaur hall now",
                                  "Hi love, yeah, we're just by the gift shop, come and find us.",
                                  "Yeah I'm at the museum, it's alright, there's a robot following people about"])
def test_where_a_caller_is_told_on_the_phone_is_said_to_someone_else(text):
    assert said_to_someone_else(text)


@pytest.mark.parametrize("text", ["I'm at the entrance, where do I go for the tour?", "We're in the cafe and my son is hurt",
                                  "My husband made the reservation and he's still parking the car, can you look it up?",
                                  "Hi, yes, I'd like to book the space tour"])
def test_where_a_visitor_is_with_a_request_or_an_ask_after_talk_is_the_robots(text):
    assert not said_to_someone_else(text)


def test_a_bare_word_asked_before_talk_to_the_others_is_not_a_question_to_the_robot():
    assert said_to_someone_else("the booking? your brother has the code on his phone")


@pytest.mark.parametrize("text", ["Thanks, Mum, I'll pay you back for the tickets.", "Don't touch that, sweetheart, it's not for touching.",
                                  "I can't believe you paid for the tickets already", "Mm-hmm, yes, the dinosaur tour, I've booked it already, don't worry.",
                                  "Right, so after the dinosaur hall we'll do lunch and then the space bit.", "Come on, one more gallery and then home.",
                                  "I'll wait here with the chair, you go and get the coffees.", "Is your hearing aid switched on?",
                                  "Have you got his ear defenders? He'll need them in the dinosaur bit.", "Ah'll text yer the booking thing when ah find it",
                                  "Ah, sound, see yer in the dinosaur bit then", "Hiya, yeah, tour's at three, meet us by the front"])
def test_talk_to_a_child_a_parent_or_a_caller_in_passing_is_said_to_someone_else(text):
    assert said_to_someone_else(text)


@pytest.mark.parametrize("text", ["I've already booked the dinosaur tour, can I change it to three?", "We already booked, what time is our tour",
                                  "Can you meet us at the entrance?", "Hi, yes, is the tour at three still on?",
                                  "Thanks, can you take me to the cafe, love"])
def test_a_request_near_a_booking_made_or_a_meeting_is_the_robots(text):
    assert not said_to_someone_else(text)


@pytest.mark.parametrize("text", ["Goodbye, see you in the morning", "Bye for now, see you at the next members' preview."])
def test_a_goodbye_to_the_robot_with_see_you_is_the_robots(text):
    assert not said_to_someone_else(text)


@pytest.mark.parametrize("text", ["Chérie, on prend un café after the dinosaurs?",
                                  "Hello, it's Mrs Okoye, just letting you know the coach is here.",
                                  "I'm by the space bit, the signal is awful in here.",
                                  "Right, the space gallery first, then lunch, then home.", "We do the gift shop after the tour, deal?",
                                  "Don't worry, I got the tour tickets this morning, it's sorted.",
                                  "We're just waiting for the others, they're in the toilets.",
                                  "I'll get the drinks, you find us a table.", "...and then the guide just walked off, honestly",
                                  "Remember when the cafe was upstairs?",
                                  "Wait, I'll ask the robot in a minute.", "Who's got Oscar? I thought he was with you.",
                                  "Oh for goodness sake",
                                  "I'm trying to find the toilets on the map, hang on", "Stop nagging, I've got the booking code",
                                  "Don't you dare climb on that, Ollie", "If the cafe's shut again I'll complain, I swear"])
def test_a_call_a_plan_a_story_or_a_child_looked_for_is_said_to_someone_else(text):
    assert said_to_someone_else(text)


@pytest.mark.parametrize("text", ["Can you hear me over the noise? Take us to the cafe, please.",
                                  "What time is the space tour? He's been on about it for days",
                                  "My daughter won't stop crying, where are the toilets?", "Does the wifi reach the cafe or nah",
                                  "Can we do the space tour at two? We've got an hour to kill.",
                                  "Book the dinosaur tour for four, and don't you dare lose it", "what can I ask you",
                                  "Is there wifi here or am I supposed to just look at exhibits?"])
def test_a_question_put_to_the_robot_before_talk_about_others_stays_the_robots(text):
    assert not said_to_someone_else(text)


def test_an_echo_of_what_someone_said_is_no_question_put_to_the_robot():
    assert before_the_remark("The tour was how long? Wow, we should have skipped it.") == ""
    assert before_the_remark("How long is the tour? He gets bored fast, honestly.") == "How long is the tour?"


@pytest.mark.parametrize("text, asked", [("I've lost my hat - is there a lost property", True), ("can the coach wait outside", True),
                                         ("any toilets on this floor", True), ("The tickets were how much", False),
                                         ("So the tour was two hours", False)])
def test_a_question_is_told_from_an_echo_by_its_wording(text, asked):
    assert asked_as_a_question(text) == asked


@pytest.mark.parametrize("text", ["After the tour we're having chips, okay?", "We need to hurry, the tour starts soon.",
                                  "Next time we bring your brother.", "No, the lifts are back that way.",
                                  "Let me find the confirmation, it's on my phone somewhere.", "Whose turn is it to carry the bag?",
                                  "Is that your teacher over there?", "I'll grab the coats from the cloakroom later.",
                                  "We've got heaps of time, the tour's not till three.", "I put it under your name, remember?",
                                  "Did you pay for the tickets or was I meant to?", "Five pounds for a coffee, I ask you.",
                                  "Right, who needs the loo before the tour? Hands up."])
def test_plans_hurries_searches_and_turns_are_said_to_someone_else(text):
    assert said_to_someone_else(text)


@pytest.mark.parametrize("text, rest", [("Hey Google, where are the toilets?", "where are the toilets?"),
                                        ("Siri, museum opening hours", "museum opening hours"),
                                        ("Alexa take me to the cafe", "take me to the cafe"),
                                        ("Google says it closes at five", "")])
def test_another_assistants_wake_words_are_no_part_of_the_request(text, rest):
    assert past_the_assistant(text) == rest


@pytest.mark.parametrize("text, asked", [
    ("Is the café open right now? ...Okay, then we'll eat there.", "Is the café open right now?"),
    ("Book five tickets under Nguyen please. ...What, Dad? Okay, he's still deciding which tour.",
     "Book five tickets under Nguyen please."),
    ("Thank you so much. \u2026Okay, I'm back.", "Thank you so much."),
    # the code read out after the pause is the request's
    ("Can you check my membership, please? ...Where's the card, Steve? ...It's M-10946.",
     "Can you check my membership, please? M-10946."),
])
def test_what_follows_a_pause_after_a_finished_request_is_for_someone_else(text, asked):
    assert before_the_pause(text) == asked


@pytest.mark.parametrize("text", [
    "I'd like to book... the dinosaur tour",  # a search for words, not a pause after a sentence
    "Could you pull up my booking, the code's ZP3019? ...It's under Carter, I think.",  # its name
    "Book two tickets. ...no, three",  # a correction
    "Book two tickets.",
    # the robot asked after the pause, someone else before it
    "Grandma lost the paper! ... Could you see whether we've got a booking?",
    "Can we go see the big skeletons again? ... Yes, all right. Back to the dinosaur hall, please, robot.",
    "Say thank you to the robot, Poppy. ... Thank you!",
    # a code after the pause, and nothing asked of the robot before it
    "Look up Grandad's card! ... Yes, yes. It's member ID FM-20931.",
])
def test_a_pause_that_is_no_turn_away_leaves_the_utterance_whole(text):
    assert before_the_pause(text) == ""


@pytest.mark.parametrize("text, rest", [
    ("Hold on, Mum. Where are the toilets?", "Where are the toilets?"),
    ("Hang on, love, I'm asking the robot. Is there wifi?", "Is there wifi?"),
    ("Two secs, I'm booking. Can we do the dinosaur tour at three fifteen?", "Can we do the dinosaur tour at three fifteen?"),
    ("Wait, wait. Robot, stop walking.", "Robot, stop walking."),
    ("Mate, hold on, I'm talking to the robot. Dinosaur tour at 2:30 please.", "Dinosaur tour at 2:30 please."),
])
def test_a_sentence_that_asks_someone_to_wait_is_no_part_of_the_request(text, rest):
    assert past_the_hold(text) == rest


@pytest.mark.parametrize("text", ["Hold on.", "Hang on, cancel that.", "Wait for me at the cafe."])
def test_a_wait_that_is_the_whole_utterance_or_its_request_is_kept(text):
    assert past_the_hold(text) == ""


def test_musing_aloud_is_still_said_to_someone_else():
    assert said_to_someone_else("I wonder how they got that skeleton through the doors")


def test_turning_to_the_robot_to_ask_it_to_do_what_was_said_keeps_what_was_said():
    assert turned_to_robot("Get us on the four o'clock tour, love — robot, can you do that for us?") == ""
    assert turned_to_robot("Nana, say the name slowly. Robot, it's for Rosalind Achebe") == "it's for Rosalind Achebe"


@pytest.mark.parametrize("text", ["I wonder if anyone has handed in a navy blue umbrella?", "I wonder whether there's any wifi available?",
                                  "I wonder what there is to see in the dinosaur hall?", "I wonder how much the tours cost?"])
def test_a_question_put_as_wondering_is_asked_of_the_robot(text):
    assert not said_to_someone_else(text)


def test_a_booking_named_by_its_code_before_talk_to_someone_is_the_robots():
    assert not said_to_someone_else("Please cancel booking R1P7C4, Delgado — no, darling, we're not going on it any more")


@pytest.mark.parametrize("text", ["We'll do the dinosaurs and then grab some lunch", "Okay, coats first, then we'll try the gift shop.",
                                  "If it rains we'll just get a taxi home.", "Yes, I've got the car keys, stop fussing.",
                                  "I'll wait by the lifts, message me when you're out of the loo.",
                                  "If your dad rings, tell him we're in the cafe."])
def test_a_plan_told_to_the_others_or_a_companion_told_not_to_worry_is_said_to_someone_else(text):
    assert said_to_someone_else(text)


@pytest.mark.parametrize("text", ["We'll do the space tour at two, name Okafor", "We'll get three tickets please",
                                  "We'll head to the cafe, can you show us the way?",
                                  "my niece says she wants to be a pilot, anyway we'd like to book the space tour"])
def test_a_plan_that_is_a_request_or_a_request_after_talk_about_someone_is_the_robots(text):
    assert not said_to_someone_else(text)
