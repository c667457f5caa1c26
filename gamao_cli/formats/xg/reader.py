"""eXtreme Gammon files to gamao's match model.

:func:`read_xg` maps an ``.xg`` file's records (:mod:`.records`) to
:class:`gamao_cli.model.Match` objects; :func:`read_xg_with_positions` also
gives, for every action, the position XG states before it, so that a
validator can compare it with its own replay; :func:`read_xgp` reads an
``.xgp`` position file.

How records become actions (XG's player 1 is gamao's player 0, the left
column; XG's player 2 is gamao's player 1):

- a cube record with ``double == 1`` is a :class:`~gamao_cli.model.Double`
  (value: twice the cube) followed by the answer: ``Take``, ``Drop``, or for
  a beaver a ``Double(kind="beaver")`` by the taker and the doubler's answer
  (and so on for a raccoon). Cube records with no double (0), no cube
  available (-2) or no decision (-1) give nothing;
- a move record is a :class:`~gamao_cli.model.Play` (one
  :class:`~gamao_cli.model.Step` per checker movement, hits marked where the
  stated position has a lone opposing checker on the landing point), a
  :class:`~gamao_cli.model.Dance` when XG lists no movement, or an
  :class:`~gamao_cli.model.UnplayedRoll` for a roll never played (the player
  resigned after rolling). Plays are kept as XG states them, legal or not;
- a game end record gives ``Win(winner, points)``, after a
  ``Resign(loser)`` when XG says the game was resigned; ``match=True`` on the
  win that ends a match.

Move numbers follow :func:`gamao_cli.matfile_writer.game_lines`: one number
per line of a match file, that is per pair of turns.

Tags use the match-file names: ``Event``, ``Site`` (XG's location),
``Round``, ``EventDate`` (yyyy.mm.dd), ``EventTime`` (hh.mm), ``Player 1``,
``Player 2``, ``Variation``, ``Crawford`` (matches), ``Jacoby`` and
``Beaver`` (money sessions), ``CubeLimit`` (the highest cube, 1024 when XG
says 10), ``Transcriber`` (transcribed matches). Comments (``temp.xgc``, RTF)
become plain text: the match's in :attr:`Match.comments` (as ``;`` lines, as
a match file holds them), a game's and its moves' in :attr:`Game.comments`
(a move's prefixed with its move number and player).

Errors: whatever the bytes, these functions return or raise an
:class:`~gamao_cli.errors.InputError` subclass with ``offset`` set
(:class:`~gamao_cli.errors.NotAMatchFile` for a file that is not XG's,
:class:`~gamao_cli.errors.DamagedFile` for damaged bytes). An offset inside a
decompressed stream cannot be shown in the file; it is given as the offset
of that stream's compressed bytes in the file, and the message names the
record and its offset in the stream.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ... import model as m
from ...errors import DamagedFile, InputError, NotAMatchFile
from ...ids import MatchState, position_id, xgid
from ...messages import Msg
from ...model.notation import move_numbers
from . import records as r
from .container import Container, read_container

GAME_STREAM = "temp.xg"
INDEX_STREAM = "temp.xgi"
COMMENT_STREAM = "temp.xgc"


class StatedPosition(NamedTuple):
    """An action and the position XG states before it, seen by the player
    who acts (``action.player``): ``me`` and ``opp`` are gamao sides of 26
    counts. For plays, dances and unplayed rolls that is the player on
    roll, as :class:`gamao_cli.validator.ActionRecord` has it; for a double
    the doubler, for an answer the player answering. ``me`` and ``opp`` are
    None where XG states no position (``Resign``, ``Win``). ``record`` is
    the XG record the action comes from (None for none)."""

    action: m.ActionType
    me: tuple[int, ...] | None
    opp: tuple[int, ...] | None
    record: r.Record | None


# -- errors ----------------------------------------------------------------

class _Located:
    """Turns a :class:`records.RecordError` in a stream into a DamagedFile
    located in the file."""

    def __init__(self, box: Container, path: str):
        self.box = box
        self.path = path

    def __call__(self, exc: r.RecordError, stream: str = GAME_STREAM) -> DamagedFile:
        entry = self.box.entry(stream)
        where = entry.offset if entry is not None else 0
        size = len(self.box.streams.get(stream, b""))
        return DamagedFile(self.path, key="GM006.xg-record",
                           fields={"stream": stream, "at": exc.offset, "size": size,
                                   "problem": exc.msg}, offset=where)


def open_records(data: bytes, path: str) -> tuple[Container, list[r.Record], _Located]:
    """The container, the records of its game stream, and how to locate an
    error in them (what :func:`matches_of` takes)."""
    return _open(data, path)


def matches_of(box: Container, recs: list[r.Record], located: _Located, path: str
               ) -> list[tuple[m.Match, list[list[StatedPosition]]]]:
    """:func:`read_xg_with_positions` of records already read."""
    return _matches(box, recs, located, path)


def _open(data: bytes, path: str) -> tuple[Container, list[r.Record], _Located]:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("read_xg takes the file's bytes")
    data = bytes(data)
    box = read_container(data, path)
    located = _Located(box, path)
    stream = box.streams.get(GAME_STREAM)
    if stream is None:
        names = ", ".join(sorted(box.streams)) or Msg("xg.nothing", {})
        raise NotAMatchFile(path, key="GM002.xg-no-game-stream",
                            fields={"names": names, "stream": GAME_STREAM},
                            offset=box.registry_offset)
    try:
        recs = r.read_records(stream)
    except r.RecordError as exc:
        raise located(exc) from None
    return box, recs, located


# -- comments --------------------------------------------------------------

def comment_texts(blob: bytes) -> list[str]:
    """The comments of a ``temp.xgc`` stream as plain text, by index.

    Each comment is one line (lines end with CR LF); inside a comment XG
    writes bytes 01 02 for its own line breaks. Each is an RTF document.

    >>> comment_texts(b"{\\\\rtf1\\\\ansi{\\\\fonttbl{\\\\f0 Arial;}}\\\\f0 bien jou\\\\'e9\\\\par}\\r\\n")
    ['bien joué']
    """
    text = blob.decode("latin-1")
    lines = text.split("\r\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [rtf_text(line.replace("\x01\x02", "\r\n")) for line in lines]


_RTF_TOKEN = re.compile(r"\\([a-zA-Z]+)(-?\d+)? ?|\\'([0-9a-fA-F]{2})|\\(.)|([{}])|([^\\{}]+)",
                        re.S)
_RTF_SKIP = {"fonttbl", "colortbl", "stylesheet", "info", "pict", "generator", "themedata",
             "listtable", "listoverridetable", "rsidtbl", "xmlnstbl", "latentstyles"}
_RTF_BREAK = {"par": "\n", "line": "\n", "tab": "\t", "emdash": "\u2014", "endash": "\u2013",
              "lquote": "\u2018", "rquote": "\u2019", "ldblquote": "\u201c", "rdblquote": "\u201d",
              "bullet": "\u2022"}


def rtf_text(rtf: str) -> str:
    """The plain text of a (simple) RTF document: text, ``\\par`` and
    ``\\line`` as line breaks, ``\\'hh`` and ``\\uN`` characters; font
    tables, colour tables and other destinations dropped.

    >>> rtf_text(r"{\\rtf1{\\*\\generator Wine;}\\pard coup \\'e0 jouer\\par}")
    'coup à jouer'
    """
    out: list[str] = []
    skip_depth: int | None = None
    depth = 0
    pending_star = False
    uc = 1
    to_skip = 0
    for mt in _RTF_TOKEN.finditer(rtf):
        word, arg, hexa, sym, brace, plain = mt.groups()
        if brace == "{":
            depth += 1
            continue
        if brace == "}":
            if skip_depth is not None and depth <= skip_depth:
                skip_depth = None
            depth -= 1
            continue
        if sym == "*":
            pending_star = True
            continue
        if word is not None and (pending_star or word in _RTF_SKIP) and skip_depth is None:
            skip_depth = depth
        pending_star = False
        if skip_depth is not None:
            continue
        if to_skip and (hexa or plain):
            if plain:
                n = min(to_skip, len(plain))
                to_skip -= n
                plain = plain[n:]
                if not plain:
                    continue
            else:
                to_skip -= 1
                continue
        if word is not None:
            if word == "uc" and arg:
                uc = int(arg)
            elif word == "u" and arg:
                out.append(chr(int(arg) % 65536))
                to_skip = uc
            elif word in _RTF_BREAK:
                out.append(_RTF_BREAK[word])
        elif hexa is not None:
            out.append(bytes([int(hexa, 16)]).decode("cp1252", errors="replace"))
        elif sym is not None:
            if sym in "\\{}":
                out.append(sym)
            elif sym == "~":
                out.append("\u00a0")
            elif sym in "\r\n":
                out.append("\n")
        elif plain is not None:
            out.append(plain.replace("\r", "").replace("\n", ""))
    return _join_surrogates("".join(out)).strip()


_SURROGATE_PAIR = re.compile("([\ud800-\udbff])([\udc00-\udfff])")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _join_surrogates(text: str) -> str:
    """RTF writes a character beyond U+FFFF as the two UTF-16 halves of it
    (``\\u-10179?\\u-8704?`` for U+1F600): each pair becomes the character,
    and a half without its other half U+FFFD, as in the file's header strings.

    >>> _join_surrogates(chr(0xD83D) + chr(0xDE00) + "!" + chr(0xDE00)) == "\U0001f600!\ufffd"
    True
    """
    if text.isascii():
        return text
    text = _SURROGATE_PAIR.sub(lambda m: chr(0x10000 + ((ord(m.group(1)) - 0xD800) << 10)
                                             + ord(m.group(2)) - 0xDC00), text)
    return _LONE_SURROGATE.sub("\ufffd", text)


# -- tags ------------------------------------------------------------------

def _tags(h: r.MatchHeader) -> list[m.Tag]:
    tags: list[m.Tag] = []

    def add(name: str, value: str) -> None:
        value = value.replace('"', "'").strip()
        if value:
            tags.append(m.Tag(name, value))

    add("Event", h.event)
    add("Site", h.location)
    add("Round", h.round)
    when = h.when
    if when is not None:
        add("EventDate", when.strftime("%Y.%m.%d"))
        add("EventTime", when.strftime("%H.%M"))
    add("Player 1", h.player1)
    add("Player 2", h.player2)
    add("Variation", r.VARIATIONS.get(h.variation, f"XG variation {h.variation}"))
    if h.length:
        add("Crawford", "On" if h.crawford else "Off")
    else:
        add("Jacoby", "On" if h.jacoby else "Off")
        add("Beaver", "On" if h.beaver else "Off")
    if h.cube_limit is not None and 0 <= h.cube_limit <= 30:
        add("CubeLimit", str(1 << h.cube_limit))
    if h.transcribed:
        add("Transcriber", h.transcriber)
    return tags


# -- move numbers ------------------------------------------------------------

def number_moves(actions: list[m.ActionType]) -> None:
    """Give each action the move number of the match-file line it stands
    on (:func:`gamao_cli.model.notation.move_numbers`, the layout the
    match-file writer uses)."""
    for a, n in zip(actions, move_numbers((a.player, isinstance(a, m.Win)) for a in actions)):
        a.move_number = n


# -- matches ---------------------------------------------------------------

@dataclass
class _GameBuild:
    header: r.GameHeader
    game: m.Game
    stated: list[StatedPosition]
    #: the play comments waiting for their move numbers, known when the game
    #: closes: (index in game.comments, index of the action, player, text)
    numbered: list[tuple[int, int, str, str]] = field(default_factory=list)


def _gp(xg_player: int) -> int:
    return 0 if xg_player == 1 else 1


def _view(raw: r.Raw, xg_player: int, checkers: int, rec: r.Record, located: _Located):
    try:
        return r.mover_view(raw, xg_player, checkers)
    except r.PositionError as exc:
        raise located(r.RecordError("xg-record.position",
                                    {"index": rec.index, "problem": exc.msg}, rec.offset)) from None


def _cube_actions(rec: r.CubeAction, checkers: int, located: _Located,
                  auto: int) -> list[StatedPosition]:
    if rec.double != 1:
        return []
    doubler = _gp(rec.player)
    taker = 1 - doubler
    me, opp = _view(rec.position, rec.player, checkers, rec, located)
    cube = 1 << (abs(rec.cube_b) + auto)
    out = [StatedPosition(m.Double(doubler, 2 * cube), me, opp, rec)]

    def answer(player: int, code: int, beaver_kind: str | None, value: int) -> bool:
        """Append the answer of ``player``; True when it is a beaver/raccoon."""
        view = (me, opp) if player == doubler else (opp, me)
        if code == 0:
            out.append(StatedPosition(m.Drop(player), *view, rec))
        elif code == 1:
            out.append(StatedPosition(m.Take(player), *view, rec))
        elif code == 2 and beaver_kind is not None:
            out.append(StatedPosition(m.Double(player, value, beaver_kind), *view, rec))
            return True
        return False

    if answer(taker, rec.take, "beaver", 4 * cube):
        if answer(doubler, rec.beaver_answer, "raccoon", 8 * cube):
            answer(taker, rec.raccoon_answer, None, 0)
    return out


def _move_action(rec: r.CheckerMove, checkers: int, located: _Located) -> StatedPosition:
    player = _gp(rec.player)
    me, opp = _view(rec.position, rec.player, checkers, rec, located)
    dice = rec.dice
    if not rec.played:
        return StatedPosition(m.UnplayedRoll(player, dice), me, opp, rec)
    steps = rec.steps
    if not steps:
        return StatedPosition(m.Dance(player, dice), me, opp, rec)
    _after_me, _after_opp, hits = r.apply_steps(me, opp, steps)
    moves = tuple(m.Step(points=(src, dst), hits=(hit,)) for (src, dst), hit in zip(steps, hits))
    return StatedPosition(m.Play(player, dice, moves), me, opp, rec)


def _finish_game(build: _GameBuild, end: r.GameEnd | None, length: int) -> None:
    if end is not None:
        winner = _gp(end.winner)
        if end.resigned:
            build.stated.append(StatedPosition(m.Resign(1 - winner), None, None, end))
        score = end.score1 if winner == 0 else end.score2
        ends_match = bool(length) and score >= length
        build.stated.append(StatedPosition(m.Win(winner, end.points, ends_match), None, None, end))
    build.game.actions = [s.action for s in build.stated]
    number_moves(build.game.actions)


def _matches(box: Container, recs: list[r.Record], located: _Located,
             path: str) -> list[tuple[m.Match, list[list[StatedPosition]]]]:
    comments: list[str] = []
    if COMMENT_STREAM in box.streams:
        comments = comment_texts(box.streams[COMMENT_STREAM])

    def comment(i: int) -> str | None:
        return comments[i] if 0 <= i < len(comments) and comments[i] else None

    out: list[tuple[m.Match, list[list[StatedPosition]]]] = []
    header: r.MatchHeader | None = None
    match: m.Match | None = None
    stated_games: list[list[StatedPosition]] = []
    build: _GameBuild | None = None
    checkers = 15

    def close_game(end: r.GameEnd | None) -> None:
        nonlocal build
        if build is None:
            return
        _finish_game(build, end, match.length)
        actions = build.game.actions
        for slot, at, who, text in build.numbered:
            build.game.comments[slot] = f"move {actions[at].move_number or 0}, {who}: {text}"
        if end is not None and comment(build.header.comment_footer):
            build.game.comments.append(comment(build.header.comment_footer))
        match.games.append(build.game)
        stated_games.append(build.stated)
        build = None

    def close_match() -> None:
        close_game(None)
        if match is not None:
            out.append((match, stated_games))

    for rec in recs:
        if isinstance(rec, r.MatchHeader):
            close_match()
            header = rec
            checkers = rec.checkers
            match = m.Match(length=rec.length, tags=_tags(rec), path=path)
            if box.recovered is not None:
                match.notices.append(_recovered_note(box))
            stated_games = []
            for i in (rec.comment_header, rec.comment_footer):
                text = comment(i)
                if text:
                    match.comments.extend("; " + line for line in text.splitlines())
            continue
        assert header is not None and match is not None   # read_records checks the first record
        if isinstance(rec, r.GameHeader):
            close_game(None)
            try:
                r.sides(rec.position, checkers)
            except r.PositionError as exc:
                raise located(r.RecordError("xg-record.start-position",
                                            {"index": rec.index, "problem": exc.msg},
                                            rec.offset)) from None
            names = (header.player1, header.player2)
            game = m.Game(number=rec.game_number,
                          score=m.ScoreLine(names, (rec.score1, rec.score2)))
            if comment(rec.comment_header):
                game.comments.append(comment(rec.comment_header))
            build = _GameBuild(rec, game, [])
        elif isinstance(rec, (r.CubeAction, r.CheckerMove)):
            if build is None:
                raise located(r.RecordError("xg-record.outside-game",
                                            {"index": rec.index, "kind": type(rec).__name__},
                                            rec.offset))
            if isinstance(rec, r.CubeAction):
                new = _cube_actions(rec, checkers, located, build.header.auto_doubles)
            else:
                new = [_move_action(rec, checkers, located)]
            build.stated.extend(new)
            text = comment(rec.comment)
            if text and new:
                who = header.player1 if rec.player == 1 else header.player2
                # numbered when the game closes (numbering the game so far
                # at each comment cost a file of comments quadratic time)
                build.numbered.append((len(build.game.comments), len(build.stated) - len(new),
                                       who, text))
                build.game.comments.append("")
        elif isinstance(rec, r.GameEnd):
            if build is None:
                raise located(r.RecordError("xg-record.end-no-game", {"index": rec.index},
                                            rec.offset))
            close_game(rec)
        elif isinstance(rec, r.MatchEnd):
            close_game(None)
        elif isinstance(rec, r.MissingGame):
            raise InputError(path, key="GM004.xg-missing-game",
                             fields={"stream": GAME_STREAM, "index": rec.index},
                             offset=box.entry(GAME_STREAM).offset)
    close_match()
    return out


def _recovered_note(box: Container) -> m.Notice:
    """The info (GM030) of a file whose archive record another program
    rewrote: gamao read the game data found after the thumbnail."""
    got = box.recovered
    return m.Notice("GM030", "GM030.xg-archive", {
        "registry": got.registry, "data": got.data, "offset": got.offset, "size": got.size,
        "records": len(box.streams[GAME_STREAM]) // r.RECORD_SIZE})


def read_xg_with_positions(data: bytes, path: str = ""
                           ) -> list[tuple[m.Match, list[list[StatedPosition]]]]:
    """Each match of an ``.xg`` file with, for each of its games, a list
    parallel to ``game.actions``: the :class:`StatedPosition` of each action
    (the same action objects, in the same order)."""
    box, recs, located = _open(data, path)
    return _matches(box, recs, located, path)


def read_xg(data: bytes, path: str = "") -> list[m.Match]:
    """The matches of an ``.xg`` file (one in every file XG writes)."""
    return [match for match, _stated in read_xg_with_positions(data, path)]


def is_position_file(box: Container, recs: list[r.Record]) -> bool:
    """Whether the records are a position (``.xgp``): one game that never
    ends, with at most one decision in it; a match's file has game ends."""
    return (sum(isinstance(x, r.GameHeader) for x in recs) == 1
            and not any(isinstance(x, r.GameEnd) for x in recs)
            and sum(isinstance(x, (r.CubeAction, r.CheckerMove)) for x in recs) <= 1)


def read_xg_records(data: bytes, path: str = "") -> tuple[Container, list[r.Record]]:
    """The container and the decoded records of ``temp.xg``, unmapped."""
    box, recs, _located = _open(data, path)
    return box, recs


# -- positions (.xgp) -----------------------------------------------------------

@dataclass(frozen=True)
class XgPosition:
    """The position of an ``.xgp`` file, in gamao's terms.

    ``me``/``opp``: 26 counts each, for the player on roll (``player``, 0 =
    XG's player 1, the bottom player). ``decision`` is ``"cube"`` when the
    file holds a cube decision (no dice rolled: ``dice`` is None) or
    ``"checker"`` when it holds a roll to play. ``cube`` is the cube value,
    ``cube_owner`` the gamao player owning it (None: centred). ``score`` is
    (player 0, player 1); ``length`` 0 for money. ``dice_rolled`` is the
    dice string XG keeps in a cube record (in a match: what was rolled next;
    in a position file its meaning is not documented). ``checker_analysis``:
    a move record XG keeps in ``temp.xgi`` with the analysis of a roll in
    this position (BothAnalysis.xgp has one for 6-5), if any.
    """

    me: tuple[int, ...]
    opp: tuple[int, ...]
    player: int
    decision: str
    dice: tuple[int, int] | None
    cube: int
    cube_owner: int | None
    score: tuple[int, int]
    length: int
    crawford: bool
    jacoby: bool
    beaver: bool
    names: tuple[str, str]
    dice_rolled: str
    header: r.MatchHeader
    game: r.GameHeader
    decision_record: r.CubeAction | r.CheckerMove
    checker_analysis: r.CheckerMove | None

    def position_id(self) -> str:
        """GNU Backgammon Position ID (player on roll: ``me``)."""
        return position_id(self.me, self.opp)

    def match_state(self) -> MatchState:
        """The match state in gamao's numbering (player 0 is XG's player 1),
        as a GNU Backgammon Match ID holds it."""
        return MatchState(cube=self.cube, cube_owner=self.cube_owner, on_roll=self.player,
                          turn=self.player, crawford=self.crawford,
                          dice=self.dice or (0, 0), length=self.length, score=self.score,
                          jacoby=self.jacoby and not self.length)

    def xgid(self) -> str:
        """The XGID of the position, the bottom player being XG's player 1
        (as eXtreme Gammon shows it)."""
        turn = 1 if self.player == 0 else -1
        owner = 0 if self.cube_owner is None else (1 if self.cube_owner == 0 else -1)
        dice: tuple[int, int] | str | None = self.dice
        return xgid(self.me, self.opp, cube=self.cube, cube_owner=owner, turn=turn, dice=dice,
                    score=self.score, crawford=self.crawford, jacoby=self.jacoby,
                    beavers=self.beaver, length=self.length,
                    max_cube=self.header.cube_limit if self.header.cube_limit is not None else 10)


def read_xgp(data: bytes, path: str = "") -> XgPosition:
    """The position of an ``.xgp`` file: the last cube or move record of its
    ``temp.xg`` (a position file holds a match header, a game header and
    one decision)."""
    box, recs, located = _open(data, path)
    header = recs[0]
    games = [x for x in recs if isinstance(x, r.GameHeader)]
    decisions = [x for x in recs if isinstance(x, (r.CubeAction, r.CheckerMove))]
    if not games or not decisions:
        where = box.entry(GAME_STREAM).offset
        raise NotAMatchFile(path, key="GM002.xg-no-position", fields={"stream": GAME_STREAM},
                            offset=where)
    game, rec = games[-1], decisions[-1]
    checkers = header.checkers
    me, opp = _view(rec.position, rec.player, checkers, rec, located)
    cube_b = rec.cube_b if isinstance(rec, r.CubeAction) else rec.cube_a
    analysis = None
    if INDEX_STREAM in box.streams:
        try:
            extra = r.read_records(box.streams[INDEX_STREAM])
        except r.RecordError as exc:
            raise located(exc, INDEX_STREAM) from None
        moves = [x for x in extra if isinstance(x, r.CheckerMove)]
        analysis = moves[-1] if moves else None
    return XgPosition(
        me=me, opp=opp, player=_gp(rec.player),
        decision="cube" if isinstance(rec, r.CubeAction) else "checker",
        dice=rec.dice if isinstance(rec, r.CheckerMove) else None,
        cube=1 << (abs(cube_b) + game.auto_doubles),
        cube_owner=None if cube_b == 0 else (0 if cube_b > 0 else 1),
        score=(game.score1, game.score2), length=header.length, crawford=game.crawford,
        jacoby=header.jacoby, beaver=header.beaver, names=(header.player1, header.player2),
        dice_rolled=rec.dice_rolled if isinstance(rec, r.CubeAction) else "",
        header=header, game=game, decision_record=rec, checker_analysis=analysis)
