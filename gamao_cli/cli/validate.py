"""``gamao validate``: replay every game and report what is wrong."""
from __future__ import annotations

import functools
import os
import sys

import click

from gamao_cli.i18n import _

from . import exit_codes
from .language import Command
from .files import iter_files, iter_input_files
from .options import (color_option, fail_usage, glob_option, ignore_option, jobs_option,
                      paths_argument, select_option, strict_option, use_colour)
from .reporters import (DEFAULT_THRESHOLD, FORMATS, SEVERITIES, STREAMED, Tally, render,
                        stream, summary_line)


@click.command(cls=Command, epilog=exit_codes.epilog_for("validate"))
@paths_argument
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: path:line:col: CODE severity message; json: one document; jsonl: one "
                   "object per diagnostic; github: GitHub Actions annotations (the gravest "
                   "first, as many as GitHub keeps, the rest as log lines; the whole report is "
                   "appended to $GITHUB_STEP_SUMMARY when it is set); junit: JUnit XML; sarif: "
                   "SARIF 2.1.0 (GitHub code scanning); codeclimate: GitLab's code-quality "
                   "report; html: a report page linking each diagnostic to its position in a "
                   "replay page of its file (written with --html-dir).")
@click.option("--html-dir", type=click.Path(file_okay=False), metavar="DIR",
              help="With --format html: the folder for the report (index.html) and a replay "
                   "page of every file with findings.")
@click.option("--force", is_flag=True, help="With --html-dir: replace the pages of an earlier "
                                            "report.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary line (text format).")
@click.option("--severity", type=click.Choice(SEVERITIES), default=None,
              help="The least grave severity text and github output show (default: "
                   f"{DEFAULT_THRESHOLD}; infos are then counted on the closing line but not "
                   "shown). json, jsonl, junit, sarif and codeclimate keep every diagnostic.")
@click.option("--show-info", is_flag=True, help="Show infos too (the same as --severity info).")
@strict_option
@select_option
@ignore_option
@glob_option
@jobs_option
@click.option("--scheduler", metavar="ADDRESS",
              help="Check the files on the Dask cluster of this scheduler (tcp://HOST:PORT; "
                   "needs dask.distributed: gamao's dask extra); the workers must reach the "
                   "files.")
@color_option
def validate(paths: tuple[str, ...], fmt: str, html_dir: str | None, force: bool, quiet: bool,
             severity: str | None,
             show_info: bool, strict: bool, select: tuple[str, ...] | None,
             ignore: tuple[str, ...] | None, globs: tuple[str, ...], jobs: int | None,
             scheduler: str | None,
             color: bool | None) -> None:
    """Replay every game of the match files in PATHS under the rules of
    backgammon and report every illegal play, cube action, wrong result and
    wrong score line, with file, line and column.

    PATHS are files, folders (searched recursively for *.mat, *.txt, *.sgf,
    *.xg, *.xgp and *.bgf, in any case, and archives), archives (.zip, .tar,
    .tar.gz, .gz: each member is checked, named ARCHIVE!MEMBER in reports)
    or - for standard input (named <stdin> in reports).

    Infos (producers' quirks gamao interprets, never faults) are counted on
    the closing line and shown with --show-info.

    \b
    Examples:
      gamao validate match.mat
      gamao validate --strict --jobs 4 archive/
      gamao validate --show-info archive/
      gamao validate --format json --ignore GM103 match.mat
      cat match.mat | gamao validate -
      gamao validate --format html --html-dir report/ archive/
      gamao validate --format sarif archive/ > gamao.sarif
    """
    from gamao_cli.replay.check import check_file

    if show_info and severity not in (None, "info"):
        fail_usage(_("--show-info shows infos, --severity {severity} hides them: give one")
                   .format(severity=severity))
    threshold = "info" if show_info else (severity or DEFAULT_THRESHOLD)
    if (fmt == "html") != (html_dir is not None):
        fail_usage(_("--format html and --html-dir go together: the report is a folder of pages"))
    files = list(iter_input_files(paths, globs))
    if not files:
        fail_usage(_("no match files found in {paths}").format(paths=", ".join(paths)))
    func = functools.partial(check_file, select=select, ignore=ignore)
    colour = fmt == "text" and use_colour(color)
    if scheduler is not None:   # --scheduler "" (an unset variable) is an error, not local
        if "-" in files:
            fail_usage(_("--scheduler checks files the workers can read, not standard input"))
        from .cluster import iter_on_cluster
        each = iter_on_cluster(scheduler, func, files)
    else:
        each = iter_files(func, files, jobs)
    if fmt in STREAMED:
        # written file by file: memory does not grow with the number of files
        tally = stream(fmt, each,
                       lambda text: click.echo(text, nl=False, color=colour),
                       colour=colour, quiet=quiet, strict=strict, threshold=threshold,
                       step_summary=os.environ.get("GITHUB_STEP_SUMMARY") or None)
    elif fmt == "html":
        from .html_report import write_html_report
        results = list(each)
        write_html_report(results, html_dir, force=force)
        tally = Tally.of(results, strict)
        tally.threshold = threshold
        click.echo(summary_line(tally))
    else:  # one document listing every file
        results = list(each)
        click.echo(render(fmt, results, colour=colour, quiet=quiet, strict=strict,
                          threshold=threshold), nl=False, color=colour)
        tally = Tally.of(results, strict)
    sys.exit(tally.status().code)
