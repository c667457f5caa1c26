"""``gamao position``: the board before a move, or the board of an ID."""
from __future__ import annotations

import sys

import click

from . import exit_codes
from .options import fail_usage


@click.command(epilog=exit_codes.HELP)
@click.argument("file", required=False, type=click.Path(allow_dash=True))
@click.option("--game", "-g", type=click.IntRange(min=1), default=1, show_default=True,
              help="Game number.")
@click.option("--move", "-m", type=click.IntRange(min=1), default=1, show_default=True,
              help="Move number (the numbered line of the match file).")
@click.option("--player", type=click.Choice(("left", "right")), default=None,
              help="Whose action on that line (default: the first on it).")
@click.option("--id", "ident", metavar="ID",
              help="Show this position instead: an XGID, or a GNU Backgammon Position ID "
                   "with an optional :MatchID.")
def position(file: str | None, game: int, move: int, player: str | None,
             ident: str | None) -> None:
    """Print the position before a move of a match, as an ASCII board with its
    GNU Backgammon Position ID, Match ID and XGID; or the board of an ID.

    \b
    Examples:
      gamao position match.mat --game 2 --move 14
      gamao position match.mat -g 2 -m 14 --player right
      gamao position --id 'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10'
      gamao position --id 4HPwATDgc/ABMA:MACmAAAAAAAE
    """
    from gamao_cli import formats
    from gamao_cli.errors import InputError
    from gamao_cli.render.text import board_from_id, snapshot_board
    from gamao_cli.replay.check import input_error_diagnostic
    from gamao_cli.replay.snapshots import find_snapshot

    if ident:
        try:
            click.echo(board_from_id(ident))
        except ValueError as exc:
            click.echo(f"gamao: {exc}", err=True)
            sys.exit(exit_codes.USAGE)
        return
    if not file:
        fail_usage("give a match FILE or --id")
    try:
        source = formats.open_source(file)
        if formats.detect(source.head()).name == "xg" and _is_position_file(source):
            _print_position_file(file, source)
            return
        matches = list(formats.read_source(source))
    except InputError as exc:
        click.echo(input_error_diagnostic(exc).format_text(), err=True)
        sys.exit(exit_codes.USAGE)
    if not matches:
        click.echo(f"gamao: {file}: holds no match", err=True)
        sys.exit(exit_codes.USAGE)
    side = None if player is None else (0 if player == "left" else 1)
    match = matches[0]
    try:
        snap = find_snapshot(match, game, move, side)
    except LookupError as exc:
        click.echo(f"gamao: {file}: {exc}", err=True)
        sys.exit(exit_codes.USAGE)
    names = tuple(n or f"player {i + 1}" for i, n in enumerate(match.players))
    who = names[snap.action.player]
    click.echo(f"{file}: game {game}, move {move}: {who} to act ({snap.action.text()})")
    click.echo(snapshot_board(snap, names))
    click.echo(f"XGID={snap.xgid.split('=', 1)[1]}")


def _is_position_file(source) -> bool:
    from gamao_cli.formats.xg.reader import is_position_file, read_xg_records
    return is_position_file(*read_xg_records(source.read_bytes(), source.label))


def _print_position_file(file: str, source) -> None:
    """An eXtreme Gammon position file (.xgp): its board and IDs."""
    from gamao_cli.formats.xg import read_position
    from gamao_cli.ids.xgid import xgid_of_state
    from gamao_cli.render.text import draw_board

    pos = read_position(source.read_bytes(), source.label)
    names = tuple(n or f"player {i + 1}" for i, n in enumerate(pos.names))
    what = (f"{names[pos.player]} to roll or double" if pos.decision == "cube"
            else f"{names[pos.player]} to play {pos.dice[0]}{pos.dice[1]}")
    state = pos.match_state()
    click.echo(f"{file}: position: {what}")
    click.echo(draw_board(pos.me, pos.opp, state, names=names))
    click.echo(f"XGID={xgid_of_state(pos.me, pos.opp, state).split('=', 1)[1]}")
