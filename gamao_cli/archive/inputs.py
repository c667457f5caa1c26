"""Reading an archive's inputs for ``gamao dedupe`` and ``gamao select``:
the partitions of ``gamao export`` (:func:`gamao_cli.tables.export.plan`:
files, folders, zip, tar and gz archives, URLs), each read by one task
(a worker process, or a task on a Dask cluster) that gives back only small
summaries; and finding an input again afterwards, to write the copies a
command keeps.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from gamao_cli import formats
from gamao_cli.errors import InputError
from gamao_cli.formats import archives
from gamao_cli.replay.diagnostics import Diagnostic
from gamao_cli.tables import storage
from gamao_cli.tables.export import Job, Partition, iter_sources, plan

from .dedupe import Where

__all__ = ["Task", "ScanResult", "plan", "scan_partition", "map_partitions", "read_inputs"]


@dataclass(frozen=True)
class Task:
    """What every task needs: which archive members to take, and the
    client's working folder (relative paths are the client's)."""

    globs: tuple[str, ...] = ()
    cwd: str = ""

    def job(self) -> Job:
        return Job(out="", globs=self.globs, cwd=self.cwd)


@dataclass
class ScanResult:
    """What a task sends back: per match what ``each`` kept of it (in
    input order), counts, and the diagnostics of inputs it could not read."""

    index: int
    kept: list[Any] = field(default_factory=list)
    files: int = 0
    matches: int = 0
    unreadable: int = 0
    internal_error: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)


def where_of(label: str, part: Partition) -> Where:
    """Where the input ``label`` of ``part`` is (a file, or a member)."""
    for item in part.items:
        if item.kind == "file":
            if item.path == label:
                return Where(item.path)
        elif label.startswith(item.path + "!"):   # archive.zip!member.mat
            return Where(item.path, item.kind, label[len(item.path) + 1:])
    return Where(label)


def scan_partition(each: Callable[..., Any], task: Task, part: Partition) -> ScanResult:
    """Read every match of ``part``: ``each(match, label=..., index=...,
    fmt=..., where=...)`` gives what to keep of it (None: nothing); each
    thing kept that has an ``alone`` attribute learns whether its match is
    the only one of its input. Never raises for bad input."""
    from gamao_cli.replay.check import input_error_diagnostic, internal_error_diagnostic
    result = ScanResult(part.index)
    for label, _key, source, problem in iter_sources(part.items, task.job()):
        if problem is not None and problem.key == "GM011":   # a member's name escaped: read
            continue
        result.files += 1
        if problem is not None:
            result.unreadable += 1
            result.diagnostics.append(input_error_diagnostic(problem))
            continue
        where = where_of(label, part)
        kept: list[Any] = []
        index = 0
        stage = "reading"
        try:
            fmt = formats.detect(source.head()).name
            for match in formats.read_source(source):
                stage = "checking"
                got = each(match, label=label, index=index, fmt=fmt, where=where)
                if got is not None:
                    kept.append(got)
                index += 1
                stage = "reading"
        except InputError as exc:
            result.unreadable += 1
            result.diagnostics.append(input_error_diagnostic(exc))
        except (KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except Exception as exc:  # a bug in gamao: say so, go on with the next input
            if os.environ.get("GAMAO_DEBUG") == "1":
                raise
            result.unreadable += 1
            result.internal_error = True
            result.diagnostics.append(internal_error_diagnostic(exc, label, stage))
        for k in kept:
            if hasattr(k, "alone"):
                k.alone = index == 1
        result.matches += index
        result.kept.extend(kept)
    return result


def _call(args: tuple) -> ScanResult:
    func, part = args
    return func(part)


def map_partitions(func: Callable[[Partition], ScanResult], parts: list[Partition],
                   jobs: int = 1) -> Iterator[ScanResult]:
    """``func(part)`` for each partition, results in order, in ``jobs``
    worker processes (the workers speak the caller's language)."""
    if jobs <= 1 or len(parts) <= 1:
        for p in parts:
            yield func(p)
        return
    from gamao_cli.i18n import InLanguage
    from gamao_cli.worker_pool import Quietly, new_pool, watched
    with new_pool(min(jobs, len(parts))) as pool:   # (its end terminates the workers)
        yield from watched(pool, pool.imap(Quietly(InLanguage(_call)),
                                           [(func, p) for p in parts], chunksize=1))


def scanner(each: Callable[..., Any], task: Task) -> Callable[[Partition], ScanResult]:
    return functools.partial(scan_partition, each, task)


# -- finding an input again ----------------------------------------------------------

def read_inputs(wheres: Iterable[Where], cwd: str = "") -> Iterator[tuple[Where, Any]]:
    """(where, its :class:`~gamao_cli.formats.Source` or the
    :class:`InputError` of reading it) for each input asked for, each
    archive read once (its members in the archive's order)."""
    job = Job(out="", cwd=cwd)
    by_archive: dict[tuple[str, str], set[str]] = {}
    files: list[Where] = []
    for w in wheres:
        if w.kind == "file":
            files.append(w)
        else:
            by_archive.setdefault((w.path, w.kind), set()).add(w.member or "")
    for w in files:
        if storage.is_url(w.path):
            try:
                yield w, formats.Source.from_bytes(storage.read_bytes(w.path), label=w.path)
            except InputError as exc:
                yield w, exc
        else:
            yield w, formats.Source(job.local(w.path), label=w.path)
    for (path, kind), names in by_archive.items():
        wanted = None if kind == "gz" else sorted(names)
        try:
            for got in archives.iter_members(job.local(path), kind, names=wanted,
                                             opener=storage.opener(path), label=path):
                label = got.path if isinstance(got, InputError) else got.label
                member = (label or "")[len(path) + 1:]
                yield Where(path, kind, member), got
        except InputError as exc:
            for name in sorted(names):
                yield Where(path, kind, name), exc
