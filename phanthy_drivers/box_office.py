"""The `box_office` driver: museum visitor services (tours, tickets, bookings, memberships,
cancellations, refunds) on a SQLite database (box_office_db.py), as tools.

Parameters: `database` (a file; "" = an in-memory database, lost at shutdown),
`seed_demo` (fill an empty database with the demo tours, bookings and members: `phanthy sim`
does). `phanthy eval` hands every run a fresh copy of the scenario's world here.

Policies live in the tool descriptions (what the model reads) and are enforced by the database
layer where a system must: capacity, name + booking code before a booking is disclosed or
changed, cancellation before a refund. Changes are `acting` tools (the action completion
protocol covers them like speech and motion); `add_tour` is for operators only.
"""

from __future__ import annotations

from phanthy_common.params import Params

from .box_office_db import MAX_TICKETS, BoxOffice, BoxOfficeError
from .sdk import DriverNode, ToolCall, ToolFailed

NAME = {"type": "string", "minLength": 1, "maxLength": 100, "description": "The visitor's full name."}
CODE = {"type": "string", "minLength": 4, "maxLength": 12,
        "description": "The booking code the visitor was given (six letters and digits)."}
VERIFIED = {"type": "object", "properties": {"name": NAME, "code": CODE}, "required": ["name", "code"],
            "additionalProperties": False}
VERIFY_RULE = ("Only with the name and booking code the visitor gives: never guess, never reveal "
               "which of the two was wrong.")


# The box office's tools as data (the driver serves each with its method of the same name;
# tests and benchmarks read the declarations without starting a node).
TOOLS = (
    dict(name="list_tours", description="List today's tours with their start time, seats left and price. "
         "Give a name to filter (e.g. 'dinosaur').",
         parameters={"type": "object", "properties": {"name": {"type": "string", "maxLength": 100}},
                     "additionalProperties": False}),
    dict(name="book_tickets", description="Book tickets for a tour. Ask for the visitor's name first; "
         "tell them the booking code it returns.",
         parameters={"type": "object", "properties": {
             "tour_id": {"type": "string", "minLength": 1, "maxLength": 64,
                         "description": "The tour's id from list_tours."},
             "tickets": {"type": "integer", "minimum": 1, "maximum": MAX_TICKETS},
             "name": NAME},
             "required": ["tour_id", "tickets", "name"], "additionalProperties": False},
         acting=True, timeout_s=10.0),
    dict(name="get_booking", description="Look up a booking's details. " + VERIFY_RULE, parameters=VERIFIED),
    dict(name="cancel_booking", description="Cancel a booking. " + VERIFY_RULE, parameters=VERIFIED,
         acting=True, timeout_s=10.0),
    dict(name="refund_booking", description="Refund a cancelled booking (cancel it first). " + VERIFY_RULE,
         parameters=VERIFIED, acting=True, timeout_s=10.0),
    dict(name="lookup_membership", description="Check a museum membership by member number or name.",
         parameters={"type": "object", "properties": {
             "member_id": {"type": "string", "maxLength": 20}, "name": NAME},
             "additionalProperties": False}),
    dict(name="add_tour", description="Add a tour slot (staff only).",
         parameters={"type": "object", "properties": {
             "tour_id": {"type": "string", "minLength": 1, "maxLength": 64},
             "name": {"type": "string", "minLength": 1, "maxLength": 100},
             "start_time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"},
             "capacity": {"type": "integer", "minimum": 1, "maximum": 500},
             "price_eur": {"type": "number", "minimum": 0, "maximum": 1000}},
             "required": ["tour_id", "name", "start_time", "capacity", "price_eur"],
             "additionalProperties": False},
         acting=True, timeout_s=10.0, roles=("operator",), confirm="Shall I add the {name} at {start_time}?",
         examples=["add a new tour at six pm", "create another tour slot", "put on an extra tour this evening"]),
)


def declarations() -> list:
    """The manifest entries of TOOLS (what the agent reads), for tests and benchmarks."""
    out = []
    for tool in TOOLS:
        entry = {k: v for k, v in tool.items() if k not in ("roles", "confirm", "examples")}
        if tool.get("roles"):
            entry["x-roles"] = list(tool["roles"])
        if tool.get("confirm"):
            entry["x-confirm"] = tool["confirm"]
        if tool.get("examples"):
            entry["x-examples"] = list(tool["examples"])
        out.append(entry)
    return out


class BoxOfficeDriver(DriverNode):
    needs_threads = False  # every tool answers at once from SQLite

    def __init__(self, **kwargs):
        super().__init__("box_office", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        database = p.get("database", "", "SQLite file of tours, bookings and members ('' = in memory)")
        seed = p.get("seed_demo", False, "fill an empty database with the demo data")
        p.warn_unknown()
        self.office = BoxOffice(database or ":memory:", seed_demo=seed)
        for tool in TOOLS:
            spec = dict(tool)
            self.add_tool(getattr(self, spec.pop("name")), spec.pop("description"), spec.pop("parameters"), **spec)

    def close(self) -> None:
        super().close()
        self.office.close()

    def _call(self, method, *args, **kwargs) -> dict:
        try:
            return method(*args, **kwargs)
        except BoxOfficeError as exc:
            raise ToolFailed(str(exc)) from None

    def list_tours(self, call: ToolCall) -> dict:
        return self._call(self.office.list_tours, call.args.get("name", ""))

    def book_tickets(self, call: ToolCall) -> dict:
        a = call.args
        return self._call(self.office.book, a["tour_id"], a["tickets"], a["name"])

    def get_booking(self, call: ToolCall) -> dict:
        return self._call(self.office.get_booking, call.args["name"], call.args["code"])

    def cancel_booking(self, call: ToolCall) -> dict:
        return self._call(self.office.cancel, call.args["name"], call.args["code"])

    def refund_booking(self, call: ToolCall) -> dict:
        return self._call(self.office.refund, call.args["name"], call.args["code"])

    def lookup_membership(self, call: ToolCall) -> dict:
        return self._call(self.office.lookup_membership, call.args.get("member_id", ""),
                          call.args.get("name", ""))

    def add_tour(self, call: ToolCall) -> dict:
        a = call.args
        return self._call(self.office.add_tour, a["tour_id"], a["name"], a["start_time"], a["capacity"],
                          a["price_eur"])
