"""Legal plays (rule "Moving" 4): every complete play of a roll, the most
dice a roll can use, whether one die can be played.

Every die step the searches try is asked of the kernel,
:func:`~gamao_cli.rules.steps.die_step`, and made with
:func:`~gamao_cli.rules.steps.move_checker`; the searches only choose which
steps to ask about and in which order.
"""
from __future__ import annotations

from bisect import insort
from typing import MutableSequence, Sequence

from gamao_cli.model.notation import BoundedCache

from .position import Position, Step, _position
from .steps import POINT, StepProblem, die_step, move_checker, unmove_checker
from .variants import start_position  # noqa: F401  (the examples use it)

Move = tuple[int, int]
#: What a search collects: the mover's side after the play, or both sides
#: ``(me, opp)`` when the play hit (a hit is the only way a play changes the
#: opponent's side), with one sequence of die steps reaching it.
Found = dict[object, tuple[Step, ...]]

_OUTSIDE = StepProblem.BEAROFF_OUTSIDE


def _legal_steps(me: Sequence[int], opp: Sequence[int], d: int, pts: list[int],
                 top: int) -> Sequence[Move]:
    """The legal single steps ``(src, dst)`` of die ``d`` now, with sources
    <= ``top`` (a bear-off, of which there is at most one, last).

    ``pts`` lists the points 1..24 the mover occupies, ascending. With a
    checker on the bar the kernel refuses every other source, so only the
    bar is asked about.
    """
    if me[25]:
        if top < 25:
            return ()
        t = die_step(me, opp, 25, d)
        return ((25, t & POINT),) if t > 0 else ()
    res = []
    off = 0
    for src in pts:
        if src > top:
            break
        t = die_step(me, opp, src, d)
        if t > 0:
            res.append((src, t & POINT))
        elif not t:
            off = src
    if off:
        res.append((off, 0))
    return res


def _followups(me: Sequence[int], opp: Sequence[int], d: int, pts: list[int],
               moved: int) -> Sequence[Move]:
    """The second steps of die ``d`` that can give a play the other order of
    the dice has not: moving on the checker just moved to ``moved`` (any
    other checker's step could have been played first), or bearing off
    (which the first step may have made possible)."""
    res = []
    if moved:
        t = die_step(me, opp, moved, d)
        if t > 0:
            res.append((moved, t & POINT))
    for src in pts:
        if src > d:
            break
        t = die_step(me, opp, src, d)
        if not t:
            res.append((src, 0))
            break
        if t == _OUTSIDE:
            break
    return res


def _points_after(pts: list[int], me: Sequence[int], src: int, t: int) -> list[int]:
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


def _doubles(me: list[int], opp: list[int], d: int, left: int, top: int, pts: list[int],
             steps: list[Step], out: Found, best: list[int], nhits: int) -> None:
    """Plays of a double, steps in non-increasing source order (every legal
    set of steps of one die value can be played in that order), collected in
    ``out`` for the most dice seen, ``best[0]``."""
    moves = _legal_steps(me, opp, d, pts, top)
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
        for src, t in moves:
            hit = move_checker(me, opp, src, t)
            key = (tuple(me), tuple(opp)) if hit or nhits else tuple(me)
            unmove_checker(me, opp, src, t, hit)
            if key not in out:
                out[key] = (*steps, (src, t, hit))
        return
    for src, t in moves:
        hit = move_checker(me, opp, src, t)
        steps.append((src, t, hit))
        _doubles(me, opp, d, left, src, _points_after(pts, me, src, t), steps, out, best,
                 nhits + hit)
        steps.pop()
        unmove_checker(me, opp, src, t, hit)


def _two_dice(me: list[int], opp: list[int], a: int, b: int, pts: list[int], out: Found,
              followups_only: bool = False) -> int:
    """Plays of die ``a`` then die ``b`` into ``out``: the two-dice ones if
    any, else the one-die ones (of ``a``). Returns the dice used (0-2).

    ``followups_only`` (for the second die order, when the first found
    two-dice plays and no checker is on the bar) tries only the second
    steps that can give something new (:func:`_followups`). It then adds to
    ``out`` (which holds two-dice plays) without clearing it.
    """
    best = 2 if followups_only else 0
    for src, t in _legal_steps(me, opp, a, pts, 25):
        hit = move_checker(me, opp, src, t)
        first = (src, t, hit)
        npts = _points_after(pts, me, src, t)
        if followups_only:
            seconds = _followups(me, opp, b, npts, t)
        else:
            seconds = _legal_steps(me, opp, b, npts, 25)
        if seconds:
            if best < 2:
                out.clear()
                best = 2
            for s2, t2 in seconds:
                h2 = move_checker(me, opp, s2, t2)
                key = (tuple(me), tuple(opp)) if h2 or hit else tuple(me)
                unmove_checker(me, opp, s2, t2, h2)
                if key not in out:
                    out[key] = (first, (s2, t2, h2))
        elif best < 2:
            best = 1
            out[(tuple(me), tuple(opp)) if hit else tuple(me)] = (first,)
        unmove_checker(me, opp, src, t, hit)
    return best


def _search_plays(pos: Position, hi: int, lo: int) -> tuple[int, Found]:
    """(dice used, {key: steps}) for the roll hi-lo, hi >= lo."""
    me0 = pos.me
    me, opp = list(me0), list(pos.opp)
    pts = [p for p in range(1, 25) if me0[p]]
    out: Found = {}
    if hi == lo:
        best = [0]
        _doubles(me, opp, hi, 4, 25, pts, [], out, best, 0)
        if not best[0]:
            return 0, {me0: ()}
        return best[0], out
    n_hi = _two_dice(me, opp, hi, lo, pts, out)
    if n_hi == 2:
        # every two-dice play is in `out` or starts with the low die; with no
        # checker on the bar only follow-ups of the low die can be new
        if me0[25]:
            extra: Found = {}
            if _two_dice(me, opp, lo, hi, pts, extra) == 2:
                for key, seq in extra.items():
                    if key not in out:
                        out[key] = seq
        else:
            _two_dice(me, opp, lo, hi, pts, out, True)
        return 2, out
    out_lo: Found = {}
    n_lo = _two_dice(me, opp, lo, hi, pts, out_lo)
    if n_lo == 2:
        return 2, out_lo
    if n_hi == 1:  # only one die can be used, and the higher one can
        return 1, out
    if n_lo == 1:
        return 1, out_lo
    return 0, {me0: ()}


def find_plays(pos: Position, hi: int, lo: int) -> tuple[int, dict[Position, tuple[Step, ...]]]:
    """``(dice used, {position after: die steps})`` of the roll ``hi``-``lo``
    (``hi >= lo``): what :func:`legal_plays` returns, with the dice count."""
    n, found = _search_plays(pos, hi, lo)
    opp0 = pos.opp
    return n, {
        (_position(key[0], key[1]) if len(key) == 2 else _position(key, opp0)): seq
        for key, seq in found.items()
    }


class PlayMemo:
    """A memo of :func:`find_plays`, keyed by value (position and roll): a
    position is asked about again right away, when a play is checked and
    then explained, so a few entries are enough (an entry can hold hundreds
    of positions). Pure: what it answers never depends on earlier calls."""

    __slots__ = ("_memo",)

    def __init__(self, limit: int = 128):
        self._memo: BoundedCache[tuple[Position, int, int], tuple[int, dict]] = \
            BoundedCache(limit)

    def plays(self, pos: Position, hi: int, lo: int) -> tuple[int, dict[Position, tuple[Step, ...]]]:
        """:func:`find_plays` (the dict is shared: do not change it)."""
        key = (pos, hi, lo)
        got = self._memo.get(key)
        if got is None:
            got = self._memo.put(key, find_plays(pos, hi, lo))
        return got

    def clear(self) -> None:
        self._memo.clear()


def legal_plays(pos: Position, d1: int, d2: int,
                memo: PlayMemo | None = None) -> dict[Position, tuple[Step, ...]]:
    """Every legal complete play of the roll ``d1``-``d2`` (rule "Moving" 4):
    keyed by the resulting position (still from the mover's side), valued by
    one sequence of die steps ``(src, dst, hit)`` that reaches it. A roll that
    cannot be played gives ``{pos: ()}``. ``memo`` keeps the answers for
    asking again.

    >>> plays = legal_plays(start_position(), 6, 6)
    >>> len(plays), max(plays.values())
    (11, ((24, 18, False), (24, 18, False), (13, 7, False), (13, 7, False)))
    >>> closed = Position.from_points({25: 1, 6: 14}, {k: 2 for k in range(1, 7)} | {13: 3})
    >>> legal_plays(closed, 6, 5) == {closed: ()}
    True
    """
    if d1 < d2:
        d1, d2 = d2, d1
    if memo is None:
        return find_plays(pos, d1, d2)[1]
    return dict(memo.plays(pos, d1, d2)[1])


def _max_dice(me: MutableSequence[int], opp: MutableSequence[int], dice: tuple[int, ...],
              i: int, top: int) -> int:
    """The most dice playable from here (stops as soon as all can be).
    Sources are tried from the highest down (for a double, no higher than
    the last one: any set of steps of one die can be played so)."""
    n = len(dice)
    if i == n:
        return n
    d = dice[i]
    double = dice[0] == dice[-1]
    best = i
    if me[25]:  # the kernel refuses every other source
        srcs: Sequence[int] = (25,) if top == 25 else ()
    else:
        srcs = range(top if top < 25 else 24, 0, -1)
    for src in srcs:
        if not me[src]:
            continue
        t = die_step(me, opp, src, d)
        if t < 0:
            if t == _OUTSIDE:
                break  # every lower source would bear off too
            continue
        t &= POINT
        hit = move_checker(me, opp, src, t)
        r = _max_dice(me, opp, dice, i + 1, src if double else 25)
        unmove_checker(me, opp, src, t, hit)
        if r > best:
            if r == n:
                return n
            best = r
    return best


def max_dice_playable(pos: Position, d1: int, d2: int) -> int:
    """How many dice a legal play of ``d1``-``d2`` uses (0 to 2, or 0 to 4
    for a double).

    When the replay's optional C kernel is built, its ``max_dice`` (the
    same search in C) answers, and :func:`max_dice_playable_reference`
    answers what it declines; tests/test_play_run_kernel.py compares the
    two on random and corpus positions.

    >>> max_dice_playable(start_position(), 6, 5), max_dice_playable(start_position(), 4, 4)
    (2, 4)
    """
    found = _kernel_max_dice(pos.me, pos.opp, d1, d2)
    return found if found >= 0 else max_dice_playable_reference(pos, d1, d2)


def max_dice_of_sides(me: Sequence[int], opp: Sequence[int], d1: int, d2: int) -> int:
    """:func:`max_dice_playable` of the position of the side arrays ``me``
    (the mover's) and ``opp``, without a :class:`Position` made for the
    kernel."""
    found = _kernel_max_dice(me, opp, d1, d2)
    if found >= 0:
        return found
    return max_dice_playable_reference(_position(tuple(me), tuple(opp)), d1, d2)


#: the kernel's max_dice, looked up at the first call (the kernel lives
#: with the replay, which imports this module: not at import time); False
#: when it is not built or GAMAO_PURE_PYTHON says not to use it
_MAX_DICE: list = [None]


def _max_dice_kernel():
    from gamao_cli import kernels
    module = kernels.kernel("gamao_cli.replay._play_run")
    _MAX_DICE[0] = getattr(module, "max_dice", None) or False
    return _MAX_DICE[0]


def _kernel_max_dice(me: Sequence[int], opp: Sequence[int], d1: int, d2: int) -> int:
    """The kernel's answer for these sides, or -1: no kernel, or declined."""
    kernel = _MAX_DICE[0]
    if kernel is None:
        kernel = _max_dice_kernel()
    return kernel(me, opp, d1, d2) if kernel else -1


def max_dice_playable_reference(pos: Position, d1: int, d2: int) -> int:
    """:func:`max_dice_playable` in Python: the reference.

    >>> max_dice_playable_reference(start_position(), 6, 5)
    2
    """
    if d1 < d2:
        d1, d2 = d2, d1
    me, opp = list(pos.me), list(pos.opp)
    if d1 == d2:
        return _max_dice(me, opp, (d1,) * 4, 0, 25)
    a = _max_dice(me, opp, (d1, d2), 0, 25)
    if a == 2:
        return 2
    return max(a, _max_dice(me, opp, (d2, d1), 0, 25))


def die_playable(pos: Position, die: int) -> bool:
    """Whether one checker can be moved by ``die`` now: a roll can be played
    at all (``max_dice_playable(pos, d1, d2) > 0``) when either die can.

    >>> closed = Position.from_points({25: 1, 6: 14}, {k: 2 for k in range(1, 7)} | {13: 3})
    >>> die_playable(closed, 6), die_playable(start_position(), 6)
    (False, True)
    """
    me, opp = pos.me, pos.opp
    if me[25]:  # the kernel refuses every other source
        return die_step(me, opp, 25, die) >= 0
    for src in range(24, 0, -1):
        if me[src]:
            t = die_step(me, opp, src, die)
            if t >= 0:
                return True
            if t == _OUTSIDE:
                return False  # every lower source would bear off too
    return False
