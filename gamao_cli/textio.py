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

Writing: :func:`atomic_write` writes a temporary file next to the target,
flushes and fsyncs it, then renames it over the target, so a reader sees the
old file or the new one, never half of one.
"""
from __future__ import annotations

import codecs
import errno
import os
import re
import stat
import sys
import tempfile
from pathlib import Path

from .errors import EncodingProblem, InputError, OutputError

__all__ = ["decode_bytes", "read_text", "atomic_write", "normalise_newlines"]

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


def _describe_byte(data: bytes, offset: int) -> str:
    return f"byte 0x{data[offset]:02X}" if offset < len(data) else "end of data"


def _control_problem(text: str) -> int | None:
    """Index of the first disallowed control character in ``text``, or None."""
    if not _BAD_CONTROLS.intersection(text):
        return None
    return next(i for i, ch in enumerate(text) if ch in _BAD_CONTROLS)


def _binary_problem(path: str, data: bytes, offset: int, what: str = "") -> EncodingProblem:
    b = data[offset]
    kind = "a NUL byte" if b == 0 else f"control byte 0x{b:02X}"
    return EncodingProblem(
        path=path,
        message=f"not a text file: {kind}{what} (binary data?)",
        offset=offset,
    )


def _utf16_offset(text: str, index: int, codec: str, start: int) -> int:
    return start + len(text[:index].encode(codec, "surrogatepass"))


def _decode_utf16(data: bytes, path: str, codec: str, start: int, how: str) -> tuple[str, str]:
    body = data[start:]
    try:
        text = body.decode(codec)
    except UnicodeDecodeError as e:
        off = start + e.start
        reason = "odd number of bytes" if e.reason == "truncated data" else e.reason
        raise EncodingProblem(
            path=path,
            message=f"invalid {codec.upper()} ({how}): {reason} at {_describe_byte(data, off)}",
            offset=off,
        ) from None
    bad = _control_problem(text)
    if bad is not None:
        off = _utf16_offset(text, bad, codec, start)
        ch = text[bad]
        raise EncodingProblem(
            path=path,
            message=f"not a text file: control character U+{ord(ch):04X} in {codec.upper()} text",
            offset=off,
        )
    return normalise_newlines(text), codec


def _guess_utf16(data: bytes) -> str | None:
    """``utf-16-le``/``-be`` if the NUL pattern of BOM-less UTF-16 shows, else None."""
    n = len(data) // 2
    if n < 1 or len(data) % 2:
        return None
    even_zero = data[0::2].count(0)
    odd_zero = data[1::2].count(0)
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
            raise EncodingProblem(
                path=path,
                message=f"invalid UTF-8 after a UTF-8 byte order mark: {_describe_byte(data, off)}",
                offset=off,
            ) from None
        bad = _control_problem(text)
        if bad is not None:
            off = 3 + len(text[:bad].encode("utf-8"))
            raise _binary_problem(path, data, off)
        return normalise_newlines(text), "utf-8-sig"
    if data.startswith(codecs.BOM_UTF16_LE):
        return _decode_utf16(data, path, "utf-16-le", 2, "after a byte order mark")
    if data.startswith(codecs.BOM_UTF16_BE):
        return _decode_utf16(data, path, "utf-16-be", 2, "after a byte order mark")

    if 0 in data:
        guess = _guess_utf16(data)
        if guess is not None:
            try:
                return _decode_utf16(data, path, guess, 0, "without a byte order mark")
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


def _os_reason(e: OSError) -> str:
    if isinstance(e, FileNotFoundError):
        return "no such file or directory"
    if isinstance(e, IsADirectoryError):
        return "is a directory"
    if isinstance(e, PermissionError):
        return "permission denied"
    if isinstance(e, NotADirectoryError):
        return "a component of the path is not a directory"
    return e.strerror or str(e)


def read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """Read and decode a file (``"-"`` reads standard input); return ``(text, encoding)``.

    Operating-system errors become :class:`gamao_cli.errors.InputError`.
    """
    if isinstance(path, str) and path == "-":
        label = "<stdin>"
        try:
            data = sys.stdin.buffer.read()
        except OSError as e:
            raise InputError(path=label, message=f"cannot read standard input: {_os_reason(e)}") from None
        return decode_bytes(data, label)
    label = os.fspath(path)
    try:
        if os.path.isdir(label):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", label)
        with open(label, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise InputError(path=label, message=f"cannot read: {_os_reason(e)}") from None
    return decode_bytes(data, label)


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
        raise OutputError(f"<stdout>: cannot write: {_os_reason(e)}") from None


def atomic_write(
    path: str | os.PathLike[str],
    data: str | bytes,
    *,
    force: bool = False,
    encoding: str = "utf-8",
) -> None:
    """Write ``data`` to ``path`` atomically (``"-"`` writes to standard output).

    The data go to a temporary file in the target's folder, which is flushed,
    fsynced and then renamed onto the target.  Without ``force`` an existing
    target is never replaced (:class:`gamao_cli.errors.OutputError`).  On any
    failure the temporary file is removed, the previous file (if any) is left
    untouched and ``OutputError`` explains what went wrong.  A replaced file
    keeps its permission bits; a new one gets the usual ``0o666 & ~umask``.
    A ``str`` is encoded with ``encoding``; newlines are written as given.
    """
    if isinstance(path, str) and path == "-":
        _write_stdout(data, encoding)
        return
    if isinstance(data, str):
        try:
            payload = data.encode(encoding)
        except UnicodeEncodeError as e:
            raise OutputError(
                f"{os.fspath(path)}: cannot encode {e.object[e.start:e.end]!r} in {encoding}; nothing was written"
            ) from None
        except LookupError:
            raise OutputError(f"{os.fspath(path)}: unknown encoding {encoding!r}; nothing was written") from None
    elif isinstance(data, (bytes, bytearray, memoryview)):
        payload = bytes(data)
    else:
        raise TypeError(f"atomic_write needs str or bytes, not {type(data).__name__}")

    label = os.fspath(path)
    target = Path(label)
    if target.is_symlink():  # write through the link, keep the link
        target = Path(os.path.realpath(target))
    if target.is_dir():
        raise OutputError(f"{label}: is a directory")
    exists = os.path.lexists(target)
    if exists and not force:
        raise OutputError(f"{label}: already exists (use --force to overwrite it)")
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"{label}: folder {str(folder)!r} does not exist")

    if exists:
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            mode = 0o666 & ~_current_umask()
    else:
        mode = 0o666 & ~_current_umask()

    tmp: str | None = None
    fd = -1
    step = "create a temporary file"
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        step = "write"
        _write_all(fd, payload)
        step = "flush to disk"
        os.fsync(fd)
        step = "set permissions"
        os.fchmod(fd, mode)
        step = "close"
        os.close(fd)
        fd = -1
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
        what = "the previous file was left unchanged" if exists else "nothing was written"
        raise OutputError(f"{label}: cannot {step}: {_os_reason(e)}; {what}") from None
    finally:
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
    _fsync_dir(folder)


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
