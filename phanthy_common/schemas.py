"""Tool parameter schemas: checked once when a manifest arrives, then arguments are validated
in bounded time. Shared by the agent (the model's arguments) and the driver SDK (a goal's).

A schema must be self-contained: a `$ref` is a local fragment ("#", "#/$defs/x", "#anchor")
that resolves, nothing is ever fetched (no network, no files), and references may not recurse.
Patterns run on a linear-time engine (Rust `regex`: no lookaround, no backreferences), so no
argument can make validation exponential; with recursion ruled out and the expanded schema
bounded, validating is linear in the argument's size. Validation: jsonschema-rs
(Draft 2020-12, formats as annotations)."""

from __future__ import annotations

import json
import logging
from typing import Any, Dict
from urllib.parse import unquote

import jsonschema_rs

log = logging.getLogger(__name__)

MAX_SCHEMA_CHARS = 64_000  # a tool's parameters, serialized
MAX_SCHEMA_NODES = 4_000  # subschemas and keywords, every `$ref` expanded
MAX_ARGS_CHARS = 64_000  # a call's arguments, serialized
MAX_ARGS_DEPTH = 32  # nesting of objects and arrays in a call's arguments
_DATA_KEYWORDS = ("enum", "const", "default", "examples")  # values there are data, not schemas


class SchemaRejected(ValueError):
    """A declaration's schema that phanthy will not use; the message says why."""


class ArgumentsRejected(ValueError):
    """Arguments that do not satisfy the schema (or could not be checked); the message says why."""


class ToolSchema:
    """A compiled tool parameter schema."""

    def __init__(self, schema: Any):
        if not isinstance(schema, dict):
            raise SchemaRejected("parameters must be a JSON object (a JSON Schema)")
        try:
            size = len(json.dumps(schema))
        except (TypeError, ValueError, RecursionError) as exc:
            raise SchemaRejected(f"parameters are not JSON: {exc}") from None
        if size > MAX_SCHEMA_CHARS:
            raise SchemaRejected(f"schema of {size} characters exceeds {MAX_SCHEMA_CHARS}")
        if schema.get("type") != "object":
            raise SchemaRejected("parameters must be a JSON Schema of type object")
        try:
            _ExpansionCheck(schema).run()
        except RecursionError:
            raise SchemaRejected("schema nested too deeply") from None
        try:
            self._validator = jsonschema_rs.Draft202012Validator(
                schema, offline=True, validate_formats=False,
                pattern_options=jsonschema_rs.RegexOptions())
        except Exception as exc:  # invalid schema, unresolvable $ref, non-linear pattern
            raise SchemaRejected(_first_line(exc)) from None
        self.schema = schema

    def check(self, args: Any) -> None:
        """Raise ArgumentsRejected unless `args` satisfy the schema."""
        _check_shape(args)
        try:
            self._validator.validate(args)  # the first error only: collecting all is not linear
        except jsonschema_rs.ValidationError as error:
            where = "/".join(str(p) for p in error.instance_path) or "(root)"
            raise ArgumentsRejected(f"{where}: {error.message}") from None
        except Exception as exc:  # e.g. a number beyond 64 bits
            raise ArgumentsRejected(f"arguments could not be checked: {_first_line(exc)}") from None


def parse_arguments(raw: Any) -> Dict[str, Any]:
    """A model's or a goal's raw arguments (JSON text, a dict, or nothing) as a dict."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str):
        raise ArgumentsRejected("arguments must be a JSON object")
    if len(raw) > MAX_ARGS_CHARS:
        raise ArgumentsRejected(f"arguments too long ({len(raw)} characters; at most {MAX_ARGS_CHARS})")
    try:
        args = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ArgumentsRejected(f"arguments are not valid JSON: {_first_line(exc)}") from None
    if not isinstance(args, dict):
        raise ArgumentsRejected("arguments must be a JSON object")
    return args


def _check_shape(args: Any) -> None:
    if not isinstance(args, dict):
        raise ArgumentsRejected("arguments must be a JSON object")
    stack, seen = [(args, 1)], 0
    while stack:
        value, depth = stack.pop()
        if depth > MAX_ARGS_DEPTH:
            raise ArgumentsRejected(f"arguments nested deeper than {MAX_ARGS_DEPTH} levels")
        seen += 1
        if seen > MAX_ARGS_CHARS:
            raise ArgumentsRejected(f"arguments have more than {MAX_ARGS_CHARS} values")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


class _ExpansionCheck:
    """Local references only, no recursion, and a bounded size with every `$ref` expanded
    (so that a few lines of `$defs` cannot stand for a schema of millions of nodes)."""

    def __init__(self, root: dict):
        self.root = root
        self.anchors: Dict[str, Any] = {}
        self._sizes: Dict[str, int] = {}
        self._collect(root, is_root=True)

    def run(self) -> None:
        if self._size(self.root, ()) > MAX_SCHEMA_NODES:
            raise SchemaRejected(f"schema expands to more than {MAX_SCHEMA_NODES} nodes")

    def _collect(self, node: Any, is_root: bool = False) -> None:
        stack = [(node, is_root)]
        while stack:
            value, at_root = stack.pop()
            if isinstance(value, dict):
                if "$id" in value and not at_root:
                    raise SchemaRejected("embedded $id is not supported in tool schemas")
                for key in ("$dynamicRef", "$recursiveRef"):
                    if key in value:
                        raise SchemaRejected(f"{key} is not supported in tool schemas")
                if isinstance(value.get("$anchor"), str):
                    self.anchors[value["$anchor"]] = value
                stack.extend((v, False) for k, v in value.items() if k not in _DATA_KEYWORDS)
            elif isinstance(value, list):
                stack.extend((v, False) for v in value)

    def _size(self, node: Any, refs: tuple) -> int:
        total = 1
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                total += self._ref_size(ref, refs)
            for key, value in node.items():
                if key not in _DATA_KEYWORDS and key != "$ref":
                    total += self._size(value, refs)
                if total > MAX_SCHEMA_NODES:
                    return total
        elif isinstance(node, list):
            for value in node:
                total += self._size(value, refs)
                if total > MAX_SCHEMA_NODES:
                    return total
        return total

    def _ref_size(self, ref: str, refs: tuple) -> int:
        if ref in refs:
            raise SchemaRejected(f"recursive $ref {ref!r} is not supported in tool schemas")
        if ref not in self._sizes:
            self._sizes[ref] = self._size(self._target(ref), refs + (ref,))
        return self._sizes[ref]

    def _target(self, ref: str) -> Any:
        if not ref.startswith("#"):
            raise SchemaRejected(f"$ref {ref!r} refers outside the schema; tool schemas must be "
                                 f"self-contained (nothing is fetched)")
        fragment = ref[1:]
        if fragment and not fragment.startswith("/"):
            if fragment not in self.anchors:
                raise SchemaRejected(f"$ref {ref!r}: no $anchor {fragment!r} in the schema")
            return self.anchors[fragment]
        node: Any = self.root
        for token in fragment.split("/")[1:]:
            token = unquote(token).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise SchemaRejected(f"$ref {ref!r} does not resolve in the schema")
        return node


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:300]
