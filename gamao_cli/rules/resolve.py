"""Resolving a written play: which dice each movement of a record takes."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .plays import _legal_plays_cached, die_playable, max_dice_playable
from .position import Position, Step, _new_object, _position
from .variants import start_position  # noqa: F401  (the examples use it)



#: The stable problem codes of :class:`Resolution`.
PROBLEMS = (
    "distance",
    "too-many",
    "blocked",
    "bar",
    "bearoff-outside",
    "bearoff-higher",
    "no-checker",
    "backwards",
)


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome of :func:`resolve_play`.

    When ``ok``: ``steps`` are the die steps ``(src, dst, hit)`` in play
    order, ``position`` the result (mover's side) and ``dice_used`` the number
    of dice. Otherwise ``problem`` is one of :data:`PROBLEMS`, ``index`` the
    0-based movement at fault and ``message`` a sentence for the player.
    """

    ok: bool
    steps: tuple[Step, ...] = ()
    position: Position | None = None
    dice_used: int = 0
    problem: str | None = None
    index: int | None = None
    message: str = ""


_set_ok, _set_steps, _set_position, _set_dice_used, _set_problem, _set_index, _set_message = (
    getattr(Resolution, f).__set__ for f in Resolution.__slots__
)


def _resolved(steps: tuple[Step, ...], position: Position) -> Resolution:
    """``Resolution(True, steps, position, len(steps))``, built without the
    frozen dataclass's slow ``__init__`` (this is the validator's hot path)."""
    r = _new_object(Resolution)
    _set_ok(r, True)
    _set_steps(r, steps)
    _set_position(r, position)
    _set_dice_used(r, len(steps))
    _set_problem(r, None)
    _set_index(r, None)
    _set_message(r, "")
    return r


def _point_text(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)


def _movement_text(src: int, dst: int) -> str:
    return f"{_point_text(src)}/{_point_text(dst)}"


def _die_options(src: int, dst: int, d1: int, d2: int) -> list[tuple[int, ...]]:
    """The ordered die sequences that carry one checker from src to dst with
    every intermediate stop on a point (only the last die may overshoot when
    bearing off). Single dice first; exact bear-offs before larger dice."""
    if d1 == d2:
        d = d1
        if dst:
            dist = src - dst
            k = dist // d
            return [(d,) * k] if dist % d == 0 and 1 <= k <= 4 else []
        k = -(-src // d)
        return [(d,) * k] if k <= 4 else []
    if dst:
        dist = src - dst
        if dist == d1:
            return [(d1,)]
        if dist == d2:
            return [(d2,)]
        if dist == d1 + d2:
            return [(d1, d2), (d2, d1)]
        return []
    options = [(d,) for d in sorted((d1, d2)) if d >= src]
    options.sort(key=lambda s: s[0] != src)
    for a, b in ((d1, d2), (d2, d1)):
        if a < src <= a + b:
            options.append((a, b))
    return options


def _distance_message(src: int, dst: int, d1: int, d2: int) -> str:
    text = _movement_text(src, dst)
    roll = f"{d1}-{d2}"
    if not dst:
        most = 4 * d1 if d1 == d2 else d1 + d2
        return f"{text} needs at least {src} pips to bear off, but the roll {roll} gives only {most}"
    dist = src - dst
    if d1 == d2:
        if dist % d1:
            return f"{text} moves {dist} pips, which is not a multiple of {d1} (the roll is {roll})"
        return f"{text} moves {dist} pips, but the roll {roll} moves a checker at most {4 * d1}"
    if dist <= 6:
        return f"{text} moves {dist} pips, but no die shows {dist}"
    lo, hi = sorted((d1, d2))
    return f"{text} moves {dist} pips, but the roll {roll} makes only {lo}, {hi} or {lo + hi}"


def _fail(problem: str, index: int, message: str) -> Resolution:
    return Resolution(False, problem=problem, index=index, message=message)


def _written_order_dice(moves, d1: int, d2: int):
    """The dice each movement takes when the movements are read in written
    order, each with its first fitting dice: ``(seqs, dice left unused)``, or
    ``None`` when a movement fits no dice left (or is no movement at all)."""
    double = d1 == d2
    left = 4
    dice = [d1, d2]
    seqs = []
    for src, dst in moves:
        if not 0 < src <= 25 or not 0 <= dst < src:
            return None
        if double:
            if dst:
                k, r = divmod(src - dst, d1)
                if r:
                    return None
            else:
                k = -(-src // d1)
            if k > left:
                return None
            left -= k
            seq = (d1,) * k
        elif dst:
            dist = src - dst
            if dist in dice:
                dice.remove(dist)
                seq = (dist,)
            elif dist == d1 + d2 and len(dice) == 2:
                dice.clear()
                seq = (d1, d2)
            else:
                return None
        else:
            if src in dice:
                seq = (src,)
            else:
                bigger = [d for d in dice if d > src]
                if not bigger:
                    return None
                seq = (min(bigger),)
            dice.remove(seq[0])
        seqs.append(seq)
    return seqs, (left if double else len(dice))


def _resolve_in_written_order(pos, moves, d1, d2) -> Resolution | None:
    """Fast path of :func:`resolve_play`: the movements in written order, each
    with its first fitting dice; ``None`` when anything fails (the full search
    then decides and explains)."""
    me = list(pos.me)
    opp = pos.opp
    copied = False
    steps = []
    seqs = _written_order_dice(moves, d1, d2)
    if seqs is None:
        return None
    for (src, _dst), seq in zip(moves, seqs[0]):
        if not me[src]:
            return None
        cur = src
        for d in seq:
            if me[25] and cur != 25:
                return None
            t = cur - d
            if t > 0:
                o = opp[25 - t]
                if o >= 2:
                    return None
                me[cur] -= 1
                me[t] += 1
                if o:
                    if not copied:
                        opp = list(opp)
                        copied = True
                    opp[25 - t] = 0
                    opp[25] += 1
                steps.append((cur, t, o == 1))
                cur = t
            else:
                if any(me[7:]) or (t < 0 and any(me[cur + 1 : 7])):
                    return None
                me[cur] -= 1
                me[0] += 1
                steps.append((cur, 0, False))
                cur = 0
    return _resolved(tuple(steps), _position(tuple(me), tuple(opp) if copied else opp))


# The dice of the written-order reading depend only on the movements and the
# roll, not on the position: the replay of an archive meets the same few
# thousand (movements, roll) pairs over and over, so their die steps are
# worked out once. Emptied when full.
_PLANS: dict = {}
_PLANS_MAX = 32768  # about 600 bytes an entry (the bulk corpus: 19,909 distinct pairs)


def _written_order_plan(moves, d1, d2):
    """The die steps :func:`_resolve_in_written_order` would take for
    ``moves`` with ``d1``-``d2``, in order, as ``(cur, t, 25 - t)``: from
    ``cur`` to ``t``, ``t <= 0`` for a bear-off (``t < 0``: with a larger
    die). ``None`` when its dice do not fit or leave a die unused (the full
    :func:`resolve_play` then decides)."""
    plan = []
    found = _written_order_dice(moves, d1, d2)
    if found is None or found[1]:
        return None   # the dice do not fit, or a die is left unused
    for (src, _dst), seq in zip(moves, found[0]):
        cur = src
        for d in seq:
            t = cur - d
            plan.append((cur, t, 25 - t))
            cur = t if t > 0 else 0
    return tuple(plan)


def play_in_written_order(pos: Position, moves, d1: int, d2: int):
    """The validator's fast path for a play that is plainly legal: when the
    reading of :func:`resolve_play`'s fast path (the movements in written
    order, each with its first fitting dice) plays the whole roll, returns
    ``(position, points hit)``, ``position`` being the result as the
    opponent, next on roll, sees it (the :attr:`Resolution.position` of
    :func:`resolve_play`, swapped), which is then what :func:`resolve_play`
    returns, provided the hits agree with the record's hit marks, and that
    play is legal (it uses every die). Else ``None``: the full path decides,
    and explains.

    >>> after, hits = play_in_written_order(start_position(), ((8, 5), (6, 5)), 3, 1)
    >>> after.opp[5], hits
    (2, ())
    >>> play_in_written_order(start_position(), ((8, 2),), 3, 3) is None  # 6 pips, not 9
    True
    """
    # Keyed by the identity of ``moves`` (with the roll): a reader hands the
    # same tuple to every play written alike, and hashing an int is cheaper
    # than hashing the movements. The entry keeps ``moves`` alive, so its
    # identity cannot be taken by another tuple while it is there.
    key = id(moves) << 6 ^ d1 << 3 ^ d2
    entry = _PLANS.get(key)
    if entry is None or entry[0] is not moves or entry[1] != d1 or entry[2] != d2:
        entry = (moves, d1, d2, _written_order_plan(moves, d1, d2))
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        _PLANS[key] = entry
    plan = entry[3]
    if plan is None:
        return None
    me = list(pos.me)
    opp = pos.opp
    hits = ()
    bar = me[25]
    for cur, t, back in plan:
        if not me[cur] or (bar and cur != 25 and me[25]):
            return None
        if t > 0:
            o = opp[back]
            if o:
                if o >= 2:
                    return None
                if not hits:
                    opp = list(opp)
                    hits = []
                opp[back] = 0
                opp[25] += 1
                hits.append(t)
            me[t] += 1
        else:
            if any(me[7:]) or (t < 0 and any(me[cur + 1 : 7])):
                return None
            me[0] += 1
        me[cur] -= 1
    return _position(tuple(opp) if hits else opp, tuple(me)), hits


def resolve_play(
    pos: Position, moves: Sequence[tuple[int, int]], d1: int, d2: int,
    marked: frozenset[int] | None = None,
) -> Resolution:
    """Find dice for the checker movements of a recorded play.

    ``moves`` are ``(src, dst)`` movements as the record writes them (repeats
    expanded, chains split; 25 = bar, 0 = off); a movement may cover several
    dice. The movements may be played in any order, and the dice of a
    multi-die movement in either order, as long as every die step is legal
    from ``pos``. The result tells which dice were used; it does not apply
    rule "Moving" 4 (use the most dice, or the higher die): see
    :func:`play_is_legal`, which also covers that. When several readings
    exist, one that obeys rule 4 is preferred, then (given ``marked``, the
    points the record marks with ``*``) one whose hits agree with the marks.

    >>> pos = start_position()
    >>> r = resolve_play(pos, [(24, 13)], 6, 5)
    >>> r.ok, r.steps
    (True, ((24, 18, False), (18, 13, False)))
    >>> r = resolve_play(pos, [(8, 6), (24, 23)], 6, 1)
    >>> r.ok, r.problem, r.index, r.message
    (False, 'distance', 0, '8/6 moves 2 pips, but no die shows 2')
    """
    mv = moves if isinstance(moves, (list, tuple)) else list(moves)
    fast = _resolve_in_written_order(pos, mv, d1, d2)
    if fast is not None and (fast.dice_used == (4 if d1 == d2 else 2)
                             or play_is_legal(pos, d1, d2, fast)) \
            and not _hit_disagreement(fast.steps, marked):
        return fast
    mv = [(src, dst) for src, dst in mv]
    n = len(mv)
    if not n:
        return Resolution(True, (), pos, 0)
    for i, (src, dst) in enumerate(mv):
        if not 1 <= src <= 25 or not 0 <= dst <= 25:
            raise ValueError(f"movement {src}/{dst} is outside the board")
        if dst and dst >= src:
            return _fail(
                "backwards", i,
                f"{_movement_text(src, dst)} moves backwards: checkers move from higher to lower points",
            )
    double = d1 == d2
    ndice = 4 if double else 2
    opts = [_die_options(src, dst, d1, d2) for src, dst in mv]
    for i, o in enumerate(opts):
        if not o:
            return _fail("distance", i, _distance_message(*mv[i], d1, d2))
    need = 0
    for i, o in enumerate(opts):
        need += min(len(s) for s in o)
        if need > ndice:
            return _fail(
                "too-many", i,
                f"the roll {d1}-{d2} gives {ndice} moves, but this play needs at least {need}",
            )
    if not double and n == 2:
        if not any(len(a) == 1 == len(b) and a != b for a in opts[0] for b in opts[1]):
            d = opts[1][0][0]
            return _fail(
                "distance", 1,
                f"{_movement_text(*mv[1])} needs the {d}, but {_movement_text(*mv[0])} "
                f"already uses the only {d} of the roll {d1}-{d2}",
            )

    opp0 = pos.opp
    # The failure to report: the one found in the order of movements that got
    # the most movements through (board problems before dice arithmetic);
    # on a tie the first found, i.e. written order and the most natural dice.
    failure: list = [(-1, 0), "distance", 0, ""]

    def note(progress, problem, index, message):
        if progress > failure[0]:
            failure[:] = [progress, problem, index, message]

    # The search works die step by die step, so that the steps of different
    # movements may interleave: with two checkers on the bar and 2-2,
    # "bar/21(2)" is bar/23 bar/23 23/21 23/21 (both must enter first);
    # "10/off(2)" with 5-5 is 10/5 10/5 5/off 5/off.
    # state[i]: None (not started), or (option, steps done, current point).
    seen_states: set = set()

    def step_once(m, o, s, i, seq, j, cur):
        """Apply die j of option seq to movement i; returns the new point or
        (problem, message)."""
        src, dst = mv[i]
        d = seq[j]
        last = len(seq) - 1
        # on every step, not only a movement's first: when the steps of two
        # movements interleave, the other one may have moved on the checker
        # this one brought to ``cur`` (bar/7 13/7 with 6-6 and nothing on 13)
        if not m[cur]:
            return ("no-checker", "there is no checker on the bar" if cur == 25
                    else f"there is no checker on point {cur}")
        if m[25] and cur != 25:
            return ("bar", "a checker is on the bar and must enter first")
        t = cur - d
        if t > 0:
            if o[25 - t] >= 2:
                message = f"point {t} is blocked (the opponent holds it)"
                if j < last:
                    message += f", so {_movement_text(src, dst)} cannot stop there"
                return ("blocked", message)
            hit = o[25 - t] == 1
            if hit:
                o[25 - t] = 0
                o[25] += 1
            m[cur] -= 1
            m[t] += 1
            s.append((cur, t, hit))
            return t
        if any(m[7:]):
            return ("bearoff-outside",
                    f"cannot bear off from {src}: checkers are still outside the home board")
        if t < 0 and any(m[cur + 1 : 7]):
            h = max(p for p in range(cur + 1, 7) if m[p])
            return ("bearoff-higher", f"cannot bear off from {cur} with a {d}: a checker "
                    f"stands on the higher point {h} (it must move instead)")
        m[cur] -= 1
        m[0] += 1
        s.append((cur, 0, False))
        return 0

    def rec(me, opp, state, dice, steps, done):
        """Yield every complete resolution (steps, me, opp)."""
        if done == n:
            yield steps, me, opp
            return
        key = (tuple(me), tuple(opp), state)
        if key in seen_states:
            return
        seen_states.add(key)
        tried = set()
        for i in range(n):
            st = state[i]
            if st is not None:
                seq, j, cur = st
                if j == len(seq):
                    continue
                choices = [(seq, j, cur, dice)]
            else:
                if mv[i] in tried:
                    continue
                tried.add(mv[i])
                src, dst = mv[i]
                choices = []
                for seq in opts[i]:
                    if double:
                        if len(seq) > dice:
                            note((done, 0), "too-many", i,
                                 f"the roll {d1}-{d2} gives 4 moves, but this play needs more")
                            continue
                        rest = dice - len(seq)
                    else:
                        rest = list(dice)
                        try:
                            for d in seq:
                                rest.remove(d)
                        except ValueError:
                            note((done, 0), "distance", i,
                                 f"{_movement_text(src, dst)} needs a die that is already used")
                            continue
                        rest = tuple(rest)
                    choices.append((seq, 0, src, rest))
            for seq, j, cur, rest in choices:
                m, o, s = list(me), list(opp), list(steps)
                got = step_once(m, o, s, i, seq, j, cur)
                if isinstance(got, tuple):
                    note((done, 1), got[0], i, got[1])
                    continue
                new_state = list(state)
                new_state[i] = (seq, j + 1, got)
                finished = done + (j + 1 == len(seq))
                yield from rec(m, o, tuple(new_state), rest, s, finished)

    # The first resolution found is the most natural reading; but when it
    # breaks rule "Moving" 4 and another reading of the same notation obeys it
    # (2/off with 2-1 and a blot on 1 is 2/1*/off, which uses both dice), the
    # legal reading is the one the record means.
    # Likewise, when the record marks hits, a reading whose hits agree with
    # the marks is preferred (6/1 with 4-1 is 6/5/1, not 6/2*/1).
    best = None
    best_key = None
    for steps, me, opp in rec(list(pos.me), list(opp0), (None,) * n,
                              4 if double else (d1, d2), [], 0):
        res = Resolution(True, tuple(steps), Position(tuple(me), tuple(opp)), len(steps))
        legal = res.dice_used == ndice or play_is_legal(pos, d1, d2, res)
        key = (not legal, _hit_disagreement(res.steps, marked))
        if best is None or key < best_key:
            best, best_key = res, key
            if key == (False, 0):
                break
    if best is not None:
        return best
    _, problem, index, message = failure
    return _fail(problem, index, message)


def _hit_disagreement(steps, marked: frozenset[int] | None) -> int:
    """How many points the hits of ``steps`` and the hit marks disagree on."""
    if marked is None:
        return 0
    return len({dst for _src, dst, hit in steps if hit} ^ marked)


def play_is_legal(pos: Position, d1: int, d2: int, resolution: Resolution) -> bool:
    """Whether a resolved play obeys rule "Moving" 4 as well: a play that
    uses every die is legal; one that uses fewer is legal when its result is
    one of :func:`legal_plays` (which also settles the higher-die rule).

    >>> pos = Position.from_points({6: 1}, {1: 1})
    >>> play_is_legal(pos, 6, 5, resolve_play(pos, [(6, 0)], 6, 5))  # as 6/1/off
    True
    >>> pos = Position.from_points({6: 1, 5: 1}, {1: 1})
    >>> play_is_legal(pos, 4, 3, resolve_play(pos, [(6, 3)], 4, 3))
    False
    """
    if not resolution.ok:
        return False
    used = resolution.dice_used
    if used == (4 if d1 == d2 else 2):
        return True
    global _LAST_VERDICT
    last = _LAST_VERDICT
    if last[0] is resolution and last[1] is pos and last[2] == d1 and last[3] == d2:
        return last[4]  # the validator asks again about what resolve_play asked
    hi, lo = (d1, d2) if d1 >= d2 else (d2, d1)
    verdict = None
    # A play of as many dice as can be played is one of the legal plays
    # (all plays of the most dice are), but for a single die, which must be
    # the higher one when that can be played: that needs no list of plays.
    if used == max_dice_playable(pos, hi, lo):
        if used != 1 or hi == lo:
            verdict = True
        else:
            [(src, dst, _hit)] = resolution.steps
            if dst and (src - dst == hi or not die_playable(pos, hi)):
                verdict = True
    if verdict is None:  # only as the result of another reading, if at all
        verdict = resolution.position in _legal_plays_cached(pos, hi, lo)[1]
    _LAST_VERDICT = (resolution, pos, d1, d2, verdict)
    return verdict


_LAST_VERDICT: tuple = (None, None, 0, 0, False)
