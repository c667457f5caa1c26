"""Snowie's text position (the ``.txt`` position format), as a match file's
``Illegal play (...)`` cell states it.

Snowie (and eXtreme Gammon's text export, and sites that reuse it) writes
an irregular play in a match file as ``31: Illegal play (...)``, with the
position after it in parentheses in Snowie's text position format; GNU
Backgammon's match-file import reads the parenthesised text as such a
position and sets the board from it (``import.c``: ``ParseMatMove``,
``ParseSnowieTxt``), and the game goes on from it. The format is one line of
40 fields separated by semicolons; "the first player" is the one whose
point of view the points take (his checkers positive):

====== =====================================================================
field  meaning
====== =====================================================================
0      match length (0: money)
1      1 if the Jacoby rule is on
2, 3   unknown (0; field 3 is 1 in money sessions)
4      which player the first is: 0 the left column, 1 the right (Snowie's
       "player on roll"; eXtreme Gammon's exports write 0)
5, 6   the names of the first player and of the other
7      1 in the Crawford game
8, 9   the scores of the first player and of the other
10     the cube value
11     the cube owner: 1 the first player, 0 nobody, -1 the other
12     the other player's checkers on the bar (written negative or not)
13-36  points 1 to 24 in the numbering of the first player: the checkers
       there, positive for the first player, negative for the other
37     the first player's checkers on the bar
38, 39 dice (0 and 0: none; eXtreme Gammon writes the next roll's)
====== =====================================================================

(GNU Backgammon's comments name field 12 the bar of the player on roll, but
its code, and eXtreme Gammon's files, give it to the other player.) A
record's names say better than field 4 who the first player is: see
:func:`gamao_cli.replay.replay._orient`.

>>> fields = "0;0;0;1;1;Bob;Ann;0;0;0;1;0;0;" + ";".join(
...     ["-2", "0", "0", "0", "0", "5", "0", "3", "0", "0", "0", "-5",
...      "5", "0", "0", "0", "-3", "0", "-5", "0", "0", "0", "0", "2"]) + ";0;3;1"
>>> pos = parse_snowie_position(fields)
>>> pos.turn, pos.names, pos.sides[1][6], pos.sides[0][24], pos.dice
(1, ('Ann', 'Bob'), 5, 2, (3, 1))
"""
from __future__ import annotations

from dataclasses import dataclass

FIELDS = 40


@dataclass(frozen=True)
class SnowiePosition:
    """A Snowie text position with its players as gamao numbers them (0 the
    first player, the left column of a match file): ``sides[p]`` holds
    player ``p``'s 26 checker counts in their own numbering (0 borne off,
    1-24 points, 25 the bar); ``names`` and ``scores`` are by player too."""

    length: int
    turn: int
    #: field 5: the name of the first player, as written
    first_name: str
    names: tuple[str, str]
    crawford: bool
    scores: tuple[int, int]
    cube: int
    cube_owner: int | None
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    dice: tuple[int, int]


def parse_snowie_position(text: str, checkers: int = 15) -> SnowiePosition | None:
    """The position of Snowie's text ``text`` (the 40 fields, without the
    parentheses), each side with ``checkers`` checkers (those not on the
    board are borne off); None when the text is not one (too few fields, a
    field not a number, more checkers than ``checkers`` on a side)."""
    fields = [f.strip() for f in text.strip().split(";")]
    if len(fields) > FIELDS and not any(fields[FIELDS:]):
        fields = fields[:FIELDS]     # a trailing ";"
    if len(fields) != FIELDS:
        return None
    try:
        n = [0 if i in (5, 6) else int(f) for i, f in enumerate(fields)]
    except ValueError:
        return None
    turn = n[4]
    if turn not in (0, 1):
        return None
    mine = [0] * 26
    theirs = [0] * 26
    mine[25] = abs(n[37])
    theirs[25] = abs(n[12])
    for point in range(1, 25):
        count = n[12 + point]
        if count > 0:
            mine[point] = count
        elif count < 0:
            theirs[25 - point] = -count
    for side in (mine, theirs):
        on_board = sum(side[1:])
        if on_board > checkers:
            return None
        side[0] = checkers - on_board
    owner = {1: turn, -1: 1 - turn, 0: None}.get(n[11], None)
    if n[11] not in (1, -1, 0) or n[10] < 1:
        return None
    by_player = (tuple(mine), tuple(theirs)) if turn == 0 else (tuple(theirs), tuple(mine))
    names = (fields[5], fields[6]) if turn == 0 else (fields[6], fields[5])
    scores = (n[8], n[9]) if turn == 0 else (n[9], n[8])
    return SnowiePosition(length=n[0], turn=turn, first_name=fields[5], names=names, crawford=bool(n[7]),
                          scores=scores, cube=n[10], cube_owner=owner, sides=by_player,
                          dice=(n[38], n[39]))


def position_text(written: str) -> str | None:
    """The Snowie position of an ``Illegal play (...)`` cell's text (what
    stands between its parentheses), or None when it states none.

    >>> position_text("Illegal play (0;0;1)"), position_text("Illegal play")
    ('0;0;1', None)
    """
    start = written.find("(")
    end = written.rfind(")")
    if start < 0 or end < start:
        return None
    return written[start + 1:end]
