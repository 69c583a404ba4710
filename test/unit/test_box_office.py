"""The box office's rules hold in the database layer, whatever the model asks."""

import random
import threading

import pytest

from phanthy_drivers.box_office_db import MAX_FAILED_VERIFICATIONS, NO_MATCH, BoxOffice, BoxOfficeError


@pytest.fixture
def office(tmp_path):
    o = BoxOffice(str(tmp_path / "world.sqlite"), seed_demo=True, rng=random.Random(3))
    yield o
    o.close()


def test_the_demo_data_lists_tours_with_the_seats_left(office):
    tours = {t["tour_id"]: t for t in office.list_tours()["tours"]}
    assert tours["dinosaurs-1500"]["seats_left"] == 10  # 12 seats, Ada holds 2
    assert tours["space-1600"]["seats_left"] == 8  # Alan's booking is cancelled
    assert [t["tour_id"] for t in office.list_tours("dinosaur")["tours"]] == ["dinosaurs-1300", "dinosaurs-1500"]


def test_a_booking_gets_a_code_and_takes_its_seats(office):
    booking = office.book("dinosaurs-1300", 2, "  Marie   Curie ")["booking"]
    assert booking["name"] == "Marie Curie" and booking["tickets"] == 2 and booking["amount_eur"] == 20.0
    assert len(booking["code"]) == 6
    assert office.get_booking("marie curie", booking["code"].lower())["booking"]["status"] == "booked"
    seats = {t["tour_id"]: t["seats_left"] for t in office.list_tours()["tours"]}
    assert seats["dinosaurs-1300"] == 10


def test_capacity_is_never_exceeded_even_by_concurrent_bookings(office):
    results = []

    def book():
        try:
            results.append(office.book("space-1600", 3, "Visitor")["booking"]["code"])
        except BoxOfficeError as exc:
            results.append(str(exc))

    threads = [threading.Thread(target=book) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = [r for r in results if len(r) == 6]
    assert len(codes) == 2  # 8 seats: two bookings of 3, then 2 left
    assert sum("only 2 seat(s) left" in r for r in results) == 2
    with pytest.raises(BoxOfficeError, match="only 2 seat"):
        office.book("space-1600", 3, "Visitor")


def test_a_title_is_no_part_of_the_name_a_booking_is_verified_by(office):
    code = office.book("dinosaurs-1300", 2, "Mrs Ayesha Akhtar")["booking"]["code"]
    assert office.get_booking("ayesha akhtar", code)["booking"]["tickets"] == 2
    assert office.get_booking("Ms. Ayesha Akhtar", code)["booking"]["tickets"] == 2
    with pytest.raises(BoxOfficeError, match=NO_MATCH):
        office.get_booking("Akhtar", code)  # the name is still the whole name


def test_a_wrong_name_and_a_wrong_code_get_the_same_answer(office):
    with pytest.raises(BoxOfficeError) as wrong_code:
        office.get_booking("Ada Lovelace", "ZZZZZZ")
    with pytest.raises(BoxOfficeError) as wrong_name:
        office.get_booking("Someone Else", "K7P2QD")
    assert str(wrong_code.value) == str(wrong_name.value) == NO_MATCH


def test_a_code_is_locked_after_repeated_wrong_names(office):
    for _ in range(MAX_FAILED_VERIFICATIONS):
        with pytest.raises(BoxOfficeError, match=NO_MATCH):
            office.get_booking("Mallory", "K7P2QD")
    with pytest.raises(BoxOfficeError, match="too many failed attempts"):
        office.get_booking("Ada Lovelace", "K7P2QD")  # even the right pair, now


def test_a_refund_needs_a_cancellation_first_and_happens_once(office):
    with pytest.raises(BoxOfficeError, match="cancel it before a refund"):
        office.refund("Ada Lovelace", "K7P2QD")
    assert office.cancel("Ada Lovelace", "K7P2QD")["booking"]["status"] == "cancelled"
    with pytest.raises(BoxOfficeError, match="already cancelled"):
        office.cancel("Ada Lovelace", "K7P2QD")
    assert office.refund("Ada Lovelace", "K7P2QD")["refunded_eur"] == 20.0
    with pytest.raises(BoxOfficeError, match="already been refunded"):
        office.refund("Ada Lovelace", "K7P2QD")


def test_bad_requests_are_refused_with_the_reason(office):
    with pytest.raises(BoxOfficeError, match="no tour"):
        office.book("nope", 1, "A")
    with pytest.raises(BoxOfficeError, match="between 1 and"):
        office.book("dinosaurs-1300", 0, "A")
    with pytest.raises(BoxOfficeError, match="needs the visitor's name"):
        office.book("dinosaurs-1300", 1, "   ")
    with pytest.raises(BoxOfficeError, match="member number or"):
        office.lookup_membership()
    assert office.lookup_membership(name="grace hopper")["member"]["member_id"] == "F-1001"
    assert office.lookup_membership(member_id="x-9")["member"] is None


def test_an_empty_database_is_not_seeded_unless_asked(tmp_path):
    office = BoxOffice(str(tmp_path / "empty.sqlite"))
    assert office.list_tours()["tours"] == []
    office.close()
