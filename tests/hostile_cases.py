"""Generators of hostile cases (issue 24, the third round), for the tests of
each family (tests/test_hostile_round3_*.py): not the issue's exact cases
but every combination of the parts they are made of.

* :func:`link_cases`: what stands at an output's place (a link to a file
  outside the folder, a dangling link out of it, relative or absolute, a
  link to a link);
* :func:`listeners`: what listens where a scheduler should (nothing, a
  silent listener, junk bytes of several kinds, an HTTP server) and
  :func:`bad_addresses`: addresses no scheduler has;
* :func:`zip_bomb`, :func:`xg_bomb`: decompression bombs of any size
  stated or real;
* :func:`forbidden_xml`: the characters XML 1.0 forbids;
* :func:`hostile_member_names`: archive member names that climb out, are
  absolute, use back slashes, or collide.
"""
from __future__ import annotations

import contextlib
import functools
import os
import socket
import struct
import threading
import time
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator


# -- what stands where an output goes --------------------------------------------

@dataclass(frozen=True)
class LinkCase:
    """A symbolic link put where an output file goes. ``make(place,
    elsewhere)`` makes it at ``place`` and returns the file it leads to (in
    ``elsewhere``, outside the output folder), which exists or not."""

    name: str
    make: Callable[[Path, Path], Path]
    target_exists: bool


def _link(place: Path, to: Path, relative: bool) -> None:
    place.parent.mkdir(parents=True, exist_ok=True)
    place.symlink_to(os.path.relpath(to, place.parent) if relative else to)


def link_cases() -> Iterator[LinkCase]:
    for relative in (True, False):
        how = "relative" if relative else "absolute"
        for exists in (True, False):
            kind = "existing" if exists else "dangling"

            def make(place: Path, elsewhere: Path, relative=relative, exists=exists) -> Path:
                elsewhere.mkdir(parents=True, exist_ok=True)
                target = elsewhere / "notes.txt"
                if exists:
                    target.write_text("precious\n")
                _link(place, target, relative)
                return target
            yield LinkCase(f"{kind}-{how}", make, exists)

    def chain(place: Path, elsewhere: Path) -> Path:   # a link to a link out of the folder
        elsewhere.mkdir(parents=True, exist_ok=True)
        target = elsewhere / "notes.txt"
        target.write_text("precious\n")
        middle = elsewhere / "middle"
        _link(middle, target, False)
        _link(place, middle, True)
        return target
    yield LinkCase("chain", chain, True)


# -- what listens where a scheduler should ----------------------------------------------

#: What a listener does with a connection: nothing (silent), send bytes at
#: once, or wait for a request and answer as a web server does.
LISTENER_KINDS = {
    "silent": None,
    "junk-ff": b"\xff" * 64,
    "junk-zero": b"\x00" * 64,
    "junk-huge-length": struct.pack("<Q", 1 << 62) + b"\x01" * 32,
    "junk-text": b"SSH-2.0-OpenSSH_9.6\r\n",
    "http": "http",
}


@contextlib.contextmanager
def listener(kind: str, lifetime: float = 60.0) -> Iterator[str]:
    """A listener on 127.0.0.1 that behaves as ``kind`` says, for at most
    ``lifetime`` seconds; yields its address (``tcp://127.0.0.1:PORT``)."""
    what = LISTENER_KINDS[kind]
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    srv.settimeout(0.2)
    stop = threading.Event()
    conns: list[socket.socket] = []

    def serve() -> None:
        end = time.monotonic() + lifetime
        while not stop.is_set() and time.monotonic() < end:
            try:
                c, _ = srv.accept()
            except OSError:
                continue
            conns.append(c)
            try:
                if what == "http":
                    c.settimeout(0.5)
                    with contextlib.suppress(OSError):
                        if c.recv(4096):
                            c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                elif what:
                    c.sendall(what)
            except OSError:
                pass

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    finally:
        stop.set()
        t.join(5)
        for c in conns:
            c.close()
        srv.close()


def closed_address() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


def bad_addresses() -> list[str]:
    """Addresses that are no scheduler's: empty, malformed, other schemes."""
    return ["", " ", "garbage", "tcp://", "tcp://[::1", "tcp://127.0.0.1:", "tcp://:8786",
            "tcp://127.0.0.1:99999", "http://127.0.0.1:8786", "https://x:1", "inproc://",
            "inproc://127.0.0.1/1/2", "ucx://127.0.0.1:8786", "ws://127.0.0.1:1",
            "tls://127.0.0.1:8786", "unknown+scheme://h:1"]


# -- decompression bombs ----------------------------------------------------------------

_CHUNK = 1 << 20


@functools.lru_cache(maxsize=None)
def _raw_zero_block() -> bytes:
    """A raw deflate block of :data:`_CHUNK` zeros ending in a full flush:
    the compressor forgets its history there, so the same block can follow
    itself any number of times."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = c.compress(bytes(_CHUNK)) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(bytes(_CHUNK)) + c.flush(zlib.Z_FULL_FLUSH)
    assert first == again
    return first


@functools.lru_cache(maxsize=None)
def deflate_zeros(size: int) -> bytes:
    """A raw deflate stream of ``size`` zero bytes, made in a moment
    whatever the size (the same flushed block repeated)."""
    n, rest = divmod(size, _CHUNK)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return _raw_zero_block() * n + c.compress(bytes(rest)) + c.flush()


def _zlib_zeros(size: int) -> bytes:
    """The zlib stream of ``size`` zeros (the adler-32 of zeros: a = 1, b = size)."""
    adler = ((size % 65521) << 16) | 1
    return b"\x78\xda" + deflate_zeros(size) + adler.to_bytes(4, "big")


@functools.lru_cache(maxsize=None)
def _crc_of_zeros(size: int) -> int:
    crc = 0
    block = bytes(1 << 24)
    left = size
    while left:
        n = min(left, len(block))
        crc = zlib.crc32(block if n == len(block) else block[:n], crc)
        left -= n
    return crc


def zip_bomb(members: list[tuple[str, int, bytes | None]], *, lie: bool = False) -> bytes:
    """A zip whose members are ``(name, size, data)``: ``data`` given is
    stored deflated as it is, ``None`` makes ``size`` zero bytes (deflated
    without ever being in memory). With ``lie``, every header states the
    zeros members 1 KiB uncompressed, so that only reading one finds its
    real size."""
    local = bytearray()
    central = bytearray()
    for name, size, data in members:
        raw_name = name.encode("utf-8", "surrogateescape")
        if data is not None:
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            packed = c.compress(data) + c.flush()
            size, crc = len(data), zlib.crc32(data)
            stated = size
        else:
            packed, crc = deflate_zeros(size), _crc_of_zeros(size)
            stated = 1024 if lie else size
        offset = len(local)
        try:
            name.encode("utf-8")
            flags = 0x800   # the name is UTF-8
        except UnicodeEncodeError:
            flags = 0       # bytes that are no UTF-8 (read as cp437)
        local += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, 8, 0, 0x21, crc,
                             len(packed), stated, len(raw_name), 0) + raw_name + packed
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, 8, 0, 0x21,
                               crc, len(packed), stated, len(raw_name), 0, 0, 0, 0, 0,
                               offset) + raw_name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(central),
                      len(local), 0)
    return bytes(local + central + end)


def xg_bomb(base: bytes, *, game_size: int | None = None, extra: int = 0, shared: int = 0,
            extra_size: int = 256 << 20, replace: dict[str, bytes] | None = None) -> bytes:
    """An XG file made from ``base`` (a real one): its game stream replaced
    by ``game_size`` zero bytes when given; ``extra`` more entries, each a
    stream of its own of ``extra_size`` zeros (as a rollout stream gamao
    never reads); or ``shared`` more entries all pointing at one such
    stream. CRCs are right, so the file is damaged in nothing but size."""
    from gamao_cli.formats.xg.container import read_container
    box = read_container(base)
    streams = {e.name: box.streams[e.name] for e in box.entries}
    streams.update(replace or {})   # (a stream replaced: its CRC and sizes follow)
    entries: list[tuple[str, bytes | None, int, int]] = []   # name, packed, size, crc
    blobs: list[bytes] = []
    at = 0

    def add(packed: bytes) -> int:
        nonlocal at
        start = at
        blobs.append(packed)
        at += len(packed)
        return start

    layout = []
    for name, content in streams.items():
        if name == "temp.xg" and game_size is not None:
            packed = _zlib_zeros(game_size)
            size, crc = game_size, _crc_of_zeros(game_size)
        else:
            packed, size, crc = zlib.compress(content, 9), len(content), zlib.crc32(content)
        layout.append((name, add(packed), len(packed), size, crc))
    if extra or shared:
        zeros_crc = _crc_of_zeros(extra_size)
        packed = _zlib_zeros(extra_size)
        shared_at = add(packed) if shared else None
        for i in range(shared):
            layout.append((f"temp{i}.xgr", shared_at, len(packed), extra_size, zeros_crc))
        for i in range(extra):
            layout.append((f"roll{i}.xgr", add(packed), len(packed), extra_size, zeros_crc))
    archive = b"".join(blobs)
    registry = b""
    for name, start, csize, size, crc in layout:
        entry = bytes([len(name)]) + name.encode() + bytes(255 - len(name))
        entry += bytes(256)
        entry += struct.pack("<iiiIBB2x", size, csize, start, crc, 0, 9)
        registry += entry
    reg = zlib.compress(registry)
    header_end = box.archive_offset
    record = struct.pack("<IiiiiI12x", zlib.crc32(archive + reg), len(layout), 1, len(reg),
                         len(archive), 1)
    return base[:header_end] + archive + reg + record



# -- text XML 1.0 forbids --------------------------------------------------------------

def forbidden_xml() -> list[str]:
    """One character of each kind XML 1.0 forbids in a document: every C0
    control but tab, line feed and carriage return, a lone surrogate's
    neighbours U+FFFE and U+FFFF."""
    return [chr(c) for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)] + ["\ufffe", "\uffff"]


# -- archive member names ------------------------------------------------------------------

def hostile_member_names() -> list[tuple[str, str]]:
    """(member name, what gamao must say of it): ``"up"`` or
    ``"absolute"`` for a name that leads out of the archive (GM010, not
    read), ``"read"`` for one read under its very name."""
    out = [("../../evil.mat", "up"), ("a/../../evil3.mat", "up"), ("..\\win\\evil4.mat", "up"),
           ("a/b/../../../up.mat", "up"), ("../x.mat", "up"), ("a\\..\\..\\b.mat", "up"),
           ("/abs/evil2.mat", "absolute"), ("C:\\win\\drive.mat", "absolute"),
           ("c:/x.mat", "absolute"), ("\\\\server\\share\\x.mat", "absolute"),
           ("a//b.mat", "read"), ("a/./b.mat", "read"), ("a/../b.mat", "read"),
           ("dots..mat", "read"), ("ab:c.mat", "read"), ("x:y.mat", "absolute")]
    return out


# -- records whose figures or text gamao's outputs once choked on ------------------------

def huge_records() -> list[tuple[str, str, str]]:
    """(name, file name, text): records holding a figure of more than
    4,300 digits once replayed (a score line of 4,300-digit scores plus the
    game's point, for each player winning and each player's score huge) or
    a match length of 4,300 digits."""
    n = "9" * 4300
    out = []
    endings = {0: "  2)  Doubles => 2       Drops\n      Wins 1 point\n",
               1: "  2) 31: 8/5 6/5                 Doubles => 2\n  3)  Drops\n"
                  "                                 Wins 1 point\n"}
    for winner in (0, 1):
        for scores in ((n, "0"), ("0", n), (n, n)):
            huge = "both" if scores == (n, n) else "A" if scores[0] == n else "B"
            text = (" 0 point match\n\n Game 1\n"
                    f" A : {scores[0]}                     B : {scores[1]}\n"
                    "  1)                             64: 24/18 18/14\n" + endings[winner])
            name = f"score-{huge}-huge-{'AB'[winner]}-wins"
            out.append((name, name + ".mat", text))
    out.append(("length", "length.mat",
                f" {n} point match\n\n Game 1\n A : 0    B : 0\n"
                "  1)                             64: 24/18 18/14\n"))
    return out


def blocked_records() -> list[tuple[str, str]]:
    """(name, text): records whose plays, replayed as written, put both
    players' checkers on one point (a play onto a held point, a record
    whose columns are swapped), in several places."""
    head = " 3 point match\n\n Game 1\n A : 0                     B : 0\n"
    return [
        ("onto-six-point", head + "  1) 52: 24/19 24/22              31: 8/5 6/5\n"
                                  "  2) 31: 8/5 6/5\n"),
        ("onto-eight-point", head + "  1) 63: 24/17 24/21              31: 8/5 6/5\n"
                                    "  2) 31: 8/5 6/5\n"),
        ("swapped-columns", head + "  1)                             31: 8/5 6/5\n"
                                   "  2) 64: 24/18 18/14             31: 8/5 6/5\n"
                                   "  3) 55: 19/14 19/14 14/9 14/9\n"),
        ("second-game", head + "  1) 31: 8/5 6/5\n  2)  Doubles => 2\n"
                               "                                 Drops\n      Wins 1 point\n\n"
                               " Game 2\n A : 1                     B : 0\n"
                               "  1) 52: 24/19 24/22\n"),
    ]


def surrogate_names() -> list[str]:
    """Player names holding lone surrogates (as a JSON escape writes them)."""
    return ["A\\udcffx", "\\ud83d", "x\\ude00y", "\\udcfe\\udcff", "ok\\ud83d\\ude00\\ud800"]


# -- inputs that can be read only once ----------------------------------------------------

@contextlib.contextmanager
def fifo_feeding(folder: Path, data: bytes, name: str = "in.mat") -> Iterator[Path]:
    """A FIFO in ``folder`` that a thread feeds ``data`` to once, as a
    shell's ``cat file > fifo`` does: the writer waits in its ``open`` for
    the reader. On leaving, a writer still waiting is let go."""
    path = folder / name
    os.mkfifo(path)

    def feed() -> None:
        try:
            with open(path, "wb") as fh:   # blocks until a reader opens it
                fh.write(data)
        except OSError:
            pass
    t = threading.Thread(target=feed, daemon=True)
    t.start()
    time.sleep(0.05)   # the writer is waiting in open() (as cat would be)
    try:
        yield path
    finally:
        if t.is_alive():   # nobody read it: open it once so that the writer ends
            with contextlib.suppress(OSError):
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                t.join(5)
                os.close(fd)
        t.join(5)


def rtf_comment(text: str) -> str:
    """``text`` as XG writes a comment: RTF, each character beyond ASCII as
    ``\\uN?`` of its UTF-16 code units (signed, as RTF's 16-bit numbers
    are), so a character beyond U+FFFF is two of them."""
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
            continue
        units = ch.encode("utf-16-le")
        for i in range(0, len(units), 2):
            u = int.from_bytes(units[i:i + 2], "little")
            out.append(f"\\u{u - 65536 if u > 32767 else u}?")
    return "{\\rtf1\\ansi\\uc1 " + "".join(out) + "\\par}"
