"""The C board IDs (gamao_cli/ids/_ids.c) against the Python code they speed
up, which is the reference (gamao_cli/ids/board.py, ``board_ids_reference``:
gnubg.py's Position ID and xgid.py's position field):

* every position of the corpus's replays and random positions of every
  variant, the player on roll at the bottom and at the top: the same
  Position ID and XGID field;
* boards the kernel must not read (lists, bools, floats, int subclasses,
  negative or huge counts, too many checkers, a point held by both, the
  wrong length) are declined (None), and ``board_ids`` then gives what the
  reference gives: the same IDs, or the same ``ValueError``;
* every match state of the corpus and random states: the same Match ID and
  XGID tail; a state whose fields are not of the usual types is declined;
* a snapshot's IDs are the ones the reference functions give its position
  and state.
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from conftest import CORPUS, ROOT, corpus_sample
from gamao_cli import kernels
from gamao_cli.formats import read_path
from gamao_cli.ids import board as board_mod
from gamao_cli.ids.board import (board_facts, board_facts_reference, board_ids,
                                  board_ids_reference, state_ids, state_ids_of,
                                  state_ids_reference)
from gamao_cli.ids.gnubg import MatchState, match_id, position_id
from gamao_cli.ids.xgid import xgid_of_state
from gamao_cli.replay.snapshots import snapshots

from test_fast_paths import random_positions, tight_positions

KERNEL = kernels.kernel("gamao_cli.ids._ids")
pytestmark = pytest.mark.skipif(
    KERNEL is None or board_mod._KERNEL is None,
    reason="the C kernel gamao_cli.ids._ids is not built (or GAMAO_PURE_PYTHON is set):"
           " nothing to compare the Python IDs with")

CORPUS2 = Path(os.environ.get("GAMAO_CORPUS2", ROOT.parent / "shared" / "corpus2"))
START = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)


def _outcome(f, *args):
    try:
        return f(*args)
    except ValueError as e:
        return ("ValueError", str(e))


def _corpus_snapshots():
    files = corpus_sample(bulk_step=8) if CORPUS.is_dir() else []
    files += sorted(p for sub in ("real", "xg", "analysed") if (CORPUS2 / sub).is_dir()
                    for p in (CORPUS2 / sub).iterdir() if p.is_file())
    for path in files:
        try:
            matches = read_path(str(path))
        except Exception:   # a file the corpus holds because it is unreadable
            continue
        for match in matches:
            yield from snapshots(match)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")
def test_every_corpus_position_gives_the_same_ids_with_and_without_the_kernel():
    seen = set()
    states = set()
    for s in _corpus_snapshots():
        if s.state not in states:
            states.add(s.state)
            assert KERNEL.state_ids(s.state.__dict__) == state_ids_reference(s.state), s.state
            assert KERNEL.state_ids_of(*_fields(s.state)) == state_ids_reference(s.state)
        pos = s.position
        key = (pos.me, pos.opp)
        if key in seen:
            continue
        seen.add(key)
        for bottom in (True, False):
            assert KERNEL.board_ids(pos.me, pos.opp, bottom) == \
                _outcome(board_ids_reference, pos.me, pos.opp, bottom), (pos, bottom)
            facts = board_facts(pos.me, pos.opp, bottom)
            assert facts == board_facts_reference(pos.me, pos.opp, bottom), (pos, bottom)
            assert facts[2:] == pos.pip_count()
    assert len(seen) > 20_000 and len(states) > 5_000


def test_random_positions_of_every_variant_give_the_same_ids():
    positions = random_positions(3000, seed=23) + tight_positions(1000, seed=23)
    answered = 0
    for pos in positions:
        for me, opp in ((pos.me, pos.opp), (pos.opp, pos.me)):
            for bottom in (True, False):
                found = KERNEL.board_ids(me, opp, bottom)
                reference = _outcome(board_ids_reference, me, opp, bottom)
                # (a tight position may put both players on one point: declined)
                assert found == reference or (found is None and reference[0] == "ValueError")
                answered += found is not None
                facts = KERNEL.board_facts(me, opp, bottom)
                assert facts == board_facts_reference(me, opp, bottom) or \
                    (facts is None and found is None)
    assert answered > 0.9 * 4 * len(positions)


class _Int(int):
    pass


def _odd_boards():
    """Boards that are no tuple of 26 plain ints forming a position, and
    boards at the edges of what is one."""
    rng = random.Random(7)
    good = list(START)
    yield list(START), START                     # a list: Python's way
    yield START, list(START)
    yield START[:25], START                      # too short
    yield START + (0,), START                    # too long
    for i in (0, 1, 6, 24, 25):
        for bad in (True, 1.0, _Int(1), -1, 16, 1 << 70, None, "1"):
            side = list(good)
            side[i] = bad
            yield tuple(side), START
            yield START, tuple(side)
    yield (15,) + (0,) * 25, (15,) + (0,) * 25   # everything borne off
    yield (0,) * 25 + (15,), (0,) * 25 + (15,)   # everything on the bar
    yield (1,) + (0,) * 24 + (15,), START        # 16 checkers
    yield (0,) * 24 + (15, 0), (0,) * 24 + (15, 0)   # my 24 is the opponent's 1: held by both
    held = [0] * 26
    held[6] = 2
    other = [0] * 26
    other[19] = 2                                # my 6 is its 19
    yield tuple(held), tuple(other)
    for _ in range(300):                         # random counts, legal or not
        me = tuple(rng.choice((0, 0, 0, 1, 2, 3, 15, 16)) for _ in range(26))
        opp = tuple(rng.choice((0, 0, 0, 0, 1, 2)) for _ in range(26))
        yield me, opp


def test_boards_the_kernel_must_not_read_are_declined_and_get_the_reference_answer():
    declined = 0
    for me, opp in _odd_boards():
        for bottom in (True, False):
            found = _outcome(KERNEL.board_ids, me, opp, bottom)
            reference = _outcome(board_ids_reference, me, opp, bottom)
            if found is None:
                declined += 1
            else:   # it answers only where the reference gives IDs, and gives them
                assert found == reference, (me, opp)
            assert _outcome(board_ids, me, opp, bottom) == reference, (me, opp)
            # board_facts reads the same boards, and falls back to the same
            facts = _outcome(KERNEL.board_facts, me, opp, bottom)
            assert (facts is None) == (found is None), (me, opp)
            if facts is not None:
                assert facts[:2] == found and facts == board_facts_reference(me, opp, bottom)
            if reference[0] != "ValueError":
                assert _outcome(board_facts, me, opp, bottom)[:2] == reference
    assert declined > 100


def test_the_kernel_checks_its_arguments():
    with pytest.raises(TypeError):
        KERNEL.board_ids(START, START)
    with pytest.raises(TypeError):
        KERNEL.board_facts(START, START, True, True)
    class Unsure:
        def __bool__(self):
            raise RuntimeError("no truth here")
    with pytest.raises(RuntimeError):
        KERNEL.board_ids(START, START, Unsure())


@pytest.mark.skipif(not (CORPUS2 / "real").is_dir(), reason=f"no corpus2 at {CORPUS2}")
def test_a_snapshot_gives_the_ids_the_reference_functions_give():
    count = 0
    for path in sorted((CORPUS2 / "real").iterdir())[:20]:
        for match in read_path(str(path)):
            for s in snapshots(match):
                me, opp = s.position.me, s.position.opp
                assert _outcome(lambda: s.position_id) == _outcome(position_id, me, opp)
                assert _outcome(lambda: s.xgid) == _outcome(xgid_of_state, me, opp, s.state)
                assert s.match_id == match_id(s.state)
                count += 1
    assert count > 1000


def _random_states(rng, n):
    for _ in range(n):
        dice = rng.choice([(0, 0)] + [(a, b) for a in range(1, 7) for b in range(1, 7)])
        on_roll = rng.randrange(2)
        length = rng.choice([0, 1, 5, 25, (1 << 15) - 1])
        yield MatchState(cube=1 << rng.randrange(16), cube_owner=rng.choice([None, 0, 1]),
                         on_roll=on_roll, crawford=rng.random() < 0.2,
                         game_state=rng.randrange(5),
                         turn=on_roll if rng.random() < 0.8 else 1 - on_roll,
                         double_offered=dice == (0, 0) and rng.random() < 0.3,
                         resignation=rng.randrange(4), dice=dice, length=length,
                         score=(rng.randrange(1 << 15), rng.choice([0, 3, (1 << 15) - 1])),
                         jacoby=rng.random() < 0.5)


def _fields(state: MatchState) -> tuple:
    """A state's twelve fields, in MatchState's order (MatchState.of's)."""
    return tuple(state.__dict__[name] for name in MatchState.__dataclass_fields__)


def test_random_states_give_the_same_match_id_and_xgid_tail():
    rng = random.Random(11)
    for state in _random_states(rng, 5000):
        assert KERNEL.state_ids(state.__dict__) == state_ids_reference(state), state
        assert KERNEL.state_ids_of(*_fields(state)) == state_ids_reference(state), state


def test_states_whose_fields_are_not_the_usual_types_are_declined():
    """A field of another type or out of range (a state made without its
    checks, or a dict that is no state's) is left to Python: None."""
    good = dict(MatchState(length=5, dice=(3, 1), on_roll=1, turn=1).__dict__)
    assert KERNEL.state_ids(good) == state_ids_reference(MatchState(**good))
    odd = {"cube": [3, 1 << 16, 0, True, 2.0, None], "cube_owner": [2, -1, True, "0"],
           "on_roll": [2, True, None], "crawford": [0, 1, None], "game_state": [5, -1],
           "turn": [2, -1], "double_offered": [0, None], "resignation": [4, -1],
           "dice": [(7, 1), (0, 3), [3, 1], (3,), (3, 1, 1), (True, 1), (3.0, 1)],
           "length": [1 << 15, -1, True, 1 << 80], "score": [(-1, 0), (0, 1 << 15), [0, 0],
                                                             (0,), (0, 1 << 80)],
           "jacoby": [0, 1, None]}
    names = list(MatchState.__dataclass_fields__)
    for name, values in odd.items():
        for value in values:
            assert KERNEL.state_ids({**good, name: value}) is None, (name, value)
            fields = [good[n] if n != name else value for n in names]
            assert KERNEL.state_ids_of(*fields) is None, (name, value)
            # and state_ids_of gives what the state of those fields gives, or None
            try:
                expected = state_ids_reference(MatchState.of(*fields))
            except ValueError:
                expected = None
            assert state_ids_of(*fields) == expected, (name, value)
        assert KERNEL.state_ids({k: v for k, v in good.items() if k != name}) is None
    assert KERNEL.state_ids(list(good.items())) is None
    with pytest.raises(TypeError):
        KERNEL.state_ids_of(*names[:11])


def test_state_ids_are_kept_on_the_state_and_match_the_reference():
    state = MatchState(cube=4, cube_owner=0, length=7, score=(2, 5), dice=(6, 2))
    first = state_ids(state)
    assert first == state_ids_reference(state) and state_ids(state) is first
    assert state == MatchState(cube=4, cube_owner=0, length=7, score=(2, 5), dice=(6, 2))
