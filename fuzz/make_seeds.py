"""Build the fuzzers' seed folders at run time (nothing is copied into the repo).

    python fuzz/make_seeds.py /tmp/gamao-fuzz

writes ``seeds-mat/`` (the shared corpus's match files, the examples, the
self-play files and the regression inputs of ``tests/regressions/``),
``seeds-sgf/`` (every ``.sgf`` found in the same places, and gamao's SGF
of the match files cut to ``--max-bytes``), each cut to
``--max-bytes`` (default 16384) so that libFuzzer starts from inputs it can
mutate quickly, and ``seeds-json/`` (gamao's JSON of the first game of the
match files and SGF files that read, those no longer than ``--max-bytes``:
JSON cut short is only a syntax error). The corpus is found like the tests
find it: ``$GAMAO_CORPUS`` or ``../shared/corpus``.
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


def _sgf_seed(path: Path, folder: Path, max_bytes: int) -> int:
    """gamao's SGF of a match file cut to ``max_bytes`` (1 if written): the
    corpus holds few SGF files, so the SGF reader starts from these too."""
    import sys
    sys.path.insert(0, str(ROOT))
    from gamao_cli import convert, formats
    from gamao_cli.errors import GamaoError
    try:
        data = convert(formats.parse_bytes(path.read_bytes()[:max_bytes], path.name),
                       "sgf").text.encode("utf-8")
    except (GamaoError, ValueError):
        return 0
    if len(data) > max_bytes:
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
    return 1


def _json_seed(path: Path, folder: Path, max_bytes: int) -> int:
    """gamao's JSON of the first game of each match of ``path`` (1 if written)."""
    import sys
    sys.path.insert(0, str(ROOT))
    from gamao_cli import convert, formats
    from gamao_cli.errors import GamaoError
    try:
        matches = formats.read_path(str(path))
        for mt in matches:
            mt.games = mt.games[:1]
        data = convert(matches[:1], "json").text.encode("utf-8")
    except (GamaoError, ValueError):
        return 0
    if len(data) > max_bytes:
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
    return 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--max-bytes", type=int, default=16384)
    ap.add_argument("--limit", type=int, default=600, help="at most this many seeds per reader")
    args = ap.parse_args()
    counts = {"mat": 0, "sgf": 0, "json": 0}
    for p in sources():
        if counts["json"] < args.limit:
            counts["json"] += _json_seed(p, args.out / "seeds-json", args.max_bytes)
        kind = "sgf" if p.suffix.lower() == ".sgf" or p.read_bytes()[:64].lstrip().startswith(b"(;") else "mat"
        if kind == "mat" and p.suffix.lower() == ".txt" and b"point match" not in p.read_bytes()[:4096].lower():
            continue  # text files that are not match files
        if counts[kind] >= args.limit:
            continue
        if kind == "mat" and counts["sgf"] < args.limit:
            counts["sgf"] += _sgf_seed(p, args.out / "seeds-sgf", args.max_bytes)
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
