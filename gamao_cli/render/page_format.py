"""The HTML replay page as a target of ``gamao convert --to html``: a
write-only entry of the format registry (:mod:`gamao_cli.formats`), whose
writer is :func:`gamao_cli.render.html.replay_page`."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterator, Sequence

from gamao_cli.formats.base import Capabilities, Source, WriteResult

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match
    from gamao_cli.replay.replay import Replays


class HtmlFormat:
    name = "html"
    title = "a self-contained HTML page replaying the record (boards, moves, diagnostics)"
    extensions = (".html",)
    capabilities = Capabilities(read=False, write=True)
    scanned = False

    def sniff(self, head: bytes) -> bool:
        return False   # gamao writes pages, it does not read them

    def read(self, source: Source) -> Iterator[Match]:
        raise ValueError("gamao does not read HTML pages")

    def read_text(self, text: str, label: str = "") -> list[Match]:
        raise ValueError("gamao does not read HTML pages")

    def write(self, matches: Sequence[Match], replays: Replays | None = None) -> WriteResult:
        from gamao_cli.replay.replay import Replays as _Replays

        from .html import replay_page_parts
        replays = replays or _Replays()
        pairs = [(match, replays.of(match)) for match in matches]
        path = matches[0].path if matches else ""
        parts = replay_page_parts(pairs, path=os.path.basename(path) or "record")
        # written piece by piece (the page of a big match is tens of
        # megabytes), each piece XML-safe already
        return WriteResult(chunks=parts, errors=sum(r.errors for _m, r in pairs))

    def __repr__(self) -> str:
        return f"<format {self.name}>"
