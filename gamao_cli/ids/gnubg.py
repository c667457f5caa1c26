"""GNU Backgammon's Position ID and Match ID.

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

Start position:

>>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
>>> position_id(start, start)
'4HPwATDgc/ABMA'
>>> decode_position_id('4HPwATDgc/ABMA') == (start, start)
True
>>> match_id(MatchState(length=7, dice=(3, 1), on_roll=1, turn=1))
'cInlAAAAAAAE'
"""
from __future__ import annotations

import base64
import binascii
import re
from operator import mul as _mul
from dataclasses import dataclass
from typing import Sequence

from .sides import SideIds, side_ids

__all__ = [
    "Board",
    "MatchState",
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
    # (the IDs of a position check it through checked_sides, which keeps
    # the last position's sides; this is the check itself)
    me_t = _check_side(me, "me")
    opp_t = _check_side(opp, "opp")
    if not any(map(_mul, me_t[1:25], opp_t[24:0:-1])):  # no point held by both
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
    # (what base64.b64encode does, without its wrapper)
    return binascii.b2a_base64(data, newline=False).decode("ascii").rstrip("=")


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
    m, o = checked_sides(me, opp)
    # bit i of the key is the i-th of: for each point 1..25 of the player not
    # on roll, then of the player on roll, a 1 per checker and a 0
    return (o.run | m.run << o.run_bits).to_bytes(10, "little")


def _position_key_reference(me: Sequence[int], opp: Sequence[int]) -> bytes:
    """:func:`position_key` worked out from the board itself, without
    :mod:`~gamao_cli.ids.sides` (what tests compare it with)."""
    me_t, opp_t = _check_board(me, opp)
    # written here last bit first, as int(..., 2) reads it (a piece per
    # point, from a table: the counts, checked, are 0..15: as the characters
    # of a string, str.translate looks each piece up at C speed)
    bits = bytes(me_t[25:0:-1] + opp_t[25:0:-1]).decode("latin-1").translate(_ZERO_ONES)
    return int(bits, 2).to_bytes(10, "little")


_ZERO_ONES = tuple("0" + "1" * n for n in range(MAX_CHECKERS + 1))


# The sides of the last position asked for and what they give, as one
# tuple (replaced whole, so that a thread never reads one position's sides
# with another's IDs): a position's Position ID and its XGID are asked for
# one after the other; tuples cannot change, and holding them keeps their
# identity from being reused.
_LAST_SIDES: list = [(object(), object(), None)]


def checked_sides(me: Sequence[int], opp: Sequence[int]) -> tuple[SideIds, SideIds]:
    """What each side of a position gives its IDs (:mod:`~gamao_cli.ids.sides`),
    the board checked as :func:`_check_board` checks it: the same
    ``ValueError`` for a board that is no position."""
    last = _LAST_SIDES[0]
    if me is last[0] and opp is last[1]:
        return last[2]
    found = side_ids(me, "me", _check_side), side_ids(opp, "opp", _check_side)
    if found[0].held & found[1].mirrored:   # a point held by both
        _check_board(me, opp)               # says which
        raise AssertionError("the sides hold no point in common")  # pragma: no cover
    if me.__class__ is tuple and opp.__class__ is tuple:
        _LAST_SIDES[0] = (me, opp, found)
    return found


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

# The dice a MatchState holds: a roll, or (0, 0) before it.
_DICE = frozenset([(0, 0)] + [(a, b) for a in range(1, 7) for b in range(1, 7)])


def _usual(c, owner, on_roll, crawford, game_state, turn, offered, resignation, d, length,
           sc, jacoby) -> bool:
    """Whether these :class:`MatchState` fields are all of the usual types
    and within range (the checks of ``MatchState._check`` pass)."""
    return (type(c) is int and 0 < c <= 1 << 15 and not c & (c - 1)
            and owner in (None, 0, 1) and on_roll in (0, 1) and turn in (0, 1)
            and type(game_state) is int and 0 <= game_state <= 4
            and type(resignation) is int and 0 <= resignation <= 3
            and type(d) is tuple and d in _DICE and type(d[0]) is int and type(d[1]) is int
            and type(length) is int and 0 <= length < 1 << 15
            and type(sc) is tuple and len(sc) == 2 and type(sc[0]) is int
            and type(sc[1]) is int and 0 <= sc[0] < 1 << 15 and 0 <= sc[1] < 1 << 15
            and type(crawford) is bool and type(offered) is bool and type(jacoby) is bool)


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
        if _usual(self.cube, self.cube_owner, self.on_roll, self.crawford, self.game_state,
                  self.turn, self.double_offered, self.resignation, self.dice, self.length,
                  self.score, self.jacoby):
            return   # the usual case, all of it as the checks of _check want it
        self._check()

    @classmethod
    def of(cls, cube: int, cube_owner: int | None, on_roll: int, crawford: bool,
           game_state: int, turn: int, double_offered: bool, resignation: int,
           dice: tuple[int, int], length: int, score: tuple[int, int],
           jacoby: bool) -> "MatchState":
        """``MatchState(...)`` of every field, in their order: the same
        state, or the same ``ValueError``; for the usual values made without
        the per-field ``object.__setattr__`` of a frozen dataclass's
        ``__init__`` (what replaying thousands of states costs most)."""
        if cls is MatchState and _usual(cube, cube_owner, on_roll, crawford, game_state, turn,
                                        double_offered, resignation, dice, length, score,
                                        jacoby):
            state = object.__new__(cls)
            state.__dict__.update(
                cube=cube, cube_owner=cube_owner, on_roll=on_roll, crawford=crawford,
                game_state=game_state, turn=turn, double_offered=double_offered,
                resignation=resignation, dice=dice, length=length, score=score, jacoby=jacoby)
            return state
        return cls(cube, cube_owner, on_roll, crawford, game_state, turn, double_offered,
                   resignation, dice, length, score, jacoby)

    def _check(self) -> None:
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
    if type(state) is MatchState:
        # the fields of _MATCH_FIELDS, in one expression
        d1, d2 = state.dice
        if d1 < d2:
            d1, d2 = d2, d1   # gnubg always writes the higher die first
        owner = state.cube_owner
        sc0, sc1 = state.score
        key = ((state.cube.bit_length() - 1) & 15 | (3 if owner is None else owner & 3) << 4
               | (state.on_roll & 1) << 6 | int(state.crawford) << 7
               | (state.game_state & 7) << 8 | (state.turn & 1) << 11
               | int(state.double_offered) << 12 | (state.resignation & 3) << 13
               | (d1 & 7) << 15 | (d2 & 7) << 18 | (state.length & 0x7FFF) << 21
               | (sc0 & 0x7FFF) << 36 | (sc1 & 0x7FFF) << 51 | int(not state.jacoby) << 66)
        return _b64_encode(key.to_bytes(9, "little"))
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
