"""Position notations: GNU Backgammon Position ID and Match ID, and XGID.

A position is two tuples of 26 ints, ``me`` (the player on roll) and ``opp``,
each in that player's own numbering: index 0 holds the checkers borne off,
1..24 the points (1 = that player's ace point), 25 the bar.  My point ``p`` is
the opponent's point ``25 - p``.

GNU Backgammon Position ID
    14 characters of base64 over an 80-bit key.  For the player *not* on roll,
    then for the player on roll, for each point from the ace point to the
    24-point and then the bar: one 1 bit per checker, then a 0 bit.  Bits are
    packed least-significant first into 10 bytes, which are base64-encoded
    (standard alphabet, no padding).

GNU Backgammon Match ID
    12 characters of base64 over 9 bytes holding these fields, each stored
    least-significant bit first, starting at bit 0 of byte 0:

    ====  =====  ==================================================
    bits  width  field
    ====  =====  ==================================================
    0     4      log2 of the cube value
    4     2      cube owner: 0 or 1 = that player, 3 = centred
    6     1      player on roll (holds or will roll the dice)
    7     1      Crawford game
    8     3      game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
    11    1      player who must act next (differs from the player on roll
                 while a double or a resignation awaits an answer)
    12    1      double offered
    13    2      resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
    15    3      first die (0 = not rolled); gnubg writes the higher die
                 first, BGBlitz may write the lower one first
    18    3      second die
    21    15     match length (0 = money session)
    36    15     score of player 0
    51    15     score of player 1
    66    1      set when the Jacoby rule is NOT in force (always set in a match)
    ====  =====  ==================================================

XGID (eXtreme Gammon; BGBlitz writes the same)
    ``XGID=<26 chars>:cube:owner:turn:dice:score1:score2:rules:length:maxcube``.
    The board is always seen from the *bottom* player: char 0 is the top
    player's bar, chars 1..24 are points 1..24 in the bottom player's
    numbering, char 25 is the bottom player's bar; ``A``..``P`` count the
    bottom player's checkers, ``a``..``p`` the top player's, ``-`` is empty.
    ``cube`` is log2 of the cube value; ``owner`` is 1 (bottom owns), -1 (top
    owns) or 0 (centred); ``turn`` is 1 when the bottom player is on roll and
    -1 when the top player is; ``dice`` is ``00`` (to roll or double), two
    digits for a roll (order kept), ``D`` (the player on roll has doubled and
    the opponent must take or pass), ``B`` (beavered) or ``R`` (raccooned);
    ``score1`` is the bottom player's score, ``score2`` the top player's;
    ``rules`` is, in a match, 1 for the Crawford game, and in a money game
    bit 0 = Jacoby, bit 1 = beavers; ``length`` 0 means money; ``maxcube`` is
    log2 of the largest cube allowed (10 = 1024).  When a GNU Backgammon
    Match ID is derived from an XGID, the bottom player is gnubg's player 1
    and the top player gnubg's player 0, whoever is on roll (as gnubg 1.1's
    ``set xgid`` and BGBlitz's exports do; gnubg 1.07 instead makes the
    player on roll player 1, see :meth:`MatchState.swap_players`).
    Checked against gnubg: board, cube, owner, turn, rolled dice, scores,
    the Crawford and Jacoby bits, and ``D`` (gnubg reads it as a pending
    double).  gnubg rejects ``B``/``R`` and ignores ``maxcube``; their
    meaning here follows eXtreme Gammon's description and is kept as read.

Start position:

>>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
>>> position_id(start, start)
'4HPwATDgc/ABMA'
>>> decode_position_id('4HPwATDgc/ABMA') == (start, start)
True
>>> match_id(MatchState(length=7, dice=(3, 1), on_roll=1, turn=1))
'cInlAAAAAAAE'
>>> xgid(start, start, length=7)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10'
"""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Sequence

__all__ = [
    "Board",
    "MatchState",
    "XgidState",
    "GAME_NONE",
    "GAME_PLAYING",
    "GAME_OVER",
    "GAME_RESIGNED",
    "GAME_DROPPED",
    "position_id",
    "decode_position_id",
    "match_id",
    "decode_match_id",
    "gnubg_id",
    "xgid",
    "parse_xgid",
    "draw_board",
]

Board = tuple[int, ...]

MAX_CHECKERS = 15
_B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_RE = re.compile(r"[A-Za-z0-9+/]*")

GAME_NONE = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROPPED = 4
_GAME_STATE_NAMES = ("no game", "playing", "game over", "resigned", "dropped")


# --------------------------------------------------------------------------
# board checks
# --------------------------------------------------------------------------

_INT = {int}


def _check_side(side: Sequence[int], name: str) -> Board:
    values = side if type(side) is tuple else None
    if values is not None and len(values) == 26 and set(map(type, values)) <= _INT \
            and min(values) >= 0 and sum(values) <= MAX_CHECKERS:
        return values  # the usual case, checked at C speed; else say what is wrong
    try:
        values = tuple(side)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of 26 ints, not {type(side).__name__}") from None
    if len(values) != 26:
        raise ValueError(
            f"{name} must have 26 entries (0 = borne off, 1..24 = points, 25 = bar), got {len(values)}"
        )
    for i, n in enumerate(values):
        if isinstance(n, bool) or not isinstance(n, int):
            raise ValueError(f"{name}[{i}] must be an int, got {n!r}")
        if n < 0:
            raise ValueError(f"{name}[{i}] is negative ({n})")
    on_board = sum(values[1:])
    if on_board > MAX_CHECKERS:
        raise ValueError(f"{name} has {on_board} checkers on the board and bar; at most {MAX_CHECKERS} allowed")
    if sum(values) > MAX_CHECKERS:
        raise ValueError(f"{name} has {sum(values)} checkers in all; at most {MAX_CHECKERS} allowed")
    return values


def _check_board(me: Sequence[int], opp: Sequence[int]) -> tuple[Board, Board]:
    me_t = _check_side(me, "me")
    opp_t = _check_side(opp, "opp")
    if not any(map(min, me_t[1:25], opp_t[24:0:-1])):  # no point held by both
        return me_t, opp_t
    for p in range(1, 25):
        if me_t[p] and opp_t[25 - p]:
            raise ValueError(
                f"both players have checkers on the same point (my point {p}, the opponent's point {25 - p})"
            )
    return me_t, opp_t


# --------------------------------------------------------------------------
# base64 and bits
# --------------------------------------------------------------------------

def _b64_encode(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii").rstrip("=")


def _b64_decode(text: object, length: int, what: str) -> bytes:
    if not isinstance(text, str):
        raise ValueError(f"{what} must be a string, not {type(text).__name__}")
    s = text.strip()
    if len(s) != length:
        raise ValueError(f"{what} must be {length} characters long, got {len(s)}: {text!r}")
    if not _B64_RE.fullmatch(s):
        bad = next(c for c in s if c not in _B64_ALPHABET)
        raise ValueError(f"{what} {text!r} contains {bad!r}, which is not a base64 character")
    return base64.b64decode(s + "=" * (-len(s) % 4))


def _bits_of(data: bytes) -> list[int]:
    return [(data[i >> 3] >> (i & 7)) & 1 for i in range(len(data) * 8)]


# --------------------------------------------------------------------------
# Position ID
# --------------------------------------------------------------------------

def position_key(me: Sequence[int], opp: Sequence[int]) -> bytes:
    """The 10-byte key behind a Position ID (player not on roll first)."""
    me_t, opp_t = _check_board(me, opp)
    # bit i of the key is the i-th of: for each point 1..25 of the player not
    # on roll, then of the player on roll, a 1 per checker and a 0
    bits = "".join(["1" * side[p] + "0" for side in (opp_t, me_t) for p in range(1, 26)])
    return int(bits[::-1], 2).to_bytes(10, "little")


def position_id(me: Sequence[int], opp: Sequence[int]) -> str:
    """GNU Backgammon Position ID of a position; ``me`` is on roll.

    >>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
    >>> position_id(start, start)
    '4HPwATDgc/ABMA'
    >>> empty = (15,) + (0,) * 25
    >>> position_id(empty, empty)
    'AAAAAAAAAAAAAA'

    Raises ``ValueError`` for boards that are not positions (wrong length,
    negative counts, more than 15 checkers, both players on one point).
    """
    return _b64_encode(position_key(me, opp))


def decode_position_id(s: str, checkers: int = 15) -> tuple[Board, Board]:
    """Decode a Position ID into ``(me, opp)``; ``me`` is the player on roll.

    Borne-off counts are ``checkers`` minus the checkers on the board and bar.

    >>> me, opp = decode_position_id('4HPwATDgc/ABMA')
    >>> me[6], me[8], me[13], me[24], me[0]
    (5, 3, 5, 2, 0)
    >>> decode_position_id('4HPwATDgc/ABMA', checkers=16)
    Traceback (most recent call last):
    ...
    ValueError: checkers must be between 0 and 15, got 16
    >>> decode_position_id('4HPwATDgc/AB')
    Traceback (most recent call last):
    ...
    ValueError: Position ID must be 14 characters long, got 12: '4HPwATDgc/AB'

    As gnubg does, the four padding bits of the last character are ignored.
    """
    if isinstance(checkers, bool) or not isinstance(checkers, int) or not 0 <= checkers <= MAX_CHECKERS:
        raise ValueError(f"checkers must be between 0 and {MAX_CHECKERS}, got {checkers!r}")
    bits = _bits_of(_b64_decode(s, 14, "Position ID"))[:80]
    sides: list[list[int]] = []
    i = 0
    for who in ("the player not on roll", "the player on roll"):
        side = [0] * 26
        on_board = 0
        for p in range(1, 26):
            while True:
                if i >= 80:
                    raise ValueError(f"Position ID {s!r} is invalid: its key ends inside the checkers of {who}")
                bit = bits[i]
                i += 1
                if not bit:
                    break
                side[p] += 1
                on_board += 1
                if on_board > checkers:
                    raise ValueError(
                        f"Position ID {s!r} is invalid: {who} has more than {checkers} checkers on the board"
                    )
        side[0] = checkers - on_board
        sides.append(side)
    if any(bits[i:]):
        raise ValueError(f"Position ID {s!r} is invalid: stray bits after the last point")
    opp, me = (tuple(x) for x in sides)
    for p in range(1, 25):
        if me[p] and opp[25 - p]:
            raise ValueError(
                f"Position ID {s!r} is invalid: both players have checkers on my point {p}"
            )
    return me, opp


# --------------------------------------------------------------------------
# Match ID
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchState:
    """What a GNU Backgammon Match ID holds.

    Players are numbered as gnubg numbers them (0 and 1; in a gnubg match
    file player 0 is the left column).  ``cube_owner`` is ``None`` when the
    cube is centred.  ``on_roll`` is the player holding (or about to roll)
    the dice; ``turn`` is the player who must act next, the opponent of
    ``on_roll`` while a double or resignation awaits an answer.  ``dice`` is
    ``(0, 0)`` before the roll.  ``length`` 0 is a money session, where
    ``jacoby`` says whether the Jacoby rule applies.

    >>> MatchState(cube=3)
    Traceback (most recent call last):
    ...
    ValueError: cube must be a power of two from 1 to 32768, got 3
    """

    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        def is_int(v: object) -> bool:
            return isinstance(v, int) and not isinstance(v, bool)

        c = self.cube
        if not is_int(c) or c < 1 or c > 1 << 15 or c & (c - 1):
            raise ValueError(f"cube must be a power of two from 1 to 32768, got {c!r}")
        if self.cube_owner not in (None, 0, 1):
            raise ValueError(f"cube_owner must be 0, 1 or None (centred), got {self.cube_owner!r}")
        for name in ("on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                raise ValueError(f"{name} must be player 0 or 1, got {getattr(self, name)!r}")
        if not is_int(self.game_state) or not 0 <= self.game_state <= 4:
            raise ValueError(f"game_state must be 0..4 ({', '.join(_GAME_STATE_NAMES)}), got {self.game_state!r}")
        if not is_int(self.resignation) or not 0 <= self.resignation <= 3:
            raise ValueError(f"resignation must be 0..3 (none, single, gammon, backgammon), got {self.resignation!r}")
        dice = tuple(self.dice)
        if len(dice) != 2 or not all(is_int(d) and 0 <= d <= 6 for d in dice) or (0 in dice and dice != (0, 0)):
            raise ValueError(f"dice must be two values 1..6, or (0, 0) when not rolled, got {self.dice!r}")
        object.__setattr__(self, "dice", dice)
        if not is_int(self.length) or not 0 <= self.length < 1 << 15:
            raise ValueError(f"length must be 0 (money) .. 32767, got {self.length!r}")
        score = tuple(self.score)
        if len(score) != 2 or not all(is_int(x) and 0 <= x < 1 << 15 for x in score):
            raise ValueError(f"score must be two values 0..32767, got {self.score!r}")
        object.__setattr__(self, "score", score)
        for name in ("crawford", "double_offered", "jacoby"):
            v = getattr(self, name)
            if v not in (0, 1):  # accepts bools and 0/1
                raise ValueError(f"{name} must be a bool, got {v!r}")
            object.__setattr__(self, name, bool(v))


    def swap_players(self) -> "MatchState":
        """The same state with players 0 and 1 exchanged.

        gnubg 1.07 numbers the players of an XGID with the top player on roll
        this way round (the player on roll is always player 1), gnubg 1.1
        and gamao keep the bottom player as player 1.

        >>> MatchState(on_roll=1, turn=1, cube=2, cube_owner=0, score=(3, 1), length=5).swap_players()
        MatchState(cube=2, cube_owner=1, on_roll=0, crawford=False, game_state=1, turn=0, double_offered=False, resignation=0, dice=(0, 0), length=5, score=(1, 3), jacoby=False)
        """
        return MatchState(
            cube=self.cube,
            cube_owner=None if self.cube_owner is None else 1 - self.cube_owner,
            on_roll=1 - self.on_roll,
            crawford=self.crawford,
            game_state=self.game_state,
            turn=1 - self.turn,
            double_offered=self.double_offered,
            resignation=self.resignation,
            dice=self.dice,
            length=self.length,
            score=(self.score[1], self.score[0]),
            jacoby=self.jacoby,
        )


_MATCH_FIELDS = (
    # (name, first bit, width)
    ("cube_log2", 0, 4),
    ("cube_owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)


def match_id(state: MatchState) -> str:
    """GNU Backgammon Match ID of a :class:`MatchState`.

    Like gnubg, it writes the higher die first, so ``(1, 2)`` and ``(2, 1)``
    give the same ID.

    >>> match_id(MatchState())  # money, centred cube, player 0 to roll, no Jacoby
    'MAEAAAAAAAAE'
    >>> match_id(MatchState(length=7, cube=2, cube_owner=0, on_roll=1, turn=1, dice=(2, 1), score=(6, 3)))
    'QQnlAGAAGAAE'
    >>> match_id(MatchState(length=7, cube=2, cube_owner=0, on_roll=1, turn=1, dice=(1, 2), score=(6, 3)))
    'QQnlAGAAGAAE'
    """
    if not isinstance(state, MatchState):
        raise TypeError(f"match_id needs a MatchState, not {type(state).__name__}")
    values = {
        "cube_log2": state.cube.bit_length() - 1,
        "cube_owner": 3 if state.cube_owner is None else state.cube_owner,
        "on_roll": state.on_roll,
        "crawford": int(state.crawford),
        "game_state": state.game_state,
        "turn": state.turn,
        "double_offered": int(state.double_offered),
        "resignation": state.resignation,
        "die1": max(state.dice),  # gnubg always writes the higher die first
        "die2": min(state.dice),
        "length": state.length,
        "score0": state.score[0],
        "score1": state.score[1],
        "no_jacoby": int(not state.jacoby),
    }
    key = 0
    for name, start, width in _MATCH_FIELDS:
        key |= (values[name] & ((1 << width) - 1)) << start
    return _b64_encode(key.to_bytes(9, "little"))


def decode_match_id(s: str) -> MatchState:
    """Decode a GNU Backgammon Match ID.

    >>> st = decode_match_id('cAgAAAAAAAAE')
    >>> st.cube, st.cube_owner, st.on_roll, st.game_state, st.dice, st.length
    (1, None, 1, 0, (0, 0), 0)
    >>> decode_match_id('cAgAAAAAAA')
    Traceback (most recent call last):
    ...
    ValueError: Match ID must be 12 characters long, got 10: 'cAgAAAAAAA'
    """
    bits = _bits_of(_b64_decode(s, 12, "Match ID"))
    f = {}
    for name, start, width in _MATCH_FIELDS:
        f[name] = sum(bits[start + k] << k for k in range(width))
    if any(bits[67:]):
        raise ValueError(f"Match ID {s!r} is invalid: unused bits 67..71 are set")
    if f["cube_owner"] == 2:
        raise ValueError(f"Match ID {s!r} is invalid: cube owner field is 2 (only 0, 1 or 3 = centred)")
    if f["game_state"] > 4:
        raise ValueError(f"Match ID {s!r} is invalid: game state {f['game_state']} (only 0..4)")
    d1, d2 = f["die1"], f["die2"]
    if d1 > 6 or d2 > 6 or (d1 == 0) != (d2 == 0):
        raise ValueError(f"Match ID {s!r} is invalid: dice {d1}-{d2}")
    return MatchState(
        cube=1 << f["cube_log2"],
        cube_owner=None if f["cube_owner"] == 3 else f["cube_owner"],
        on_roll=f["on_roll"],
        crawford=bool(f["crawford"]),
        game_state=f["game_state"],
        turn=f["turn"],
        double_offered=bool(f["double_offered"]),
        resignation=f["resignation"],
        dice=(d1, d2),
        length=f["length"],
        score=(f["score0"], f["score1"]),
        jacoby=not f["no_jacoby"],
    )


def gnubg_id(me: Sequence[int], opp: Sequence[int], state: MatchState) -> str:
    """``PositionID:MatchID``, the form gnubg's ``set gnubgid`` accepts."""
    return f"{position_id(me, opp)}:{match_id(state)}"


# --------------------------------------------------------------------------
# XGID
# --------------------------------------------------------------------------

_XG_DECISIONS = ("D", "B", "R")


@dataclass(frozen=True)
class XgidState:
    """A parsed XGID.

    ``me``/``opp`` are the position from the point of view of the player on
    roll (``me``), each in its owner's numbering.  The other fields keep
    XGID's own conventions: ``turn`` 1 = the bottom player is on roll, -1 =
    the top player; ``cube_owner`` 1 = bottom, -1 = top, 0 = centred;
    ``score`` is (bottom, top).  ``cube`` is the cube *value* (the XGID holds
    its log2), ``max_cube`` the raw log2 field (``None`` when absent).
    ``dice`` is the roll or ``None``; ``decision`` is ``None``, ``"D"``,
    ``"B"`` or ``"R"``.
    """

    me: Board
    opp: Board
    cube: int = 1
    cube_owner: int = 0
    turn: int = 1
    dice: tuple[int, int] | None = None
    decision: str | None = None
    score: tuple[int, int] = (0, 0)
    rules: int = 0
    length: int = 0
    max_cube: int | None = 10

    # --- derived views -------------------------------------------------
    @property
    def crawford(self) -> bool:
        """Crawford game (match play, rules bit 0)."""
        return self.length > 0 and bool(self.rules & 1)

    @property
    def jacoby(self) -> bool:
        """Jacoby rule (money play, rules bit 0)."""
        return self.length == 0 and bool(self.rules & 1)

    @property
    def beavers(self) -> bool:
        """Beavers allowed (money play, rules bit 1)."""
        return self.length == 0 and bool(self.rules & 2)

    @property
    def bottom_on_roll(self) -> bool:
        return self.turn == 1

    def to_xgid(self) -> str:
        """Encode back to an ``XGID=...`` string."""
        return xgid(
            self.me,
            self.opp,
            cube=self.cube,
            cube_owner=self.cube_owner,
            turn=self.turn,
            dice=self.decision if self.decision else self.dice,
            score=self.score,
            rules=self.rules,
            length=self.length,
            max_cube=self.max_cube,
        )

    def position_id(self) -> str:
        return position_id(self.me, self.opp)

    def match_state(self) -> MatchState:
        """The gnubg match state: bottom player = gnubg player 1, top = player 0.

        A pending double (``D``) becomes ``double_offered`` with the opponent
        to act.  Beavers and raccoons (``B``/``R``) have no Match ID form and
        raise ``ValueError``.
        """
        if self.decision in ("B", "R"):
            raise ValueError(f"a Match ID cannot express a {'beaver' if self.decision == 'B' else 'raccoon'}")
        on_roll = 1 if self.turn == 1 else 0
        owner = {0: None, 1: 1, -1: 0}[self.cube_owner]
        doubled = self.decision == "D"
        return MatchState(
            cube=self.cube,
            cube_owner=owner,
            on_roll=on_roll,
            crawford=self.crawford,
            game_state=GAME_PLAYING,
            turn=1 - on_roll if doubled else on_roll,
            double_offered=doubled,
            resignation=0,
            dice=self.dice or (0, 0),
            length=self.length,
            score=(self.score[1], self.score[0]),
            jacoby=self.jacoby,
        )

    def match_id(self) -> str:
        return match_id(self.match_state())


def _parse_int(text: str, what: str, xg: str) -> int:
    if not re.fullmatch(r"-?\d+", text):
        raise ValueError(f"XGID {xg!r}: {what} must be an integer, got {text!r}")
    return int(text)


def xgid(
    me: Sequence[int],
    opp: Sequence[int],
    *,
    cube: int = 1,
    cube_owner: int = 0,
    turn: int = 1,
    dice: tuple[int, int] | str | None = None,
    score: tuple[int, int] = (0, 0),
    rules: int | None = None,
    crawford: bool = False,
    jacoby: bool = False,
    beavers: bool = False,
    length: int = 0,
    max_cube: int | None = 10,
) -> str:
    """Build an XGID.  ``me`` is the player on roll.

    ``turn`` says where that player sits: 1 = bottom, -1 = top.  ``cube`` is
    the cube value; ``cube_owner`` 1 = bottom, -1 = top, 0 = centred;
    ``score`` is (bottom, top).  ``dice`` is a roll ``(d1, d2)``, ``None``
    (``00``), or one of ``"D"``, ``"B"``, ``"R"`` (also ``"00"`` or ``"52"``).
    ``rules`` is the raw field; when omitted it is computed from
    ``crawford`` (match play) or ``jacoby``/``beavers`` (money play).
    ``max_cube`` is the log2 field written last (``None`` omits it).

    >>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
    >>> xgid(start, start, dice=(3, 1), length=5, score=(2, 1))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:2:1:0:5:10'
    >>> xgid(start, start, turn=-1, cube=2, cube_owner=1, dice="D", jacoby=True)
    'XGID=-b----E-C---eE---c-e----B-:1:1:-1:D:0:0:1:0:10'
    """
    me_t, opp_t = _check_board(me, opp)
    if turn not in (1, -1):
        raise ValueError(f"turn must be 1 (bottom player on roll) or -1 (top player), got {turn!r}")
    if cube_owner not in (0, 1, -1):
        raise ValueError(f"cube_owner must be 1 (bottom), -1 (top) or 0 (centred), got {cube_owner!r}")
    if isinstance(cube, bool) or not isinstance(cube, int) or cube < 1 or cube & (cube - 1):
        raise ValueError(f"cube must be a power of two, got {cube!r}")
    if isinstance(length, bool) or not isinstance(length, int) or length < 0:
        raise ValueError(f"length must be a non-negative int, got {length!r}")
    score_t = tuple(score)
    if len(score_t) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in score_t):
        raise ValueError(f"score must be two non-negative ints (bottom, top), got {score!r}")
    if rules is None:
        rules = int(crawford) if length else int(jacoby) | (2 if beavers else 0)
    elif isinstance(rules, bool) or not isinstance(rules, int) or rules < 0:
        raise ValueError(f"rules must be a non-negative int, got {rules!r}")

    if dice is None:
        dice_s = "00"
    elif isinstance(dice, str):
        dice_s = dice
        if not (dice_s in _XG_DECISIONS or dice_s == "00" or re.fullmatch(r"[1-6][1-6]", dice_s)):
            raise ValueError(f"dice must be a roll, '00', 'D', 'B' or 'R', got {dice!r}")
    else:
        d = tuple(dice)
        if len(d) != 2 or not all(isinstance(x, int) and 1 <= x <= 6 for x in d):
            raise ValueError(f"dice must be two values 1..6, got {dice!r}")
        dice_s = f"{d[0]}{d[1]}"

    bottom, top = (me_t, opp_t) if turn == 1 else (opp_t, me_t)
    chars = []
    for i in range(26):
        b = bottom[i] if i >= 1 else 0          # bottom player's point i (25 = bar)
        t = top[25 - i] if i <= 24 else 0       # top player's point 25 - i (0 -> bar)
        if b:
            chars.append(chr(ord("A") + b - 1))
        elif t:
            chars.append(chr(ord("a") + t - 1))
        else:
            chars.append("-")
    fields = [
        "".join(chars),
        str(cube.bit_length() - 1),
        str(cube_owner),
        str(turn),
        dice_s,
        str(score_t[0]),
        str(score_t[1]),
        str(rules),
        str(length),
    ]
    if max_cube is not None:
        fields.append(str(max_cube))
    return "XGID=" + ":".join(fields)


def parse_xgid(s: str, checkers: int = 15) -> XgidState:
    """Parse an XGID (with or without the ``XGID=`` prefix).

    >>> st = parse_xgid('XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10')
    >>> st.cube, st.cube_owner, st.turn, st.dice, st.score, st.length
    (2, -1, 1, (2, 1), (3, 6), 7)
    >>> st.position_id(), st.match_id()
    ('b9sBCIC5bYDQAA', 'QQnlAGAAGAAE')
    >>> st.to_xgid()
    'XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10'
    """
    if not isinstance(s, str):
        raise ValueError(f"XGID must be a string, not {type(s).__name__}")
    text = s.strip()
    if text[:5].upper() == "XGID=":
        text = text[5:]
    parts = text.split(":")
    if len(parts) not in (9, 10):
        raise ValueError(
            f"XGID {s!r} must have 10 colon-separated fields "
            "(position:cube:owner:turn:dice:score1:score2:rules:length:maxcube), "
            f"got {len(parts)}"
        )
    pos = parts[0]
    if len(pos) != 26:
        raise ValueError(f"XGID {s!r}: the position must be 26 characters, got {len(pos)}")
    bottom = [0] * 26
    top = [0] * 26
    for i, ch in enumerate(pos):
        if ch == "-":
            continue
        if "A" <= ch <= "P":
            if i == 0:
                raise ValueError(f"XGID {s!r}: char 0 is the top player's bar but holds bottom checkers {ch!r}")
            bottom[i] += ord(ch) - ord("A") + 1
        elif "a" <= ch <= "p":
            if i == 25:
                raise ValueError(f"XGID {s!r}: char 25 is the bottom player's bar but holds top checkers {ch!r}")
            top[25 - i] += ord(ch) - ord("a") + 1
        else:
            raise ValueError(f"XGID {s!r}: position char {i} is {ch!r}; expected '-', 'A'-'P' or 'a'-'p'")
    for side, who in ((bottom, "bottom"), (top, "top")):
        n = sum(side)
        if n > checkers:
            raise ValueError(f"XGID {s!r}: the {who} player has {n} checkers on the board (more than {checkers})")
        side[0] = checkers - n

    cube_log2 = _parse_int(parts[1], "the cube (log2)", s)
    if not 0 <= cube_log2 <= 15:
        raise ValueError(f"XGID {s!r}: cube field {cube_log2} is out of range 0..15")
    owner = _parse_int(parts[2], "the cube owner", s)
    if owner not in (-1, 0, 1):
        raise ValueError(f"XGID {s!r}: cube owner must be 1, 0 or -1, got {owner}")
    turn = _parse_int(parts[3], "the turn", s)
    if turn not in (1, -1):
        raise ValueError(f"XGID {s!r}: turn must be 1 or -1, got {turn}")
    dice_s = parts[4]
    dice: tuple[int, int] | None = None
    decision: str | None = None
    if dice_s in _XG_DECISIONS:
        decision = dice_s
    elif dice_s == "00":
        pass
    elif re.fullmatch(r"[1-6][1-6]", dice_s):
        dice = (int(dice_s[0]), int(dice_s[1]))
    else:
        raise ValueError(f"XGID {s!r}: dice must be '00', two digits 1-6, 'D', 'B' or 'R', got {dice_s!r}")
    score1 = _parse_int(parts[5], "score 1", s)
    score2 = _parse_int(parts[6], "score 2", s)
    rules = _parse_int(parts[7], "the rules field", s)
    length = _parse_int(parts[8], "the match length", s)
    max_cube = _parse_int(parts[9], "the maximum cube", s) if len(parts) == 10 else None
    for v, what in ((score1, "score 1"), (score2, "score 2"), (rules, "rules"), (length, "length")):
        if v < 0:
            raise ValueError(f"XGID {s!r}: {what} is negative")
    if max_cube is not None and max_cube < 0:
        raise ValueError(f"XGID {s!r}: maximum cube is negative")

    bottom_t, top_t = tuple(bottom), tuple(top)
    try:
        me, opp = _check_board(*((bottom_t, top_t) if turn == 1 else (top_t, bottom_t)))
    except ValueError as e:
        raise ValueError(f"XGID {s!r}: {e}") from None
    return XgidState(
        me=me,
        opp=opp,
        cube=1 << cube_log2,
        cube_owner=owner,
        turn=turn,
        dice=dice,
        decision=decision,
        score=(score1, score2),
        rules=rules,
        length=length,
        max_cube=max_cube,
    )


# --------------------------------------------------------------------------
# ASCII board
# --------------------------------------------------------------------------

def draw_board(
    me: Sequence[int],
    opp: Sequence[int],
    *,
    names: tuple[str, str] = ("X", "O"),
    on_roll: int = 0,
    dice: tuple[int, int] | None = None,
    cube: int = 1,
    cube_owner: int | None = None,
    score: tuple[int, int] | None = None,
    length: int | None = None,
) -> str:
    """An ASCII board in the style of gnubg's text board.

    Player 0 (``names[0]``) plays the ``X`` checkers, player 1 the ``O``
    checkers; ``on_roll`` says which of them ``me`` belongs to.  The player
    on roll sits at the bottom, moving right to left along the lower row to
    the home board at the bottom right; the points are numbered from that
    player's side (1..12 below, 13..24 above).  Stacks taller than five show
    their count in the fifth row.  ``cube_owner`` and ``score`` use player
    numbers (0/1); the ``Position ID`` and ``Match ID`` lines follow.

    >>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
    >>> print(draw_board(start, start, dice=(3, 1), length=5, score=(0, 0)))
     GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                     Match ID   : MIGlAAAAAAAE
     +13-14-15-16-17-18------19-20-21-22-23-24-+     O: O
     | X           O    |   | O              X |     0 points
     | X           O    |   | O              X |
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
     |                  |BAR|                  |     5 point match
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X              O |     Rolled 31
     | O           X    |   | X              O |     0 points
     +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: X
     X on roll; pips X 167, O 167; borne off X 0, O 0
    """
    me_t, opp_t = _check_board(me, opp)
    if on_roll not in (0, 1):
        raise ValueError(f"on_roll must be 0 or 1, got {on_roll!r}")
    sym = ("X", "O")
    my_sym, opp_sym = sym[on_roll], sym[1 - on_roll]
    bottom_name, top_name = names[on_roll], names[1 - on_roll]

    # count and symbol on my point p, seen from me
    def cell(p: int) -> tuple[int, str]:
        if me_t[p]:
            return me_t[p], my_sym
        if opp_t[25 - p]:
            return opp_t[25 - p], opp_sym
        return 0, " "

    def stack_char(n: int, s: str, row: int) -> str:
        # row 0 is nearest the edge; five rows; the fifth shows overflow counts
        if n > 5 and row == 4:
            return str(n) if n < 10 else chr(ord("A") + n - 10)
        return s if n > row else " "

    def row_text(points: Sequence[int], row: int) -> str:
        return " ".join(f"{stack_char(*cell(p), row)} " for p in points)[:-1]

    top_left, top_right = range(13, 19), range(19, 25)
    bot_left, bot_right = range(12, 6, -1), range(6, 0, -1)

    state = MatchState(
        cube=cube,
        cube_owner=cube_owner,
        on_roll=on_roll,
        turn=on_roll,
        dice=tuple(dice) if dice else (0, 0),
        length=length or 0,
        score=tuple(score) if score else (0, 0),
    )
    side_info_top = [f"{opp_sym}: {top_name}"]
    side_info_bot = [f"{my_sym}: {bottom_name}"]
    if cube_owner is not None:
        (side_info_bot if cube_owner == on_roll else side_info_top)[0] += f" (Cube: {cube})"
    top_score = bot_score = ""
    if score is not None:
        top_score = f"{score[1 - on_roll]} point" + ("" if score[1 - on_roll] == 1 else "s")
        bot_score = f"{score[on_roll]} point" + ("" if score[on_roll] == 1 else "s")

    lines = [
        f" GNU Backgammon  Position ID: {position_id(me_t, opp_t)}",
        f"                 Match ID   : {match_id(state)}",
        " +13-14-15-16-17-18------19-20-21-22-23-24-+     " + side_info_top[0],
    ]
    right = {0: top_score}
    for row in range(5):
        bar = " " + (opp_sym if opp_t[25] > row else " ") + " "
        if row == 4 and opp_t[25] > 5:
            bar = f"{opp_t[25]:^3}"
        line = f" | {row_text(top_left, row)} |{bar}| {row_text(top_right, row)} |"
        extra = right.get(row, "")
        lines.append(line + ("     " + extra if extra else ""))
    middle = []
    if length:
        middle.append(f"{length} point match")
    elif length == 0:
        middle.append("money session")
    if cube_owner is None and cube > 1:
        middle.append(f"(Cube: {cube}, centred)")
    lines.append(" |                  |BAR|                  |     " + " ".join(middle))
    rolled = f"Rolled {dice[0]}{dice[1]}" if dice else ""
    for row in range(4, -1, -1):
        bar = " " + (my_sym if me_t[25] > row else " ") + " "
        if row == 4 and me_t[25] > 5:
            bar = f"{me_t[25]:^3}"
        line = f" | {row_text(bot_left, row)} |{bar}| {row_text(bot_right, row)} |"
        extra = {1: rolled, 0: bot_score}.get(row, "")
        lines.append(line + ("     " + extra if extra else ""))
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+     " + side_info_bot[0])

    def pips(side: Board) -> int:
        return sum(p * side[p] for p in range(1, 26))

    lines.append(
        f" {my_sym} on roll; pips {my_sym} {pips(me_t)}, {opp_sym} {pips(opp_t)}; "
        f"borne off {my_sym} {me_t[0]}, {opp_sym} {opp_t[0]}"
    )
    return "\n".join(line.rstrip() for line in lines)
