"""Running work on a Dask cluster (``--scheduler tcp://HOST:PORT``), for
``gamao export`` and ``gamao validate``: connecting (a scheduler that cannot
be reached is a one-line error, exit 2), and mapping a function over work
items with results in input order, with a bounded number of tasks in flight
(the client never holds more than a window of results).

The workers need gamao installed (the same version) and must reach the
inputs and the output folder under the same paths: a shared file system,
or ``fsspec`` URLs (``s3://...``).
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from gamao_cli.errors import GamaoError
from gamao_cli.i18n import _

T = TypeVar("T")

#: Seconds to wait for the scheduler before giving up (the environment
#: variable GAMAO_SCHEDULER_TIMEOUT sets another).
CONNECT_TIMEOUT = 10.0


class ClusterError(GamaoError):
    """The Dask cluster could not be reached or could not run the work."""


def connect(address: str, timeout: float | None = None):
    """A ``distributed.Client`` connected to the scheduler at ``address``."""
    if timeout is None:
        import os
        try:
            timeout = float(os.environ.get("GAMAO_SCHEDULER_TIMEOUT", CONNECT_TIMEOUT))
        except ValueError:
            timeout = CONNECT_TIMEOUT
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(_("--scheduler needs dask.distributed: pip install "
                             "'dask[distributed]' (in a checkout of gamao: pip install "
                             "'.[dask]')")) \
            from None
    import logging
    # distributed logs every failed attempt; the one-line error says it all
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ClusterError(_("cannot reach the Dask scheduler at {address} (after {seconds} s): "
                             "{reason}").format(address=address, seconds=f"{timeout:g}",
                                                reason=reason)) from None


def _workers(client) -> int:
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:
        return 1


def ordered_map(client, func: Callable[..., T], items: Sequence[Any], *args: Any,
                window: int | None = None, name: str = "gamao") -> Iterator[T]:
    """``func(item, *args)`` for each item on the cluster, results in input
    order as they come; at most ``window`` tasks (default: four per
    worker) are submitted ahead of the result being waited for."""
    import uuid

    from gamao_cli.i18n import InLanguage
    task = InLanguage(func)   # the workers speak the caller's language
    window = window or 4 * _workers(client)
    run = uuid.uuid4().hex[:8]
    futures: list = []
    submitted = 0

    def submit_upto(n: int) -> None:
        nonlocal submitted
        while submitted < min(n, len(items)):
            futures.append(client.submit(task, items[submitted], *args, pure=False,
                                         key=f"{name}-{run}-{submitted}"))
            submitted += 1

    submit_upto(window)
    for i in range(len(items)):
        submit_upto(i + window)
        fut = futures[i]
        try:
            result = fut.result()
        except Exception as exc:
            for f in futures[i:]:
                f.cancel()
            raise ClusterError(_("a task on the Dask cluster failed ({error}); is the same gamao "
                                 "installed on every worker, and do the workers reach the "
                                 "inputs and the output?").format(
                error=f"{type(exc).__name__}: {exc}")) from None
        futures[i] = None  # let the client forget it
        yield result


def _apply_all(func: Callable[[Any], T], chunk: Sequence[Any]) -> list[T]:
    return [func(x) for x in chunk]


def map_in_chunks(client, func: Callable[[Any], T], items: Sequence[Any],
                  chunk: int = 32) -> Iterator[T]:
    """``func(item)`` for each item, ``chunk`` items a task, in input order."""
    chunks = [list(items[i:i + chunk]) for i in range(0, len(items), chunk)]
    for results in ordered_map(client, functools.partial(_apply_all, func), chunks):
        yield from results


def close(client) -> None:
    try:
        client.close()
    except Exception:  # closing a client whose scheduler went away
        pass


def iter_on_cluster(address: str, func: Callable[[Any], T], items: Iterable[Any],
                    chunk: int = 32) -> Iterator[T]:
    """Connect, map ``func`` over ``items`` in chunks, close."""
    items = list(items)
    client = connect(address)
    try:
        yield from map_in_chunks(client, func, items, chunk)
    finally:
        close(client)
