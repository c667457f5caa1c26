"""Every error of the eXtreme Gammon reader names its message by a key of
the one message table (gamao_cli.messages) and carries its fields; its words
are rendered from there and are the words the reader wrote inline before
the table held them (each expectation below is what the inline f-strings
printed for the same bytes).

The files are built here, byte by byte (no sample needed): an XG container
(:func:`container`) around streams of 2560-byte records (:func:`record`).
"""
from __future__ import annotations

import struct
import zlib

import pytest

from gamao_cli.errors import DamagedFile, InputError, NotAMatchFile, OverBudget
from gamao_cli.formats.xg import records as rec
from gamao_cli.formats.xg.container import HEADER_SIZE
from gamao_cli.formats.xg.reader import read_xg, read_xgp
from gamao_cli.messages import MESSAGES, jsonable, render, render_input
from gamao_cli.replay.check import input_error_diagnostic

START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)


def record(kind: int, **fields) -> bytes:
    """One record of ``kind``; ``fields`` maps a byte offset ``at<N>`` to an
    int (4 bytes), or ``pos<N>`` to 26 signed bytes."""
    r = bytearray(rec.RECORD_SIZE)
    r[8] = kind
    for name, value in fields.items():
        at = int(name.lstrip("atposrw"))
        if name.startswith("pos"):
            struct.pack_into("<26b", r, at, *value)
        elif name.startswith("raw"):
            r[at:at + len(value)] = value
        else:
            struct.pack_into("<i", r, at, value)
    return bytes(r)


def match_header(version: int = 30, length: int = 7, magic: bytes = rec.HEADER_MAGIC) -> bytes:
    return record(rec.MATCH_HEADER, at552=version, raw556=magic, at92=length)


def game_header(**fields) -> bytes:
    base = {"pos21": START}
    base.update(fields)
    return record(rec.GAME_HEADER, **base)


def cube(**fields) -> bytes:
    base = {"at12": 1, "at16": 0, "at20": 0, "at24": 0, "at28": 0, "at32": 0, "pos36": START}
    base.update(fields)
    return record(rec.CUBE_ACTION, **base)


def move(**fields) -> bytes:
    base = {"at64": 1, "at100": 3, "at104": 1, "pos9": START}
    base.update(fields)
    return record(rec.CHECKER_MOVE, **base)


def game_end(**fields) -> bytes:
    base = {"at24": 1, "at28": 1}
    base.update(fields)
    return record(rec.GAME_END, **base)


def container(streams: dict[str, bytes] | None = None, *, entries=None, head: dict | None = None,
              count=None, reg_flag: int = 1, registry_bytes: bytes | None = None,
              archive_crc=None, file_size_cut: int | None = None) -> bytes:
    """An XG file around ``streams`` (name -> uncompressed bytes), every CRC
    and size right unless overridden: ``entries`` is a list of dicts (name,
    content, stored, crc, osize, csize, start, blob) for full control."""
    if entries is None:
        entries = [{"name": n, "content": c} for n, c in (streams or {}).items()]
    h = bytearray(b"RGMH" + bytes(HEADER_SIZE - 4))
    hv = {"version": 1, "size": HEADER_SIZE, "thumb_off": 0, "thumb_size": 0}
    hv.update(head or {})
    struct.pack_into("<IIqI", h, 4, hv["version"], hv["size"], hv["thumb_off"], hv["thumb_size"])
    body = b""
    registry = b""
    for e in entries:
        content = e.get("content", b"")
        stored = e.get("stored", 0)
        blob = e.get("blob", content if stored else zlib.compress(content))
        entry = bytearray(532)
        name = e["name"].encode()
        entry[0] = len(name)
        entry[1:1 + len(name)] = name
        struct.pack_into("<iiiIBB", entry, 512, e.get("osize", len(content)),
                         e.get("csize", len(blob)), e.get("start", len(body)),
                         e.get("crc", zlib.crc32(content)), stored, 6)
        registry += bytes(entry)
        body += blob
    if registry_bytes is not None:
        reg = registry_bytes
    else:
        reg = zlib.compress(registry) if reg_flag == 1 else registry
    crc = zlib.crc32(body + reg) if archive_crc is None else archive_crc
    tail = struct.pack("<IiiiiI12x", crc, len(entries) if count is None else count, 1,
                       len(reg), len(body), reg_flag)
    data = bytes(h) + body + reg + tail
    return data if file_size_cut is None else data[:file_size_cut]


GAME = match_header() + game_header() + move() + game_end()
_COMPRESSED = zlib.compress(GAME)

# (message key, reader, the file's bytes, the error's str())
CASES = [
    ("GM002.xg-magic", read_xg, b"PK\x03\x04" + bytes(60),
     "x.xg: byte 0: not an eXtreme Gammon file: the first 4 bytes are 50 4b 03 04 ('PK\\x03\\x04') (expected 'RGMH')"),
    ("GM002.xg-magic", read_xg, b"",
     "x.xg: byte 0: not an eXtreme Gammon file: the file is empty (expected 'RGMH')"),
    ("GM006.xg-header-short", read_xg, b"RGMH" + bytes(100),
     "x.xg: byte 104: the eXtreme Gammon file is cut short: 104 bytes, but its header alone takes 8232"),
    ("GM006.xg-header-version", read_xg, container({"temp.xg": GAME}, head={"version": 2}),
     "x.xg: byte 4: header version 2 (only version 1 is known)"),
    ("GM006.xg-header-size", read_xg, container({"temp.xg": GAME}, head={"size": 100}),
     "x.xg: byte 8: the header says it takes 100 bytes (the header record is 8232 bytes and the file 8409)"),
    ("GM006.xg-thumbnail", read_xg, container({"temp.xg": GAME}, head={"thumb_size": 10 ** 6}),
     "x.xg: byte 12: the thumbnail (1000000 bytes at 0 after the header) does not fit in the file's 8409 bytes"),
    ("GM006.xg-no-record-room", read_xg, b"RGMH" + struct.pack("<IIqI", 1, HEADER_SIZE, 0, 0)
     + bytes(HEADER_SIZE - 24 + 10),
     "x.xg: byte 8242: the file is cut short: 8242 bytes leave no room for the 36-byte archive record after the header"),
    # (the first archived file is no game data: the game data after the
    # thumbnail, which gamao reads when the archive record is not XG's, is
    # not there either)
    ("GM006.xg-archive-sizes", read_xg, container({"temp.xgi": b"x" * 10, "temp.xg": GAME},
                                                  registry_bytes=b"x" * 10)[:-36]
     + struct.pack("<IiiiiI12x", 0, 1, 1, 10 ** 6, 5, 1),
     "x.xg: byte 8359: the archive record gives a registry of 1000000 and data of 5 bytes, but only 127 bytes lie between the header and the record: this is not the archive record eXtreme Gammon writes (the file's last 36 bytes), so the file is cut short or another program rewrote it, and no game data follows the thumbnail (byte 8232) either; open it in eXtreme Gammon and save it again, or export the match from there as a match file"),
    ("GM006.xg-file-count", read_xg, container({"temp.xgi": b"x" * 10, "temp.xg": GAME}, count=0),
     "x.xg: byte 8413: the archive record says the archive holds 0 files (an XG file holds 1 to 4)"),
    ("GM006.xg-registry-flag", read_xg, container({"temp.xgi": b"x" * 10, "temp.xg": GAME},
                                                  reg_flag=7),
     "x.xg: byte 9433: the archive record's compressed-registry flag is 7 (expected 0 or 1)"),
    ("GM006.xg-archive-crc", read_xg, container({"temp.xg": GAME}, archive_crc=0x1234),
     "x.xg: byte 8373: the archive's checksum does not match its bytes (CRC-32 27cf3957, the archive record says 00001234): the file is damaged"),
    ("GM006.xg-registry-size", read_xg, container({"temp.xg": GAME}, reg_flag=0,
                                                  registry_bytes=bytes(500)),
     "x.xg: byte 8338: the archive's registry takes 500 bytes, but 1 entries take 532"),
    ("GM006.xg-inflate-damaged", read_xg, container({"temp.xg": GAME},
                                                    registry_bytes=b"\x78\x9c\xff\xff\xff"),
     "x.xg: byte 8338: the archive's registry: the compressed data is damaged (Error -3 while decompressing data: invalid block type)"),
    ("GM006.xg-inflate-too-big", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME, "osize": 100, "crc": zlib.crc32(GAME)}]),
     "x.xg: byte 8232: archived file 'temp.xg': it decompresses to more than the 100 bytes its entry states"),
    ("GM006.xg-inflate-cut", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME, "blob": _COMPRESSED[:len(_COMPRESSED) // 2]}]),
     "x.xg: byte 8285: archived file 'temp.xg': the compressed data stops before its end (cut short)"),
    ("GM006.xg-inflate-size", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME, "osize": len(GAME) + 8}]),
     "x.xg: byte 8232: archived file 'temp.xg': it decompresses to 10240 bytes, but its entry states 10248"),
    ("GM006.xg-entry-no-name", read_xg, container(entries=[{"name": "", "content": GAME}]),
     "x.xg: byte 8338: registry entry 1 has no name ('')"),
    ("GM006.xg-entry-repeated-name", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME}, {"name": "temp.xg", "content": GAME}]),
     "x.xg: byte 8444: registry entry 2 has a repeated name ('temp.xg')"),
    ("GM006.xg-entry-fit", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME, "start": 1000}]),
     "x.xg: byte 8338: archived file 'temp.xg': 106 bytes at 1000 do not fit in the archive's 106 bytes of data"),
    ("GM006.xg-entry-flag", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME, "stored": 3, "blob": _COMPRESSED}]),
     "x.xg: byte 8338: archived file 'temp.xg': its compression flag is 3 (expected 0 or 1)"),
    ("GM006.xg-entry-size-stored", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME, "stored": 1, "osize": len(GAME) + 1}]),
     "x.xg: byte 18472: archived file 'temp.xg': its entry states 10241 bytes uncompressed, impossible from 10240 stored bytes"),
    ("GM006.xg-entry-size-compressed", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME, "osize": 10 ** 8}]),
     "x.xg: byte 8338: archived file 'temp.xg': its entry states 100000000 bytes uncompressed, impossible from 106 compressed bytes"),
    ("GM006.xg-stored-size", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME, "stored": 1, "osize": len(GAME) - 1}]),
     "x.xg: byte 8232: archived file 'temp.xg': 10240 stored bytes, but its entry states 10239"),
    ("GM006.xg-entry-crc", read_xg, container(entries=[
        {"name": "temp.xg", "content": GAME, "crc": 5}]),
     "x.xg: byte 8232: archived file 'temp.xg': its checksum does not match its bytes (CRC-32 a59aa7ea, the registry says 00000005): the file is damaged"),
    ("GM009.xg-stream", read_xg, container({"temp.xg": bytes(65 << 20)}),
     "x.xg: byte 8232: archived file 'temp.xg': its entry states 68157440 bytes uncompressed; gamao inflates an XG stream to at most 64 MiB (a decompression bomb?); not read"),
    ("GM002.xg-no-game-stream", read_xg, container({"temp.xgi": GAME}),
     "x.xg: byte 8338: the archive holds temp.xgi but no temp.xg: not an eXtreme Gammon match or position"),
    ("GM002.xg-no-position", read_xgp, container({"temp.xg": match_header() + game_header()}),
     "x.xg: byte 8232: temp.xg holds no position (no game header or no decision record): not an eXtreme Gammon position file"),
    ("GM004.xg-missing-game", read_xg, container({"temp.xg": match_header() + record(rec.MISSING_GAME)}),
     "x.xg: byte 8232: temp.xg record 1 marks a missing game (XG record type 6), which gamao cannot read yet"),
    # the records (GM006.xg-record: where in which stream, then the record's problem)
    ("GM006.xg-record", read_xg, container({"temp.xg": GAME[:-10]}),
     "x.xg: byte 8232: temp.xg, byte 7680 of its 10230 decompressed bytes: the game stream holds 10230 bytes, not a whole number of 2560-byte records"),
    ("GM006.xg-record", read_xg, container({"temp.xg": b""}),
     "x.xg: byte 8232: temp.xg, byte 0 of its 0 decompressed bytes: the game stream is empty"),
    ("GM006.xg-record", read_xg, container({"temp.xg": game_header() + GAME}),
     "x.xg: byte 8232: temp.xg, byte 8 of its 12800 decompressed bytes: the game stream opens with a record of type 1, not a match header"),
    ("GM006.xg-record", read_xg, container({"temp.xg": GAME + record(9)}),
     "x.xg: byte 8232: temp.xg, byte 10248 of its 12800 decompressed bytes: record 4 has type 9 (XG writes 0 to 6)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header(magic=b"ABCD") + GAME}),
     "x.xg: byte 8232: temp.xg, byte 556 of its 12800 decompressed bytes: match header 0: bytes 556-559 are b'ABCD', not b'DMLI': this is not an XG game stream"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header(version=99) + GAME}),
     "x.xg: byte 8232: temp.xg, byte 552 of its 12800 decompressed bytes: match header 0: file version 99 (XG writes 1 to 40)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header(length=-3) + GAME}),
     "x.xg: byte 8232: temp.xg, byte 92 of its 12800 decompressed bytes: match header 0: match length -3"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header(at64=99)}),
     "x.xg: byte 8232: temp.xg, byte 2624 of its 5120 decompressed bytes: game header 1: 99 automatic doubles (XG writes 0 to 12)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header() + cube(at300=13)}),
     "x.xg: byte 8232: temp.xg, byte 5420 of its 7680 decompressed bytes: cube record 2: 13 automatic doubles (XG writes 0 to 12)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header() + move(at2540=-1)}),
     "x.xg: byte 8232: temp.xg, byte 7660 of its 7680 decompressed bytes: move record 2: -1 automatic doubles (XG writes 0 to 12)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header() + cube(at12=3)}),
     "x.xg: byte 8232: temp.xg, byte 5132 of its 7680 decompressed bytes: record 2: the player is 3 (XG writes 1 or -1)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header() + cube(at16=5)}),
     "x.xg: byte 8232: temp.xg, byte 5136 of its 7680 decompressed bytes: cube record 2: the double field is 5 (XG writes -2, -1, 0, 1)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header() + cube(at20=5)}),
     "x.xg: byte 8232: temp.xg, byte 5140 of its 7680 decompressed bytes: cube record 2: the take field is 5 (XG writes -1, 0, 1, 2)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header() + cube(at24=5)}),
     "x.xg: byte 8232: temp.xg, byte 5144 of its 7680 decompressed bytes: cube record 2: the beaver answer field is 5 (XG writes -1, 0, 1, 2)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header() + cube(at28=5)}),
     "x.xg: byte 8232: temp.xg, byte 5148 of its 7680 decompressed bytes: cube record 2: the raccoon answer field is 5 (XG writes -1, 0, 1)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header() + cube(at32=-31)}),
     "x.xg: byte 8232: temp.xg, byte 5152 of its 7680 decompressed bytes: cube record 2: a cube of 2**31"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header() + move(at100=7)}),
     "x.xg: byte 8232: temp.xg, byte 5220 of its 7680 decompressed bytes: move record 2: dice 7-1"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header()
                                            + move(raw2308=b"\x01", at68=30)}),
     "x.xg: byte 8232: temp.xg, byte 5188 of its 7680 decompressed bytes: move record 2: move value 30 (XG writes -1 to 24 in a from field)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header()
                                            + move(raw2308=b"\x01", at72=-7)}),
     "x.xg: byte 8232: temp.xg, byte 5192 of its 7680 decompressed bytes: move record 2: move value -7 (XG writes -6 to 24 in a to field)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": GAME[:-rec.RECORD_SIZE] + game_end(at28=-2)}),
     "x.xg: byte 8232: temp.xg, byte 7708 of its 10240 decompressed bytes: game end record 3: -2 points won"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + cube(at16=1) + GAME[rec.RECORD_SIZE:]}),
     "x.xg: byte 8232: temp.xg, byte 2560 of its 12800 decompressed bytes: record 1 (CubeAction) stands outside any game"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_end()}),
     "x.xg: byte 8232: temp.xg, byte 2560 of its 5120 decompressed bytes: game end record 1 ends no game"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header(pos21=(1,) + (0,) * 25)}),
     "x.xg: byte 8232: temp.xg, byte 2560 of its 5120 decompressed bytes: game header 1: impossible start position: index 0 (the negative side's bar) holds 1"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header()
                                            + cube(at16=1, pos36=(0,) * 25 + (-1,))}),
     "x.xg: byte 8232: temp.xg, byte 5120 of its 7680 decompressed bytes: record 2: impossible position: index 25 (the positive side's bar) holds -1"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header()
                                            + move(pos9=(0, 16) + (0,) * 24)}),
     "x.xg: byte 8232: temp.xg, byte 5120 of its 7680 decompressed bytes: record 2: impossible position: the positive side has 16 checkers (at most 15)"),
    ("GM006.xg-record", read_xg, container({"temp.xg": match_header() + game_header()
                                            + move(pos9=(0, -16) + (0,) * 24)}),
     "x.xg: byte 8232: temp.xg, byte 5120 of its 7680 decompressed bytes: record 2: impossible position: the negative side has 16 checkers (at most 15)"),
    ("GM006.xg-record", read_xgp, container({"temp.xg": match_header() + game_header() + move(),
                                             "temp.xgi": b"x" * 5}),
     "x.xg: byte 8325: temp.xgi, byte 0 of its 5 decompressed bytes: the game stream holds 5 bytes, not a whole number of 2560-byte records"),
]


@pytest.mark.parametrize("key, reader, data, expected", CASES,
                         ids=[f"{i}-{c[0]}" for i, c in enumerate(CASES)])
def test_each_xg_message_has_its_key_and_its_old_words(key, reader, data, expected):
    with pytest.raises(InputError) as exc:
        reader(data, "x.xg")
    e = exc.value
    assert str(e) == expected
    assert e.key == key
    assert e.message == render(e.key, e.fields)
    assert e.offset is not None and 0 <= e.offset <= len(data)
    # what gamao validate shows: the same words, the byte offset after them
    d = input_error_diagnostic(e)
    assert d.code == key.partition(".")[0]
    assert d.message == render_input(d.key, d.fields)
    assert f"{e.location()}: {d.message}" == f"{expected} (at byte {e.offset})"
    assert jsonable(d.fields)["at_byte"] == e.offset


def test_a_damaged_xg_file_is_gm006_and_a_foreign_one_gm002():
    """The code follows the key: damaged bytes are GM006 (DamagedFile), a
    file that is no XG file at all GM002 (NotAMatchFile)."""
    for key, reader, data, _expected in CASES:
        with pytest.raises(InputError) as exc:
            reader(data, "x.xg")
        kind = {"GM006": DamagedFile, "GM002": NotAMatchFile, "GM004": InputError,
                "GM009": OverBudget}[key[:5]]
        assert type(exc.value) is kind or (kind is InputError and not isinstance(
            exc.value, (DamagedFile, NotAMatchFile))), (key, type(exc.value))


def test_every_xg_key_of_the_table_is_exercised_here():
    """Each XG message of the table (and each record message) has a case above."""
    import re
    seen = set()
    for key, reader, data, _expected in CASES:
        with pytest.raises(InputError) as exc:
            reader(data, "x.xg")
        seen.add(exc.value.key)
        problem = exc.value.fields.get("problem")
        while problem is not None:
            seen.add(problem.key)
            problem = problem.fields.get("problem")
    with pytest.raises(rec.PositionError) as exc:   # no file holds it: XG's arrays are 26 long
        rec.sides((0,) * 25)
    assert str(exc.value) == "a position has 26 counts, not 25"
    seen.add(exc.value.key)
    xg_keys = {k for k in MESSAGES if re.match(r"GM00\d\.xg-|xg-record\.|xg-position\.", k)}
    assert len(xg_keys) > 50 and xg_keys <= seen, sorted(xg_keys - seen)
