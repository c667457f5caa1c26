"""Grouping the copies of each match (``gamao dedupe``; ``docs/dedupe.md``).

A :class:`Copy` is what is kept of one match read from one input: where it
is, its format, names and length, the keys of its games
(:mod:`.fingerprint`) and how much analysis it carries; never the match
itself, so memory grows by about a kilobyte a copy (350 bytes a game), not
by the size of the matches.
:class:`Grouper` takes copies one at a time: two copies are one match when
they have the same length and share the key of a game of at least
:data:`~gamao_cli.archive.fingerprint.KEYED_ROLLS` rolls, at places where
every other game they both hold agrees (one may be cut in its last game),
or, when neither has such a game, the same fingerprint. Each copy gets a
place on its group's line of games (a copy that starts in the middle of the
match starts further along), from which :func:`describe` tells which copy
holds everything the others hold (``complete``), which is best to keep and
how the others differ.

>>> from gamao_cli.formats.mat.reader import read_matches
>>> rolls = "\\n".join(f" {i}) 31: 8/5 6/5     42: 8/4 6/4" for i in range(1, 9))
>>> text = " 3 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n" + rolls + "\\n"
>>> full = copy_of(read_matches(text)[0], "a.mat", 0, "mat")
>>> cut = copy_of(read_matches(text.rsplit("\\n", 3)[0] + "\\n")[0], "b.mat", 0, "mat")
>>> g = Grouper(); g.add(full); g.add(cut)
>>> [[c.label for c in group.copies] for group in g.groups()]
[['a.mat', 'b.mat']]
>>> [(c.label, c.complete) for c in describe(g.groups()[0]).copies]
[('a.mat', True), ('b.mat', False)]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from gamao_cli import model as m

from .fingerprint import KEY_DIGITS, GameKey, analysis_depth, fingerprint_of, game_keys, name_key

#: At most this many distinct analysis depths are kept of a copy...
MAX_DEPTHS = 4
#: ... read from its first this many analysed actions (a reader may make an
#: action's analysis only when it is read: eXtreme Gammon's costs about as
#: much as reading the file, for every action).
DEPTH_SAMPLE = 16


@dataclass(frozen=True)
class Where:
    """How to find an input again: a file (``kind="file"``) or a member of
    a ``zip``, ``tar`` or ``gz`` archive at ``path``."""

    path: str
    kind: str = "file"
    member: str | None = None


@dataclass(slots=True)
class Copy:
    """One copy of a match, as dedupe keeps it (see the module's text).
    ``alone``: the match is the only one of its input (so the input's bytes
    are the copy); ``order``: its place in the input order."""

    label: str
    index: int
    fmt: str
    length: int
    names: tuple[str, str]
    games: tuple[GameKey, ...]
    analysed: int = 0
    depths: tuple[str, ...] = ()
    where: Where | None = None
    alone: bool = True
    order: int = 0
    # set by describe()
    complete: bool = False
    best: bool = False
    offset: int = 0
    differences: list[dict[str, Any]] = field(default_factory=list)

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.length, self.games)

    @property
    def rolls(self) -> int:
        return sum(g.rolls for g in self.games)

    @property
    def results(self) -> int:
        return sum(g.result for g in self.games)


def copy_of(match: m.Match, label: str, index: int, fmt: str,
            where: Where | None = None) -> Copy:
    """What dedupe keeps of ``match`` (read from ``label``, its ``index``-th)."""
    analysed = 0
    depths: list[str] = []
    for game in match.games:
        for action in game.actions:
            if getattr(action, "analysis", None) is None:
                continue
            analysed += 1
            if analysed > DEPTH_SAMPLE:
                continue
            depth = analysis_depth(action)
            if depth and depth not in depths and len(depths) < MAX_DEPTHS:
                depths.append(depth)
    return Copy(label=label, index=index, fmt=fmt, length=match.length,
                names=tuple(match.players), games=game_keys(match), analysed=analysed,
                depths=tuple(depths), where=where)


def aligned(a: Copy, b: Copy, shift: int) -> bool:
    """Whether ``b``'s game ``j`` being ``a``'s game ``j + shift`` fits
    every game they both hold: the same game, or, for the last game of one
    of them, its start (a copy cut in its last game)."""
    la, lb = len(a.games), len(b.games)
    for j in range(max(0, -shift), min(lb, la - shift)):
        ga, gb = a.games[j + shift], b.games[j]
        if ga.key == gb.key:
            continue
        if j == lb - 1 and gb.starts(ga):
            continue
        if j + shift == la - 1 and ga.starts(gb):
            continue
        return False
    return True


@dataclass
class Group:
    """The copies of one match, in input order; ``offsets[i]``: where the
    first game of ``copies[i]`` stands on the group's line of games."""

    copies: list[Copy]
    offsets: list[int]
    #: the fingerprint of the match as the copies hold it together (set by
    #: :func:`describe`): the key of each game on the line
    fingerprint: str = ""


class Grouper:
    """Copies in, groups out (see the module's text). Holds the copies'
    summaries and one index entry a game key."""

    def __init__(self) -> None:
        self.copies: list[Copy] = []
        self._parent: list[int] = []
        self._shift: list[int] = []      # my game 0 on my parent's line
        # (length, game key) as one number -> (copy << 32) | its game
        self._by_game: dict[int, int] = {}
        self._by_print: dict[str, int] = {}

    def _find(self, i: int) -> tuple[int, int]:
        """(root, where copy i's game 0 stands on the root's line)."""
        path = []
        while self._parent[i] != i:
            path.append(i)
            i = self._parent[i]
        root = i
        total = 0
        for j in reversed(path):   # compress: every copy on the path points at the root
            total += self._shift[j]
            self._parent[j] = root
            self._shift[j] = total
        return root, (self._shift[path[0]] if path else 0)

    def _union(self, a: int, b: int, shift: int) -> None:
        """Copy b's game 0 stands at copy a's game ``shift``."""
        ra, oa = self._find(a)
        rb, ob = self._find(b)
        if ra == rb:
            return
        # b's root on a's root's line: oa + shift - ob
        where = oa + shift - ob
        if ra < rb:
            self._parent[rb], self._shift[rb] = ra, where
        else:
            self._parent[ra], self._shift[ra] = rb, -where

    def add(self, copy: Copy) -> None:
        i = len(self.copies)
        copy.order = i
        self.copies.append(copy)
        self._parent.append(i)
        self._shift.append(0)
        strong = False
        for j, g in enumerate(copy.games):
            if not g.full:
                continue
            strong = True
            k = (copy.length << (4 * KEY_DIGITS)) | g.key
            seen = self._by_game.get(k)
            if seen is None:
                self._by_game[k] = (i << 32) | j
                continue
            other, at = seen >> 32, seen & 0xFFFFFFFF
            if self._find(other)[0] != self._find(i)[0] and \
                    aligned(self.copies[other], copy, at - j):
                self._union(other, i, at - j)
        if not strong and copy.games:
            fp = copy.fingerprint
            seen_print = self._by_print.get(fp)
            if seen_print is None:
                self._by_print[fp] = i
            else:
                self._union(seen_print, i, 0)

    def groups(self) -> list[Group]:
        """Every group, in the order of its first copy; copies with no
        game are each a group of their own."""
        by_root: dict[int, Group] = {}
        out: list[Group] = []
        for i, c in enumerate(self.copies):
            root, where = self._find(i)
            g = by_root.get(root)
            if g is None:
                g = by_root[root] = Group([], [])
                out.append(g)
            g.copies.append(c)
            g.offsets.append(where)
        for g in out:
            low = min(g.offsets)
            g.offsets = [o - low for o in g.offsets]
        return out


def _quality(c: Copy) -> tuple:
    """What ``--keep best`` prefers, most important first: every game and
    roll of the group, then the most analysed actions, the most results,
    the most rolls, then the first in input order."""
    return (c.complete, c.analysed, c.results, c.rolls, -c.order)


def describe(group: Group) -> Group:
    """Set each copy's ``complete``, ``best``, ``offset`` and
    ``differences`` (what it lacks of what the group holds and, but for the
    best copy, how it differs from the best), and return the group."""
    line: dict[int, GameKey] = {}       # the longest game seen at each place
    results: set[int] = set()
    for c, off in zip(group.copies, group.offsets):
        c.offset = off
        for j, gk in enumerate(c.games):
            at = off + j
            if at not in line or gk.rolls > line[at].rolls:
                line[at] = gk
            if gk.result:
                results.add(at)
    span = len(line)
    group.fingerprint = fingerprint_of(group.copies[0].length, tuple(line[i] for i in range(span)))
    for c in group.copies:
        c.complete = (c.offset == 0 and len(c.games) == span
                      and all(gk.rolls >= line[c.offset + j].rolls
                              for j, gk in enumerate(c.games))
                      and all((c.offset + j) not in results or gk.result
                              for j, gk in enumerate(c.games)))
        c.best = False
    best = max(group.copies, key=_quality)
    best.best = True
    for c in group.copies:
        c.differences = _differences(c, best, line, results)
    return group


def _differences(c: Copy, best: Copy, line: dict[int, GameKey],
                 results: set[int]) -> list[dict[str, Any]]:
    """How ``c`` differs from ``best`` and from what the group holds: each
    a dict with a ``kind`` and its figures (the text report words them).
    Games are numbered on the group's line, from 1 for the first game any
    copy holds."""
    out: list[dict[str, Any]] = []
    if len(c.games) < len(line):
        out.append({"kind": "fewer-games", "games": len(c.games), "of": len(line),
                    "from_game": c.offset + 1})
    for j, gk in enumerate(c.games):
        at = c.offset + j
        longest = line[at]
        if gk.rolls < longest.rolls:
            out.append({"kind": "game-cut", "game": at + 1, "rolls": gk.rolls,
                        "of": longest.rolls})
    missing = [c.offset + j + 1 for j, gk in enumerate(c.games)
               if not gk.result and (c.offset + j) in results]
    if missing:
        out.append({"kind": "no-results", "games": missing})
    if c is best:
        return out
    if c.games and best.games:
        shared = _shared_place(c, best)
        if shared is not None:
            cj, bj = shared
            if c.games[cj].first != best.games[bj].first:
                out.append({"kind": "sides-swapped"})
    mine = sorted(map(name_key, c.names))
    theirs = sorted(map(name_key, best.names))
    if mine != theirs:
        out.append({"kind": "other-names", "names": list(c.names)})
    elif tuple(c.names) != tuple(best.names) and sorted(c.names) != sorted(best.names):
        out.append({"kind": "names-spelt", "names": list(c.names)})
    if c.analysed < best.analysed:
        out.append({"kind": "less-analysis", "analysed": c.analysed, "of": best.analysed})
    if c.fmt != best.fmt:
        out.append({"kind": "format", "format": c.fmt})
    return out


def _shared_place(c: Copy, best: Copy) -> tuple[int, int] | None:
    """(c's game, best's game) of the first place both hold."""
    for j in range(len(c.games)):
        bj = c.offset + j - best.offset
        if 0 <= bj < len(best.games):
            return j, bj
    return None


def group_all(copies: Iterable[Copy]) -> list[Group]:
    """Every group of ``copies``, described."""
    g = Grouper()
    for c in copies:
        g.add(c)
    return [describe(group) for group in g.groups()]


def group_json(group: Group) -> dict[str, Any]:
    """A group as ``gamao dedupe --format json`` gives it."""
    return {
        "fingerprint": group.fingerprint,
        "length": group.copies[0].length,
        "copies": [{
            "path": c.label, "index_in_file": c.index, "format": c.fmt,
            "players": list(c.names), "games": len(c.games), "first_game": c.offset + 1,
            "rolls": c.rolls, "results": c.results, "complete": c.complete, "best": c.best,
            "analysis": ({"actions": c.analysed, "depths": list(c.depths)} if c.analysed
                         else None),
            "fingerprint": c.fingerprint, "differences": c.differences,
        } for c in group.copies],
    }
