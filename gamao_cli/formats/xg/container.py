"""The outer layer of an eXtreme Gammon file: header, archive, streams.

An ``.xg`` (match) or ``.xgp`` (position) file is, in file order (all
integers little-endian; layout verified on the samples, see FORMAT.md):

1. a *RichGameFormat* header of ``header_size`` bytes (8232 in every file
   seen): the magic ``RGMH``, a version (1), the header size, a thumbnail
   offset and size, a GUID and four UTF-16 strings (game name, save name,
   level name, comments) of 1024 code units each;
2. a JPEG thumbnail of ``thumbnail_size`` bytes (may be absent);
3. the archive data: each archived file, zlib-compressed (or stored);
4. the archive's registry (one 532-byte entry per file, itself usually
   zlib-compressed);
5. a 36-byte archive record, the last bytes of the file: CRC-32 of items 3
   and 4, the file count, a version, the registry's and the data's sizes
   and whether the registry is compressed.

Each registry entry names a file (``temp.xg``, ``temp.xgi``, ``temp.xgr``,
``temp.xgc``), gives its sizes, where it starts in the archive data and the
CRC-32 of its uncompressed bytes. :func:`read_container` checks the
archive's CRC and every size against the bytes there are; each stream is
decompressed only when it is read (:class:`Streams`), no further than its
stated size and never beyond :data:`STREAM_BUDGET`, and its CRC checked
then. A file whose archive record is not XG's (sizes that do not fit the
file, a file count or flag XG never writes: it is cut short, or another
program rewrote its archive) may still hold the game data where XG puts it,
in the zlib stream right after the thumbnail: :func:`read_container` reads
``temp.xg`` from there, within the same budget (:attr:`Container.recovered`
says so; with no registry there is no checksum to check it by, and the
other archived files are not read). Whatever the bytes, it returns a
:class:`Container` or raises :class:`~gamao_cli.errors.NotAMatchFile` (not an
XG file at all) or :class:`~gamao_cli.errors.DamagedFile` (an XG file whose
bytes are damaged), always with ``offset`` set to a byte offset in the file.

>>> read_container(b"PK\\x03\\x04" + bytes(60))
Traceback (most recent call last):
...
gamao_cli.errors.NotAMatchFile: <input>: byte 0: not an eXtreme Gammon file: the first 4 bytes are 50 4b 03 04 ('PK\\x03\\x04') (expected 'RGMH')
"""
from __future__ import annotations

import struct
import uuid
import zlib
from dataclasses import dataclass, field
from typing import Iterator, Mapping

from ...errors import DamagedFile, NotAMatchFile, OverBudget
from ...messages import Msg

MAGIC = b"RGMH"
#: The size of the RichGameFormat header record (what every file seen has in
#: its header-size field; the strings end at byte 8232).
HEADER_SIZE = 8232
ARCHIVE_RECORD_SIZE = 36
REGISTRY_ENTRY_SIZE = 532
#: More files than this in one archive is not a file XG wrote (it writes 4 at
#: most); the bound keeps a damaged count from driving the work.
MAX_FILES = 64
#: deflate cannot expand its input by more than about 1032 times; a stated
#: uncompressed size beyond that is damage, not data.
MAX_DEFLATE_RATIO = 1032
#: The most bytes one archived stream is inflated to (GM009 beyond). A
#: stream is inflated only when gamao reads it (the game stream, the
#: comments, a position's analysis; never the rollouts), once however many
#: registry entries point at it; a long match's game stream is a few MiB.
STREAM_BUDGET = 64 << 20

_HEADER = struct.Struct("<4sIIqI16s")        # magic, version, size, thumb offset, size, GUID
_ARCHIVE = struct.Struct("<IiiiiI12s")       # crc, count, version, registry, data, compressed
_ENTRY_TAIL = struct.Struct("<iiiIBB2s")     # sizes, start, crc, stored flag, level


@dataclass(frozen=True)
class FileHeader:
    """The RichGameFormat header at the start of the file."""

    version: int
    header_size: int
    thumbnail_offset: int
    thumbnail_size: int
    guid: str
    game_name: str
    save_name: str
    level_name: str
    comments: str


@dataclass(frozen=True)
class ArchiveEntry:
    """One file of the archive, as its registry entry describes it.

    ``start`` is relative to the archive data; ``offset`` is the same place
    as a byte offset in the file.
    """

    name: str
    path: str
    original_size: int
    compressed_size: int
    start: int
    offset: int
    crc: int
    compressed: bool
    level: int


@dataclass(frozen=True)
class Recovered:
    """What :func:`read_container` did with an archive record that is not
    XG's (another program rewrote the file's archive): the figures the last
    36 bytes give, and where it found the game data instead (``offset``,
    right after the thumbnail, ``size`` compressed bytes)."""

    registry: int
    data: int
    offset: int
    size: int


@dataclass
class Container:
    """What :func:`read_container` found: the header, the archive's
    geometry, the registry and each file's uncompressed bytes by name."""

    header: FileHeader
    archive_offset: int          # where the archive data starts in the file
    registry_offset: int         # where the registry starts in the file
    record_offset: int           # where the 36-byte archive record starts
    archive_version: int
    entries: list[ArchiveEntry] = field(default_factory=list)
    #: each file's uncompressed bytes by name (a :class:`Streams`: inflated
    #: when first read)
    streams: Mapping[str, bytes] = field(default_factory=dict)
    thumbnail: bytes = b""
    #: set when the archive record is not XG's and the game data was found
    #: after the thumbnail instead (only ``temp.xg`` is read then)
    recovered: Recovered | None = None

    def entry(self, name: str) -> ArchiveEntry | None:
        for e in self.entries:
            if e.name == name:
                return e
        return None


def utf16_fixed(data: bytes, offset: int, units: int) -> str:
    """A fixed array of ``units`` UTF-16 code units, up to its first NUL.

    Bytes after the NUL are whatever was in memory when XG wrote the file
    (seen in the samples) and are ignored; unpaired surrogates become U+FFFD.

    >>> utf16_fixed("Ab".encode("utf-16-le") + b"\\0\\0\\xff\\xd8", 0, 4)
    'Ab'
    """
    raw = data[offset:offset + 2 * units]
    end = 0
    while end + 1 < len(raw) and (raw[end] or raw[end + 1]):
        end += 2
    return raw[:end].decode("utf-16-le", errors="replace")


def short_string(data: bytes, offset: int, capacity: int) -> str:
    """A Delphi ``string[capacity]``: a length byte, then that many ANSI
    bytes (read as Windows-1252, undefined bytes as Latin-1).

    >>> short_string(bytes([3]) + b"Bob" + bytes(5), 0, 8)
    'Bob'
    """
    n = min(data[offset], capacity)
    raw = bytes(data[offset + 1:offset + 1 + n])   # (data may be a memoryview)
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _hex(b: bytes) -> str:
    return " ".join(f"{x:02x}" for x in b)


def read_header(data: bytes, path: str = "") -> FileHeader:
    """The RichGameFormat header; raises if the file is not an XG file."""
    if data[:4] != MAGIC:
        head = data[:4]
        if not head:
            found = Msg("xg.empty", {})
        else:
            found = Msg("xg.first-bytes", {"count": len(head), "hex": _hex(head),
                                           "text": head.decode("latin-1")})
        raise NotAMatchFile(path, key="GM002.xg-magic", fields={"head": found}, offset=0)
    if len(data) < HEADER_SIZE:
        raise DamagedFile(path, key="GM006.xg-header-short",
                          fields={"size": len(data), "header": HEADER_SIZE}, offset=len(data))
    _magic, version, size, thumb_off, thumb_size, guid = _HEADER.unpack_from(data, 0)
    if version != 1:
        raise DamagedFile(path, key="GM006.xg-header-version", fields={"version": version},
                          offset=4)
    if not HEADER_SIZE <= size <= len(data):
        raise DamagedFile(path, key="GM006.xg-header-size",
                          fields={"stated": size, "header": HEADER_SIZE, "size": len(data)},
                          offset=8)
    if thumb_off < 0 or thumb_size < 0 or size + thumb_off + thumb_size > len(data):
        raise DamagedFile(path, key="GM006.xg-thumbnail",
                          fields={"thumbnail": thumb_size, "start": thumb_off, "size": len(data)},
                          offset=12)
    return FileHeader(
        version=version, header_size=size, thumbnail_offset=thumb_off, thumbnail_size=thumb_size,
        guid=str(uuid.UUID(bytes_le=guid)),
        game_name=utf16_fixed(data, 40, 1024), save_name=utf16_fixed(data, 40 + 2048, 1024),
        level_name=utf16_fixed(data, 40 + 4096, 1024), comments=utf16_fixed(data, 40 + 6144, 1024))


def _inflate(blob: bytes, size: int, what: Msg, path: str, offset: int) -> bytes:
    """Decompress one zlib stream to exactly ``size`` bytes, never more
    (``what``: the message naming the stream)."""
    d = zlib.decompressobj()
    try:
        out = d.decompress(blob, size + 1)
        if len(out) <= size and not d.eof:
            out += d.flush(size + 1 - len(out))
    except zlib.error as exc:
        raise DamagedFile(path, key="GM006.xg-inflate-damaged",
                          fields={"what": what, "reason": str(exc)}, offset=offset)
    if len(out) > size:
        raise DamagedFile(path, key="GM006.xg-inflate-too-big", fields={"what": what, "size": size},
                          offset=offset)
    if not d.eof:
        raise DamagedFile(path, key="GM006.xg-inflate-cut", fields={"what": what},
                          offset=offset + len(blob))
    if len(out) != size:
        raise DamagedFile(path, key="GM006.xg-inflate-size",
                          fields={"what": what, "got": len(out), "size": size}, offset=offset)
    return out


class Streams(Mapping[str, bytes]):
    """The archived files' uncompressed bytes by name, each inflated (and
    its CRC checked) when it is first read, never before: a stream gamao
    does not read is never inflated, and entries that share one stream
    (the same place, sizes and CRC) inflate it once. A compressed stream
    that states more than ``budget`` bytes is not inflated at all
    (:class:`~gamao_cli.errors.OverBudget`, GM009, at its entry)."""

    def __init__(self, data: bytes, path: str, budget: int = STREAM_BUDGET):
        self._data = data
        self._path = path
        self._budget = budget
        self._entries: dict[str, ArchiveEntry] = {}
        self._done: dict[tuple, bytes] = {}

    def add(self, entry: ArchiveEntry) -> None:
        self._entries[entry.name] = entry

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, name: str) -> bytes:
        e = self._entries[name]
        key = (e.offset, e.compressed_size, e.original_size, e.compressed, e.crc)
        if key not in self._done:
            self._done[key] = self._load(e)
        return self._done[key]

    def _load(self, entry: ArchiveEntry) -> bytes:
        path = self._path
        label = Msg("xg.archived-file", {"name": entry.name})
        blob = self._data[entry.offset:entry.offset + entry.compressed_size]
        if entry.compressed and entry.original_size > self._budget:
            raise OverBudget(path, key="GM009.xg-stream",
                             fields={"what": label, "size": entry.original_size,
                                     "budget": self._budget >> 20}, offset=entry.offset)
        if entry.compressed:
            content = _inflate(blob, entry.original_size, label, path, entry.offset)
        else:
            content = blob
            if len(content) != entry.original_size:
                raise DamagedFile(path, key="GM006.xg-stored-size",
                                  fields={"what": label, "got": len(content),
                                          "size": entry.original_size}, offset=entry.offset)
        got = zlib.crc32(content)
        if got != entry.crc:
            raise DamagedFile(path, key="GM006.xg-entry-crc",
                              fields={"what": label, "actual": got, "stated": entry.crc},
                              offset=entry.offset)
        return content


#: The size of one record of the game stream (records.RECORD_SIZE) and the
#: type byte of its first, the match header: what the game data found after
#: the thumbnail must look like to be taken.
_RECORD_SIZE = 2560
_MATCH_HEADER_TYPE = 0
_TYPE_AT = 8
#: what every match header holds at byte 556 (records.HEADER_MAGIC; records
#: imports this module, so the two bytes strings are one test apart)
_MATCH_MAGIC = b"DMLI"
_MAGIC_AT = 556


def _game_data_after_thumbnail(data: bytes, header: FileHeader, start: int, end: int,
                               registry: int, size: int) -> Container | None:
    """The container of a file whose archive record is not XG's: the one
    zlib stream that starts right after the thumbnail (``start``), when it
    decompresses whole, within deflate's bounds, to whole game records
    opening with a match header; None otherwise."""
    blob = data[start:end + ARCHIVE_RECORD_SIZE]
    d = zlib.decompressobj()
    limit = min(len(blob) * MAX_DEFLATE_RATIO + 64, STREAM_BUDGET)
    try:
        out = d.decompress(blob, limit + 1)
    except zlib.error:
        return None
    if not d.eof or not out or len(out) > limit or len(out) % _RECORD_SIZE \
            or out[_TYPE_AT] != _MATCH_HEADER_TYPE \
            or out[_MAGIC_AT:_MAGIC_AT + len(_MATCH_MAGIC)] != _MATCH_MAGIC:
        return None
    used = len(blob) - len(d.unused_data)
    entry = ArchiveEntry(name="temp.xg", path="", original_size=len(out), compressed_size=used,
                         start=0, offset=start, crc=zlib.crc32(out), compressed=True, level=0)
    return Container(header=header, archive_offset=start, registry_offset=start + used,
                     record_offset=end, archive_version=0, entries=[entry],
                     streams={"temp.xg": out}, thumbnail=data[header.header_size
                                                              + header.thumbnail_offset:start],
                     recovered=Recovered(registry=registry, data=size, offset=start, size=used))


def read_container(data: bytes, path: str = "") -> Container:
    """Parse the whole outer file: header, archive record, registry, streams."""
    header = read_header(data, path)
    n = len(data)
    body_start = header.header_size + header.thumbnail_offset + header.thumbnail_size
    if n - body_start < ARCHIVE_RECORD_SIZE:
        raise DamagedFile(path, key="GM006.xg-no-record-room",
                          fields={"size": n, "record": ARCHIVE_RECORD_SIZE}, offset=n)
    rec_at = n - ARCHIVE_RECORD_SIZE
    crc, count, version, reg_size, data_size, reg_flag, _reserved = _ARCHIVE.unpack_from(data, rec_at)
    room = rec_at - body_start
    problem: DamagedFile | None = None
    if reg_size < 0 or data_size < 0 or reg_size + data_size > room:
        problem = DamagedFile(path, key="GM006.xg-archive-sizes",
                              fields={"registry": reg_size, "data": data_size, "room": room,
                                      "record": ARCHIVE_RECORD_SIZE, "start": body_start},
                              offset=rec_at)
    elif not 1 <= count <= MAX_FILES:
        problem = DamagedFile(path, key="GM006.xg-file-count", fields={"count": count},
                              offset=rec_at + 4)
    elif reg_flag not in (0, 1):
        problem = DamagedFile(path, key="GM006.xg-registry-flag", fields={"flag": reg_flag},
                              offset=rec_at + 20)
    if problem is not None:
        # the last 36 bytes are not XG's archive record (the file is cut
        # short, or another program rewrote its archive). XG writes the game
        # data (temp.xg) first, right after the thumbnail (where gammonview's
        # reader takes it): read it from there
        box = _game_data_after_thumbnail(data, header, body_start, rec_at, reg_size, data_size)
        if box is None:
            raise problem
        return box
    reg_at = rec_at - reg_size
    arc_at = reg_at - data_size
    actual = zlib.crc32(data[arc_at:rec_at])
    if actual != crc:
        raise DamagedFile(path, key="GM006.xg-archive-crc", fields={"actual": actual, "stated": crc},
                          offset=rec_at)
    want = count * REGISTRY_ENTRY_SIZE
    raw_reg = data[reg_at:rec_at]
    if reg_flag:
        registry = _inflate(raw_reg, want, Msg("xg.registry", {}), path, reg_at)
    elif len(raw_reg) != want:
        raise DamagedFile(path, key="GM006.xg-registry-size",
                          fields={"size": len(raw_reg), "count": count, "want": want},
                          offset=reg_at)
    else:
        registry = raw_reg
    box = Container(header=header, archive_offset=arc_at, registry_offset=reg_at,
                    record_offset=rec_at, archive_version=version,
                    thumbnail=data[header.header_size + header.thumbnail_offset:body_start])
    streams = Streams(data, path)
    box.streams = streams
    for i in range(count):
        at = i * REGISTRY_ENTRY_SIZE
        where = reg_at if reg_flag else reg_at + at   # a compressed registry has no file offsets
        name = short_string(registry, at, 255)
        sub = short_string(registry, at + 256, 255)
        osize, csize, start, fcrc, stored, level, _pad = _ENTRY_TAIL.unpack_from(registry, at + 512)
        label = Msg("xg.archived-file", {"name": name})
        if not name or name in streams:
            raise DamagedFile(path, key=("GM006.xg-entry-repeated-name" if name
                                        else "GM006.xg-entry-no-name"),
                              fields={"entry": i + 1, "name": name}, offset=where)
        if csize < 0 or start < 0 or start + csize > data_size:
            raise DamagedFile(path, key="GM006.xg-entry-fit",
                              fields={"what": label, "size": csize, "start": start,
                                      "data": data_size}, offset=where)
        if stored not in (0, 1):
            raise DamagedFile(path, key="GM006.xg-entry-flag", fields={"what": label, "flag": stored},
                              offset=where)
        limit = csize if stored else csize * MAX_DEFLATE_RATIO + 64
        if not 0 <= osize <= limit:
            raise DamagedFile(path, key=("GM006.xg-entry-size-stored" if stored
                                         else "GM006.xg-entry-size-compressed"),
                              fields={"what": label, "size": osize, "packed": csize}, offset=where)
        entry = ArchiveEntry(name=name, path=sub, original_size=osize, compressed_size=csize,
                             start=start, offset=arc_at + start, crc=fcrc, compressed=not stored,
                             level=level)
        box.entries.append(entry)
        streams.add(entry)
    return box
