"""The offline brain's reading of values and its schema-driven slot filling (no model)."""

import pytest

from phanthy_agent.brains.offline.codes import find_codes
from phanthy_agent.brains.offline.conversation import unshouted
from phanthy_agent.brains.offline.names import find_names, spelling_said
from phanthy_agent.brains.offline.slots import answer, fill, loose_phrase, match_item, slots_of
from phanthy_agent.brains.offline.values import find_enum, find_numbers, find_times, said_words, spoken_time, unnegated
from phanthy_drivers.box_office import declarations

TOOLS = {d["name"]: d for d in declarations()}
TOURS = [{"tour_id": "highlights-1100", "name": "Highlights tour", "start_time": "11:00"},
         {"tour_id": "dinosaurs-1300", "name": "Dinosaur tour", "start_time": "13:00"},
         {"tour_id": "dinosaurs-1500", "name": "Dinosaur tour", "start_time": "15:00"},
         {"tour_id": "space-1600", "name": "Space gallery tour", "start_time": "16:00"}]


@pytest.mark.parametrize("text, times", [
    ("the three o'clock tour", ["15:00"]), ("half past two", ["14:30"]), ("at 3 pm", ["15:00"]),
    ("15:00 please", ["15:00"]), ("quarter to four", ["15:45"]), ("eleven o'clock", ["11:00"]),
    ("the tour at one, four people", ["13:00"]), ("at noon", ["12:00"]), ("9 am", ["09:00"]),
    ("from the three o'clock to the one o'clock", ["15:00", "13:00"]), ("two tickets", []),
    ("at least two", []),
    ("push it back to half three", ["15:30"]), ("the eleven thirty", ["11:30"]), ("two forty-five pm", ["14:45"]),
    ("half an hour", []),
])
def test_clock_times_in_words_or_digits(text, times):
    assert [m.value for m in find_times(text)] == times


def test_a_time_is_said_as_people_say_it():
    assert (spoken_time("15:00"), spoken_time("14:30"), spoken_time("11:00"), spoken_time("x")) == \
        ("3 pm", "2:30 pm", "11 am", "x")


@pytest.mark.parametrize("text, numbers", [
    ("two tickets", [(2, "tickets")]), ("a couple of tickets", [(2, "tickets")]),
    ("twenty-five people", [(25, "people")]), ("I need a ticket", [(1, "ticket")]),
    ("50 seats", [(50, "seats")]), ("just a moment", []), ("Book fifty tickets", [(50, "tickets")]),
    ("dinosaur tour x3 under Maisie", [(3, "tickets")]),  # a count as people text it
    ("the space one please", []), ("the space tour, one ticket", [(1, "ticket")]),  # "one" standing for a tour
])
def test_counts_in_words_or_digits(text, numbers):
    assert [(m.value, m.text) for m in find_numbers(text)] == numbers


@pytest.mark.parametrize("text, party", [
    ("two grown ups and one child", 3), ("me and my 2 kids", 3), ("for me and the wife", 2),
    ("two adults, one child and a baby", 4), ("an adult and a child please", 2),
    ("four kids one grown up", 5), ("my partner and I", 2), ("a group of twelve", 12),
    ("it's for me, the wife and our three kids", 5), ("the dinosaur tour with my nan", 2), ("four of us", 4),
    ("two adults and a little one please", 3), ("seven kids and two teachers", 9),
    ("yo sign me n my bf up", 2), ("for me and the twins", 3), ("Me and Nana want to go on the rocket tour", 2),
    ("six kids and two leaders", 8), ("two grown-ups and three little ones", 5), ("for me and her", 2),
    ("for me n Ruby, under Ruby", 2), ("me, Tom, Ellie and Raj wanna go", 4),
    ("me, my husband and the twins", 4), ("me and my six bridesmaids", 7),
    ("Mr and Mrs Okafor and the three little ones", 5), ("me and my wife and my son and my daughter", 4),
    ("two people, me and my son", 2),  # the parts named after their count are not added to it
    ("me my husband and the twins", 4), ("me my wife and two kids", 4),
    ("for twenty-two of us in total", 22), ("Two teachers and fifteen kids for the tour", 17),
])
def test_a_party_said_in_parts_is_counted_whole(text, party):
    assert [(m.value, m.text) for m in find_numbers(text) if m.text == "people"] == [(party, "people")]


@pytest.mark.parametrize("text, count", [("can i get for tickets", 4), ("to tickets please", 2),
                                         ("i'm looking for tickets", None), ("for to people", 2),
                                         ("for for people", 4)])
def test_a_recognizers_homophone_before_a_count_is_the_count(text, count):
    assert next((m.value for m in find_numbers(text)), None) == count


def test_a_time_or_a_code_is_not_also_a_count():
    text = "two tickets for the three o'clock tour, code K7P2QD"
    taken = find_times(text) + find_codes(text)
    assert [m.value for m in find_numbers(text, taken)] == [2]


@pytest.mark.parametrize("text, codes", [
    ("booking K7P2QD please", ["K7P2QD"]), ("my member number is F-1001.", ["F-1001"]),
    ("code H7 Q1 B6, thanks", ["H7Q1B6"]), ("at 3 pm Q4 B4", []),  # read out in pairs
    ("the code is P, L, eight, eight, four, nought.", ["PL8840"]), ("code G-E-5-8-1-V, I need to know", ["GE581V"]),
    ("code AAAAAA", ["AAAAAA"]), ("the code is K 7 P 2 Q D", ["K7P2QD"]), ("OK at 3 PM", []),
    ("my card number is 4417", ["4417"]), ("member 80211, still valid?", ["80211"]),
    ("2500 people a day", []), ("four tickets", []),
    # as a recognizer writes a code spelled aloud
    ("reference b x 4 8 2 1", ["BX4821"]), ("code is bravo x-ray four eight two one, surname Adeyemi", ["BX4821"]),
    ("echo foxtrot two zero zero nine", ["EF2009"]), ("reservation DQ 5590 for Morales", ["DQ5590"]),
    ("member ID 6002", ["6002"]), ("I want a b c", []), ("two one", []),
    ("scrap the reservation LM 4 0 2 2", ["LM4022"]), ("member number m dash six two zero zero three", ["M62003"]),
    ("look up member em seven seven three one five", ["M77315"]), ("is 4 0 2 2", ["4022"]),
    ("my number's m eight eight one four six", ["M88146"]), ("the reference is a b one one two two", ["AB1122"]),
    ("please move booking kl 1187", ["KL1187"]), ("ref is hp-2046", ["HP-2046"]),
    # letters said as the words that sound like them, inside a code, and w said in two words
    ("i've got a code tee are eight one zero three", ["TR8103"]), ("check booking zed why three three six two", ["ZY3362"]),
    ("the code is double u kay five three oh one", ["WK5301"]), ("code double-u oh four four five two", ["WO4452"]),
    ("Schmidt, oh ar six six two seven", ["OR6627"]), ("reservation ay ell seven seven two four", ["AL7724"]),
    ("it's k l 5 5 9 0 are you able to check", ["KL5590"]), ("code jay why dash four four zero one", ["JY4401"]),
    # a letter spelled by a word, a letter said twice, two capitals written, a soundalike first
    ("the code is M like Mexico, P, five five two nine", ["MP5529"]), ("code is R as in Robert, T, 4 4 1 7", ["RT4417"]),
    ("check booking double tee 6 1 5 7", ["TT6157"]), ("code EF 5537", ["EF5537"]),
    ("booking code are jay 4 6 6 0", ["RJ4660"]), ("why are you here", []), ("i'd like a b c", []),
    ("the code's aitch arr 0 3 7 5", ["HR0375"]), ("code is see why four four zero eight", ["CY4408"]),
    ("M 6 3 0 5 8, I keep forgetting to renew", ["M63058"]), ("booking el pee double seven four one", ["LP7741"]), ("why three tickets", []), ("code is oh one two", []),
    ("the code is dee ee dash four four zero one", ["DE4401"]),
    # a word in capitals is a code only after a code's cue: shouted words are not
    ("CANCEL booking UJ-8873. Name Pemberton.", ["UJ-8873"]), ("on YOUR end, so refund me. Code PL-2930", ["PL-2930"]),
    ("FOUR tickets, space tour, 2pm", []), ("my reference is ABCDEF", ["ABCDEF"]),
    # two digits said as one number, a filler inside, a number said a digit at a time after its cue,
    # digits in groups
    ("Find my booking: M B X seventy two. Surname's Duffy.", ["MBX72"]), ("code k l s forty six", ["KLS46"]),
    ("a booking reference um v x e nineteen", ["VXE19"]), ("the reference is L L Q dash thirty nine", ["LLQ39"]),
    ("my member ID is M, uh, six two, zero, eight, three", ["M62083"]), ("check member id four four one nine oh two", ["441902"]),
    ("the code is l4 dash 118", ["L4118"]), ("check reservation r2 941 for adebayo", ["R2941"]),
    ("The ID's 772 019.", ["772019"]), ("reference C4-417", ["C4-417"]), ("booking code is eh 3470", ["EH3470"]),
    ("two tickets for the tour at eleven thirty", []), ("book four four times", []), ("the seventy two bus", []),
    # a recognizer's homophones of digits: "for" before a lone code character, "to" doubled
    ("d nine nine for one", ["D9941"]), ("h j seven to to one", ["HJ7221"]),
    # a two-digit group after a cue is part of the code; "Z for zebra" only spells the letter
    ("code fifty five dash one nine three oh", ["551930"]), ("booking reference Z for zebra, Q, 4 4 1 2", ["ZQ4412"]),
    # a name spelled letter by letter is no code
    ("Brown, B-R-O-W-N. Code GT-1184", ["GT-1184"]), ("two tickets, the name is N-G-U-Y-E-N", []),
    ("it's K-O-W-A-L-S-K-I", ["KOWALSKI"]), ("the name is Okafor, code A B C D", ["ABCD"]),
    # the "I" of "I'd" after a spelled name is no letter of it
    ("Name's Dubois, D U B O I S. I'd like the dinosaur tour please", []),
    ("Name's Olsen, O L S E N, three tickets, dinosaur tour", []),
])
def test_codes(text, codes):
    assert [m.value for m in find_codes(text)] == codes


@pytest.mark.parametrize("text, names", [
    ("My name is Marie Curie.", ["Marie Curie"]), ("two tickets for Marie Curie, please", ["Marie Curie"]),
    ("Alan Turing, code M4X9TR.", ["Alan Turing"]), ("I'm Ada", ["Ada"]),
    ("Can I book a tour?", []), ("Which Tour Is It", []),
    ("look it up, name Lovelace", ["Lovelace"]), ("im Grace, what time is our tour?", ["Grace"]),
    ("Name Ada Lovelace, code K7P2QD", ["Ada Lovelace"]), ("cancel K7P2QD Hopper", ["Hopper"]),
    ("two for the space tour, Hopper", ["Hopper"]), ("they claim Smith did it", []),
    ("a refund please, code F9H2L, name O'Brien", ["O'Brien"]), ("the booking for Fatima Al-Sayed", ["Fatima Al-Sayed"]),
    ("it's under McDonald", ["McDonald"]), ("Can I get a refund? Surname Petrov.", ["Petrov"]),
    ("Refund please. Tanaka, D3M7T.", ["Tanaka"]), ("booking ref ZP83Q, last name Nakamura", ["Nakamura"]),
    ("I'd like a refund", []), ("Refund K7P2QD please", []),
    ("six tickets for the Nakamura family", ["Nakamura"]), ("surname is Patel", ["Patel"]),
    ("code QP9981 name svensson", ["Svensson"]), ("Refund for Mr Abara pls", ["Abara"]),
    ("my name is anna kowalski and i want to book", ["Anna Kowalski"]), ("the name is o'brien", ["O'Brien"]),
    ("it's under hughes", ["Hughes"]), ("please cancel the booking for thompson", ["Thompson"]),
    ("my name is Hans Müller.", ["Hans Müller"]), ("under the stairs", []), ("a table for four", []),
    ("for myself, Priya", ["Priya"]), ("please cancel our reservation, Müller, code FM-4471", ["Müller"]),
    ("the surname's Van der Berg", ["Van der Berg"]), ("in the name of abdullah", ["Abdullah"]),
    ("the name is fatima al hassan", ["Fatima Al Hassan"]),
    ("Can you move Chen's booking to one?", ["Chen"]), ("what is my name", []), ("my name is please", []),
    ("the name is Doctor Okafor.", ["Okafor"]), ("a group from St Mary's", ["St Mary's"]),
    # a family name that starts with its particle in lowercase
    ("Name de Vries, code KT3394", ["de Vries"]), ("booking for van der Berg please", ["van der Berg"]),
])
def test_names(text, names):
    assert [m.value for m in find_names(text)] == names


@pytest.mark.parametrize("text, names", [
    ("Hello, I have booking. Kowalski, code G H eight eight one zero.", ["Kowalski"]),
    ("Check my reservation: Harrington, XR 5502.", ["Harrington"]),
    ("We booked on Van der Meer, code U H seven seven zero two.", ["Van der Meer"]),
    ("refund the tour please. Schmidt, oh ar six six two seven.", ["Schmidt"]),
    ("Move booking QD-5027 to half twelve.", []), ("Thanks, code AB1234", []),
    ("three tickets name of wozniak for the space tour", ["Wozniak"]),
    ("pull up the reservation for sandhu booking ref k l 5 5 9 0", ["Sandhu"]),
    ("i booked under mcgregor", ["McGregor"]), ("one name's mcallister", ["McAllister"]),
    ("check booking double tee 6 1 5 7 for mister okafor", ["Okafor"]),
    ("the tour at eleven names greg hanley just one ticket", ["Greg Hanley"]),
    ("did my booking go through its for olga petrova", ["Olga Petrova"]), ("book a tour for ahmed two tickets", ["Ahmed"]),
    ("how I get my money back? Reservation Andersson, code QT 2657.", ["Andersson"]), ("tickets for two", []),
    ("Hi, Mehta here, booking code SA 0 4 8 6, please cancel it", ["Mehta"]), ("Dinosaur hall here is great", []),
    ("Eight tickets, dinosaur tour, twelve thirty, Rahman. Cheers.", ["Rahman"]),
    ("HELLO? My booking. GN-2075. Tanaka. What does it say?", ["Tanaka"]),
    ("can we do two instead, Moreau, booking code V D dash two seven seven one", ["Moreau"]),
    ("Find my booking. Park. Code b n seven seven two one.", ["Park"]),
    ("Please check my booking: Nowak, the code is b four n eight z one.", ["Nowak"]),
    ("Lovely. Code AB1234 please", []), ("Great, code AB1234", []),
    ("Abeg move my tour to 12 noon, code na L5P9S3, name Chukwu.", ["Chukwu"]),
    ("Right, I'll have to pull out. Code's EH2284, Jansen.", ["Jansen"]),
    ("Could you put the money back in my account? Booked as Laurent.", ["Laurent"]),
    ("Can you cancel our booking, Hussain, H7 Q1 B6 — yes we're going home", ["Hussain"]),
    ("Can ye find it? McKenzie, and the reference is H4 K8 P2.", ["McKenzie"]),
    ("Please cancel booking R1P7C4, Delgado — no, darling, not now", ["Delgado"]),
])
def test_a_name_said_with_a_code_in_any_spelling(text, names):
    assert [m.value for m in find_names(text, find_codes(text))] == names


@pytest.mark.parametrize("text, names, rest", [
    ("Brown, B-R-O-W-N. Code GT-1184", ["Brown"], "Brown, . Code GT-1184"),
    ("booking ZQ-4412 under Dubois. D U B O I S.", ["Dubois"], "booking ZQ-4412 under Dubois. ."),
    ("two tickets, the name is N-G-U-Y-E-N", ["Nguyen"], "two tickets, the name is N-G-U-Y-E-N"),
    ("my name's spelled K-O-W-A-L-S-K-I", ["Kowalski"], "my name's spelled K-O-W-A-L-S-K-I"),
    ("surname's O-D-U-Y-A, two for the space tour", ["Oduya"], "surname's O-D-U-Y-A, two for the space tour"),
    ("booking reference Z for zebra, Q, 4 4 1 2", [], "booking reference Z for zebra, Q, 4 4 1 2"),
])
def test_a_name_spelled_letter_by_letter_is_the_name_and_its_spelling_no_words(text, names, rest):
    assert [m.value for m in find_names(text, find_codes(text))] == names
    assert spelling_said(text) == rest  # only the spelling of a word said is taken out


@pytest.mark.parametrize("text, value", [
    ("take me to the dino hall please", "dinosaur_hall"), ("Actually, the gift shop first.", "gift_shop"),
    ("the dinosaur hal", "dinosaur_hall"), ("take me to the moon base", None), ("a coffee shop", "cafe"),
    ("bring me to the caffe", "cafe"), ("look at that", None),
])
def test_an_enum_value_named_inside_a_sentence(text, value):
    found = find_enum(text, ["dinosaur_hall", "gift_shop", "cafe"], {"shop": "gift_shop", "coffee shop": "cafe"})
    assert (found[0] if found else None) == value


def test_a_word_said_in_two_parts_names_the_value_written_as_one():
    aliases = {"restroom": "toilets", "giftshop": "gift_shop"}
    assert find_enum("where is the rest room", ["toilets", "gift_shop"], aliases)[0] == "toilets"
    assert find_enum("the gift shop", ["toilets", "giftshop"], {})[0] == "giftshop"


PLACE = {"name": "go", "parameters": {"type": "object", "required": ["place"], "properties": {
    "place": {"type": "string", "enum": ["cafe", "toilets", "space_gallery"]}}}}


@pytest.mark.parametrize("text, destination, any_place", [
    ("I left my glasses in the space gallery", None, "space_gallery"),
    ("I'm at the cafe, where are the toilets?", "toilets", "toilets"),
    ("are the toilets near the cafe?", "toilets", "toilets"),
    ("can we go in the space gallery now", "space_gallery", "space_gallery"),
    ("take me to the cafe", "cafe", "cafe"),
    ("uh the space no wait the cafe, can you walk me there", "cafe", "cafe"),  # corrected as said
    ("take a photo of us in front of the cafe", None, "cafe"),
    ("some coffee on the way out; would you take me to the toilets?", "toilets", "toilets"),  # where it goes to
])
def test_a_place_named_as_where_something_is_is_no_destination(text, destination, any_place):
    [slot] = slots_of(PLACE, [])
    assert fill([slot], text, destinations=True).args.get("place") == destination
    assert fill([slot], text).args.get("place") == any_place  # what else it names comes first


def test_a_value_said_whole_wins_over_a_longer_phrase_that_only_resembles_one():
    found = find_enum("which floor are the toilets on", ["toilets", "second_floor"], {"first floor": "second_floor"})
    assert found[0] == "toilets"


def test_each_parameter_gets_a_kind_from_its_schema():
    kinds = {s.name: s.kind for s in slots_of(TOOLS["book_tickets"], list(TOOLS))}
    assert kinds == {"tour_id": "source", "tickets": "integer", "name": "name"}
    [tour] = [s for s in slots_of(TOOLS["book_tickets"], list(TOOLS)) if s.name == "tour_id"]
    assert tour.source == "list_tours"
    assert {s.name: s.kind for s in slots_of(TOOLS["add_tour"], list(TOOLS))}["start_time"] == "time"
    assert {s.name: s.kind for s in slots_of(TOOLS["lookup_membership"], list(TOOLS))}["member_id"] == "code"


def test_enum_display_names_and_aliases_come_from_the_schema():
    spec = {"name": "light", "parameters": {"type": "object", "properties": {"colour": {
        "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}], "x-aliases": {"lime": "g"}}}}}
    [slot] = slots_of(spec, [])
    assert slot.kind == "enum" and slot.display("r") == "Red"
    assert fill([slot], "make it lime").args == {"colour": "g"}
    assert fill([slot], "the red one please").args == {"colour": "r"}


@pytest.mark.parametrize("text, args", [
    ("tickets for the space tour please, three, no four, I forgot granny", {"tickets": 4}),
    ("look up Hamid, code Z P 3 3 0 1, sorry, Z P 3 3 0 7", {"name": "Hamid", "code": "ZP3307"}),
    ("places for twenty children", {}),  # a count out of bounds (told), and no name
    ("two tickets, name of Okafor, no wait, make that three tickets", {"name": "Okafor", "tickets": 3}),
    ("eight kids plus two mums, so ten", {"tickets": 10}),
    ("three tickets, sorry, FOUR, name Ali", {"name": "Ali", "tickets": 4}),
    ("Seven tickets — no, eight, I forgot my nephew", {"tickets": 8}),
    ("It's under Patel — no, sorry, it's under my husband's name, Sharma, code RT5592.", {"name": "Sharma", "code": "RT5592"}),
    ("Reservation for six people please, on name Jansen.", {"name": "Jansen", "tickets": 6}),
    ("two tickets, name na Okafor", {"name": "Okafor", "tickets": 2}),
])
def test_a_value_corrected_straight_away_is_the_later_one(text, args):
    tools = {**TOOLS, "x": {"name": "x", "parameters": {"type": "object", "properties": {
        "tickets": {"type": "integer", "minimum": 1, "maximum": 10}, "name": {"type": "string"},
        "code": {"type": "string"}}}}}
    assert fill(slots_of(tools["x"], list(tools)), text).args == args


def test_a_request_fills_what_it_says_and_reports_what_is_out_of_bounds():
    slots = slots_of(TOOLS["book_tickets"], list(TOOLS))
    filled = fill(slots, "I'd like two tickets for the three o'clock dinosaur tour. My name is Marie Curie.")
    assert filled.args == {"tickets": 2, "name": "Marie Curie"}
    too_many = fill(slots, "Book fifty tickets for the highlights tour for Marie Curie.")
    assert "tickets" not in too_many.args and "between 1 and 10" in too_many.problems["tickets"]


@pytest.mark.parametrize("text, tickets", [
    ("a tour for 3 people", 3), ("the one at eleven, for the four of us", 4), ("a ticket please", 1),
    ("I'd like a place for 2 adults", 2),
    ("the space tour, just me", 1), ("a place on the tour for myself", 1), ("both of us, please", 2),
    ("me and my wife would like the dinosaur tour", 2),
])
def test_the_number_of_people_is_the_count_and_that_one_is_no_number(text, tickets):
    assert fill(slots_of(TOOLS["book_tickets"], list(TOOLS)), text).args["tickets"] == tickets


@pytest.mark.parametrize("text", ["I'll find it myself", "me and my kids", "can you just meet us there"])
def test_no_party_size_is_read_where_none_was_said(text):
    assert "tickets" not in fill(slots_of(TOOLS["book_tickets"], list(TOOLS)), text).args


def test_an_answer_fills_the_slot_it_was_asked_for():
    slots = {s.name: s for s in slots_of(TOOLS["book_tickets"], list(TOOLS))}
    assert answer(slots["tickets"], "three please") == 3
    assert answer(slots["name"], "marie curie") == "Marie Curie"
    assert answer(slots["name"], "it's Ada Lovelace.") == "Ada Lovelace"
    verified = {s.name: s for s in slots_of(TOOLS["get_booking"], list(TOOLS))}
    assert answer(verified["code"], "k7p2qd") == "K7P2QD"


def test_the_listed_entry_the_visitor_names():
    assert [t["tour_id"] for t in match_item("the three o'clock dinosaur tour", TOURS, "tour_id")] == ["dinosaurs-1500"]
    assert [t["tour_id"] for t in match_item("the space gallery tour", TOURS, "tour_id")] == ["space-1600"]
    assert len(match_item("the dinosaur tour", TOURS, "tour_id")) == 2, "two at different times: ask"
    assert [t["tour_id"] for t in match_item("move us from the three o'clock to the one o'clock dinosaur tour",
                                             TOURS, "tour_id")] == ["dinosaurs-1300"]
    assert match_item("the moon tour at 9 pm", TOURS, "tour_id") == []


def test_the_phrase_a_request_named():
    assert loose_phrase("take me to the moon base please") == "the moon base"
    assert loose_phrase("hello") == ""
    # the last cue names it, and the venue itself is no place in it
    assert loose_phrase("we want to see more, can you take me to the planetarium?") == "the planetarium"
    assert loose_phrase("take me somewhere to sit down in the museum") == "sit down"
    # the place, not the reason said after it
    assert loose_phrase("take me to the cloak room i need my coat") == "the cloak room"
    assert loose_phrase("could you take me to the cloakroom so I can hand it in") == "the cloakroom"
    assert loose_phrase("lead me to somewhere I can get a sandwich") == "somewhere I can get a sandwich"


@pytest.mark.parametrize("text, tickets", [("one ticket for the dinosaur tour", 1),
                                           ("get us a seat on the space tour", 1), ("a photo of us by the T. rex", None),
                                           ("a picture for my gran", None), ("a tour for Ada", 1)])
def test_an_article_counts_one_of_what_the_request_books_not_any_thing(text, tickets):
    slots = slots_of(TOOLS["book_tickets"], list(TOOLS))
    count = [s for s in slots if s.name == "tickets"]
    assert fill(count, text, about=slots).args.get("tickets") == tickets


@pytest.mark.parametrize("text, read", [
    ("SHOW MY BOOKING HW7716", "show my booking HW7716"), ("CODE EF 5537 PLEASE", "code EF 5537 please"),
    ("CANCEL BOOKING HJ2290 SMITH", "cancel booking HJ2290 Smith"), ("K 7 P 2 Q D", "K 7 P 2 Q D"),
    ("OK", "OK"), ("Book the SPACE tour", "Book the SPACE tour"),
])
def test_text_typed_in_capitals_is_read_in_lowercase_but_for_what_may_be_a_code(text, read):
    assert unshouted(text) == read


@pytest.mark.parametrize("text, names", [
    ("Two for the space tour please, we're the Hendersons", ["Henderson"]),
    ("Please scrap our dinosaur tour booking, it's the Bakers, reference BK4410", ["Baker"]),
    ("a booking for the Joneses", ["Jones"]), ("for the Nakamura family", ["Nakamura"]),
    ("can i book for four people the space tour name's uh Okafor", ["Okafor"]),
    ("refund pls. Patterson. KM6002", ["Patterson"]), ("cancel booking. Kim. LR8804", ["Kim"]),
    ("Refund please, booking GK7708, Ramirez, there's no way we'll make it", ["Ramirez"]),
    ("can ye cancel it? Booking's Hartley, code H T 7 1 5 5", ["Hartley"]),
    ("Can yer pull up me booking? Smith, code's A A one two three four", ["Smith"]),
    ("four tickets on the space tour, Thompson's the name", ["Thompson"]), ("three tickets, name o' Armstrong, ta pet", ["Armstrong"]),
    ("so put it under her name, Delgado, the dinosaur tour", ["Delgado"]), ("name, please", []),
])
def test_a_family_in_the_plural_a_hesitation_or_a_clipped_note_still_gives_the_name(text, names):
    assert [m.value for m in find_names(text, find_codes(text))] == names


@pytest.mark.parametrize("text, value", [
    ("Take me to the cafe, not the gift shop", "cafe"), ("not the gift shop, the cafe", "cafe"),
    ("take me to the gift shop instead of the cafe", "gift_shop"), ("the cafe rather than the gift shop", "cafe"),
    ("not the cafe", None),
])
def test_a_place_set_aside_is_not_the_place_asked_for(text, value):
    found = find_enum(text, ["cafe", "gift_shop", "toilets"], {})
    assert (found[0] if found else None) == value


@pytest.mark.parametrize("text, said, ruled_out", [
    ("Not cancel, just check my booking", "check", "cancel"),
    ("pull it up but don't cancel it whatever you do", "pull", "cancel"),
    ("I don't want to change it, refund me", "refund", "change"),
    ("we are cancelling it, not moving it", "cancel", "move"),
])
def test_a_verb_ruled_out_is_not_said(text, said, ruled_out):
    words = said_words(text)
    assert said in words and ruled_out not in words


def test_a_negation_alone_or_of_no_request_is_left_as_said():
    assert unnegated("don't cancel it") == "don't cancel it"  # nothing else said: a stop's words
    assert unnegated("don't worry, where's the cafe") == "don't worry, where's the cafe"


def test_a_booking_made_before_is_asked_about_not_made_again():
    assert unnegated("What time did I book for?") == "What time is my booking for?"
    assert "book" not in said_words("which tour did we book")
