"""Two producers' quirks found in real analysed records
(``../shared/corpus2/analysed``), read as infos, never errors:

- GM126: a play written as the checkers' net movement, in steps that do not
  work in the order written, whose result only a legal play gives
  (Backgammon Studio's ``6/1 1/off`` with 5-2 and a checker on the 4, kept by
  GNU Backgammon in its SGF): read as that legal play;
- GM417: a money session under the Jacoby rule whose score lines count the
  gammons in full while its results count them single.

The records are in ``tests/data/quirks``; GNU Backgammon (Debian's, where
installed) reads them to the same positions and points.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conftest import needs_corpus
from gamao_cli.formats import parse_text, read_path
from gamao_cli.replay.replay import validate_match

DATA = Path(__file__).resolve().parent / "data" / "quirks"
NET = DATA / "net-movement.sgf"
MONEY = DATA / "money-full-score.sgf"
ANALYSED = Path(__file__).resolve().parents[1].parent / "shared" / "corpus2" / "analysed"
GNUBG = Path(os.environ.get("GNUBG", "/usr/games/gnubg"))


def _report(text: str):
    [match] = parse_text(text, "t.sgf")
    return validate_match(match)


def _codes(report, severity=None):
    return [d.code for d in report.diagnostics if severity is None or d.severity == severity]


# -- GM126: the net movement of a legal play -------------------------------

def test_a_net_movement_that_only_a_legal_play_gives_is_read_as_that_play():
    report = validate_match(read_path(str(NET))[0])
    assert _codes(report, "error") == [] and _codes(report, "warning") == []
    [d] = [d for d in report.diagnostics if d.code == "GM126"]
    assert (d.line, d.column, d.dice, d.play) == (3, 8, "52", "6/1 1/0")
    assert d.fields["legal"] == "6/4 4/off"
    assert "6/4 4/off" in d.message and "higher point 4" in d.message
    # the replay goes on from the legal play's position: Bob's 4 and 1
    # bear off with his next 4-1 and he wins the 1-point match
    assert [(g.winner, g.points) for g in report.games] == [(1, 1)]
    assert report.winner == 1


def test_a_play_whose_result_no_legal_play_gives_stays_an_error():
    # 6/1 4/off with 5-2: the 4 cannot bear off with a 2, and no legal play
    # leaves two checkers on the 1 point
    text = NET.read_text(encoding="utf-8").replace("B[52sxxz]", "B[52sxuz]")
    report = _report(text)
    assert "GM126" not in _codes(report)
    d = next(d for d in report.diagnostics if d.severity == "error")
    assert (d.line, d.play) == (3, "6/1 4/0") and "6/4 4/off" in d.legal


# -- GM417: a money session's score lines counted without the Jacoby rule --

def test_score_lines_that_count_gammons_in_full_are_one_info_not_errors():
    report = validate_match(read_path(str(MONEY))[0])
    assert _codes(report, "error") == [] and _codes(report, "warning") == []
    [d] = [d for d in report.diagnostics if d.code == "GM417"]
    assert d.game == 2 and d.line == 4       # said once, at the first such line
    assert (d.fields["stated1"], d.fields["running1"]) == (2, 1)
    # the results keep the Jacoby rule: two gammons with the cube not turned
    assert [(g.winner, g.points) for g in report.games[:2]] == [(1, 1), (1, 1)]
    assert report.final_score == (0, 2)


@pytest.mark.parametrize("change", [
    ("[bs:4]", "[bs:5]"),                    # counted neither way
    ("MI[length:0][game:1][ws:0][bs:2]", "MI[length:0][game:1][ws:0][bs:0]"),
])
def test_a_score_line_that_no_count_gives_is_still_wrong(change):
    report = _report(MONEY.read_text(encoding="utf-8").replace(*change))
    assert "GM402" in _codes(report, "error")


def test_in_a_match_a_gammon_is_never_single_so_the_info_is_for_money_only():
    text = MONEY.read_text(encoding="utf-8").replace("length:0", "length:9")
    report = _report(text)
    assert "GM417" not in _codes(report)
    assert "GM402" in _codes(report, "error")


@needs_corpus
def test_the_real_records_with_these_quirks_read_with_no_error():
    files = [p for p in sorted(ANALYSED.glob("*.sgf"))
             if "raccoon" in p.name or "michy - Snua" in p.name or "Schiemann - Ciuffo" in p.name]
    if len(files) != 3:
        pytest.skip(f"the three records are not in {ANALYSED}")
    seen = set()
    for path in files:
        for match in read_path(str(path)):
            report = validate_match(match)
            assert _codes(report, "error") == [] and _codes(report, "warning") == [], path.name
            seen.update(_codes(report, "info"))
    assert {"GM126", "GM417"} <= seen


# -- against GNU Backgammon ------------------------------------------------

@pytest.mark.gnubg
@pytest.mark.skipif(not GNUBG.exists(), reason=f"needs Debian's GNU Backgammon at {GNUBG} "
                                               "(apt-get install gnubg)")
def test_gnubg_reads_both_records_to_the_same_positions_and_points(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_sgf_gnubg import gnubg_view, our_view, run_gnubg

    dumped = run_gnubg([NET, MONEY], tmp_path)
    for path in (NET, MONEY):
        ours = our_view(read_path(str(path))[0])
        theirs = gnubg_view(dumped[str(path)])
        # the position before every play (after the net movement: Bob's 4
        # and 1 left), winners, points
        assert [g["boards"] for g in ours["games"]] == [g["boards"] for g in theirs["games"]]
        assert [(g["winner"], g["points"]) for g in ours["games"]] == \
            [(g["winner"], g["points"]) for g in theirs["games"]]
    # gnubg counts the money games single too; it takes the score lines as
    # they stand (game 2 starts at the stated 0-2, not its own 0-1)
    assert [g["score"] for g in dumped[str(MONEY)]["games"]] == [[0, 0], [0, 2], [0, 4]]
