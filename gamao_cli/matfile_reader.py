"""Read match files (.mat, Jellyfish style) into :mod:`gamao_cli.model` objects.

The grammar lives in ``grammar/matchfile.lark`` (shipped inside the package as
``gamao_cli/grammar``). Lark's LALR parser applies :class:`MatchFileBuilder`
while it parses, so no intermediate tree is built.

>>> text = '''; [Site "example"]
...
...  1 point match
...
...  Game 1
...  Ann : 0                        Bob : 0
...   1) 31: 8/5 6/5                 62: 24/18 13/11
...       Wins 1 point and the match
... '''
>>> [m] = read_matches(text, "example.mat")
>>> m.length, m.players
(1, ('Ann', 'Bob'))
>>> [str(a.text()) for a in m.games[0].actions]
['31: 8/5 6/5', '62: 24/18 13/11', 'Wins 1 point and the match']
"""
from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path
from typing import Iterable, Iterator

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import model as m
from .errors import NotAMatchFile, SyntaxProblem

GRAMMAR_FILE = "matchfile.lark"

_STEP_RE = re.compile(r"(\S+?)(?:\((\d+)\))?(?=[ \t]|$)")
_POINT_RE = re.compile(r"([^/*]+)(\*?)")
_TAG_RE = re.compile(r';[ \t]*\[[ \t]*([^"\]]*?)[ \t]*"(.*)"[ \t]*\][ \t]*$')
_SCORE_RE = re.compile(r"(.*?)[ \t]*:[ \t]*(-?\d+)$")
_RATING_RE = re.compile(r"^(.*\S),([-\d.]+)$")
_INT_RE = re.compile(r"\d+")
_HEADER_RE = re.compile(r"^[ \t]*(\d+)[ \t]+points?[ \t]+match", re.I)

# A lone cell (a line of its own, like "      Wins 2 point") belongs to the
# left player when it starts left of this column, else to the right player.
LONE_CELL_RIGHT_COLUMN = 25

_BAR_WORDS = {"bar": "bar", "b": "b", "25": "25"}
_OFF_WORDS = {"off": "off", "o": "o", "0": "0"}


def grammar_text(name: str) -> str:
    """The text of a grammar file: from the installed package, else from the
    source tree's ``grammar/`` folder (running from a checkout)."""
    try:
        return resources.files("gamao_cli.grammar").joinpath(name).read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (Path(__file__).resolve().parent.parent / "grammar" / name).read_text("utf-8")


class _Cell:
    """A cell before its side is known: the kind of action and its fields."""

    __slots__ = ("cls", "fields", "token")

    def __init__(self, cls: type, fields: dict, token: Token):
        self.cls = cls
        self.fields = fields
        self.token = token

    def build(self, player: int, move_number: int | None) -> m.ActionType:
        return self.cls(player, **self.fields, line=self.token.line,
                        column=self.token.column, move_number=move_number)


def _dice(tok: Token) -> tuple[int, int]:
    s = str(tok)
    return (ord(s[0]) - 48, ord(s[1]) - 48)


def _point(word: str) -> tuple[int, str | None, str | None]:
    """(point, bar spelling, off spelling) of one written point."""
    low = word.lower()
    if low in ("bar", "b"):
        return m.BAR, low, None
    if low in ("off", "o"):
        return m.OFF, None, low
    n = int(word)
    return n, ("25" if n == 25 else None), ("0" if n == 0 else None)


def parse_steps(text: str, line: int, column: int) -> tuple[m.Step, ...]:
    """Split the play part of a cell (``24/18*/13 8/5(2)``) into steps.

    ``column`` is the column of the first character of ``text``.
    """
    steps = []
    for sm in _STEP_RE.finditer(text):
        body, rep = sm.group(1), sm.group(2)
        points: list[int] = []
        hits: list[bool] = []
        bar = "bar"
        off = "off"
        for i, pm in enumerate(_POINT_RE.finditer(body)):
            p, b, o = _point(pm.group(1))
            points.append(p)
            if b:
                bar = b
            if o:
                off = o
            if i:
                hits.append(bool(pm.group(2)))
        steps.append(m.Step(tuple(points), tuple(hits), int(rep) if rep else 1,
                            bar=bar, off=off, line=line, column=column + sm.start()))
    return tuple(steps)


class MatchFileBuilder(Transformer):
    """Builds model objects from the grammar's rules (applied during parsing)."""

    # -- cells ---------------------------------------------------------
    def roll_play(self, c):
        tok = c[0]
        s = str(tok)
        i = 3
        while s[i] in " \t":
            i += 1
        moves = parse_steps(s[i:], tok.line, tok.column + i)
        return _Cell(m.Play, {"dice": _dice(tok), "moves": moves}, tok)

    def roll_dance(self, c):
        tok = c[0]
        written = str(tok)[3:].strip()
        written = " ".join(written.split())
        return _Cell(m.Dance, {"dice": _dice(tok), "written": written}, tok)

    def roll_unplayed(self, c):
        tok = c[0]
        return _Cell(m.UnplayedRoll, {"dice": _dice(tok), "written": str(tok)[3:].strip()}, tok)

    def roll_illegal(self, c):
        tok = c[0]
        return _Cell(m.IllegalPlayMarker, {"dice": _dice(tok), "written": str(tok)[3:].strip()}, tok)

    def double(self, c):
        tok = c[0]
        s = str(tok)
        low = s[:3].lower()
        kind = "beaver" if low == "bea" else "raccoon" if low == "rac" else "double"
        num = _INT_RE.search(s)
        return _Cell(m.Double, {"value": int(num.group()) if num else None, "kind": kind}, tok)

    def take(self, c):
        return _Cell(m.Take, {}, c[0])

    def drop(self, c):
        return _Cell(m.Drop, {}, c[0])

    def win(self, c):
        tok = c[0]
        s = str(tok)
        return _Cell(m.Win, {"points": int(_INT_RE.search(s).group()),
                             "match": s.rstrip().lower().endswith("match")}, tok)

    def loss(self, c):
        tok = c[0]
        return _Cell(m.Loss, {"points": int(_INT_RE.search(str(tok)).group())}, tok)

    def resign(self, c):
        return _Cell(m.Resign, {}, c[0])

    # -- lines ---------------------------------------------------------
    def move_line(self, c):
        number = int(str(c[0])[:-1])
        side = 0
        actions = []
        for item in c[1:]:
            if isinstance(item, _Cell):
                actions.append(item.build(side % 2, number))
                side += 1
            elif item.type == "RIGHT_GAP":
                side = 1
        return actions

    def lone_cell(self, c):
        side = 0 if c[0].token.column < LONE_CELL_RIGHT_COLUMN else 1
        actions = []
        for item in c:
            if isinstance(item, _Cell):
                actions.append(item.build(side % 2, None))
                side += 1
        return actions

    def comment(self, c):
        return str(c[0])

    def tag(self, c):
        tok = c[0]
        tm = _TAG_RE.match(str(tok))
        if tm is None:
            return str(tok)
        return m.Tag(tm.group(1), tm.group(2), line=tok.line)

    def header(self, c):
        tok = c[0]
        return tok

    def score_line(self, c):
        names = []
        scores = []
        ratings = []
        for tok in c:
            sm = _SCORE_RE.match(str(tok))
            name = sm.group(1).strip()
            rating = None
            rm = _RATING_RE.match(name)
            if rm:
                name, rating = rm.group(1), rm.group(2)
            names.append(name)
            scores.append(int(sm.group(2)))
            ratings.append(rating)
        while len(names) < 2:
            names.append("")
            scores.append(None)
            ratings.append(None)
        first = c[0]
        return m.ScoreLine(tuple(names), tuple(scores), tuple(ratings),
                           line=first.line, column=first.column)

    def game(self, c):
        tok = c[0]
        g = m.Game(int(_INT_RE.search(str(tok)).group()), None, line=tok.line, column=tok.column)
        for item in c[1:]:
            if isinstance(item, m.ScoreLine):
                g.score = item
            elif isinstance(item, list):
                g.actions.extend(item)
            elif isinstance(item, str):
                g.comments.append(item)
        return g

    def match(self, c):
        mt = m.Match(0)
        for item in c:
            if isinstance(item, m.Tag):
                mt.tags.append(item)
            elif isinstance(item, m.Game):
                mt.games.append(item)
            elif isinstance(item, Token):  # the header
                mt.length = int(_INT_RE.search(str(item)).group())
                mt.line, mt.column = item.line, item.column
            elif isinstance(item, str):
                mt.comments.append(item)
        return mt

    def start(self, c):
        return list(c)


@functools.cache
def _parser() -> Lark:
    return Lark(grammar_text(GRAMMAR_FILE), parser="lalr", lexer="contextual",
                transformer=MatchFileBuilder(), propagate_positions=False,
                maybe_placeholders=False)


# Examples of broken input for lark's match_examples: each label becomes the
# player-facing message of a syntax error.
_ERROR_EXAMPLES = {
    "a score line (\"Name : 0   Name : 0\") must follow the Game line": [
        " 1 point match\n\n Game 1\n  1) 31: 8/5 6/5\n",
    ],
    "this is not a move, cube action or result": [
        " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 hello\n",
        " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) hello\n",
        " 1 point match\n\n Game 1\n A : 0   B : 0\n hello\n",
    ],
    "a play step must look like 13/7, 24/18*, bar/22 or 6/off(2)": [
        " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8-5 6-5\n",
        " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/\n",
    ],
}


_BROKEN_STEP_RE = re.compile(r"(bar|off|\d+)\*?([-/\\]|$|/\s)", re.I)


def _expected_words(exc: UnexpectedInput) -> list[str]:
    names = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    words = {
        "ROLL_PLAY": "a roll and play (\"62: 24/18 13/11\")", "ROLL": "a roll (\"62:\")",
        "DOUBLE": "\"Doubles => 2\"", "TAKE": "\"Takes\"", "DROP": "\"Drops\"",
        "WINS": "\"Wins N point\"", "MOVENUM": "a move number (\"7)\")",
        "GAME": "\"Game N\"", "PLAYER_SCORE": "a score line (\"Name : 0\")",
        "LENGTH": "\"N point match\"", "_NL": "the end of the line",
    }
    out = []
    for n in names:
        w = words.get(n)
        if w and w not in out:
            out.append(w)
    return out


_TRAILING_BLANKS = re.compile(r"[ \t]+$", re.M)


def prepare_text(text: str) -> str:
    """What the grammar expects: ``\n`` line ends, no trailing blanks on any
    line, a final newline. Columns of the remaining characters do not move."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _TRAILING_BLANKS.sub("", text)
    if not text.endswith("\n"):
        text += "\n"
    return text


def looks_like_match_file(text: str) -> bool:
    """FORMATS.md: a line starts with ``; [``, or the first line starting with a
    digit reads ``N point match``."""
    for line in text.splitlines():
        s = line.lstrip()
        if s.startswith("; ["):
            return True
        if s[:1].isdigit():
            return bool(_HEADER_RE.match(line))
    return False


def _has_header(text: str) -> bool:
    return any(_HEADER_RE.match(line) for line in text.splitlines())


def read_matches(text: str, path: str = "") -> list[m.Match]:
    """Parse the text of a match file into its matches (usually one).

    Raises :class:`NotAMatchFile` or :class:`SyntaxProblem` with file, line
    and column.
    """
    if not looks_like_match_file(text) or not _has_header(text):
        raise NotAMatchFile(path, "not a match file: no \"N point match\" header line", line=1, column=1)
    text = prepare_text(text)
    parser = _parser()
    try:
        matches = parser.parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, path) from None
    for mt in matches:
        mt.path = path
    return matches


def _syntax_error(exc: UnexpectedInput, text: str, path: str) -> SyntaxProblem:
    label = None
    try:
        label = exc.match_examples(_parser().parse, _ERROR_EXAMPLES, use_accepts=True)
    except Exception:  # match_examples is a heuristic; never let it hide the error
        label = None
    line = getattr(exc, "line", None)
    column = getattr(exc, "column", None)
    if isinstance(exc, UnexpectedEOF) or line in (None, -1):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        found = ""
        message = label or "the file ends in the middle of a game"
    else:
        src_line = text.splitlines()[line - 1] if line - 1 < len(text.splitlines()) else ""
        found = src_line[column - 1:].strip()[:40]
        if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
            message = label or "the file ends too early"
        elif _BROKEN_STEP_RE.match(found):
            message = "a play step must look like 13/7, 24/18*, bar/22 or 6/off(2)"
        else:
            message = label or "cannot read this part of the line"
    return SyntaxProblem(path, message, line=line, column=column, text=found,
                         expected=_expected_words(exc))


def iter_matches(text: str, path: str = "") -> Iterator[m.Match]:
    """Like :func:`read_matches`, one match at a time."""
    yield from read_matches(text, path)
