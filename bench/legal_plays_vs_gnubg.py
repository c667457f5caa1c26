#!/usr/bin/env python3
"""Compare ``board.legal_plays`` with GNU Backgammon on N random positions.

    PYTHONPATH=. python bench/legal_plays_vs_gnubg.py [-n 100000] [--seed 1] [--all-rolls]

Positions come from random playouts of every variant (see
``tests/test_legal_plays_gnubg.py``, whose comparison this reuses). Each
position gets one random roll (``--all-rolls``: all 21). Prints positions per
second for our ``legal_plays`` (which keeps nothing: every call computes) and for
gnubg's ``findbestmoves`` (which also evaluates each move at 0-ply), the
speed of ``resolve_play`` + ``play_is_legal`` on one legal play per position,
and the number of differences. Exits 1 when there is a difference, 2 when
gnubg is missing.
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--positions", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all-rolls", action="store_true", help="compare all 21 rolls per position")
    ap.add_argument("--chunk", type=int, default=500, help="positions per timing chunk")
    ap.add_argument("--show", type=int, default=5, help="differences to print")
    args = ap.parse_args(argv)

    try:
        import gnubg  # noqa: F401
    except ImportError:
        print("gnubg is not installed: pip install gnubg", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    import test_legal_plays_gnubg as cmp  # the comparison, shared with the test

    from gamao_cli import rules as board

    t0 = time.perf_counter()
    positions = cmp.random_positions(args.positions, seed=args.seed)
    t_gen = time.perf_counter() - t0
    print(f"generated {len(positions):,} positions in {t_gen:.1f} s: {cmp.describe_sample(positions)}")
    # The sample itself is long-lived: keep the cyclic garbage collector from
    # rescanning it, so that timings measure the move generators, not the heap.
    gc.collect()
    gc.freeze()

    rng = random.Random(args.seed + 1)
    t_ours = t_gnubg = t_resolve = 0.0
    calls = differences = plays_total = validated = 0
    for start in range(0, len(positions), args.chunk):
        chunk = positions[start : start + args.chunk]
        if args.all_rolls:
            jobs = [(p, d1, d2) for p in chunk for d1, d2 in cmp.ROLLS]
        else:
            jobs = [(p, rng.randint(1, 6), rng.randint(1, 6)) for p in chunk]
        t0 = time.perf_counter()
        ours = [board.legal_plays(p, d1, d2) for p, d1, d2 in jobs]
        t_ours += time.perf_counter() - t0
        t0 = time.perf_counter()
        theirs = [cmp.gnubg_moves(p, d1, d2) for p, d1, d2 in jobs]
        t_gnubg += time.perf_counter() - t0
        calls += len(jobs)
        for (p, d1, d2), o, g in zip(jobs, ours, theirs):
            plays_total += len(o)
            diff = cmp.compare(p, d1, d2, ours=o, theirs=g)
            if diff:
                differences += 1
                if differences <= args.show:
                    print("DIFFERENCE:", diff)
        # validation speed: one random legal play per job, written as single steps
        written = []
        for (p, d1, d2), o in zip(jobs, ours):
            steps = rng.choice(list(o.values()))
            written.append((p, [(s, d) for s, d, _ in steps], d1, d2))
        t0 = time.perf_counter()
        ok = 0
        for p, moves, d1, d2 in written:
            ok += board.play_is_legal(p, d1, d2, board.resolve_play(p, moves, d1, d2))
        t_resolve += time.perf_counter() - t0
        validated += len(written)
        if ok != len(written):
            differences += len(written) - ok
            print(f"DIFFERENCE: {len(written) - ok} legal plays were not validated")

    unit = "position-rolls" if args.all_rolls else "positions"
    print(f"compared {calls:,} {unit} ({plays_total:,} legal plays)")
    print(f"ours  legal_plays : {calls / t_ours:10,.0f} {unit}/s ({t_ours:.1f} s)")
    print(f"gnubg findbestmoves: {calls / t_gnubg:10,.0f} {unit}/s ({t_gnubg:.1f} s)")
    print(f"ours  resolve_play + play_is_legal: {validated / t_resolve:,.0f} plays/s")
    print(f"differences: {differences}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
