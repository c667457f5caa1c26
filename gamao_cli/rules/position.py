"""Positions: 26 checker counts a side, as seen by the player on roll.

A checker movement is a pair ``(src, dst)`` of points in the mover's
numbering, with 25 for the bar and 0 for borne off; a die step is a triple
``(src, dst, hit)``. A player's point ``p`` is the opponent's point
``25 - p`` (RULES.md).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

BAR = 25
OFF = 0

Step = tuple[int, int, bool]

# Position


@dataclass(frozen=True, slots=True)
class Position:
    """A position as seen by the player on roll.

    ``me`` and ``opp`` hold 26 checker counts each, every side in its own
    numbering: index 0 = borne off, 1..24 = points, 25 = bar. My point ``p``
    is the opponent's point ``25 - p``. Equality and hashing compare both
    tuples, which is how plays are compared.

    >>> from gamao_cli.rules import start_position
    >>> pos = start_position("hypergammon1")
    >>> pos.me[24], pos.opp[24], pos.swapped() == pos
    (1, 1, True)
    """

    me: tuple[int, ...]
    opp: tuple[int, ...]

    @classmethod
    def from_points(cls, me: Mapping[int, int], opp: Mapping[int, int]) -> Position:
        """A position from ``{point: checkers}`` of each side (in its own numbering).

        >>> Position.from_points({6: 2, 25: 1}, {1: 3}).me[25]
        1
        """
        return cls(_layout(me), _layout(opp))

    def swapped(self) -> Position:
        """The same position seen by the other player (who is then on roll)."""
        return _position(self.opp, self.me)

    def pip_count(self) -> tuple[int, int]:
        """``(mine, opponent's)`` pip counts; a checker on the bar counts 25.

        >>> from gamao_cli.rules import start_position
        >>> start_position().pip_count()
        (167, 167)
        """
        me, opp = self.me, self.opp
        return (
            sum(i * me[i] for i in range(1, 26)),
            sum(i * opp[i] for i in range(1, 26)),
        )


def _layout(points: Mapping[int, int]) -> tuple[int, ...]:
    counts = [0] * 26
    for point, n in points.items():
        counts[point] = n
    return tuple(counts)


def _symmetric(points: Mapping[int, int]) -> Position:
    side = _layout(points)
    return Position(side, side)


_new_object = object.__new__
_set_me = Position.me.__set__  # slot descriptors: a fast constructor for
_set_opp = Position.opp.__set__  # the frozen dataclass, with no checks


def _position(me: tuple[int, ...], opp: tuple[int, ...]) -> Position:
    p = _new_object(Position)
    _set_me(p, me)
    _set_opp(p, opp)
    return p


def checkers(pos: Position) -> int:
    """Total number of checkers of one side (15, or 1-3 in hypergammon),
    counted from the position (the mover's side, borne-off ones included).

    >>> from gamao_cli.rules import start_position
    >>> checkers(start_position()), checkers(start_position("hypergammon2"))
    (15, 2)
    """
    return sum(pos.me)
