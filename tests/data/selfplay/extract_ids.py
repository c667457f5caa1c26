#!/usr/bin/env python3
"""Keep, from GNU Backgammon's text exports (``export match text``), only what
the ID tests need: for every "Move number" entry, the Position ID and Match
ID gnubg printed before it. One file per match, a line per entry:

    game <TAB> move <TAB> who and what <TAB> Position ID <TAB> Match ID

Usage: extract_ids.py TXT_DIR OUT_DIR mNNNN [mNNNN ...]
(gnubg writes game 1 as mNNNN.txt, game k as mNNNN_00k.txt.)
"""
import re
import sys
from pathlib import Path

ENTRY = re.compile(r"^Move number (\d+):\s+(.*?)\s*$")
POS = re.compile(r"Position ID: (\S+)")
MID = re.compile(r"Match ID\s*: (\S+)")


def games(txt_dir: Path, name: str):
    first = txt_dir / f"{name}.txt"
    if first.exists():
        yield 1, first
    k = 2
    while (txt_dir / f"{name}_{k:03d}.txt").exists():
        yield k, txt_dir / f"{name}_{k:03d}.txt"
        k += 1


def main() -> None:
    txt_dir, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in sys.argv[3:]:
        rows = []
        for game, path in games(txt_dir, name):
            entry = None
            pos = None
            for line in path.read_text(encoding="utf-8").splitlines():
                em = ENTRY.match(line)
                if em:
                    entry, pos = em.groups(), None
                    continue
                pm = POS.search(line)
                if pm and entry:
                    pos = pm.group(1)
                    continue
                mm = MID.search(line)
                if mm and entry and pos:
                    rows.append(f"{game}\t{entry[0]}\t{entry[1]}\t{pos}\t{mm.group(1)}")
                    entry = pos = None
        (out_dir / f"{name}.ids").write_text("\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
