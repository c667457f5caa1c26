"""The text board, in the style of GNU Backgammon's."""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from gamao_cli.ids import parse_position
from gamao_cli.ids.xgid import xgid_of_state
from gamao_cli.ids.gnubg import Board, MatchState, _check_board, match_id, position_id

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.replay.snapshots import Snapshot

def draw_board(
    me: Sequence[int],
    opp: Sequence[int],
    state: MatchState | None = None,
    *,
    names: tuple[str, str] = ("X", "O"),
    show_score: bool | None = None,
) -> str:
    """An ASCII board in the style of gnubg's text board.

    ``state`` is the match state of the position (who is on roll, the dice,
    the cube, the score and length; a fresh money game when None): the board
    shows it and its Match ID is the state's own. Player 0 (``names[0]``)
    plays the ``X`` checkers, player 1 the ``O`` checkers; ``state.on_roll``
    says which of them ``me`` belongs to. The player on roll sits at the
    bottom, moving right to left along the lower row to the home board at the
    bottom right; the points are numbered from that player's side (1..12
    below, 13..24 above). Stacks taller than five show their count in the
    fifth row. ``show_score``: write the score beside the board (by default
    when ``state`` is given).

    >>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
    >>> print(draw_board(start, start, MatchState(dice=(3, 1), length=5)))
     GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                     Match ID   : MIGlAAAAAAAE
     +13-14-15-16-17-18------19-20-21-22-23-24-+     O: O
     | X           O    |   | O              X |     0 points
     | X           O    |   | O              X |
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
     |                  |BAR|                  |     5 point match
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X              O |     Rolled 31
     | O           X    |   | X              O |     0 points
     +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: X
     X on roll; pips X 167, O 167; borne off X 0, O 0
    """
    me_t, opp_t = _check_board(me, opp)
    if show_score is None:
        show_score = state is not None
    if state is None:
        state = MatchState()
    on_roll = state.on_roll
    if on_roll not in (0, 1):
        raise ValueError(f"on_roll must be 0 or 1, got {on_roll!r}")
    dice = state.dice if state.dice != (0, 0) else None
    cube, cube_owner, length = state.cube, state.cube_owner, state.length
    score = state.score if show_score else None
    sym = ("X", "O")
    my_sym, opp_sym = sym[on_roll], sym[1 - on_roll]
    bottom_name, top_name = names[on_roll], names[1 - on_roll]

    # count and symbol on my point p, seen from me
    def cell(p: int) -> tuple[int, str]:
        if me_t[p]:
            return me_t[p], my_sym
        if opp_t[25 - p]:
            return opp_t[25 - p], opp_sym
        return 0, " "

    def stack_char(n: int, s: str, row: int) -> str:
        # row 0 is nearest the edge; five rows; the fifth shows overflow counts
        if n > 5 and row == 4:
            return str(n) if n < 10 else chr(ord("A") + n - 10)
        return s if n > row else " "

    def row_text(points: Sequence[int], row: int) -> str:
        return " ".join(f"{stack_char(*cell(p), row)} " for p in points)[:-1]

    top_left, top_right = range(13, 19), range(19, 25)
    bot_left, bot_right = range(12, 6, -1), range(6, 0, -1)

    side_info_top = [f"{opp_sym}: {top_name}"]
    side_info_bot = [f"{my_sym}: {bottom_name}"]
    if cube_owner is not None:
        (side_info_bot if cube_owner == on_roll else side_info_top)[0] += f" (Cube: {cube})"
    top_score = bot_score = ""
    if score is not None:
        top_score = f"{score[1 - on_roll]} point" + ("" if score[1 - on_roll] == 1 else "s")
        bot_score = f"{score[on_roll]} point" + ("" if score[on_roll] == 1 else "s")

    lines = [
        f" GNU Backgammon  Position ID: {position_id(me_t, opp_t)}",
        f"                 Match ID   : {match_id(state)}",
        " +13-14-15-16-17-18------19-20-21-22-23-24-+     " + side_info_top[0],
    ]
    right = {0: top_score}
    for row in range(5):
        bar = " " + (opp_sym if opp_t[25] > row else " ") + " "
        if row == 4 and opp_t[25] > 5:
            bar = f"{opp_t[25]:^3}"
        line = f" | {row_text(top_left, row)} |{bar}| {row_text(top_right, row)} |"
        extra = right.get(row, "")
        lines.append(line + ("     " + extra if extra else ""))
    middle = []
    if length:
        middle.append(f"{length} point match")
    if cube_owner is None and cube > 1:
        middle.append(f"(Cube: {cube}, centred)")
    lines.append(" |                  |BAR|                  |     " + " ".join(middle))
    rolled = f"Rolled {dice[0]}{dice[1]}" if dice else ""
    for row in range(4, -1, -1):
        bar = " " + (my_sym if me_t[25] > row else " ") + " "
        if row == 4 and me_t[25] > 5:
            bar = f"{me_t[25]:^3}"
        line = f" | {row_text(bot_left, row)} |{bar}| {row_text(bot_right, row)} |"
        extra = {1: rolled, 0: bot_score}.get(row, "")
        lines.append(line + ("     " + extra if extra else ""))
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+     " + side_info_bot[0])

    def pips(side: Board) -> int:
        return sum(p * side[p] for p in range(1, 26))

    lines.append(
        f" {my_sym} on roll; pips {my_sym} {pips(me_t)}, {opp_sym} {pips(opp_t)}; "
        f"borne off {my_sym} {me_t[0]}, {opp_sym} {opp_t[0]}"
    )
    return "\n".join(line.rstrip() for line in lines)


def snapshot_board(snap: Snapshot, names: tuple[str, str]) -> str:
    """The board of a replay's snapshot (the state before one action)."""
    return draw_board(snap.position.me, snap.position.opp, snap.state, names=names)


def board_from_id(text: str, names: tuple[str, str] = ("X", "O")) -> str:
    """An ASCII board for an XGID or a ``PositionID:MatchID`` pair (or a lone
    Position ID), with the state the ID gives.

    >>> print(board_from_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:4:3:1:5:10").splitlines()[1])
                     Match ID   : 8ImlADAAIAAE
    """
    me, opp, state = parse_position(text)
    board = draw_board(me, opp, state, names=names)
    if state is None:
        return board
    return board + f"\nXGID={xgid_of_state(me, opp, state).split('=', 1)[1]}"
