"""Tests for gamao_cli.formats.textio: decoding text files and writing files atomically."""
from __future__ import annotations

import codecs
import errno
import io
import os
import stat
import sys

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import fail_fsync_of
from gamao_cli.formats import textio
from gamao_cli.errors import EncodingProblem, InputError, OutputError
from gamao_cli.formats.textio import (atomic_write, decode_bytes, read_file_bytes, read_file_head,
                                      read_text)

NAMES = "; [Player 1 \"Jürgen Ñúñez\"]\n; [Player 2 \"Zoë Øster\"]\n 5 point match\n"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


# ---------------------------------------------------------------------------
# decode_bytes: encodings
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "raw, expected_encoding",
    [
        (codecs.BOM_UTF8 + NAMES.encode("utf-8"), "utf-8-sig"),
        (NAMES.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF16_LE + NAMES.encode("utf-16-le"), "utf-16-le"),
        (codecs.BOM_UTF16_BE + NAMES.encode("utf-16-be"), "utf-16-be"),
        (NAMES.encode("utf-16-le"), "utf-16-le"),  # no BOM: found by the NUL pattern
        (NAMES.encode("utf-16-be"), "utf-16-be"),
        (NAMES.encode("cp1252"), "cp1252"),
    ],
    ids=["utf8-bom", "utf8", "utf16le-bom", "utf16be-bom", "utf16le-nobom", "utf16be-nobom", "cp1252"],
)
def test_encodings(raw, expected_encoding):
    text, enc = decode_bytes(raw, "names.mat")
    assert (text, enc) == (NAMES, expected_encoding)
    assert "\ufeff" not in text


def test_ascii_is_reported_as_utf8():
    assert decode_bytes(b" 1 point match\n", "a.mat") == (" 1 point match\n", "utf-8")


def test_empty_file():
    assert decode_bytes(b"", "empty.mat") == ("", "utf-8")
    assert decode_bytes(codecs.BOM_UTF8, "bom-only.mat") == ("", "utf-8-sig")
    assert decode_bytes(codecs.BOM_UTF16_LE, "bom-only.mat") == ("", "utf-16-le")


def test_cp1252_specials_and_undefined_bytes():
    # 0x80 is the euro sign in cp1252; 0x81 0x8D 0x8F 0x90 0x9D are undefined
    # there and read as Latin-1 (C1 controls) rather than failing
    raw = b"Stake \x80 5\r\nodd \x81\x8d\x8f\x90\x9d end"
    text, enc = decode_bytes(raw, "x.mat")
    assert enc == "cp1252"
    assert text == "Stake \u20ac 5\nodd \x81\x8d\x8f\x90\x9d end"


def test_cp1252_names_like_a_windows_program_writes_them():
    raw = "Jürgen Ñúñez : 0      Renée : 0\r\n".encode("cp1252")
    assert decode_bytes(raw, "w.mat") == ("Jürgen Ñúñez : 0      Renée : 0\n", "cp1252")


def test_utf8_preferred_when_valid():
    # these bytes are also valid cp1252 ("JÃ¼rgen"), but valid UTF-8 wins
    assert decode_bytes("Jürgen".encode("utf-8"), "x") == ("Jürgen", "utf-8")


def test_japanese_utf8_names():
    raw = "X:ポイント 1   O:ポイント 2\n".encode("utf-8")
    assert decode_bytes(raw, "xg.txt") == ("X:ポイント 1   O:ポイント 2\n", "utf-8")


# ---------------------------------------------------------------------------
# decode_bytes: line endings, tabs, final newline
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "raw, expected",
    [
        (b"a\r\nb\r\n", "a\nb\n"),          # CRLF
        (b"a\rb\r", "a\nb\n"),              # classic Mac CR only
        (b"a\r\nb\nc\rd", "a\nb\nc\nd"),    # mixed, no final newline
        (b"a\r\r\nb", "a\n\nb"),            # CR then CRLF: two line ends
        (b"a\n\n\nb", "a\n\n\nb"),          # blank lines kept
        (b"last line", "last line"),        # missing final newline kept missing
        (b"\t7)\t31: 8/5\t6/5\r\n", "\t7)\t31: 8/5\t6/5\n"),  # tabs are not expanded
    ],
)
def test_line_endings(raw, expected):
    text, _ = decode_bytes(raw, "x")
    assert text == expected


@pytest.mark.parametrize("codec, bom", [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE)])
def test_utf16_line_endings(codec, bom):
    raw = bom + "Game 1\r\n Alice : 0\rBob\n".encode(codec)
    assert decode_bytes(raw, "x") == ("Game 1\n Alice : 0\nBob\n", codec)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="".join(
    chr(c) for c in range(32) if chr(c) not in "\t\n\r"))))
@settings(max_examples=200, deadline=None)
def test_round_trip_any_text(text):
    # Text that itself starts with U+FEFF is indistinguishable from a BOM.
    assume(not text.startswith("\ufeff"))
    expected = text.replace("\r\n", "\n").replace("\r", "\n")
    for codec, prefix in (("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE),
                          ("utf-16-be", codecs.BOM_UTF16_BE)):
        got, _ = decode_bytes(prefix + text.encode(codec), "x")
        assert got == expected
    got, enc = decode_bytes(text.encode("utf-8"), "x")
    assert got == expected and enc == "utf-8"
    try:
        raw = text.encode("cp1252")
    except UnicodeEncodeError:
        return
    got, enc = decode_bytes(raw, "x")
    if enc == "cp1252":
        assert got == expected


# ---------------------------------------------------------------------------
# decode_bytes: not text
# ---------------------------------------------------------------------------

def test_binary_file_reports_offset():
    raw = b"PK\x03\x04" + bytes(range(256))
    with pytest.raises(EncodingProblem) as exc:
        decode_bytes(raw, "archive.zip")
    e = exc.value
    assert isinstance(e, InputError)
    assert e.path == "archive.zip"
    assert e.offset == 2  # 0x03 is the first byte no text contains
    assert "archive.zip: byte 2" in str(e) and "not a text file" in str(e)


def test_nul_byte_reports_offset():
    raw = b"; [Site \"x\"]\n 1 point match\n\x00\x00\x00"
    with pytest.raises(EncodingProblem) as exc:
        decode_bytes(raw, "bad.mat")
    assert exc.value.offset == raw.index(b"\x00")
    assert "NUL" in exc.value.message


def test_png_like_binary():
    raw = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    with pytest.raises(EncodingProblem) as exc:
        decode_bytes(raw, "img.png")
    assert exc.value.offset == 8


def test_invalid_utf8_after_bom():
    raw = codecs.BOM_UTF8 + b"abc\xff def"
    with pytest.raises(EncodingProblem) as exc:
        decode_bytes(raw, "x.mat")
    assert exc.value.offset == 6
    assert "UTF-8" in exc.value.message


def test_truncated_utf16():
    raw = codecs.BOM_UTF16_LE + "abc".encode("utf-16-le") + b"d"
    with pytest.raises(EncodingProblem) as exc:
        decode_bytes(raw, "x.mat")
    assert exc.value.offset == 8
    assert "odd number of bytes" in exc.value.message


def test_lone_surrogate_utf16():
    raw = codecs.BOM_UTF16_LE + "ab".encode("utf-16-le") + b"\x00\xd8" + "c".encode("utf-16-le")
    with pytest.raises(EncodingProblem) as exc:
        decode_bytes(raw, "x.mat")
    assert exc.value.offset == 6


def test_control_character_in_utf16_text():
    raw = codecs.BOM_UTF16_BE + "ab\x02c".encode("utf-16-be")
    with pytest.raises(EncodingProblem) as exc:
        decode_bytes(raw, "x.mat")
    assert exc.value.offset == 6


def test_allowed_controls_pass():
    raw = b"a\tb\x0bc\x0cd\x1be\r\n\x1a"  # TAB VT FF ESC CRLF and a DOS EOF mark
    assert decode_bytes(raw, "x")[0] == "a\tb\x0bc\x0cd\x1be\n\x1a"


def test_decode_bytes_type_check():
    with pytest.raises(TypeError):
        decode_bytes("already text", "x")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# read_text
# ---------------------------------------------------------------------------

def test_read_text_file(tmp_path):
    p = tmp_path / "m.mat"
    p.write_bytes(codecs.BOM_UTF8 + b" 3 point match\r\n")
    assert read_text(p) == (" 3 point match\n", "utf-8-sig")
    assert read_text(str(p)) == (" 3 point match\n", "utf-8-sig")


def test_read_text_stdin(monkeypatch):
    fake = io.TextIOWrapper(io.BytesIO("Ñ\r\n".encode("cp1252")))
    monkeypatch.setattr(sys, "stdin", fake)
    assert read_text("-") == ("Ñ\n", "cp1252")


def test_read_text_stdin_binary_error_names_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\x00\x01")))
    with pytest.raises(EncodingProblem) as exc:
        read_text("-")
    assert exc.value.path == "<stdin>" and exc.value.offset == 0


def test_read_text_missing(tmp_path):
    p = tmp_path / "nope.mat"
    with pytest.raises(InputError) as exc:
        read_text(p)
    assert exc.value.path == str(p)
    assert "no such file" in str(exc.value)
    assert not isinstance(exc.value, EncodingProblem)


def test_read_text_directory(tmp_path):
    with pytest.raises(InputError, match="is a directory"):
        read_text(tmp_path)


def test_read_text_not_a_directory(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(InputError, match="not a directory"):
        read_text(f / "child.mat")


@pytest.mark.skipif(IS_ROOT, reason="root reads files whatever their permission bits")
def test_read_text_unreadable(tmp_path):
    p = tmp_path / "secret.mat"
    p.write_text("x")
    p.chmod(0)
    try:
        with pytest.raises(InputError, match="permission denied"):
            read_text(p)
    finally:
        p.chmod(0o644)


def test_read_text_permission_error_simulated(tmp_path, monkeypatch):
    # works as root too: the operating system's answer is simulated
    p = tmp_path / "secret.mat"
    p.write_text("x")
    real_open = os.open   # the reader opens with the operating system's call

    def deny(file, *args, **kwargs):
        if os.fspath(file) == str(p):
            raise PermissionError(errno.EACCES, "Permission denied", str(p))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)
    with pytest.raises(InputError) as exc:
        read_text(p)
    assert exc.value.path == str(p) and "permission denied" in exc.value.message


def test_read_text_binary_file(tmp_path):
    p = tmp_path / "x.bin"
    p.write_bytes(b"ok\x00")
    with pytest.raises(EncodingProblem) as exc:
        read_text(p)
    assert exc.value.path == str(p) and exc.value.offset == 2


# ---------------------------------------------------------------------------
# atomic_write
# ---------------------------------------------------------------------------

def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_atomic_write_new_file(tmp_path):
    p = tmp_path / "out.mat"
    atomic_write(p, "Jürgen\n")
    assert p.read_bytes() == "Jürgen\n".encode("utf-8")
    assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~_umask()
    assert os.listdir(tmp_path) == ["out.mat"]


@pytest.mark.parametrize("name", ["m" * 250 + ".mat", "ç" * 125 + ".mat", "z" * 255])
def test_atomic_write_a_name_as_long_as_the_folder_allows(tmp_path, name):
    """A target whose name fits (255 bytes) is written, and replaced with
    --force, though ``.NAME.XXXXXXXX.tmp`` beside it would not fit: two
    real records of corpus2 have such names, and their HTML pages were not
    written ("cannot create a temporary file: File name too long")."""
    assert len(os.fsencode(name)) <= 255
    p = tmp_path / name
    atomic_write(p, "first\n")
    atomic_write(p, "second\n", force=True)
    assert p.read_text() == "second\n"
    assert os.listdir(tmp_path) == [name]


def test_atomic_write_bytes_and_encoding(tmp_path):
    atomic_write(tmp_path / "a", b"\x00\x01raw")
    assert (tmp_path / "a").read_bytes() == b"\x00\x01raw"
    atomic_write(tmp_path / "b", "Ñúñez\r\n", encoding="cp1252")
    assert (tmp_path / "b").read_bytes() == "Ñúñez\r\n".encode("cp1252")


def test_atomic_write_unencodable(tmp_path):
    p = tmp_path / "c"
    with pytest.raises(OutputError, match="cannot encode"):
        atomic_write(p, "arrow \u2192", encoding="cp1252")
    assert not p.exists() and os.listdir(tmp_path) == []


def test_atomic_write_refuses_to_clobber(tmp_path):
    p = tmp_path / "out.mat"
    p.write_text("old")
    with pytest.raises(OutputError, match="already exists"):
        atomic_write(p, "new")
    assert p.read_text() == "old"
    assert os.listdir(tmp_path) == ["out.mat"]


def test_atomic_write_force_replaces_and_keeps_mode(tmp_path):
    p = tmp_path / "out.mat"
    p.write_text("old")
    p.chmod(0o640)
    atomic_write(p, "new", force=True)
    assert p.read_text() == "new"
    assert stat.S_IMODE(p.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["out.mat"]


def test_atomic_write_never_writes_through_a_symlink(tmp_path):
    # a link is refused without --force; with it the link itself is replaced
    # by the new file and its target is left as it was (issue 24)
    real = tmp_path / "real.mat"
    real.write_text("old")
    link = tmp_path / "link.mat"
    link.symlink_to(real)
    with pytest.raises(OutputError, match="symbolic link"):
        atomic_write(link, "new")
    assert link.is_symlink() and real.read_text() == "old"
    atomic_write(link, "new", force=True)
    assert not link.is_symlink() and link.read_text() == "new" and real.read_text() == "old"


def test_atomic_write_target_is_directory(tmp_path):
    with pytest.raises(OutputError, match="is a directory"):
        atomic_write(tmp_path, "x", force=True)


def test_atomic_write_missing_folder(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        atomic_write(tmp_path / "no" / "out.mat", "x")


def _fail(exc: BaseException):
    def raiser(*args, **kwargs):
        raise exc
    return raiser


@pytest.mark.parametrize(
    "func, exc, force, step",
    [
        ("fsync", OSError(errno.ENOSPC, "No space left on device"), True, "flush to disk"),
        ("write", OSError(errno.ENOSPC, "No space left on device"), True, "write"),
        ("write", OSError(errno.EIO, "Input/output error"), False, "write"),
        ("replace", OSError(errno.EXDEV, "Invalid cross-device link"), True, "rename"),
        ("link", OSError(errno.EIO, "Input/output error"), False, "rename"),
    ],
)
def test_atomic_write_failure_leaves_old_file(tmp_path, monkeypatch, func, exc, force, step):
    p = tmp_path / "out.mat"
    if force:
        p.write_text("old")
    monkeypatch.setattr(textio.os, func, _fail(exc))
    with pytest.raises(OutputError) as err:
        atomic_write(p, "new content" * 1000, force=force)
    msg = str(err.value)
    assert f"cannot {step}" in msg and (exc.strerror.lower() in msg.lower())
    monkeypatch.undo()
    if force:
        assert p.read_text() == "old"
        assert "previous file was left unchanged" in msg
        assert os.listdir(tmp_path) == ["out.mat"]
    else:
        assert "nothing was written" in msg
        assert os.listdir(tmp_path) == []


def test_atomic_write_interrupted_cleans_up(tmp_path, monkeypatch):
    p = tmp_path / "out.mat"
    p.write_text("old")
    monkeypatch.setattr(textio.os, "fsync", _fail(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        atomic_write(p, "new", force=True)
    monkeypatch.undo()
    assert p.read_text() == "old" and os.listdir(tmp_path) == ["out.mat"]


def test_atomic_write_partial_writes(tmp_path, monkeypatch):
    real_write = os.write
    monkeypatch.setattr(textio.os, "write", lambda fd, data: real_write(fd, bytes(data[:7])))
    p = tmp_path / "out.mat"
    atomic_write(p, "x" * 1000 + "end")
    monkeypatch.undo()
    assert p.read_text() == "x" * 1000 + "end"


def test_atomic_write_no_link_support_falls_back(tmp_path, monkeypatch):
    monkeypatch.setattr(textio.os, "link", _fail(OSError(errno.EPERM, "Operation not permitted")))
    p = tmp_path / "out.mat"
    atomic_write(p, "new")
    monkeypatch.undo()
    assert p.read_text() == "new" and os.listdir(tmp_path) == ["out.mat"]


def test_atomic_write_race_without_force(tmp_path, monkeypatch):
    # the target appears between the check and the rename: still no clobbering
    p = tmp_path / "out.mat"
    real_fsync = os.fsync

    def sneaky(fd):
        real_fsync(fd)
        if not p.exists():
            p.write_text("someone else's")

    monkeypatch.setattr(textio.os, "fsync", sneaky)
    with pytest.raises(OutputError, match="already exists"):
        atomic_write(p, "mine")
    monkeypatch.undo()
    assert p.read_text() == "someone else's" and os.listdir(tmp_path) == ["out.mat"]


@pytest.mark.skipif(IS_ROOT, reason="root writes into read-only folders")
def test_atomic_write_read_only_folder(tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    (d / "out.mat").write_text("old")
    d.chmod(0o555)
    try:
        with pytest.raises(OutputError, match="permission denied"):
            atomic_write(d / "out.mat", "new", force=True)
        assert (d / "out.mat").read_text() == "old"
        assert os.listdir(d) == ["out.mat"]
    finally:
        d.chmod(0o755)


def test_atomic_write_stdout(monkeypatch):
    buf = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(buf, encoding="utf-8"))
    atomic_write("-", "Jürgen\n")
    atomic_write("-", b"raw\n")
    assert buf.getvalue() == "Jürgen\n".encode("utf-8") + b"raw\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_atomic_write_stdout_to_dev_full(monkeypatch):
    full = open("/dev/full", "w", encoding="utf-8")
    try:
        monkeypatch.setattr(sys, "stdout", full)
        with pytest.raises(OutputError, match="(?i)no space left"):
            atomic_write("-", "x" * 100_000)
    finally:
        monkeypatch.undo()
        try:
            full.close()
        except OSError:
            pass


def test_atomic_write_type_check(tmp_path):
    with pytest.raises(TypeError):
        atomic_write(tmp_path / "x", 42)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# DecodedFile: a big file decoded piece by piece, exactly as decode_bytes does
# ---------------------------------------------------------------------------

def _decoded(path, chunk_size):
    """(text from pieces, text from lines, encoding) or the error's details."""
    try:
        df = textio.DecodedFile(path, chunk_size)
        pieces = "".join(df.pieces())
        lines = list(df.lines())
        assert all(line.endswith("\n") for line in lines[:-1])
        assert all("\n" not in line[:-1] for line in lines)
        return ("ok", pieces, "".join(lines), df.encoding)
    except InputError as e:
        return ("error", type(e).__name__, e.offset, e.message)


def _whole(data, path):
    try:
        text, enc = decode_bytes(data, path)
        return ("ok", text, text, enc)
    except InputError as e:
        return ("error", type(e).__name__, e.offset, e.message)


_PIECES = [b"a", b" ", b"\r", b"\n", b"\r\n", b"\x00", b"\x01", b"\x1a", b"\xc3", b"\xbc",
           b"\xff", b"\xfe", b"\xd8", b"\xdc", b"\x81", b"\x9d", "ü".encode(), "€".encode(),
           "ü".encode("utf-16-le"), "ü".encode("utf-16-be"), "Ñ".encode("cp1252"),
           "\U0001f3b2".encode(), "\U0001f3b2".encode("utf-16-le")]


@given(body=st.lists(st.sampled_from(_PIECES), max_size=40),
       bom=st.sampled_from([b"", b"", codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE]),
       chunk_size=st.integers(min_value=1, max_value=9))
@settings(max_examples=400, deadline=None)
def test_decoded_file_is_decode_bytes(tmp_path_factory, body, bom, chunk_size):
    data = bom + b"".join(body)
    p = tmp_path_factory.mktemp("dec") / "x.mat"
    p.write_bytes(data)
    assert _decoded(p, chunk_size) == _whole(data, str(p))


@given(text=st.text(max_size=60), codec=st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "cp1252"]),
       chunk_size=st.integers(min_value=1, max_value=9))
@settings(max_examples=300, deadline=None)
def test_decoded_file_is_decode_bytes_for_text(tmp_path_factory, text, codec, chunk_size):
    try:
        data = text.encode(codec)
    except UnicodeEncodeError:
        return
    p = tmp_path_factory.mktemp("dec") / "x.mat"
    for raw in (data, {"utf-8": codecs.BOM_UTF8, "utf-16-le": codecs.BOM_UTF16_LE,
                       "utf-16-be": codecs.BOM_UTF16_BE, "cp1252": b""}[codec] + data):
        p.write_bytes(raw)
        assert _decoded(p, chunk_size) == _whole(raw, str(p))


def test_decoded_file_crlf_split_across_pieces(tmp_path):
    p = tmp_path / "x.mat"
    p.write_bytes(b"abc\r\ndef\r\rg\rh\r")
    for size in range(1, 8):
        df = textio.DecodedFile(p, size)
        assert list(df.lines()) == ["abc\n", "def\n", "\n", "g\n", "h\n"]


def test_decoded_file_errors_like_read_text(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        textio.open_decoded(tmp_path / "nope.mat")
    with pytest.raises(InputError, match="is a directory"):
        textio.open_decoded(tmp_path)
    p = tmp_path / "bin.mat"
    p.write_bytes(b"x" * 5000 + b"\x00" + b"y" * 5000)
    with pytest.raises(EncodingProblem) as exc:
        textio.DecodedFile(p, 1024)
    assert exc.value.offset == 5000


def test_decoded_file_reads_in_constant_memory(tmp_path):
    import tracemalloc
    p = tmp_path / "big.mat"
    line = "  1) 31: 8/5 6/5                 62: 24/18 13/11\r\n".encode("cp1252")
    with open(p, "wb") as fh:
        for _ in range(8):
            fh.write(line * 20_000 + b"\xe9\r\n")  # cp1252: not UTF-8
    tracemalloc.start()
    try:
        df = textio.DecodedFile(p, 1 << 16)
        n = sum(1 for _ in df.lines())
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert df.encoding == "cp1252" and n == 8 * 20_001
    assert peak < 2_000_000 < p.stat().st_size


# ---------------------------------------------------------------------------
# read_text and atomic_write: pipes and devices
# ---------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_read_text_fifo_without_writer_does_not_block(tmp_path):
    p = tmp_path / "pipe.mat"
    os.mkfifo(p)
    assert read_text(p) == ("", "utf-8")


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_atomic_write_to_a_device_writes_through(tmp_path):
    atomic_write("/dev/null", "anything")             # no --force needed: nothing to clobber
    atomic_write("/dev/null", b"anything", force=True)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_atomic_write_to_dev_full(tmp_path):
    with pytest.raises(OutputError, match="/dev/full: cannot write: No space left on device"):
        atomic_write("/dev/full", "x" * 100_000, force=True)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    with pytest.raises(OutputError, match="'/dev/full' is not a folder"):
        atomic_write("/dev/full/out.mat", "x")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_atomic_write_to_a_fifo_nobody_reads_fails_at_once(tmp_path):
    p = tmp_path / "pipe"
    os.mkfifo(p)
    with pytest.raises(OutputError, match="no process reads this pipe; nothing was written"):
        atomic_write(p, "x")
    assert stat.S_ISFIFO(os.stat(p).st_mode) and os.listdir(tmp_path) == ["pipe"]


def test_atomic_write_refuses_a_socket(tmp_path):
    import socket
    p = tmp_path / "s"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(p))
        with pytest.raises(OutputError, match="is a socket; nothing was written"):
            atomic_write(p, "x", force=True)
    finally:
        sock.close()


def test_decoded_file_growing_meanwhile_is_read_as_it_was(tmp_path):
    # a download still running: the bytes added after the first pass are not read
    p = tmp_path / "partial.mat"
    p.write_bytes("Jürgen\r\n".encode("utf-8") * 1000)
    df = textio.DecodedFile(p, 64)
    with open(p, "ab") as fh:
        fh.write(b"\xff\xfe more \x00 bytes")
    assert df.read() == "Jürgen\n" * 1000 and df.encoding == "utf-8"


def test_decoded_file_changed_meanwhile_is_an_encoding_problem(tmp_path):
    p = tmp_path / "changed.mat"
    p.write_bytes("Jürgen\n".encode("utf-8") * 100)
    df = textio.DecodedFile(p, 64)
    data = bytearray(p.read_bytes())
    data[300] = 0xFF  # the same size, not UTF-8 any more
    p.write_bytes(bytes(data))
    with pytest.raises(EncodingProblem, match="changed while it was read"):
        df.read()


def test_a_small_record_is_opened_once_by_its_source(tmp_path, monkeypatch):
    """A record smaller than the sniffers' head is read whole, once, however
    many sniffers ask for its head before the reader asks for its bytes (the
    second head of the default size read it again)."""
    from gamao_cli.formats.base import HEAD_SIZE, Source
    p = tmp_path / "small.mat"
    p.write_bytes(b" 1 point match\n" + b"x" * 5000)
    opened = []
    real_open = os.open

    def counting(file, *args, **kwargs):
        if os.fspath(file) == str(p):
            opened.append(file)
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting)
    source = Source(str(p))
    assert source.head() == source.head() == source.head(HEAD_SIZE * 2) == p.read_bytes()
    assert source.read_bytes() == p.read_bytes()
    assert len(opened) == 1


def test_a_file_of_many_reads_is_read_whole_and_a_head_or_a_limit_cuts_it(tmp_path):
    """The reader reads a regular file with the operating system's calls,
    its size at once and then to its end, in reads of at most 1 MiB: a
    file of several is read whole, a head is its first bytes, and a limit
    refuses it."""
    p = tmp_path / "big.mat"
    p.write_bytes(b"a" * 100 + b"b" * (3 << 20))
    assert read_file_bytes(p) == p.read_bytes()
    assert read_file_head(p, 150) == b"a" * 100 + b"b" * 50
    with pytest.raises(InputError):
        read_file_bytes(p, limit=1000)
    with pytest.raises(InputError):   # a folder, as open() says
        read_file_bytes(tmp_path)


def test_a_folder_of_outputs_is_synced_once_after_every_file(tmp_path, monkeypatch):
    """``convert --out-dir`` syncs each output file before its rename, and
    the folder (which makes the renames durable) once, at the end, even
    when an output fails on the way; one file written alone syncs its
    folder at once."""
    from click.testing import CliRunner
    from gamao_cli.cli import main
    events: list[tuple[str, str]] = []
    real_fsync = os.fsync
    monkeypatch.setattr(textio.os, "fsync", lambda fd: (events.append(("file", "")),
                                                         real_fsync(fd))[1])
    monkeypatch.setattr(textio, "_fsync_dir", lambda folder: events.append(("dir", str(folder))))
    inputs = tmp_path / "in"
    inputs.mkdir()
    for n in range(3):
        (inputs / f"m{n}.mat").write_text(
            " 1 point match\n\n Game 1\n Ann : 0   Bob : 0\n  1) 31: 8/5 6/5\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "m1.json").write_text("earlier")   # refused without --force: the others still go
    r = CliRunner().invoke(main, ["convert", str(inputs), "--to", "json", "--out-dir", str(out)])
    assert r.exit_code == 2, r.output
    assert sorted(p.name for p in out.iterdir()) == ["m0.json", "m1.json", "m2.json"]
    assert (out / "m1.json").read_text() == "earlier"
    assert events == [("file", ""), ("file", ""), ("dir", str(out))]
    events.clear()
    atomic_write(str(tmp_path / "alone.txt"), "x")
    assert events == [("file", ""), ("dir", str(tmp_path))]


def test_a_write_settles_on_the_blocks_thread_while_the_caller_goes_on(tmp_path, monkeypatch):
    """In a ``writes_settled_in_background`` block, ``atomic_write_soon``
    returns once the data are in the temporary file: while the sync to disk
    still waits, the target is not there yet (the old file is); the returned
    call waits for the rest. The block's end waits for every write."""
    import threading
    from gamao_cli.formats.textio import atomic_write_soon, writes_settled_in_background
    release = threading.Event()
    synced = []
    real_fsync = os.fsync

    def slow_fsync(fd):
        release.wait(10)
        synced.append(threading.current_thread().name)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", slow_fsync)
    target = tmp_path / "out.txt"
    target.write_text("old")
    with writes_settled_in_background():
        settle = atomic_write_soon(target, "new", force=True)
        assert target.read_text() == "old"   # (the sync waits: not renamed yet)
        later = atomic_write_soon(tmp_path / "second.txt", ["a", "b"])
        release.set()
        assert settle() is True and target.read_text() == "new"
    assert (tmp_path / "second.txt").read_text() == "ab" and later() is True
    assert synced and all(name.startswith("gamao-writes") for name in synced)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "second.txt"]


def test_a_write_that_fails_as_it_settles_says_so_and_leaves_nothing(tmp_path, monkeypatch):
    """The disk failing at the sync of one output: its call raises the
    OutputError ``atomic_write`` would have raised, its temporary file is
    gone, the target left as it was; the writes around it are made."""
    from gamao_cli.formats.textio import atomic_write_soon, writes_settled_in_background
    fail_fsync_of(monkeypatch, ".b.txt.")
    (tmp_path / "b.txt").write_text("before")
    with writes_settled_in_background():
        settles = [atomic_write_soon(tmp_path / f"{n}.txt", n, force=True) for n in "abc"]
    assert settles[0]() is True and settles[2]() is True
    with pytest.raises(OutputError, match=r"b\.txt: cannot flush to disk: .*left unchanged"):
        settles[1]()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt", "c.txt"]
    assert (tmp_path / "b.txt").read_text() == "before" and (tmp_path / "c.txt").read_text() == "c"
