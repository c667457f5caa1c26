"""Checking a JSON document against gamao's schema before the model is built.

The schema is the one shipped with gamao (``gamao_cli/schemas/match.schema.json``
and the ``validate.schema.json`` it refers to for diagnostics); this module
applies it with the JSON Schema keywords those files use (``type``,
``const``, ``enum``, ``required``, ``properties``, ``additionalProperties``,
``items``, ``minItems``, ``maxItems``, ``minimum``, ``maximum``,
``minLength``, ``pattern``, ``oneOf``, ``allOf``, ``if``/``then``, ``$ref``),
and refuses a schema that uses any other, so that no part of the schema is
silently skipped. Two choices are stricter than JSON Schema's: an
``integer`` is a JSON number written without a fraction or an exponent (the
model needs an int, ``1.0`` is not one), and ``number`` takes no infinities.

:func:`violations` gives the first violations, each with its JSON path
(``$.games[0].actions[3].dice``), the message key of what is wrong and its
fields; ``tests/test_json_schema.py`` checks that it agrees with the
``jsonschema`` package on which documents are valid.

>>> [(v.path, v.fields["name"]) for v in violations({"format": "gamao-match", "version": 1}, 3)]
[('$', 'length'), ('$', 'players'), ('$', 'tags')]
>>> v = violations({"format": "gamao-match", "version": 1, "length": "7", "players": ["a", "b"],
...                 "tags": [], "games": [], "final_score": [0, 0], "winner": None})[0]
>>> v.path, v.key, v.fields
('$.length', 'json.type', {'expected': 'integer', 'found': 'string'})
"""
from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable

#: The keywords :func:`violations` applies; a schema with others is refused.
KEYWORDS = frozenset({
    "$schema", "$id", "$defs", "title", "description", "type", "const", "enum", "required",
    "properties", "additionalProperties", "items", "minItems", "maxItems", "minimum",
    "maximum", "minLength", "pattern", "oneOf", "allOf", "if", "then", "$ref",
})

_SCHEMA_FILES = ("match.schema.json", "validate.schema.json")


@dataclass(frozen=True)
class Violation:
    """One way the document breaks the schema: where (a JSON path, and the
    same as a list of keys and indexes), the message key and its fields."""

    path: str
    key: str
    fields: dict[str, Any] = field(default_factory=dict, hash=False)
    parts: tuple = ()


def _load(name: str) -> dict[str, Any]:
    text = resources.files("gamao_cli.schemas").joinpath(name).read_text("utf-8")
    return json.loads(text)


@functools.cache
def schemas() -> dict[str, dict[str, Any]]:
    """Every schema file by its name, each checked to use only :data:`KEYWORDS`."""
    out = {name: _load(name) for name in _SCHEMA_FILES}
    for name, schema in out.items():
        _check_keywords(schema, name)
    return out


def _check_keywords(node: Any, where: str) -> None:
    if isinstance(node, dict):
        unknown = set(node) - KEYWORDS
        if unknown:
            raise RuntimeError(f"{where}: schema keywords the JSON reader does not apply: "
                               f"{sorted(unknown)}")
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for name, sub in value.items():
                    _check_keywords(sub, f"{where}/{key}/{name}")
            elif key in ("items", "additionalProperties", "if", "then") and isinstance(value, dict):
                _check_keywords(value, f"{where}/{key}")
            elif key in ("oneOf", "allOf"):
                for i, sub in enumerate(value):
                    _check_keywords(sub, f"{where}/{key}/{i}")


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


_TYPES: dict[str, tuple[type, ...]] = {
    "null": (type(None),), "boolean": (bool,), "integer": (int,), "number": (int, float),
    "string": (str,), "array": (list,), "object": (dict,),
}


def _is_type(value: Any, name: str) -> bool:
    """JSON Schema's type ``name`` (``type()`` is exact: a bool is no integer)."""
    if type(value) not in _TYPES[name]:
        return False
    return name != "number" or type(value) is int or math.isfinite(value)


def _path(parts: tuple) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if re.fullmatch(r"[A-Za-z_]\w*", p)
                                                    else f"[{json.dumps(p)}]")
    return out


def _shown(value: Any) -> str:
    """A value as the message shows it: JSON, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _unlink(where) -> tuple:
    """The path parts of a linked path ``(parent, key)`` (None: the root)."""
    parts = []
    while where is not None:
        where, key = where
        parts.append(key)
    return tuple(reversed(parts))


class _Out:
    """The violations found so far (at most ``limit``)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.found: list[Violation] = []

    def add(self, where, key: str, **fields: Any) -> None:
        parts = _unlink(where)
        self.found.append(Violation(_path(parts), key, fields, parts))

    def full(self) -> bool:
        return len(self.found) >= self.limit


# A compiled schema node is a function ``check(value, where, out) -> bool``:
# whether ``value`` (at the linked path ``where``) follows the node; with an
# ``out``, each violation is added to it (up to its limit); without (None),
# it stops at the first one (a probe, for "if" and "oneOf").
Check = Callable[[Any, Any, "_Out | None"], bool]


class _Compiler:
    def __init__(self) -> None:
        self.done: dict[tuple[int, str], Check] = {}

    def resolve(self, ref: str, base: str) -> tuple[dict[str, Any], str]:
        target, _, pointer = ref.partition("#")
        name = target.rsplit("/", 1)[-1] if target else base
        node: Any = schemas()[name]
        for part in pointer.strip("/").split("/") if pointer.strip("/") else []:
            node = node[part]
        return node, name

    def compile(self, schema: dict[str, Any], base: str) -> Check:
        key = (id(schema), base)
        if key in self.done:
            return self.done[key]
        slot: list[Check] = []
        self.done[key] = lambda v, w, o: slot[0](v, w, o)   # for a schema that refers to itself
        check = self._compile(schema, base)
        slot.append(check)
        self.done[key] = check
        return check

    def _compile(self, schema: dict[str, Any], base: str) -> Check:
        steps: list[Check] = []     # each returns False on a violation
        if "$ref" in schema:
            sub, name = self.resolve(schema["$ref"], base)
            steps.append(self.compile(sub, name))
        stop: list[Check] = []      # checks after which a violation ends this node's checks
        if "type" in schema:
            names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            allowed = frozenset(t for n in names for t in _TYPES[n])
            finite = "number" in names and "integer" not in names
            wanted = " or ".join(names)

            def type_check(v, w, o, allowed=allowed, finite=finite, wanted=wanted):
                if type(v) in allowed and not (finite and type(v) is float
                                               and not math.isfinite(v)):
                    return True
                if o is not None:
                    o.add(w, "json.type", expected=wanted, found=_type_name(v))
                return False
            stop.append(type_check)
        if "const" in schema:
            const = schema["const"]

            def const_check(v, w, o, const=const):
                if _same(v, const):
                    return True
                if o is not None:
                    o.add(w, "json.const", expected=_shown(const), found=_shown(v))
                return False
            stop.append(const_check)
        if "enum" in schema:
            enum = schema["enum"]
            words = ", ".join(_shown(e) for e in enum)
            # a value of these types is compared by a set (a bool never: 1 is not true)
            plain = frozenset(e for e in enum if type(e) in (str, int, type(None)))
            bools = [e for e in enum if type(e) is bool]

            def enum_check(v, w, o, plain=plain, bools=bools, words=words):
                t = type(v)
                if t is str or t is int or v is None:
                    if v in plain:
                        return True
                elif t is bool and v in bools:
                    return True
                if o is not None:
                    o.add(w, "json.enum", expected=words, found=_shown(v))
                return False
            stop.append(enum_check)
        if "minimum" in schema or "maximum" in schema:
            low, high = schema.get("minimum"), schema.get("maximum")

            def range_check(v, w, o, low=low, high=high):
                if type(v) not in (int, float):
                    return True
                ok = True
                if low is not None and v < low:
                    ok = False
                    if o is None:
                        return False
                    o.add(w, "json.minimum", limit=low, found=_shown(v))
                if high is not None and v > high:
                    ok = False
                    if o is None:
                        return False
                    o.add(w, "json.maximum", limit=high, found=_shown(v))
                return ok
            steps.append(range_check)
        if "minLength" in schema or "pattern" in schema:
            min_length = schema.get("minLength")
            pattern = schema.get("pattern")
            rx = _regex(pattern) if pattern is not None else None

            def string_check(v, w, o, min_length=min_length, rx=rx, pattern=pattern):
                if type(v) is not str:
                    return True
                ok = True
                if min_length is not None and len(v) < min_length:
                    ok = False
                    if o is None:
                        return False
                    o.add(w, "json.min-length", limit=min_length)
                if rx is not None and rx.search(v) is None:
                    ok = False
                    if o is None:
                        return False
                    o.add(w, "json.pattern", pattern=pattern, found=_shown(v))
                return ok
            steps.append(string_check)
        if "minItems" in schema or "maxItems" in schema or isinstance(schema.get("items"), dict):
            low, high = schema.get("minItems"), schema.get("maxItems")
            items = self.compile(schema["items"], base) if isinstance(schema.get("items"), dict) \
                else None

            def array_check(v, w, o, low=low, high=high, items=items):
                if type(v) is not list:
                    return True
                ok = True
                if low is not None and len(v) < low:
                    ok = False
                    if o is None:
                        return False
                    o.add(w, "json.min-items", limit=low, found=len(v))
                if high is not None and len(v) > high:
                    ok = False
                    if o is None:
                        return False
                    o.add(w, "json.max-items", limit=high, found=len(v))
                if items is not None:
                    for i, item in enumerate(v):
                        if not items(item, (w, i), o):
                            ok = False
                            if o is None or o.full():
                                return False
                return ok
            steps.append(array_check)
        if "required" in schema or "properties" in schema or "additionalProperties" in schema:
            required = tuple(schema.get("required", ()))
            props = {name: self.compile(sub, base)
                     for name, sub in schema.get("properties", {}).items()}
            extra_schema = schema.get("additionalProperties", True)
            extra: Check | bool = self.compile(extra_schema, base) \
                if isinstance(extra_schema, dict) else extra_schema

            def object_check(v, w, o, required=required, props=props, extra=extra):
                if type(v) is not dict:
                    return True
                ok = True
                for name in required:
                    if name not in v:
                        ok = False
                        if o is None:
                            return False
                        o.add(w, "json.required", name=name)
                for name, item in v.items():
                    sub = props.get(name)
                    if sub is None:
                        if extra is True:
                            continue
                        if extra is False:
                            if o is None:
                                return False
                            o.add((w, name), "json.additional", name=name)
                            ok = False
                            continue
                        sub = extra
                    if not sub(item, (w, name), o):
                        ok = False
                        if o is None or o.full():
                            return False
                return ok
            steps.append(object_check)
        steps.extend(self.compile(sub, base) for sub in schema.get("allOf", ()))
        if "if" in schema and "then" in schema:
            probe, then = self.compile(schema["if"], base), self.compile(schema["then"], base)

            def if_check(v, w, o, probe=probe, then=then):
                return not probe(v, w, None) or then(v, w, o)
            steps.append(if_check)
        if "oneOf" in schema:
            branches = [self.compile(sub, base) for sub in schema["oneOf"]]

            def one_of(v, w, o, branches=branches):
                passing = sum(1 for b in branches if b(v, w, None))
                if passing == 1:
                    return True
                if o is None:
                    return False
                if passing > 1:
                    o.add(w, "json.one-of-many")
                    return False
                # none passes: the violations of the branch the value comes
                # closest to: one whose constants it has (a "format" it names),
                # then the one whose first violation is deepest, then the fewest
                depth = len(_unlink(w))
                results = []
                for b in branches:
                    sub_out = _Out(o.limit)
                    b(v, w, sub_out)
                    results.append(sub_out.found)

                def closeness(found: list[Violation]) -> tuple:
                    named = not any(x.key == "json.const" and len(x.parts) == depth + 1
                                    for x in found)
                    return (named, len(found[0].parts) if found else 0, -len(found))
                for x in max(results, key=closeness):
                    if o.full():
                        break
                    o.found.append(x)
                return False
            steps.append(one_of)

        if len(stop) + len(steps) == 1:
            return (stop or steps)[0]
        if not stop and not steps:
            return lambda v, w, o: True

        def check(v, w, o, stop=tuple(stop), steps=tuple(steps)):
            for c in stop:
                if not c(v, w, o):
                    return False
            ok = True
            for c in steps:
                if not c(v, w, o):
                    ok = False
                    if o is None or o.full():
                        return False
            return ok
        return check


@functools.cache
def compiled(name: str) -> Check:
    """The schema file ``name`` compiled."""
    return _Compiler().compile(schemas()[name], name)


@functools.lru_cache(maxsize=64)
def _regex(pattern: str) -> "re.Pattern[str]":
    """A schema's pattern as a Python regular expression; a final ``$``
    matches only at the end (as in JSON Schema's regular expressions, where
    Python's would also match before a final line break)."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


def _same(a: Any, b: Any) -> bool:
    """JSON equality (``true`` is not ``1``)."""
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) \
        else a == b


def violations(doc: Any, limit: int = 5, name: str = "match.schema.json") -> list[Violation]:
    """The first ``limit`` violations of the schema ``name`` by ``doc``
    (a document as :func:`json.loads` gives it); empty when it is valid."""
    out = _Out(limit)
    compiled(name)(doc, None, out)
    return out.found
