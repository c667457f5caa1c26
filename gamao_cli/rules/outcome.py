"""How a game ends, and what it is worth."""
from __future__ import annotations

from enum import StrEnum

from .position import Position
from .variants import start_position  # noqa: F401  (the examples use it)


class Outcome(StrEnum):
    """How a game ended. The values are the words of gamao's JSON and
    summaries (a member is a ``str``, so it is written as its value); a
    report's game without a result says ``None`` (JSON ``null``), which is
    :attr:`UNFINISHED`.

    >>> Outcome.of_multiplier(2), Outcome.GAMMON.multiplier, Outcome.RESIGN.multiplier
    (<Outcome.GAMMON: 'gammon'>, 2, None)
    >>> import json; json.dumps([Outcome.BACKGAMMON, Outcome.TIME])
    '["backgammon", "time"]'
    """

    SINGLE = "single"          # the last checker borne off, the loser has borne off some
    GAMMON = "gammon"          # ... the loser has borne off none
    BACKGAMMON = "backgammon"  # ... and has a checker on the bar or in the winner's home
    DROP = "drop"              # a double dropped
    RESIGN = "resign"          # a resignation (a Wins line before the game is over)
    TIME = "time"              # lost on time (a roll never played)
    UNFINISHED = "unfinished"  # no result: the record stops before the game ends

    @property
    def multiplier(self) -> int | None:
        """Points per cube value: 1, 2 or 3 for a game played out, 1 for a
        drop (the cube before the double); ``None`` when the record's points
        decide (a resignation, a loss on time) or there are none."""
        return _MULTIPLIER.get(self)

    @classmethod
    def of_multiplier(cls, n: int) -> Outcome:
        """The outcome of a game played out that is worth ``n`` (1-3) times the cube."""
        return _BY_MULTIPLIER[n]


_MULTIPLIER = {Outcome.SINGLE: 1, Outcome.GAMMON: 2, Outcome.BACKGAMMON: 3, Outcome.DROP: 1}
_BY_MULTIPLIER = {1: Outcome.SINGLE, 2: Outcome.GAMMON, 3: Outcome.BACKGAMMON}


def game_over(pos_mover_after: Position) -> bool:
    """True when the mover (``me``) has borne off all their checkers.

    >>> game_over(Position.from_points({0: 15}, {6: 15})), game_over(start_position())
    (True, False)
    """
    return not any(pos_mover_after.me[1:])


def result_multiplier(winner_view: Position) -> int:
    """Points per cube value for the winner (``me``): 1 single, 2 gammon (the
    loser has borne off none), 3 backgammon (none off and a checker on the
    bar or in the winner's home board). Works for any position, so also for
    resignations.

    >>> result_multiplier(Position.from_points({0: 15}, {13: 14, 25: 1}))
    3
    """
    opp = winner_view.opp
    if opp[0]:
        return 1
    if any(opp[19:26]):
        return 3
    return 2


def outcome_of(winner_view: Position) -> Outcome:
    """The outcome of a game the winner (``me``) ended by bearing off.

    >>> outcome_of(Position.from_points({0: 15}, {13: 14, 0: 1}))
    <Outcome.SINGLE: 'single'>
    """
    return _BY_MULTIPLIER[result_multiplier(winner_view)]
