"""How a game ends, and what it is worth."""
from __future__ import annotations

from .position import Position
from .variants import start_position  # noqa: F401  (the examples use it)



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
