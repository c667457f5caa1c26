"""Finding the input files of a command, and running over many of them
(in worker processes when that pays)."""
from __future__ import annotations

import fnmatch
import os
import sys
from typing import Callable, Iterable, Iterator, TypeVar

import click

from gamao_cli import formats
from gamao_cli.errors import WorkerDied
from gamao_cli.i18n import InLanguage, _

T = TypeVar("T")

PROGRESS_MIN_FILES = 20


def default_endings() -> tuple[str, ...]:
    """The file endings folder scans take (from the format registry)."""
    return formats.file_endings()


def iter_input_files(paths: Iterable[str], globs: tuple[str, ...] = ()) -> Iterator[str]:
    """Expand folders recursively (following links, each real folder once),
    taking the files whose ending a format reads and archives (or the files
    that match ``globs``); an archive (known by its first bytes: ``.zip``,
    ``.tar``, ``.tar.gz``, ``.gz``) is expanded to its members, named
    ``archive.zip!member.mat`` (:mod:`gamao_cli.formats.members`). An
    archive that cannot be listed or holds no record is given as itself:
    reading it says why. The files that make one match together (GNU
    Backgammon's text export, one file a game) come as one path
    (:func:`gamao_cli.formats.group_paths`)."""
    for p in formats.group_paths(list(_iter_paths(paths, globs))):
        yield from _members_or_file(p, globs)


def _members_or_file(path: str, globs: tuple[str, ...]) -> Iterator[str]:
    from gamao_cli.errors import InputError
    from gamao_cli.formats import members
    if path == "-" or not os.path.isfile(path):
        yield path
        return
    kind = members.kind_of(path)
    if kind is None:
        yield path
        return
    try:
        names = members.list_names(path, kind, globs)
    except InputError:
        names = []
    yield from names or [path]


def _iter_paths(paths: Iterable[str], globs: tuple[str, ...]) -> Iterator[str]:
    from gamao_cli.formats import archives
    endings = default_endings()
    seen_dirs: set[str] = set()
    for p in paths:
        if p == "-" or not os.path.isdir(p):
            yield p
            continue
        for root, dirs, files in os.walk(p, followlinks=True):
            real = os.path.realpath(root)
            if real in seen_dirs:
                dirs[:] = []
                continue
            seen_dirs.add(real)
            dirs.sort()
            for name in sorted(files):
                if name.startswith("."):
                    continue
                if archives.is_archive_name(name):
                    pass   # its members are taken as --glob (or the endings) says
                elif globs:
                    if not any(fnmatch.fnmatch(name, g) for g in globs):
                        continue
                elif not name.lower().endswith(endings):
                    continue
                yield os.path.join(root, name)


def _size(name: str, counted: set[str]) -> int:
    """The bytes of an input; a member's: its archive's, counted once."""
    try:
        return os.path.getsize(name)
    except OSError:
        pass
    from gamao_cli.formats import members
    where = members.split(name)
    if where is None or where[0] in counted:
        return 0
    counted.add(where[0])
    try:
        return os.path.getsize(where[0])
    except OSError:
        return 0


def iter_files(func: Callable[[str], T], files: list[str], jobs: int | None,
               label: str | None = None, pool_min_bytes: int = 256 * 1024,
               progress: bool = True) -> Iterator[T]:
    """Apply ``func`` to each file and give the results in input order as they
    come, in worker processes when there are many files and they hold enough
    to be worth starting the workers (``pool_min_bytes`` in all: starting
    them costs about what checking 100 kB does). The workers speak the
    caller's language. ``label``: the progress bar's (default "Checking");
    ``progress=False``: no bar (for a caller that writes to standard error
    as the results come)."""
    if label is None:
        label = _("Checking")
    jobs = jobs or os.cpu_count() or 1
    show = progress and sys.stderr.isatty() and len(files) >= PROGRESS_MIN_FILES
    worth = False
    if jobs > 1 and len(files) >= 4 and "-" not in files:
        size = 0
        counted: set[str] = set()
        for f in files:
            size += _size(f, counted)
            if size >= pool_min_bytes:
                worth = True
                break
    if not worth:
        from gamao_cli.worker_pool import in_order
        it: Iterable[T] = in_order(func)(map(func, files))
        pool = None
    else:
        from gamao_cli.formats import members
        from gamao_cli.worker_pool import Each, Quietly, new_pool, watched
        members.forget()   # a forked worker must not share an open archive's file offset
        if sys.platform != "win32":
            # forked workers inherit the parser built here rather than each
            # building its own
            from gamao_cli.formats.mat.reader import _parser
            _parser()
        pool = new_pool(jobs)
        size = max(1, min(32, len(files) // (jobs * 8) or 1))
        chunks = [files[i:i + size] for i in range(0, len(files), size)]
        it = (result for chunk in watched(pool, pool.imap(Quietly(InLanguage(Each(func))), chunks))
              for result in chunk)
    try:
        if show:
            with click.progressbar(it, length=len(files), label=label, file=sys.stderr) as bar:
                yield from bar
        else:
            yield from it
    except BaseException as exc:   # Ctrl-C, or the caller stopped: the workers stop too
        if pool is not None:
            if not isinstance(exc, WorkerDied):   # (a dead worker's pool is abandoned)
                pool.terminate()
                pool.join()
            pool = None
        raise
    finally:
        if pool is not None:
            pool.close()
            pool.join()


def run_files(func: Callable[[str], T], files: list[str], jobs: int | None,
              label: str | None = None, pool_min_bytes: int = 256 * 1024) -> list[T]:
    """:func:`iter_files`, all the results in a list."""
    return list(iter_files(func, files, jobs, label, pool_min_bytes))
