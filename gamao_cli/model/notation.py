"""The notation of plays, written once: how a point is spelt, how a play's
text is cut into steps, how die steps are written, and how a game's actions
are numbered on match-file lines.

This module knows only text and numbers; :mod:`.records` builds its
:class:`~gamao_cli.model.records.Step` objects from what :func:`step_shapes`
finds.

>>> step_shapes("24/18*/13 8/5(2)")
(((24, 18, 13), (True, False), 1, 'bar', 'off', 0), ((8, 5), (False,), 2, 'bar', 'off', 10))
>>> shape_of("bar/22* 6/off(2)")
(((25, 22), (6, 0), (6, 0)), frozenset({22}))
>>> format_steps(((24, 18, False), (13, 11, False)))
'24/18 13/11'
>>> format_steps(((8, 5, False), (8, 5, False), (6, 5, True), (6, 5, False)))
'8/5(2) 6/5* 6/5'
>>> format_steps(((25, 22, True), (3, 0, False)), bar="25", off="0")
'25/22* 3/0'
>>> move_numbers([(0, False), (1, False), (0, False), (1, True)])
[1, 1, 2, 2]
>>> move_numbers([(0, False), (1, False), (0, True)])
[1, 1, None]
"""
from __future__ import annotations

import re
from typing import Generic, Hashable, Iterable, Sequence, TypeVar

BAR = 25
OFF = 0

DieStep = tuple[int, int, bool]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """A memo of a pure function of its key, emptied when it holds
    ``limit`` entries. What it returns never depends on what was asked
    before, only how fast: the same plays recur across an archive, so their
    text is worked out once."""

    __slots__ = ("data", "limit")

    def __init__(self, limit: int):
        self.data: dict[K, V] = {}
        self.limit = limit

    def get(self, key: K) -> V | None:
        return self.data.get(key)

    def put(self, key: K, value: V) -> V:
        data = self.data
        if len(data) >= self.limit:
            data.clear()
        data[key] = value
        return value

    def clear(self) -> None:
        self.data.clear()


# -- points ---------------------------------------------------------------

#: The words a record may write for the bar and for off, by point.
POINT_WORDS = {"bar": BAR, "b": BAR, "off": OFF, "o": OFF}


def point_text(p: int, *, bar: str = "bar", off: str = "off") -> str:
    """Spell a point in the mover's numbering: 25 is the bar, 0 is off.

    >>> point_text(25), point_text(0, off="0"), point_text(13)
    ('bar', '0', '13')
    """
    if p == BAR:
        return bar
    if p == OFF:
        return off
    return str(p)


def movement_text(src: int, dst: int) -> str:
    """``src/dst`` as a record writes one movement (``bar/22``, ``6/off``)."""
    return f"{point_text(src)}/{point_text(dst)}"


def read_point(word: str) -> tuple[int, str | None, str | None]:
    """(point, bar spelling, off spelling) of one written point."""
    low = word.lower()
    if low in ("bar", "b"):
        return BAR, low, None
    if low in ("off", "o"):
        return OFF, None, low
    n = int(word)
    return n, ("25" if n == 25 else None), ("0" if n == 0 else None)


# -- the steps of a play --------------------------------------------------

_STEP_RE = re.compile(r"(\S+?)(?:\((\d+)\))?(?=[ \t]|$)")
_POINT_RE = re.compile(r"([^/*]+)(\*?)")

_STEP_SHAPES: BoundedCache[str, tuple] = BoundedCache(8192)


def step_shapes(text: str) -> tuple[tuple, ...]:
    """The steps of a play text (``24/18*/13 8/5(2)``), each as ``(points,
    hits, repeat, bar spelling, off spelling, offset in text)``: the one
    parser of written steps. ``hits[i]`` is the mark after ``points[i + 1]``."""
    shapes = _STEP_SHAPES.get(text)
    if shapes is not None:
        return shapes
    out = []
    for sm in _STEP_RE.finditer(text):
        body, rep = sm.group(1), sm.group(2)
        points: list[int] = []
        hits: list[bool] = []
        bar = "bar"
        off = "off"
        for i, pm in enumerate(_POINT_RE.finditer(body)):
            p, b, o = read_point(pm.group(1))
            points.append(p)
            if b:
                bar = b
            if o:
                off = o
            if i:
                hits.append(bool(pm.group(2)))
        out.append((tuple(points), tuple(hits), int(rep) if rep else 1, bar, off, sm.start()))
    return _STEP_SHAPES.put(text, tuple(out))


_SHAPES: BoundedCache[str, tuple] = BoundedCache(32768)  # bulk corpus: 21,599 play texts


def shape_of(text: str) -> tuple[tuple[tuple[int, int], ...], frozenset[int]]:
    """(movements, hit-marked points) of a play text: what checking a play
    needs, made without building its steps. The movements are ``(from, to)``
    pairs, repeats expanded and chains split (``24/18/13`` is 24/18 then
    18/13); it equals :func:`step_shapes` read that way."""
    shape = _SHAPES.get(text)
    if shape is not None:
        return shape
    movements: list[tuple[int, int]] = []
    marked: set[int] = set()
    steps = _STEP_MOVES.data
    for step in text.split():
        moves = steps.get(step)
        if moves is None:
            moves = _STEP_MOVES.put(step, _step_moves(step))
        movements.extend(moves[0])
        if moves[1]:
            marked.update(moves[1])
    return _SHAPES.put(text, (tuple(movements), frozenset(marked)))


# the steps of play texts recur far more than whole plays (8/5 in most
# openings): each step's movements are worked out once
_STEP_MOVES: BoundedCache[str, tuple] = BoundedCache(16384)


def _step_moves(step: str) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """One written step (``24/18*/13(2)``) of :func:`shape_of`: its
    movements, repeats expanded and chains split, and the points it marks
    hit."""
    repeat = 1
    if step[-1] == ")":
        at = step.rindex("(")
        repeat = int(step[at + 1:-1])
        step = step[:at]
    pairs = []
    marked = []
    previous = 0
    words = POINT_WORDS
    for i, word in enumerate(step.split("/")):
        hit = word[-1] == "*"
        if hit:
            word = word[:-1]
        point = words.get(word.lower())
        if point is None:
            point = int(word)
        if i:
            pairs.append((previous, point))
            if hit:
                marked.append(point)
        previous = point
    return tuple(pairs * repeat), tuple(marked)


_POINT_TEXTS = [point_text(p) for p in range(26)]
_SPELLED_POINT_TEXTS: dict[tuple[str, str], list[str]] = {}


def _point_texts(bar: str, off: str) -> list[str]:
    """Every point's :func:`point_text` with this spelling of the bar and
    off, made once a spelling (a writer spells a whole file alike)."""
    names = _SPELLED_POINT_TEXTS.get((bar, off))
    if names is None:
        if len(_SPELLED_POINT_TEXTS) >= 64:   # (a caller of many spellings: not kept)
            return [point_text(p, bar=bar, off=off) for p in range(26)]
        names = _SPELLED_POINT_TEXTS[bar, off] = [point_text(p, bar=bar, off=off)
                                                  for p in range(26)]
    return names


def format_steps(steps: Sequence[DieStep], *, bar: str = "bar", off: str = "off",
                 group: bool = True) -> str:
    """Die steps ``(src, dst, hit)`` as text, consecutive repeats as ``(n)``."""
    parts: list[str] = []
    counts: list[int] = []
    # (the points' texts looked up: point_text of each, as a table, one a
    # spelling of the bar and off: the .mat writer's "25" and "0" included)
    names = _POINT_TEXTS if bar == "bar" and off == "off" else _point_texts(bar, off)
    for src, dst, hit in steps:
        text = (names[src] if 0 <= src <= 25 else str(src)) + "/" + \
            (names[dst] if 0 <= dst <= 25 else str(dst))
        if hit:
            text += "*"
        if group and parts and parts[-1] == text:
            counts[-1] += 1
        else:
            parts.append(text)
            counts.append(1)
    return " ".join(p if c == 1 else f"{p}({c})" for p, c in zip(parts, counts))


# -- move numbers ---------------------------------------------------------

def move_numbers(cells: Iterable[tuple[int, bool]]) -> list[int | None]:
    """The move-line number of each of a game's cells, given as ``(player,
    closes)`` (``closes``: a ``Wins`` cell, which ends the line it stands
    on): a left-player cell opens a new line; a right-player cell joins the
    open line unless that line already has a right cell or has no left one.
    A closing cell of the right player joins the open line the same way
    (``7)  Drops       Wins 1 point``); any other stands on a line of its
    own, with no number (None)."""
    out: list[int | None] = []
    number = 0
    has_left = has_right = False
    for player, closes in cells:
        if closes:
            out.append(number if player == 1 and has_left and not has_right else None)
            has_left = has_right = False
            continue
        if player == 0:
            number += 1
            has_left, has_right = True, False
        else:
            if has_right or not has_left:
                number += 1
                has_left = False
            has_right = True
        out.append(number)
    return out
