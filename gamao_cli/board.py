"""The rules engine: positions, legal plays, and checking a recorded play.

This module knows nothing of file formats: it works on plain integers. A
checker movement is a pair ``(src, dst)`` of points in the mover's numbering,
with 25 for the bar and 0 for borne off; a die step is a triple
``(src, dst, hit)``.

The rules are those of ``RULES.md`` (see "Moving", "Hitting and entering" and
"Bearing off"). The numbering follows the rule book: a player's point ``p`` is
the opponent's point ``25 - p``.

>>> pos = start_position()
>>> pos.pip_count()
(167, 167)
>>> len(legal_plays(pos, 3, 1)), legal_plays(pos, 3, 1)[resolve_play(pos, [(8, 5), (6, 5)], 3, 1).position]
(16, ((8, 5, False), (6, 5, False)))
>>> r = resolve_play(pos, [(8, 5), (6, 5)], 3, 1)
>>> r.ok, r.dice_used, r.position.me[5]
(True, 2, 2)
"""
from __future__ import annotations

import re
from bisect import insort
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

from gamao_cli.errors import UnknownVariant

__all__ = [
    "BAR",
    "OFF",
    "PROBLEMS",
    "Position",
    "Resolution",
    "VARIANTS",
    "apply_step",
    "apply_steps_as_written",
    "checkers",
    "die_playable",
    "game_over",
    "legal_plays",
    "max_dice_playable",
    "play_in_written_order",
    "play_is_legal",
    "resolve_play",
    "result_multiplier",
    "start_position",
    "step_destination",
    "variant_key",
]

BAR = 25
OFF = 0

Step = tuple[int, int, bool]


# --------------------------------------------------------------------------
# Position


@dataclass(frozen=True, slots=True)
class Position:
    """A position as seen by the player on roll.

    ``me`` and ``opp`` hold 26 checker counts each, every side in its own
    numbering: index 0 = borne off, 1..24 = points, 25 = bar. My point ``p``
    is the opponent's point ``25 - p``. Equality and hashing compare both
    tuples, which is how plays are compared.

    >>> pos = start_position("hypergammon1")
    >>> pos.me[24], pos.opp[24], pos.swapped() == pos
    (1, 1, True)
    """

    me: tuple[int, ...]
    opp: tuple[int, ...]

    def swapped(self) -> Position:
        """The same position seen by the other player (who is then on roll)."""
        return _position(self.opp, self.me)

    def pip_count(self) -> tuple[int, int]:
        """``(mine, opponent's)`` pip counts; a checker on the bar counts 25.

        >>> start_position().pip_count()
        (167, 167)
        """
        me, opp = self.me, self.opp
        return (
            sum(i * me[i] for i in range(1, 26)),
            sum(i * opp[i] for i in range(1, 26)),
        )


def _layout(points: Mapping[int, int]) -> tuple[int, ...]:
    counts = [0] * 26
    for point, n in points.items():
        counts[point] = n
    return tuple(counts)


def _symmetric(points: Mapping[int, int]) -> Position:
    side = _layout(points)
    return Position(side, side)


#: Start position of every known variant, by variant key (both sides alike).
VARIANTS: dict[str, Position] = {
    "backgammon": _symmetric({24: 2, 13: 5, 8: 3, 6: 5}),
    "nackgammon": _symmetric({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}),
    "hypergammon1": _symmetric({24: 1}),
    "hypergammon2": _symmetric({24: 1, 23: 1}),
    "hypergammon3": _symmetric({24: 1, 23: 1, 22: 1}),
    "longgammon": _symmetric({24: 15}),
}

_ALIASES = {
    "standard": "backgammon",
    "standardbackgammon": "backgammon",
    "hypergammon": "hypergammon3",
}


def start_position(variant: str = "backgammon") -> Position:
    """The start position of ``variant`` (a key of :data:`VARIANTS`, or any
    name :func:`variant_key` understands).

    >>> start_position().me[13], start_position("nackgammon").me[23]
    (5, 2)
    """
    pos = VARIANTS.get(variant)
    if pos is None:
        pos = VARIANTS[variant_key(variant)]
    return pos


def variant_key(name: str) -> str:
    """Normalise a variant name from a record to a key of :data:`VARIANTS`.

    Case, spaces, dashes and underscores do not matter; plain "HyperGammon" is
    the 3-checker game.

    >>> [variant_key(n) for n in ("Backgammon", "HyperGammon", "Hypergammon 2", "HyperGammon (1)", "LongGammon")]
    ['backgammon', 'hypergammon3', 'hypergammon2', 'hypergammon1', 'longgammon']
    >>> variant_key("Acey-deucey")
    Traceback (most recent call last):
    ...
    gamao_cli.errors.UnknownVariant: unknown variant 'Acey-deucey' (known: backgammon, nackgammon, hypergammon1, hypergammon2, hypergammon3, longgammon)
    """
    # "HyperGammon (2)" is how GNU Backgammon's match files name it
    key = re.sub(r"[\s_\-()]+", "", str(name)).lower()
    key = _ALIASES.get(key, key)
    m = re.fullmatch(r"([123])(?:checkers?|chequers?)hypergammon", key)
    if m:
        key = "hypergammon" + m.group(1)
    if key not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise UnknownVariant(f"unknown variant {name!r} (known: {known})")
    return key


def checkers(pos: Position) -> int:
    """Total number of checkers of one side (15, or 1-3 in hypergammon),
    counted from the position (the mover's side, borne-off ones included).

    >>> checkers(start_position()), checkers(start_position("hypergammon2"))
    (15, 2)
    """
    return sum(pos.me)


# --------------------------------------------------------------------------
# Single steps


def step_destination(pos: Position, src: int, die: int) -> int | None:
    """Where one checker moved from ``src`` (25 = bar) by ``die`` lands, if
    that single step is legal now; 0 means borne off, ``None`` illegal.

    >>> pos = start_position()
    >>> step_destination(pos, 13, 5), step_destination(pos, 13, 2)
    (8, 11)
    >>> step_destination(pos, 13, 1) is None  # the opponent holds my 12 (their 13)
    True
    >>> step_destination(pos, 6, 6) is None  # no bearing off from outside home
    True
    """
    me = pos.me
    if not 1 <= src <= 25 or not me[src]:
        return None
    if me[25] and src != 25:
        return None
    t = src - die
    if t > 0:
        return t if pos.opp[25 - t] < 2 else None
    if any(me[7:]):
        return None
    if t < 0 and any(me[src + 1 : 7]):
        return None
    return 0


def apply_step(pos: Position, src: int, dst: int) -> tuple[Position, bool]:
    """Move one checker from ``src`` to ``dst`` and return ``(position, hit)``.

    A lone opposing checker on ``dst`` is hit (it goes to the opponent's
    bar). Nothing else is checked, so recorded illegal plays can be replayed
    as written: landing on a point the opponent holds just stacks there.
    Raises ``ValueError`` when the mover has no checker on ``src``.

    >>> pos, hit = apply_step(start_position(), 24, 18)
    >>> pos.me[24], pos.me[18], hit
    (1, 1, False)
    >>> apply_step(pos, 20, 14)
    Traceback (most recent call last):
    ...
    ValueError: no checker on point 20 to move
    """
    if not 1 <= src <= 25 or not 0 <= dst <= 24:
        raise ValueError(f"cannot move a checker from {src} to {dst}")
    me = list(pos.me)
    if not me[src]:
        where = "the bar" if src == 25 else f"point {src}"
        raise ValueError(f"no checker on {where} to move")
    me[src] -= 1
    me[dst] += 1
    opp = pos.opp
    hit = False
    if dst and opp[25 - dst] == 1:
        o = list(opp)
        o[25 - dst] = 0
        o[25] += 1
        opp = tuple(o)
        hit = True
    return Position(tuple(me), opp), hit


def apply_steps_as_written(
    pos: Position, moves: Iterable[tuple[int, int]]
) -> tuple[Position, list[bool]]:
    """Apply checker movements exactly as a record writes them, for replaying
    an illegal play: each ``(src, dst)`` moves one checker in one jump (a hit
    happens only at ``dst``). Returns the position and one hit flag per
    movement; raises ``ValueError`` on a movement from an empty point.

    >>> pos, hits = apply_steps_as_written(start_position(), [(13, 2), (6, 2)])
    >>> pos.me[2], hits
    (2, [False, False])
    """
    hits = []
    for src, dst in moves:
        pos, hit = apply_step(pos, src, dst)
        hits.append(hit)
    return pos, hits


# --------------------------------------------------------------------------
# Legal plays


def _legal_steps(me, opp, d, pts, top, outside):
    """The legal single steps ``(src, dst, hit)`` of die ``d`` now, with
    sources <= ``top``.

    ``pts`` lists the points 1..24 the mover occupies, ascending; ``outside``
    counts the mover's checkers on points 7..25.
    """
    if me[25]:
        if top < 25 or opp[d] >= 2:  # entering on my 25 - d, the opponent's d
            return ()
        return ((25, 25 - d, opp[d] == 1),)
    res = []
    e = 25 + d  # the destination of src is the opponent's point e - src
    for src in pts:
        if src > d:
            if src > top:
                break
            o = opp[e - src]
            if o < 2:
                res.append((src, src - d, o == 1))
    if not outside and pts:
        if me[d]:
            if d <= top:
                res.append((d, 0, False))
        else:
            # a die larger than the highest occupied point bears off from there
            h = pts[-1]
            if h < d and h <= top:
                res.append((h, 0, False))
    return res


def _points_after(pts, me, src, t):
    """``pts`` updated after one checker moved from src to t (``me`` already
    updated); the list is copied only when it changes."""
    if src < 25 and not me[src]:
        pts = pts.copy()
        pts.remove(src)
        if t and me[t] == 1:
            insort(pts, t)
    elif t and me[t] == 1:
        pts = pts.copy()
        insort(pts, t)
    return pts


def _doubles(me, opp, d, left, top, pts, outside, steps, out, best, nhits):
    """Plays of a double, steps in non-increasing source order (every legal
    set of steps of one die value can be played in that order), collected in
    ``out`` for the most dice seen, ``best[0]``.

    Keys of ``out`` are the mover's tuple, or ``(me, opp)`` when the play hit
    (a hit is the only way a play changes the opponent's side).
    """
    moves = _legal_steps(me, opp, d, pts, top, outside)
    if not moves:
        used = 4 - left
        if used < best[0]:
            return
        if used > best[0]:
            out.clear()
            best[0] = used
        key = (tuple(me), tuple(opp)) if nhits else tuple(me)
        if key not in out:
            out[key] = tuple(steps)
        return
    left -= 1
    if not left:
        if best[0] < 4:
            out.clear()
            best[0] = 4
        for step in moves:
            src, t, hit = step
            me[src] -= 1
            me[t] += 1
            if hit:
                opp[25 - t] = 0
                opp[25] += 1
                key = (tuple(me), tuple(opp))
                opp[25] -= 1
                opp[25 - t] = 1
            else:
                key = (tuple(me), tuple(opp)) if nhits else tuple(me)
            me[t] -= 1
            me[src] += 1
            if key not in out:
                out[key] = (*steps, step)
        return
    for step in moves:
        src, t, hit = step
        me[src] -= 1
        me[t] += 1
        nout = outside - 1 if src > 6 >= t else outside
        npts = _points_after(pts, me, src, t)
        steps.append(step)
        if hit:
            opp[25 - t] = 0
            opp[25] += 1
            _doubles(me, opp, d, left, src, npts, nout, steps, out, best, nhits + 1)
            opp[25] -= 1
            opp[25 - t] = 1
        else:
            _doubles(me, opp, d, left, src, npts, nout, steps, out, best, nhits)
        steps.pop()
        me[t] -= 1
        me[src] += 1


def _two_dice(me, opp, a, b, pts, outside, out, followups_only=False) -> int:
    """Plays of die ``a`` then die ``b`` into ``out``: the two-dice ones if
    any, else the one-die ones (of ``a``). Returns the dice used (0-2).

    ``followups_only`` (for the second die order, when the first found
    two-dice plays and no checker is on the bar) skips the second steps that
    cannot give anything new: a step of another checker, neither bearing off
    nor moving the checker just moved, could have been played first. It then
    adds to ``out`` (which holds two-dice plays) without clearing it.
    """
    best = 2 if followups_only else 0
    for first in _legal_steps(me, opp, a, pts, 25, outside):
        src, t, hit = first
        me[src] -= 1
        me[t] += 1
        if hit:
            opp[25 - t] = 0
            opp[25] += 1
        nout = outside - 1 if src > 6 >= t else outside
        if followups_only and nout and t:
            # no bearing off: only the moved checker going on can be new
            t2 = t - b
            if t2 > 0 and opp[25 - t2] < 2:
                seconds = ((t, t2, opp[25 - t2] == 1),)
            else:
                seconds = ()
        else:
            seconds = _legal_steps(me, opp, b, _points_after(pts, me, src, t), 25, nout)
        if seconds:
            if best < 2:
                out.clear()
                best = 2
            for second in seconds:
                s2, t2, h2 = second
                if followups_only and s2 != t and t2:
                    continue
                me[s2] -= 1
                me[t2] += 1
                if h2:
                    opp[25 - t2] = 0
                    opp[25] += 1
                    key = (tuple(me), tuple(opp))
                    opp[25] -= 1
                    opp[25 - t2] = 1
                else:
                    key = (tuple(me), tuple(opp)) if hit else tuple(me)
                me[t2] -= 1
                me[s2] += 1
                if key not in out:
                    out[key] = (first, second)
        elif best < 2:
            best = 1
            out[(tuple(me), tuple(opp)) if hit else tuple(me)] = (first,)
        if hit:
            opp[25] -= 1
            opp[25 - t] = 1
        me[t] -= 1
        me[src] += 1
    return best


def _search_plays(pos: Position, hi: int, lo: int) -> tuple[int, dict]:
    """(dice used, {key: steps}) for the roll hi-lo, hi >= lo; a key is
    the mover's tuple, or ``(me, opp)`` when the play hit."""
    me0 = pos.me
    me, opp = list(me0), list(pos.opp)
    outside = sum(me0[7:])
    pts = [p for p in range(1, 25) if me0[p]]
    out: dict = {}
    if hi == lo:
        best = [0]
        _doubles(me, opp, hi, 4, 25, pts, outside, [], out, best, 0)
        if not best[0]:
            return 0, {me0: ()}
        return best[0], out
    n_hi = _two_dice(me, opp, hi, lo, pts, outside, out)
    if n_hi == 2:
        # every two-dice play is in `out` or starts with the low die; with no
        # checker on the bar only follow-ups of the low die can be new
        if me0[25]:
            extra: dict = {}
            if _two_dice(me, opp, lo, hi, pts, outside, extra) == 2:
                for key, seq in extra.items():
                    if key not in out:
                        out[key] = seq
        else:
            _two_dice(me, opp, lo, hi, pts, outside, out, True)
        return 2, out
    out_lo: dict = {}
    n_lo = _two_dice(me, opp, lo, hi, pts, outside, out_lo)
    if n_lo == 2:
        return 2, out_lo
    if n_hi == 1:  # only one die can be used, and the higher one can
        return 1, out
    if n_lo == 1:
        return 1, out_lo
    return 0, {me0: ()}


_new_object = object.__new__
_set_me = Position.me.__set__  # slot descriptors: a fast constructor for
_set_opp = Position.opp.__set__  # the frozen dataclass, with no checks


def _position(me: tuple[int, ...], opp: tuple[int, ...]) -> Position:
    p = _new_object(Position)
    _set_me(p, me)
    _set_opp(p, opp)
    return p


# (few entries: a position is asked about again only right away, when a play
# is checked and then explained; an entry can hold hundreds of positions)
@lru_cache(maxsize=128)
def _legal_plays_cached(pos: Position, hi: int, lo: int) -> tuple[int, dict]:
    n, found = _search_plays(pos, hi, lo)
    opp0 = pos.opp
    return n, {
        (_position(key[0], key[1]) if len(key) == 2 else _position(key, opp0)): seq
        for key, seq in found.items()
    }


def legal_plays(pos: Position, d1: int, d2: int) -> dict[Position, tuple[Step, ...]]:
    """Every legal complete play of the roll ``d1``-``d2`` (rule "Moving" 4):
    keyed by the resulting position (still from the mover's side), valued by
    one sequence of die steps ``(src, dst, hit)`` that reaches it. A roll that
    cannot be played gives ``{pos: ()}``.

    >>> plays = legal_plays(start_position(), 6, 6)
    >>> len(plays), max(plays.values())
    (11, ((24, 18, False), (24, 18, False), (13, 7, False), (13, 7, False)))
    >>> closed = Position(_layout({25: 1, 6: 14}), _layout({k: 2 for k in range(1, 7)} | {13: 3}))
    >>> legal_plays(closed, 6, 5) == {closed: ()}
    True
    """
    if d1 < d2:
        d1, d2 = d2, d1
    return dict(_legal_plays_cached(pos, d1, d2)[1])


def _max_dice(me, opp, dice, i, top, outside) -> int:
    """The most dice playable from here (stops as soon as all can be)."""
    n = len(dice)
    if i == n:
        return n
    d = dice[i]
    double = dice[0] == dice[-1]
    best = i
    if me[25]:
        srcs = (25,) if top == 25 else ()
    else:
        srcs = range(top if top < 25 else 24, 0, -1)
    for src in srcs:
        if not me[src]:
            continue
        t = src - d
        if t > 0:
            o = opp[25 - t]
            if o >= 2:
                continue
            me[src] -= 1
            me[t] += 1
            r = _max_dice(me, opp, dice, i + 1, src if double else 25,
                          outside - 1 if src > 6 >= t else outside)
            me[t] -= 1
            me[src] += 1
        else:
            if outside:
                break
            if t < 0 and any(me[src + 1 : 7]):
                continue
            me[src] -= 1
            me[0] += 1
            r = _max_dice(me, opp, dice, i + 1, src if double else 25, outside)
            me[0] -= 1
            me[src] += 1
        if r > best:
            if r == n:
                return n
            best = r
    return best


def max_dice_playable(pos: Position, d1: int, d2: int) -> int:
    """How many dice a legal play of ``d1``-``d2`` uses (0 to 2, or 0 to 4
    for a double).

    >>> max_dice_playable(start_position(), 6, 5), max_dice_playable(start_position(), 4, 4)
    (2, 4)
    """
    if d1 < d2:
        d1, d2 = d2, d1
    me, opp = list(pos.me), list(pos.opp)
    outside = sum(pos.me[7:])
    if d1 == d2:
        return _max_dice(me, opp, (d1,) * 4, 0, 25, outside)
    a = _max_dice(me, opp, (d1, d2), 0, 25, outside)
    if a == 2:
        return 2
    return max(a, _max_dice(me, opp, (d2, d1), 0, 25, outside))


# --------------------------------------------------------------------------
# Resolving a recorded play


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
    full = (1 << n) - 1
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

    >>> pos = Position(_layout({6: 1}), _layout({1: 1}))
    >>> play_is_legal(pos, 6, 5, resolve_play(pos, [(6, 0)], 6, 5))  # as 6/1/off
    True
    >>> pos = Position(_layout({6: 1, 5: 1}), _layout({1: 1}))
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


def die_playable(pos: Position, die: int) -> bool:
    """Whether one checker can be moved by ``die`` now: a roll can be played
    at all (``max_dice_playable(pos, d1, d2) > 0``) when either die can.

    >>> closed = Position(_layout({25: 1, 6: 14}), _layout({k: 2 for k in range(1, 7)} | {13: 3}))
    >>> die_playable(closed, 6), die_playable(start_position(), 6)
    (False, True)
    """
    return _max_dice(list(pos.me), list(pos.opp), (die,), 0, 25, sum(pos.me[7:])) == 1


# --------------------------------------------------------------------------
# End of game


def game_over(pos_mover_after: Position) -> bool:
    """True when the mover (``me``) has borne off all their checkers.

    >>> game_over(Position(_layout({0: 15}), _layout({6: 15}))), game_over(start_position())
    (True, False)
    """
    return not any(pos_mover_after.me[1:])


def result_multiplier(winner_view: Position) -> int:
    """Points per cube value for the winner (``me``): 1 single, 2 gammon (the
    loser has borne off none), 3 backgammon (none off and a checker on the
    bar or in the winner's home board). Works for any position, so also for
    resignations.

    >>> loser = _layout({13: 14, 25: 1})
    >>> result_multiplier(Position(_layout({0: 15}), loser))
    3
    """
    opp = winner_view.opp
    if opp[0]:
        return 1
    if any(opp[19:26]):
        return 3
    return 2
