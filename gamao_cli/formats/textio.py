"""Reading text in whatever encoding a match file comes in, and writing files safely.

Reading: :func:`decode_bytes` recognises, in this order,

1. UTF-8 with a byte order mark (``utf-8-sig``),
2. UTF-16 with a byte order mark (``utf-16-le`` / ``utf-16-be``),
3. UTF-16 without a byte order mark, recognised by its NUL bytes (ASCII
   characters in UTF-16 have a zero high byte),
4. valid UTF-8 (``utf-8``; plain ASCII is reported as ``utf-8`` too),
5. anything else as Windows-1252 (``cp1252``), the legacy encoding of
   Windows backgammon programs; the five bytes cp1252 leaves undefined
   (0x81 0x8D 0x8F 0x90 0x9D) are read as Latin-1 (the C1 control of the
   same number).

Bytes that are no text at all - a NUL byte or a C0 control character other
than TAB, LF, VT, FF, CR, SUB (the old DOS end-of-file mark) and ESC, or
malformed UTF-8 after a UTF-8 BOM, or malformed UTF-16 - raise
:class:`gamao_cli.errors.EncodingProblem` with the byte offset of the first
bad byte.  Line endings (CRLF, lone CR, mixed) all become ``"\\n"``; tabs and
a missing final newline are kept as they are.

>>> decode_bytes(b"\\xef\\xbb\\xbfJ\\xc3\\xbcrgen\\r\\n", "x.mat")
('Jürgen\\n', 'utf-8-sig')
>>> decode_bytes("Ñúñez\\rend".encode("cp1252"), "x.mat")
('Ñúñez\\nend', 'cp1252')

Big files: :func:`open_decoded` gives a :class:`DecodedFile`, which decodes a
file piece by piece (memory does not grow with the file) into exactly the
text, encoding and errors that :func:`decode_bytes` gives for the whole file:
a first pass over the bytes finds the encoding (or the first bad byte), the
second decodes with an incremental decoder.

Writing: :func:`atomic_write` writes a temporary file next to the target,
flushes and fsyncs it, then renames it over the target, so a reader sees the
old file or the new one, never half of one.
"""
from __future__ import annotations

import codecs
import contextlib
import errno
import os
import re
import stat
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from gamao_cli.errors import EncodingProblem, InputError, OutputError
from gamao_cli.messages import Msg

__all__ = ["decode_bytes", "read_text", "atomic_write", "normalise_newlines",
           "DecodedFile", "open_decoded", "xml_safe"]

# C0 controls that may appear in a text file
_ALLOWED_CONTROLS = frozenset("\t\n\x0b\x0c\r\x1a\x1b")
_BAD_CONTROLS = frozenset(chr(c) for c in range(0x20)) - _ALLOWED_CONTROLS
_BAD_CONTROL_RE = re.compile(rb"[\x00-\x08\x0e-\x19\x1c-\x1f]")

# cp1252 leaves these undefined; we read them as Latin-1
_CP1252_HOLES = {0x81: "\x81", 0x8D: "\x8d", 0x8F: "\x8f", 0x90: "\x90", 0x9D: "\x9d"}


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF.

    >>> normalise_newlines("a\\r\\nb\\rc\\nd")
    'a\\nb\\nc\\nd'
    """
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _byte_msg(b: bytes) -> Msg:
    """A byte (``b``: one byte, or none at the end of the data), in words."""
    return Msg("byte.hex", {"byte": b[0]}) if b else Msg("byte.end", {})


def _describe_byte(data: bytes, offset: int) -> Msg:
    return _byte_msg(data[offset:offset + 1])


#: The message key of each reason a UnicodeDecodeError gives for UTF-16.
_UNICODE_REASONS = {
    "illegal encoding": "unicode.illegal-encoding",
    "illegal UTF-16 surrogate": "unicode.illegal-surrogate",
    "unexpected end of data": "unicode.end-of-data",
    "truncated data": "unicode.odd-bytes",
}


def _reason_msg(reason: str) -> Msg:
    key = _UNICODE_REASONS.get(reason)
    return Msg(key, {}) if key else Msg("unicode.other", {"reason": reason})


def _nul_or_control(path: str, b: int, offset: int) -> EncodingProblem:
    if b == 0:
        return EncodingProblem(path=path, key="GM003.nul", offset=offset)
    return EncodingProblem(path=path, key="GM003.control", fields={"byte": b}, offset=offset)


def _control_problem(text: str) -> int | None:
    """Index of the first disallowed control character in ``text``, or None."""
    if not _BAD_CONTROLS.intersection(text):
        return None
    return next(i for i, ch in enumerate(text) if ch in _BAD_CONTROLS)


def _binary_problem(path: str, data: bytes, offset: int) -> EncodingProblem:
    return _nul_or_control(path, data[offset], offset)


# What a file in UTF-8 after a byte order mark, or in UTF-16, that is not
# text says: the same whether it is decoded whole (decode_bytes) or piece by
# piece (DecodedFile), so both paths make it here.

def _invalid_text(path: str, codec: str, how: str, reason: str, offset: int,
                  what: Msg) -> EncodingProblem:
    """Bytes that do not decode in ``codec`` at ``offset`` (``how``: "bom" or
    "no-bom", whether a byte order mark came first; ``what``: the byte there,
    described)."""
    if codec == "utf-8":
        return EncodingProblem(path=path, key="GM003.utf8-after-bom", fields={"at": what},
                               offset=offset)
    return EncodingProblem(path=path, key="GM003.utf16", offset=offset, fields={
        "codec": codec.upper(), "how": Msg("utf16." + how, {}), "reason": _reason_msg(reason),
        "at": what})


def _control_in_text(path: str, text: str, index: int, codec: str, start: int) -> EncodingProblem:
    """The disallowed control character ``text[index]``, ``text`` being
    decoded in ``codec`` from byte ``start``: the problem names its byte
    offset."""
    ch = text[index]
    offset = start + len(text[:index].encode(codec, "surrogatepass"))
    if codec == "utf-8":
        return _nul_or_control(path, ord(ch), offset)
    return EncodingProblem(path=path, key="GM003.control-char",
                           fields={"char": ord(ch), "codec": codec.upper()}, offset=offset)


def _decode_utf16(data: bytes, path: str, codec: str, start: int, how: str) -> tuple[str, str]:
    body = data[start:]
    try:
        text = body.decode(codec)
    except UnicodeDecodeError as e:
        off = start + e.start
        raise _invalid_text(path, codec, how, e.reason, off, _describe_byte(data, off)) from None
    bad = _control_problem(text)
    if bad is not None:
        raise _control_in_text(path, text, bad, codec, start)
    return normalise_newlines(text), codec


def guess_utf16(data: bytes) -> str | None:
    """``utf-16-le``/``-be`` if the NUL pattern of BOM-less UTF-16 shows, else None."""
    return _guess_utf16_counts(len(data), data[0::2].count(0), data[1::2].count(0))


def _guess_utf16_counts(size: int, even_zero: int, odd_zero: int) -> str | None:
    """The same guess from the byte count and the zero bytes at even and odd offsets."""
    n = size // 2
    if n < 1 or size % 2:
        return None
    # ASCII-heavy UTF-16: one byte of most pairs is zero, the other never is
    if odd_zero >= max(1, n * 0.3) and even_zero == 0:
        return "utf-16-le"
    if even_zero >= max(1, n * 0.3) and odd_zero == 0:
        return "utf-16-be"
    return None


def _decode_cp1252(data: bytes) -> str:
    if not any(b in _CP1252_HOLES for b in data):
        return data.decode("cp1252")
    return "".join(_CP1252_HOLES.get(b) or bytes((b,)).decode("cp1252") for b in data)


def decode_bytes(data: bytes, path: str) -> tuple[str, str]:
    """Decode a file's bytes; return ``(text, encoding)``.

    ``encoding`` is one of ``"utf-8-sig"``, ``"utf-16-le"``, ``"utf-16-be"``,
    ``"utf-8"`` or ``"cp1252"``.  ``path`` only labels errors.

    >>> decode_bytes(b"\\xff\\xfea\\x00\\r\\x00\\n\\x00", "x")
    ('a\\n', 'utf-16-le')
    >>> decode_bytes(b"ab\\x00\\x01\\x02", "x.bin")
    Traceback (most recent call last):
    ...
    gamao_cli.errors.EncodingProblem: x.bin: byte 2: not a text file: a NUL byte (binary data?)
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"decode_bytes needs bytes, not {type(data).__name__}")
    data = bytes(data)

    if data.startswith(codecs.BOM_UTF8):
        try:
            text = data[3:].decode("utf-8")
        except UnicodeDecodeError as e:
            off = 3 + e.start
            raise _invalid_text(path, "utf-8", "", e.reason, off, _describe_byte(data, off)) from None
        bad = _control_problem(text)
        if bad is not None:
            raise _control_in_text(path, text, bad, "utf-8", 3)
        return normalise_newlines(text), "utf-8-sig"
    if data.startswith(codecs.BOM_UTF16_LE):
        return _decode_utf16(data, path, "utf-16-le", 2, "bom")
    if data.startswith(codecs.BOM_UTF16_BE):
        return _decode_utf16(data, path, "utf-16-be", 2, "bom")

    if 0 in data:
        guess = guess_utf16(data)
        if guess is not None:
            try:
                return _decode_utf16(data, path, guess, 0, "no-bom")
            except EncodingProblem:
                pass  # not UTF-16 after all: report the bytes below

    bad = _BAD_CONTROL_RE.search(data)
    if bad is not None:
        raise _binary_problem(path, data, bad.start())

    try:
        text = data.decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError:
        text = _decode_cp1252(data)
        encoding = "cp1252"
    return normalise_newlines(text), encoding


# -- decoding a file piece by piece ----------------------------------------

CHUNK_SIZE = 1 << 20  # bytes read at a time by DecodedFile


def _iter_chunks(fh, chunk_size: int) -> Iterator[bytes]:
    while True:
        chunk = fh.read(chunk_size)
        if not chunk:
            return
        yield chunk


class _StreamCheck:
    """Decode a byte stream incrementally with ``codec``, remembering the
    problem of the first disallowed control character (with its absolute
    offset) and raising the same :class:`EncodingProblem` as
    :func:`decode_bytes` for an undecodable byte."""

    def __init__(self, path: str, codec: str, start: int, how: str):
        self.path, self.codec, self.start, self.how = path, codec, start, how
        self.decoder = codecs.getincrementaldecoder(codec)()
        self.fed = start          # bytes given to the decoder so far (absolute)
        self.bad_control: EncodingProblem | None = None  # the first control character

    def _consumed(self) -> int:
        return self.fed - len(self.decoder.getstate()[0])

    def feed(self, data: bytes, final: bool = False) -> str:
        before = self._consumed()
        pending = len(self.decoder.getstate()[0])
        try:
            text = self.decoder.decode(data, final)
        except UnicodeDecodeError as e:
            off = self.fed - pending + e.start
            self.fed += len(data)
            raise self._decode_problem(off, e.reason) from None
        self.fed += len(data)
        if self.bad_control is None:
            i = _control_problem(text)
            if i is not None:
                self.bad_control = _control_in_text(self.path, text, i, self.codec, before)
        return text

    def _decode_problem(self, off: int, reason: str) -> EncodingProblem:
        return _invalid_text(self.path, self.codec, self.how, reason, off,
                             _describe_byte_at(self.path, off))

    def control_problem(self) -> EncodingProblem | None:
        return self.bad_control


def _describe_byte_at(path: str, offset: int) -> Msg:
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            b = fh.read(1)
    except OSError:
        b = b""
    return _byte_msg(b)


class DecodedFile:
    """A file decoded piece by piece, as :func:`decode_bytes` decodes it whole.

    Opening it reads the file once to choose the encoding (raising
    :class:`EncodingProblem` with the byte offset of the first bad byte, or
    :class:`InputError` when the file cannot be read); :meth:`pieces` and
    :meth:`lines` then read it again and decode it incrementally, with CRLF
    and lone CR turned into LF even across piece boundaries. Joined, the
    pieces are exactly ``decode_bytes(whole file)[0]``.
    """

    def __init__(self, path: str | os.PathLike[str], chunk_size: int = CHUNK_SIZE):
        self.path = os.fspath(path)
        self.chunk_size = max(4, chunk_size)
        self.encoding, self._start = self._scan()

    def _open(self):
        try:
            return _open_for_reading(self.path)
        except OSError as e:
            raise cannot_read(self.path, e) from None

    def _chunks(self, skip: int = 0, limit: int | None = None) -> Iterator[bytes]:
        """The file's bytes from ``skip``, in chunks; at most up to byte
        ``limit`` (the size the first pass saw: a file that grows meanwhile,
        a download still running, is read as it was)."""
        fh = self._open()
        with fh:
            try:
                if skip:
                    fh.seek(skip)
                at = skip
                for chunk in _iter_chunks(fh, self.chunk_size):
                    if limit is not None and at + len(chunk) >= limit:
                        yield chunk[:max(0, limit - at)]
                        return
                    at += len(chunk)
                    yield chunk
            except OSError as e:
                raise cannot_read(self.path, e) from None

    def _head(self) -> bytes:
        fh = self._open()
        with fh:
            try:
                return fh.read(4)
            except OSError as e:
                raise cannot_read(self.path, e) from None

    def _check_codec(self, codec: str, start: int, how: str) -> None:
        check = _StreamCheck(self.path, codec, start, how)
        for chunk in self._chunks(start, self.size):
            check.feed(chunk)
        check.feed(b"", final=True)
        problem = check.control_problem()
        if problem is not None:
            raise problem

    def _scan(self) -> tuple[str, int]:
        """The encoding decode_bytes would choose, and where the text starts."""
        try:
            self.size: int | None = os.stat(self.path).st_size
        except OSError:
            self.size = None
        head = self._head()
        if head.startswith(codecs.BOM_UTF8):
            self._check_codec("utf-8", 3, "bom")
            return "utf-8-sig", 3
        for bom, codec in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
            if head.startswith(bom):
                self._check_codec(codec, 2, "bom")
                return codec, 2
        size = 0
        even_zero = odd_zero = 0
        first_bad: int | None = None
        utf8 = codecs.getincrementaldecoder("utf-8")()
        utf8_ok = True
        for chunk in self._chunks(0, self.size):
            if 0 in chunk:
                if size % 2 == 0:
                    even_zero += chunk[0::2].count(0)
                    odd_zero += chunk[1::2].count(0)
                else:
                    even_zero += chunk[1::2].count(0)
                    odd_zero += chunk[0::2].count(0)
            if first_bad is None:
                bad = _BAD_CONTROL_RE.search(chunk)
                if bad is not None:
                    first_bad = size + bad.start()
            if utf8_ok:
                try:
                    utf8.decode(chunk)
                except UnicodeDecodeError:
                    utf8_ok = False
            size += len(chunk)
        if utf8_ok:
            try:
                utf8.decode(b"", True)
            except UnicodeDecodeError:
                utf8_ok = False
        if even_zero or odd_zero:
            guess = _guess_utf16_counts(size, even_zero, odd_zero)
            if guess is not None:
                try:
                    self._check_codec(guess, 0, "no-bom")
                    return guess, 0
                except EncodingProblem:
                    pass  # not UTF-16 after all: report the bytes below
        if first_bad is not None:
            raise _nul_or_control(self.path, self._byte_at(first_bad), first_bad)
        return ("utf-8" if utf8_ok else "cp1252"), 0

    def _byte_at(self, offset: int) -> int:
        fh = self._open()
        with fh:
            fh.seek(offset)
            return fh.read(1)[0]

    def raw_pieces(self) -> Iterator[str]:
        """Decoded pieces, line endings as in the file."""
        if self.encoding == "cp1252":
            for chunk in self._chunks(0, self.size):
                yield _decode_cp1252(chunk)
            return
        codec = "utf-8" if self.encoding == "utf-8-sig" else self.encoding
        decoder = codecs.getincrementaldecoder(codec)()
        at = self._start
        try:
            for chunk in self._chunks(self._start, self.size):
                yield decoder.decode(chunk)
                at += len(chunk)
            yield decoder.decode(b"", True)
        except UnicodeDecodeError as e:
            # the first pass found none: the file was changed in between
            raise EncodingProblem(path=self.path, offset=at, key="GM003.changed",
                                  fields={"codec": codec.upper(), "reason": e.reason}) from None

    def pieces(self) -> Iterator[str]:
        """Decoded pieces with every line ending turned into ``"\\n"``."""
        carry_cr = False
        for piece in self.raw_pieces():
            if not piece:
                continue
            if carry_cr:
                piece = "\r" + piece
            carry_cr = piece.endswith("\r")
            if carry_cr:
                piece = piece[:-1]
            if piece:
                yield normalise_newlines(piece)
        if carry_cr:
            yield "\n"

    def lines(self) -> Iterator[str]:
        """The lines of the text, each with its ``"\\n"`` (the last one
        without, when the file has no final newline)."""
        partial: list[str] = []
        for piece in self.pieces():
            segs = piece.split("\n")
            if len(segs) == 1:
                partial.append(piece)
                continue
            partial.append(segs[0])
            yield "".join(partial) + "\n"
            for seg in segs[1:-1]:
                yield seg + "\n"
            partial = [segs[-1]] if segs[-1] else []
        if partial:
            yield "".join(partial)

    def read(self) -> str:
        """The whole text (for small files, or when a whole text is needed)."""
        return "".join(self.pieces())


def open_decoded(path: str | os.PathLike[str], chunk_size: int = CHUNK_SIZE) -> DecodedFile:
    """A :class:`DecodedFile` for ``path`` (raises like :func:`read_text`)."""
    return DecodedFile(path, chunk_size)


def os_reason_msg(e: OSError) -> Msg:
    """Why the operating system refused, as a message of :mod:`gamao_cli.messages`."""
    if isinstance(e, FileNotFoundError):
        return Msg("os.not-found", {})
    if isinstance(e, IsADirectoryError):
        return Msg("os.is-a-directory", {})
    if isinstance(e, PermissionError):
        return Msg("os.permission", {})
    if isinstance(e, NotADirectoryError):
        return Msg("os.not-a-directory", {})
    return Msg("os.other", {"strerror": e.strerror or str(e)})


def os_reason(e: OSError) -> str:
    """Why the operating system refused, in words."""
    return str(os_reason_msg(e))


def cannot_read(path: str, e: OSError, key: str = "GM004.cannot-read") -> InputError:
    """The input error of a file the operating system does not let gamao read."""
    return InputError(path=path, key=key, fields={"reason": os_reason_msg(e)})


def _open_fd(label: str) -> tuple[int, os.stat_result]:
    """The file ``label`` opened for reading with the operating system's
    call, and its ``fstat``: a FIFO with no writer opens without waiting
    (and then reads as empty), and is read blocking from there; a folder is
    :class:`IsADirectoryError`, as ``open`` says."""
    fd = os.open(label, os.O_RDONLY | _NONBLOCK | _CLOEXEC)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", label)
        if not stat.S_ISREG(st.st_mode) and hasattr(os, "set_blocking"):
            try:
                os.set_blocking(fd, True)
            except OSError:
                pass
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def _open_for_reading(label: str):
    """``open(label, "rb")``, opened as :func:`_open_fd` opens it."""
    fd, _st = _open_fd(label)
    return os.fdopen(fd, "rb")


def _read_fd(label: str, size: int | None) -> bytes:
    """The first ``size`` bytes (all of them, when None) of the file
    ``label`` (opened by :func:`_open_fd`), read with the operating
    system's own calls, without a Python file object: a read of the file's
    size, then to its end should it have grown (most records are a few
    kilobytes: what a read costs is mostly its calls)."""
    fd, st = _open_fd(label)
    try:
        chunk = st.st_size + 1 if stat.S_ISREG(st.st_mode) else _STREAM_CHUNK
        pieces = []
        got = 0
        while size is None or got < size:
            data = os.read(fd, chunk if size is None else min(chunk, size - got))
            if not data:
                break
            pieces.append(data)
            got += len(data)
            chunk = _STREAM_CHUNK
        return pieces[0] if len(pieces) == 1 else b"".join(pieces)
    finally:
        os.close(fd)


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_STREAM_CHUNK = 1 << 20


def read_file_bytes(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """Every byte of a file (not standard input); operating-system errors
    become :class:`gamao_cli.errors.InputError`, and so does more than
    ``limit`` bytes, when given."""
    label = os.fspath(path)
    try:
        data = _read_fd(label, None if limit is None else limit + 1)
    except OSError as e:
        raise cannot_read(label, e) from None
    if limit is not None and len(data) > limit:
        raise InputError(path=label, key="GM004.stream-too-big", fields={"limit": limit >> 20})
    return data


def read_file_head(path: str | os.PathLike[str], size: int) -> bytes:
    """The first ``size`` bytes of a file (raises like :func:`read_file_bytes`)."""
    label = os.fspath(path)
    try:
        return _read_fd(label, size)
    except OSError as e:
        raise cannot_read(label, e) from None


def read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """Read and decode a file (``"-"`` reads standard input); return ``(text, encoding)``.

    Operating-system errors become :class:`gamao_cli.errors.InputError`.
    """
    if isinstance(path, str) and path == "-":
        label = "<stdin>"
        try:
            data = sys.stdin.buffer.read()
        except OSError as e:
            raise cannot_read(label, e, "GM004.cannot-read-stdin") from None
        return decode_bytes(data, label)
    return decode_bytes(read_file_bytes(path), os.fspath(path))


def _current_umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:  # pragma: no cover - os.write raises rather than returning 0
            raise OSError(errno.EIO, "write returned no progress")
        view = view[n:]


def _write_stdout(data: str | bytes, encoding: str) -> None:
    try:
        if isinstance(data, str):
            buf = getattr(sys.stdout, "buffer", None)
            if buf is not None:
                buf.write(data.encode(encoding))
                buf.flush()
            else:
                sys.stdout.write(data)
            sys.stdout.flush()
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
    except UnicodeEncodeError as e:
        raise OutputError(f"<stdout>: cannot encode {e.object[e.start:e.end]!r} in {encoding}") from None
    except OSError as e:
        raise OutputError(f"<stdout>: cannot write: {os_reason(e)}") from None


def _encoded(chunks: Iterable[str | bytes], encoding: str, label: str) -> Iterator[bytes]:
    """Each chunk as bytes (a ``str`` encoded with ``encoding``)."""
    for chunk in chunks:
        if isinstance(chunk, str):
            try:
                yield chunk.encode(encoding)
            except UnicodeEncodeError as e:
                raise OutputError(f"{label}: cannot encode {e.object[e.start:e.end]!r} in "
                                  f"{encoding}; nothing was written") from None
            except LookupError:
                raise OutputError(f"{label}: unknown encoding {encoding!r}; nothing was "
                                  "written") from None
        elif isinstance(chunk, (bytes, bytearray, memoryview)):
            yield bytes(chunk)
        else:
            raise TypeError(f"atomic_write needs str or bytes, not {type(chunk).__name__}")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(text: str) -> str:
    """``text`` with every lone surrogate written as its escape ``\\udcXX``.

    A file name whose bytes are no UTF-8 holds them (``os.fsdecode`` makes
    each such byte a lone surrogate), and no UTF-8 output can: the escape is
    what ``errors="backslashreplace"`` writes (so a path reads the same in
    every output) and, inside a JSON string, the JSON escape of the same
    character (so the JSON reads back into the same string).

    >>> print(escape_surrogates("bad-" + chr(0xDCFF) + ".mat"), escape_surrogates("Ñúñez"))
    bad-\\udcff.mat Ñúñez
    """
    if text.isascii():
        return text
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


#: What XML 1.0 forbids in a document: C0 controls but tab, line feed and
#: carriage return; U+FFFE and U+FFFF; surrogates (which no encoding holds alone).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids written as its escape
    (``\\x01``, ``\\x1b``, ``\\ufffe``, a lone surrogate ``\\udcff``), the
    way gamao's other outputs write such characters, so that an XML reader
    reads the document (SVG, JUnit, the HTML pages) and the text stays
    visible.

    >>> print(xml_safe("a" + chr(1) + "b" + chr(0xDCFF) + "-ok"))
    a\\x01b\\udcff-ok
    """
    if text.isascii() and text.isprintable():
        return text
    # a page is tens of megabytes: a search finds nothing to escape faster
    # than a substitution copies it, and the substitution starts where the
    # search stopped
    first = _NOT_XML.search(text)
    if first is None:
        return text
    at = first.start()
    return text[:at] + _NOT_XML.sub(_xml_escape, text[at:])


def _xml_escape(m: "re.Match[str]") -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x20 else f"\\u{c:04x}"


def atomic_write(
    path: str | os.PathLike[str],
    data: "str | bytes | Iterable[str | bytes]",
    *,
    force: bool = False,
    encoding: str = "utf-8",
    commit: "Callable[[], bool] | None" = None,
) -> bool:
    """Write ``data`` to ``path`` atomically (``"-"`` writes to standard output).

    The data go to a temporary file in the target's folder, which is flushed,
    fsynced and then renamed onto the target.  Without ``force`` an existing
    target is never replaced (:class:`gamao_cli.errors.OutputError`).  On any
    failure the temporary file is removed, the previous file (if any) is left
    untouched and ``OutputError`` explains what went wrong.  A replaced file
    keeps its permission bits; a new one gets the usual ``0o666 & ~umask``.
    An existing character device or pipe (``/dev/null``, ``/dev/stdout``,
    ``/dev/full``, a FIFO) is written to directly, never replaced; a block
    device or socket is refused. A symbolic link is never written through
    (it may lead out of the output folder): without ``force`` it is refused,
    with ``force`` the link itself is replaced by the new file, atomically,
    and its target is left as it was.
    A ``str`` is encoded with ``encoding``; newlines are written as given.

    ``data`` may also be an iterable of ``str`` or ``bytes`` chunks (a
    writer's :meth:`~gamao_cli.formats.base.WriteResult.iter_chunks`): each
    is written as it comes, so the whole output is never in memory; an
    exception the iterable raises (a writer refusing midway) leaves nothing
    behind, as any failure does. ``commit``, when given, is asked once every
    byte is in the temporary file: ``False`` (say, the writer found errors
    and ``--strict`` is on) removes it and leaves the target as it was.
    Returns whether the target was written. (Standard output and devices
    are written as the chunks come; ``commit`` cannot take back what they
    got.)
    """
    staged = _Staged()
    try:
        return _settle(_stage(staged, path, data, force, encoding, commit))
    except BaseException:
        staged.discard()   # (unless _settle took it: it cleans up after itself)
        raise


def _stage(staged: "_Staged", path: str | os.PathLike[str],
           data: "str | bytes | Iterable[str | bytes]", force: bool, encoding: str,
           commit: "Callable[[], bool] | None") -> "_Staged | bool":
    """The start of :func:`atomic_write`: every check, then the data in a
    temporary file beside the target, kept in ``staged`` as soon as it
    exists (the caller discards it when this raises, or when an interrupt
    comes before it is given on); standard output and devices are written
    at once (True)."""
    chunked = not isinstance(data, (str, bytes, bytearray, memoryview))
    if isinstance(path, str) and path == "-":
        for chunk in (data if chunked else [data]):
            _write_stdout(chunk, encoding)
        return True
    if chunked:
        payloads: Iterable[bytes] = _encoded(data, encoding, os.fspath(path))
    elif isinstance(data, str):
        try:
            payload = data.encode(encoding)
        except UnicodeEncodeError as e:
            raise OutputError(
                f"{os.fspath(path)}: cannot encode {e.object[e.start:e.end]!r} in {encoding}; nothing was written"
            ) from None
        except LookupError:
            raise OutputError(f"{os.fspath(path)}: unknown encoding {encoding!r}; nothing was written") from None
    else:
        payload = bytes(data)
    if not chunked:
        payloads = [payload]

    label = os.fspath(path)
    try:
        st = os.stat(label)
    except OSError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        _write_special(label, st, payloads)
        return True
    target = Path(label)
    link = target.is_symlink()
    if link:
        # never written through: the link may point out of the output folder
        # (or nowhere yet); --force replaces the link itself, never its target
        if not force:
            raise OutputError(link_refused(label))
    elif target.is_dir():
        raise OutputError(f"{label}: is a directory")
    exists = os.path.lexists(target)
    if exists and not force:
        raise OutputError(f"{label}: already exists (use --force to overwrite it)")
    folder = target.parent
    if not folder.is_dir():
        if os.path.exists(folder):
            raise OutputError(f"{label}: {str(folder)!r} is not a folder")
        raise OutputError(f"{label}: folder {str(folder)!r} does not exist")

    if exists and not link:
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            mode = 0o666 & ~_current_umask()
    else:
        mode = 0o666 & ~_current_umask()

    staged.target, staged.label, staged.folder = target, label, folder
    staged.mode, staged.exists, staged.force, staged.commit = mode, exists, force, commit
    step = "create a temporary file"
    try:
        prefix = _temporary_prefix(target.name)
        for _attempt in range(100):
            # (the name is kept before the file is made: an interrupt that
            # comes as open() returns, a signal that arrived during it, a
            # worker's stop, still finds it to remove; mkstemp would have
            # made the file and lost its name)
            staged.tmp = _temporary_name(folder, prefix)
            try:
                staged.fd = os.open(staged.tmp, _TEMPORARY_FLAGS, 0o600)
                break
            except FileExistsError:
                staged.tmp = None
        else:
            raise FileExistsError(errno.EEXIST, "no free name for a temporary file")
        step = "write"
        fd = staged.fd
        for piece in payloads:
            _write_all(fd, piece)
    except OSError as e:
        what = "the previous file was left unchanged" if exists else "nothing was written"
        raise OutputError(f"{label}: cannot {step}: {os_reason(e)}; {what}") from None
    return staged


class _Staged:
    """A temporary file beside its target, filled by :func:`_stage` as it is
    made and written (its name first), then made durable and put in the
    target's place by :func:`_settle`, or removed by :meth:`discard`:
    whichever :meth:`claim` s it first (the settling thread, or its writer
    interrupted before it was given on); never both."""

    __slots__ = ("fd", "tmp", "target", "label", "folder", "mode", "exists", "force", "commit",
                 "_owned")

    def __init__(self) -> None:
        self.fd = -1
        self.tmp: str | None = None
        self.target: Any = None
        self.label = ""
        self.folder: Any = None
        self.mode = 0o600
        self.exists = False
        self.force = False
        self.commit: "Callable[[], bool] | None" = None
        self._owned = threading.Lock()

    def claim(self) -> bool:
        """Whether the caller now owns the temporary file (the first to ask)."""
        return self._owned.acquire(blocking=False)

    def discard(self) -> None:
        """Remove the temporary file, unless another owns it already."""
        if self.claim():
            _discard(self.fd, self.tmp)


def _discard(fd: int, tmp: str | None) -> None:
    """Close and remove a temporary file (best effort)."""
    if fd >= 0:
        try:
            os.close(fd)
        except OSError:
            pass
    if tmp is not None:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _settle(staged: "_Staged | bool") -> bool:
    """The end of :func:`atomic_write`: the temporary file flushed to disk,
    given the target's permissions, closed, and (unless ``commit`` says no)
    renamed onto the target; on any failure it is removed and the target
    left as it was."""
    if not isinstance(staged, _Staged):   # (standard output, a device: written already)
        return staged
    if not staged.claim():   # (its writer was interrupted, and discarded it)
        return False
    fd, tmp, target, label = staged.fd, staged.tmp, staged.target, staged.label
    force, commit = staged.force, staged.commit
    step = "flush to disk"
    try:
        os.fsync(fd)
        step = "set permissions"
        os.fchmod(fd, staged.mode)
        step = "close"
        os.close(fd)
        fd = -1
        if commit is not None and not commit():
            return False   # the temporary file goes (finally, below)
        step = "rename the temporary file onto the target"
        if force:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)  # fails if the target appeared meanwhile
            except FileExistsError:
                raise OutputError(f"{label}: already exists (use --force to overwrite it)") from None
            except OSError as e:
                if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                    raise
                if os.path.lexists(target):
                    raise OutputError(f"{label}: already exists (use --force to overwrite it)") from None
                os.replace(tmp, target)
            else:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
        tmp = None
    except OutputError:
        raise
    except OSError as e:
        what = "the previous file was left unchanged" if staged.exists else "nothing was written"
        raise OutputError(f"{label}: cannot {step}: {os_reason(e)}; {what}") from None
    finally:
        _discard(fd, tmp)
    sync_folder_later(staged.folder)
    return True


#: the threads of the :func:`writes_settled_in_background` blocks (innermost last)
_SETTLERS: list = []


@contextlib.contextmanager
def writes_settled_in_background() -> Iterator[None]:
    """In the ``with`` block, :func:`atomic_write_soon` leaves the end of
    each write (the sync to disk that waits for the disk, the rename) to a
    thread of the block's, one write after the other in the order given,
    while the caller makes its next output: a command writing a thousand
    files no longer waits for the disk after each. The block ends when
    every write given in it has settled, however it ends (an interrupt
    included): no temporary file is left, each target is whole, old or new.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with writes_settled_in_background():
    ...     settle = atomic_write_soon(os.path.join(folder, "a.txt"), "one")
    ...     settle()
    True
    >>> open(os.path.join(folder, "a.txt")).read(), os.listdir(folder)
    ('one', ['a.txt'])
    """
    from concurrent.futures import ThreadPoolExecutor
    settler = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gamao-writes")
    _SETTLERS.append(settler)
    try:
        yield
    finally:
        _SETTLERS.remove(settler)
        # every write given settles before the block ends: an interrupt that
        # comes while this waits (a worker's stop) is raised once they have
        stopped: BaseException | None = None
        while True:
            try:
                settler.shutdown(wait=True)
                break
            except BaseException as exc:
                stopped = stopped or exc
        if stopped is not None:
            raise stopped


def one_behind(items: Iterable[Any]) -> Iterator[Any]:
    """Each of ``items``, given once the item after it has been made (the
    last at the end): how a caller of :func:`atomic_write_soon` takes each
    output's outcome while the next output is being made, in order.

    >>> made = []
    >>> def outputs():
    ...     for n in (1, 2, 3):
    ...         made.append(n)
    ...         yield n
    >>> [(n, list(made)) for n in one_behind(outputs())]
    [(1, [1, 2]), (2, [1, 2, 3]), (3, [1, 2, 3])]
    """
    held: Any = _NOTHING
    for item in items:
        if held is not _NOTHING:
            yield held
        held = item
    if held is not _NOTHING:
        yield held


_NOTHING: Any = object()


def atomic_write_soon(path: str | os.PathLike[str],
                      data: "str | bytes | Iterable[str | bytes]", *, force: bool = False,
                      encoding: str = "utf-8") -> Callable[[], bool]:
    """:func:`atomic_write`, its end left to the innermost
    :func:`writes_settled_in_background` block's thread: the data are
    written to the temporary file here (what cannot be written raises
    :class:`~gamao_cli.errors.OutputError` here); the returned call waits
    for the rest and returns what :func:`atomic_write` returns, or raises
    its ``OutputError`` (the disk full at the sync, the target there by
    then). Outside such a block, the write is whole before this returns."""
    staged = _Staged()
    try:
        done = _stage(staged, path, data, force, encoding, None)
        if not _SETTLERS or done is not staged:
            result = _settle(done)
            return lambda: result
        return _SETTLERS[-1].submit(_settle, staged).result
    except BaseException:
        staged.discard()   # (interrupted before the thread took it: gone)
        raise


#: the folders whose sync :func:`folders_synced_at_end` blocks leave to
#: their end (innermost last)
_DEFERRED_SYNCS: list[dict[str, None]] = []


@contextlib.contextmanager
def folders_synced_at_end() -> Iterator[None]:
    """In the ``with`` block, :func:`atomic_write` leaves the sync of its
    target's folder (which makes the rename durable) to the block's end,
    once a folder, however the block ends: a command writing a thousand
    files into one folder syncs it once, not a thousand times (on the bulk
    corpus, ``convert --to html --out-dir``: 1.2 s of 7.5 s of wall time).
    Every file is still synced before its rename, so a crash in the block
    leaves each target whole, old or new; the block's end makes the renames
    themselves durable, before the command exits.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with folders_synced_at_end():
    ...     atomic_write(os.path.join(folder, "a.txt"), "one")
    ...     atomic_write(os.path.join(folder, "b.txt"), "two")
    ...     [os.fspath(f) == folder for f in _DEFERRED_SYNCS[-1]]
    True
    True
    [True]
    >>> _DEFERRED_SYNCS
    []
    """
    pending: dict[str, None] = {}
    _DEFERRED_SYNCS.append(pending)
    try:
        yield
    finally:
        _DEFERRED_SYNCS.remove(pending)
        for folder in pending:
            _fsync_dir(Path(folder))


def sync_folder_later(folder: str | os.PathLike[str]) -> None:
    """Have the innermost :func:`folders_synced_at_end` block sync
    ``folder`` at its end, or sync it at once when there is no such block:
    what :func:`atomic_write` does after each rename, and what a command
    does for files its worker processes wrote (their own record of the
    folder is lost with them)."""
    if _DEFERRED_SYNCS:
        _DEFERRED_SYNCS[-1].setdefault(os.fspath(folder))
    else:
        _fsync_dir(Path(folder))


#: how a temporary file is opened: created here or not at all, never
#: through a link, not inherited by a child process
_TEMPORARY_FLAGS = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _temporary_name(folder: str | os.PathLike[str], prefix: str) -> str:
    """A path in ``folder``: ``PREFIX`` + 8 random characters + ``.tmp``
    (opened with :data:`_TEMPORARY_FLAGS`, owner only, as
    :func:`tempfile.mkstemp` makes its files)."""
    import secrets
    return os.path.join(folder, f"{prefix}{secrets.token_hex(4)}.tmp")


def _temporary_prefix(name: str) -> str:
    """The start of a temporary file's name beside the target ``name``:
    ``.NAME.``, with a long name cut so that the temporary name (8 random
    characters and ``.tmp`` added) still fits where ``NAME`` fits (255
    bytes on most file systems).

    >>> _temporary_prefix("a.html"), len(_temporary_prefix("x" * 250))
    ('.a.html.', 52)
    """
    if len(os.fsencode(name)) > 200:
        name = name[:50]   # (at most 4 bytes a character)
    return f".{name}."


def link_refused(label: str) -> str:
    try:
        to = os.readlink(label)
    except OSError:
        to = "?"
    from gamao_cli.i18n import _
    return _("{path}: is a symbolic link (to {target}); gamao does not write through a link "
             "(--force replaces the link itself, never its target)").format(
        path=label, target=repr(to))


def _write_special(label: str, st: os.stat_result, payloads: Iterable[bytes]) -> None:
    """Write to an existing character device or pipe (``/dev/null``,
    ``/dev/stdout``, a FIFO): there is no file to replace, so the data go
    straight to it (``--force`` is not needed). Anything else that is not a
    regular file (a block device, a socket) is refused."""
    mode = st.st_mode
    if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        kind = "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) \
            else "not a regular file"
        raise OutputError(f"{label}: is {kind}; nothing was written")
    step = "open"
    try:
        # a FIFO nobody reads would block an ordinary open: fail at once instead
        fd = os.open(label, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        reason = "no process reads this pipe" if e.errno == errno.ENXIO else os_reason(e)
        raise OutputError(f"{label}: cannot {step}: {reason}; nothing was written") from None
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        step = "write"
        for piece in payloads:
            _write_all(fd, piece)
    except OSError as e:
        raise OutputError(f"{label}: cannot {step}: {os_reason(e)}") from None
    finally:
        try:
            os.close(fd)
        except OSError:
            pass


def _fsync_dir(folder: Path) -> None:
    """Make the rename durable (best effort; not all systems allow it)."""
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
