"""Hostile command paths (issue 18, part 5): gamao's own failure on one file
(GM008, exit 3, the other files still done) in convert and summary; standard
output that cannot be written (exit 2, said so) for every command; file
names that are no UTF-8 in every output; position on a file of no match.

An internal error is made by making a reader, a writer or the summary raise
(monkeypatch): these are the paths a bug of gamao takes.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, ROOT
from gamao_cli import formats
from gamao_cli.cli import main
from gamao_cli.messages import CODES, render
from gamao_cli.replay.check import check_file, internal_error_diagnostic

CLEAN = EXAMPLES / "gnubg-selfplay-5pt.mat"
ILLEGAL = EXAMPLES / "illegal-play.mat"


def run(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, **kwargs)


def gamao(*args: str, stdout=subprocess.PIPE, cwd: str | None = None) -> subprocess.CompletedProcess:
    """The real command in a process of its own (its own standard output)."""
    env = {k: v for k, v in os.environ.items() if k != "GAMAO_DEBUG"}
    return subprocess.run([sys.executable, "-m", "gamao_cli", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300, cwd=cwd or str(ROOT),
                          env=env)


def _three(tmp_path: Path) -> list[Path]:
    files = [tmp_path / "a-clean.mat", tmp_path / "b-crash.mat", tmp_path / "c-clean.mat"]
    for f in files:
        shutil.copy(CLEAN, f)
    return files


# -- GM008: gamao's own failure, a code of its own ------------------------------

def test_an_internal_error_has_its_own_code_apart_from_a_file_that_cannot_be_read(tmp_path,
                                                                                 monkeypatch):
    info = CODES["GM008"]
    assert (info.category, info.severity) == ("input", "error")
    assert CODES["GM004"].title == "the file cannot be read"
    for where in ("reading", "checking", "converting", "summarising"):
        d = internal_error_diagnostic(RuntimeError("boom"), "x.mat", where)
        assert (d.code, d.key) == ("GM008", f"GM008.internal-{where}")
        assert d.message == render(d.key, {"error": "RuntimeError: boom"})
        assert f"internal error while {where} this file (RuntimeError: boom)" in d.message
    import gamao_cli.replay.check as checking
    real = checking.validate_match

    def crashing(match, *a, **k):
        if "b-crash" in match.path:
            raise RuntimeError("boom")
        return real(match, *a, **k)
    monkeypatch.setattr(checking, "validate_match", crashing)
    files = _three(tmp_path)
    res = run("validate", str(files[1]), str(tmp_path / "missing.mat"))
    assert res.exit_code == 3
    assert f"{files[1]}:3: GM008 error internal error while checking this file" in res.output
    assert f"{tmp_path / 'missing.mat'}: GM004 error cannot read: no such file" in res.output
    assert check_file(str(files[1])).diagnostics[0].code == "GM008"


def test_docs_codes_lists_gm008():
    text = (ROOT / "docs" / "codes.md").read_text(encoding="utf-8")
    assert "| GM008 | input | error |" in text


# -- convert: an internal error on one input, the others converted ------------

def _crash_reading(monkeypatch):
    # the commands read a path through the member-aware reader (a path may
    # name an archive's member)
    from gamao_cli.formats import members
    real = members.read_path

    def reading(path, *a, **k):
        if "b-crash" in str(path):
            raise RuntimeError("boom in the reader")
        return real(path, *a, **k)
    monkeypatch.setattr(members, "read_path", reading)


def _crash_writing(monkeypatch):
    fmt = formats.get("json")
    real = fmt.write

    def writing(matches, *a, **k):
        if any("b-crash" in mt.path for mt in matches):
            raise ValueError("boom in the writer")   # a bug, not a WriteRefused
        return real(matches, *a, **k)
    monkeypatch.setattr(fmt, "write", writing)


@pytest.mark.parametrize("crash, where, error", [
    (_crash_reading, "reading", "RuntimeError: boom in the reader"),
    (_crash_writing, "converting", "ValueError: boom in the writer"),
])
def test_convert_reports_an_internal_error_for_its_file_and_converts_the_others(
        tmp_path, monkeypatch, crash, where, error):
    """Before: a writer's ValueError was exit 2 with a bare Python message,
    any other exception stopped the command at that file (c not converted)."""
    crash(monkeypatch)
    files = _three(tmp_path)
    out = tmp_path / "out"
    res = run("convert", *map(str, files), "--to", "json", "--out-dir", str(out))
    assert res.exit_code == 3
    assert res.stderr.strip() == (
        f"{files[1]}: GM008 error internal error while {where} this file ({error}); this is a "
        "bug in gamao: please report it with the file (GAMAO_DEBUG=1 shows the traceback)")
    assert sorted(p.name for p in out.iterdir()) == ["a-clean.json", "c-clean.json"]
    for name in ("a-clean.json", "c-clean.json"):
        assert formats.read_path(str(out / name))[0].games == formats.read_path(str(CLEAN))[0].games


def test_convert_of_a_writer_that_fails_midway_leaves_no_file_and_goes_on(tmp_path, monkeypatch):
    from gamao_cli.formats.base import WriteResult
    fmt = formats.get("json")
    real = fmt.write

    def writing(matches, *a, **k):
        if not any("b-crash" in mt.path for mt in matches):
            return real(matches, *a, **k)

        def chunks():
            yield "{\n"
            raise KeyError("boom in a chunk")
        return WriteResult(chunks=chunks())
    monkeypatch.setattr(fmt, "write", writing)
    files = _three(tmp_path)
    out = tmp_path / "out"
    res = run("convert", *map(str, files), "--to", "json", "--out-dir", str(out))
    assert res.exit_code == 3
    assert f"{files[1]}: GM008 error internal error while converting this file (KeyError: " \
        in res.stderr
    assert sorted(p.name for p in out.iterdir()) == ["a-clean.json", "c-clean.json"]


def test_convert_still_refuses_what_it_cannot_write_with_exit_2(tmp_path, monkeypatch):
    """A writer's refusal (WriteRefused, GM507) is no internal error: exit 2
    with its coded message, the other inputs converted."""
    from gamao_cli.errors import WriteRefused
    fmt = formats.get("json")
    real = fmt.write

    def refusing(matches, *a, **k):
        if any("b-crash" in mt.path for mt in matches):
            raise WriteRefused("GM507.no-matches", {"format": "JSON"})
        return real(matches, *a, **k)
    monkeypatch.setattr(fmt, "write", refusing)
    files = _three(tmp_path)
    res = run("convert", *map(str, files), "--to", "json", "--out-dir", str(tmp_path / "out"))
    assert res.exit_code == 2
    assert res.stderr.strip() == (f"{files[1]}: nothing written: JSON of no matches is no match "
                                  "record, which gamao would not read back")
    assert len(list((tmp_path / "out").iterdir())) == 2


def test_gamao_debug_lets_a_convert_internal_error_through(tmp_path, monkeypatch):
    _crash_reading(monkeypatch)
    files = _three(tmp_path)
    monkeypatch.setenv("GAMAO_DEBUG", "1")
    res = CliRunner().invoke(main, ["convert", str(files[1]), "--to", "json", "-o",
                                    str(tmp_path / "x.json")])
    assert res.exit_code == 3 and isinstance(res.exception, SystemExit)


# -- summary: its output is printed though one file made gamao fail ------------

@pytest.mark.parametrize("stage", ["reading", "summarising"])
def test_summary_prints_the_json_of_the_others_and_the_diagnostic_of_the_failed_file(
        tmp_path, monkeypatch, stage):
    """Before: no JSON at all (the exception went to the group: exit 3)."""
    if stage == "reading":
        _crash_reading(monkeypatch)
    else:
        import gamao_cli.tables.summary as tables
        real = tables.summarise

        def summarising(match, *a, **k):
            if "b-crash" in match.path:
                raise ZeroDivisionError("boom in the summary")
            return real(match, *a, **k)
        monkeypatch.setattr(tables, "summarise", summarising)
    files = _three(tmp_path)
    res = run("summary", "--format", "json", *map(str, files))
    assert res.exit_code == 3
    doc = json.loads(res.stdout)
    assert [Path(s["path"]).name for s in doc] == ["a-clean.mat", "c-clean.mat"]
    error = "RuntimeError: boom in the reader" if stage == "reading" else \
        "ZeroDivisionError: boom in the summary"
    assert res.stderr.strip() == (
        f"{files[1]}: GM008 error internal error while {stage} this file ({error}); this is a "
        "bug in gamao: please report it with the file (GAMAO_DEBUG=1 shows the traceback)")
    table = run("summary", *map(str, files))
    assert table.exit_code == 3 and table.stdout.count("Player_1 vs Player_2") == 2


# -- standard output that cannot be written ---------------------------------------

FULL_COMMANDS = [
    ("validate", "examples"),
    ("validate", "--format", "json", "examples"),
    ("validate", "--format", "jsonl", "examples"),
    ("validate", "--format", "junit", "examples"),
    ("validate", "--format", "github", "examples"),
    ("summary", "examples"),
    ("summary", "--format", "json", "examples"),
    ("summary", "--format", "csv", "examples"),
    ("position", "examples/gnubg-selfplay-5pt.mat"),
    ("position", "--id", "4HPwATDgc/ABMA:MACmAAAAAAAE"),
    ("codes",),
    ("codes", "--format", "markdown"),
    ("export", "--help"),
    ("--help",),
    ("--version",),
]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", FULL_COMMANDS, ids=[" ".join(a) for a in FULL_COMMANDS])
def test_standard_output_on_dev_full_is_said_and_exit_2(args):
    """Before: exit 3, "internal error: OSError: [Errno 28]" (or a traceback
    for --help and --version)."""
    with open("/dev/full", "w") as full:
        res = gamao(*args, stdout=full)
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip().splitlines()[-1] == \
        "gamao: cannot write standard output: No space left on device"
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_convert_to_dev_full_says_it_cannot_write():
    with open("/dev/full", "w") as full:
        res = gamao("convert", "examples/gnubg-selfplay-5pt.mat", "--to", "json", "-o", "-",
                    stdout=full)
    assert res.returncode == 2
    assert "<stdout>: cannot write: No space left on device" in res.stderr


def test_a_broken_pipe_is_still_quiet():
    proc = subprocess.Popen([sys.executable, "-m", "gamao_cli", "summary", "--format", "csv",
                             str(EXAMPLES)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=str(ROOT))
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "cannot write standard output" not in err and "Traceback" not in err


# -- file names that are no UTF-8 ---------------------------------------------------

@pytest.fixture
def odd_names(tmp_path):
    """A folder holding files whose names hold bytes that are no UTF-8."""
    if sys.platform == "darwin":
        pytest.skip("macOS file systems refuse names that are no UTF-8")
    folder = tmp_path / "odd"
    folder.mkdir()
    try:
        shutil.copy(CLEAN, os.path.join(os.fsencode(folder), b"bad-\xff.mat"))
        shutil.copy(ILLEGAL, os.path.join(os.fsencode(folder), b"ill-\xfe.mat"))
    except OSError:
        pytest.skip("the file system refuses names that are no UTF-8")
    return folder


def test_a_name_that_is_no_utf8_is_printed_escaped_in_text_reports(odd_names):
    """Before: UnicodeEncodeError (surrogates not allowed) on the first line
    naming the file."""
    res = gamao("validate", str(odd_names))
    assert res.returncode == 1, res.stderr
    assert f"{odd_names}/ill-\\udcfe.mat:9:38: GM202 error" in res.stdout
    res = gamao("summary", str(odd_names))
    assert res.returncode == 0, res.stderr
    assert f"{odd_names}/bad-\\udcff.mat: Player_1 vs Player_2" in res.stdout
    res = gamao("summary", "--format", "csv", str(odd_names))
    assert f"\n{odd_names}/bad-\\udcff.mat,Player_1," in res.stdout
    res = gamao("position", os.fsdecode(os.path.join(os.fsencode(odd_names), b"bad-\xff.mat")))
    assert res.returncode == 0 and res.stdout.startswith(f"{odd_names}/bad-\\udcff.mat: game 1")


def test_a_name_that_is_no_utf8_reads_back_from_the_json_outputs(odd_names):
    """In JSON the escape is JSON's own: the document reads back into the
    name os.fsdecode gives."""
    name = os.fsdecode(os.path.join(os.fsencode(odd_names), b"bad-\xff.mat"))
    res = gamao("validate", "--format", "json", str(odd_names))
    assert res.returncode == 1, res.stderr
    assert name in [f["path"] for f in json.loads(res.stdout)["files"]]
    res = gamao("validate", "--format", "jsonl", str(odd_names))   # a line per diagnostic
    ill = os.fsdecode(os.path.join(os.fsencode(odd_names), b"ill-\xfe.mat"))
    assert ill in {json.loads(line).get("path") for line in res.stdout.splitlines()}
    res = gamao("summary", "--format", "json", str(odd_names))
    assert res.returncode == 0 and name in [s["path"] for s in json.loads(res.stdout)]
    # convert --to json writes the source's name into the file (before: "cannot encode")
    res = gamao("convert", name, "--to", "json", "-o", "-")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["path"] == name
    out = odd_names.parent / "out"
    res = gamao("convert", str(odd_names), "--to", "json", "--out-dir", str(out))
    assert res.returncode == 0, res.stderr
    [back] = formats.read_path(os.fsdecode(os.path.join(os.fsencode(out), b"bad-\xff.json")))
    assert back.games == formats.read_path(str(CLEAN))[0].games


def test_a_name_that_is_no_utf8_in_pages_and_tables(odd_names):
    out = odd_names.parent
    res = gamao("validate", "--format", "html", "--html-dir", str(out / "report"), str(odd_names))
    assert res.returncode == 1, res.stderr
    assert "ill-\\udcfe.mat" in (out / "report" / "index.html").read_text(encoding="utf-8")
    res = gamao("convert", str(odd_names), "--to", "html", "--out-dir", str(out / "pages"))
    assert res.returncode == 0, res.stderr
    res = gamao("export", str(odd_names), "-o", str(out / "tables"), "--to", "csv")
    assert res.returncode == 0, res.stderr
    text = "".join(p.read_text(encoding="utf-8") for p in (out / "tables" / "matches").iterdir())
    # the tables' key: the byte as %XX, so that it is no real file's name (issue 24)
    assert "bad-%FF.mat" in text and "bad-\\udcff.mat" not in text


# -- position of a file of no match ---------------------------------------------------

def test_position_of_a_file_that_holds_no_match_is_a_clear_exit_2(tmp_path, monkeypatch):
    monkeypatch.setattr(formats, "read_source", lambda source: iter(()))
    res = run("position", str(CLEAN))
    assert res.exit_code == 2
    assert res.stderr.strip() == f"gamao: {CLEAN}: the file holds no match"
    assert "holds no match" in run("position", "--help").output
