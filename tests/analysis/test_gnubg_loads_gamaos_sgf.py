"""GNU Backgammon reads the analysis gamao writes to SGF, and computes from
it the figures gamao gives for the original record.

Each eXtreme Gammon sample of ``../shared/corpus2/xg`` is converted with
``gamao convert --to sgf``; Debian's ``gnubg -t`` loads the file and prints
``show statistics match``; its figures equal gamao's for the ``.xg``:
counts exactly, totals within 0.001 EMG (0.01 % in match winning chances),
rates within 0.1. A record GNU Backgammon analysed itself is checked the
same way for the match-winning-chance figures, which ``expected.json`` does
not hold. The tests skip where gnubg is not installed.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gamao_cli import convert, formats
from gamao_cli import model as m
from gamao_cli.analysis.figures import match_figures

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
XG_DIR = SHARED / "corpus2" / "xg"
ANALYSED = SHARED / "corpus2" / "analysed"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists()
                                  else None)
SAMPLES = ["kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg",
           "kevung__gbf__data__match_with_comment.xg", "kevung__gbf__data__test.xg"]

needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (gnubg) is not installed")

#: gnubg's line names -> (section, figure) in gamao's stats; the sections
#: are told apart by the heading that opens them.
_LINES = {
    "Chequerplay statistics": {"Total moves": "moves", "Unforced moves": "unforced_moves",
                               "Error total": "error_total", "Error rate": "error_rate"},
    "Luck statistics": {"Luck total": "luck_total", "Luck rate": "luck_rate"},
    "Cube statistics": {"Total cube decisions": "cube_decisions",
                        "Close or actual cube decisions": "close_cube_decisions",
                        "Doubles": "doubles", "Takes": "takes", "Passes": "passes",
                        "Error total": "error_total", "Error rate": "error_rate"},
    "Overall statistics": {"Error total": "error_total", "Error rate": "error_rate",
                           "Snowie error rate": "snowie_error_rate"},
}
_SECTION = {"Chequerplay statistics": "checker", "Luck statistics": "luck",
            "Cube statistics": "cube", "Overall statistics": "overall"}
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def gnubg_statistics(path: Path) -> dict:
    """gnubg's ``show statistics match`` of an SGF file, as
    section -> figure -> [left, right]; a total's match-winning-chance
    figure (in percent) as ``<figure>_mwc``."""
    script = f'load match "{path}"\nshow statistics match\n'
    out = subprocess.run([GNUBG, "-t", "-q"], input=script, capture_output=True, text=True,
                         timeout=300).stdout
    stats: dict = {}
    section = None
    for line in out.splitlines():
        if line.strip() in _LINES:
            section = line.strip()
            continue
        if section is None:
            continue
        for name, figure in _LINES[section].items():
            if line.startswith(name + " ") and (figure != "error_rate" or "mEMG" in line):
                numbers = [float(x) for x in _NUMBER.findall(line[40:])]
                target = stats.setdefault(_SECTION[section], {})
                if figure in ("error_total", "luck_total"):
                    target[figure] = [numbers[0], numbers[2]]
                    target[figure + "_mwc"] = [numbers[1], numbers[3]]
                elif len(numbers) >= 4:          # a rate, with its MWC beside it
                    target[figure] = [numbers[0], numbers[2]]
                else:
                    target[figure] = numbers[:2]
    return stats


def _compare(gnubg: dict, gamao: dict) -> list[str]:
    wrong = []
    for section, figures in gnubg.items():
        for figure, pair in figures.items():
            got = gamao[section][figure]
            if figure.endswith("_mwc"):
                tolerance = 0.01
            elif "rate" in figure:
                tolerance = 0.1
            elif "total" in figure:
                tolerance = 0.001
            else:
                tolerance = 0
            for i in (0, 1):
                if abs(got[i] - pair[i]) > tolerance + 1e-9:
                    wrong.append(f"{section}.{figure}[{i}]: gnubg {pair[i]}, gamao {got[i]}")
    return wrong


@needs_gnubg
@pytest.mark.parametrize("name", SAMPLES)
def test_gnubg_loads_a_converted_xg_with_its_analysis(tmp_path, name):
    path = XG_DIR / name
    if not path.is_file():
        pytest.skip(f"the XG sample {name} is not in {XG_DIR} (set GAMAO_SHARED)")
    [match] = formats.read_path(str(path))
    result = convert([match], "sgf")
    # every analysis is written but that of a roll never played (no SGF node
    # of GNU Backgammon's holds one), which is said
    unplayed = sum(1 for g in match.games for a in g.actions
                   if isinstance(a, m.UnplayedRoll) and a.analysis is not None)
    dropped = [n for n in result.notes if n.key == "GM504.analysis"]
    assert [n.fields["n"] for n in dropped] == ([unplayed] if unplayed else [])
    out = tmp_path / "converted.sgf"
    out.write_text(result.text, encoding="utf-8")
    gnubg = gnubg_statistics(out)
    assert set(gnubg) == {"checker", "luck", "cube", "overall"}
    assert gnubg["checker"]["unforced_moves"][0] > 0 and gnubg["cube"]["cube_decisions"][0] > 0
    wrong = _compare(gnubg, match_figures(match).stats())
    assert not wrong, "\n".join(wrong)


@needs_gnubg
def test_gnubgs_match_winning_chance_figures_are_gamaos(tmp_path):
    expected = ANALYSED / "expected.json"
    if not expected.is_file():
        pytest.skip(f"the analysed corpus is not at {ANALYSED}")
    path = sorted(ANALYSED.glob("*.sgf"))[0]
    [match] = formats.read_path(str(path))
    gnubg = gnubg_statistics(path)
    assert gnubg["checker"]["error_total_mwc"][0] < 0
    wrong = _compare(gnubg, match_figures(match).stats())
    assert not wrong, "\n".join(wrong)
