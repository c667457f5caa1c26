"""Tests for gamao_cli.ids: Position ID, Match ID, XGID, ASCII board.

Oracles used, besides hand-worked values:
- the position exports of eXtreme Gammon and BGBlitz in ../shared/corpus
  (or ``$GAMAO_CORPUS``)
  (XGID next to gnubg Position/Match IDs, pip counts, score and cube text);
- the ``gnubg`` wheel (positionid / positionfromid / matchid / setgnubgid);
- Debian's ``/usr/games/gnubg -t`` (``set xgid`` + ``show board``);
- the Position ID and Match ID GNU Backgammon printed before every move of
  its self-play matches (``tests/data/selfplay/ids``), next to gnubg's own
  match file of each match (``tests/data/selfplay``).
"""
from __future__ import annotations

import dataclasses

import contextlib
import importlib
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CORPUS, SELFPLAY
from gamao_cli.ids import gnubg as P
from gamao_cli.ids import (
    MatchState,
    decode_match_id,
    decode_position_id,
    match_id,
    parse_xgid,
    position_id,
    xgid,
)
from gamao_cli.render.text import draw_board

START = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
XG_DIR = CORPUS / "kevung__xgparser"
BGF_DIR = CORPUS / "kevung__bgfparser"
GNUBG_BIN = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)

try:  # the PyPI wheel
    import gnubg as gnubg_wheel  # type: ignore
except Exception:  # pragma: no cover - depends on the machine
    gnubg_wheel = None

needs_wheel = pytest.mark.skipif(gnubg_wheel is None, reason="the gnubg wheel (pip install gnubg) is not installed")


@contextlib.contextmanager
def quiet_c_stdout():
    """gnubg prints to the C-level stdout; silence it around a call."""
    import sys

    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


# ---------------------------------------------------------------------------
# strategies and random generators
# ---------------------------------------------------------------------------

@st.composite
def positions(draw, max_checkers: int = 15):
    """Random valid positions (me, opp) with 15 checkers a side."""
    me_slots = draw(st.lists(st.integers(1, 25), max_size=max_checkers))
    me = [0] * 26
    for s in me_slots:
        me[s] += 1
    allowed = [q for q in range(1, 26) if q == 25 or me[25 - q] == 0]
    opp_slots = draw(st.lists(st.sampled_from(allowed), max_size=max_checkers))
    opp = [0] * 26
    for s in opp_slots:
        opp[s] += 1
    me[0] = 15 - sum(me)
    opp[0] = 15 - sum(opp)
    return tuple(me), tuple(opp)


def random_position(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    me = [0] * 26
    opp = [0] * 26
    for _ in range(rng.choice([15, 15, 15, rng.randint(0, 15)])):
        me[rng.choice([rng.randint(1, 24), rng.randint(1, 6), 25] if rng.random() < 0.3 else [rng.randint(1, 24)])] += 1
    allowed = [q for q in range(1, 26) if q == 25 or me[25 - q] == 0]
    for _ in range(rng.choice([15, 15, 15, rng.randint(0, 15)])):
        opp[rng.choice(allowed)] += 1
    me[0] = 15 - sum(me)
    opp[0] = 15 - sum(opp)
    return tuple(me), tuple(opp)


match_states = st.builds(
    MatchState,
    cube=st.sampled_from([1 << k for k in range(16)]),
    cube_owner=st.sampled_from([None, 0, 1]),
    on_roll=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.integers(0, 4),
    turn=st.integers(0, 1),
    double_offered=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    length=st.integers(0, 32767),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    jacoby=st.booleans(),
)


# ---------------------------------------------------------------------------
# Position ID
# ---------------------------------------------------------------------------

def test_start_position_id():
    assert position_id(START, START) == "4HPwATDgc/ABMA"
    assert decode_position_id("4HPwATDgc/ABMA") == (START, START)


def test_known_position_ids():
    empty = (15,) + (0,) * 25
    assert position_id(empty, empty) == "AAAAAAAAAAAAAA"
    # from a gnubg export: X opened 32 with 24/21 13/11, now O is on roll
    opp = list(START)
    opp[24], opp[21], opp[13], opp[11] = 1, 1, 4, 1
    assert position_id(START, tuple(opp)) == "4HPkASLgc/ABMA"
    assert decode_position_id("4HPkASLgc/ABMA") == (START, tuple(opp))
    # gnubg ignores the 4 padding bits of the last character; so do we
    assert decode_position_id("4HPwATDgc/ABMP") == (START, START)


@given(positions())
@settings(max_examples=300, deadline=None)
def test_position_id_round_trip(pos):
    me, opp = pos
    pid = position_id(me, opp)
    assert len(pid) == 14
    assert decode_position_id(pid) == (me, opp)


@given(positions(max_checkers=3))
@settings(max_examples=50, deadline=None)
def test_position_id_other_checker_counts(pos):
    me, opp = pos
    me3 = (3 - sum(me[1:]),) + me[1:]
    opp3 = (3 - sum(opp[1:]),) + opp[1:]
    assert decode_position_id(position_id(me3, opp3), checkers=3) == (me3, opp3)


@pytest.mark.parametrize(
    "bad, fragment",
    [
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/ABMAA", "14 characters"),
        ("4HPwATDgc/AB!A", "not a base64 character"),
        ("//////////////", "more than 15"),
        (None, "must be a string"),
    ],
)
def test_decode_position_id_rejects(bad, fragment):
    with pytest.raises(ValueError, match=re.escape(fragment)):
        decode_position_id(bad)


def _bytes_of(bits, nbytes):
    """Bits to bytes, least significant bit first (as gnubg packs its keys)."""
    out = bytearray(nbytes)
    for i, b in enumerate(bits):
        if b:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def test_decode_position_id_rejects_overlap_and_garbage():
    me = list(START)
    opp = list(START)
    # hand-build a key with both players on my point 1 (opponent's point 24)
    bits = []
    for side in (opp, me):
        for p in range(1, 26):
            bits += [1] * side[p] + [0]
    assert position_id(START, START) == P._b64_encode(_bytes_of(bits, 10))
    me_bad = list(START)
    me_bad[1] = 1
    me_bad[24] -= 1
    bits = []
    for side in (opp, me_bad):
        for p in range(1, 26):
            bits += [1] * side[p] + [0]
    with pytest.raises(ValueError, match="same point|both players"):
        decode_position_id(P._b64_encode(_bytes_of(bits, 10)))
    # a stray 1 bit after the last bar separator (fewer checkers leave room)
    bits = [1, 0] + [0] * 24 + [1, 0] + [0] * 24
    bits += [0] * (79 - len(bits)) + [1]
    with pytest.raises(ValueError, match="stray bits"):
        decode_position_id(P._b64_encode(_bytes_of(bits, 10)))


@pytest.mark.parametrize(
    "me, opp, fragment",
    [
        (START[:25], START, "26 entries"),
        ((-1,) + START[1:], START, "negative"),
        ((0,) + (1,) * 25, START, "at most 15"),
        (START[:1] + (1,) + START[2:24] + (1, 0), START, "same point"),  # my 1 vs opp 24
        ((0.5,) + START[1:], START, "must be an int"),
    ],
)
def test_position_id_rejects_bad_boards(me, opp, fragment):
    with pytest.raises(ValueError, match=fragment):
        position_id(me, opp)


def test_decode_position_id_checkers_param():
    me, opp = decode_position_id("4HPwATDgc/ABMA", checkers=15)
    assert me[0] == 0
    with pytest.raises(ValueError, match="more than 14"):
        decode_position_id("4HPwATDgc/ABMA", checkers=14)
    with pytest.raises(ValueError, match="checkers must be"):
        decode_position_id("4HPwATDgc/ABMA", checkers=16)


# ---------------------------------------------------------------------------
# Match ID
# ---------------------------------------------------------------------------

def test_match_id_known_values():
    # gnubg's own IDs (from `gnubg -t` / the wheel)
    assert match_id(MatchState()) == "MAEAAAAAAAAE"
    st7 = MatchState(length=7, cube=2, cube_owner=0, on_roll=1, turn=1, dice=(2, 1), score=(6, 3))
    assert match_id(st7) == "QQnlAGAAGAAE"
    assert decode_match_id("QQnlAGAAGAAE") == st7
    # a self-play export: "Player_1 doubles to 2" (player 0 doubled, player 1 to decide)
    d = decode_match_id("MBmgAAAAAAAE")
    assert (d.on_roll, d.turn, d.double_offered, d.cube, d.cube_owner, d.length) == (0, 1, True, 1, None, 5)
    # money session with the Jacoby rule: the last bit is clear
    assert decode_match_id("MQEAAAAAAAAA").jacoby is True
    assert decode_match_id("MQEAAAAAAAAE").jacoby is False


@given(match_states)
@settings(max_examples=300, deadline=None)
def test_match_id_round_trip(state):
    mid = match_id(state)
    assert len(mid) == 12
    # gnubg writes the higher die first; everything else comes back as it was
    high_first = (max(state.dice), min(state.dice))
    assert decode_match_id(mid) == MatchState(**{**vars(state), "dice": high_first})
    assert match_id(decode_match_id(mid)) == mid


def test_match_id_dice_order():
    # BGBlitz's ID for "Red to move 1-2" holds the dice low first; gnubg
    # (`set matchid` then `show board`) answers with the high die first.
    st = decode_match_id("QYnoAGAAGAAE")
    assert st.dice == (1, 2)
    assert match_id(st) == "QQnlAGAAGAAE"
    assert decode_match_id("QQnlAGAAGAAE").dice == (2, 1)


def test_swap_players():
    st = MatchState(cube=4, cube_owner=1, on_roll=0, turn=1, double_offered=True, score=(2, 5), length=7)
    sw = st.swap_players()
    assert (sw.cube_owner, sw.on_roll, sw.turn, sw.score) == (0, 1, 0, (5, 2))
    assert sw.swap_players() == st
    assert MatchState().swap_players().cube_owner is None


@pytest.mark.parametrize(
    "bad, fragment",
    [
        ("cAgAAAAAAA", "12 characters"),
        ("cAgAAAAAAA$$", "base64"),
        ("cAgAAAAAAAA/", "unused bits"),  # bits 67..71 set
        ("YAgAAAAAAAAE", "cube owner field is 2"),
        ("cA8AAAAAAAAE", "game state"),
        ("AIEAAAAAAAAE", "dice"),  # first die 1, second 0
    ],
)
def test_decode_match_id_rejects(bad, fragment):
    with pytest.raises(ValueError, match=fragment):
        decode_match_id(bad)


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"cube": 3}, "power of two"),
        ({"cube": 1 << 16}, "power of two"),
        ({"cube_owner": 2}, "cube_owner"),
        ({"dice": (7, 1)}, "dice"),
        ({"dice": (0, 3)}, "dice"),
        ({"length": 1 << 15}, "length"),
        ({"score": (-1, 0)}, "score"),
        ({"game_state": 5}, "game_state"),
        ({"resignation": 4}, "resignation"),
        ({"turn": 2}, "turn"),
    ],
)
def test_match_state_validates(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        MatchState(**kwargs)
    fields = {**dataclasses.asdict(MatchState()), **kwargs}
    with pytest.raises(ValueError, match=fragment):
        MatchState.of(*fields.values())


_FIELD_VALUES = {
    "cube": [1, 2, 64, 1 << 15, 3, 1 << 16, True, 2.0], "cube_owner": [None, 0, 1, 2, True],
    "on_roll": [0, 1, 2, True], "crawford": [False, True, 0, 1, None],
    "game_state": [0, 1, 4, 5, True], "turn": [0, 1, -1], "double_offered": [False, True, 1],
    "resignation": [0, 3, 4], "dice": [(0, 0), (6, 5), (1, 2), (7, 1), (0, 3), [6, 5], (True, 1)],
    "length": [0, 7, (1 << 15) - 1, 1 << 15, True], "score": [(0, 0), (3, 4), [3, 4], (-1, 0)],
    "jacoby": [False, True, 1]}


def test_match_state_of_is_the_constructor_field_by_field():
    """MatchState.of, the replay's quick way to a state, gives what the
    constructor gives for every field's usual and odd values: the same
    state (equal, hashing alike, fields of the same types) or the same
    ValueError."""
    import random
    rng = random.Random(5)
    names = list(_FIELD_VALUES)
    assert names == [f.name for f in dataclasses.fields(MatchState)]
    checked = 0
    for _ in range(3000):
        # (the first two values of each field are usual ones)
        values = [rng.choice(v) if rng.random() < 0.15 else v[rng.randrange(2)]
                  for v in (_FIELD_VALUES[n] for n in names)]
        try:
            made = MatchState(*values)
        except ValueError as e:
            with pytest.raises(ValueError) as got:
                MatchState.of(*values)
            assert str(got.value) == str(e)
            continue
        quick = MatchState.of(*values)
        assert quick == made and hash(quick) == hash(made) and repr(quick) == repr(made)
        assert [type(getattr(quick, n)) for n in names] == [type(getattr(made, n)) for n in names]
        assert match_id(quick) == match_id(made)
        checked += 1
    assert checked > 100


# ---------------------------------------------------------------------------
# XGID
# ---------------------------------------------------------------------------

def test_xgid_start_and_orientation():
    x = xgid(START, START, length=7)
    assert x == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10"
    s = parse_xgid(x)
    assert (s.me, s.opp, s.turn, s.cube, s.cube_owner, s.dice, s.decision) == (START, START, 1, 1, 0, None, None)
    # the top player on roll: the board string is unchanged, lower case is "me"
    me = list(START)
    me[25], me[6] = 1, 4  # I (top player) am on the bar
    x2 = xgid(tuple(me), START, turn=-1)
    assert x2.split(":")[0] == "XGID=ab----E-C---eE---c-d----B-"
    s2 = parse_xgid(x2)
    assert s2.me == tuple(me) and s2.opp == START and s2.turn == -1
    assert s2.to_xgid() == x2


def test_xgid_fields_and_markers():
    s = parse_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10")
    assert (s.cube, s.cube_owner, s.turn, s.dice, s.score, s.rules, s.length, s.max_cube) == (
        2, -1, 1, (2, 1), (3, 6), 0, 7, 10)
    assert s.me[1] == 2 and s.me[3] == 3 and s.opp[15] == 1 and s.opp[1] == 4
    assert s.me[0] == 15 - sum(s.me[1:])
    ms = s.match_state()
    assert (ms.on_roll, ms.turn, ms.cube_owner, ms.score, ms.dice) == (1, 1, 0, (6, 3), (2, 1))
    for marker in "DBR":
        t = parse_xgid(f"XGID=-B-CBBB---a---A---ABcbbbd-:1:1:1:{marker}:3:6:0:7:10")
        assert t.decision == marker and t.dice is None
        assert t.to_xgid().split(":")[4] == marker
    doubled = parse_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:1:1:-1:D:3:6:0:7:10").match_state()
    assert doubled.double_offered and doubled.on_roll == 0 and doubled.turn == 1
    with pytest.raises(ValueError, match="beaver"):
        parse_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:1:0:1:B:0:0:3:0:10").match_state()
    # rules field
    assert parse_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:0:0:1:00:6:3:1:7:10").crawford
    money = parse_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:0:0:1:00:0:0:3:0:8")
    assert money.jacoby and money.beavers and not money.crawford and money.max_cube == 8
    assert money.match_state().jacoby
    # no prefix, nine fields (no max cube), whitespace
    nine = parse_xgid("  -B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7 ")
    assert nine.max_cube is None and nine.to_xgid() == "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7"


def test_xgid_builder_options():
    assert xgid(START, START, dice=(3, 1), length=5, score=(2, 1)).endswith(":0:0:1:31:2:1:0:5:10")
    assert xgid(START, START, dice="13").split(":")[4] == "13"
    assert xgid(START, START, crawford=True, length=3).split(":")[7] == "1"
    assert xgid(START, START, jacoby=True, beavers=True).split(":")[7] == "3"
    assert xgid(START, START, rules=0, jacoby=True).split(":")[7] == "0"
    assert xgid(START, START, cube=8, cube_owner=-1, max_cube=None).split(":")[1:3] == ["3", "-1"]
    assert xgid(START, START, max_cube=None).count(":") == 8


@pytest.mark.parametrize(
    "bad, fragment",
    [
        ("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0", "10 colon-separated"),
        ("XGID=-B-CBBB---a---A---ABcbbbd:1:-1:1:21:3:6:0:7:10", "26 characters"),
        ("XGID=-B-CBBB---a---A---ABcbbbd*:1:-1:1:21:3:6:0:7:10", "position char 25"),
        ("XGID=BB-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10", "top player's bar"),
        ("XGID=-B-CBBB---a---A---ABcbbbda:1:-1:1:21:3:6:0:7:10", "bottom player's bar"),
        ("XGID=-P-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10", "more than 15"),
        ("XGID=-B-CBBB---a---A---ABcbbbd-:x:-1:1:21:3:6:0:7:10", "integer"),
        ("XGID=-B-CBBB---a---A---ABcbbbd-:1:2:1:21:3:6:0:7:10", "cube owner"),
        ("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:0:21:3:6:0:7:10", "turn"),
        ("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:71:3:6:0:7:10", "dice"),
        ("XGID=-B-CBBB---a---A---ABcbbbd-:16:-1:1:21:3:6:0:7:10", "cube field"),
        ("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:-3:6:0:7:10", "negative"),
    ],
)
def test_parse_xgid_rejects(bad, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_xgid(bad)


@given(
    positions(),
    st.sampled_from([1, -1]),
    st.sampled_from([0, 1, -1]),
    st.integers(0, 12),
    st.one_of(st.none(), st.sampled_from(["D", "B", "R"]), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    st.tuples(st.integers(0, 30), st.integers(0, 30)),
    st.integers(0, 3),
    st.integers(0, 31),
    st.one_of(st.none(), st.integers(0, 15)),
)
@settings(max_examples=300, deadline=None)
def test_xgid_round_trip(pos, turn, owner, cube_log2, dice, score, rules, length, max_cube):
    me, opp = pos
    x = xgid(me, opp, cube=1 << cube_log2, cube_owner=owner, turn=turn, dice=dice, score=score,
             rules=rules, length=length, max_cube=max_cube)
    s = parse_xgid(x)
    assert (s.me, s.opp, s.turn, s.cube_owner, s.cube, s.score, s.rules, s.length, s.max_cube) == (
        me, opp, turn, owner, 1 << cube_log2, score, rules, length, max_cube)
    assert (s.decision if isinstance(dice, str) else s.dice) == dice
    assert s.to_xgid() == x
    # the same position seen by the other player sits on the other side
    flipped = parse_xgid(xgid(opp, me, turn=-turn))
    assert flipped.to_xgid().split(":")[0] == x.split(":")[0]


@given(
    positions(),
    st.sampled_from([0, 1]),
    st.sampled_from([None, 0, 1]),
    st.integers(0, 15),
    st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    st.booleans(),
    st.tuples(st.integers(0, 40), st.integers(0, 40)),
    st.integers(0, 31),
    st.booleans(),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_xgid_of_a_match_state_reads_back_as_that_state(pos, on_roll, owner, cube_log2, dice,
                                                        offered, score, length, crawford, jacoby):
    """xgid_of_state (the writers' path, which skips xgid()'s argument
    checks) says what the state says, as parse_xgid reads it back; the
    Position ID of the same board, asked before or after, is unchanged."""
    from gamao_cli.ids.xgid import xgid_of_state
    me, opp = pos
    crawford = crawford and length > 0
    state = MatchState(cube=1 << cube_log2, cube_owner=owner, on_roll=on_roll, turn=on_roll,
                       dice=dice, double_offered=offered and dice == (0, 0), score=score,
                       length=length, crawford=crawford, jacoby=jacoby)
    pid = position_id(me, opp)
    x = xgid_of_state(me, opp, state)
    s = parse_xgid(x)
    bottom_on_roll = on_roll == 1
    assert (s.me, s.opp) == (me, opp) and s.turn == (1 if bottom_on_roll else -1)
    assert s.cube == 1 << cube_log2 and s.cube_owner == {None: 0, 1: 1, 0: -1}[owner]
    assert s.score == (score[1], score[0]) and s.length == length and s.max_cube == 10
    assert s.rules == (int(crawford) if length else int(jacoby))
    if state.double_offered:
        assert s.decision == "D"
    else:
        assert s.dice == (None if dice == (0, 0) else dice)
    assert x == xgid(me, opp, cube=state.cube, cube_owner=s.cube_owner, turn=s.turn,
                     dice=None if dice == (0, 0) and not state.double_offered else
                     "D" if state.double_offered else dice,
                     score=s.score, crawford=crawford, jacoby=jacoby, length=length)
    assert position_id(me, opp) == pid == position_id(list(me), list(opp))


# ---------------------------------------------------------------------------
# the corpus: eXtreme Gammon and BGBlitz position exports
# ---------------------------------------------------------------------------

def _corpus_files() -> list[Path]:
    return sorted(XG_DIR.glob("*.txt")) + sorted(BGF_DIR.glob("*.txt"))


corpus_missing = pytest.mark.skipif(
    not (XG_DIR.is_dir() and BGF_DIR.is_dir()),
    reason=f"position exports not found under {CORPUS} (kevung__xgparser, kevung__bgfparser)",
)


@corpus_missing
def test_corpus_has_fourteen_exports():
    assert len(_corpus_files()) == 14


def _pips(side) -> int:
    return sum(p * side[p] for p in range(1, 26))


@corpus_missing
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_export(path: Path):
    text = path.read_text(encoding="utf-8")
    x = re.search(r"XGID=\S+", text).group(0)
    s = parse_xgid(x)
    assert s.to_xgid() == x, "re-encoding the XGID must give it back exactly"
    assert s.turn == 1  # every export here has the bottom player (X / Red) on roll
    bottom, top = s.me, s.opp
    if path.parent == XG_DIR:
        m = re.search(r"Pip count\s+X: (\d+)\s+O: (\d+)", text)
        assert (_pips(bottom), _pips(top)) == (int(m.group(1)), int(m.group(2)))
        m = re.search(r"Score is X:(\d+) O:(\d+) (\d+) pt", text)
        assert (s.score, s.length) == ((int(m.group(1)), int(m.group(2))), int(m.group(3)))
        m = re.search(r"Cube: (\d+)(?:, (\w) own cube)?", text)
        assert s.cube == int(m.group(1))
        assert s.cube_owner == {None: 0, "X": 1, "O": -1}[m.group(2)]
        m = re.search(r"^X to play (\d)(\d)$", text, re.M)
        assert s.dice == ((int(m.group(1)), int(m.group(2))) if m else None)
        assert re.search(r"^X (to play|on roll)", text, re.M)
        # the bar in the diagram: file 04 shows X on the bar
        assert (bottom[25] > 0) == bool(re.search(r"\| X \|", text))
    else:
        m_o = re.search(r"O: \S+\s+(\d+)\s*$", text, re.M)
        m_x = re.search(r"X: \S+\s+(\d+)\s*$", text, re.M)
        assert (_pips(bottom), _pips(top)) == (int(m_x.group(1)), int(m_o.group(1)))
        m = re.search(r"(\S+) - (\d+) (\S+) - (\d+) in a (\d+) point match", text)
        assert s.score == (int(m.group(4)), int(m.group(2))) and s.length == int(m.group(5))
        ids = re.search(r"Position-ID: (\S+)\s+Match-ID: (\S+)", text)
        assert s.position_id() == ids.group(1)
        ours, theirs = s.match_state(), decode_match_id(ids.group(2))
        mv = re.search(r"to move (\d)-(\d)", text)
        if mv is None:
            assert s.match_id() == ids.group(2)
        else:
            # BGBlitz writes the roll low die first ("Red to move 1-2") where the
            # XGID says 21; gnubg writes the high die first.  Same state otherwise.
            assert theirs.dice == (int(mv.group(1)), int(mv.group(2)))
            assert MatchState(**{**vars(theirs), "dice": ours.dice}) == ours
            assert match_id(theirs) == s.match_id()


# ---------------------------------------------------------------------------
# agreement with gnubg
# ---------------------------------------------------------------------------

@pytest.mark.gnubg
@needs_wheel
def test_position_ids_agree_with_gnubg_wheel():
    rng = random.Random(20251130)
    for _ in range(3000):
        me, opp = random_position(rng)
        board = (opp[1:], me[1:])  # gnubg: (player not on roll, player on roll), bar last
        pid = position_id(me, opp)
        assert pid == gnubg_wheel.positionid(board)
        back = gnubg_wheel.positionfromid(pid)
        assert decode_position_id(pid) == ((me[0],) + tuple(back[1]), (opp[0],) + tuple(back[0]))


@pytest.mark.gnubg
@needs_wheel
def test_match_ids_agree_with_gnubg_wheel():
    rng = random.Random(7)
    checked = 0
    for _ in range(10000):
        if checked == 2000:
            break
        # gnubg's match equity table stops at 64 points: longer matches crash cubeinfo()
        length = rng.choice([0, 1, 2, 3, 5, 7, 11, 25, 63])
        score = (rng.randrange(length), rng.randrange(length)) if length else (0, 0)
        state = MatchState(
            cube=1 << rng.randint(0, 12),
            cube_owner=rng.choice([None, 0, 1]),
            on_roll=rng.randint(0, 1),
            crawford=bool(length) and rng.random() < 0.2,
            game_state=rng.randint(0, 4),
            turn=rng.randint(0, 1),
            double_offered=rng.random() < 0.2,
            resignation=rng.randint(0, 3),
            dice=rng.choice([(0, 0), (rng.randint(1, 6), rng.randint(1, 6))]),
            length=length,
            score=score,
            jacoby=length == 0,  # the wheel's default: Jacoby on (it only matters for money)
        )
        owner = -1 if state.cube_owner is None else state.cube_owner
        try:
            ci = gnubg_wheel.cubeinfo(state.cube, owner, state.on_roll, length, score, int(state.crawford), 0)
        except RuntimeError:
            continue
        pi = gnubg_wheel.posinfo(state.turn, state.resignation, int(state.double_offered), state.game_state,
                                 state.dice)
        assert match_id(state) == gnubg_wheel.matchid(ci, pi), state
        checked += 1
    assert checked == 2000


def _gnubg_sets_xgid_faithfully(rng: random.Random) -> str:
    """A random XGID that gnubg's importer keeps as it is (no Crawford cube, no money score)."""
    me, opp = random_position(rng)
    turn = rng.choice([1, -1])
    length = rng.choice([0, 1, 3, 5, 7, 9, 11, 25])
    if length:
        score = (rng.randrange(length), rng.randrange(length))
        # gnubg accepts the Crawford flag only when exactly one side is at match point
        crawford = length > 1 and (score.count(length - 1) == 1) and rng.random() < 0.5
    else:
        score, crawford = (0, 0), False
    if crawford:
        cube, owner = 1, 0
    else:
        cube, owner = 1 << rng.randint(0, 6), rng.choice([0, 1, -1])
        if cube == 1:
            owner = 0
    dice = rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))])
    return xgid(me, opp, cube=cube, cube_owner=owner, turn=turn, dice=dice, score=score,
                crawford=crawford, jacoby=rng.random() < 0.5, length=length)


@pytest.mark.gnubg
@needs_wheel
def test_xgid_conversion_agrees_with_gnubg_wheel():
    rng = random.Random(42)
    samples = [_gnubg_sets_xgid_faithfully(rng) for _ in range(1500)]
    if CORPUS.is_dir():
        samples += [re.search(r"XGID=\S+", p.read_text(encoding="utf-8")).group(0) for p in _corpus_files()]
    for x in samples:
        with quiet_c_stdout():
            gnubg_wheel.setgnubgid(x)
            theirs = gnubg_wheel.gnubgid()
        s = parse_xgid(x)
        assert f"{s.position_id()}:{s.match_id()}" == theirs, x


_GNUBG_SCRIPT = """
import gnubg, os
out = open(os.environ["GAMAO_OUT"], "w")
for cmd in ("set player 0 human", "set player 1 human", "new match 7"):
    gnubg.command(cmd)
for x in open(os.environ["GAMAO_IN"]).read().split():
    gnubg.command("set xgid " + x)
    out.write(x + " " + gnubg.positionid() + " " + gnubg.matchid() + "\\n")
out.close()
"""


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG_BIN is None, reason="Debian's gnubg (/usr/games/gnubg) is not installed")
def test_xgid_conversion_agrees_with_gnubg_cli(tmp_path):
    """Debian's gnubg 1.07 (`gnubg -t -p script`): same Position IDs; its Match
    IDs number the player on roll 1, so they equal ours with the players
    swapped when the top player is on roll."""
    rng = random.Random(99)
    samples = [_gnubg_sets_xgid_faithfully(rng) for _ in range(300)]
    (tmp_path / "in.txt").write_text("\n".join(samples))
    (tmp_path / "script.py").write_text(_GNUBG_SCRIPT)
    env = {**os.environ, "GAMAO_IN": str(tmp_path / "in.txt"), "GAMAO_OUT": str(tmp_path / "out.txt")}
    subprocess.run([GNUBG_BIN, "-t", "-q", "-r", "-p", str(tmp_path / "script.py")], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=False)
    rows = [line.split() for line in (tmp_path / "out.txt").read_text().splitlines()]
    assert [r[0] for r in rows] == samples
    turns = set()
    for x, pid, mid in rows:
        s = parse_xgid(x)
        assert s.position_id() == pid, x
        ours = s.match_state()
        if s.turn == -1:
            ours = ours.swap_players()
        assert match_id(ours) == mid, x
        turns.add(s.turn)
    assert turns == {1, -1}


# ---------------------------------------------------------------------------
# GNU Backgammon self-play exports (real states, with gnubg's match file alongside)
# ---------------------------------------------------------------------------

def _gnubg_rows(path: Path) -> dict[int, list[tuple[str, str, str]]]:
    """game -> [(who and what, Position ID, Match ID)] as gnubg printed them
    before each entry of its text export (tests/data/selfplay/ids)."""
    out: dict[int, list[tuple[str, str, str]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        game, _move, what, pid, mid = line.split("\t")
        out.setdefault(int(game), []).append((what, pid, mid))
    return out


_WHAT = re.compile(r"^(?P<who>.+?) (?:to play (?P<d1>\d)(?P<d2>\d)|doubles to (?P<cube>\d+)"
                   r"|on roll, cube decision\?)$")


def test_selfplay_exports_decode_consistently():
    """The Position ID and Match ID gnubg printed before every move of its
    own self-play matches (tests/data/selfplay/ids, from gnubg's text
    exports) decode, with gamao's decoders, into what gnubg's match file of
    the same match says at that point: who is on roll and whose turn it is,
    the dice, a pending double and its value, the cube and its owner after a
    take, the score, the length, the Crawford game, a checker on the bar
    when the play enters one; and each ID encodes back to itself."""
    from gamao_cli import model as m
    from gamao_cli.formats import read_path
    ids = sorted((SELFPLAY / "ids").glob("*.ids"))
    assert len(ids) >= 12, f"the self-play IDs are missing from {SELFPLAY / 'ids'}"
    checked = {"rows": 0, "bar": 0, "cube": 0, "crawford": 0}
    for path in ids:
        [match] = read_path(str(SELFPLAY / f"{path.stem}.mat"))
        names = list(match.players)
        rows = _gnubg_rows(path)
        assert sorted(rows) == [g.number for g in match.games], path.stem
        # the Crawford game: the first after a player reaches match point by
        # winning a game (in a 1-point match both start there: none)
        someone_at_match_point = match.length == 1
        for game in match.games:
            score = game.score.scores
            crawford = bool(match.length) and not someone_at_match_point and \
                match.length - 1 in score
            someone_at_match_point = someone_at_match_point or match.length - 1 in score
            rolls = [a for a in game.actions if isinstance(a, (m.Play, m.Dance))]
            cube, owner, pending, who_doubled = 1, None, None, 0
            plays = iter(rolls)
            for what, pid, mid in rows[game.number]:
                me, opp = decode_position_id(pid)
                assert position_id(me, opp) == pid
                ms = decode_match_id(mid)
                assert match_id(ms) == mid
                w = _WHAT.match(what)
                assert w, what
                who = names.index(w.group("who"))
                assert ms.on_roll == who and ms.length == match.length, (path.stem, what)
                if match.length:
                    assert ms.score == score and ms.crawford == crawford and ms.jacoby is False
                    checked["crawford"] += crawford
                if pending is not None:          # the double before was taken
                    cube, owner, pending = pending, 1 - who_doubled, None
                    checked["cube"] += 1
                assert (ms.cube, ms.cube_owner) == (cube, owner), (path.stem, what)
                if w.group("d1"):
                    play = next(plays)
                    dice = (int(w.group("d1")), int(w.group("d2")))
                    assert play.player == who and tuple(play.dice) == dice, (path.stem, what)
                    assert ms.dice == dice and ms.turn == who and not ms.double_offered
                    if isinstance(play, m.Play):
                        enters = any(step.points[0] == 25 for step in play.moves)
                        assert enters == (me[25] > 0), (path.stem, what, play)
                        checked["bar"] += enters
                elif w.group("cube"):
                    assert ms.double_offered and ms.turn == 1 - who and ms.dice == (0, 0)
                    assert int(w.group("cube")) == 2 * ms.cube
                    pending, who_doubled = 2 * ms.cube, who
                else:
                    assert ms.dice == (0, 0) and not ms.double_offered
                checked["rows"] += 1
            assert next(plays, None) is None, f"{path.stem} game {game.number}: rolls left over"
    # every kind of check met real cases
    assert checked["rows"] > 1500 and checked["bar"] > 50 and checked["cube"] > 5
    assert checked["crawford"] > 5, checked


# ---------------------------------------------------------------------------
# the ASCII board and the docstrings
# ---------------------------------------------------------------------------

def test_draw_board_start():
    # player 1 (Bob) on roll: gnubg's X, at the bottom; Alice (player 0) is O at the top
    state = MatchState(on_roll=1, turn=1, dice=(6, 5), cube=2, cube_owner=0, score=(3, 1), length=7)
    out = draw_board(START, START, state, names=("Alice", "Bob"))
    lines = out.splitlines()
    assert "Position ID: 4HPwATDgc/ABMA" in lines[0]
    mid = re.search(r"Match ID   : (\S+)", out).group(1)
    ms = decode_match_id(mid)
    assert (ms.on_roll, ms.dice, ms.cube, ms.cube_owner, ms.score, ms.length) == (1, (6, 5), 2, 0, (3, 1), 7)
    assert lines[2].startswith(" +13-14-15-16-17-18") and lines[2].endswith("O: Alice (Cube: 2)")
    assert lines[14].startswith(" +12-11-10--9--8--7") and lines[14].endswith("X: Bob")
    assert lines[8].startswith("v|") and lines[8].endswith("7 points match")
    assert mid == match_id(state)  # the board's Match ID is the state's own
    assert lines[12].endswith("Rolled 65")
    assert lines[3].endswith("3 points") and lines[13].endswith("1 point")  # Alice (top) 3, Bob (bottom) 1
    assert lines[15] == "Pip counts: O 167, X 167"


def test_draw_board_tall_stacks_and_bar():
    me = [0] * 26
    opp = [0] * 26
    me[6], me[25], me[0] = 9, 2, 4
    opp[1], opp[25], opp[0] = 12, 1, 2
    # no state: player 0 on roll, so "me" is O at the top, numbered from its side
    out = draw_board(tuple(me), tuple(opp))
    rows = out.splitlines()
    assert rows[8][21:24] == "BAR" and rows[8][0] == "^"
    assert [r[21:24].strip() for r in rows[3:8]] == ["O", "O", "", "", ""]  # my two on the bar (top)
    assert [r[21:24].strip() for r in rows[9:14]] == ["", "", "", "", "X"]  # the opponent's one
    # my 9 on my 6-point: X's 19-point, top right's first column; the
    # opponent's 12 on its ace point: bottom right
    assert [r[26] for r in rows[3:8]] == ["O", "O", "O", "O", "9"]
    assert [r[41] for r in rows[9:14]] == ["C", "X", "X", "X", "X"]
    # borne off, right of the board: my 4 at the top, the opponent's 2 at the bottom
    assert [r[45:46] for r in rows[3:8]] == ["O", "O", "O", "O", ""]
    assert [r[45:46] for r in rows[9:14]] == ["", "", "", "X", "X"]
    assert rows[15] == f"Pip counts: O {9 * 6 + 2 * 25}, X {12 + 25}"
    assert position_id(tuple(me), tuple(opp)) in out




# ---------------------------------------------------------------------------
# the memo of sides (gamao_cli/ids/sides.py) against the boards themselves
# ---------------------------------------------------------------------------

def _reference_ids(me, opp):
    """Position ID and XGID position fields (bottom on roll, top on roll) of a
    board, from the board itself (no memo), or the ValueError it raises."""
    X = importlib.import_module("gamao_cli.ids.xgid")  # (gamao_cli.ids.xgid is also a function)
    try:
        key = P._position_key_reference(me, opp)
        me_t, opp_t = P._check_board(me, opp)
    except ValueError as exc:
        return ("raised", str(exc))
    return (P._b64_encode(key), X._position_chars(me_t, opp_t, 1),
            X._position_chars(me_t, opp_t, -1))


def _memo_ids(me, opp):
    X = importlib.import_module("gamao_cli.ids.xgid")  # (gamao_cli.ids.xgid is also a function)
    try:
        pid = position_id(me, opp)
        sides = P.checked_sides(me, opp)
    except ValueError as exc:
        return ("raised", str(exc))
    return (pid, X._position_field(sides, 1), X._position_field(sides, -1))


def _corpus_boards():
    """The board before every action of every corpus match file (as the
    writers' replay keeps it), in order."""
    from conftest import corpus_match_files
    from gamao_cli.formats import read_path
    from gamao_cli.replay.replay import validate_match
    for path in corpus_match_files():
        try:
            matches = read_path(str(path))
        except Exception:
            continue
        for mt in matches:
            for g in validate_match(mt, keep_records=True).games:
                for r in g.records:
                    if r.position is not None:
                        yield r.position.me, r.position.opp


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs the shared corpus")
def test_the_ids_of_every_corpus_position_are_the_ids_of_the_board_itself():
    from gamao_cli.ids import sides
    sides.clear()
    boards = list(_corpus_boards())
    assert len(boards) > 100_000
    for me, opp in boards:
        assert _memo_ids(me, opp) == _reference_ids(me, opp), (me, opp)
        # and as a Position ID reads back
        if sum(me) == sum(opp) == 15:
            assert decode_position_id(position_id(me, opp)) == (me, opp)


def test_a_board_equal_to_a_good_one_but_of_other_types_is_refused_after_it():
    # the memo knows the good side first: a side equal to it (True == 1,
    # 1.0 == 1) must still be refused, and lists, bytes and arrays read as
    # the check reads them
    import array
    from gamao_cli.ids import sides
    sides.clear()
    assert _memo_ids(START, START)[0] == "4HPwATDgc/ABMA"

    class Count(int):
        pass

    ace = list(START)
    ace[24] = 1
    ace[1] = 1   # a checker on my ace point: the opponent's 24 point is held too
    one = (0,) * 24 + (1, 0)          # a checker on my 24 point
    bad = [
        tuple(True if n == 1 else n for n in one),
        tuple(float(n) for n in START),
        tuple(Count(n) for n in START),
        tuple(START[:25]),
        START + (0,),
        tuple(-n for n in START),
        (15,) + START[1:],
        tuple(ace),
        # what the marshal bytes of a new side say: 26 elements of 5 bytes
        # each, ints or not; counts no byte holds, or more than 15 in all
        ("",) + START[1:],
        (b"",) + START[1:],
        ((),) + START[1:],
        (2 ** 40,) + START[1:],
        (256,) + (0,) * 25,
        (16,) + (0,) * 25,
        (0,) * 24 + (16, 0),
    ]
    good = [list(START), bytes(START), array.array("b", START), one,
            (14,) + one[1:], tuple(list(one))]
    for side in bad + good:
        for me, opp in ((side, START), (START, side), (side, one), (one, side)):
            _memo_ids(one, START)   # a good side known under the same bytes, first
            assert _memo_ids(me, opp) == _reference_ids(me, opp), (me, opp)
    # the raw bytes of an array of shorts are those of a good board of bytes
    shorts = array.array("H", [0] * 13)
    assert _memo_ids(bytes(26), bytes(26)) == _reference_ids(bytes(26), bytes(26))
    assert _memo_ids(shorts, START) == _reference_ids(shorts, START)
    assert _memo_ids(shorts, START)[0] == "raised"
    # a point held by both, whichever side is new to the memo
    assert _memo_ids(one, one) == _reference_ids(one, one)
    assert "both players" in _memo_ids(START, tuple(ace))[1]


def test_the_memo_of_sides_stays_bounded():
    from gamao_cli.ids import sides
    sides.clear()
    rng = random.Random(5)
    for _ in range(3 * sides._MEMO.limit // 2):
        me = [0] * 26
        for _ in range(15):
            me[rng.randrange(0, 26)] += 1
        position_id(tuple(me), (15,) + (0,) * 25)
        assert len(sides._MEMO.data) <= sides._MEMO.limit
