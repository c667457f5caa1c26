"""Hostile input: strange encodings and line endings, huge sizes and shapes,
files that cannot be read, and output that must be complete or absent.

The inputs are made here (from the examples, from the shared corpus at run
time, or by hand in ``tests/regressions/``). The very slow cases (a 200 MB
archive, a folder of 100,000 files, 10,000 games) are marked ``slow``;
``bench/hostile.py`` prints their figures.

Tests marked ``xfail(strict=True)`` are bugs in modules this suite does not
own (the reader, the validator, the JSON writer): each says what fails and
starts passing, and so fails the run, once the bug is fixed.
"""
from __future__ import annotations

import codecs
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, ROOT
from gamao_cli.formats import mat as loading
from gamao_cli.formats.mat import streaming
from gamao_cli.replay.check import check_file
from gamao_cli.cli import main
from gamao_cli.errors import SyntaxProblem
from gamao_cli.formats import parse_text as load_text, read_path
from gamao_cli.formats.mat.limits import check_repeats
from gamao_cli.formats.mat.reader import read_matches

REGRESSIONS = ROOT / "tests" / "regressions"
CLEAN = EXAMPLES / "gnubg-selfplay-5pt.mat"
ILLEGAL = EXAMPLES / "illegal-play.mat"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
HDR = " 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def gamao(*args: str, timeout: float = 120, cwd: str | None = None) -> subprocess.CompletedProcess:
    """The real command, in a process of its own."""
    env = {k: v for k, v in os.environ.items() if k != "GAMAO_DEBUG"}
    return subprocess.run([sys.executable, "-m", "gamao_cli", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd or str(ROOT), env=env)


def timed(func, *args, **kwargs):
    t = time.perf_counter()
    out = func(*args, **kwargs)
    return out, time.perf_counter() - t


def outcome(path: str) -> tuple:
    """What validate says of a file, without the path: comparable across copies."""
    r = check_file(path)
    return (r.unreadable, [mt.to_dict() for mt in r.matches],
            [(d.code, d.line, d.column, d.message) for d in r.diagnostics])


def temp_files(folder: Path) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.startswith(".") and n.endswith(".tmp"))


# ---------------------------------------------------------------------------
# 1. Encodings, line endings, tabs
# ---------------------------------------------------------------------------

NAMES = ("Jürgen Ñúñez", "Zoë Øster-Çelik")
ENCODINGS = {
    "utf-8": lambda t: t.encode("utf-8"),
    "utf-8-sig": lambda t: codecs.BOM_UTF8 + t.encode("utf-8"),
    "utf-16-le": lambda t: codecs.BOM_UTF16_LE + t.encode("utf-16-le"),
    "utf-16-be": lambda t: codecs.BOM_UTF16_BE + t.encode("utf-16-be"),
    "cp1252": lambda t: t.encode("cp1252"),
}


def _named_match() -> str:
    text = CLEAN.read_text(encoding="utf-8")
    return text.replace("Player_1", NAMES[0]).replace("Player_2", NAMES[1])


@pytest.mark.parametrize("encoding", list(ENCODINGS))
@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_names_survive_every_encoding_and_conversion(tmp_path, encoding, line_end):
    src = tmp_path / "names.mat"
    src.write_bytes(ENCODINGS[encoding](_named_match().replace("\n", line_end)))
    r = check_file(str(src))
    assert not r.unreadable and r.encoding == encoding and r.errors == 0
    assert [mt.players for mt in r.matches] == [NAMES]
    for target in ("mat", "json", "sgf"):
        out = tmp_path / f"out.{target}"
        res = run("convert", str(src), "--to", target, "-o", str(out))
        assert res.exit_code == 0, res.output
        written = out.read_text(encoding="utf-8")
        assert NAMES[0] in written and NAMES[1] in written
        [back] = load_text(written, str(out))
        assert back.players == NAMES


def _variants(text: str) -> dict[str, str]:
    lines = text.split("\n")
    return {
        "crlf": text.replace("\n", "\r\n"),
        "cr-only": text.replace("\n", "\r"),
        "mixed": "".join(line + ("\r\n", "\n", "\r")[i % 3] for i, line in enumerate(lines[:-1])),
        "trailing-blanks": text.replace("\n", " \t  \n"),
        "no-final-newline": text.rstrip("\n"),
        "many-final-newlines": text + "\n\n\n",
        # a tab as the one-character indentation of every indented line
        "tab-indent": "\n".join("\t" + line[1:] if line.startswith(" ") and not
                                line.startswith("  ") else line for line in lines),
    }


@pytest.mark.parametrize("example", ["illegal-play.mat", "gnubg-selfplay-5pt.mat",
                                     "consolidated-notation-5pt.mat"])
def test_line_endings_blanks_and_tabs_read_the_same(tmp_path, example):
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    base = tmp_path / "base.mat"
    base.write_text(text, encoding="utf-8", newline="")
    expected = outcome(str(base))
    for name, variant in _variants(text).items():
        p = tmp_path / f"{name}.mat"
        p.write_bytes(variant.encode("utf-8"))
        assert outcome(str(p)) == expected, name


def test_tabs_read_like_spaces_regression():
    text = (REGRESSIONS / "tab-gaps.mat").read_text(encoding="utf-8")
    assert "\t" in text
    assert load_text(text, "tabs.mat") == load_text(text.expandtabs(8), "spaces.mat")


def test_not_text_is_reported_with_its_byte_offset(tmp_path):
    raw = CLEAN.read_bytes()
    cut = raw.index(b"Game 2")
    bad = tmp_path / "binary.mat"
    bad.write_bytes(raw[:cut] + b"\x00\x01\x02\x03" + raw[cut:])
    res = gamao("validate", str(bad))
    assert res.returncode == 2
    assert f"GM003 error not a text file: a NUL byte (binary data?) (at byte {cut})" in res.stdout
    res = gamao("convert", str(bad), "--to", "json", "-o", str(tmp_path / "out.json"))
    assert res.returncode == 2 and f"byte {cut}" in res.stderr
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("name, raw", [
    ("utf-32-le", codecs.BOM_UTF32_LE + " 1 point match\n".encode("utf-32-le")),
    ("utf-32-be", codecs.BOM_UTF32_BE + " 1 point match\n".encode("utf-32-be")),
    ("gzip", b"\x1f\x8b\x08\x00" + bytes(range(40))),
    ("png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
    ("utf-16-odd", codecs.BOM_UTF16_BE + " 1 point match".encode("utf-16-be")[:-1]),
    ("broken-utf8-bom", codecs.BOM_UTF8 + b" 1 point match\n Game 1\n \xc3(\n"),
])
def test_files_in_no_known_encoding_name_a_byte(tmp_path, name, raw):
    p = tmp_path / f"{name}.mat"
    p.write_bytes(raw)
    r = check_file(str(p))
    assert r.unreadable and r.internal_error is None
    [d] = r.diagnostics
    assert d.code == "GM003" and re.search(r"\(at byte \d+\)$", d.message), d.message


def test_invalid_utf16_names_the_offset(tmp_path):
    p = tmp_path / "odd.mat"
    p.write_bytes(codecs.BOM_UTF16_LE + _named_match().encode("utf-16-le") + b"x")
    r = check_file(str(p))
    assert r.unreadable and r.diagnostics[0].code == "GM003"
    assert f"(at byte {p.stat().st_size - 1})" in r.diagnostics[0].message


# ---------------------------------------------------------------------------
# 2. Size and shape: bounded time, a diagnostic with a location or a result
# ---------------------------------------------------------------------------

def _located(r) -> bool:
    return all(d.line is not None or "at byte" in d.message for d in r.diagnostics)


@pytest.mark.parametrize("name, text, budget", [
    ("megabyte-line", HDR + "  1) 31: " + "x" * 1_000_000 + "\n", 30),
    ("slashes", HDR + "  1) 31: " + "/" * 100_000 + "\n", 30),
    ("slash-chain", HDR + "  1) 31: 8" + "/5" * 50_000 + "\n", 30),
    ("spaces", HDR + "  1) 31: 8/5" + " " * 100_000 + "x\n", 30),
    ("tabs", HDR + "  1)" + "\t" * 100_000 + "x\n", 30),
    ("colons", " 1 point match\n\n Game 1\n" + ":" * 100_000 + "\n", 30),
    ("long-name", " 1 point match\n\n Game 1\n " + "A " * 300_000 + ": 0  Bob : 0\n", 30),
    ("semicolons", ";" * 100_000 + "\n 1 point match\n", 30),
    ("tag-quotes", "; [" + '"' * 100_000 + "\n 1 point match\n", 30),
    ("cells", HDR + "  1) " + "31: 8/5 6/5 " * 20_000 + "\n", 60),
    ("match-length-1e9", " 1000000000 point match\n\n Game 1\n Ann : 0   Bob : 0\n"
     "  1) 31: 8/5 6/5                 61: 13/7 8/7\n", 10),
    ("cube-2^64", HDR + "  1)  Doubles => 18446744073709551616    Takes\n", 10),
    ("wins-2^64", HDR + "  1)  Doubles => 2    Drops\n      Wins 18446744073709551616 points\n", 10),
    ("score-2^64", " 5 point match\n\n Game 1\n A : 18446744073709551616   B : -1\n", 10),
    ("game-2^64", " 5 point match\n\n Game 18446744073709551616\n A : 0   B : 0\n", 10),
    ("repeat-9", HDR + "  1) 31: 8/5(9)\n", 10),
    ("repeat-99", HDR + "  1) 31: " + "8/5(99) " * 100_000 + "\n", 30),
    ("repeat-9-line", HDR + "  1) 31: " + "8/5(9) " * 100_000 + "\n", 60),
])
def test_hostile_shapes_end_in_bounded_time(tmp_path, name, text, budget):
    p = tmp_path / f"{name}.mat"
    p.write_text(text, encoding="utf-8")
    r, seconds = timed(check_file, str(p))
    assert seconds < budget, f"{name}: {seconds:.1f} s"
    assert r.internal_error is None, r.internal_error
    assert _located(r)
    if r.unreadable:
        assert r.diagnostics[0].code in ("GM001", "GM002") and r.diagnostics[0].line


def test_cube_of_2_to_the_64_is_a_warning(tmp_path):
    p = tmp_path / "cube.mat"
    p.write_text(HDR + "  1)  Doubles => 18446744073709551616    Takes\n", encoding="utf-8")
    r = check_file(str(p))
    [gm306] = [d for d in r.diagnostics if d.code == "GM306"]
    assert (gm306.line, gm306.column) == (5, 7)


def test_a_cube_doubled_seventy_times(tmp_path):
    lines = []
    for i in range(70):
        if i % 2 == 0:
            lines.append(f" {i + 1:2})  Doubles => {2 ** (i + 1)}              Takes\n")
        else:
            lines.append(f" {i + 1:2})  Takes                         Doubles => {2 ** (i + 1)}\n")
    p = tmp_path / "cube.mat"
    p.write_text(" 0 point match\n\n Game 1\n A : 0   B : 0\n" + "".join(lines)
                 + f"      Wins {2 ** 70} points\n", encoding="utf-8")
    r, seconds = timed(check_file, str(p))
    assert seconds < 10 and r.internal_error is None and not r.unreadable


def _games(n: int) -> str:
    text = CLEAN.read_text(encoding="utf-8")
    body = text[text.index(" Game 1"):text.index(" Game 2")].split("\n", 2)[2]
    return " 0 point match\n\n" + "".join(
        f" Game {i}\n Player_1 : 0                   Player_2 : 0\n" + body for i in range(1, n + 1))


def test_two_thousand_games_in_one_match(tmp_path):
    p = tmp_path / "long.mat"
    p.write_text(_games(2000), encoding="utf-8")
    r, seconds = timed(check_file, str(p))
    assert seconds < 120 and not r.unreadable
    assert r.games == 2000 and r.matches[0].games == 2000


@pytest.mark.slow
def test_ten_thousand_games_in_one_match(tmp_path):
    p = tmp_path / "long.mat"
    p.write_text(_games(10_000), encoding="utf-8")
    r, seconds = timed(check_file, str(p))
    assert seconds < 300 and not r.unreadable and r.games == 10_000
    res, seconds = timed(gamao, "convert", str(p), "--to", "mat", "-o", str(tmp_path / "o.mat"),
                         timeout=600)
    assert res.returncode == 0, res.stderr


# -- numbers too long to read, steps repeated without end ------------------

LONG_NUMBER = {
    "match-length": " " + "9" * 5000 + " point match\n\n Game 1\n Ann : 0   Bob : 0\n",
    "score": " 1 point match\n\n Game 1\n Ann : " + "9" * 5000 + "  Bob : 0\n",
    "game-number": " 1 point match\n\n Game " + "9" * 5000 + "\n Ann : 0   Bob : 0\n",
    "move-number": HDR + "  " + "9" * 5000 + ") 31: 8/5 6/5\n",
    "cube": HDR + "  1)  Doubles => 2    Takes\n  2)  Doubles => " + "9" * 5000 + "   Takes\n",
    "wins": HDR + "  1)  Doubles => 2    Drops\n      Wins " + "9" * 5000 + " point\n",
}


@pytest.mark.parametrize("where", list(LONG_NUMBER))
def test_a_number_of_five_thousand_digits_is_a_located_error(tmp_path, where):
    text = LONG_NUMBER[where]
    with pytest.raises(SyntaxProblem) as exc:
        load_text(text, "long.mat")
    digits = text.index("9" * 5000)
    line = text.count("\n", 0, digits) + 1
    assert exc.value.line == line
    assert exc.value.column == digits - (text.rfind("\n", 0, digits) + 1) + 1
    assert "5000 digits" in exc.value.message
    p = tmp_path / "long.mat"
    p.write_text(text, encoding="utf-8")
    res = run("validate", str(p))
    assert res.exit_code == 2 and f"long.mat:{line}:" in res.output and "GM001" in res.output
    res = run("convert", str(p), "--to", "mat", "-o", str(tmp_path / "out.mat"))
    assert res.exit_code == 2 and not (tmp_path / "out.mat").exists()


def test_reader_very_long_number():
    """The reader itself (not only the command) names a number too long to read."""
    with pytest.raises(SyntaxProblem) as exc:
        read_matches(LONG_NUMBER["score"], "long.mat")
    assert "digits" in exc.value.message and exc.value.line and exc.value.column


@pytest.mark.parametrize("count", ["10", "100", "999999999", "9" * 40])
def test_a_step_repeated_without_end_is_refused_before_it_is_expanded(count):
    text = HDR + f"  1) 31: 8/5({count})                62: 24/18 13/11\n"
    with pytest.raises(SyntaxProblem) as exc:
        _r, seconds = timed(load_text, text, "rep.mat")
    assert (exc.value.line, exc.value.column) == (5, 13)
    assert "repeated" in exc.value.message


def test_repeat_counts_up_to_the_limit_reach_the_validator(tmp_path):
    p = tmp_path / "rep.mat"
    p.write_text(HDR + "  1) 31: 8/5(5)\n", encoding="utf-8")
    r = check_file(str(p))
    assert not r.unreadable and "GM207" in [d.code for d in r.diagnostics]
    # a count in a comment or a player's name is not a step
    p.write_text(" 1 point match\n; seen (1000000000) times\n\n Game 1\n Ann(100000) : 0"
                 "                 Bob : 0\n  1) 31: 8/5 6/5\n", encoding="utf-8")
    assert not check_file(str(p)).unreadable


def test_reader_refuses_a_huge_repeat_count():
    """The reader itself refuses 8/5(100000) before expanding it."""
    with pytest.raises(SyntaxProblem) as exc:
        read_matches(HDR + "  1) 31: 8/5(100000)\n", "rep.mat")
    assert (exc.value.line, exc.value.column) == (5, 13)


# -- a validator crash stays with its file -----------------------------------

def _crash_on(name: str, monkeypatch) -> None:
    """Make the validator crash on files whose path contains ``name``."""
    import gamao_cli.replay.check as checking
    real = checking.validate_match

    def crashing(match, *a, **k):
        if name in match.path:
            raise ValueError("movement 999/5 is outside the board")
        return real(match, *a, **k)
    monkeypatch.setattr(checking, "validate_match", crashing)


def test_validator_crash_is_reported_for_its_file_and_the_others_are_checked(tmp_path, monkeypatch):
    _crash_on("a-crash", monkeypatch)
    shutil.copy(CLEAN, tmp_path / "a-crash.mat")
    shutil.copy(ILLEGAL, tmp_path / "b-illegal.mat")
    r = check_file(str(tmp_path / "a-crash.mat"))
    assert r.unreadable and r.internal_error and "outside the board" in r.internal_error
    [d] = r.diagnostics
    assert d.code == "GM008" and "internal error" in d.message
    res = run("validate", "--jobs", "1", str(tmp_path))
    assert res.exit_code == 3   # an internal error, though the other files were checked
    assert "a-crash.mat" in res.output and "GM008 error internal error while checking" in res.output
    assert "b-illegal.mat:9:38: GM202" in res.output
    assert "Traceback" not in res.output


def test_an_internal_error_outweighs_an_unreadable_file_in_the_exit_code(tmp_path, monkeypatch):
    _crash_on("a-crash", monkeypatch)
    shutil.copy(CLEAN, tmp_path / "a-crash.mat")
    (tmp_path / "b-not-a-match.mat").write_text("hello\n", encoding="utf-8")
    shutil.copy(CLEAN, tmp_path / "c-clean.mat")
    res = run("validate", "--jobs", "1", "--format", "json", str(tmp_path))
    assert res.exit_code == 3
    doc = json.loads(res.output)
    assert [(Path(f["path"]).name, f["ok"]) for f in doc["files"]] == \
        [("a-crash.mat", False), ("b-not-a-match.mat", False), ("c-clean.mat", True)]
    # without the crash: 2 for the unreadable file; a GM004 of a file that
    # cannot be read (no internal error) is no reason for 3 either
    monkeypatch.undo()
    assert run("validate", "--jobs", "1", str(tmp_path)).exit_code == 2
    res = run("validate", str(tmp_path / "c-clean.mat"), str(tmp_path / "missing.mat"))
    assert res.exit_code == 2 and "missing.mat: GM004 error cannot read" in res.output


def test_gamao_debug_lets_an_internal_error_through(monkeypatch, tmp_path):
    _crash_on("a-crash", monkeypatch)
    shutil.copy(CLEAN, tmp_path / "a-crash.mat")
    monkeypatch.setenv("GAMAO_DEBUG", "1")
    with pytest.raises(ValueError, match="outside the board"):
        check_file(str(tmp_path / "a-crash.mat"))


def test_validator_point_beyond_the_board():
    from gamao_cli.replay.replay import validate_match
    [match] = read_matches((REGRESSIONS / "point-beyond-board.mat").read_text(), "p.mat")
    report = validate_match(match)
    assert any(d.line == 5 for d in report.diagnostics)


def test_validator_step_from_off():
    """0/9: board.resolve_play raised ValueError('movement 0/9 is outside the
    board') (found by fuzz/fuzz_matfile.py after the fix for points past 25);
    now GM108 at the step, and the game is not replayed further (GM215)."""
    from gamao_cli.replay.replay import validate_match
    [match] = read_matches((REGRESSIONS / "step-from-off.mat").read_text(), "off.mat")
    report = validate_match(match)
    on_line = [(d.code, d.column) for d in report.diagnostics if d.line == 5]
    assert sorted(on_line) == [("GM108", 10), ("GM215", 6)]
    [d] = [d for d in report.diagnostics if d.code == "GM108"]
    assert d.message == "0/9 8/5: a step starts from off (0): a checker borne off never moves again"
    assert (d.severity, d.dice, d.play) == ("error", "31", "0/9 8/5")


@pytest.mark.parametrize("play, column", [("0/9 8/5", 10), ("8/5 off/9", 14), ("9/0/5 6/5", 10)])
def test_a_step_from_off_is_reported_by_validate_not_a_crash(tmp_path, play, column):
    p = tmp_path / "off.mat"
    p.write_text(HDR + f"  1) 31: {play}\n", encoding="utf-8")
    r = check_file(str(p))
    assert not r.unreadable and r.internal_error is None
    assert [(d.line, d.column) for d in r.diagnostics if d.code == "GM108"] == [(5, column)]
    r = check_file(str(REGRESSIONS / "step-from-off.mat"))
    assert r.internal_error is None and "GM108" in [d.code for d in r.diagnostics]
    res = run("validate", str(p))
    assert res.exit_code == 1 and "GM108 error" in res.output and "GM004" not in res.output
    for target in ("mat", "json", "sgf"):
        res = run("convert", str(p), "--to", target, "-o", str(tmp_path / f"out.{target}"))
        assert res.exit_code == 0 and (tmp_path / f"out.{target}").exists(), res.output


def test_the_fuzz_harness_body_keeps_the_contract_and_stops_at_new_crashes(monkeypatch):
    """fuzz/common.one_input, what both fuzz harnesses run for each input,
    without Atheris: the examples and the regression inputs pass (the .mat
    output reads back); a crash stops it unless it is a known bug."""
    monkeypatch.syspath_prepend(str(ROOT / "fuzz"))
    import common
    from gamao_cli import convert
    from gamao_cli.formats.sgf.reader import read_sgf
    for path in sorted(EXAMPLES.glob("*.mat")) + sorted(REGRESSIONS.glob("*.mat")):
        common.one_input(path.read_bytes(), "fuzz.mat", read_matches, convert=True)
    sgf = convert(load_text(CLEAN.read_text(encoding="utf-8"), "m.mat"), "sgf").text
    common.one_input(sgf.replace("PB[Player_2]", "PB[Snow (libgsgf):0.2.0]").encode(),
                     "fuzz.sgf", read_sgf, convert=True)
    common.one_input(b"\x00\x01\x02", "fuzz.mat", read_matches, convert=True)  # no text

    def crashing(text, path):
        raise RuntimeError("a new bug")

    def known(text, path):
        raise ValueError("a known bug, reported")

    with pytest.raises(RuntimeError, match="a new bug"):
        common.one_input(CLEAN.read_bytes(), "fuzz.mat", crashing, convert=False)
    monkeypatch.setattr(common, "_KNOWN", [("ValueError", re.compile("^a known bug"))])
    common.one_input(CLEAN.read_bytes(), "fuzz.mat", known, convert=False)
    monkeypatch.setenv("FUZZ_ALL", "1")
    with pytest.raises(ValueError, match="a known bug"):
        common.one_input(CLEAN.read_bytes(), "fuzz.mat", known, convert=False)


def test_json_conversion_of_an_impossible_position():
    """An illegal play replayed as written can put both players on one point
    (found by fuzz/fuzz_matfile.py): no ID can hold it, so the JSON leaves the
    IDs out for those actions instead of failing."""
    import json
    from gamao_cli import convert
    matches = read_matches((REGRESSIONS / "impossible-position-json.mat").read_text(), "p.mat")
    doc = json.loads(convert(matches, "json").text)
    actions = [a for g in doc["games"] for a in g["actions"]]
    assert any("position_id" in a for a in actions)
    assert any("on_roll" in a and "position_id" not in a for a in actions)


def test_resolve_play_never_leaves_a_negative_checker_count():
    """13/7 could move the checker bar/19/13/7 is carrying when their steps
    interleave, leaving -1 checkers on 13 (found by fuzz/fuzz_matfile.py;
    fixed: resolve_play checks for a checker at every die step)."""
    from gamao_cli.rules import Position, resolve_play
    # on the bar, nothing on 13, lone opposing checkers on 19 and 7 (hit on the way)
    me = (0, 0, 2, 2, 3, 3, 3, 0, 1) + (0,) * 16 + (1,)
    opp = (2, 3, 0, 2, 3, 2, 1, 0, 0, 1) + (0,) * 8 + (1,) + (0,) * 7
    r = resolve_play(Position(me, opp), [(25, 7), (13, 7)], 6, 6)
    assert not r.ok or min(r.position.me) >= 0 and min(r.position.opp) >= 0, r.steps
    # the only checker that could make 13/7 is the one bar/7 carries
    assert (r.ok, r.problem, r.index) == (False, "no-checker", 1)


def test_a_long_player_name_converts_to_a_readable_mat(tmp_path):
    from gamao_cli import convert
    long_name = "Jonathan-Alexander-Montgomery-Smith"
    text = CLEAN.read_text(encoding="utf-8").replace("Player_1", long_name)
    out = convert(load_text(text, "long.mat"), "mat").text
    [back] = load_text(out, "converted.mat")
    assert back.players == (long_name, "Player_2")


def test_a_player_name_with_a_colon_converts_to_a_readable_mat(tmp_path):
    """A player name holding ':' (SGF allows it: PB[Snow (libgsgf):0.2.0]) was
    written as it is into the .mat score line, whose names the reader reads
    up to the first ':', so gamao could not read its own output (found by
    fuzz/fuzz_sgf.py). Each ':' is now written '-', with a warning."""
    from gamao_cli import convert
    sgf = convert(load_text(CLEAN.read_text(encoding="utf-8"), "m.mat"), "sgf").text
    sgf = sgf.replace("PB[Player_2]", "PB[Snow (libgsgf):0.2.0]")
    sgf = sgf.replace("PW[Player_1]", "PW[:a:]")
    [match] = load_text(sgf, "m.sgf")
    conv = convert([match], "mat")
    [back] = load_text(conv.text, "converted.mat")
    assert back.players == ("-a-", "Snow (libgsgf)-0.2.0")
    assert all(g.score.names == back.players for g in back.games)
    assert conv.warnings == [
        "the player name ':a:' is written '-a-': a .mat score line cannot hold ':' "
        "(each becomes '-')",
        "the player name 'Snow (libgsgf):0.2.0' is written 'Snow (libgsgf)-0.2.0': a .mat "
        "score line cannot hold ':' (each becomes '-')"]
    p = tmp_path / "m.sgf"
    p.write_text(sgf, encoding="utf-8")
    res = run("convert", str(p), "--to", "mat", "-o", str(tmp_path / "m.mat"))
    assert res.exit_code == 0
    assert f"{p}: warning: the player name 'Snow (libgsgf):0.2.0' is written" in res.output
    assert read_path(str(tmp_path / "m.mat"))[0].players[1] == "Snow (libgsgf)-0.2.0"


def test_a_player_name_ending_like_a_rating_converts_to_a_readable_mat():
    """A name like 'Bob,1500' with no rating (from SGF or JSON) would be read
    back from .mat as the player Bob rated 1500: the ',' is written as a
    space, with a warning; a real rating is still written and read back."""
    from gamao_cli import convert
    sgf = convert(load_text(CLEAN.read_text(encoding="utf-8"), "m.mat"), "sgf").text
    sgf = sgf.replace("PB[Player_2]", "PB[Bob,1500]")
    [match] = load_text(sgf, "m.sgf")
    for g in match.games:
        g.score.ratings = ("1720.5", None)
    conv = convert([match], "mat")
    [back] = load_text(conv.text, "converted.mat")
    assert back.players == ("Player_1", "Bob 1500")
    assert all(g.score.ratings == ("1720.5", None) for g in back.games)
    assert conv.warnings == [
        "the player name 'Bob,1500' is written 'Bob 1500': a .mat score line would read "
        "the ',' and number that end it as a rating (the ',' becomes a space)"]


def test_a_crash_while_converting_leaves_no_file(tmp_path):
    out = tmp_path / "out.json"
    res = gamao("convert", str(REGRESSIONS / "impossible-position-json.mat"), "--to", "json",
                "-o", str(out))
    assert res.returncode in (0, 2)  # 2 until the bug above is fixed
    if res.returncode == 2:
        assert not out.exists() and os.listdir(tmp_path) == []
        assert "Traceback" not in res.stderr and "same point" in res.stderr


# ---------------------------------------------------------------------------
# 2b. Big files, read match by match
# ---------------------------------------------------------------------------

def _archive(n_matches: int) -> str:
    """n matches one after another, each with its tags, from the examples."""
    parts = []
    examples = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.mat"))]
    for i in range(n_matches):
        parts.append(f'; [Match "{i}"]\n' + examples[i % len(examples)] + "\n")
    return "".join(parts)


def test_a_big_file_is_read_match_by_match_with_true_line_numbers(tmp_path, monkeypatch):
    text = _archive(12)
    p = tmp_path / "archive.mat"
    p.write_text(text, encoding="utf-8")
    whole = outcome(str(p))
    monkeypatch.setattr(loading, "STREAM_MIN_BYTES", 0)
    calls = []
    real = streaming.iter_chunk_matches

    def spy(chunks, path="", reader=read_matches):
        chunks = list(chunks)
        calls.append(len(chunks))
        return real(chunks, path, reader)

    monkeypatch.setattr(streaming, "iter_chunk_matches", spy)
    monkeypatch.setattr(streaming, "BATCH_CHARS", 0)   # one match a chunk
    assert outcome(str(p)) == whole
    assert calls == [12]
    assert len(whole[1]) == 12 and sum(d[0] == "GM202" for d in whole[2]) == 3
    # in batches of about 3 matches: the same
    monkeypatch.setattr(streaming, "BATCH_CHARS", len(text) // 4)
    calls.clear()
    assert outcome(str(p)) == whole
    assert 3 <= calls[0] <= 5


def test_many_one_line_matches_are_read_in_batches(tmp_path, monkeypatch):
    """400,000 one-line matches took 33 s read one by one (a parse per
    match): matches are read in batches, with the same result and lines."""
    text = "".join(f" {i % 7} point match\n" for i in range(30_000)) + " 1 point match\n Game x\n"
    p = tmp_path / "many.mat"
    p.write_text(text, encoding="utf-8")
    whole = outcome(str(p))
    assert whole[0] and whole[2][0][1] == 30_002   # the error, on its line
    monkeypatch.setattr(loading, "STREAM_MIN_BYTES", 0)
    assert outcome(str(p)) == whole
    p.write_text(text[:text.rindex(" 1 point")], encoding="utf-8")
    r = check_file(str(p))
    assert not r.unreadable and len(r.matches) == 30_000
    assert [mt.length for mt in r.matches[:8]] == [0, 1, 2, 3, 4, 5, 6, 0]


@pytest.mark.parametrize("damage", ["game-line-at-the-end", "tag-in-a-game", "garbage", "cut"])
def test_a_big_file_with_an_error_reads_as_the_whole_file_does(tmp_path, monkeypatch, damage):
    text = _archive(6)
    lines = text.split("\n")
    second = [i for i, line in enumerate(lines) if line.startswith("; [Match")][2]
    if damage == "game-line-at-the-end":  # a chunk that stops in the middle of a match
        lines.insert(second, " Game 9")
    elif damage == "tag-in-a-game":
        lines.insert(second - 5, '; [Note "x"]')
    elif damage == "garbage":
        lines.insert(second + 7, "  what is this")
    else:
        lines = lines[:second + 9]
    p = tmp_path / "archive.mat"
    p.write_text("\n".join(lines), encoding="utf-8")
    whole = outcome(str(p))
    monkeypatch.setattr(loading, "STREAM_MIN_BYTES", 0)
    assert outcome(str(p)) == whole
    if damage != "cut":
        assert whole[0] and whole[2][0][0] == "GM001"


def test_streamed_file_in_every_encoding(tmp_path, monkeypatch):
    text = _archive(3).replace("Player_1", NAMES[0])
    monkeypatch.setattr(loading, "STREAM_MIN_BYTES", 0)
    monkeypatch.setattr("gamao_cli.formats.textio.CHUNK_SIZE", 7)
    for encoding, encode in ENCODINGS.items():
        p = tmp_path / f"{encoding}.mat"
        p.write_bytes(encode(text.replace("\n", "\r\n")))
        r = check_file(str(p))
        assert r.encoding == encoding and not r.unreadable
        assert NAMES[0] in [name for mt in r.matches for name in mt.players]


def test_streaming_hands_sgf_and_json_to_their_readers(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "STREAM_MIN_BYTES", 0)
    src = tmp_path / "m.mat"
    shutil.copy(CLEAN, src)
    for target in ("json", "sgf"):
        out = tmp_path / f"m.{target}"
        assert run("convert", str(src), "--to", target, "-o", str(out)).exit_code == 0
        matches = read_path(str(out))
        assert matches == read_path(str(src))


def _peak_rss_of(code: str) -> tuple[float, float]:
    """(seconds, peak resident memory in MiB) of running ``code`` in a child."""
    script = ("import resource, sys, time; t = time.perf_counter(); " + code +
              "; print(time.perf_counter() - t, "
              "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=str(ROOT), timeout=3000)
    assert out.returncode == 0, out.stderr
    seconds, peak = out.stdout.split()[-2:]
    return float(seconds), float(peak)


@pytest.mark.slow
def test_two_hundred_megabytes_validate_in_memory_that_does_not_grow(tmp_path):
    unit = _archive(40)
    small = tmp_path / "small.mat"
    big = tmp_path / "big.mat"
    small.write_text(unit * max(1, (20 << 20) // len(unit)), encoding="utf-8")
    with open(big, "w", encoding="utf-8") as fh:
        for _ in range((200 << 20) // len(unit)):
            fh.write(unit)
    code = "from gamao_cli.replay.check import check_file; r = check_file(sys.argv[1] if False else {!r}); assert not r.unreadable"
    _t_small, peak_small = _peak_rss_of(code.format(str(small)))
    t_big, peak_big = _peak_rss_of(code.format(str(big)))
    print(f"200 MB: {t_big:.0f} s, peak {peak_big:.0f} MiB (20 MB: peak {peak_small:.0f} MiB)")
    assert peak_big < peak_small * 1.5 + 50


@pytest.mark.slow
def test_a_folder_of_a_hundred_thousand_files(tmp_path):
    text = CLEAN.read_text(encoding="utf-8")
    folder = tmp_path / "many"
    for i in range(100):
        sub = folder / f"d{i:03d}"
        sub.mkdir(parents=True)
        for j in range(1000):
            (sub / f"m{j:04d}.mat").write_text(text, encoding="utf-8")
    res = gamao("validate", "--quiet", str(folder), timeout=3000)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("100000 files, 300000 games: 0 errors")


# ---------------------------------------------------------------------------
# 2c. Folders: link loops, files that cannot be read, pipes
# ---------------------------------------------------------------------------

def test_symbolic_link_loops_are_followed_once(tmp_path):
    root = tmp_path / "archive"
    (root / "a" / "b").mkdir(parents=True)
    shutil.copy(CLEAN, root / "a" / "b" / "m.mat")
    (root / "a" / "b" / "up").symlink_to(root / "a")          # a loop through a parent
    (root / "a" / "self").symlink_to(root / "a")
    (root / "loop.mat").symlink_to(root / "loop.mat")          # a link to itself
    (root / "x.mat").symlink_to(root / "y.mat")                # a loop of two links
    (root / "y.mat").symlink_to(root / "x.mat")
    res = gamao("validate", str(root), timeout=60)
    assert res.returncode == 2
    assert res.stdout.count("m.mat") == 0  # clean file: no diagnostics
    assert res.stdout.splitlines()[-1].startswith("4 files, 3 games: 3 errors")
    for name in ("loop.mat", "x.mat", "y.mat"):
        assert f"{name}: GM004 error cannot read: " in res.stdout


def _unreadable_for_root() -> str | None:
    """A path whose reading fails even for root (a write-only sysctl), or None."""
    p = "/proc/sys/vm/drop_caches"
    try:
        with open(p, "rb") as fh:
            fh.read(1)
    except PermissionError:
        return p
    except OSError:
        return None
    return None


def test_files_that_cannot_be_read_give_exit_2_and_the_others_are_checked(tmp_path):
    folder = tmp_path / "archive"
    folder.mkdir()
    shutil.copy(ILLEGAL, folder / "a.mat")
    shutil.copy(CLEAN, folder / "c.mat")
    secret = folder / "b.mat"
    target = _unreadable_for_root() if IS_ROOT else None
    if target:
        secret.symlink_to(target)  # root reads every file but this kind
    else:
        shutil.copy(CLEAN, secret)
        secret.chmod(0)
        if os.access(secret, os.R_OK):
            pytest.skip("no file here is unreadable for this user")
    try:
        res = gamao("validate", str(folder))
    finally:
        if not target:
            secret.chmod(0o644)
    assert res.returncode == 2
    assert f"{secret}: GM004 error cannot read: permission denied" in res.stdout
    assert "a.mat:9:38: GM202" in res.stdout
    assert res.stdout.splitlines()[-1] == "3 files, 5 games: 3 errors, 0 warnings (1 file not read)"


def test_a_fifo_in_a_folder_does_not_hang(tmp_path):
    folder = tmp_path / "archive"
    folder.mkdir()
    shutil.copy(CLEAN, folder / "a.mat")
    os.mkfifo(folder / "pipe.mat")
    res = gamao("validate", str(folder), timeout=60)
    assert res.returncode == 2
    assert "pipe.mat:1:1: GM002" in res.stdout


# ---------------------------------------------------------------------------
# 4. Output: complete or absent, never clobbered
# ---------------------------------------------------------------------------

def test_convert_to_dev_full_reports_disk_full(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    res = gamao("convert", str(CLEAN), "--to", "json", "-o", "/dev/full")
    assert res.returncode == 2
    assert "/dev/full: cannot write: No space left on device" in res.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)  # written to, never replaced
    assert not [n for n in os.listdir("/dev") if n.startswith(".full.")]
    res = gamao("convert", str(CLEAN), "--to", "json", "-o", "/dev/full/x.json")
    assert res.returncode == 2 and "'/dev/full' is not a folder" in res.stderr


def test_convert_to_dev_null_writes_through_and_keeps_the_device():
    for force in ([], ["--force"]):
        res = gamao("convert", str(CLEAN), "--to", "mat", "-o", "/dev/null", *force)
        assert res.returncode == 0, res.stderr
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("target", ["/proc/gamao-out.mat", "/sys/gamao-out.mat"])
def test_convert_into_a_folder_that_refuses_files(target):
    if not os.path.isdir(os.path.dirname(target)):
        pytest.skip(f"no {os.path.dirname(target)}")
    res = gamao("convert", str(CLEAN), "--to", "mat", "-o", target)
    assert res.returncode == 2
    assert f"{target}: cannot create a temporary file" in res.stderr
    assert "nothing was written" in res.stderr and not os.path.exists(target)


def _unshare_works() -> bool:
    if not IS_ROOT or not shutil.which("unshare"):
        return False
    try:
        return subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                              capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


needs_unshare = pytest.mark.skipif(not _unshare_works(),
                                   reason="needs root and unshare -m with tmpfs mounts")


def _in_small_filesystem(tmp_path: Path, script: str, size: str = "64k") -> subprocess.CompletedProcess:
    """Run a shell ``script`` with $FS a fresh tmpfs of ``size`` (private mount
    namespace: nothing outside sees it) and $GAMAO the command."""
    fs = tmp_path / "fs"
    fs.mkdir()
    gamao_cmd = f"{sys.executable} -m gamao_cli"
    full = f"set -e; mount -t tmpfs -o size={size} tmpfs {fs}; FS={fs}; GAMAO='{gamao_cmd}'; {script}"
    return subprocess.run(["unshare", "-m", "sh", "-c", full], capture_output=True, text=True,
                          timeout=120, cwd=str(ROOT))


@needs_unshare
def test_a_really_full_disk_leaves_the_previous_file_and_no_temporary(tmp_path):
    big = tmp_path / "big.mat"
    big.write_text(_games(60), encoding="utf-8")  # converts to well over 16 KiB
    res = _in_small_filesystem(tmp_path, size="16k", script=f"""
        printf 'previous\\n' > $FS/out.mat
        set +e; $GAMAO convert {big} --to mat -o $FS/out.mat --force; echo "rc=$?"
        $GAMAO convert {big} --to json -o $FS/new.json; echo "rc=$?"
        echo "content=$(cat $FS/out.mat)"; echo "files=$(ls -A $FS | tr '\\n' ' ')"
    """)
    out = res.stdout
    assert out.count("rc=2") == 2, (out, res.stderr)
    assert "No space left on device" in res.stderr
    assert "previous file was left unchanged" in res.stderr and "nothing was written" in res.stderr
    assert "content=previous" in out and "files=out.mat \n" in out + "\n"


@needs_unshare
def test_a_read_only_filesystem_is_reported(tmp_path):
    res = _in_small_filesystem(tmp_path, f"""
        printf 'previous\\n' > $FS/out.mat
        mount -o remount,ro $FS
        set +e; $GAMAO convert {CLEAN} --to mat -o $FS/out.mat --force; echo "rc=$?"
        echo "content=$(cat $FS/out.mat)"; echo "files=$(ls -A $FS | tr '\\n' ' ')"
    """)
    assert "rc=2" in res.stdout, (res.stdout, res.stderr)
    assert "Read-only file system" in res.stderr
    assert "content=previous" in res.stdout and "files=out.mat " in res.stdout


def test_converting_a_folder_is_all_or_nothing_per_file(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(CLEAN, src / "a.mat")
    (src / "b.mat").write_bytes(b"\x00\x01 not a match")
    shutil.copy(ILLEGAL, src / "c.mat")
    out = tmp_path / "out"
    out.mkdir()
    (out / "c.json").write_text("precious")
    res = gamao("convert", str(src), "--to", "json", "--out-dir", str(out))
    assert res.returncode == 2
    assert "already exists (use --force" in res.stderr and "b.mat" in res.stderr
    assert sorted(os.listdir(out)) == ["a.json", "c.json"]
    assert (out / "c.json").read_text() == "precious"
    json.loads((out / "a.json").read_text())
    res = gamao("convert", str(src), "--to", "json", "--out-dir", str(out), "--force")
    assert res.returncode == 2 and sorted(os.listdir(out)) == ["a.json", "c.json"]
    json.loads((out / "c.json").read_text())


def test_a_write_failing_midway_through_a_folder_touches_only_that_file(tmp_path, monkeypatch):
    from gamao_cli.formats import textio
    src = tmp_path / "in"
    src.mkdir()
    for name in ("a", "b", "c"):
        shutil.copy(CLEAN, src / f"{name}.mat")
    out = tmp_path / "out"
    out.mkdir()
    (out / "b.mat").write_text("previous")
    real_write = os.write
    written = []

    def write(fd, data):
        # the temporary file of b.mat fills the disk after a few bytes
        name = os.readlink(f"/proc/self/fd/{fd}") if os.path.exists(f"/proc/self/fd/{fd}") else ""
        if "/.b.mat." in name:
            if written:
                raise OSError(28, "No space left on device")
            written.append(1)
            return real_write(fd, bytes(data[:10]))
        return real_write(fd, data)

    monkeypatch.setattr(textio.os, "write", write)
    res = run("convert", str(src), "--to", "mat", "--out-dir", str(out), "--force")
    assert res.exit_code == 2
    assert "b.mat: cannot write: No space left on device; the previous file was left unchanged" \
        in res.output
    assert sorted(os.listdir(out)) == ["a.mat", "b.mat", "c.mat"]
    assert (out / "b.mat").read_text() == "previous"
    assert (out / "a.mat").read_text() == (out / "c.mat").read_text() != "previous"


def test_only_force_replaces_and_the_input_is_never_overwritten(tmp_path):
    src = tmp_path / "m.mat"
    shutil.copy(CLEAN, src)
    out = tmp_path / "m.json"
    out.write_text("precious")
    res = gamao("convert", str(src), "--to", "json", "-o", str(out))
    assert res.returncode == 2 and out.read_text() == "precious"
    res = gamao("convert", str(src), "--to", "mat", "-o", str(src), "--force")
    assert res.returncode == 2 and src.read_bytes() == CLEAN.read_bytes()
    res = gamao("convert", str(src), "--to", "json", "-o", str(out), "--force")
    assert res.returncode == 0 and json.loads(out.read_text())
    assert temp_files(tmp_path) == []


def test_many_counts_on_a_long_line_that_is_not_a_move_line_take_linear_time():
    text = HDR + "; " + "a(100)" * 150_000 + "\n" + "  2) 31: 8/5(7)" + "(100)" * 1000 + "\n"
    with pytest.raises(SyntaxProblem):
        _r, seconds = timed(load_text, text, "x.mat")
    _r, seconds = timed(check_repeats, HDR + "; " + "a(100)" * 150_000 + "\n", "x")
    assert seconds < 5
