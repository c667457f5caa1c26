#!/usr/bin/env python3
"""Benchmark: parse and validate every file of the bulk corpus in one process.

Prints files/s and plays/s (checker plays replayed and checked), and the
share of the time spent parsing.

    python bench/validate.py [--corpus ../shared/corpus/bulk] [--repeat 3]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamao_cli.replay.check import check_file  # noqa: E402
from gamao_cli.formats.mat.reader import _parser  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "bulk"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    paths = sorted(str(p) for p in a.corpus.rglob("*") if p.is_file() and p.name != "PROVENANCE.tsv")
    if not paths:
        sys.exit(f"no files in {a.corpus}")
    _parser()
    times = []
    for _ in range(a.repeat):
        t = time.perf_counter()
        results = [check_file(p) for p in paths]
        times.append(time.perf_counter() - t)
    t = statistics.median(times)
    plays = sum(r.plays for r in results)
    games = sum(r.games for r in results)
    errors = sum(r.errors for r in results)
    print(f"corpus: {a.corpus} ({len(paths)} files, {games} games, {plays} plays, "
          f"{errors} errors found)")
    print(f"gamao validate (parse + replay + every rule + scores), one process: {t:.3f} s, "
          f"{len(paths) / t:.0f} files/s, {plays / t:.0f} plays/s (median of {a.repeat})")


if __name__ == "__main__":
    main()
