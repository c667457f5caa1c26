"""The tolerant match fingerprint: one key for every copy of a match,
whatever format or program wrote it (see ``docs/dedupe.md``).

A copy's fingerprint is its match length and one key a game:
``7:3f09c1a2b4d5,a1b2c3d4e5f6,...``. A game's key is a hash of its first
:data:`KEYED_ROLLS` rolls, each as its dice (higher first) and the *net
change* its play makes to the mover's checkers (a checker leaving 24 and one
reaching 13: ``24/13``, ``24/18 18/13`` and SGF's two die moves are one
change). What no two copies of a match need to agree on is left out: the
names and the column each player is written in, who the record says rolled
(the order of the rolls is the game), hit marks, results, cube actions,
tags, comments, a trailing roll never played (``61: ????``) or with no play
(a roll before a resignation), and the rolls after the first
:data:`KEYED_ROLLS` of a game (so a copy whose last game is cut after them
has that game's key). Games with no roll (an empty ``Game N`` at the end of
a record) have no key.

A copy that holds fewer games, from the start (truncated) or from the end
(started in the middle of the match), has a fingerprint whose keys are a
run of the full copy's keys: :mod:`gamao_cli.archive.dedupe` groups copies
by the keys they share (with the length), as pgn-extract's ``--fuzzydepth``
takes two chess games for one once they reach the same position at a
given depth.

Everything here reads the match as the record states it: no replay.

>>> from gamao_cli.formats.mat.reader import read_matches
>>> a = (" 3 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
...      "  1) 65: 24/13                 31: 8/5 6/5\\n")
>>> b = (" 3 point match\\n\\n Game 1\\n BOB : 0   ann : 0\\n"
...      "  1)                           56: 24/18 18/13\\n"
...      "  2) 13: 6/5 8/5               61: ????\\n")
>>> fingerprint(read_matches(a)[0]) == fingerprint(read_matches(b)[0])
True
>>> fingerprint(read_matches(a)[0]).split(":")[0], len(game_keys(read_matches(a)[0]))
('3', 1)
"""
from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from typing import Any, Mapping

from gamao_cli import model as m
from gamao_cli.model.notation import BoundedCache

#: The rolls of a game its key is made of (fewer when the game has fewer).
KEYED_ROLLS = 12

#: Hex digits of a game's key.
KEY_DIGITS = 12

_WITH_DICE = (m.Play, m.Dance, m.IllegalPlayMarker)


@dataclass(frozen=True, slots=True)
class GameKey:
    """What the fingerprint keeps of one game.

    ``key``: the hash of its first :data:`KEYED_ROLLS` rolls (a 48-bit
    number; :attr:`hex` is how the fingerprint writes it); ``head``: two
    bytes a roll for those rolls (to tell whether a game cut short is the
    start of another); ``rolls``: every roll it holds (as keyed: trailing
    rolls with no play left out); ``result``: it states a result (a
    ``Wins`` line, or its SGF or XG equivalent); ``first``: the column (0
    left, 1 right) of the player who rolls first."""

    key: int
    head: bytes
    rolls: int
    result: bool
    first: int

    @property
    def hex(self) -> str:
        return f"{self.key:0{KEY_DIGITS}x}"

    @property
    def full(self) -> bool:
        """The key is made of :data:`KEYED_ROLLS` rolls: strong enough to
        tie two copies together alone."""
        return self.rolls >= KEYED_ROLLS

    def starts(self, other: "GameKey") -> bool:
        """Whether this game is ``other`` or its start (a copy cut in it)."""
        if self.key == other.key:
            return True
        return not self.full and self.rolls <= other.rolls and \
            other.head[:len(self.head)] == self.head


def roll_token(action: m.ActionType) -> str:
    """A roll as the key sees it: ``65 -24 +13`` (the dice, higher first,
    and the net change of the mover's checkers, point by point: 25 the bar,
    0 off); ``66`` for a roll with no play; ``31 !`` for Snowie's
    ``Illegal play`` marker.

    >>> from gamao_cli.model import Play, parse_steps
    >>> roll_token(Play(0, (5, 6), parse_steps("24/18 18/13")))
    '65 -24 +13'
    >>> roll_token(Play(1, (2, 2), parse_steps("8/4(2)")))
    '22 -8 -8 +4 +4'
    """
    dice = action.dice
    cls = type(action)
    if cls is m.Play:
        # a play's movements are a function of its steps, which its text
        # writes out (play_text): the same play of the same dice, the same
        # token, however often an archive repeats it
        key = (dice, action.play_text())
        token = _TOKENS.get(key)
        if token is None:
            token = _TOKENS.put(key, _play_token(action))
        return token
    head = f"{max(dice)}{min(dice)}"
    if cls is m.IllegalPlayMarker:
        return head + " !"
    return head


#: roll tokens of plays, by dice and play text
_TOKENS: BoundedCache[tuple, str] = BoundedCache(1 << 14)


def _play_token(action: m.Play) -> str:
    dice = action.dice
    head = f"{max(dice)}{min(dice)}"
    net: dict[int, int] = {}
    for src, dst in action.movements():
        net[src] = net.get(src, 0) - 1
        net[dst] = net.get(dst, 0) + 1
    parts = [head]
    for point in sorted(net, reverse=True):
        n = net[point]
        if n:
            sign = "+" if n > 0 else "-"
            parts.extend([f"{sign}{point}"] * abs(n))
    return " ".join(parts)


def _rolls(game: m.Game) -> list[m.ActionType]:
    """The rolls of a game the key counts: every roll with dice but the
    unplayed ones, and no roll without a play at the very end."""
    rolls = [a for a in game.actions if isinstance(a, _WITH_DICE)]
    while rolls and type(rolls[-1]) is m.Dance:
        rolls.pop()
    return rolls


def _digest(text: str, size: int) -> bytes:
    return hashlib.blake2b(text.encode("ascii"), digest_size=size).digest()


def _keyed(rolls: list[m.ActionType]) -> tuple[list[str], int]:
    """The tokens of the keyed rolls (of :func:`_rolls`) and the key they make."""
    tokens = [roll_token(a) for a in rolls[:KEYED_ROLLS]]
    return tokens, int.from_bytes(_digest("\n".join(tokens), KEY_DIGITS // 2), "big")


def game_key(game: m.Game) -> GameKey | None:
    """The key of one game (None for a game with no roll)."""
    rolls = _rolls(game)
    if not rolls:
        return None
    tokens, key = _keyed(rolls)
    head = b"".join(_digest(t, 2) for t in tokens)
    result = any(type(a) is m.Win for a in game.actions)
    return GameKey(key, head, len(rolls), result, rolls[0].player)


def game_keys(match: m.Match) -> tuple[GameKey, ...]:
    """The keys of a match's games that hold a roll, in order."""
    return tuple(k for k in map(game_key, match.games) if k is not None)


def fingerprint_of(length: int, keys: tuple[GameKey, ...]) -> str:
    return f"{length}:" + ",".join(k.hex for k in keys)


def fingerprint(match: m.Match) -> str:
    """The match's fingerprint: ``LENGTH:KEY,KEY,...`` (module text):
    ``fingerprint_of(match.length, game_keys(match))``, made of the keys
    alone (not the rest of each :class:`GameKey`)."""
    keys = []
    for game in match.games:
        rolls = _rolls(game)
        if rolls:
            keys.append(f"{_keyed(rolls)[1]:0{KEY_DIGITS}x}")
    return f"{match.length}:" + ",".join(keys)


# -- names ------------------------------------------------------------------

def name_key(name: str) -> str:
    """A player's name as archive tools compare it: accents dropped, case
    folded, runs of spaces one space, no space at the ends.

    >>> name_key("  José   da SILVA ")
    'jose da silva'
    """
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


# -- analysis -----------------------------------------------------------------

def analysis_depth(action: m.ActionType) -> str | None:
    """How deep the analysis a record carries for ``action`` is, as its
    program says it (``XG level 4``, ``0-ply``); ``""`` when the action
    carries analysis of no stated depth; None when it carries none.

    This is the one place archive tools read an action's analysis: a
    mapping with ``analysis_depth`` (what the eXtreme Gammon reader gives),
    or an object with an ``analysis_depth`` or ``depth`` attribute (a
    reader that maps its analysis into another model adds its case here).
    """
    analysis: Any = getattr(action, "analysis", None)
    if analysis is None:
        return None
    if isinstance(analysis, Mapping):
        depth = analysis.get("analysis_depth")
    else:
        depth = getattr(analysis, "analysis_depth", None)
        if depth is None:
            depth = getattr(analysis, "depth", None)
    return "" if depth is None else str(depth)
