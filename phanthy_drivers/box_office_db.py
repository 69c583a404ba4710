"""Museum visitor services on SQLite: tour slots with capacity, bookings with a name and a
booking code, membership lookup, cancellation and refunds. Plain Python (no ROS): the
`box_office` driver (box_office.py) serves these as tools.

The rules a system must enforce are enforced here, not left to the model's good manners:
- capacity: a slot never sells more tickets than it has seats (checked in the same
  transaction as the booking);
- identity: a booking's details are disclosed or changed only for its name *and* code; a wrong
  pair gets one answer whatever was wrong ("no booking matches that name and code"), so a
  caller cannot fish for which field failed; after `MAX_FAILED_VERIFICATIONS` wrong pairs
  for a code, that code is locked (the front desk helps in person);
- order: only a booked booking can be cancelled, only a cancelled one refunded, once.

Every method returns a JSON-able dict or raises `BoxOfficeError` with a message meant for the
visitor (through the model).
"""

from __future__ import annotations

import logging
import random
import re
import sqlite3
import string
import threading
from typing import Any, Dict, Optional

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tours (
    id TEXT PRIMARY KEY,            -- e.g. 'dinosaurs-1500'
    name TEXT NOT NULL,             -- 'Dinosaur tour'
    start_time TEXT NOT NULL,       -- 'HH:MM', 24 h
    capacity INTEGER NOT NULL CHECK (capacity >= 0),
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0)
);
CREATE TABLE IF NOT EXISTS bookings (
    code TEXT PRIMARY KEY,          -- six letters and digits, e.g. 'K7P2QD'
    name TEXT NOT NULL,
    tour_id TEXT NOT NULL REFERENCES tours(id),
    tickets INTEGER NOT NULL CHECK (tickets > 0),
    status TEXT NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'cancelled', 'refunded')),
    amount_cents INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS members (
    member_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    level TEXT NOT NULL,            -- 'friend' | 'patron'
    valid_until TEXT NOT NULL       -- 'YYYY-MM-DD'
);
CREATE TABLE IF NOT EXISTS failed_verifications (
    code TEXT PRIMARY KEY,
    attempts INTEGER NOT NULL
);
"""

DEMO_DATA = """
INSERT INTO tours VALUES ('highlights-1100', 'Highlights tour', '11:00', 20, 800);
INSERT INTO tours VALUES ('dinosaurs-1300', 'Dinosaur tour', '13:00', 12, 1000);
INSERT INTO tours VALUES ('dinosaurs-1500', 'Dinosaur tour', '15:00', 12, 1000);
INSERT INTO tours VALUES ('space-1600', 'Space gallery tour', '16:00', 8, 1200);
INSERT INTO bookings VALUES ('K7P2QD', 'Ada Lovelace', 'dinosaurs-1500', 2, 'booked', 2000);
INSERT INTO bookings VALUES ('M4X9TR', 'Alan Turing', 'space-1600', 1, 'cancelled', 1200);
INSERT INTO members VALUES ('F-1001', 'Grace Hopper', 'friend', '2027-06-30');
INSERT INTO members VALUES ('P-2002', 'Ada Lovelace', 'patron', '2026-01-31');
"""

MAX_TICKETS = 10
MAX_FAILED_VERIFICATIONS = 3
NO_MATCH = "no booking matches that name and code"
CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0I1")


class BoxOfficeError(Exception):
    """A request the box office refuses; the message is safe to tell the visitor."""


_TITLE = re.compile(r"^(?:mr|mrs|ms|miss|mx|dr|prof|mister|missus)\.?\s+", re.I)


def norm_name(name: str) -> str:
    """A name as the box office compares it: spaces, case and a title aside ("Mrs  Akhtar" is
    "akhtar"; a title is no part of who booked)."""
    return _TITLE.sub("", " ".join(str(name).split())).casefold()


def _norm_code(code: str) -> str:
    return "".join(str(code).split()).upper()


class BoxOffice:
    """One SQLite database (a file, or ":memory:"); safe to call from several threads."""

    def __init__(self, path: str, seed_demo: bool = False, rng: Optional[random.Random] = None):
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA foreign_keys = ON")
        self._lock = threading.Lock()
        self._rng = rng or random.Random()
        self._db.executescript(SCHEMA)
        if seed_demo and not self._db.execute("SELECT 1 FROM tours LIMIT 1").fetchone():
            self._db.executescript(DEMO_DATA)
            log.info("box office %s: seeded the demo tours, bookings and members", path)

    def close(self) -> None:
        self._db.close()

    # --- reads -----------------------------------------------------------------------------
    def list_tours(self, name: str = "") -> Dict[str, Any]:
        rows = self._db.execute(
            "SELECT t.id, t.name, t.start_time, t.capacity, t.price_cents, "
            "t.capacity - COALESCE(SUM(CASE WHEN b.status = 'booked' THEN b.tickets END), 0) AS seats_left "
            "FROM tours t LEFT JOIN bookings b ON b.tour_id = t.id GROUP BY t.id ORDER BY t.start_time, t.id"
        ).fetchall()
        wanted = norm_name(name)
        tours = [{"tour_id": r["id"], "name": r["name"], "start_time": r["start_time"],
                  "seats_left": r["seats_left"], "price_eur": r["price_cents"] / 100}
                 for r in rows if not wanted or wanted in norm_name(r["name"])]
        return {"tours": tours}

    def get_booking(self, name: str, code: str) -> Dict[str, Any]:
        row = self._verified(name, code)
        return {"booking": self._describe(row)}

    def lookup_membership(self, member_id: str = "", name: str = "") -> Dict[str, Any]:
        if not member_id and not name:
            raise BoxOfficeError("give a member number or the member's name")
        if member_id:
            row = self._db.execute("SELECT * FROM members WHERE member_id = ?",
                                   (_norm_code(member_id),)).fetchone()
        else:
            row = next((r for r in self._db.execute("SELECT * FROM members").fetchall()
                        if norm_name(r["name"]) == norm_name(name)), None)
        if row is None:
            return {"member": None, "note": "no membership found"}
        return {"member": {"member_id": row["member_id"], "name": row["name"], "level": row["level"],
                           "valid_until": row["valid_until"]}}

    # --- changes ---------------------------------------------------------------------------
    def book(self, tour_id: str, tickets: int, name: str) -> Dict[str, Any]:
        if not 1 <= int(tickets) <= MAX_TICKETS:
            raise BoxOfficeError(f"tickets must be between 1 and {MAX_TICKETS}")
        if not norm_name(name):
            raise BoxOfficeError("a booking needs the visitor's name")
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                tour = self._db.execute("SELECT * FROM tours WHERE id = ?", (tour_id,)).fetchone()
                if tour is None:
                    raise BoxOfficeError(f"no tour {tour_id!r}; list_tours gives the tour ids")
                sold = self._db.execute("SELECT COALESCE(SUM(tickets), 0) FROM bookings "
                                        "WHERE tour_id = ? AND status = 'booked'", (tour_id,)).fetchone()[0]
                left = tour["capacity"] - sold
                if tickets > left:
                    raise BoxOfficeError(f"only {left} seat(s) left on the {tour['start_time']} "
                                         f"{tour['name']}" if left else
                                         f"the {tour['start_time']} {tour['name']} is full")
                code = self._new_code()
                self._db.execute("INSERT INTO bookings (code, name, tour_id, tickets, status, amount_cents) "
                                 "VALUES (?, ?, ?, ?, 'booked', ?)",
                                 (code, " ".join(name.split()), tour_id, int(tickets),
                                  int(tickets) * tour["price_cents"]))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        row = self._db.execute("SELECT * FROM bookings WHERE code = ?", (code,)).fetchone()
        return {"booking": self._describe(row)}

    def cancel(self, name: str, code: str) -> Dict[str, Any]:
        with self._lock:
            row = self._verified(name, code)
            if row["status"] != "booked":
                raise BoxOfficeError(f"booking {row['code']} is already {row['status']}")
            self._db.execute("UPDATE bookings SET status = 'cancelled' WHERE code = ?", (row["code"],))
        return {"booking": self._describe(self._row(row["code"]))}

    def refund(self, name: str, code: str) -> Dict[str, Any]:
        with self._lock:
            row = self._verified(name, code)
            if row["status"] == "booked":
                raise BoxOfficeError(f"booking {row['code']} is not cancelled: cancel it before a refund")
            if row["status"] == "refunded":
                raise BoxOfficeError(f"booking {row['code']} has already been refunded")
            self._db.execute("UPDATE bookings SET status = 'refunded' WHERE code = ?", (row["code"],))
        booking = self._describe(self._row(row["code"]))
        return {"booking": booking, "refunded_eur": booking["amount_eur"]}

    def add_tour(self, tour_id: str, name: str, start_time: str, capacity: int, price_eur: float) -> Dict[str, Any]:
        try:
            self._db.execute("INSERT INTO tours VALUES (?, ?, ?, ?, ?)",
                             (tour_id, name, start_time, int(capacity), int(round(price_eur * 100))))
        except sqlite3.IntegrityError as exc:
            raise BoxOfficeError(f"cannot add tour {tour_id!r}: {exc}") from None
        return {"tour_id": tour_id, "added": True}

    # --- helpers ---------------------------------------------------------------------------
    def _row(self, code: str) -> sqlite3.Row:
        return self._db.execute("SELECT * FROM bookings WHERE code = ?", (code,)).fetchone()

    def _verified(self, name: str, code: str) -> sqlite3.Row:
        """The booking for this name and code, or one answer whatever was wrong."""
        code = _norm_code(code)
        failed = self._db.execute("SELECT attempts FROM failed_verifications WHERE code = ?",
                                  (code,)).fetchone()
        if failed is not None and failed[0] >= MAX_FAILED_VERIFICATIONS:
            raise BoxOfficeError("too many failed attempts for this booking: please see the front desk")
        row = self._row(code)
        if row is None or norm_name(row["name"]) != norm_name(name):
            self._db.execute("INSERT INTO failed_verifications VALUES (?, 1) ON CONFLICT(code) "
                             "DO UPDATE SET attempts = attempts + 1", (code,))
            raise BoxOfficeError(NO_MATCH)
        return row

    def _describe(self, row: sqlite3.Row) -> Dict[str, Any]:
        tour = self._db.execute("SELECT * FROM tours WHERE id = ?", (row["tour_id"],)).fetchone()
        return {"code": row["code"], "name": row["name"], "tour_id": row["tour_id"],
                "tour": tour["name"] if tour else "", "start_time": tour["start_time"] if tour else "",
                "tickets": row["tickets"], "status": row["status"], "amount_eur": row["amount_cents"] / 100}

    def _new_code(self) -> str:
        while True:
            code = "".join(self._rng.choice(CODE_ALPHABET) for _ in range(6))
            if self._row(code) is None:
                return code

