"""Where ``gamao export`` reads and writes: local paths, or ``fsspec`` URLs
(``s3://bucket/records/``, ``gs://...``, ``file:///...``) for storage that
every worker of a cluster reaches. A URL needs ``fsspec`` (installed with
``gamao[dask]``) and the package of its protocol (``s3fs`` for ``s3://``).

>>> is_url("s3://bucket/x.mat"), is_url("/tmp/x.mat"), is_url("C:/x.mat")
(True, False, False)
"""
from __future__ import annotations

import contextlib
import os
import re
import uuid
from typing import IO, Callable, Iterator

from gamao_cli.errors import InputError, OutputError
from gamao_cli.i18n import _

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")


def is_url(path: str) -> bool:
    return bool(_URL.match(path))


def _fsspec():
    try:
        import fsspec
    except ImportError:
        raise InputError(path="", message=_("reading or writing URLs needs fsspec: pip install "
                                            "fsspec (and s3fs for s3://; in a checkout of gamao: "
                                            "pip install '.[dask]')")) from None
    return fsspec


def url_fs(url: str):
    """(file system, path inside it) of a URL."""
    fsspec = _fsspec()
    try:
        return fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as exc:
        raise InputError(path=url, message=_("cannot open this URL: {reason}").format(
            reason=exc)) from None


def opener(path: str) -> Callable[[], IO[bytes]] | None:
    """A function that opens ``path`` for reading in binary (None: a local
    file, opened as usual)."""
    if not is_url(path):
        return None
    fs, inner = url_fs(path)
    return lambda: fs.open(inner, "rb")


def read_bytes(path: str) -> bytes:
    fs, inner = url_fs(path)
    try:
        return fs.cat_file(inner)
    except (OSError, ValueError) as exc:
        raise InputError(path=path, message=_("cannot read: {reason}").format(reason=exc)) \
            from None


def size(path: str) -> int:
    try:
        if is_url(path):
            fs, inner = url_fs(path)
            return int(fs.size(inner) or 0)
        return os.path.getsize(path)
    except (OSError, ValueError, InputError):
        return 0


def list_url(url: str) -> tuple[bool, list[str]]:
    """(is a folder, its files as URLs, sorted) for a URL; a file: (False, [url])."""
    fs, inner = url_fs(url)
    try:
        if not fs.isdir(inner):
            return False, [url]
        files = sorted(fs.find(inner))
    except (OSError, ValueError) as exc:
        raise InputError(path=url, message=_("cannot list: {reason}").format(reason=exc)) \
            from None
    return True, [fs.unstrip_protocol(f) for f in files]


class Output:
    """An output folder, local or a URL: part files are written whole or not
    at all (locally: a temporary name, then a rename)."""

    def __init__(self, root: str):
        self.root = root.rstrip("/") if is_url(root) else root
        self.remote = is_url(root)
        if self.remote:
            self.fs, self.inner = url_fs(root)

    def join(self, *parts: str) -> str:
        if self.remote:
            return "/".join([self.root, *parts])
        return os.path.join(self.root, *parts)

    def makedirs(self, *parts: str) -> None:
        try:
            if self.remote:
                self.fs.makedirs("/".join([self.inner.rstrip("/"), *parts]), exist_ok=True)
            else:
                os.makedirs(self.join(*parts), exist_ok=True)
        except OSError as exc:
            raise OutputError(_("{path}: cannot create the folder: {reason}").format(
                path=self.join(*parts), reason=exc)) from None

    def list(self, folder: str) -> list[str]:
        """The names of the files in ``folder``."""
        try:
            if self.remote:
                path = "/".join([self.inner.rstrip("/"), folder])
                if not self.fs.isdir(path):
                    return []
                return sorted(os.path.basename(p.rstrip("/")) for p in self.fs.ls(path, detail=False))
            path = self.join(folder)
            return sorted(os.listdir(path)) if os.path.isdir(path) else []
        except OSError as exc:
            raise OutputError(_("{path}: cannot list: {reason}").format(
                path=self.join(folder), reason=exc)) from None

    def remove(self, folder: str, name: str) -> None:
        try:
            if self.remote:
                self.fs.rm("/".join([self.inner.rstrip("/"), folder, name]))
            else:
                os.remove(self.join(folder, name))
        except OSError as exc:
            raise OutputError(_("{path}: cannot remove: {reason}").format(
                path=self.join(folder, name), reason=exc)) from None

    @contextlib.contextmanager
    def open(self, folder: str, name: str) -> Iterator[IO[bytes]]:
        """A binary file to write ``folder/name`` into; it appears under its
        name only when the block ends without an exception."""
        if self.remote:
            path = "/".join([self.inner.rstrip("/"), folder, name])
            with self.fs.open(path, "wb") as fh:
                yield fh
            return
        target = self.join(folder, name)
        # made as open() makes files (mode 0666 less the umask), not mkstemp's 0600
        tmp = self.join(folder, f".{name}.{uuid.uuid4().hex[:12]}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(fd, "wb") as fh:
                yield fh
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(tmp)
            raise
