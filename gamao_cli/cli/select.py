"""``gamao select``: pick matches out of an archive by criteria (the work
is in :mod:`gamao_cli.archive.select`)."""
from __future__ import annotations

import sys

import click

from gamao_cli import formats
from gamao_cli.i18n import _, ngettext, number

from . import exit_codes
from .dedupe import Scan, out_folder, scheduler_option
from .language import Command
from .options import fail_usage, glob_option, jobs_option, paths_argument


def _length(ctx, param, value: str | None):
    if value is None:
        return None
    from gamao_cli.archive.select import parse_length
    try:
        return parse_length(value)
    except ValueError:
        raise click.BadParameter(_("{value!r} is not a length: give N or A-B (5-11)").format(
            value=value)) from None


def _pair(ctx, param, value: str | None):
    if value is None:
        return None
    names = [v.strip() for v in value.split(",")]
    if len(names) != 2 or not all(names):
        raise click.BadParameter(_("{value!r}: give two names, A,B").format(value=value))
    return tuple(names)


def _day(ctx, param, value):
    return value.date() if value is not None else None


def _write(batch, folder, to, status) -> int:
    """Write the selected matches of ``batch``; the number written."""
    from .chosen import write_chosen
    return write_chosen(batch, folder, to, status)


@click.command(cls=Command, epilog=exit_codes.epilog_for("select"))
@paths_argument
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="A player, on either side, by the score line's name or the Player 1/Player "
                   "2 tag's: accents, case and spacing aside; * and ? as in the shell "
                   "(repeatable: every one must play).")
@click.option("--opponents", callback=_pair, metavar="A,B",
              help="The two players, in either column.")
@click.option("--length", callback=_length, metavar="N|A-B",
              help="The match length, or a range of lengths (5-11).")
@click.option("--money", is_flag=True, help="Money sessions only.")
@click.option("--event", metavar="TEXT",
              help="Words of the Event tag (SGF EV), accents and case aside; a pattern with * "
                   "or ? matches the whole tag.")
@click.option("--date-from", type=click.DateTime(("%Y-%m-%d",)), callback=_day,
              metavar="YYYY-MM-DD", help="Played on this day or later (the EventDate tag, SGF "
                                         "DT); a match with no date is left out.")
@click.option("--date-to", type=click.DateTime(("%Y-%m-%d",)), callback=_day,
              metavar="YYYY-MM-DD", help="Played on this day or earlier.")
@click.option("--has-errors", is_flag=True, help="Matches the validator finds errors in.")
@click.option("--clean", is_flag=True,
              help="Matches the validator finds no error and no warning in.")
@click.option("--has-analysis", is_flag=True,
              help="Matches that carry an engine's analysis (eXtreme Gammon's today).")
@click.option("--winner", metavar="NAME", help="The match's winner (as --player matches names).")
@click.option("-o", "--out-dir", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write each match picked into DIR (created if needed), one file a match: "
                   "the input's bytes when it holds only that match.")
@click.option("--to", "to", type=click.Choice([f.name for f in formats.writable()]),
              help="With -o: convert each match picked to this format.")
@click.option("--print0", is_flag=True,
              help="End each path with a NUL, not a new line (for xargs -0).")
@click.option("--force", is_flag=True, help="Replace existing files in DIR.")
@jobs_option
@scheduler_option
@glob_option
def select(paths: tuple[str, ...], players: tuple[str, ...], opponents, length, money: bool,
           event: str | None, date_from, date_to, has_errors: bool, clean: bool,
           has_analysis: bool, winner: str | None, out_dir: str | None, to: str | None,
           print0: bool, force: bool, jobs: int | None, scheduler: str | None,
           globs: tuple[str, ...]) -> None:
    """Pick the matches of PATHS that meet every criterion given, and print
    the path of each input holding one (archive members as
    archive.zip:member.mat), or write them into a folder with -o. PATHS are
    read as gamao dedupe reads them.

    \b
    Examples:
      gamao select archive/ --player 'Jose*'
      gamao select archive/ --opponents 'Ana Sousa,Bruno Lima'
      gamao select archive/ --length 5-11
      gamao select archive/ --money
      gamao select archive/ --event 'world championship'
      gamao select archive/ --date-from 2024-01-01 --date-to 2024-06-30
      gamao select archive/ --has-errors
      gamao select archive/ --clean --length 7 -o clean/
      gamao select archive/ --has-analysis --to json -o analysed/
      gamao select archive/ --winner gnubgB --print0 | xargs -0 gamao summary
    """
    from gamao_cli.archive.select import Criteria

    if has_errors and clean:
        fail_usage(_("--has-errors and --clean exclude each other: give one"))
    if to is not None and out_dir is None:
        fail_usage(_("--to writes files: give -o DIR too"))
    if print0 and out_dir is not None:
        fail_usage(_("--print0 prints paths, -o writes files: give one"))
    criteria = Criteria(players=players, opponents=opponents, length=length, money=money,
                        event=event, date_from=date_from, date_to=date_to,
                        has_errors=has_errors, clean=clean, has_analysis=has_analysis,
                        winner=winner)
    status = exit_codes.Status()
    folder = out_folder(out_dir, force, "-o") if out_dir is not None else None
    picked = Scan(paths, globs, criteria, jobs, scheduler, status, _("Selecting"))
    end = "\0" if print0 else "\n"
    selected = written = 0
    last = None
    batch: list = []
    for s in picked:
        selected += 1
        if folder is not None:
            batch.append(s)
            if len(batch) >= 256:
                written += _write(batch, folder, to, status)
                batch = []
        elif s.label != last:
            click.echo(s.label + end, nl=False)
            last = s.label
    if folder is not None:
        written += _write(batch, folder, to, status)
        click.echo(_("{selected} of {matches}: {written} written to {folder}").format(
            selected=ngettext("{n} match picked", "{n} matches picked", selected).format(
                n=number(selected)),
            matches=number(picked.matches),
            written=ngettext("{n} file", "{n} files", written).format(n=number(written)),
            folder=out_dir), err=True)
    sys.exit(status.code)
