"""BGBlitz's analysis in a ``.bgf`` file, mapped into
:mod:`gamao_cli.analysis.decisions`.

As read on the samples of ``corpus2/bgf`` (each figure below checked on
them by ``tests/formats/test_bgf_figures.py``):

- **Plays.** A roll's record lists BGBlitz's plays (``moveAnalysis``: each
  play, its evaluation, its depth, ``played`` on the play made). Its equity
  is the evaluation's ``emg`` (the equivalent money game, cubeful: what
  BGBlitz's own error figures are measured in; for money play, where it has
  none, the cubeful equity of its cube analysis, ``eqCubeFul``: the
  difference to the best is BGBlitz's error of the play, to the last
  decimal, on every rated play of the samples), its steps BGBlitz's movements (one a die, in the mover's
  numbering). BGBlitz's own error of the play made (the record's
  ``pr.checkerError``, negative) is its stated error; a ``checkerError`` of
  -99 marks a play BGBlitz's figures leave out (a forced play, a bear-off
  with nothing to choose): the decision does not count (``counts``).
- **Cube.** The record's evaluation before the action (``equity``) holds
  BGBlitz's cube analysis (``cubeDecision``): the cubeful equities of no
  double, double/take and double/pass of the player acting, in match play
  as match winning chances (double/pass is then the chance of cashing the
  cube), for money normalised to a 1-cube (double/pass 1.0). On a roll (or
  a roll with no play) it is the roller's decision before he rolled, not
  doubling; on a double, the doubler's; on a take or a pass the same
  decision seen by the player answering (his chances, 1 less the doubler's,
  or for money the doubler's equities negated): turned to the doubler's,
  as the model has them. ``pr.cubeError`` (negative, EMG) is BGBlitz's own
  error of the action: the stated error of doubling or not ("double"), or
  of the answer ("take"); -99 marks a decision its figures leave out (an
  obvious one: a correct double, a pass of a double that is a pass, a
  no-double far from doubling).
- **Luck.** ``luck`` of a roll: ``luckPlain``, the roll's luck in match
  winning chances in a match, in EMG for money; ``luckWeighted``, the same
  normalised to a 1-cube in a match (EMG), in points for money (times the
  cube). gamao's luck is EMG normalised to a 1-cube: ``luckWeighted`` in a
  match, ``luckPlain`` for money.

BGBlitz's own figures of a game (``prGreen``, ``prRed``, ``luck``) stay the
record's stated figures beside gamao's (:func:`.reader.stated_figures`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamao_cli.analysis.decisions import (Analysis, Candidate, CheckerDecision, CubeDecision,
                                          Depth, Luck, Probabilities)
from ..base import ParsedAnalysis

PROGRAM = "BGBlitz"


def _probabilities(c: Mapping[str, Any]) -> Probabilities | None:
    try:
        return Probabilities(c["win"], c["gammon"], c["backgammon"], c["opp_gammon"],
                             c["opp_backgammon"])
    except KeyError:
        return None


def candidate_equity(c: Mapping[str, Any]) -> float | None:
    """The equity BGBlitz's errors measure a candidate by: its ``emg`` (in a
    match, cubeful), else (money, where BGBlitz writes no EMG) its cubeful
    equity, else its ``equity`` (cubeless)."""
    for key in ("emg", "cubeful", "equity"):
        if c.get(key) is not None:
            return c[key]
    return None


def _checker(parsed: Mapping[str, Any], player: int, dice: tuple[int, int] | None,
             depth: Depth | None) -> CheckerDecision | None:
    cands = parsed.get("candidates") or []
    if dice is None or not cands:
        return None
    out = []
    for c in cands:
        equity = candidate_equity(c)
        if equity is None or c.get("play") is None:
            return None
        out.append(Candidate(c["play"], equity, _probabilities(c), depth,
                             tuple((a, b) for a, b in c.get("steps") or ())))
    played = next((i for i, c in enumerate(cands) if c.get("played")), None)
    error = parsed.get("checker_error")
    return CheckerDecision(player=player, dice=dice, candidates=tuple(out), played=played,
                           forced=len(out) <= 1, depth=depth,
                           stated_error=None if error is None else round(-error, 8) + 0.0,
                           counts=parsed.get("checker_counted"))


def _cube(parsed: Mapping[str, Any], player: int, kind: str, money: bool,
          depth: Depth | None) -> CubeDecision | None:
    before = parsed.get("equity_before") or {}
    c = before.get("cube") or {}
    if not all(k in c for k in ("no_double", "double_take", "double_pass")):
        return None
    answer = {"take": "take", "pass": "pass"}.get(kind)
    if kind == "roll" and c.get("doubled"):
        return None     # the doubler's decision, on his double
    nd, dt, dp = c["no_double"], c["double_take"], c["double_pass"]
    doubler = player
    if answer is not None:      # the answering player's view: the doubler's
        doubler = 1 - player
        nd, dt, dp = ((-x + 0.0 for x in (nd, dt, dp)) if money
                      else (round(1.0 - x, 8) + 0.0 for x in (nd, dt, dp)))
    error = parsed.get("cube_error")
    stated = None
    if error is not None:
        stated = {"take" if answer is not None else "double": round(-error, 8) + 0.0}
    return CubeDecision(player=doubler, no_double=nd, double_take=dt, double_pass=dp,
                        doubled=kind != "roll", answer=answer,
                        unit="emg" if money else "mwc", depth=depth, stated_errors=stated,
                        counts=parsed.get("cube_counted"))


def _luck(parsed: Mapping[str, Any], player: int, kind: str, money: bool) -> Luck | None:
    value = parsed.get("luck" if money else "luck_weighted")
    if kind != "roll" or value is None:
        return None
    return Luck(player, value)


def decode(parsed: Mapping[str, Any], player: int, dice: tuple[int, int] | None,
           kind: str | None = "roll", money: bool = False) -> Analysis | None:
    """The :class:`Analysis` of one record (``kind``: "roll" for a roll or
    a roll with no play, "double", "take", "pass"; ``money``: a money
    session)."""
    if kind is None:
        return None
    ply = parsed.get("ply")
    depth = Depth(PROGRAM, "evaluation", ply, True, f"{ply}-ply") if ply is not None else None
    result = Analysis(PROGRAM, checker=_checker(parsed, player, dice, depth)
                      if kind == "roll" else None,
                      cube=_cube(parsed, player, kind, money, depth),
                      luck=_luck(parsed, player, kind, money))
    return result if result else None


class BgfAnalysis(ParsedAnalysis):
    """BGBlitz's analysis of one action: a read-only JSON-ready mapping (what
    :func:`.reader.analysis_of` keeps, and ``"decisions"``), whose
    :attr:`decisions` is the model, made when first read."""

    __slots__ = ()

    def __init__(self, parsed: dict, player: int, dice: tuple[int, int] | None,
                 kind: str | None = "roll", money: bool = False):
        super().__init__(parsed, decode, player, dice, kind, money)
