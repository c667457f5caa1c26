"""The decisions model: what an analysing program says of each decision.

A reader (``formats/``) maps its record's analysis into these classes; the
figures (:mod:`gamao_cli.analysis.figures`), the tables and the replay page
read them, whatever the format. Nothing here knows of files or of the CLI,
and nothing here is computed from the rules: every number is the program's.

The API (stable: readers and displays build on it)
--------------------------------------------------

Where it hangs. An action's ``analysis`` (``gamao_cli.model.Action``) stays
what it was, a JSON-ready mapping; a reader that maps its analysis here
gives that mapping a ``decisions`` attribute, an :class:`Analysis`, made
when first asked for (so that checking a match never decodes it). Read it
with :func:`decisions_of`, which also rebuilds it from the mapping gamao's
JSON writes (key ``"decisions"``, :meth:`Analysis.to_json`).

Which action carries what (as GNU Backgammon's move records do):

- a roll (``Play``, ``Dance``) carries the cube decision its player made
  before rolling, when the program analysed one (``cube``: ``doubled`` is
  False, a no-double), the checker decision (``checker``) and the luck of
  the roll (``luck``);
- a ``Double`` carries the doubler's cube decision (``doubled`` True,
  ``answer`` None); a ``Take`` or ``Drop`` the same decision seen by the
  program, with ``answer`` "take" or "pass" (``player`` is still the
  doubler: the equities are always the doubler's). A beaver answer is
  "beaver".

The classes (frozen dataclasses; every field has the meaning below):

:class:`Probabilities` ``(win, win_gammon, win_backgammon, lose_gammon,
lose_backgammon)``: the cubeless chances of the player deciding, as
fractions (gammons include backgammons, as GNU Backgammon counts them).

:class:`Depth` ``(program, kind, plies=None, cubeful=None, text="")``: how
the program evaluated: ``kind`` is "evaluation", "rollout" or "unknown";
``plies`` the search depth in the program's own count (GNU Backgammon's
0-ply is eXtreme Gammon's 1-ply) or None; ``text`` as the program states it
(``"0-ply"``, ``"XG level 3"``, ``"rollout"``).

:class:`Candidate` ``(play, equity, probabilities=None, depth=None,
steps=())``: one play of the program's list; ``play`` in gamao's notation
(``24/18 13/11``), ``equity`` the program's score for it (cubeful where the
program says so), normalised to a 1-cube, in EMG; ``steps`` the (from, to)
die steps in the mover's numbering (25 bar, 0 off) when the reader knows them.

:class:`CheckerDecision` ``(player, dice, candidates, played, forced,
depth=None, stated_error=None, counts=None, mark=None, marks_stated=False)``:
``candidates``
best first as the program ranked them; ``played`` the index in
``candidates`` of the play made (None when it is not among them or the
record does not say); ``forced`` True when the roll had at most one legal
play (as the program says: GNU Backgammon lists every legal play, so one
candidate or none); ``stated_error`` the program's own figure for the
equity lost, as a positive magnitude (eXtreme Gammon states one), None when
it states none; ``counts``: the program's own word on whether the decision
counts in its error rates (eXtreme Gammon's PR), None when it says nothing;
``mark`` the program's skill mark: None, "doubtful", "bad", "very bad";
``marks_stated`` True when the record states the program's mark of every
play it analysed, so that a ``mark`` of None says the program marked the
play with none (GNU Backgammon's text export, whose marks gnubg decided on
the unrounded equities the export rounds to 3 decimals): the figures then
count the stated marks, else marks by the size of the loss.
:attr:`CheckerDecision.equity_loss` is the loss of the play made as the
program measures it: ``stated_error`` where it states one, else the first
candidate's equity less the played one's.

:class:`CubeDecision` ``(player, no_double, double_take, double_pass,
doubled, answer=None, unit="emg", probabilities=None, depth=None,
stated_errors=None, counts=None, mark=None, answer_mark=None)``: the three
cubeful equities of the player who may double (``player``), as the program
states them: ``unit`` "emg" (normalised money equity, double/pass is then
1.0) or "mwc" (match winning chances, 0..1: GNU Backgammon's ``DA`` in a
match). The figures turn "mwc" into EMG with the match equity table at the
decision's score. ``double_pass`` may be None where the program leaves it to
the match equity table (GNU Backgammon's ``DA`` in a match): in EMG it is
then 1.0, as for money. ``doubled``: whether the player doubled; ``answer``:
"take", "pass", "beaver" or None. ``stated_errors``: the program's own
error sizes (positive magnitudes), a mapping with keys "double" and "take"
where it states them (eXtreme Gammon). ``mark``/``answer_mark``: the
program's skill marks on the double and on the answer.

:class:`Luck` ``(player, value, unit="emg", mark=None)``: the luck of a roll
for the player who rolled (positive: lucky), normalised to a 1-cube;
``mark`` "very lucky", "lucky", "unlucky", "very unlucky" or None.

:class:`Analysis` ``(program, checker=None, cube=None, luck=None)``: what the
program says of one action; :meth:`Analysis.to_json` /
:meth:`Analysis.from_json` give and read its JSON form.

>>> c = CheckerDecision(player=0, dice=(3, 1), forced=False, played=1,
...     candidates=(Candidate("8/5 6/5", 0.12), Candidate("24/21 6/5", 0.05)))
>>> round(c.equity_loss, 6)
0.07
>>> a = Analysis("GNU Backgammon", checker=c)
>>> Analysis.from_json(a.to_json()) == a
True
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

#: The skill marks, best to worst (GNU Backgammon's, which eXtreme Gammon
#: shows alike).
MARKS = ("doubtful", "bad", "very bad")
#: The luck marks.
LUCK_MARKS = ("very lucky", "lucky", "unlucky", "very unlucky")
#: The answers to a double.
ANSWERS = ("take", "pass", "beaver")
#: The units equities may come in.
UNITS = ("emg", "mwc")


@dataclass(frozen=True, slots=True)
class Probabilities:
    """The cubeless chances of the player deciding (fractions)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    def to_json(self) -> list[float]:
        return [self.win, self.win_gammon, self.win_backgammon, self.lose_gammon,
                self.lose_backgammon]

    @classmethod
    def from_json(cls, d: Any) -> "Probabilities | None":
        return None if d is None else cls(*(float(x) for x in d))


@dataclass(frozen=True, slots=True)
class Depth:
    """How the program evaluated a decision, as it states it."""

    program: str
    kind: str                  # "evaluation", "rollout", "unknown"
    plies: int | None = None
    cubeful: bool | None = None
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"program": self.program, "kind": self.kind, "plies": self.plies,
                "cubeful": self.cubeful, "text": self.text}

    @classmethod
    def from_json(cls, d: Any) -> "Depth | None":
        return None if d is None else cls(**d)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One play of the program's list."""

    play: str
    equity: float
    probabilities: Probabilities | None = None
    depth: Depth | None = None
    steps: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"play": self.play, "equity": self.equity,
                "probabilities": None if self.probabilities is None
                else self.probabilities.to_json(),
                "depth": None if self.depth is None else self.depth.to_json(),
                "steps": [list(s) for s in self.steps]}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Candidate":
        return cls(play=d["play"], equity=float(d["equity"]),
                   probabilities=Probabilities.from_json(d.get("probabilities")),
                   depth=Depth.from_json(d.get("depth")),
                   steps=tuple(tuple(s) for s in d.get("steps") or ()))


@dataclass(frozen=True, slots=True)
class CheckerDecision:
    """A roll and the program's list of plays for it."""

    player: int
    dice: tuple[int, int]
    candidates: tuple[Candidate, ...]
    played: int | None
    forced: bool
    depth: Depth | None = None
    stated_error: float | None = None
    counts: bool | None = None
    mark: str | None = None
    marks_stated: bool = False

    @property
    def equity_loss(self) -> float | None:
        """The equity (EMG) the play made lost, as the program measures it:
        its stated error where it states one (eXtreme Gammon's, which
        counts a play within 0.0001 of the best as no error and covers a
        play its list leaves out), else the first candidate's equity less the
        played one's (negative in the rare list where the program ranked a
        play above one it scored higher, at another depth: GNU Backgammon
        counts it as it is); None when neither is known."""
        if self.stated_error is not None:
            return self.stated_error
        if self.played is not None and self.candidates:
            return self.candidates[0].equity - self.candidates[self.played].equity
        return None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "dice": list(self.dice),
                "candidates": [c.to_json() for c in self.candidates], "played": self.played,
                "forced": self.forced, "depth": None if self.depth is None
                else self.depth.to_json(), "stated_error": self.stated_error,
                "counts": self.counts, "mark": self.mark, "marks_stated": self.marks_stated}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "CheckerDecision":
        return cls(player=d["player"], dice=tuple(d["dice"]),
                   candidates=tuple(Candidate.from_json(c) for c in d["candidates"]),
                   played=d.get("played"), forced=bool(d["forced"]),
                   depth=Depth.from_json(d.get("depth")), stated_error=d.get("stated_error"),
                   counts=d.get("counts"), mark=d.get("mark"),
                   marks_stated=bool(d.get("marks_stated", False)))


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """The cube decision of the player who may double, and what was done."""

    player: int
    no_double: float
    double_take: float
    double_pass: float | None
    doubled: bool
    answer: str | None = None
    unit: str = "emg"
    probabilities: Probabilities | None = None
    depth: Depth | None = None
    stated_errors: Mapping[str, float] | None = field(default=None, hash=False)
    counts: bool | None = None
    mark: str | None = None
    answer_mark: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "no_double": self.no_double,
                "double_take": self.double_take, "double_pass": self.double_pass,
                "doubled": self.doubled, "answer": self.answer, "unit": self.unit,
                "probabilities": None if self.probabilities is None
                else self.probabilities.to_json(),
                "depth": None if self.depth is None else self.depth.to_json(),
                "stated_errors": None if self.stated_errors is None
                else dict(self.stated_errors),
                "counts": self.counts, "mark": self.mark, "answer_mark": self.answer_mark}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "CubeDecision":
        return cls(player=d["player"], no_double=float(d["no_double"]),
                   double_take=float(d["double_take"]),
                   double_pass=None if d.get("double_pass") is None else float(d["double_pass"]),
                   doubled=bool(d["doubled"]), answer=d.get("answer"),
                   unit=d.get("unit", "emg"),
                   probabilities=Probabilities.from_json(d.get("probabilities")),
                   depth=Depth.from_json(d.get("depth")),
                   stated_errors=d.get("stated_errors"), counts=d.get("counts"),
                   mark=d.get("mark"), answer_mark=d.get("answer_mark"))


@dataclass(frozen=True, slots=True)
class Luck:
    """The luck of one roll for the player who rolled."""

    player: int
    value: float
    unit: str = "emg"
    mark: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "value": self.value, "unit": self.unit,
                "mark": self.mark}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Luck":
        return cls(player=d["player"], value=float(d["value"]), unit=d.get("unit", "emg"),
                   mark=d.get("mark"))


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the program (``program``: "GNU Backgammon", "eXtreme Gammon",
    ...) says of one action."""

    program: str
    checker: CheckerDecision | None = None
    cube: CubeDecision | None = None
    luck: Luck | None = None

    def __bool__(self) -> bool:
        return self.checker is not None or self.cube is not None or self.luck is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"program": self.program}
        for f in fields(self)[1:]:
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = value.to_json()
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Analysis":
        return cls(program=d.get("program", ""),
                   checker=None if d.get("checker") is None
                   else CheckerDecision.from_json(d["checker"]),
                   cube=None if d.get("cube") is None else CubeDecision.from_json(d["cube"]),
                   luck=None if d.get("luck") is None else Luck.from_json(d["luck"]))


def decisions_of(action: Any) -> Analysis | None:
    """The :class:`Analysis` of an action, or None when its record has none
    mapped into this model: the ``decisions`` of its ``analysis`` (a
    reader's lazy mapping), or the ``"decisions"`` entry of a plain mapping
    (gamao's JSON read back)."""
    source = getattr(action, "analysis", None)
    if source is None:
        return None
    made = getattr(source, "decisions", None)
    if made is not None:
        return made
    if isinstance(source, Mapping):
        d = source.get("decisions")
        if isinstance(d, Mapping):
            try:
                return Analysis.from_json(d)
            except (KeyError, TypeError, ValueError):
                return None
    return None
