"""The variants gamao knows, with their start positions and the names
records give them."""
from __future__ import annotations

import re

from ..errors import UnknownVariant
from .position import Position, _symmetric

#: Start position of every known variant, by variant key (both sides alike).
VARIANTS: dict[str, Position] = {
    "backgammon": _symmetric({24: 2, 13: 5, 8: 3, 6: 5}),
    "nackgammon": _symmetric({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}),
    "hypergammon1": _symmetric({24: 1}),
    "hypergammon2": _symmetric({24: 1, 23: 1}),
    "hypergammon3": _symmetric({24: 1, 23: 1, 22: 1}),
    "longgammon": _symmetric({24: 15}),
}

_ALIASES = {
    "standard": "backgammon",
    "standardbackgammon": "backgammon",
    "hypergammon": "hypergammon3",
}


def start_position(variant: str = "backgammon") -> Position:
    """The start position of ``variant`` (a key of :data:`VARIANTS`, or any
    name :func:`variant_key` understands).

    >>> start_position().me[13], start_position("nackgammon").me[23]
    (5, 2)
    """
    pos = VARIANTS.get(variant)
    if pos is None:
        pos = VARIANTS[variant_key(variant)]
    return pos


def variant_key(name: str) -> str:
    """Normalise a variant name from a record to a key of :data:`VARIANTS`.

    Case, spaces, dashes and underscores do not matter; plain "HyperGammon" is
    the 3-checker game.

    >>> [variant_key(n) for n in ("Backgammon", "HyperGammon", "Hypergammon 2", "HyperGammon (1)", "LongGammon")]
    ['backgammon', 'hypergammon3', 'hypergammon2', 'hypergammon1', 'longgammon']
    >>> variant_key("Acey-deucey")
    Traceback (most recent call last):
    ...
    gamao_cli.errors.UnknownVariant: unknown variant 'Acey-deucey' (known: backgammon, nackgammon, hypergammon1, hypergammon2, hypergammon3, longgammon)
    """
    # "HyperGammon (2)" is how GNU Backgammon's match files name it
    key = re.sub(r"[\s_\-()]+", "", str(name)).lower()
    key = _ALIASES.get(key, key)
    m = re.fullmatch(r"([123])(?:checkers?|chequers?)hypergammon", key)
    if m:
        key = "hypergammon" + m.group(1)
    if key not in VARIANTS:
        raise UnknownVariant(name, tuple(VARIANTS))
    return key
