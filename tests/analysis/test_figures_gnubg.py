"""gamao's figures against GNU Backgammon's own, on records it analysed.

``../shared/corpus2/analysed`` holds records analysed by GNU Backgammon 1.07
at 0-ply and saved as SGF, and ``expected.json``: gnubg's ``show statistics
match`` for each. With the ``GS`` properties (gnubg's saved statistics)
taken out of the file, so that nothing but the decisions can give a
figure, gamao's figures equal gnubg's: counts exactly, totals within 0.001,
rates within 0.1 (gnubg prints rates with one decimal).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from gamao_cli.analysis.decisions import decisions_of
from gamao_cli.analysis.figures import has_analysis, match_figures
from gamao_cli.formats.sgf.analysis import SgfAnalysis
from gamao_cli.formats.sgf.reader import read_sgf

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
ANALYSED = SHARED / "corpus2" / "analysed"
EXPECTED = ANALYSED / "expected.json"

COUNTS = {"moves", "unforced_moves", "cube_decisions", "close_cube_decisions", "doubles",
          "takes", "passes"}
_GS = re.compile(r"GS(?:\[(?:[^\]\\]|\\.)*\])+")


def _expected() -> dict:
    if not EXPECTED.is_file():
        return {}
    return json.loads(EXPECTED.read_text(encoding="utf-8"))


def _without_gs(path: Path) -> str:
    return _GS.sub("", path.read_text(encoding="utf-8"))


needs_analysed = pytest.mark.skipif(
    not EXPECTED.is_file(),
    reason=f"the analysed corpus is not at {ANALYSED} (set GAMAO_SHARED to the shared folder)")


@needs_analysed
@pytest.mark.parametrize("name", sorted(_expected()))
def test_figures_equal_gnubgs_show_statistics(name):
    path = ANALYSED / name
    text = _without_gs(path)
    assert "GS[" not in text
    [match] = read_sgf(text, str(path))
    assert has_analysis(match)
    stats = match_figures(match).stats()
    wrong = []
    for section, figures in _expected()[name]["stats"].items():
        for figure, pair in figures.items():
            got = stats[section][figure]
            tolerance = 0 if figure in COUNTS else 0.1 if "rate" in figure else 0.001
            for i in (0, 1):
                if abs(got[i] - pair[i]) > tolerance + 1e-9:
                    wrong.append(f"{section}.{figure}[{i}]: gnubg {pair[i]}, gamao {got[i]}")
    assert not wrong, "\n".join(wrong)


@needs_analysed
def test_the_corpus_is_all_there():
    """Every record the README lists has its figures (none silently left out)."""
    names = sorted(p.name for p in ANALYSED.glob("*.sgf"))
    assert names == sorted(_expected())
    assert len(names) == 16


@needs_analysed
def test_per_game_figures_add_up_to_the_match():
    path = ANALYSED / sorted(_expected())[0]
    [match] = read_sgf(_without_gs(path), str(path))
    f = match_figures(match)
    assert len(f.games) == len(match.games)
    for section in ("checker", "cube"):
        for figure in ("error_total",):
            assert sum(g.stats()[section][figure][0] for g in f.games) == \
                pytest.approx(f.stats()[section][figure][0], abs=1e-5)
    assert sum(g.moves[1] for g in f.games) == f.moves[1]


@needs_analysed
def test_reading_does_not_decode_the_analysis():
    """Reading and checking a match leaves every analysis as written: it is
    decoded only when a consumer asks for it."""
    from gamao_cli import validate
    path = ANALYSED / sorted(_expected())[0]
    [match] = read_sgf(path.read_text(encoding="utf-8"), str(path))
    report = validate(match)
    assert not report.errors
    held = [a.analysis for g in match.games for a in g.actions
            if isinstance(a.analysis, SgfAnalysis)]
    assert held and all(h._args is not None for h in held)
    assert decisions_of(match.games[0].actions[0]) is not None
    assert held[0]._args is None


def test_a_record_without_analysis_has_none():
    text = ("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[W+1R]"
            ";W[31hefe];B[62agln])")
    [match] = read_sgf(text, "x.sgf")
    assert not has_analysis(match)
    f = match_figures(match)
    assert not f.analysed and f.moves == [1, 1] and f.unforced == [0, 0]
