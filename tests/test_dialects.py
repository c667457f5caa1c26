"""Real dialects of the match file (issue 13), each with a small example of
our own making (no corpus file is copied here): resignations written
``Concedes``, turns with no dice, records that start in the middle of a
match or leave games out, Snowie's ``Illegal play (...)`` cells that set the
board, forced plays a record leaves out, a record that stops after a roll.
Then the shared ``corpus2/real`` folder: every file reads, with no error or
warning, and round-trips; and its final scores against GNU Backgammon's."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CORPUS, ROOT, corpus_match_files, needs_corpus, read
from gamao_cli import model as m
from gamao_cli.cli import main as cli
from gamao_cli.formats import parse_text as load_text
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.formats.mat.writer import write_matches
from gamao_cli.model.notation import format_steps
from gamao_cli.replay.replay import RESOLVER, validate_match
from gamao_cli.rules import Position, start_position
from gamao_cli.rules.steps import apply_steps_as_written
from gamao_cli.tables.summary import summarise, table

CORPUS2 = Path(os.environ.get("GAMAO_CORPUS2", ROOT.parent / "shared" / "corpus2")) / "real"
needs_corpus2 = pytest.mark.skipif(
    not CORPUS2.is_dir(),
    reason=f"the shared corpus2/real folder is not at {CORPUS2} (set GAMAO_CORPUS2 to the "
           "folder that holds real/)")

HEAD = " {length} point match\n\n"


def game(number: int, score: tuple[int, int], lines: str) -> str:
    return (f" Game {number}\n Ann : {score[0]}                        Bob : {score[1]}\n"
            + lines + "\n")


def report_of(text: str):
    [match] = read_matches(text, "ex.mat")
    return match, validate_match(match)


def codes(report, *severities: str) -> list[str]:
    return [d.code for d in report.diagnostics if d.severity in severities]


def keys(report) -> list[str]:
    return [d.key for d in report.diagnostics]


def round_trips(text: str) -> None:
    """The match reads back the same from the match-file writer, and its
    canonical match file is the same after SGF and after JSON."""
    from gamao_cli import convert
    matches = read_matches(text, "ex.mat")
    assert read_matches(write_matches(matches)) == matches
    canonical = convert(matches, "mat").text
    for fmt in ("sgf", "json"):
        back = load_text(convert(matches, fmt).text, f"x.{fmt}")
        assert convert(back, "mat").text == canonical, fmt


# -- Concedes and turns without dice ---------------------------------------------

CONCEDES = HEAD.format(length=5) + game(1, (0, 0), (
    "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
    "  2)  Concedes                   Wins 1 point\n")) + game(2, (0, 1), (
    "  1) 42: 8/4 6/4                 61: 13/7 8/7\n"
    "  2) 62: Concedes                Wins 2 points\n")) + game(3, (0, 3), (
    "  1)                             31: 8/5 6/5\n"
    "  2) 00: ????\n"
    "  3)                              Wins 1 point\n")) + game(4, (0, 4), (
    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    "  2) ????                         Wins 1 point and the match\n"))


def test_concedes_cells_and_turns_without_dice_are_resignations():
    match, report = report_of(CONCEDES)
    assert codes(report, "error", "warning") == []
    # each game resigned by Ann, for the points its Wins line states
    assert [(g.winner, g.points, g.ended.value) for g in report.games] == [
        (1, 1, "resign"), (1, 2, "resign"), (1, 1, "resign"), (1, 1, "resign")]
    assert report.final_score == (0, 5) and report.winner == 1
    # the two turns without dice are interpretations, and say so
    assert [(d.key, d.line) for d in report.diagnostics] == [("GM111", 16), ("GM111.no-dice", 22)]
    [g1, g2, g3, g4] = match.games
    assert isinstance(g1.actions[2], m.Resign) and g1.actions[2].word == "Concedes"
    assert isinstance(g2.actions[2], m.UnplayedRoll) and g2.actions[2].dice == (6, 2)
    assert g3.actions[1].dice == (0, 0)
    assert isinstance(g4.actions[2], m.Resign) and g4.actions[2].word == "????"


def test_concedes_spellings_round_trip():
    round_trips(CONCEDES)


def test_a_win_for_the_player_who_conceded_is_an_error():
    text = HEAD.format(length=5) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        "  2) 62: Concedes\n"
        "      Wins 1 point\n"))
    _match, report = report_of(text)
    assert "GM406.resigned" in keys(report)


def test_a_conceded_roll_is_a_resignation_not_a_loss_on_time():
    """After "????" an impossible Wins is a loss on time (Backgammon Studio's
    clocks); after "Concedes" the record says it was resigned, so it stays
    an error."""
    base = HEAD.format(length=5) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        "  2) 62: {cell}\n"
        "                                  Wins 1004 points\n"))
    _m, unknown = report_of(base.format(cell="????"))
    _m, conceded = report_of(base.format(cell="Concedes"))
    assert unknown.games[0].ended.value == "time" and "GM409" in codes(unknown, "info")
    assert codes(unknown, "error") == []
    assert conceded.games[0].ended.value == "resign" and codes(conceded, "error") == ["GM405"]


def test_impossible_wins_stay_errors():
    text = HEAD.format(length=7) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        "  2)  Concedes                   Wins 100 points\n"))
    _m, report = report_of(text)
    assert codes(report, "error") == ["GM405"]


# -- other producers' spellings (choue.net, OpenGammon, Foxamon) -------------------------

def test_other_resignation_spellings_and_a_double_arrow():
    text = HEAD.format(length=5) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        "  2)  Doubles ==> 2              Takes\n"
        "  3)  Resign gammon              Wins 4 points\n")) + game(2, (0, 4), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        "  2)                             Resigned Game\n"
        "                                  Wins 1 point and the match\n"))
    match, report = report_of(text)
    assert codes(report, "error", "warning") == []
    assert match.games[0].actions[2].value == 2
    assert [a.word for g in match.games for a in g.actions if isinstance(a, m.Resign)] == [
        "Resign gammon", "Resigned Game"]
    # "Resigned Game" stands in the winner's column: no GM406.resigned
    assert [(g.winner, g.points) for g in report.games] == [(1, 4), (1, 1)]
    round_trips(text)


def test_a_zero_zero_step_is_a_die_with_nothing_left_to_move():
    """``21: 2/off 0/0``: the last checker is off with the 2; the 1 has no
    checker to move. Read as nothing, with an info (as a step from off it
    would be GM108)."""
    bear = snowie(Position.from_points({2: 1, 0: 14}, {24: 2, 0: 13}), 0)
    text = HEAD.format(length=5) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        f"  2) 11: Illegal play ({bear})\n"
        "  3)                             21: 24/22 22/21\n"
        "  4) 21: 2/off 0/0\n"
        "      Wins 1 point\n"))
    _m, report = report_of(text)
    assert codes(report, "error") == []
    [d] = [d for d in report.diagnostics if d.code == "GM112"]
    assert d.severity == "info" and d.line == 8
    assert report.games[0].ended.value == "single"


# -- records that start in the middle of a match ---------------------------------

MID_MATCH = HEAD.format(length=7) + game(1, (4, 3), (
    "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
    "  2)  Doubles => 2                Drops\n"
    "      Wins 1 point\n")) + game(2, (5, 3), (
    "  1) 42: 8/4 6/4                 61: 13/7 8/7\n"
    "  2)  Concedes                    Wins 2 points\n")) + game(3, (5, 5), (
    "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
    "  2)  Concedes                    Wins 2 points and the match\n"))


def test_a_record_that_starts_mid_match_counts_from_its_first_score_line():
    _m, report = report_of(MID_MATCH)
    assert codes(report, "error", "warning") == []
    assert [d.key for d in report.diagnostics] == ["GM413"]
    [d] = report.diagnostics
    assert (d.line, d.fields["score0"], d.fields["score1"]) == (4, 4, 3)
    assert report.start_score == (4, 3)
    assert [g.score_before for g in report.games] == [(4, 3), (5, 3), (5, 5)]
    assert report.final_score == (5, 7) and report.winner == 1


def test_a_mid_match_record_may_start_at_any_game_number():
    text = MID_MATCH.replace(" Game 1\n", " Game 6\n").replace(" Game 2\n", " Game 7\n") \
        .replace(" Game 3\n", " Game 8\n")
    _m, report = report_of(text)
    assert keys(report) == ["GM413"]
    # from 0-0, a first game numbered 6 is out of sequence, as before
    _m, plain = report_of(text.replace("Ann : 4                        Bob : 3",
                                       "Ann : 0                        Bob : 0"))
    assert "GM104" in codes(plain, "warning")


def test_the_summary_reports_the_start_score():
    [match] = read_matches(MID_MATCH, "ex.mat")
    s = summarise(match)
    assert s["start_score"] == [4, 3] and s["final_score"] == [5, 7]
    assert "(the record starts at 4-3)" in table([s])
    [plain] = read_matches(MID_MATCH.replace("Ann : 4", "Ann : 0", 1).replace("Bob : 3\n", "Bob : 0\n", 1))
    assert "starts at" not in table([summarise(plain)])


def test_a_wrong_score_line_after_a_mid_match_start_is_still_an_error():
    text = MID_MATCH.replace("Ann : 5                        Bob : 5",
                             "Ann : 6                        Bob : 5")
    _m, report = report_of(text)
    # game 3 says 6-5; game 2's result makes it 5-5, and game 3's own result
    # does not confirm 6-5 (no later score line): a wrong score line
    assert codes(report, "error") == ["GM402"]


def test_a_first_score_line_a_match_cannot_reach_is_an_error():
    text = MID_MATCH.replace("Ann : 4", "Ann : 9")
    _m, report = report_of(text)
    assert "GM413" not in keys(report) and report.start_score == (0, 0)
    assert [d.line for d in report.diagnostics if d.code == "GM402"] == [4, 4]


# -- games left out between score lines ---------------------------------------------

def _three_games(second: int, third: int, score3: tuple[int, int]) -> str:
    return HEAD.format(length=9) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        "  2)  Concedes                   Wins 1 point\n")) + game(second, (0, 1), (
        "  1) 42: 8/4 6/4                 61: 13/7 8/7\n"
        "  2)  Concedes                   Wins 1 point\n")) + game(third, score3, (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        "  2)  Concedes                   Wins 1 point\n")) + game(third + 1, (score3[0],
                                                                     score3[1] + 1), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"))


def test_games_left_out_where_the_numbers_skip_them_are_an_info():
    _m, report = report_of(_three_games(2, 5, (3, 2)))
    assert codes(report, "error", "warning") == []
    [gap] = [d for d in report.diagnostics if d.code == "GM413"]
    assert gap.key == "GM413.gap" and (gap.fields["first"], gap.fields["last"]) == (3, 4)
    assert "GM104" not in codes(report, "warning")
    assert report.final_score == (3, 3)


def test_games_left_out_where_later_score_lines_agree_are_an_info():
    _m, report = report_of(_three_games(2, 3, (3, 2)))
    assert codes(report, "error", "warning") == []
    assert "GM413.gap-unnumbered" in keys(report)
    assert report.final_score == (3, 3)


def test_a_lone_wrong_score_line_is_still_an_error():
    """Game 3 says 3-2, but game 4's score line follows from the games'
    results (0-3), not from it: a wrong score line, not games left out."""
    text = _three_games(2, 3, (3, 2)).replace("Ann : 3                        Bob : 3",
                                              "Ann : 0                        Bob : 3")
    _m, report = report_of(text)
    assert [(d.code, d.line, d.fields["stated"]) for d in report.diagnostics
            if d.severity == "error"] == [("GM402", 14, 3)]
    assert "GM413" not in codes(report, "info")
    assert report.final_score == (0, 3)


def test_a_score_line_that_counts_a_wrong_wins_line_is_no_gap():
    """Game 2's Wins line says 2 where the rules give 1 (GM401): the score
    lines that count its 2 are wrong (GM402), not games left out."""
    text = _three_games(2, 3, (2, 1)).replace(
        "  1) 42: 8/4 6/4                 61: 13/7 8/7\n"
        "  2)  Concedes                   Wins 1 point\n",
        "  1) 42: 8/4 6/4                 61: 13/7 8/7\n"
        "  2)  Doubles => 2               Drops\n"
        "      Wins 2 points\n")
    assert "Drops" in text
    _m, report = report_of(text)
    assert "GM413" not in codes(report, "info")
    assert sorted(codes(report, "error")) == ["GM401", "GM402", "GM402"]


def test_a_score_line_behind_the_running_score_is_an_error():
    _m, report = report_of(_three_games(2, 5, (0, 0)))
    assert "GM402" in codes(report, "error")


# -- Snowie's Illegal play cells -------------------------------------------------------

def snowie(after: Position, turn: int, names=("Ann", "Bob")) -> str:
    """Snowie's text position of ``after`` (seen by player ``turn``, who is
    on roll there): the text an ``Illegal play (...)`` cell holds."""
    mine, theirs = after.me, after.opp
    points = [str(mine[p] if mine[p] else -theirs[25 - p]) for p in range(1, 25)]
    return ";".join(["5", "0", "0", "0", str(turn), names[turn], names[1 - turn], "0", "0", "0",
                     "1", "0", str(-theirs[25]), *points, str(mine[25]), "0", "0"])


def _illegal_example() -> tuple[str, Position]:
    # Ann rolls 3-1 and plays 8/4, which the roll does not allow; Snowie
    # states the position after it, with Bob on roll
    after, _hits = apply_steps_as_written(start_position(), [(8, 4)])
    text = HEAD.format(length=5) + game(1, (0, 0), (
        f"  1) 31: Illegal play ({snowie(after.swapped(), 1)})      64: 24/18 13/9\n"
        "  2) 21: 4/2 6/5                  Doubles => 2\n"
        "  3)  Drops                      Wins 1 point\n"))
    return text, after


def test_an_illegal_play_cell_sets_the_board_and_the_next_cell_is_its_own():
    text, after = _illegal_example()
    match, report = report_of(text)
    cells = [type(a).__name__ for a in match.games[0].actions]
    assert cells == ["IllegalPlayMarker", "Play", "Play", "Double", "Drop", "Win"]
    # 4/2 is legal only from the stated position (Ann has no checker on 4
    # otherwise): the replay goes on from it, and Bob's double is answered
    assert sorted(keys(report)) == ["GM110.snowie", "GM410.match"]
    [marker] = [d for d in report.diagnostics if d.code == "GM110"]
    assert marker.severity == "warning" and marker.line == 5
    assert report.games[0].winner == 1 and report.games[0].ended.value == "drop"
    [kept] = [r for r in validate_match(match, keep_records=True).games[0].records
              if isinstance(r.action, m.Play) and r.action.player == 1]
    assert kept.position == after.swapped()


def test_an_illegal_play_cell_whose_point_of_view_is_the_movers_is_read_alike():
    """Some exporters write the position from the mover's point of view
    under the other player's number: only the reading in which the
    opponent's checkers stay where they were fits an irregular play."""
    text, after = _illegal_example()
    movers_view = snowie(after, 0).split(";")
    movers_view[4] = "1"   # "the second player on roll", with Ann's points
    flipped = text.replace(snowie(after.swapped(), 1), ";".join(movers_view))
    assert flipped != text
    match, report = report_of(flipped)
    assert sorted(keys(report)) == ["GM110.snowie", "GM410.match"]
    [kept] = [r for r in validate_match(match, keep_records=True).games[0].records
              if isinstance(r.action, m.Play) and r.action.player == 1]
    assert kept.position == after.swapped()


def _illegal_hit_example(turn_field: int | None = None) -> tuple[str, Position]:
    """Ann plays 13/7* with 4-3 (six pips), hitting Bob's blot: Bob's
    checker is on the bar in the stated position, and he enters next."""
    before = start_position()
    before, _h = apply_steps_as_written(before, [(8, 5), (6, 5)])
    bob, _h = apply_steps_as_written(before.swapped(), [(24, 18), (13, 11)])
    after, _h = apply_steps_as_written(bob.swapped(), [(13, 7)])
    assert after.opp[25] == 1
    text = snowie(after.swapped(), 1)
    if turn_field is not None:   # eXtreme Gammon's way: field 4 is 0, Bob's name first
        fields = text.split(";")
        fields[4] = str(turn_field)
        text = ";".join(fields)
    record = HEAD.format(length=5) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        f"  2) 43: Illegal play ({text})\n"
        "  3)                             64: bar/21 13/7\n"))
    return record, after


def test_an_illegal_play_that_hits_puts_the_checker_on_the_bar():
    for variant in (None, 0):
        text, after = _illegal_hit_example(variant)
        match, report = report_of(text)
        assert codes(report, "error") == [], variant
        [kept] = [r for r in validate_match(match, keep_records=True).games[0].records
                  if isinstance(r.action, m.Play) and r.action.player == 1 and
                  r.action.move_number == 3]
        assert kept.position == after.swapped(), variant


@pytest.mark.gnubg
def test_the_bars_of_an_illegal_play_position_are_read_as_gnubg_reads_them(tmp_path):
    text, _after = _illegal_hit_example()
    boards = [board for _action, board in _gnubg_boards(tmp_path, text) if board]
    from gamao_cli.replay.snapshots import snapshots
    [match] = read_matches(text)
    ours = [s.position_id for s in snapshots(match) if s.action.move_number == 3]
    assert boards[-1] == ours[0]


def test_an_illegal_play_cell_round_trips():
    round_trips(_illegal_example()[0])


def test_an_illegal_play_cell_with_no_position_stops_the_game():
    text = HEAD.format(length=5) + game(1, (0, 0), (
        "  1) 31: Illegal play                 \n"
        "  2)                             64: 24/18 13/9\n"
        "      Wins 1 point\n"))
    _m, report = report_of(text)
    assert "GM215.marker" in keys(report)
    assert codes(report, "error") == []


@pytest.mark.gnubg
def test_the_illegal_play_position_is_the_one_gnubg_sets(tmp_path):
    """GNU Backgammon reads the parenthesised text as a Snowie position and
    sets the board from it: the Position ID before Bob's next action is the
    same in both."""
    text, _after = _illegal_example()
    boards = [board for _action, board in _gnubg_boards(tmp_path, text) if board]
    from gamao_cli.replay.snapshots import snapshots
    [match] = read_matches(text)
    ours = [s.position_id for s in snapshots(match) if s.action.player == 1]
    assert boards[0] == ours[0]


# -- forced plays left out, and plays left out with several legal -----------------------

def _self_play(seed: int, moves: int = 40):
    """A game played by the first legal play of each roll (from a seeded
    die): [(player, dice, steps, legal plays before it)], and the rolls."""
    rng = random.Random(seed)
    pos = start_position()
    player = 0
    turns = []
    while len(turns) < moves:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if not turns and d1 == d2:
            continue
        plays = RESOLVER.legal_plays(pos, d1, d2)
        after, steps = min(plays.items(), key=lambda kv: format_steps(kv[1]))
        turns.append((player, (d1, d2), steps, plays))
        if not any(after.me[1:]):
            break
        pos = after.swapped()
        player = 1 - player
    return turns


def _record(turns, blank: int) -> str:
    """A match file of ``turns`` with the play of turn ``blank`` left out."""
    match = m.Match(7)
    g = m.Game(1, m.ScoreLine(("Ann", "Bob"), (0, 0)))
    match.games.append(g)
    for i, (player, dice, steps, _plays) in enumerate(turns):
        if i == blank or not steps:
            g.actions.append(m.Dance(player, dice))
        else:
            g.actions.append(m.Play(player, dice, m.parse_steps(format_steps(steps))))
    return write_matches([match])


def _find(predicate):
    for seed in range(200):
        turns = _self_play(seed)
        for i, (_player, _dice, steps, plays) in enumerate(turns[:-3]):
            if steps and predicate(turns, i, plays):
                return turns, i
    raise AssertionError("no such game in 200 seeds")


def test_a_forced_play_left_out_is_a_warning_and_is_played():
    turns, i = _find(lambda turns, i, plays: len(plays) == 1)
    text = _record(turns, i)
    _m, report = report_of(text)
    forced = format_steps(turns[i][2])
    assert codes(report, "error") == []
    [d] = [d for d in report.diagnostics if d.severity == "warning"]
    assert d.code == "GM218" and d.fields["play"] == forced and forced in d.message
    # played in: the rest of the game replays with no error (no cascade),
    # through the very positions of the game with the play written
    def positions(text):
        [match] = read_matches(text)
        return [r.position for r in validate_match(match, keep_records=True).games[0].records]
    assert positions(text)[i + 1:] == positions(_record(turns, -1))[i + 1:]


def _gnubg_boards(tmp_path, text: str) -> list[str | None]:
    """The Position ID GNU Backgammon gives before each action of the first
    game of ``text`` (imported as a match file, in a process of its own)."""
    pytest.importorskip("gnubg", reason="the gnubg wheel is not installed (pip install gnubg)")
    path = tmp_path / "record.mat"
    path.write_text(text)
    script = tmp_path / "boards.py"
    script.write_text(
        "import json, os, sys, gnubg\n"
        "fd = os.dup(1); os.dup2(os.open(os.devnull, os.O_WRONLY), 1)\n"
        f"gnubg.command('import mat \"{path}\"')\n"
        "os.dup2(fd, 1)\n"
        "print(json.dumps([[a.get('action'), a.get('board')]\n"
        "                  for a in gnubg.match()['games'][0]['game']]))\n")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


@pytest.mark.gnubg
def test_the_forced_play_played_in_is_the_one_gnubg_plays_in(tmp_path):
    """GNU Backgammon plays a forced play a record leaves out: every
    position of the game after it is the same in both."""
    turns, i = _find(lambda turns, i, plays: len(plays) == 1)
    text = _record(turns, i)
    theirs = [board for action, board in _gnubg_boards(tmp_path, text) if action == "move"]
    from gamao_cli.replay.snapshots import snapshots
    [match] = read_matches(text)
    ours = [s.position_id for s in snapshots(match) if isinstance(s.action, (m.Play, m.Dance))]
    assert len(theirs) == len(ours) == len(turns)
    assert theirs == ours


def _singled_out(turns, i, plays) -> bool:
    """Several legal plays, of which only the one played lets the next two
    plays replay as legal."""
    if len(plays) < 2:
        return False
    fits = 0
    for after in plays:
        pos = after.swapped()
        ok = True
        for _player, dice, steps, _p in turns[i + 1:i + 3]:
            res = RESOLVER.resolve_play(pos, tuple((s, d) for s, d, _h in steps), *dice)
            if not res.legal:
                ok = False
                break
            pos = res.position.swapped()
        fits += ok
    return fits == 1


def test_a_play_left_out_with_several_legal_is_an_error_reconstructed_from_what_follows():
    turns, i = _find(_singled_out)
    _m, report = report_of(_record(turns, i))
    [d] = [d for d in report.diagnostics if d.severity == "error"]
    assert d.key == "GM212.reconstructed"
    assert d.fields["play"] == format_steps(turns[i][2]) and d.fields["plays"] >= 2
    assert d.legal    # the alternatives are named


def test_a_play_left_out_that_nothing_singles_out_goes_on_from_before_the_roll():
    """The record stops one play after the roll left unplayed, and that play
    is legal after two of the roll's legal plays: nothing tells which."""
    def tie(turns, i, plays):
        _p, dice, steps, _pl = turns[i + 1]
        fits = sum(RESOLVER.resolve_play(after.swapped(), tuple((s, d) for s, d, _h in steps),
                                         *dice).legal for after in plays)
        return fits >= 2
    turns, i = _find(tie)
    _m, report = report_of(_record(turns[:i + 2], i))
    [d] = [d for d in report.diagnostics if d.severity == "error"]
    assert d.key == "GM212.not-reconstructed"


# -- a record that stops after the dice of a roll -------------------------------------------

def test_a_roll_at_the_end_of_an_unfinished_record_is_its_end():
    text = HEAD.format(length=5) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        "  2) 64:\n"))
    _m, report = report_of(text)
    assert codes(report, "error", "warning") == []
    assert keys(report) == ["GM410", "GM410.match"]
    # in the middle of the game, the same roll left unplayed is an error
    text = text.replace("  2) 64:\n", "  2) 64:                        31: 8/5 6/5\n")
    _m, report = report_of(text)
    assert "GM212" in codes(report, "error")


# -- gamao position where the replay broke ---------------------------------------------------

def test_position_of_an_impossible_replayed_position_says_why_and_exits_2(tmp_path):
    path = tmp_path / "blocked.mat"
    path.write_text(HEAD.format(length=3) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 64: 24/20 24/18\n"
        "  2) 62: 24/18 13/11             21: 13/11 6/5\n")))
    runner = CliRunner()
    res = runner.invoke(cli, ["position", str(path), "-g", "1", "-m", "2"])
    assert res.exit_code == 2, res.output
    assert "no board to show" in res.output and "GM203 at line 5" in res.output
    assert "Traceback" not in res.output and "internal error" not in res.output
    ok = runner.invoke(cli, ["position", str(path), "-g", "1", "-m", "1"])
    assert ok.exit_code == 0 and "Position ID" in ok.output


def test_position_after_the_replay_stopped_says_why_and_exits_2(tmp_path):
    path = tmp_path / "stopped.mat"
    path.write_text(HEAD.format(length=3) + game(1, (0, 0), (
        "  1) 31: 8/5 6/5                 64: 24/18 3/off\n"
        "  2) 62: 24/18 13/11             21: 13/11 6/5\n")))
    res = CliRunner().invoke(cli, ["position", str(path), "-g", "1", "-m", "2"])
    assert res.exit_code == 2, res.output
    assert "the replay of the game stops before this move (GM215 at line 5" in res.output


# -- two reader/writer disagreements the property tests found on the way ------------------

def test_a_comment_shaped_like_a_tag_line_and_a_tag_name_ending_in_a_no_break_space_write():
    """The reader reads ``; [Site "x"0]`` as a comment (it is no tag) and
    keeps a no-break space at the end of a tag's name (it drops only spaces
    and tabs); the writer refused both as if they would not read back
    (found by tests/test_fuzz_properties.py on mutated corpus files)."""
    text = ('; [Site "x"0]\n; [CubeLimit\u00a0 "1024"]\n\n' + HEAD.format(length=1) +
            game(1, (0, 0), "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"))
    [match] = read_matches(text)
    assert match.comments == ['; [Site "x"0]'] and match.tags[0].name == "CubeLimit\u00a0"
    assert read_matches(write_matches([match])) == [match]
    from gamao_cli import convert
    assert read_matches(convert([match], "mat").text) == [match]


# -- the shared corpus2/real folder ---------------------------------------------------------

def corpus2_files() -> list[Path]:
    if not CORPUS2.is_dir():
        return []
    return sorted(p for p in CORPUS2.iterdir() if p.is_file() and p.name != "PROVENANCE.tsv")


@needs_corpus2
def test_every_corpus2_real_file_reads_with_no_error_or_warning():
    files = corpus2_files()
    assert len(files) >= 100
    found = []
    for path in files:
        for match in read_matches(read(path), str(path)):
            found += [d.format_text() for d in validate_match(match).diagnostics
                      if d.severity in ("error", "warning")]
    assert found == []


#: what marks a corpus2 file as holding a dialect this module reads
_DIALECT = re.compile(r"Concedes|\?\?\?\?|00: |Illegal play")


@needs_corpus2
def test_every_corpus2_real_file_round_trips_through_the_match_file_writer():
    for path in corpus2_files():
        matches = read_matches(read(path), str(path))
        assert read_matches(write_matches(matches)) == matches, path


@needs_corpus2
def test_corpus2_real_round_trips_through_sgf_and_json():
    """The files with a dialect of this module, the mid-match record, and
    every 8th of the others (all of them: the slow test below)."""
    from test_conversion import round_trip_failures
    files = corpus2_files()
    chosen = [p for i, p in enumerate(files)
              if _DIALECT.search(read(p)) or "Paris-Masters-1R-1M" in p.name or i % 8 == 0]
    assert len(chosen) >= 20
    assert round_trip_failures(chosen) == []


@pytest.mark.slow
@needs_corpus2
def test_every_corpus2_real_file_round_trips_through_sgf_and_json():
    from test_conversion import round_trip_failures
    assert round_trip_failures(corpus2_files()) == []


# -- final scores against GNU Backgammon's import -----------------------------------------------

#: gnubg prints these while importing a file it does not read cleanly
_GNUBG_TROUBLE = re.compile(r"warning|unrecognised|invalid|illegal|doesn't follow|not a valid",
                            re.I)

#: Files whose final score gamao and GNU Backgammon count differently though
#: gnubg reads them cleanly, and why (a pattern of the file name -> reason).
#: Each is a difference of reading, not a fault of either.
KNOWN_DISAGREEMENTS = {
    # Raccoon benchmark logs: money sessions with CubeLimit "1" and no Jacoby
    # tag. gnubg's import applies its own default, the Jacoby rule, so a
    # gammon or backgammon with the cube never turned counts 1; the record's
    # Wins lines say 2 and 3, and gamao follows the record.
    "gnubg_eval_": "jacoby-default",
    # Backgammon Studio and XG clocked matches: a loss on time written as
    # "Wins 1004 points" / "Wins 9 points and the match" after a roll never
    # played. gnubg reads a resignation of a backgammon (3 x cube); gamao
    # counts a loss on time as the points the winner needed (GM409). The
    # match winner is the same.
    "michy - Snua 11pt": "time-loss",
    "Kawauchi Hibiki 9 point match": "time-loss",
    "MrPurple - Lasse 3pt": "time-loss",
    # The deciding game is resigned for the points the winner needed (GM411,
    # a 1981 transcription: "Wins 1 point and the match" with the cube at 2):
    # gnubg counts a resignation as at least the cube; gamao keeps the points
    # written. The match winner is the same.
    "Seigel_Dwek_Florida_1981": "capped",
}


def _gnubg_final(entry) -> list[int]:
    games = entry["games"]
    if not games:
        return [0, 0]
    last = games[-1]
    final = list(last["score"])
    if last["winner"] is not None:
        final[last["winner"]] += last["points"]
    return final


def _known(name: str) -> str | None:
    return next((why for pattern, why in KNOWN_DISAGREEMENTS.items() if pattern in name), None)


@pytest.mark.gnubg
@needs_corpus2
def test_final_scores_equal_gnubg_wherever_it_reads_the_file_cleanly():
    """gamao's final score of every corpus2/real file (and of the corpus
    outside bulk/) is GNU Backgammon's, wherever gnubg imports it with no
    warning, except the disagreements listed (each with its reason)."""
    pytest.importorskip("gnubg", reason="the gnubg wheel is not installed (pip install gnubg)")
    files = corpus2_files() + [p for p in corpus_match_files()
                               if "bulk" not in p.relative_to(CORPUS).parts]
    script = Path(__file__).parent / "gnubg_scripts" / "dump_mat.py"
    p = subprocess.run([sys.executable, str(script), *map(str, files)], capture_output=True,
                       text=True, timeout=1200)
    assert p.returncode == 0, p.stderr[-2000:]
    theirs = json.loads(p.stdout)
    disagree: dict[str, str | None] = {}
    clean = 0
    for path in files:
        entry = theirs[str(path)]
        if _GNUBG_TROUBLE.search(entry["printed"]):
            continue
        clean += 1
        [match] = read_matches(read(path), str(path))
        ours = list(validate_match(match).final_score)
        if ours != _gnubg_final(entry):
            disagree[path.name] = _known(path.name)
    assert clean >= 100
    unexplained = sorted(name for name, why in disagree.items() if why is None)
    assert unexplained == []
    # every listed disagreement is still there (none fixed unnoticed)
    present = {why for why in disagree.values()}
    assert present == set(KNOWN_DISAGREEMENTS.values())
