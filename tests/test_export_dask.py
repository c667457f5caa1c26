"""``--scheduler``: ``gamao export`` and ``gamao validate`` on a real Dask
cluster (a ``distributed.LocalCluster``: a scheduler and two worker
processes on loopback) give what a local run gives; a scheduler that is not
there is a one-line error and exit 2."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, SELFPLAY, local_cluster
from gamao_cli.cli import main
from gamao_cli.tables.schema import TABLES

distributed = pytest.importorskip("distributed")
pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")


@pytest.fixture(scope="module")
def scheduler():
    with local_cluster() as address:
        yield address


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_cluster_has_two_workers(scheduler):
    with distributed.Client(scheduler) as client:
        pids = client.run(os.getpid)
    # two worker processes, neither of them this one
    assert len(pids) == 2 and len(set(pids.values())) == 2 and os.getpid() not in pids.values()


@pytest.mark.parametrize("to", ["parquet", "jsonl"])
def test_export_on_the_cluster_writes_what_a_local_run_writes(tmp_path, scheduler, to):
    inputs = [str(SELFPLAY), str(EXAMPLES)]
    local = tmp_path / "local"
    remote = tmp_path / "dask"
    r = run("export", *inputs, "-o", str(local), "--to", to, "--part-files", "4", "--jobs", "1")
    assert r.exit_code == 0, r.output
    r = run("export", *inputs, "-o", str(remote), "--to", to, "--part-files", "4",
            "--scheduler", scheduler)
    assert r.exit_code == 0, r.output
    assert "28 files, 28 matches" in r.output
    for table in TABLES:
        names = sorted(p.name for p in (local / table).iterdir())
        assert names == sorted(p.name for p in (remote / table).iterdir())
        assert len(names) == 7
        a = duckdb.sql(f"SELECT * FROM '{local}/{table}/*.{to}'").fetchall()
        b = duckdb.sql(f"SELECT * FROM '{remote}/{table}/*.{to}'").fetchall()
        assert a == b and a, table
        if to == "jsonl":
            for n in names:
                assert (local / table / n).read_bytes() == (remote / table / n).read_bytes()


def test_unreadable_inputs_on_the_cluster(tmp_path, scheduler):
    bad = tmp_path / "bad.mat"
    bad.write_text("nothing here\n")
    r = run("export", str(EXAMPLES / "gnubg-selfplay-5pt.mat"), str(bad), "-o",
            str(tmp_path / "o"), "--scheduler", scheduler)
    assert r.exit_code == 2
    assert f"{bad}:1:1: GM002" in r.output and "(1 file not read)" in r.output


@pytest.mark.parametrize("fmt", ["json", "text", "jsonl"])
def test_validate_on_the_cluster_reports_what_a_local_run_reports(scheduler, fmt, tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text("nothing here\n")
    paths = [str(SELFPLAY), str(EXAMPLES), str(bad)]
    local = run("validate", "--format", fmt, *paths)
    remote = run("validate", "--format", fmt, "--scheduler", scheduler, *paths)
    assert remote.exit_code == local.exit_code == 2
    assert remote.output == local.output
    assert "GM202" in remote.output  # examples/illegal-play.mat


def _dead_address() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


@pytest.mark.parametrize("command", ["export", "validate"])
def test_a_dead_scheduler_is_one_line_and_exit_2(tmp_path, command):
    address = _dead_address()
    args = [sys.executable, "-m", "gamao_cli", command, str(EXAMPLES), "--scheduler", address]
    if command == "export":
        args += ["-o", str(tmp_path / "o")]
    env = dict(os.environ, GAMAO_SCHEDULER_TIMEOUT="2")
    p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(f"gamao: cannot reach the Dask scheduler at {address}")
    assert p.stdout == ""


def test_relative_paths_reach_workers_started_elsewhere(tmp_path, scheduler, monkeypatch):
    """The workers' working folder is the one pytest started in; the client
    runs in another and gives relative paths: the workers open them from the
    client's folder, and the tables keep them as given."""
    shutil.copytree(SELFPLAY, tmp_path / "records", ignore=shutil.ignore_patterns("ids", "*.py"))
    monkeypatch.chdir(tmp_path)
    r = run("export", "records", "--glob", "*.mat", "-o", "out", "--scheduler", scheduler)
    assert r.exit_code == 0, r.output
    paths = [p for (p,) in duckdb.sql(
        f"SELECT path FROM '{tmp_path}/out/matches/*.parquet' ORDER BY path").fetchall()]
    assert paths == sorted(f"records/{p.name}" for p in SELFPLAY.glob("*.mat"))


def test_the_workers_speak_the_callers_language(scheduler):
    """A task sent to a worker speaks the language of the command that sent
    it (issue 16): the workers start in English."""
    from gamao_cli import i18n
    from gamao_cli.cli import cluster
    from gamao_cli.messages import render
    client = cluster.connect(scheduler)
    try:
        with i18n.language("pt_BR"):
            portuguese = list(cluster.ordered_map(client, render, ["GM502"], {}))
        english = list(cluster.ordered_map(client, render, ["GM502"], {}))
    finally:
        cluster.close(client)
    assert portuguese == [render("GM502", {}, lang="pt_BR")] != english
    assert english == [render("GM502", {})]
