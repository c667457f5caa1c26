"""eXtreme Gammon's XGID.

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

>>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
>>> xgid(start, start, length=7)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from .gnubg import (GAME_PLAYING, Board, MatchState, _check_board, checked_sides, match_id,
                    position_id)
from .sides import SideIds

__all__ = ["XgidState", "xgid", "parse_xgid", "xgid_of_state", "xgid_tail"]

_XG_DECISIONS = ("D", "B", "R")

# The character of a point holding b checkers of the bottom player or t of
# the top one, at index b - t: "-" at 0, "A".."P" at 1..16, "o".."a" at
# 17..31 (that is, t = 15..1 at -15..-1).
_POINT_CHARS = ("-",) + tuple(chr(ord("A") + b - 1) for b in range(1, 17)) + \
    tuple(chr(ord("a") + t - 1) for t in range(15, 0, -1))
#: _POINT_CHARS by byte (see _position_chars): b (0..15) for b - 0, 16 * t
#: (t = 1..15) for 0 - t
_CHAR_OF_BYTE = bytes(ord(_POINT_CHARS[b]) if b < 16 else
                      ord(_POINT_CHARS[-(b >> 4)]) if b % 16 == 0 else ord("?")
                      for b in range(256))


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
    sides = checked_sides(me, opp)   # the board first, as ever
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

    fields = [
        _position_field(sides, turn),
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


def _position_field(sides: tuple[SideIds, SideIds], turn: int) -> str:
    """The position field of an XGID from what each side of the board gives
    it (``sides``: :func:`~gamao_cli.ids.gnubg.checked_sides`): the bottom
    player's part plus the top player's, whose bytes name the characters as
    in :func:`_position_chars`."""
    m, o = sides
    both = m.bottom + o.top if turn == 1 else o.bottom + m.top
    return both.to_bytes(26, "big").translate(_CHAR_OF_BYTE).decode("ascii")


def _position_chars(me: Board, opp: Board, turn: int) -> str:
    """The position field of an XGID (boards already checked: no point is
    held by both players), worked out from the boards themselves (what
    tests compare :func:`_position_field` with)."""
    bottom, top = (me, opp) if turn == 1 else (opp, me)
    # char i: the bottom player's point i (25 = bar; none at 0), else the
    # top player's point 25 - i (0 -> bar; none at 25). At most one of the
    # two is not 0, so their difference says which and how many: the
    # character is _POINT_CHARS[b - t] (a negative index counts from the
    # end). Made at C speed: byte i of one number is b, of another 16 * t
    # (counts are 0..15); their sum's bytes, through a table, are the
    # characters
    both = int.from_bytes(bytes((0,) + bottom[1:26]), "big") + \
        (int.from_bytes(bytes(top[25:0:-1] + (0,)), "big") << 4)
    return both.to_bytes(26, "big").translate(_CHAR_OF_BYTE).decode("ascii")


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


def xgid_of_state(me: Sequence[int], opp: Sequence[int], state: MatchState) -> str:
    """The XGID of a position and its match state in gamao's numbering
    (players 0 and 1 as GNU Backgammon numbers them): player 1 sits at the
    bottom, as in GNU Backgammon's and BGBlitz's XGIDs; a pending double is
    ``D``.

    >>> start = (0,) * 6 + (5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
    >>> xgid_of_state(start, start, MatchState(length=5, dice=(3, 1), on_roll=1, turn=1))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10'
    """
    # what xgid() writes for these arguments, without its checks of them
    # (a MatchState holds only values it accepts): only the board is checked
    turn = 1 if state.on_roll == 1 else -1
    return f"XGID={_position_field(checked_sides(me, opp), turn)}{xgid_tail(state)}"


def xgid_tail(state: MatchState) -> str:
    """What an XGID holds after its position field (from its first ``:``)
    for a match state in gamao's numbering, as :func:`xgid_of_state` writes
    it.

    >>> xgid_tail(MatchState(length=5, dice=(3, 1), on_roll=1, turn=1))
    ':0:0:1:31:0:0:0:5:10'
    """
    turn = 1 if state.on_roll == 1 else -1
    dice = "D" if state.double_offered else "00" if state.dice == (0, 0) else \
        f"{state.dice[0]}{state.dice[1]}"
    length = state.length
    rules = int(state.crawford) if length else int(state.jacoby)
    return (f":{state.cube.bit_length() - 1}:{_OWNER[state.cube_owner]}:{turn}:{dice}:"
            f"{state.score[1]}:{state.score[0]}:{rules}:{length}:10")


_OWNER = {None: 0, 1: 1, 0: -1}
