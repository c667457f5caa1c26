"""Picking matches out of an archive by criteria (``gamao select``).

:class:`Criteria` holds what is asked; called on a match it gives a
:class:`Selected` (where the match is) or None. Every criterion asked must
hold (they combine with AND). Names are compared as
:func:`~gamao_cli.archive.fingerprint.name_key` makes them (accents, case
and spacing aside) and may be shell-style patterns (``*``, ``?``,
``[...]``). Only the criteria that need the replay (``has_errors``,
``clean``, ``winner``) replay the match. A player is named by the score
line or by the record's ``Player 1`` / ``Player 2`` tag.

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = (" 3 point match\\n\\n Game 1\\n José Silva : 0   Bob : 0\\n"
...         "  1) 31: 8/5 6/5                 61: 13/7 8/7\\n")
>>> [match] = read_matches(text, "x.mat")
>>> bool(Criteria(players=("jose*",), length=(3, 3))(match, label="x.mat", index=0, fmt="mat"))
True
>>> Criteria(opponents=("bob", "ann"))(match, label="x.mat", index=0, fmt="mat") is None
True
"""
from __future__ import annotations

import datetime as _dt
import fnmatch
from dataclasses import dataclass
from gamao_cli import model as m

from .dedupe import Where
from .fingerprint import analysis_depth, name_key


@dataclass
class Selected:
    """A match picked: its input (``label``, ``where``), its place in it,
    its format, and whether it is the only match of its input."""

    label: str
    index: int
    fmt: str
    where: Where | None
    alone: bool = True


def _glob(pattern: str) -> str:
    return name_key(pattern)


def name_matches(name: str, pattern: str) -> bool:
    """Whether a player's name matches ``pattern`` (accents, case and
    spacing aside; ``*``, ``?`` and ``[...]`` as in the shell).

    >>> name_matches("Zoë  Ström", "zoe str*"), name_matches("Zoe", "zo")
    (True, False)
    """
    return fnmatch.fnmatchcase(name_key(name), _glob(pattern))


def _has_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


@dataclass(frozen=True)
class Criteria:
    """What ``gamao select`` asks for (None or empty: not asked)."""

    players: tuple[str, ...] = ()
    opponents: tuple[str, str] | None = None
    length: tuple[int, int] | None = None
    money: bool = False
    event: str | None = None
    date_from: _dt.date | None = None
    date_to: _dt.date | None = None
    has_errors: bool = False
    clean: bool = False
    has_analysis: bool = False
    winner: str | None = None

    def __call__(self, match: m.Match, *, label: str, index: int, fmt: str,
                 where: Where | None = None) -> Selected | None:
        return Selected(label, index, fmt, where) if self.holds(match) else None

    def holds(self, match: m.Match) -> bool:
        sides = _names(match)
        for p in self.players:
            if not (_plays(sides[0], p) or _plays(sides[1], p)):
                return False
        if self.opponents is not None:
            a, b = self.opponents
            if not ((_plays(sides[0], a) and _plays(sides[1], b))
                    or (_plays(sides[0], b) and _plays(sides[1], a))):
                return False
        if self.length is not None and not self.length[0] <= match.length <= self.length[1]:
            return False
        if self.money and match.length != 0:
            return False
        if self.event is not None:
            event = name_key(match.tag("Event") or "")
            wanted = name_key(self.event)
            if not (fnmatch.fnmatchcase(event, wanted) if _has_glob(wanted) else wanted in event):
                return False
        if self.date_from is not None or self.date_to is not None:
            from gamao_cli.tables.rows import parse_date
            day = parse_date(match.tag("EventDate"))
            if day is None or (self.date_from and day < self.date_from) or \
                    (self.date_to and day > self.date_to):
                return False
        if self.has_analysis and not _analysed(match):
            return False
        if self.has_errors or self.clean or self.winner is not None:
            from gamao_cli.replay.replay import validate_match
            report = validate_match(match)
            if self.has_errors and not report.errors:
                return False
            if self.clean and (report.errors or report.warnings):
                return False
            if self.winner is not None:
                if report.winner is None or not _plays(sides[report.winner], self.winner):
                    return False
        return True


def _names(match: m.Match) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names each column's player goes by: the score line's, and the
    ``Player 1`` / ``Player 2`` tag's when the record has one (Backgammon
    Studio writes the full name there, the screen name on the score line)."""
    score = match.players
    out = []
    for side, tag in ((0, "Player 1"), (1, "Player 2")):
        names = [score[side]]
        full = match.tag(tag)
        if full and full != score[side]:
            names.append(full)
        out.append(tuple(names))
    return out[0], out[1]


def _plays(names: tuple[str, ...], pattern: str) -> bool:
    return any(name_matches(n, pattern) for n in names)


def _analysed(match: m.Match) -> bool:
    return any(analysis_depth(a) is not None for g in match.games for a in g.actions)


def parse_length(text: str) -> tuple[int, int]:
    """``7`` or ``5-11`` as an inclusive range (ValueError otherwise).

    >>> parse_length("7"), parse_length("5-11")
    ((7, 7), (5, 11))
    """
    low, sep, high = text.strip().partition("-")
    lo = int(low)
    hi = int(high) if sep else lo
    if lo < 0 or hi < lo:
        raise ValueError(text)
    return lo, hi

