"""gamao: read, validate, convert and draw backgammon match records.

The package is laid out as the pipeline runs:

- :mod:`gamao_cli.formats`: one sub-package per format (``mat``, ``sgf``,
  ``json``), each a reader and a writer, and the registry that detects a
  format from an input's first bytes;
- :mod:`gamao_cli.model`: the match as the record states it, and the one
  notation of plays;
- :mod:`gamao_cli.rules`: the rules of backgammon (positions, the single
  die step, legal plays, resolving a written play, outcomes), which know
  nothing of files, rendering or the command line;
- :mod:`gamao_cli.replay`: replaying a match under the rules, its
  diagnostics, checking one file, the position before every action;
- :mod:`gamao_cli.ids` (Position ID, Match ID, XGID), :mod:`gamao_cli.render`
  (boards), :mod:`gamao_cli.tables` (summaries);
- :mod:`gamao_cli.messages`: every code and message in one table;
- :mod:`gamao_cli.cli`: the ``gamao`` command.

The functions here are the library's front door:

>>> text = (" 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
...         "  1) 31: 8/5 6/5                 61: 13/7 8/6\\n      Wins 1 point\\n")
>>> [match] = read_text(text, "ex.mat")
>>> report = validate(match)
>>> report.final_score, report.winner, [d.code for d in report.diagnostics]
((1, 0), 0, ['GM202'])
>>> print(report.diagnostics[0].format_text())
ex.mat:5:43: GM202 error 13/7 8/6 with 6-1: 8/6 moves 2 pips, but no die shows 2; legal: 13/7 7/6, 13/7 8/7, 13/7 24/23, 13/7 6/5, 24/18 8/7
>>> print(convert([match], "sgf").text.splitlines()[0][:40])
(;FF[4]GM[6]CA[UTF-8]AP[gamao:0.1.0]MI[l
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.formats import WriteResult
    from gamao_cli.model import Match
    from gamao_cli.replay.replay import MatchReport

__all__ = ["__version__", "read", "read_text", "validate", "convert"]


def read(path: str) -> list[Match]:
    """Every match of a file in any format gamao reads (``"-"``: standard
    input). Raises :class:`gamao_cli.errors.InputError` with a location."""
    from gamao_cli import formats
    return formats.read_path(path)


def read_text(text: str, label: str = "") -> list[Match]:
    """Every match of a text in any text format (``label`` names it in messages)."""
    from gamao_cli import formats
    return formats.parse_text(text, label)


def validate(match: Match) -> MatchReport:
    """Replay ``match`` under the rules: its diagnostics, results and final score."""
    from gamao_cli.replay.replay import validate_match
    return validate_match(match)


def convert(matches: Sequence[Match], to: str) -> WriteResult:
    """``matches`` written in the format ``to`` (``mat``, ``sgf``, ``json``)."""
    from gamao_cli import formats
    return formats.get(to).write(matches)
