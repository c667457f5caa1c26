"""Position IDs, Match IDs and XGIDs before every action, against the IDs GNU
Backgammon itself printed before every move of its self-play matches."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, SELFPLAY
from gamao_cli import model as m
from gamao_cli.cli import main
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.render.text import board_from_id
from gamao_cli.replay.snapshots import find_snapshot, snapshots

IDS = SELFPLAY / "ids"


def gnubg_entries(path: Path) -> dict[int, list[tuple[str, str, str]]]:
    """game -> [(kind, Position ID, Match ID)] as gnubg printed them."""
    out: dict[int, list] = {}
    for line in path.read_text().splitlines():
        game, _move, what, pos, mid = line.split("\t")
        if " to play " in what:
            kind = "roll"
        elif what.endswith("cube decision?"):
            kind = "cube"
        elif " doubles to " in what:
            kind = "answer"
        else:
            continue
        out.setdefault(int(game), []).append((kind, pos, mid))
    return out


def our_entries(match: m.Match) -> dict[int, list[tuple[str, str, str]]]:
    out: dict[int, list] = {}
    for s in snapshots(match):
        a = s.action
        if isinstance(a, (m.Play, m.Dance)):
            kind = "roll"
        elif isinstance(a, m.Double) and a.kind == "double":
            kind = "cube"
        elif isinstance(a, (m.Take, m.Drop)):
            kind = "answer"
        else:
            continue
        out.setdefault(s.game, []).append((kind, s.position_id, s.match_id))
    return out


def id_files():
    return sorted(IDS.glob("*.ids"))


def test_the_reference_ids_are_there():
    assert len(id_files()) >= 12


@pytest.mark.parametrize("ids", id_files(), ids=lambda p: p.stem)
def test_ids_equal_gnubg_before_every_move(ids):
    [match] = read_matches((SELFPLAY / f"{ids.stem}.mat").read_text(), ids.stem)
    # A .mat file does not record a money session's Jacoby setting; gnubg's
    # SGF of the same session does (RU[Jacoby]).
    if match.length == 0 and "Jacoby" in (SELFPLAY / f"{ids.stem}.sgf").read_text():
        match.tags.append(m.Tag("Jacoby", "On"))
    theirs = gnubg_entries(ids)
    ours = our_entries(match)
    assert sorted(ours) == sorted(theirs)
    for game in theirs:
        assert ours[game] == theirs[game], f"game {game}"


def test_xgid_of_the_opening_position():
    [match] = read_matches((EXAMPLES / "gnubg-selfplay-5pt.mat").read_text())
    first = snapshots(match)[0]
    assert first.xgid == "XGID=-b----E-C---eE---c-e----B-:0:0:-1:41:0:0:0:5:10"


def test_find_snapshot_and_board():
    [match] = read_matches((EXAMPLES / "gnubg-selfplay-5pt.mat").read_text())
    s = find_snapshot(match, game=1, move=2)
    assert s.action.player == 0 and s.action.dice == (2, 1)
    assert s.position.me[25] == 1          # Player_1 is on the bar
    right = find_snapshot(match, game=1, move=2, player=1)
    assert right.action.player == 1
    with pytest.raises(LookupError):
        find_snapshot(match, game=1, move=99)


def test_position_command_prints_ids_and_board():
    path = str(EXAMPLES / "gnubg-selfplay-5pt.mat")
    r = CliRunner().invoke(main, ["position", path, "--game", "1", "--move", "1"])
    assert r.exit_code == 0, r.output
    assert "Position ID: 4HPwATDgc/ABMA" in r.output
    assert "Match ID   : MACmAAAAAAAE" in r.output
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:-1:41:0:0:0:5:10" in r.output
    r = CliRunner().invoke(main, ["position", path, "--game", "1", "--move", "99"])
    assert r.exit_code == 2 and "has no move 99" in r.output


def test_position_from_ids():
    r = CliRunner().invoke(main, ["position", "--id", "4HPwATDgc/ABMA:MACmAAAAAAAE"])
    assert r.exit_code == 0 and "4HPwATDgc/ABMA" in r.output
    r = CliRunner().invoke(main, ["position", "--id", "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10"])
    assert r.exit_code == 0 and "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10" in r.output
    r = CliRunner().invoke(main, ["position", "--id", "nonsense"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert re.search(r"gamao: .*nonsense", r.output)


def test_position_board_is_gnubgs_layout():
    """The left-column player (gnubg's player 0) plays O at the top, the
    right-column player X at the bottom, whoever is to act."""
    path = str(EXAMPLES / "gnubg-selfplay-5pt.mat")
    for player, marker, top, bottom in (("left", "^", " +12-11", " +13-14"), ("right", "v", " +13-14", " +12-11")):
        r = CliRunner().invoke(main, ["position", path, "--game", "1", "--move", "2", "--player", player])
        assert r.exit_code == 0, r.output
        lines = r.output.splitlines()
        assert lines[3].startswith(top) and lines[3].endswith("O: Player_1")
        assert lines[15].startswith(bottom) and lines[15].endswith("X: Player_2")
        assert lines[9].startswith(marker + "|")
        assert re.fullmatch(r"Pip counts: O \d+, X \d+", lines[16])


def test_readme_position_output_is_what_gamao_prints():
    """The README's tour shows ``gamao position`` as it prints."""
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    cmd = "$ gamao position examples/gnubg-selfplay-5pt.mat --game 1 --move 2\n"
    shown = readme[readme.index(cmd) + len(cmd):].split("\n$ ", 1)[0].splitlines()
    r = CliRunner().invoke(main, ["position", str(EXAMPLES / "gnubg-selfplay-5pt.mat"), "--game", "1", "--move", "2"])
    assert r.exit_code == 0
    printed = r.output.splitlines()
    assert shown[1:] == printed[1:]  # the first line names the file by its path
    assert shown[0].split(": ", 1)[1] == printed[0].split(": ", 1)[1]


def test_board_from_position_id_alone():
    assert "4HPwATDgc/ABMA" in board_from_id("4HPwATDgc/ABMA")
