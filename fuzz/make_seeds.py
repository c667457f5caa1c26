"""Build the fuzzers' seed folders at run time (nothing is copied into the repo).

    python fuzz/make_seeds.py /tmp/gamao-fuzz

writes ``seeds-mat/`` (the shared corpus's match files, the examples, the
self-play files and the regression inputs of ``tests/regressions/``),
``seeds-sgf/`` (every ``.sgf`` found in the same places, and gamao's SGF
of the match files cut to ``--max-bytes``), each cut to
``--max-bytes`` (default 16384) so that libFuzzer starts from inputs it can
mutate quickly, ``seeds-json/`` (gamao's JSON of the first game of the
match files and SGF files that read, those no longer than ``--max-bytes``:
JSON cut short is only a syntax error), ``seeds-xg/`` (the eXtreme
Gammon files of the shared ``corpus2/xg`` no longer than ``--xg-max-bytes``,
and each readable one repacked small: see :func:`xg_seeds`),
``seeds-gnubg-text/`` (the GNU Backgammon text exports of ``corpus2/gnubg-text``,
:func:`gnubg_text_seeds`) and ``seeds-bgf/`` (the BGBlitz files of
``corpus2/bgf`` made small, :func:`bgf_seeds`). The corpus is
found like the tests find it: ``$GAMAO_CORPUS`` or ``../shared/corpus``;
the XG files in ``$GAMAO_SHARED/corpus2/xg`` or ``../shared/corpus2/xg``.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import struct
import zlib
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


def _keep(data: bytes, folder: Path, max_bytes: int) -> int:
    """Write the seed ``data`` into ``folder`` under its hash (1), unless it
    is longer than ``max_bytes`` (0)."""
    if len(data) > max_bytes:
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
    return 1


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
    return _keep(data, folder, max_bytes)


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
    return _keep(data, folder, max_bytes)


def _xg_file(header: bytes, streams: list[tuple[str, bytes, bool]]) -> bytes:
    """An XG container: ``header`` (its first 8232 bytes, the thumbnail
    dropped) and ``streams`` (name, bytes, stored uncompressed), every size
    and CRC right (the layout of gamao_cli/formats/xg/container.py)."""
    from gamao_cli.formats.xg.container import HEADER_SIZE, REGISTRY_ENTRY_SIZE
    head = bytearray(header[:HEADER_SIZE])
    struct.pack_into("<IIqI", head, 4, 1, HEADER_SIZE, 0, 0)
    body = registry = b""
    for name, content, stored in streams:
        blob = content if stored else zlib.compress(content, 9)
        entry = bytearray(REGISTRY_ENTRY_SIZE)
        entry[0] = len(name)
        entry[1:1 + len(name)] = name.encode("latin-1")
        struct.pack_into("<iiiIBB", entry, 512, len(content), len(blob), len(body),
                         zlib.crc32(content), int(stored), 0 if stored else 9)
        registry += bytes(entry)
        body += blob
    reg = zlib.compress(registry, 9)
    tail = struct.pack("<IiiiiI12x", zlib.crc32(body + reg), len(streams), 1, len(reg),
                       len(body), 1)
    return bytes(head) + body + reg + tail


def xg_seeds(folder: Path, out: Path, max_bytes: int) -> int:
    """The seeds of the XG reader (how many written): each file of
    ``folder`` no longer than ``max_bytes`` as it is, and each file that
    reads repacked without its thumbnail, so that mutations reach the
    records: its game stream cut to the first game (compressed) and to the
    first game's first two decisions (stored, so that a mutation meets the
    records and not zlib), with the other streams of at most 4 KiB packed."""
    import sys
    sys.path.insert(0, str(ROOT))
    from gamao_cli.errors import GamaoError
    from gamao_cli.formats.xg import records as r
    from gamao_cli.formats.xg.reader import read_xg_records
    written = 0

    def keep(data: bytes) -> None:
        nonlocal written
        if len(data) <= max_bytes:
            out.mkdir(parents=True, exist_ok=True)
            (out / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
            written += 1

    for p in sorted(folder.glob("*.xg*")) if folder.is_dir() else []:
        data = p.read_bytes()
        keep(data)
        try:
            box, recs = read_xg_records(data, p.name)
        except GamaoError:
            continue
        game = box.streams["temp.xg"]
        small = [(n, b, False) for n, b in box.streams.items()
                 if n != "temp.xg" and len(zlib.compress(b)) <= 4096]
        end = next((i for i, x in enumerate(recs) if isinstance(x, r.GameEnd)), len(recs) - 1)
        keep(_xg_file(data, [("temp.xg", game[:(end + 1) * r.RECORD_SIZE], False)] + small))
        decisions = [i for i, x in enumerate(recs) if isinstance(x, (r.CubeAction, r.CheckerMove))]
        first = [i for i, x in enumerate(recs[:end + 1])
                 if not isinstance(x, (r.CubeAction, r.CheckerMove)) or i in decisions[:2]]
        short = b"".join(game[i * r.RECORD_SIZE:(i + 1) * r.RECORD_SIZE] for i in first)
        keep(_xg_file(data, [("temp.xg", short, True)] + small))
    return written


def gnubg_text_seeds(folder: Path, out: Path, max_bytes: int, limit: int) -> int:
    """GNU Backgammon text exports (``corpus2/gnubg-text``): each game file
    cut to ``max_bytes`` at a line end (a cut block is a syntax error only
    where it is cut), and the small ones whole."""
    written = 0
    for p in sorted(folder.rglob("*.txt")) if folder.is_dir() else []:
        if "raw" in p.parts or written >= limit:
            continue
        data = p.read_bytes()
        if len(data) > max_bytes:
            data = data[:data.rfind(b"\n", 0, max_bytes) + 1]
        written += _keep(data, out, max_bytes)
    return written


def bgf_seeds(folder: Path, out: Path, max_bytes: int) -> int:
    """BGBlitz files (``corpus2/bgf``) made small enough to mutate: each
    match's first game (its first moves) as the JSON BGBlitz also writes
    (``useSmile`` false), plain and gzip-compressed, and the Smile bytes of
    the whole file cut short (the decoder's tokens, uncompressed)."""
    import gzip
    import json
    import sys
    sys.path.insert(0, str(ROOT))
    from gamao_cli.formats.bgf.reader import load
    written = 0
    for p in sorted(folder.glob("*.bgf")) if folder.is_dir() else []:
        data = p.read_bytes()
        try:
            record = load(data, p.name)
        except Exception:
            continue
        games = record.get("games") or []
        for n in (4, 12, 40):
            small = dict(record, games=[dict(g, moves=g.get("moves", [])[:n]) for g in games[:1]])
            for g in small["games"]:
                for mv in g["moves"]:
                    if isinstance(mv.get("moveAnalysis"), list):
                        mv["moveAnalysis"] = mv["moveAnalysis"][:2]
            body = json.dumps(small, separators=(",", ":")).encode()
            written += _keep(b'{"format":"BGF","version":"1.0","compress":false,"useSmile":false}\n'
                             + body, out, max_bytes)
            written += _keep(b'{"format":"BGF","version":"1.0","compress":true,"useSmile":false}\n'
                             + gzip.compress(body, mtime=0), out, max_bytes)
        nl = data.index(b"\n") + 1
        smile = gzip.decompress(data[nl:])
        written += _keep(b'{"format":"BGF","version":"1.0","compress":false,"useSmile":true}\n'
                         + smile[:max_bytes - 80], out, max_bytes)
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--max-bytes", type=int, default=16384)
    ap.add_argument("--limit", type=int, default=600, help="at most this many seeds per reader")
    ap.add_argument("--xg-max-bytes", type=int, default=32768,
                    help="XG seeds no longer than this (an XG header alone takes 8232 bytes)")
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
    shared = Path(os.environ.get("GAMAO_SHARED", ROOT.parent / "shared"))
    counts["xg"] = xg_seeds(shared / "corpus2" / "xg", args.out / "seeds-xg", args.xg_max_bytes)
    counts["gnubg-text"] = gnubg_text_seeds(shared / "corpus2" / "gnubg-text",
                                            args.out / "seeds-gnubg-text", args.max_bytes,
                                            args.limit)
    counts["bgf"] = bgf_seeds(shared / "corpus2" / "bgf", args.out / "seeds-bgf",
                              args.xg_max_bytes)
    for kind, n in counts.items():
        (args.out / kind).mkdir(parents=True, exist_ok=True)
        print(f"{args.out / ('seeds-' + kind)}: {n} seeds")


if __name__ == "__main__":
    main()
