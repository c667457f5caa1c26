"""BGBlitz ``.bgf`` (gamao_cli.formats.bgf) against the samples of
``../shared/corpus2/bgf`` (read its README.md): each ``.bgf`` equals the
same match as gammonview wrote it as ``.mat`` (every play as the replay
resolves it, every cube action, every result), and its Smile decoder
against hand-made Smile bytes of the format's specification.
"""
from __future__ import annotations

import gzip
import json
import os
import struct
import sys
from pathlib import Path

import pytest

from gamao_cli import formats
from gamao_cli import model as m
from gamao_cli.errors import DamagedFile, NotAMatchFile
from gamao_cli.formats.bgf import smile
from gamao_cli.formats.bgf.reader import load, read_bgf
from gamao_cli.replay.replay import validate_match

sys.path.insert(0, str(Path(__file__).parent))
from test_gnubg_text import canonical  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
BGF_DIR = SHARED / "corpus2" / "bgf"
FILES = sorted(BGF_DIR.glob("*.bgf")) if BGF_DIR.is_dir() else []
needs_bgf = pytest.mark.skipif(not FILES, reason=f"the BGBlitz samples are not at {BGF_DIR}")


def _problems(rep) -> list[tuple]:
    return [(d.code, d.game, d.move) for d in rep.diagnostics if d.severity != "info"]


@needs_bgf
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_bgf_equals_its_mat(path):
    assert formats.detect(path.read_bytes()[:4096]).name == "bgf"
    [match] = formats.read_path(str(path))
    [twin] = formats.read_path(str(path.with_suffix(".mat")))
    assert match.length == twin.length
    assert len(match.games) == len(twin.games)
    swap = canonical(match) != canonical(twin)
    assert canonical(match, swap) == canonical(twin)
    rep, twin_rep = validate_match(match), validate_match(twin)
    assert rep.final_score == (twin_rep.final_score[::-1] if swap else twin_rep.final_score)
    # no error or warning but what the match itself holds, as its .mat twin says too
    assert _problems(rep) == _problems(twin_rep)


@needs_bgf
def test_the_samples_read_clean_but_one_play_both_files_hold():
    found = {}
    for path in FILES:
        rep = validate_match(formats.read_path(str(path))[0])
        found[path.stem] = [d.code for d in rep.diagnostics if d.severity != "info"]
    # 5nqfGw9bWG3deTaU holds 14/10 13/12 with 3-1 in game 1 (so does its .mat,
    # and BGBlitz's own candidate list there): gamao says so, once
    assert found.pop("5nqfGw9bWG3deTaU") == ["GM207"]
    assert all(v == [] for v in found.values()), found


@needs_bgf
def test_bgblitz_analysis_and_figures_are_kept():
    match = formats.read_path(str(BGF_DIR / "5nqfGw9bWG3deTaU.bgf"))[0]
    first = match.games[0].actions[0]
    assert isinstance(first, m.Play) and first.analysis["source"] == "BGBlitz"
    played = [c for c in first.analysis["candidates"] if c.get("played")]
    assert len(played) == 1 and played[0]["play"] == "13/7 8/7"
    win = match.games[0].actions[-1]
    assert isinstance(win, m.Win)
    figures = win.analysis["stated_figures"]
    # the file's own figures for game 1: Green's cube error -0.34342677, 20 checker plays
    assert figures["0"]["cubeError"] == pytest.approx(-0.34342677)
    assert figures["0"]["checkerCnt"] == 20


@needs_bgf
def test_the_unfinished_last_game_is_read_from_the_final_score():
    match = formats.read_path(str(BGF_DIR / "Sz-2PgKnvb6aFls69-qFXg.bgf"))[0]
    rep = validate_match(match)
    [d] = [d for d in rep.diagnostics if d.code == "GM117"]
    assert d.severity == "info" and d.game == 6
    assert rep.final_score == (7, 4)


@needs_bgf
def test_damaged_bytes_are_located():
    data = FILES[0].read_bytes()
    nl = data.index(b"\n") + 1
    with pytest.raises(DamagedFile) as exc:
        read_bgf(data[:nl + 500], "cut.bgf")
    assert exc.value.key == "GM006.bgf-cut" and exc.value.offset == nl
    bad = bytearray(data)
    bad[nl + 200] ^= 0xFF
    with pytest.raises(DamagedFile) as exc:
        read_bgf(bytes(bad), "bad.bgf")
    assert exc.value.offset == nl
    with pytest.raises(NotAMatchFile):
        read_bgf(b'{"format":"XYZ"}\n', "x.bgf")


def _bgf(record: dict) -> bytes:
    return b'{"format":"BGF","version":"1.0","compress":true,"useSmile":false}\n' + \
        gzip.compress(json.dumps(record).encode())


def test_a_record_that_is_not_bgblitz_s_names_its_field():
    data = _bgf({"matchlen": 3, "games": [{"moves": [{"player": 2, "green": 1, "red": 1}]}]})
    with pytest.raises(DamagedFile) as exc:
        read_bgf(data, "x.bgf")
    assert exc.value.key == "GM006.bgf-field"
    assert exc.value.fields["field"] == "game 1.moves[0].player"
    assert exc.value.offset == data.index(b"\n") + 1


def test_the_decompression_budget(monkeypatch):
    from gamao_cli.formats.bgf import reader
    monkeypatch.setattr(reader, "MAX_INFLATED", 1000)
    data = b'{"format":"BGF","compress":true,"useSmile":false}\n' + gzip.compress(b" " * 5000)
    with pytest.raises(DamagedFile) as exc:
        read_bgf(data, "big.bgf")
    assert exc.value.key == "GM006.bgf-too-big"


# -- the Smile decoder, on bytes made by the specification's rules ---------------

def _vint(n: int) -> bytes:
    out = [0x80 | (n & 0x3F)]
    n >>= 6
    while n:
        out.append(n & 0x7F)
        n >>= 7
    return bytes(reversed(out))


def _zz(n: int) -> int:
    return (n << 1) ^ (n >> 63)


def _double(x: float) -> bytes:
    bits = struct.unpack(">Q", struct.pack(">d", x))[0]
    return bytes((bits >> (7 * (9 - i))) & 0x7F for i in range(10))


def test_smile_values():
    doc = (smile.HEADER + b"\x03" + b"\xfa"
           + b"\x80a" + b"\xc5"                           # "a": small int -3
           + b"\x80b" + b"\x24" + _vint(_zz(100000))       # "b": int 100000
           + b"\x80c" + b"\x29" + _double(-0.5)            # "c": double -0.5
           + b"\x80d" + b"\x43abcd"                        # "d": tiny ASCII "abcd"
           + b"\x40" + b"\x01"                             # "a" again: shared value 0
           + b"\x80e" + b"\xf8\x21\x22\x23\x20\xf9"        # [null, false, true, ""]
           + b"\x80f" + b"\xe0" + b"x" * 70 + b"\xfc"      # a long ASCII string
           + b"\xfb")
    assert smile.decode(doc) == {"a": "abcd", "b": 100000, "c": -0.5, "d": "abcd",
                                 "e": [None, False, True, ""], "f": "x" * 70}


@pytest.mark.parametrize("doc, problem, offset", [
    (b"{}", "header", 0),
    (smile.HEADER + b"\x03\xfa\x80a", "cut-short", 7),
    (smile.HEADER + b"\x03\x05", "reference", 4),
    (smile.HEADER + b"\x03\x2c", "token", 4),
    (smile.HEADER + b"\x03" + b"\xf8" * 100, "depth", 68),
    (smile.HEADER + b"\x03\xfa\xf8", "key", 5),
    (smile.HEADER + b"\x03\x21\x21", "trailing", 5),
])
def test_smile_errors_are_located(doc, problem, offset):
    with pytest.raises(smile.SmileError) as exc:
        smile.decode(doc)
    assert (exc.value.problem, exc.value.offset) == (problem, offset)


@needs_bgf
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_bgblitz_s_own_errors_add_up_to_its_game_figures(path):
    """Each play's stated error (the decisions model's, from BGBlitz's
    ``pr``) summed per player and game equals BGBlitz's figure for the game
    (``prGreen``/``prRed`` ``checkerError``, kept as the result's stated
    figures), and each candidate list holds the play made."""
    from gamao_cli.analysis.decisions import decisions_of
    [match] = formats.read_path(str(path))
    for game in match.games:
        sums = [0.0, 0.0]
        for a in game.actions:
            d = decisions_of(a)
            if d is not None and d.checker is not None:
                assert d.checker.played is not None
                if d.checker.stated_error is not None:
                    sums[a.player] += d.checker.stated_error
        wins = [a for a in game.actions if isinstance(a, m.Win) and a.analysis]
        if not wins:
            continue
        stated = wins[0].analysis["stated_figures"]
        for side in (0, 1):
            assert sums[side] == pytest.approx(-stated[str(side)]["checkerError"], abs=1e-6)


@pytest.mark.parametrize("game, key", [
    ({"initial": {"points": [0] * 28, "cube": 1}}, "GM014.position"),
    ({"initial": {"points": None, "cube": 4}}, "GM014.cube"),
    ({"gameMode": 2}, "GM014.variant"),
])
def test_a_game_set_up_or_in_a_variant_is_refused_saying_so(game, key):
    from gamao_cli.errors import NotYetRead
    from gamao_cli.formats.bgf.reader import START
    initial = dict({"points": START, "cube": 1, "cubeOwner": 0}, **game.get("initial", {}))
    if initial["points"] is None:
        initial["points"] = START
    record = {"matchlen": 3, "games": [{"initial": initial, "gameMode": game.get("gameMode", 0),
                                        "moves": []}]}
    data = _bgf(record)
    with pytest.raises(NotYetRead) as exc:
        read_bgf(data, "x.bgf")
    assert exc.value.key == key and exc.value.offset == data.index(b"\n") + 1
    from gamao_cli.replay.check import input_error_diagnostic
    assert input_error_diagnostic(exc.value).code == "GM014"


def test_smile_big_numbers_are_bounded():
    # found by the fuzzer: a BigDecimal too big for a float raised OverflowError
    def big(token: int, magnitude: bytes, scale: bytes = b"") -> bytes:
        n = len(magnitude)
        enc = int.from_bytes(magnitude, "big") << ((7 - (n * 8) % 7) % 7)
        bits = (n * 8 + 6) // 7
        seven = bytes((enc >> (7 * (bits - 1 - i))) & 0x7F for i in range(bits))
        return smile.HEADER + b"\x03" + bytes([token]) + scale + _vint(n) + seven
    assert smile.decode(big(0x26, b"\x01\x00")) == 256
    assert smile.decode(big(0x2A, b"\x7f" * 60, _vint(_zz(-300)))) == float("inf")
    assert smile.decode(big(0x2A, b"\x19", _vint(_zz(1)))) == 2.5
    with pytest.raises(smile.SmileError) as exc:
        smile.decode(big(0x26, b"\x01" * 65))
    assert (exc.value.problem, exc.value.offset) == ("big", 4)
