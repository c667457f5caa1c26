"""BGBlitz's analysis in a ``.bgf`` file, mapped into
:mod:`gamao_cli.analysis.decisions`.

A roll's record lists BGBlitz's plays (``moveAnalysis``: each play, its
evaluation, its depth, ``played`` on the play made). Its equity is the
evaluation's ``emg`` (the equivalent money game: what BGBlitz's own error
figures are measured in; for money play, where it has none, ``equity``).
BGBlitz's own error of the play made (the record's ``pr.checkerError``,
negative) is its stated error: on the samples the errors of a player's plays
add up to BGBlitz's figure for the match (``prGreen``/``prRed``
``checkerError``) to the last decimal.

The cube analysis BGBlitz writes beside (``cubeDecision``) and its luck are
kept in the action's mapping as written, not mapped into the model: gamao
has no record yet of whose side and which unit each of its equities is
(in match play they read as match winning chances, in money play their
signs differ), and a figure must not guess.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamao_cli.analysis.decisions import (Analysis, Candidate, CheckerDecision, Depth,
                                          Probabilities)
from ..base import LazyAnalysis

PROGRAM = "BGBlitz"


def _probabilities(c: Mapping[str, Any]) -> Probabilities | None:
    try:
        return Probabilities(c["win"], c["gammon"], c["backgammon"], c["opp_gammon"],
                             c["opp_backgammon"])
    except KeyError:
        return None


def decode(parsed: Mapping[str, Any], player: int, dice: tuple[int, int] | None
           ) -> Analysis | None:
    cands = parsed.get("candidates") or []
    if dice is None or not cands:
        return None
    ply = parsed.get("ply")
    depth = Depth(PROGRAM, "evaluation", ply, True, f"{ply}-ply") if ply is not None else None
    out = []
    for c in cands:
        equity = c.get("emg", c.get("equity"))
        if equity is None or c.get("play") is None:
            return None
        out.append(Candidate(c["play"], equity, _probabilities(c), depth))
    played = next((i for i, c in enumerate(cands) if c.get("played")), None)
    error = parsed.get("checker_error")
    checker = CheckerDecision(player=player, dice=dice, candidates=tuple(out), played=played,
                              forced=len(out) <= 1, depth=depth,
                              stated_error=None if error is None else round(-error, 8) + 0.0)
    return Analysis(PROGRAM, checker=checker)


class BgfAnalysis(LazyAnalysis):
    """BGBlitz's analysis of one action: a read-only JSON-ready mapping (what
    :func:`.reader.analysis_of` keeps, and ``"decisions"``), whose
    :attr:`decisions` is the model, made when first read."""

    __slots__ = ("_parsed", "_args", "_decisions", "_data")

    def __init__(self, parsed: dict, player: int, dice: tuple[int, int] | None):
        self._parsed = parsed
        self._args: tuple | None = (player, dice)
        self._decisions: Analysis | None = None
        self._data: dict | None = None

    def __bool__(self) -> bool:
        return True

    @property
    def decisions(self) -> Analysis | None:
        if self._args is not None:
            self._decisions = decode(self._parsed, *self._args)
            self._args = None
        return self._decisions

    def _dict(self) -> dict:
        if self._data is None:
            data = dict(self._parsed)
            if self.decisions is not None:
                data["decisions"] = self.decisions.to_json()
            self._data = data
        return self._data

