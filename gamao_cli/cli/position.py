"""``gamao position``: the board before a move, or the board of an ID."""
from __future__ import annotations

import sys

import click
from click.core import ParameterSource

from . import exit_codes
from .options import fail_usage, label


def _numbers(numbers: list[int]) -> str:
    """``1-3``, ``1, 3 and 4``: the game or move numbers there are."""
    numbers = sorted(set(numbers))
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}-{numbers[-1]}"
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _id_board(ident: str) -> str:
    """The board of an ID with every ID of its position: an XGID gives its
    Position ID and Match ID, a ``PositionID:MatchID`` its XGID."""
    from gamao_cli.ids import decode_match_id, decode_position_id
    from gamao_cli.render.text import board_from_id
    from gamao_cli.replay.snapshots import Snapshot
    from gamao_cli.rules import Position

    board = board_from_id(ident)
    text = ident.strip()
    if text.upper().startswith("XGID=") or text.count(":") >= 8:
        return board   # it ends with the XGID
    pos_text, _, mid = text.partition(":")
    if not mid:
        click.echo("gamao: a Position ID alone does not say who is on roll, the cube, the dice "
                   "or the score: no Match ID and no XGID (give POSITIONID:MATCHID)", err=True)
        return board
    me, opp = decode_position_id(pos_text)
    state = decode_match_id(mid)
    snap = Snapshot(0, None, Position(tuple(me), tuple(opp)), state)  # type: ignore[arg-type]
    return board + f"\nXGID={snap.xgid.split('=', 1)[1]}"


@click.command(epilog=exit_codes.help_for("position"))
@click.argument("file", required=False, type=click.Path(allow_dash=True, readable=False))
@click.option("--game", "-g", type=click.IntRange(min=1), default=1, show_default=True,
              help="Game number.")
@click.option("--move", "-m", type=click.IntRange(min=1), default=1, show_default=True,
              help="Move number (the numbered line of the match file).")
@click.option("--player", type=click.Choice(("left", "right")), default=None,
              help="Whose action on that line (default: the first on it).")
@click.option("--id", "ident", metavar="ID",
              help="Show this position instead (no FILE then): an XGID, or a GNU Backgammon "
                   "Position ID with an optional :MatchID.")
@click.pass_context
def position(ctx: click.Context, file: str | None, game: int, move: int, player: str | None,
             ident: str | None) -> None:
    """Print the position before a move of a match, as an ASCII board with its
    GNU Backgammon Position ID, Match ID and XGID; or the board of an ID
    (an XGID, or POSITIONID:MATCHID) with the other IDs of its position.

    \b
    Examples:
      gamao position match.mat --game 2 --move 14
      gamao position match.mat -g 2 -m 14 --player right
      gamao position --id 'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10'
      gamao position --id 4HPwATDgc/ABMA:MACmAAAAAAAE
    """
    from gamao_cli import formats
    from gamao_cli.errors import InputError
    from gamao_cli.render.text import snapshot_board
    from gamao_cli.replay.check import input_error_diagnostic
    from gamao_cli.replay.snapshots import snapshots

    if ident:
        if file:
            fail_usage(f"give a match FILE or --id, not both (--id shows the position of the "
                       f"ID; {file} would not be read)")
        given = [f"--{name}" for name in ("game", "move", "player")
                 if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE]
        if given:
            fail_usage(f"{' and '.join(given)} {'choose' if len(given) > 1 else 'chooses'} a "
                       "position in a FILE; --id gives one itself")
        try:
            click.echo(_id_board(ident))
        except ValueError as exc:
            click.echo(f"gamao: --id {ident}: {exc}", err=True)
            sys.exit(exit_codes.USAGE)
        return
    if not file:
        fail_usage("give a match FILE or --id")
    name = label(file)
    try:
        matches = formats.read_path(file)
    except InputError as exc:
        click.echo(input_error_diagnostic(exc).format_text(), err=True)
        sys.exit(exit_codes.USAGE)
    if not matches:
        click.echo(f"gamao: {name}: the file holds no match", err=True)
        sys.exit(exit_codes.USAGE)
    side = None if player is None else (0 if player == "left" else 1)
    match = matches[0]
    games = [g.number for g in match.games]
    if game not in games:
        there = f"games {_numbers(games)}" if len(set(games)) > 1 else \
            (f"game {games[0]}" if games else "no games")
        click.echo(f"gamao: {name}: there is no game {game}; the match has {there}", err=True)
        sys.exit(exit_codes.USAGE)
    in_game = [s for s in snapshots(match) if s.game == game]
    found = [s for s in in_game if s.action.move_number == move
             and (side is None or s.action.player == side)]
    if not found:
        moves = [s.action.move_number for s in in_game if s.action.move_number is not None
                 and (side is None or s.action.player == side)]
        whose = "" if side is None else f" for the {player} player"
        there = f"its moves are {_numbers(moves)}" if moves else "it has no moves gamao can replay"
        click.echo(f"gamao: {name}: game {game} has no move {move}{whose}; {there}", err=True)
        sys.exit(exit_codes.USAGE)
    snap = found[0]
    names = tuple(n or f"player {i + 1}" for i, n in enumerate(match.players))
    who = names[snap.action.player]
    click.echo(f"{name}: game {game}, move {move}: {who} to act ({snap.action.text()})")
    click.echo(snapshot_board(snap, names))
    click.echo(f"XGID={snap.xgid.split('=', 1)[1]}")
