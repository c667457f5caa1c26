"""Writing die steps in match-file notation, and the movements a written play stands for.

>>> format_steps(((24, 18, False), (13, 11, False)))
'24/18 13/11'
>>> format_steps(((8, 5, False), (8, 5, False), (6, 5, True), (6, 5, False)))
'8/5(2) 6/5* 6/5'
>>> format_steps(((25, 22, True), (3, 0, False)), bar="25", off="0")
'25/22* 3/0'
"""
from __future__ import annotations

from typing import Iterable, Sequence

from . import model as m

DieStep = tuple[int, int, bool]


def format_steps(steps: Sequence[DieStep], *, bar: str = "bar", off: str = "off",
                 group: bool = True) -> str:
    """Die steps ``(src, dst, hit)`` as text, consecutive repeats as ``(n)``."""
    parts: list[str] = []
    counts: list[int] = []
    for src, dst, hit in steps:
        text = m.point_text(src, bar=bar, off=off) + "/" + m.point_text(dst, bar=bar, off=off)
        if hit:
            text += "*"
        if group and parts and parts[-1] == text:
            counts[-1] += 1
        else:
            parts.append(text)
            counts.append(1)
    return " ".join(p if c == 1 else f"{p}({c})" for p, c in zip(parts, counts))


def movements(moves: Iterable[m.Step]) -> list[tuple[int, int]]:
    """The (from, to) checker movements of written steps, repeats expanded and
    chains split (``24/18/13`` is 24/18 then 18/13)."""
    out: list[tuple[int, int]] = []
    for step in moves:
        out.extend(step.movements())
    return out


def written_hits(moves: Iterable[m.Step]) -> list[int]:
    """The points written with a hit mark, once per mark (repeats included)."""
    out: list[int] = []
    for step in moves:
        for p, hit in zip(step.points[1:], step.hits):
            if hit:
                out.extend([p] * step.repeat)
    return out
