"""The board part of a position's IDs, both at once: its GNU Backgammon
Position ID and the position field of its XGID.

Every action of a converted or exported match asks for both, one after the
other: :func:`board_ids` gives them from one look at the board. The C
kernel ``_ids.c`` (:mod:`gamao_cli.kernels`) makes them for the usual board
(tuples of ints, each side at most 15 checkers, no point held by both); any
other board, or no kernel, goes to :func:`~gamao_cli.ids.gnubg.position_id`
and :func:`~gamao_cli.ids.xgid._position_field`, the reference, which also
raise the ``ValueError`` that says what is wrong with a board that is no
position.

>>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
>>> board_ids(start, start, True)
('4HPwATDgc/ABMA', '-b----E-C---eE---c-e----B-')
"""
from __future__ import annotations

from typing import Sequence

from gamao_cli import kernels

from .gnubg import checked_sides, position_id
from .xgid import _position_field

__all__ = ["board_ids", "board_ids_reference"]

_KERNEL = kernels.kernel("gamao_cli.ids._ids")


def board_ids_reference(me: Sequence[int], opp: Sequence[int],
                        bottom_is_me: bool) -> tuple[str, str]:
    """:func:`board_ids` in Python only (the kernel's reference)."""
    sides = checked_sides(me, opp)
    return position_id(me, opp), _position_field(sides, 1 if bottom_is_me else -1)


def board_ids(me: Sequence[int], opp: Sequence[int], bottom_is_me: bool) -> tuple[str, str]:
    """``(Position ID, XGID position field)`` of the position ``me`` (on
    roll) and ``opp``; ``bottom_is_me``: the player on roll sits at the
    bottom of the XGID's board. Raises ``ValueError`` for a board that is
    no position."""
    if _KERNEL is not None:
        found = _KERNEL.board_ids(me, opp, bottom_is_me)
        if found is not None:
            return found
    return board_ids_reference(me, opp, bottom_is_me)
