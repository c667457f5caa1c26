"""``gamao select``: every criterion picks what it says, they combine with
AND, and the picked matches are printed or written (the README's examples
run in tests/test_readme.py)."""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT, fail_fsync_of
from gamao_cli import formats
from gamao_cli.archive.fingerprint import fingerprint
from gamao_cli.cli import main

EXAMPLES = ROOT / "examples"
SELFPLAY = ROOT / "tests" / "data" / "selfplay"
CORPUS2 = Path(os.environ.get("GAMAO_CORPUS2", ROOT.parent / "shared" / "corpus2"))
needs_corpus2 = pytest.mark.skipif(not CORPUS2.is_dir(),
                                   reason=f"the shared corpus2 is not at {CORPUS2}")

RECORD = """; [Event "Clube do Gamão, Noite de Sábado"]
; [EventDate "2024.03.09"]

 3 point match

 Game 1
 José Álvarez : 0                   Zoë Ström : 0
  1) 31: 8/5 6/5                    61: 13/7 8/7
  2)  Doubles => 2                   Drops
      Wins 1 point
"""


def run(*args: str):
    return CliRunner().invoke(main, ["select", *args], catch_exceptions=False)


def picked(*args: str) -> list[str]:
    r = run(*args)
    assert r.exit_code == 0, r.output
    return [Path(p).name for p in r.stdout.splitlines()]


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "club.mat").write_text(RECORD, encoding="utf-8")
    for p in EXAMPLES.glob("*.mat"):
        (tmp_path / p.name).write_bytes(p.read_bytes())
    return tmp_path


def test_names_ignore_accents_case_and_spacing_and_take_patterns(folder):
    d = str(folder)
    assert picked(d, "--player", "jose alvarez") == ["club.mat"]
    assert picked(d, "--player", "  JOSÉ   ÁLVAREZ ") == ["club.mat"]
    assert picked(d, "--player", "zoe*") == ["club.mat"]
    assert picked(d, "--player", "zo") == []          # a name, not a part of one
    assert picked(d, "--player", "jose*", "--player", "zoe strom") == ["club.mat"]
    assert picked(d, "--player", "jose*", "--player", "bob") == []   # AND


def test_opponents_in_either_column(folder):
    d = str(folder)
    assert picked(d, "--opponents", "zoe strom,jose alvarez") == ["club.mat"]
    assert picked(d, "--opponents", "jose alvarez,zoe strom") == ["club.mat"]
    assert picked(d, "--opponents", "jose alvarez,bob") == []


def test_length_money_event_and_dates(folder):
    d = str(folder)
    assert sorted(picked(d, "--length", "3")) == ["club.mat", "illegal-play.mat"]
    assert sorted(picked(d, "--length", "4-5")) == ["consolidated-notation-5pt.mat",
                                                     "gnubg-selfplay-5pt.mat"]
    assert picked(d, "--money") == ["gnubg-selfplay-money.mat"]
    assert picked(d, "--event", "noite de sabado") == ["club.mat"]
    assert picked(d, "--event", "clube*") == ["club.mat"]
    assert picked(d, "--event", "sabado*") == []       # a pattern matches the whole tag
    assert picked(d, "--date-from", "2024-03-09", "--date-to", "2024-03-09") == ["club.mat"]
    assert picked(d, "--date-from", "2024-03-10", "--player", "jose*") == []


def test_errors_clean_and_winner_come_from_the_validator(folder):
    d = str(folder)
    assert picked(d, "--has-errors") == ["illegal-play.mat"]
    assert "illegal-play.mat" not in picked(d, "--clean")
    assert "club.mat" in picked(d, "--clean")
    assert picked(d, "--winner", "BRUNO*") == ["consolidated-notation-5pt.mat"]
    assert picked(d, "--winner", "ana sousa") == []
    # Zoë dropped, but 1-0 in a 3-point match: nobody has won the match
    assert picked(d, "--winner", "jose*") == []


@needs_corpus2
def test_has_analysis_is_what_the_reader_keeps():
    xg = CORPUS2 / "xg" / "kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
    mat = ROOT.parent / "shared" / "corpus" / "kevung__gnubgparser" / \
        "test__charlot1-charlot2_7p_2025-11-08-2305.mat"
    paths = [str(xg)] + ([str(mat)] if mat.exists() else [])
    assert picked(*paths, "--has-analysis") == [xg.name]


def test_print0_and_writing(folder, tmp_path):
    r = run(str(folder), "--length", "5", "--print0")
    assert r.stdout.endswith("\0") and r.stdout.count("\0") == 2 and "\n" not in r.stdout
    out = tmp_path / "out"
    r = run(str(folder), "--length", "3", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["club.mat", "illegal-play.mat"]
    assert (out / "club.mat").read_bytes() == (folder / "club.mat").read_bytes()
    conv = tmp_path / "conv"
    r = run(str(folder), "--player", "jose*", "--to", "sgf", "-o", str(conv))
    assert r.exit_code == 0, r.output
    [back] = formats.read_path(str(conv / "club.sgf"))
    [orig] = formats.read_path(str(folder / "club.mat"))
    assert fingerprint(back) == fingerprint(orig) and back.players == orig.players
    r = run(str(folder), "--length", "3", "-o", str(out))    # there already: exit 2
    assert r.exit_code == 2 and "already exists" in r.output


def test_a_file_that_fails_as_it_settles_is_said_in_its_place(folder, tmp_path, monkeypatch):
    """``-o`` writes each match's file while the next is read, its sync to
    disk and rename settling on a thread: the disk failing at the sync of
    one of them says so once (exit 2), that file is not there, the other
    is, no temporary file is left, and the count written says one fewer."""
    fail_fsync_of(monkeypatch, ".club.mat.")
    out = tmp_path / "out"
    r = run(str(folder), "--length", "3", "-o", str(out))
    assert r.exit_code == 2, r.output
    lines = r.stderr.splitlines()
    failed = [i for i, line in enumerate(lines) if "club.mat: cannot flush to disk" in line]
    assert len(failed) == 1, lines
    assert sorted(p.name for p in out.iterdir()) == ["illegal-play.mat"]
    assert "1 file written" in r.stderr, r.stderr


def test_archive_members_are_named_and_written(folder, tmp_path):
    z = tmp_path / "records.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("night/club.mat", RECORD)
        zf.write(EXAMPLES / "illegal-play.mat", "illegal-play.mat")
    assert run(str(z), "--player", "zoe*").stdout == f"{z}!night/club.mat\n"
    out = tmp_path / "out"
    r = run(str(z), "--player", "zoe*", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert (out / "club.mat").read_text(encoding="utf-8") == RECORD


def test_usage_errors(folder):
    for args in (["--has-errors", "--clean"], ["--to", "json"], ["--length", "7-5"],
                 ["--opponents", "a"], ["--date-from", "9 March"],
                 ["--print0", "-o", str(folder / "x")]):
        r = run(str(folder), *args)
        assert r.exit_code == 2, args
    assert run("-").exit_code == 2


def test_jobs_give_the_same_paths():
    one = run(str(SELFPLAY), str(EXAMPLES), "--clean", "--jobs", "1").stdout
    two = run(str(SELFPLAY), str(EXAMPLES), "--clean", "--jobs", "2").stdout
    assert one == two and one.count("\n") > 10


def test_help_shows_an_example_of_each_criterion():
    text = CliRunner().invoke(main, ["select", "--help"]).output
    examples = text.split("Examples:", 1)[1]
    for option in ("--player", "--opponents", "--length", "--money", "--event", "--date-from",
                   "--date-to", "--has-errors", "--clean", "--has-analysis", "--winner",
                   "--print0", "--to", "-o"):
        assert option in examples, option


@needs_corpus2
def test_a_player_goes_by_the_score_line_or_the_player_tag():
    """Backgammon Studio writes the screen name on the score line and the
    full name in the Player tags."""
    names = picked(str(CORPUS2 / "real"), "--player", "dagfinn snarheim")
    assert len(names) == 3 and all("snarheim - " in n for n in names)   # Bonot twice, Timster
    both = picked(str(CORPUS2 / "real"), "--opponents", "Patrick Didisheim,snarheim")
    assert len(both) == 2 and all("snarheim - Bonot" in n for n in both)
