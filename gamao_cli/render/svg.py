"""Backgammon boards as standalone SVG.

:func:`board` draws a position (a :class:`~gamao_cli.board.Position`, with
an optional :class:`~gamao_cli.position_ids.MatchState`, or a
:class:`~gamao_cli.positions.Snapshot` of a replayed match) as one SVG
document: no external font, image, style sheet or script, so the text can be
written to a ``.svg`` file, put inline in HTML, or shown by a notebook.

The board is the usual one, seen by the player at the bottom (``bottom``):
that player moves right to left along the lower row to the home board at the
bottom right (``home="left"`` mirrors it), the other player along the upper
row to the top right. Point numbers are the bottom player's. Each player's
borne-off checkers lie in the tray beside the home boards, checkers on the
bar on their own half of the bar; the cube sits in the column on the left, in
the middle when centred, on its owner's side otherwise; the dice are those of
the player on roll, in that player's half of the board.

Every drawn thing has a class, and checkers, dice and the cube carry data
attributes, so that a program can read the drawing back: a checker is
``<circle class="checker" data-player="P" data-point="N" ...>`` (a ``<rect>``
in the borne-off tray), with ``P`` gamao's player number (0 the left column of
a match file, 1 the right) and ``N`` the point in that player's own numbering
(0 borne off, 1..24, 25 the bar).

>>> import xml.etree.ElementTree as ET
>>> from collections import Counter
>>> from gamao_cli.rules import start_position
>>> svg = board(start_position(), names=("Ana", "Bruno"), size=320)
>>> root = ET.fromstring(svg)
>>> root.get("viewBox"), root.get("width")
('0 0 640 536', '320')
>>> checkers = root.iter("{http://www.w3.org/2000/svg}circle")
>>> sorted(Counter((c.get("data-player"), c.get("data-point")) for c in checkers
...                if c.get("class") == "checker").items())
[(('0', '13'), 5), (('0', '24'), 2), (('0', '6'), 5), (('0', '8'), 3), (('1', '13'), 5), (('1', '24'), 2), (('1', '6'), 5), (('1', '8'), 3)]

The drawing of a replayed position shows the dice and the cube of its state:

>>> from gamao_cli.formats.mat.reader import read_matches
>>> from gamao_cli.replay.snapshots import snapshots
>>> text = " 5 point match\\n\\n Game 1\\n A : 0   B : 0\\n  1) 41: 24/23 13/9  53: 24/21 21/16*\\n"
>>> snap = snapshots(read_matches(text)[0])[1]
>>> svg = board(snap, names=("A", "B"), last_play=((24, 23, False), (13, 9, False)))
>>> [(d.get("data-player"), d.get("data-value")) for d in ET.fromstring(svg).iter()
...  if d.get("class") == "die"]
[('1', '5'), ('1', '3')]
>>> svg.count('class="arrow"'), 'data-match-id="cImuAAAAAAAE"' in svg
(2, True)
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Iterable, Mapping, Sequence

from ..i18n import _
from ..ids import MatchState, match_id, position_id
from ..model.notation import BoundedCache

__all__ = ["DEFAULT_COLOURS", "Layout", "SvgText", "board", "board_element", "pip_counts"]

SVG_NS = "http://www.w3.org/2000/svg"

#: The colours of a board, by name; ``board(colours=...)`` overrides any of them.
DEFAULT_COLOURS: dict[str, str] = {
    "background": "#fbf8f1",    # around the board, behind the names
    "text": "#1e1e1e",          # names, scores, pip counts
    "frame": "#5b3b22",
    "field": "#eadfc4",
    "point dark": "#a03c2c",
    "point light": "#5f7f8c",
    "tray": "#3f2816",
    "number": "#f3e9d2",        # point numbers, on the frame
    "checker 0": "#fbf7ec",     # the left player's checkers
    "checker 0 edge": "#6d5f4c",
    "checker 1": "#33333a",     # the right player's checkers
    "checker 1 edge": "#0b0b0e",
    "count 0": "#1e1e1e",       # the count on a tall stack of player 0
    "count 1": "#f5f5f5",
    "die 0": "#fbf7ec",
    "die 0 pip": "#1e1e1e",
    "die 1": "#33333a",
    "die 1 pip": "#f5f5f5",
    "cube": "#fdfdfb",
    "cube edge": "#2a2a2a",
    "cube text": "#111111",
    "arrow": "#1c7c3c",         # the last play
    "hit": "#d42a2a",
}

# Units of the view box (a point is 40 wide; checkers are 37 across).
U = 40.0              # width of a point, and the pitch of a stack
RADIUS = 18.5         # of a checker
SIDE = 56.0           # the cube column (left) and the tray column (right)
BAR = 48.0
STACK = 5 * U         # how far a stack may reach from its edge
GAP = 40.0            # between the two rows, where the dice lie
BAND = 30.0           # above and below the frame: names, scores, pips
NUM = 18.0            # the frame's strip of point numbers
SLAB = 12.0           # pitch of a borne-off checker, drawn edge on
DIE = 32.0
CUBE = 36.0
WIDTH = 2 * SIDE + 12 * U + BAR
HEIGHT = 2 * (BAND + NUM + STACK) + GAP
FIELD_TOP = BAND + NUM
FIELD_BOTTOM = FIELD_TOP + 2 * STACK + GAP
MID = (FIELD_TOP + FIELD_BOTTOM) / 2
NAME_LIMIT = 28       # characters of a name drawn (the title has them all)
SWATCH_X, NAME_X, SCORE_X, PIPS_X = 14.0, 28.0, WIDTH / 2, WIDTH - 14.0   # in the bands

# where the pips of a die with each value are, in thirds of its side
_PIPS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
         4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
         5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
         6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}


class SvgText(str):
    """SVG text; notebooks (Jupyter, IPython) show it as a picture."""

    def _repr_svg_(self) -> str:
        return self


#: num's texts by coordinate: a board's few hundred coordinates are nearly
#: all the same few hundred on every board
_NUMS: BoundedCache[float, str] = BoundedCache(8192)


def num(x: float) -> str:
    """A coordinate as the drawings write it: at most two decimals.

    >>> num(612.0), num(70.125), num(-3.5), num(-0.001)
    ('612', '70.12', '-3.5', '0')
    """
    text = _NUMS.data.get(x)
    if text is None:
        text = f"{x:.2f}".rstrip("0").rstrip(".")
        text = _NUMS.put(x, "0" if text == "-0" else text)
    return text


#: an attribute value as ElementTree escapes it, by value
_ATTRS: BoundedCache[str, str] = BoundedCache(8192)


def _escape_attribute(value: str) -> str:
    """``value`` escaped as ElementTree's XML serialisation escapes an
    attribute: ``& < > "`` and the three white-space controls."""
    text = _ATTRS.data.get(value)
    if text is None:
        text = _ATTRS.put(value, escape_text(value).replace('"', "&quot;")
                          .replace("\r", "&#13;").replace("\n", "&#10;").replace("\t", "&#09;"))
    return text


def escape_text(text: str) -> str:
    """``text`` escaped as ElementTree's XML serialisation escapes an
    element's text: ``& < >``.

    >>> escape_text("B<o>b & co")
    'B&lt;o&gt;b &amp; co'
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def look_key(colours: Mapping[str, str] | None) -> tuple:
    """``colours`` (a drawing's overrides of :data:`DEFAULT_COLOURS`) as a
    key of the texts kept by look, the same for equal mappings."""
    return tuple(sorted((colours or {}).items()))


class _Unusual(Exception):
    """An element :func:`svg_text` leaves to ElementTree."""


def svg_text(element: ET.Element) -> str:
    """``ET.tostring(element, encoding="unicode")``, made several times
    faster for the trees the drawings build: plain tags (no ``{namespace}``
    prefix, no comment), string attributes and text, no tails. Any other
    tree is handed to ElementTree itself, so the text is ElementTree's
    either way (tests/render/test_render_svg.py compares the two).

    >>> root = ET.Element("svg", {"a": 'x"<&'}); ET.SubElement(root, "g").text = "1 < 2"
    >>> svg_text(root) == ET.tostring(root, encoding="unicode")
    True
    """
    out: list[str] = []
    write = out.append

    def put(el: ET.Element) -> None:
        tag = el.tag
        if el.tail or type(tag) is not str or tag[:1] == "{":
            raise _Unusual
        write("<" + tag)
        for k, v in el.items():
            if type(v) is not str or type(k) is not str or k[:1] == "{":
                raise _Unusual
            write(f' {k}="{_escape_attribute(v)}"')
        text = el.text
        if text or len(el):
            write(">")
            if text:
                if type(text) is not str:
                    raise _Unusual
                write(escape_text(text))
            for child in el:
                put(child)
            write("</" + tag + ">")
        else:
            write(" />")

    try:
        put(element)
    except _Unusual:
        return ET.tostring(element, encoding="unicode")
    return "".join(out)


class Layout:
    """Where everything goes on the board; the replay page's script draws
    from the same numbers (:meth:`to_json`).

    A *side* is 0 for the player at the bottom, 1 for the one at the top.
    :meth:`slot` gives a stack's place, :meth:`stack` a checker's centre in
    it: a stack starts at its edge of the board and grows inwards one pitch a
    checker, closing up when more than fit.

    >>> lay = Layout()
    >>> lay.stack(lay.slot(0, 1), 0, 1), lay.stack(lay.slot(1, 1), 0, 1)
    ((564.0, 468.0), (564.0, 68.0))
    >>> lay.stack(lay.slot(0, 6), 14, 15)
    (364.0, 308.0)
    """

    def __init__(self, home: str = "right"):
        if home not in ("right", "left"):
            raise ValueError(f"home must be 'right' or 'left', got {home!r}")
        self.home = home

    def x(self, x: float) -> float:
        """An x of the right-hand-home board, on this board."""
        return x if self.home == "right" else WIDTH - x

    @staticmethod
    def point_left(q: int) -> float:
        """Left edge of the column of point ``q`` (bottom player's numbering), home right."""
        if q <= 6:
            return SIDE + 6 * U + BAR + (6 - q) * U
        if q <= 12:
            return SIDE + (12 - q) * U
        if q <= 18:
            return SIDE + (q - 13) * U
        return SIDE + 6 * U + BAR + (q - 19) * U

    def slot(self, side: int, point: int) -> tuple[float, float, int, float, float]:
        """``(x, edge y, direction, room, pitch)`` of the stack of ``side``'s
        ``point`` (in that side's numbering: 0 off, 25 bar)."""
        down = 1 if side == 1 else -1   # the top side's stacks grow downwards
        if point == 0:
            x = WIDTH - SIDE / 2
            return (self.x(x), FIELD_BOTTOM if side == 0 else FIELD_TOP, down, STACK, SLAB)
        if point == 25:
            x = SIDE + 6 * U + BAR / 2
            return (self.x(x), MID + GAP / 2 if side == 0 else MID - GAP / 2, -down, STACK, U)
        q = point if side == 0 else 25 - point
        x = self.point_left(q) + U / 2
        return (self.x(x), FIELD_BOTTOM if q <= 12 else FIELD_TOP, -1 if q <= 12 else 1,
                STACK, U)

    @staticmethod
    def stack(slot: Sequence[float], i: int, n: int) -> tuple[float, float]:
        """Centre of checker ``i`` (0 at the edge) of a stack of ``n``."""
        x, y0, direction, room, pitch = slot
        step = min(pitch, (room - pitch) / (n - 1)) if n > 1 else pitch
        return (x, y0 + direction * (pitch / 2 + i * step))

    def dice_centre(self, side: int) -> tuple[float, float]:
        """Between the two dice of ``side``: in the middle of its right-hand half."""
        half = SIDE + 6 * U + BAR + 3 * U if side == 0 else SIDE + 3 * U
        return (self.x(half), MID)

    def cube_centre(self, owner_side: int | None) -> tuple[float, float]:
        y = MID if owner_side is None else (FIELD_BOTTOM - CUBE / 2 - 4 if owner_side == 0
                                            else FIELD_TOP + CUBE / 2 + 4)
        return (self.x(SIDE / 2), y)

    def band_y(self, side: int) -> float:
        """Base line of the text of ``side``'s band."""
        return HEIGHT - BAND / 2 + 5 if side == 0 else BAND / 2 + 5

    def to_json(self) -> dict[str, Any]:
        """The numbers the replay page's script draws with."""
        return {
            "width": WIDTH, "height": HEIGHT, "radius": RADIUS, "slab": [U, SLAB - 1.5],
            "slots": [[list(self.slot(side, p)) for p in range(26)] for side in (0, 1)],
            "dice": [list(self.dice_centre(0)), list(self.dice_centre(1))], "die": DIE,
            "cube": [list(self.cube_centre(None)), list(self.cube_centre(0)),
                     list(self.cube_centre(1))], "cubeSize": CUBE,
            "bands": [self.band_y(0), self.band_y(1)], "mid": MID,
            "column": self.x(SIDE / 2), "nameLimit": NAME_LIMIT,
            "text": {"swatch": SWATCH_X, "name": NAME_X, "score": SCORE_X, "pips": PIPS_X},
        }


def pip_counts(counts: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Pip counts of players 0 and 1 from their 26 counts each (bar = 25).

    >>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
    >>> pip_counts((start, start))
    (167, 167)
    """
    return tuple(sum(i * c[i] for i in range(1, 26)) for c in counts)  # type: ignore[return-value]


def _counts(side: Any) -> tuple[int, ...]:
    counts = tuple(side)
    if len(counts) != 26 or not all(isinstance(c, int) and c >= 0 for c in counts):
        raise ValueError(f"a side of a position holds 26 counts of 0 or more, got {counts!r}")
    return counts


class _Svg:
    """Builds the element tree of one drawing."""

    def __init__(self, colours: Mapping[str, str] | None, layout: Layout):
        unknown = set(colours or ()) - set(DEFAULT_COLOURS)
        if unknown:
            raise ValueError(f"unknown colour names {sorted(unknown)} "
                             f"(known: {', '.join(DEFAULT_COLOURS)})")
        self.colours = {**DEFAULT_COLOURS, **(colours or {})}
        self.lay = layout

    def c(self, name: str) -> str:
        return self.colours[name]

    @staticmethod
    def add(parent: ET.Element, tag: str, attrs: Mapping[str, Any], text: str | None = None
            ) -> ET.Element:
        el = ET.SubElement(parent, tag, {k: num(v) if isinstance(v, float) else str(v)
                                         for k, v in attrs.items()})
        if text is not None:
            el.text = text
        return el

    # -- the board itself ------------------------------------------------
    def background(self, parent: ET.Element, numbers: bool) -> None:
        """Frame, points, bar, trays and numbers: what every position shares."""
        add, c, lay = self.add, self.c, self.lay
        g = add(parent, "g", {"class": "background"})
        add(g, "rect", {"class": "surround", "x": 0, "y": 0, "width": WIDTH, "height": HEIGHT,
                        "fill": c("background")})
        add(g, "rect", {"class": "frame", "x": 0, "y": BAND, "width": WIDTH,
                        "height": HEIGHT - 2 * BAND, "rx": 6.0, "fill": c("frame")})
        for left in (SIDE, SIDE + 6 * U + BAR):
            add(g, "rect", {"class": "field", "x": lay.x(left + (0 if lay.home == "right" else 6 * U)),
                            "y": FIELD_TOP, "width": 6 * U, "height": FIELD_BOTTOM - FIELD_TOP,
                            "fill": c("field")})
        tray_x = lay.x(WIDTH - SIDE / 2) - (U + 8) / 2
        for y0, y1 in ((FIELD_TOP, MID - 6), (MID + 6, FIELD_BOTTOM)):
            add(g, "rect", {"class": "tray", "x": tray_x, "y": y0, "width": U + 8,
                            "height": y1 - y0, "rx": 3.0, "fill": c("tray")})
        depth = STACK - 14
        for q in range(1, 25):
            left = lay.x(Layout.point_left(q) + (0 if lay.home == "right" else U))
            right = left + U
            edge = FIELD_BOTTOM if q <= 12 else FIELD_TOP
            apex = edge - depth if q <= 12 else edge + depth
            shade = "dark" if q % 2 else "light"
            add(g, "polygon", {"class": f"point {shade}", "data-point": q,
                               "points": f"{num(left)},{num(edge)} {num(right)},{num(edge)} "
                                         f"{num(left + U / 2)},{num(apex)}",
                               "fill": c(f"point {shade}")})
            if numbers:
                y = FIELD_TOP - 5 if q > 12 else FIELD_BOTTOM + 13
                add(g, "text", {"class": "number", "x": left + U / 2, "y": y,
                                "font-size": 11.0, "text-anchor": "middle",
                                "fill": c("number")}, str(q))

    # -- what changes from one position to the next -----------------------
    def band(self, parent: ET.Element, player: int, side: int, name: str | None,
             score: str | None, pips: int | None) -> None:
        add, c, lay = self.add, self.c, self.lay
        g = add(parent, "g", {"class": "band", "data-player": player})
        y = lay.band_y(side)
        add(g, "circle", {"class": "swatch", "cx": SWATCH_X, "cy": y - 5, "r": 7.0,
                          "fill": c(f"checker {player}"), "stroke": c(f"checker {player} edge"),
                          "stroke-width": 1.5})
        if name:
            shown = name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "\u2026"
            add(g, "text", {"class": "name", "x": NAME_X, "y": y, "font-size": 15.0,
                            "font-weight": "bold", "fill": c("text")}, shown)
        if score:
            add(g, "text", {"class": "score", "x": SCORE_X, "y": y, "font-size": 14.0,
                            "text-anchor": "middle", "fill": c("text")}, score)
        if pips is not None:
            add(g, "text", {"class": "pips", "x": PIPS_X, "y": y, "font-size": 14.0,
                            "text-anchor": "end", "fill": c("text")},
                _("pips {n}").format(n=pips))

    def checkers(self, parent: ET.Element, player: int, side: int, counts: Sequence[int]) -> None:
        add, c, lay = self.add, self.c, self.lay
        fill, edge = c(f"checker {player}"), c(f"checker {player} edge")
        for point in (0, *range(1, 26)):
            n = counts[point]
            if not n:
                continue
            slot = lay.slot(side, point)
            for i in range(n):
                x, y = lay.stack(slot, i, n)
                attrs = {"class": "checker", "data-player": player, "data-point": point}
                if point == 0:
                    w, h = U, SLAB - 1.5
                    add(parent, "rect", {**attrs, "x": x - w / 2, "y": y - h / 2, "width": w,
                                         "height": h, "rx": 2.0, "fill": fill, "stroke": edge,
                                         "stroke-width": 1.0})
                else:
                    add(parent, "circle", {**attrs, "cx": x, "cy": y, "r": RADIUS, "fill": fill,
                                           "stroke": edge, "stroke-width": 1.5})
            if n > 5 and point != 0:
                x, y = lay.stack(slot, n - 1, n)
                add(parent, "text", {"class": "count", "data-player": player,
                                     "data-point": point, "x": x, "y": y + 5,
                                     "font-size": 15.0, "font-weight": "bold",
                                     "text-anchor": "middle", "fill": c(f"count {player}")},
                    str(n))

    def die(self, parent: ET.Element, player: int, value: int, cx: float, cy: float) -> None:
        add, c = self.add, self.c
        g = add(parent, "g", {"class": "die", "data-player": player, "data-value": value})
        add(g, "rect", {"x": cx - DIE / 2, "y": cy - DIE / 2, "width": DIE, "height": DIE,
                        "rx": 5.0, "fill": c(f"die {player}"), "stroke": c(f"checker {player} edge"),
                        "stroke-width": 1.5})
        for dx, dy in _PIPS.get(value, ()):
            add(g, "circle", {"class": "pip", "cx": cx + dx * DIE / 3.6, "cy": cy + dy * DIE / 3.6,
                              "r": 3.2, "fill": c(f"die {player} pip")})

    def cube(self, parent: ET.Element, value: int, owner: int | None, offered: bool,
             cx: float, cy: float) -> None:
        add, c = self.add, self.c
        g = add(parent, "g", {"class": "cube", "data-value": value,
                              "data-owner": "none" if owner is None else owner,
                              "data-offered": "true" if offered else "false"})
        add(g, "rect", {"x": cx - CUBE / 2, "y": cy - CUBE / 2, "width": CUBE, "height": CUBE,
                        "rx": 4.0, "fill": c("cube"), "stroke": c("cube edge"),
                        "stroke-width": 1.5})
        shown = "64" if value == 1 and owner is None and not offered else str(value)
        size = 18.0 if len(shown) <= 2 else (14.0 if len(shown) == 3 else 10.0)
        add(g, "text", {"x": cx, "y": cy + size * 0.36, "font-size": size, "font-weight": "bold",
                        "text-anchor": "middle", "fill": c("cube text")}, shown)

    def arrow(self, parent: ET.Element, tail: tuple[float, float], head: tuple[float, float],
              src: int, dst: int, hit: bool) -> None:
        add, c = self.add, self.c
        g = add(parent, "g", {"class": "arrow", "data-from": src, "data-to": dst,
                              "data-hit": "true" if hit else "false", "opacity": 0.8})
        for shape, attrs in arrow_shapes(tail, head):
            add(g, shape, {**attrs, "fill": c("arrow")} if shape != "line"
                else {**attrs, "stroke": c("arrow")})
        if hit:
            add(parent, "circle", {"class": "hit", "cx": head[0], "cy": head[1], "r": RADIUS + 3,
                                   "fill": "none", "stroke": c("hit"), "stroke-width": 3.0})


def arrow_shapes(tail: tuple[float, float], head: tuple[float, float]
                 ) -> list[tuple[str, dict[str, float]]]:
    """The shaft (a line) and head (a triangle) of an arrow, or a ring when
    it goes nowhere.

    >>> [s for s, _ in arrow_shapes((0.0, 0.0), (0.0, 100.0))]
    ['line', 'polygon']
    """
    (x1, y1), (x2, y2) = tail, head
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5
    if length < 1:
        return [("circle", {"cx": x2, "cy": y2, "r": RADIUS * 0.6})]
    ux, uy = dx / length, dy / length
    head_len = min(16.0, length * 0.6)
    bx, by = x2 - ux * head_len, y2 - uy * head_len
    return [("line", {"x1": x1, "y1": y1, "x2": bx, "y2": by, "stroke-width": 6.0}),
            ("polygon", {"points": f"{num(x2)},{num(y2)} {num(bx - uy * 9)},{num(by + ux * 9)} "
                                   f"{num(bx + uy * 9)},{num(by - ux * 9)}"})]


def _anchor(lay: Layout, side: int, point: int, i: int, n: int) -> tuple[float, float]:
    slot = lay.slot(side, point)
    return lay.stack(slot, min(i, n - 1), n)


def play_anchors(lay: Layout, side: int, counts: Sequence[int], src: int, dst: int
                 ) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where the arrow of a die step ``src``-``dst`` starts and ends, drawn
    on the position after it: from the place the checker left to the
    checker on top of its new stack."""
    c_src = counts[src] if 0 <= src <= 25 else 0
    c_dst = counts[dst] if 0 <= dst <= 25 else 0
    return (_anchor(lay, side, src, c_src, c_src + 1),
            _anchor(lay, side, dst, max(c_dst - 1, 0), max(c_dst, 1)))


def _score_text(score: int, length: int) -> str:
    return (_("score {score}/{length}").format(score=score, length=length) if length
            else _("score {score}").format(score=score))


def board(snapshot_or_position: Any = None, *, state: MatchState | None = None,
          size: int | None = None, bottom: int | None = None,
          names: Sequence[str] | None = None, pips: bool = True, cube: bool = True,
          dice: bool = True, score: bool = True, last_play: Iterable[Sequence[Any]] | None = None,
          last_player: int | None = None, numbers: bool = True, home: str = "right",
          colours: Mapping[str, str] | None = None, style: str | None = None,
          title: str | None = None) -> SvgText:
    """Draw a position as a standalone SVG document.

    ``snapshot_or_position``: a :class:`~gamao_cli.positions.Snapshot`
    (position and match state), or anything with ``.me`` and ``.opp`` (26
    counts each, seen by the player on roll, like
    :class:`~gamao_cli.board.Position`), with the match state in ``state``;
    without a state, ``me`` is player 0's and there are no dice. ``None``
    draws the empty board.

    Options:

    - ``size``: width in pixels (the height follows); ``None`` leaves the
      size to whatever holds the drawing (the view box is 640 by 536).
    - ``bottom``: the player (0 left, 1 right) at the bottom, whose point
      numbers are drawn; ``None``: the player on roll.
    - ``names``: the two players' names (player 0's first), drawn beside
      their pip counts.
    - ``pips``, ``score``: draw each player's pip count, and the score
      (``score 2/5``) when there is a state.
    - ``cube``: draw the cube (centred, showing 64, without a state); a
      double on offer shows the doubled cube in the offering player's half.
    - ``dice``: draw the dice of the player on roll (from the state).
    - ``last_play``: die steps ``(src, dst, hit)`` to draw as arrows, in the
      numbering of ``last_player`` (default: the player not on roll, who
      made the play that led here); ``src`` 25 is the bar, ``dst`` 0 off.
      Hits get a ring.
    - ``numbers``: the point numbers, from the bottom player's side.
    - ``home``: ``"right"`` (the bottom player's home board at the bottom
      right) or ``"left"``.
    - ``colours``: a dict overriding some of :data:`DEFAULT_COLOURS`.
    - ``style``: a CSS style sheet to put in the drawing.
    - ``title``: the drawing's ``<title>`` (default: the IDs of the position).
    """
    from gamao_cli.formats.textio import xml_safe
    # what XML 1.0 forbids (a control character in a name) as its escape
    return SvgText(xml_safe(svg_text(board_element(
        snapshot_or_position, state=state, size=size, bottom=bottom, names=names, pips=pips,
        cube=cube, dice=dice, score=score, last_play=last_play, last_player=last_player,
        numbers=numbers, home=home, colours=colours, style=style, title=title))))


#: background_text's drawings, by look (a few looks in a run)
_BACKGROUNDS: BoundedCache[tuple, str] = BoundedCache(64)


def background_text(colours: Mapping[str, str] | None = None, *, numbers: bool = True,
                    home: str = "right") -> str:
    """The ``<g class="background">`` of :func:`board_element` (what every
    position of one look shares) as XML text, made once a look: what a
    drawing made with ``background=False`` holds empty in its place.

    >>> background_text().startswith('<g class="background"><rect class="surround"')
    True
    """
    key = (look_key(colours), numbers, home)
    text = _BACKGROUNDS.get(key)
    if text is None:
        holder = ET.Element("svg")
        _Svg(colours, Layout(home)).background(holder, numbers)
        text = _BACKGROUNDS.put(key, svg_text(holder[0]))
    return text


def board_element(snapshot_or_position: Any = None, *, state: MatchState | None = None,
                  size: int | None = None, bottom: int | None = None,
                  names: Sequence[str] | None = None, pips: bool = True, cube: bool = True,
                  dice: bool = True, score: bool = True,
                  last_play: Iterable[Sequence[Any]] | None = None,
                  last_player: int | None = None, numbers: bool = True, home: str = "right",
                  colours: Mapping[str, str] | None = None, style: str | None = None,
                  title: str | None = None, background: bool = True) -> ET.Element:
    """What :func:`board` draws, as an element tree (its ``<g class="position">``
    holds everything that changes from one position to the next).
    ``background=False`` leaves the ``<g class="background">`` (frame,
    points, trays, numbers) empty, for a caller that puts in
    :func:`background_text`, made once for all its drawings."""
    pos = snapshot_or_position
    if pos is not None and hasattr(pos, "position") and hasattr(pos, "state"):
        state = pos.state if state is None else state
        pos = pos.position
    if pos is None:
        counts = ((0,) * 26, (0,) * 26)
    else:
        me, opp = _counts(pos.me), _counts(pos.opp)
        counts = (me, opp) if state is None or state.on_roll == 0 else (opp, me)
    on_roll = state.on_roll if state is not None else 0
    if bottom is None:
        bottom = on_roll
    if bottom not in (0, 1):
        raise ValueError(f"bottom must be 0 or 1 (or None: the player on roll), got {bottom!r}")
    if names is not None and len(names) != 2:
        raise ValueError(f"names holds two names, got {names!r}")
    lay = Layout(home)
    svg_b = _Svg(colours, lay)

    def side(player: int) -> int:
        return 0 if player == bottom else 1

    pid = position_id(*((counts[on_roll], counts[1 - on_roll]))) if pos is not None else None
    mid = match_id(state) if state is not None else None
    root = ET.Element("svg", {"xmlns": SVG_NS, "version": "1.1",
                              "viewBox": f"0 0 {num(WIDTH)} {num(HEIGHT)}",
                              "class": "gamao-board", "font-family": "sans-serif",
                              "role": "img", "data-bottom": str(bottom),
                              "data-on-roll": str(on_roll)})
    if size is not None:
        root.set("width", str(size))
        root.set("height", num(size * HEIGHT / WIDTH))
    if pid:
        root.set("data-position-id", pid)
    if mid:
        root.set("data-match-id", mid)
    if title is None:
        if pid and mid:
            title = _("Backgammon board, Position ID {pid}, Match ID {mid}").format(pid=pid, mid=mid)
        elif pid:
            title = _("Backgammon board, Position ID {pid}").format(pid=pid)
        else:
            title = _("Backgammon board")
        if names:
            title = _("{board}: {top} (top) and {bottom} (bottom)").format(
                board=title, top=names[1 - bottom], bottom=names[bottom])
    ET.SubElement(root, "title").text = title
    if style:
        ET.SubElement(root, "style").text = style
    if background:
        svg_b.background(root, numbers)
    else:
        ET.SubElement(root, "g", {"class": "background"})
    g = svg_b.add(root, "g", {"class": "position"})
    totals = pip_counts(counts)
    for player in (0, 1):
        sc = None
        if score and state is not None:
            sc = _score_text(state.score[player], state.length)
        svg_b.band(g, player, side(player), names[player] if names else None, sc,
                   totals[player] if pips and pos is not None else None)
    if state is not None and state.length:
        x = lay.x(SIDE / 2)
        svg_b.add(g, "text", {"class": "length", "x": x, "y": MID - CUBE / 2 - 8,
                              "font-size": 11.0, "text-anchor": "middle",
                              "fill": svg_b.c("number")},
                  _("{n} pt").format(n=state.length))
        if state.crawford:
            svg_b.add(g, "text", {"class": "crawford", "x": x, "y": MID + CUBE / 2 + 16,
                                  "font-size": 10.0, "text-anchor": "middle",
                                  "fill": svg_b.c("number")}, _("Crawford"))
    for player in (0, 1):
        svg_b.checkers(g, player, side(player), counts[player])
    if cube:
        if state is None:
            svg_b.cube(g, 1, None, False, *lay.cube_centre(None))
        elif state.double_offered:
            svg_b.cube(g, state.cube * 2, state.cube_owner, True,
                       *lay.dice_centre(side(state.on_roll)))
        else:
            owner = state.cube_owner
            svg_b.cube(g, state.cube, owner, False,
                       *lay.cube_centre(None if owner is None else side(owner)))
    if dice and state is not None and state.dice != (0, 0) and not state.double_offered:
        cx, cy = lay.dice_centre(side(on_roll))
        for k, value in enumerate(state.dice):
            svg_b.die(g, on_roll, value, cx + (k - 0.5) * (DIE + 8), cy)
    if last_play:
        mover = (1 - on_roll) if last_player is None else last_player
        if mover not in (0, 1):
            raise ValueError(f"last_player must be 0 or 1, got {mover!r}")
        for step in last_play:
            src, dst, hit = step[0], step[1], bool(step[2]) if len(step) > 2 else False
            if not (0 <= src <= 25 and 0 <= dst <= 25):
                continue
            tail, head = play_anchors(lay, side(mover), counts[mover], src, dst)
            svg_b.arrow(g, tail, head, src, dst, hit)
    return root
