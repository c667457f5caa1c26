"""Every command that reads records reads the archives ``gamao export``
reads (issue 22): ``.zip``, ``.tar.gz``/``.tgz`` and ``.gz``, member by
member, each named ``archive.zip!member.mat`` in reports. What a command
says of a member is what it says of the same file unpacked."""
from __future__ import annotations

import gzip
import io
import json
import re
import shutil
import tarfile
import zipfile

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, SELFPLAY
from gamao_cli.cli import main

RECORDS = sorted(EXAMPLES.glob("*.mat"))


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture()
def unpacked(tmp_path):
    """The examples, as files, and packed three ways beside them."""
    files = tmp_path / "files"
    files.mkdir()
    for p in RECORDS:
        shutil.copy(p, files / p.name)
    packed = tmp_path / "packed"
    packed.mkdir()
    with zipfile.ZipFile(packed / "records.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for p in RECORDS:
            z.write(p, f"sub/{p.name}")
        z.writestr("sub/README", "not a record, and not taken")
    with tarfile.open(packed / "records.tgz", "w:gz") as t:
        for p in RECORDS:
            t.add(p, p.name)
    with gzip.open(packed / "illegal-play.mat.gz", "wb") as g:
        g.write((EXAMPLES / "illegal-play.mat").read_bytes())
    return files, packed


def _as_files(diags: list[dict], files) -> list[tuple]:
    """(member's file name, code, line, column, message) of each diagnostic."""
    out = []
    for d in diags:
        name = re.split(r"[!/]", d["path"])[-1]
        out.append((name, d["code"], d["line"], d["column"], d["message"]))
    return sorted(out)


@pytest.mark.parametrize("archive", ["records.zip", "records.tgz"])
def test_validate_reads_an_archive_as_its_members(unpacked, archive):
    files, packed = unpacked
    r = run("validate", "--jobs", "1", str(packed / archive))
    assert r.exit_code == 1, r.output
    assert "GM003" not in r.output and "control byte" not in r.output
    lines = r.output.splitlines()
    inner = "sub/" if archive.endswith(".zip") else ""
    assert f"{packed / archive}!{inner}illegal-play.mat:9:38: GM202 error" in r.output
    assert lines[-1] == f"{len(RECORDS)} files, 15 games: 2 errors, 0 warnings"
    want = json.loads(run("validate", "--format", "json", str(files)).output)
    got = json.loads(run("validate", "--format", "json", str(packed / archive)).output)
    assert sorted(f["path"].split("!", 1)[1] for f in got["files"]) == sorted(
        inner + p.name for p in RECORDS)
    assert _as_files([d for f in got["files"] for d in f["diagnostics"]], files) == \
        _as_files([d for f in want["files"] for d in f["diagnostics"]], files)


def test_a_gz_and_a_folder_of_archives(unpacked):
    files, packed = unpacked
    r = run("validate", str(packed / "illegal-play.mat.gz"))
    assert r.exit_code == 1
    assert r.output.startswith(f"{packed / 'illegal-play.mat.gz'}!illegal-play.mat:9:38: GM202")
    r = run("validate", "--format", "json", str(packed))   # a folder scan takes archives
    doc = json.loads(r.output)
    assert len(doc["files"]) == 2 * len(RECORDS) + 1
    assert all("!" in f["path"] for f in doc["files"])


def test_summary_of_a_member_is_the_summary_of_the_file(unpacked):
    files, packed = unpacked
    want = json.loads(run("summary", "--format", "json", str(files)).output)
    got = json.loads(run("summary", "--format", "json", str(packed / "records.tgz")).output)
    for s in want + got:
        s["path"] = s["path"].split("!")[-1].rsplit("/", 1)[-1]
    assert sorted(got, key=lambda s: s["path"]) == sorted(want, key=lambda s: s["path"])


def test_position_of_a_member_and_of_an_archive(unpacked):
    files, packed = unpacked
    member = f"{packed / 'records.zip'}!sub/illegal-play.mat"
    want = run("position", str(files / "illegal-play.mat"), "--game", "2", "--move", "10")
    got = run("position", member, "--game", "2", "--move", "10")
    assert got.exit_code == 0, got.output
    assert got.output.replace(member, "F") == want.output.replace(
        str(files / "illegal-play.mat"), "F")
    r = run("position", str(packed / "records.zip"), "--game", "1", "--move", "1")
    assert r.exit_code == 2
    assert "GM002" in r.output and f"{packed / 'records.zip'}!sub/" in r.output


def test_convert_writes_each_member_beside_its_archive_or_into_out_dir(unpacked, tmp_path):
    files, packed = unpacked
    r = run("convert", str(packed / "records.zip"), "--to", "json", "--out-dir",
            str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    r2 = run("convert", str(files), "--to", "json", "--out-dir", str(tmp_path / "want"))
    assert r2.exit_code == 0
    got = {p.name: p.read_text() for p in (tmp_path / "out").iterdir()}
    want = {p.name: p.read_text() for p in (tmp_path / "want").iterdir()}
    assert set(got) == set(want) == {p.stem + ".json" for p in RECORDS}
    for name, text in got.items():   # the input it came from, then the same match
        member = f"{packed / 'records.zip'}!sub/{name[:-5]}.mat"
        assert json.loads(text)["path"] == member
        assert text.replace(json.dumps(member)[1:-1], "F") == want[name].replace(
            json.dumps(str(files / (name[:-5] + ".mat")))[1:-1], "F")
    r = run("convert", str(packed / "illegal-play.mat.gz"), "--to", "sgf")
    assert r.exit_code == 0 and (packed / "illegal-play.sgf").is_file()


def test_what_cannot_be_read_in_an_archive(tmp_path):
    """A damaged archive is GM004 naming it; a member that is no record is
    that member's GM002 and the others are still checked; an archive on
    standard input, or inside an archive, says so."""
    bad = tmp_path / "cut.zip"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("a.mat", (EXAMPLES / "illegal-play.mat").read_text())
    bad.write_bytes(buf.getvalue()[:40])
    r = run("validate", str(bad))
    assert r.exit_code == 2 and "GM003" not in r.output, r.output
    mixed = tmp_path / "mixed.zip"
    with zipfile.ZipFile(mixed, "w") as z:
        z.writestr("notes.txt", "just words\n")
        z.writestr("inner.mat", buf.getvalue())
        z.write(EXAMPLES / "illegal-play.mat", "good.mat")
    r = run("validate", str(mixed))
    assert r.exit_code == 2
    assert f"{mixed}!notes.txt:1:1: GM002 error" in r.output
    assert f"{mixed}!inner.mat: GM002 error an archive (zip) inside an archive" in r.output
    assert f"{mixed}!good.mat:9:38: GM202" in r.output
    r = run("validate", "-", input=buf.getvalue())
    assert r.exit_code == 2 and "<stdin>: GM002 error an archive (zip) on standard input" \
        in r.output
    r = run("validate", f"{mixed}!nothing.mat")
    assert r.exit_code == 2 and "has no member nothing.mat" in r.output


def test_the_workers_read_the_members_as_one_process_does(tmp_path):
    """Enough members for worker processes (the archive holds more than the
    256 kB that start them): the report is the one of --jobs 1."""
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:
        for i in range(8):
            for p in sorted(SELFPLAY.glob("*.mat")):
                z.write(p, f"copy{i}/{p.name}")
    assert archive.stat().st_size > 256 * 1024
    one = run("validate", "--format", "json", "--jobs", "1", str(archive))
    two = run("validate", "--format", "json", "--jobs", "2", str(archive))
    assert one.exit_code == two.exit_code == 0
    assert one.output == two.output and one.output.count("!copy7/") > 0


def test_an_html_report_of_members(unpacked, tmp_path):
    files, packed = unpacked
    r = run("validate", "--format", "html", "--html-dir", str(tmp_path / "h"),
            str(packed / "records.zip"))
    assert r.exit_code == 1, r.output
    index = (tmp_path / "h" / "index.html").read_text(encoding="utf-8")
    assert "records.zip!sub/illegal-play.mat" in index
    pages = [p.name for p in (tmp_path / "h").rglob("*.html") if p.name != "index.html"]
    assert any("illegal-play" in name for name in pages), pages
