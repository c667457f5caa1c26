"""Read match files (.mat, Jellyfish style) into :mod:`gamao_cli.model` objects.

The grammar lives in ``grammar/matchfile.lark`` (shipped inside the package as
``gamao_cli/grammar``). Lark's LALR parser applies :class:`MatchFileBuilder`
while it parses, so no intermediate tree is built. The reader parses with the
grammar's start symbol ``runs``, whose tokens are whole runs of lines that
the builder cuts into lines and cells; a file that ``runs`` rejects is parsed
again line by line (start symbol ``start``), which says where and why.
Plays keep their text and make their steps when first asked for.

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
from typing import Iterator

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from gamao_cli import kernels
from gamao_cli import model as m
from gamao_cli.errors import NotAMatchFile, SyntaxProblem
from gamao_cli.model.notation import BoundedCache, shape_of

from ..grammars import grammar_text, parser_cache_key, parser_cache_path
from ..limits import play_problem
from .limits import check_long_plays, check_repeats, long_number_problem
from .setpos import SET_POS, set_up_of, settle

GRAMMAR_FILE = "matchfile.lark"

_TAG_RE = re.compile(r';[ \t]*\[[ \t]*([^"\]]*?)[ \t]*"(.*)"[ \t]*\][ \t]*$')
_SCORE_RE = re.compile(r"[ \t]*((?:[^ \t\n:](?:[^\n:]*?[^ \t\n:])?)?)[ \t]*:[ \t]*(-?\d+)")
_RATING_RE = re.compile(r"^(.*\S),([-\d.]+)$")
_INT_RE = re.compile(r"\d+")
_HEADER_RE = re.compile(r"^[ \t]*(\d+)[ \t]+points?[ \t]+match", re.I)

# A lone cell (a line of its own, like "      Wins 2 point") belongs to the
# left player when it starts left of this column, else to the right player.
LONE_CELL_RIGHT_COLUMN = 25

_BAR_WORDS = {"bar": "bar", "b": "b", "25": "25"}
_OFF_WORDS = {"off": "off", "o": "o", "0": "0"}


def _dice(tok: Token) -> tuple[int, int]:
    s = str(tok)
    return (ord(s[0]) - 48, ord(s[1]) - 48)


# -- cells: (text, line, column) -> action fields ------------------------------

# about 300 bytes an entry (the bulk corpus has 22,837 distinct cells)
_ROLL_PLAYS: BoundedCache[str, tuple] = BoundedCache(32768)


def _roll_play_info(cell: str, line: int, column: int) -> tuple:
    """(dice, offset of the play text, :class:`m.PlayText`) of a ROLL_PLAY
    cell (what :meth:`m.Play.from_text` takes). Kept in
    ``_ROLL_PLAYS`` (emptied when full): the same cells recur across a whole
    archive. A play beyond the bounds of :mod:`gamao_cli.formats.limits`
    raises its :class:`SyntaxProblem` (without the path, which
    :func:`read_matches` adds), at ``line`` and ``column`` (the cell's)."""
    info = _ROLL_PLAYS.get(cell)
    if info is None:
        i = 3
        while cell[i] in " \t":
            i += 1
        if len(cell) > 100:   # a real play is shorter: only then can it be out of bounds
            problem = play_problem(cell, "", line, column, at=i)
            if problem is not None:
                raise problem
        play = cell[i:]
        info = (ord(cell[0]) - 48, ord(cell[1]) - 48), i, m.PlayText(play, m.parse_steps, shape_of)
        _ROLL_PLAYS.put(cell, info)
    return info


def _roll_play(text: str, line: int, column: int):
    dice, i, written = _roll_play_info(text, line, column)
    return m.Play, {"dice": dice, "moves": m.parse_steps(written.text, line, column + i)}


def _roll_dance(text: str, line: int, column: int):
    return m.Dance, {"dice": _dice(text), "written": " ".join(text[3:].split())}


def _roll_unplayed(text: str, line: int, column: int):
    return m.UnplayedRoll, {"dice": _dice(text), "written": text[3:].strip()}


def _roll_illegal(text: str, line: int, column: int):
    return m.IllegalPlayMarker, {"dice": _dice(text), "written": text[3:].strip()}


def _double(text: str, line: int, column: int):
    low = text[:3].lower()
    kind = "beaver" if low == "bea" else "raccoon" if low == "rac" else "double"
    num = _INT_RE.search(text)
    return m.Double, {"value": int(num.group()) if num else None, "kind": kind}


def _win(text: str, line: int, column: int):
    return m.Win, {"points": int(_INT_RE.search(text).group()),
                   "match": text.lower().endswith("match")}


def _loss(text: str, line: int, column: int):
    return m.Loss, {"points": int(_INT_RE.search(text).group())}


_NO_FIELDS: dict = {}

# Each cell terminal of the grammar, in the order a line is tried against them
# (a longer cell before its prefix), and what it builds.
CELL_KINDS = {
    "ROLL_PLAY": _roll_play,
    "ROLL_CANNOT": _roll_dance,
    "ROLL_UNKNOWN": _roll_unplayed,
    "ROLL_ILLEGAL": _roll_illegal,
    "ROLL": _roll_dance,
    "DOUBLE": _double,
    "TAKE": lambda text, line, column: (m.Take, _NO_FIELDS),
    "DROP": lambda text, line, column: (m.Drop, _NO_FIELDS),
    "WINS": _win,
    "LOSSES": _loss,
    "RESIGNS": lambda text, line, column: (m.Resign, _NO_FIELDS if text == "Resigns"
                                           else {"word": text}),
}

# A gap this wide after the move number means the left cell is empty.
RIGHT_GAP_WIDTH = 6


def _cell_splitter(parser: Lark) -> "re.Pattern[str]":
    """The regular expression that splits a MOVE_LINE (or CELLS) token into
    cells, built from the grammar's own cell terminals: one named group per
    terminal, each cell preceded by its gap and an optional repeated move
    number (Backgammon Galaxy)."""
    alternatives = []
    for name in CELL_KINDS:
        pattern = parser.get_terminal(name).pattern
        regexp = pattern.to_regexp()
        alternatives.append(f"(?P<{name}>{regexp})")
    # blanks taken possessively: no cell starts with one, and a gap that gave
    # back what it took would be tried again at each of its blanks
    splitter = re.compile(r"(?P<gap>[ \t]*+)(?:\d+\)[ \t]++)?(?:" + "|".join(alternatives) + ")")
    if splitter.groups != len(CELL_KINDS) + 1:
        raise RuntimeError("cell terminals of the grammar must not hold capturing groups")
    return splitter


def _line_splitter(splitter: "re.Pattern[str]") -> "re.Pattern[str]":
    """The regular expression that cuts the move text of `runs` (the
    GAME_BLOCK and MOVES tokens, whose lines the grammar leaves unchecked
    for speed) into cells, and checks it.

    One match is a cell, as the cell splitter finds it (built from the
    grammar's cell terminals, with the gap and any repeated move number
    before it), maybe opening a line: then the line break, blank lines, the
    next line's indentation and its move number come first, in the same
    match (groups ``newline``, ``number``); a line break not followed by a
    cell on its line is a match of its own (``break``, ``break_number``);
    anything else is one character of ``junk``, which means the text is not
    move lines (the reader then parses the file line by line, which says
    where and why). Blanks are taken possessively: no match gives back what
    it took, so no line makes the expression backtrack."""
    cells = splitter.pattern
    rx = re.compile(r"(?:(?P<newline>(?:\n[ \t]*+)++)(?:(?P<number>\d+)\))?)?" + cells
                    + r"|(?P<break>(?:\n[ \t]*+)++)(?:(?P<break_number>\d+)\))?"
                    + r"|(?P<junk>[\s\S])")
    if (rx.groupindex["gap"], rx.groupindex["break"], rx.groupindex["junk"]) != \
            (_GAP_GROUP, _BREAK_GROUP, _JUNK_GROUP):
        raise RuntimeError("the line splitter's groups moved")
    return rx


# Groups of the line splitter: newline 1, number 2, gap 3, then one per cell
# kind, then the line break alone and its number, then junk.
_GAP_GROUP = 3
_ROLL_PLAY_GROUP = 4 + list(CELL_KINDS).index("ROLL_PLAY")
_BREAK_GROUP = 4 + len(CELL_KINDS)
_BREAK_NUMBER_GROUP = _BREAK_GROUP + 1
_JUNK_GROUP = _BREAK_GROUP + 2
_GAME_HEAD_RE = re.compile(r"([^\n]*)\n[\n \t]*")  # a Game line and the blanks after it
_MOVE_NUMBER_RE = re.compile(r"\d+\)")


def _cell_scan_kernel():
    """The C kernel's ``scan`` (``_cell_scan.c``), set up with the class of
    plays, or None (not built, GAMAO_PURE_PYTHON, or a Play it cannot make)."""
    module = kernels.kernel("gamao_cli.formats.mat._cell_scan")
    if module is None or not module.setup(m.Play, m.Dance, m.Double, m.Take, m.Drop, m.Win,
                                          m.Loss, LONE_CELL_RIGHT_COLUMN, RIGHT_GAP_WIDTH):
        return None
    return module.scan


# MatchFileBuilder._runs uses the kernel when this is not None (the tests set
# it to None to run the Python loop, the reference, and compare).
_CELL_SCAN = _cell_scan_kernel()


class _NotMoveText(Exception):
    """Move text of `runs` that is not move lines (the reader then parses
    the file line by line)."""


class MatchFileBuilder(Transformer):
    """Builds model objects from the grammar's rules (applied during parsing)."""

    def __init__(self) -> None:
        super().__init__()
        self.splitter: "re.Pattern[str] | None" = None
        self.line_splitter: "re.Pattern[str] | None" = None

    def _cells(self, text: str, start: int, line: int, column: int, side: int,
               number: int | None) -> list[m.ActionType]:
        actions = []
        first = True
        for cm in self.splitter.finditer(text, start):
            kind = cm.lastgroup
            if first and number is not None and len(cm.group("gap")) >= RIGHT_GAP_WIDTH:
                side = 1
            first = False
            col = column + cm.start(kind)
            cls, fields = CELL_KINDS[kind](cm.group(kind), line, col)
            actions.append(cls(side & 1, **fields, line=line, column=col, move_number=number))
            side += 1
        return actions

    def move_line(self, tok: Token) -> list[m.ActionType]:
        text = str(tok)
        close = text.index(")")
        return self._cells(text, close + 1, tok.line, tok.column, 0, int(text[:close]))

    def lone_cells(self, tok: Token) -> list[m.ActionType]:
        side = 0 if tok.column < LONE_CELL_RIGHT_COLUMN else 1
        return self._cells(str(tok), 0, tok.line, tok.column, side, None)

    def _runs(self, text: str, start: int, line: int, line_start: int, number: int | None,
              actions: list) -> None:
        """Append the actions of the move lines (MOVE_LINE) and lines of lone
        cells (CELLS) of ``text[start:]``, which starts at a line break or
        at the first cell of a line; ``line`` is that line's number,
        ``line_start`` the index in ``text`` of its column 1 (negative when
        the line starts before ``text``) and ``number`` its move number
        (None for lone cells). Raises :class:`_NotMoveText` when the text is
        not move lines.

        Each cell gets what :meth:`move_line` and :meth:`lone_cells` give it;
        plays are made with the steps to come (``Play.from_text``).

        This loop is the reference. With the optional C kernel
        (``_cell_scan.c``, :data:`_CELL_SCAN`), ``scan`` first consumes the
        matches it can prove the line splitter makes (a ROLL_PLAY cell on
        the regular expression's first path, with any line break, move
        number and gap before it, all ASCII; a dance "DD:" alone; the
        other common cells in their usual spelling, such as "Doubles => 2",
        "Takes", "Wins 1 point"; the line breaks that end the text), making
        their actions as below; the loop then takes the one match the
        kernel left (another cell kind or spelling, a line break with more
        after it, junk, anything beyond ASCII: the splitter's junk
        alternative matches any character, so its next match is at
        ``pos``) and hands on to the kernel again."""
        scan = _CELL_SCAN
        first = True  # no cell yet on this line
        side = 0
        play_from_text = m.Play.from_text
        plays = _ROLL_PLAYS.data
        roll_play, break_group, gap = _ROLL_PLAY_GROUP, _BREAK_GROUP, _GAP_GROUP
        count, rindex = text.count, text.rindex
        pos, end = start, len(text)
        while True:
            if scan is not None:
                pos, line, line_start, number, first, side = scan(
                    text, pos, line, line_start, number, first, side, actions, plays,
                    _roll_play_info)
                if pos >= end:
                    return
            for cm in self.line_splitter.finditer(text, pos):
                group = cm.lastindex
                if group >= break_group:  # a line break alone (or junk)
                    if group == _JUNK_GROUP:
                        raise _NotMoveText(line)
                    at, stop = cm.span(break_group)
                    line += count("\n", at, stop)
                    line_start = rindex("\n", at, stop) + 1
                    number = int(cm.group(_BREAK_NUMBER_GROUP)) if group > break_group else None
                    first = True
                else:
                    at = cm.start(1)
                    if at >= 0:  # the cell opens a line
                        stop = cm.end(1)
                        line += count("\n", at, stop)
                        line_start = rindex("\n", at, stop) + 1
                        number = cm.group(2)
                        if number is not None:
                            number = int(number)
                        first = True
                    column = cm.start(group) - line_start + 1
                    if first:
                        first = False
                        if number is None:
                            side = 0 if column < LONE_CELL_RIGHT_COLUMN else 1
                        else:
                            side = 1 if cm.end(gap) - cm.start(gap) >= RIGHT_GAP_WIDTH else 0
                    if group == roll_play:  # most cells
                        cell = cm.group(group)
                        info = plays.get(cell)
                        if info is None:
                            info = _roll_play_info(cell, line, column)
                        dice, offset, written = info
                        actions.append(play_from_text(side & 1, dice, written, column + offset,
                                                      line, column, number))
                    else:
                        cls, fields = CELL_KINDS[cm.lastgroup](cm.group(group), line, column)
                        actions.append(cls(side & 1, **fields, line=line, column=column,
                                           move_number=number))
                    side += 1
                if scan is not None:   # back to the kernel after the one match it left
                    pos = cm.end()
                    break
            else:
                return

    @staticmethod
    def score_line(tok: Token) -> m.ScoreLine:
        return _score_line(str(tok), tok.line, tok.column)

    def game(self, c):
        tok = c[0]
        if tok.type == "GAME_BLOCK":
            # "Game N", blank lines, the score line, then move lines
            text = str(tok)
            head = _GAME_HEAD_RE.match(text)
            at = head.end()
            line = tok.line + head.group().count("\n")
            line_start = text.rindex("\n", 0, at) + 1
            end = text.index("\n", at)
            g = m.Game(int(_INT_RE.search(head.group(1)).group()),
                       _score_line(text[at:end], line, at - line_start + 1),
                       line=tok.line, column=tok.column)
            self._runs(text, end, line, line_start, None, g.actions)
            rest = c[1:]
        else:
            g = m.Game(int(_INT_RE.search(str(tok)).group()), self.score_line(c[1]),
                       line=tok.line, column=tok.column)
            rest = c[2:]
        actions = g.actions
        settle_later = False
        for item in rest:
            kind = item.type
            if kind == "MOVES":
                text = str(item)
                nm = _MOVE_NUMBER_RE.match(text)
                self._runs(text, nm.end() if nm else 0, item.line, 1 - item.column,
                           int(nm.group()[:-1]) if nm else None, actions)
            elif kind == "MOVE_LINE":
                actions.extend(self.move_line(item))
            elif kind == "CELLS":
                actions.extend(self.lone_cells(item))
            else:
                text = str(item).rstrip()
                set_up = set_up_of(text, item.line, item.column) if SET_POS in text else None
                if set_up is None:
                    g.comments.append(text)
                else:   # eXtreme Gammon's "; Set Pos=" line: a position set here
                    actions.append(set_up)
                    settle_later = True
        if settle_later:
            settle(actions)
        return g

    def match(self, c):
        mt = m.Match(0)
        for item in c:
            if isinstance(item, m.Game):
                mt.games.append(item)
                continue
            kind = item.type
            if kind == "TAGS":
                # TAG and COMMENT lines: each at its line's first non-blank
                lines = str(item).split("\n")
                lines.pop()  # the next token's indentation
                for i, text in enumerate(lines):
                    if text:
                        self._tag(mt, text.lstrip(" \t").rstrip(), item.line + i)
                continue
            text = str(item).rstrip()
            if kind == "TAG":
                self._tag(mt, text, item.line)
            elif kind == "LENGTH":
                mt.length = int(_INT_RE.search(text).group())
                mt.line, mt.column = item.line, item.column
            else:
                mt.comments.append(text)
        return mt

    @staticmethod
    def _tag(mt: m.Match, text: str, line: int) -> None:
        """A TAG line (or, in a TAGS token, a TAG or COMMENT line): a tag when
        it reads ``; [Name "value"]``, else a comment."""
        tm = _TAG_RE.match(text)
        if tm is None:
            mt.comments.append(text)
        else:
            mt.tags.append(m.Tag(tm.group(1), tm.group(2), line=line))

    def start(self, c):
        return list(c)

    # `runs` (the fast start symbol) builds the same things as `start`
    runs = start
    run_match = match
    run_game = game


def _score_line(text: str, line: int, column: int) -> m.ScoreLine:
    names = []
    scores = []
    ratings = []
    for sm in _SCORE_RE.finditer(text.rstrip()):
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
    return m.ScoreLine(tuple(names[:2]), tuple(scores[:2]), tuple(ratings[:2]),
                       line=line, column=column)


def _lark(start: str) -> Lark:
    builder = MatchFileBuilder()
    grammar = grammar_text(GRAMMAR_FILE)
    options = dict(parser="lalr", lexer="contextual", start=[start, "cell"],
                   propagate_positions=False, maybe_placeholders=False)
    parser = Lark(grammar, transformer=builder, **options,
                  cache=parser_cache_path(f"matchfile-{start}",
                                          parser_cache_key(grammar, options)))
    builder.splitter = _cell_splitter(parser)
    builder.line_splitter = _line_splitter(builder.splitter)
    _SPLITTER[:] = [builder.splitter]
    return parser


@functools.cache
def _parser() -> Lark:
    """The parser the reader uses: start symbol ``runs`` (whole runs of lines
    as one token)."""
    return _lark("runs")


@functools.cache
def _line_parser() -> Lark:
    """The line-by-line parser (start symbol ``start``), for exact syntax
    errors. A Lark parser of its own: in one LALR automaton with ``runs``,
    states that both reach (the repetitions they share) would let the lexer
    offer both kinds of tokens there."""
    return _lark("start")


_SPLITTER: list = []


@functools.cache
def _roll_play_re() -> "re.Pattern[str]":
    return re.compile(_parser().get_terminal("ROLL_PLAY").pattern.to_regexp())


def roll_play_readable(play: str) -> bool:
    """Whether ``play`` (the steps of a roll's cell, ``24/18* 13/11``) is
    what the grammar reads after the dice (its terminal ROLL_PLAY).

    >>> roll_play_readable("24/18* 13/11"), roll_play_readable("8-5"), roll_play_readable("1000/5")
    (True, False, False)
    """
    return _roll_play_re().fullmatch("00: " + play) is not None


# Examples of broken input for lark's match_examples: each label is the
# message key (gamao_cli.messages) of a syntax error.
_ERROR_EXAMPLES = {
    "GM001.score-line": [
        " 1 point match\n\n Game 1\n  1) 31: 8/5 6/5\n",
    ],
    "GM001.not-a-cell": [
        " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 hello\n",
        " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) hello\n",
        " 1 point match\n\n Game 1\n A : 0   B : 0\n hello\n",
    ],
    "GM001.step": [
        " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8-5 6-5\n",
        " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/\n",
    ],
}


_BROKEN_STEP_RE = re.compile(r"(bar|off|\d+)\*?([-/\\]|$|/\s)", re.I)


# The message key (gamao_cli.messages, ``expected.*``) of each terminal a
# syntax error can say was expected.
_EXPECTED_KEYS = {
    "MOVE_LINE": "expected.move-line", "CELLS": "expected.wins",
    "SCORE_LINE": "expected.score-line", "TAG": "expected.tag",
    "ROLL_PLAY": "expected.roll-play", "ROLL": "expected.roll",
    "DOUBLE": "expected.double", "TAKE": "expected.take", "DROP": "expected.drop",
    "WINS": "expected.wins", "MOVENUM": "expected.move-number",
    "GAME": "expected.game", "PLAYER_SCORE": "expected.player-score",
    "LENGTH": "expected.length", "_NL": "expected.end-of-line",
}


def _expected_words(exc: UnexpectedInput) -> list[str]:
    """The message keys of what the parser would have taken, each once."""
    names = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    out = []
    for n in names:
        k = _EXPECTED_KEYS.get(n)
        if k and k not in out:
            out.append(k)
    return out


def prepare_text(text: str) -> str:
    """What the grammar expects: ``\n`` line ends, no trailing blanks on any
    line, a final newline. Tabs outside tags and comments are expanded to
    8-column stops, so that a record laid out with tabs reads like one laid
    out with spaces (the cell sides depend on how wide a gap is); columns
    then count a tab as the spaces it stands for. Otherwise columns do not
    move."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\t" in text:
        # tags and comments keep their tabs (they are data)
        text = "\n".join(line if line.lstrip()[:1] in (";", "#", "[") else line.expandtabs(8)
                         for line in text.split("\n"))
    if " \n" in text or "\t\n" in text or text.endswith((" ", "\t")):
        # (line by line: 2.5x faster than a regular expression over the
        # text, the same text, the other line breaks being inside lines)
        text = "\n".join([line.rstrip(" \t") for line in text.split("\n")])
    if not text.endswith("\n"):
        text += "\n"
    return text


# Without line breaks other than "\n" (the usual case), the lines of the two
# checks below are found by regular expressions over the whole text, rather
# than by splitting it into lines.
_OTHER_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# the first line, after blanks, with "; [", an ASCII digit, or anything but ASCII
_TELLING_LINE_RE = re.compile(r"^[^\S\n]*(?:(; \[)|([0-9])|[^\x00-\x7f])", re.M)
_HEADER_LINE_RE = re.compile(_HEADER_RE.pattern, re.I | re.M)


def looks_like_match_file(text: str) -> bool:
    """FORMATS.md: a line starts with ``; [``, or the first line starting with a
    digit reads ``N point match``."""
    if _OTHER_LINE_BREAKS.search(text) is None:
        tm = _TELLING_LINE_RE.search(text)
        if tm is None:
            return False
        if tm.group(1):
            return True
        if tm.group(2):
            end = text.find("\n", tm.start())
            return bool(_HEADER_LINE_RE.match(text, tm.start(), end if end >= 0 else len(text)))
        # a line starting with another character: line by line below
    for line in text.splitlines():
        s = line.lstrip()
        if s.startswith("; ["):
            return True
        if s[:1].isdigit():
            return bool(_HEADER_RE.match(line))
    return False


def _has_header(text: str) -> bool:
    if _OTHER_LINE_BREAKS.search(text) is None:
        return _HEADER_LINE_RE.search(text) is not None
    return any(_HEADER_RE.match(line) for line in text.splitlines())


def read_matches(text: str, path: str = "") -> list[m.Match]:
    """Parse the text of a match file into its matches (usually one).

    Raises :class:`NotAMatchFile` or :class:`SyntaxProblem` with file, line
    and column (also for what :mod:`gamao_cli.formats.mat.limits` refuses: a
    runaway step repeat count, a number too long to read).
    """
    if not looks_like_match_file(text):
        raise NotAMatchFile(path, key="GM002.no-header", line=1, column=1)
    check_repeats(text, path)
    text = prepare_text(text)
    check_long_plays(text, path)
    try:
        try:
            matches = _parser().parse(text, start="runs")
        except (UnexpectedInput, _NotMoveText):
            if not _has_header(text):
                raise NotAMatchFile(path, key="GM002.no-header", line=1, column=1) from None
            # the line-by-line grammar says exactly where and what (and, were
            # the two ever to disagree, its reading is the one that counts)
            try:
                matches = _line_parser().parse(text, start="start")
            except UnexpectedInput as exc:
                raise _syntax_error(exc, text, path) from None
    except ValueError:  # int() of thousands of digits
        problem = long_number_problem(text, path)
        if problem is None:
            raise
        raise problem from None
    except SyntaxProblem as exc:  # a bound the builder keeps (formats.limits)
        if not exc.path:
            exc.path = path
            exc.args = (exc.describe(),)
        raise
    for mt in matches:
        mt.path = path
    return matches


_MOVENUM_RE = re.compile(r"[ \t]*\d+\)")
_GAME_LINE_RE = re.compile(r"[ \t]*Game[ \t]+\d+[ \t]*$", re.I)


def _where_cells_stop(line: str) -> int | None:
    """In a line the grammar rejected, the offset where its cells stop
    making sense (None when it is not a move line)."""
    mm = _MOVENUM_RE.match(line)
    if mm is None:
        return None
    _parser()  # the splitter is built with the parser
    splitter = _SPLITTER[0]
    pos = mm.end()
    while True:
        cm = splitter.match(line, pos)
        if cm is None or cm.end() == pos:
            break
        pos = cm.end()
    return len(line) - len(line[pos:].lstrip(" \t"))


def _syntax_error(exc: UnexpectedInput, text: str, path: str) -> SyntaxProblem:
    """A grammar error in words a player understands, with line and column."""
    label = None
    try:
        label = exc.match_examples(functools.partial(_line_parser().parse, start="start"),
                                   _ERROR_EXAMPLES, use_accepts=True)
    except Exception:  # match_examples is a heuristic; never let it hide the error
        label = None
    lines = text.split("\n")
    line = getattr(exc, "line", None)
    column = getattr(exc, "column", None)
    if isinstance(exc, UnexpectedEOF) or line in (None, -1) or \
            (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        while len(lines) > 1 and not lines[-1].strip():
            lines.pop()
        return SyntaxProblem(path, key=label or "GM001.eof", line=len(lines),
                             column=len(lines[-1]) + 1, expected_keys=_expected_words(exc))
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    previous = next((x for x in reversed(lines[:line - 1]) if x.strip()), "")
    stop = _where_cells_stop(src)
    if stop is not None and stop < len(src):
        column = stop + 1
        found = src[stop:].strip()
        key = "GM001.step" if _BROKEN_STEP_RE.match(found) else "GM001.not-a-cell"
    elif _GAME_LINE_RE.match(previous):
        found = src.strip()
        key = "GM001.score-line"
    else:
        found = src[column - 1:].strip() if column else src.strip()
        key = label or "GM001.line"
    return SyntaxProblem(path, key=key, line=line, column=column, text=found[:40],
                         expected_keys=_expected_words(exc))


def iter_matches(text: str, path: str = "") -> Iterator[m.Match]:
    """Like :func:`read_matches`, one match at a time."""
    yield from read_matches(text, path)
