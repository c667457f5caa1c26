"""``s3://`` input and output through fsspec and s3fs, against a local S3
server (moto's, on loopback): the export of records in a bucket, locally and
on a Dask cluster, has the rows of the export of the same files on disk.
Skipped unless ``s3fs`` and ``moto[server]`` are installed (they are not in
the test extra: this is the check of the S3 path, run by hand)."""
from __future__ import annotations

import os
import socket

import pytest
from click.testing import CliRunner

from conftest import SELFPLAY, local_cluster
from gamao_cli.cli import main

s3fs = pytest.importorskip("s3fs")
moto_server = pytest.importorskip("moto.server")
duckdb = pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
           "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": endpoint,
           "FSSPEC_S3_ENDPOINT_URL": endpoint}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        fs = s3fs.S3FileSystem(client_kwargs={"endpoint_url": endpoint})
        fs.mkdir("gamao-records")
        for p in sorted(SELFPLAY.glob("*.mat")):
            fs.pipe(f"gamao-records/in/{p.name}", p.read_bytes())
        s3fs.S3FileSystem.clear_instance_cache()
        yield fs
    finally:
        server.stop()
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _rows(table: str, where: str) -> list[tuple]:
    return duckdb.sql(f"SELECT * EXCLUDE (path) FROM '{where}/{table}/*.parquet' "
                      "ORDER BY index_in_file, match_id" + (", game" if table != "matches" else "")
                      + (", seq" if table == "actions" else "")).fetchall()


def test_s3_in_and_out_equal_the_local_files(s3, tmp_path):
    r = CliRunner().invoke(main, ["export", "s3://gamao-records/in/", "-o",
                                  "s3://gamao-records/tables", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "12 files, 12 matches" in r.output
    local = tmp_path / "local"
    r = CliRunner().invoke(main, ["export", *map(str, sorted(SELFPLAY.glob("*.mat"))), "-o",
                                  str(local)])
    assert r.exit_code == 0, r.output
    down = tmp_path / "down"
    s3.get("gamao-records/tables", str(down), recursive=True)
    paths = duckdb.sql(f"SELECT path FROM '{down}/matches/*.parquet' ORDER BY path").fetchall()
    assert paths[0][0] == "s3://gamao-records/in/m0001.mat"
    for table in ("matches", "games", "actions"):
        got = _rows(table, str(down))
        assert got == _rows(table, str(local)) and got, table


def test_s3_on_a_dask_cluster(s3, tmp_path):
    distributed = pytest.importorskip("distributed")
    # started after the fixture set the endpoint and keys: the workers inherit them
    with local_cluster() as address:
        r = CliRunner().invoke(main, ["export", "s3://gamao-records/in/", "-o",
                                      "s3://gamao-records/tables-dask", "--part-files", "5",
                                      "--scheduler", address])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["export", "s3://gamao-records/in/", "-o",
                                  str(tmp_path / "local"), "--part-files", "5", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    down = tmp_path / "down"
    s3.get("gamao-records/tables-dask", str(down), recursive=True)
    assert len(list((down / "actions").glob("*.parquet"))) == 3
    for table in ("matches", "games", "actions"):
        a = duckdb.sql(f"SELECT * FROM '{down}/{table}/*.parquet'").fetchall()
        b = duckdb.sql(f"SELECT * FROM '{tmp_path}/local/{table}/*.parquet'").fetchall()
        assert a == b and a, table
