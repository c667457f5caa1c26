"""eXtreme Gammon's analysis in the decisions model, and its figures.

The samples live in ``../shared/corpus2/xg``; the tests skip without them.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from gamao_cli.analysis.decisions import decisions_of
from gamao_cli.analysis.figures import match_figures
from gamao_cli.formats import get
from gamao_cli.formats.base import Source
from gamao_cli.formats.xg import records as r
from gamao_cli.formats.xg.reader import read_xg_records

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
XG_DIR = SHARED / "corpus2" / "xg"
CHARLOT = XG_DIR / "kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
SAMPLES = ["kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg",
           "kevung__gbf__data__match_with_comment.xg", "kevung__gbf__data__test.xg"]


def _read(name: str):
    path = XG_DIR / name
    if not path.is_file():
        pytest.skip(f"the XG sample {name} is not in {XG_DIR} (set GAMAO_SHARED)")
    [match] = list(get("xg").read(Source(str(path))))
    return path, match


@pytest.mark.parametrize("name", SAMPLES)
def test_every_cube_record_xg_analysed_is_a_decision(name):
    """Every cube record XG analysed where a player could double, "no
    double" included (GNU Backgammon keeps those on the roll that follows),
    is one cube decision; every move record with a list is a checker one."""
    path, match = _read(name)
    _box, recs = read_xg_records(path.read_bytes(), str(path))
    cube_records = [x for x in recs if isinstance(x, r.CubeAction) and x.double in (0, 1)
                    and x.analysis is not None]
    answers = [x for x in cube_records if x.double == 1 and x.take in (0, 1)]
    decisions = [decisions_of(a) for g in match.games for a in g.actions]
    cube = [d.cube for d in decisions if d is not None and d.cube is not None]
    assert len(cube) == len(cube_records) + len(answers)
    assert sum(not c.doubled for c in cube) == sum(x.double == 0 for x in cube_records)
    moves = [x for x in recs if isinstance(x, r.CheckerMove) and x.played and x.steps
             and (x.candidates or x.error > r.NOT_ANALYSED + 0.5)]
    checker = [d.checker for d in decisions if d is not None and d.checker is not None]
    assert len(checker) == len(moves)


@pytest.mark.parametrize("name", SAMPLES)
def test_xgs_own_error_is_the_loss_its_candidates_give(name):
    """XG states the error of each play; the loss from its candidate list
    (the played one found by its steps) is the same, but for XG's rounding
    of a play within 0.0001 of the best to no error."""
    _path, match = _read(name)
    checked = 0
    for g in match.games:
        for a in g.actions:
            d = decisions_of(a)
            if d is None or d.checker is None or d.checker.played is None:
                continue
            c = d.checker
            assert c.stated_error == pytest.approx(
                c.candidates[0].equity - c.candidates[c.played].equity, abs=1e-4)
            assert c.equity_loss == c.stated_error
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", SAMPLES)
def test_pr_is_the_mean_error_of_the_counted_decisions(name):
    _path, match = _read(name)
    f = match_figures(match)
    out = f.to_json(decisions=True)
    stats = out["stats"]["xg"]
    for p in (0, 1):
        counted = [c for c in out["counted_decisions"] if c["player"] == p]
        assert stats["decisions"][p] == len(counted) > 0
        assert stats["pr"][p] == pytest.approx(
            500 * sum(c["error"] for c in counted) / len(counted), abs=0.002)
        assert 0 < stats["pr"][p] < 50
    # every unforced checker play whose list differs counts; no forced one does
    assert all(c["kind"] in ("checker", "cube", "take", "pass") for c in out["counted_decisions"])


def test_validating_an_xg_match_does_not_decode_its_analysis(monkeypatch):
    import gamao_cli.formats.xg as xg
    from gamao_cli import validate
    _path, match = _read(SAMPLES[0])
    calls = []
    monkeypatch.setattr(xg, "analysis_of", lambda *a: calls.append(a))
    import gamao_cli.formats.xg.decisions as xd
    monkeypatch.setattr(xd, "decisions", lambda *a: calls.append(a))
    validate(match)
    assert calls == []


@pytest.mark.parametrize("name", SAMPLES)
def test_xgs_own_cube_errors_are_what_its_equities_give(name):
    """XG states the error of each double and no double; the equities it
    states give the same, measured as GNU Backgammon measures a cube error."""
    _path, match = _read(name)
    checked = 0
    for g in match.games:
        for a in g.actions:
            d = decisions_of(a)
            if d is None or d.cube is None or d.cube.answer is not None:
                continue
            c = d.cube
            optimal = max(c.no_double, min(c.double_take, c.double_pass))
            chosen = min(c.double_take, c.double_pass) if c.doubled else c.no_double
            assert c.stated_errors["double"] == pytest.approx(optimal - chosen, abs=1e-4)
            checked += 1
    assert checked > 40
