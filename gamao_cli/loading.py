"""From a path to match models, whatever the record's format.

The format is recognised from the content, not the file name: SGF starts
with ``(;``, gamao's JSON with ``{``, everything else is read as a match file.

A match file bigger than :data:`STREAM_MIN_BYTES` is read one match at a
time (:mod:`gamao_cli.streaming`): :func:`iter_path` gives its matches as
they are read, so that ``gamao validate`` checks an archive of thousands of
matches with memory that does not grow with the file. Smaller files are read
whole; both ways give the same matches and the same errors.

Whatever the bytes, reading gives matches or raises an
:class:`~gamao_cli.errors.InputError` with a location (the match-file
reader's limits are in :mod:`gamao_cli.matfile_limits`).
"""
from __future__ import annotations

import importlib
import os
import stat
from typing import Callable, Iterator

from . import model as m
from .errors import NotAMatchFile
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
        return read_matches
    module, _, func = READERS[fmt].partition(":")
    try:
        return getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError):
        raise NotAMatchFile("", f"reading {fmt.upper()} is not supported by this version of gamao")


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

    return iter_file_matches(all_lines(), label, reader=read_matches), decoded.encoding


def load_path(path: str) -> tuple[list[m.Match], str]:
    """Read, decode and parse a file (``"-"`` is standard input).

    Returns the matches and the text encoding that was detected.
    """
    matches, encoding = iter_path(path)
    return list(matches), encoding
