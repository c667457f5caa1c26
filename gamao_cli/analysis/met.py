"""Match equity tables, and the conversions between equity and match winning
chances that GNU Backgammon's statistics use (its ``matchequity.c`` and
``eval.c``, read to learn their definitions).

A table is data (:class:`MatchEquityTable`); the default is GNU Backgammon
1.07's, Kazaross-XG2 (:mod:`.met_kazaross_xg2`). A :class:`CubeState` is what
GNU Backgammon calls its cube information: the match length and score, the
cube, its owner, the player deciding, the Crawford game.

>>> met = KAZAROSS_XG2
>>> met.at_score(CubeState(length=7, score=(0, 0), cube=1, owner=None, mover=0), 0)
0.5
>>> s = CubeState(length=5, score=(3, 1), cube=1, owner=None, mover=0)
>>> round(met.equity_to_mwc(1.0, s), 5) == round(met.win_chance(s, 0, 0), 5)
True
>>> round(met.mwc_to_equity(met.equity_to_mwc(0.25, s), s), 6)
0.25
"""
from __future__ import annotations

from dataclasses import dataclass

from . import met_kazaross_xg2


@dataclass(frozen=True, slots=True)
class CubeState:
    """The match and cube as one decision sees them. ``length`` 0 for
    money; ``score`` (player 0, player 1) before the game; ``owner`` the
    player owning the cube (None: centred); ``mover`` the player deciding
    (on roll, or doubling); ``crawford``: this is the Crawford game."""

    length: int
    score: tuple[int, int]
    cube: int
    owner: int | None
    mover: int
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False

    def cube_available(self) -> bool:
        """Whether the mover may double (GNU Backgammon's ``GetDPEq``): he
        owns the cube or it is centred; in a match, not in the Crawford
        game, the cube is not dead for him, and he is not the leader
        after the Crawford game."""
        if self.owner is not None and self.owner != self.mover:
            return False
        if not self.length:
            return True
        mine = self.score[self.mover]
        post_crawford = not self.crawford and self.length - 1 in self.score
        return (not self.crawford and mine + self.cube < self.length
                and not (post_crawford and mine == self.length - 1))


@dataclass(frozen=True)
class MatchEquityTable:
    """``pre[i][j]``: the match winning chance of a player needing ``i + 1``
    points against one needing ``j + 1``; ``post[i]``: the trailer's after
    the Crawford game, needing ``i + 1``."""

    name: str
    pre: tuple[tuple[float, ...], ...]
    post: tuple[float, ...]

    def _entry(self, away0: int, away1: int, post_crawford: bool, player: int) -> float:
        """The chance of ``player`` when player 0 needs ``away0 + 1`` more
        points and player 1 ``away1 + 1`` (-1: that player has won)."""
        if away0 < 0:
            return 0.0 if player else 1.0
        if away1 < 0:
            return 1.0 if player else 0.0
        if post_crawford:
            if away0 == 0:   # player 0 leads
                trailer = self._post(away1)
                return trailer if player else 1.0 - trailer
            trailer = self._post(away0)
            return 1.0 - trailer if player else trailer
        me = self._pre(away0, away1)
        return 1.0 - me if player else me

    def _pre(self, i: int, j: int) -> float:
        if i >= len(self.pre) or j >= len(self.pre):
            raise ValueError(f"{self.name} holds scores up to {len(self.pre)} away")
        return self.pre[i][j]

    def _post(self, i: int) -> float:
        if i >= len(self.post) - 1:
            raise ValueError(f"{self.name} holds post-Crawford scores up to "
                             f"{len(self.post) - 1} away")
        return self.post[i]

    def after_game(self, s: CubeState, player: int, points: int, winner: int) -> float:
        """The match winning chance of ``player`` when ``winner`` wins
        ``points`` in this game (GNU Backgammon's ``getME``)."""
        n = s.length
        away0 = n - (s.score[0] + (points if winner == 0 else 0)) - 1
        away1 = n - (s.score[1] + (points if winner == 1 else 0)) - 1
        post = s.crawford or n - s.score[0] == 1 or n - s.score[1] == 1
        return self._entry(away0, away1, post, player)

    def at_score(self, s: CubeState, player: int) -> float:
        """The match winning chance of ``player`` at the game's start
        (``getMEAtScore``)."""
        n = s.length
        post = not s.crawford and (n - s.score[0] == 1 or n - s.score[1] == 1)
        return self._entry(n - s.score[0] - 1, n - s.score[1] - 1, post, player)

    def win_chance(self, s: CubeState, player: int, winner: int) -> float:
        """The match winning chance of ``player`` when ``winner`` wins the
        cube's value."""
        return self.after_game(s, player, s.cube, winner)

    def equity_to_mwc(self, equity: float, s: CubeState) -> float:
        """An equity of the mover (normalised to the cube) as his match
        winning chance (``eq2mwc``)."""
        win = self.win_chance(s, s.mover, s.mover)
        lose = self.win_chance(s, s.mover, 1 - s.mover)
        return 0.5 * (equity * (win - lose) + (win + lose))

    def mwc_to_equity(self, mwc: float, s: CubeState) -> float:
        """The mover's match winning chance as his normalised equity (``mwc2eq``)."""
        win = self.win_chance(s, s.mover, s.mover)
        lose = self.win_chance(s, s.mover, 1 - s.mover)
        return (2.0 * mwc - (win + lose)) / (win - lose)

    def cost(self, equity_error: float, s: CubeState) -> float:
        """An error in normalised equity as match winning chances
        (``eq2mwc(e) - eq2mwc(0)``); for money, in points: the cube times it."""
        if not s.length:
            return s.cube * equity_error
        return self.equity_to_mwc(equity_error, s) - self.equity_to_mwc(0.0, s)


#: GNU Backgammon 1.07's default table.
KAZAROSS_XG2 = MatchEquityTable(met_kazaross_xg2.NAME, met_kazaross_xg2.PRE_CRAWFORD,
                                met_kazaross_xg2.POST_CRAWFORD)
