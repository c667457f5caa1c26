"""The single die step: the one place where the rule of moving one checker
by one die is written (RULES.md, "Moving", "Hitting and entering", "Bearing
off"), and the one place where a checker hits.

The functions work on the side arrays of a position, 26 checker counts a
side (index 0 = borne off, 1..24 = points, 25 = bar), each side in its own
numbering: my point ``p`` is the opponent's point ``25 - p``. Everything that
asks "may a checker of the mover move from ``src`` by ``die`` now, and where
does it land" calls :func:`die_step`: the legal plays (:mod:`.plays`), the
most dice a roll can use, and every reading of a written play
(:mod:`.resolve`). Everything that moves a checker calls
:func:`move_checker`.

>>> pos = start_position()
>>> die_step(pos.me, pos.opp, 13, 5), die_step(pos.me, pos.opp, 13, 1)
(8, <StepProblem.BLOCKED: -3>)
>>> die_step(pos.me, pos.opp, 6, 6).code
'bearoff-outside'
>>> pos, _ = apply_step(pos, 24, 23)   # a blot of mine on 23, the opponent's 2
>>> t = die_step(pos.opp, pos.me, 6, 4); t & HIT, t & POINT   # the opponent's 6/2*
(32, 2)
"""
from __future__ import annotations

from enum import IntEnum
from typing import Iterable, MutableSequence, Sequence

from .position import BAR, OFF, Position, _position
from .variants import start_position  # noqa: F401  (the examples use it)


class StepProblem(IntEnum):
    """Why a die step is not legal now: what :func:`die_step` answers
    instead of a destination (negative, so that ``t >= 0`` tells a
    destination). :attr:`code` is the stable problem code, the one a
    :class:`~gamao_cli.rules.resolve.Resolution` names."""

    NO_CHECKER = -1       # no checker of the mover on that point
    BAR = -2              # a checker is on the bar and must enter first
    BLOCKED = -3          # the opponent holds the landing point
    BEAROFF_OUTSIDE = -4  # bearing off while checkers are outside the home board
    BEAROFF_HIGHER = -5   # bearing off with a higher die while a checker stands higher

    @property
    def code(self) -> str:
        return _CODES[self]


_CODES = {
    StepProblem.NO_CHECKER: "no-checker",
    StepProblem.BAR: "bar",
    StepProblem.BLOCKED: "blocked",
    StepProblem.BEAROFF_OUTSIDE: "bearoff-outside",
    StepProblem.BEAROFF_HIGHER: "bearoff-higher",
}

#: What :func:`die_step` adds to a landing point where a lone opposing
#: checker stands (the step hits it): the point is ``t & POINT``.
HIT = 32
POINT = 31

_NO_CHECKER = StepProblem.NO_CHECKER
_BAR_FIRST = StepProblem.BAR
_BLOCKED = StepProblem.BLOCKED
_OUTSIDE = StepProblem.BEAROFF_OUTSIDE
_HIGHER = StepProblem.BEAROFF_HIGHER


def die_step(me: Sequence[int], opp: Sequence[int], src: int, die: int) -> int:
    """Where one checker of the mover (``me``) moved from ``src`` (1..25,
    25 = the bar) by ``die`` lands, if that single step is legal now: the
    point (0 = borne off; plus :data:`HIT` when a lone opposing checker
    stands there, which the step hits), else the :class:`StepProblem` that
    forbids it (a negative number). This is the rule of one die step,
    written once.

    >>> me = [0] * 26; opp = [0] * 26
    >>> me[5] = me[3] = 1; opp[25 - 2] = 2; opp[25 - 4] = 1
    >>> die_step(me, opp, 5, 3), die_step(me, opp, 3, 4).code, die_step(me, opp, 4, 1).code
    (<StepProblem.BLOCKED: -3>, 'bearoff-higher', 'no-checker')
    >>> die_step(me, opp, 5, 5), die_step(me, opp, 5, 6), die_step(me, opp, 3, 2)
    (0, 0, 1)
    >>> die_step(me, opp, 5, 1) == 4 | HIT
    True
    """
    if not me[src]:
        return _NO_CHECKER
    if me[25] and src != 25:
        return _BAR_FIRST
    t = src - die
    if t > 0:
        o = opp[25 - t]
        if o < 2:
            return t | HIT if o else t
        return _BLOCKED
    if any(me[7:]):
        return _OUTSIDE
    if t and any(me[src + 1 : 7]):
        return _HIGHER
    return 0


def move_checker(me: MutableSequence[int], opp: MutableSequence[int], src: int, dst: int) -> bool:
    """Move one checker of the mover from ``src`` to the point ``dst`` on
    the side arrays, hitting a lone opposing checker there (it goes to the
    opponent's bar): the one place where a checker hits. Returns whether it
    hit. Nothing is checked (that is :func:`die_step`'s part): a record's
    illegal play moves as written, and landing on a point the opponent
    holds just stacks there.

    >>> me = [0] * 26; opp = [0] * 26
    >>> me[8] = 1; opp[25 - 5] = 1
    >>> move_checker(me, opp, 8, 5), me[5], opp[20], opp[25]
    (True, 1, 0, 1)
    """
    me[src] -= 1
    me[dst] += 1
    if dst and opp[25 - dst] == 1:
        opp[25 - dst] = 0
        opp[25] += 1
        return True
    return False


def unmove_checker(me: MutableSequence[int], opp: MutableSequence[int], src: int, dst: int,
                   hit: bool) -> None:
    """Take back :func:`move_checker` (``hit``: what it returned)."""
    if hit:
        opp[25] -= 1
        opp[25 - dst] = 1
    me[dst] -= 1
    me[src] += 1


def step_destination(pos: Position, src: int, die: int) -> int | None:
    """Where one checker moved from ``src`` (25 = bar) by ``die`` lands, if
    that single step is legal now; 0 means borne off, ``None`` illegal
    (:func:`die_step` on a position).

    >>> pos = start_position()
    >>> step_destination(pos, 13, 5), step_destination(pos, 13, 2)
    (8, 11)
    >>> step_destination(pos, 13, 1) is None  # the opponent holds my 12 (their 13)
    True
    >>> step_destination(pos, 6, 6) is None  # no bearing off from outside home
    True
    """
    if not 1 <= src <= 25:
        return None
    t = die_step(pos.me, pos.opp, src, die)
    return t & POINT if t >= 0 else None


def apply_step(pos: Position, src: int, dst: int) -> tuple[Position, bool]:
    """Move one checker from ``src`` to ``dst`` and return ``(position, hit)``.

    A lone opposing checker on ``dst`` is hit (it goes to the opponent's
    bar). Nothing else is checked, so recorded illegal plays can be replayed
    as written: landing on a point the opponent holds just stacks there.
    Raises ``ValueError`` when the mover has no checker on ``src``.

    >>> pos, hit = apply_step(start_position(), 24, 18)
    >>> pos.me[24], pos.me[18], hit
    (1, 1, False)
    >>> apply_step(pos, 20, 14)
    Traceback (most recent call last):
    ...
    ValueError: no checker on point 20 to move
    """
    if not 1 <= src <= BAR or not OFF <= dst <= 24:
        raise ValueError(f"cannot move a checker from {src} to {dst}")
    if not pos.me[src]:
        where = "the bar" if src == BAR else f"point {src}"
        raise ValueError(f"no checker on {where} to move")
    me, opp = list(pos.me), list(pos.opp)
    hit = move_checker(me, opp, src, dst)
    return _position(tuple(me), tuple(opp) if hit else pos.opp), hit


def apply_steps_as_written(
    pos: Position, moves: Iterable[tuple[int, int]]
) -> tuple[Position, list[bool]]:
    """Apply checker movements exactly as a record writes them, for replaying
    an illegal play: each ``(src, dst)`` moves one checker in one jump (a hit
    happens only at ``dst``). Returns the position and one hit flag per
    movement; raises ``ValueError`` on a movement from an empty point.

    >>> pos, hits = apply_steps_as_written(start_position(), [(13, 2), (6, 2)])
    >>> pos.me[2], hits
    (2, [False, False])
    """
    hits = []
    for src, dst in moves:
        pos, hit = apply_step(pos, src, dst)
        hits.append(hit)
    return pos, hits
