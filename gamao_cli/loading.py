"""From a path to match models, whatever the record's format.

The format is recognised from the content, not the file name: SGF starts
with ``(;``, gamao's JSON with ``{``, everything else is read as a match file.
"""
from __future__ import annotations

import importlib
from typing import Callable

from . import model as m
from .errors import NotAMatchFile
from .matfile_reader import read_matches
from .textio import read_text

# format name -> "module:function" reading (text, path) into matches; modules
# are imported on first use so that reading a .mat never loads the SGF code.
READERS: dict[str, str] = {
    "mat": "gamao_cli.matfile_reader:read_matches",
    "sgf": "gamao_cli.sgf_reader:read_sgf",
    "json": "gamao_cli.json_format:read_json",
}


def detect_format(text: str) -> str:
    """``"sgf"``, ``"json"`` or ``"mat"`` from the first non-blank character."""
    head = text.lstrip()[:2]
    if head.startswith("(;") or head == "(" and text.lstrip()[1:].lstrip().startswith(";"):
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


def load_text(text: str, path: str = "") -> list[m.Match]:
    """Parse text in any supported format into matches (with ``path`` set)."""
    fmt = detect_format(text)
    try:
        return _reader(fmt)(text, path)
    except NotAMatchFile as exc:
        if not exc.path:
            exc.path = path
        raise


def load_path(path: str) -> tuple[list[m.Match], str]:
    """Read, decode and parse a file (``"-"`` is standard input).

    Returns the matches and the text encoding that was detected.
    """
    text, encoding = read_text(path)
    label = "<stdin>" if path == "-" else path
    return load_text(text, label), encoding
