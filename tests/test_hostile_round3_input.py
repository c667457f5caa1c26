"""Issue 24, inputs read once: a FIFO (or another input that is no regular
file) is read into memory once and sniffed from that, so every command
reads from it what it reads from the same bytes in a file
(:func:`hostile_cases.fifo_feeding` feeds it once); an XG comment whose
characters beyond U+FFFF RTF writes as surrogate pairs
(:func:`hostile_cases.rtf_comment`) reads back as those characters.
"""
from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, ROOT
from gamao_cli.cli import main
from gamao_cli.formats.xg.reader import comment_texts, rtf_text
from hostile_cases import fifo_feeding, rtf_comment, xg_bomb

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")

SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT.parent / "shared"))
XG_DIR = SHARED / "corpus2" / "xg"
WITH_COMMENT = XG_DIR / "kevung__gbf__data__match_with_comment.xg"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


RECORDS = ["illegal-play.mat", "gnubg-selfplay-5pt.mat"]
COMMANDS = {
    "validate": ["validate", "{}"],
    "validate-json": ["validate", "--format", "json", "{}"],
    "summary": ["summary", "--format", "json", "{}"],
    "convert-json": ["convert", "{}", "--to", "json", "-o", "-"],
    "convert-sgf": ["convert", "{}", "--to", "sgf", "-o", "-"],
    "position": ["position", "{}", "-m", "3"],
}


@pytest.mark.parametrize("record", RECORDS)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_fifo_reads_as_its_bytes_in_a_file(tmp_path, record, command):
    data = (EXAMPLES / record).read_bytes()
    plain = tmp_path / "in.mat"
    plain.write_bytes(data)
    want = run(*[a.format(plain) for a in COMMANDS[command]])
    plain.unlink()
    with fifo_feeding(tmp_path, data) as fifo:
        got = run(*[a.format(fifo) for a in COMMANDS[command]])
    assert "GM002" not in got.output
    assert got.exit_code == want.exit_code, got.output
    assert got.output == want.output


def test_an_export_of_a_fifo(tmp_path):
    data = (EXAMPLES / "illegal-play.mat").read_bytes()
    with fifo_feeding(tmp_path, data) as fifo:
        r = run("export", fifo, "-o", tmp_path / "t", "--to", "jsonl")
    assert r.exit_code == 0, r.output
    [row] = [json.loads(x) for x in (tmp_path / "t" / "matches" / "part-00000.jsonl")
             .read_text().splitlines()]
    assert row["games"] == 2 and row["errors"] == 2


def test_an_xg_file_through_a_fifo(tmp_path):
    if not WITH_COMMENT.is_file():
        pytest.skip(f"the XG samples are not in {XG_DIR}")
    plain = tmp_path / "in.xg"
    shutil.copy(WITH_COMMENT, plain)
    want = run("convert", plain, "--to", "json", "-o", "-")
    plain.unlink()
    with fifo_feeding(tmp_path, WITH_COMMENT.read_bytes(), name="in.xg") as fifo:
        got = run("convert", fifo, "--to", "json", "-o", "-")
    assert got.exit_code == want.exit_code == 0, got.output
    assert got.output == want.output


# -- RTF surrogate pairs -------------------------------------------------------------------

def _texts() -> list[str]:
    rng = random.Random(24)
    astral = [chr(c) for c in (0x1F600, 0x1F3B2, 0x10000, 0x10FFFF, 0x1D11E, 0x20000)]
    texts = ["nice \U0001f600 move", "\U0001f3b2\U0001f3b2", "a\u00e9\u4e2d\U0001f600z"]
    for _ in range(20):
        texts.append("".join(rng.choice(astral + list("ab \u00e9\u20ac")) for _ in range(8))
                     .strip() or "x")
    return texts


@pytest.mark.parametrize("text", _texts())
def test_rtf_surrogate_pairs_become_the_character(text):
    rtf = rtf_comment(text)
    assert rtf_text(rtf) == text.strip()
    assert comment_texts((rtf + "\r\n").encode("latin-1")) == [text.strip()]


def test_a_lone_rtf_surrogate_is_the_replacement_character():
    assert rtf_text("{\\rtf1\\uc1 a\\u-10179?b}") == "a\ufffdb"
    assert rtf_text("{\\rtf1\\uc1 a\\u-8704?\\u-10179?b}") == "a\ufffd\ufffdb"


@pytest.mark.parametrize("target", ["mat", "sgf", "json"])
def test_an_xg_comment_with_an_emoji_converts(tmp_path, target):
    if not WITH_COMMENT.is_file():
        pytest.skip(f"the XG samples are not in {XG_DIR}")
    from gamao_cli.formats.xg.container import read_container
    box = read_container(WITH_COMMENT.read_bytes())
    n = len(comment_texts(box.streams["temp.xgc"]))
    comments = "".join(rtf_comment(f"gg \U0001f600 {i}") + "\r\n" for i in range(n))
    xg = tmp_path / "c.xg"
    xg.write_bytes(xg_bomb(WITH_COMMENT.read_bytes(),
                           replace={"temp.xgc": comments.encode("latin-1")}))
    r = run("convert", xg, "--to", target, "-o", tmp_path / f"c.{target}")
    assert r.exit_code == 0, r.output
    assert "gg \U0001f600" in (tmp_path / f"c.{target}").read_text(encoding="utf-8")
