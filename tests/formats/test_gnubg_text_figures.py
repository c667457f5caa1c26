"""gamao's figures of the GNU Backgammon text exports against each file's
own "Game statistics" block (gnubg's figures, kept as the record's stated
figures and never read into gamao's), on every game of
``corpus2/gnubg-text/analysed-*``.

Counts equal gnubg's exactly, the skill marks too: gamao counts the marks
the export states (its "Alert" lines; no alert, no mark), which gnubg decided
on its unrounded equities. Marks by the rounded losses differ on 4 plays,
each printed exactly at a threshold (a loss of 0.030 or 0.060, on one side
or the other of gnubg's 0.03 and 0.06).

Totals cannot be held to 0.001, by the export's rounding, and the test
shows why: every equity and every difference is printed with 3 decimals.
gamao takes each error from the difference the export prints beside a play
or a cube action (gnubg's difference of its unrounded equities, rounded
once: within 0.0005 of gnubg's, where the difference of two rounded
equities is within 0.001), so a total of k nonzero errors is known only
within k * 0.0005, and gnubg's stated total is itself rounded (0.0005
more). Every gap is within that bound (asserted), the gaps have no bias
(mean below 0.0001 over the 104 player-games), and the largest is 0.002
(before gamao read the printed differences: 0.003): the bound this test
holds, :data:`TOTAL_BOUND`. A rate is a total over a count (gnubg prints it
with 1 decimal), so its gap is the total's gap times 1000 / count: every
rate's gap is within that (asserted); on a game with 2 close cube
decisions 0.0005 is already 0.25 mEMG, past 0.1.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

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
#: the largest gap of a total (EMG) the export's 3 decimals left (module docstring)
TOTAL_BOUND = 0.002
#: half a unit of the export's last decimal
HALF = 0.0005
MARKS = {"doubtful": "Moves marked doubtful", "bad": "Moves marked bad",
         "very bad": "Moves marked very bad"}
ROWS.update({(CHECKER, row): ("checker", k.replace(" ", "_"), "n") for k, row in MARKS.items()})
ROWS[(CHECKER, "Unmarked moves")] = ("checker", "unmarked", "n")
ROWS[(OVERALL, "Snowie error rate")] = ("overall", "snowie_error_rate", "r")
#: a rate's row -> its total's row and the count it is divided by
RATES = {
    (CHECKER, "Error rate mEMG (MWC)"): ((CHECKER, "Error total EMG (MWC)"), "unforced"),
    (CUBE, "Error rate mEMG (MWC)"): ((CUBE, "Error total EMG (MWC)"), "close"),
    (OVERALL, "Error rate mEMG (MWC)"): ((OVERALL, "Error total EMG (MWC)"), "both"),
    (OVERALL, "Snowie error rate"): ((OVERALL, "Error total EMG (MWC)"), "moves"),
}


def _first_number(cell: str) -> float:
    return float(cell.split()[0].strip("("))


def _nonzero_errors(figures, section: str, i: int) -> int:
    """How many nonzero errors of player ``i`` a total of ``section`` adds."""
    n = 0
    for errors in figures.errors.values():
        for e in errors:
            if e.player != i or e.forced or not e.error:
                continue
            if section == "overall" or (section == "checker") == (e.kind == "checker"):
                n += 1
    return n


def _divisor(ours: dict, which: str, i: int) -> int:
    c = ours["checker"]["unforced_moves"][i]
    k = ours["cube"]["close_cube_decisions"][i]
    return {"unforced": c, "close": k, "both": c + k,
            "moves": sum(ours["checker"]["moves"])}[which]


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
                gap = abs(theirs - mine)
                if kind == "n":
                    ok = gap == 0
                elif kind == "t":
                    k = _nonzero_errors(game_figures, ours_section, i)
                    ok = gap <= min(TOTAL_BOUND, HALF * (k + 1)) + 1e-9
                else:
                    (tsec, trow), which = RATES[(section, row)]
                    total_gap = abs(_first_number(stated[tsec][trow][i])
                                    - ours[ROWS[(tsec, trow)][0]]["error_total"][i])
                    n = _divisor(ours, which, i)
                    # the total's gap and the stated total's rounding, per
                    # decision, and the rate's own last decimal
                    ok = gap <= (1000 * (total_gap + HALF) / n if n else 0) + 0.05 + 1e-9
                if not ok:
                    wrong.append((game.number, row, i, theirs, mine))
    assert checked and wrong == []


def test_the_stated_marks_are_counted_not_the_rounded_loss_s():
    """gnubg marks a play on its unrounded loss; where the record states
    every mark, the figures count the marks, else marks by the loss."""
    from gamao_cli import model as m
    from gamao_cli.analysis.decisions import Analysis, Candidate, CheckerDecision
    cands = (Candidate("24/18 13/11", 0.988), Candidate("24/16", 0.957))

    def checker_stats(mark, stated):
        play = m.Play(0, (6, 2), m.parse_steps("24/16"))
        play.analysis = {"decisions": Analysis("GNU Backgammon", checker=CheckerDecision(
            0, (6, 2), cands, 1, False, mark=mark, marks_stated=stated)).to_json()}
        return match_figures(m.Match(7, [m.Game(1, None, [play])])).stats()["checker"]

    unmarked = checker_stats(None, True)
    assert (unmarked["doubtful"], unmarked["unmarked"]) == ([0, 0], [1, 0])
    assert checker_stats("bad", True)["bad"] == [1, 0]
    by_loss = checker_stats(None, False)    # a 0.031 loss, over gnubg's 0.03
    assert (by_loss["doubtful"], by_loss["unmarked"]) == ([1, 0], [0, 0])


@pytest.mark.skipif(not MATCHES, reason=f"the gnubg text exports are not at {TEXT_DIR}")
@pytest.mark.parametrize("name", sorted(MATCHES)[:2])
def test_gamao_s_json_keeps_every_figure(name, tmp_path):
    from gamao_cli import formats
    match = read_files([str(f) for f in MATCHES[name]])
    out = tmp_path / "back.json"
    out.write_text(formats.get("json").write([match]).text, encoding="utf-8")
    [back] = formats.read_path(str(out))
    assert match_figures(back).stats() == match_figures(match).stats()
