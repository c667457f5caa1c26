"""eXtreme Gammon's analysis of an action, mapped into
:mod:`gamao_cli.analysis.decisions`.

What each record gives (``records.py`` names the fields):

- a move record: the engine's list of plays (``candidates``, best first, each
  with XG's seven figures; the equity is normalised to a 1-cube, EMG), the
  play made (found in the list by its steps), XG's own error of it
  (``error``, EMG, 0 for the best, -1000 when not analysed) and the luck of
  the roll (``luck``, EMG); a list of one play is a forced roll;
- a cube record: the no-double, double/take and double/pass cubeful
  equities of the player who may double (EMG: double/pass is 1.0) and XG's
  errors of the double (or of not doubling) and of the answer, as positive
  magnitudes (a move's error is stored negative). A cube record where the player
  did not double (``double == 0``) is that player's no-double, which the
  model keeps on the roll that follows it (as GNU Backgammon does);
  records where the cube was not available (-2) or no decision was made
  (-1) are no decision;
- XG's own mark ``invalid`` (0 fine): a decision XG marks is not counted
  (``counts`` False); the samples hold no other flag.

The analysis depth is XG's level number, as XG states it (``XG level 3``);
what level is which search XG does not say in the file.
"""
from __future__ import annotations

from typing import Any

from gamao_cli import model as m
from gamao_cli.analysis.decisions import (Analysis, Candidate, CheckerDecision, CubeDecision,
                                          Depth, Luck, Probabilities)

from . import records as r
from .play_text import play_text as _play_text

PROGRAM = "eXtreme Gammon"
#: XG's level for a rollout (its PLAYERLEVEL table: 100 and up roll out).
ROLLOUT_LEVEL = 100


def _figure(value: float) -> float | None:
    """An XG figure, None for XG's 'not analysed' (-1000)."""
    return None if value <= r.NOT_ANALYSED + 0.5 else float(value)


def _depth(level: int) -> Depth:
    kind = "rollout" if ROLLOUT_LEVEL <= level < 1000 else "evaluation"
    return Depth(PROGRAM, kind, None, None, f"XG level {level}")


def _probabilities(e: r.Evaluation) -> Probabilities:
    return Probabilities(e.win, e.gammon, e.backgammon, e.opp_gammon, e.opp_backgammon)


def _gp(xg_player: int) -> int:
    return 0 if xg_player == 1 else 1


def checker_decision(action: Any, record: r.CheckerMove) -> CheckerDecision | None:
    """The checker decision of a move record (None when XG analysed none)."""
    cands = record.candidates
    error = _figure(record.error)
    if not cands and error is None:
        return None
    made = sorted(record.steps)
    played = next((i for i, c in enumerate(cands) if sorted(c.steps) == made), None)
    candidates = tuple(Candidate(_play_text(c.steps), float(c.evaluation.equity),
                                 _probabilities(c.evaluation), _depth(c.level), c.steps)
                       for c in cands)
    return CheckerDecision(player=_gp(record.player), dice=tuple(record.dice),
                           candidates=candidates, played=played, forced=len(cands) <= 1,
                           depth=_depth(record.analysis_level),
                           stated_error=None if error is None else -error + 0.0,
                           counts=False if record.invalid else None)


def cube_decision(record: r.CubeAction, answer: str | None) -> CubeDecision | None:
    """The cube decision of a cube record (None when XG analysed none)."""
    a = record.analysis
    if a is None or record.double not in (0, 1):
        return None
    # XG keeps a cube error as a magnitude (a move's error is negative)
    errors = {k: abs(v) for k, v in (("double", _figure(record.error_double)),
                                       ("take", _figure(record.error_take)))
              if v is not None}
    return CubeDecision(player=_gp(record.player), no_double=float(a.equity_no_double),
                        double_take=float(a.equity_double_take),
                        double_pass=float(a.equity_double_pass), doubled=record.double == 1,
                        answer=answer, unit="emg", probabilities=_probabilities(a.no_double),
                        depth=_depth(a.level), stated_errors=errors or None,
                        counts=False if record.invalid else None)


def decisions(action: Any, record: Any, no_double: r.CubeAction | None = None
              ) -> Analysis | None:
    """XG's analysis of ``action`` (its record; for a roll, the cube record
    where its player did not double before it, if any)."""
    if isinstance(record, r.CheckerMove):
        checker = checker_decision(action, record) \
            if isinstance(action, m.Play) else None
        luck = _figure(record.luck)
        cube = cube_decision(no_double, None) if no_double is not None else None
        out = Analysis(PROGRAM, checker=checker, cube=cube,
                       luck=None if luck is None else Luck(_gp(record.player), luck))
        return out if out else None
    if isinstance(record, r.CubeAction):
        answer = None
        if isinstance(action, m.Take):
            answer = "take"
        elif isinstance(action, m.Drop):
            answer = "pass"
        elif isinstance(action, m.Double) and action.kind != "double":
            answer = "beaver"
        cube = cube_decision(record, answer)
        return None if cube is None else Analysis(PROGRAM, cube=cube)
    return None
