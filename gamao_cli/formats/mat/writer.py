"""Write a match in GNU Backgammon's match-file export layout.

The layout (FORMATS.md, "What GNU Backgammon writes"): tag lines, `` N point
match``, `` Game N``, the score line ``" %-31s%s : %d"``, move lines
``"%3d) "`` with the left cell padded to 27 characters and a space, cube
actions with a leading space, ``Wins`` on a line of its own indented 6 (left
player) or 34 (right player) spaces, or beside the loser's ``Drops``.

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = " 1 point match\\n\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5  62: 24/18 13/11\\n      Wins 1 point\\n"
>>> print(write_match(read_matches(text)[0]), end="")
 1 point match
<BLANKLINE>
 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 62: 24/18 13/11
      Wins 1 point
<BLANKLINE>
"""
from __future__ import annotations

import re

from typing import Callable, Iterable

from typing import Sequence

from gamao_cli import model as m
from gamao_cli.model.notation import format_steps, move_numbers
from gamao_cli.replay.replay import MatchReport, Replays

from ..base import Note, WriteResult, analysis_note

LEFT_CELL_WIDTH = 27
WIN_INDENT = (6, 34)

#: What a ':' in a player's name is written as in a score line. The reader
#: takes a name up to its first ':' (``Name : score``), so a name holding one
#: (SGF allows it: ``PB[Snow (libgsgf):0.2.0]``) could not be read back; '-'
#: reads much the same, is ASCII (so fits any encoding the output may be read
#: in) and may stand anywhere in a name (a ';' or '#' first would make a
#: comment line).
NAME_COLON = "-"


# What a score line cannot hold in a name, in the order the writer mends it:
# (pattern, replacement, why: the variant of note GM501 that says so)
_NAME_MENDS = (
    (re.compile(":"), NAME_COLON, "colon"),
    (re.compile(r",(?=[-\d.]+$)"), " ", "rating"),
)


def _mended_name(name: str) -> tuple[str, list[str]]:
    """``name`` as a score line can hold it, and why it had to change."""
    why = []
    for pattern, replacement, reason in _NAME_MENDS:
        name, n = pattern.subn(replacement, name)
        if n:
            why.append(reason)
    return name, why


def score_line_name(name: str) -> str:
    """``name`` as a score line can hold it: each ':' becomes
    :data:`NAME_COLON`, and a ',' before a number that ends the name (which
    the reader would take for a rating, ``Bob,1500``) becomes a space.

    >>> score_line_name("Snow (libgsgf):0.2.0")
    'Snow (libgsgf)-0.2.0'
    >>> score_line_name("Bob,1500")
    'Bob 1500'
    """
    return _mended_name(name)[0]


def renamed_players(match: m.Match) -> list[tuple[str, str, list[str]]]:
    """``(name, as written, why)`` for each name of the match's score lines
    that :func:`score_line_name` changes, each once, in order."""
    out: list[tuple[str, str, list[str]]] = []
    for game in match.games:
        if game.score is None:
            continue
        for name, rating in zip(game.score.names, game.score.ratings):
            mended, why = _mended_name(name)
            entry = (_rated(name, rating), _rated(mended, rating), why)
            if why and entry not in out:
                out.append(entry)
    return out


def _cell_text(action: m.ActionType) -> str:
    text = action.text()
    if isinstance(action, (m.Double, m.Take, m.Drop, m.Resign)):
        return " " + text
    return text


def game_lines(game: m.Game, cell_text: Callable[[m.ActionType], str] = _cell_text) -> list[str]:
    """The lines of one game, from `` Game N`` to its last action."""
    out = [f" Game {game.number}"]
    if game.score is not None:
        (n1, n2), (s1, s2) = game.score.names, game.score.scores
        r1, r2 = game.score.ratings
        left = f"{_rated(score_line_name(n1), r1)} : {s1 if s1 is not None else 0}"
        # names too long for the 31 columns still need a gap before the next
        gap = "" if len(left) < 31 else "  "
        out.append(f" {left:<31}{gap}{_rated(score_line_name(n2), r2)} : "
                   f"{s2 if s2 is not None else 0}")
    for comment in game.comments:
        # comments read from a match file keep their marker; others (SGF's
        # C[...]) become "; text" lines, which read back as game comments
        for line in comment.splitlines() or [""]:
            out.append(line if line[:1] in (";", "#", "[") else "; " + line)
    numbers = move_numbers((a.player, isinstance(a, m.Win)) for a in game.actions)
    number: int | None = None     # the open line's number and cells
    left: str | None = None
    right: str | None = None

    def flush() -> None:
        nonlocal left, right
        if left is None and right is None:
            return
        line = f"{number:3d}) " + (left or "").ljust(LEFT_CELL_WIDTH)
        if right is not None:
            line += " " + right
        out.append(line.rstrip())
        left = right = None

    for action, n in zip(game.actions, numbers):
        text = cell_text(action)
        if isinstance(action, m.Win):  # on the open line's right, or a line of its own
            if n is not None:
                right = text          # "  7)  Drops                       Wins 1 point"
                flush()
            else:
                flush()
                out.append(" " * WIN_INDENT[action.player] + text)
            continue
        if n != number:
            flush()
            number = n
        if action.player == m.LEFT:
            left = text
        else:
            right = text
    flush()
    return out


def _rated(name: str, rating: str | None) -> str:
    return f"{name},{rating}" if rating else name


def write_match(match: m.Match, cell_text: Callable[[m.ActionType], str] = _cell_text) -> str:
    """The text of one match in the canonical layout, ending with a newline."""
    lines: list[str] = []
    for tag in match.tags:
        lines.append(f'; [{tag.name} "{tag.value}"]')
    for comment in match.comments:
        lines.append(comment)
    if lines:
        lines.append("")
    lines.append(f" {match.length} point match")
    lines.append("")
    for game in match.games:
        lines.extend(game_lines(game, cell_text))
        lines.append("")
    return "\n".join(lines) + "\n"


def write_matches(matches: Iterable[m.Match], cell_text: Callable[[m.ActionType], str] = _cell_text) -> str:
    """Several matches one after another, separated by a blank line."""
    return "\n".join(write_match(mt, cell_text) for mt in matches)


# -- the canonical layout: every play as die steps, from the replay ---------

def _canonical_cells(match: m.Match, report: MatchReport):
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

    return cell


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


def write_canonical(matches: Sequence[m.Match], replays: Replays | None = None) -> WriteResult:
    """``matches`` in GNU Backgammon's layout, every play one die step per
    step (consolidated plays such as ``24/13`` expanded, bar as 25, off as 0)
    with hit marks set from the replay.

    >>> from gamao_cli.formats.mat.reader import read_matches
    >>> text = (" 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
    ...         "  1) 65: 24/13                   62: 24/18* 13/11\\n")
    >>> print([line for line in write_canonical(read_matches(text)).text.splitlines() if "1)" in line][0])
      1) 65: 24/18 18/13             62: 24/18 13/11
    """
    replays = replays or Replays()
    parts = []
    result = WriteResult()
    for match in matches:
        report = replays.of(match)
        result.errors += report.errors
        parts.append(write_matches([_without_redundant_tags(match)], _canonical_cells(match, report)))
        for name, written, why in renamed_players(match):
            result.note(Note("GM501", {"name": name, "written": written, "why": why},
                             key="GM501." + "+".join(why)))
        if any(isinstance(a, m.Loss) for g in match.games for a in g.actions):
            result.note(Note("GM502"))
    result.text = "\n".join(parts)
    dropped = analysis_note(matches, "a match file")
    if dropped is not None:
        result.note(dropped)
    return result
