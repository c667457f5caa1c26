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


def _gs_of_games(text: str) -> list[dict[str, list[float]]]:
    """The ``GS`` of each game tree: GNU Backgammon's saved statistics, which
    gamao never reads into a figure; here only a cross-check."""
    out = []
    for tree in re.split(r"\(;", text)[1:]:
        mo = _GS.search(tree[:tree.find("\n;")])
        values = {}
        if mo:
            for part in re.findall(r"\[([MCD]):([^\]]*)\]", mo.group(0)):
                values[part[0]] = [float(x) for x in part[1].split()]
        out.append(values)
    return out


@needs_analysed
@pytest.mark.parametrize("name", sorted(_expected()))
def test_each_games_figures_equal_the_statistics_gnubg_saved_with_it(name):
    """Per game, gamao's figures equal the GS property GNU Backgammon saved
    with the game (read from the file here; the reader never reads it):
    counts exactly, checker errors within 1e-5 (gnubg sums the floats it
    had, the file holds six decimals), cube errors within 1e-4 (a match's
    ``DA`` holds winning chances to six decimals, which turn into EMG over a
    small difference of table entries), luck within 2e-4 (``LU`` holds five)."""
    path = ANALYSED / name
    text = path.read_text(encoding="utf-8")
    [match] = read_sgf(_without_gs(path), str(path))
    games = match_figures(match).games
    saved = _gs_of_games(text)
    assert len(saved) == len(games)
    kinds = ("missed_doubles_below_cp", "missed_doubles_above_cp", "wrong_doubles_below_dp",
             "wrong_doubles_above_tg", "wrong_takes", "wrong_passes")
    edge: list = []
    for k, (f, gs) in enumerate(zip(games, saved), 1):
        if "M" in gs:
            m = gs["M"]
            assert f.unforced == m[0:2] and f.moves == m[2:4], k
            assert [f.marked[s] for s in ("very bad", "bad", "doubtful", "none")] == \
                [m[4:6], m[6:8], m[8:10], m[10:12]], k
            assert f.checker_error[0] == pytest.approx(m[12], abs=1e-5)
            assert f.checker_error_mwc[0] == pytest.approx(m[13], abs=1e-5)
            assert f.checker_error[1] == pytest.approx(m[14], abs=1e-5)
            assert f.checker_error_mwc[1] == pytest.approx(m[15], abs=1e-5)
        if "C" in gs:
            c = gs["C"]
            assert [f.cube_total, f.doubles, f.takes, f.passes] == \
                [c[0:2], c[2:4], c[4:6], c[6:8]], k
            for p in (0, 1):
                for i, x in enumerate(kinds):
                    # gnubg saved GS from the figures it held in memory, the file
                    # holds them to six decimals: a no double at 0.9999996 of a
                    # double/pass at 1 is a missed double of 4e-7 to gnubg, none
                    # to the file (money bear-offs hold dozens). A count may
                    # differ by such decisions only: the errors, asserted next,
                    # agree
                    if f.cube_kinds[x][0][p] != c[8 + 2 * i + p]:
                        edge.append((k, x, p))
                    assert f.cube_kinds[x][1][p] == pytest.approx(c[20 + 12 * p + 2 * i], abs=1e-4)
                    assert f.cube_kinds[x][2][p] == pytest.approx(c[21 + 12 * p + 2 * i],
                                                                  abs=1e-4)
        if "D" in gs:
            d = gs["D"]
            assert f.luck[0] == pytest.approx(d[10], abs=2e-4)
            assert f.luck_mwc[0] == pytest.approx(d[11], abs=2e-4)
            assert f.luck[1] == pytest.approx(d[12], abs=2e-4)
            assert f.luck_mwc[1] == pytest.approx(d[13], abs=2e-4)
    # in a match (no money bear-off at a cube of 1) the edge is rare
    assert len(edge) <= (len(games) // 5 if match.length == 0 else 2), edge
