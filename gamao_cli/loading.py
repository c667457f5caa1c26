"""From a path to match models, whatever the record's format.

The format is recognised from the content, not the file name: SGF starts
with ``(;``, gamao's JSON with ``{``, everything else is read as a match file.

A match file bigger than :data:`STREAM_MIN_BYTES` is read one match at a
time (:mod:`gamao_cli.streaming`): :func:`iter_path` gives its matches as
they are read, so that ``gamao validate`` checks an archive of thousands of
matches with memory that does not grow with the file. Smaller files are read
whole; both ways give the same matches and the same errors.

Whatever the bytes, reading gives matches or raises an
:class:`~gamao_cli.errors.InputError` with a location; a few inputs that
would make the reader fail in another way (a number of thousands of digits)
or take unbounded memory (a step repeated a billion times, ``8/5(999999999)``)
are turned into a :class:`~gamao_cli.errors.SyntaxProblem` here.
"""
from __future__ import annotations

import importlib
import os
import re
import stat
import sys
from typing import Callable, Iterator

from . import model as m
from .errors import NotAMatchFile, SyntaxProblem
from .matfile_reader import read_matches
from .textio import open_decoded, read_text

# format name -> "module:function" reading (text, path) into matches; modules
# are imported on first use so that reading a .mat never loads the SGF code.
READERS: dict[str, str] = {
    "mat": "gamao_cli.matfile_reader:read_matches",
    "sgf": "gamao_cli.sgf_reader:read_sgf",
    "json": "gamao_cli.json_format:read_json",
}

# Files at least this big are read match by match (see the module docstring).
STREAM_MIN_BYTES = 4 << 20

# A step's repeat count "(n)" above this is not read: no roll moves a checker
# more than four times, and the reader and the validator expand "8/5(n)" into
# n movements (a line of "8/5(99) " a megabyte long took 2.6 GB). Up to it,
# the validator reports a count too high for the roll (GM207).
MAX_REPEAT = 9


def detect_format(text: str) -> str:
    """``"sgf"``, ``"json"`` or ``"mat"`` from the first non-blank character."""
    stripped = text.lstrip()
    head = stripped[:2]
    # SGF: "(" then ";" with any white space between ("( ;", "(\n;")
    if stripped.startswith("(") and stripped[1:].lstrip().startswith(";"):
        return "sgf"
    if head.startswith("{"):
        return "json"
    return "mat"


def _reader(fmt: str) -> Callable[[str, str], list[m.Match]]:
    if fmt == "mat":
        return read_match_file
    module, _, func = READERS[fmt].partition(":")
    try:
        return getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError):
        raise NotAMatchFile("", f"reading {fmt.upper()} is not supported by this version of gamao")


# -- the match-file reader, with its limits --------------------------------

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


def _check_repeats(text: str, path: str) -> None:
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
        raise SyntaxProblem(path, f"a step repeated {shown} times: a roll moves a checker at "
                            f"most 4 times (more than {MAX_REPEAT} is not read)",
                            line=line, column=col, text=f"({shown})")


def _long_number_problem(text: str, path: str) -> SyntaxProblem | None:
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
    return SyntaxProblem(path, f"a number of {n} digits: gamao reads numbers of at most "
                         f"{limit} digits", line=line, column=col, text=found.group()[:20] + "...")


def read_match_file(text: str, path: str = "") -> list[m.Match]:
    """:func:`gamao_cli.matfile_reader.read_matches` within the limits above."""
    _check_repeats(text, path)
    try:
        return read_matches(text, path)
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            problem = _long_number_problem(text, path)
            if problem is not None:
                raise problem from None
        raise


# -- text and paths -------------------------------------------------------

def load_text(text: str, path: str = "") -> list[m.Match]:
    """Parse text in any supported format into matches (with ``path`` set)."""
    fmt = detect_format(text)
    try:
        return _reader(fmt)(text, path)
    except NotAMatchFile as exc:
        if not exc.path:
            exc.path = path
        raise


def _should_stream(path: str) -> bool:
    if path == "-":
        return False
    try:
        st = os.stat(path)
    except OSError:
        return False  # read_text reports why
    return stat.S_ISREG(st.st_mode) and st.st_size >= STREAM_MIN_BYTES


def iter_path(path: str) -> tuple[Iterator[m.Match], str]:
    """Read and decode a file (``"-"`` is standard input); return an iterator
    over its matches and the text encoding that was detected.

    Decoding errors are raised at once; a big match file is parsed while the
    iterator runs, so a syntax error in a later match is raised by the
    iterator (after the matches before it were given).
    """
    label = "<stdin>" if path == "-" else path
    if not _should_stream(path):
        text, encoding = read_text(path)
        return iter(load_text(text, label)), encoding
    decoded = open_decoded(path)
    lines = decoded.lines()
    head: list[str] = []
    for line in lines:  # the first non-blank character tells the format
        head.append(line)
        if line.strip():
            break
    if detect_format("".join(head)) != "mat" or "".join(head).lstrip()[:1] == "(":
        text = "".join(head) + "".join(lines)
        return iter(load_text(text, label)), decoded.encoding

    from .streaming import iter_file_matches

    def all_lines() -> Iterator[str]:
        yield from head
        yield from lines

    return iter_file_matches(all_lines(), label, reader=read_match_file), decoded.encoding


def load_path(path: str) -> tuple[list[m.Match], str]:
    """Read, decode and parse a file (``"-"`` is standard input).

    Returns the matches and the text encoding that was detected.
    """
    matches, encoding = iter_path(path)
    return list(matches), encoding
