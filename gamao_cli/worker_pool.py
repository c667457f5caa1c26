"""The pools of worker processes behind ``--jobs`` (validate, convert,
summary, export, dedupe, select), and how they end on Ctrl-C.

A terminal sends Ctrl-C (SIGINT) to the whole process group: the workers
as well as the command. A worker interrupted in the middle of a task died
with a traceback, the pool started another in its place, and the command
waited forever for the lost task's result (``validate --jobs 2``,
``summary`` and ``convert`` hung; ``export`` and ``dedupe`` printed the
workers' tracebacks). So the workers here ignore SIGINT: the interrupt is
the command's, which ends the pool (:meth:`Pool.terminate`, a SIGTERM to
each worker) and exits with 130. A worker that gets SIGTERM stops where it
is by raising ``SystemExit``, so that what it was writing cleans up after
itself (an unfinished output's temporary file is removed), and then exits
without a word (:class:`Quietly`).

A worker that dies in the middle of a run (killed by the system for lack
of memory, or crashed) takes its task with it, and the pool would wait for
that result without end: :func:`watched` sees it gone, the pool is
abandoned (:func:`abandon`) and the command stops with exit code 3.
"""
from __future__ import annotations

import os
import signal
import sys
from typing import Any, Callable, Iterable, Iterator

from gamao_cli.errors import WorkerDied

#: whether this worker was asked to stop (SIGTERM)
_stopping = False

#: how long a wait for the next result goes before the workers are looked at
WATCH_SECONDS = 0.5


def new_pool(processes: int) -> Any:
    """A pool of ``processes`` workers (forked where the system can fork,
    so that they inherit what this process has built), each ignoring
    Ctrl-C and stopping cleanly on SIGTERM."""
    import multiprocessing   # (here: a run of one process, which takes in_order, needs none)
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    return ctx.Pool(processes, initializer=_worker_signals)


def _worker_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _stop)


def _stop(signum: int, frame: Any) -> None:
    global _stopping
    if _stopping:   # (a second one while the first unwinds: let the clean-up finish)
        return
    _stopping = True
    raise SystemExit(1)


class Quietly:
    """``func`` as a pool's task: when the worker is stopping, whatever the
    task raises on its way out (the ``SystemExit`` of the stop, or an error
    of a clean-up it interrupted) ends the worker without a traceback, once
    the task's own clean-up has run. Picklable when ``func`` is."""

    def __init__(self, func: Callable[..., Any]):
        self.func = func

    def __call__(self, *args: Any) -> Any:
        try:
            return self.func(*args)
        except BaseException:
            if _stopping:
                os._exit(1)
            raise

    def __repr__(self) -> str:
        return f"Quietly({self.func!r})"


def in_order(func: Callable[..., Any]) -> Callable[[Iterable[Any]], Iterable[Any]]:
    """What turns ``func``'s results, in order, into what
    :func:`gamao_cli.cli.files.iter_files` (and :class:`Each`) gives:
    ``func.in_order`` when ``func`` has one (a conversion's, whose outputs
    settle while the next is made), else the results as they are."""
    return getattr(func, "in_order", None) or (lambda results: results)


class Each:
    """``func`` applied to each item of a chunk: a pool's task of several
    items (``imap`` with a ``chunksize`` flattens its chunks with a
    generator of its own, which :func:`watched` cannot wait on); the
    results taken as :func:`in_order` says."""

    def __init__(self, func: Callable[[Any], Any]):
        self.func = func

    def __call__(self, chunk: list[Any]) -> list[Any]:
        return list(in_order(self.func)(map(self.func, chunk)))


def watched(pool: Any, results: Iterator[Any]) -> Iterator[Any]:
    """The results of ``pool.imap(...)`` (``results``, with ``chunksize``
    1: see :class:`Each`), in order; raises :class:`WorkerDied`, the pool
    abandoned (:func:`abandon`), when, while a result is awaited, one of
    the workers the pool started with is gone (a pool's worker never ends
    on its own: ``multiprocessing`` puts a new one in a dead one's place,
    and the task that died with it is never done)."""
    import multiprocessing
    started = {p.pid for p in pool._pool}
    while True:
        try:
            yield results.next(timeout=WATCH_SECONDS)
        except StopIteration:
            return
        except multiprocessing.TimeoutError:
            if not started <= {p.pid for p in pool._pool}:
                abandon(pool)   # (so the caller must not terminate nor join it)
                raise WorkerDied() from None


def abandon(pool: Any) -> None:
    """End ``pool`` after one of its workers died (:class:`WorkerDied`),
    without waiting on it: the dead worker may have held a lock of the
    pool's queues, which the pool's own ending (``terminate``, at once or
    when the process exits) would wait for without end. So: no new worker
    in a dead one's place, the pool's ending called off, every worker
    killed (the pool's threads are daemons: they end with the process)."""
    from multiprocessing import pool as _pool
    pool._state = _pool.TERMINATE
    handler = getattr(pool, "_worker_handler", None)
    if handler is not None:
        handler._state = _pool.TERMINATE
    ending = getattr(pool, "_terminate", None)
    if ending is not None:
        ending.cancel()
    for p in list(getattr(pool, "_pool", ())):
        if p.exitcode is None:
            p.kill()
