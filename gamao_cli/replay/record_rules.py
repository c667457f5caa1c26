"""The rules a record plays under, read from its tags (Crawford, Jacoby,
beavers, the cube limit, the variant)."""
from __future__ import annotations

from dataclasses import dataclass

from gamao_cli import model as m
from gamao_cli import rules as board


@dataclass
class Rules:
    """The rules a record plays under, read from its tags."""

    length: int
    crawford: bool = True
    jacoby: bool | None = None     # money play; None: the record does not say
    beaver: bool | None = None     # money play; None: the record does not say
    cube: bool = True              # False: CubeLimit 1 / NoCube
    variant: str = "backgammon"
    automatic_doubles: bool = False

    @classmethod
    def from_match(cls, match: m.Match) -> "Rules":
        def on(name: str) -> bool | None:
            v = match.tag(name)
            if v is None or not v.strip():
                return None
            return v.strip().lower() in ("on", "yes", "true", "1")

        rules = cls(length=match.length)
        money = match.length == 0
        crawford = on("Crawford")
        rules.crawford = (not money) and crawford is not False
        # The Jacoby rule is for money play, but some producers apply it to
        # their single-game "matches" too: what the record says is followed,
        # and when it says nothing either reading is accepted (GM408).
        rules.jacoby = on("Jacoby")
        rules.beaver = on("Beaver") if money else False
        limit = match.tag("CubeLimit")
        if limit is not None and limit.strip() == "1":
            rules.cube = False
        variation = match.tag("Variation")
        if variation:
            rules.variant = board.variant_key(variation)
        return rules
