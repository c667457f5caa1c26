"""``gamao export``'s ``decisions`` table: one row a decision an analysed
record judges, read back by DuckDB as an analyst reads it.

Its sums per player are GNU Backgammon's own ``show statistics match``
figures for the analysed records of the test corpus (``expected.json``, the
``GS`` properties removed first, so that nothing comes from gnubg's saved
statistics); the PR query of ``docs/tables.md`` gives each player's PR as
``gamao summary`` does; the table is empty for records without analysis and
the same in Parquet, CSV and JSON lines.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CORPUS, EXAMPLES, ROOT, SELFPLAY
from gamao_cli import formats
from gamao_cli.analysis.figures import match_figures
from gamao_cli.cli import main
from gamao_cli.tables.schema import TABLES

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

CORPUS2 = CORPUS.parent / "corpus2"
ANALYSED = CORPUS2 / "analysed"
CHARLOT = CORPUS2 / "xg" / "kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
need_analysed = pytest.mark.skipif(not (ANALYSED / "expected.json").is_file(),
                                   reason=f"the analysed corpus is not at {ANALYSED}")
need_charlot = pytest.mark.skipif(not CHARLOT.is_file(), reason=f"{CHARLOT} is not there")
_GS = re.compile(r"GS(?:\[(?:[^\]\\]|\\.)*\])+")


def export(out: Path, *inputs, to: str = "parquet", extra: tuple[str, ...] = ()) -> Path:
    r = CliRunner().invoke(main, ["export", *map(str, inputs), "-o", str(out), "--to", to,
                                  *extra])
    assert r.exit_code == 0, r.output
    return out


def decisions(out: Path, where: str = "TRUE") -> list[dict]:
    rel = duckdb.sql(f"SELECT * FROM read_parquet('{out}/decisions/*.parquet') WHERE {where} "
                     "ORDER BY path, index_in_file, game, seq, kind")
    return [dict(zip(rel.columns, r)) for r in rel.fetchall()]


@pytest.fixture(scope="module")
def analysed_tables(tmp_path_factory) -> tuple[Path, dict]:
    """The export of the analysed records without their GS properties, and
    gnubg's figures for each (by the copy's path)."""
    if not (ANALYSED / "expected.json").is_file():
        pytest.skip(f"the analysed corpus is not at {ANALYSED}")
    tmp = tmp_path_factory.mktemp("analysed")
    expected = json.loads((ANALYSED / "expected.json").read_text(encoding="utf-8"))
    folder = tmp / "in"
    folder.mkdir()
    by_path = {}
    for name, figures in expected.items():
        text = _GS.sub("", (ANALYSED / name).read_text(encoding="utf-8"))
        assert "GS[" not in text
        (folder / name).write_text(text, encoding="utf-8")
        by_path[str(folder / name)] = figures["stats"]
    if CHARLOT.is_file():   # one eXtreme Gammon file beside them
        (folder / CHARLOT.name).write_bytes(CHARLOT.read_bytes())
    return export(tmp / "out", folder), by_path


def test_no_analysis_no_rows(tmp_path):
    for to in ("parquet", "csv", "jsonl"):
        # (the self-play SGF files hold gnubg's analysis; their .mat twins none)
        out = export(tmp_path / to, SELFPLAY, EXAMPLES, to=to, extra=("--glob", "*.mat"))
        parts = sorted((out / "decisions").iterdir())
        assert parts, to
        if to == "parquet":
            assert duckdb.sql(f"SELECT count(*) FROM '{out}/decisions/*.parquet'").fetchall() == [(0,)]
            assert duckdb.sql(f"SELECT count(*) FROM '{out}/actions/*.parquet'").fetchall()[0][0] > 0
        elif to == "csv":
            for p in parts:
                assert p.read_text().splitlines() == [",".join(c.name for c in TABLES["decisions"])]
        else:
            assert all(p.read_text() == "" for p in parts)


@need_analysed
def test_the_sums_are_gnubgs_statistics(analysed_tables):
    out, expected = analysed_tables
    assert len(expected) >= 10
    for path, stats in expected.items():
        rows = decisions(out, f"path = '{path}'")
        assert {r["program"] for r in rows} == {"GNU Backgammon"}
        assert rows, path
        for p in (0, 1):
            mine = [r for r in rows if r["player"] == p]
            unforced = [r for r in mine if r["kind"] == "checker" and not r["forced"]]
            assert len(unforced) == stats["checker"]["unforced_moves"][p], (path, p)
            assert sum(r["equity_loss"] for r in unforced) == pytest.approx(
                -stats["checker"]["error_total"][p], abs=0.001), (path, p)
            luck = sum(r["luck"] for r in mine if r["luck"] is not None)
            assert luck == pytest.approx(stats["luck"]["luck_total"][p], abs=0.001), (path, p)
            kinds = [r["kind"] for r in mine]
            assert kinds.count("double") == stats["cube"]["doubles"][p], (path, p)
            assert kinds.count("take") == stats["cube"]["takes"][p], (path, p)
            assert kinds.count("pass") == stats["cube"]["passes"][p], (path, p)
            cube = [r for r in mine if r["kind"] in ("no_double", "double", "take", "pass")]
            assert len(cube) == stats["cube"]["cube_decisions"][p], (path, p)
            assert sum(r["equity_loss"] for r in cube) == pytest.approx(
                -stats["cube"]["error_total"][p], abs=0.001), (path, p)


@need_analysed
def test_checker_rows_hold_the_programs_list(analysed_tables):
    out, _ = analysed_tables
    rows = decisions(out, "kind = 'checker' AND path LIKE '%.sgf'")
    assert rows
    for r in rows:
        cands = r["candidates"]
        assert cands and r["program"] == "GNU Backgammon"
        assert r["die1"] >= r["die2"]
        if r["played_rank"] is not None:
            played = cands[r["played_rank"] - 1]
            # the loss is the best candidate's equity less the one played (gnubg states none)
            assert r["equity_loss"] == pytest.approx(cands[0]["equity"] - played["equity"],
                                                     abs=1e-9)
        assert r["position_id"] and r["xgid"].startswith("XGID=")
    # a play the program did not like carries its mark
    assert {r["mark"] for r in rows} >= {None, "doubtful", "bad"}


def _doc_query(title_words: str) -> str:
    text = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")
    section = text.split("## `decisions`", 1)[1].split("\n## ", 1)[0]
    before, query = section.split(title_words, 1)
    return re.search(r"```sql\n(.*?)```", query, re.S).group(1)


@need_analysed
@need_charlot
def test_the_documented_pr_query_gives_summarys_pr(analysed_tables):
    out, _ = analysed_tables
    inputs = sorted(out.parent.joinpath("in").iterdir())
    assert CHARLOT.name in [p.name for p in inputs]
    query = _doc_query("PR per player over an archive")
    got = {name: (n, pr) for name, n, pr in
           duckdb.sql(query.replace("'tables/", f"'{out}/")).fetchall()}
    # the same from the figures gamao summary shows, pooled by player name
    pooled: dict[str, list[float]] = {}
    for path in inputs:
        for match in formats.read_source(formats.Source(str(path))):
            for c in match_figures(match).counted:
                pooled.setdefault(match.players[c.player], []).append(c.error)
    assert set(got) == set(pooled)
    for name, errors in pooled.items():
        assert got[name][0] == len(errors), name
        assert got[name][1] == pytest.approx(500 * sum(errors) / len(errors), abs=0.006), name
    assert got["charlot1"][1] == pytest.approx(
        match_figures(next(formats.read_source(formats.Source(str(CHARLOT))))).pr(0), abs=0.006)


@need_charlot
def test_every_form_holds_the_same_rows(tmp_path):
    parquet = decisions(export(tmp_path / "p", CHARLOT))
    assert parquet
    out = export(tmp_path / "c", CHARLOT, to="csv")
    import csv
    csv_rows = []
    for part in sorted((out / "decisions").iterdir()):
        with part.open(newline="", encoding="utf-8") as fh:
            csv_rows += list(csv.DictReader(fh))
    out = export(tmp_path / "j", CHARLOT, to="jsonl")
    json_rows = [json.loads(line) for part in sorted((out / "decisions").iterdir())
                 for line in part.read_text(encoding="utf-8").splitlines()]
    assert len(csv_rows) == len(json_rows) == len(parquet)
    key = lambda r: (int(r["game"]), int(r["seq"]), r["kind"])   # noqa: E731 (the parquet order)
    csv_rows.sort(key=key)
    json_rows.sort(key=key)
    for p, c, j in zip(parquet, csv_rows, json_rows):
        assert j == p
        assert json.loads(c["candidates"]) == p["candidates"]
        assert c["kind"] == p["kind"] and int(c["seq"]) == p["seq"]
        assert (c["equity_loss"] == "") == (p["equity_loss"] is None)
        if p["equity_loss"] is not None:
            assert float(c["equity_loss"]) == p["equity_loss"]


@need_analysed
def test_the_documented_worst_plays_query(analysed_tables):
    out, _ = analysed_tables
    query = _doc_query("The worst plays, with what the program preferred")
    got = duckdb.sql(query.replace("'tables/", f"'{out}/")).fetchall()
    assert len(got) == 5
    worst = max(r["equity_loss"] for r in decisions(out, "kind = 'checker' AND played_rank IS NOT NULL"))
    assert got[0][-1] == round(worst, 3)
    assert [r[-1] for r in got] == sorted((r[-1] for r in got), reverse=True)
    assert all(played != best for _p, _g, _m, _roll, played, best, _lost in got)
