#!/usr/bin/env python3
"""Benchmark: reading eXtreme Gammon files against reading the same match as
a match file.

The sample ``charlot1-charlot2`` exists as XG's ``.xg`` and as the ``.mat``
GNU Backgammon wrote of it: both are read (and, separately, read and
validated) in the same rounds, alternately, and the figures are medians
over the rounds, with the ratio of each round. Every other ``.xg`` sample is
timed too, next to its own conversion to ``.mat``.

    python bench/xg.py [--shared ../shared] [--rounds 7] [--repeat 20]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamao_cli import formats  # noqa: E402
from gamao_cli.replay.replay import validate_match  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared"
TWIN_XG = "corpus2/xg/kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
TWIN_MAT = "corpus/kevung__gnubgparser/test__charlot1-charlot2_7p_2025-11-08-2305.mat"


def timed(work, repeat: int) -> float:
    t = time.perf_counter()
    for _ in range(repeat):
        work()
    return (time.perf_counter() - t) / repeat


def compare(label: str, xg: bytes, mat: bytes, rounds: int, repeat: int) -> None:
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
              f"({'holds' if statistics.median(ratios) <= 1.0 else 'MISSED'}: .xg costs no "
              "more than .mat)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    xg, mat = args.shared / TWIN_XG, args.shared / TWIN_MAT
    if not xg.is_file() or not mat.is_file():
        sys.exit(f"bench/xg.py: the samples are not under {args.shared}")
    compare("charlot1-charlot2 (.xg, and the .mat GNU Backgammon wrote)", xg.read_bytes(),
            mat.read_bytes(), args.rounds, args.repeat)
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


if __name__ == "__main__":
    main()
