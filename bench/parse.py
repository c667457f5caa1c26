#!/usr/bin/env python3
"""Benchmark: parse every file of the bulk corpus (no validation).

Prints files/s, lines/s and MB/s for gamao's parser, next to the floor:
reading every file and splitting it into tokens with one regular expression.

    python bench/parse.py [--corpus ../shared/corpus/bulk] [--repeat 3]
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamao_cli.errors import InputError  # noqa: E402
from gamao_cli.formats.mat.reader import _parser, read_matches  # noqa: E402
from gamao_cli.formats.textio import decode_bytes  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "bulk"
FLOOR_TOKEN = re.compile(r"\S+")


def files_of(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "PROVENANCE.tsv")


def run_parse(paths: list[Path]) -> tuple[float, int, int]:
    t = time.perf_counter()
    games = errors = 0
    for p in paths:
        text = decode_bytes(p.read_bytes(), str(p))[0]
        try:
            games += sum(len(m.games) for m in read_matches(text, str(p)))
        except InputError:
            errors += 1
    return time.perf_counter() - t, games, errors


def run_floor(paths: list[Path]) -> float:
    t = time.perf_counter()
    n = 0
    for p in paths:
        n += len(FLOOR_TOKEN.findall(p.read_text(encoding="utf-8", errors="replace")))
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    paths = files_of(a.corpus)
    if not paths:
        sys.exit(f"no files in {a.corpus}")
    size = sum(p.stat().st_size for p in paths)
    lines = sum(p.read_bytes().count(b"\n") for p in paths)
    _parser()  # build the parser once, outside the timing
    parse = [run_parse(paths) for _ in range(a.repeat)]
    floor = [run_floor(paths) for _ in range(a.repeat)]
    t = statistics.median(x[0] for x in parse)
    f = statistics.median(floor)
    print(f"corpus: {a.corpus} ({len(paths)} files, {lines} lines, {size / 1e6:.1f} MB, "
          f"{parse[0][1]} games, {parse[0][2]} not parsed)")
    print(f"gamao parse : {t:7.3f} s  {len(paths) / t:8.0f} files/s  {lines / t:9.0f} lines/s  "
          f"{size / 1e6 / t:6.2f} MB/s   (median of {a.repeat})")
    print(f"floor (read + one regex tokenise): {f:7.3f} s")
    print(f"ratio gamao/floor: {t / f:.1f}x")


if __name__ == "__main__":
    main()
