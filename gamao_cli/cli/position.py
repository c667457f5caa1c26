"""``gamao position``: the board before a move, or the board of an ID."""
from __future__ import annotations

import sys

import click
from click.core import ParameterSource

from gamao_cli.i18n import _
from gamao_cli.model import SetUp
from gamao_cli.rules import Position

from . import exit_codes
from .language import Command
from .options import check_output_not_a_folder, fail_usage, label

#: The width in pixels of ``--format svg`` (the height follows: 640 by 536).
SVG_WIDTH = 640


def _numbers(numbers: list[int]) -> str:
    """``1-3``, ``1, 3 and 4``: the game or move numbers there are."""
    numbers = sorted(set(numbers))
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}-{numbers[-1]}"
    words = [str(n) for n in numbers]
    if len(words) == 1:
        return words[0]
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


def _id_board(ident: str, fmt: str) -> str:
    """The board of an ID with every ID of its position (an XGID gives its
    Position ID and Match ID, a ``PositionID:MatchID`` its XGID), or its SVG."""
    from gamao_cli.ids import parse_position
    from gamao_cli.render.text import board_from_id

    me, opp, state = parse_position(ident)
    if fmt == "svg":
        from gamao_cli.render.svg import board as svg_board
        return svg_board(Position(tuple(me), tuple(opp)), state=state, size=SVG_WIDTH)
    if state is None:
        click.echo("gamao: " + _("a Position ID alone does not say who is on roll, the cube, the "
                                 "dice or the score: no Match ID and no XGID (give "
                                 "POSITIONID:MATCHID)"), err=True)
    return board_from_id(ident)   # with the XGID of the position when there is a state


@click.command(cls=Command, epilog=exit_codes.epilog_for("position"))
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
@click.option("--format", "-f", "fmt", type=click.Choice(("text", "svg")), default="text",
              show_default=True,
              help="text: the board as GNU Backgammon's text board, with the IDs; svg: a "
                   "standalone SVG picture of the board, 640 by 536 pixels, with arrows for the play "
                   "that led to it (no fonts or files outside it).")
@click.option("-o", "--output", "output", type=click.Path(allow_dash=True), default="-",
              help="Where to write (default - : standard output).")
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@click.pass_context
def position(ctx: click.Context, file: str | None, game: int, move: int, player: str | None,
             ident: str | None, fmt: str, output: str, force: bool) -> None:
    """Print the position before a move of a match, as an ASCII board with its
    GNU Backgammon Position ID, Match ID and XGID (or as an SVG picture); the
    board of an ID (an XGID, or POSITIONID:MATCHID) with the other IDs of its
    position; or the position of an eXtreme Gammon position file (.xgp).

    \b
    Examples:
      gamao position match.mat --game 2 --move 14
      gamao position match.mat -g 2 -m 14 --player right
      gamao position match.mat -g 2 -m 14 --format svg -o board.svg
      gamao position --id 'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10'
      gamao position --id 4HPwATDgc/ABMA:MACmAAAAAAAE --format svg > board.svg
      gamao position quiz.xgp
    """
    check_output_not_a_folder(output, out_dir=False)
    emit = _Output(output, force)
    from gamao_cli import formats
    from gamao_cli.formats import members
    from gamao_cli.errors import InputError
    from gamao_cli.render.text import snapshot_board
    from gamao_cli.replay.check import input_error_diagnostic
    from gamao_cli.replay.snapshots import snapshots

    if ident:
        if file:
            fail_usage(_("give a match FILE or --id, not both (--id shows the position of the "
                         "ID; {file} would not be read)").format(file=file))
        given = [f"--{name}" for name in ("game", "move", "player")
                 if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE]
        if given:
            fail_usage((_("{options} choose a position in a FILE; --id gives one itself")
                        if len(given) > 1 else
                        _("{option} chooses a position in a FILE; --id gives one itself"))
                       .format(options=_("{first} and {last}").format(
                           first=", ".join(given[:-1]), last=given[-1]), option=given[0]))
        try:
            emit(_id_board(ident, fmt))
        except ValueError as exc:
            click.echo(f"gamao: --id {ident}: {exc}", err=True)
            sys.exit(exit_codes.USAGE)
        return
    if not file:
        fail_usage(_("give a match FILE or --id"))
    name = label(file)
    try:
        source = members.open_source(file)
        if formats.detect(source.head()).name == "xg" and _is_position_file(source):
            _print_position_file(name, source, fmt, emit)
            return
        matches = list(members.read_source(source))
    except InputError as exc:
        click.echo(input_error_diagnostic(exc).format_text(), err=True)
        sys.exit(exit_codes.USAGE)
    if not matches:
        click.echo("gamao: " + _("{name}: the file holds no match").format(name=name), err=True)
        sys.exit(exit_codes.USAGE)
    side = None if player is None else (0 if player == "left" else 1)
    match = matches[0]
    games = [g.number for g in match.games]
    if game not in games:
        there = (_("games {numbers}").format(numbers=_numbers(games)) if len(set(games)) > 1
                 else (_("game {number}").format(number=games[0]) if games else _("no games")))
        click.echo("gamao: " + _("{name}: there is no game {game}; the match has {there}").format(
            name=name, game=game, there=there), err=True)
        sys.exit(exit_codes.USAGE)
    from gamao_cli.replay.replay import validate_match
    report = validate_match(match, keep_records=True)
    in_game = [s for s in snapshots(match, report) if s.game == game]
    found = [s for s in in_game if s.action.move_number == move
             and (side is None or s.action.player == side)]
    # a position the record sets stands on the line of the action after it:
    # the move is that action (the set position is the one before it)
    found = [s for s in found if not isinstance(s.action, SetUp)] or found
    if not found:
        stopped = _replay_stopped(match, game, move, side)
        if stopped is not None:
            click.echo("gamao: " + _("{name}: game {game}, move {move}: {why}").format(
                name=name, game=game, move=move, why=stopped), err=True)
            sys.exit(exit_codes.USAGE)
        moves = [s.action.move_number for s in in_game if s.action.move_number is not None
                 and (side is None or s.action.player == side)]
        there = (_("its moves are {numbers}").format(numbers=_numbers(moves)) if moves
                 else _("it has no moves gamao can replay"))
        if side is None:
            text = _("{name}: game {game} has no move {move}; {there}")
        elif side == 0:
            text = _("{name}: game {game} has no move {move} for the left player; {there}")
        else:
            text = _("{name}: game {game} has no move {move} for the right player; {there}")
        click.echo("gamao: " + text.format(name=name, game=game, move=move, there=there),
                   err=True)
        sys.exit(exit_codes.USAGE)
    snap = found[0]
    why = _no_board(snap, match)
    if why is not None:
        click.echo("gamao: " + _("{name}: game {game}, move {move}: {why}").format(
            name=name, game=game, move=move, why=why), err=True)
        sys.exit(exit_codes.USAGE)
    names = tuple(n or _("player {number}").format(number=i + 1)
                  for i, n in enumerate(match.players))
    if fmt == "svg":
        from gamao_cli.render.svg import board as svg_board
        from gamao_cli.replay.snapshots import last_play
        last = last_play(report, snap.action)
        emit(svg_board(snap, names=names, size=SVG_WIDTH, last_play=last[0] if last else None,
                       last_player=last[1] if last else None))
        return
    who = names[snap.action.player]
    emit(_("{name}: game {game}, move {move}: {who} to act ({action})").format(
        name=name, game=game, move=move, who=who, action=snap.action.text()) + "\n"
        + snapshot_board(snap, names) + f"\nXGID={snap.xgid.split('=', 1)[1]}")


def _replay_stopped(match, game: int, move: int, side: int | None) -> str | None:
    """Why a move the record has has no position: the replay of its game
    stopped before it (GM215, with the diagnostic that says why); None when
    the record has no such move."""
    from gamao_cli.messages import render
    from gamao_cli.replay.replay import validate_match
    actions = [a for g in match.games if g.number == game for a in g.actions
               if a.move_number == move and (side is None or a.player == side)]
    if not actions:
        return None
    stops = [d for d in validate_match(match).diagnostics
             if d.code == "GM215" and d.game == game and d.line is not None]
    if not stops:
        return None
    d = stops[0]
    return render("position.replay-stopped", {"code": d.code, "line": d.line,
                                              "message": d.message})


def _no_board(snap, match) -> str | None:
    """Why the position before ``snap``'s action has no board (None when it
    has one): an illegal play the replay applied as written can leave
    checkers of both players on one point, which no board or ID can hold."""
    from gamao_cli.messages import render
    pos = snap.position
    shared = [p for p in range(1, 25) if pos.me[p] and pos.opp[25 - p]]
    if not shared:
        return None
    from gamao_cli.replay.replay import validate_match
    action = snap.action
    errors = [d for d in validate_match(match).diagnostics
              if d.severity == "error" and d.game == snap.game and d.line is not None
              and (d.line, d.column or 0) < (action.line, action.column)]
    fields = {"point": shared[0], "player": match.players[snap.state.on_roll] or
              render("player.left" if snap.state.on_roll == 0 else "player.right", {})}
    if not errors:
        return render("position.no-board", fields)
    d = errors[-1]
    return render("position.no-board.after", {**fields, "code": d.code, "line": d.line,
                                              "message": d.message})


class _Output:
    """Writes the command's one output: to standard output, or atomically to a file."""

    def __init__(self, output: str, force: bool):
        self.output = output
        self.force = force

    def __call__(self, text: str) -> None:
        if self.output == "-":
            click.echo(text)
            return
        from gamao_cli.errors import OutputError
        from gamao_cli.formats.textio import atomic_write
        try:
            atomic_write(self.output, text if text.endswith("\n") else text + "\n",
                         force=self.force)
        except OutputError as exc:
            click.echo(f"gamao: {exc}", err=True)
            sys.exit(exit_codes.USAGE)


def _is_position_file(source) -> bool:
    from gamao_cli.formats.xg.reader import is_position_file, read_xg_records
    return is_position_file(*read_xg_records(source.read_bytes(), source.label))


def _print_position_file(name: str, source, fmt: str, emit: _Output) -> None:
    """An eXtreme Gammon position file (.xgp): its board and IDs."""
    from gamao_cli.formats.xg import read_position
    from gamao_cli.ids.xgid import xgid_of_state
    from gamao_cli.render.text import draw_board

    pos = read_position(source.read_bytes(), source.label)
    names = tuple(n or _("player {number}").format(number=i + 1) for i, n in enumerate(pos.names))
    what = (_("{name} to roll or double").format(name=names[pos.player])
            if pos.decision == "cube"
            else _("{name} to play {dice}").format(name=names[pos.player],
                                                    dice=f"{pos.dice[0]}{pos.dice[1]}"))
    state = pos.match_state()
    if fmt == "svg":
        from gamao_cli.render.svg import board as svg_board
        emit(svg_board(Position(pos.me, pos.opp), state=state, names=names, size=SVG_WIDTH))
        return
    emit(_("{name}: position: {what}").format(name=name, what=what) + "\n" + draw_board(pos.me, pos.opp, state, names=names)
         + f"\nXGID={xgid_of_state(pos.me, pos.opp, state).split('=', 1)[1]}")
