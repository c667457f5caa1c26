"""An archive's members as inputs of their own: ``archive.zip!member.mat``.

The commands that read records (``validate``, ``convert``, ``summary``,
``position``...) take an archive (``.zip``, ``.tar``, ``.tar.gz``, ``.gz``,
as :mod:`gamao_cli.formats.archives` reads it for ``gamao export``) as the
list of its members, each named ``ARCHIVE!MEMBER`` in their reports (``!``,
as a Java ``jar:`` address joins them: a ``:`` would read as a line number
in ``path:line:col``). Such a name is read by :func:`source_of`, through
the archive module's own functions (its limits hold), one member's bytes in
memory at a time.

A name is a member's only when no file has that name and the part before a
``!`` is a file: a file whose name holds a ``!`` is read as itself.

:func:`open_source`, :func:`read_source`, :func:`iter_path` and
:func:`read_path` are those of the registry (:mod:`gamao_cli.formats`) for
such names too, and refuse an archive read as one record with a message
that names one of its members (GM002) rather than its bytes' (GM003).

Members are asked for in the archive's order (a command goes through its
inputs in order; a worker process through its share of them in order), so
each process keeps one pass over the archive open and goes on from where
the last member it was given lay: the whole archive is read about once a
process, whatever the number of members.
"""
from __future__ import annotations

import dataclasses
import os
import zlib
from typing import TYPE_CHECKING, Iterator

from gamao_cli import formats
from gamao_cli.errors import InputError, NotAMatchFile

from . import archives, textio
from .base import Source

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match

SEPARATOR = "!"


def member_name(archive: str, member: str) -> str:
    """``archive!member``: how reports name a member."""
    return f"{archive}{SEPARATOR}{member}"


def split(name: str) -> tuple[str, str] | None:
    """``(archive, member)`` when ``name`` names an archive's member (no
    file is called ``name``, and it is ``FILE!MEMBER`` for an existing
    file), else None.

    >>> split("no-such-archive.zip!m.mat") is None
    True
    """
    if SEPARATOR not in name or name == "-" or os.path.lexists(name):
        return None
    at = name.find(SEPARATOR)
    while at > 0:
        archive = name[:at]
        if os.path.isfile(archive):
            return archive, name[at + 1:]
        at = name.find(SEPARATOR, at + 1)
    return None


def kind_of_head(head: bytes) -> str | None:
    """The archive kind (``zip``, ``tar``, ``gz``) of an input's first bytes,
    or None. A gzip stream whose start does not inflate is none: its bytes
    are the readers' to name (GM003, with the offset)."""
    kind = archives.kind_of(head, peek_gzip=True)
    if kind == "gz":
        try:
            zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 64)
        except zlib.error:
            return None
    return kind


def kind_of(path: str) -> str | None:
    """The archive kind of a file (``zip``, ``tar``, ``gz``) or None."""
    try:
        head = textio.read_file_head(path, 4096)
    except InputError:
        return None
    return kind_of_head(head)


def list_names(archive: str, kind: str, globs: tuple[str, ...] = ()) -> list[str]:
    """The members a scan takes, as names reports use (raises the archive's
    :class:`InputError` when it cannot be listed)."""
    return [member_name(archive, m.name)
            for m in archives.list_members(archive, kind, globs=globs)]


class _Cursor:
    """One pass over an archive, kept open between members."""

    def __init__(self, archive: str, kind: str, stamp: tuple, names: list[str] | None = None):
        self.archive = archive
        self.kind = kind
        self.stamp = stamp
        self.items: Iterator = archives.iter_members(archive, kind, names=names, label=archive)

    def find(self, member: str) -> Source | InputError | None:
        want = f"{self.archive}:{member}"   # the archive module's label of it
        for item in self.items:
            label = item.path if isinstance(item, InputError) else item.label
            if label == want:
                return item
        return None


_cursor: _Cursor | None = None


def _stamp(path: str) -> tuple:
    st = os.stat(path)
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def source_of(archive: str, member: str) -> Source:
    """The member of ``archive`` as an in-memory :class:`Source` named
    ``archive!member``; an :class:`InputError` naming it when it cannot be
    read or is not there."""
    global _cursor
    name = member_name(archive, member)
    try:
        stamp = _stamp(archive)
    except OSError as exc:
        from .textio import os_reason
        raise InputError(path=name, message=f"cannot read: {os_reason(exc)}") from None
    kind = kind_of(archive)
    if kind is None:
        raise InputError(path=name, key="GM004.no-member",
                         fields={"archive": archive, "member": member})
    found = None
    cur = _cursor
    if cur is not None and cur.archive == archive and cur.stamp == stamp:
        found = cur.find(member)   # on from the last member
    if found is None:
        # from the start: the whole archive (the next members follow), else
        # the member alone (a member only --glob takes)
        for names in (None, [member]):
            _cursor = cur = _Cursor(archive, kind, stamp, names)
            found = cur.find(member)
            if found is not None:
                break
    if found is None:
        raise InputError(path=name, key="GM004.no-member",
                         fields={"archive": archive, "member": member})
    if isinstance(found, InputError):
        raise dataclasses.replace(found, path=name) from None
    return Source.from_bytes(found.read_bytes(), label=name)


def forget() -> None:
    """Close the pass kept open (its file)."""
    global _cursor
    if _cursor is not None:
        close = getattr(_cursor.items, "close", None)
        if close is not None:
            close()
    _cursor = None


# -- reading, as the registry does, members and archives included ---------------

def open_source(path: str) -> Source:
    """A :class:`Source` for a path (``"-"`` is standard input), or for an
    archive's member named ``archive.zip!member.mat``."""
    where = split(path)
    if where is not None:
        return source_of(*where)
    return formats.open_source(path)


def read_source(source: Source) -> "Iterator[Match]":
    """:func:`gamao_cli.formats.read_source`; an archive is refused with a
    message naming a member of it."""
    refuse_archive(source)
    return formats.read_source(source)


def iter_path(path: str) -> "tuple[Iterator[Match], Source]":
    """:func:`gamao_cli.formats.iter_path`, members included."""
    source = open_source(path)
    return read_source(source), source


def read_path(path: str) -> "list[Match]":
    """:func:`gamao_cli.formats.read_path`, members included (one
    :class:`Source` both sniffed and read: a FIFO's bytes are read once)."""
    return list(iter_path(path)[0])


def refuse_archive(source: Source) -> None:
    """Raise the :class:`~gamao_cli.errors.NotAMatchFile` (GM002) of an
    archive read as one record: name a member of it, or say why there is
    none. Nothing for any other input."""
    kind = kind_of_head(source.head())
    if kind is None:
        return
    label = source.label
    if source.path == "-":
        raise NotAMatchFile(path=label, key="GM002.archive-stdin", fields={"kind": kind})
    if source.in_memory:
        raise NotAMatchFile(path=label, key="GM002.archive-inside", fields={"kind": kind})
    names = list_names(source.path, kind)   # (an archive that cannot be listed: its error)
    if not names:
        raise NotAMatchFile(path=label, key="GM002.archive-empty",
                            fields={"kind": kind, "endings": " ".join(formats.file_endings())})
    raise NotAMatchFile(path=label, key="GM002.archive", fields={"kind": kind, "example": names[0]})
