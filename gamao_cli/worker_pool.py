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
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from typing import Any, Callable

#: whether this worker was asked to stop (SIGTERM)
_stopping = False


def new_pool(processes: int) -> Any:
    """A pool of ``processes`` workers (forked where the system can fork,
    so that they inherit what this process has built), each ignoring
    Ctrl-C and stopping cleanly on SIGTERM."""
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
