"""A position's IDs in two halves: what its board gives (its GNU
Backgammon Position ID and the position field of its XGID) and what its
match state gives (its Match ID and the rest of its XGID).

Every action of a converted or exported match asks for all three IDs, one
after the other: :func:`board_ids` gives the board's two from one look at
the board, :func:`state_ids` the state's two, once a state (kept on the
frozen state: the actions of a match share a few thousand states). The C
kernel ``_ids.c`` (:mod:`gamao_cli.kernels`) makes them for the usual board
(tuples of ints, each side at most 15 checkers, no point held by both) and
state (every field of its usual type); anything else, or no kernel, goes to
:func:`~gamao_cli.ids.gnubg.position_id`,
:func:`~gamao_cli.ids.xgid._position_field`,
:func:`~gamao_cli.ids.gnubg.match_id` and
:func:`~gamao_cli.ids.xgid.xgid_tail`, the reference, which also raise the
``ValueError`` that says what is wrong with a board that is no position.

>>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
>>> board_ids(start, start, True)
('4HPwATDgc/ABMA', '-b----E-C---eE---c-e----B-')
>>> state_ids(MatchState(length=5, dice=(3, 1), on_roll=1, turn=1))
('cImlAAAAAAAE', ':0:0:1:31:0:0:0:5:10')
"""
from __future__ import annotations

from typing import Sequence

from gamao_cli import kernels

from .gnubg import MatchState, checked_sides, match_id, position_id
from .xgid import _position_field, xgid_tail

__all__ = ["board_facts", "board_facts_reference", "board_ids", "board_ids_reference",
           "state_ids", "state_ids_of", "state_ids_reference"]

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


def board_facts_reference(me: Sequence[int], opp: Sequence[int],
                          bottom_is_me: bool) -> tuple[str | None, str | None, int, int]:
    """:func:`board_facts` in Python only (the kernel's reference)."""
    try:
        pid, field = board_ids_reference(me, opp, bottom_is_me)
    except ValueError:
        pid = field = None
    return pid, field, sum(i * c for i, c in enumerate(me)), sum(i * c for i, c in enumerate(opp))


def board_facts(me: Sequence[int], opp: Sequence[int],
                bottom_is_me: bool) -> tuple[str | None, str | None, int, int]:
    """What an exported action's row says of its board, in one look:
    ``(Position ID, XGID position field, pips of me, pips of opp)``, as
    :func:`board_ids` gives the first two (None for both where no ID holds
    the board), and each side's pip count (a checker on point i counts i
    pips, the bar 25, borne off 0).

    >>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
    >>> board_facts(start, start, True)
    ('4HPwATDgc/ABMA', '-b----E-C---eE---c-e----B-', 167, 167)
    >>> board_facts((0,) * 24 + (1, 0), (0,) + (1,) + (0,) * 24, True)[:2]
    (None, None)
    """
    if _KERNEL is not None:
        found = _KERNEL.board_facts(me, opp, bottom_is_me)
        if found is not None:
            return found
    return board_facts_reference(me, opp, bottom_is_me)


def state_ids_reference(state: MatchState) -> tuple[str, str]:
    """:func:`state_ids` in Python only (the kernel's reference), not kept."""
    return match_id(state), xgid_tail(state)


def state_ids(state: MatchState) -> tuple[str, str]:
    """``(Match ID, XGID tail)`` of a match state: its GNU Backgammon Match
    ID, and what its XGID holds after the position field (from the first
    ``:``), in gamao's numbering (see :func:`~gamao_cli.ids.xgid.xgid_of_state`).
    Worked out once a state and kept on it beside its fields."""
    fields = state.__dict__
    found = fields.get("_ids")
    if found is None:
        if _KERNEL is not None and state.__class__ is MatchState:
            found = _KERNEL.state_ids(fields)
        if found is None:
            found = state_ids_reference(state)
        object.__setattr__(state, "_ids", found)
    return found


def state_ids_of(cube: int, cube_owner: int | None, on_roll: int, crawford: bool,
                 game_state: int, turn: int, double_offered: bool, resignation: int,
                 dice: tuple[int, int], length: int, score: tuple[int, int],
                 jacoby: bool) -> tuple[str, str] | None:
    """``state_ids(MatchState.of(...))`` of these fields, without making the
    state (the kernel reads the fields themselves); None where
    :meth:`MatchState.of` raises ``ValueError`` (no state holds them).

    >>> state_ids_of(1, None, 1, False, 1, 1, False, 0, (3, 1), 5, (0, 0), False)
    ('cImlAAAAAAAE', ':0:0:1:31:0:0:0:5:10')
    >>> state_ids_of(3, None, 1, False, 1, 1, False, 0, (3, 1), 5, (0, 0), False) is None
    True
    """
    if _KERNEL is not None:
        found = _KERNEL.state_ids_of(cube, cube_owner, on_roll, crawford, game_state, turn,
                                     double_offered, resignation, dice, length, score, jacoby)
        if found is not None:
            return found
    try:
        state = MatchState.of(cube, cube_owner, on_roll, crawford, game_state, turn,
                              double_offered, resignation, dice, length, score, jacoby)
    except ValueError:
        return None
    return state_ids(state)
