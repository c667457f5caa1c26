"""The text board of ``gamao position`` (``gamao_cli.render.text``) against
GNU Backgammon 1.07's own ``show board``.

gnubg numbers the players 0 and 1 (0 is the left column of a match file, as
in gamao), draws player 1 with the X checkers at the bottom and player 0 with
the O checkers at the top whoever is on roll, and numbers the points from the
side of the player on roll. The oracle is Debian's ``/usr/games/gnubg -t``,
driven with ``set matchid``, ``set board`` (and ``double`` or ``resign``
where a double or a resignation awaits an answer: ``set matchid`` steps back
from the one and drops the other) and ``show board``, many positions to one
process; tests that need
it skip where it is missing. gnubg pads its lines with blanks and cuts names
at 31 characters; gamao does neither, so names stay shorter here and lines
are compared without trailing blanks.
"""
from __future__ import annotations

import dataclasses
import os
import random
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from gamao_cli.formats import read_path
from gamao_cli.ids import (
    GAME_NONE,
    GAME_PLAYING,
    MatchState,
    decode_match_id,
    match_id,
    position_id,
)
from gamao_cli.render.text import board_from_id, draw_board
from gamao_cli.replay.snapshots import snapshots

SELFPLAY = Path(__file__).resolve().parent / "data" / "selfplay"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="Debian's gnubg (/usr/games/gnubg) is not installed")

START = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
BOARD_LINES = 15  # two ID lines, two edges, ten rows, the bar line


def side(points: dict[int, int]) -> tuple[int, ...]:
    """26 counts (0 borne off, 1..24, 25 bar) with the rest borne off."""
    s = [0] * 26
    for p, n in points.items():
        s[p] = n
    s[0] = 15 - sum(s[1:])
    return tuple(s)


# ---------------------------------------------------------------------------
# GNU Backgammon, many boards to one process
# ---------------------------------------------------------------------------

_MARK = re.compile(r"^No help available for topic `gamao(\d+)'\n", re.MULTILINE)
_BOARD = re.compile(r"^ GNU Backgammon  Position ID: .*\n(?:.*\n){" + str(BOARD_LINES - 1) + "}", re.MULTILINE)
_RESIGN_WORDS = {1: "normal", 2: "gammon", 3: "backgammon"}


def gnubg_commands(pid: str, state: MatchState) -> list[str]:
    """gnubg commands that set up ``state`` with the board of ``pid``.

    ``set matchid`` takes no pending double (it steps back to the offer),
    drops a resignation, and sets no game before the opening roll; a double
    or a resignation is set as the state before it, then offered with
    ``double`` / ``resign``."""
    before = dataclasses.replace(state, double_offered=False, resignation=0, turn=state.on_roll)
    cmds = [f"set matchid {match_id(before)}", f"set board {pid}"]
    if state.double_offered:
        cmds.append("double")
    if state.resignation:
        cmds.append(f"resign {_RESIGN_WORDS[state.resignation]}")
    return cmds


_PIPS = re.compile(r"^The pip counts are: (.+) (\d+), (.+) (\d+)\.$", re.MULTILINE)


@dataclasses.dataclass
class Shown:
    board: str | None             # the board's lines, without trailing blanks
    pips: tuple[int, int] | None  # players 0 and 1, from ``show pipcount``


def gnubg_boards(cases: list[tuple[tuple[str, str], str, MatchState]]) -> list[Shown]:
    """What gnubg shows for each (names, Position ID, state): ``show board``
    and ``show pipcount``. The two names must differ."""
    cmds = ["set display off", "set player 0 human", "set player 1 human"]
    names_now = None
    for i, (names, pid, state) in enumerate(cases):
        if names != names_now:
            # gnubg refuses a name the other player has: free both first
            cmds += ["set player 0 name gamao-0", "set player 1 name gamao-1",
                     f"set player 0 name {names[0]}", f"set player 1 name {names[1]}"]
            names_now = names
        # a marker gnubg writes to the standard output, then what it shows
        cmds += gnubg_commands(pid, state) + [f"help gamao{i}", "show board", "show pipcount"]
    # gnubg may write a stray byte in a line announcing a game it sees over
    out = subprocess.run([GNUBG, "-t", "-q", "-r"], input="\n".join(cmds) + "\n", capture_output=True,
                         text=True, errors="replace", timeout=600, check=False).stdout
    parts = _MARK.split(out)
    shown = [Shown(None, None) for _ in cases]
    for k in range(1, len(parts), 2):
        i, text = int(parts[k]), parts[k + 1]
        m = _BOARD.match(text.lstrip("\n"))
        if m:
            shown[i].board = "\n".join(line.rstrip() for line in m.group(0).splitlines())
        p = _PIPS.search(text)
        if p:
            names = cases[i][0]
            by_name = {p.group(1): int(p.group(2)), p.group(3): int(p.group(4))}
            shown[i].pips = (by_name[names[0]], by_name[names[1]])
    return shown


def board_part(text: str) -> str:
    return "\n".join(text.splitlines()[:BOARD_LINES])


# ---------------------------------------------------------------------------
# the self-play matches: every position
# ---------------------------------------------------------------------------

def selfplay_cases():
    """(file, snapshot, names) for every position of the self-play matches."""
    for f in sorted(SELFPLAY.glob("*.mat")):
        [match] = read_path(str(f))
        names = tuple(match.players)
        for snap in snapshots(match):
            yield f.name, snap, names


@needs_gnubg
def test_selfplay_boards_are_gnubgs():
    """Every position of the twelve self-play matches (about 1,600): the
    fifteen lines of the board, the IDs and every side text included, are
    gnubg's; the pip counts below are gnubg's own count."""
    cases, ours, what = [], [], Counter()
    for name, snap, names in selfplay_cases():
        state = snap.state
        drawn = draw_board(snap.position.me, snap.position.opp, state, names=names)
        if state.game_state == GAME_NONE:
            # before the opening roll gnubg has no game to set; the board is
            # the same but for the Match ID, which says "no game"
            state = dataclasses.replace(state, game_state=GAME_PLAYING)
            playing = draw_board(snap.position.me, snap.position.opp, state, names=names)
            assert drawn.splitlines()[2:] == playing.splitlines()[2:]
            assert drawn.splitlines()[1] == f"                 Match ID   : {snap.match_id}"
            drawn = playing
            what["before the opening roll"] += 1
        cases.append((names, snap.position_id, state))
        ours.append((name, snap.game, snap.action.text(), drawn))
        me, opp = snap.position.me, snap.position.opp
        what["double offered"] += state.double_offered
        what["cube owned"] += state.cube_owner is not None
        what["Crawford game"] += state.crawford
        what["money"] += state.length == 0
        what["1-point match"] += state.length == 1
        what["X on roll"] += state.on_roll == 1
        what["stack over five"] += max(me[1:25] + opp[1:25]) > 5
        what["two or more on the bar"] += max(me[25], opp[25]) > 1
        what["over five borne off"] += max(me[0], opp[0]) > 5
        what["game over"] += 15 in (me[0], opp[0])
    assert len(cases) > 1500
    # every kind of board and side text is among them
    assert min(what.values()) >= 10, what
    theirs = gnubg_boards(cases)
    for (name, game, action, drawn), shown in zip(ours, theirs):
        where = f"{name} game {game} before {action}"
        assert shown.board is not None, f"gnubg showed no board for {where}"
        assert board_part(drawn) == shown.board, where
        # the line below the board: gnubg's pip counts, as its text export writes them
        assert drawn.splitlines()[BOARD_LINES:] == [f"Pip counts: O {shown.pips[0]}, X {shown.pips[1]}"], where


# ---------------------------------------------------------------------------
# random boards and states
# ---------------------------------------------------------------------------

def random_position(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two sides of 15 checkers piled on a few places each (tall stacks,
    crowded bars, many borne off), never both on one point."""
    def pile(allowed: list[int]) -> list[int]:
        s = [0] * 26
        places = rng.sample(allowed, rng.randint(1, 7))
        for _ in range(15):
            s[rng.choice(places)] += 1
        return s

    me = pile(list(range(26)))
    opp = pile([p for p in range(26) if not (1 <= p <= 24 and me[25 - p])])
    r = rng.random()
    if r < 0.1:  # a game over: one side has borne off all
        rng.choice((me, opp))[:] = [15] + [0] * 25
    elif r < 0.9:  # mostly a game still going: both have checkers left
        for s in (me, opp):
            if s[0] == 15:
                s[0], s[25] = 14, 1
    return tuple(me), tuple(opp)


def random_state(rng: random.Random) -> MatchState:
    """A match state gnubg can hold, with every side text in turn."""
    length = rng.choice([0, 0, 1, 2, 3, 5, 7, 11, 25])
    score = (rng.randrange(length), rng.randrange(length)) if length else (rng.randrange(9), rng.randrange(9))
    crawford = bool(length > 1 and score.count(length - 1) == 1 and rng.random() < 0.6)
    on_roll = rng.randrange(2)
    cube, owner = 1, None
    if not crawford and rng.random() < 0.7:
        cube = 1 << rng.randint(0, 6)
        owner = rng.choice([None, 0, 1]) if cube > 1 else None
    offered = not crawford and length != 1 and owner in (None, on_roll) and rng.random() < 0.2
    dice = (0, 0)
    if not offered and rng.random() < 0.6:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    resignation = rng.choice([1, 2, 3]) if not offered and rng.random() < 0.2 else 0
    return MatchState(cube=cube, cube_owner=owner, on_roll=on_roll, crawford=crawford,
                      turn=1 - on_roll if offered or resignation else on_roll,
                      double_offered=offered, resignation=resignation, dice=dice,
                      length=length, score=score,
                      jacoby=bool(length == 0 and rng.random() < 0.5))


NAMES = [("Ann", "Bob"), ("Player_1", "Player_2"), ("gnubg", "Ann Lee"), ("X", "O"), ("O", "X"),
         ("a very long name indeed", "Zoe")]


@needs_gnubg
def test_random_boards_are_gnubgs():
    """1,500 random positions and states: stacks up to fifteen on a point, on
    the bar and borne off, every cube, score, length, dice, Crawford game,
    pending double and resignation. gnubg corrects a few states it would not
    reach (a double it refuses, a dead cube): those whose Match ID gnubg
    changed are left out, and must stay few."""
    rng = random.Random(14)
    cases, ours = [], []
    for i in range(1500):
        me, opp = random_position(rng)
        state = random_state(rng)
        names = NAMES[i % len(NAMES)]
        cases.append((names, position_id(me, opp), state))
        ours.append(draw_board(me, opp, state, names=names))
    theirs = gnubg_boards(cases)
    compared, kinds = 0, Counter()
    for (names, pid, state), drawn, shown in zip(cases, ours, theirs):
        board = shown.board
        assert board is not None, (pid, state)
        if board.splitlines()[1] != drawn.splitlines()[1]:
            continue  # gnubg holds another state than the one asked for
        assert board_part(drawn) == board, (pid, match_id(state), state)
        assert drawn.splitlines()[BOARD_LINES] == f"Pip counts: O {shown.pips[0]}, X {shown.pips[1]}"
        compared += 1
        kinds["double offered"] += state.double_offered
        kinds["resignation"] += bool(state.resignation)
        kinds["Crawford game"] += state.crawford
        kinds["cube owned"] += state.cube_owner is not None
        kinds["1-point match"] += state.length == 1
        kinds["money"] += state.length == 0
        kinds["game over"] += "On roll" not in board and "Rolled" not in board and "offered" not in board
    assert compared >= 1350, compared
    assert min(kinds.values()) >= 20, kinds


# ---------------------------------------------------------------------------
# the layout, worked by hand from gnubg's drawboard.c
# ---------------------------------------------------------------------------

def at(line: str, col: int) -> str:
    """The character of a board line at a column (blank past its end)."""
    return line[col] if col < len(line) else " "


# Columns of a board line: the checkers of the left half at 3, 6, .., 18, the
# bar at 22, the right half at 26, 29, .., 41, the three columns of borne-off
# checkers at 45..47, the side texts from 49. Lines: 0-1 the IDs, 2 the top
# edge, 3-7 the top rows (from the edge), 8 the bar line, 9-13 the bottom rows
# (from the bar line), 14 the bottom edge, 15 the pip counts.
X_6_POINT = X_19_POINT = 26
X_1_POINT = X_24_POINT = 41
BAR, OFF = 22, 45
TOP, BOTTOM = range(3, 8), range(9, 14)


def test_start_with_player_0_on_roll():
    out = draw_board(START, START, MatchState(on_roll=0, turn=0, dice=(5, 2), length=5),
                     names=("Ann", "Bob")).splitlines()
    assert len(out) == BOARD_LINES + 1
    assert out[0] == " GNU Backgammon  Position ID: 4HPwATDgc/ABMA"
    assert out[1] == "                 Match ID   : " + match_id(MatchState(on_roll=0, turn=0, dice=(5, 2), length=5))
    assert out[2] == " +12-11-10--9--8--7-------6--5--4--3--2--1-+     O: Ann"
    assert out[3] == " | X           O    |   | O              X |     0 points"
    assert out[4] == " | X           O    |   | O              X |     Rolled 52"
    assert out[7] == " | X                |   | O                |"
    assert out[8] == "^|                  |BAR|                  |     5 points match (Cube: 1)"
    assert out[9] == " | O                |   | X                |"
    assert out[12] == " | O           X    |   | X              O |"
    assert out[13] == " | O           X    |   | X              O |     0 points"
    assert out[14] == " +13-14-15-16-17-18------19-20-21-22-23-24-+     X: Bob"
    assert out[15] == "Pip counts: O 167, X 167"


def test_x_and_o_stay_put_when_the_turn_changes():
    """Player 1 (X) is at the bottom whoever is on roll; the point numbers,
    the marker, the Position ID and the side texts follow the turn."""
    ann = side({6: 5, 8: 3, 13: 5, 24: 1, 25: 1})   # player 0: O
    bob = side({6: 4, 8: 3, 13: 5, 24: 2})          # player 1: X, one borne off
    o_on_roll = draw_board(ann, bob, MatchState(on_roll=0, turn=0), names=("Ann", "Bob")).splitlines()
    x_on_roll = draw_board(bob, ann, MatchState(on_roll=1, turn=1), names=("Ann", "Bob")).splitlines()
    rows = [*TOP, *BOTTOM]
    assert [o_on_roll[r][:48].rstrip() for r in rows] == [x_on_roll[r][:48].rstrip() for r in rows]
    assert o_on_roll[2].startswith(" +12-11") and o_on_roll[14].startswith(" +13-14")
    assert x_on_roll[2].startswith(" +13-14") and x_on_roll[14].startswith(" +12-11")
    assert o_on_roll[8][0] == "^" and x_on_roll[8][0] == "v"
    assert o_on_roll[0].endswith(position_id(ann, bob)) and x_on_roll[0].endswith(position_id(bob, ann))
    assert o_on_roll[4].endswith("On roll") and x_on_roll[12].endswith("On roll")
    b = o_on_roll
    assert [b[r][BAR] for r in TOP] == ["O", " ", " ", " ", " "]          # Ann's one on the bar
    assert [b[r][X_24_POINT] for r in TOP] == ["X", "X", " ", " ", " "]  # Bob's two on his 24-point
    assert [b[r][X_1_POINT] for r in BOTTOM] == [" ", " ", " ", " ", "O"]  # Ann's 24-point is X's 1
    assert [at(b[r], OFF) for r in BOTTOM] == [" ", " ", " ", " ", "X"]  # Bob's one borne off
    assert [at(b[r], OFF) for r in TOP] == [" "] * 5
    assert b[15] == "Pip counts: O 168, X 161"


def test_tall_stacks_bar_and_borne_off():
    x = side({6: 9, 25: 6})            # X, on roll: 9 on its 6-point, 6 on the bar
    o = side({1: 12, 25: 1})           # O: 12 on its ace point, 1 on the bar, 2 off
    out = draw_board(x, o, MatchState(on_roll=1, turn=1)).splitlines()
    # the fifth row of a stack, nearest the bar line, shows its count; the bar likewise
    assert [out[r][X_6_POINT] for r in BOTTOM] == ["9", "X", "X", "X", "X"]
    assert [out[r][BAR] for r in BOTTOM] == ["6", "X", "X", "X", "X"]
    assert [out[r][X_24_POINT] for r in TOP] == ["O", "O", "O", "O", "C"]  # 12 is C
    assert [out[r][BAR] for r in TOP] == ["O", " ", " ", " ", " "]
    assert [at(out[r], OFF) for r in TOP] == ["O", "O", " ", " ", " "]
    assert out[8][0] == "v" and out[15] == f"Pip counts: O 37, X {9 * 6 + 6 * 25}"
    # fifteen borne off: three columns of five; the game is over, so no "On roll"
    done = draw_board(side({}), side({24: 2}), MatchState(on_roll=1, turn=1)).splitlines()
    assert [out_r[OFF:OFF + 3] for out_r in (done[r] for r in BOTTOM)] == ["XXX"] * 5
    assert [done[r][X_1_POINT] for r in BOTTOM] == [" ", " ", " ", "O", "O"]
    assert not any("On roll" in line for line in done) and done[15] == "Pip counts: O 48, X 0"


def test_five_checkers_show_the_letter_and_six_the_count():
    five = draw_board(side({6: 5}), side({6: 6}), MatchState(on_roll=1, turn=1)).splitlines()
    assert [five[r][X_6_POINT] for r in BOTTOM] == ["X"] * 5
    assert [five[r][X_19_POINT] for r in TOP] == ["O", "O", "O", "O", "6"]  # O's 6-point is X's 19
    fifteen = draw_board(side({6: 15}), side({}), MatchState(on_roll=1, turn=1)).splitlines()
    assert fifteen[9][X_6_POINT] == "F"


def test_side_texts():
    def texts(state: MatchState, names=("Ann", "Bob")) -> list[str]:
        lines = draw_board(START, START, state, names=names).splitlines()[2:BOARD_LINES]
        return [line[49:] for line in lines]

    # t[0] the top edge (O), t[1] O's score, t[2] O's roll, t[6] the bar line,
    # t[-3] X's roll, t[-2] X's score, t[-1] the bottom edge (X)
    t = texts(MatchState(on_roll=1, turn=1, cube=2, cube_owner=0, score=(1, 3), length=7))
    assert t[0] == "O: Ann (Cube: 2)" and t[-1] == "X: Bob"
    assert t[1] == "1 point" and t[-2] == "3 points" and t[-3] == "On roll" and t[2] == ""
    assert t[6] == "7 points match"
    t = texts(MatchState(on_roll=0, turn=0, cube=4, cube_owner=1))
    assert t[-1] == "X: Bob (Cube: 4)" and t[6] == "" and t[2] == "On roll"
    assert texts(MatchState(on_roll=0, turn=0, cube=2))[6] == "(Cube: 2)"
    assert texts(MatchState(length=1, cube=2))[6] == "1 point match"
    assert texts(MatchState(length=5, score=(4, 2), crawford=True))[6] == "5 points match (Crawford game)"
    # a pending double: beside the player who must answer; no owner, roll or length
    t = texts(MatchState(on_roll=0, turn=1, cube=2, cube_owner=0, double_offered=True, length=7))
    assert t[-3] == "Cube offered at 4" and t[0] == "O: Ann" and t[6] == "" and t[2] == ""
    # a resignation follows the roll of the player on roll; the higher die first
    t = texts(MatchState(on_roll=1, turn=0, resignation=2, dice=(1, 4), length=3))
    assert t[-3] == "Rolled 41, resigns gammon"
    assert texts(MatchState(on_roll=0, turn=1, resignation=1))[2] == "On roll, resigns single game"
    # names are not cut
    assert texts(MatchState(), names=("a" * 40, "Zoë"))[0] == "O: " + "a" * 40
    # without a state: no score, player 0 on roll, the default names
    lines = draw_board(START, START).splitlines()
    assert lines[2].endswith("O: player 1") and lines[14].endswith("X: player 2")
    assert lines[3].endswith("|") and lines[4].endswith("On roll")


def test_the_match_id_is_the_states():
    state = MatchState(on_roll=1, turn=1, dice=(6, 5), cube=2, cube_owner=0, score=(3, 1), length=7)
    out = draw_board(START, START, state, names=("Alice", "Bob"))
    mid = re.search(r"Match ID   : (\S+)", out).group(1)
    assert mid == match_id(state) and decode_match_id(mid) == state


def test_board_from_ids():
    mid = match_id(MatchState(on_roll=1, turn=1, length=3))
    out = board_from_id(f"4HPwATDgc/ABMA:{mid}").splitlines()
    assert out[8][0] == "v" and out[12].endswith("On roll") and out[14].endswith("X: player 2")
    # an XGID's bottom player is player 1: X at the bottom here too
    lines = board_from_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10",
                          names=("Top", "Bottom")).splitlines()
    assert lines[14].endswith("X: Bottom") and lines[12].endswith("Rolled 31") and lines[8][0] == "v"
    assert lines[-1] == "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10"
