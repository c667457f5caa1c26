"""GNU Backgammon's text export: one file a game, a match from its files.

:mod:`.reader` reads one file (:func:`~.reader.read_game`) and makes one
match of a match's files (:func:`~.reader.assemble`); :mod:`.analysis`
gnubg's figures in it; :mod:`.languages` the languages gnubg writes it in
(gamao reads the English export and names the language of any other).

A match's files (``NAME.txt``, ``NAME_002.txt``, ...) given together, or
found in a folder, are read as one match: the file listing groups them
(:func:`group_paths`) into one path that carries the others
(:class:`GamePaths`), read in the order of their game numbers.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from ..base import Capabilities, Source, TextFormat, WriteResult, head_text

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match
    from gamao_cli.replay.replay import Replays


class GamePaths(str):
    """The path of a match's first game file, carrying the paths of all its
    game files (``members``, this one first), so that a command that takes
    one path a match reads them all as one match."""

    members: tuple[str, ...]

    def __new__(cls, first: str, members: Sequence[str]) -> "GamePaths":
        self = super().__new__(cls, first)
        self.members = tuple(members)
        return self

    def __reduce__(self):   # worker processes get the members too
        return (GamePaths, (str(self), self.members))


#: NAME.txt or NAME_NNN.txt (gnubg numbers the games after the first from _002).
_GAME_FILE_RE = re.compile(r"^(.*?)(?:_(\d{3,}))?\.txt$", re.IGNORECASE)


def _is_export(path: str) -> bool:
    from ..textio import read_file_head
    try:
        head = read_file_head(path, 256)
    except Exception:   # an unreadable file is read (and reported) on its own
        return False
    return GnubgTextFormat().sniff(head)


def group_paths(paths: Iterable[str]) -> list[str]:
    """``paths`` with the game files of each gnubg text export match (same
    folder, ``NAME.txt`` and ``NAME_NNN.txt``, each a gnubg text export)
    made one :class:`GamePaths`, where its first file stood; every other
    path as it is, in its place."""
    paths = list(paths)
    groups: dict[tuple[str, str], list[int]] = {}
    for k, p in enumerate(paths):
        if p == "-":
            continue
        folder, name = os.path.split(p)
        gm = _GAME_FILE_RE.match(name)
        if gm is None:
            continue
        groups.setdefault((os.path.normpath(folder or "."), gm.group(1)), []).append(k)
    drop: set[int] = set()
    out = list(paths)
    for (_folder, _base), idx in groups.items():
        if len(idx) < 2:
            continue
        members = [k for k in idx if _is_export(paths[k])]
        if len(members) < 2:
            continue
        members.sort(key=lambda k: _order(paths[k]))
        out[members[0]] = GamePaths(paths[members[0]], [paths[k] for k in members])
        drop.update(members[1:])
    return [p for k, p in enumerate(out) if k not in drop]


def _order(path: str) -> tuple[int, str]:
    gm = _GAME_FILE_RE.match(os.path.basename(path))
    return (int(gm.group(2)) if gm and gm.group(2) else 1, path)


class GnubgTextFormat(TextFormat):
    name = "gnubg-text"
    title = "GNU Backgammon text export (.txt)"
    extensions = (".txt",)
    capabilities = Capabilities(read=True, write=False)
    # its files end in .txt, which folder scans take for the match file already
    scanned = False

    def sniff(self, head: bytes) -> bool:
        from .languages import sniff_text
        return sniff_text(head_text(head[:4096]))

    def read(self, source: Source) -> Iterator[Match]:
        members = getattr(source.path, "members", None)
        if not members or len(members) < 2:
            return iter(self.read_text(source.read_text(), source.label))
        from .reader import assemble, read_game
        files = [read_game(source.read_text(), source.label)]
        for p in members[1:]:
            other = Source(p)
            files.append(read_game(other.read_text(), other.label))
        return iter([assemble(files, source.label)])

    def read_text(self, text: str, label: str = "") -> list[Match]:
        from .reader import assemble, read_game
        return [assemble([read_game(text, label)], label)]

    def write(self, matches: Sequence[Match], replays: Replays | None = None) -> WriteResult:
        raise ValueError("gamao does not write GNU Backgammon's text export")


def read_files(paths: Sequence[str]) -> Match:
    """One match of the game files ``paths`` (in any order)."""
    from .reader import assemble, read_game
    files = []
    for p in paths:
        src = Source(p)
        files.append(read_game(src.read_text(), src.label))
    return assemble(files, paths[0] if paths else "")
