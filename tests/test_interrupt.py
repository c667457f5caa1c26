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


@pytest.mark.parametrize("command", ["validate", "summary", "convert", "export", "dedupe"])
def test_ctrl_c_stops_the_workers_and_exits_130(many, tmp_path, command):
    out = tmp_path / "out"
    args = {"validate": ["validate", str(many), "--quiet"],
            "summary": ["summary", str(many)],
            "convert": ["convert", str(many), "--to", "html", "--out-dir", str(out)],
            "export": ["export", str(many), "-o", str(out), "--to", "csv"],
            "dedupe": ["dedupe", str(many)]}[command]
    p = subprocess.Popen([sys.executable, "-m", "gamao_cli", *args, "--jobs", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True, cwd=ROOT)
    try:
        # once the workers are at work, Ctrl-C as a terminal sends it: to the group
        deadline = time.monotonic() + 30
        while len(_children(p.pid)) < 2 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        assert p.poll() is None, "the command ended before its workers started"
        assert len(_children(p.pid)) >= 2, "no workers started"
        time.sleep(0.2)
        os.killpg(p.pid, signal.SIGINT)
        _out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"{command} --jobs 2 hung after Ctrl-C")
    text = err.decode()
    assert p.returncode == 130, text
    assert "Traceback" not in text, text
    assert text.strip().endswith("interrupted"), text
    if command == "convert":
        assert out.is_dir() and not [n for n in os.listdir(out) if n.endswith(".tmp")]
    if command == "export":   # the earlier export (none) is as it was: nothing half made
        assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("command", ["validate", "summary", "convert", "export", "dedupe"])
def test_a_worker_killed_stops_the_run_with_exit_3(many, tmp_path, command):
    """A worker that dies in the middle of a run (the system's OOM killer,
    a crash: here SIGKILL) takes its task with it; the command says so and
    exits 3 instead of waiting for ever, no partial export left. (A worker
    killed between two tasks loses nothing: the pool puts another in its
    place and the run ends as usual, with 0; either way, no hang.)"""
    out = tmp_path / "out"
    args = {"validate": ["validate", str(many), "--quiet"],
            "summary": ["summary", str(many)],
            "convert": ["convert", str(many), "--to", "json", "--out-dir", str(out)],
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
        assert p.poll() is None and len(workers) >= 2, "no workers at work"
        time.sleep(0.1)
        os.kill(workers[0], signal.SIGKILL)
        _out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"{command} --jobs 2 hung after a worker was killed")
    text = err.decode()
    assert "Traceback" not in text, text
    if p.returncode == 0:   # (killed between two tasks)
        return
    assert p.returncode == 3 and "a worker process ended" in text, text
    if command == "export":
        assert not out.exists() or not any(out.iterdir())
