"""Converting matches between formats.

``mat``: GNU Backgammon's layout with every play written one die step per
step (consolidated plays such as ``24/13`` expanded, bar as 25, off as 0) and
hit marks set from the replay. ``json``: :mod:`gamao_cli.json_format`.
``sgf``: :mod:`gamao_cli.sgf_writer` (GNU Backgammon's SGF dialect).

>>> from gamao_cli.matfile_reader import read_matches
>>> text = (" 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
...         "  1) 65: 24/13                   62: 24/18* 13/11\\n")
>>> print([line for line in convert(read_matches(text), "mat").text.splitlines() if "1)" in line][0])
  1) 65: 24/18 18/13             62: 24/18 13/11
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from . import model as m
from .matfile_writer import _cell_text, renamed_players, score_line_name, write_matches
from .notation import format_steps
from .validator import validate_match

TARGETS = ("mat", "json", "sgf")
EXTENSIONS = {"mat": ".mat", "json": ".json", "sgf": ".sgf"}


@dataclass
class Conversion:
    text: str
    warnings: list[str] = field(default_factory=list)
    errors: int = 0


def _canonical_cells(match: m.Match):
    report = validate_match(match, keep_records=True)
    steps_of = {}
    for result in report.games:
        for r in result.records:
            if r.steps is not None and isinstance(r.action, m.Play):
                steps_of[id(r.action)] = r.steps

    def cell(action: m.ActionType) -> str:
        if isinstance(action, m.Play):
            steps = steps_of.get(id(action))
            if steps:
                return f"{action.dice[0]}{action.dice[1]}: " + format_steps(
                    steps, bar="25", off="0", group=False)
        if isinstance(action, m.Dance):
            return f"{action.dice[0]}{action.dice[1]}:"
        return _cell_text(action)

    return cell, report


def _without_redundant_tags(match: m.Match) -> m.Match:
    """GNU Backgammon's layout names the players in the score lines only:
    ``Player 1``/``Player 2`` tags that say the same are left out."""
    # compared with the names as written: a tag keeps a name the score line
    # had to change (a ':' in it)
    names = [score_line_name(n) for n in match.players]
    redundant = {"player1": names[0], "player2": names[1]}
    tags = [t for t in match.tags
            if redundant.get("".join(t.name.split()).lower()) != t.value]
    if len(tags) == len(match.tags):
        return match
    copy = m.Match(match.length, match.games, tags, match.comments, match.path,
                   match.line, match.column)
    return copy


def to_mat(matches: list[m.Match]) -> Conversion:
    parts = []
    conv = Conversion("")
    for match in matches:
        cell, report = _canonical_cells(match)
        conv.errors += report.errors
        parts.append(write_matches([_without_redundant_tags(match)], cell))
        for name, written, why in renamed_players(match):
            warning = (f"the player name {name!r} is written {written!r}: a .mat score line "
                       + " and ".join(why))
            if warning not in conv.warnings:
                conv.warnings.append(warning)
        if any(isinstance(a, m.Loss) for g in match.games for a in g.actions):
            conv.warnings.append("Backgammon Galaxy's \"Losses N point\" cells are kept; GNU "
                                 "Backgammon does not read them")
    conv.text = "\n".join(parts)
    return conv


def to_json(matches: list[m.Match]) -> Conversion:
    from .json_format import write_json
    text, errors = write_json(matches)
    return Conversion(text, errors=errors)


def to_sgf(matches: list[m.Match]) -> Conversion:
    try:
        writer = importlib.import_module("gamao_cli.sgf_writer")
    except ImportError:
        raise ValueError("writing SGF is not supported by this version of gamao") from None
    return writer.convert(matches)


def convert(matches: list[m.Match], target: str) -> Conversion:
    """Convert matches to ``target`` (one of :data:`TARGETS`)."""
    if target == "mat":
        return to_mat(matches)
    if target == "json":
        return to_json(matches)
    if target == "sgf":
        return to_sgf(matches)
    raise ValueError(f"unknown target format {target!r}")
