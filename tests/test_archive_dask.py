"""``gamao dedupe`` and ``gamao select`` with ``--scheduler``: on a real
Dask cluster (a ``distributed.LocalCluster`` of two worker processes on
loopback) they print what a local run prints."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, SELFPLAY, local_cluster
from gamao_cli.cli import main

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    with local_cluster() as address:
        yield address


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("command", [
    ["dedupe", "--format", "json", "--all"],
    ["select", "--clean", "--length", "1-7"],
])
def test_on_the_cluster_as_locally(scheduler, command):
    inputs = [str(SELFPLAY), str(EXAMPLES)]
    local = run(*command, *inputs, "--jobs", "1")
    remote = run(*command, *inputs, "--scheduler", scheduler)
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert local.stdout == remote.stdout and local.stdout.strip()


def test_a_scheduler_that_is_not_there(monkeypatch):
    monkeypatch.setenv("GAMAO_SCHEDULER_TIMEOUT", "1")
    r = run("dedupe", str(EXAMPLES), "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 2 and "cannot reach the Dask scheduler" in r.output
