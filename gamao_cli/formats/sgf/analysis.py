"""GNU Backgammon's analysis properties, mapped into :mod:`gamao_cli.analysis.decisions`.

GNU Backgammon's ``sgf.c`` writes, on the node of an action:

- ``A[i][move E ver 3 p0 p1 p2 p3 p4 eq plies[C] 0 det noise prune]...``: the
  checker analysis of a roll: ``i`` the rank (from 0) of the play made, then
  every legal play, best first, with its five cubeless chances and its
  equity (normalised to a 1-cube, EMG); a rolled-out play reads ``move X ver
  3 Score eq eq2 Trials n Output o0..o6 StdDev ...``;
- ``DA[E ver 3 plies[C] det noise prune o0..o6 o0..o6]``: the cube analysis,
  GNU Backgammon's two output rows (no double; double, take): five chances,
  the cubeless equity and the cubeful one; in match play the cubeful figures
  are match winning chances, for money EMG (double/take already doubled). A
  rollout reads ``X ver 3 Eq Trials n NoDouble Output ... DoubleTake Output
  ...``. On a roll's node it is the roller's no-double; on a double's, a
  take's or a drop's node the doubler's decision;
- ``LU[x]``: the luck of the roll (EMG); ``GW[n]``/``GB[n]``: the roll was
  lucky (1) or very lucky (2) for White/Black (an unlucky roll is marked as
  lucky for the other side);
- ``BM[1]``/``BM[2]``/``DO[]``: the play (on an answer's node: the answer)
  marked bad / very bad / doubtful; ``BC``/``DC``: the same for the cube.

``GS`` (the statistics GNU Backgammon saved) is never read into a figure.

The reader keeps these values as written and hangs a :class:`SgfAnalysis`
on the action; nothing is decoded until a consumer reads it, so checking a
match costs nothing more.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, Callable

from gamao_cli.analysis.decisions import (Analysis, Candidate, CheckerDecision, CubeDecision,
                                          Depth, Luck, Probabilities)
from gamao_cli.model.notation import BoundedCache, format_steps
from ..base import LazyAnalysis

PROGRAM = "GNU Backgammon"
#: The properties of an action's node that hold its analysis.
PROPERTIES = frozenset({"A", "DA", "LU", "BM", "DO", "BC", "DC", "GW", "GB"})

_SKILL = {"1": "bad", "2": "very bad"}


_MOVE = re.compile(r"(?:[a-y][a-z]){0,4}")


def _floats(tokens: list[str]) -> list[float]:
    """The numbers of ``tokens``; a value no program writes (``nan``,
    ``inf``) raises ValueError, as a word does."""
    out = list(map(float, tokens))
    # (a finite sum has no infinity nor NaN in it: one test for most values)
    if not math.isfinite(sum(out)) and not all(math.isfinite(x) for x in out):
        raise ValueError(" ".join(tokens))
    return out


def _eval_depth(token: str) -> Depth:
    """``0C``, ``2``: GNU Backgammon's plies, C when cubeful. (A Depth is
    frozen: one for each token, kept in ``_DEPTHS``.)"""
    depth = _DEPTHS.get(token)
    if depth is None:
        cubeful = token.endswith("C")
        plies = int(token[:-1] if cubeful else token)
        depth = Depth(PROGRAM, "evaluation", plies, cubeful, f"{plies}-ply")
        if len(_DEPTHS) < 64:
            _DEPTHS[token] = depth
    return depth


_DEPTHS: dict[str, Depth] = {}


_ROLLOUT = Depth(PROGRAM, "rollout", None, None, "rollout")


def _after(tokens: list[str], *words: str) -> int:
    """The index just after the first run of ``words`` in ``tokens``."""
    n = len(words)
    for i in range(len(tokens) - n + 1):
        if tokens[i:i + n] == list(words):
            return i + n
    raise ValueError(" ".join(words))


#: a candidate's move letters, with the player and the letters' reading, as
#: its die steps and play text: three in four candidates of an archive's
#: analysis are a move some earlier candidate had
_MOVES: BoundedCache[tuple, tuple[tuple, str]] = BoundedCache(1 << 16)


def candidate(value: str, player: int, point_of: Callable[[str, int], int]) -> Candidate:
    """One value of ``A`` (after the rank) as a :class:`Candidate`.

    >>> from gamao_cli.formats.sgf.reader import letter_point
    >>> c = candidate("agln E ver 3 0.507380 0.133161 0.006572 0.140586 0.005943 "
    ...               "0.013852 0C 0 1 0.000000 1", 1, letter_point)
    >>> c.play, c.equity, c.probabilities.win, c.depth.text
    ('24/18 13/11', 0.013852, 0.50738, '0-ply')
    """
    move, _, rest = value.strip().partition(" ")
    key = (move, player, point_of)
    found = _MOVES.data.get(key)
    if found is None:
        if not _MOVE.fullmatch(move):
            raise ValueError(value)
        steps = tuple((point_of(move[i], player), point_of(move[i + 1], player))
                      for i in range(0, len(move) - 1, 2))
        found = _MOVES.put(key, (steps, format_steps([(s, d, False) for s, d in steps])))
    steps, play = found
    tokens = rest.split()
    if tokens[:1] == ["E"]:
        at = tokens.index("ver") + 2   # (ValueError without it, as _after raises)
        figures = _floats(tokens[at:at + 6])
        if len(figures) != 6:
            raise ValueError(value)
        return Candidate(play, figures[5], Probabilities(*figures[:5]),
                         _eval_depth(tokens[at + 6]), steps)
    if tokens[:1] == ["X"]:
        at = _after(tokens, "Score")
        out = _after(tokens, "Output")
        figures = _floats(tokens[out:out + 5])
        if len(figures) != 5:
            raise ValueError(value)
        return Candidate(play, _floats(tokens[at:at + 1])[0], Probabilities(*figures), _ROLLOUT,
                         steps)
    raise ValueError(value)


def cube_rows(value: str) -> tuple[list[float], list[float], Depth]:
    """The two output rows of a ``DA`` value and its depth.

    >>> nd, dt, depth = cube_rows("E ver 3 0C 1 0.000000 1 0.49 0.14 0.005 0.13 0.006 -0.007 "
    ...                           "0.4993 0.49 0.14 0.005 0.13 0.006 -0.007 0.4818")
    >>> nd[6], dt[6], depth.text
    (0.4993, 0.4818, '0-ply')
    """
    tokens = value.split()
    if tokens[:1] == ["E"]:
        at = _after(tokens, "ver") + 1
        depth = _eval_depth(tokens[at])
        figures = _floats(tokens[at + 4:at + 18])
        if len(figures) != 14:
            raise ValueError(value)
        return figures[:7], figures[7:], depth
    if tokens[:1] == ["X"]:
        nd = _after(tokens, "NoDouble", "Output")
        dt = _after(tokens, "DoubleTake", "Output")
        rows = _floats(tokens[nd:nd + 7]), _floats(tokens[dt:dt + 7])
        if len(rows[0]) != 7 or len(rows[1]) != 7:
            raise ValueError(value)
        return rows[0], rows[1], _ROLLOUT
    raise ValueError(value)


def _mark(props: Mapping[str, list[str]], bad: str, doubtful: str) -> str | None:
    if bad in props:
        return _SKILL.get((props[bad] or ["1"])[0].strip(), "bad")
    if doubtful in props:
        return "doubtful"
    return None


def _luck_mark(props: Mapping[str, list[str]], player: int) -> str | None:
    mine, theirs = ("GW", "GB") if player == 0 else ("GB", "GW")
    for name, words in ((mine, ("lucky", "very lucky")), (theirs, ("unlucky", "very unlucky"))):
        if name in props:
            return words[1] if (props[name] or ["1"])[0].strip() == "2" else words[0]
    return None


def decode(props: Mapping[str, list[str]], kind: str, player: int, dice: tuple[int, int] | None,
           match_play: bool, point_of: Callable[[str, int], int]) -> Analysis | None:
    """The :class:`Analysis` of one node's analysis properties (``kind``:
    "roll", "double", "take", "drop"; ``player``: who acts); None when they
    hold none gamao can read."""
    checker = cube = luck = None
    a = props.get("A")
    if kind == "roll" and a and dice is not None:
        try:
            rank = int(a[0])
            cands = tuple(candidate(v, player, point_of) for v in a[1:])
        except (ValueError, IndexError):
            cands, rank = (), None
        if cands:
            checker = CheckerDecision(player=player, dice=dice, candidates=cands,
                                      played=rank if rank is not None and 0 <= rank < len(cands)
                                      else None, forced=len(cands) <= 1,
                                      depth=cands[0].depth,
                                      mark=_mark(props, "BM", "DO"))
    da = props.get("DA")
    if da:
        try:
            nd, dt, depth = cube_rows(da[0])
        except (ValueError, IndexError):
            nd = None
        if nd is not None:
            doubler = player if kind in ("roll", "double") else 1 - player
            answer = {"take": "take", "drop": "pass"}.get(kind)
            mark = _mark(props, "BC", "DC") if kind in ("roll", "double") else None
            answer_mark = None
            if answer is not None:
                answer_mark = _mark(props, "BM", "DO") or _mark(props, "BC", "DC")
            cube = CubeDecision(player=doubler, no_double=nd[6], double_take=dt[6],
                                double_pass=None if match_play else 1.0,
                                doubled=kind != "roll", answer=answer,
                                unit="mwc" if match_play else "emg",
                                probabilities=Probabilities(*nd[:5]), depth=depth, mark=mark,
                                answer_mark=answer_mark)
    lu = props.get("LU")
    if lu and kind == "roll":
        try:
            luck = Luck(player, _floats(lu[:1])[0], "emg", _luck_mark(props, player))
        except ValueError:
            luck = None
    result = Analysis(PROGRAM, checker=checker, cube=cube, luck=luck)
    return result if result else None


class SgfAnalysis(LazyAnalysis):
    """GNU Backgammon's analysis of one action, decoded when first read: a
    read-only JSON-ready mapping (``"source"``, ``"decisions"`` -- the
    :class:`~gamao_cli.analysis.decisions.Analysis` as JSON -- and the
    columns the analysts' tables have: ``equity``, ``best_equity``,
    ``equity_loss``, ``luck``, ``win_probability``, ``gammon_probability``,
    ``analysis_depth``), whose :attr:`decisions` is the model."""

    __slots__ = ("_args", "_decisions", "_data")

    def __init__(self, props: dict[str, list[str]], kind: str, player: int,
                 dice: tuple[int, int] | None, match_play: bool,
                 point_of: Callable[[str, int], int]):
        self._args: tuple | None = (props, kind, player, dice, match_play, point_of)
        self._decisions: Analysis | None = None
        self._data: dict | None = None

    def __bool__(self) -> bool:   # without decoding
        return True

    @property
    def decisions(self) -> Analysis | None:
        if self._args is not None:
            self._decisions = decode(*self._args)
            self._args = None
        return self._decisions

    def _dict(self) -> dict:
        if self._data is None:
            self._data = _columns(self.decisions)
        return self._data

    def figures(self, names: Iterable[str]) -> dict[str, Any]:
        if self._data is not None:
            return super().figures(names)
        made = _figures(self.decisions)   # without the decisions' JSON
        return {name: made.get(name) for name in names}


def _columns(a: Analysis | None) -> dict[str, Any]:
    out: dict[str, Any] = {"source": PROGRAM}
    if a is None:
        return out
    out["decisions"] = a.to_json()
    out.update(_figures(a))
    return out


def _figures(a: Analysis | None) -> dict[str, Any]:
    """The figures of the mapping (:func:`_columns` but ``source`` and
    ``decisions``): those of them the analysis holds."""
    out: dict[str, Any] = {}
    if a is None:
        return out
    c = a.checker
    if c is not None:
        best = c.candidates[0]
        out["best_equity"] = best.equity
        if c.depth is not None:
            out["analysis_depth"] = c.depth.text
        if c.played is not None:
            made = c.candidates[c.played]
            out["equity"] = made.equity
            out["equity_loss"] = round(best.equity - made.equity, 6) + 0.0
            if made.probabilities is not None:
                out["win_probability"] = made.probabilities.win
                out["gammon_probability"] = made.probabilities.win_gammon
    elif a.cube is not None and a.cube.depth is not None:
        out["analysis_depth"] = a.cube.depth.text
    if a.luck is not None:
        out["luck"] = a.luck.value
    return out


# -- writing -------------------------------------------------------------------

def _f(x: float) -> str:
    return f"{x:.6f}"


def _plies(depth: Depth | None) -> tuple[str, bool]:
    """GNU Backgammon's plies token of a depth, and whether SGF says it as it
    is (a depth of another program, or a rollout, is written as 0-ply)."""
    if depth is not None and depth.program == PROGRAM and depth.kind == "evaluation" \
            and depth.plies is not None:
        return f"{depth.plies}{'C' if depth.cubeful is not False else ''}", True
    return "0C", depth is None


def _cubeless(p: Probabilities | None) -> tuple[list[str], float]:
    if p is None:
        return [_f(0.5), _f(0.0), _f(0.0), _f(0.0), _f(0.0)], 0.0
    equity = (2 * p.win - 1 + p.win_gammon - p.lose_gammon + p.win_backgammon
              - p.lose_backgammon)
    return [_f(p.win), _f(p.win_gammon), _f(p.win_backgammon), _f(p.lose_gammon),
            _f(p.lose_backgammon)], equity


def properties(a: Analysis, kind: str, state: Any, met: Any,
               letter_of: Callable[[int, int], str],
               played_steps: tuple[tuple[int, int], ...] | None = None) -> tuple[str, list[str]]:
    """GNU Backgammon's properties for one action's analysis (``kind`` as
    for :func:`decode`; ``state`` the decider's
    :class:`~gamao_cli.analysis.met.CubeState`, for a match's equities as
    winning chances; ``played_steps`` the die steps of the play made), and
    the depths SGF could not say as they are.

    A checker decision whose play made is not in the program's list (eXtreme
    Gammon lists ten at most) gets it added last, with the best equity less
    the program's error of it, so that GNU Backgammon counts the same error.
    Raises ValueError for a candidate SGF cannot spell (a point off the board)."""
    out: list[str] = []
    unsaid: list[str] = []
    c = a.checker
    if c is not None and kind == "roll" and c.candidates:
        values = []
        played = c.played
        cands = list(c.candidates)
        if played is None and c.stated_error is not None and played_steps:
            best = cands[0]
            cands.append(Candidate("", best.equity - c.stated_error, best.probabilities,
                                   best.depth, tuple(played_steps)))
            played = len(cands) - 1
        for cand in cands:
            letters = "".join(letter_of(src, c.player) + ("z" if dst == 0 else
                                                          letter_of(dst, c.player))
                              for src, dst in cand.steps)
            probs, _eq = _cubeless(cand.probabilities)
            plies, said = _plies(cand.depth)
            if not said and cand.depth is not None:
                unsaid.append(cand.depth.text)
            values.append(f"{letters} E ver 3 {' '.join(probs)} {_f(cand.equity)} "
                          f"{plies} 0 1 0.000000 1")
        if played is not None:
            out.append(f"A[{played}]" + "".join(f"[{v}]" for v in values))
    cube = a.cube
    if cube is not None and ((kind == "roll" and not cube.doubled) or kind != "roll"):
        nd, dt = cube.no_double, cube.double_take
        if state is not None and state.length:
            if cube.unit == "emg":
                nd, dt = met.equity_to_mwc(nd, state), met.equity_to_mwc(dt, state)
        elif cube.unit == "mwc":
            nd = dt = None   # winning chances of a money game: nothing to say
        if nd is not None:
            probs, equity = _cubeless(cube.probabilities)
            plies, said = _plies(cube.depth)
            if not said and cube.depth is not None:
                unsaid.append(cube.depth.text)
            row = " ".join(probs)
            out.append(f"DA[E ver 3 {plies} 1 0.000000 1 {row} {_f(equity)} {_f(nd)} "
                       f"{row} {_f(equity)} {_f(dt)}]")
    if a.luck is not None and kind == "roll":
        out.append(f"LU[{a.luck.value:.5f}]")
    return "".join(out), unsaid

