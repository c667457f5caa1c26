"""Issue 24, output: written only where asked, and never lost.

Every writer (convert's outputs, position's SVG, validate's HTML report and
its pages) meets every kind of link :func:`hostile_cases.link_cases` makes
at its output's place: without ``--force`` it refuses and the link's target
is neither written nor created; with ``--force`` the link itself is
replaced by the new file, never its target. ``--html-dir`` obeys
``--force``. An export is swapped in only when complete: a scheduler that
cannot be reached, an output that refuses writes, a failure halfway leave
the earlier export byte for byte as it was.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES
from gamao_cli.cli import main
from hostile_cases import closed_address, link_cases

ILLEGAL = EXAMPLES / "illegal-play.mat"
CLEAN = EXAMPLES / "gnubg-selfplay-5pt.mat"
CASES = list(link_cases())


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def _writers(tmp_path: Path):
    """(name, the output's place, the command that writes it) of each writer."""
    src = tmp_path / "in" / "x.mat"
    src.parent.mkdir()
    shutil.copy(ILLEGAL, src)
    out = tmp_path / "out"
    rep = tmp_path / "rep"
    return {
        "convert-json": (out / "x.json", ["convert", src, "--to", "json", "--out-dir", out]),
        "convert-html": (out / "x.html", ["convert", src, "--to", "html", "--out-dir", out]),
        "convert-o": (out / "y.sgf", ["convert", src, "--to", "sgf", "-o", out / "y.sgf"]),
        "position-svg": (out / "b.svg", ["position", src, "--format", "svg", "-o",
                                         out / "b.svg"]),
        "html-index": (rep / "index.html", ["validate", "--format", "html", "--html-dir", rep,
                                            src]),
        "html-page": (rep / "pages" / "x.mat.html", ["validate", "--format", "html",
                                                      "--html-dir", rep, src]),
    }


WRITERS = ["convert-json", "convert-html", "convert-o", "position-svg", "html-index",
           "html-page"]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("writer", WRITERS)
def test_no_writer_follows_a_link_out_of_its_folder(tmp_path, writer, case):
    place, args = _writers(tmp_path)[writer]
    target = case.make(place, tmp_path / "elsewhere")
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "symbolic link" in r.output
    assert place.is_symlink()
    if case.target_exists:
        assert target.read_text() == "precious\n"
    else:
        assert not target.exists()
    # --force: the link itself is replaced, its target is not touched
    r = run(*args, "--force")
    assert r.exit_code in (0, 1), r.output
    assert not place.is_symlink() and place.is_file() and place.stat().st_size > 0
    if case.target_exists:
        assert target.read_text() == "precious\n"
    else:
        assert not target.exists()


def test_a_report_folder_that_is_a_link_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "rep").symlink_to(elsewhere)
    r = run("validate", "--format", "html", "--html-dir", tmp_path / "rep", ILLEGAL)
    assert r.exit_code == 2 and "symbolic link" in r.output
    assert list(elsewhere.iterdir()) == []
    rep = tmp_path / "rep2"
    rep.mkdir()
    (rep / "pages").symlink_to(elsewhere)
    r = run("validate", "--format", "html", "--html-dir", rep, "--force", ILLEGAL)
    assert r.exit_code == 2 and "symbolic link" in r.output
    assert list(elsewhere.iterdir()) == []


def test_html_dir_obeys_force(tmp_path):
    rep = tmp_path / "rep"
    r = run("validate", "--format", "html", "--html-dir", rep, ILLEGAL)
    assert r.exit_code == 1, r.output
    index = rep / "index.html"
    before = index.read_bytes()
    index.write_text("mine")
    page = next((rep / "pages").iterdir())
    page.write_text("mine too")
    r = run("validate", "--format", "html", "--html-dir", rep, ILLEGAL)
    assert r.exit_code == 2 and "--force" in r.output
    assert index.read_text() == "mine" and page.read_text() == "mine too"
    r = run("validate", "--format", "html", "--html-dir", rep, "--force", ILLEGAL)
    assert r.exit_code == 1, r.output
    assert index.read_bytes() == before and page.read_text() != "mine too"


# -- export: swapped in only when complete -------------------------------------------------

def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _earlier(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path / "t"
    r = run("export", CLEAN, "-o", out, "--to", "jsonl")
    assert r.exit_code == 0, r.output
    (out / "matches" / "README").write_text("my notes\n")   # not a part: must stay
    return out, _snapshot(out)


def _no_staging_left(out: Path) -> None:
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("failure", ["closed-port", "write-refused", "second-part",
                                     "interrupted"])
def test_a_failed_export_leaves_the_earlier_one_as_it_was(tmp_path, monkeypatch, failure):
    out, before = _earlier(tmp_path)
    args = ["export", EXAMPLES, "-o", out, "--to", "jsonl", "--force", "--part-files", "1",
            "--jobs", "1"]
    if failure == "closed-port":
        monkeypatch.setenv("GAMAO_SCHEDULER_TIMEOUT", "2")
        args += ["--scheduler", closed_address()]
    else:
        from gamao_cli.tables import storage
        real_open = storage.Output.open
        calls = {"n": 0}

        def refusing(self, folder, name):
            calls["n"] += 1
            if failure == "write-refused" or (failure == "second-part" and calls["n"] > 3):
                raise PermissionError(13, "Permission denied", self.join(folder, name))
            if failure == "interrupted" and calls["n"] > 3:
                raise KeyboardInterrupt
            return real_open(self, folder, name)
        monkeypatch.setattr(storage.Output, "open", refusing)
    r = run(*args)
    assert r.exit_code in (2, 1) if failure != "interrupted" else r.exit_code != 0, r.output
    if failure != "interrupted":
        assert r.exit_code == 2, r.output
        assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert _snapshot(out) == before
    _no_staging_left(out)


def test_export_force_replaces_a_linked_table_folder_as_a_link(tmp_path):
    out, _before = _earlier(tmp_path)
    other = tmp_path / "other"
    shutil.move(out / "matches", other)
    (out / "matches").symlink_to(other)
    kept = _snapshot(other)
    r = run("export", EXAMPLES, "-o", out, "--to", "jsonl")
    assert r.exit_code == 2 and "symbolic link" in r.output
    r = run("export", EXAMPLES, "-o", out, "--to", "jsonl", "--force")
    assert r.exit_code == 0, r.output
    assert _snapshot(other) == kept   # the link's target is not touched
    assert not (out / "matches").is_symlink() and (out / "matches" / "part-00000.jsonl").is_file()
    _no_staging_left(out)


def test_export_keeps_what_is_not_a_part_and_replaces_every_part(tmp_path):
    out, before = _earlier(tmp_path)
    (out / "actions" / "part-00009.jsonl").write_text("stale\n")
    r = run("export", EXAMPLES, "-o", out, "--to", "jsonl", "--force")
    assert r.exit_code == 0, r.output
    assert (out / "matches" / "README").read_text() == "my notes\n"
    assert not (out / "actions" / "part-00009.jsonl").exists()
    assert _snapshot(out) != before
    _no_staging_left(out)


def test_export_into_a_read_only_table_folder_is_a_message_not_a_crash(tmp_path, monkeypatch):
    out, before = _earlier(tmp_path)
    real_rename = os.rename

    def refusing(a, b, *args, **kwargs):
        if str(a) == str(out / "actions"):
            raise PermissionError(13, "Permission denied", str(a))
        return real_rename(a, b, *args, **kwargs)
    monkeypatch.setattr(os, "rename", refusing)
    r = run("export", EXAMPLES, "-o", out, "--to", "jsonl", "--force")
    assert r.exit_code == 2, r.output
    assert "cannot put the new tables in place" in r.output and "Traceback" not in r.output
    monkeypatch.undo()
    assert _snapshot(out) == before
    _no_staging_left(out)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_export_with_a_read_only_actions_folder(tmp_path):
    out, before = _earlier(tmp_path)
    (out / "actions").chmod(0o555)
    try:
        r = run("export", EXAMPLES, "-o", out, "--to", "jsonl", "--force")
    finally:
        (out / "actions").chmod(0o755)
    assert r.exit_code in (0, 2) and "Traceback" not in r.output, r.output


def test_a_failed_export_to_a_url_leaves_the_earlier_one(tmp_path, monkeypatch):
    fsspec = pytest.importorskip("fsspec")
    import uuid
    url = f"memory://gamao-{uuid.uuid4().hex[:8]}/t"
    fs = fsspec.filesystem("memory")
    root = url[len("memory://"):]
    r = run("export", EXAMPLES, "-o", url, "--to", "jsonl", "--part-files", "1", "--jobs", "1")
    assert r.exit_code == 0, r.output

    def snapshot():
        return {p: fs.cat_file(p) for p in sorted(fs.find("/" + root))}
    before = snapshot()
    assert len([p for p in before if "/matches/part-" in p]) == 4
    monkeypatch.setenv("GAMAO_SCHEDULER_TIMEOUT", "2")
    r = run("export", CLEAN, "-o", url, "--to", "jsonl", "--force", "--scheduler",
            closed_address())
    assert r.exit_code == 2, r.output
    assert snapshot() == before
    r = run("export", CLEAN, "-o", url, "--to", "jsonl", "--force")   # one part now
    assert r.exit_code == 0, r.output
    after = snapshot()
    assert [p for p in after if "/matches/part-" in p] == [f"/{root}/matches/part-00000.jsonl"]
    assert not any(".gamao-export-" in p for p in after)
