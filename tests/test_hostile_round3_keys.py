"""Issue 24, keys that stay unique and names that stay true in export.

A member whose name leads out of its archive (:func:`hostile_cases.
hostile_member_names`) is reported (GM010) and not read, never dropped in
silence; the others are read under their very names. The ``path`` column
is lossless and unique: a file name that is no UTF-8 is stored with its
bytes as ``%XX`` (said by GM011 for a member), and no plain file's key is a
member's (``x.zip!m.mat`` the file is ``x.zip%21m.mat``).
"""
from __future__ import annotations

import io
import json
import os
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES
from gamao_cli.cli import main
from gamao_cli.formats import archives
from gamao_cli.tables.export import member_key, path_key
from hostile_cases import hostile_member_names, zip_bomb

RECORD = (EXAMPLES / "illegal-play.mat").read_bytes()
NAMES = hostile_member_names()


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _paths(out: Path) -> list[str]:
    return [json.loads(x)["path"] for part in sorted((out / "matches").glob("part-*"))
            for x in part.read_text(encoding="utf-8").splitlines()]


def _tar(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@pytest.mark.parametrize("kind", ["zip", "tar"])
@pytest.mark.parametrize("name,verdict", NAMES, ids=[n for n, _v in NAMES])
def test_a_member_that_leads_out_is_reported_and_the_others_are_read(tmp_path, kind, name,
                                                                     verdict):
    members = [(name, RECORD), ("good.mat", RECORD)]
    archive = tmp_path / f"a.{kind}"
    archive.write_bytes(zip_bomb([(n, 0, d) for n, d in members]) if kind == "zip"
                        else _tar(members))
    if kind == "tar" and name.startswith("/"):
        pytest.skip("tarfile keeps no leading / in a name it writes")
    r = run("export", archive, "-o", tmp_path / "t", "--to", "jsonl")
    got = _paths(tmp_path / "t")
    assert f"{archive}!good.mat" in got
    if verdict == "read":
        assert r.exit_code == 0, r.output
        assert f"{archive}!{name}" in got
    else:
        assert r.exit_code == 2, r.output
        assert f"GM010 warning the member's name {name!r}" in r.output
        assert len(got) == 1
    assert not any((tmp_path / p).exists() for p in ("evil.mat", "evil3.mat", "up.mat"))


def test_the_hostile_names_of_the_issue_in_one_zip(tmp_path):
    names = ["../../evil.mat", "a/../../evil3.mat", "..\\win\\evil4.mat", "/abs/evil2.mat"]
    z = tmp_path / "x.zip"
    z.write_bytes(zip_bomb([(n, 0, RECORD) for n in names] + [("ok.mat", 0, RECORD)]))
    r = run("export", z, "-o", tmp_path / "t", "--to", "jsonl")
    assert r.exit_code == 2
    for n in names:
        assert f"{z}!{n}: GM010" in r.output
    assert _paths(tmp_path / "t") == [f"{z}!ok.mat"]
    assert "5 files" in r.output and "(4 files not read)" in r.output


@pytest.mark.skipif(os.name != "posix", reason="file names of bytes")
def test_a_file_name_that_is_no_utf8_is_stored_losslessly_and_distinctly(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    raw = os.path.join(os.fsencode(folder), b"bad\xff\xfe.mat")
    try:
        with open(raw, "wb") as fh:
            fh.write(RECORD)
    except OSError:
        pytest.skip("this file system takes only UTF-8 names")
    (folder / "bad\\udcff\\udcfe.mat").write_bytes(RECORD)   # the escape, as text
    (folder / "x.zip:m.mat").write_bytes(RECORD)
    (folder / "x.zip!m.mat").write_bytes(RECORD)
    (folder / "x.zip").write_bytes(zip_bomb([("m.mat", 0, RECORD)]))
    (folder / "100%.mat").write_bytes(RECORD)
    r = run("export", folder, "-o", tmp_path / "t", "--to", "jsonl")
    assert r.exit_code == 0, r.output
    got = _paths(tmp_path / "t")
    assert len(got) == len(set(got)) == 6, got
    f = str(folder)
    assert set(got) == {f"{f}/bad%FF%FE.mat", f"{f}/bad\\udcff\\udcfe.mat", f"{f}/x.zip:m.mat",
                        f"{f}/x.zip%21m.mat", f"{f}/x.zip!m.mat", f"{f}/100%25.mat"}
    # lossless: the key gives the name back
    back = [os.fsencode(_unkey(k)) for k in got]
    assert os.path.join(os.fsencode(folder), b"bad\xff\xfe.mat") in back


def _unkey(key: str) -> str:
    """The inverse of path_key for a plain file (what docs/tables.md says)."""
    import re
    def one(m):
        h = m.group(1)
        if h.startswith("u"):
            return chr(int(h[1:], 16))
        b = int(h, 16)
        return chr(b) if b < 0x80 else chr(0xDC00 + b)
    return re.sub(r"%(u[0-9A-F]{4}|[0-9A-F]{2})", one, key)


def test_a_tar_member_name_of_bytes_is_reported_when_its_key_is_not_its_name(tmp_path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT,
                      encoding="utf-8", errors="surrogateescape") as t:
        for name in ("bad\udcff.mat", "ok.mat"):
            info = tarfile.TarInfo(name)
            info.size = len(RECORD)
            t.addfile(info, io.BytesIO(RECORD))
    tar = tmp_path / "n.tar"
    tar.write_bytes(buf.getvalue())
    r = run("export", tar, "-o", tmp_path / "t", "--to", "jsonl")
    assert r.exit_code == 0, r.output
    assert "GM011 info" in r.output and "bad%FF.mat" in r.output
    assert sorted(_paths(tmp_path / "t")) == sorted([f"{tar}!bad%FF.mat", f"{tar}!ok.mat"])


@pytest.mark.parametrize("a,b", [("x.zip!m.mat", ("x.zip", "m.mat")),
                                 ("a%21b.zip!c", ("a!b.zip", "c")),
                                 ("s!t", ("s", "t"))])
def test_no_plain_key_is_a_member_key(a, b):
    assert path_key(a) != member_key(*b)
    assert "!" not in path_key(a).split("://", 1)[-1]


def test_name_problem_agrees_with_the_generator():
    for name, verdict in NAMES:
        got = archives.name_problem(name)
        assert (got or "read") == verdict, name
