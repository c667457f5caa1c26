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


#: The schemes gamao connects by (distributed's default when none is written is tcp).
SCHEMES = ("tcp", "tls")


def _fail(address: str, reason: str) -> ClusterError:
    return ClusterError(_("cannot reach the Dask scheduler at {address}: {reason}").format(
        address=address if address.strip() else repr(address), reason=reason))


def _parse(address: str) -> tuple[str, str, int]:
    """(scheme, host, port) of a scheduler address, or the one-line error."""
    from distributed.comm.addressing import parse_address, parse_host_port
    if not address.strip():
        raise _fail(address, _("the address is empty (an unset variable?); give tcp://HOST:PORT, "
                               "or leave --scheduler out to run here"))
    try:
        scheme, loc = parse_address(address.strip())
        host, port = parse_host_port(loc)
    except (ValueError, TypeError) as exc:
        raise _fail(address, _("not an address of the form tcp://HOST:PORT ({reason})").format(
            reason=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)) from None
    if scheme not in SCHEMES:
        raise _fail(address, _("gamao connects by tcp:// (or tls:// with Dask's TLS "
                               "configuration), not {scheme}://").format(scheme=scheme))
    if not host or not 0 < int(port) < 65536:
        raise _fail(address, _("not an address of the form tcp://HOST:PORT ({reason})").format(
            reason=_("no host") if not host else _("port {port}").format(port=port)))
    return scheme, host, int(port)


def _tls_configured() -> bool:
    try:
        import dask
        tls = dask.config.get("distributed.comm.tls", default={}) or {}
    except Exception:
        return False
    client = tls.get("client") or {}
    return bool(tls.get("ca-file") and (client.get("cert") or client.get("key")))


def _probe(address: str, host: str, port: int, deadline: float, timeout: float,
           handshake: bool) -> None:
    """Connect by TCP and, for ``tcp://``, read the handshake a Dask
    scheduler sends unasked (a length-prefixed msgpack message naming its
    pickle protocol), all before ``deadline``: whatever else listens there
    (a web server, a silent listener, junk) is found out without waiting
    longer and without handing its bytes to distributed."""
    import socket
    import time

    def left() -> float:
        rest = deadline - time.monotonic()
        if rest <= 0:
            raise socket.timeout()
        return rest

    try:
        sock = socket.create_connection((host, port), timeout=left())
    except socket.timeout:
        raise _fail(address, _("no connection after {seconds} s").format(
            seconds=f"{timeout:g}")) from None
    except OSError as exc:
        from gamao_cli.formats.textio import os_reason
        raise _fail(address, os_reason(exc)) from None
    try:
        if not handshake:
            return

        def read(n: int) -> bytes:
            got = b""
            while len(got) < n:
                sock.settimeout(left())
                chunk = sock.recv(n - len(got))
                if not chunk:
                    break
                got += chunk
            return got
        try:
            head = read(8)
            size = int.from_bytes(head, "little") if len(head) == 8 else 0
            body = read(size) if 16 <= size <= 1 << 16 else b""
        except socket.timeout:
            raise _fail(address, _("something listens there but sends no Dask handshake "
                                   "within {seconds} s (not a Dask scheduler?)").format(
                seconds=f"{timeout:g}")) from None
        except OSError as exc:
            from gamao_cli.formats.textio import os_reason
            raise _fail(address, os_reason(exc)) from None
        if b"pickle-protocol" not in body:
            raise _fail(address, _("what answers there does not speak Dask's protocol (not a "
                                   "Dask scheduler?)"))
    finally:
        sock.close()


def connect(address: str, timeout: float | None = None):
    """A ``distributed.Client`` connected to the scheduler at ``address``.

    One deadline (``timeout`` seconds, :data:`CONNECT_TIMEOUT` by default)
    bounds the connection and the handshake whatever listens there; every
    failure (an address that is empty, malformed or of another scheme,
    ``tls://`` without Dask's TLS configuration, nothing or something else
    listening) is one :class:`ClusterError` line, and no half-made client
    is left to complain when the program ends."""
    import os
    import time
    if timeout is None:
        try:
            timeout = float(os.environ.get("GAMAO_SCHEDULER_TIMEOUT", CONNECT_TIMEOUT))
        except ValueError:
            timeout = CONNECT_TIMEOUT
    if not timeout > 0:
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
    deadline = time.monotonic() + timeout
    scheme, host, port = _parse(address)
    if scheme == "tls" and not _tls_configured():
        raise _fail(address, _("tls:// needs certificates in Dask's configuration "
                               "(distributed.comm.tls.ca-file and .client.cert)"))
    _probe(address, host, port, deadline, timeout, handshake=scheme == "tcp")
    rest = max(1.0, deadline - time.monotonic())
    try:
        return Client(address.strip(), timeout=rest, set_as_default=False)
    except Exception as exc:  # whatever distributed raises on the way: one line
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        del exc
        _collect_quietly()
        raise ClusterError(_("cannot reach the Dask scheduler at {address} (after {seconds} s): "
                             "{reason}").format(address=address, seconds=f"{timeout:g}",
                                                reason=reason)) from None


def _collect_quietly() -> None:
    """Collect a client that failed half-way now, with its complaint
    ("Exception ignored in Client.__del__") silenced, rather than when the
    program ends."""
    import gc
    import sys
    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: None
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook


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
    try:
        for i in range(len(items)):
            submit_upto(i + window)
            fut = futures[i]
            try:
                result = fut.result()
            except Exception as exc:
                raise ClusterError(_("a task on the Dask cluster failed ({error}); is the same "
                                     "gamao installed on every worker, and do the workers reach "
                                     "the inputs and the output?").format(
                    error=f"{type(exc).__name__}: {exc}")) from None
            futures[i] = None  # let the client forget it
            yield result
    finally:   # a failure, or the caller stopping early: no task left running
        for f in futures:
            if f is not None:
                f.cancel()


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
