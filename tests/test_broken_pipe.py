"""A reader that goes away (``gamao ... | head -1``), through a real pipe
(issue 22): the command ends quietly (nothing on standard error: no
traceback, no "Exception ignored", no "was not converted"), and its exit
code is the one its findings give, as ``set -o pipefail`` in a CI job sees
it: never 0 when there were errors."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import EXAMPLES, SELFPLAY

GAMAO = [sys.executable, "-m", "gamao_cli"]
BASH = shutil.which("bash")
ILLEGAL = EXAMPLES / "illegal-play.mat"


@pytest.fixture(scope="module")
def many_infos(tmp_path_factory):
    """A folder whose report with --show-info is far more than a pipe holds
    (64 KiB): 700 records that stop early (two infos each), and last, in
    the order of the scan, one with two errors."""
    folder = tmp_path_factory.mktemp("many")
    head = "".join((EXAMPLES / "gnubg-selfplay-5pt.mat").read_text().splitlines(True)[:12])
    for i in range(700):
        (folder / f"a{i:04}.mat").write_text(head)
    shutil.copy(ILLEGAL, folder / "zz-illegal.mat")
    return folder


def _closing_early(args: list[str]) -> tuple[str, int, str]:
    """Run gamao with a reader that takes one line and closes the pipe;
    give that line, gamao's exit code and its standard error."""
    p = subprocess.Popen(GAMAO + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline().decode()
    p.stdout.close()
    err = p.stderr.read().decode()
    return first, p.wait(timeout=300), err


def test_validate_into_a_closed_pipe_exits_with_its_findings(many_infos):
    first, code, err = _closing_early(["validate", "--show-info", str(many_infos)])
    assert "GM410 info" in first
    assert err == ""
    assert code == 1   # the errors of the last file, checked after the reader left


@pytest.mark.parametrize("fmt", ["jsonl", "json", "junit"])
def test_every_report_format_into_a_closed_pipe(many_infos, fmt):
    _first, code, err = _closing_early(["validate", "--format", fmt, str(many_infos)])
    assert (err, code) == ("", 1)


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
def test_validate_piped_into_head_under_pipefail(many_infos):
    script = ('set -o pipefail; "$@" | head -1')
    p = subprocess.run([BASH, "-c", script, "bash", *GAMAO, "validate", "--show-info",
                        str(many_infos)], capture_output=True, text=True, timeout=300)
    assert p.stdout.count("\n") == 1 and "GM410 info" in p.stdout
    assert p.stderr == ""
    assert p.returncode == 1


def test_a_conversion_to_a_closed_pipe_was_converted(tmp_path):
    big = SELFPLAY / "m0012.mat"   # 113 kB of JSON: more than a pipe holds
    first, code, err = _closing_early(["convert", str(big), "--to", "json", "-o", "-"])
    assert first.strip() == "{"
    assert err == ""   # not "<stdout>: cannot write: Broken pipe; ... was not converted"
    assert code == 0


def test_a_summary_into_a_closed_pipe(many_infos):
    first, code, err = _closing_early(["summary", str(many_infos)])
    assert first.startswith(str(many_infos)) and err == "" and code == 0
