"""Positions a record sets inside a game (issue 26, part 3): the model's
:class:`~gamao_cli.model.SetUp`, read from GNU Backgammon's SGF set-up nodes
and eXtreme Gammon's ``; Set Pos=`` lines, replayed from there, written back
by SGF, JSON and the match file.

The reference is GNU Backgammon itself: ``tests/data/setup/`` holds an SGF
gnubg wrote (its ``import mat`` of a record with an ``Illegal play (...)``
cell, then ``save match``; see its README). Where Debian's gnubg is
installed, the tests make it again, and have gnubg load what gamao writes.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from gamao_cli import convert, model as m
from gamao_cli.formats import parse_text
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.formats.sgf.reader import read_sgf
from gamao_cli.replay.replay import validate_match
from gamao_cli.replay.snapshots import snapshots
from gamao_cli.rules import start_position

DATA = Path(__file__).resolve().parent / "data" / "setup"
RECORD = DATA / "illegal-play.mat"
GNUBGS = DATA / "illegal-play.gnubg.sgf"
GNUBG = Path(os.environ.get("GNUBG", "/usr/games/gnubg"))
needs_gnubg = pytest.mark.skipif(
    not GNUBG.exists(), reason=f"needs Debian's GNU Backgammon at {GNUBG} (apt-get install "
                               "gnubg); the checked-in SGF it made is tested without it")


def _read(path: Path) -> m.Match:
    [match] = parse_text(path.read_text(encoding="utf-8"), str(path))
    return match


def _ids_after_set_up(match: m.Match) -> list[tuple[int, str]]:
    """(game, Position ID) before every action the replay places, set-ups
    included: what the replay makes of the record, the set position and
    everything after it."""
    return [(s.game, s.position_id) for s in snapshots(match)]


def _gnubg(commands: str, cwd: Path) -> str:
    for _attempt in range(2):   # a gnubg starting beside another may fail on ~/.gnubg: retry
        proc = subprocess.run([str(GNUBG), "-t", "-q", "-r"], input=commands, text=True,
                              capture_output=True, timeout=300, cwd=cwd)
        if proc.returncode == 0:
            break
    return proc.stdout + proc.stderr


def _games_of(sgf: str) -> str:
    """gnubg's SGF without what changes from run to run (the date) and its
    statistics."""
    return re.sub(r"DT\[[^]]*\]|GS(\[[^]]*\])+", "", sgf)


# -- GNU Backgammon's own file ----------------------------------------------------

def test_gnubgs_mid_game_set_up_reads_and_every_game_replays():
    match = _read(GNUBGS)
    set_ups = [a for g in match.games for a in g.actions if isinstance(a, m.SetUp)]
    assert len(set_ups) == 1 and match.games[0].actions[2] is set_ups[0]
    [set_up] = set_ups
    # gnubg's PL names the mover of the illegal play (White); Black plays next
    assert set_up.player == 1 and set_up.sides is not None and set_up.cube is None
    assert set_up.sides[1][25] == 1            # Ann's 13/7* put Bob's checker on the bar
    report = validate_match(match)
    assert [d.key for d in report.diagnostics if d.severity != "info"] == []
    assert [d.code for d in report.diagnostics].count("GM125") == 1
    assert [g.ended for g in report.games] == ["drop", "drop"]
    assert [g.winner for g in report.games] == [0, 1]
    assert report.final_score == (1, 1)


def test_the_set_position_is_the_one_the_records_cell_states():
    """gnubg set its board from the Snowie text of the record's cell; gamao
    reads the same cell on its own (as an ``Illegal play`` marker): every
    position after it is the same in both."""
    ours = [pid for g, pid in _ids_after_set_up(_read(RECORD))]
    theirs = [pid for g, pid in _ids_after_set_up(_read(GNUBGS))]
    # the mat record has one action more (the marker itself) than gnubg's SGF
    # (which has the set-up instead); from Bob's entering play on they agree
    assert ours[3:] == theirs[3:] and len(ours) == len(theirs)


@pytest.mark.parametrize("fmt", ["sgf", "json", "mat"])
def test_the_set_up_is_written_back_and_reads_back_the_same(fmt):
    match = _read(GNUBGS)
    text = convert([match], fmt).text
    [back] = parse_text(text, f"x.{fmt}")
    [a] = [x for g in back.games for x in g.actions if isinstance(x, m.SetUp)]
    [b] = [x for g in match.games for x in g.actions if isinstance(x, m.SetUp)]
    assert (a.player, a.sides) == (b.player, b.sides)
    assert _ids_after_set_up(back) == _ids_after_set_up(match)
    assert convert([back], "mat").text == convert([match], "mat").text
    assert [d.key for d in validate_match(back).diagnostics if d.severity != "info"] == []


def test_the_sgf_writer_writes_the_set_up_as_gnubg_does():
    sgf = convert([_read(GNUBGS)], "sgf").text
    ours = re.search(r";PL\[B\]AE\[a:y\]AW((?:\[[a-y]\])+)AB((?:\[[a-y]\])+)", sgf)
    theirs = re.search(r";PL\[W\]AE\[a:y\]AW((?:\[[a-y]\])+)AB((?:\[[a-y]\])+)",
                       GNUBGS.read_text(encoding="utf-8"))
    assert ours and theirs and ours.groups() == theirs.groups()


def test_the_match_file_says_the_set_up_as_xgs_set_pos_line():
    text = convert([_read(GNUBGS)], "mat").text
    [line] = [x for x in text.splitlines() if x.startswith("; Set Pos=")]
    assert re.fullmatch(r"; Set Pos=[-A-Pa-p]{26}/0", line)


def test_renderers_and_tables_take_a_set_up(tmp_path):
    from gamao_cli.tables.rows import match_rows
    match = _read(GNUBGS)
    page = convert([match], "html").text
    assert "Set position" in page
    rows = match_rows(match, path="x.sgf", index=0, fmt="sgf")
    kinds = [r["kind"] for r in rows.actions]
    assert kinds.count("setup") == 1
    row = rows.actions[kinds.index("setup")]
    assert row["player"] == 1 and row["legal"] is True


def test_the_replay_page_draws_no_arrows_onto_a_set_position():
    """The page draws the last play's arrows on each position; the
    position a record sets is reached by no play: none there."""
    import json
    from gamao_cli.render.html import FIELDS
    page = convert([_read(GNUBGS)], "html").text
    data = json.loads(re.search(r'<script type="application/json" id="gamao-data">(.*?)</script>',
                                page, re.S).group(1))
    f = {name: i for i, name in enumerate(FIELDS)}
    rows = data["snaps"]
    # game 1: Ann's 31, Bob's 62, the set-up, Bob's 64 (the board set), ...
    assert rows[2][f["steps"]] != []               # the set-up: after Bob's 62
    assert rows[3][f["steps"]] == [] and rows[3][f["lastPlayer"]] == -1
    assert rows[4][f["steps"]] != []               # Ann's double: after Bob's 64


def test_the_position_command_shows_the_set_position_before_the_next_play(tmp_path):
    from click.testing import CliRunner
    from gamao_cli.cli import main
    runner = CliRunner()
    r = runner.invoke(main, ["position", str(GNUBGS), "-g", "1", "-m", "2", "--player", "right"])
    assert r.exit_code == 0, r.output
    [after] = [s for s in snapshots(_read(GNUBGS)) if s.game == 1 and s.action.move_number == 2
               and isinstance(s.action, m.Play)]
    assert f"Position ID: {after.position_id}" in r.output and "64:" in r.output
    svg = tmp_path / "b.svg"
    r = runner.invoke(main, ["position", str(GNUBGS), "-g", "1", "-m", "2", "--player", "right",
                             "--format", "svg", "-o", str(svg)])
    assert r.exit_code == 0, r.output
    assert svg.read_text(encoding="utf-8").startswith("<svg")


# -- the replay ----------------------------------------------------------------

HEAD = "(;FF[4]GM[6]MI[length:7][game:0][ws:0][bs:0]PW[Ann]PB[Bob]"


def _letters(side, player) -> str:
    from gamao_cli.formats.sgf.reader import point_letter
    return "".join(f"[{point_letter(p, player)}]" * side[p] for p in range(1, 26))


def test_a_set_cube_is_the_cube_from_there_on():
    """CV/CP in the middle of a game set the cube: the next double is to
    twice the set value, by the player who does not own it."""
    text = HEAD + ";W[31hefe];CV[2]CP[b];W[double];B[take];W[62mgmk])"
    [match] = read_sgf(text, "c.sgf")
    report = validate_match(match, keep_records=True)
    codes = [d.key for d in report.diagnostics if d.severity != "info"]
    assert codes == ["GM301"]                   # Bob owns the cube Ann doubles
    [set_up] = [a for a in match.games[0].actions if isinstance(a, m.SetUp)]
    assert (set_up.sides, set_up.cube, set_up.cube_owner, set_up.player) == (None, 2, 1, 0)
    [rec] = [r for r in report.games[0].records if isinstance(r.action, m.Take)]
    assert rec.cube == 2
    assert report.games[0].records[-1].cube == 4


def test_a_game_set_up_from_its_start():
    """A game that starts from a set position: the record's first roll is
    no opening roll (a double may come first), and plays go from there."""
    start = start_position()
    me = list(start.me)
    me[6], me[5] = 3, 2                          # Ann has made her 5 point already
    text = (HEAD + f";PL[W]AE[a:y]AW{_letters(me, 0)}AB{_letters(start.opp, 1)}"
            ";W[double];B[take];W[66mgmgxrxr])")
    [match] = read_sgf(text, "s.sgf")
    report = validate_match(match)
    assert [d.key for d in report.diagnostics if d.severity != "info"] == []


def test_a_set_position_no_game_can_hold_is_an_error_and_stops_the_game():
    text = (HEAD + ";W[31hefe];PL[B]AE[a:y]AW" + "[f]" * 16 + "AB" + "[s]" * 15 +
            ";B[61mgho])")
    [match] = read_sgf(text, "bad.sgf")
    keys = [d.key for d in validate_match(match).diagnostics]
    assert "GM219.checkers" in keys and "GM215" in keys


def test_xgs_set_pos_line_sets_the_board_for_the_next_player():
    text = (" 11 point match\n\n Game 1\n Ann : 0                        Bob : 1\n"
            "; Set Pos=-b----E-C---eE---c-e----B-/0\n"
            "  1)                             31: 8/5 6/5\n")
    [match] = read_matches(text, "x.mat")
    [set_up, play] = match.games[0].actions
    assert isinstance(set_up, m.SetUp) and set_up.player == 1 == play.player
    assert set_up.sides == (start_position().me, start_position().opp)
    assert match.games[0].comments == []
    keys = [d.key for d in validate_match(match).diagnostics if d.severity != "info"]
    assert keys == []


# -- with GNU Backgammon ----------------------------------------------------------

@pytest.mark.gnubg
@needs_gnubg
def test_gnubg_makes_the_checked_in_sgf_again(tmp_path):
    out = tmp_path / "again.sgf"
    said = _gnubg(f'set display off\nimport mat "{RECORD}"\nsave match "{out}"\n', tmp_path)
    assert out.exists(), said[-2000:]
    assert _games_of(out.read_text(encoding="utf-8")) == \
        _games_of(GNUBGS.read_text(encoding="utf-8"))


@pytest.mark.gnubg
@needs_gnubg
@pytest.mark.parametrize("fmt", ["sgf", "mat"])
def test_gnubg_reads_what_gamao_writes_into_the_same_positions(tmp_path, fmt):
    """gnubg loads gamao's SGF (its set-up node with gamao's PL) and imports
    gamao's match file (XG's Set Pos line); what gnubg saves of either is
    the match gamao wrote, position for position."""
    match = _read(GNUBGS)
    ours = tmp_path / f"ours.{fmt}"
    ours.write_text(convert([match], fmt).text, encoding="utf-8")
    back = tmp_path / "back.sgf"
    verb = "load match" if fmt == "sgf" else "import mat"
    said = _gnubg(f'set display off\n{verb} "{ours}"\nsave match "{back}"\n', tmp_path)
    assert back.exists(), said[-2000:]
    again = _read(back)
    assert _ids_after_set_up(again) == _ids_after_set_up(match)
    assert validate_match(again).final_score == validate_match(match).final_score
