"""The gamao command line, through click's CliRunner and one real subprocess."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest
from click.testing import CliRunner
from referencing import Registry, Resource

from conftest import EXAMPLES, ROOT, fail_fsync_of
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


def test_jsonl_gives_a_binary_places_byte_offset_a_field_of_its_own(tmp_path):
    """Where a record has no line and column (a NUL byte, an .xg), the byte
    offset is the field ``byte``, beside ``fields.at_byte``; a text's
    diagnostics have none."""
    bad = tmp_path / "bin.mat"
    bad.write_bytes(b" 1 point match\n\n Game 1\x00\x01\x02")
    r = run("validate", "--format", "jsonl", str(bad), ILLEGAL)
    objs = [json.loads(line) for line in r.output.splitlines()]
    first = objs[0]
    assert (first["code"], first["line"], first["byte"], first["fields"]["at_byte"]) == \
        ("GM003", None, 23, 23)
    assert all("byte" not in o for o in objs[1:]) and len(objs) == 3
    for o in objs:
        jsonschema.validate(o, _schema("validate.schema.json")["$defs"]["diagnostic"])


def test_github_annotations():
    r = run("validate", "--format", "github", ILLEGAL)
    first = r.output.splitlines()[0]
    # the path as GitHub matches it with the repository's files: from the working directory
    where = os.path.relpath(ILLEGAL) if not os.path.relpath(ILLEGAL).startswith("..") else ILLEGAL
    assert first.startswith(f"::error file={where},line=9,col=38,title=GM202 play::6/3 8/4 with 4-2")


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


def _many_inputs(tmp_path: Path) -> tuple[Path, int]:
    """A folder of 8 copies of the self-play matches (330 kB: enough for
    the workers to be worth starting), an illegal play among them and a
    file that is no match; and how many match files it holds."""
    src = tmp_path / "in"
    src.mkdir()
    selfplay = sorted((ROOT / "tests" / "data" / "selfplay").glob("*.mat"))
    for k in range(8):
        for p in selfplay:
            shutil.copy(p, src / f"c{k}-{p.name}")
    shutil.copy(EXAMPLES / "illegal-play.mat", src / "c3-illegal.mat")
    (src / "c4-bad.txt").write_text("hello\n")
    return src, 8 * len(selfplay) + 1


def _pools(monkeypatch) -> list:
    """The worker pools started from now on (their arguments)."""
    import multiprocessing.pool
    pools: list = []
    real_init = multiprocessing.pool.Pool.__init__

    def spy(self, *args, **kwargs):
        pools.append(args)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(multiprocessing.pool.Pool, "__init__", spy)
    return pools


def test_convert_jobs_give_the_same_files_and_messages(tmp_path, monkeypatch):
    """``convert --jobs 2`` of many inputs converts them in worker processes,
    and gives what ``--jobs 1`` gives: the same files byte for byte, the same
    messages in the same order (a warning, an input that is no match, an
    output that exists), the same exit code."""
    src, matches = _many_inputs(tmp_path)
    pools = _pools(monkeypatch)
    got = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        out.mkdir()
        (out / "c2-m0001.html").write_text("earlier")   # refused without --force
        r = CliRunner().invoke(main, ["convert", str(src), "--to", "html", "--out-dir", str(out),
                                      "--jobs", jobs])
        got[jobs] = (r.exit_code, r.stderr.replace(str(out), "OUT"),
                     {p.name: p.read_bytes() for p in out.iterdir()})
    assert len(pools) == 1   # (--jobs 2's)
    assert got["1"] == got["2"]
    code, err, files = got["2"]
    assert code == 2 and "GM002" in err and "already exists" in err and "c3-illegal" in err
    assert len(files) == matches and files["c2-m0001.html"] == b"earlier"


def test_convert_says_which_output_failed_as_it_settled(tmp_path, monkeypatch):
    """Each output's sync to disk and rename settle while the next input is
    converted; the disk failing at the sync of the second of three outputs
    is said of that file, in its place among the messages (the third
    input's warning after it), with exit code 2; the other outputs are
    written and no temporary file is left."""
    src = tmp_path / "in"
    src.mkdir()
    for name in "abc":
        shutil.copy(EXAMPLES / "illegal-play.mat", src / f"{name}.mat")
    out = tmp_path / "out"
    fail_fsync_of(monkeypatch, ".b.json.")
    r = CliRunner().invoke(main, ["convert", str(src), "--to", "json", "--out-dir", str(out),
                                  "--jobs", "1"])
    assert r.exit_code == 2, r.output
    lines = r.stderr.splitlines()
    failed = [i for i, line in enumerate(lines) if "cannot flush to disk" in line]
    assert len(failed) == 1 and "b.json" in lines[failed[0]]
    assert "b.mat was not converted" in lines[failed[0]]
    assert [line.split(":")[0].rsplit("/", 1)[-1] for line in lines] == \
        ["a.mat", "b.json", "c.mat"], lines   # (a and c: their validator warnings)
    assert sorted(p.name for p in out.iterdir()) == ["a.json", "c.json"]


@pytest.mark.parametrize("fmt", ["json", "csv", "table"])
def test_summary_jobs_give_the_same_output(tmp_path, monkeypatch, fmt):
    """``summary --jobs 2`` of many files reads them in worker processes and
    prints what ``--jobs 1`` prints, in the same order, with the same
    messages and exit code."""
    src, matches = _many_inputs(tmp_path)
    pools = _pools(monkeypatch)
    got = [CliRunner().invoke(main, ["summary", "--format", fmt, str(src), "--jobs", jobs])
           for jobs in ("1", "2")]
    assert len(pools) == 1
    assert [(r.exit_code, r.stdout, r.stderr) for r in got][0] == \
        [(r.exit_code, r.stdout, r.stderr) for r in got][1]
    assert got[1].exit_code == 2 and "GM002" in got[1].stderr
    if fmt == "json":
        assert len(json.loads(got[1].stdout)) == matches


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
    assert csv_out[0].startswith("path,player0,player1,length")
    assert len(csv_out) == 3


def test_summary_csv_numbers_the_players_as_the_export_tables_do(tmp_path):
    """Issue 22: one numbering everywhere: a column the CSV summary shares
    with the export's matches table holds the same value there, and the
    players are 0 and 1 as the JSON summary's indexes are."""
    import csv
    rows = list(csv.DictReader(run("summary", "--format", "csv", ILLEGAL).output.splitlines()))
    r = run("export", ILLEGAL, "--to", "csv", "-o", str(tmp_path / "t"))
    assert r.exit_code == 0, r.output
    [part] = (tmp_path / "t" / "matches").glob("*.csv")
    [match] = list(csv.DictReader(part.read_text().splitlines()))
    shared = [c for c in rows[0] if c in match and c not in ("path", "winner")]
    assert {"player0", "player1", "score0", "score1"} <= set(shared)
    for c in shared:
        assert rows[0][c] == match[c], c
    [s] = json.loads(run("summary", "--format", "json", ILLEGAL).output)
    assert rows[0]["winner"] == s["players"][s["winner"]] == rows[0]["player" + match["winner"]]


# -- everywhere -----------------------------------------------------------

@pytest.mark.parametrize("command", ["validate", "convert", "summary", "position", "codes",
                                     "export", "help"])
def test_help_has_examples_and_exit_codes(command):
    r = run(command, "--help")
    assert r.exit_code == 0
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


# -- one contract for every command (issue 17) --------------------------------

REGRESSIONS = ROOT / "tests" / "regressions"
STEP_FROM_OFF = str(REGRESSIONS / "step-from-off.mat")


def _unreadable(tmp_path: Path) -> Path:
    """A match file this process cannot read (for root, a link to a
    write-only sysctl, which root cannot read either)."""
    p = tmp_path / "secret.mat"
    if os.geteuid() == 0:
        target = "/proc/sys/vm/drop_caches"
        try:
            open(target, "rb").close()
            with open(target, "rb") as fh:
                fh.read(1)
        except PermissionError:
            p.symlink_to(target)
            return p
        except OSError:
            pass
        pytest.skip("no file here is unreadable for root")
    shutil.copy(CLEAN, p)
    p.chmod(0)
    if os.access(p, os.R_OK):
        pytest.skip("no file here is unreadable for this user")
    return p


def _exit_codes_in_help(command: str) -> set[int]:
    out = run(command, "--help").output
    section = out.split("Exit codes:", 1)[1]
    return {int(m) for m in re.findall(r"^\s+(\d+)\s", section, re.M)}


def _crash(monkeypatch, command: str, exc: BaseException) -> list[str]:
    """Make ``command`` raise ``exc`` where it does its work; its arguments."""
    import gamao_cli.cli.convert as convert_module
    import gamao_cli.cli.summary as summary_module
    import gamao_cli.cli.validate as validate_module
    import gamao_cli.messages as messages
    import gamao_cli.render.text as render_text

    def boom(*a, **k):
        raise exc
    target, args = {
        "validate": (validate_module, "iter_files"),
        "convert": (convert_module, "_convert_one"),
        "summary": (summary_module, "_summaries_of"),
        "position": (render_text, "snapshot_board"),
        "codes": (messages, "codes_markdown"),
    }[command], {
        "validate": [CLEAN], "convert": [CLEAN, "--to", "json", "-o", "-"], "summary": [CLEAN],
        "position": [CLEAN], "codes": ["--format", "markdown"],
    }[command]
    monkeypatch.setattr(*target, boom)
    return args


@pytest.mark.parametrize("command", ["validate", "convert", "summary", "position", "codes"])
def test_each_command_documents_exactly_the_exit_codes_it_gives(command, tmp_path, monkeypatch):
    bad = tmp_path / "notes.txt"
    bad.write_text("shopping list\n")
    scenarios = {
        "validate": [[CLEAN], [ILLEGAL], [str(bad)], ["--select", "GM2O2", CLEAN]],
        "convert": [[CLEAN, "--to", "json", "-o", "-"],
                    [ILLEGAL, "--to", "json", "--strict", "-o", str(tmp_path / "x.json")],
                    [str(bad), "--to", "json", "-o", "-"]],
        "summary": [[CLEAN], [ILLEGAL], [str(bad)]],
        "position": [[CLEAN], [CLEAN, "--game", "9"], [str(bad)]],
        "codes": [[], ["--format", "yaml"]],
    }[command]
    seen = {run(command, *args).exit_code for args in scenarios}
    for exc in (RuntimeError("kaboom"), KeyboardInterrupt()):
        with monkeypatch.context() as mp:
            args = _crash(mp, command, exc)
            seen.add(CliRunner().invoke(main, [command, *args]).exit_code)
    assert _exit_codes_in_help(command) == seen
    text = run(command, "--help").output
    assert ("--strict" in text) == (command in ("validate", "convert"))
    # gamao's own failure on one file is reported as GM008 by the commands that go on
    assert ("GM008" in text) == (command in ("validate", "convert", "summary"))
    assert "GM004" not in text


def test_summary_never_exits_1_and_only_validate_and_convert_strict_do():
    assert run("summary", ILLEGAL).exit_code == 0
    assert run("position", ILLEGAL, "--game", "2", "--move", "3").exit_code == 0
    assert 1 not in _exit_codes_in_help("summary") | _exit_codes_in_help("position")


def test_exit_codes_are_decided_in_exit_codes_py():
    """No command module exits with a number of its own: every exit code is
    a name of gamao_cli/cli/exit_codes.py."""
    import ast
    for path in (ROOT / "gamao_cli" / "cli").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                    node.func, "id", None)) == "exit" and node.args:
                assert not isinstance(node.args[0], ast.Constant), \
                    f"{path.name}:{node.lineno}: exit with a literal code"


@pytest.mark.parametrize("command", ["summary", "convert", "validate"])
def test_an_unreadable_file_is_a_diagnostic_and_exit_2_in_every_command(command, tmp_path):
    secret = _unreadable(tmp_path)
    args = [str(secret), ILLEGAL]
    if command == "convert":
        args += ["--to", "json", "--out-dir", str(tmp_path / "out")]
    r = run(command, *args)
    assert r.exit_code == 2
    assert f"{secret}: GM004 error cannot read: permission denied" in r.output
    assert "is not readable" not in r.output and "Usage:" not in r.output
    if command == "summary":
        assert "gnubgA vs gnubgB" in r.stdout             # the other file is still summarised
    elif command == "convert":
        assert (tmp_path / "out" / "illegal-play.json").exists()
    else:
        assert "GM202" in r.stdout


# -- point 1: a folder that cannot be made is the user's, not a bug -------------

def test_an_out_dir_under_a_file_is_a_usage_error_and_nothing_is_written(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    r = run("convert", CLEAN, ILLEGAL, "--to", "json", "--out-dir", str(afile / "sub"))
    assert r.exit_code == 2
    assert f"--out-dir {afile / 'sub'}: cannot create the folder: a part of the path is a file" \
        in r.stderr
    assert "internal error" not in r.output and "bug" not in r.output
    assert afile.read_text() == "mine\n" and sorted(os.listdir(tmp_path)) == ["afile"]


def test_an_out_dir_without_permission_is_a_usage_error(tmp_path):
    if os.geteuid() == 0:
        parent = Path("/sys")           # root may not make a folder there either
        if not parent.is_dir():
            pytest.skip("no /sys")
    else:
        parent = tmp_path / "locked"
        parent.mkdir()
        parent.chmod(0o555)
    target = parent / "gamao-out"
    r = run("convert", CLEAN, "--to", "json", "--out-dir", str(target))
    assert r.exit_code == 2 and not target.exists()
    assert f"--out-dir {target}: cannot create the folder: " in r.stderr
    assert ("operation not permitted" in r.stderr) or ("permission denied" in r.stderr)
    assert "internal error" not in r.output


# -- point 4: silent surprises ----------------------------------------------------

@pytest.mark.parametrize("option, value, suggested", [
    ("--select", "GM2O2", "GM202"), ("--ignore", "GM9", "GM409"), ("--select", "GM2,GM4O8", "GM408"),
    ("--ignore", "XY1", "GM0 (input, syntax), GM1 (notation), GM2 (play)")])
def test_an_unknown_code_or_prefix_is_a_usage_error_naming_the_closest(option, value, suggested):
    r = run("validate", option, value, ILLEGAL)
    assert r.exit_code == 2
    assert "no code is or starts with" in r.stderr and suggested in r.stderr
    assert "GM202 error" not in r.stdout   # nothing was checked


def test_an_old_code_still_selects_and_says_what_it_is_now():
    r = run("validate", "--select", "GM217", STEP_FROM_OFF)
    assert r.exit_code == 1
    assert "--select GM217: GM217 is now GM108" in r.stderr
    assert [line.split()[1] for line in r.stdout.splitlines()[:-1]] == ["GM108"]
    r = run("validate", "--ignore", "gm217,GM215,GM410", STEP_FROM_OFF)
    assert r.exit_code == 0 and "GM108" not in r.stdout and "GM217 is now GM108" in r.stderr


def test_renumbered_codes_are_gone_from_the_table_and_diagnostics_take_the_new_number():
    from gamao_cli.messages import ALIASES, CODES
    from gamao_cli.replay.diagnostics import Diagnostic
    assert ALIASES == {"GM216": "GM107", "GM217": "GM108"}
    for old, new in ALIASES.items():
        assert old not in CODES and CODES[new].category == "notation"
        assert Diagnostic(old, "x").code == new
    r = run("validate", "--format", "json", str(REGRESSIONS / "point-beyond-board.mat"))
    codes = [d["code"] for d in json.loads(r.output)["files"][0]["diagnostics"]]
    assert "GM107" in codes and "GM216" not in codes


def test_a_prefix_selects_one_kind_of_code():
    """--select GM2 means the play codes, GM1 notation, ...: the first digit
    of every code is its kind."""
    from gamao_cli.messages import CODES
    kinds = {"GM0": {"input", "syntax"}, "GM1": {"notation"}, "GM2": {"play"}, "GM3": {"cube"},
             "GM4": {"score"}, "GM5": {"conversion"}}
    for code, info in CODES.items():
        assert info.category in kinds[code[:3]], code
    assert CODES["GM004"].category == "input"
    r = run("validate", "--select", "GM2", "--format", "jsonl", STEP_FROM_OFF)
    assert {json.loads(line)["category"] for line in r.output.splitlines()} == {"play"}


def test_codes_help_has_examples_and_says_what_format_does():
    out = run("codes", "--help").output
    assert "Examples:" in out and "gamao codes --format json" in out
    for word in ("text:", "json:", "markdown:", "docs/codes.md"):
        assert word in out
    doc = json.loads(run("codes", "--format", "json").output)
    assert {"code", "category", "severity", "title"} <= set(doc[0])
    assert [d["formerly"] for d in doc if "formerly" in d] == [["GM216"], ["GM217"]]


def test_convert_from_standard_input_writes_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("convert", "-", "--to", "mat", input=Path(CLEAN).read_text())
    assert r.exit_code == 0 and " 5 point match" in r.stdout
    assert os.listdir(tmp_path) == []          # no ./stdin.mat
    r = run("convert", "-", "--to", "json", "-o", "m.json", input=Path(CLEAN).read_text())
    assert r.exit_code == 0 and os.listdir(tmp_path) == ["m.json"]
    r = run("convert", "-", "--to", "json", "--out-dir", "d", input=Path(CLEAN).read_text())
    assert r.exit_code == 2 and "standard input (-) has no name" in r.stderr
    assert sorted(os.listdir(tmp_path)) == ["m.json"]


def test_convert_says_only_what_happened_when_the_output_exists(tmp_path):
    out = tmp_path / "g.json"
    r = run("convert", ILLEGAL, "--to", "json", "-o", str(out))
    assert r.exit_code == 0 and "converted, but the validator found 2 errors" in r.stderr
    before = out.read_bytes()
    r = run("convert", ILLEGAL, "--to", "json", "-o", str(out))
    assert r.exit_code == 2 and out.read_bytes() == before
    assert r.stderr.splitlines() == [
        f"{out}: already exists (use --force to overwrite it); {ILLEGAL} was not converted"]


def test_convert_onto_its_input_names_what_the_user_gave(tmp_path):
    src = tmp_path / "m.mat"
    shutil.copy(CLEAN, src)
    r = run("convert", str(src), "--to", "mat", "-o", str(src), "--force")
    assert r.exit_code == 2 and f"-o {src} is the input file itself" in r.stderr
    assert "choose -o or --out-dir" not in r.stderr
    r = run("convert", str(src), "--to", "mat", "--force")
    assert r.exit_code == 2 and "converted to mat, it would be written over itself" in r.stderr
    assert src.read_bytes() == Path(CLEAN).read_bytes()


def test_the_validate_hint_of_convert_can_be_run(tmp_path):
    spaced = tmp_path / "my match.mat"
    shutil.copy(ILLEGAL, spaced)
    r = run("convert", str(spaced), "--to", "json", "-o", "-")
    hint = r.stderr.split("(", 1)[1].rsplit(")", 1)[0]
    assert hint == f"gamao validate '{spaced}'"
    import shlex
    assert run(*shlex.split(hint)[1:]).exit_code == 1     # it runs, and finds the errors
    r = run("convert", "-", "--to", "json", "-o", str(tmp_path / "x.json"),
            input=Path(ILLEGAL).read_text())
    assert "<stdin>: warning: converted, but the validator found 2 errors (give the same input " \
           "to gamao validate -)" in r.stderr


def test_standard_input_is_named_stdin_by_every_command():
    text = Path(ILLEGAL).read_text()
    assert run("validate", "-", input=text).stdout.startswith("<stdin>:9:38: GM202")
    assert run("summary", "-", input=text).stdout.startswith("<stdin>: gnubgA vs gnubgB")
    assert json.loads(run("summary", "--format", "json", "-", input=text).stdout)[0]["path"] == \
        "<stdin>"
    assert run("position", "-", "-m", "2", input=text).stdout.startswith("<stdin>: game 1, move 2")
    assert run("convert", "-", "--to", "sgf", input=text).stderr.startswith("<stdin>: warning")
    for command in (["validate"], ["summary"], ["position"], ["convert", "--to", "json"]):
        r = run(*command, "-", input="shopping list\n")
        assert r.exit_code == 2 and "<stdin>:1:1: GM002 error not a match file" in r.output


def test_position_refuses_a_file_with_an_id_and_names_the_games_there_are():
    r = run("position", ILLEGAL, "--id", "4HPwATDgc/ABMA:MACmAAAAAAAE")
    assert r.exit_code == 2 and "give a match FILE or --id, not both" in r.stderr
    r = run("position", "--game", "2", "--id", "4HPwATDgc/ABMA:MACmAAAAAAAE")
    assert r.exit_code == 2 and "--game chooses a position in a FILE" in r.stderr
    r = run("position", ILLEGAL, "--game", "9")
    assert r.exit_code == 2
    assert r.stderr.strip() == f"gamao: {ILLEGAL}: there is no game 9; the match has games 1 and 2"
    r = run("position", ILLEGAL, "--game", "2", "--move", "40", "--player", "right")
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"gamao: {ILLEGAL}: game 2 has no move 40 for the right player; "
                                "its moves are 1-25")


def test_position_of_a_position_and_match_id_prints_its_xgid():
    """--id POSITIONID:MATCHID prints the XGID of that state: the one gamao
    gives the position before the same move of a real match (gamao's XGIDs
    are checked against GNU Backgammon in test_position_ids.py), and that
    XGID, given back, shows the same Position ID and Match ID."""
    import dataclasses
    from conftest import SELFPLAY
    from gamao_cli.formats import read_path
    from gamao_cli.ids import decode_match_id
    from gamao_cli.replay.snapshots import snapshots
    [match] = read_path(str(SELFPLAY / "m0020.mat"))
    snaps = snapshots(match)
    picked = snaps[::max(1, len(snaps) // 12)] + [s for s in snaps if s.state.double_offered][:2]
    assert len(picked) > 10
    for s in picked:
        out = run("position", "--id", f"{s.position_id}:{s.match_id}").stdout
        assert out.splitlines()[-1] == s.xgid
        back = run("position", "--id", s.xgid).stdout
        assert re.search(r"Position ID: (\S+)", back).group(1) == s.position_id
        # an XGID has no game state: gnubg's "no game yet" of an opening roll
        # comes back as "playing", and nothing else may differ
        theirs = decode_match_id(re.search(r"Match ID   : (\S+)", back).group(1))
        assert dataclasses.replace(theirs, game_state=s.state.game_state) == s.state
    r = run("position", "--id", "4HPwATDgc/ABMA")
    assert r.exit_code == 0 and "XGID" not in r.stdout and "no Match ID and no XGID" in r.stderr


def test_a_json_file_of_another_kind_says_what_it_holds_without_python_words(tmp_path):
    (tmp_path / "a.json").write_text('{"a": 1}\n')
    (tmp_path / "b.json").write_text('{"format": null}\n')
    (tmp_path / "c.json").write_text('{"format": "gamao-match"}\n')
    r = run("validate", "--glob", "*.json", str(tmp_path))
    assert r.exit_code == 2
    assert 'a.json:1:1: GM002 error not a gamao JSON match: it has no "format": "gamao-match"' \
        in r.stdout
    assert 'b.json:1:1: GM002 error not a gamao JSON match: its "format" is null, not ' \
           '"gamao-match"' in r.stdout
    assert 'c.json' in r.stdout and 'it has no "version"' in r.stdout
    assert "None" not in r.output


# -- point 5: infos do not drown the result ----------------------------------------

INFOS = str(REGRESSIONS / "tab-gaps.mat")          # one info (GM410), nothing else


def test_infos_are_counted_but_not_shown_unless_asked():
    r = run("validate", INFOS, CLEAN)
    assert r.exit_code == 0
    assert r.stdout == "2 files, 4 games: 0 errors, 0 warnings, 1 info (infos not shown: " \
                       "--show-info)\n"
    for args in (["--show-info"], ["--severity", "info"]):
        r = run("validate", *args, INFOS, CLEAN)
        lines = r.stdout.splitlines()
        assert len(lines) == 2 and " GM410 info " in lines[0]
        assert lines[1] == "2 files, 4 games: 0 errors, 0 warnings, 1 info"
    assert run("validate", "--quiet", INFOS).stdout == "1 file, 1 game: 0 errors, 0 warnings, " \
                                                       "1 info\n"


def test_a_severity_threshold_of_error_hides_warnings_too(warning_file):
    r = run("validate", "--severity", "error", warning_file, ILLEGAL)
    assert "GM102" not in r.stdout and "GM202 error" in r.stdout
    assert r.stdout.splitlines()[-1] == ("2 files, 3 games: 2 errors, 1 warning, 2 infos "
                                         "(warnings and infos not shown: --show-info)")
    assert run("validate", "--severity", "error", "--strict", warning_file).exit_code == 1
    r = run("validate", "--show-info", "--severity", "error", warning_file)
    assert r.exit_code == 2 and "give one" in r.stderr


def test_github_annotations_leave_notices_out_unless_asked():
    r = run("validate", "--format", "github", INFOS)
    assert "::notice" not in r.stdout and r.stdout.endswith("(infos not shown: --show-info)\n")
    r = run("validate", "--format", "github", "--show-info", INFOS)
    assert r.stdout.startswith("::notice file=") and "title=GM410 score" in r.stdout


@pytest.mark.parametrize("fmt", ["json", "jsonl", "junit"])
def test_machine_reports_keep_every_info(fmt):
    out = run("validate", "--format", fmt, INFOS).stdout
    if fmt == "json":
        doc = json.loads(out)
        assert doc["summary"]["infos"] == 1
        assert [d["code"] for d in doc["files"][0]["diagnostics"]] == ["GM410"]
    elif fmt == "jsonl":
        assert [json.loads(line)["severity"] for line in out.splitlines()] == ["info"]
    else:
        assert "GM410 info" in out


def test_every_command_shows_the_exit_codes_of_its_own():
    """A command added later (gamao export, say) gets its entry in
    exit_codes.MEANINGS and epilog=exit_codes.help_for(its name), not the
    group's list."""
    from gamao_cli.cli import exit_codes
    assert main.epilog == exit_codes.help_for("gamao")
    for name, command in main.commands.items():
        assert name in exit_codes.MEANINGS, f"gamao {name}: no exit codes in exit_codes.MEANINGS"
        assert command.epilog == exit_codes.help_for(name), f"gamao {name}: not its own exit codes"


def test_a_command_imports_its_own_module_only():
    """The commands are imported when first looked up: a run of gamao
    validate does not import the modules of the other commands (nor the
    readers of formats it does not meet), while the names are all listed."""
    code = ("import sys, runpy\n"
            "sys.argv = ['gamao', 'validate', '--quiet', sys.argv[1]]\n"
            "from gamao_cli.cli import main\n"
            "try:\n"
            "    main()\n"
            "except SystemExit as exc:\n"
            "    assert exc.code == 0, exc.code\n"
            "print(sorted(m for m in sys.modules if m.startswith('gamao_cli.cli.')\n"
            "             or m.endswith('.reader')))\n"
            "print(sorted(main.commands))\n")
    r = subprocess.run([sys.executable, "-c", code, str(EXAMPLES / "gnubg-selfplay-5pt.mat")],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    loaded, names = (eval(line) for line in r.stdout.splitlines()[-2:])
    assert "gamao_cli.cli.validate" in loaded and "gamao_cli.formats.mat.reader" in loaded
    for other in ("convert", "export", "position", "select", "dedupe", "summary", "codes"):
        assert f"gamao_cli.cli.{other}" not in loaded, other
        assert other in names
    assert not any(m.startswith(("gamao_cli.formats.bgf", "gamao_cli.formats.gnubg_text"))
                   and m.endswith(".reader") for m in loaded), loaded


def test_the_commands_mapping_loads_lazily_and_takes_commands_added():
    import click

    from gamao_cli.cli import _Commands
    commands = _Commands({"codes": ("codes", "codes")})
    assert list(commands) == ["codes"] and len(commands) == 1 and "codes" in commands
    assert commands["codes"].name == "codes" and commands.get("nosuch") is None

    @click.command()
    def extra():
        pass

    commands["extra"] = extra
    commands["codes"] = extra   # replaced, as add_command replaces
    assert sorted(commands) == ["codes", "extra"] and commands["codes"] is extra
    del commands["codes"]
    assert list(commands) == ["extra"]
    with pytest.raises(KeyError):
        del commands["codes"]


# -- rough edges a new user hit (issue 22) --------------------------------

def test_gamao_help_prints_the_help_of_gamao_and_of_a_command():
    r = run("help")
    assert r.exit_code == 0 and r.output == run("--help").output
    r = run("help", "validate")
    assert r.exit_code == 0
    assert r.output == run("validate", "--help").output
    r = run("help", "nosuch")
    assert r.exit_code == 2 and "no command 'nosuch'" in r.output and "validate" in r.output


def test_o_naming_a_folder_points_to_out_dir(tmp_path):
    r = run("convert", ILLEGAL, "--to", "json", "-o", str(tmp_path))
    assert r.exit_code == 2 and f"--out-dir {tmp_path}" in r.output
    assert list(tmp_path.iterdir()) == []
    r = run("position", ILLEGAL, "--game", "1", "--move", "1", "-o", str(tmp_path))
    assert r.exit_code == 2 and "is a folder" in r.output


def test_export_of_a_missing_input_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # (--to jsonl: the sdist's tests run where pyarrow, Parquet's, may be missing)
    r = run("export", "nonexistent", "-o", "nx", "--to", "jsonl")
    assert r.exit_code == 2 and "nonexistent: GM004 error" in r.output
    assert not (tmp_path / "nx").exists()
    r = run("export", "nonexistent", ILLEGAL, "-o", "nx", "--to", "csv")
    assert r.exit_code == 2 and r.output.count("nonexistent: GM004") == 1
    assert (tmp_path / "nx" / "matches").is_dir()
