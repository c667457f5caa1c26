"""Where things are in a JSON text: the value at a JSON path, a number
literal, the point where nesting passes a depth. :mod:`json` gives no
positions for what it parsed, so an error found after parsing (a schema
violation, a number too long) is located by scanning the text again, which
is done only when there is an error to locate.

>>> text = '{"a": [1, {"b": "x"}],\\n "c": 5}'
>>> locate(text, ("a", 1, "b")), locate(text, ("c",)), locate(text, ())
((1, 17), (2, 7), (1, 1))
>>> find_literal('{"n": "12", "m": 12}', "12"), deeper_than("[[[1]]]", 2)
((1, 18), (1, 3))
"""
from __future__ import annotations

import json
import re

# a string, or a bracket, or a literal that is not a string
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|[^\s,:\[\]{}"]+', re.S)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_SPACE = re.compile(r"[ \t\n\r]*")


def line_column(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of ``text[index]``."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _skip_value(text: str, i: int) -> int:
    """The index just after the JSON value that starts at ``text[i]``."""
    ch = text[i]
    if ch == '"':
        return _STRING.match(text, i).end()
    if ch not in "[{":
        m = _TOKEN.match(text, i)
        return m.end()
    depth = 0
    for m in _TOKEN.finditer(text, i):
        tok = m.group()
        if tok in ("[", "{"):
            depth += 1
        elif tok in ("]", "}"):
            depth -= 1
            if depth == 0:
                return m.end()
    return len(text)


def _value_at(text: str, i: int, part) -> int | None:
    """In the object or array starting at ``text[i]``, the index of the
    value of key or index ``part`` (None when it is not there)."""
    i = _SPACE.match(text, i).end()
    opening = text[i:i + 1]
    i += 1
    n = 0
    while True:
        i = _SPACE.match(text, i).end()
        if text[i:i + 1] in ("]", "}", ""):
            return None
        if opening == "{":
            m = _STRING.match(text, i)
            if m is None:
                return None
            key = json.loads(m.group())
            i = _SPACE.match(text, m.end()).end() + 1   # the ':'
            i = _SPACE.match(text, i).end()
            if key == part:
                return i
        else:
            if n == part:
                return i
            n += 1
        i = _SPACE.match(text, _skip_value(text, i)).end()
        if text[i:i + 1] == ",":
            i += 1


def locate(text: str, parts: tuple) -> tuple[int, int]:
    """The line and column of the value at the JSON path ``parts`` (keys
    and indexes) of the valid JSON ``text``; of the deepest value on the
    way that exists, when the path goes on past what the text holds."""
    i = _SPACE.match(text).end()
    if text[i:i + 1] == "\ufeff":
        i += 1
    for part in parts:
        if text[i:i + 1] not in ("[", "{"):
            break
        j = _value_at(text, i, part)
        if j is None:
            break
        i = j
    return line_column(text, i)


def find_literal(text: str, literal: str) -> tuple[int, int] | None:
    """The line and column of the first number or constant written
    ``literal`` outside strings (None when there is none)."""
    for m in _TOKEN.finditer(text):
        if m.group() == literal:
            return line_column(text, m.start())
    return None


def find_long_number(text: str, digits: int) -> tuple[str, tuple[int, int]] | None:
    """The first number of more than ``digits`` digits outside strings, and
    where it is."""
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok[:1] != '"' and sum(ch.isdigit() for ch in tok) > digits:
            return tok, line_column(text, m.start())
    return None


def deeper_than(text: str, limit: int) -> tuple[int, int] | None:
    """Where the nesting of arrays and objects first passes ``limit`` levels."""
    depth = 0
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok in ("[", "{"):
            depth += 1
            if depth > limit:
                return line_column(text, m.start())
        elif tok in ("]", "}"):
            depth -= 1
    return None
