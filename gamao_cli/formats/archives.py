"""Archives of match records: ``.zip``, ``.tar`` (also compressed:
``.tar.gz``/``.tgz``, ``.tar.bz2``, ``.tar.xz``) and single ``.gz`` files,
read member by member without unpacking anything to disk.

Each member becomes a :class:`~gamao_cli.formats.base.Source` in memory,
labelled ``archive.zip:member.mat`` (the label diagnostics and tables name
it by), and is read through the format registry
(:func:`gamao_cli.formats.read_source`) like any file: the format is found
from the member's first bytes. Only one member's bytes are in memory at a
time; a member larger than :data:`MAX_MEMBER_BYTES` is skipped (GM009), and
a compressed tar is inflated no further than :data:`TAR_INFLATE_BUDGET`.

An archive is recognised by its first bytes (``PK``, gzip's ``1f 8b``,
``ustar`` at byte 257), not by its name. Which members are taken: those whose
name ends as the folder scan's files do (:func:`gamao_cli.formats.file_endings`),
or matches one of ``globs``; folders, links and hidden files (a name or
folder starting with ``.``, ``__MACOSX/``) are skipped. A member whose name
leads out of the archive (``../x.mat``, ``/x.mat``, ``C:\\x.mat``:
:func:`name_problem`) is listed and then given as its GM010 error, not
read: never silently dropped. An archive inside an
archive is not opened.

>>> import io, zipfile
>>> buf = io.BytesIO()
>>> with zipfile.ZipFile(buf, "w") as z:
...     z.writestr("a/m1.mat", " 1 point match\\n")
...     z.writestr("README", "not a record")
>>> data = buf.getvalue()
>>> kind_of(data[:512])
'zip'
>>> [(m.name, m.size) for m in list_members("x.zip", "zip", opener=lambda: io.BytesIO(data))]
[('a/m1.mat', 15)]
>>> [s.label for s in iter_sources("x.zip", "zip", opener=lambda: io.BytesIO(data))]
['x.zip:a/m1.mat']
"""
from __future__ import annotations

import fnmatch
import io
import os
import posixpath
import re
import zlib
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Callable, Iterable, Iterator

if TYPE_CHECKING:
    import tarfile

from gamao_cli.errors import InputError, OverBudget

from .base import Source

#: The name endings of archives a folder scan takes (``.gz`` only after a
#: record's ending: ``match.mat.gz``).
ARCHIVE_ENDINGS = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")

#: A member bigger than this (uncompressed) is skipped (GM009), not read
#: into memory: its stated size is checked first, and reading it stops one
#: byte past the budget whatever its header states.
MAX_MEMBER_BYTES = 64 << 20

#: A compressed tar is inflated to at most this many bytes in all (GM009
#: beyond: what follows is not read); skipping a member of a compressed tar
#: inflates it too. A plain tar or a zip has no such bound: skipping costs
#: no inflation there.
TAR_INFLATE_BUDGET = 1 << 30

#: Bytes of an input :func:`kind_of` looks at.
SNIFF_BYTES = 512

try:
    from lzma import LZMAError
except ImportError:   # a Python built without liblzma: no .tar.xz then
    class LZMAError(Exception):  # type: ignore[no-redef]
        pass

# tarfile, zipfile and gzip are imported where an archive is read: a run
# over plain records never needs them (their import is start-up time)


def _stream_errors() -> tuple[type[BaseException], ...]:
    """What a damaged or cut archive stream raises while it is read."""
    import tarfile
    return (tarfile.TarError, EOFError, zlib.error, OSError, LZMAError)

Opener = Callable[[], IO[bytes]]


def kind_of(head: bytes, peek_gzip: bool = True) -> str | None:
    """``"zip"``, ``"tar"`` (plain or compressed), ``"gz"`` (one compressed
    file) or None, from an input's first bytes (at least 512 for a tar).
    For gzip data, the start of the decompressed bytes tells a ``.tar.gz``
    from a ``.gz`` (``peek_gzip``)."""
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if _is_tar_header(head):
        return "tar"
    if head[:3] == b"BZh" or head[:6] == b"\xfd7zXZ\x00":
        inner = _peek_decompressed(head)
        return "tar" if inner is not None and _is_tar_header(inner) else None
    if head[:2] == b"\x1f\x8b":
        if peek_gzip:
            inner = _peek_decompressed(head)
            if inner is not None and _is_tar_header(inner):
                return "tar"
        return "gz"
    return None


def _is_tar_header(block: bytes) -> bool:
    return len(block) >= 263 and block[257:262] == b"ustar"


def _peek_decompressed(head: bytes) -> bytes | None:
    """The first decompressed bytes of a gzip, bzip2 or xz stream's start."""
    try:
        if head[:2] == b"\x1f\x8b":
            return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, SNIFF_BYTES)
        if head[:3] == b"BZh":
            import bz2
            return bz2.BZ2Decompressor().decompress(head, SNIFF_BYTES)
        import lzma
        return lzma.LZMADecompressor().decompress(head, SNIFF_BYTES)
    except Exception:  # a cut or damaged stream: not recognised as a tar here
        return None


def kind_of_path(path: str, opener: Opener | None = None) -> str | None:
    """:func:`kind_of` for a file (``opener`` opens it when it is not local)."""
    try:
        with (opener() if opener else open(path, "rb")) as fh:
            head = fh.read(4096)
    except OSError:
        return None
    return kind_of(head)


def is_archive_name(name: str) -> bool:
    """Whether a folder scan takes a file of this name as an archive."""
    low = name.lower()
    if low.endswith(ARCHIVE_ENDINGS):
        return True
    if low.endswith(".gz"):
        from . import file_endings
        return low[:-3].endswith(file_endings())
    return False


@dataclass(frozen=True)
class Member:
    """One member of an archive: its name and uncompressed size."""

    name: str
    size: int


_DRIVE = re.compile(r"[A-Za-z]:")


def name_problem(name: str) -> str | None:
    """Whether a member's name leads out of the archive: ``"up"`` (a
    ``..`` that climbs above it: ``../x.mat``, ``a/../../x.mat``,
    ``..\\x.mat``), ``"absolute"`` (``/x.mat``, ``C:\\x.mat``,
    ``\\\\server\\x.mat``), else None. Such a member is not read
    (GM010): no program unpacking the archive would put it inside.

    >>> [name_problem(n) for n in ("a/b.mat", "../b.mat", "a/../../b.mat", "/b.mat", "a/../b.mat")]
    [None, 'up', 'up', 'absolute', None]
    """
    n = name.replace("\\", "/")
    if n.startswith("/") or _DRIVE.match(n):
        return "absolute"
    depth = 0
    for part in n.split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return "up"
        elif part not in ("", "."):
            depth += 1
    return None


def _refused(member: str, name: str, problem: str) -> InputError:
    return InputError(path=member, key=f"GM010.{problem}", fields={"name": name})


def _taken(name: str, globs: tuple[str, ...]) -> bool:
    # a name that leads out is taken (and then refused, GM010, never silently
    # dropped); its back slashes are folder separators then
    parts = (name.replace("\\", "/") if name_problem(name) else name).split("/")
    if any(p.startswith(".") and p not in (".", "..") or p == "__MACOSX" for p in parts if p):
        return False
    base = parts[-1]
    if not base:
        return False
    if globs:
        return any(fnmatch.fnmatch(base, g) for g in globs)
    from . import file_endings
    return base.lower().endswith(file_endings())


def _broken(label: str, exc: BaseException, what: str = "cannot read the archive") -> InputError:
    reason = str(exc) or type(exc).__name__
    return InputError(path=label, message=f"{what}: {reason}")


def _open(path: str, opener: Opener | None) -> IO[bytes]:
    try:
        return opener() if opener else open(path, "rb")
    except OSError as exc:
        from .textio import os_reason
        raise InputError(path=path, message=f"cannot read: {os_reason(exc)}") from None


def gz_member_name(path: str, fh: IO[bytes] | None = None) -> str:
    """The name of the file inside a ``.gz``: the name gzip stored, else the
    archive's name without ``.gz``."""
    if fh is not None:
        try:
            head = fh.read(1024)
            fh.seek(0)
            if head[:2] == b"\x1f\x8b" and head[3] & 0x08:  # FNAME
                start = 10 + (2 + int.from_bytes(head[10:12], "little") if head[3] & 0x04 else 0)
                end = head.index(b"\x00", start)
                name = head[start:end].decode("latin-1")
                if name:
                    return posixpath.basename(name.replace("\\", "/"))
        except (ValueError, OSError, IndexError):
            pass
    base = posixpath.basename(path.replace("\\", "/"))
    return base[:-3] if base.lower().endswith(".gz") else base


class _Peeked(io.RawIOBase):
    """A stream whose first bytes were read to tell its compression: they
    are given again before the rest."""

    def __init__(self, head: bytes, rest: IO[bytes]):
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        if self.head:
            n = min(len(b), len(self.head))
            b[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.rest.read(len(b))
        b[:len(data)] = data
        return len(data)


def _open_tar(fh: IO[bytes]) -> tuple["tarfile.TarFile", bool]:
    """A tar read as a stream, and whether it was compressed. The
    decompression is gzip's, bzip2's or xz's file object, which inflates
    at most what each read asks for: tarfile's own stream mode inflates a
    whole compressed block at once (16 MB of output for 16 KB of zeros)
    and copies it again for every read, which under the malloc settings of
    a Dask worker (MALLOC_TRIM_THRESHOLD_) cost ten times the CPU."""
    import tarfile
    head = fh.read(6)
    stream: IO[bytes] = io.BufferedReader(_Peeked(head, fh))
    if head[:2] == b"\x1f\x8b":
        import gzip
        stream = gzip.GzipFile(fileobj=stream, mode="rb")
    elif head[:3] == b"BZh":
        import bz2
        stream = bz2.BZ2File(stream)
    elif head[:6] == b"\xfd7zXZ\x00":
        import lzma
        stream = lzma.LZMAFile(stream)
    else:
        return tarfile.open(fileobj=stream, mode="r|"), False
    return tarfile.open(fileobj=stream, mode="r|"), True


def list_members(path: str, kind: str, *, globs: tuple[str, ...] = (),
                 opener: Opener | None = None) -> list[Member]:
    """The members of an archive a scan takes, in archive order. A
    compressed tar is listed by reading it through once."""
    import zipfile
    with _open(path, opener) as fh:
        try:
            if kind == "zip":
                with zipfile.ZipFile(fh) as z:
                    return [Member(i.filename, i.file_size) for i in z.infolist()
                            if not i.is_dir() and _taken(i.filename, globs)]
            if kind == "tar":
                t, compressed = _open_tar(fh)
                with t:
                    found = []
                    for i in t:   # listed up to the inflation budget (reading says the rest)
                        if compressed and i.offset_data + i.size > TAR_INFLATE_BUDGET:
                            break
                        if i.isfile() and _taken(i.name, globs):
                            found.append(Member(i.name, i.size))
                    return found
            if kind == "gz":
                name = gz_member_name(path, fh)
                return [Member(name, -1)]
        except (zipfile.BadZipFile, ValueError) + _stream_errors() as exc:
            raise _broken(path, exc) from None
    raise ValueError(f"not an archive kind: {kind!r}")


def _read_limited(fh: IO[bytes], label: str, limit: int | None = None) -> bytes:
    limit = MAX_MEMBER_BYTES if limit is None else limit
    data = fh.read(limit + 1)
    if len(data) > limit:
        raise _too_big(label, limit)
    return data


def iter_sources(path: str, kind: str, *, names: Iterable[str] | None = None,
                 globs: tuple[str, ...] = (), opener: Opener | None = None,
                 label: str | None = None) -> Iterator[Source]:
    """The members of an archive as in-memory sources, one at a time:
    those named in ``names`` (in the archive's order), else every member a
    scan takes. A damaged archive or member raises
    :class:`~gamao_cli.errors.InputError` naming it."""
    for item in iter_members(path, kind, names=names, globs=globs, opener=opener, label=label):
        if isinstance(item, InputError):
            raise item
        yield item


def iter_members(path: str, kind: str, *, names: Iterable[str] | None = None,
                 globs: tuple[str, ...] = (), opener: Opener | None = None,
                 label: str | None = None) -> Iterator[Source | InputError]:
    """:func:`iter_sources`, but a member that cannot be read is given as
    its :class:`~gamao_cli.errors.InputError` and the next members follow;
    an archive that cannot be read at all raises it."""
    label = label or path
    wanted = None if names is None else set(names)
    fh = _open(path, opener)
    try:
        if kind == "zip":
            yield from _zip_members(fh, label, wanted, globs)
        elif kind == "tar":
            yield from _tar_members(fh, label, wanted, globs)
        elif kind == "gz":
            name = gz_member_name(path, fh)
            member = f"{label}:{name}"
            import gzip
            try:
                with gzip.GzipFile(fileobj=fh, mode="rb") as g:
                    data = _read_limited(g, member)
            except OverBudget as exc:
                yield exc
                return
            except (EOFError, zlib.error, OSError) as exc:
                raise _broken(label, exc) from None
            yield Source.from_bytes(data, label=member)
        else:
            raise ValueError(f"not an archive kind: {kind!r}")
    finally:
        fh.close()


def _too_big(member: str, limit: int | None = None) -> InputError:
    limit = MAX_MEMBER_BYTES if limit is None else limit
    return OverBudget(path=member, key="GM009.member", fields={"budget": limit >> 20})


def _screened(label: str, name: str, size: int, wanted, globs
              ) -> tuple[str | None, InputError | None]:
    """Whether an archive's member is read: (its label, None) when it is;
    (None, None) when the scan does not take it (not asked for, not a
    record's name); (label, the refusal) when its name leads out of the
    archive or it is over the member budget."""
    if (name not in wanted) if wanted is not None else not _taken(name, globs):
        return None, None
    member = f"{label}:{name}"
    problem = name_problem(name)
    if problem is not None:
        return member, _refused(member, name, problem)
    if size > MAX_MEMBER_BYTES:
        return member, _too_big(member)
    return member, None


def _zip_members(fh, label, wanted, globs) -> Iterator[Source | InputError]:
    import zipfile
    try:
        z = zipfile.ZipFile(fh)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise _broken(label, exc) from None
    with z:
        for info in z.infolist():
            if info.is_dir():
                continue
            member, refused = _screened(label, info.filename, info.file_size, wanted, globs)
            if refused is not None:
                yield refused
            if member is None or refused is not None:
                continue
            try:
                with z.open(info) as m:
                    data = _read_limited(m, member)
            except InputError as exc:
                yield exc
                continue
            except (zipfile.BadZipFile, EOFError, zlib.error, OSError, NotImplementedError,
                    RuntimeError) as exc:
                # RuntimeError: an encrypted member; NotImplementedError: an
                # unsupported compression method
                yield _broken(member, exc, "cannot read the member")
                continue
            yield Source.from_bytes(data, label=member)


def _tar_members(fh, label, wanted, globs) -> Iterator[Source | InputError]:
    stream_errors = _stream_errors()
    try:
        t, compressed = _open_tar(fh)
    except stream_errors as exc:
        raise _broken(label, exc) from None
    with t:
        try:
            for info in t:
                # where the member's data ends in the inflated tar: beyond the budget,
                # even skipping it would inflate too much
                if compressed and info.offset_data + info.size > TAR_INFLATE_BUDGET:
                    yield OverBudget(path=label, key="GM009.archive",
                                     fields={"budget": TAR_INFLATE_BUDGET >> 20})
                    return
                if not info.isfile():
                    continue
                member, refused = _screened(label, info.name, info.size, wanted, globs)
                if refused is not None:
                    yield refused
                if member is None or refused is not None:
                    continue
                m = t.extractfile(info)
                data = m.read() if m is not None else b""
                yield Source.from_bytes(data, label=member)
        except stream_errors as exc:
            # a tar is read as a stream: nothing after the damage can be reached
            raise _broken(label, exc) from None


def local_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
