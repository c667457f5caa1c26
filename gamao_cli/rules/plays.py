"""Legal plays (rule "Moving" 4): every complete play of a roll, the most
dice a roll can use, whether one die can be played."""
from __future__ import annotations

from bisect import insort
from functools import lru_cache

from .position import Position, Step, _position
from .variants import start_position  # noqa: F401  (the examples use it)




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
    >>> closed = Position.from_points({25: 1, 6: 14}, {k: 2 for k in range(1, 7)} | {13: 3})
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


def die_playable(pos: Position, die: int) -> bool:
    """Whether one checker can be moved by ``die`` now: a roll can be played
    at all (``max_dice_playable(pos, d1, d2) > 0``) when either die can.

    >>> closed = Position.from_points({25: 1, 6: 14}, {k: 2 for k in range(1, 7)} | {13: 3})
    >>> die_playable(closed, 6), die_playable(start_position(), 6)
    (False, True)
    """
    return _max_dice(list(pos.me), list(pos.opp), (die,), 0, 25, sum(pos.me[7:])) == 1
