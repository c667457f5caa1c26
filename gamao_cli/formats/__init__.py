"""The formats gamao reads and writes: one sub-package each, one registry.

:data:`FORMATS` lists every format in detection order, as GNU Backgammon's
``file.c`` keeps one table of formats with one sniffer each: an input is
read by the first format whose ``sniff`` accepts its first bytes, before any
decoding (so a binary format is recognised before a text format tries to
decode it). The match file is last: it takes any text the others do not,
and says why when it is not a match file after all. The file endings of
folder scans, the ``--to`` choices of ``gamao convert``, the pattern of the
pre-commit hook and the fuzz harness all come from this table.

Adding a format is adding its folder (a class implementing
:class:`~gamao_cli.formats.base.Format`) and one line below.

>>> from gamao_cli import formats
>>> [f.name for f in formats.FORMATS.values()]
['xg', 'bgf', 'sgf', 'json', 'gnubg-text', 'mat', 'html']
>>> detect(b"(;GM[6]").name, detect(b"{").name, detect(b" 1 point match").name
('sgf', 'json', 'mat')
>>> [m.length for m in parse_text(" 3 point match\\n", "x.mat")]
[3]
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Iterator

from .base import HEAD_SIZE, Capabilities, Format, Note, Source, WriteResult

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match

__all__ = [
    "FORMATS", "Capabilities", "Format", "Note", "Source", "WriteResult", "detect", "get",
    "readable", "writable", "file_endings", "open_source", "read_source", "iter_path",
    "read_path", "parse_text", "parse_bytes", "group_paths",
]

#: module:class of every format, in detection order (the match file last).
_REGISTRY = (
    "gamao_cli.formats.xg:XgFormat",
    "gamao_cli.formats.bgf:BgfFormat",
    "gamao_cli.formats.sgf:SgfFormat",
    "gamao_cli.formats.json:JsonFormat",
    "gamao_cli.formats.gnubg_text:GnubgTextFormat",
    "gamao_cli.formats.mat:MatFormat",
    "gamao_cli.render.page_format:HtmlFormat",   # written only: the replay page
)


def _load(entry: str) -> Format:
    module, _, cls = entry.partition(":")
    return getattr(importlib.import_module(module), cls)()


_LOADED: dict[str, Format] = {}


def _formats() -> dict[str, Format]:
    """Every format by name, in detection order, loaded on first use (a
    format's module may itself import :mod:`gamao_cli.formats`)."""
    if not _LOADED:
        loaded = {f.name: f for f in map(_load, _REGISTRY)}
        _LOADED.update(loaded)
    return _LOADED


def __getattr__(name: str):
    if name == "FORMATS":   # every format by name, in detection order
        return _formats()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: The format that takes any text no other format claims.
FALLBACK = "mat"


def get(name: str) -> Format:
    """The format called ``name`` (``KeyError`` if there is none)."""
    return _formats()[name]


def readable() -> list[Format]:
    return [f for f in _formats().values() if f.capabilities.read]


def writable() -> list[Format]:
    return [f for f in _formats().values() if f.capabilities.write]


def file_endings() -> tuple[str, ...]:
    """The endings folder scans take by default: those of every readable
    format that folders hold as match records.

    >>> file_endings()
    ('.xg', '.xgp', '.bgf', '.sgf', '.mat', '.txt')
    """
    out: list[str] = []
    for f in readable():
        if not f.scanned:
            continue
        out.extend(e for e in f.extensions if e not in out)
    return tuple(out)


def detect(head: bytes) -> Format:
    """The format of an input from its first bytes: the first that sniffs
    them, else the match file (which explains what it finds instead)."""
    table = _formats()
    for f in table.values():
        if f.name != FALLBACK and f.capabilities.read and f.sniff(head):
            return f
    return table[FALLBACK]


def group_paths(paths: list[str]) -> list[str]:
    """The input paths with the files that make one match together (GNU
    Backgammon's text export: one file a game) made one path, given to each
    format that groups its files (a ``group_paths`` function of its module)."""
    for f in readable():
        group = getattr(importlib.import_module(type(f).__module__), "group_paths", None)
        if group is not None:
            paths = group(paths)
    return paths


# -- reading ----------------------------------------------------------------

def open_source(path: str) -> Source:
    """A :class:`Source` for a path (``"-"`` is standard input)."""
    return Source(path)


def read_source(source: Source) -> Iterator[Match]:
    """The matches of ``source``, in the format its first bytes show. A big
    match file is read match by match while the iterator runs, so a syntax
    error in a later match is raised by the iterator; anything else raises
    before the first match. Only gamao's ``InputError`` family is raised."""
    fmt = detect(source.head())
    return fmt.read(source)


def iter_path(path: str) -> tuple[Iterator[Match], Source]:
    """The matches of a file (``"-"``: standard input) as they are read, and
    its :class:`Source` (whose ``encoding`` a text format sets)."""
    source = open_source(path)
    return read_source(source), source


def read_path(path: str) -> list[Match]:
    """Every match of a file (``"-"``: standard input)."""
    return list(iter_path(path)[0])


def parse_bytes(data: bytes, label: str = "") -> list[Match]:
    """Every match of an input given as bytes (``label`` names it in messages)."""
    return list(read_source(Source.from_bytes(data, label)))


def parse_text(text: str, label: str = "") -> list[Match]:
    """Every match of a text (already decoded) in any text format (``label``
    names it in messages)."""
    fmt = detect(text[:HEAD_SIZE].encode("utf-8", "surrogatepass"))
    if fmt.capabilities.binary:
        fmt = _formats()[FALLBACK]
    return list(fmt.read_text(text, label))
