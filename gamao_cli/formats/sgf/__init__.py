"""GNU Backgammon's SGF (GM[6]): :mod:`.reader` (the Lark grammar
``grammar/sgf.lark``) and :mod:`.writer`; what SGF has no property for
travels in gamao's private properties (listed in :mod:`.reader`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..base import Capabilities, TextFormat, WriteResult, head_text

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match
    from gamao_cli.replay.replay import Replays


class SgfFormat(TextFormat):
    name = "sgf"
    title = "GNU Backgammon SGF (GM[6])"
    extensions = (".sgf",)
    capabilities = Capabilities(read=True, write=True)

    def sniff(self, head: bytes) -> bool:
        # "(" then ";" with any white space between ("( ;", "(\n;")
        text = head_text(head).lstrip()
        return text.startswith("(") and text[1:].lstrip().startswith(";")

    def read_text(self, text: str, label: str = "") -> list[Match]:
        from .reader import read_sgf
        return read_sgf(text, label)

    def write(self, matches: Sequence[Match], replays: Replays | None = None) -> WriteResult:
        from .writer import write_sgf
        return write_sgf(matches, replays)
