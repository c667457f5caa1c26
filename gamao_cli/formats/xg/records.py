"""The records of an eXtreme Gammon game stream (``temp.xg``), typed.

``temp.xg`` is a sequence of fixed 2560-byte records. Bytes 0-7 of each are
two stale in-memory pointers; byte 8 is the record type:

====  ==============  =====================================================
type  class           what it holds
====  ==============  =====================================================
0     MatchHeader     players, length, rules, event/site/round/date, ...
1     GameHeader      game number, score at its start, Crawford, position
2     CubeAction      the cube decision before a roll (often "none")
3     CheckerMove     the roll and the play, with the engine's analysis
4     GameEnd         winner, points won, how the game ended
5     MatchEnd        final score, winner
6     MissingGame     (never seen; layout from xgdatatools, unverified)
====  ==============  =====================================================

Each record class keeps ``index`` (its number in the stream, from 0) and
``offset`` (its byte offset in the decompressed stream). Field offsets are
given in FORMAT.md; everything here was checked on the sample files.

**Players.** XG's player 1 (``+1`` in ``ActiveP`` fields, ``SPlayer1``) is
gamao's player 0, the left column of a match file; XG's player 2 (``-1``)
is gamao's player 1. (Checked on the charlot1-charlot2 match, whose GNU
Backgammon twin names charlot1, XG's player 1, in its left column.)

**Positions.** XG stores a position as 26 signed counts. One side's
checkers are positive: index ``i`` (1..24) is that side's point ``i`` and
index 25 its bar. The other side's are negative: index ``i`` (1..24) is its
point ``25 - i`` and index 0 its bar. Which side is positive depends on the
field (verified on every play of the samples, see :func:`check_move`):

- ``CheckerMove.position`` (PositionI), ``CubeAction.position`` and
  ``GameHeader.position``: XG's player 1 is positive, whoever is on roll;
- ``CheckerMove.position_after`` (PositionEnd) and the positions inside the
  analysis structures: the player on roll is positive.

:func:`sides` turns such an array into two gamao sides (26 counts each,
index 0 = borne off, 1..24 = points in that side's own numbering, 25 =
bar); the ``*_view`` methods give (me, opp) for the player on roll.

**Moves.** A play is 8 integers, up to four (from, to) pairs, one per die,
in the mover's numbering counted from 0: point ``p`` is stored as ``p - 1``,
so the bar (25) is 24; a ``to`` is always ``from`` minus the die, so a
checker borne off has a ``to`` of -1 (exact) down to -6 (from a lower point
with a higher die); a pair whose ``from`` is -1 ends the list. :func:`move_steps` converts them to gamao's (src, dst).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from functools import cached_property
from datetime import datetime, timedelta
from typing import Union

from ...messages import Msg, render
from .container import short_string, utf16_fixed

RECORD_SIZE = 2560
(MATCH_HEADER, GAME_HEADER, CUBE_ACTION, CHECKER_MOVE, GAME_END, MATCH_END,
 MISSING_GAME) = range(7)
#: The value every match header holds at byte 556 (``DMLI`` read as bytes).
HEADER_MAGIC = b"DMLI"
#: The highest file version XG's description allows.
MAX_VERSION = 40
#: A stored length this big means an unlimited (money) session.
UNLIMITED = 99999
#: XG's "not analysed" marker in error and equity fields.
NOT_ANALYSED = -1000.0
VARIATIONS = {0: "Backgammon", 1: "Nackgammon", 2: "HyperGammon", 3: "LongGammon"}
CHECKERS = {0: 15, 1: 15, 2: 3, 3: 15}

Raw = tuple[int, ...]
Side = tuple[int, ...]


class RecordError(ValueError):
    """A record's bytes hold a value XG cannot have written; ``offset`` is
    the byte offset of the field in the decompressed stream. ``key`` and
    ``fields`` name its message in :mod:`gamao_cli.messages` (an
    ``xg-record.*`` key); :attr:`msg` is that message, to stand in another."""

    def __init__(self, key: str, fields: dict, offset: int):
        self.key = key
        self.fields = dict(fields)
        self.offset = offset
        super().__init__(render(key, self.fields))

    @property
    def msg(self) -> Msg:
        return Msg(self.key, self.fields)


class PositionError(ValueError):
    """A position array no position has; ``key`` and ``fields`` name its
    message (an ``xg-position.*`` key), :attr:`msg` is that message."""

    def __init__(self, key: str, fields: dict):
        self.key = key
        self.fields = dict(fields)
        super().__init__(render(key, self.fields))

    @property
    def msg(self) -> Msg:
        return Msg(self.key, self.fields)


def _u(fmt: str, data: bytes, at: int):
    return struct.unpack_from("<" + fmt, data, at)


def _i(data: bytes, at: int) -> int:
    return struct.unpack_from("<i", data, at)[0]


def _d(data: bytes, at: int) -> float:
    return struct.unpack_from("<d", data, at)[0]


def _pos(data: bytes, at: int) -> Raw:
    return struct.unpack_from("<26b", data, at)


def delphi_datetime(value: float) -> datetime | None:
    """A Delphi ``TDateTime`` (days since 1899-12-30) as a naive datetime;
    None for 0 or a value no calendar holds.

    >>> delphi_datetime(45969.5)
    datetime.datetime(2025, 11, 8, 12, 0)
    """
    if not value or value != value or not -693593 < value < 2958466:
        return None
    return datetime(1899, 12, 30) + timedelta(days=value)


# -- positions -------------------------------------------------------------

def sides(raw: Raw, checkers: int = 15) -> tuple[Side, Side]:
    """(positive side, negative side) of an XG position, each as 26 gamao
    counts in its own numbering; borne-off counts make up ``checkers``.

    Raises :class:`PositionError` (a :class:`ValueError`) for an array no
    position has (a checker of the wrong sign on a bar, more than
    ``checkers`` on a side).

    >>> start = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)
    >>> plus, minus = sides(start)
    >>> plus == minus, plus[24], plus[13], plus[8], plus[6], plus[0]
    (True, 2, 5, 3, 5, 0)
    >>> sides((1,) + (0,) * 25)
    Traceback (most recent call last):
    ...
    gamao_cli.formats.xg.records.PositionError: index 0 (the negative side's bar) holds 1
    """
    if len(raw) != 26:
        raise PositionError("xg-position.counts", {"count": len(raw)})
    if raw[0] > 0:
        raise PositionError("xg-position.negative-bar", {"count": raw[0]})
    if raw[25] < 0:
        raise PositionError("xg-position.positive-bar", {"count": raw[25]})
    plus = [n if n > 0 else 0 for n in raw]
    minus = [-n if n < 0 else 0 for n in reversed(raw)]   # point i of minus is 25 - i of raw
    for key, side in (("xg-position.too-many-positive", plus),
                      ("xg-position.too-many-negative", minus)):
        on_board = sum(side)
        if on_board > checkers:
            raise PositionError(key, {"count": on_board, "checkers": checkers})
        side[0] = checkers - on_board
    return tuple(plus), tuple(minus)


def mover_view(raw: Raw, player: int, checkers: int = 15) -> tuple[Side, Side]:
    """(me, opp) for XG player ``player`` (+1 or -1) from an array in which
    XG's player 1 is positive."""
    plus, minus = sides(raw, checkers)
    return (plus, minus) if player == 1 else (minus, plus)


def move_steps(moves) -> list[tuple[int, int]]:
    """XG's (from, to) pairs as gamao (src, dst), up to the first -1 'from'.

    XG stores point ``p`` as ``p - 1`` and a 'to' as 'from' minus the die,
    so any 'to' below 0 is borne off (-1 from the exact point, -2 .. -6 when
    a higher die bears off from a lower point).

    >>> move_steps((24, 22, 23, -1, 1, -3, -1, -1))
    [(25, 23), (24, 0), (2, 0)]
    """
    out = []
    for k in range(0, min(len(moves), 8) - 1, 2):
        src, dst = moves[k], moves[k + 1]
        if src < 0:
            break
        out.append((src + 1, dst + 1 if dst >= 0 else 0))
    return out


def apply_steps(me: Side, opp: Side, steps) -> tuple[Side, Side, tuple[bool, ...]]:
    """Play (src, dst) steps on (me, opp) in order, hitting lone checkers:
    the position after, and for each step whether it hit. A step with no
    checker to move is applied as far as it can be (the validator says what
    is wrong with it); this only follows the board to find the hits."""
    me_l, opp_l = list(me), list(opp)
    hits = []
    for src, dst in steps:
        if 0 <= src <= 25 and me_l[src] > 0:
            me_l[src] -= 1
        hit = False
        if 1 <= dst <= 24:
            if opp_l[25 - dst] == 1:
                opp_l[25 - dst] = 0
                opp_l[25] += 1
                hit = True
            me_l[dst] += 1
        elif dst == 0:
            me_l[0] += 1
        hits.append(hit)
    return tuple(me_l), tuple(opp_l), tuple(hits)


# -- records ---------------------------------------------------------------

@dataclass(frozen=True)
class TimeSetting:
    """The clock (file version 25 on); times in seconds."""

    clock_type: int       # 0 none, 1 Fischer, 2 Bronstein
    per_game: bool
    time1: int
    time2: int
    penalty: int
    time_left1: int
    time_left2: int
    penalty_money: int


@dataclass(frozen=True)
class MatchHeader:
    """Type 0: the match (or money session) as a whole.

    ``player1``/``player2``, ``event``, ``location`` and ``round`` are the
    Unicode fields (file version 24 on) when set, else the ANSI ones, which
    are kept in ``ansi_*``. ``match_length`` is as stored (99999 =
    unlimited). ``date`` is a Delphi TDateTime (see :attr:`when`).
    ``cube_limit`` is the log2 of the highest cube (10 = 1024).
    Not decoded: profile and rating bookkeeping beyond the fields below.
    """

    index: int
    offset: int
    version: int
    player1: str
    player2: str
    ansi_player1: str
    ansi_player2: str
    match_length: int
    variation: int
    crawford: bool
    jacoby: bool
    beaver: bool
    auto_double: bool
    elo1: float
    elo2: float
    exp1: int
    exp2: int
    date: float
    event: str
    location: str
    round: str
    ansi_event: str
    ansi_location: str
    ansi_round: str
    game_id: int
    comp_level1: int
    comp_level2: int
    game_mode: int
    imported: bool
    invert: int
    comment_header: int
    comment_footer: int
    is_money_match: bool
    site_id: int
    cube_limit: int | None
    auto_double_max: int | None
    transcribed: bool
    transcriber: str
    time_setting: TimeSetting | None

    @property
    def when(self) -> datetime | None:
        return delphi_datetime(self.date)

    @property
    def length(self) -> int:
        """gamao's match length: 0 for an unlimited session."""
        return 0 if self.match_length >= UNLIMITED else self.match_length

    @property
    def checkers(self) -> int:
        return CHECKERS.get(self.variation, 15)


@dataclass(frozen=True)
class GameHeader:
    """Type 1: a game starts. ``score1``/``score2`` are XG's players' scores
    before it; ``position`` is XG's start position, player 1 positive (all
    zeros in some files: then the variation's start position is meant)."""

    index: int
    offset: int
    score1: int
    score2: int
    crawford: bool
    position: Raw
    game_number: int
    in_progress: bool
    comment_header: int
    comment_footer: int
    auto_doubles: int


@dataclass(frozen=True)
class CubeAnalysis:
    """The engine's cube analysis (XG's EngineStructDoubleAction), from
    the point of view of the player on roll. ``away`` is (mover, opponent)
    points to go (-1 for money); ``no_double`` and ``double`` are the
    7-figure evaluations (see :class:`Evaluation`); the three equities are
    cubeful. ``level`` follows XG's PLAYERLEVEL table (0 = 1-ply, ...,
    100 = rollout, 1000+ = XG Roller)."""

    position: Raw
    level: int
    away: tuple[int, int]
    cube: int
    cube_position: int        # 0 centred, 1 the mover owns it, -1 the opponent
    jacoby: int
    crawford: int
    no_double: "Evaluation"
    double: "Evaluation"
    equity_no_double: float
    equity_double_take: float
    equity_double_pass: float
    level_requested: int
    choice: int               # XG's 3-ply choice, double + 2 * take


@dataclass(frozen=True)
class Evaluation:
    """XG's 7 figures: the opponent's backgammon, gammon and win chances,
    the mover's win, gammon and backgammon chances, and an equity
    (``win + opp_win == 1`` in every sample). Whether ``equity`` is
    cubeless or cubeful is not stated by the format; XG's own text export
    shows it as the move list's equity."""

    opp_backgammon: float
    opp_gammon: float
    opp_win: float
    win: float
    gammon: float
    backgammon: float
    equity: float

    @classmethod
    def of(cls, figures) -> "Evaluation":
        return cls(*(float(x) for x in figures))


class _KeepsBytes:
    """Pickles (and copies) a record whose ``raw`` is a view into its
    stream with a copy of those bytes instead: a view does not pickle."""

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        if isinstance(state.get("raw"), memoryview):
            state["raw"] = bytes(state["raw"])
        return state


@dataclass(frozen=True)
class CubeAction(_KeepsBytes):
    """Type 2: the cube decision of XG's player ``player`` (+1/-1) before a
    roll. ``double``: -2 the cube was not available, -1 no decision was
    made (the game ended there, or a position file stops there), 0 no
    double, 1 double. ``take``: -1 no answer, 0 drop, 1 take, 2 beaver;
    ``beaver_answer``: 0 drop, 1 take, 2 raccoon; ``raccoon_answer``: 0
    drop, 1 take. ``cube_b``: the cube before the decision, 0 centred, +n
    player 1 owns it at 2**n, -n player 2 does. ``position``: player 1
    positive. ``error_*`` are XG's error sizes (-1000 = not analysed).
    Not decoded: tutor-mode and delayed-rollout bookkeeping beyond the
    fields below."""

    index: int
    offset: int
    player: int
    double: int
    take: int
    beaver_answer: int
    raccoon_answer: int
    cube_b: int
    position: Raw
    error_double: float
    error_take: float
    error_beaver: float
    error_raccoon: float
    dice_rolled: str
    rollout_index: int
    invalid: int
    flagged: bool
    comment: int
    auto_doubles: int

    @property
    def cube_value(self) -> int:
        return 1 << abs(self.cube_b)

    raw: bytes | memoryview = field(default=b"", repr=False, compare=False)   # its bytes

    @cached_property
    def analysis(self) -> CubeAnalysis | None:
        """The engine's cube analysis, read from the record's bytes when first asked for."""
        return _cube_analysis(self.raw) if self.raw else None

    def view(self, checkers: int = 15) -> tuple[Side, Side]:
        """(me, opp) for the player deciding."""
        return mover_view(self.position, self.player, checkers)


@dataclass(frozen=True)
class MoveCandidate:
    """One play of the engine's list: its steps in gamao's numbering, its
    evaluation and the level it was evaluated at."""

    steps: tuple[tuple[int, int], ...]
    evaluation: Evaluation
    level: int
    is_double: bool


@dataclass(frozen=True)
class CheckerMove(_KeepsBytes):
    """Type 3: XG's player ``player`` rolled ``dice`` and played ``moves``
    (XG's 8 integers; :attr:`steps` in gamao's numbering). ``played`` is
    False for a roll that was never played (the player resigned after
    rolling; the moves are then zeros). ``position`` is the position
    before, player 1 positive; ``position_after`` the position after, the
    mover positive. ``cube_a``: the cube, as ``CubeAction.cube_b``.
    ``error`` is the size of the mistake (-1000 = not analysed, 0 = the
    best play), ``luck`` the roll's luck, ``initial_equity`` the equity
    before the roll; ``candidates`` the engine's list (up to 32), best
    first; ``choice`` the index in it of the engine's choice; ``invalid``:
    0 fine, 1 error, 2 invalid (XG's InvalidM). Not decoded: the
    candidates' resulting positions and tutor-mode fields."""

    index: int
    offset: int
    player: int
    dice: tuple[int, int]
    moves: tuple[int, ...]
    position: Raw
    position_after: Raw
    cube_a: int
    played: bool
    error: float
    luck: float
    initial_equity: float
    choice: int
    analysis_level: int
    invalid: int
    flagged: bool
    comment: int
    auto_doubles: int

    raw: bytes | memoryview = field(default=b"", repr=False, compare=False)   # its bytes

    @property
    def steps(self) -> list[tuple[int, int]]:
        return move_steps(self.moves) if self.played else []

    @cached_property
    def candidates(self) -> tuple[MoveCandidate, ...]:
        """The engine's list, read from the record's bytes when first asked
        for (checking a match needs none of it)."""
        return _candidates(self.raw) if self.raw else ()

    def view(self, checkers: int = 15) -> tuple[Side, Side]:
        """(me, opp) before the play, for the player on roll."""
        return mover_view(self.position, self.player, checkers)

    def view_after(self, checkers: int = 15) -> tuple[Side, Side]:
        """(me, opp) after the play, still for the player who moved."""
        return sides(self.position_after, checkers)


@dataclass(frozen=True)
class GameEnd:
    """Type 4: the game is over. ``winner`` is XG's +1/-1; ``points`` what
    the game scored; ``score1``/``score2`` the score after it.
    ``termination``: XG documents 0 drop, 1 single, 2 gammon, 3 backgammon,
    plus 100 for a resignation and 1000 for a settlement. A resigned
    backgammon in the samples is stored as 104, not 103: :attr:`kind`
    reads it as a backgammon when the points say so, else ``"unknown"``.
    ``evaluation`` is XG's 7 doubles for the final position (not decoded
    further)."""

    index: int
    offset: int
    score1: int
    score2: int
    crawford_next: bool
    winner: int
    points: int
    termination: int
    error_resign: float
    error_take_resign: float
    evaluation: tuple[float, ...]
    eval_level: int

    @property
    def resigned(self) -> bool:
        return self.termination % 1000 >= 100

    @property
    def settled(self) -> bool:
        return self.termination >= 1000

    @property
    def kind(self) -> str:
        return {0: "drop", 1: "single", 2: "gammon", 3: "backgammon"}.get(
            self.termination % 100, "unknown")


@dataclass(frozen=True)
class MatchEnd:
    """Type 5: the match is over: final score, winner (+1/-1), ratings."""

    index: int
    offset: int
    score1: int
    score2: int
    winner: int
    elo1: float
    elo2: float
    exp1: int
    exp2: int
    date: float


@dataclass(frozen=True)
class MissingGame:
    """Type 6 as xgdatatools describes it (a game of an imported match that
    is missing); never seen in a sample, so unverified."""

    index: int
    offset: int
    luck: float
    winner: int
    points: int


Record = Union[MatchHeader, GameHeader, CubeAction, CheckerMove, GameEnd, MatchEnd, MissingGame]


def _match_header(r: bytes, index: int, at: int) -> MatchHeader:
    version = _i(r, 552)
    if r[556:560] != HEADER_MAGIC:
        raise RecordError("xg-record.header-magic", {"index": index, "found": repr(r[556:560]),
                                                     "magic": repr(HEADER_MAGIC)}, at + 556)
    if not 1 <= version <= MAX_VERSION:
        raise RecordError("xg-record.version", {"index": index, "version": version,
                                                "most": MAX_VERSION}, at + 552)
    uni = ["", "", "", "", ""]
    transcribed = False
    if version >= 24:
        transcribed = bool(r[620])
        uni = [utf16_fixed(r, 622 + 258 * k, 129) for k in range(5)]
    time_setting = None
    if version >= 25:
        ct, pg, t1, t2, pen, tl1, tl2, pm = _u("iB3x6i", r, 1912)
        time_setting = TimeSetting(ct, bool(pg), t1, t2, pen, tl1, tl2, pm)
    a_p1, a_p2 = short_string(r, 9, 40), short_string(r, 50, 40)
    a_ev, a_loc, a_rnd = short_string(r, 136, 128), short_string(r, 283, 128), short_string(r, 417, 128)
    length, variation = _u("ii", r, 92)
    if not 0 <= length <= UNLIMITED:
        raise RecordError("xg-record.length", {"index": index, "length": length}, at + 92)
    return MatchHeader(
        index=index, offset=at, version=version,
        player1=uni[1] or a_p1, player2=uni[2] or a_p2, ansi_player1=a_p1, ansi_player2=a_p2,
        match_length=length, variation=variation,
        crawford=bool(r[100]), jacoby=bool(r[101]), beaver=bool(r[102]), auto_double=bool(r[103]),
        elo1=_d(r, 104), elo2=_d(r, 112), exp1=_i(r, 120), exp2=_i(r, 124), date=_d(r, 128),
        event=uni[0] or a_ev, location=uni[3] or a_loc, round=uni[4] or a_rnd,
        ansi_event=a_ev, ansi_location=a_loc, ansi_round=a_rnd,
        game_id=_i(r, 268), comp_level1=_i(r, 272), comp_level2=_i(r, 276),
        game_mode=_i(r, 412), imported=bool(r[416]), invert=_i(r, 548),
        comment_header=_i(r, 576), comment_footer=_i(r, 580), is_money_match=bool(r[584]),
        site_id=_i(r, 608),
        cube_limit=_i(r, 612) if version >= 8 else None,
        auto_double_max=_i(r, 616) if version >= 8 else None,
        transcribed=transcribed, transcriber=utf16_fixed(r, 1960, 129) if version >= 30 else "",
        time_setting=time_setting)


#: The most automatic doubles gamao accepts at the start of a game: XG's
#: cube never passes 2**12, and a value beyond this is damage.
MAX_AUTO_DOUBLES = 12


def _auto_doubles(r: bytes, at: int, where: int, what: Msg, index: int) -> int:
    n = _i(r, where)
    if not 0 <= n <= MAX_AUTO_DOUBLES:
        raise RecordError("xg-record.auto-doubles", {"what": what, "index": index, "count": n,
                                                     "most": MAX_AUTO_DOUBLES}, at + where)
    return n


def _game_header(r: bytes, index: int, at: int, version: int) -> GameHeader:
    s1, s2 = _u("ii", r, 12)
    return GameHeader(index=index, offset=at, score1=s1, score2=s2, crawford=bool(r[20]),
                      position=_pos(r, 21), game_number=_i(r, 48), in_progress=bool(r[52]),
                      comment_header=_i(r, 56), comment_footer=_i(r, 60),
                      auto_doubles=_auto_doubles(r, at, 64, Msg("xg.game-header", {}), index)
                      if version >= 26 else 0)


def _cube_analysis(r: bytes) -> CubeAnalysis | None:
    if not any(r[64:196]):
        return None
    level, a1, a2, cube, cpos, jac = _u("6i", r, 92)
    craw, _met, _flag, _beaver = _u("4h", r, 116)
    nd = Evaluation.of(_u("7f", r, 124))
    eb, ed, ep = _u("3f", r, 152)
    lreq, choice = _u("2h", r, 164)
    return CubeAnalysis(position=_pos(r, 64), level=level, away=(a1, a2), cube=cube,
                        cube_position=cpos, jacoby=jac, crawford=craw, no_double=nd,
                        double=Evaluation.of(_u("7f", r, 168)), equity_no_double=eb,
                        equity_double_take=ed, equity_double_pass=ep, level_requested=lreq,
                        choice=choice)


def _built(cls, fields: dict):
    """An instance of the frozen dataclass ``cls`` holding ``fields`` (every
    field), made without its generated ``__init__``, which sets each field
    through ``object.__setattr__``: the same object, at a fraction of the
    cost, for the records a match has hundreds of thousands of."""
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


def _player(value: int, index: int, at: int) -> int:
    if value not in (1, -1):
        raise RecordError("xg-record.player", {"index": index, "value": value}, at)
    return value


# The fields of a cube-action record (byte offsets in the comments).
_CA_HEAD = struct.Struct("<6i26b")            # 12: player, double, take, beaver and
#                                               raccoon answers, cube; 36: position
_CA_FIGURES = struct.Struct("<d8xdi12xdd4xi24x?3xi")  # 200: error double, 216: error
#  take, 224: rollout, 240, 248: errors beaver, raccoon, 260: invalid, 288: flagged, 292: comment
_MOVE_RECORD = Msg("xg.move-record", {})
_CUBE_RECORD = Msg("xg.cube-record", {})


def _cube_fields(index: int, at: int, dbl: int, take: int, br: int, rr: int) -> None:
    """Raise the error for the first field of a cube record that holds a
    value XG never writes."""
    for name, value, allowed, where in (("xg.field-double", dbl, (-2, -1, 0, 1), 16),
                                        ("xg.field-take", take, (-1, 0, 1, 2), 20),
                                        ("xg.field-beaver", br, (-1, 0, 1, 2), 24),
                                        ("xg.field-raccoon", rr, (-1, 0, 1), 28)):
        if value not in allowed:
            raise RecordError("xg-record.cube-field",
                              {"index": index, "field": Msg(name, {}), "value": value,
                               "allowed": ", ".join(map(str, allowed))}, at + where)


def _cube_action(r: bytes, index: int, at: int, version: int) -> CubeAction:
    head = _CA_HEAD.unpack_from(r, 12)
    player, dbl, take, br, rr, cube_b = head[:6]
    _player(player, index, at + 12)
    if not (-2 <= dbl <= 1 and -1 <= take <= 2 and -1 <= br <= 2 and -1 <= rr <= 1):
        _cube_fields(index, at, dbl, take, br, rr)
    if abs(cube_b) > 30:
        raise RecordError("xg-record.cube", {"index": index, "power": abs(cube_b)}, at + 32)
    (error_double, error_take, rollout_index, error_beaver, error_raccoon, invalid, flagged,
     comment) = _CA_FIGURES.unpack_from(r, 200)
    return _built(CubeAction, dict(
        index=index, offset=at, player=player, double=dbl, take=take, beaver_answer=br,
        raccoon_answer=rr, cube_b=cube_b, position=head[6:32],
        error_double=error_double, error_take=error_take, error_beaver=error_beaver,
        error_raccoon=error_raccoon, dice_rolled=short_string(r, 208, 2),
        rollout_index=rollout_index, invalid=invalid, flagged=flagged, comment=comment,
        auto_doubles=_auto_doubles(r, at, 300, _CUBE_RECORD, index) if version >= 27 else 0,
        raw=r))


_CANDIDATE_MOVES = struct.Struct("<256b")     # 32 candidates x 8 move values
_CANDIDATE_LEVELS = struct.Struct("<" + "hBb" * 32)
_CANDIDATE_FIGURES = struct.Struct("<224f")   # 32 candidates x 7 figures
_EVALUATION_FIELDS = ("opp_backgammon", "opp_gammon", "opp_win", "win", "gammon", "backgammon",
                      "equity")


def _candidates(r: bytes) -> tuple[MoveCandidate, ...]:
    """The engine's list (EngineStructBestMove, bytes 124-2307 of the record;
    the pairs after a candidate's first -1 are stale and ignored)."""
    n = max(0, min(_i(r, 188), 32))
    if not n:
        return ()
    moves = _CANDIDATE_MOVES.unpack_from(r, 1024)
    levels = _CANDIDATE_LEVELS.unpack_from(r, 1280)
    figures = _CANDIDATE_FIGURES.unpack_from(r, 1408)
    # (built without the frozen dataclasses' __init__: an analysed match has
    # hundreds of thousands of candidates)
    return tuple(_built(MoveCandidate, {
        "steps": tuple(move_steps(moves[8 * k:8 * k + 8])),
        "evaluation": _built(Evaluation, dict(zip(_EVALUATION_FIELDS, figures[7 * k:7 * k + 7]))),
        "level": levels[3 * k], "is_double": bool(levels[3 * k + 1])}) for k in range(n))


# The fields of a checker-move record, read with three unpacks (their byte
# offsets are in the comments): the hot path of reading a match.
_CM_HEAD = struct.Struct("<26b26b3xi8i2ii")   # 9: position, 35: after, 64: player,
#                                               68: moves, 100: dice, 108: cube
_CM_FIGURES = struct.Struct("<?3xddi4xd")     # 2308: played, 2312: error, 2320: luck,
#                                               2328: choice, 2336: initial equity
_CM_MARKS = struct.Struct("<i4xi36x?3xi")     # 2472: level, 2480: invalid, 2520: flagged,
#                                               2524: comment


def _checker_move(r: bytes, index: int, at: int, version: int) -> CheckerMove:
    head = _CM_HEAD.unpack_from(r, 9)
    player = _player(head[52], index, at + 64)
    moves = head[53:61]
    dice = head[61:63]
    played, error, luck, choice, initial_equity = _CM_FIGURES.unpack_from(r, 2308)
    if not (1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):
        raise RecordError("xg-record.dice", {"index": index, "d1": dice[0], "d2": dice[1]},
                          at + 100)
    if played and not (min(moves[0::2]) >= -1 and min(moves[1::2]) >= -6 and max(moves) <= 24):
        for k, v in enumerate(moves):
            low = -1 if k % 2 == 0 else -6       # a 'to' below -1 is off: from minus the die
            if not low <= v <= 24:
                raise RecordError("xg-record.move-from" if k % 2 == 0 else "xg-record.move-to",
                                  {"index": index, "value": v, "low": low}, at + 68 + 4 * k)
    level, invalid, flagged, comment = _CM_MARKS.unpack_from(r, 2472)
    return _built(CheckerMove, dict(
        index=index, offset=at, player=player, dice=dice, moves=moves,
        position=head[0:26], position_after=head[26:52], cube_a=head[63], played=played,
        error=error, luck=luck, choice=choice, initial_equity=initial_equity,
        raw=r, analysis_level=level, invalid=invalid, flagged=flagged, comment=comment,
        auto_doubles=_auto_doubles(r, at, 2540, _MOVE_RECORD, index) if version >= 27 else 0))


def _game_end(r: bytes, index: int, at: int) -> GameEnd:
    s1, s2 = _u("ii", r, 12)
    winner, points, term = _u("3i", r, 24)
    _player(winner, index, at + 24)
    if points < 0:
        raise RecordError("xg-record.points", {"index": index, "points": points}, at + 28)
    return GameEnd(index=index, offset=at, score1=s1, score2=s2, crawford_next=bool(r[20]),
                   winner=winner, points=points, termination=term, error_resign=_d(r, 40),
                   error_take_resign=_d(r, 48), evaluation=_u("7d", r, 56), eval_level=_i(r, 112))


def _match_end(r: bytes, index: int, at: int) -> MatchEnd:
    s1, s2, w = _u("3i", r, 12)
    e1, e2, x1, x2, date = _u("ddiid", r, 24)
    return MatchEnd(index=index, offset=at, score1=s1, score2=s2, winner=w, elo1=e1, elo2=e2,
                    exp1=x1, exp2=x2, date=date)


def read_records(stream: bytes) -> list[Record]:
    """Every record of a ``temp.xg`` (or ``temp.xgi``) stream, in order.

    Raises :class:`RecordError` (with the byte offset in ``stream``) when
    the stream is not a whole number of records, does not open with a match
    header, or holds a value XG cannot write.
    """
    if len(stream) % RECORD_SIZE:
        raise RecordError("xg-record.stream-size", {"size": len(stream), "record": RECORD_SIZE},
                          len(stream) - len(stream) % RECORD_SIZE)
    if not stream:
        raise RecordError("xg-record.stream-empty", {}, 0)
    out: list[Record] = []
    version = 0
    # the records of plays and cube actions (nearly all) keep a view of
    # their bytes in the stream, not a copy: the stream is kept whole anyway
    view = memoryview(stream).toreadonly()
    for index in range(len(stream) // RECORD_SIZE):
        at = index * RECORD_SIZE
        kind = stream[at + 8]
        r = view[at:at + RECORD_SIZE] if kind == CHECKER_MOVE or kind == CUBE_ACTION \
            else stream[at:at + RECORD_SIZE]
        if index == 0 and kind != MATCH_HEADER:
            raise RecordError("xg-record.first-type", {"kind": kind}, 8)
        if kind == MATCH_HEADER:
            rec: Record = _match_header(r, index, at)
            version = rec.version
        elif kind == GAME_HEADER:
            rec = _game_header(r, index, at, version)
        elif kind == CUBE_ACTION:
            rec = _cube_action(r, index, at, version)
        elif kind == CHECKER_MOVE:
            rec = _checker_move(r, index, at, version)
        elif kind == GAME_END:
            rec = _game_end(r, index, at)
        elif kind == MATCH_END:
            rec = _match_end(r, index, at)
        elif kind == MISSING_GAME:
            rec = MissingGame(index=index, offset=at, luck=_d(r, 16), winner=_i(r, 24),
                              points=_i(r, 28))
        else:
            raise RecordError("xg-record.type", {"index": index, "kind": kind}, at + 8)
        out.append(rec)
    return out


def check_move(move: CheckerMove, checkers: int = 15) -> bool:
    """Whether playing ``move``'s steps on its stated position gives its
    stated position after (True for every play of the samples)."""
    me, opp = move.view(checkers)
    me2, opp2, _hits = apply_steps(me, opp, move.steps)
    return (me2, opp2) == move.view_after(checkers)
