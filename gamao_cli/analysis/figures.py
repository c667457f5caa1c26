"""How well they played: figures per player, per game and per match,
computed from the decisions alone (:mod:`.decisions`), the same way
whatever format the record came in. ``docs/analysis.md`` defines each.

GNU Backgammon's figures follow its ``analysis.c`` (``updateStatcontext``,
``getMWCFromError``) and ``formatgs.c`` exactly: which decisions count, how an
error is measured, how a match-winning-chance cost is found
(:mod:`.met`), how rates are divided. eXtreme Gammon's PR is the mean error
per counted decision times 500.

>>> from gamao_cli import model as m
>>> from gamao_cli.analysis.decisions import Analysis, Candidate, CheckerDecision
>>> play = m.Play(0, (3, 1), m.parse_steps("24/21 6/5"))
>>> play.analysis = {"decisions": Analysis("GNU Backgammon", checker=CheckerDecision(
...     0, (3, 1), (Candidate("8/5 6/5", 0.1), Candidate("24/21 6/5", 0.02)), 1, False)).to_json()}
>>> match = m.Match(0, [m.Game(1, None, [play])])
>>> f = match_figures(match)
>>> f.stats()["checker"]["error_total"], f.stats()["checker"]["error_rate"]
([-0.08, 0.0], [-80.0, 0.0])
>>> f.stats()["xg"]["pr"]
[40.0, 0.0]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from gamao_cli import model as m

from .decisions import Analysis, CheckerDecision, CubeDecision, decisions_of
from .met import KAZAROSS_XG2, CubeState, MatchEquityTable

#: GNU Backgammon's default skill thresholds (``arSkillLevel``): an error
#: of more than this (EMG) is doubtful, bad, very bad.
SKILL_DOUBTFUL, SKILL_BAD, SKILL_VERY_BAD = 0.03, 0.06, 0.12
#: A cube decision is close when the optimal equity and the double's
#: (capped at 1) are nearer than this (``isCloseCubedecision``).
CLOSE_CUBE = 0.16
#: eXtreme Gammon's scale for PR, and the cut-offs gamao uses for the
#: decisions it counts where the record gives no flag of its own
#: (docs/analysis.md): a checker play counts when some candidate loses at
#: least PR_CHECKER_MIN, a no-double when the wrong action costs between
#: PR_CUBE_MIN and PR_CUBE_MAX.
PR_SCALE = 500.0
PR_CHECKER_MIN = 0.001
PR_CUBE_MIN, PR_CUBE_MAX = 0.001, 0.2


def _pair() -> list:
    return [0, 0]


def _fpair() -> list:
    return [0.0, 0.0]


@dataclass
class Counted:
    """One decision eXtreme Gammon's PR counts: who, what kind, its error."""

    player: int
    kind: str            # "checker", "cube", "take", "pass"
    error: float         # EMG, >= 0 for an error
    game: int
    move: int | None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "error": round(self.error, 6),
                "game": self.game, "move": self.move}


@dataclass
class DecisionError:
    """What one decision cost, as the figures count it: the tables and the
    replay page show these, never computing them. ``kind`` is "checker",
    "no double" (a cube decision where the player did not double),
    "double", "take" or "pass"; ``error`` the equity lost (EMG, normalised
    to a 1-cube, >= 0; 0 for the best choice), the program's own figure
    where it states one (eXtreme Gammon), as PR counts it; ``error_mwc`` the
    match winning chances it lost (a fraction, >= 0; None for money);
    ``counted``: it is one of the decisions XG's PR counts; ``forced``: a
    checker decision with no choice (counted nowhere); ``mark``: GNU
    Backgammon's skill mark for an error that size (its default thresholds,
    :data:`SKILL_DOUBTFUL` and the next): "doubtful", "bad", "very bad", or
    None."""

    player: int
    kind: str
    error: float
    error_mwc: float | None
    counted: bool
    forced: bool = False
    mark: str | None = None


@dataclass
class Figures:
    """The figures of a game or a match, each a pair (player 0, player 1);
    errors as positive magnitudes here, EMG (``*_mwc``: match winning
    chances in a match, points for money). :meth:`stats` gives them as
    GNU Backgammon prints them."""

    length: int = 0
    analysed: bool = False
    moves: list = field(default_factory=_pair)
    unforced: list = field(default_factory=_pair)
    marked: dict = field(default_factory=lambda: {k: _pair() for k in
                                                  ("none", "doubtful", "bad", "very bad")})
    checker_error: list = field(default_factory=_fpair)
    checker_error_mwc: list = field(default_factory=_fpair)
    luck: list = field(default_factory=_fpair)
    luck_mwc: list = field(default_factory=_fpair)
    #: the rolls whose luck the record states: none for either player (GNU
    #: Backgammon's text export) makes the luck figures unknown (None), not 0
    luck_rolls: list = field(default_factory=_pair)
    luck_marked: dict = field(default_factory=lambda: {k: _pair() for k in (
        "very lucky", "lucky", "none", "unlucky", "very unlucky")})
    cube_total: list = field(default_factory=_pair)
    cube_close: list = field(default_factory=_pair)
    doubles: list = field(default_factory=_pair)
    takes: list = field(default_factory=_pair)
    passes: list = field(default_factory=_pair)
    cube_kinds: dict = field(default_factory=lambda: {k: [_pair(), _fpair(), _fpair()] for k in (
        "missed_doubles_below_cp", "missed_doubles_above_cp", "wrong_doubles_below_dp",
        "wrong_doubles_above_tg", "wrong_takes", "wrong_passes")})
    counted: list = field(default_factory=list)
    #: the :class:`DecisionError` of each analysed decision, by the
    #: ``id()`` of the action that carries it (a roll: its cube and checker
    #: decisions; a double, take or drop: that cube decision)
    errors: dict = field(default_factory=dict)

    # -- sums ----------------------------------------------------------------
    def add(self, other: "Figures") -> None:
        """Add ``other``'s figures (a game's to the match's)."""
        self.analysed |= other.analysed
        for name in ("moves", "unforced", "checker_error", "checker_error_mwc", "luck",
                     "luck_mwc", "luck_rolls", "cube_total", "cube_close", "doubles", "takes",
                     "passes"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i in (0, 1):
                mine[i] += theirs[i]
        for table in ("marked", "luck_marked"):
            for k, v in getattr(other, table).items():
                for i in (0, 1):
                    getattr(self, table)[k][i] += v[i]
        for k, v in other.cube_kinds.items():
            for j in range(3):
                for i in (0, 1):
                    self.cube_kinds[k][j][i] += v[j][i]
        self.counted.extend(other.counted)
        self.errors.update(other.errors)

    def cube_error(self, i: int, mwc: bool = False) -> float:
        return sum(v[2 if mwc else 1][i] for v in self.cube_kinds.values())

    # -- rates ---------------------------------------------------------------
    @staticmethod
    def _per(total: float, n: int) -> float:
        return total / n if n else 0.0

    def pr(self, i: int) -> float:
        """eXtreme Gammon's PR of player ``i``."""
        errors = [c.error for c in self.counted if c.player == i]
        return PR_SCALE * sum(errors) / len(errors) if errors else 0.0

    def stats(self) -> dict[str, dict[str, list]]:
        """The figures as sections of pairs, GNU Backgammon's under its
        ``show statistics`` names (errors negative, rates in mEMG, as it
        prints them; ``expected.json`` of the test corpus has this shape),
        gamao's further figures beside them."""
        mwc = 100.0 if self.length else 1.0     # MWC in percent, points for money
        p = (0, 1)

        def r(x: float, n: int = 6) -> float:
            return round(x, n) + 0.0

        checker_total = [self.checker_error[i] for i in p]
        cube_total = [self.cube_error(i) for i in p]
        overall = [checker_total[i] + cube_total[i] for i in p]
        n_moves = self.moves[0] + self.moves[1]
        # (a player with no rolls in a record that states luck has 0)
        known = [self.luck_rolls[0] + self.luck_rolls[1] > 0] * 2
        out = {
            "checker": {
                "moves": list(self.moves), "unforced_moves": list(self.unforced),
                "error_total": [r(-x) for x in checker_total],
                "error_rate": [r(-1000 * self._per(checker_total[i], self.unforced[i]), 3)
                               for i in p],
                "error_total_mwc": [r(-mwc * self.checker_error_mwc[i]) for i in p],
                "unmarked": list(self.marked["none"]),
                "doubtful": list(self.marked["doubtful"]), "bad": list(self.marked["bad"]),
                "very_bad": list(self.marked["very bad"]),
            },
            "luck": {
                "luck_total": [r(self.luck[i]) if known[i] else None for i in p],
                "luck_rate": [r(1000 * self._per(self.luck[i], self.moves[i]), 3)
                              if known[i] else None for i in p],
                "luck_total_mwc": [r(mwc * self.luck_mwc[i]) if known[i] else None for i in p],
                **{key: [self.luck_marked[mark][i] if known[i] else None for i in p]
                   for key, mark in (("very_lucky", "very lucky"), ("lucky", "lucky"),
                                     ("unlucky", "unlucky"), ("very_unlucky", "very unlucky"))},
            },
            "cube": {
                "cube_decisions": list(self.cube_total),
                "close_cube_decisions": list(self.cube_close),
                "doubles": list(self.doubles), "takes": list(self.takes),
                "passes": list(self.passes),
                "error_total": [r(-x) for x in cube_total],
                "error_rate": [r(-1000 * self._per(cube_total[i], self.cube_close[i]), 3)
                               for i in p],
                "error_total_mwc": [r(-mwc * self.cube_error(i, True)) for i in p],
                **{k: list(v[0]) for k, v in self.cube_kinds.items()},
                **{k + "_error": [r(-x) for x in v[1]] for k, v in self.cube_kinds.items()},
            },
            "overall": {
                "error_total": [r(-x) for x in overall],
                "error_rate": [r(-1000 * self._per(overall[i],
                                                   self.unforced[i] + self.cube_close[i]), 3)
                               for i in p],
                "snowie_error_rate": [r(-1000 * self._per(overall[i], n_moves), 3) for i in p],
                "error_total_mwc": [r(-mwc * (self.checker_error_mwc[i]
                                              + self.cube_error(i, True))) for i in p],
            },
            "xg": {
                "pr": [r(self.pr(i), 3) for i in p],
                "decisions": [sum(1 for c in self.counted if c.player == i) for i in p],
                "error_total": [r(sum(c.error for c in self.counted if c.player == i))
                                for i in p],
            },
        }
        return out

    def to_json(self, decisions: bool = False) -> dict[str, Any]:
        """``{"analysed", "stats"}``, and with ``decisions`` the decisions PR counts."""
        out: dict[str, Any] = {"analysed": self.analysed, "stats": self.stats()}
        if decisions:
            out["counted_decisions"] = [c.to_json() for c in self.counted]
        return out


@dataclass
class MatchFigures(Figures):
    """A match's figures, with each game's (:attr:`games`)."""

    games: list = field(default_factory=list)


# -- one game ------------------------------------------------------------------

def _skill(error: float) -> str:
    """GNU Backgammon's ``Skill`` of a (negative) skill figure."""
    if error < -SKILL_VERY_BAD:
        return "very bad"
    if error < -SKILL_BAD:
        return "bad"
    if error < -SKILL_DOUBTFUL:
        return "doubtful"
    return "none"


def _cube_equities(c: CubeDecision, state: CubeState, met: MatchEquityTable
                   ) -> tuple[float, float, float, float] | None:
    """(optimal, no double, double/take, double/pass) in normalised equity,
    as ``FindCubeDecision`` has them; None for match winning chances at a
    score where winning and losing the cube give the same chance (a score
    past the match's end), which no equity measures."""
    nd, dt, dp = c.no_double, c.double_take, c.double_pass
    if c.unit == "mwc" and state.length:
        if met.win_chance(state, state.mover, state.mover) \
                == met.win_chance(state, state.mover, 1 - state.mover):
            return None
        nd, dt = met.mwc_to_equity(nd, state), met.mwc_to_equity(dt, state)
        dp = 1.0 if dp is None else met.mwc_to_equity(dp, state)
    elif dp is None:
        dp = 1.0
    if not state.cube_available():
        return nd, nd, dt, dp
    optimal = min(dt, dp) if dt >= nd and dp >= nd else nd
    return optimal, nd, dt, dp


def _stated(c: CubeDecision, which: str, computed: float) -> float:
    """The program's own error of a cube decision where it states one
    (eXtreme Gammon: "double" for the doubler's, "take" for the answer),
    else the one computed from the equities."""
    stated = (c.stated_errors or {}).get(which)
    return computed if stated is None else stated


class _GameWalk:
    """Follows one game's actions: the cube and who owns it, and the figures."""

    def __init__(self, game: m.Game, index: int, length: int, score: tuple[int, int],
                 crawford: bool, met: MatchEquityTable, cube_use: bool):
        self.game = game
        self.index = index
        self.f = Figures(length=length)
        self.length = length
        self.score = score
        self.crawford = crawford
        self.met = met
        self.cube_use = cube_use
        self.cube = 1
        self.owner: int | None = None
        self.offer: m.Double | None = None
        #: id(action) -> the state its decider saw (see :func:`decision_states`)
        self.states: dict[int, CubeState] = {}

    def note(self, a: m.ActionType, p: int, kind: str, error: float, skill: float,
             state: CubeState, counted: bool, forced: bool = False,
             mark: str | None = "") -> None:
        """Keep what one decision cost (:class:`DecisionError`); ``mark``
        the program's stated mark where the record states every mark, else
        the one the error's size gives."""
        mwc = -self.met.cost(skill, state) + 0.0 if self.length else None
        if mark == "":
            mark = _skill(-max(error, 0.0))
        self.f.errors.setdefault(id(a), []).append(
            DecisionError(p, kind, max(error, 0.0) + 0.0, mwc, counted, forced,
                          None if mark == "none" else mark))

    def state(self, mover: int) -> CubeState:
        return CubeState(self.length, self.score, self.cube, self.owner, mover, self.crawford)

    def run(self) -> Figures:
        for a in self.game.actions:
            if isinstance(a, (m.Take, m.Drop)) and self.offer is not None:
                self.states[id(a)] = self.state(self.offer.player)
            elif a.player in (0, 1):
                self.states[id(a)] = self.state(a.player)
            d = decisions_of(a) if a.analysis is not None else None
            if isinstance(a, (m.Play, m.Dance)):
                self.roll(a, d)
            elif isinstance(a, m.Double):
                if a.kind == "double" and self.offer is None and d is not None \
                        and d.cube is not None and self.cube_use:
                    self.double(d.cube, a)
                self.offer = a if self.offer is None else self.offer
                if a.kind != "double":
                    self.offer = a
            elif isinstance(a, (m.Take, m.Drop)):
                normal = self.offer is not None and self.offer.kind == "double"
                if normal and d is not None and d.cube is not None and self.cube_use:
                    self.answer(a, d.cube)
                if isinstance(a, m.Take) and self.offer is not None:
                    value = self.offer.value or 2 * self.cube
                    self.cube = value
                    self.owner = a.player if self.offer.kind == "double" else self.offer.player
                self.offer = None
        return self.f

    def roll(self, a: m.ActionType, d: Analysis | None) -> None:
        f, p = self.f, a.player
        f.moves[p] += 1
        state = self.state(p)
        if d is not None:
            f.analysed = True
        if d is not None and d.cube is not None and not d.cube.doubled and self.cube_use:
            self.no_double(d.cube, state, a)
        if d is not None and d.luck is not None:
            f.luck_rolls[p] += 1
            f.luck[p] += d.luck.value
            f.luck_mwc[p] += self.met.cost(d.luck.value, state)
            f.luck_marked[d.luck.mark or "none"][p] += 1
        checker = d.checker if d is not None else None
        if checker is None or isinstance(a, m.Dance):
            f.marked["none"][p] += 1
            return
        self.checker(checker, state, a)

    def checker(self, c: CheckerDecision, state: CubeState, a: m.ActionType) -> None:
        f, p = self.f, c.player
        loss = c.equity_loss or 0.0
        skill = -loss
        # the program's own marks where the record states them (decided on
        # the unrounded equities), else marks by the size of the loss
        mark = (c.mark or "none") if c.marks_stated else _skill(skill)
        f.marked[mark][p] += 1
        if c.forced:
            self.note(a, p, "checker", loss, skill, state, False, forced=True, mark=mark)
            return
        f.unforced[p] += 1
        f.checker_error[p] += loss
        f.checker_error_mwc[p] -= self.met.cost(skill, state)
        counts = self._checker_counts(c)
        if counts:
            f.counted.append(Counted(p, "checker", loss, self.index, a.move_number))
        self.note(a, p, "checker", loss, skill, state, counts, mark=mark)

    @staticmethod
    def _checker_counts(c: CheckerDecision) -> bool:
        if c.counts is not None:
            return c.counts
        return bool(c.candidates) and (
            c.candidates[0].equity - min(x.equity for x in c.candidates) >= PR_CHECKER_MIN)

    def _kind(self, name: str, p: int, skill: float, state: CubeState) -> None:
        entry = self.f.cube_kinds[name]
        entry[0][p] += 1
        entry[1][p] -= skill
        entry[2][p] -= self.met.cost(skill, state)

    def no_double(self, c: CubeDecision, state: CubeState, a: m.ActionType) -> None:
        f, p = self.f, c.player
        equities = _cube_equities(c, state, self.met)
        if equities is None:
            return
        optimal, nd, dt, dp = equities
        f.cube_total[p] += 1
        if optimal - min(dt, 1.0) < CLOSE_CUBE:
            f.cube_close[p] += 1
        skill = nd - optimal
        if nd < optimal:
            self._kind("missed_doubles_above_cp" if dt > 1.0 else "missed_doubles_below_cp",
                       p, -_stated(c, "double", -skill), state)
        cost = abs(optimal - (nd if optimal != nd else min(dt, dp)))
        counts = c.counts if c.counts is not None else PR_CUBE_MIN <= cost <= PR_CUBE_MAX
        if counts:
            f.counted.append(Counted(p, "cube", _stated(c, "double", -skill), self.index,
                                     a.move_number))
        self.note(a, p, "no double", _stated(c, "double", -skill), skill, state, counts)

    def double(self, c: CubeDecision, a: m.ActionType) -> None:
        f, p = self.f, c.player
        state = self.state(p)
        equities = _cube_equities(c, state, self.met)
        if equities is None:
            return
        optimal, nd, dt, dp = equities
        skill = min(dt, dp) - optimal
        f.cube_total[p] += 1
        f.doubles[p] += 1
        f.cube_close[p] += 1
        if skill < 0:
            self._kind("wrong_doubles_above_tg" if nd > 1.0 else "wrong_doubles_below_dp",
                       p, -_stated(c, "double", -skill), state)
        if c.counts is not False:
            f.counted.append(Counted(p, "cube", _stated(c, "double", max(0.0, -skill)),
                                     self.index, None))
        self.note(a, p, "double", _stated(c, "double", max(0.0, -skill)), min(skill, 0.0),
                  state, c.counts is not False)

    def answer(self, a: m.ActionType, c: CubeDecision) -> None:
        f, p = self.f, a.player
        state = self.state(c.player)   # as GNU Backgammon: the doubler is the one on roll
        equities = _cube_equities(c, state, self.met)
        if equities is None:
            return
        _optimal, _nd, dt, dp = equities
        f.cube_total[p] += 1
        f.cube_close[p] += 1
        if isinstance(a, m.Take):
            f.takes[p] += 1
            skill = dt - dp if -dt < -dp else 0.0   # should have passed
            if skill:
                self._kind("wrong_takes", p, -_stated(c, "take", skill), state)
            error = -skill if skill else 0.0
        else:
            f.passes[p] += 1
            skill = dp - dt if -dp < -dt else 0.0   # should have taken
            if skill:
                self._kind("wrong_passes", p, -_stated(c, "take", skill), state)
            error = -skill if skill else 0.0
        kind = "take" if isinstance(a, m.Take) else "pass"
        if c.counts is not False:
            f.counted.append(Counted(p, kind, _stated(c, "take", abs(error)), self.index,
                                     a.move_number))
        self.note(a, p, kind, _stated(c, "take", abs(error)), -abs(skill), state,
                  c.counts is not False)


# -- a match -------------------------------------------------------------------

def _scores(match: m.Match) -> Iterable[tuple[m.Game, tuple[int, int]]]:
    """Each game with the score before it: its score line, else the wins so far."""
    running = [0, 0]
    for g in match.games:
        scores = g.score.scores if g.score is not None else (None, None)
        score = (scores[0] if scores[0] is not None else running[0],
                 scores[1] if scores[1] is not None else running[1])
        yield g, score
        running = list(score)
        for w in g.wins():
            running[w.player] += w.points


def _on(match: m.Match, tag: str, default: bool) -> bool:
    value = match.tag(tag)
    if value is None:
        return default
    return value.strip().lower() in ("on", "yes", "true", "1")


def match_figures(match: m.Match, met: MatchEquityTable = KAZAROSS_XG2) -> MatchFigures:
    """The figures of every game of ``match`` and of the whole (the sum of
    its games', as GNU Backgammon adds them)."""
    return _walk(match, met)[0]


def decision_states(match: m.Match, met: MatchEquityTable = KAZAROSS_XG2
                    ) -> dict[int, CubeState]:
    """``id(action)`` -> the match and cube state its decider saw, as the
    figures see it (for a roll or a double the player acting, for an
    answer the doubler, whose equities a cube decision holds): what a
    writer needs to turn equities into match winning chances."""
    return _walk(match, met)[1]


def _walk(match: m.Match, met: MatchEquityTable) -> tuple[MatchFigures, dict[int, CubeState]]:
    total = MatchFigures(length=match.length)
    states: dict[int, CubeState] = {}
    crawford_rule = bool(match.length) and _on(match, "Crawford", True)
    cube_use = (match.tag("CubeLimit") or "").strip() != "1"
    crawford_played = False
    for index, (game, score) in enumerate(_scores(match), start=1):
        crawford = False
        if crawford_rule and not crawford_played and match.length - 1 in score:
            crawford = crawford_played = True
        walk = _GameWalk(game, index, match.length, score, crawford, met, cube_use)
        try:
            figures = walk.run()
        except ValueError:
            # a score the table does not hold (a match longer than it)
            figures = Figures(length=match.length)
        states.update(walk.states)
        total.games.append(figures)
        total.add(figures)
    return total, states


def has_analysis(match: m.Match) -> bool:
    """Whether any action of ``match`` carries an analysis in the decisions model."""
    return any(a.analysis is not None and decisions_of(a) is not None
               for g in match.games for a in g.actions)
