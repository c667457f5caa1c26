"""``gamao export``: the tables analysts query (matches, games, actions) as
Parquet, CSV or JSON lines, on one machine or on a Dask cluster."""
from __future__ import annotations

import functools
import sys

import click

from gamao_cli.i18n import _, ngettext, number

from . import exit_codes
from .language import Command
from .options import fail_usage, glob_option, jobs_option


def _missing(paths: tuple[str, ...]) -> list:
    """The GM004 diagnostics of the local paths that do not exist (URLs are
    the file systems' to find), found before anything is written."""
    import os
    from gamao_cli.errors import InputError
    from gamao_cli.messages import Msg
    from gamao_cli.replay.check import input_error_diagnostic
    return [input_error_diagnostic(InputError(path=p, key="GM004.cannot-read",
                                              fields={"reason": Msg("os.not-found", {})}))
            for p in paths if "://" not in p and not os.path.lexists(p)]


@click.command(cls=Command, epilog=exit_codes.epilog_for("export"))
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", "out", required=True, metavar="DIR",
              help="The folder (or fsspec URL, e.g. s3://bucket/tables) that gets matches/, "
                   "games/ and actions/.")
@click.option("--to", "to", type=click.Choice(("parquet", "csv", "jsonl")), default="parquet",
              show_default=True, help="The form of the part files (parquet needs pyarrow: gamao's parquet "
                                 "extra).")
@jobs_option
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on the Dask cluster of this scheduler (tcp://HOST:PORT; needs "
                   "dask.distributed: gamao's dask extra); the workers must reach the inputs "
                   "and DIR.")
@click.option("--force", is_flag=True, help="Replace the part files of an earlier export in DIR.")
@click.option("--part-files", type=click.IntRange(min=1), default=256, show_default=True,
              metavar="N", help="Inputs (files or archive members) per part file; a part also "
                                "closes after 8 MiB of input. Each part is one task.")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on standard error (default: when it is a terminal).")
@glob_option
def export(paths: tuple[str, ...], out: str, to: str, jobs: int | None, scheduler: str | None,
           force: bool, part_files: int, progress: bool | None, globs: tuple[str, ...]) -> None:
    """Write the tables of the match records in PATHS under DIR: matches/,
    games/ and actions/, each a folder of part files that DuckDB, Polars,
    pandas and Spark read as one table. Every match is replayed and checked
    as by validate; its diagnostics are columns of the tables.

    PATHS are files, folders (searched recursively for records and for
    .zip, .tar, .tar.gz archives, whose members are read without
    unpacking them), .gz files, or fsspec URLs (s3://bucket/records/).
    The columns are in docs/tables.md.

    \b
    Examples:
      gamao export archive/ -o tables/
      gamao export records.zip -o tables/ --to csv --jobs 4
      gamao export s3://bucket/records/ -o s3://bucket/tables/ \\
          --scheduler tcp://scheduler:8786
      duckdb -c "SELECT kind, count(*) FROM 'tables/actions/*.parquet' GROUP BY kind"
    """
    from gamao_cli.tables.export import Job, plan, prepare_output, run_local
    from gamao_cli.tables.writers import check_available

    if "-" in paths:
        fail_usage(_("export reads files, folders, archives or URLs, not standard input"))
    check_available(to)
    missing = _missing(paths)
    paths = tuple(p for p in paths if p not in {d.path for d in missing})
    if not paths:   # nothing to export: nothing is written, no folder made
        for d in missing:
            click.echo(d.format_text(), err=True)
        sys.exit(exit_codes.USAGE)
    parts, problems = plan(paths, globs, part_files=part_files)
    problems = list(missing) + list(problems)
    for d in problems:
        click.echo(d.format_text(), err=True)
    if not parts:
        if problems:
            sys.exit(exit_codes.USAGE)
        fail_usage(_("no match files found in {paths}").format(paths=", ".join(paths)))
    staging = prepare_output(out, force)   # refuses an earlier export without --force
    import os
    client = None
    results = None
    status = exit_codes.Status()
    totals = dict.fromkeys(("files", "matches", "games", "actions", "errors", "warnings",
                            "unreadable"), 0)
    show = progress if progress is not None else sys.stderr.isatty()
    inputs = sum(len(p.items) for p in parts)
    try:
        # nothing of the earlier export is touched until every part is written
        if scheduler is not None:   # --scheduler "" (an unset variable) is an error, not local
            from . import cluster
            client = cluster.connect(scheduler)
        staging.create()
        job = Job(out=staging.stage, to=to, globs=globs, cwd=os.getcwd())
        if client is not None:
            from gamao_cli.tables.export import run_partition
            results = cluster.ordered_map(client, functools.partial(run_partition, job), parts,
                                          name="gamao-export")
        else:
            results = run_local(job, parts, jobs or os.cpu_count() or 1)
        if show:
            bar = click.progressbar(length=inputs, label=_("Exporting"), file=sys.stderr)
        else:
            bar = None
        for r, p in zip(results, parts):
            if r.output_error:
                from gamao_cli.errors import OutputError
                raise OutputError(_("{error}; the earlier export (if any) was left as it "
                                    "was").format(error=r.output_error))
            for d in r.diagnostics:
                click.echo(("\n" if bar is not None else "") + d.format_text(), err=True)
            for key in totals:
                totals[key] += getattr(r, key)
            if r.unreadable:
                status.unreadable()
            if r.internal_error:
                status.internal_error()
            if bar is not None:
                bar.update(len(p.items))
        if bar is not None:
            bar.render_finish()
        staging.commit()
    finally:
        if hasattr(results, "close"):   # the worker processes end before their folder goes
            results.close()
        staging.discard()
        if client is not None:
            from . import cluster
            cluster.close(client)
    for left in staging.leftovers:
        click.echo(_("{path}: warning: the earlier export's folder could not be removed; the new "
                     "tables are in place").format(path=left), err=True)
    t = totals
    line = _("{files}, {matches}, {games}, {actions} -> {out} ({to}, {parts} a table); in the "
             "records: {errors}, {warnings}").format(
        files=ngettext("{n} file", "{n} files", t["files"]).format(n=number(t["files"])),
        matches=ngettext("{n} match", "{n} matches", t["matches"]).format(n=number(t["matches"])),
        games=ngettext("{n} game", "{n} games", t["games"]).format(n=number(t["games"])),
        actions=ngettext("{n} action", "{n} actions", t["actions"]).format(
            n=number(t["actions"])),
        out=out, to=to,
        parts=ngettext("{n} part", "{n} parts", len(parts)).format(n=number(len(parts))),
        errors=ngettext("{n} error", "{n} errors", t["errors"]).format(n=number(t["errors"])),
        warnings=ngettext("{n} warning", "{n} warnings", t["warnings"]).format(
            n=number(t["warnings"])))
    if t["unreadable"] or problems:
        unread = t["unreadable"] + len(problems)
        line += " " + ngettext("({n} file not read)", "({n} files not read)", unread).format(
            n=number(unread))
        status.unreadable()
    click.echo(line, err=True)
    sys.exit(status.code)
