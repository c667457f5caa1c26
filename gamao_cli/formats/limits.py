"""The bounds every reader keeps, so that no input makes one fail in another
way than a located error, or take unbounded time or memory (issue 18):

* :data:`MAX_DIGITS`: a number of more digits is not read (Python turns at
  most ``sys.get_int_max_str_digits()`` digits, 4,300 by default, into an
  int, and writes no int of more);
* :data:`MAX_REPEAT`: a step's repeat count ``(n)`` above it is not read
  (``8/5(999999999)`` would be expanded into a billion movements);
* :data:`MAX_MOVEMENTS`: a play of more movements (``/``) is not read (no
  roll moves checkers more than four times; a play line of megabytes would
  make hundreds of thousands of steps);
* :data:`MAX_JSON_DEPTH`: JSON nested deeper is not read (gamao's JSON
  nests eight levels).

Each reader says so with the same messages (``GM001.long-number``,
``GM001.repeat``, ``GM001.movements``, ``GM001.json-depth``).

>>> too_long("12345", "x", 1, 1) is None
True
>>> print(too_long("9" * 5000, "x.sgf", 1, 9))
x.sgf:1:9: a number of 5000 digits: gamao reads numbers of at most 4300 digits (found '99999999999999999999...')
"""
from __future__ import annotations

import contextlib
import re
import sys
from typing import Iterator

from gamao_cli.errors import SyntaxProblem

MAX_DIGITS = (sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0) \
    or 4300
MAX_REPEAT = 9
MAX_MOVEMENTS = 64
MAX_JSON_DEPTH = 64

#: The smallest number of more than MAX_DIGITS digits.
_TOO_BIG = 10 ** MAX_DIGITS


@contextlib.contextmanager
def all_digits() -> Iterator[None]:
    """Within the block, Python writes ints of any number of digits: a
    figure gamao computes can pass :data:`MAX_DIGITS` (a running score from
    a 4,300-digit score line plus a point, a cube doubled thousands of
    times), and ``str()`` of it would fail (Python's default bound) in every
    output that shows it. Only writing runs inside (no reader, which may
    rely on Python's bound); gamao's JSON writer still refuses such a
    number (:func:`fits`), since no reader of gamao's reads it back."""
    if not hasattr(sys, "set_int_max_str_digits"):
        yield
        return
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def too_long(digits: str, path: str, line: int | None, column: int | None) -> SyntaxProblem | None:
    """The error for a number written with more than :data:`MAX_DIGITS`
    digits (``digits``: the number as written, maybe with a sign), else None."""
    n = len(digits.lstrip("+-"))
    if n <= MAX_DIGITS:
        return None
    return SyntaxProblem(path, key="GM001.long-number", fields={"digits": n, "limit": MAX_DIGITS},
                         line=line, column=column, text=digits[:20] + "...")


def fits(n: int) -> bool:
    """Whether the int ``n`` has at most :data:`MAX_DIGITS` digits (so that
    it can be written, and read back)."""
    return -_TOO_BIG < n < _TOO_BIG


_REPEAT_RE = re.compile(r"\((\d+)\)")


def play_problem(play: str, path: str, line: int | None, column: int | None,
                 at: int = 0) -> SyntaxProblem | None:
    """What makes the text of a play unreadable: more movements than
    :data:`MAX_MOVEMENTS`, or a repeat count above :data:`MAX_REPEAT`
    (the play is ``play[at:]``; ``column`` is the column of ``play[0]``);
    None when it is within bounds."""
    if play.count("/", at) > MAX_MOVEMENTS:
        i = at - 1
        for _ in range(MAX_MOVEMENTS + 1):
            i = play.index("/", i + 1)
        start = play.rfind(" ", at, i) + 1 or at
        return SyntaxProblem(path, key="GM001.movements",
                             fields={"count": play.count("/", at), "limit": MAX_MOVEMENTS},
                             line=line, column=None if column is None else column + start,
                             text=play[start:start + 20])
    if "(" in play:
        for rm in _REPEAT_RE.finditer(play, at):
            digits = rm.group(1)
            value = digits.lstrip("0")
            if len(value) > 3 or value and int(value) > MAX_REPEAT:
                shown = digits if len(digits) <= 12 else digits[:12] + "..."
                return SyntaxProblem(path, key="GM001.repeat",
                                     fields={"count": shown, "limit": MAX_REPEAT}, line=line,
                                     column=None if column is None else column + rm.start(),
                                     text=f"({shown})")
    return None
