"""``gamao summary``: who won what, game by game."""
from __future__ import annotations

import json
import os
import sys

import click

from gamao_cli.i18n import _

from . import exit_codes
from .language import Command
from .files import iter_files, iter_input_files
from .options import fail_usage, glob_option, jobs_option, paths_argument


def _summaries_of(path: str) -> tuple[list[dict], str | None, bool]:
    """The summaries of the matches of ``path``, the message of why there
    are none (or None), and whether that is gamao's own failure (a bug: its
    GM008 diagnostic, exit code 3; ``GAMAO_DEBUG=1`` lets it through)."""
    from gamao_cli.formats import members
    from gamao_cli.errors import GamaoError, InputError
    from gamao_cli.replay.check import input_error_diagnostic, internal_error_diagnostic
    from gamao_cli.tables.summary import summarise
    from .options import label
    where = "reading"
    try:
        matches = members.read_path(path)
        where = "summarising"
        return [summarise(mt) for mt in matches], None, False
    except InputError as exc:
        return [], input_error_diagnostic(exc).format_text(), False
    except GamaoError:
        raise
    except Exception as exc:   # a bug in gamao: say so for this file, go on with the others
        if os.environ.get("GAMAO_DEBUG") == "1":
            raise
        return [], internal_error_diagnostic(exc, label(path), where).format_text(), True


@click.command(cls=Command, epilog=exit_codes.epilog_for("summary"))
@paths_argument
@click.option("--format", "-f", "fmt", type=click.Choice(("table", "json", "csv")), default="table",
              show_default=True, help="table for people, json or csv for programs.")
@glob_option
@jobs_option
def summary(paths: tuple[str, ...], fmt: str, globs: tuple[str, ...], jobs: int | None) -> None:
    """Summarise matches: players, length, final score and winner; each game's
    winner, points, how it ended, cube and moves; totals per player.

    In JSON, index 0 is the left-column player (player 1 of the match file).
    A file that cannot be read is reported on standard error (exit code 2)
    and the other files are still summarised (as they are when gamao itself
    fails on a file: its GM008 diagnostic, exit code 3).

    \b
    Examples:
      gamao summary match.mat
      gamao summary --format json archive/ | jq '.[].winner'
      gamao summary --format csv --jobs 4 archive/ > matches.csv
    """
    from gamao_cli.tables.summary import csv_text, table

    files = list(iter_input_files(paths, globs))
    if not files:
        fail_usage(_("no match files found in {paths}").format(paths=", ".join(paths)))
    all_summaries: list[dict] = []
    status = exit_codes.Status()
    # (many files: read and replayed in worker processes, the results in input order)
    for summaries, error, internal in iter_files(_summaries_of, files, jobs, progress=False):
        if error:
            click.echo(error, err=True)
            if internal:
                status.internal_error()
            else:
                status.unreadable()
        all_summaries.extend(summaries)
    from gamao_cli.formats.limits import all_digits
    from .reporters import json_text
    if fmt == "json":
        click.echo(json_text(all_summaries, indent=2))
        sys.exit(status.code)
    with all_digits():   # a score of more than 4,300 digits is written, not a crash
        if fmt == "csv":
            click.echo(csv_text(all_summaries), nl=False)
        else:
            click.echo(table(all_summaries), nl=False)
    sys.exit(status.code)
