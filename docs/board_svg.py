"""Draw docs/board.svg, the README's picture of a board, from an example.

    python docs/board_svg.py

The position: game 1 of examples/consolidated-notation-5pt.mat, before Ana
Sousa's move 4 (``63: bar/22``): she is on the bar after Bruno Lima's
``44: bar/17* 6/2* 6/2`` (the arrows, with its two hits ringed), and rolls
6-3; the same picture as ``gamao position
examples/consolidated-notation-5pt.mat --game 1 --move 4 --format svg``.
Tests check that the file is what this script and that command draw.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "examples" / "consolidated-notation-5pt.mat"
GAME, MOVE = 1, 4


def drawing() -> str:
    from gamao_cli.formats import read_path
    from gamao_cli.replay.snapshots import find_snapshot, last_play
    from gamao_cli.render.svg import board
    from gamao_cli.replay.replay import validate_match

    [match] = read_path(str(RECORD))
    snap = find_snapshot(match, GAME, MOVE)
    # the play that led here (as gamao position --format svg draws it)
    steps, player = last_play(validate_match(match, keep_records=True), snap.action)
    return board(snap, size=640, bottom=snap.state.on_roll, names=match.players,
                 last_play=steps, last_player=player) + "\n"


if __name__ == "__main__":
    out = ROOT / "docs" / "board.svg"
    out.write_text(drawing(), encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}")
