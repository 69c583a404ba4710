"""Tool schemas from driver manifests: checked when the manifest arrives (never fetched), and
arguments validated in bounded time, so no schema and no argument can block the agent loop."""

import http.server
import json
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phanthy_agent.core.tools import ToolError, ToolRegistry
from phanthy_common.schemas import (MAX_ARGS_DEPTH, ArgumentsRejected, SchemaRejected, ToolSchema,
                                    parse_arguments)
from support.agent_harness import Harness
from support.fake_drivers import FakeExecutor, FakeTool, speak_tool, stop_tool
from support.virtual_time import run

CATASTROPHIC = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}},
                "required": ["code"]}


def tool(name, parameters):
    return {"name": name, "description": f"{name} something", "parameters": parameters}


def obj(**properties):
    return {"type": "object", "properties": properties}


@pytest.fixture
def http_server():
    """A real HTTP server on loopback that counts what is asked of it."""
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            body = json.dumps({"type": "string"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/schema+json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()


def test_a_schema_referring_outside_itself_is_rejected_at_the_manifest_and_never_fetched(http_server):
    base, hits = http_server
    registry = ToolRegistry()
    errors = registry.update_manifest("arm", json.dumps([
        tool("remote", obj(pose={"$ref": f"{base}/pose.json"})),
        tool("relative", obj(pose={"$ref": "pose.json#/x"})),
        tool("local_file", obj(pose={"$ref": "file:///etc/passwd"})),
        tool("wave", obj(hand={"type": "string", "enum": ["left", "right"]})),
    ]))
    assert len(errors) == 3 and all("refers outside the schema" in e for e in errors), errors
    assert "tool #0 'remote' rejected" in errors[0]
    assert hits == [], "nothing is fetched"
    assert [t.visible_name for t in registry.visible_tools()] == ["cancel_action", "finish", "wait_for_actions", "wave"], \
        "the driver's other tools stay usable"


@pytest.mark.parametrize("parameters,why", [
    (obj(pose={"$ref": "#/$defs/missing"}), "does not resolve"),
    (obj(pose={"$ref": "#nowhere"}), "no $anchor"),
    ({"type": "object", "$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}},
      "properties": {"tree": {"$ref": "#/$defs/n"}}}, "recursive $ref"),
    (obj(me={"$ref": "#"}), "recursive $ref"),
    (obj(code={"type": "string", "pattern": "^(?=a)a+$"}), "regex"),  # lookahead: not linear-time
    (obj(code={"type": "strin"}), "anyOf"),  # not a valid JSON Schema
    ({"type": "array"}, "of type object"),
    (obj(part={"$id": "urn:other", "type": "string"}), "embedded $id"),
    (obj(x={"$dynamicRef": "#meta"}), "$dynamicRef"),
])
def test_schemas_that_could_fetch_loop_or_backtrack_are_rejected_with_a_reason(parameters, why):
    with pytest.raises(SchemaRejected, match=why.replace("$", r"\$")):
        ToolSchema(parameters)
    errors = ToolRegistry().update_manifest("arm", json.dumps([tool("move", parameters)]))
    assert len(errors) == 1 and "'move' rejected" in errors[0]


def test_a_few_lines_of_defs_cannot_stand_for_a_huge_schema():
    defs = {"l0": {"type": "string"}}
    for i in range(1, 30):  # each level refers to the one below twice: 2**29 nodes expanded
        defs[f"l{i}"] = {"type": "array", "prefixItems": [{"$ref": f"#/$defs/l{i - 1}"}] * 2}
    with pytest.raises(SchemaRejected, match="expands to more than"):
        ToolSchema({"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/l29"}}})


def test_local_refs_and_anchors_that_resolve_are_fine():
    schema = ToolSchema({"type": "object", "$defs": {"place": {"$anchor": "place", "enum": ["cafe", "shop"]}},
                         "properties": {"from": {"$ref": "#/$defs/place"}, "to": {"$ref": "#place"}}})
    schema.check({"from": "cafe", "to": "shop"})
    with pytest.raises(ArgumentsRejected, match="to: .*is not one of"):
        schema.check({"from": "cafe", "to": "moon"})


@pytest.mark.timeout(60)  # the catastrophic match takes ~2**64 steps on a backtracking engine
def test_a_catastrophic_pattern_is_checked_in_linear_time():
    registry = ToolRegistry()
    assert registry.update_manifest("lock", json.dumps([tool("unlock", CATASTROPHIC)])) == []
    unlock = registry.resolve("unlock")
    with pytest.raises(ToolError, match="does not match"):
        registry.parse_args(unlock, json.dumps({"code": "a" * 64 + "!"}))
    with pytest.raises(ToolError):
        registry.parse_args(unlock, json.dumps({"code": "a" * 60_000 + "!"}))
    assert registry.parse_args(unlock, {"code": "a" * 64}) == {"code": "a" * 64}


@pytest.mark.timeout(60)
def test_a_steering_message_is_heard_in_the_turn_where_the_model_met_a_catastrophic_pattern():
    ex = FakeExecutor()
    ex.add("speaker", speak_tool(0.5))
    ex.add("speaker", stop_tool())
    ex.add("lock", FakeTool(tool("unlock", CATASTROPHIC) | {"acting": True}, duration_s=1.0))
    replies = [{"delay_s": 0.5, "tool_calls": [{"name": "unlock", "arguments": {"code": "a" * 64 + "!"}}]},
               {"content": "Which door did you mean?"}]

    async def scenario():
        h = Harness(ex, replies)
        h.say("open the door")
        await h.at(0.2)
        h.say("the back door please")  # steers the running turn
        [turn] = await h.turns(1)
        await h.close()
        return h, turn

    h, turn = run(scenario)
    second = h.brain.requests[1]
    [result] = [json.loads(m.content) for m in second.messages if m.role == "tool"]
    assert "invalid arguments for unlock" in result["error"] and not ex.calls("unlock")
    assert "the back door please" in [m.content for m in second.messages if m.meta == "input"]
    assert turn.inputs == ["open the door", "the back door please"]
    assert turn.reply == "Which door did you mean?"


@pytest.mark.parametrize("raw,why", [
    ("[" * 5000 + "]" * 5000, "not valid JSON|must be a JSON object|nested deeper"),
    ("{\"a\": " + "[" * 40 + "1" + "]" * 40 + "}", "nested deeper"),
    ('{"n": ' + "9" * 5000 + "}", "not valid JSON"),
    ("x" * 70_000, "too long"),
    (b"\xff\xfe".decode("latin-1"), "not valid JSON"),
    (42, "must be a JSON object"),
])
def test_hostile_arguments_are_a_clear_rejection(raw, why):
    schema = ToolSchema(obj(a={}, n={}))
    with pytest.raises(ArgumentsRejected, match=why):
        schema.check(parse_arguments(raw))
    assert MAX_ARGS_DEPTH < 41


# --- property tests: random schemas and arguments never crash the registry ---------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=30)
keywords = st.sampled_from(["type", "properties", "items", "required", "enum", "const", "pattern",
                            "minimum", "maxLength", "anyOf", "allOf", "oneOf", "not", "$ref", "$defs",
                            "additionalProperties", "format", "uniqueItems", "prefixItems", "$anchor"])
type_names = st.sampled_from(["object", "string", "integer", "number", "array", "boolean", "null"])
subschemas = st.recursive(
    st.fixed_dictionaries({"type": type_names}) | st.builds(lambda p: {"type": "string", "pattern": p},
                                                           st.sampled_from(["^a+$", "(a+)+$", "(?=x)", "[", "\\d{2,}"]))
    | st.builds(lambda r: {"$ref": r}, st.sampled_from(["#", "#/$defs/a", "#/properties/x", "#a", "http://x/y"])),
    lambda children: st.dictionaries(keywords, children | json_values | st.lists(children, max_size=3), max_size=4),
    max_leaves=25)
tool_schemas = st.builds(lambda props, extra: {"type": "object", "properties": props, **extra},
                         st.dictionaries(st.text(max_size=6), subschemas, max_size=4),
                         st.dictionaries(keywords, subschemas | json_values, max_size=2))


@settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(schema=tool_schemas, args=st.dictionaries(st.text(max_size=6), json_values, max_size=5))
def test_random_schemas_and_arguments_end_in_a_defined_outcome(schema, args):
    registry = ToolRegistry()
    errors = registry.update_manifest("fuzz", json.dumps([tool("thing", schema)]))
    thing = registry.resolve("thing")
    assert (thing is None) == bool(errors)
    if thing is not None:
        for raw in (args, json.dumps(args)):
            try:
                assert registry.parse_args(thing, raw) == args
            except ToolError as exc:
                assert str(exc).startswith("invalid arguments for thing")


@settings(max_examples=200, deadline=2000)
@given(entries=st.lists(json_values | st.fixed_dictionaries({"name": st.text(max_size=10)}, optional={
    "parameters": json_values | tool_schemas, "acting": json_values, "timeout_s": json_values,
    "x-hooks": json_values, "x-roles": json_values}), max_size=4))
def test_random_manifests_never_crash_the_registry(entries):
    registry = ToolRegistry()
    errors = registry.update_manifest("fuzz", json.dumps(entries))
    visible = {t.visible_name for t in registry.visible_tools()} - {"finish", "cancel_action", "wait_for_actions"}
    assert len(visible) + len(errors) <= len(entries) or not isinstance(entries, list)
