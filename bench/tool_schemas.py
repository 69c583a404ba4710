"""How long the agent loop can be held by a driver's tool schema and a model's arguments.

    .venv/bin/python bench/tool_schemas.py [--repeats 200]

Each case is what a hostile or careless driver (the schema) and model (the arguments) could
send: the figures are the time one manifest takes to register and one call's arguments take
to validate, on the loop, median and worst over the repeats. Before phanthy_common/schemas.py
(Python jsonschema), the catastrophic pattern took ~5.7 s at 27 characters and doubled with
each one more, and a remote `$ref` blocked for as long as the URL took to answer.
"""

import argparse
import json
import statistics
import time

from phanthy_agent.core.tools import ToolError, ToolRegistry


def deep(depth: int) -> dict:
    value: dict = {"leaf": 1}
    for _ in range(depth):
        value = {"child": value}
    return value


CASES = [
    ("catastrophic pattern ^(a+)+$, 64 a's + '!'",
     {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}}},
     json.dumps({"code": "a" * 64 + "!"})),
    ("catastrophic pattern, 60,000 a's + '!'",
     {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}}},
     json.dumps({"code": "a" * 60_000 + "!"})),
    ("uniqueItems over 2,000 objects",
     {"type": "object", "properties": {"items": {"type": "array", "uniqueItems": True}}},
     json.dumps({"items": [{"n": i, "s": "x" * 5} for i in range(2000)]})),
    ("anyOf of 50 branches x 2,000 array items",
     {"type": "object", "properties": {"items": {"type": "array", "items": {
         "anyOf": [{"type": "object", "required": [f"k{i}"]} for i in range(50)]}}}},
     json.dumps({"items": [{"x": i} for i in range(2000)]})),
    ("arguments nested 31 levels", {"type": "object"}, json.dumps(deep(30))),
    ("arguments nested 5,000 levels (rejected)", {"type": "object"},
     '{"a": ' + "[" * 5000 + "]" * 5000 + "}"),
]
REJECTED_SCHEMAS = [
    ("remote $ref", {"type": "object", "properties": {"a": {"$ref": "http://10.255.255.1/slow.json"}}}),
    ("recursive $ref", {"type": "object", "$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}},
                        "properties": {"a": {"$ref": "#/$defs/n"}}}),
    ("2**29-node expansion", {"type": "object", "$defs": {
        "l0": {"type": "string"}, **{f"l{i}": {"prefixItems": [{"$ref": f"#/$defs/l{i - 1}"}] * 2}
                                    for i in range(1, 30)}}, "properties": {"x": {"$ref": "#/$defs/l29"}}}),
]


def timed(fn, repeats: int):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    print("| Case | Outcome | Median ms | Worst ms |\n|---|---|---|---|")
    for name, schema, raw in CASES:
        registry = ToolRegistry()
        assert registry.update_manifest("bench", json.dumps([{"name": "t", "parameters": schema}])) == []
        tool = registry.resolve("t")
        outcome = []

        def validate():
            try:
                registry.parse_args(tool, raw)
                outcome[:] = ["valid"]
            except ToolError:
                outcome[:] = ["tool error"]
        median, worst = timed(validate, args.repeats)
        print(f"| {name} | {outcome[0]} | {median:.3f} | {worst:.3f} |")
    for name, schema in REJECTED_SCHEMAS:
        errors = []
        median, worst = timed(lambda: errors.__setitem__(slice(None), ToolRegistry().update_manifest(
            "bench", json.dumps([{"name": "t", "parameters": schema}]))), args.repeats)
        print(f"| manifest with {name} | {'rejected' if errors else 'ACCEPTED'} | {median:.3f} | {worst:.3f} |")


if __name__ == "__main__":
    main()
