"""gamao's figures of the GNU Backgammon text exports against each file's
own "Game statistics" block (gnubg's figures, kept as the record's stated
figures and never read into gamao's).

The export prints every equity with 3 decimals, so gamao's totals, summed
from those, can differ from gnubg's (summed at full precision) by a few
thousandths: on the 52 game files the largest difference is 0.003 (a
total) and 0.4 (a rate in mEMG). Every count equals gnubg's exactly, but
the skill marks: gnubg marks a play in match play on its own measure of the
error, not on the EMG loss the figures rate (a 0.039 loss marked doubtful,
a 0.065 one bad); the marks the export states (its "Alert" lines, kept as
the decisions' marks) equal the block's counts on every file.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from gamao_cli.analysis.decisions import decisions_of
from gamao_cli.analysis.figures import match_figures
from gamao_cli.formats.gnubg_text import read_files
from gamao_cli.formats.gnubg_text.reader import read_game

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
TEXT_DIR = SHARED / "corpus2" / "gnubg-text"


def _matches() -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for folder in sorted(TEXT_DIR.glob("analysed-*")) if TEXT_DIR.is_dir() else []:
        for f in sorted(folder.glob("*.txt")):
            base = re.sub(r"(_\d{3})?\.txt$", "", f.name)
            out.setdefault(f"{folder.name}/{base}", []).append(f)
    return out


MATCHES = _matches()
CHECKER, CUBE, OVERALL = "Chequerplay statistics", "Cube statistics", "Overall statistics"
#: gnubg's row -> (section of Figures.stats(), figure, kind: n count, t total, r rate)
ROWS = {
    (CHECKER, "Total moves"): ("checker", "moves", "n"),
    (CHECKER, "Unforced moves"): ("checker", "unforced_moves", "n"),
    (CHECKER, "Error total EMG (MWC)"): ("checker", "error_total", "t"),
    (CHECKER, "Error rate mEMG (MWC)"): ("checker", "error_rate", "r"),
    (CUBE, "Total cube decisions"): ("cube", "cube_decisions", "n"),
    (CUBE, "Close or actual cube decisions"): ("cube", "close_cube_decisions", "n"),
    (CUBE, "Doubles"): ("cube", "doubles", "n"),
    (CUBE, "Takes"): ("cube", "takes", "n"),
    (CUBE, "Passes"): ("cube", "passes", "n"),
    (CUBE, "Error total EMG (MWC)"): ("cube", "error_total", "t"),
    (CUBE, "Error rate mEMG (MWC)"): ("cube", "error_rate", "r"),
    (OVERALL, "Error total EMG (MWC)"): ("overall", "error_total", "t"),
    (OVERALL, "Error rate mEMG (MWC)"): ("overall", "error_rate", "r"),
    **{(CUBE, f"{k} (EMG (MWC))"): ("cube", k.lower().replace(" ", "_"), "n") for k in (
        "Missed doubles below CP", "Missed doubles above CP", "Wrong doubles below DP",
        "Wrong doubles above TG", "Wrong takes", "Wrong passes")},
}
#: what the export's 3 decimals allow (see the module docstring)
TOLERANCE = {"n": 0, "t": 0.004, "r": 0.5}
MARKS = {"doubtful": "Moves marked doubtful", "bad": "Moves marked bad",
         "very bad": "Moves marked very bad"}


def _first_number(cell: str) -> float:
    return float(cell.split()[0].strip("("))


@pytest.mark.skipif(not MATCHES, reason=f"the gnubg text exports are not at {TEXT_DIR}")
@pytest.mark.parametrize("name", sorted(MATCHES))
def test_each_game_s_figures_equal_its_game_statistics(name):
    match = read_files([str(f) for f in MATCHES[name]])
    figures = match_figures(match)
    wrong = []
    checked = 0
    for game, game_figures in zip(match.games, figures.games):
        stated = read_game(Path(game.path).read_text(encoding="utf-8"), game.path).statistics
        ours = game_figures.stats()
        for (section, row), (ours_section, figure, kind) in ROWS.items():
            cells = stated[section][row]
            for i in (0, 1):
                checked += 1
                theirs, mine = _first_number(cells[i]), ours[ours_section][figure][i]
                if abs(theirs - mine) > TOLERANCE[kind] + 1e-9:
                    wrong.append((game.number, row, i, theirs, mine))
        # the marks the export states, against the block's counts
        marks = {k: [0, 0] for k in MARKS}
        for a in game.actions:
            d = decisions_of(a)
            if d is not None and d.checker is not None and d.checker.mark:
                marks[d.checker.mark][a.player] += 1
        for mark, row in MARKS.items():
            assert [int(c) for c in stated[CHECKER][row]] == marks[mark], (game.number, row)
    assert checked and wrong == []
