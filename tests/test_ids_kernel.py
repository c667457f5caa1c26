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
from gamao_cli.ids.board import board_ids, board_ids_reference
from gamao_cli.ids.gnubg import match_id, position_id
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
    for s in _corpus_snapshots():
        pos = s.position
        key = (pos.me, pos.opp)
        if key in seen:
            continue
        seen.add(key)
        for bottom in (True, False):
            assert KERNEL.board_ids(pos.me, pos.opp, bottom) == \
                _outcome(board_ids_reference, pos.me, pos.opp, bottom), (pos, bottom)
    assert len(seen) > 20_000


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
    assert declined > 100


def test_the_kernel_checks_its_arguments():
    with pytest.raises(TypeError):
        KERNEL.board_ids(START, START)
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
