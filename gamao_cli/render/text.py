"""The text board, drawn as GNU Backgammon's ``show board`` draws it.

Its captions speak the language that speaks (:mod:`gamao_cli.i18n`) where
GNU Backgammon translates them (``_()`` in its ``drawboard.c`` and
``text.c``): the Position ID and Match ID headings, the scores, the roll, the
cube and the match length. What gnubg never translates stays as it writes it:
the board's drawing (its point numbers and ``BAR``), the ``O:`` and ``X:``
of the names and the ``Pip counts:`` line of its text export.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gamao_cli.i18n import _, ngettext, pgettext
from gamao_cli.ids import parse_position
from gamao_cli.ids.xgid import xgid_of_state
from gamao_cli.ids.gnubg import Board, MatchState, _check_board, match_id, position_id

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.replay.snapshots import Snapshot

#: The names a board gives its players when it is told none.
DEFAULT_NAMES = ("player 1", "player 2")


def _default_names() -> tuple[str, str]:
    return (_("player {number}").format(number=1), _("player {number}").format(number=2))


def _resigns(n: int) -> str:
    """gnubg's words for what a resignation (1, 2, 3) gives up."""
    return (pgettext("resigns", "single game"), pgettext("resigns", "gammon"),
            pgettext("resigns", "backgammon"))[n - 1]

# the fifth row of a point (and of the bar), by the number of checkers there:
# blank up to four, the checker's letter at five, the count above five (6..9,
# then A..F for 10..15)
_FIFTH = "     {}6789ABCDEF"

# the point numbers of the two edges, from the side of the player on roll:
# X (gnubg's player 1, drawn at the bottom) or O (player 0, at the top)
_NUMBERS_HIGH = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
_NUMBERS_LOW = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"
_BAR_LINE = "|                  |BAR|                  |"


def _points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=n)


def draw_board(
    me: Sequence[int],
    opp: Sequence[int],
    state: MatchState | None = None,
    *,
    names: tuple[str, str] | None = None,
    show_score: bool | None = None,
) -> str:
    """The text board GNU Backgammon 1.07 prints for ``show board``.

    ``me`` is the side of the player on roll, ``opp`` the other (26 counts:
    0 borne off, 1..24 the points from that side's own ace point, 25 the
    bar); ``state`` is the match state of the position (who is on roll, the
    dice, the cube, the score and length; a fresh money game with player 0 on
    roll when None), and the Match ID the board prints is the state's own.
    Players are numbered as gnubg numbers them: player 0 (``names[0]``, the
    left column of a match file) plays the ``O`` checkers at the top, player 1
    (``names[1]``) the ``X`` checkers at the bottom, whoever is on roll;
    ``state.on_roll`` says which of them ``me`` belongs to. X moves right to
    left along the lower row to its home board at the bottom right, O left to
    right along the upper row to the top right. The points are numbered from
    the side of the player on roll, and the ``v`` (X on roll) or ``^`` (O on
    roll) left of the bar line points at that player. Borne-off checkers
    stand in columns of five right of the board, each side's at its own
    edge; a stack of more than five shows its count in its fifth row.

    Beside the board, as gnubg writes them: each player's letter and name at
    their edge (with ``(Cube: N)`` for the cube's owner), their score, the
    dice rolled or "On roll" beside the player on roll (and a resignation
    they offer), and on the bar line the match length with the centred cube
    (or "(Crawford game)"); while a double awaits an answer, "Cube offered at
    N" beside the player who must answer, instead of the dice and the cube.
    ``show_score``: write the scores (by default when ``state`` is given).

    Below the board, the pip counts as gnubg's text export writes them.
    Unlike gnubg, lines carry no trailing blanks and names are not cut at 31
    characters.

    >>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
    >>> print(draw_board(start, start, MatchState(dice=(3, 1), length=5), names=("Ann", "Bob")))
     GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                     Match ID   : MIGlAAAAAAAE
     +12-11-10--9--8--7-------6--5--4--3--2--1-+     O: Ann
     | X           O    |   | O              X |     0 points
     | X           O    |   | O              X |     Rolled 31
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
    ^|                  |BAR|                  |     5 points match (Cube: 1)
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X              O |
     | O           X    |   | X              O |     0 points
     +13-14-15-16-17-18------19-20-21-22-23-24-+     X: Bob
    Pip counts: O 167, X 167
    """
    me_t, opp_t = _check_board(me, opp)
    if names is None:
        names = _default_names()
    if show_score is None:
        show_score = state is not None
    if state is None:
        state = MatchState()
    on_roll = state.on_roll
    if on_roll not in (0, 1):
        raise ValueError(f"on_roll must be 0 or 1, got {on_roll!r}")
    # gnubg's player 1 (X) at the bottom, player 0 (O) at the top
    x, o = (me_t, opp_t) if on_roll == 1 else (opp_t, me_t)
    side = _side_texts(x, o, state, names, show_score)

    def stack(n: int, letter: str, row: int) -> str:
        # n checkers, in row 0..4 counted from the edge
        if row == 4:
            return _FIFTH.format(letter)[n]
        return letter if n > row else " "

    def cell(p: int, row: int) -> str:
        # X's point p (1..24, counted from X's side)
        return stack(x[p], "X", row) if x[p] else stack(o[25 - p], "O", row)

    def off(n: int, letter: str, row: int) -> str:
        return "".join(letter if n > 5 * col + row else " " for col in range(3))

    def row_line(left: Sequence[int], right: Sequence[int], row: int,
                 on_bar: int, borne_off: int, letter: str, text: str) -> str:
        cells_l = "".join(f" {cell(p, row)} " for p in left)
        cells_r = "".join(f" {cell(p, row)} " for p in right)
        line = f" |{cells_l}| {stack(on_bar, letter, row)} |{cells_r}| {off(borne_off, letter, row)}"
        if row < 4:
            line += " " + text
        return line

    top_left, top_right = range(13, 19), range(19, 25)
    bot_left, bot_right = range(12, 6, -1), range(6, 0, -1)
    x_on_roll = on_roll == 1
    lines = [
        _(" GNU Backgammon  Position ID: {id}").format(id=position_id(me_t, opp_t)),
        _("                 Match ID   : {id}").format(id=match_id(state)),
        (_NUMBERS_HIGH if x_on_roll else _NUMBERS_LOW) + "     " + side[0],
    ]
    for row in range(5):
        lines.append(row_line(top_left, top_right, row, o[25], o[0], "O",
                              side[row + 1] if row < 2 else ""))
    lines.append(("v" if x_on_roll else "^") + _BAR_LINE + "     " + side[3])
    for row in range(4, -1, -1):
        lines.append(row_line(bot_left, bot_right, row, x[25], x[0], "X",
                              side[5 - row] if row < 2 else ""))
    lines.append((_NUMBERS_LOW if x_on_roll else _NUMBERS_HIGH) + "     " + side[6])

    def pips(s: Board) -> int:
        return sum(p * s[p] for p in range(1, 26))

    lines.append(f"Pip counts: O {pips(o)}, X {pips(x)}")
    return "\n".join(line.rstrip() for line in lines)


def _side_texts(x: Board, o: Board, state: MatchState, names: tuple[str, str],
                show_score: bool) -> list[str]:
    """The seven texts right of gnubg's board, top to bottom: O's edge, O's
    two rows, the bar line, X's two rows (the one nearer the bar first), X's
    edge."""
    side = [f"O: {names[0]}", "", "", "", "", "", f"X: {names[1]}"]
    if show_score:
        side[1] = _points(state.score[0])
        side[5] = _points(state.score[1])
    if state.double_offered:
        # beside the player who must answer; gnubg then shows neither the
        # dice, nor the cube's owner, nor the match length
        side[4 if state.turn == 1 else 2] = _("Cube offered at {value}").format(
            value=state.cube * 2)
        return side
    if state.dice != (0, 0):
        # the higher die first
        roll = _("Rolled {dice}").format(dice=f"{max(state.dice)}{min(state.dice)}")
    elif sum(x[1:]) and sum(o[1:]):
        roll = _("On roll")
    else:  # the game is over: one side has no checker left
        roll = ""
    if state.resignation:
        roll += _(", resigns {what}").format(what=_resigns(state.resignation))
    side[4 if state.on_roll == 1 else 2] = roll
    length = state.length
    if state.cube_owner is None:
        if not length:
            side[3] = _("(Cube: {value})").format(value=state.cube)
        elif length == 1:  # no cube in a 1-point match
            side[3] = _("1 point match")
        elif state.crawford:
            side[3] = _("{points} match (Crawford game)").format(points=_points(length))
        else:
            side[3] = _("{points} match (Cube: {value})").format(points=_points(length),
                                                                 value=state.cube)
    else:
        owner = state.cube_owner
        side[6 if owner == 1 else 0] += " " + _("(Cube: {value})").format(value=state.cube)
        if length:
            side[3] = _("{points} match").format(points=_points(length))
    return side


def snapshot_board(snap: Snapshot, names: tuple[str, str]) -> str:
    """The board of a replay's snapshot (the state before one action)."""
    return draw_board(snap.position.me, snap.position.opp, snap.state, names=names)


def board_from_id(text: str, names: tuple[str, str] | None = None) -> str:
    """A text board for an XGID or a ``PositionID:MatchID`` pair (or a lone
    Position ID, drawn with player 0 on roll), with the state the ID gives.

    >>> print(board_from_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:4:3:1:5:10").splitlines()[1])
                     Match ID   : 8ImlADAAIAAE
    """
    me, opp, state = parse_position(text)
    board = draw_board(me, opp, state, names=names)
    if state is None:
        return board
    return board + f"\nXGID={xgid_of_state(me, opp, state).split('=', 1)[1]}"
