"""Issue 24, schedulers: whatever listens at ``--scheduler`` (nothing, a
silent listener, junk bytes, a web server) and whatever the address is
(empty, malformed, another scheme, ``tls://`` without certificates), the
command ends within one connect-and-handshake timeout with a one-line
message and exit 2, and no traceback on the way out. The listeners are
:func:`hostile_cases.listener`'s, on 127.0.0.1, each for a bounded time.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from conftest import EXAMPLES, ROOT
from hostile_cases import LISTENER_KINDS, bad_addresses, closed_address, listener

pytest.importorskip("distributed")

TIMEOUT = 3   # GAMAO_SCHEDULER_TIMEOUT for these runs


def gamao(command: str, address: str, tmp_path) -> tuple[subprocess.CompletedProcess, float]:
    args = [sys.executable, "-m", "gamao_cli", command, str(EXAMPLES), "--scheduler", address]
    if command == "export":
        args += ["-o", str(tmp_path / "o"), "--to", "jsonl"]
    env = dict(os.environ, GAMAO_SCHEDULER_TIMEOUT=str(TIMEOUT))
    env.pop("GAMAO_DEBUG", None)
    start = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60, cwd=str(ROOT))
    return p, time.monotonic() - start


def _one_line(p: subprocess.CompletedProcess, address: str) -> None:
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("gamao: cannot reach the Dask scheduler at"), p.stderr
    assert "Traceback" not in p.stderr and "Exception ignored" not in p.stderr
    assert p.stdout == ""


@pytest.mark.parametrize("kind", sorted(LISTENER_KINDS))
@pytest.mark.parametrize("command", ["export", "validate"])
def test_whatever_listens_there_one_timeout_one_line(tmp_path, command, kind):
    with listener(kind, lifetime=40) as address:
        p, took = gamao(command, address, tmp_path)
    _one_line(p, address)
    # the start of Python and gamao, then one timeout at most
    assert took < TIMEOUT + 15, took
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("part-*"))


@pytest.mark.parametrize("address", bad_addresses())
def test_every_address_that_is_no_scheduler_is_one_line(tmp_path, address):
    p, took = gamao("validate", address, tmp_path)
    _one_line(p, address)
    assert took < TIMEOUT + 15, took


def test_an_empty_scheduler_never_runs_locally(tmp_path):
    p, _took = gamao("export", "", tmp_path)
    _one_line(p, "")
    assert "empty" in p.stderr
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("part-*"))


def test_a_closed_port_is_one_line(tmp_path):
    address = closed_address()
    p, _took = gamao("export", address, tmp_path)
    _one_line(p, address)
