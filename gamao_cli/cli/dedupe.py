"""``gamao dedupe``: find every copy of each match, whatever its format
(the work is in :mod:`gamao_cli.archive`)."""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Iterator

import click

from gamao_cli.i18n import _, ngettext, number

from . import exit_codes
from .language import Command
from .options import fail_usage, glob_option, jobs_option, paths_argument

scheduler_option = click.option(
    "--scheduler", metavar="ADDRESS",
    help="Read the inputs on the Dask cluster of this scheduler (tcp://HOST:PORT; needs "
         "gamao[dask]); the workers must reach the inputs.")


class Scan:
    """What ``each`` keeps of every match of ``paths``, in input order (by
    iterating), read in partitions by ``jobs`` worker processes or on a
    Dask cluster; the inputs that cannot be read are reported on standard
    error (and in ``status``); ``files`` and ``matches`` count what was
    read. Shared by ``dedupe`` and ``select``."""

    def __init__(self, paths: tuple[str, ...], globs: tuple[str, ...], each: Callable[..., Any],
                 jobs: int | None, scheduler: str | None, status: exit_codes.Status,
                 label: str):
        from gamao_cli.archive.inputs import plan
        if "-" in paths:
            fail_usage(_("this command reads files, folders, archives or URLs, not standard "
                         "input"))
        self.parts, problems = plan(paths, globs)
        for d in problems:
            click.echo(d.format_text(), err=True)
            status.unreadable()
        if not self.parts and not problems:
            fail_usage(_("no match files found in {paths}").format(paths=", ".join(paths)))
        self.globs, self.each, self.jobs, self.scheduler = globs, each, jobs, scheduler
        self.status, self.label = status, label
        self.files = len(problems)
        self.matches = 0

    def __iter__(self) -> Iterator[Any]:
        from gamao_cli.archive.inputs import Task, map_partitions, scanner
        parts, status = self.parts, self.status
        if not parts:
            return
        func = scanner(self.each, Task(globs=self.globs, cwd=os.getcwd()))
        client = None
        if self.scheduler:
            from . import cluster
            client = cluster.connect(self.scheduler)
            results = cluster.ordered_map(client, func, parts, name="gamao-archive")
        else:
            results = map_partitions(func, parts, self.jobs or os.cpu_count() or 1)
        inputs = sum(len(p.items) for p in parts)
        bar = click.progressbar(length=inputs, label=self.label, file=sys.stderr) \
            if sys.stderr.isatty() and inputs >= 20 else None
        try:
            for r, p in zip(results, parts):
                for d in r.diagnostics:
                    click.echo(("\n" if bar is not None else "") + d.format_text(), err=True)
                if r.unreadable:
                    status.unreadable()
                if r.internal_error:
                    status.internal_error()
                self.files += r.files
                self.matches += r.matches
                yield from r.kept
                if bar is not None:
                    bar.update(len(p.items))
            if bar is not None:
                bar.render_finish()
        finally:
            if client is not None:
                from . import cluster
                cluster.close(client)


def _copy_line(c) -> str:
    where = c.label if c.alone else _("{path} (match {number} of the file)").format(
        path=c.label, number=c.index + 1)
    facts = [c.fmt, ngettext("{n} game", "{n} games", len(c.games)).format(n=len(c.games))]
    if c.complete:
        facts.append(_("complete"))
    if c.analysed:
        depth = f" ({', '.join(c.depths)})" if c.depths else ""
        facts.append(ngettext("analysis of {n} action", "analysis of {n} actions",
                              c.analysed).format(n=number(c.analysed)) + depth)
    line = ("  * " if c.best else "    ") + f"{where}: " + ", ".join(facts)
    words = [w for w in map(_difference_words, c.differences) if w]
    if words:
        line += "; " + "; ".join(words)
    return line


def _difference_words(d: dict[str, Any]) -> str:
    kind = d["kind"]
    if kind == "fewer-games":
        text = _("{games} of its {of} games").format(games=d["games"], of=d["of"])
        if d["from_game"] > 1:
            text += " " + _("(from game {number})").format(number=d["from_game"])
        return text
    if kind == "game-cut":
        return _("game {number} cut ({rolls} of {of} rolls)").format(
            number=d["game"], rolls=d["rolls"], of=d["of"])
    if kind == "no-results":
        return ngettext("no result in game {games}", "no result in games {games}",
                        len(d["games"])).format(games=", ".join(map(str, d["games"])))
    if kind == "sides-swapped":
        return _("the sides in the other columns")
    if kind == "other-names":
        return _("other names: {names}").format(names=" - ".join(d["names"]))
    if kind == "names-spelt":
        return _("names written {names}").format(names=" - ".join(d["names"]))
    if kind == "less-analysis":
        return _("less analysis ({analysed} of {of} actions)").format(
            analysed=number(d["analysed"]), of=number(d["of"]))
    return ""


def _group_head(n: int, group) -> str:
    best = next(c for c in group.copies if c.best)
    length = (_("money session") if best.length == 0 else
              ngettext("{n}-point match", "{n}-point match", best.length).format(n=best.length))
    return _("match {number}: {players}, {length}, {copies}").format(
        number=n, players=" - ".join(best.names), length=length,
        copies=ngettext("{n} copy", "{n} copies", len(group.copies)).format(
            n=len(group.copies)))


def out_folder(out_dir: str, force: bool, option: str):
    """The output folder, created (a usage error when it cannot be, before
    anything is read)."""
    from gamao_cli.archive.output import Folder
    from gamao_cli.errors import OutputError
    folder = Folder(out_dir, force)
    try:
        folder.make()
    except OutputError as exc:
        fail_usage(_("{option} {error}; nothing was written").format(option=option, error=exc))
    return folder


def _keep(groups, keep: str, folder, status: exit_codes.Status) -> int:
    """Write one copy of each group into ``folder``; the number written."""
    from .chosen import write_chosen
    chosen = [next(c for c in g.copies if c.best) if keep == "best" else g.copies[0]
              for g in groups]
    return write_chosen(chosen, folder, None, status)


@click.command(cls=Command, epilog=exit_codes.epilog_for("dedupe"))
@paths_argument
@click.option("--format", "-f", "fmt", type=click.Choice(("text", "json")), default="text",
              show_default=True, help="text for people; json: {\"groups\": [{\"fingerprint\", "
                                      "\"copies\": [...]}]} for programs.")
@click.option("--all", "show_all", is_flag=True,
              help="List every match, also those with one copy.")
@click.option("--keep", type=click.Choice(("best", "first")), default=None,
              help="With --out-dir: the copy of each match to write: best (the most complete, "
                   "then the most analysed) or first (in input order).")
@click.option("--out-dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write one copy of each match into DIR (created if needed): the input's "
                   "bytes when it holds only that match.")
@click.option("--force", is_flag=True, help="Replace existing files in DIR.")
@jobs_option
@scheduler_option
@glob_option
def dedupe(paths: tuple[str, ...], fmt: str, show_all: bool, keep: str | None,
           out_dir: str | None, force: bool, jobs: int | None, scheduler: str | None,
           globs: tuple[str, ...]) -> None:
    """Find the copies of each match in PATHS, whatever their format (.mat,
    .sgf, .xg, JSON...), the program that wrote them, the column each player
    is in or how the names are spelt; a copy that holds only part of the
    match (cut short, or started in the middle) is a copy too. For each
    match with several copies: which copy holds everything the others hold
    (complete), which carry analysis, and how the others differ. The best
    copy is marked *.

    PATHS are files, folders (searched recursively for records and for
    .zip, .tar, .tar.gz archives, read without unpacking them), .gz files,
    or fsspec URLs. How copies are recognised: docs/dedupe.md.

    \b
    Examples:
      gamao dedupe archive/
      gamao dedupe --format json records.zip more/ | jq '.groups | length'
      gamao dedupe archive/ --keep best --out-dir unique/
      gamao dedupe archive/ --jobs 4
    """
    from gamao_cli.archive.dedupe import group_all, group_json

    if keep is not None and out_dir is None:
        fail_usage(_("--keep says which copy to write: give --out-dir DIR too"))
    status = exit_codes.Status()
    folder = out_folder(out_dir, force, "--out-dir") if out_dir is not None else None
    copies = Scan(paths, globs, _Each(), jobs, scheduler, status, _("Reading"))
    groups = group_all(copies)
    shown = [g for g in groups if show_all or len(g.copies) > 1]
    if fmt == "json":
        click.echo(json.dumps({"groups": [group_json(g) for g in shown]}, indent=2,
                              ensure_ascii=False))
    else:
        for n, g in enumerate(shown, 1):
            click.echo(_group_head(n, g))
            for c in g.copies:
                click.echo(_copy_line(c))
        many = sum(1 for g in groups if len(g.copies) > 1)
        spare = sum(len(g.copies) - 1 for g in groups)
        ncopies = sum(len(g.copies) for g in groups)
        click.echo(_("{copies} in {files}: {matches}, {many} with more than one copy "
                     "({spare} to spare)").format(
            copies=ngettext("{n} copy", "{n} copies", ncopies).format(n=number(ncopies)),
            files=ngettext("{n} file", "{n} files", copies.files).format(n=number(copies.files)),
            matches=ngettext("{n} match", "{n} matches", len(groups)).format(
                n=number(len(groups))),
            many=number(many),
            spare=ngettext("{n} copy", "{n} copies", spare).format(n=number(spare))))
    if folder is not None:
        written = _keep(groups, keep or "best", folder, status)
        click.echo(ngettext("{n} file written to {folder}", "{n} files written to {folder}",
                            written).format(n=number(written), folder=out_dir), err=True)
    sys.exit(status.code)


class _Each:
    """What dedupe keeps of a match (a picklable function for the workers)."""

    def __call__(self, match, *, label, index, fmt, where):
        from gamao_cli.archive.dedupe import copy_of
        return copy_of(match, label, index, fmt, where)
