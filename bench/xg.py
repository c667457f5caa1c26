#!/usr/bin/env python3
"""Benchmark: reading eXtreme Gammon files against reading the same match as
a match file.

The sample ``charlot1-charlot2`` exists as XG's ``.xg`` and as the ``.mat``
GNU Backgammon wrote of it: both are read (and, separately, read and
validated) in the same rounds, alternately, and the figures are medians
over the rounds, with the ratio of each round. Every other ``.xg`` sample is
timed too, next to its own conversion to ``.mat``. Times are CPU seconds
(this process's, in-process; on a shared machine the wall clock measures
the neighbours too).

Then the target of issue 23, in CPU seconds of whole processes: the
command ``gamao validate --quiet`` of the charlot ``.xg`` against the same
command on its ``.mat``, alternately, --processes times each (start-up
included, as a user runs it): validating an ``.xg`` must cost at most twice
validating the same match as a ``.mat``. The in-process ratio is said
against the same bound.

    python bench/xg.py [--shared ../shared] [--rounds 7] [--repeat 20] [--processes 7]
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamao_cli import formats  # noqa: E402
from gamao_cli.replay.replay import validate_match  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
TWIN_XG = "corpus2/xg/kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
TWIN_MAT = "corpus/kevung__gnubgparser/test__charlot1-charlot2_7p_2025-11-08-2305.mat"


def timed(work, repeat: int) -> float:
    t = time.process_time()
    for _ in range(repeat):
        work()
    return (time.process_time() - t) / repeat


def process_cpu(args: list[str]) -> float:
    """CPU seconds (user + system) of one ``gamao`` command, a process of its own."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "gamao_cli", *args], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, cwd=str(ROOT))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def whole_processes(xg: Path, mat: Path, n: int) -> None:
    process_cpu(["validate", "--quiet", str(mat)])   # warm: the parser's cache, the disk
    xs, ys, ratios = [], [], []
    for _ in range(n):
        x = process_cpu(["validate", "--quiet", str(xg)])
        y = process_cpu(["validate", "--quiet", str(mat)])
        xs.append(x)
        ys.append(y)
        ratios.append(x / y)
    ratio = statistics.median(ratios)
    print(f"whole processes, gamao validate --quiet (CPU, median of {n}): .xg "
          f"{statistics.median(xs):.3f} s, .mat {statistics.median(ys):.3f} s, ratio {ratio:.2f} "
          f"({min(ratios):.2f}-{max(ratios):.2f})")
    print(f"target (issue 23) validating an .xg costs at most 2x the same match as .mat: "
          f"{'holds' if ratio <= 2 else 'MISSED'} in whole processes ({ratio:.2f}x), "
          f"{'holds' if _IN_PROCESS[0] <= 2 else 'MISSED'} in-process ({_IN_PROCESS[0]:.2f}x)")


_IN_PROCESS = [0.0]   # the charlot match's in-process read+validate ratio


def compare(label: str, xg: bytes, mat: bytes, rounds: int, repeat: int) -> float:
    read_xg = lambda: formats.parse_bytes(xg, "x.xg")   # noqa: E731
    read_mat = lambda: formats.parse_bytes(mat, "x.mat")  # noqa: E731
    check_xg = lambda: [validate_match(mt) for mt in read_xg()]   # noqa: E731
    check_mat = lambda: [validate_match(mt) for mt in read_mat()]  # noqa: E731
    read_xg(), read_mat()   # warm: the parser, the caches
    rows = {"read": ([], [], []), "read+validate": ([], [], [])}
    for _ in range(rounds):
        for what, (a, b) in (("read", (read_xg, read_mat)),
                             ("read+validate", (check_xg, check_mat))):
            x, y = timed(a, repeat), timed(b, repeat)
            xs, ys, ratios = rows[what]
            xs.append(x)
            ys.append(y)
            ratios.append(x / y)
    print(f"{label}: {len(xg):,} bytes of .xg, {len(mat):,} bytes of .mat")
    for what, (xs, ys, ratios) in rows.items():
        print(f"  {what:14} .xg {statistics.median(xs) * 1000:8.2f} ms   "
              f".mat {statistics.median(ys) * 1000:8.2f} ms   "
              f"ratio {statistics.median(ratios):.2f}  "
              f"({min(ratios):.2f}-{max(ratios):.2f} by round)")
    return statistics.median(rows["read+validate"][2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--processes", type=int, default=7, help="whole-process runs of each")
    args = ap.parse_args()
    xg, mat = args.shared / TWIN_XG, args.shared / TWIN_MAT
    if not xg.is_file() or not mat.is_file():
        sys.exit(f"bench/xg.py: the samples are not under {args.shared}")
    _IN_PROCESS[0] = compare("charlot1-charlot2 (.xg, and the .mat GNU Backgammon wrote)",
                             xg.read_bytes(), mat.read_bytes(), args.rounds, args.repeat)
    for path in sorted((args.shared / "corpus2" / "xg").glob("*.xg")):
        if path.name == Path(TWIN_XG).name:
            continue
        data = path.read_bytes()
        try:
            matches = formats.parse_bytes(data, path.name)
        except Exception as exc:   # the synthetic fixtures gamao refuses
            print(f"{path.name}: not read ({type(exc).__name__})")
            continue
        converted = formats.get("mat").write(matches).text.encode("utf-8")
        compare(f"{path.name} (.xg, and gamao's own .mat of it)", data, converted,
                args.rounds, args.repeat)
    whole_processes(xg, mat, args.processes)


if __name__ == "__main__":
    main()
