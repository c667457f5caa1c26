"""gnubg's analysis in its text export, mapped into
:mod:`gamao_cli.analysis.decisions`.

The parsed block (:func:`.analysis.block_analysis`) of each action becomes an
:class:`~gamao_cli.analysis.decisions.Analysis`, as GNU Backgammon's own
move records hold it:

- a roll: the roller's cube decision before the roll (``Cube analysis``:
  a no-double), and the checker decision (``Rolled DD:``, the ranked list,
  ``*`` the play made; one candidate or none: forced, as gnubg lists every
  legal play of a forced roll alone);
- ``* NAME doubles``: the doubler's cube decision;
- ``* NAME accepts`` / ``rejects``: the same decision, which the export
  writes from the taker's side (its equities negated): turned to the
  doubler's, as the model has it, with the answer.

Equities are as the export prints them: normalised to a 1-cube (EMG), 3
decimals. The loss of the play made is the export's own ``(-0.041)`` beside
it (the decision's stated error: gnubg's difference of its unrounded
equities, rounded once, so within 0.0005 where the difference of two rounded
equities is within 0.001). The export prints no luck; its skill marks
(``Alert: bad move``, ``Alert: missed double ... [bad]``) are kept as the
decisions' marks, and every play's mark is stated (no ``Alert``: no mark),
so the figures count them (gnubg decided them on its unrounded equities; a
loss printed 0.030 may be marked or not). The "Game statistics" block is
gnubg's own figures, never read into these.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamao_cli.analysis.decisions import (Analysis, Candidate, CheckerDecision, CubeDecision,
                                          Depth, Probabilities)
from gamao_cli.model import parse_steps
from ..base import ParsedAnalysis

PROGRAM = "GNU Backgammon"
_MARKS = ("doubtful", "bad", "very bad")


def _probabilities(d: Mapping[str, float] | None) -> Probabilities | None:
    if not d or "win" not in d:
        return None
    return Probabilities(d["win"], d["gammon"], d["backgammon"], d["opp_gammon"],
                         d["opp_backgammon"])


def _depth(ply: int | None, cubeful: bool | None = True) -> Depth | None:
    if ply is None:
        return None
    return Depth(PROGRAM, "evaluation", ply, cubeful, f"{ply}-ply")


def _marks(alerts: list[dict]) -> tuple[str | None, str | None]:
    """(checker mark, cube mark) of a block's alerts."""
    checker = cube = None
    for a in alerts:
        words = a["alert"]
        if words.endswith(" move"):
            mark = words[:-len(" move")]
            checker = mark if mark in _MARKS else checker
        else:
            mark = a.get("mark") or "doubtful"
            cube = mark if mark in _MARKS else cube
    return checker, cube


def _steps(play: str) -> tuple[tuple[int, int], ...]:
    """A candidate's movements as gnubg writes them (``24/14 6/4*(2)``:
    each written hop, repeated), in the mover's numbering (25 the bar, 0
    off): a hop over two dice stays one movement, as the text has it; none
    when the text is not a play gamao reads."""
    try:
        steps = parse_steps(play)
    except ValueError:
        return ()
    out = []
    for s in steps:
        hops = tuple(zip(s.points, s.points[1:]))
        out.extend(hops * s.repeat)
    if not out or len(out) > 8 or not all(0 < a <= 25 and 0 <= b < 25 for a, b in out):
        return ()
    return tuple(out)


def _stated_loss(cands: list[dict], made: int | None) -> float | None:
    """The loss of the play made as the export prints it, its ``(-0.041)``
    beside the play's equity: gnubg's difference of the unrounded equities,
    rounded once (within 0.0005), where the difference of the two rounded
    equities may be 0.001 off. The best play's loss is 0."""
    if made is None:
        return None
    if made == 0:
        return 0.0
    diff = cands[made].get("difference")
    return None if diff is None else -diff + 0.0


def _stated_cube_errors(diffs: Mapping[str, float] | None, sign: float, doubled: bool,
                        answer: str | None) -> dict[str, float] | None:
    """The errors of a cube decision from the export's differences (each
    line's ``(+0.989)``, gnubg's difference to the first line of its
    unrounded equities, rounded once): "double", the error of doubling or
    of not doubling, and "take", the error of the answer, as positive
    magnitudes measured as :mod:`gamao_cli.analysis.figures` measures them
    from the equities (an error against the first line is then within
    0.0005, where two rounded equities give 0.001). ``sign`` -1 turns an
    answer's block (the taker's view) to the doubler's."""
    if not diffs or not all(k in diffs for k in ("no_double", "double_take",
                                                   "double_pass")):
        return None
    nd, dt, dp = (sign * diffs[k] for k in ("no_double", "double_take", "double_pass"))
    optimal = min(dt, dp) if dt >= nd and dp >= nd else nd
    out = {"double": optimal - min(dt, dp) if doubled else optimal - nd}
    if answer is not None:
        out["take"] = max(dt - dp, 0.0) if answer == "take" else max(dp - dt, 0.0)
    return {k: round(v, 6) + 0.0 for k, v in out.items()}


def decode(parsed: Mapping[str, Any], kind: str, player: int,
           dice: tuple[int, int] | None) -> Analysis | None:
    """The :class:`Analysis` of one block (``kind``: "roll", "double",
    "take", "drop"; ``player``: who acts)."""
    checker_mark, cube_mark = _marks(parsed.get("alerts") or [])
    checker = cube = None
    cands = parsed.get("candidates") or []
    if kind == "roll" and cands and dice is not None:
        made = next((i for i, c in enumerate(cands) if c.get("played")), None)
        out = tuple(Candidate(c["play"], c["equity"], _probabilities(c),
                              _depth(c.get("ply"), c.get("cubeful")), _steps(c["play"]))
                    for c in cands)
        checker = CheckerDecision(player=player, dice=dice, candidates=out, played=made,
                                  forced=len(out) <= 1, depth=out[0].depth,
                                  stated_error=_stated_loss(cands, made),
                                  mark=checker_mark, marks_stated=True)
    c = parsed.get("cube")
    if c and "no_double" in c and "double_take" in c:
        answer = {"take": "take", "drop": "pass"}.get(kind)
        sign = -1.0 if answer is not None else 1.0   # an answer's block is the taker's view
        probs = _probabilities(c.get("probabilities"))
        if probs is not None and answer is not None:
            p = c["probabilities"]
            probs = Probabilities(p["opp_win"], p["opp_gammon"], p["opp_backgammon"],
                                  p["gammon"], p["backgammon"])
        dp = c.get("double_pass")
        errors = _stated_cube_errors(c.get("differences"), sign, kind != "roll", answer)
        cube = CubeDecision(player=player if answer is None else 1 - player,
                            no_double=sign * c["no_double"] + 0.0,
                            double_take=sign * c["double_take"] + 0.0,
                            double_pass=None if dp is None else sign * dp + 0.0,
                            doubled=kind != "roll", answer=answer, unit="emg",
                            probabilities=probs, depth=_depth(c.get("ply"), None),
                            stated_errors=errors,
                            mark=cube_mark if answer is None else None,
                            answer_mark=cube_mark if answer is not None else None)
    result = Analysis(PROGRAM, checker=checker, cube=cube)
    return result if result else None


class TextAnalysis(ParsedAnalysis):
    """gnubg's analysis of one action in its text export: a read-only
    JSON-ready mapping (what :func:`.analysis.block_analysis` parsed, and
    ``"decisions"``, the model as JSON), whose :attr:`decisions` is the
    :class:`~gamao_cli.analysis.decisions.Analysis`, made when first read."""

    __slots__ = ()

    def __init__(self, parsed: dict, kind: str, player: int, dice: tuple[int, int] | None):
        super().__init__(parsed, decode, kind, player, dice)

