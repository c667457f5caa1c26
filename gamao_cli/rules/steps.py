"""Single die steps: where one checker lands, and moving it."""
from __future__ import annotations

from typing import Iterable

from .position import Position
from .variants import start_position  # noqa: F401  (the examples use it)



def step_destination(pos: Position, src: int, die: int) -> int | None:
    """Where one checker moved from ``src`` (25 = bar) by ``die`` lands, if
    that single step is legal now; 0 means borne off, ``None`` illegal.

    >>> pos = start_position()
    >>> step_destination(pos, 13, 5), step_destination(pos, 13, 2)
    (8, 11)
    >>> step_destination(pos, 13, 1) is None  # the opponent holds my 12 (their 13)
    True
    >>> step_destination(pos, 6, 6) is None  # no bearing off from outside home
    True
    """
    me = pos.me
    if not 1 <= src <= 25 or not me[src]:
        return None
    if me[25] and src != 25:
        return None
    t = src - die
    if t > 0:
        return t if pos.opp[25 - t] < 2 else None
    if any(me[7:]):
        return None
    if t < 0 and any(me[src + 1 : 7]):
        return None
    return 0


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
    if not 1 <= src <= 25 or not 0 <= dst <= 24:
        raise ValueError(f"cannot move a checker from {src} to {dst}")
    me = list(pos.me)
    if not me[src]:
        where = "the bar" if src == 25 else f"point {src}"
        raise ValueError(f"no checker on {where} to move")
    me[src] -= 1
    me[dst] += 1
    opp = pos.opp
    hit = False
    if dst and opp[25 - dst] == 1:
        o = list(opp)
        o[25 - dst] = 0
        o[25] += 1
        opp = tuple(o)
        hit = True
    return Position(tuple(me), opp), hit


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
