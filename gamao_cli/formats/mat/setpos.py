"""eXtreme Gammon's ``; Set Pos=`` lines: a position set inside a game.

XG's match-file export writes, where the record sets the board (a game from
a set position), a comment line of its own::

    ; Set Pos=-b----E-C---eE---c-e----B-/0

The 26 characters after ``Set Pos=`` are an XGID board (char 0 one bar,
1-24 the points, 25 the other bar; ``A``-``P`` one player's checkers,
``a``-``p`` the other's, as :mod:`gamao_cli.ids.xgid` reads them). In the
real files checked (and in GNU Backgammon's ``import mat``, which sets the
board from it with player 0 on roll) the upper-case checkers are the left
player's, counted in the left player's numbering. After the ``/`` comes the
cube as GNU Backgammon's import reads it: ``0`` a centred cube of 1, ``N``
(a digit) a cube of 2**N owned by the right player, ``-N`` one owned by the
left player. The line does not say who is on roll: the next action does
(its player), as gnubg's import lets the next move line say.

:func:`set_up_of` reads one such line into a :class:`~gamao_cli.model.SetUp`
(or None for any other comment line); :func:`set_pos_line` writes one.

>>> a = set_up_of("; Set Pos=-b----E-C---eE---c-e----B-/0")
>>> a.sides[0][6], a.sides[0][13], a.sides[1][24], a.cube, a.cube_owner
(5, 5, 2, 1, -1)
>>> set_pos_line(a.sides, 1, None)
'; Set Pos=-b----E-C---eE---c-e----B-/0'
"""
from __future__ import annotations

import re

from gamao_cli import model as m

PREFIX = "; Set Pos="
#: what a comment line holds when it may be one (the reader's quick test)
SET_POS = "Set Pos="
_LINE = re.compile(r";\s*Set Pos=([-A-Pa-p]{26})/(0|-?[0-9])\s*")
#: the checkers of a side in a game of XG's (its variants all have 15)
CHECKERS = 15


def set_up_of(comment: str, line: int = 0, column: int = 0) -> m.SetUp | None:
    """The set-up a ``; Set Pos=`` comment line states (its player on roll
    still to be settled by the caller: 0 here), or None when the line is
    none (or states no position a side of 15 checkers can hold)."""
    mo = _LINE.fullmatch(comment.strip())
    if mo is None:
        return None
    board, cube = mo.groups()
    left = [0] * 26
    right = [0] * 26
    for i, ch in enumerate(board):
        if ch == "-":
            continue
        if "A" <= ch <= "P":
            if i == 0:   # the right player's bar
                return None
            left[i] += ord(ch) - ord("A") + 1
        else:
            if i == 25:  # the left player's bar
                return None
            right[25 - i] += ord(ch) - ord("a") + 1
    for side in (left, right):
        on_board = sum(side)
        if on_board > CHECKERS:
            return None
        side[0] = CHECKERS - on_board
    if cube == "0":
        value, owner = 1, m.CENTRED
    elif cube.startswith("-"):
        value, owner = 1 << int(cube[1:]), 0
    else:
        value, owner = 1 << int(cube), 1
    return m.SetUp(0, (tuple(left), tuple(right)), value, owner, written=comment.strip(),
                   line=line, column=column)


def settle(actions: list) -> None:
    """Give each set-up of a game's ``actions`` (read from ``; Set Pos=``
    lines) its player on roll and move number: those of the action after
    it; with none after it, the player after the one who acted last."""
    for i, a in enumerate(actions):
        if a.__class__ is not m.SetUp or not a.written:
            continue
        after = next((x for x in actions[i + 1:] if x.__class__ is not m.SetUp), None)
        if after is not None and after.__class__ is not m.Win:
            a.player, a.move_number = after.player, after.move_number
        else:
            before = next((x for x in reversed(actions[:i]) if x.__class__ is not m.SetUp), None)
            a.player = 0 if before is None else 1 - before.player


def set_pos_line(sides, cube: int, owner: int | None) -> str | None:
    """The ``; Set Pos=`` line of a position (``sides`` by player) with the
    cube at ``cube`` owned by ``owner`` (0, 1; None centred); None when the
    line cannot say it (a cube not a power of 2 up to 2**9, a centred cube
    above 1, more than 16 checkers on one point, both players on one)."""
    if cube < 1 or cube & (cube - 1) or cube > 1 << 9 or (owner is None and cube != 1):
        return None
    chars = []
    left, right = sides
    for i in range(26):
        mine = left[i] if i >= 1 else 0
        theirs = right[25 - i] if i <= 24 else 0   # char 0: the right player's bar
        if mine and theirs or mine > 16 or theirs > 16:
            return None
        chars.append(chr(ord("A") + mine - 1) if mine else
                     chr(ord("a") + theirs - 1) if theirs else "-")
    power = cube.bit_length() - 1
    tail = "0" if owner is None else (f"-{power}" if owner == 0 else str(power))
    return f"{PREFIX}{''.join(chars)}/{tail}"
