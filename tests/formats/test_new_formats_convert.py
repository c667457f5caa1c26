"""``gamao convert`` of GNU Backgammon's text export and of BGBlitz's ``.bgf``
(every match of ``corpus2/gnubg-text/analysed-*`` and ``corpus2/bgf``)
to mat, sgf and json reads back as the same match (every play as the replay
resolves it, every cube action, every result), and the html page holds every
position of it (its Position IDs and Match IDs are the replay's)."""
from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamao_cli import formats
from gamao_cli.cli import main
from gamao_cli.replay.replay import validate_match
from gamao_cli.replay.snapshots import snapshots

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "render"))
from render_support import page_data  # noqa: E402
from test_gnubg_text import canonical  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
TEXT_DIR = SHARED / "corpus2" / "gnubg-text"
BGF = SHARED / "corpus2" / "bgf"

#: every match of the corpus: (kind, name), a gnubg match's name its folder
#: and base name (its game files NAME.txt, NAME_002.txt, ...)
CASES = []
for _folder in sorted(TEXT_DIR.glob("analysed-*")) if TEXT_DIR.is_dir() else []:
    CASES += sorted({("gnubg-text", f"{_folder.name}/{re.sub(r'(_[0-9]{3})?[.]txt$', '', f.name)}")
                     for f in _folder.glob("*.txt")})
if BGF.is_dir():
    CASES += [("bgf", f.stem) for f in sorted(BGF.glob("*.bgf"))]


def _input(kind: str, name: str, tmp_path: Path) -> Path:
    """The record in a folder of its own (a gnubg match: its game files)."""
    folder = tmp_path / "in"
    folder.mkdir()
    if kind == "bgf":
        shutil.copy(BGF / f"{name}.bgf", folder)
    else:
        sub, base = name.split("/", 1)
        for f in (TEXT_DIR / sub).glob("*.txt"):
            if re.fullmatch(re.escape(base) + r"(_\d{3})?\.txt", f.name):
                shutil.copy(f, folder)
    return folder


@pytest.mark.skipif(not CASES, reason="the shared corpus2 is absent")
@pytest.mark.parametrize("kind, name", CASES)
@pytest.mark.parametrize("target", ["mat", "sgf", "json"])
def test_convert_reads_back_as_the_same_match(kind, name, target, tmp_path):
    folder = _input(kind, name, tmp_path)
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["convert", str(folder), "--to", target, "--out-dir",
                                  str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    [written] = list(out.rglob(f"*.{target}"))
    [original] = [mt for u in _units(folder) for mt in formats.read_path(u)]
    [back] = formats.read_path(str(written))
    assert canonical(back) == canonical(original)
    assert validate_match(back).final_score == validate_match(original).final_score


def _units(folder: Path) -> list[str]:
    from gamao_cli.cli.files import iter_input_files
    return list(iter_input_files([str(folder)]))


@pytest.mark.skipif(not CASES, reason="the shared corpus2 is absent")
@pytest.mark.parametrize("kind, name", CASES)
def test_the_html_page_holds_every_position(kind, name, tmp_path):
    folder = _input(kind, name, tmp_path)
    [unit] = _units(folder)
    out = tmp_path / "page.html"
    r = CliRunner().invoke(main, ["convert", unit, "--to", "html", "-o", str(out)],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    data = page_data(out.read_text(encoding="utf-8"))
    fields = data["fields"]
    ids = [(s[fields["pid"]], s[fields["mid"]]) for s in data["snaps"]]
    [match] = formats.read_path(unit)
    expected = [(s.position_id, s.match_id) for s in snapshots(match)]
    assert expected and all(e in ids for e in expected)


@pytest.mark.skipif(not CASES, reason="the shared corpus2 is absent")
@pytest.mark.parametrize("kind, name, program", [
    ("bgf", "MYdvw1qGuyaRUH__", "BGBlitz"),
    ("gnubg-text", "analysed-0ply/match1322784", "GNU Backgammon")])
def test_a_match_file_says_whose_analysis_it_leaves_out(kind, name, program, tmp_path):
    [unit] = _units(_input(kind, name, tmp_path))
    matches = formats.read_path(unit)
    notes = [n for n in formats.get("mat").write(matches).notes if n.key == "GM504.analysis"]
    assert [n.fields["program"] for n in notes] == [program]
    assert program in notes[0].message
