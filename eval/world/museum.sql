-- The suite's world: the box office's tables and today's tours, bookings and members.
-- Every run gets a fresh copy; a scenario may add its own statements after this file.
-- It starts as a copy of the box office's demo data (phanthy_drivers/box_office_db.py) on
-- purpose: a benchmark's world is frozen, so a change to what `phanthy sim` shows can never
-- move the suite's results.
CREATE TABLE tours (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, start_time TEXT NOT NULL,
    capacity INTEGER NOT NULL CHECK (capacity >= 0), price_cents INTEGER NOT NULL CHECK (price_cents >= 0));
CREATE TABLE bookings (
    code TEXT PRIMARY KEY, name TEXT NOT NULL, tour_id TEXT NOT NULL REFERENCES tours(id),
    tickets INTEGER NOT NULL CHECK (tickets > 0),
    status TEXT NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'cancelled', 'refunded')),
    amount_cents INTEGER NOT NULL DEFAULT 0);
CREATE TABLE members (member_id TEXT PRIMARY KEY, name TEXT NOT NULL, level TEXT NOT NULL, valid_until TEXT NOT NULL);
CREATE TABLE failed_verifications (code TEXT PRIMARY KEY, attempts INTEGER NOT NULL);
INSERT INTO tours VALUES ('highlights-1100', 'Highlights tour', '11:00', 20, 800);
INSERT INTO tours VALUES ('dinosaurs-1300', 'Dinosaur tour', '13:00', 12, 1000);
INSERT INTO tours VALUES ('dinosaurs-1500', 'Dinosaur tour', '15:00', 12, 1000);
INSERT INTO tours VALUES ('space-1600', 'Space gallery tour', '16:00', 8, 1200);
INSERT INTO bookings VALUES ('K7P2QD', 'Ada Lovelace', 'dinosaurs-1500', 2, 'booked', 2000);
INSERT INTO bookings VALUES ('M4X9TR', 'Alan Turing', 'space-1600', 1, 'cancelled', 1200);
INSERT INTO members VALUES ('F-1001', 'Grace Hopper', 'friend', '2027-06-30');
INSERT INTO members VALUES ('P-2002', 'Ada Lovelace', 'patron', '2026-01-31');
