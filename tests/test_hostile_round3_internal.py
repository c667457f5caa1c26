"""Issue 24, internal errors (exit 3) that were bugs: a figure of more than
4,300 digits in summary (every format) and in the replay page; a record
whose plays leave both players on one point in the replay page; a JSON
record whose player names hold lone surrogates in export (every form); a
match whose figure no table column holds. The records come from
:func:`hostile_cases.huge_records`, :func:`~hostile_cases.blocked_records`
and :func:`~hostile_cases.surrogate_names`.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES
from gamao_cli.cli import main
from gamao_cli.formats.textio import escape_surrogates
from hostile_cases import blocked_records, huge_records, surrogate_names

HUGE = huge_records()
BLOCKED = blocked_records()


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("name,file,text", HUGE, ids=[h[0] for h in HUGE])
@pytest.mark.parametrize("args", [("summary", "--format", "json"), ("summary",),
                                  ("summary", "--format", "csv"),
                                  ("validate", "--format", "json"), ("validate",),
                                  ("convert", "--to", "html", "-o", "-")])
def test_a_figure_past_4300_digits_is_written_not_a_crash(tmp_path, name, file, text, args):
    p = tmp_path / file
    p.write_text(text)
    r = run(*args, p)
    assert r.exit_code in (0, 1), r.output
    assert "internal error" not in r.output
    if args[:3] == ("summary", "--format", "json"):
        doc = json.loads(r.stdout)   # Python reads it back (sys limits aside)
        assert doc and doc[0]["path"] == str(p)


@pytest.mark.parametrize("name,file,text", HUGE, ids=[h[0] for h in HUGE])
def test_a_figure_past_4300_digits_is_refused_by_json_and_not_exported(tmp_path, name, file,
                                                                      text):
    p = tmp_path / file
    p.write_text(text)
    r = run("convert", p, "--to", "json", "-o", "-")
    if r.exit_code != 0:   # refused (GM507), never written unreadable
        assert r.exit_code == 2 and "4300 digits" in r.output, r.output
    r = run("export", p, EXAMPLES / "illegal-play.mat", "-o", tmp_path / "t", "--to", "jsonl")
    assert r.exit_code == 2, r.output
    assert "GM012" in r.output and "internal error" not in r.output
    rows = (tmp_path / "t" / "matches" / "part-00000.jsonl").read_text().splitlines()
    assert [json.loads(x)["path"] for x in rows] == [str(EXAMPLES / "illegal-play.mat")]


@pytest.mark.parametrize("name,text", BLOCKED, ids=[b[0] for b in BLOCKED])
def test_a_replay_page_of_checkers_of_both_players_on_one_point(tmp_path, name, text):
    p = tmp_path / f"{name}.mat"
    p.write_text(text)
    r = run("convert", p, "--to", "html", "-o", tmp_path / "x.html")
    assert r.exit_code == 0, r.output
    assert "internal error" not in r.output
    page = (tmp_path / "x.html").read_text()
    assert "GM203" in page or "GM2" in page


@pytest.mark.parametrize("name", surrogate_names())
@pytest.mark.parametrize("to", ["jsonl", "csv", "parquet"])
def test_export_of_a_name_with_lone_surrogates(tmp_path, name, to):
    if to == "parquet":
        pytest.importorskip("pyarrow")
    src = tmp_path / "a.json"
    r = run("convert", EXAMPLES / "illegal-play.mat", "--to", "json", "-o", src)
    assert r.exit_code == 0, r.output
    src.write_text(src.read_text().replace('"gnubgA"', f'"{name}"'))
    assert run("validate", src).exit_code == 1
    r = run("export", src, "-o", tmp_path / "t", "--to", to)
    assert r.exit_code == 0, r.output
    part = next((tmp_path / "t" / "matches").glob("part-*"))
    decoded = json.loads(f'"{name}"')     # a pair of surrogates is one character
    if to == "jsonl":
        got = json.loads(part.read_text().splitlines()[0])["player0"]
        assert got == decoded                 # the very string, lone surrogates and all
    elif to == "csv":                         # each lone one as its escape
        assert f",{escape_surrogates(decoded)}," in part.read_text(encoding="utf-8")
    else:
        import duckdb
        [(got,)] = duckdb.sql(f"SELECT player0 FROM '{part}'").fetchall()
        assert got == escape_surrogates(decoded)
