"""Build the fuzzers' seed folders at run time (nothing is copied into the repo).

    python fuzz/make_seeds.py /tmp/gamao-fuzz

writes ``seeds-mat/`` (the shared corpus's match files, the examples, the
self-play files and the regression inputs of ``tests/regressions/``) and
``seeds-sgf/`` (every ``.sgf`` found in the same places), each cut to
``--max-bytes`` (default 16384) so that libFuzzer starts from inputs it can
mutate quickly. The corpus is found like the tests find it: ``$GAMAO_CORPUS``
or ``../shared/corpus``.
"""
from __future__ import annotations

import argparse
import hashlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sources() -> list[Path]:
    corpus = Path(os.environ.get("GAMAO_CORPUS", ROOT.parent / "shared" / "corpus"))
    out: list[Path] = []
    for folder in (corpus, ROOT / "examples", ROOT / "tests" / "data", ROOT / "tests" / "regressions"):
        if folder.is_dir():
            out.extend(p for p in sorted(folder.rglob("*"))
                       if p.is_file() and p.suffix.lower() in (".mat", ".txt", ".match", ".sgf"))
    # the 1,777 bulk files last: the named producers' files first
    return sorted(out, key=lambda p: "bulk" in p.parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--max-bytes", type=int, default=16384)
    ap.add_argument("--limit", type=int, default=600, help="at most this many seeds per reader")
    args = ap.parse_args()
    counts = {"mat": 0, "sgf": 0}
    for p in sources():
        kind = "sgf" if p.suffix.lower() == ".sgf" or p.read_bytes()[:64].lstrip().startswith(b"(;") else "mat"
        if kind == "mat" and p.suffix.lower() == ".txt" and b"point match" not in p.read_bytes()[:4096].lower():
            continue  # text files that are not match files
        if counts[kind] >= args.limit:
            continue
        data = p.read_bytes()[: args.max_bytes]
        d = args.out / f"seeds-{kind}"
        d.mkdir(parents=True, exist_ok=True)
        (d / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
        counts[kind] += 1
    for kind, n in counts.items():
        (args.out / kind).mkdir(parents=True, exist_ok=True)
        print(f"{args.out / ('seeds-' + kind)}: {n} seeds")


if __name__ == "__main__":
    main()
