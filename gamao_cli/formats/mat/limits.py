r"""Limits of the match-file reader: inputs that would make it fail in
another way than a syntax error, or take unbounded memory, refused with a
location before or while parsing.

* a step's repeat count ``(n)`` above :data:`MAX_REPEAT` (``8/5(999999999)``
  would be expanded into a billion movements);
* a number of more digits than Python turns into an int
  (``sys.get_int_max_str_digits()``, 4,300 by default).

>>> check_repeats(" 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5(12)\n", "r.mat")
Traceback (most recent call last):
...
gamao_cli.errors.SyntaxProblem: r.mat:5:13: a step repeated 12 times: a roll moves a checker at most 4 times (more than 9 is not read) (found '(12)')
"""
from __future__ import annotations

import re
import sys

from gamao_cli.errors import SyntaxProblem

# A step's repeat count "(n)" above MAX_REPEAT is not read: no roll moves a
# checker more than four times, and the reader and the validator expand
# "8/5(n)" into n movements (a line of "8/5(99) " a megabyte long took 2.6 GB).
# Up to it, the validator reports a count too high for the roll (GM207).
from ..limits import MAX_MOVEMENTS, MAX_REPEAT, play_problem  # noqa: E402  (the bounds every reader keeps)


_REPEAT_RE = re.compile(r"\((\d{2,})\)")
_MOVE_LINE_START = re.compile(r"[ \t]*(?:\d+\)|\d\d:)")
_POINT_END = re.compile(r"[0-9A-Za-z*]")
_COMMENT_START = re.compile(r"[ \t]*[;#\[]")


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


class _Lines:
    """Which line of ``text`` an index is on, asked in increasing order of
    index: each line is looked at once (no quadratic search on long lines)."""

    def __init__(self, text: str):
        self.text = text
        self.start = self.end = -1

    def line_of(self, index: int) -> str:
        if not self.start <= index < self.end:
            self.start = self.text.rfind("\n", 0, index) + 1
            end = self.text.find("\n", index)
            self.end = end if end >= 0 else len(self.text)
        return self.text[self.start:self.end]

    def starts_with(self, index: int, pattern: "re.Pattern[str]") -> bool:
        if not self.start <= index < self.end:
            self.line_of(index)
            self.verdict = bool(pattern.match(self.text, self.start, self.end))
        return self.verdict


def check_repeats(text: str, path: str) -> None:
    """Refuse a step repeat count above :data:`MAX_REPEAT` (before parsing)."""
    if "(" not in text:
        return
    lines = _Lines(text)
    for rm in _REPEAT_RE.finditer(text):
        digits = rm.group(1)
        value = digits.lstrip("0")
        if len(value) <= 3 and (not value or int(value) <= MAX_REPEAT):
            continue
        if rm.start() == 0 or not _POINT_END.match(text, rm.start() - 1):
            continue
        if not lines.starts_with(rm.start(), _MOVE_LINE_START):
            continue
        line, col = _line_col(text, rm.start())
        shown = digits if len(digits) <= 12 else digits[:12] + "..."
        raise SyntaxProblem(path, key="GM001.repeat", fields={"count": shown, "limit": MAX_REPEAT},
                            line=line, column=col, text=f"({shown})")


_CELL_DICE = re.compile(r"(?<![^ \t])[0-9]{2}:[ \t]+")
# a line break and the whole line after it, when longer than 4 * 2 * MAX_MOVEMENTS
# characters (the search for the line break itself runs at C speed)
_LONG_LINE = re.compile(r"\n([^\n]{%d,})" % (4 * 2 * MAX_MOVEMENTS + 1))


def check_long_plays(text: str, path: str) -> None:
    """Refuse a play of more than :data:`~gamao_cli.formats.limits.MAX_MOVEMENTS`
    movements before parsing (the reader refuses it too, but the regular
    expression that cuts a line of hundreds of thousands of steps into
    cells takes a kilobyte a step): only lines holding more slashes than two
    cells can are looked at. ``text`` is the text as the grammar reads it
    (after ``prepare_text``)."""
    limit = 2 * MAX_MOVEMENTS
    if text.count("/") <= limit:
        return
    number, counted = 1, 0   # the line number at index ``counted``
    # the lines of more than 4 * limit characters (a line break before the
    # first line, so that every line is found after one)
    for lm in _LONG_LINE.finditer("\n" + text):
        line = lm.group(1)
        if line.count("/") <= limit:
            continue
        at = lm.start()   # (in ``text``, the line starts here)
        number += text.count("\n", counted, at)
        counted = at
        starts = [cm.end() for cm in _CELL_DICE.finditer(line)] or [0]
        for i, at in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else len(line)
            # the cell alone (a slice of the line up to it would make a line
            # of many cells quadratic); its column is where it starts
            problem = play_problem(line[at:end], path, number, 1 + at)
            if problem is not None:
                raise problem


def long_number_problem(text: str, path: str) -> SyntaxProblem | None:
    """Where the first number too long to read is (Python refuses to turn
    more than ``sys.get_int_max_str_digits()`` digits into an int)."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
    if not limit:
        return None
    found = None
    lines = _Lines(text)
    for nm in re.finditer(r"\d{%d,}" % (limit + 1), text):
        if not lines.starts_with(nm.start(), _COMMENT_START):
            found = nm
            break
        if found is None:
            found = nm
    if found is None:
        return None
    line, col = _line_col(text, found.start())
    n = found.end() - found.start()
    return SyntaxProblem(path, key="GM001.long-number", fields={"digits": n, "limit": limit},
                         line=line, column=col, text=found.group()[:20] + "...")
