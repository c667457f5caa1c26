"""Where the figures show: ``gamao summary`` (table, JSON, CSV)."""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamao_cli.cli import main

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
ANALYSED = SHARED / "corpus2" / "analysed"
XG = SHARED / "corpus2" / "xg" / "kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
PLAIN = str(ROOT / "examples" / "illegal-play.mat")


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _first_analysed() -> tuple[Path, dict]:
    expected = ANALYSED / "expected.json"
    if not expected.is_file():
        pytest.skip(f"the analysed corpus is not at {ANALYSED} (set GAMAO_SHARED)")
    name, want = sorted(json.loads(expected.read_text(encoding="utf-8")).items())[0]
    return ANALYSED / name, want


def test_summary_json_has_gnubgs_figures_under_its_names():
    path, want = _first_analysed()
    r = run("summary", "--format", "json", str(path))
    assert r.exit_code == 0, r.output
    [s] = json.loads(r.output)
    a = s["analysis"]
    assert a["analysed"] is True
    for section, figures in want["stats"].items():
        for figure, pair in figures.items():
            got = a["stats"][section][figure]
            assert got == pytest.approx(pair, abs=0.1 if "rate" in figure else 0.001), \
                (section, figure)
    assert {"pr", "decisions", "error_total"} <= set(a["stats"]["xg"])
    assert len(a["counted_decisions"]) == sum(a["stats"]["xg"]["decisions"])
    games = [g["analysis"] for g in s["games"]]
    assert all(g["analysed"] for g in games)
    assert sum(g["stats"]["checker"]["moves"][0] for g in games) == \
        a["stats"]["checker"]["moves"][0]


def test_summary_table_shows_the_analysis_or_says_there_is_none():
    path, want = _first_analysed()
    out = run("summary", str(path)).output
    assert "analysis:" in out
    rate = want["stats"]["checker"]["error_rate"]
    line = next(x for x in out.splitlines() if "checker error rate" in x)
    assert f"{rate[0]:+.1f}" in line and f"{rate[1]:+.1f}" in line
    assert "PR (decisions)" in out
    plain = run("summary", PLAIN).output
    assert "no analysis in this record" in plain and "analysis:" not in plain


def test_summary_csv_carries_every_figure():
    path, _want = _first_analysed()
    r = run("summary", "--format", "csv", str(path))
    rows = list(csv.DictReader(io.StringIO(r.output)))
    [s] = json.loads(run("summary", "--format", "json", str(path)).output)
    total = [row for row in rows if row["game"] == "all"]
    assert len(total) == 1 and len(rows) == len(s["games"]) + 1
    for section, figures in s["analysis"]["stats"].items():
        for figure, pair in figures.items():
            for p in (0, 1):
                assert float(total[0][f"{section}.{figure}.{p}"]) == pytest.approx(pair[p])
    plain = list(csv.DictReader(io.StringIO(run("summary", "--format", "csv", PLAIN).output)))
    assert all(row["game"] != "all" and row["checker.moves.0"] == "" for row in plain)


def test_summary_json_lists_xgs_counted_decisions():
    if not XG.is_file():
        pytest.skip(f"the XG sample is not at {XG}")
    [s] = json.loads(run("summary", "--format", "json", str(XG)).output)
    a = s["analysis"]
    for p in (0, 1):
        mine = [c for c in a["counted_decisions"] if c["player"] == p]
        assert a["stats"]["xg"]["pr"][p] == pytest.approx(
            500 * sum(c["error"] for c in mine) / len(mine), abs=0.002)


def test_the_analysis_survives_json_and_gives_the_same_figures(tmp_path):
    """--to json keeps each action's decisions; read back, they give the
    same figures (the model's JSON form is its own reader's input)."""
    path, _want = _first_analysed()
    out = tmp_path / "m.json"
    assert run("convert", str(path), "--to", "json", "-o", str(out)).exit_code == 0
    [a] = json.loads(run("summary", "--format", "json", str(path)).output)
    [b] = json.loads(run("summary", "--format", "json", str(out)).output)
    assert a["analysis"]["stats"] == b["analysis"]["stats"]
    assert a["analysis"]["analysed"] is True


def test_a_record_that_states_no_luck_has_no_luck_figures_not_zero():
    """GNU Backgammon's text export states no luck (no "Luck statistics"
    block, no roll's luck): its luck figures are unknown, null in JSON,
    empty in CSV and a dash in the table, while an SGF with LU has them."""
    folder = SHARED / "corpus2" / "gnubg-text" / "analysed-0ply"
    files = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    if not files:
        pytest.skip(f"GNU Backgammon's text exports are not at {folder} (set GAMAO_SHARED)")
    first = str(files[0])
    assert "Luck" not in files[0].read_text(encoding="utf-8")
    [s] = json.loads(run("summary", "--format", "json", first).output)
    luck = s["analysis"]["stats"]["luck"]
    assert s["analysis"]["analysed"] and s["analysis"]["stats"]["checker"]["moves"][0] > 0
    assert all(v == [None, None] for v in luck.values()), luck
    line = next(x for x in run("summary", first).output.splitlines() if "luck rate" in x)
    assert line.split()[-2:] == ["\u2014", "\u2014"]
    [total] = [row for row in csv.DictReader(io.StringIO(
        run("summary", "--format", "csv", first).output)) if row["game"] == "all"]
    assert total["luck.luck_total.0"] == "" and total["checker.moves.0"] != ""
    path, want = _first_analysed()
    [s] = json.loads(run("summary", "--format", "json", str(path)).output)
    assert s["analysis"]["stats"]["luck"]["luck_total"] == \
        pytest.approx(want["stats"]["luck"]["luck_total"], abs=0.001)
