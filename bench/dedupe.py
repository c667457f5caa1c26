#!/usr/bin/env python3
"""Benchmark: ``gamao dedupe`` of the bulk corpus against ``gamao validate``
of it (issue 27 asks for dedupe within 1.5x validate).

Each run is the real command with ``--jobs 1`` in a process of its own;
the figure is its CPU time (user + system, from the operating system's
accounting of the finished child), which the other programs sharing the
machine do not change as they change wall time. Prints each run, the
median of ``--repeat`` runs, the ratio and whether the target holds; also
``gamao select`` with a criterion that needs no replay and one that does.

    python bench/dedupe.py [--corpus ../shared/corpus/bulk] [--repeat 3]
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "corpus" / "bulk"
TARGET = 1.5


def _gamao() -> list[str]:
    exe = Path(sys.executable).with_name("gamao")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "gamao_cli"]


def cpu_seconds(args: list[str]) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, exit code) of one run of ``gamao args``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(_gamao() + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, p.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    if not a.corpus.is_dir():
        print(f"no corpus at {a.corpus}", file=sys.stderr)
        return 2
    corpus = str(a.corpus)
    runs = {
        "validate": ["validate", "--jobs", "1", "--quiet", corpus],
        "dedupe": ["dedupe", "--jobs", "1", corpus],
        "select --length 7": ["select", "--jobs", "1", "--length", "7", corpus],
        "select --clean": ["select", "--jobs", "1", "--clean", corpus],
    }
    cpu_seconds(["validate", "--jobs", "1", "--quiet", corpus])   # warm the caches
    medians = {}
    for name, args in runs.items():
        cpus = []
        for _ in range(a.repeat):
            cpu, wall, rc = cpu_seconds(args)
            cpus.append(cpu)
            print(f"{name:20} cpu {cpu:6.2f} s  wall {wall:6.2f} s  exit {rc}")
        medians[name] = statistics.median(cpus)
    print()
    for name, cpu in medians.items():
        print(f"{name:20} median cpu {cpu:6.2f} s  ({cpu / medians['validate']:.2f}x validate)")
    ratio = medians["dedupe"] / medians["validate"]
    held = "holds" if ratio <= TARGET else "does NOT hold"
    print(f"\ndedupe / validate = {ratio:.2f} (target <= {TARGET}: {held})")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
