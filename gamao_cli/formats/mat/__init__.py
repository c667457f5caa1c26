"""The match file (``.mat``, Jellyfish style) in every producer's dialect:
:mod:`.reader` (the Lark grammar ``grammar/matchfile.lark``), :mod:`.limits`
(what the reader refuses before parsing), :mod:`.streaming` (big files match
by match), :mod:`.writer` (GNU Backgammon's layout)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from ..base import Capabilities, Source, TextFormat, WriteResult, head_text

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match
    from gamao_cli.replay.replay import Replays

#: Files at least this big are read match by match, in bounded memory.
STREAM_MIN_BYTES = 4 << 20


class MatFormat(TextFormat):
    name = "mat"
    title = "match file (.mat, Jellyfish style)"
    extensions = (".mat", ".txt")
    capabilities = Capabilities(read=True, write=True, streamable=True)

    def sniff(self, head: bytes) -> bool:
        from .reader import looks_like_match_file
        return looks_like_match_file(head_text(head))

    def read(self, source: Source) -> Iterator[Match]:
        from .reader import read_matches
        size = source.size()
        if source.in_memory or size is None or size < STREAM_MIN_BYTES \
                or head_text(source.head()).lstrip()[:1] == "(":
            return iter(read_matches(source.read_text(), source.label))
        from .streaming import iter_file_matches
        return iter_file_matches(source.decoded().lines(), source.label, reader=read_matches)

    def read_text(self, text: str, label: str = "") -> list[Match]:
        from .reader import read_matches
        return read_matches(text, label)

    def write(self, matches: Sequence[Match], replays: Replays | None = None) -> WriteResult:
        from .writer import write_canonical
        return write_canonical(matches, replays)
