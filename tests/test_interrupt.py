"""Ctrl-C in the middle of a command that works in worker processes
(``--jobs 2``): a terminal sends the interrupt to the whole process group,
the workers as well as the command. The command must stop, say so in one
line and exit with 130: no hang (the pool waiting for the task a worker
died in), no worker's traceback, no temporary file left of an unfinished
output. (gamao_cli/worker_pool.py)"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="finds the workers in /proc and signals a process group (Linux)")


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> Path:
    """6,000 match files (21 MB): seconds of work for two workers."""
    folder = tmp_path_factory.mktemp("many")
    selfplay = sorted((ROOT / "tests" / "data" / "selfplay").glob("*.mat"))
    for k in range(500):
        for p in selfplay:
            shutil.copy(p, folder / f"c{k:03d}-{p.name}")
    return folder


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


COMMANDS = ["validate", "summary", "convert", "export", "dedupe"]


def _run_and_hit(command: str, many: Path, out: Path, hit) -> tuple[int, str]:
    """Run ``command --jobs 2`` on ``many`` (outputs into ``out``), call
    ``hit(pid, workers)`` once its two workers are at work, and give its
    exit code and standard error; fail if it is still running 30 s later."""
    args = {"validate": ["validate", str(many), "--quiet"],
            "summary": ["summary", str(many)],
            "convert": ["convert", str(many), "--to", "html", "--out-dir", str(out)],
            "export": ["export", str(many), "-o", str(out), "--to", "csv"],
            "dedupe": ["dedupe", str(many)]}[command]
    p = subprocess.Popen([sys.executable, "-m", "gamao_cli", *args, "--jobs", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while len(_children(p.pid)) < 2 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        workers = _children(p.pid)
        assert p.poll() is None, "the command ended before its workers started"
        assert len(workers) >= 2, "no workers started"
        time.sleep(0.1)
        hit(p.pid, workers)
        _out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"{command} --jobs 2 hung")
    return p.returncode, err.decode()


@pytest.mark.parametrize("command", COMMANDS)
def test_ctrl_c_stops_the_workers_and_exits_130(many, tmp_path, command):
    out = tmp_path / "out"
    # Ctrl-C as a terminal sends it: to the whole group
    code, text = _run_and_hit(command, many, out,
                              lambda pid, _workers: os.killpg(pid, signal.SIGINT))
    assert code == 130, text
    assert "Traceback" not in text, text
    assert text.strip().endswith("interrupted"), text
    if command == "convert":
        assert out.is_dir() and not [n for n in os.listdir(out) if n.endswith(".tmp")]
    if command == "export":   # the earlier export (none) is as it was: nothing half made
        assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("command", COMMANDS)
def test_a_worker_killed_stops_the_run_with_exit_3(many, tmp_path, command):
    """A worker that dies in the middle of a run (the system's OOM killer,
    a crash: here SIGKILL) takes its task with it; the command says so and
    exits 3 instead of waiting for ever, no partial export left. (A worker
    killed between two tasks loses nothing: the pool puts another in its
    place and the run ends as usual, with 0; either way, no hang.)"""
    out = tmp_path / "out"
    code, text = _run_and_hit(command, many, out,
                              lambda _pid, workers: os.kill(workers[0], signal.SIGKILL))
    assert "Traceback" not in text, text
    if code == 0:   # (killed between two tasks)
        return
    assert code == 3 and "a worker process ended" in text, text
    if command == "export":
        assert not out.exists() or not any(out.iterdir())
