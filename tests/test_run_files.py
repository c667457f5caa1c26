"""``run_files``: worker processes only when the files are worth them, and
the same results either way."""
from __future__ import annotations

import functools
import shutil
from pathlib import Path

from gamao_cli.cli import files as cli
from gamao_cli.replay.check import check_file

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def files(tmp_path: Path, n: int) -> list[str]:
    src = sorted(EXAMPLES.glob("*.mat"))
    out = []
    for i in range(n):
        dst = tmp_path / f"f{i:02d}.mat"
        shutil.copy(src[i % len(src)], dst)
        out.append(str(dst))
    return out


def summary(results) -> list:
    return [(r.path, [d.format_text() for d in r.diagnostics], r.plays, r.games)
            for r in results]


def test_workers_give_the_results_of_one_process(tmp_path):
    paths = files(tmp_path, 9)
    func = functools.partial(check_file, select=None, ignore=None)
    one = cli.run_files(func, paths, 1)
    two = cli.run_files(func, paths, 2, pool_min_bytes=0)  # workers, however small
    assert summary(one) == summary(two)
    assert any(r.diagnostics for r in one)


def test_no_workers_for_a_few_small_files(tmp_path, monkeypatch):
    import multiprocessing

    def no_pool(*args, **kwargs):
        raise AssertionError("no worker processes for so little")

    monkeypatch.setattr(multiprocessing, "get_context", no_pool)
    paths = files(tmp_path, 9)
    results = cli.run_files(functools.partial(check_file), paths, 2)
    assert [r.path for r in results] == paths
