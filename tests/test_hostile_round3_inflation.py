"""Issue 24, bounded inflation: every decompression stops at a budget.

XG streams are inflated only when gamao reads them (never a rollout
stream), once however many registry entries point at one, and never past
:data:`~gamao_cli.formats.xg.container.STREAM_BUDGET` (GM009, located at
the entry); an archive member over
:data:`~gamao_cli.formats.archives.MAX_MEMBER_BYTES` is skipped with a
GM009 diagnostic and the other members are read, whatever its header
states; a compressed tar is inflated no further than
:data:`~gamao_cli.formats.archives.TAR_INFLATE_BUDGET`. Each bomb
:mod:`hostile_cases` makes runs in a process of its own: under 1 GB of
memory and 20 s.
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import zlib
from pathlib import Path

import pytest

from conftest import ROOT
from gamao_cli.formats import archives
from gamao_cli.formats.xg import container
from hostile_cases import xg_bomb, zip_bomb

SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT.parent / "shared"))
XG = SHARED / "corpus2" / "xg" / "kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
GOOD = b"; [Player 1 \"A\"]\n 1 point match\n\n Game 1\n A : 0     B : 0\n"
MiB = 1 << 20

_RUNNER = """
import resource, sys
from gamao_cli.cli import main
try:
    main(sys.argv[1:])
finally:
    use = resource.getrusage(resource.RUSAGE_SELF)
    sys.stderr.write("CPU %f\\n" % (use.ru_utime + use.ru_stime))
    sys.stderr.write("MAXRSS %d\\n" % use.ru_maxrss)
"""


def gamao(*args: str) -> tuple[subprocess.CompletedProcess, float, int]:
    """The command in a process of its own: (result, its CPU seconds, its peak
    memory in bytes). CPU time, not the wall clock: the bound is on the work
    an input makes, which other processes on a shared machine do not change."""
    env = {k: v for k, v in os.environ.items() if k != "GAMAO_DEBUG"}
    p = subprocess.run([sys.executable, "-c", _RUNNER, *args], capture_output=True, text=True,
                       timeout=120, cwd=str(ROOT), env=env)
    took = float(p.stderr.rsplit("CPU ", 1)[1].split()[0])
    rss = int(p.stderr.rsplit("MAXRSS ", 1)[1].split()[0]) * 1024
    p.stderr = p.stderr.rsplit("CPU ", 1)[0]
    return p, took, rss


def _bounded(took: float, rss: int) -> None:
    assert took < 20, took
    assert rss < 1 << 30, rss


def _base() -> bytes:
    if not XG.is_file():
        pytest.skip(f"the XG sample is not in {XG.parent} (set GAMAO_SHARED)")
    return XG.read_bytes()


# -- XG streams -----------------------------------------------------------------------

XG_BOMBS = {
    # name: (keyword arguments of xg_bomb, whether the match still reads)
    "62-entries-one-256MiB-stream": (dict(shared=62, extra_size=256 * MiB), True),
    "two-rollout-streams-of-900MiB": (dict(extra=2, extra_size=900 * MiB), True),
    "game-stream-1GiB": (dict(game_size=1 << 30), False),
    "game-stream-just-over-budget": (dict(game_size=container.STREAM_BUDGET + 1), False),
}


@pytest.mark.parametrize("name", sorted(XG_BOMBS))
@pytest.mark.parametrize("command", ["validate", "export"])
def test_an_xg_bomb_is_bounded(tmp_path, name, command):
    kwargs, reads = XG_BOMBS[name]
    bomb = tmp_path / "bomb.xg"
    bomb.write_bytes(xg_bomb(_base(), **kwargs))
    if command == "export":   # inside a zip, through export
        z = tmp_path / "bombs.zip"
        z.write_bytes(zip_bomb([("bomb.xg", 0, bomb.read_bytes()), ("good.mat", 0, GOOD)]))
        p, took, rss = gamao("export", str(z), "-o", str(tmp_path / "t"), "--to", "jsonl",
                             "--jobs", "1")
    else:
        p, took, rss = gamao("validate", str(bomb))
    _bounded(took, rss)
    assert "Traceback" not in p.stderr
    if reads:
        assert p.returncode in (0, 1), p.stderr + p.stdout
        assert "GM009" not in p.stderr + p.stdout
    else:
        assert p.returncode == 2, p.stderr + p.stdout
        out = p.stderr + p.stdout
        assert "GM009" in out and "64 MiB" in out and "temp.xg" in out
        assert "byte " in out   # located
    if command == "export":
        import json
        rows = [json.loads(x) for x in (tmp_path / "t" / "matches" / "part-00000.jsonl")
                .read_text().splitlines()]
        assert any(r["path"].endswith("good.mat") for r in rows)


def test_an_unread_stream_is_never_inflated_and_a_shared_one_once(monkeypatch):
    data = xg_bomb(_base(), shared=8, extra_size=2 * MiB)
    sizes: list[int] = []
    real = container._inflate

    def counting(blob, size, what, path, offset):
        sizes.append(size)
        return real(blob, size, what, path, offset)
    monkeypatch.setattr(container, "_inflate", counting)
    box = container.read_container(data, "x.xg")
    assert [s for s in sizes if s == 2 * MiB] == []      # listing inflates nothing
    shared = [e.name for e in box.entries if e.original_size == 2 * MiB]
    assert len(shared) == 8
    for name in shared:
        assert box.streams[name] == bytes(2 * MiB)
    assert sizes.count(2 * MiB) == 1                      # eight entries, one inflation
    from gamao_cli.formats.xg.reader import read_xg
    sizes.clear()
    read_xg(data, "x.xg")
    assert 2 * MiB not in sizes                           # reading the match never needs them


# -- archive members ------------------------------------------------------------------------

def _zip_cases():
    big = archives.MAX_MEMBER_BYTES + MiB
    yield "three-255MiB", [(f"m{i}.mat", 255 * MiB, None) for i in range(3)], False
    yield "one-over-budget", [("m.mat", big, None)], False
    yield "lying-headers", [(f"m{i}.mat", 255 * MiB, None) for i in range(3)], True
    yield "just-over-lying", [("m.mat", archives.MAX_MEMBER_BYTES + 1, None)], True


ZIPS = list(_zip_cases())


def _exported(tmp_path: Path, *inputs: Path):
    p, took, rss = gamao("export", *map(str, inputs), "-o", str(tmp_path / "t"), "--to",
                         "jsonl", "--jobs", "1")
    _bounded(took, rss)
    import json
    rows = [json.loads(x) for part in sorted((tmp_path / "t" / "matches").glob("part-*"))
            for x in part.read_text().splitlines()] if (tmp_path / "t").exists() else []
    return p, p.stderr + p.stdout, rows


@pytest.mark.parametrize("name,members,lie", ZIPS, ids=[z[0] for z in ZIPS])
def test_a_member_over_budget_is_skipped_and_the_others_are_read(tmp_path, name, members, lie):
    z = tmp_path / "bomb.zip"
    z.write_bytes(zip_bomb(members + [("zz-good.mat", 0, GOOD)], lie=lie))
    p, out, rows = _exported(tmp_path, z)
    assert "Traceback" not in out
    if lie:
        # a header that understates the size: the member is inflated no
        # further than it states, and then fails its checksum
        assert out.count("GM004") == len(members) and "CRC" in out, out
    else:
        assert out.count("GM009") == len(members), out
        assert f"{archives.MAX_MEMBER_BYTES >> 20} MiB" in out
    for m, _size, _data in members:
        assert f"bomb.zip!{m}:" in out
    assert [r["path"].rsplit("!", 1)[-1] for r in rows] == ["zz-good.mat"]


def _tgz(members: list[tuple[str, int]], good_first: bool = True) -> bytes:
    """A .tar.gz of ``members`` (name, size of zeros), with a good record."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w|gz") as t:
        def add(name: str, data_or_size) -> None:
            info = tarfile.TarInfo(name)
            if isinstance(data_or_size, bytes):
                info.size = len(data_or_size)
                t.addfile(info, io.BytesIO(data_or_size))
            else:
                info.size = data_or_size
                t.addfile(info, _Zeros(data_or_size))
        if good_first:
            add("a-good.mat", GOOD)
        for name, size in members:
            add(name, size)
        add("z-good.mat", GOOD)
    return buf.getvalue()


class _Zeros(io.RawIOBase):
    def __init__(self, size: int):
        self.left = size

    def readinto(self, b) -> int:
        n = min(len(b), self.left)
        b[:n] = bytes(n)
        self.left -= n
        return n

    def readable(self) -> bool:
        return True


def test_a_tar_member_over_budget_is_skipped_and_the_others_are_read(tmp_path):
    t = tmp_path / "bomb.tar.gz"
    t.write_bytes(_tgz([("big.mat", archives.MAX_MEMBER_BYTES + 1)]))
    p, out, rows = _exported(tmp_path, t)
    assert out.count("GM009") == 1 and "bomb.tar.gz!big.mat" in out, out
    assert [r["path"].rsplit("!", 1)[-1] for r in rows] == ["a-good.mat", "z-good.mat"]


def test_a_compressed_tar_stops_at_its_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(archives, "TAR_INFLATE_BUDGET", 3 * MiB)
    data = _tgz([("big1.mat", 2 * MiB), ("big2.mat", 2 * MiB)])
    got = list(archives.iter_members("x.tar.gz", "tar", opener=lambda: io.BytesIO(data)))
    labels = [getattr(g, "label", None) or g.path for g in got]
    assert labels[0] == "x.tar.gz:a-good.mat"
    assert isinstance(got[-1], archives.OverBudget) and got[-1].key == "GM009.archive"
    assert "x.tar.gz:z-good.mat" not in labels
    assert [m.name for m in archives.list_members("x.tar.gz", "tar",
                                                  opener=lambda: io.BytesIO(data))] \
        == ["a-good.mat", "big1.mat"]


def test_a_gz_over_budget_is_gm009(tmp_path):
    c = zlib.compressobj(1, zlib.DEFLATED, 31)
    gz = tmp_path / "big.mat.gz"
    with open(gz, "wb") as fh:
        block = bytes(4 * MiB)
        for _ in range((archives.MAX_MEMBER_BYTES >> 22) + 1):
            fh.write(c.compress(block))
        fh.write(c.flush())
    p, out, rows = _exported(tmp_path, gz)
    assert p.returncode == 2 and "GM009" in out and rows == []
