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
from typing import Callable, Iterable, Sequence

from gamao_cli import model as m
from gamao_cli.errors import WriteRefused
from gamao_cli.messages import Msg
from gamao_cli.model.notation import BoundedCache, format_steps, move_numbers
from gamao_cli.replay.replay import MatchReport, Replays, validate_match

from ..base import Note, WriteResult, analysis_note
from ..limits import MAX_DIGITS, fits, play_problem
from .reader import _TAG_RE, roll_play_readable
from .setpos import set_pos_line

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
    (re.compile(r"\t"), " ", "tab"),
    (re.compile(r"^[ \t]+|[ \t]+$"), "", "blanks"),
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
    if action.__class__ is m.SetUp:
        return _set_pos(action, action.cube or 1, action.cube_owner)
    text = action.text()
    if isinstance(action, (m.Double, m.Take, m.Drop, m.Resign)):
        return " " + text
    return text


def _set_pos(action: m.SetUp, cube: int, owner: int | None) -> str:
    """The ``; Set Pos=`` line of a set-up (:mod:`.setpos`), the cube at
    ``cube`` owned by ``owner`` (0, 1; None or CENTRED: centred);
    :func:`refusal` has made sure it has one."""
    line = set_pos_line(action.sides, cube, None if owner == m.CENTRED else owner)
    if line is None:
        raise WriteRefused("GM507.mat-setup", {"where": "", "format": Msg("written.match-file", {}),
                                               "game": "?", "cell": action.text()})
    return line


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
        for line in comment_lines(comment):
            out.append(line)
    # a set-up stands on a line of its own ("; Set Pos=..."), in no cell
    cells = [a for a in game.actions if a.__class__ is not m.SetUp]
    numbered = iter(move_numbers((a.player, isinstance(a, m.Win)) for a in cells))
    numbers = [None if a.__class__ is m.SetUp else next(numbered) for a in game.actions]
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

    swallows = False   # the left cell takes the rest of its line (Illegal play ...)
    for action, n in zip(game.actions, numbers):
        text = cell_text(action)
        if action.__class__ is m.SetUp:
            flush()
            out.append(text)
            swallows = False
            continue
        if isinstance(action, m.Win):  # on the open line's right, or a line of its own
            if n is not None and not swallows:
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
            swallows = isinstance(action, m.IllegalPlayMarker) and \
                not _ILLEGAL_CLOSED.fullmatch(action.written)
        else:
            if swallows and left is not None:
                # the grammar reads the rest of an "Illegal play" cell's line
                # as its text: the right cell goes on a line of its own
                flush()
            right = text
    flush()
    return out


def _rated(name: str, rating: str | None) -> str:
    return f"{name},{rating}" if rating else name


_LINE_BREAKS = re.compile("[\r\n]")


def comment_lines(comment: str) -> list[str]:
    """A comment as the lines of a match file that read back as it says:
    one line for each line of it, each with a comment marker (``; `` added
    when it has none), without the blanks at its end (which the reader
    drops)."""
    out = []
    for line in _LINE_BREAKS.split(comment) if comment else [""]:
        line = line.rstrip(" \t")
        out.append(line if line[:1] in (";", "#", "[") else ("; " + line).rstrip())
    return out


_LOOKS_LIKE_TAG = re.compile(r';[ \t]*\[[^\n]*\][ \t]*$')


def iter_match(match: m.Match, cell_text: Callable[[m.ActionType], str] = _cell_text,
               follows: bool = False):
    """The text of one match in the canonical layout, in pieces: its head,
    then each game (ending with a newline). ``follows``: another match comes
    before it in the file, so that comment lines before its ``N point
    match`` line would belong to that match's last game, unless a tag line
    comes first: without tags, they come after it."""
    lines: list[str] = []
    for tag in match.tags:
        lines.append(f'; [{tag.name} "{tag.value}"]')
    comments = [line for c in match.comments for line in comment_lines(c)]
    late = follows and not match.tags
    if not late:
        lines.extend(comments)
    if lines:
        lines.append("")
    lines.append(f" {match.length} point match")
    if late:
        lines.extend(comments)
    lines.append("")
    yield "\n".join(lines) + "\n"
    for game in match.games:
        yield "\n".join(game_lines(game, cell_text)) + "\n\n"


def write_match(match: m.Match, cell_text: Callable[[m.ActionType], str] = _cell_text) -> str:
    """The text of one match in the canonical layout, ending with a newline."""
    return "".join(iter_match(match, cell_text))


def write_matches(matches: Iterable[m.Match], cell_text: Callable[[m.ActionType], str] = _cell_text) -> str:
    """Several matches one after another, separated by a blank line."""
    return "\n".join(write_match(mt, cell_text) for mt in matches)


# -- the canonical layout: every play as die steps, from the replay ---------

#: a play's die steps as the canonical layout writes them, by the steps: the
#: same plays recur over a file and an archive
_STEPS_TEXT: BoundedCache[tuple, str] = BoundedCache(16384)


def _canonical_cells(match: m.Match, report: MatchReport, number: int | None = None):
    steps_of = {}
    after_set_up: dict[int, tuple[int, int | None]] = {}   # the cube each set-up leaves
    for result in report.games:
        for r, nxt in zip(result.records, result.records[1:] + [None]):
            if r.steps is not None and isinstance(r.action, m.Play):
                steps_of[id(r.action)] = r.steps
            if r.action.__class__ is m.SetUp:
                a = r.action
                value = a.cube if a.cube is not None else r.cube
                owner = a.cube_owner if a.cube_owner is not None else r.cube_owner
                if nxt is not None:
                    value, owner = nxt.cube, nxt.cube_owner
                after_set_up[id(a)] = (value, owner)

    def cell(action: m.ActionType) -> str:
        if isinstance(action, m.Play):
            steps = steps_of.get(id(action))
            if steps:
                d1, d2 = action.dice
                text = _STEPS_TEXT.data.get(steps) if type(steps) is tuple else None
                if text is None:
                    text = format_steps(steps, bar="25", off="0", group=False)
                    if type(steps) is tuple:
                        _STEPS_TEXT.put(steps, text)
                return f"{d1}{d2}: {text}"
            # written as it is: it must be a play the grammar reads
            play = action.play_text()
            if not roll_play_readable(play) or play_problem(play, "", None, None) is not None:
                raise _unreadable_play(action.text(), match, number, _game_of(match, action))
        if isinstance(action, m.Dance):
            return f"{action.dice[0]}{action.dice[1]}:"
        if isinstance(action, m.UnplayedRoll) and not _UNPLAYED.fullmatch(action.written):
            return f"{action.dice[0]}{action.dice[1]}: ????"
        if isinstance(action, m.IllegalPlayMarker) and not _ILLEGAL.fullmatch(action.written):
            return f"{action.dice[0]}{action.dice[1]}: Illegal play"
        if isinstance(action, m.Resign) and not _RESIGN_WORD.fullmatch(action.word):
            return " Resigns"
        if action.__class__ is m.SetUp:
            # the cube as the set-up leaves it (the line always states it)
            rec = after_set_up.get(id(action))
            cube, owner = (rec if rec is not None else
                           (action.cube or 1, action.cube_owner))
            return _set_pos(action, cube, owner)
        return _cell_text(action)

    return cell


def _game_of(match: m.Match, action: m.ActionType) -> int | None:
    for g in match.games:
        if any(a is action for a in g.actions):
            return g.number
    return None


# What the grammar reads as an unplayed roll's and an Illegal play marker's
# text (ROLL_UNKNOWN, ROLL_ILLEGAL): other texts are written as these.
_UNPLAYED = re.compile(r"\?{2,}|(?:Concedes?|Resigns?)", re.I)
_RESIGN_WORD = re.compile(r"(?:Resigned[ \t]+(?:Game|Match)|Resign[ \t]+(?:single|normal|gammon|"
                          r"backgammon)|Resigns?|Concedes?)|\?{2,}", re.I)
# an Illegal play cell that ends with its position: the next cell may follow
_ILLEGAL_CLOSED = re.compile(r"Illegal[ \t]+play[ \t]*\([^()\n]*\)", re.I)
_ILLEGAL = re.compile(r"Illegal[ \t]+play[^\n\r]*(?<![ \t])", re.I)
# A tag's name as the reader reads it back (its blanks at the ends dropped)
# (the reader drops spaces and tabs at the ends of a name, and only those:
# a name may end with another blank, such as a no-break space, but not with
# a line break of any kind)
_TAG_END = r'[^"\] \t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]'
_TAG_NAME = re.compile(rf'(?:{_TAG_END}(?:[^"\]\n\r]*{_TAG_END})?)?')
# A rating as the reader reads it back ("Bob,1612")
_RATING = re.compile(r"[-\d.]+")


def _with_score_lines(match: m.Match, report: MatchReport) -> tuple[m.Match, int]:
    """``match`` with a score line in every game (a match file needs one
    after each Game line): the players' names and the running score, for a
    game that has none; and how many games got one."""
    missing = [i for i, g in enumerate(match.games) if g.score is None]
    if not missing:
        return match, 0
    names = match.players
    games = list(match.games)
    for i in missing:
        g = games[i]
        before = report.games[i].score_before if i < len(report.games) else (0, 0)
        games[i] = m.Game(g.number, m.ScoreLine(names, tuple(before)), g.actions, g.comments,
                          g.line, g.column)
    return m.Match(match.length, games, match.tags, match.comments, match.path, match.line,
                   match.column), len(missing)


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


def _where(number: int | None) -> "Msg | str":
    return Msg("where.match", {"match": number}) if number else ""


# what a refusal of a number names (in the language that speaks: messages)
_MATCH_LENGTH, _SCORE = Msg("written.match-length", {}), Msg("written.score", {})
_POINTS, _CUBE_VALUE = Msg("written.points", {}), Msg("written.cube-value", {})
_GAME = object()   # game N: its message is made with the number


def refusal(match: m.Match, number: int | None = None) -> WriteRefused | None:
    """Why ``match`` cannot be written as a match file that reads back into
    it (``number``: its place in a file of several), or None. What the
    writer mends instead (a ':' in a name, blanks, comment markers) is not
    a reason."""
    where = _where(number)

    def refuse(key: str, **fields) -> WriteRefused:
        return WriteRefused(key, {"where": where, "format": Msg("written.match-file", {}), **fields})

    numbers = [(_MATCH_LENGTH, match.length)]
    if match.length < 0:
        return refuse("GM507.mat-length", length=match.length)
    for tag in match.tags:
        if not _TAG_NAME.fullmatch(tag.name) or _LINE_BREAKS.search(tag.value):
            return refuse("GM507.mat-tag", name=tag.name, value=tag.value)
    # a comment line that looks like a tag line reads back as a comment when it
    # is no tag (``; [Name #x"]``) and stands before the length line, as it does
    # in the first match and after the tags (iter_match: ``follows``)
    before_length = number in (None, 1) or bool(_without_redundant_tags(match).tags)
    for comment in match.comments:
        for line in comment_lines(comment):
            if _LOOKS_LIKE_TAG.match(line) and (_TAG_RE.match(line) or not before_length):
                return refuse("GM507.mat-comment", comment=line)
    for game in match.games:
        numbers.append((_GAME, game.number))
        if game.number < 0:
            return refuse("GM507.mat-game-number", game=game.number)
        if game.score is not None:
            numbers.extend((_SCORE, s) for s in game.score.scores if s is not None)
            for name, rating in zip(game.score.names, game.score.ratings):
                if _LINE_BREAKS.search(name):
                    return refuse("GM507.mat-name", game=game.number, name=name)
                if rating is not None and (not _RATING.fullmatch(rating) or not name.strip()):
                    return refuse("GM507.mat-rating", game=game.number, name=name, rating=rating)
        for a in game.actions:
            if a.player not in (0, 1):
                return refuse("GM507.mat-player", game=game.number, cell=_cell_text(a), player=a.player)
            dice = getattr(a, "dice", None)
            if dice is not None and not all(type(d) is int and 0 <= d <= 9 for d in dice):
                return refuse("GM507.mat-dice", game=game.number, cell=_cell_text(a))
            # (a play read from text has the steps the grammar found: its
            # steps are not made here, which would cost a step object each)
            if isinstance(a, m.Play) and getattr(a, "_written", None) is None and not a.moves:
                return refuse("GM507.mat-empty-play", game=game.number, dice=f"{dice[0]}{dice[1]}")
            if a.__class__ is m.SetUp and (
                    a.sides is None or set_pos_line(a.sides, 1, 0) is None
                    or a.cube is not None and set_pos_line(a.sides, a.cube, 0) is None
                    or a.cube_owner == m.CENTRED and a.cube not in (None, 1)):
                return refuse("GM507.mat-setup", game=game.number, cell=a.text())
            if isinstance(a, (m.Win, m.Loss)):
                numbers.append((_POINTS, a.points))
                if a.points < 0:
                    return refuse("GM507.mat-points", game=game.number, cell=_cell_text(a))
            if isinstance(a, m.Double):
                if a.kind not in ("double", "beaver", "raccoon"):
                    return refuse("GM507.mat-cube", game=game.number, value=a.kind)
                if a.value is not None:
                    if type(a.value) is not int or a.value < 0:
                        return refuse("GM507.mat-cube", game=game.number, value=a.value)
                    numbers.append((_CUBE_VALUE, a.value))
    for what, n in numbers:
        if what is _GAME:
            what = Msg("written.game", {"game": n})
        if type(n) is not int:
            return refuse("GM507.mat-not-a-number", what=what, value=n)
        if not fits(n):
            return refuse("GM507.mat-number", what=what, limit=MAX_DIGITS)
    return None


def _unreadable_play(cell: str, match: m.Match, number: int | None, game: int) -> WriteRefused:
    return WriteRefused("GM507.mat-play", {"where": _where(number), "game": game, "cell": cell})


def write_canonical(matches: Sequence[m.Match], replays: Replays | None = None) -> WriteResult:
    """``matches`` in GNU Backgammon's layout, every play one die step per
    step (consolidated plays such as ``24/13`` expanded, bar as 25, off as 0)
    with hit marks set from the replay.

    The text is made when the result's chunks are taken, match by match and
    game by game (one match's replay in memory, kept in ``replays`` when it
    is given). A match that no match file holds so that it reads back (a
    negative length, a line break in a name, dice outside 0-9...), or no
    matches at all, is refused (:class:`WriteRefused`, GM507) before
    anything is written.

    >>> from gamao_cli.formats.mat.reader import read_matches
    >>> text = (" 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
    ...         "  1) 65: 24/13                   62: 24/18* 13/11\\n")
    >>> print([line for line in write_canonical(read_matches(text)).text.splitlines() if "1)" in line][0])
      1) 65: 24/18 18/13             62: 24/18 13/11
    """
    if not matches:
        raise WriteRefused("GM507.no-matches", {"format": Msg("written.match-file", {})})
    several = len(matches) > 1
    for k, match in enumerate(matches, 1):
        problem = refusal(match, k if several else None)
        if problem is not None:
            raise problem
    result = WriteResult()

    def chunks():
        for k, match in enumerate(matches, 1):
            report = replays.of(match) if replays is not None else \
                validate_match(match, keep_records=True)
            result.add_errors(report.errors)
            for name, written, why in renamed_players(match):
                key = "GM501." + "+".join(why) if set(why) <= {"colon", "rating"} else "GM501.other"
                result.note(Note("GM501", {"name": name, "written": written, "why": why}, key=key))
            if any(isinstance(a, m.Loss) for g in match.games for a in g.actions):
                result.note(Note("GM502"))
            cell = _canonical_cells(match, report, k if several else None)
            if k > 1:
                yield "\n"
            filled, n = _with_score_lines(_without_redundant_tags(match), report)
            if n:
                result.note(Note("GM504", {"where": _where(k if several else None), "n": n},
                                 key="GM504.no-score-line"))
            yield from iter_match(filled, cell, follows=k > 1)

        dropped = analysis_note(matches, "a match file")
        if dropped is not None:
            result.note(dropped)

    result.set_chunks(chunks())
    return result
