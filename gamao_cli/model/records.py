"""The match model: plain typed classes for a match record.

Everything here is what the record *says*, not what the rules make of it: a
play keeps its steps exactly as written (``24/18/13``, ``13/11(2)``, ``bar/22*``),
a ``Wins`` cell keeps its stated points. The validator replays these against
the rules; converters write them out again.

Every element keeps its source ``line`` and ``column`` (1-based). Those fields
do not take part in equality, so a match read back from a rewritten file
compares equal to the original when it says the same thing.

>>> step = Step(points=(24, 18, 13), hits=(True, False), repeat=1)
>>> str(step)
'24/18*/13'
>>> Play(player=0, dice=(6, 5), moves=(step,)).text()
'65: 24/18*/13'
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

from .notation import BoundedCache, point_text, step_shapes


LEFT = 0   # the left column of a match file: gnubg's player 0, SGF White
RIGHT = 1


class Step:
    """One written movement of a checker: ``24/18*/13`` or ``8/5(2)``.

    ``points`` is the chain of points as written (at least two); ``hits[i]``
    is the hit mark written after ``points[i + 1]``; ``repeat`` is the ``(n)``
    suffix (1 when absent). ``bar`` and ``off`` remember the spelling used
    (``bar``/``b``/``25``, ``off``/``o``/``0``) so that text round-trips; like
    ``line`` and ``column`` they do not take part in equality.

    (A plain class with slots rather than a dataclass: readers make hundreds
    of thousands of these, and this keeps that cheap.)
    """

    __slots__ = ("points", "hits", "repeat", "bar", "off", "line", "column")

    def __init__(self, points: tuple[int, ...], hits: tuple[bool, ...], repeat: int = 1,
                 bar: str = "bar", off: str = "off", line: int = 0, column: int = 0):
        self.points = points
        self.hits = hits
        self.repeat = repeat
        self.bar = bar
        self.off = off
        self.line = line
        self.column = column

    def _key(self) -> tuple:
        return (self.points, self.hits, self.repeat)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return self.points == other.points and self.hits == other.hits and \
            self.repeat == other.repeat

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Step({self.points!r}, {self.hits!r}, {self.repeat!r})"

    @property
    def src(self) -> int:
        return self.points[0]

    @property
    def dst(self) -> int:
        return self.points[-1]

    def movements(self) -> list[tuple[int, int]]:
        """The (from, to) movements this step stands for, repeats expanded."""
        pairs = list(zip(self.points, self.points[1:]))
        return pairs * self.repeat

    def __str__(self) -> str:
        out = point_text(self.points[0], bar=self.bar, off=self.off)
        for p, hit in zip(self.points[1:], self.hits):
            out += "/" + point_text(p, bar=self.bar, off=self.off) + ("*" if hit else "")
        if self.repeat != 1:
            out += f"({self.repeat})"
        return out


def play_shape(moves) -> tuple[tuple[tuple[int, int], ...], frozenset[int]]:
    """(movements, hit-marked points) of written steps."""
    movements: list[tuple[int, int]] = []
    marked: set[int] = set()
    for step in moves:
        pts = step.points
        pairs = list(zip(pts, pts[1:]))
        movements.extend(pairs * step.repeat)
        for p, hit in zip(pts[1:], step.hits):
            if hit:
                marked.add(p)
    return tuple(movements), frozenset(marked)


# a written step's text as :class:`Step` writes it (``13/7*(2)``), by the
# step as written: steps recur far more than whole plays
_STEP_DISPLAY: BoundedCache[str, str] = BoundedCache(16384)
#: what the words of a play text are split on, beside spaces and tabs (see
#: :func:`display_text`)
_OTHER_SPACE = re.compile(r"[^\S \t]")


def display_text(text: str) -> str:
    """The steps of a play text written as :class:`Step` writes them, one
    space apart: ``" ".join(map(str, parse_steps(text)))``.

    >>> display_text("24/18*/13  bar/22(2)")
    '24/18*/13 bar/22(2)'

    Each step is a word between spaces or tabs (``_STEP_RE``), and is
    written on its own, so each written word is worked out once (kept in
    ``_STEP_DISPLAY``); a text holding any other white space goes the whole
    way."""
    if _OTHER_SPACE.search(text) is not None:
        return " ".join(str(m) for m in parse_steps(text))
    memo = _STEP_DISPLAY.data
    out = []
    for word in text.replace("\t", " ").split(" "):
        if not word:
            continue
        shown = memo.get(word)
        if shown is None:
            try:
                shown = _STEP_DISPLAY.put(word, " ".join(str(m) for m in parse_steps(word)))
            except Exception:   # no step (no reader gives it): the definition's refusal
                return " ".join(str(m) for m in parse_steps(text))
        out.append(shown)
    return " ".join(out)


def parse_steps(text: str, line: int = 0, column: int = 0) -> tuple[Step, ...]:
    """The written steps of the play part of a cell (``24/18*/13 8/5(2)``),
    as :func:`~gamao_cli.model.notation.step_shapes` reads them; ``column``
    is the column of the first character of ``text``.

    >>> parse_steps("24/18*/13 8/5(2)", 3, 10)
    (Step((24, 18, 13), (True, False), 1), Step((8, 5), (False,), 2))
    """
    return tuple(Step(points, hits, repeat, bar, off, line, column + offset)
                 for points, hits, repeat, bar, off, offset in step_shapes(text))


@dataclass(slots=True)
class Action:
    """Base of everything that can stand in a cell. ``player``: 0 left, 1 right.

    Besides what a cell says, a record may state two things about an action
    (eXtreme Gammon's files do): ``stated``, the position before it as
    ``(me, opp)`` seen by ``player`` (26 counts a side), which the replay
    checks against its own; and ``analysis``, an engine's figures for it (a
    JSON-ready dict, see :mod:`gamao_cli.formats.xg`). Neither takes part in
    equality.
    """

    player: int
    line: int = field(default=0, compare=False, kw_only=True)
    column: int = field(default=0, compare=False, kw_only=True)
    move_number: int | None = field(default=None, compare=False, kw_only=True)
    stated: tuple[tuple[int, ...], tuple[int, ...]] | None = field(
        default=None, compare=False, kw_only=True, repr=False)
    analysis: Mapping[str, Any] | None = field(default=None, compare=False, kw_only=True,
                                               repr=False)


def dice_text(dice: tuple[int, int]) -> str:
    return f"{dice[0]}{dice[1]}:"


class Play(Action):
    """A roll and the play made with it: ``62: 24/18 13/11``.

    Fields (as for the other actions): ``player``, ``dice``, ``moves`` (the
    written :class:`Step` s), and ``line``, ``column``, ``move_number``, which
    do not take part in equality.

    (A plain class with slots rather than a dataclass: an archive holds
    hundreds of thousands of plays. A reader may hand over the play's text
    instead of its steps, with :meth:`from_text`; ``moves`` is then made on
    first use, since checking a play needs only its :meth:`movements`.)
    """

    __slots__ = ("dice", "_moves", "shape", "_written", "_at")
    __match_args__ = ("player", "dice", "moves")
    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclasses

    def __init__(self, player: int, dice: tuple[int, int], moves: tuple[Step, ...], *,
                 line: int = 0, column: int = 0, move_number: int | None = None,
                 shape: tuple | None = None, stated: tuple | None = None,
                 analysis: Mapping[str, Any] | None = None):
        self.player = player
        self.line = line
        self.column = column
        self.move_number = move_number
        self.stated = stated
        self.analysis = analysis
        self.dice = dice
        self._moves = moves
        # (movements, hit-marked points), derived from ``moves``; readers that
        # parse the same play text many times fill it from a cache.
        self.shape = shape
        self._written = None
        self._at = 0

    @classmethod
    def from_text(cls, player: int, dice: tuple[int, int], written: "PlayText",
                  text_column: int, line: int, column: int, move_number: int | None) -> "Play":
        """A play whose ``moves`` and shape are made when first read, from
        ``written`` (``text_column``: the column of its text's first
        character)."""
        p = _new_object(cls)
        p.player = player
        p.line = line
        p.column = column
        p.move_number = move_number
        p.stated = None
        p.analysis = None
        p.dice = dice
        p._moves = None
        p.shape = None
        p._written = written
        p._at = text_column
        return p

    @property
    def moves(self) -> tuple[Step, ...]:
        moves = self._moves
        if moves is None:
            written = self._written
            moves = self._moves = written.steps_of(written.text, self.line, self._at)
        return moves

    @moves.setter
    def moves(self, value: tuple[Step, ...]) -> None:
        self._moves = value
        self._written = None
        self.shape = None

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.player, self.dice, self.moves) == (other.player, other.dice, other.moves)

    def __repr__(self) -> str:
        return (f"Play(player={self.player!r}, line={self.line!r}, column={self.column!r}, "
                f"move_number={self.move_number!r}, dice={self.dice!r}, moves={self.moves!r})")

    def movements(self) -> tuple[tuple[int, int], ...]:
        """The (from, to) movements of the play, repeats expanded, chains split."""
        return self.play_shape()[0]

    def marked_hits(self) -> frozenset[int]:
        """The points written with a hit mark."""
        return self.play_shape()[1]

    def play_shape(self) -> tuple:
        """(movements, hit-marked points), as :func:`play_shape` makes them."""
        shape = self.shape
        if shape is None:
            written = self._written
            if self._moves is None and written is not None:
                shape = written.shape
                if shape is None:
                    shape = written.shape = written.shape_of(written.text)
            else:
                shape = play_shape(self.moves)
            self.shape = shape
        return shape

    def play_text(self) -> str:
        written = self._written
        if self._moves is None and written is not None:
            # the same for every play written alike: made once, kept with the text
            text = written.display
            if text is None:
                if written.steps_of is parse_steps:
                    text = written.display = display_text(written.text)
                else:
                    steps = written.steps_of(written.text, self.line, self._at)
                    text = written.display = " ".join(str(m) for m in steps)
            return text
        return " ".join(str(m) for m in self.moves)

    def text(self) -> str:
        return f"{dice_text(self.dice)} {self.play_text()}"


_new_object = object.__new__


class PlayText:
    """The text of a play (``24/18* 13/11``) as a reader found it, shared
    by all the plays written alike: ``steps_of(text, line, column)`` makes
    the steps of one of them, ``shape_of(text)`` their common
    (movements, hit-marked points), kept in :attr:`shape` once made."""

    __slots__ = ("text", "steps_of", "shape_of", "shape", "display", "plan")

    def __init__(self, text: str, steps_of, shape_of):
        self.text = text
        self.steps_of = steps_of
        self.shape_of = shape_of
        self.shape: tuple | None = None
        self.display: str | None = None   # Play.play_text of its plays, once made
        # what the replay works out of the text and a roll, once for all the
        # plays written alike: (roll, die steps, hit-marked points); the
        # model never reads it
        self.plan: tuple | None = None


@dataclass(slots=True)
class Dance(Action):
    """A roll with no play: ``66:`` alone or ``66: Cannot Move``.

    Either no legal play existed, or the player rolled and then resigned
    (the validator tells which).
    """

    dice: tuple[int, int]
    written: str = field(default="", compare=False)

    def text(self) -> str:
        return dice_text(self.dice) + (f" {self.written}" if self.written else "")


@dataclass(slots=True)
class UnplayedRoll(Action):
    """``61: ????``: a roll that was never played (resignation, time loss).

    ``written`` is what stands after the dice: ``????`` (XG, Backgammon
    Studio), or ``Concedes`` / ``Resigns`` (Backgammon Studio: the player
    rolled, then resigned). Dice ``00`` (``00: ????``, Backgammon Studio) say
    the player did not roll at all."""

    dice: tuple[int, int]
    written: str = field(default="????", compare=False)

    def text(self) -> str:
        return f"{dice_text(self.dice)} {self.written}"

    @property
    def resigns(self) -> bool:
        """Whether the record says the player resigned (``Concedes``,
        ``Resigns``), rather than leaving it open (``????``: a resignation
        or a loss on time)."""
        return self.written[:1] not in ("?", "")


@dataclass(slots=True)
class IllegalPlayMarker(Action):
    """Snowie's ``31: Illegal play (...)``, which sets a position; kept as text."""

    dice: tuple[int, int]
    written: str = ""

    def text(self) -> str:
        return f"{dice_text(self.dice)} {self.written}"


@dataclass(slots=True)
class Double(Action):
    """A cube offer: ``Doubles => 2``; ``kind`` is double, beaver or raccoon.

    ``value`` is the value written after ``=>`` (None for a bare ``Double``).
    """

    value: int | None
    kind: str = "double"

    def text(self) -> str:
        word = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}[self.kind]
        return word if self.value is None else f"{word} => {self.value}"


@dataclass(slots=True)
class Take(Action):
    def text(self) -> str:
        return "Takes"


@dataclass(slots=True)
class Drop(Action):
    def text(self) -> str:
        return "Drops"


@dataclass(slots=True)
class Win(Action):
    """``Wins N point(s) [and the match]``: the game's stated result."""

    points: int
    match: bool = False

    def text(self) -> str:
        unit = "point" if self.points == 1 else "points"
        return f"Wins {self.points} {unit}" + (" and the match" if self.match else "")


@dataclass(slots=True)
class Loss(Action):
    """Backgammon Galaxy's ``Losses N point``, written beside the winner's cell."""

    points: int

    def text(self) -> str:
        return f"Losses {self.points} point"


@dataclass(slots=True)
class Resign(Action):
    """A resignation cell: the player gives up the game. ``word`` is its
    spelling: ``Resigns`` (HedgeHog and others), ``Concedes`` (Backgammon
    Studio, eXtreme Gammon), or ``????`` without dice (the player did not
    roll). The spelling does not take part in equality.

    (A roll followed by a resignation, ``62: Concedes``, is an
    :class:`UnplayedRoll` whose ``written`` is the word.)
    """

    word: str = field(default="Resigns", compare=False)

    def text(self) -> str:
        return self.word


#: :attr:`SetUp.cube_owner` for a centred cube.
CENTRED = -1


@dataclass(slots=True)
class SetUp(Action):
    """A position the record sets inside a game: GNU Backgammon's SGF
    set-up nodes (``AE``/``AW``/``AB`` with ``PL``, ``CV``, ``CP``), eXtreme
    Gammon's ``; Set Pos=`` lines. The game goes on from it.

    ``player`` is the player on roll after it. ``sides`` is the board, by
    player: ``(player 0's 26 counts, player 1's)``, each in its own
    numbering (index 0 borne off, 1-24 the points, 25 the bar), or None
    when the record sets only the cube. ``cube`` is the cube value it sets
    (None: as it was), ``cube_owner`` the owner (0, 1, :data:`CENTRED`;
    None: as it was). ``written`` keeps the record's own text of it (XG's
    line), which takes no part in equality.
    """

    sides: tuple[tuple[int, ...], tuple[int, ...]] | None
    cube: int | None = None
    cube_owner: int | None = None
    written: str = field(default="", compare=False)

    def text(self) -> str:
        if self.written:
            return self.written
        return "Set position" if self.sides is not None else "Set cube"


ActionType = Union[Play, Dance, UnplayedRoll, IllegalPlayMarker, Double, Take, Drop, Win, Loss,
                   Resign, SetUp]
#: The actions that are a roll (with its play, or none).
ROLLS = (Play, Dance, UnplayedRoll, IllegalPlayMarker)


@dataclass(slots=True)
class ScoreLine:
    """The score line under ``Game N``: names and scores as written."""

    names: tuple[str, str]
    scores: tuple[int | None, int | None]
    ratings: tuple[str | None, str | None] = (None, None)
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(slots=True)
class Game:
    """One game. ``path``: the file it was read from when that is not the
    match's (GNU Backgammon's text export writes one file a game); empty
    otherwise."""

    number: int
    score: ScoreLine | None
    actions: list[ActionType] = field(default_factory=list)
    comments: list[str] = field(default_factory=list, compare=False)
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    path: str = field(default="", compare=False, repr=False)

    def wins(self) -> list[Win]:
        return [a for a in self.actions if isinstance(a, Win)]


@dataclass(slots=True)
class Tag:
    name: str
    value: str
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class Notice:
    """What a reader noticed in a record besides its cells, said with the
    replay's findings: a producer's own slip the reader reads as what it is
    (an info), a game missing from a match's game files. ``key`` and
    ``fields`` make its message (:mod:`gamao_cli.messages`); ``path`` is the
    file it is in when that is not the match's."""

    code: str
    key: str
    fields: dict[str, Any] = field(default_factory=dict)
    line: int | None = None
    column: int | None = None
    game: int | None = None
    path: str = ""


@dataclass(slots=True)
class Match:
    """One match (or money session, ``length == 0``) as a record states it.
    ``notices``: what its reader noticed (:class:`Notice`), no part of
    equality."""

    length: int
    games: list[Game] = field(default_factory=list)
    tags: list[Tag] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    path: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    notices: list[Notice] = field(default_factory=list, compare=False, repr=False)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of a tag, matched case- and space-insensitively."""
        key = _tag_key(name)
        for t in self.tags:
            if _tag_key(t.name) == key:
                return t.value
        return default

    @property
    def players(self) -> tuple[str, str]:
        """Player names: from the first score line, else from the tags."""
        for g in self.games:
            if g.score is not None:
                return g.score.names
        return (self.tag("Player 1", "") or "", self.tag("Player 2", "") or "")

    @property
    def is_money(self) -> bool:
        return self.length == 0


@functools.lru_cache(maxsize=1024)
def _tag_key(name: str) -> str:
    return "".join(name.split()).lower()
