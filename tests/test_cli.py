"""The gamao command line, through click's CliRunner and one real subprocess."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest
from click.testing import CliRunner
from referencing import Registry, Resource

from conftest import EXAMPLES, ROOT
from gamao_cli import __version__
from gamao_cli.cli import main

SCHEMAS = ROOT / "gamao_cli" / "schemas"
ILLEGAL = str(EXAMPLES / "illegal-play.mat")
CLEAN = str(EXAMPLES / "gnubg-selfplay-5pt.mat")
CONSOLIDATED = str(EXAMPLES / "consolidated-notation-5pt.mat")

ONLY_A_WARNING = """ 1 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5* 6/5                 61: 13/7 8/7
"""


def run(*args: str, input: str | None = None, env: dict | None = None):
    return CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)


def _schema(name: str) -> dict:
    return json.loads((SCHEMAS / name).read_text())


def _validator(name: str):
    registry = Registry().with_resources(
        (f"https://gamao.invalid/schemas/{p.name}", Resource.from_contents(json.loads(p.read_text())))
        for p in SCHEMAS.glob("*.json"))
    return jsonschema.Draft202012Validator(_schema(name), registry=registry)


@pytest.fixture
def warning_file(tmp_path: Path) -> str:
    p = tmp_path / "warning.mat"
    p.write_text(ONLY_A_WARNING)
    return str(p)


# -- validate -------------------------------------------------------------

def test_validate_reports_each_finding_with_location_and_exits_1():
    r = run("validate", ILLEGAL)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0].startswith(f"{ILLEGAL}:9:38: GM202 error 6/3 8/4 with 4-2")
    assert "legal: 8/4 6/4" in lines[0]
    assert lines[1].startswith(f"{ILLEGAL}:14:7: GM401 error Wins 2 points")
    assert lines[-1] == "1 file, 2 games: 2 errors, 0 warnings"


def test_validate_clean_file_exits_0():
    r = run("validate", CLEAN, CONSOLIDATED)
    assert r.exit_code == 0, r.output
    assert r.output == "2 files, 8 games: 0 errors, 0 warnings\n"


def test_validate_folder_recurses_and_quiet_prints_only_the_summary():
    r = run("validate", "--quiet", str(EXAMPLES))
    assert r.exit_code == 1
    assert r.output == "4 files, 15 games: 2 errors, 0 warnings\n"


def test_strict_turns_warnings_into_failure(warning_file):
    assert run("validate", warning_file).exit_code == 0
    r = run("validate", "--strict", warning_file)
    assert r.exit_code == 1
    assert "GM102 warning" in r.output


def test_select_and_ignore(warning_file):
    r = run("validate", "--select", "GM4", ILLEGAL)
    assert "GM202" not in r.output and "GM401" in r.output and r.exit_code == 1
    r = run("validate", "--ignore", "GM202,GM401", ILLEGAL)
    assert r.exit_code == 0 and "GM" not in r.output
    r = run("validate", "--ignore", "gm1", "--strict", warning_file)
    assert r.exit_code == 0


def test_unreadable_and_non_match_files_exit_2_and_others_are_still_checked(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("shopping list\n")
    missing = tmp_path / "missing.mat"
    r = run("validate", str(bad), str(missing), ILLEGAL)
    assert r.exit_code == 2
    assert f"{bad}:1:1: GM002 error not a match file" in r.output
    assert f"{missing}: GM004 error cannot read: no such file or directory" in r.output
    assert "GM202" in r.output  # the good file was checked too
    assert r.output.splitlines()[-1].endswith("(2 files not read)")


def test_syntax_error_is_a_diagnostic_not_a_traceback(tmp_path):
    bad = tmp_path / "broken.mat"
    bad.write_text(" 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8-5 6-5\n")
    r = run("validate", str(bad))
    assert r.exit_code == 2
    assert f"{bad}:5:10: GM001 error a play step must look like 13/7" in r.output
    assert "Traceback" not in r.output


def test_standard_input():
    r = run("validate", "-", input=Path(ILLEGAL).read_text())
    assert r.exit_code == 1
    assert r.output.startswith("<stdin>:9:38: GM202")


def test_json_output_matches_the_schema():
    r = run("validate", "--format", "json", ILLEGAL, CLEAN)
    assert r.exit_code == 1
    doc = json.loads(r.output)
    _validator("validate.schema.json").validate(doc)
    first = doc["files"][0]
    assert first["ok"] is False and first["path"] == ILLEGAL
    d = first["diagnostics"][0]
    assert (d["code"], d["line"], d["column"], d["game"], d["move"], d["player"]) == \
        ("GM202", 9, 38, 1, 2, "gnubgB")
    assert d["dice"] == "42" and d["play"] == "6/3 8/4" and "8/4 6/4" in d["legal"]
    assert doc["files"][1]["ok"] is True
    assert doc["summary"]["errors"] == 2 and doc["summary"]["files"] == 2


def test_schema_rejects_a_broken_report():
    doc = json.loads(run("validate", "--format", "json", ILLEGAL).output)
    doc["files"][0]["diagnostics"][0]["severity"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        _validator("validate.schema.json").validate(doc)


def test_jsonl_one_object_per_diagnostic():
    r = run("validate", "--format", "jsonl", ILLEGAL)
    objs = [json.loads(line) for line in r.output.splitlines()]
    assert [o["code"] for o in objs] == ["GM202", "GM401"]
    for o in objs:
        jsonschema.validate(o, _schema("validate.schema.json")["$defs"]["diagnostic"])


def test_github_annotations():
    r = run("validate", "--format", "github", ILLEGAL)
    first = r.output.splitlines()[0]
    assert first.startswith(f"::error file={ILLEGAL},line=9,col=38,title=GM202 play::6/3 8/4 with 4-2")


def test_junit_xml_parses_with_one_case_per_file(tmp_path):
    bad = tmp_path / "x.txt"
    bad.write_text("nothing\n")
    r = run("validate", "--format", "junit", ILLEGAL, CLEAN, str(bad))
    root = ET.fromstring(r.output)
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == [ILLEGAL, CLEAN, str(bad)]
    assert cases[0].find("failure").get("type") == "GM202"
    assert cases[1].find("failure") is None
    assert cases[2].find("error").get("type") == "GM002"
    assert suite.get("failures") == "1" and suite.get("errors") == "1"


def test_jobs_give_the_same_report(tmp_path):
    for i in range(6):
        shutil.copy(ILLEGAL, tmp_path / f"copy{i}.mat")
    one = run("validate", "--jobs", "1", str(tmp_path))
    two = run("validate", "--jobs", "2", str(tmp_path))
    assert one.output == two.output and one.exit_code == two.exit_code == 1
    assert one.output.splitlines()[-1] == "6 files, 12 games: 12 errors, 0 warnings"


def test_glob_selects_files(tmp_path):
    shutil.copy(ILLEGAL, tmp_path / "a.match")
    shutil.copy(CLEAN, tmp_path / "b.mat")
    r = run("validate", "--glob", "*.match", str(tmp_path))
    assert r.output.splitlines()[-1].startswith("1 file, 2 games: 2 errors")


def test_colour_is_forced_or_suppressed():
    coloured = run("validate", "--color", ILLEGAL).output
    plain = run("validate", "--no-color", ILLEGAL).output
    assert "\x1b[" in coloured and "\x1b[" not in plain
    assert "\x1b[" not in run("validate", ILLEGAL, env={"NO_COLOR": "1"}).output


def test_no_files_found_is_a_usage_error(tmp_path):
    r = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert r.exit_code == 2 and "no match files found" in r.output


def test_internal_error_is_one_line_and_exit_3(monkeypatch):
    import gamao_cli.cli.validate as cli

    def boom(*a, **k):
        raise RuntimeError("kaboom")
    monkeypatch.setattr(cli, "iter_files", boom)
    r = CliRunner().invoke(main, ["validate", CLEAN])
    assert r.exit_code == 3
    assert "internal error: RuntimeError: kaboom" in r.output and "Traceback" not in r.output


# -- convert --------------------------------------------------------------

def test_convert_to_mat_expands_consolidated_plays(tmp_path):
    out = tmp_path / "canonical.mat"
    r = run("convert", CONSOLIDATED, "--to", "mat", "-o", str(out))
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "44: 25/21 21/17* 6/2* 6/2" in text       # written as bar/17* 6/2* 6/2
    assert "55: 8/3 8/3 6/1* 6/1" in text            # written as 8/3(2) 6/1* 6/1
    assert run("validate", str(out)).exit_code == 0


def test_convert_to_json_matches_the_schema_and_reads_back(tmp_path):
    out = tmp_path / "m.json"
    assert run("convert", CLEAN, "--to", "json", "-o", str(out)).exit_code == 0
    doc = json.loads(out.read_text())
    _validator("match.schema.json").validate(doc)
    first = doc["games"][0]["actions"][0]
    assert first["position_id"] == "4HPwATDgc/ABMA" and first["steps"]
    back = tmp_path / "back.mat"
    assert run("convert", str(out), "--to", "mat", "-o", str(back)).exit_code == 0
    assert run("validate", str(back)).exit_code == 0


def test_convert_to_stdout():
    r = run("convert", CLEAN, "--to", "json", "-o", "-")
    assert json.loads(r.output)["length"] == 5


def test_convert_never_overwrites_without_force_nor_the_input(tmp_path):
    out = tmp_path / "out.mat"
    out.write_text("precious")
    r = run("convert", CLEAN, "--to", "mat", "-o", str(out))
    assert r.exit_code == 2 and out.read_text() == "precious"
    assert "exists" in r.output
    assert run("convert", CLEAN, "--to", "mat", "-o", str(out), "--force").exit_code == 0
    assert out.read_text().startswith("; [EventDate")
    src = tmp_path / "same.mat"
    shutil.copy(CLEAN, src)
    before = src.read_bytes()
    r = run("convert", str(src), "--to", "mat", "--force")
    assert r.exit_code == 2 and "refusing to overwrite the input" in r.output
    assert src.read_bytes() == before


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_convert_writes_to_a_device_without_force():
    """README: a character device or pipe is written to directly, with no
    --force (there is no file to replace), and stays what it is."""
    import stat
    r = run("convert", CLEAN, "--to", "json", "-o", "/dev/null")
    assert r.exit_code == 0 and r.output == ""
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_convert_out_dir_and_strict(tmp_path):
    r = run("convert", CLEAN, ILLEGAL, "--to", "json", "--out-dir", str(tmp_path / "out"))
    assert r.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "gnubg-selfplay-5pt.json", "illegal-play.json"]
    assert "the validator found 2 errors" in r.output
    r = run("convert", ILLEGAL, "--to", "json", "--strict", "--out-dir", str(tmp_path / "s"))
    assert r.exit_code == 1 and not (tmp_path / "s" / "illegal-play.json").exists()


def test_convert_bad_input_exits_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("hello\n")
    r = run("convert", str(bad), "--to", "json", "-o", str(tmp_path / "x.json"))
    assert r.exit_code == 2 and "GM002" in r.output
    assert not (tmp_path / "x.json").exists()


# -- summary --------------------------------------------------------------

def test_summary_json():
    r = run("summary", "--format", "json", ILLEGAL)
    assert r.exit_code == 0
    [s] = json.loads(r.output)
    assert s["players"] == ["gnubgA", "gnubgB"] and s["length"] == 3
    assert s["final_score"] == [1, 4] and s["winner"] == 1
    assert [(g["number"], g["winner"], g["points"], g["ended"], g["cube"]) for g in s["games"]] == \
        [(1, 0, 1, "drop", 1), (2, 1, 4, "gammon", 2)]


def test_summary_table_and_csv():
    table = run("summary", ILLEGAL).output
    assert "final score 1-4, winner: gnubgB" in table
    csv_out = run("summary", "--format", "csv", ILLEGAL).output.splitlines()
    assert csv_out[0].startswith("path,player1,player2,length")
    assert len(csv_out) == 3


# -- everywhere -----------------------------------------------------------

@pytest.mark.parametrize("command", ["validate", "convert", "summary", "codes"])
def test_help_has_examples_and_exit_codes(command):
    r = run(command, "--help")
    assert r.exit_code == 0
    if command != "codes":
        assert "Examples:" in r.output and "Exit codes:" in r.output


def test_version():
    assert run("--version").output.strip() == f"gamao, version {__version__}"


def test_codes_lists_every_code():
    out = run("codes").output
    assert "GM202" in out and "GM401" in out


def test_docs_codes_md_is_what_gamao_codes_writes():
    """docs/codes.md is generated: gamao codes --format markdown > docs/codes.md"""
    from gamao_cli.messages import CODES
    out = run("codes", "--format", "markdown").output
    assert (ROOT / "docs" / "codes.md").read_text(encoding="utf-8") == out
    assert all(f"| {code} |" in out for code in CODES)


def test_installed_console_script():
    exe = shutil.which("gamao") or str(Path(sys.executable).with_name("gamao"))
    if not os.path.exists(exe):
        pytest.skip("the gamao console script is not installed (pip install -e .)")
    p = subprocess.run([exe, "validate", ILLEGAL], capture_output=True, text=True)
    assert p.returncode == 1
    assert p.stdout.splitlines()[-1] == "1 file, 2 games: 2 errors, 0 warnings"
    p = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert p.returncode == 0 and __version__ in p.stdout


# -- reports written file by file ---------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "jsonl", "github"])
def test_streamed_reports_write_each_file_before_the_next_is_checked(fmt):
    """text, jsonl and github are written as the results come, keeping only a
    tally (so a folder of any size takes the same memory); the text is what
    the whole-list reporter makes."""
    from gamao_cli.replay.check import FileCheck
    from gamao_cli.replay.diagnostics import Diagnostic
    from gamao_cli.cli.reporters import render, stream
    first = FileCheck("a.mat", diagnostics=[Diagnostic("GM202", "a wrong play", path="a.mat",
                                                       line=3, column=9)])
    second = FileCheck("b.mat", unreadable=True,
                       diagnostics=[Diagnostic("GM002", "not a match file", path="b.mat")])
    out: list[str] = []

    def results():
        yield first
        assert "a.mat" in "".join(out)  # written before b.mat is even checked
        yield second

    tally = stream(fmt, results(), out.append)
    closing = "2 files, 0 games: 2 errors, 0 warnings (1 file not read)"
    expected = {
        "text": ["a.mat:3:9: GM202 error a wrong play",
                 "b.mat: GM002 error not a match file", closing],
        "github": ["::error file=a.mat,line=3,col=9,title=GM202 play::a wrong play",
                   "::error file=b.mat,title=GM002 syntax::not a match file", closing],
    }
    lines = "".join(out).splitlines()
    if fmt == "jsonl":
        got = [json.loads(line) for line in lines]
        assert [(d["path"], d["code"], d["line"], d["column"], d["message"]) for d in got] == [
            ("a.mat", "GM202", 3, 9, "a wrong play"), ("b.mat", "GM002", None, None,
                                                       "not a match file")]
    else:
        assert lines == expected[fmt]
    assert "".join(out) == render(fmt, [first, second])  # the whole-list report says the same
    assert tally.counts["files"] == 2 and tally.counts["unreadable"] == 1 and tally.failed


def test_validate_streams_large_runs_and_keeps_the_exit_code(tmp_path, monkeypatch):
    import gamao_cli.cli.validate as cli
    seen = []
    real = cli.iter_files

    def spy(func, files, jobs, *a, **k):
        for r in real(func, files, jobs, *a, **k):
            seen.append(r.path)
            yield r
    monkeypatch.setattr(cli, "iter_files", spy)
    bad = tmp_path / "bad.mat"
    bad.write_text("hello\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", CLEAN, str(bad)])
    assert r.exit_code == 2 and seen == [CLEAN, str(bad)]
    assert r.output.strip().endswith("2 files, 3 games: 1 error, 0 warnings (1 file not read)")
