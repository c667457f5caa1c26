"""BGBlitz's ``.bgf`` files: matches and money sessions with BGBlitz's analysis.

:mod:`.smile` decodes Smile (binary JSON), :mod:`.reader` maps the record
to the match model (its docstring describes the layout as it was checked on
real files).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from ..base import Capabilities, Source, WriteResult

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match
    from gamao_cli.replay.replay import Replays


def sniff(head: bytes) -> bool:
    """Whether an input's first bytes start as a BGBlitz file: its JSON
    header line names the format "BGF" (here, not in :mod:`.reader`, so
    that telling the format of every input does not import the reader)."""
    h = head.lstrip(b"\xef\xbb\xbf")[:200]
    return h.startswith(b"{") and b'"format"' in h and b'"BGF"' in h


class BgfFormat:
    name = "bgf"
    title = "BGBlitz (.bgf)"
    extensions = (".bgf",)
    capabilities = Capabilities(read=True, write=False, binary=True)
    scanned = True

    def sniff(self, head: bytes) -> bool:
        return sniff(head)

    def read(self, source: Source) -> Iterator[Match]:
        from .reader import read_bgf
        return iter([read_bgf(source.read_bytes(), source.label)])

    def read_text(self, text: str, label: str = "") -> list[Match]:
        raise TypeError("BGBlitz files are bytes, not text")

    def write(self, matches: Sequence[Match], replays: Replays | None = None) -> WriteResult:
        raise ValueError("gamao does not write BGBlitz files")

    def __repr__(self) -> str:
        return f"<format {self.name}>"
