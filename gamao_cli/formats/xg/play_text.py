"""The text of a candidate play of XG's engine list in die-step notation,
shared by the analysis (:func:`gamao_cli.formats.xg.analysis_of`) and the
decisions model (:mod:`.decisions`): the same plays recur across a match,
so each is formatted once."""
from __future__ import annotations

from gamao_cli.model.notation import BoundedCache, format_steps

_PLAY_TEXTS: BoundedCache[tuple, str] = BoundedCache(16384)


def play_text(steps: tuple[tuple[int, int], ...]) -> str:
    """``steps`` (``(from, to)`` pairs, gamao's numbering) as play text."""
    text = _PLAY_TEXTS.get(steps)
    if text is None:
        text = _PLAY_TEXTS.put(steps, format_steps([(s, d, False) for s, d in steps]))
    return text
