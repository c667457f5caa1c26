#!/usr/bin/env python3
"""Benchmark: ``gamao export`` of the bulk corpus to Parquet with ``--jobs 1``,
``--jobs 2`` and on a two-worker local Dask cluster.

Each run is the real command in a process of its own; it prints the wall
time, the actions written per second, and the peak memory: the peak total
resident memory of the command and its worker processes (for Dask: of the
client and the two workers, the workers' idle memory included) and the peak
of the biggest single process, sampled every 50 ms. As the reference, the
same run also times ``gamao validate --jobs 1`` on the same files (parse
and replay only, no tables) and ``gamao convert --to html --jobs 1`` of them, and
says whether issue 23's targets hold, in CPU seconds of whole processes:
``export --jobs 1`` at most 2x ``validate --jobs 1``, ``convert --to html``
at most 1.5x.

    python bench/export.py [--corpus ../shared/corpus/bulk] [--repeat 1] [--to parquet]
                           [--no-dask]

Needs gamao[parquet,dask] (and psutil, which distributed brings).
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "corpus" / "bulk"


class Peak:
    """Samples the resident memory of a process tree (and extra pids)."""

    def __init__(self, root: int, extra: list[int] = ()):
        self.root = root
        self.extra = list(extra)
        self.total = 0
        self.single = 0
        self.cpu = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _procs(self):
        procs = []
        try:
            p = psutil.Process(self.root)
            procs = [p, *p.children(recursive=True)]
        except psutil.NoSuchProcess:
            pass
        for pid in self.extra:
            try:
                procs.append(psutil.Process(pid))
            except psutil.NoSuchProcess:
                pass
        return procs

    def _run(self) -> None:
        while not self._stop.is_set():
            rss = []
            for p in self._procs():
                try:
                    rss.append(p.memory_info().rss)
                except psutil.Error:
                    pass
            if rss:
                self.total = max(self.total, sum(rss))
                self.single = max(self.single, max(rss))
            self._stop.wait(0.05)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def _cpu(pids) -> float:
    total = 0.0
    for pid in pids:
        try:
            c = psutil.Process(pid).cpu_times()
            total += c.user + c.system
        except psutil.Error:
            pass
    return total


def run(args: list[str], extra_pids: list[int] = ()) -> tuple[float, str, Peak]:
    """Run gamao; (wall seconds, its output, its memory peak), and in
    ``peak.cpu`` the CPU seconds of it, its workers and ``extra_pids``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    extra_before = _cpu(extra_pids)
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "gamao_cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    with Peak(proc.pid, extra_pids) as peak:
        out, err = proc.communicate()
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak.cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                + _cpu(extra_pids) - extra_before)
    if proc.returncode not in (0, 1):
        sys.exit(f"gamao {' '.join(args)} failed ({proc.returncode}):\n{err}")
    return wall, out + err, peak


def actions_of(output: str) -> int:
    m = re.search(r"([\d,]+) actions ->", output)
    return int(m.group(1).replace(",", "")) if m else 0


def mib(n: int) -> str:
    return f"{n / 2**20:.0f} MiB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each setting (median)")
    ap.add_argument("--to", default="parquet", choices=("parquet", "csv", "jsonl"))
    ap.add_argument("--no-dask", action="store_true", help="leave out the Dask cluster's run")
    a = ap.parse_args()
    if not a.corpus.is_dir():
        sys.exit(f"no corpus at {a.corpus}")
    work = Path(tempfile.mkdtemp(prefix="gamao-bench-export-"))
    rows = []
    try:
        walls = []
        for _ in range(a.repeat):
            wall, out, peak = run(["validate", "--jobs", "1", "-q", str(a.corpus)])
            walls.append(wall)
        m = re.search(r"(\d+) files?, (\d+) games?", out)
        print(f"corpus: {a.corpus} ({m.group(1)} files, {m.group(2)} games); "
              f"{os.cpu_count()} cores")
        rows.append(("validate --jobs 1 (reference)", statistics.median(walls), None, peak))
        walls = []
        for i in range(a.repeat):
            wall, out, html_peak = run(["convert", str(a.corpus), "--to", "html", "--out-dir",
                                        str(work / f"html-{i}"), "--force", "--jobs", "1"])
            walls.append(wall)
            shutil.rmtree(work / f"html-{i}", ignore_errors=True)
        rows.append(("convert --to html --jobs 1", statistics.median(walls), None, html_peak))

        if a.no_dask:
            for label, extra in (("export --jobs 1", ["--jobs", "1"]),
                                 ("export --jobs 2", ["--jobs", "2"])):
                out_dir = work / label.split()[-1]
                wall, out, peak = run(["export", str(a.corpus), "-o", str(out_dir), "--to",
                                       a.to, "--no-progress", *extra])
                shutil.rmtree(out_dir, ignore_errors=True)
                rows.append((label, wall, actions_of(out), peak))
        else:
            dask_runs(a, work, rows)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    report(rows, a)


def dask_runs(a, work: Path, rows: list) -> None:
    """``export --jobs 1``, ``--jobs 2`` and on a two-worker local Dask cluster."""
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address="127.0.0.1:0",
                           silence_logs=50)
    try:
        with Client(cluster) as client:
            worker_pids = list(client.run(os.getpid).values())
        settings = [("export --jobs 1", ["--jobs", "1"], []),
                    ("export --jobs 2", ["--jobs", "2"], []),
                    ("export --scheduler (2 Dask workers)",
                     ["--scheduler", cluster.scheduler_address], worker_pids)]
        for label, extra, pids in settings:
            walls = []
            for i in range(a.repeat):
                out_dir = work / f"{label.split()[1]}-{i}"
                wall, out, peak = run(["export", str(a.corpus), "-o", str(out_dir), "--to",
                                       a.to, "--no-progress", *extra], pids)
                walls.append(wall)
                shutil.rmtree(out_dir, ignore_errors=True)
            rows.append((label, statistics.median(walls), actions_of(out), peak))
    finally:
        cluster.close()


def report(rows, a) -> None:
    print(f"{'run':<38} {'wall':>7} {'actions/s':>10} {'CPU':>7} {'actions/CPU s':>14} "
          f"{'peak total':>11} {'peak process':>13}")
    for label, wall, actions, peak in rows:
        rate = f"{actions / wall:,.0f}" if actions else "-"
        per_cpu = f"{actions / peak.cpu:,.0f}" if actions and peak.cpu else "-"
        print(f"{label:<38} {wall:>6.1f}s {rate:>10} {peak.cpu:>6.1f}s {per_cpu:>14} "
              f"{mib(peak.total):>11} {mib(peak.single):>13}")
    n = next(r[2] for r in rows if r[2])
    print(f"({n:,} actions written to {a.to}; median of {a.repeat} "
          f"{'run' if a.repeat == 1 else 'runs'} each; the Dask cluster is started before its "
          f"run; load average {os.getloadavg()[0]:.1f} at the end: on a shared machine "
          "wall times vary, CPU seconds much less)")
    cpu = {label: peak.cpu for label, _wall, _n, peak in rows}
    base = cpu["validate --jobs 1 (reference)"]
    for label, bound in (("export --jobs 1", 2.0), ("convert --to html --jobs 1", 1.5)):
        ratio = cpu[label] / base
        print(f"target (issue 23) {label} at most {bound}x validate --jobs 1 (CPU): "
              f"{'holds' if ratio <= bound else 'MISSED'} ({ratio:.2f}x)")


if __name__ == "__main__":
    main()
