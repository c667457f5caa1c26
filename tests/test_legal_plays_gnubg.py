"""Proof of ``board.legal_plays`` against GNU Backgammon's move generator.

Positions come from random playouts (both sides play random legal plays with
random dice) of every variant, so hits, checkers on the bar, closed boards
and bear-offs all occur. For each position and a random roll (and, for the
first positions, every one of the 21 rolls) the set of plays must equal the
set GNU Backgammon lists with ``gnubg.findbestmoves``.

GNU Backgammon's move tuples are cut short at the first bear-off (``(6,)``
for ``6/off 5/off``), so such a move only tells its first steps. The
comparison therefore checks:

* the number of plays (gnubg lists each resulting position once), and that
  ``max_dice_playable`` agrees with the plays;
* every uncut gnubg move (no bear-off): its resulting position is one of
  ours and it uses as many dice as ours do;
* the cut moves: each is matched to a distinct remaining play of ours that
  can be reached by finishing it (its steps, the bear-off, then the unused
  dice), with a perfect bipartite matching.

The step rule used to finish cut moves is a deliberately plain
re-implementation written here, independent of ``board.py``.

The module doubles as a library for ``bench/legal_plays_vs_gnubg.py``.
"""
from __future__ import annotations

import random

import pytest

gnubg = pytest.importorskip(
    "gnubg",
    reason="needs the gnubg wheel (pip install gnubg) to compare legal plays with GNU Backgammon",
)

from gamao_cli import rules as board  # noqa: E402
from gamao_cli.rules import Position, legal_plays, start_position  # noqa: E402

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]

_CUBE = gnubg.cubeinfo()
_EVAL = gnubg.evalcontext(0, 0, 1, 0, 0.0)

# variant, share of the sampled positions
VARIANT_SHARES = [
    ("backgammon", 0.55),
    ("nackgammon", 0.15),
    ("hypergammon1", 0.04),
    ("hypergammon2", 0.05),
    ("hypergammon3", 0.06),
    ("longgammon", 0.15),
]


# --------------------------------------------------------------------------
# GNU Backgammon side


def to_gnubg(pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's board: (opponent, on roll), 25 counts each, index i = point
    i + 1, index 24 = bar, no borne-off count."""
    return (pos.opp[1:26], pos.me[1:26])


def gnubg_moves(pos: Position, d1: int, d2: int) -> list[tuple[int, ...]]:
    return [m["move"] for m in gnubg.findbestmoves(to_gnubg(pos), _CUBE, _EVAL, (d1, d2))]


# --------------------------------------------------------------------------
# A plain reference step rule (independent of board.py)


def ref_step(me: list[int], opp: list[int], src: int, die: int) -> int | None:
    """Destination of a single legal step, or None; 0 = borne off."""
    if me[src] == 0:
        return None
    if me[25] > 0 and src != 25:
        return None
    dst = src - die
    if dst >= 1:
        if opp[25 - dst] >= 2:
            return None
        return dst
    for p in range(7, 26):
        if me[p] > 0:
            return None
    if dst < 0:
        for p in range(src + 1, 7):
            if me[p] > 0:
                return None
    return 0


def ref_apply(me: list[int], opp: list[int], src: int, dst: int) -> None:
    me[src] -= 1
    me[dst] += 1
    if dst >= 1 and opp[25 - dst] == 1:
        opp[25 - dst] = 0
        opp[25] += 1


def ref_completions(me, opp, dice: list[int], need: int) -> set[Position]:
    """Every position reachable by playing exactly ``need`` of ``dice`` in any
    order with any checkers."""
    results: set[Position] = set()

    def rec(me, opp, dice, need):
        if need == 0:
            results.add(Position(tuple(me), tuple(opp)))
            return
        for k, die in enumerate(dice):
            if die in dice[:k]:
                continue
            rest = dice[:k] + dice[k + 1 :]
            for src in range(25, 0, -1):
                dst = ref_step(me, opp, src, die)
                if dst is None:
                    continue
                m, o = list(me), list(opp)
                ref_apply(m, o, src, dst)
                rec(m, o, rest, need - 1)

    rec(list(me), list(opp), list(dice), need)
    return results


def finish_cut_move(pos: Position, move: tuple[int, ...], dice: list[int], ndice: int) -> set[Position]:
    """Positions a gnubg move cut at its first bear-off can stand for."""
    me, opp = list(pos.me), list(pos.opp)
    dice = list(dice)
    pairs = move[:-1]
    for j in range(0, len(pairs), 2):
        src, dst = pairs[j], pairs[j + 1]
        die = src - dst
        if die not in dice or ref_step(me, opp, src, die) != dst:
            return set()
        dice.remove(die)
        ref_apply(me, opp, src, dst)
    src = move[-1]
    need = ndice - len(pairs) // 2 - 1
    out: set[Position] = set()
    for die in set(dice):
        if die >= src and ref_step(me, opp, src, die) == 0:
            m, o = list(me), list(opp)
            ref_apply(m, o, src, 0)
            rest = list(dice)
            rest.remove(die)
            out |= ref_completions(m, o, rest, need)
    return out


def _perfect_matching(candidates: list[set[Position]]) -> bool:
    match: dict[Position, int] = {}

    def augment(i: int, seen: set[Position]) -> bool:
        for p in candidates[i]:
            if p in seen:
                continue
            seen.add(p)
            if p not in match or augment(match[p], seen):
                match[p] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(candidates)))


def compare(pos: Position, d1: int, d2: int, ours: dict | None = None,
            theirs: list[tuple[int, ...]] | None = None) -> str | None:
    """None when our legal plays equal gnubg's, else a description."""
    if ours is None:
        ours = legal_plays(pos, d1, d2)
    if theirs is None:
        theirs = gnubg_moves(pos, d1, d2)
    where = f"{pos} roll {d1}-{d2}"
    if not theirs:
        if ours != {pos: ()} or board.max_dice_playable(pos, d1, d2):
            return f"{where}: gnubg dances, ours has {len(ours)} plays"
        return None
    if len(theirs) != len(ours):
        return f"{where}: {len(ours)} plays, gnubg {len(theirs)}"
    lengths = {len(v) for v in ours.values()}
    if len(lengths) != 1:
        return f"{where}: our plays use different numbers of dice {lengths}"
    ndice = lengths.pop()
    if board.max_dice_playable(pos, d1, d2) != ndice:
        return f"{where}: max_dice_playable says {board.max_dice_playable(pos, d1, d2)}, plays use {ndice}"
    dice = [d1] * 4 if d1 == d2 else [d1, d2]
    left = set(ours)
    cut = []
    for move in theirs:
        if len(move) % 2:
            cut.append(move)
            continue
        if len(move) // 2 != ndice:
            return f"{where}: gnubg move {move} uses {len(move) // 2} dice, ours {ndice}"
        me, opp = list(pos.me), list(pos.opp)
        for j in range(0, len(move), 2):
            ref_apply(me, opp, move[j], move[j + 1])
        result = Position(tuple(me), tuple(opp))
        if result not in left:
            return f"{where}: gnubg move {move} gives a position we do not list"
        left.remove(result)
    if cut:
        candidates = [finish_cut_move(pos, move, dice, ndice) & left for move in cut]
        for move, cands in zip(cut, candidates):
            if not cands:
                return f"{where}: gnubg move {move} (cut) matches none of our plays"
        if not _perfect_matching(candidates):
            return f"{where}: gnubg's bear-off moves do not match ours one to one"
    return None


# --------------------------------------------------------------------------
# Random positions


def random_positions(n: int, seed: int = 0) -> list[Position]:
    """``n`` positions (player on roll's view) from random playouts: whole
    games, each variant filling its share of :data:`VARIANT_SHARES`."""
    rng = random.Random(seed)
    out: list[Position] = []
    for k, (variant, share) in enumerate(VARIANT_SHARES):
        quota = n - len(out) if k == len(VARIANT_SHARES) - 1 else round(n * share)
        taken = 0
        while taken < quota:
            pos = start_position(variant)
            while taken < quota:
                out.append(pos)
                taken += 1
                plays = legal_plays(pos, rng.randint(1, 6), rng.randint(1, 6))
                after = rng.choice(list(plays))
                if board.game_over(after):
                    break
                pos = after.swapped()
    rng.shuffle(out)
    return out


def random_bearoff_positions(n: int, seed: int = 0) -> list[Position]:
    """``n`` made-up bear-off positions: 1-15 checkers spread over the home
    board, now and then one straggler outside or on the bar, and opposing
    checkers (blots included) on the points left free."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        me = [0] * 26
        mine = rng.randint(1, 15)
        top = rng.randint(1, 6)
        for _ in range(mine):
            me[rng.randint(1, top)] += 1
        r = rng.random()
        if r < 0.15:
            me[rng.randint(7, 12)] += 1
        elif r < 0.25:
            me[25] += 1
        me[0] = 15 - sum(me)
        opp = [0] * 26
        free = [q for q in range(1, 25) if not me[25 - q]]
        for _ in range(rng.randint(1, 15)):
            opp[rng.choice(free)] += 1
        opp[0] = 15 - sum(opp)
        out.append(Position(tuple(me), tuple(opp)))
    return out


def describe_sample(positions: list[Position]) -> dict[str, int]:
    return {
        "positions": len(positions),
        "on the bar": sum(1 for p in positions if p.me[25]),
        "bearing off": sum(1 for p in positions if not any(p.me[7:])),
        "some borne off": sum(1 for p in positions if p.me[0]),
        "hypergammon-sized": sum(1 for p in positions if sum(p.me) <= 3),
    }


# --------------------------------------------------------------------------
# Tests

N_POSITIONS = 10_000
N_ALL_ROLLS = 600


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return random_positions(N_POSITIONS, seed=20240601)


@pytest.mark.gnubg
def test_sample_covers_bar_and_bear_off(positions):
    stats = describe_sample(positions)
    assert stats["positions"] == N_POSITIONS
    assert stats["on the bar"] >= N_POSITIONS // 10, stats
    assert stats["bearing off"] >= N_POSITIONS // 20, stats
    assert stats["some borne off"] >= N_POSITIONS // 20, stats
    assert stats["hypergammon-sized"] >= N_POSITIONS // 10, stats


@pytest.mark.gnubg
def test_legal_plays_equal_gnubg_random_roll(positions):
    rng = random.Random(7)
    diffs = []
    for pos in positions:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        diff = compare(pos, d1, d2)
        if diff:
            diffs.append(diff)
    assert not diffs, f"{len(diffs)} differences, first: {diffs[:3]}"


@pytest.mark.gnubg
def test_legal_plays_equal_gnubg_all_21_rolls(positions):
    diffs = []
    for pos in positions[:: N_POSITIONS // N_ALL_ROLLS]:
        for d1, d2 in ROLLS:
            diff = compare(pos, d1, d2)
            if diff:
                diffs.append(diff)
    assert not diffs, f"{len(diffs)} differences, first: {diffs[:3]}"


@pytest.mark.gnubg
def test_legal_plays_equal_gnubg_in_bear_offs():
    diffs = []
    for pos in random_bearoff_positions(1000, seed=99):
        for d1, d2 in ROLLS[::2]:
            diff = compare(pos, d1, d2)
            if diff:
                diffs.append(diff)
    assert not diffs, f"{len(diffs)} differences, first: {diffs[:3]}"


@pytest.mark.gnubg
def test_hand_picked_positions_equal_gnubg():
    """Bear-off corner cases where gnubg's cut tuples matter most."""
    def side(points):
        counts = [0] * 26
        for p, k in points.items():
            counts[p] = k
        return tuple(counts)

    cases = [
        Position(side({6: 2, 5: 2, 1: 1, 0: 10}), side({24: 2, 0: 13})),
        Position(side({6: 1, 0: 14}), side({1: 1, 24: 2, 0: 12})),
        Position(side({5: 1, 3: 1, 0: 13}), side({20: 2, 22: 2, 0: 11})),
        Position(side({25: 1, 6: 3, 4: 1, 0: 10}), side({1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 24: 1, 0: 5})),
        Position(side({7: 1, 6: 4, 1: 2, 0: 8}), side({18: 2, 24: 3, 0: 10})),
    ]
    for pos in cases:
        for d1, d2 in ROLLS:
            assert compare(pos, d1, d2) is None
