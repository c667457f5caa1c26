"""The C run of plays (gamao_cli/replay/_play_run.c) against the Python
code it speeds up, which is the reference: the replay's loop
(``_GameReplay.plays``) and ``play_plan``.

* every file of the shared corpora, validated with the kernel and without
  it: the same diagnostics (every field), the same matches and results;
* random positions and plans: the kernel's play of a plan is play_plan's
  (the arrays after, the points hit or None), hit marks checked or not;
* inputs the kernel cannot read (odd plans, odd types) are declined, the
  arrays untouched, never trusted;
* a dance passes the turn only when its player is on the bar with both
  entry points held; any other dance is left to Python;
* a replay that keeps its records (the writers'), with the kernel's
  ``run_records`` and without: the same records (action, turn, position,
  cube, steps) and diagnostics for every file of the corpus; the steps a
  play's text shares are kept with it as the Python loop keeps them.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import CORPUS, both_corpora_files, outcome_digest
from gamao_cli import kernels
from gamao_cli import model as m
from gamao_cli.replay import replay
from gamao_cli.replay.check import check_file
from gamao_cli.rules import plays
from gamao_cli.rules.resolve import _written_order_plan, play_plan

from test_fast_paths import ROLLS, random_positions, readings, tight_positions

KERNEL = kernels.kernel("gamao_cli.replay._play_run")
pytestmark = pytest.mark.skipif(
    KERNEL is None or replay._play_run is None,
    reason="the C kernel gamao_cli.replay._play_run is not built (or GAMAO_PURE_PYTHON is set):"
           " nothing to compare the Python replay with")

def _outcome(path: Path):
    r = check_file(str(path))
    return (r.unreadable, r.internal_error, r.encoding,
            [(mt.players, mt.length, mt.games, mt.plays, mt.final_score, mt.winner)
             for mt in r.matches],
            [(d.code, d.severity, d.line, d.column, d.game, d.move, d.player, d.message,
              d.dice, d.play, tuple(d.legal), d.category) for d in r.diagnostics])


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")
def test_the_whole_corpus_validates_the_same_with_and_without_the_kernel(monkeypatch):
    files = both_corpora_files()
    assert len(files) > 1700   # bulk/ included
    # the kernel does run: it replays most plays of the bulk
    calls, dances = [], []
    kernel_run = KERNEL.run

    def counting(actions, i, *rest):
        j, danced = kernel_run(actions, i, *rest)
        calls.append(j - i)
        dances.append(danced)
        return j, danced

    with_kernel = {}
    monkeypatch.setattr(KERNEL, "run", counting)
    for p in files:
        with_kernel[p] = _outcome(p)
    monkeypatch.setattr(KERNEL, "run", kernel_run)
    assert sum(calls) > 100_000 and sum(dances) > 10_000
    monkeypatch.setattr(replay, "_play_run", None)
    monkeypatch.setattr(plays, "_MAX_DICE", [False])   # its max_dice too
    differ = [p for p in files if _outcome(p) != with_kernel[p]]
    assert not differ, differ[:10]


def test_the_kernels_max_dice_is_max_dice_playables():
    """The kernel's max_dice against the Python search, the reference, on
    random positions and the tight ones (the bar against made points, the
    last checkers of a bear-off), every roll; given lists or tuples."""
    assert plays.max_dice_playable.__module__ == plays.__name__
    seen = set()
    for pos in random_positions(600, seed=31) + tight_positions(600, seed=32):
        for d1, d2 in ROLLS:
            expected = plays.max_dice_playable_reference(pos, d1, d2)
            assert KERNEL.max_dice(pos.me, pos.opp, d1, d2) == expected, (pos, d1, d2)
            assert KERNEL.max_dice(list(pos.me), list(pos.opp), d2, d1) == expected
            seen.add((d1 == d2, expected))
    assert seen >= {(False, 0), (False, 1), (False, 2), (True, 0), (True, 1), (True, 2),
                    (True, 3), (True, 4)}, seen
    # and max_dice_playable answers with it
    assert plays._max_dice_kernel() is KERNEL.max_dice


def _python_memo(text, d1, d2):
    """The memo the Python loop makes of a play text and a roll when its
    plan plays the whole roll, else None."""
    from gamao_cli.model.notation import shape_of
    try:
        shape = shape_of(text)
        plan = replay.RESOLVER.plan(shape[0], d1, d2)
    except ValueError:
        return None
    return (d1 << 3 | d2, plan, shape[1], (), None) if plan else None


def _memo_texts():
    texts = set()
    for p in both_corpora_files()[::3]:
        try:
            matches = replay_read(p)
        except Exception:
            continue
        for mt in matches:
            for g in mt.games:
                for a in g.actions:
                    if type(a) is m.Play and a._written is not None:
                        texts.add((a._written.text, a.dice))
    return texts


def replay_read(p):
    from gamao_cli.formats import members
    return members.read_path(str(p))


def test_the_kernels_memo_of_a_text_is_the_python_loops():
    """The memo the kernel makes of a play's text (its movements and marks
    as shape_of reads them, its written-order plan) is the Python loop's,
    for the texts of the corpora with their roll and with every roll, and
    for odd texts; what it declines is left to Python (None)."""
    texts = _memo_texts()
    assert len(texts) > 5000
    made = declined = 0
    for text, (d1, d2) in sorted(texts):
        for roll in [(d1, d2)] + ROLLS[::5]:
            got = KERNEL.text_memo(text, *roll)
            expected = _python_memo(text, *roll)
            if got is None:
                declined += 1
                if roll == (d1, d2) and expected is not None:
                    assert not text.isascii() or "\t" in text or "(" in text, text
            else:
                made += 1
                assert got == expected, (text, roll, got, expected)
    assert made > 5000, (made, declined)
    rng = random.Random(41)
    alphabet = ["1", "2", "3", "6", "8", "13", "24", "25", "0", "bar", "Bar", "b", "off", "O",
                "/", "/", "*", " ", "  ", "(2)", "(3)", "(0)", "(", ")", "x", "99", "007", "\t"]
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 9)))
        for roll in rng.sample(ROLLS, 2):
            got = KERNEL.text_memo(text, *roll)
            if got is not None:
                assert got == _python_memo(text, *roll), (text, roll, got)
                made += 1
    assert KERNEL.text_memo("8/5 6/5", 3, 1) == (3 << 3 | 1, ((8, 3), (6, 1)), frozenset(), (),
                                                 None)
    assert KERNEL.text_memo("24/20* 13/11", 4, 2)[2] == frozenset({20})


def test_the_loop_makes_the_memo_it_lacks():
    """A play whose text has no memo yet is played by the kernel, which
    makes its memo, rather than left to the Python loop (which would make
    the play's shape on the way)."""
    from gamao_cli.formats.mat.reader import read_matches
    text = (" 1 point match\n\n Game 1\n A : 0     B : 0\n"
            "  1) 31: 8/5 6/5     42: 8/4 6/4\n  2) 53: 8/3 6/3     61: 13/7 8/7\n")
    match = read_matches(text, "x.mat")[0]
    later = [a for a in match.games[0].actions if type(a) is m.Play][1:]
    for a in later:
        a._written.plan = None
        a._written.shape = a.shape = None
    assert replay.validate_match(match).errors == 0
    assert [a._written.plan[1] for a in later] == [((8, 4), (6, 2)), ((8, 5), (6, 3)),
                                                   ((13, 6), (8, 1))]
    assert all(a.shape is None and a._written.shape is None for a in later)


@pytest.mark.parametrize("args", [
    ((0,) * 26, (0,) * 26, 0, 3), ((0,) * 26, (0,) * 26, 3, 7), ((0,) * 25, (0,) * 26, 3, 1),
    ([0] * 26, [1.0] * 26, 3, 1), ((2 ** 62,) + (0,) * 25, (0,) * 26, 3, 1),
    ((0,) * 26, (0,) * 26, True, 2)])
def test_max_dice_declines_what_it_cannot_read(args):
    assert KERNEL.max_dice(*args) == -1


def _marks_variants(got, rng):
    """Hit marks to try with a play that hit ``got``: none checked, the
    hits, none marked, one point off."""
    yield None
    yield frozenset(got or ())
    yield frozenset()
    yield frozenset(set(got or ()) ^ {rng.randint(1, 24)})


def _both(pos, plan, marked):
    me, opp = list(pos.me), list(pos.opp)
    kme, kopp = list(pos.me), list(pos.opp)
    expected = play_plan(me, opp, plan, marked)
    got = KERNEL.play_plan(kme, kopp, plan, marked)
    assert got == expected, (pos, plan, marked)
    assert (kme, kopp) == (me, opp), (pos, plan, marked)
    if got is None:
        assert (kme, kopp) == (list(pos.me), list(pos.opp))
    return got


def test_the_kernels_play_of_a_plan_is_play_plans():
    rng = random.Random(23)
    played = refused = hit = bar = off = 0
    positions = random_positions(300, seed=11) + tight_positions(300, seed=12)
    for pos in positions:
        for d1, d2 in rng.sample(ROLLS, 4):
            plans = []
            for moves in readings(pos, d1, d2, rng):
                found = _written_order_plan(moves, d1, d2)
                if found and found[0]:
                    plans.append(tuple(found[0]))
            # and plans no reading gives: any points, any dice
            for _ in range(3):
                plans.append(tuple((rng.randint(1, 25), rng.randint(1, 6))
                                   for _ in range(rng.randint(1, 4))))
            for plan in plans:
                got = _both(pos, plan, None)
                for marked in _marks_variants(got, rng):
                    _both(pos, plan, marked)
                if got is None:
                    refused += 1
                    continue
                played += 1
                hit += bool(got)
                bar += any(cur == 25 for cur, _d in plan)
                off += any(cur <= d for cur, d in plan)
    assert played > 2000 and refused > 2000 and hit > 200 and bar > 200 and off > 200


def _plays(texts_and_rolls, memo):
    """Plays of player 0, 1, 0, ... from PlayTexts whose memo is ``memo(roll)``."""
    out = []
    for k, (d1, d2) in enumerate(texts_and_rolls):
        written = m.PlayText("x", None, None)
        written.plan = memo(d1 << 3 | d2)
        out.append(m.Play.from_text(k % 2, (d1, d2), written, 0, 1, 0, None))
    return out


@pytest.mark.parametrize("memo", [
    lambda roll: (roll, ((0, 3),), frozenset(), (), None),           # from off the board
    lambda roll: (roll, ((26, 3),), frozenset(), (), None),          # past the bar
    lambda roll: (roll, ((-1, 3),), frozenset(), (), None),          # a negative index
    lambda roll: (roll, ((8, 0),), frozenset(), (), None),           # die 0
    lambda roll: (roll, ((8, 7),), frozenset(), (), None),           # die 7
    lambda roll: (roll, ((8, 3, 1),), frozenset(), (), None),        # a step of three
    lambda roll: (roll, [(8, 3), (6, 1)], frozenset(), (), None),    # a list
    lambda roll: (roll, ((8.0, 3), (6, 1)), frozenset(), (), None),  # a float
    lambda roll: (roll, ((True, 3),), frozenset(), (), None),        # a bool
    lambda roll: (roll, ((8, 3),) * 9, frozenset(), (), None),       # too long
    lambda roll: (roll, (), frozenset(), (), None),                  # no plan
    lambda roll: (roll + 1, ((8, 3), (6, 1)), frozenset(), (), None),  # another roll
    lambda roll: (roll, ((8, 3), (6, 1)), [5], (), None),            # marks not a set
    lambda roll: (roll,),                                            # short
    lambda roll: None,                                               # no memo
    lambda roll: [roll, ((8, 3), (6, 1)), frozenset()],              # not a tuple
])
def test_what_the_kernel_cannot_read_is_left_to_python(memo):
    me, opp = [0] * 26, [0] * 26
    me[8] = me[6] = me[13] = 3
    opp[8] = opp[6] = opp[13] = 3
    actions = _plays([(3, 1)] * 4, memo)
    before = (list(me), list(opp))
    assert KERNEL.run(actions, 0, me, opp, 0, True) == (0, 0)
    assert (me, opp) == before


def test_the_kernel_plays_a_stretch_and_stops_where_python_takes_over():
    me, opp = [0] * 26, [0] * 26
    me[20], opp[20] = 4, 2

    def memo(roll):
        return (roll, ((20, 3), (20, 1)), frozenset(), (), None)

    actions = _plays([(3, 1)] * 3, memo) + [m.Dance(0, (6, 6))]
    pm, po = list(me), list(opp)
    turn = 0
    for _ in range(3):
        assert play_plan(pm, po, ((20, 3), (20, 1)), frozenset()) == ()
        pm, po = po, pm
        turn = 1 - turn
    # three plays, then the dance (not a play): after an odd run the
    # caller's names swap
    assert KERNEL.run(actions, 0, me, opp, 0, True) == (3, 0)
    assert (opp, me) == (pm, po)
    # out of turn: nothing played
    assert KERNEL.run(actions, 1, me, opp, 0, True) == (1, 0)
    # a failing play (no checker on the 20 point)
    me2, opp2 = [0] * 26, [0] * 26
    me2[6] = opp2[6] = 2
    assert KERNEL.run(actions, 0, me2, opp2, 0, False) == (0, 0)
    assert me2[6] == 2 and sum(me2) == 2


def test_the_play_that_ends_the_game_is_left_to_python():
    me, opp = [0] * 26, [0] * 26
    me[0], me[1], me[2] = 13, 1, 1
    opp[24] = 15

    def memo(roll):
        return (roll, ((2, 2), (1, 1)), frozenset(), (), None)

    actions = _plays([(2, 1)], memo)
    before = (list(me), list(opp))
    assert KERNEL.run(actions, 0, me, opp, 0, False) == (0, 0)
    assert (me, opp) == before
    assert play_plan(me, opp, ((2, 2), (1, 1)), None) == () and me[0] == 15


def test_odd_arguments_are_declined_or_refused():
    me, opp = [0] * 26, [0] * 26
    me[8] = opp[8] = 1
    actions = _plays([(3, 1)], lambda roll: (roll, ((8, 3),), frozenset(), (), None))
    assert KERNEL.run(actions, 0, me, me, 0, False) == (0, 0)            # one list for both
    assert KERNEL.run(actions, 0, me[:25], opp, 0, False) == (0, 0)      # a short side
    assert KERNEL.run(actions, 0, [True] + me[1:], opp, 0, False) == (0, 0)
    assert KERNEL.run(actions, 0, me, opp, 2, False) == (0, 0)           # no such turn
    assert KERNEL.run(actions, 5, me, opp, 0, False) == (5, 0)           # past the end
    assert KERNEL.run(tuple(actions), 0, me, opp, 0, False) == (0, 0)    # not a list
    assert KERNEL.run([object()], 0, me, opp, 0, False) == (0, 0)
    with pytest.raises(TypeError):
        KERNEL.run(actions, 0, me, opp)
    with pytest.raises(ValueError):
        KERNEL.play_plan(me, opp, ((30, 1),), None)
    with pytest.raises(TypeError):
        KERNEL.play_plan(me, opp, ((8, 1),), [8])


def test_a_dance_on_the_bar_passes_the_turn_and_any_other_is_left_to_python():
    def memo(roll):
        return (roll, ((13, 3), (10, 1)), frozenset(), (), None)

    def board(bar, held):
        me, opp = [0] * 26, [0] * 26
        me[13], me[25] = 5, bar
        opp[13] = 5
        for d in held:    # the mover's entry point for d is opp[d] to the opponent
            opp[d] = 2
        return me, opp

    # player 0 dances (6-5, both held), player 1 plays 3-1, player 0 dances again
    actions = [m.Dance(0, (6, 5))] + _plays([(3, 1), (3, 1)], memo)[1:] + [m.Dance(0, (5, 6))]
    me, opp = board(1, (5, 6))
    # (the play of player 1 is its 13/10/9, from its own side)
    assert KERNEL.run(actions, 0, me, opp, 0, False) == (3, 2)
    assert me[25] == 1 and opp[9] == 1 and opp[13] == 4
    # a die that enters: the dance is Python's (roll, then resign; or an error)
    for bar, held, dice in ((1, (6,), (6, 5)), (0, (5, 6), (6, 5)), (1, (6,), (5, 5)),
                            (1, (5, 6), (6, 0)), (1, (5, 6), (7, 5))):
        me, opp = board(bar, held)
        before = (list(me), list(opp))
        assert KERNEL.run([m.Dance(0, dice)], 0, me, opp, 0, False) == (0, 0), (bar, held, dice)
        assert (me, opp) == before
    me, opp = board(1, (5, 6))
    assert KERNEL.run([m.Dance(1, (6, 5))], 0, me, opp, 0, False) == (0, 0)   # out of turn
    me, opp = board(2, (6,))
    assert KERNEL.run([m.Dance(0, (6, 6))], 0, me, opp, 0, False) == (1, 1)


def _records_outcome(path: Path):
    """What a replay keeping records gives of each match of a file: each
    record (its action as its index in the game), the results, the
    diagnostics."""
    from gamao_cli.formats import read_path
    from gamao_cli.replay.replay import validate_match
    try:
        matches = read_path(str(path))
    except Exception as e:   # a file the corpus holds because it is unreadable
        return type(e).__name__
    out = []
    for match in matches:
        r = validate_match(match, keep_records=True)
        index = {id(a): k for g in match.games for k, a in enumerate(g.actions)}
        out.append(([[(index.get(id(x.action)), x.turn, x.position, x.cube, x.cube_owner,
                       x.steps) for x in g.records] for g in r.games],
                    [(g.winner, g.points, g.ended, g.moves) for g in r.games],
                    [d.to_dict() for d in r.diagnostics], r.final_score))
    return out


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")
def test_a_replay_keeping_records_makes_the_same_records_with_and_without_the_kernel(
        monkeypatch):
    assert replay._records_bound
    files = both_corpora_files()[::3]
    calls = []
    kernel_run = KERNEL.run_records

    def counting(actions, i, *rest):
        got = kernel_run(actions, i, *rest)
        calls.append(got[0] - i)
        return got
    monkeypatch.setattr(KERNEL, "run_records", counting)
    with_kernel = {p: _records_outcome(p) for p in files}
    assert sum(calls) > 30_000   # the kernel does make most records
    monkeypatch.setattr(replay, "_play_run", None)
    differ = [p for p in files if _records_outcome(p) != with_kernel[p]]
    assert not differ, differ[:10]


def test_the_kernels_records_share_the_steps_of_a_text_as_python_does():
    """Plays written alike that hit nothing share one steps tuple, kept in
    their text's memo (its fifth item), with the kernel as without it."""
    from gamao_cli.formats.mat.reader import read_matches
    from gamao_cli.replay.replay import validate_match
    text = (" 0 point match\n\n Game 1\n A : 0   B : 0\n"
            "  1) 31: 8/5 6/5  31: 8/5 6/5\n  2) 31: 13/10 24/23  31: 13/10 24/23\n"
            "  3) 64: 24/18 13/9  64: 24/18 13/9\n")
    outcomes = []
    for kernel in (KERNEL, None):
        [match] = read_matches(text)
        import gamao_cli.replay.replay as rp
        saved = rp._play_run
        rp._play_run = kernel
        try:
            records = validate_match(match, keep_records=True).games[0].records
        finally:
            rp._play_run = saved
        # (the opening goes the full way: its steps are the full path's)
        plays = [r for r in records if r.steps and r.action.play_text() == "13/10 24/23"]
        assert len(plays) == 2 and plays[0].steps is plays[1].steps   # one tuple
        assert plays[0].action._written.plan[4] is plays[0].steps
        outcomes.append([(r.turn, r.position, r.cube, r.cube_owner, r.steps) for r in records])
    assert outcomes[0] == outcomes[1]


def test_run_records_declines_what_it_cannot_read():
    me, opp = [0] * 26, [0] * 26
    me[8] = opp[8] = 1
    actions = _plays([(3, 1)], lambda roll: (roll, ((8, 3),), frozenset(), (), None))
    records: list = []
    start = replay._position(tuple(me), tuple(opp))
    for odd in ((actions, 0, me, me, 0, False, records, 1, None, start, None),     # one list
                (actions, 0, me, opp, 0, False, (), 1, None, start, None),         # no list
                (actions, 0, me, opp, 0, False, records, 1, None, "pos", None),    # no Position
                (actions, 0, me, opp, 0, False, records, 1, None, None, (0,) * 25)):  # short side
        assert KERNEL.run_records(*odd) == (0, odd[9], odd[10])
    assert records == []
    with pytest.raises(TypeError):
        KERNEL.run_records(actions, 0, me, opp, 0, False, records)
    got = KERNEL.run_records(actions, 0, me, opp, 0, False, records, 1, None, start, None)
    assert got[0] == 1 and got[1] is None and records[0].position is start
    assert records[0].steps == ((8, 5, False),) and got[2] == start.opp


def _states_outcome(path: Path) -> str:
    """The states before every action of each match of a file, as
    ``snapshots.game_states`` and ``game_state_ids`` give them (each
    record as its action's index in its game): a digest of them."""
    from gamao_cli.replay import snapshots
    from gamao_cli.replay.replay import validate_match

    def states_of(matches):
        out = []
        for match in matches:
            r = validate_match(match, keep_records=True)
            index = {id(a): k for g in match.games for k, a in enumerate(g.actions)}
            out.append([[(index[id(rec.action)], value) for rec, value in game]
                        for placed in (snapshots.game_states(match, r),
                                       snapshots.game_state_ids(match, r))
                        for game in placed])
        return out
    return outcome_digest(path, states_of)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")
def test_the_states_before_the_actions_are_the_same_with_and_without_the_kernel(monkeypatch):
    """``_play_run.placed``, the loop of ``snapshots._placed`` (the state and
    IDs of every position a page or an export shows), against the Python
    loop on every file of the corpora: the same records with the same
    states (MatchState equality: every field) and the same IDs and fields."""
    from gamao_cli.replay import snapshots
    assert snapshots._KERNEL is KERNEL
    files = both_corpora_files()
    games, kernel_placed = [], KERNEL.placed

    def counting(records, *rest):
        got = kernel_placed(records, *rest)
        games.append(got is not None)
        return got
    monkeypatch.setattr(KERNEL, "placed", counting)
    with_kernel = {p: _states_outcome(p) for p in files}
    assert sum(games) > 10_000 and all(games)   # the kernel placed every game
    monkeypatch.setattr(snapshots, "_KERNEL", None)
    for cache in (snapshots._STATES, snapshots._STATE_IDS):   # made again, by Python
        cache.clear()
    differ = [p for p in files if _states_outcome(p) != with_kernel[p]]
    assert not differ, differ[:10]


def test_placed_declines_what_it_cannot_read():
    """A record that is no ActionRecord, or a roll whose dice are no two
    ints, leaves the whole game to Python: None, nothing made."""
    from gamao_cli.replay.replay import ActionRecord
    from gamao_cli.rules import Position
    start = Position((0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0),
                     (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0))
    made = []

    def make(*key):
        made.append(key)
        return key

    def args(records):
        cache: dict = {}
        return (records, m.ROLLS, (m.Take, m.Drop), m.Double, False, (0, 0), 5, False, cache,
                lambda k, v: cache.setdefault(k, v), make)
    good = ActionRecord(m.Play(0, (3, 1), m.parse_steps("8/5 6/5")), 0, start, 1, None)
    odd_dice = ActionRecord(m.Play(0, (3.0, 1), m.parse_steps("8/5 6/5")), 0, start, 1, None)
    assert KERNEL.placed(*args([good, "no record"])) is None
    assert KERNEL.placed(*args([good, odd_dice])) is None
    assert made == []
    [(record, key)] = KERNEL.placed(*args([good]))
    # the Python loop's key: GAME_NONE before the opening roll, the dice higher first
    assert record is good and key == (1, None, 0, False, 0, 0, False, 0, (3, 1), 5, (0, 0), False)
    with pytest.raises(TypeError):
        KERNEL.placed([good])
