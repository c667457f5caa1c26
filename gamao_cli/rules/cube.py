"""The doubling cube and the turn: who is on roll, who owns the cube and at
what value, what double (beaver, raccoon) waits for an answer, whether this
is the Crawford game, and so who may double (RULES.md, "The doubling cube").

:class:`CubeState` is the state machine of one game. Each action of a record
is one call; what the rules do not allow comes back as :class:`Refusal`
values (the replay turns them into diagnostics), and the state then moves on
as the record has it (RULES.md, "Irregularities": a record is replayed as
written).

>>> cube = CubeState()
>>> cube.roll(0), cube.turn
([Refusal(why=<Why.OPENING: 'opening'>, player=None, offer=None)], 0)
>>> cube.end_turn(); cube.double(1, 2, offer="Doubles => 2"), cube.pending.offerer
([], 1)
>>> cube.take(0), cube.value, cube.owner
([], 2, 0)
>>> cube.double(1, None, offer="Doubles => 4")
[Refusal(why=<Why.NOT_OWNER: 'not owner'>, player=0, offer=None)]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, Sequence


class Offer(StrEnum):
    """What a player offers: a double, a beaver (take and redouble at once)
    or a raccoon (the same answering a beaver). The values are the record
    model's ``Double.kind``."""

    DOUBLE = "double"
    BEAVER = "beaver"
    RACCOON = "raccoon"


#: The offer each answering offer answers.
ANSWERS = {Offer.BEAVER: Offer.DOUBLE, Offer.RACCOON: Offer.BEAVER}


class Why(Enum):
    """What a :class:`Refusal` says (and two events of a roll the replay
    must know of: the opening roll, a roll out of turn)."""

    OPENING = "opening"                      # the game's first roll (an event, not an error)
    OUT_OF_TURN = "out of turn"              # a roll while it is the other player's turn
    UNANSWERED = "unanswered"                # a double (beaver...) never answered
    NO_CUBE = "no cube"                      # the rules play without a cube
    CRAWFORD = "crawford"                    # no doubling in the Crawford game
    BEFORE_OPENING = "before opening"        # a double before the opening roll
    PENDING = "pending"                      # a double while one waits for an answer
    NOT_YOUR_TURN = "not your turn"          # a double on the other player's turn
    NOT_OWNER = "not owner"                  # the other player owns the cube
    WRONG_VALUE = "wrong value"              # the value written is not twice the cube
    NOTHING_TO_ANSWER = "nothing to answer"  # a take, drop or beaver with no offer to them
    BEAVER_IN_MATCH = "beaver in match"      # beavers are for money play
    BEAVER_BY_RULES = "beaver by rules"      # the record's rules allow no beavers


@dataclass(frozen=True)
class Refusal:
    """What the rules do not allow, with whom it concerns: for
    :attr:`Why.OUT_OF_TURN` and :attr:`Why.NOT_YOUR_TURN` the player whose
    turn it is, for :attr:`Why.NOT_OWNER` the owner, for
    :attr:`Why.UNANSWERED` the offerer (and ``offer``, what they offered);
    for :attr:`Why.WRONG_VALUE` ``offer`` is the cube value before the
    offer; for :attr:`Why.NOTHING_TO_ANSWER` by an answering offer it is
    the :class:`Offer` it would answer."""

    why: Why
    player: int | None = None
    offer: Any = None


@dataclass(frozen=True)
class Pending:
    """An offer waiting for an answer: who made it, what it is, and the
    record's action (opaque here) that made it."""

    offerer: int
    kind: Offer
    offer: Any = None


@dataclass
class CubeState:
    """The cube and the turn during one game.

    ``value`` and ``owner`` (``None``: centred) are the cube's; ``turned``
    says whether it was ever turned (the Jacoby rule counts gammons only
    then); ``turn`` is the player on roll (``None`` before the opening
    roll); ``crawford``: this is the Crawford game; ``enabled``: the rules
    play with a cube; ``money``: money play (beavers are for money play);
    ``beavers``: ``False`` when the record's rules say no beavers.
    """

    crawford: bool = False
    enabled: bool = True
    money: bool = False
    beavers: bool | None = None
    value: int = 1
    owner: int | None = None
    turned: bool = False
    turn: int | None = None
    pending: Pending | None = field(default=None)

    # -- queries -------------------------------------------------------------
    def may_double(self, player: int) -> Refusal | None:
        """Why ``player`` may not double now, or ``None`` when they may."""
        if not self.enabled:
            return Refusal(Why.NO_CUBE)
        if self.crawford:
            return Refusal(Why.CRAWFORD)
        if self.turn is None:
            return Refusal(Why.BEFORE_OPENING)
        if self.pending is not None:
            return Refusal(Why.PENDING)
        if player != self.turn:
            return Refusal(Why.NOT_YOUR_TURN, self.turn)
        if self.owner not in (None, player):
            return Refusal(Why.NOT_OWNER, self.owner)
        return None

    def offered_to(self, player: int) -> Pending | None:
        """The offer ``player`` may answer (one the other player made)."""
        p = self.pending
        return p if p is not None and p.offerer != player else None

    # -- transitions ---------------------------------------------------------
    def roll(self, player: int) -> list[Refusal]:
        """``player`` rolls. A beaver (raccoon) waiting while its offerer
        rolls on was taken (GNU Backgammon writes no take after one); any
        other offer waiting was never answered. Then the turn: the opening
        roll makes ``player`` the one on roll, a roll out of turn too."""
        out: list[Refusal] = []
        p = self.pending
        if p is not None:
            if p.kind != Offer.DOUBLE and player != p.offerer:
                self._accept(p, p.offerer)
            else:
                out.append(Refusal(Why.UNANSWERED, p.offerer, p.offer))
            self.pending = None
        if self.turn is None:
            out.append(Refusal(Why.OPENING))
            self.turn = player
        elif player != self.turn:
            out.append(Refusal(Why.OUT_OF_TURN, self.turn))
            self.turn = player
        return out

    def end_turn(self) -> None:
        """The player on roll has played (or danced): the other is on roll."""
        if self.turn is not None:
            self.turn = 1 - self.turn

    def double(self, player: int, value: int | None, offer: Any = None) -> list[Refusal]:
        """``player`` doubles (to ``value``, when the record says). The
        double stands even when refused: the other player must answer it,
        and ``player`` is then the one on roll."""
        out: list[Refusal] = []
        refusal = self.may_double(player)
        if refusal is not None:
            out.append(refusal)
        if value is not None and value != 2 * self.value:
            out.append(Refusal(Why.WRONG_VALUE, offer=self.value))
        self.pending = Pending(player, Offer.DOUBLE, offer)
        self.turn = player
        return out

    def redouble(self, player: int, kind: Offer, value: int | None,
                 offer: Any = None) -> list[Refusal]:
        """``player`` beavers (``kind`` BEAVER: takes a double and redoubles
        at once) or raccoons (RACCOON, the same to a beaver). With nothing
        of the kind to answer nothing happens."""
        want = ANSWERS[kind]
        p = self.offered_to(player)
        if p is None or p.kind != want:
            return [Refusal(Why.NOTHING_TO_ANSWER, offer=want)]
        out: list[Refusal] = []
        if not self.money:
            out.append(Refusal(Why.BEAVER_IN_MATCH))
        elif self.beavers is False:
            out.append(Refusal(Why.BEAVER_BY_RULES))
        self.value *= 2
        self.turned = True
        if value is not None and value != 2 * self.value:
            out.append(Refusal(Why.WRONG_VALUE, offer=self.value))
        self.pending = Pending(player, kind, offer)
        return out

    def take(self, player: int) -> list[Refusal]:
        """``player`` takes the offer made to them: the cube is turned and
        the taker owns it (after a beaver, its maker owns it)."""
        p = self.offered_to(player)
        if p is None:
            return [Refusal(Why.NOTHING_TO_ANSWER)]
        self._accept(p, player if p.kind == Offer.DOUBLE else p.offerer)
        self.pending = None
        return []

    def drop(self, player: int) -> tuple[int | None, list[Refusal]]:
        """``player`` drops the offer made to them: ``(winner, refusals)``,
        the winner being the offerer (``None`` when nothing was offered)."""
        p = self.offered_to(player)
        if p is None:
            return None, [Refusal(Why.NOTHING_TO_ANSWER)]
        self.pending = None
        return p.offerer, []

    def set_up(self, turn: int, value: int | None = None, owner: int | None = None,
               sets_owner: bool = False) -> None:
        """The record sets the position: ``turn`` is on roll, the cube is
        at ``value`` (None: as it was) and, when ``sets_owner``, owned by
        ``owner`` (None: centred). A cube set above 1 counts as turned (the
        Jacoby rule counts gammons then)."""
        self.turn = turn
        if value is not None:
            self.value = value
            self.turned = self.turned or value > 1
        if sets_owner:
            self.owner = owner

    def _accept(self, p: Pending, owner: int) -> None:
        self.value *= 2
        self.turned = True
        self.owner = owner


def crawford_game(length: int, score: Sequence[int], rule: bool, played: bool,
                  first: bool) -> bool:
    """Whether a game is the Crawford game: under the Crawford ``rule``, in a
    match (``length`` > 0) whose Crawford game was not ``played`` yet, the
    game after the one in which a player *reached* match point (never the
    ``first`` game: a 1-point match has none).

    >>> crawford_game(5, (4, 2), True, False, False), crawford_game(5, (4, 2), True, True, False)
    (True, False)
    """
    return bool(rule and length and not played and not first and length - 1 in score)
