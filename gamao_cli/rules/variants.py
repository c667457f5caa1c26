"""The variants gamao knows: one record each, with its start position and
every name the formats give it (the match-file ``Variation`` tag, the words
of SGF's ``RU`` property, and the other spellings records use), as
python-chess's ``chess.variant`` keeps each variant's ``aliases``.

>>> find_variant("HyperGammon (2)").key, find_variant("Nackgammon").sgf_rule
('hypergammon2', 'Nackgammon')
>>> variant_of_rule_word("hypergammon").variation, variant_of_rule_word("crawford") is None
('HyperGammon3', True)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import UnknownVariant
from .position import Position, _symmetric


@dataclass(frozen=True)
class Variant:
    """One variant of backgammon and its names.

    ``key`` is gamao's name (what :attr:`~gamao_cli.replay.record_rules.Rules.variant`
    holds); ``variation`` the value gamao writes in a match file's
    ``Variation`` tag (``None`` for standard backgammon, which needs no tag);
    ``sgf_rule`` the ``RU`` word GNU Backgammon writes for it (``None``:
    GNU Backgammon has no rule for it, and an SGF file sets up its start
    position instead); ``rule_words`` the ``RU`` words (lower case) read as
    this variant; ``aliases`` the other names a record may give it, written
    as :func:`variant_key` normalises names (lower case, without spaces,
    dashes, underscores and parentheses).
    """

    key: str
    start: Position
    variation: str | None = None
    sgf_rule: str | None = None
    rule_words: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


def _hyper(n: int) -> Variant:
    words = tuple(f"{n}{w}hypergammon" for w in ("checker", "checkers", "chequer", "chequers"))
    return Variant(f"hypergammon{n}", _symmetric({24 - i: 1 for i in range(n)}),
                   f"HyperGammon{n}", f"Hypergammon{n}",
                   (f"hypergammon{n}",) + (("hypergammon",) if n == 3 else ()),
                   words + (("hypergammon",) if n == 3 else ()))


#: Every known variant, in the order messages list them.
ALL_VARIANTS: tuple[Variant, ...] = (
    Variant("backgammon", _symmetric({24: 2, 13: 5, 8: 3, 6: 5}),
            aliases=("standard", "standardbackgammon")),
    Variant("nackgammon", _symmetric({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}),
            "NackGammon", "Nackgammon", ("nackgammon",)),
    _hyper(1),
    _hyper(2),
    _hyper(3),   # plain "HyperGammon" is the 3-checker game
    Variant("longgammon", _symmetric({24: 15}), "LongGammon"),
)

_BY_KEY: dict[str, Variant] = {v.key: v for v in ALL_VARIANTS}
_BY_NAME: dict[str, Variant] = {name: v for v in ALL_VARIANTS for name in (v.key, *v.aliases)}
_BY_RULE_WORD: dict[str, Variant] = {w: v for v in ALL_VARIANTS for w in v.rule_words}

#: Start position of every known variant, by variant key (both sides alike).
VARIANTS: dict[str, Position] = {v.key: v.start for v in ALL_VARIANTS}


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


#: what a variant's name may hold that does not tell variants apart
_NAME_NOISE = re.compile(r"[\s_\-()]+")


def find_variant(name: str) -> Variant:
    """The variant a record names ``name`` (a key, a ``Variation`` tag value
    or an alias); raises :class:`~gamao_cli.errors.UnknownVariant`.

    Case, spaces, dashes, underscores and parentheses do not matter
    ("HyperGammon (2)" is how GNU Backgammon's match files name it).
    """
    key = _NAME_NOISE.sub("", str(name)).lower()
    variant = _BY_NAME.get(key)
    if variant is None:
        raise UnknownVariant(name, tuple(VARIANTS))
    return variant


def variant_key(name: str) -> str:
    """Normalise a variant name from a record to a key of :data:`VARIANTS`
    (:func:`find_variant`'s key).

    >>> [variant_key(n) for n in ("Backgammon", "HyperGammon", "Hypergammon 2", "HyperGammon (1)", "LongGammon")]
    ['backgammon', 'hypergammon3', 'hypergammon2', 'hypergammon1', 'longgammon']
    >>> variant_key("Acey-deucey")
    Traceback (most recent call last):
    ...
    gamao_cli.errors.UnknownVariant: unknown variant 'Acey-deucey' (known: backgammon, nackgammon, hypergammon1, hypergammon2, hypergammon3, longgammon)
    """
    return find_variant(name).key


def variant_by_key(key: str) -> Variant:
    """The record of the variant ``key`` (a key of :data:`VARIANTS`)."""
    return _BY_KEY[key]


def variant_of_rule_word(word: str) -> Variant | None:
    """The variant an SGF ``RU`` word (lower case) names, if it names one."""
    return _BY_RULE_WORD.get(word)
