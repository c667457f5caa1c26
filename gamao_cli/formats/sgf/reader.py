"""Read SGF files (GNU Backgammon's GM[6] dialect) into :mod:`gamao_cli.model` objects.

The grammar lives in ``grammar/sgf.lark``; Lark's LALR parser applies
:class:`SgfBuilder` while it parses, keeping only the properties gamao uses
(an action's analysis is kept as written, unknown properties are dropped as
soon as they are read).

How SGF maps to the model (FORMATS.md section 2, checked against GNU
Backgammon's own ``.mat`` and ``.sgf`` exports of the same matches):

- Every game tree ``(;...)`` is one game; its main line (first variation) is
  read. A new match starts at the first tree, at ``MI[game:0]`` (GNU
  Backgammon numbers the first game 0) and where ``MI[length:N]`` changes.
- ``PW`` is the left player (player 0, "White"), ``PB`` the right one.
  ``MI[length:N][game:G][ws:a][bs:b]`` gives the match length, the game
  number ``G + 1`` and the score line ``(a, b)``.
- Match-wide information comes from the first game: ``DT`` becomes the tag
  ``EventDate`` (``yyyy.mm.dd``), ``EV`` ``Event``, ``RO`` ``Round``, ``PC``
  ``Site``, ``AN`` ``Transcriber``, ``WR``/``BR`` ``Player 1 Elo``/``Player 2
  Elo`` (the names GNU Backgammon's match-file export uses); ``GC`` becomes
  match comment lines ``"; text"`` (again as that export writes it). ``RU``
  becomes the rule tags the validator reads: ``Crawford`` On/Off (match
  play), ``Jacoby`` On/Off (money play), ``Variation`` (``NackGammon``,
  ``HyperGammon1``..``3``) and ``CubeLimit "1"`` for ``NoCube``. A missing
  ``RU`` says nothing, except in GNU Backgammon's files, which write it
  whenever a rule is on.
- ``W[31hefe]``: a roll and its steps as letter pairs in White's numbering
  (``a``..``x`` are White's points 1..24, so Black's point ``n`` is letter
  ``x - (n - 1)``; ``y`` is the bar, ``z`` off). The steps are turned into the
  mover's numbering (bar 25, off 0) and hits are found by replaying the game
  from its start position with :func:`gamao_cli.rules.apply_step`, so a play
  reads exactly as GNU Backgammon's match file writes it (``25/23 6/4*``).
  ``W[66]`` (dice, no steps) is a :class:`~gamao_cli.model.Dance`.
- ``double`` / ``take`` / ``drop``: cube actions; a ``double`` answering a
  double is a beaver (a raccoon when it answers a beaver). GNU Backgammon
  writes ``W[double];B[double];W[take]`` for a beaver: the model keeps that
  take, which gnubg's match-file export leaves out. Gibbon's
  ``resign`` node becomes :class:`~gamao_cli.model.Resign` (``reject`` takes
  it back; ``accept`` adds nothing).
- ``RE[W+2]``, ``RE[B+6R]`` (``R``, ``Resign``: resigned; ``T``: time) ends
  the game's actions with a :class:`~gamao_cli.model.Win` for the winner.
  GNU Backgammon shows a resignation only there (no node), and its match
  file never writes ``and the match``, so ``Win.match`` is False - unless
  gamao's private property ``XR[and the match]`` (written by
  :mod:`gamao_cli.formats.sgf.writer` when the source said so) is present.
- Comments ``C[...]`` are kept in :attr:`Game.comments <gamao_cli.model.Game>`:
  a comment of a game's root node as it is, a comment of a move node as
  ``"move N W: text"`` (``N``: the action's move number in the match-file
  layout, the number diagnostics print; ``W``/``B``: the mover), a comment
  of a node without an action joined to the action before it.
- Setup nodes (``AE``/``AW``/``AB``/``PL``/``CV``/``CP``/``DI``): a board,
  cube value or owner other than the one the game has there is a
  :class:`~gamao_cli.model.SetUp` (the game goes on from it), at the start
  of a game or in its middle, as GNU Backgammon writes one where a match
  file's ``Illegal play (...)`` cell sets the board. Its player on roll is
  the one who acts next (gnubg reads the next move's colour so, whatever its
  ``PL``: after ``import mat`` it writes the illegal play's mover there),
  else ``PL``, else the player after the last to act. A board equal to the
  start position of another variant, on the first game's root, sets the
  match's ``Variation`` instead; ``PL`` and ``DI`` alone say nothing the
  actions do not. A ``CV`` that is no power of 2, a ``CP`` that is no owner,
  raise :class:`~gamao_cli.errors.SyntaxProblem`.
- gamao's private properties (``XT``, ``XC``, ``XR``, ``XA``, ``XS``, ``XE``,
  ``XL``, ``XI``; see the constants below), which :mod:`gamao_cli.formats.sgf.writer`
  writes for what SGF cannot hold, are read back: the file's tags and match
  comments as written, the cells SGF has no node for (``XA`` nodes) where they
  stand, the spelling of dances and of plays the writer could not resolve,
  score-line ratings, a missing score line, a take the record leaves out, a
  result the record does not write. So gamao reads its own SGF into the
  match it was written from.
- GNU Backgammon's analysis of an action (``A``, ``DA``, ``LU`` and the marks
  ``BM``, ``DO``, ``BC``, ``DC``, ``GW``, ``GB``) is kept, as written, in the
  action's ``analysis`` (:class:`~gamao_cli.formats.sgf.analysis.SgfAnalysis`,
  decoded into :mod:`gamao_cli.analysis.decisions` only when read). ``GS``
  (gnubg's own statistics), ``MR`` and unknown properties are skipped. Every
  action carries the line and column of its property.

>>> text = ("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[W+1R]"
...         ";W[31hefe];B[62agln])")
>>> [mt] = read_sgf(text, "x.sgf")
>>> mt.length, mt.players, [a.text() for a in mt.games[0].actions]
(1, ('Ann', 'Bob'), ['31: 8/5 6/5', '62: 24/18 13/11', 'Wins 1 point'])
"""
from __future__ import annotations

import functools
import re

from lark import Lark, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from gamao_cli import model as m
from gamao_cli import rules as board
from gamao_cli.errors import NotAMatchFile, SyntaxProblem
from gamao_cli.messages import Msg
from gamao_cli.model import parse_steps
from gamao_cli.rules import Position

from ..grammars import grammar_text
from ..limits import MAX_DIGITS, MAX_MOVEMENTS, fits, play_problem, too_long
from ..mat.reader import roll_play_readable
from .analysis import PROPERTIES as ANALYSIS_PROPERTIES
from .analysis import SgfAnalysis
from .scan import scan_trees
from .trees import _SPACE_RE, SgfProp, SgfTree, _ident, unescape  # noqa: F401 (the reader's names)

GRAMMAR_FILE = "sgf.lark"

#: Properties the reader uses; everything else (analysis, unknown) is skipped.
KEPT = frozenset({
    "GM", "AP", "MI", "PW", "PB", "WR", "BR", "DT", "EV", "RO", "PC", "AN", "GC", "RU", "RE",
    "W", "B", "C", "AE", "AW", "AB", "PL", "CV", "CP", "DI",
    "XR", "XT", "XA", "XS", "XE", "XL", "XI", "XC", "XV", "XN",
}) | ANALYSIS_PROPERTIES

# gamao's private properties: what a match file says and SGF cannot. Their
# names have two letters, which GNU Backgammon ignores (a longer unknown
# name is a syntax error to it); other programs see a normal SGF file.

#: The match file's tags, in order, as name/value pairs (first game's root):
#: XT[Site][Club][Match ID][42].
TAGS_PROPERTY = "XT"
#: Match comment lines as written, when GC cannot give them back (first
#: game's root): XC[# a comment][;another].
COMMENTS_PROPERTY = "XC"
#: About the game's result (root): XR[and the match] (the Wins cell says so),
#: XR[not written] (the record has no Wins cell; RE is the rules' result).
MATCH_FLAG = "XR"
MATCH_WORDS = "and the match"
NOT_WRITTEN = "not written"
#: A cell SGF has no node for, as a node of its own holding only this
#: property, where the cell stands among the actions: XA[B][loss][2]
#: (Backgammon Galaxy's "Losses 2 point"), XA[W][unplayed][61][????],
#: XA[B][resign], XA[W][illegal][31][Illegal play (...)], XA[W][win][2]
#: [and the match] (a Wins cell RE cannot place: not the game's last action).
EXTRA_PROPERTY = "XA"
WIN, LOSS, UNPLAYED, RESIGN_CELL, ILLEGAL = "win", "loss", "unplayed", "resign", "illegal"
#: On a roll's node, the cell's text after the dice as written: a dance's
#: XS[Cannot Move], or a play the writer's replay could not resolve (its
#: steps and hit marks as written; W[...] holds its movements).
SPELLING_PROPERTY = "XS"
#: Score-line ratings (root): XE[1612][] for "Ann,1612 : 0   Bob : 0".
RATINGS_PROPERTY = "XE"
#: The score line's scores when one is missing (root): XL[][3]; XL[none]: the
#: game has no score line at all.
SCORE_PROPERTY = "XL"
NO_SCORE_LINE = "none"
#: On a take node: XI[implied], a take the record leaves out (after a
#: beaver, as GNU Backgammon's match files do) that SGF writes out.
IMPLIED_PROPERTY = "XI"
IMPLIED = "implied"
#: On a cube node: XV[value][kind], the cube action as the record wrote it
#: when that is not what SGF's node gives (a value not twice the cube, none
#: written, a beaver where SGF reads a double): XV[2][double], XV[][double].
CUBE_PROPERTY = "XV"
#: On a game's root: XN[5], the game's number as the record has it when
#: MI[game:...] cannot give it (a game 0, numbers repeated or going back,
#: which would start a new match there).
NUMBER_PROPERTY = "XN"
CUBE_KINDS = ("double", "beaver", "raccoon")
SETUP = ("AE", "AW", "AB", "PL", "CV", "CP", "DI")

#: Root properties that become match tags, in the order GNU Backgammon's
#: match-file export writes them.
TAG_OF_PROPERTY = {
    "PC": "Site",
    "EV": "Event",
    "RO": "Round",
    "WR": "Player 1 Elo",
    "BR": "Player 2 Elo",
    "DT": "EventDate",
    "AN": "Transcriber",
}

# Text-valued properties: line ends are kept (FF[4] "Text"); in all others
# ("SimpleText") a line end is a space.
_TEXT = frozenset({"C", "GC"})

_MOVE_RE = re.compile(r"([0-9])([0-9])([a-z]*)$")
_RESULT_RE = re.compile(r"([WB])\+(\d+)?(?:\.0*)?([A-Za-z]*)$", re.I)
_DATE_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})$")


class SgfBuilder(Transformer):
    """Builds :class:`SgfTree` objects while Lark parses (no parse tree)."""

    def prop(self, c):
        name = _ident(str(c[0]))
        if name not in KEPT:
            return None
        vals = c[1:]
        if name in ANALYSIS_PROPERTIES:   # kept as written, decoded when read
            return SgfProp(name, [str(v)[1:-1] for v in vals], c[0].line, c[0].column, [])
        text = name in _TEXT
        return SgfProp(name, [unescape(str(v), text) for v in vals], c[0].line, c[0].column,
                       [(v.line, v.column) for v in vals])

    def node(self, c):
        props: dict[str, SgfProp] = {}
        for p in c:
            if p is None:
                continue
            old = props.get(p.name)
            if old is None:
                props[p.name] = p
            else:  # a repeated property: its values add up
                old.values.extend(p.values)
                old.values_at.extend(p.values_at)
        return props

    def gametree(self, c):
        lpar = c[0]
        nodes = []
        children = []
        for item in c[1:]:
            if isinstance(item, SgfTree):
                children.append(item)
            else:
                nodes.append(item)
        return SgfTree(lpar.line, lpar.column, nodes, children)

    def start(self, c):
        return list(c)


@functools.cache
def _parser() -> Lark:
    return Lark(grammar_text(GRAMMAR_FILE), parser="lalr", lexer="contextual",
                transformer=SgfBuilder(), propagate_positions=False,
                maybe_placeholders=False)


def parse_trees(text: str, path: str = "") -> list[SgfTree]:
    """Parse SGF text into its game trees (kept properties only).

    Raises :class:`SyntaxProblem` with the line and column of the problem.
    """
    # the grammar's trees, quicker (None: the grammar reads it)
    trees = scan_trees(text, KEPT, ANALYSIS_PROPERTIES, _TEXT)
    if trees is not None:
        return trees
    try:
        return _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, path) from None


#: The message key (gamao_cli.messages) of each terminal a syntax error can
#: say was expected.
_EXPECTED_KEYS = {
    "LPAR": "expected.sgf-tree",
    "_RPAR": "expected.sgf-end",
    "_SEMI": "expected.sgf-node",
    "PROP_IDENT": "expected.sgf-property",
    "VALUE": "expected.sgf-value",
}


def _syntax_error(exc: UnexpectedInput, text: str, path: str) -> SyntaxProblem:
    expected = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    words = [_EXPECTED_KEYS[e] for e in expected if e in _EXPECTED_KEYS]
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken)
                                          and exc.token.type == "$END"):
        lines = text.splitlines() or [""]
        return SyntaxProblem(path, key="GM001.sgf-eof", line=len(lines),
                             column=len(lines[-1]) + 1, expected_keys=words)
    line, column = exc.line, exc.column
    src = text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else ""
    found = src[column - 1:].strip()[:40]
    at = getattr(exc, "pos_in_stream", None)
    if isinstance(exc, UnexpectedCharacters) and at is not None and text[at:at + 1] == "[":
        key = "GM001.sgf-value-open"
    elif isinstance(exc, UnexpectedCharacters):
        key = "GM001.sgf-not-sgf"
    else:
        tok = exc.token
        if tok.type == "VALUE":
            key = "GM001.sgf-value-alone"
        elif tok.type == "PROP_IDENT":
            key = "GM001.sgf-prop-outside"
        else:
            key = "GM001.sgf-unexpected"
    return SyntaxProblem(path, key=key, line=line, column=column, text=found, expected_keys=words)


# ---------------------------------------------------------------- the model

def gc_comments(value: str) -> list[str]:
    """The match comment lines of a ``GC`` value (as GNU Backgammon's
    match-file export writes them: ``"; text"``)."""
    return ["; " + line if line else ";" for line in value.split("\n")]


def looks_like_sgf(text: str) -> bool:
    s = text.lstrip("\ufeff \t\r\n")
    return s.startswith("(") and s[1:].lstrip().startswith(";")


def cube_offer(pending: tuple[int, str, int] | None, player: int, cube: int) -> tuple[str, int]:
    """What a ``double`` node of ``player`` is, as the reader reads it
    (``pending``: the offer it answers, (player, kind, value); ``cube``:
    the cube's value): its kind and the cube's value after it.

    >>> cube_offer(None, 0, 2), cube_offer((0, "double", 4), 1, 2)
    (('double', 4), ('beaver', 8))
    """
    if pending is not None and pending[0] != player:
        return ("beaver" if pending[1] == "double" else "raccoon"), 2 * pending[2]
    return "double", 2 * cube


def letter_point(letter: str, player: int) -> int:
    """A point letter in the mover's numbering: 25 bar, 0 off.

    >>> letter_point("h", 0), letter_point("h", 1), letter_point("y", 1), letter_point("z", 0)
    (8, 17, 25, 0)
    """
    if letter == "y":
        return m.BAR
    if letter == "z":
        return m.OFF
    i = ord(letter) - 97
    return i + 1 if player == 0 else 24 - i


def point_letter(point: int, player: int) -> str:
    """The SGF letter of a point in the mover's numbering (25 bar, 0 off).

    >>> "".join(point_letter(p, 0) for p in (8, 5, 6, 5)), point_letter(24, 1), point_letter(25, 1)
    ('hefe', 'a', 'y')
    """
    if point == m.BAR:
        return "y"
    if point == m.OFF:
        return "z"
    if not 1 <= point <= 24:
        raise ValueError(f"no SGF letter for point {point}")
    return chr(96 + point) if player == 0 else chr(97 + 24 - point)


def _expand_points(prop: SgfProp, path: str) -> list[str]:
    """The letters of a point list: ``[a][b]`` and compressed ``[a:y]``."""
    out = []
    for value, (line, column) in zip(prop.values, prop.values_at):
        v = value.strip()
        if len(v) == 1 and "a" <= v <= "z":
            out.append(v)
            continue
        mo = re.fullmatch(r"([a-z])\s*:\s*([a-z])", v)
        if not mo or mo.group(1) > mo.group(2):
            raise SyntaxProblem(path, key="GM001.sgf-points",
                                fields={"prop": prop.name, "value": value},
                                line=line, column=column, text=value)
        out.extend(chr(c) for c in range(ord(mo.group(1)), ord(mo.group(2)) + 1))
    return out


# What gamao's XT and XC hold: tags and comment lines as a match file has
# them (a tag's name without '"', ']' or blanks -- spaces and tabs, as the
# match-file reader strips them -- at its ends; one line each).
# XT or XC that hold anything else were not written by gamao: they are
# ignored (the tags and comments then come from the SGF properties).
_TAG_NAME = re.compile(r'(?:[^"\] \t\n\r](?:[^"\]\n\r]*[^"\] \t\n\r])?)?')
_COMMENT_LINE = re.compile(r"[;#\[][^\n\r]*(?<![ \t])")


def _tags_ok(values: list[str]) -> bool:
    return all(_TAG_NAME.fullmatch(values[i]) and "\n" not in values[i + 1]
               and "\r" not in values[i + 1] for i in range(0, len(values), 2))


def _int(value: str, path: str = "", at: tuple[int, int] | None = None) -> int | None:
    """The number a value holds (None when it holds none); a number of more
    digits than :data:`~gamao_cli.formats.limits.MAX_DIGITS` raises its
    :class:`SyntaxProblem` at ``at`` (the value's line and column)."""
    v = value.strip()
    if len(v) > MAX_DIGITS:
        problem = too_long(v, path, *(at or (None, None)))
        if problem is not None and v.lstrip("+-").isdigit():
            raise problem
    try:
        return int(v)
    except ValueError:
        return None


class _MatchInfo:
    __slots__ = ("length", "game", "scores")

    def __init__(self, prop: SgfProp | None, path: str = ""):
        self.length: int | None = None
        self.game: int | None = None
        self.scores: list[int | None] = [None, None]
        if prop is None:
            return
        for v, at in zip(prop.values, prop.values_at):
            key, _, val = v.partition(":")
            key = key.strip().lower()
            n = _int(val, path, at)
            if n is not None and n < 0 and key in ("length", "game"):
                raise SyntaxProblem(path, key="GM001.sgf-negative",
                                    fields={"value": v.strip(), "what": Msg("sgf." + key, {})},
                                    line=at[0], column=at[1], text=v.strip()[:40])
            if key == "length":
                self.length = n
            elif key == "game":
                self.game = n
            elif key == "ws":
                self.scores[0] = n
            elif key == "bs":
                self.scores[1] = n


def _rule_words(prop: SgfProp | None) -> list[str]:
    if prop is None:
        return []
    return [w.strip().lower() for v in prop.values for w in v.split(":") if w.strip()]


class _GameReader:
    """Builds one game from the nodes of its main line."""

    def __init__(self, reader: "_Reader", tree: SgfTree, nodes: list[dict[str, SgfProp]],
                 number: int, score: m.ScoreLine | None, first_game: bool):
        self.r = reader
        self.path = reader.path
        self.tree = tree
        self.nodes = nodes
        self.first_game = first_game
        self.game = m.Game(number, score, line=tree.line, column=tree.column)
        self.white: Position | None = reader.start   # the board seen by White
        self.cube = 1
        self.owner: int | None = None
        self.pending: tuple[int, str, int] | None = None   # (player, kind, value)
        self.number = 0
        self.has_left = self.has_right = False
        self.last_action: m.Action | None = None
        self.last_tag = ""
        self.extra_win = False   # a Wins cell came in gamao's XA: RE adds none
        self.said_on_roll: int | None = None   # the player the last PL names

    def error(self, key: str, line: int, column: int, text: str = "",
              **fields: object) -> SyntaxProblem:
        """The syntax problem ``key`` (its message starts with the game's number)."""
        return SyntaxProblem(self.path, key=key, fields={"game": self.game.number, **fields},
                             line=line, column=column, text=text)

    # -- numbering as in the match-file layout ----------------------------
    def move_number(self, player: int) -> int:
        if player == m.LEFT:
            self.number += 1
            self.has_left, self.has_right = True, False
        else:
            if self.has_right or not self.has_left:
                self.number += 1
                self.has_left = False
            self.has_right = True
        return self.number

    def add(self, action: m.ActionType) -> None:
        self.game.actions.append(action)
        self.last_action = action
        self.said_on_roll = None   # a PL before this action said who rolls it
        self.last_tag = f"move {action.move_number} {'WB'[action.player]}"

    # -- nodes -------------------------------------------------------------
    def read(self) -> m.Game:
        result_node: dict[str, SgfProp] = self.nodes[0] if self.nodes else {}
        for i, node in enumerate(self.nodes):
            if i and "RE" in node and "RE" not in result_node:
                result_node = node   # RE at the end of the game (not gnubg's way)
            if any(k in node for k in SETUP):
                self.setup(node, at_start=self.last_action is None, next_player=self.next_player(i))
            for colour in ("W", "B"):
                prop = node.get(colour)
                if prop is not None:
                    before = len(self.game.actions)
                    self.move(prop, 0 if colour == "W" else 1, node)
                    if len(self.game.actions) > before and not ANALYSIS_PROPERTIES.isdisjoint(node):
                        self.analysis(self.game.actions[-1], node)
            extra = node.get(EXTRA_PROPERTY)
            if extra is not None:
                self.extra(extra)
            comment = node.get("C")
            if comment is not None:
                for text in comment.values:
                    if i == 0 or self.last_action is None:
                        self.game.comments.append(text)
                    else:
                        self.game.comments.append(f"{self.last_tag}: {text}")
        self.result(result_node)
        return self.game

    def move(self, prop: SgfProp, player: int, node: dict[str, SgfProp]) -> None:
        value = prop.value.strip()
        low = value.lower()
        pos = dict(line=prop.line, column=prop.column)
        if low == "double" or low == "beaver" or low == "raccoon":
            pending = self.pending
            kind, value_after = cube_offer(pending, player, self.cube)
            if not fits(value_after):
                raise self.error("GM001.sgf-cube-too-big", prop.line, prop.column,
                                 limit=MAX_DIGITS)
            self.pending = (player, kind, value_after)
            value: int | None = value_after
            written = node.get(CUBE_PROPERTY)
            if written is not None and len(written.values) == 2 \
                    and written.values[1].strip() in CUBE_KINDS:
                # the cube action as the record wrote it (gamao's XV)
                value = _int(written.values[0], self.path, written.values_at[0])
                kind = written.values[1].strip()
            self.add(m.Double(player, value, kind, move_number=self.move_number(player),
                              **pos))
        elif low == "take":
            if self.pending is not None:
                offerer, kind, value_after = self.pending
                self.cube = value_after
                self.owner = player if kind == "double" else offerer
                self.pending = None
            implied = node.get(IMPLIED_PROPERTY)
            if implied is not None and implied.value.strip().lower() == IMPLIED:
                return   # written out for other programs; the record leaves it out
            self.add(m.Take(player, move_number=self.move_number(player), **pos))
        elif low in ("drop", "pass"):
            self.pending = None
            self.add(m.Drop(player, move_number=self.move_number(player), **pos))
        elif low.startswith("resign"):
            self.add(m.Resign(player, move_number=self.move_number(player), **pos))
        elif low == "accept":
            pass  # the accepted resignation's result is in RE
        elif low == "reject":
            acts = self.game.actions
            if acts and isinstance(acts[-1], m.Resign) and acts[-1].player != player:
                acts.pop()   # the game goes on as if nobody had resigned
                if acts:
                    self.add(acts.pop())
                else:
                    self.last_action, self.last_tag = None, ""
        else:
            self.roll(prop, player, value, node.get(SPELLING_PROPERTY))

    def analysis(self, action: m.ActionType, node: dict[str, SgfProp]) -> None:
        """Hang GNU Backgammon's analysis of the node (:mod:`.analysis`) on
        its action, to be decoded when read."""
        kind = {m.Play: "roll", m.Dance: "roll", m.Double: "double", m.Take: "take",
                m.Drop: "drop"}.get(type(action))
        if kind is None:
            return
        props = {name: node[name].values for name in ANALYSIS_PROPERTIES if name in node}
        action.analysis = SgfAnalysis(props, kind, action.player, getattr(action, "dice", None),
                                      bool(self.r.match.length), letter_point)

    def extra(self, prop: SgfProp) -> None:
        """gamao's ``XA`` node: a cell SGF has no node for."""
        vals = [v.strip() for v in prop.values]
        pos = dict(line=prop.line, column=prop.column)
        kind = vals[1].lower() if len(vals) > 1 else ""
        try:
            if not vals or vals[0].upper() not in ("W", "B"):
                raise ValueError
            player = "WB".index(vals[0].upper())
            if kind == WIN:
                match = len(vals) > 3 and "match" in vals[3].lower()
                win = m.Win(player, self.points(prop, 2), match, **pos)
                self.game.actions.append(win)
                self.last_action = win
                self.has_left = self.has_right = False   # a Wins cell closes its line
                self.extra_win = True
                return
            if kind == LOSS:
                action = m.Loss(player, self.points(prop, 2), **pos)
            elif kind == RESIGN_CELL:
                # [W][resign] or, with its spelling, [W][resign][][Concedes]
                action = m.Resign(player, **pos) if len(vals) < 4 else \
                    m.Resign(player, word=vals[3], **pos)
            elif kind in (UNPLAYED, ILLEGAL):
                mo = _MOVE_RE.match(vals[2])
                if mo is None or mo.group(3):
                    raise ValueError
                dice = (int(mo.group(1)), int(mo.group(2)))
                if kind == UNPLAYED:
                    action = m.UnplayedRoll(player, dice, vals[3] if len(vals) > 3 else "????",
                                            **pos)
                else:
                    action = m.IllegalPlayMarker(player, dice, vals[3] if len(vals) > 3 else "",
                                                 **pos)
                    self.white = None   # it sets a position the record does not give
            else:
                raise ValueError
        except (ValueError, IndexError):
            raise self.error("GM001.sgf-cell", prop.line, prop.column, prop.value,
                             prop=prop.name, values="][".join(prop.values)) from None
        action.move_number = self.move_number(player)
        self.add(action)

    def points(self, prop: SgfProp, i: int) -> int:
        """The points of an XA cell's value ``i`` (ValueError when it holds none)."""
        n = _int(prop.values[i], self.path, prop.values_at[i])
        if n is None or n < 0:
            raise ValueError
        return n

    def roll(self, prop: SgfProp, player: int, value: str, spelling: SgfProp | None) -> None:
        mo = _MOVE_RE.match(value)
        line, column = prop.values_at[0] if prop.values_at else (prop.line, prop.column)
        if mo is None or len(mo.group(3)) % 2:
            raise self.error("GM001.sgf-move", line, column + 1, value, prop=prop.name,
                             value=value)
        dice = (int(mo.group(1)), int(mo.group(2)))
        letters = mo.group(3)
        if len(letters) > 2 * MAX_MOVEMENTS:
            raise SyntaxProblem(self.path, key="GM001.movements",
                                fields={"count": len(letters) // 2, "limit": MAX_MOVEMENTS},
                                line=line, column=column + 3 + 2 * MAX_MOVEMENTS,
                                text=letters[2 * MAX_MOVEMENTS:][:20])
        number = self.move_number(player)
        if not letters:
            written = " ".join(spelling.value.split()) if spelling is not None else ""
            self.add(m.Dance(player, dice, written, move_number=number, line=prop.line,
                             column=prop.column))
            return
        pos = None
        if self.white is not None:
            pos = self.white if player == 0 else self.white.swapped()
        steps = []
        for i in range(0, len(letters), 2):
            a, b = letters[i], letters[i + 1]
            at = column + 3 + i
            if a == "z" or b == "y":
                raise self.error("GM001.sgf-from-off" if a == "z" else "GM001.sgf-onto-bar",
                                 line, at, value, prop=prop.name, value=value, pair=a + b)
            src, dst = letter_point(a, player), letter_point(b, player)
            hit = False
            if pos is not None:
                try:
                    pos, hit = board.apply_step(pos, src, dst)
                except ValueError:
                    pos = None   # the record moves a checker it does not have
            steps.append(m.Step((src, dst), (hit,), bar="25", off="0", line=line, column=at))
        if pos is None:
            self.white = None
        else:
            self.white = pos if player == 0 else pos.swapped()
        moves = tuple(steps)
        if spelling is not None:
            moves = self.written_steps(spelling, moves) or moves
        self.add(m.Play(player, dice, moves, move_number=number,
                        line=prop.line, column=prop.column))

    def written_steps(self, spelling: SgfProp, steps: tuple[m.Step, ...]) -> tuple[m.Step, ...] | None:
        """The steps of gamao's ``XS`` (a play as the record wrote it), when
        they stand for the movements the letters give (less those SGF cannot
        spell: from off, onto the bar); None otherwise. A spelling beyond the
        bounds every reader keeps (a repeat count of millions) raises its
        :class:`SyntaxProblem`."""
        line, column = spelling.values_at[0] if spelling.values_at else (0, 0)
        problem = play_problem(spelling.value, self.path, line, column + 1)
        if problem is not None:
            raise problem
        if not roll_play_readable(spelling.value.strip()):
            return None
        try:
            written = parse_steps(spelling.value.strip(), line, column + 1)
        except Exception:
            return None
        if not written:
            return None
        spelled = [(a, b) for a, b in m.play_shape(written)[0]
                   if a != m.OFF and b != m.BAR and 0 <= a <= 25 and 0 <= b <= 25]
        if spelled != list(m.play_shape(steps)[0]):
            return None
        return written

    # -- setup ---------------------------------------------------------------
    def next_player(self, i: int) -> int | None:
        """Who acts first after node ``i`` (its own ``W``/``B`` included): the
        player on roll after a set-up there; None when no node says."""
        for node in self.nodes[i:]:
            for colour in ("W", "B"):
                if colour in node:
                    return 0 if colour == "W" else 1
        return None

    def on_roll(self, node: dict[str, SgfProp], next_player: int | None) -> int:
        """The player on roll after the set-up ``node``: the one who acts
        next when a move follows (GNU Backgammon reads the move's own colour
        so, whatever its ``PL``: after ``import mat`` of an ``Illegal play``
        cell it writes the mover's ``PL``); else the last ``PL`` (of this
        node or an earlier one, as gnubg writes a position's ``PL`` in a
        node of its own); else the player after the last to act."""
        if next_player is not None:
            return next_player
        if self.said_on_roll is not None:
            return self.said_on_roll
        last = self.last_action
        return 0 if last is None else 1 - last.player

    def upcoming_number(self, player: int) -> int:
        """The move number :meth:`move_number` will give ``player``'s next
        action (the line a set-up stands before), without taking it."""
        if player == m.LEFT or self.has_right or not self.has_left:
            return self.number + 1
        return self.number

    def setup(self, node: dict[str, SgfProp], at_start: bool,
              next_player: int | None = None) -> None:
        """A set-up node: ``AE``/``AW``/``AB`` set the board, ``CV``/``CP``
        the cube, ``PL``/``DI`` the turn and the dice. What changes nothing
        is nothing; a board, cube value or owner other than the replayed
        ones is a :class:`~gamao_cli.model.SetUp` (a variant's start
        position on the first game's root sets the match's variant)."""
        cube_value: int | None = None
        cube_owner: int | None = None
        where: SgfProp | None = None
        pl = node.get("PL")
        if pl is not None and pl.value.strip()[:1].upper() in ("W", "B"):
            # who is on roll, as a PL says (of this node or an earlier one)
            self.said_on_roll = "WB".index(pl.value.strip()[:1].upper())
        cv = node.get("CV")
        if cv is not None:
            n = _int(cv.value, self.path, (cv.line, cv.column))
            if n is None or n < 1 or n & (n - 1) or not fits(n):
                raise self.error("GM001.sgf-cube-value", cv.line, cv.column, cv.value,
                                 value=cv.value, cube=self.cube)
            if n != self.cube:
                cube_value, where = n, cv
        cp = node.get("CP")
        if cp is not None:
            letter = cp.value.strip().lower()[:1]
            if letter not in ("c", "w", "b"):
                raise self.error("GM001.sgf-cube-owner", cp.line, cp.column, cp.value,
                                 value=cp.value)
            owner = {"c": None, "w": 0, "b": 1}[letter]
            if owner != self.owner:
                cube_owner, where = (m.CENTRED if owner is None else owner), where or cp
        sides = None
        if any(k in node for k in ("AE", "AW", "AB")):
            sides, first = self.board(node, at_start)
            where = first if sides is not None else where
        if where is None:
            return  # nothing the actions do not say already
        player = self.on_roll(node, next_player)
        if cube_value is not None:
            self.cube = cube_value
        if cube_owner is not None:
            self.owner = None if cube_owner == m.CENTRED else cube_owner
        self.pending = None
        action = m.SetUp(player, sides, cube_value, cube_owner, line=where.line,
                         column=where.column, move_number=self.upcoming_number(player))
        self.game.actions.append(action)
        self.last_action = action
        self.last_tag = f"move {action.move_number} {'WB'[player]}"

    def board(self, node: dict[str, SgfProp], at_start: bool):
        """(sides by player, the property that sets them) of a node's
        ``AE``/``AW``/``AB``; sides None when the board is the one the game
        has there (or, at the start of the first game, a variant's start
        position, which becomes the match's variant)."""
        first = node.get("AE") or node.get("AW") or node.get("AB")
        total = board.checkers(self.r.start)
        base = self.white if self.white is not None else self.r.start
        white = list(base.me)
        black = list(base.opp)
        for letter in _expand_points(node["AE"], self.path) if "AE" in node else []:
            if letter in "yz":
                white[letter_point(letter, 0)] = black[letter_point(letter, 1)] = 0
            else:
                white[letter_point(letter, 0)] = 0
                black[letter_point(letter, 1)] = 0
        for name, side, player in (("AW", white, 0), ("AB", black, 1)):
            if name in node:
                for letter in _expand_points(node[name], self.path):
                    side[letter_point(letter, player)] += 1
        for side in (white, black):
            side[0] = 0
            side[0] = max(total - sum(side), 0)
        new = Position(tuple(white), tuple(black))
        if at_start:
            if new == self.r.start:
                return None, first
            if self.first_game and not self.r.variant_fixed:
                for key, start in board.VARIANTS.items():
                    if new == start:
                        self.r.set_variant(key, first.line)
                        self.white = start
                        return None, first
        elif self.white is not None and new == self.white:
            return None, first
        self.white = new
        return (new.me, new.opp), first

    # -- the result --------------------------------------------------------
    def result(self, root: dict[str, SgfProp]) -> None:
        re_prop = root.get("RE")
        flag = root.get(MATCH_FLAG)
        if re_prop is None or self.extra_win:
            return
        if flag is not None and flag.value.strip().lower() == NOT_WRITTEN:
            return   # RE is the rules' result: the record writes no Wins cell
        value = re_prop.value.strip()
        mo = _RESULT_RE.match(value)
        if mo is None or mo.group(2) is None:
            if value and value not in ("?", "0", "Void", "Draw"):
                self.game.comments.append(f"result: {value}")
            return
        winner = 0 if mo.group(1).upper() == "W" else 1
        match = flag is not None and "match" in flag.value.lower()
        at = re_prop.values_at[0] if re_prop.values_at else (re_prop.line, re_prop.column)
        points = _int(mo.group(2), self.path, (at[0], at[1] + 3))
        self.game.actions.append(m.Win(winner, points, match,
                                       line=re_prop.line, column=re_prop.column))


class _Reader:
    """Groups the game trees of a collection into matches."""

    def __init__(self, path: str):
        self.path = path
        self.matches: list[m.Match] = []
        self.match: m.Match | None = None
        self.names = ("", "")
        self.start = board.start_position()
        self.variant = "backgammon"
        self.variant_fixed = False
        self.length: int | None = None
        self.all_tags: dict[int, SgfProp] = {}

    def variant_name(self) -> "str | Msg":
        return Msg("variant.standard", {}) if self.variant == "backgammon" else self.variant

    def set_variant(self, key: str, line: int) -> None:
        """Play the match as variant ``key`` (a key of board.VARIANTS); say so
        with a ``Variation`` tag."""
        self.variant = key
        self.start = board.start_position(key)
        self.variant_fixed = True
        if key != "backgammon":
            name = board.variant_by_key(key).variation or key
            self.match.tags.append(m.Tag("Variation", name, line=line))

    def read(self, trees: list[SgfTree]) -> list[m.Match]:
        for tree in trees:
            nodes = tree.main_line()
            root = nodes[0] if nodes else {}
            gm = root.get("GM")
            if gm is not None and gm.value.strip() not in ("6", ""):
                raise NotAMatchFile(self.path, key="GM002.sgf-other-game",
                                    fields={"value": gm.value}, line=gm.line, column=gm.column)
            info = _MatchInfo(root.get("MI"), self.path)
            if (self.match is None or info.game == 0 and self.match.games
                    or info.length is not None and info.length != self.match.length):
                self.new_match(tree, root, info)
            names = list(self.names)
            for i, key in enumerate(("PW", "PB")):
                if key in root:
                    names[i] = root[key].value.strip()
            mi = root.get("MI")
            where = (mi.line, mi.column) if mi is not None else (tree.line, tree.column)
            score: m.ScoreLine | None = m.ScoreLine(
                tuple(names), (info.scores[0], info.scores[1]), line=where[0], column=where[1])
            xe = root.get(RATINGS_PROPERTY)
            if xe is not None:
                ratings = [v.strip() or None for v in xe.values[:2]]
                score.ratings = tuple(ratings + [None] * (2 - len(ratings)))
            xl = root.get(SCORE_PROPERTY)
            if xl is not None:
                if [v.strip().lower() for v in xl.values] == [NO_SCORE_LINE]:
                    score = None
                elif len(xl.values) == 2:
                    score.scores = (_int(xl.values[0], self.path, xl.values_at[0]),
                                    _int(xl.values[1], self.path, xl.values_at[1]))
            xn = root.get(NUMBER_PROPERTY)
            written = _int(xn.value, self.path, xn.values_at[0]) if xn is not None else None
            if written is not None and written >= 0:
                number = written   # the number as the record has it (gamao's XN)
            elif info.game is not None:
                number = info.game + 1
            else:
                number = self.match.games[-1].number + 1 if self.match.games else 1
            first = not self.match.games
            game = _GameReader(self, tree, nodes, number, score, first).read()
            self.match.games.append(game)
        for mt in self.matches:
            mt.path = self.path
            xt = self.all_tags.get(id(mt))
            if xt is not None and len(xt.values) % 2 == 0 and _tags_ok(xt.values):
                # the tags as the match file had them, written by gamao
                vals = xt.values
                mt.tags = [m.Tag(vals[i], vals[i + 1], line=xt.line) for i in range(0, len(vals), 2)]
        return self.matches

    def new_match(self, tree: SgfTree, root: dict[str, SgfProp], info: _MatchInfo) -> None:
        mt = m.Match(info.length or 0, line=tree.line, column=tree.column)
        self.matches.append(mt)
        if TAGS_PROPERTY in root:
            self.all_tags[id(mt)] = root[TAGS_PROPERTY]
        self.match = mt
        self.names = (root["PW"].value.strip() if "PW" in root else "",
                      root["PB"].value.strip() if "PB" in root else "")
        for key, tag in TAG_OF_PROPERTY.items():
            prop = root.get(key)
            if prop is None or not prop.value.strip():
                continue
            value = prop.value.strip()
            if key == "DT":
                dm = _DATE_RE.match(value)
                if dm:
                    value = ".".join(dm.groups())
            mt.tags.append(m.Tag(tag, value, line=prop.line))
        gc = root.get("GC")
        if gc is not None:
            for v in gc.values:
                mt.comments.extend(gc_comments(v))
        xc = root.get(COMMENTS_PROPERTY)
        if xc is not None and all(_COMMENT_LINE.fullmatch(v) for v in xc.values):
            mt.comments = list(xc.values)   # the lines as written, kept by gamao
        self.rules(mt, root)

    def rules(self, mt: m.Match, root: dict[str, SgfProp]) -> None:
        ru = root.get("RU")
        ap = root.get("AP")
        gnubg = ap is not None and ap.value.lower().startswith("gnu backgammon")
        words = _rule_words(ru)
        line = ru.line if ru is not None else (ap.line if ap is not None else mt.line)
        explicit = ru is not None or gnubg
        self.variant = "backgammon"
        self.start = board.start_position()
        self.variant_fixed = False
        for w in words:
            variant = board.variant_of_rule_word(w)
            if variant is not None:
                self.set_variant(variant.key, line)
        if "nocube" in words:
            mt.tags.append(m.Tag("CubeLimit", "1", line=line))
        if mt.length:
            # the Crawford rule is the default of a match: only its absence
            # needs saying (a match file with no Crawford tag assumes it)
            if explicit and "crawford" not in words:
                mt.tags.append(m.Tag("Crawford", "Off", line=line))
            if "jacoby" in words:
                mt.tags.append(m.Tag("Jacoby", "On", line=line))
        elif "jacoby" in words or explicit:
            mt.tags.append(m.Tag("Jacoby", "On" if "jacoby" in words else "Off", line=line))


def read_sgf(text: str, path: str = "") -> list[m.Match]:
    """Parse SGF text (one or more backgammon matches) into matches.

    Raises :class:`NotAMatchFile` when the text is no SGF collection or an
    SGF file for another game, :class:`SyntaxProblem` (with line and column)
    when it cannot be read.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if not looks_like_sgf(text):
        raise NotAMatchFile(path, key="GM002.not-sgf", line=1, column=1)
    trees = parse_trees(text, path)
    return _Reader(path).read(trees)
