"""Issue 24, every output parses: the XML writers (the SVG board, the JUnit
report, the HTML pages) write each character XML 1.0 forbids
(:func:`hostile_cases.forbidden_xml`) as its escape, so that an XML reader
reads them; the JSON writers write no NaN or infinity (``null``, with the
GM509 note where a writer has notes) and write strict JSON escapes whatever
the encoding of standard output.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, ROOT
from gamao_cli import formats
from gamao_cli.cli import main
from hostile_cases import forbidden_xml

FORBIDDEN = forbidden_xml()
CHARS = {f"U+{ord(c):04X}": c for c in FORBIDDEN}
#: what a .mat file may hold (the decoder refuses the other C0 controls)
IN_MAT = {"\x0b", "\x0c", "\x1b"}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _json_record(tmp_path: Path, name: str) -> Path:
    """illegal-play.mat as gamao JSON, with player 0 named ``name``."""
    src = tmp_path / "a.json"
    r = run("convert", EXAMPLES / "illegal-play.mat", "--to", "json", "-o", src, "--force")
    assert r.exit_code == 0, r.output
    src.write_text(src.read_text().replace('"gnubgA"', json.dumps(name, ensure_ascii=True)))
    return src


def _no_forbidden(text: str) -> None:
    bad = [c for c in FORBIDDEN if c in text]
    assert not bad, [f"U+{ord(c):04X}" for c in bad]


@pytest.mark.parametrize("code", sorted(CHARS))
def test_the_svg_board_of_any_name_is_well_formed_xml(tmp_path, code):
    ch = CHARS[code]
    name = f"An{ch}a"
    src = _json_record(tmp_path, name)
    r = run("position", src, "--format", "svg", "-o", tmp_path / "b.svg")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "b.svg").read_text(encoding="utf-8")
    ET.fromstring(text)
    _no_forbidden(text)
    assert f"An\\x{ord(ch):02x}a" in text or f"An\\u{ord(ch):04x}a" in text


@pytest.mark.parametrize("code", sorted(c for c, ch in CHARS.items() if ch in IN_MAT))
def test_the_svg_board_of_a_match_file_name_is_well_formed(tmp_path, code):
    src = tmp_path / "a.mat"
    src.write_text((EXAMPLES / "illegal-play.mat").read_text().replace(
        "gnubgA", f"gnu{CHARS[code]}A"))
    r = run("position", src, "--format", "svg", "-o", tmp_path / "b.svg")
    assert r.exit_code == 0, r.output
    ET.fromstring((tmp_path / "b.svg").read_text(encoding="utf-8"))


@pytest.mark.parametrize("code", sorted(c for c, ch in CHARS.items() if ch not in "\x00/"))
def test_the_junit_report_of_any_file_name_is_well_formed_xml(tmp_path, code):
    ch = CHARS[code]
    if ch in ("\ufffe", "\uffff"):
        name = f"a{ch}b.mat"
    else:
        name = f"a{ch}b.mat"
    try:
        (tmp_path / name).write_bytes((EXAMPLES / "illegal-play.mat").read_bytes())
    except (OSError, ValueError):
        pytest.skip(f"this file system takes no file name holding {code}")
    r = run("validate", "--format", "junit", tmp_path)
    assert r.exit_code == 1, r.output
    root = ET.fromstring(r.stdout)
    _no_forbidden(r.stdout)
    [case] = root.iter("testcase")
    assert case.get("name").endswith(f"a\\x{ord(ch):02x}b.mat") or \
        case.get("name").endswith(f"a\\u{ord(ch):04x}b.mat")


@pytest.mark.parametrize("code", sorted(CHARS))
def test_the_replay_page_and_the_report_hold_no_character_xml_forbids(tmp_path, code):
    src = _json_record(tmp_path, f"Z{CHARS[code]}z")
    r = run("convert", src, "--to", "html", "-o", tmp_path / "p.html")
    assert r.exit_code == 0, r.output
    _no_forbidden((tmp_path / "p.html").read_text(encoding="utf-8"))
    r = run("validate", "--format", "html", "--html-dir", tmp_path / "rep", src)
    assert r.exit_code == 1, r.output
    for page in (tmp_path / "rep").rglob("*.html"):
        _no_forbidden(page.read_text(encoding="utf-8"))


# -- JSON: no NaN, no infinity; strict escapes ----------------------------------------------

def _strict(text: str):
    def refuse(literal):
        raise AssertionError(f"not JSON: {literal}")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("where", ["equity", "nested"])
def test_json_writes_no_figure_that_is_no_number(value, where):
    [match] = formats.read_path(str(EXAMPLES / "illegal-play.mat"))
    action = match.games[0].actions[1]
    action.analysis = {"equity": value, "ok": 0.25} if where == "equity" else \
        {"candidates": [{"equity": 0.5}, {"equity": value}]}
    result = formats.get("json").write([match])
    text = "".join(result.iter_chunks())
    doc = _strict(text)
    got = doc["games"][0]["actions"][1]["analysis"]
    if where == "equity":
        assert got == {"equity": None, "ok": 0.25}
    else:
        assert got["candidates"][1]["equity"] is None
    [note] = [n for n in result.notes if n.code == "GM509"]
    assert note.fields["n"] == 1 and note.fields["first"].startswith("$.games[0].actions[1]")


def test_export_jsonl_writes_no_figure_that_is_no_number(tmp_path):
    from gamao_cli.tables.writers import JsonlPart
    import io
    from gamao_cli.tables.schema import TABLES
    buf = io.BytesIO()
    part = JsonlPart(buf, "actions")
    row = {c.name: None for c in TABLES["actions"]}
    row.update(equity=math.nan, luck=math.inf, best_equity=0.5)
    part.add([row])
    part.close()
    doc = _strict(buf.getvalue().decode())
    assert (doc["equity"], doc["luck"], doc["best_equity"]) == (None, None, 0.5)


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "cp1252", "utf-8"])
@pytest.mark.parametrize("args", [("validate", "--format", "json"),
                                  ("validate", "--format", "jsonl"),
                                  ("summary", "--format", "json")])
def test_json_on_standard_output_is_strict_whatever_its_encoding(tmp_path, encoding, args):
    name = "Ana \U0001f600 \u00d1\u00fa\u00f1ez \u4e2d"
    src = _json_record(tmp_path, name)
    src = src.rename(tmp_path / "x\U0001f600\u00f1.json")   # validate names the file
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    env.pop("GAMAO_DEBUG", None)
    p = subprocess.run([sys.executable, "-m", "gamao_cli", *args, str(src)], capture_output=True,
                       env=env, timeout=60, cwd=str(ROOT))
    assert p.returncode in (0, 1), p.stderr
    text = p.stdout.decode(encoding)
    assert "\\U0001f600" not in text
    docs = [_strict(line) for line in text.splitlines()] if args[-1] == "jsonl" else \
        [_strict(text)]
    flat = json.dumps(docs, ensure_ascii=False)
    assert str(src) in flat
    if args[0] == "summary":
        assert name in flat
