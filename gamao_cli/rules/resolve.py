"""Resolving a written play: which dice each movement of a record takes.

Every die step of every reading is asked of the kernel
(:func:`~gamao_cli.rules.steps.die_step`) and made with
:func:`~gamao_cli.rules.steps.move_checker` (the replay's hot path moves a
checker that hits nothing itself, the kernel having said so). A problem is a
stable code
(:class:`Problem`) with a message key and its fields, rendered from the one
message table (:mod:`gamao_cli.messages`, keys ``rules.*``).

The caches live in a :class:`Resolver`, which the replay owns and keeps from
one match to the next; the module's functions use one without memos, so
their answers never depend on earlier calls.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Hashable, Mapping, Sequence

from gamao_cli.model.notation import BoundedCache, movement_text

from .plays import die_playable, find_plays, max_dice_of_sides, max_dice_playable
from .position import Position, Step, _new_object, _position
from .steps import HIT, POINT, StepProblem, die_step, move_checker, unmove_checker
from .variants import start_position  # noqa: F401  (the examples use it)

Move = tuple[int, int]


class Problem(StrEnum):
    """Why a written play cannot be read with the roll: the stable problem
    codes of :class:`Resolution` (those of a single die step are
    :attr:`StepProblem.code`)."""

    DISTANCE = "distance"                 # no die (or sum of dice) covers a movement
    TOO_MANY = "too-many"                 # more die steps than the roll gives
    BLOCKED = "blocked"
    BAR = "bar"
    BEAROFF_OUTSIDE = "bearoff-outside"
    BEAROFF_HIGHER = "bearoff-higher"
    NO_CHECKER = "no-checker"
    BACKWARDS = "backwards"               # a movement to a higher point


#: The stable problem codes of :class:`Resolution`.
PROBLEMS: tuple[Problem, ...] = tuple(Problem)


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome of :func:`resolve_play`.

    When ``ok``: ``steps`` are the die steps ``(src, dst, hit)`` in play
    order, ``position`` the result (mover's side), ``dice_used`` the number
    of dice, and ``legal`` whether the play also obeys rule "Moving" 4
    (:func:`play_is_legal`). Otherwise ``problem`` is one of
    :data:`PROBLEMS`, ``index`` the 0-based movement at fault, and ``key``
    and ``fields`` the message (``message`` renders it for the player).
    """

    ok: bool
    steps: tuple[Step, ...] = ()
    position: Position | None = None
    dice_used: int = 0
    problem: Problem | None = None
    index: int | None = None
    key: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict)
    legal: bool = False

    @property
    def message(self) -> str:
        """The problem as a sentence (``""`` when there is none)."""
        if not self.key:
            return ""
        from gamao_cli.messages import render
        return render(self.key, self.fields)


_NO_FIELDS: Mapping[str, Any] = {}
(_set_ok, _set_steps, _set_position, _set_dice_used, _set_problem, _set_index, _set_key,
 _set_fields, _set_legal) = (getattr(Resolution, f).__set__ for f in Resolution.__slots__)


def _resolved(steps: tuple[Step, ...], position: Position, legal: bool) -> Resolution:
    """``Resolution(True, steps, position, len(steps), legal=legal)``, built
    without the frozen dataclass's slow ``__init__`` (the replay's hot path)."""
    r = _new_object(Resolution)
    _set_ok(r, True)
    _set_steps(r, steps)
    _set_position(r, position)
    _set_dice_used(r, len(steps))
    _set_problem(r, None)
    _set_index(r, None)
    _set_key(r, "")
    _set_fields(r, _NO_FIELDS)
    _set_legal(r, legal)
    return r


# -- the dice a movement can take -------------------------------------------------

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


def _distance_problem(src: int, dst: int, d1: int, d2: int) -> tuple[str, dict[str, Any]]:
    """The message (key, fields) of a movement no dice of the roll cover."""
    roll = {"movement": movement_text(src, dst), "d1": d1, "d2": d2}
    if not dst:
        most = 4 * d1 if d1 == d2 else d1 + d2
        return "rules.distance.bear-off", {**roll, "pips": src, "most": most}
    dist = src - dst
    if d1 == d2:
        if dist % d1:
            return "rules.distance.not-multiple", {**roll, "pips": dist, "die": d1}
        return "rules.distance.too-far", {**roll, "pips": dist, "most": 4 * d1}
    if dist <= 6:
        return "rules.distance.no-die", {**roll, "pips": dist}
    lo, hi = sorted((d1, d2))
    return "rules.distance.no-sum", {**roll, "pips": dist, "low": lo, "high": hi,
                                     "total": lo + hi}


def _step_problem(why: StepProblem, me: Sequence[int], movement: Move, cur: int, die: int,
                  last: bool) -> tuple[Problem, str, dict[str, Any]]:
    """The problem (code, key, fields) of a die step the kernel refused:
    the step by ``die`` from ``cur`` of ``movement``, its ``last`` step or
    not."""
    if why is StepProblem.NO_CHECKER:
        if cur == 25:
            return Problem.NO_CHECKER, "rules.no-checker.bar", {}
        return Problem.NO_CHECKER, "rules.no-checker", {"point": cur}
    if why is StepProblem.BAR:
        return Problem.BAR, "rules.bar", {}
    if why is StepProblem.BLOCKED:
        if last:
            return Problem.BLOCKED, "rules.blocked", {"point": cur - die}
        return Problem.BLOCKED, "rules.blocked.stop", {"point": cur - die,
                                                        "movement": movement_text(*movement)}
    if why is StepProblem.BEAROFF_OUTSIDE:
        return Problem.BEAROFF_OUTSIDE, "rules.bearoff-outside", {"point": movement[0]}
    higher = max(p for p in range(cur + 1, 7) if me[p])
    return Problem.BEAROFF_HIGHER, "rules.bearoff-higher", {"point": cur, "die": die,
                                                             "higher": higher}


def _written_order_plan(moves: Sequence[Move], d1: int, d2: int
                        ) -> tuple[list[tuple[int, int]], int] | None:
    """The die steps ``(from, die)`` of reading the movements in written
    order, each with its first fitting dice, and how many dice that leaves
    unused; ``None`` when a movement fits no dice left (or is no movement
    at all)."""
    plan = []
    if d1 == d2:
        left = 4
        for src, dst in moves:
            if not 0 < src <= 25 or not 0 <= dst < src:
                return None
            if dst:
                k, r = divmod(src - dst, d1)
                if r:
                    return None
            else:
                k = -(-src // d1)
            if k > left:
                return None
            left -= k
            for _ in range(k):   # only a movement's last step can bear off
                plan.append((src, d1))
                src -= d1
        return plan, left
    dice = [d1, d2]
    for src, dst in moves:
        if not 0 < src <= 25 or not 0 <= dst < src:
            return None
        if dst:
            dist = src - dst
            if dist in dice:
                dice.remove(dist)
                plan.append((src, dist))
            elif dist == d1 + d2 and len(dice) == 2:
                dice.clear()
                plan.append((src, d1))
                plan.append((src - d1, d2))
            else:
                return None
        else:
            if src in dice:
                d = src
            else:
                bigger = [d for d in dice if d > src]
                if not bigger:
                    return None
                d = min(bigger)
            dice.remove(d)
            plan.append((src, d))
    return plan, len(dice)


def _in_written_order(pos: Position, moves: Sequence[Move], d1: int, d2: int
                      ) -> tuple[tuple[Step, ...], Position] | None:
    """The fast reading of :func:`resolve_play`: the movements in written
    order, each with its first fitting dice; ``None`` when anything fails
    (the full search then decides and explains)."""
    found = _written_order_plan(moves, d1, d2)
    if found is None:
        return None
    me, opp = list(pos.me), list(pos.opp)
    steps = []
    for cur, d in found[0]:
        t = die_step(me, opp, cur, d)
        if t < 0:
            return None
        t &= POINT
        steps.append((cur, t, move_checker(me, opp, cur, t)))
    return tuple(steps), _position(tuple(me), tuple(opp))


def _take_back(me: list[int], opp: list[int], plan: Sequence[tuple[int, int]], n: int,
               hits: tuple[int, ...]) -> None:
    """Take back the first ``n`` steps ``(from, die)`` of ``plan``, which hit
    on the points ``hits``: a step hit when it was the first to land on one
    of them (a point hit is then the mover's: no later step hits there)."""
    landed: set[int] = set()
    done = []
    for cur, d in plan[:n]:
        t = cur - d if cur > d else 0
        done.append((cur, t, t in hits and t not in landed))
        landed.add(t)
    for cur, t, hit in reversed(done):
        unmove_checker(me, opp, cur, t, hit)


def fewer_dice_plan(moves: Sequence[Move], d1: int, d2: int) -> tuple[tuple[int, int], ...]:
    """The die steps ``(from, die)`` of the written-order reading of
    ``moves`` with ``d1``-``d2`` when it fits but leaves dice unused (a play
    of fewer dice than the roll: a checker that enters and no more, the
    last checkers borne off), else ``()``.

    >>> fewer_dice_plan(((25, 24),), 6, 1), fewer_dice_plan(((13, 7), (8, 7)), 6, 1)
    (((25, 1),), ())
    """
    found = _written_order_plan(moves, d1, d2)
    return tuple(found[0]) if found and found[1] and found[0] else ()


def other_order_plan(plan: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The plan of one checker moved by both dice of a roll of two
    numbers, ``plan``'s two die steps, with its dice the other way round
    (the only other reading of that movement, when it is written as one
    movement: what the full path tries when the written order is blocked),
    else ``()``.

    >>> other_order_plan(((10, 5), (5, 1))), other_order_plan(((25, 3), (22, 6)))
    (((10, 1), (9, 5)), ((25, 6), (19, 3)))
    >>> other_order_plan(((13, 6), (8, 1))), other_order_plan(((6, 6), (0, 1)))
    ((), ())
    """
    if len(plan) == 2:
        (src, d1), (mid, d2) = plan
        if d1 != d2 and mid == src - d1 > 0:
            return ((src, d2), (src - d2, d1))
    return ()


def steps_of_plan(plan: Sequence[tuple[int, int]], hits: tuple[int, ...]) -> tuple[Step, ...]:
    """The die steps ``(from, to, hit)`` of the play :func:`play_plan` has
    just made of ``plan`` (and that hit ``hits``): what :meth:`Resolver.resolve_play`
    gives as its steps. A step hit when it was the first to land on a point
    hit (as :func:`_take_back` reads a plan).

    >>> steps_of_plan(((8, 3), (6, 1)), (5,))
    ((8, 5, True), (6, 5, False))
    """
    landed: set[int] = set()
    steps = []
    for cur, d in plan:
        t = cur - d if cur > d else 0
        steps.append((cur, t, t in hits and t not in landed))
        landed.add(t)
    return tuple(steps)


def play_plan(me: list[int], opp: list[int], plan: Sequence[tuple[int, int]],
              marked: frozenset[int] | None) -> tuple[int, ...] | None:
    """Play the die steps ``(from, die)`` of ``plan`` (:meth:`Resolver.plan`)
    on the side arrays (the mover's ``me``, the opponent's ``opp``), each
    step as :func:`~gamao_cli.rules.steps.die_step` allows it and as
    :func:`~gamao_cli.rules.steps.move_checker` moves it: when every step is
    legal (and, given ``marked``, the points hit are the points the record
    marks), the arrays hold the position after the play and the points hit
    are returned; else ``None``, the arrays as they were.

    This is the replay's hot path, so the rule of one die step is applied
    here inline, without a call a step: the same tests in the same order as
    :func:`~gamao_cli.rules.steps.die_step` (tests/test_fast_paths.py plays
    every plan of every roll both ways on random positions and compares).

    >>> me = [0] * 26; opp = [0] * 26
    >>> me[8] = me[6] = 1; opp[25 - 5] = 1
    >>> play_plan(me, opp, ((8, 3), (6, 1)), None), me[5], opp[25]
    ((5,), 2, 1)
    >>> play_plan(me, opp, ((5, 6), (5, 2)), frozenset({3})), me[5], me[0]  # 3 is no hit
    (None, 2, 0)
    >>> play_plan(me, opp, ((5, 6), (5, 2)), None), me[5], me[0], me[3]
    ((), 0, 1, 1)
    >>> opp[25 - 1] = 2   # the opponent holds my 1 point
    >>> play_plan(me, opp, ((3, 1), (2, 1)), None), me[3], me[2]
    (None, 1, 0)
    """
    hits: tuple[int, ...] = ()
    done = 0
    for cur, d in plan:
        if not me[cur] or (me[25] and cur != 25):
            break                       # no checker there; the bar first
        t = cur - d
        if t > 0:
            o = opp[25 - t]
            if o > 1:
                break                   # the point is held
            me[cur] -= 1
            me[t] += 1
            if o:                       # a lone checker there: hit
                opp[25 - t] = 0
                opp[25] += 1
                hits += (t,)
        else:                           # bearing off
            if any(me[7:]) or (t and any(me[cur + 1:7])):
                break                   # checkers outside, or one higher
            me[cur] -= 1
            me[0] += 1
        done += 1
    else:
        if hits:
            if marked is None or set(hits) == marked:
                return hits
        elif not marked:
            return hits
    _take_back(me, opp, plan, done, hits)
    return None


def _hit_disagreement(steps: Sequence[Step], marked: frozenset[int] | None) -> int:
    """How many points the hits of ``steps`` and the hit marks disagree on."""
    if marked is None:
        return 0
    return len({dst for _src, dst, hit in steps if hit} ^ marked)


class _NoMemo:
    """A memo that keeps nothing (a :class:`BoundedCache` look-alike)."""

    __slots__ = ()
    data: Mapping[Hashable, Any] = {}   # always empty

    def get(self, key: Hashable) -> None:
        return None

    def put(self, key: Hashable, value: Any) -> Any:
        return value

    def clear(self) -> None:
        pass


class Resolver:
    """Resolving and checking written plays, with the memos that make a
    replay fast: both are pure (keyed by value, emptied when full), so what
    a resolver answers never depends on what it was asked before, only how
    fast it answers.

    * ``plans``: the die steps of the written-order reading of a play, keyed
      by the movements, then by the roll. They depend only on the movements
      and the roll, not on the position, and an archive meets the same few
      thousand pairs over and over (the bulk corpus: 19,909 distinct pairs
      in 190,012 plays), so a resolver kept across matches works each out
      once (a few hundred bytes a pair).
    * ``plays``: the legal plays of a (position, roll), asked again right
      away when a play is checked and then explained (an entry can hold
      hundreds of positions, so few are kept).

    ``Resolver(memo=False)`` keeps nothing (the module's functions use one).
    """

    __slots__ = ("plans", "plays")

    def __init__(self, *, memo: bool = True, plans: int = 32768, plays: int = 128):
        self.plans: BoundedCache | _NoMemo = BoundedCache(plans) if memo else _NoMemo()
        self.plays: BoundedCache | _NoMemo = BoundedCache(plays) if memo else _NoMemo()

    def clear(self) -> None:
        """Empty the memos (what a fresh process starts with)."""
        self.plans.clear()
        self.plays.clear()

    # -- legal plays ---------------------------------------------------------------
    def found_plays(self, pos: Position, hi: int, lo: int
                    ) -> tuple[int, dict[Position, tuple[Step, ...]]]:
        """:func:`~gamao_cli.rules.plays.find_plays`, kept (``hi >= lo``; the
        dict is shared: do not change it)."""
        key = (pos, hi, lo)
        got = self.plays.data.get(key)
        if got is None:
            got = self.plays.put(key, find_plays(pos, hi, lo))
        return got

    def legal_plays(self, pos: Position, d1: int, d2: int) -> dict[Position, tuple[Step, ...]]:
        """:func:`~gamao_cli.rules.plays.legal_plays` (a fresh dict)."""
        hi, lo = (d1, d2) if d1 >= d2 else (d2, d1)
        return dict(self.found_plays(pos, hi, lo)[1])

    # -- the fast path -----------------------------------------------------------
    def play_in_written_order(self, pos: Position, moves: Sequence[Move], d1: int, d2: int,
                              marked: frozenset[int] | None = None
                              ) -> tuple[Position, tuple[int, ...]] | None:
        """:func:`play_in_written_order`."""
        me, opp = list(pos.me), list(pos.opp)
        hits = self.play_in_place(me, opp, tuple(moves), d1, d2, marked)
        if hits is None:
            return None
        return _position(tuple(opp), tuple(me)), hits

    def play_in_place(self, me: list[int], opp: list[int], moves: tuple[Move, ...], d1: int,
                      d2: int, marked: frozenset[int] | None = None) -> tuple[int, ...] | None:
        """:func:`play_in_written_order` on the side arrays themselves (the
        mover's ``me``, the opponent's ``opp``): when the written-order
        reading plays the whole roll (and, given ``marked``, its hits are the
        points the record marks), the arrays then hold the position after
        the play, still from the mover's side, and the points hit are
        returned; else ``None``, the arrays as they were. This is the
        replay's hot path: no position is built (:func:`play_plan` on
        :meth:`plan`)."""
        # the plans are keyed by the movements, then by the roll (an int)
        try:
            plan = self.plans.data[moves][d1 << 3 | d2]
        except KeyError:
            plan = self._plan(moves, d1, d2)
        return play_plan(me, opp, plan, marked) if plan else None

    def play_fewer_in_place(self, me: list[int], opp: list[int], plan: Sequence[tuple[int, int]],
                            d1: int, d2: int, marked: frozenset[int] | None = None
                            ) -> tuple[int, ...] | None:
        """:func:`play_plan` for the written-order reading of a play that
        uses fewer dice than the roll gives (``plan``:
        :func:`fewer_dice_plan`), when that is plainly legal: it uses as
        many dice as the roll can (and, a single die of two, the higher one
        or the only one that can be played), which is what
        :meth:`play_is_legal` finds without listing plays. Else ``None``,
        the arrays as they were (the full path decides: :meth:`resolve_play`
        then finds this reading, or another).

        The last checker borne off by one die when either die bears it off
        (a game's last play, mostly): the game ends there, no other die can
        be played, and both dice leave the same position, so the play is
        legal without a look at the other plays.

        >>> me = [14] + [0] * 25; me[2] = 1; opp = [0] * 26
        >>> Resolver().play_fewer_in_place(me, opp, ((2, 5),), 5, 4), me[0], me[2]
        ((), 15, 0)
        """
        hi, lo = (d1, d2) if d1 >= d2 else (d2, d1)
        used = len(plan)
        if used == 1:
            src = plan[0][0]
            if src <= lo and me[src] == 1 and sum(me) - me[0] == 1:
                # (a step from no higher than the lower die bears off: the
                # last checker; max_dice_playable would say 1, nothing is
                # left to play)
                return play_plan(me, opp, plan, marked)
        if used != max_dice_of_sides(me, opp, hi, lo):
            return None
        if used == 1 and hi != lo and plan[0][1] != hi:
            # (the plan says which die it plays, a checker borne off too:
            # the higher, or the lower when the higher cannot be played)
            if die_playable(_position(tuple(me), tuple(opp)), hi):
                return None
        return play_plan(me, opp, plan, marked)

    def plan(self, moves: tuple[Move, ...], d1: int, d2: int) -> tuple[tuple[int, int], ...]:
        """The die steps ``(from, die)`` of the written-order reading of
        ``moves`` with ``d1``-``d2`` when it plays the whole roll (what
        :func:`play_plan` takes), else ``()`` (the full path decides).
        Kept in :attr:`plans`; a caller may keep it too (it depends on
        ``moves`` and the roll only)."""
        # (no try/except KeyError: a text is asked once a roll, mostly a miss)
        by_roll = self.plans.data.get(moves)
        if by_roll is not None:
            plan = by_roll.get(d1 << 3 | d2)
            if plan is not None:
                return plan
        return self._plan(moves, d1, d2)

    def steps_in_place(self, moves: tuple[Move, ...], d1: int, d2: int,
                       hits: tuple[int, ...]) -> tuple[Step, ...]:
        """The die steps ``(from, to, hit)`` of the play :meth:`play_in_place`
        has just made of ``moves`` with ``d1``-``d2`` (and that hit
        ``hits``): what :meth:`resolve_play` gives as its steps. A step hit
        when it was the first to land on a point hit (as :func:`_take_back`
        reads a plan)."""
        return steps_of_plan(self.plans.data[moves][d1 << 3 | d2], hits)

    def _plan(self, moves: tuple[Move, ...], d1: int, d2: int) -> tuple[tuple[int, int], ...]:
        """Work out (and keep) the plan of ``moves`` with ``d1``-``d2``."""
        by_roll = self.plans.data.get(moves)
        if by_roll is None:
            by_roll = self.plans.put(moves, {})
        found = _written_order_plan(moves, d1, d2)
        # a reading that leaves a die unused is for the full path to judge
        plan = by_roll[d1 << 3 | d2] = tuple(found[0]) if found and not found[1] else ()
        return plan

    # -- rule "Moving" 4 ---------------------------------------------------------
    def play_is_legal(self, pos: Position, d1: int, d2: int, resolution: Resolution) -> bool:
        """:func:`play_is_legal`."""
        if not resolution.ok:
            return False
        used = resolution.dice_used
        if used == (4 if d1 == d2 else 2):
            return True
        hi, lo = (d1, d2) if d1 >= d2 else (d2, d1)
        # A play of as many dice as can be played is one of the legal plays
        # (all plays of the most dice are), but for a single die, which must be
        # the higher one when that can be played: that needs no list of plays.
        if used == max_dice_playable(pos, hi, lo):
            if used != 1 or hi == lo:
                return True
            [(src, dst, _hit)] = resolution.steps
            if dst and (src - dst == hi or not die_playable(pos, hi)):
                return True
        # only as the result of another reading, if at all
        return resolution.position in self.found_plays(pos, hi, lo)[1]

    # -- reading a written play ------------------------------------------------------
    def resolve_play(self, pos: Position, moves: Sequence[Move], d1: int, d2: int,
                     marked: frozenset[int] | None = None) -> Resolution:
        """:func:`resolve_play`."""
        mv = moves if isinstance(moves, (list, tuple)) else list(moves)
        ndice = 4 if d1 == d2 else 2
        fast = _in_written_order(pos, mv, d1, d2)
        if fast is not None and not _hit_disagreement(fast[0], marked):
            res = _resolved(fast[0], fast[1], True)
            if len(fast[0]) == ndice or self.play_is_legal(pos, d1, d2, res):
                return res
        return self._search(pos, [(src, dst) for src, dst in mv], d1, d2, marked)

    def _search(self, pos: Position, mv: list[Move], d1: int, d2: int,
                marked: frozenset[int] | None) -> Resolution:
        """The full reading of :meth:`resolve_play`: every order of the
        movements, every order of a movement's dice, die step by die step."""
        n = len(mv)
        if not n:
            return _resolved((), pos, self.play_is_legal(pos, d1, d2, Resolution(True, (), pos)))
        for i, (src, dst) in enumerate(mv):
            if not 1 <= src <= 25 or not 0 <= dst <= 25:
                raise ValueError(f"movement {src}/{dst} is outside the board")
            if dst and dst >= src:
                return _fail(Problem.BACKWARDS, i, "rules.backwards",
                             {"movement": movement_text(src, dst)})
        double = d1 == d2
        ndice = 4 if double else 2
        opts = [_die_options(src, dst, d1, d2) for src, dst in mv]
        for i, o in enumerate(opts):
            if not o:
                return _fail(Problem.DISTANCE, i, *_distance_problem(*mv[i], d1, d2))
        need = 0
        for i, o in enumerate(opts):
            need += min(len(s) for s in o)
            if need > ndice:
                return _fail(Problem.TOO_MANY, i, "rules.too-many",
                             {"d1": d1, "d2": d2, "moves": ndice, "need": need})
        if not double and n == 2:
            if not any(len(a) == 1 == len(b) and a != b for a in opts[0] for b in opts[1]):
                d = opts[1][0][0]
                return _fail(Problem.DISTANCE, 1, "rules.distance.die-taken",
                             {"movement": movement_text(*mv[1]), "die": d,
                              "other": movement_text(*mv[0]), "d1": d1, "d2": d2})

        # The failure to report: the one found in the order of movements that got
        # the most movements through (board problems before dice arithmetic);
        # on a tie the first found, i.e. written order and the most natural dice.
        failure: list = [(-1, 0), Problem.DISTANCE, 0, "", {}]

        def note(progress: tuple[int, int], problem: Problem, index: int, key: str,
                 fields: dict[str, Any]) -> None:
            if progress > failure[0]:
                failure[:] = [progress, problem, index, key, fields]

        # The search works die step by die step, so that the steps of different
        # movements may interleave: with two checkers on the bar and 2-2,
        # "bar/21(2)" is bar/23 bar/23 23/21 23/21 (both must enter first);
        # "10/off(2)" with 5-5 is 10/5 10/5 5/off 5/off.
        # state[i]: None (not started), or (option, steps done, current point).
        seen_states: set = set()

        def rec(me: list[int], opp: list[int], state: tuple, dice: Any, steps: list[Step],
                done: int):
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
                                note((done, 0), Problem.TOO_MANY, i, "rules.too-many.more",
                                     {"d1": d1, "d2": d2, "moves": 4})
                                continue
                            rest = dice - len(seq)
                        else:
                            rest = list(dice)
                            try:
                                for d in seq:
                                    rest.remove(d)
                            except ValueError:
                                note((done, 0), Problem.DISTANCE, i, "rules.distance.die-used",
                                     {"movement": movement_text(src, dst)})
                                continue
                            rest = tuple(rest)
                        choices.append((seq, 0, src, rest))
                for seq, j, cur, rest in choices:
                    d = seq[j]
                    # the kernel checks every step, not only a movement's first:
                    # when the steps of two movements interleave, the other one may
                    # have moved on the checker this one brought to ``cur`` (bar/7
                    # 13/7 with 6-6 and nothing on 13)
                    t = die_step(me, opp, cur, d)
                    if t < 0:
                        problem, key, fields = _step_problem(StepProblem(t), me, mv[i], cur, d,
                                                             j == len(seq) - 1)
                        note((done, 1), problem, i, key, fields)
                        continue
                    t &= POINT
                    m, o = list(me), list(opp)
                    s = [*steps, (cur, t, move_checker(m, o, cur, t))]
                    new_state = list(state)
                    new_state[i] = (seq, j + 1, t)
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
        for steps, me, opp in rec(list(pos.me), list(pos.opp), (None,) * n,
                                  4 if double else (d1, d2), [], 0):
            res = _resolved(tuple(steps), Position(tuple(me), tuple(opp)), False)
            legal = res.dice_used == ndice or self.play_is_legal(pos, d1, d2, res)
            key = (not legal, _hit_disagreement(res.steps, marked))
            if best is None or key < best_key:
                best, best_key = _resolved(res.steps, res.position, legal), key
                if key == (False, 0):
                    break
        if best is not None:
            return best
        _, problem, index, key, fields = failure
        return _fail(problem, index, key, fields)


def _fail(problem: Problem, index: int, key: str, fields: dict[str, Any]) -> Resolution:
    return Resolution(False, problem=problem, index=index, key=key, fields=fields)


#: The resolver of the module's functions: no memos.
_PLAIN = Resolver(memo=False)


def play_in_written_order(pos: Position, moves: Sequence[Move], d1: int, d2: int,
                          marked: frozenset[int] | None = None
                          ) -> tuple[Position, tuple[int, ...]] | None:
    """The validator's fast path for a play that is plainly legal: when the
    reading of :func:`resolve_play`'s fast path (the movements in written
    order, each with its first fitting dice) plays the whole roll, and (given
    ``marked``, the points the record marks with ``*``) its hits are the
    marked points, returns ``(position, points hit)``, ``position`` being the
    result as the opponent, next on roll, sees it (the
    :attr:`Resolution.position` of :func:`resolve_play`, swapped), which is
    then what :func:`resolve_play` returns, and that play is legal (it uses
    every die). Else ``None``: the full path decides, and explains.

    >>> after, hits = play_in_written_order(start_position(), ((8, 5), (6, 5)), 3, 1)
    >>> after.opp[5], hits
    (2, ())
    >>> play_in_written_order(start_position(), ((8, 2),), 3, 3) is None  # 6 pips, not 9
    True
    """
    return _PLAIN.play_in_written_order(pos, moves, d1, d2, marked)


def resolve_play(
    pos: Position, moves: Sequence[Move], d1: int, d2: int,
    marked: frozenset[int] | None = None,
) -> Resolution:
    """Find dice for the checker movements of a recorded play.

    ``moves`` are ``(src, dst)`` movements as the record writes them (repeats
    expanded, chains split; 25 = bar, 0 = off); a movement may cover several
    dice. The movements may be played in any order, and the dice of a
    multi-die movement in either order, as long as every die step is legal
    from ``pos``. The result tells which dice were used and (``legal``)
    whether the play obeys rule "Moving" 4 too (use the most dice, or the
    higher die; see :func:`play_is_legal`). When several readings exist, one
    that obeys rule 4 is preferred, then (given ``marked``, the points the
    record marks with ``*``) one whose hits agree with the marks.

    >>> pos = start_position()
    >>> r = resolve_play(pos, [(24, 13)], 6, 5)
    >>> r.ok, r.steps, r.legal
    (True, ((24, 18, False), (18, 13, False)), True)
    >>> r = resolve_play(pos, [(8, 6), (24, 23)], 6, 1)
    >>> r.ok, r.problem, r.index, r.message
    (False, <Problem.DISTANCE: 'distance'>, 0, '8/6 moves 2 pips, but no die shows 2')
    >>> r.key, r.fields
    ('rules.distance.no-die', {'movement': '8/6', 'd1': 6, 'd2': 1, 'pips': 2})
    """
    return _PLAIN.resolve_play(pos, moves, d1, d2, marked)


def play_is_legal(pos: Position, d1: int, d2: int, resolution: Resolution) -> bool:
    """Whether a resolved play obeys rule "Moving" 4 as well: a play that
    uses every die is legal; one that uses fewer is legal when its result is
    one of :func:`legal_plays` (which also settles the higher-die rule).
    (:func:`resolve_play` says so too: :attr:`Resolution.legal`.)

    >>> pos = Position.from_points({6: 1}, {1: 1})
    >>> play_is_legal(pos, 6, 5, resolve_play(pos, [(6, 0)], 6, 5))  # as 6/1/off
    True
    >>> pos = Position.from_points({6: 1, 5: 1}, {1: 1})
    >>> play_is_legal(pos, 4, 3, resolve_play(pos, [(6, 3)], 4, 3))
    False
    """
    return _PLAIN.play_is_legal(pos, d1, d2, resolution)
