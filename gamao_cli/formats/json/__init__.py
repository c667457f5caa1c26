"""gamao's own JSON: every action with what the replay adds (die steps,
positions, IDs, results); :mod:`.codec` writes and reads it, against
``gamao_cli/schemas/match.schema.json``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..base import Capabilities, TextFormat, WriteResult, head_text

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match
    from gamao_cli.replay.replay import Replays


class JsonFormat(TextFormat):
    name = "json"
    title = "gamao JSON"
    extensions = (".json",)
    capabilities = Capabilities(read=True, write=True)
    # folders hold JSON of every kind: a folder scan takes only match records
    scanned = False

    def sniff(self, head: bytes) -> bool:
        return head_text(head).lstrip().startswith("{")

    def read_text(self, text: str, label: str = "") -> list[Match]:
        from .codec import read_json
        return read_json(text, label)

    def write(self, matches: Sequence[Match], replays: Replays | None = None) -> WriteResult:
        from .codec import write_json
        return write_json(list(matches), replays)
