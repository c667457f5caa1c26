"""Unit tests of the rules engine: one hand-built position per rule of RULES.md.

Positions are written from the mover's side. ``mine({...})`` places the
mover's checkers by point (25 = bar, 0 = off; the rest of the 15 are borne
off unless given), ``theirs({...})`` places the opponent's checkers by the
MOVER's point numbers (converted to the opponent's numbering, 25 - p), so a
test reads like a board diagram seen by the player on roll.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamao_cli.rules import (
    ALL_VARIANTS,
    HIT,
    POINT,
    PROBLEMS,
    VARIANTS,
    CubeState,
    Offer,
    Outcome,
    Position,
    Resolver,
    StepProblem,
    Why,
    apply_step,
    apply_steps_as_written,
    checkers,
    crawford_game,
    die_playable,
    die_step,
    find_variant,
    game_over,
    legal_plays,
    max_dice_playable,
    outcome_of,
    play_in_written_order,
    play_is_legal,
    resolve_play,
    result_multiplier,
    start_position,
    step_destination,
    variant_by_key,
    variant_key,
    variant_of_rule_word,
)
from gamao_cli.errors import UnknownVariant
from gamao_cli.messages import MESSAGES, render


def mine(points: dict[int, int], total: int = 15) -> tuple[int, ...]:
    counts = [0] * 26
    for p, n in points.items():
        counts[p] += n
    if 0 not in points:
        counts[0] = total - sum(counts)
    return tuple(counts)


def theirs(points_in_my_numbering: dict[int, int], total: int = 15) -> tuple[int, ...]:
    counts = [0] * 26
    for p, n in points_in_my_numbering.items():
        counts[p if p in (0, 25) else 25 - p] += n
    if 0 not in points_in_my_numbering:
        counts[0] = total - sum(counts)
    return tuple(counts)


def P(me: dict[int, int], opp: dict[int, int] | None = None) -> Position:
    return Position(mine(me), theirs(opp or {}))


def after(pos: Position, *moves: tuple[int, int]) -> Position:
    """Position after single die steps (src, dst), applied as written."""
    return apply_steps_as_written(pos, moves)[0]


def movements(plays: dict) -> set[tuple[tuple[int, int], ...]]:
    """Each play's steps as sorted (src, dst) pairs (hits dropped)."""
    return {tuple(sorted(((s, d) for s, d, _ in steps), reverse=True)) for steps in plays.values()}


# --------------------------------------------------------------------------
# Position, variants


def test_position_is_hashable_and_swaps_sides():
    pos = P({24: 1, 6: 14}, {1: 2, 13: 13})
    assert pos.swapped().swapped() == pos
    assert pos.swapped().me == pos.opp
    assert len({pos, Position(pos.me, pos.opp)}) == 1
    with pytest.raises(AttributeError):
        pos.me = pos.opp  # frozen


def test_pip_count_counts_the_bar_as_25():
    assert P({25: 1, 6: 2}, {1: 1}).pip_count() == (37, 24)  # my 1 is their 24
    assert start_position().pip_count() == (167, 167)


@pytest.mark.parametrize(
    "variant, layout",
    [
        ("backgammon", {24: 2, 13: 5, 8: 3, 6: 5}),
        ("nackgammon", {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}),
        ("hypergammon1", {24: 1}),
        ("hypergammon2", {24: 1, 23: 1}),
        ("hypergammon3", {24: 1, 23: 1, 22: 1}),
        ("longgammon", {24: 15}),
    ],
)
def test_start_positions_of_every_variant(variant, layout):
    pos = start_position(variant)
    assert pos == VARIANTS[variant]
    expected = [0] * 26
    for p, n in layout.items():
        expected[p] = n
    assert pos.me == pos.opp == tuple(expected)
    assert checkers(pos) == sum(layout.values())


@pytest.mark.parametrize(
    "name, key",
    [
        ("Backgammon", "backgammon"),
        ("Nackgammon", "nackgammon"),
        ("HyperGammon", "hypergammon3"),
        ("Hypergammon2", "hypergammon2"),
        ("hyper gammon 1", "hypergammon1"),
        ("LongGammon", "longgammon"),
        ("  BACKGAMMON ", "backgammon"),
        ("Standard", "backgammon"),
        ("1-chequer hypergammon", "hypergammon1"),
    ],
)
def test_variant_key_normalises_tag_values(name, key):
    assert variant_key(name) == key
    assert start_position(name) == VARIANTS[key]


def test_unknown_variant_names_itself_and_the_known_ones():
    with pytest.raises(UnknownVariant) as err:
        variant_key("Tavla")
    message = str(err.value)
    assert "'Tavla'" in message
    for key in VARIANTS:
        assert key in message


def test_checkers_counts_from_the_position():
    assert checkers(start_position()) == 15
    assert checkers(start_position("hypergammon3")) == 3
    assert checkers(P({6: 1}, {})) == 15  # the rest are borne off


# --------------------------------------------------------------------------
# Single steps and replaying as written


def test_apply_step_hits_a_blot_onto_the_opponents_bar():
    pos = P({13: 1, 6: 14}, {10: 1, 1: 14})
    new, hit = apply_step(pos, 13, 10)
    assert hit
    assert new.me[10] == 1 and new.me[13] == 0
    assert new.opp[25 - 10] == 0 and new.opp[25] == 1


def test_apply_step_stacks_on_a_held_point_without_hitting():
    pos = P({13: 1, 6: 14}, {10: 2, 1: 13})
    new, hit = apply_step(pos, 13, 10)
    assert not hit
    assert new.me[10] == 1 and new.opp[25 - 10] == 2 and new.opp[25] == 0


def test_apply_step_raises_without_a_checker():
    with pytest.raises(ValueError):
        apply_step(start_position(), 20, 14)
    with pytest.raises(ValueError):
        apply_step(start_position(), 25, 20)


def test_apply_steps_as_written_jumps_and_hits_only_at_the_destination():
    pos = P({24: 1, 6: 14}, {18: 1, 13: 1, 1: 13})
    new, hits = apply_steps_as_written(pos, [(24, 13)])
    assert hits == [True]
    assert new.opp[25 - 18] == 1  # the blot on 18 was jumped over, not hit
    assert new.opp[25] == 1


def test_step_destination_enters_on_25_minus_die():
    pos = P({25: 1, 6: 14}, {1: 15})
    assert step_destination(pos, 25, 3) == 22
    assert step_destination(pos, 6, 3) is None  # bar first


# --------------------------------------------------------------------------
# Hitting and entering


def test_entering_from_the_bar_comes_first():
    pos = P({25: 1, 13: 5, 6: 9}, {1: 15})
    plays = legal_plays(pos, 6, 5)
    assert all(steps[0][0] == 25 for steps in plays.values())
    assert after(pos, (25, 19), (13, 8)) in plays
    assert after(pos, (13, 7), (13, 8)) not in plays


def test_two_on_the_bar_must_both_enter():
    pos = P({25: 2, 13: 5, 6: 8}, {1: 15})
    plays = legal_plays(pos, 6, 5)
    assert movements(plays) == {((25, 20), (25, 19))}


def test_blocked_entry_is_a_dance():
    closed = {p: 2 for p in range(19, 25)}  # the opponent's home board = my 19..24
    pos = P({25: 1, 13: 5, 6: 9}, closed)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert legal_plays(pos, d1, d2) == {pos: ()}
            assert max_dice_playable(pos, d1, d2) == 0
    assert resolve_play(pos, [], 6, 5).ok


def test_entering_with_one_die_then_moving_with_the_other():
    # only the 4 enters (on 21); the 6 then moves any checker, the entered one too
    pos = P({25: 1, 13: 2, 6: 12}, {19: 2, 20: 2, 22: 2, 23: 2, 24: 2, 7: 2, 1: 3})
    plays = legal_plays(pos, 6, 4)
    # 13/7 is blocked (my 7 is held), so only the entered checker moves on
    assert movements(plays) == {((25, 21), (21, 15))}


def test_landing_only_on_open_points():
    pos = P({13: 1, 6: 14}, {8: 2, 7: 1, 1: 12})
    assert step_destination(pos, 13, 5) is None  # held by two
    assert step_destination(pos, 13, 6) == 7  # a blot is open
    plays = legal_plays(pos, 5, 5)
    assert all(dst != 8 for steps in plays.values() for _, dst, _ in steps)


def test_hit_on_the_intermediate_point_of_a_combined_move():
    # 24/13 with 6-5: my 19 is held, so the checker goes 24/18*/13 and hits on 18
    pos = P({24: 1, 6: 14}, {19: 2, 18: 1, 1: 12})
    res = resolve_play(pos, [(24, 13)], 6, 5)
    assert res.ok
    assert res.steps == ((24, 18, True), (18, 13, False))
    assert res.position.opp[25] == 1 and res.position.opp[25 - 18] == 0
    assert res.position in legal_plays(pos, 6, 5)


# --------------------------------------------------------------------------
# Moving: dice


def test_doubles_are_played_four_times():
    plays = legal_plays(start_position(), 6, 6)
    assert plays and all(len(steps) == 4 for steps in plays.values())
    assert after(start_position(), (24, 18), (24, 18), (13, 7), (13, 7)) in plays


def test_both_dice_must_be_used_when_possible():
    # 7/1 plays the 6 but leaves no 2; 24/18/16 uses both, so it is the only play
    pos = P({24: 1, 7: 1, 6: 13}, {22: 2, 5: 2, 4: 2, 19: 9})
    plays = legal_plays(pos, 6, 2)
    assert movements(plays) == {((24, 18), (18, 16))}
    assert after(pos, (7, 1)) not in plays
    assert max_dice_playable(pos, 6, 2) == 2
    single = resolve_play(pos, [(7, 1)], 6, 2)
    assert single.ok and single.dice_used == 1
    assert not play_is_legal(pos, 6, 2, single)


def test_only_one_die_playable_must_be_played():
    # the 6 is blocked everywhere; either 2 may be played, nothing more
    pos = P({24: 1, 6: 14}, {18: 2, 16: 2, 4: 2, 19: 9})
    plays = legal_plays(pos, 6, 2)
    assert movements(plays) == {((24, 22),)}
    assert max_dice_playable(pos, 6, 2) == 1


def test_either_die_but_not_both_means_the_higher_one():
    # 24/18 or 24/22 alone, never both (my 16 is held): the 6 must be played
    pos = P({24: 1, 6: 14}, {16: 2, 4: 2, 19: 11})
    plays = legal_plays(pos, 6, 2)
    assert movements(plays) == {((24, 18),)}
    low = resolve_play(pos, [(24, 22)], 6, 2)
    assert low.ok and low.dice_used == 1 == max_dice_playable(pos, 6, 2)
    assert not play_is_legal(pos, 6, 2, low)
    high = resolve_play(pos, [(24, 18)], 6, 2)
    assert play_is_legal(pos, 6, 2, high)


def test_doubles_play_as_many_as_possible():
    # 24/21/18 then my 15 is held; 6/3 is held too: two 3s only
    pos = P({24: 1, 6: 14}, {15: 2, 3: 2, 19: 11})
    plays = legal_plays(pos, 3, 3)
    assert max_dice_playable(pos, 3, 3) == 2
    assert movements(plays) == {((24, 21), (21, 18))}


# --------------------------------------------------------------------------
# Bearing off


def test_bear_off_with_the_exact_die():
    pos = P({6: 2, 5: 1}, {24: 2})
    assert step_destination(pos, 6, 6) == 0
    assert step_destination(pos, 5, 5) == 0
    plays = legal_plays(pos, 6, 5)
    assert after(pos, (6, 0), (5, 0)) in plays


def test_bear_off_with_a_higher_die_from_the_highest_point():
    pos = P({4: 1, 2: 1}, {24: 2})
    assert step_destination(pos, 4, 6) == 0
    assert step_destination(pos, 2, 6) is None  # 4 is higher
    plays = legal_plays(pos, 6, 5)
    assert list(plays) == [after(pos, (4, 0), (2, 0))]
    assert game_over(next(iter(plays)))


def test_no_bear_off_while_a_checker_is_outside_home():
    pos = P({7: 1, 5: 2}, {24: 2})
    assert step_destination(pos, 5, 5) is None
    plays = legal_plays(pos, 5, 2)
    # 7/5 brings the last checker home, then the 5 may bear off
    assert after(pos, (7, 5), (5, 0)) in plays
    assert all(steps[0] != (5, 0, False) for steps in plays.values())


def test_no_bear_off_with_a_higher_die_while_a_checker_is_on_a_higher_point():
    pos = P({5: 1, 3: 1}, {24: 2})
    assert step_destination(pos, 3, 4) is None
    assert step_destination(pos, 5, 4) == 1  # the 4 must move the checker on 5
    plays = legal_plays(pos, 4, 1)
    assert after(pos, (3, 0), (5, 4)) not in plays
    assert after(pos, (5, 1), (3, 2)) in plays
    assert after(pos, (5, 1), (1, 0)) in plays


def test_hit_during_bear_off_sends_the_blot_to_the_bar():
    pos = P({6: 2, 2: 3}, {3: 1, 24: 2})
    plays = legal_plays(pos, 3, 2)
    hit = after(pos, (6, 3), (2, 0))
    assert hit in plays and hit.opp[25] == 1


def test_a_hit_checker_must_come_home_before_bearing_off_resumes():
    pos = P({25: 1, 6: 4, 5: 4}, {24: 2})
    plays = legal_plays(pos, 6, 5)
    for steps in plays.values():
        assert steps[0][0] == 25
        assert all(dst != 0 for _, dst, _ in steps)


def test_game_over_when_the_last_checker_is_off():
    assert game_over(P({}, {6: 1}))
    assert not game_over(P({1: 1}, {6: 1}))


# --------------------------------------------------------------------------
# Scoring


def test_result_multiplier_single_gammon_backgammon():
    winner = mine({})  # all 15 off
    assert result_multiplier(Position(winner, theirs({6: 14, 0: 1}))) == 1
    assert result_multiplier(Position(winner, theirs({13: 15, 0: 0}))) == 2
    assert result_multiplier(Position(winner, theirs({13: 14, 3: 1, 0: 0}))) == 3  # in my home
    assert result_multiplier(Position(winner, theirs({13: 14, 25: 1, 0: 0}))) == 3  # on the bar
    assert result_multiplier(Position(winner, theirs({7: 15, 0: 0}))) == 2


def test_result_multiplier_applies_to_resignations_mid_game():
    assert result_multiplier(start_position()) == 3  # the opponent's back checkers
    pos = Position(mine({6: 15, 0: 0}), theirs({13: 15, 0: 0}))
    assert result_multiplier(pos) == 2


# --------------------------------------------------------------------------
# resolve_play: assigning dice to written movements


def test_resolve_consolidated_move_when_only_one_order_is_open():
    base = {24: 1, 6: 14}
    six_first_blocked = P(base, {18: 2, 1: 13})
    res = resolve_play(six_first_blocked, [(24, 13)], 6, 5)
    assert res.ok and res.steps == ((24, 19, False), (19, 13, False)) and res.dice_used == 2
    five_first_blocked = P(base, {19: 2, 1: 13})
    res = resolve_play(five_first_blocked, [(24, 13)], 6, 5)
    assert res.ok and res.steps == ((24, 18, False), (18, 13, False))
    both = P(base, {19: 2, 18: 2, 1: 11})
    res = resolve_play(both, [(24, 13)], 6, 5)
    assert not res.ok and res.problem == "blocked" and res.index == 0
    assert "is blocked (the opponent holds it)" in res.message


def test_resolve_24_12_with_double_sixes():
    pos = P({24: 2, 6: 13}, {1: 15})
    res = resolve_play(pos, [(24, 12), (24, 12)], 6, 6)
    assert res.ok and res.dice_used == 4
    assert res.steps == ((24, 18, False), (18, 12, False)) * 2
    assert res.position.me[12] == 2
    blocked = P({24: 2, 6: 13}, {18: 2, 1: 13})
    res = resolve_play(blocked, [(24, 12)], 6, 6)
    assert not res.ok and res.problem == "blocked"
    assert res.message.startswith("point 18 is blocked (the opponent holds it)")


def test_resolve_9_off_with_6_5_uses_the_open_order():
    # 9/3/off fails (bearing off 3 with the 5 while 4 is occupied); 9/4/off works
    pos = P({9: 1, 4: 1}, {24: 2})
    res = resolve_play(pos, [(9, 0)], 6, 5)
    assert res.ok and res.steps == ((9, 4, False), (4, 0, False))
    assert res.position == after(pos, (9, 4), (4, 0))
    easy = P({9: 1, 2: 2}, {24: 2})
    res = resolve_play(easy, [(9, 0)], 6, 5)
    assert res.ok and res.steps == ((9, 3, False), (3, 0, False))


def test_resolve_tries_other_orders_of_the_movements():
    pos = P({25: 1, 13: 5, 6: 9}, {1: 15})
    res = resolve_play(pos, [(13, 7), (25, 20)], 6, 5)
    assert res.ok and res.steps[0] == (25, 20, False)
    chained = resolve_play(P({13: 1, 6: 14}, {24: 15}), [(7, 1), (13, 7)], 6, 6)
    assert chained.ok and chained.steps == ((13, 7, False), (7, 1, False))


def test_resolve_single_steps_give_the_play_position():
    pos = start_position()
    res = resolve_play(pos, [(8, 5), (6, 5)], 3, 1)
    assert res.ok and res.dice_used == 2 and res.position in legal_plays(pos, 3, 1)
    assert resolve_play(pos, [(13, 10), (10, 9)], 3, 1).position.me[9] == 1


def test_resolve_empty_play_uses_no_dice():
    res = resolve_play(start_position(), [], 6, 5)
    assert res.ok and res.dice_used == 0 and res.position == start_position()
    assert not play_is_legal(start_position(), 6, 5, res)


@pytest.mark.parametrize(
    "me, opp, moves, dice, problem, index, message",
    [
        ({13: 2, 8: 1, 6: 12}, {1: 15}, [(8, 6), (13, 12)], (6, 1), "distance", 0,
         "8/6 moves 2 pips, but no die shows 2"),
        ({13: 2, 6: 13}, {1: 15}, [(13, 2)], (6, 4), "distance", 0,
         "13/2 moves 11 pips, but the roll 6-4 makes only 4, 6 or 10"),
        ({13: 2, 8: 1, 6: 12}, {1: 15}, [(13, 7), (8, 2)], (6, 5), "distance", 1,
         "8/2 needs the 6, but 13/7 already uses the only 6 of the roll 6-5"),
        ({9: 1, 6: 14}, {24: 2}, [(9, 0)], (4, 3), "distance", 0,
         "9/off needs at least 9 pips to bear off, but the roll 4-3 gives only 7"),
        ({13: 3, 6: 12}, {1: 15}, [(13, 7), (13, 8), (8, 3)], (6, 5), "too-many", 2,
         "the roll 6-5 gives 2 moves, but this play needs at least 3"),
        ({13: 2, 8: 3, 6: 10}, {5: 2, 1: 13}, [(8, 5), (6, 5)], (3, 1), "blocked", 0,
         "point 5 is blocked (the opponent holds it)"),
        ({25: 1, 13: 2, 6: 12}, {1: 15}, [(13, 7)], (6, 5), "bar", 0,
         "a checker is on the bar and must enter first"),
        ({13: 1, 8: 1, 6: 13}, {24: 2}, [(8, 0)], (6, 2), "bearoff-outside", 0,
         "cannot bear off from 8: checkers are still outside the home board"),
        ({5: 1, 3: 1}, {24: 2}, [(3, 0)], (4, 1), "bearoff-higher", 0,
         "cannot bear off from 3 with a 4: a checker stands on the higher point 5 "
         "(it must move instead)"),
        ({13: 2, 6: 13}, {1: 15}, [(7, 1)], (6, 5), "no-checker", 0,
         "there is no checker on point 7"),
        ({13: 2, 6: 13}, {1: 15}, [(25, 20)], (6, 5), "no-checker", 0,
         "there is no checker on the bar"),
        ({13: 2, 6: 13}, {1: 15}, [(13, 7), (6, 8)], (6, 2), "backwards", 1,
         "6/8 moves backwards: checkers move from higher to lower points"),
    ],
    ids=lambda v: v if isinstance(v, str) and v in PROBLEMS else None,
)
def test_each_problem_code_and_its_message(me, opp, moves, dice, problem, index, message):
    res = resolve_play(P(me, opp), moves, *dice)
    assert not res.ok
    assert (res.problem, res.index, res.message) == (problem, index, message)
    assert res.problem in PROBLEMS


def test_resolve_reports_the_failure_that_happens_latest():
    # written 7/1 13/7 with 6-6: 7/1 first has no checker; 13/7 first gets further
    # and then finds point 1 blocked, which is the useful message
    pos = P({13: 1, 6: 14}, {1: 2, 24: 13})
    res = resolve_play(pos, [(7, 1), (13, 7)], 6, 6)
    assert (res.problem, res.index) == ("blocked", 0)
    assert res.message == "point 1 is blocked (the opponent holds it)"


def test_resolve_checks_for_a_checker_at_every_die_step():
    """bar/7 13/7 with 6-6 and nothing on 13: the steps may interleave
    (bar/19/13, then 13/7), but the 13/7 that starts on 13 can only move the
    checker bar/7 carries, which then has none to go on with: no reading,
    and never a count of -1 on 13 (found by fuzz/fuzz_matfile.py)."""
    pos = P({25: 1, 6: 14}, {19: 1, 7: 1})
    res = resolve_play(pos, [(25, 7), (13, 7)], 6, 6)
    assert (res.ok, res.problem, res.index, res.message) == (
        False, "no-checker", 1, "there is no checker on point 13")
    # with a checker of its own on 13 either written order resolves
    pos = P({25: 1, 13: 1, 6: 13}, {19: 1, 7: 1})
    for moves in ([(25, 7), (13, 7)], [(13, 7), (25, 7)]):
        res = resolve_play(pos, moves, 6, 6)
        assert res.ok and res.dice_used == 4, moves
        assert res.position.me == mine({7: 2, 6: 13}) and min(res.position.opp) >= 0
        assert res.position in legal_plays(pos, 6, 6)


def test_resolve_rejects_points_off_the_board():
    with pytest.raises(ValueError):
        resolve_play(start_position(), [(26, 20)], 6, 5)


# --------------------------------------------------------------------------
# legal_plays bookkeeping


def test_legal_plays_returns_a_fresh_dict_each_call():
    plays = legal_plays(start_position(), 4, 2)
    plays.clear()
    assert len(legal_plays(start_position(), 4, 2)) == len(legal_plays(start_position(), 2, 4)) > 0


def test_representative_steps_replay_to_their_position():
    rng = random.Random(3)
    pos = start_position()
    for _ in range(300):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        plays = legal_plays(pos, d1, d2)
        for result, steps in plays.items():
            cur = pos
            for src, dst, hit in steps:
                assert dst == step_destination(cur, src, src - dst if dst else
                                               next(d for d in sorted({d1, d2})
                                                    if step_destination(cur, src, d) == 0))
                cur, h = apply_step(cur, src, dst)
                assert h == hit
            assert cur == result
        pos = rng.choice(list(plays))
        if game_over(pos):
            pos = start_position()
        else:
            pos = pos.swapped()


def _random_position(seed: int) -> Position:
    rng = random.Random(seed)
    variant = rng.choice(list(VARIANTS))
    pos = start_position(variant)
    for _ in range(rng.randint(0, 120)):
        plays = legal_plays(pos, rng.randint(1, 6), rng.randint(1, 6))
        nxt = rng.choice(list(plays))
        if game_over(nxt):
            break
        pos = nxt.swapped()
    return pos


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), roll=st.tuples(st.integers(1, 6), st.integers(1, 6)),
       order_seed=st.integers(0, 10**6))
def test_every_legal_play_resolves_in_any_written_order(seed, roll, order_seed):
    pos = _random_position(seed)
    rng = random.Random(order_seed)
    for result, steps in legal_plays(pos, *roll).items():
        moves = [(s, d) for s, d, _ in steps]
        # merge a checker's consecutive steps now and then (as 24/13 for 24/18 18/13)
        merged: list[tuple[int, int]] = []
        for s, d in moves:
            if merged and merged[-1][1] == s and s != 0 and rng.random() < 0.5:
                merged[-1] = (merged[-1][0], d)
            else:
                merged.append((s, d))
        rng.shuffle(merged)
        res = resolve_play(pos, merged, *roll)
        assert res.ok, (pos, merged, roll, res)
        assert res.position.me == result.me
        assert play_is_legal(pos, *roll, res)
        if merged == moves or len(merged) == len(moves):
            assert res.position == result


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**9), roll=st.tuples(st.integers(1, 6), st.integers(1, 6)),
       moves=st.lists(st.tuples(st.integers(1, 25), st.integers(0, 24)), max_size=4))
def test_resolve_play_steps_are_legal_one_by_one(seed, roll, moves):
    pos = _random_position(seed)
    res = resolve_play(pos, moves, *roll)
    if not res.ok:
        assert res.problem in PROBLEMS and 0 <= res.index < len(moves) and res.message
        return
    cur = pos
    dice = sorted([roll[0]] * 4 if roll[0] == roll[1] else list(roll))
    for src, dst, hit in res.steps:
        die = next(d for d in dice if step_destination(cur, src, d) == dst)
        dice.remove(die)
        cur, h = apply_step(cur, src, dst)
        assert h == hit
    assert cur == res.position and res.dice_used == len(res.steps)


# --------------------------------------------------------------------------
# The single-step kernel (rules/steps.py): each answer, and against a plain
# reading of RULES.md and against legal_plays on random positions


@pytest.mark.parametrize(
    "me, opp, src, die, answer",
    [
        ({13: 2, 6: 13}, {1: 15}, 8, 3, StepProblem.NO_CHECKER),       # nothing on 8
        ({13: 2, 6: 13}, {1: 15}, 25, 3, StepProblem.NO_CHECKER),      # nothing on the bar
        ({25: 1, 13: 1, 6: 13}, {1: 15}, 13, 3, StepProblem.BAR),      # enter first
        ({13: 2, 6: 13}, {10: 2, 1: 13}, 13, 3, StepProblem.BLOCKED),  # two on 10
        ({25: 1, 6: 14}, {22: 3, 1: 12}, 25, 3, StepProblem.BLOCKED),  # entry on 22 held
        ({8: 1, 5: 14}, {24: 15}, 5, 5, StepProblem.BEAROFF_OUTSIDE),
        ({25: 1, 5: 14}, {1: 15}, 25, 6, 19),                          # entering, then
        ({5: 1, 3: 1}, {24: 2}, 3, 4, StepProblem.BEAROFF_HIGHER),     # a checker on 5
        ({5: 1, 3: 1}, {24: 2}, 5, 4, 1),
        ({5: 1, 3: 1}, {24: 2}, 5, 5, 0),                              # exact bear-off
        ({5: 1, 3: 1}, {24: 2}, 5, 6, 0),                              # the highest, higher die
        ({5: 1, 3: 1}, {24: 2}, 3, 3, 0),
        ({13: 2, 6: 13}, {10: 1, 1: 14}, 13, 3, 10 | HIT),             # a blot on 10
        ({25: 1, 6: 14}, {22: 1, 1: 14}, 25, 3, 22 | HIT),             # entering on a blot
    ],
)
def test_the_kernel_answers_each_case(me, opp, src, die, answer):
    pos = P(me, opp)
    got = die_step(list(pos.me), list(pos.opp), src, die)
    assert got == answer and got.__class__ is answer.__class__
    assert die_step(pos.me, pos.opp, src, die) == answer  # tuples or lists alike
    if answer < 0:
        assert step_destination(pos, src, die) is None
        assert answer.code in PROBLEMS
    else:
        assert step_destination(pos, src, die) == answer & POINT


def test_each_step_problem_has_a_stable_code():
    assert {p: p.code for p in StepProblem} == {
        StepProblem.NO_CHECKER: "no-checker", StepProblem.BAR: "bar",
        StepProblem.BLOCKED: "blocked", StepProblem.BEAROFF_OUTSIDE: "bearoff-outside",
        StepProblem.BEAROFF_HIGHER: "bearoff-higher"}
    assert all(p < 0 for p in StepProblem)


def plain_step(pos: Position, src: int, die: int) -> tuple[str, int | None]:
    """RULES.md read plainly, one rule after the other (independent of the
    kernel): ('ok', point) or (the problem, None)."""
    me, opp = pos.me, pos.opp
    if me[src] == 0:
        return "no-checker", None
    if me[25] > 0 and src != 25:
        return "bar", None
    dst = src - die
    if dst >= 1:
        return ("blocked", None) if opp[25 - dst] >= 2 else ("ok", dst)
    if sum(me[p] for p in range(7, 26)) > 0:
        return "bearoff-outside", None
    if dst < 0 and sum(me[p] for p in range(src + 1, 7)) > 0:
        return "bearoff-higher", None
    return "ok", 0


def test_the_kernel_agrees_with_a_plain_reading_of_the_rules_on_random_positions():
    seen = set()
    for pos in (_random_position(seed) for seed in range(300)):
        for src in range(1, 26):
            for die in range(1, 7):
                t = die_step(pos.me, pos.opp, src, die)
                want, dst = plain_step(pos, src, die)
                if t < 0:
                    assert t.code == want, (pos, src, die)
                else:
                    assert want == "ok" and t & POINT == dst, (pos, src, die)
                    assert bool(t & HIT) == (dst > 0 and pos.opp[25 - dst] == 1)
                seen.add(want)
    assert seen == {"ok", "no-checker", "bar", "blocked", "bearoff-outside", "bearoff-higher"}


def test_the_kernel_agrees_with_legal_plays_on_random_positions():
    """The single steps the kernel allows are the plays of one die, and
    every step of every legal play is one the kernel allows."""
    one_die = several = 0
    for pos in (_random_position(seed) for seed in range(400, 700)):
        for die in range(1, 7):
            steps = {(src, die_step(pos.me, pos.opp, src, die) & POINT) for src in range(1, 26)
                     if die_step(pos.me, pos.opp, src, die) >= 0}
            after_one = {apply_step(pos, src, dst)[0] for src, dst in steps}
            assert die_playable(pos, die) == bool(steps)
            most = max_dice_playable(pos, die, die)
            assert (most > 0) == bool(steps)
            plays = legal_plays(pos, die, die)
            if most == 1:
                assert set(plays) == after_one
                one_die += 1
            for result, play in plays.items():
                cur = pos
                for src, dst, hit in play:
                    t = die_step(cur.me, cur.opp, src, die)
                    assert t >= 0 and t & POINT == dst and bool(t & HIT) == hit
                    cur = apply_step(cur, src, dst)[0]
                assert cur == result
                several += len(play) > 1
    assert one_die > 20 and several > 1000


# --------------------------------------------------------------------------
# Resolver: the memos never change an answer


def test_a_resolver_answers_what_the_plain_functions_answer():
    rng = random.Random(5)
    shared = Resolver()
    for pos in (_random_position(seed) for seed in range(200)):
        for _ in range(3):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            plays = legal_plays(pos, d1, d2)
            assert shared.legal_plays(pos, d1, d2) == plays
            for steps in list(plays.values())[:4]:
                moves = tuple((s, d) for s, d, _h in steps)
                assert shared.play_in_written_order(pos, moves, d1, d2) == \
                    play_in_written_order(pos, moves, d1, d2)
                a, b = shared.resolve_play(pos, moves, d1, d2), resolve_play(pos, moves, d1, d2)
                assert a == b and a.legal == play_is_legal(pos, d1, d2, b)
            # asked again, in another order: the same
            assert shared.legal_plays(pos, d2, d1) == plays


def test_play_in_place_leaves_the_sides_as_they_were_when_it_fails():
    resolver = Resolver()
    # a blot of the opponent's on my 10; they hold my 7 and my 5
    pos = P({13: 2, 8: 2, 6: 11}, {10: 1, 7: 2, 5: 2, 1: 10})
    for moves, dice, marked in [
        (((13, 10), (13, 7)), (6, 3), None),        # 13/10* then 13/7 is blocked
        (((13, 10), (8, 6)), (3, 3), None),         # dice left unused: not for the fast path
        (((13, 10), (8, 6)), (3, 2), frozenset()),  # the hit on 10 is not marked
        (((13, 10), (8, 6)), (3, 2), frozenset({6})),
        # two equal steps (the first hits), then 10/7 is blocked
        (((13, 10), (13, 10), (10, 7), (10, 7)), (3, 3), None),
    ]:
        me, opp = list(pos.me), list(pos.opp)
        assert resolver.play_in_place(me, opp, moves, *dice, marked) is None, moves
        assert (tuple(me), tuple(opp)) == (pos.me, pos.opp), moves
    # the second of two equal steps fails: the first is taken back
    lone = P({13: 1, 6: 14}, {10: 1, 1: 14})
    me, opp = list(lone.me), list(lone.opp)
    assert resolver.play_in_place(me, opp, ((13, 10), (13, 10), (6, 3), (6, 3)), 3, 3) is None
    assert (tuple(me), tuple(opp)) == (lone.me, lone.opp)
    me, opp = list(pos.me), list(pos.opp)
    assert resolver.play_in_place(me, opp, ((13, 10), (8, 6)), 3, 2, frozenset({10})) == (10,)
    assert Position(tuple(me), tuple(opp)) == resolve_play(pos, [(13, 10), (8, 6)], 3, 2).position


# --------------------------------------------------------------------------
# Problems are codes with a message key and fields


def test_every_problem_message_is_rendered_from_the_table():
    pos = P({13: 2, 8: 1, 6: 12}, {1: 15})
    res = resolve_play(pos, [(8, 6), (13, 12)], 6, 1)
    assert res.key == "rules.distance.no-die" and res.key in MESSAGES
    assert res.fields == {"movement": "8/6", "d1": 6, "d2": 1, "pips": 2}
    assert res.message == render(res.key, res.fields)
    assert resolve_play(pos, [(13, 7), (8, 7)], 6, 1).message == ""  # no problem


# --------------------------------------------------------------------------
# Outcomes, variants


def test_outcomes_are_todays_words_and_know_their_multiplier():
    assert [o.value for o in Outcome] == ["single", "gammon", "backgammon", "drop", "resign",
                                          "time", "unfinished"]
    assert Outcome.GAMMON == "gammon" and f"{Outcome.DROP}" == "drop"
    assert [Outcome.of_multiplier(n).multiplier for n in (1, 2, 3)] == [1, 2, 3]
    assert Outcome.DROP.multiplier == 1 and Outcome.TIME.multiplier is None
    winner = mine({})
    assert outcome_of(Position(winner, theirs({13: 14, 25: 1, 0: 0}))) is Outcome.BACKGAMMON
    assert outcome_of(Position(winner, theirs({13: 15, 0: 0}))) is Outcome.GAMMON


def test_every_variant_has_its_names_in_one_record():
    assert [v.key for v in ALL_VARIANTS] == list(VARIANTS)
    for v in ALL_VARIANTS:
        assert variant_by_key(v.key) is v and find_variant(v.key) is v
        assert VARIANTS[v.key] == v.start == start_position(v.key)
        for alias in v.aliases:
            assert find_variant(alias) is v
        if v.variation:   # what a match file's Variation tag says reads back as it
            assert find_variant(v.variation) is v
        if v.sgf_rule:    # what gamao writes in RU reads back as it
            assert variant_of_rule_word(v.sgf_rule.lower()) is v
        for word in v.rule_words:
            assert variant_of_rule_word(word) is v
    assert variant_of_rule_word("hypergammon") is variant_by_key("hypergammon3")
    assert variant_by_key("longgammon").sgf_rule is None   # gnubg has none: a set-up node
    assert variant_by_key("backgammon").variation is None


# --------------------------------------------------------------------------
# The cube and the turn (rules/cube.py): every transition and refusal


def whys(refusals) -> list:
    return [r.why for r in refusals]


def test_the_opening_roll_then_turns_alternate():
    cube = CubeState()
    assert cube.turn is None
    assert whys(cube.roll(1)) == [Why.OPENING] and cube.turn == 1
    cube.end_turn()
    assert cube.turn == 0 and cube.roll(0) == []
    cube.end_turn()
    [r] = cube.roll(0)   # it is player 1's turn
    assert (r.why, r.player, cube.turn) == (Why.OUT_OF_TURN, 1, 0)


def test_a_double_taken_turns_the_cube_to_the_taker():
    cube = CubeState()
    cube.roll(0)
    cube.end_turn()                                  # player 1 on roll
    assert cube.may_double(1) is None
    assert cube.double(1, 2, "D") == [] and cube.pending.offerer == 1
    assert cube.pending.kind is Offer.DOUBLE and cube.pending.offer == "D"
    assert (cube.value, cube.owner, cube.turned) == (1, None, False)
    assert cube.take(0) == []
    assert (cube.value, cube.owner, cube.turned, cube.pending) == (2, 0, True, None)
    # the owner redoubles on their turn, the other may not
    cube.end_turn()
    assert cube.turn == 0 and cube.may_double(0) is None
    assert cube.may_double(1).why is Why.NOT_YOUR_TURN
    assert cube.double(0, 4) == [] and cube.take(1) == [] and (cube.value, cube.owner) == (4, 1)


def test_a_double_dropped_wins_for_the_doubler():
    cube = CubeState()
    cube.roll(0)
    cube.double(0, None)
    assert cube.drop(1) == (0, []) and cube.pending is None and cube.value == 1


def test_who_may_not_double():
    assert CubeState(enabled=False).may_double(0).why is Why.NO_CUBE
    assert CubeState(crawford=True, turn=0).may_double(0).why is Why.CRAWFORD
    assert CubeState().may_double(0).why is Why.BEFORE_OPENING
    waiting = CubeState(turn=0)
    waiting.double(0, None)
    assert waiting.may_double(0).why is Why.PENDING
    other = CubeState(turn=1)
    assert (other.may_double(0).why, other.may_double(0).player) == (Why.NOT_YOUR_TURN, 1)
    owned = CubeState(turn=0, owner=1, value=2)
    assert (owned.may_double(0).why, owned.may_double(0).player) == (Why.NOT_OWNER, 1)
    assert owned.may_double(1) is None or owned.may_double(1).why is Why.NOT_YOUR_TURN


def test_a_refused_double_still_waits_for_an_answer():
    cube = CubeState(turn=1, owner=1, value=2)
    assert whys(cube.double(0, 8)) == [Why.NOT_YOUR_TURN, Why.WRONG_VALUE]
    assert cube.pending.offerer == 0 and cube.turn == 0   # the doubler is then on roll
    [wrong] = CubeState(turn=0).double(0, 3)
    assert (wrong.why, wrong.offer) == (Why.WRONG_VALUE, 1)   # the cube before the double


def test_answers_with_nothing_to_answer():
    cube = CubeState(turn=0)
    assert whys(cube.take(1)) == [Why.NOTHING_TO_ANSWER]
    assert cube.drop(1) == (None, [cube.take(1)[0]])
    cube.double(0, None)
    assert whys(cube.take(0)) == [Why.NOTHING_TO_ANSWER]   # the doubler cannot take
    [r] = cube.redouble(1, Offer.RACCOON, None)            # a raccoon answers a beaver
    assert (r.why, r.offer) == (Why.NOTHING_TO_ANSWER, Offer.BEAVER)
    assert cube.pending.kind is Offer.DOUBLE and cube.value == 1   # nothing changed


def test_beaver_and_raccoon():
    cube = CubeState(turn=0, money=True)
    cube.double(0, 2)
    assert cube.redouble(1, Offer.BEAVER, 4) == []        # takes at 2, redoubles to 4
    assert (cube.value, cube.turned, cube.pending.offerer, cube.pending.kind) == \
        (2, True, 1, Offer.BEAVER)
    assert cube.redouble(0, Offer.RACCOON, 8) == []
    assert cube.value == 4 and cube.pending.kind is Offer.RACCOON
    assert cube.take(1) == [] and (cube.value, cube.owner) == (8, 0)   # the raccoon's maker
    [r] = CubeState(turn=0, money=True, value=1).redouble(1, Offer.BEAVER, 4)
    assert r.why is Why.NOTHING_TO_ANSWER


def test_beavers_are_for_money_play_under_rules_that_allow_them():
    for state, why in ((CubeState(turn=0), Why.BEAVER_IN_MATCH),
                       (CubeState(turn=0, money=True, beavers=False), Why.BEAVER_BY_RULES)):
        state.double(0, None)
        assert whys(state.redouble(1, Offer.BEAVER, 4)) == [why]
        assert state.value == 2   # replayed as written all the same
    wrong = CubeState(turn=0, money=True)
    wrong.double(0, None)
    [r] = wrong.redouble(1, Offer.BEAVER, 8)
    assert (r.why, r.offer) == (Why.WRONG_VALUE, 2)   # the cube after the take


def test_a_roll_settles_what_waits():
    # the doubler of a beaver rolling on accepts it (GNU Backgammon writes no take)
    cube = CubeState(turn=0, money=True)
    cube.double(0, None)
    cube.redouble(1, Offer.BEAVER, None)
    assert cube.roll(0) == [] and (cube.value, cube.owner, cube.pending) == (4, 1, None)
    # a double never answered
    cube = CubeState(turn=0)
    cube.double(0, None)
    [r] = cube.roll(0)
    assert (r.why, r.player, cube.pending, cube.value) == (Why.UNANSWERED, 0, None, 1)
    # the beaver's own maker rolling: never answered either
    cube = CubeState(turn=0, money=True)
    cube.double(0, None)
    cube.redouble(1, Offer.BEAVER, None)
    assert [(r.why, r.player) for r in cube.roll(1)] == [(Why.UNANSWERED, 1),
                                                         (Why.OUT_OF_TURN, 0)]


def test_the_crawford_game():
    assert crawford_game(5, (4, 2), True, False, False)
    assert not crawford_game(5, (4, 2), True, True, False)      # already played
    assert not crawford_game(5, (4, 2), False, False, False)    # no Crawford rule
    assert not crawford_game(5, (4, 2), True, False, True)      # never the first game
    assert not crawford_game(0, (4, 2), True, False, False)     # money play
    assert not crawford_game(5, (3, 2), True, False, False)     # nobody at match point


# --------------------------------------------------------------------------
# The rules know nothing of formats, rendering, the command line or the replay


def test_the_rules_import_nothing_of_formats_render_cli_or_replay():
    import ast
    from pathlib import Path

    import gamao_cli.rules

    forbidden = ("gamao_cli.formats", "gamao_cli.render", "gamao_cli.cli", "gamao_cli.replay")
    folder = Path(gamao_cli.rules.__file__).parent
    files = sorted(folder.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:   # relative: from the rules package, or above it
                    base = "gamao_cli.rules" if node.level == 1 else "gamao_cli"
                    mod = f"{base}.{node.module}" if node.module else base
                    names = [mod] + ([f"{mod}.{a.name}" for a in node.names] if node.level > 1
                                     else [])
                else:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                assert not name.startswith(forbidden), f"{path.name} imports {name}"
