"""The command's exit (gamao_cli.cli.run): it skips the interpreter's
teardown, and loses nothing an ordinary exit gives: every byte written to
standard output and standard error, the exit code, the atexit functions, a
thread still running."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT

EXAMPLES = ROOT / "examples"


def _python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_everything_written_reaches_a_pipe(tmp_path):
    """A document far bigger than a pipe's buffer (ten matches in one file,
    as JSON on standard output), still buffered when the command ends,
    arrives whole."""
    record = tmp_path / "ten.mat"
    record.write_text("\n".join([(EXAMPLES / "gnubg-selfplay-5pt.mat").read_text()] * 10))
    p = subprocess.run([sys.executable, "-m", "gamao_cli", "convert", str(record), "--to", "json",
                        "-o", "-"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert len(p.stdout) > 1 << 18 and p.stdout.endswith("}\n")
    assert len(json.loads(p.stdout)["matches"]) == 10


def test_atexit_functions_run_and_standard_error_is_flushed():
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('atexit ran', file=sys.stderr, end=''))\n"
            "sys.stderr.write('unflushed ')\n"
            "from gamao_cli.cli import run\n"
            "sys.argv = ['gamao', 'validate', '--quiet', 'examples/']\n"
            "run()\n")
    p = _python(code)
    assert p.returncode == 1
    assert p.stderr.endswith("unflushed atexit ran"), p.stderr


def test_a_thread_still_running_is_waited_for():
    """With another thread alive, the exit is the ordinary one: Python waits
    for the thread, as it would without gamao."""
    code = ("import sys, threading, time\n"
            "def late():\n"
            "    time.sleep(0.5)\n"
            "    print('thread done', flush=True)\n"
            "threading.Thread(target=late).start()\n"
            "from gamao_cli.cli import run\n"
            "sys.argv = ['gamao', 'codes']\n"
            "run()\n")
    p = _python(code)
    assert p.returncode == 0, p.stderr
    assert p.stdout.rstrip().endswith("thread done")


def test_main_called_by_a_program_still_raises_systemexit():
    code = ("from gamao_cli.cli import main\n"
            "try:\n"
            "    main(['validate', '--quiet', 'examples/'])\n"
            "except SystemExit as exc:\n"
            "    print('exit', exc.code)\n"
            "print('after')\n")
    p = _python(code)
    assert p.stdout.splitlines()[-2:] == ["exit 1", "after"], p.stdout + p.stderr


def test_the_collector_is_paused_for_a_block_and_left_as_it_was():
    import gc

    from gamao_cli.cli import collector_paused
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError):
        with collector_paused():
            raise KeyError("x")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()   # a caller's own setting is kept
    finally:
        gc.enable()
