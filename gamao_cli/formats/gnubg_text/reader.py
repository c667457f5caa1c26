"""GNU Backgammon's text export (``export game text`` / ``export match text``)
to gamao's match model.

gnubg writes one file a game (``NAME.txt``, ``NAME_002.txt``, ...). Each
starts with its score line (``The score (after 2 games) is: A 3, B 1 (match
to 7 points)``: the game number is the games before plus one), then ``Match
Information:`` (the tags), then one block a move::

    Move number 3:  A to play 62         (a roll: "* A moves 24/16" or "* A cannot move")
    Move number 4:  B on roll, cube decision?          (then "* B doubles")
    Move number 5:  B doubles to 2       (then "* A accepts" or "* A rejects")

each with the Position ID and Match ID before it, the board, the action, and
gnubg's analysis (candidates, cube analysis). ``A wins N points`` ends the
game; a win that is not the end of play is a resignation (gnubg writes no
resignation of its own). ``Game statistics for game N`` and the rest are
gnubg's figures.

:func:`read_game` reads one file, :func:`assemble` makes one match of the
files of a match, ordered by their game numbers. Player 0 (the left column
of a match file) is the first player of the score line, gnubg's ``O``.

What gnubg's export itself gets wrong is read as what it is, with a notice
(an info) each (:mod:`gamao_cli.model` ``Notice``): the last dance of a game
written twice (the second is left out); a cube decision written as a double
with no answer before the other player wins (Backgammon Galaxy's ``Losses``
cell that gnubg's import turned into a double: read as the resignation it
stands for).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from gamao_cli import model as m
from gamao_cli.errors import ForeignLanguage, NotAMatchFile, SyntaxProblem
from gamao_cli.ids import decode_match_id, decode_position_id
from gamao_cli.ids.gnubg import MatchState

from ..limits import MAX_DIGITS, play_problem
from . import analysis as an
from .decisions import TextAnalysis
from .languages import ENGLISH_MOVE, language_of, move_heading_language

#: The longest line read (gnubg's longest are its analysis lines, under 200).
MAX_LINE = 10_000
#: The most lines in one game file (a long game at 4 plies has about 4,000).
MAX_LINES = 1_000_000
#: The highest score, match length and game number read (a Match ID holds 15 bits).
MAX_NUMBER = (1 << 15) - 1

_SCORE_RE = re.compile(
    r"The score \(after (\d+) games?\) is: (.*) (\d+), (.*) (\d+)"
    r"(?: \(match to (\d+) points?\))?(, Crawford game|, post-Crawford play)?\s*$")
_HEADING_RE = re.compile(r"Move number (\d+):\s+(.*?)\s*$")
_TO_PLAY_RE = re.compile(r"(.*) to play ([1-6])([1-6])$")
_CUBE_RE = re.compile(r"(.*) on roll, cube decision\?$")
_DOUBLES_TO_RE = re.compile(r"(.*) doubles to (\d+)$")
_POSITION_RE = re.compile(r"\s*GNU Backgammon\s+Position ID: (\S+)\s*$")
_MATCH_ID_RE = re.compile(r"\s*Match ID\s*: (\S+)\s*$")
_ACTION_RE = re.compile(r"\* (.*?) (moves (.*)|cannot move|doubles|accepts|rejects|beavers)\s*$")
#: a play as gnubg writes it: steps one space apart (13/7, 24/23*/22, bar/22, 6/off, 8/4(2))
_PLAY_RE = re.compile(r"(?:bar|\d{1,2})(?:/(?:\d{1,2}|off)\*?)+(?:\(\d\))?"
                      r"(?: (?:bar|\d{1,2})(?:/(?:\d{1,2}|off)\*?)+(?:\(\d\))?)*")
_WINS_RE = re.compile(r"(.*) wins (\d+) points?( and the match)?\s*$")
_STATS_RE = re.compile(r"Game statistics for game (\d+)\s*$")
#: a Match Information line: a name (no quote, bracket or backslash: a match
#: file's tag line could not hold it) and its value
_TAG_RE = re.compile(r'([^:"\]\\]+): ?(.*)$')

#: gnubg's Match Information keys, as match-file tag names.
_TAG_NAMES = {"Place": "Site"}


@dataclass
class GameFile:
    """One game file read: its game and what its score line says."""

    path: str
    number: int
    names: tuple[str, str]
    score: tuple[int, int]
    length: int
    crawford: bool
    tags: list[m.Tag]
    game: m.Game
    notices: list[m.Notice] = field(default_factory=list)
    statistics: dict | None = None   # gnubg's "Game statistics" block (an.statistics)


def _syntax(path: str, key: str, fields: dict, line: int, column: int = 1,
            text: str = "") -> SyntaxProblem:
    return SyntaxProblem(path, key=key, fields=fields, line=line, column=column,
                         text=text[:60])


def _number(digits: str, path: str, line: int, column: int, what: str) -> int:
    if len(digits) > 5 or int(digits) > MAX_NUMBER:
        raise _syntax(path, "GM001.gnubg-number", {"number": digits[:20], "limit": MAX_NUMBER},
                      line, column, digits)
    return int(digits)


class _Lines:
    def __init__(self, text: str, path: str):
        if text.startswith("\ufeff"):
            text = text[1:]
        if "\r" in text:   # lines end as a text editor ends them: CR LF, LF or CR
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.lines = text.split("\n")
        if len(self.lines) > MAX_LINES:
            raise _syntax(path, "GM001.gnubg-lines", {"count": len(self.lines),
                                                      "limit": MAX_LINES}, MAX_LINES + 1)
        self.path = path
        self.i = 0

    def __len__(self) -> int:
        return len(self.lines)

    def get(self, i: int) -> str:
        line = self.lines[i]
        if len(line) > MAX_LINE:
            raise _syntax(self.path, "GM001.gnubg-long-line", {"length": len(line),
                                                               "limit": MAX_LINE}, i + 1, 1,
                          line)
        return line


def read_game(text: str, path: str = "") -> GameFile:
    """The game of one gnubg text export file (raises only gamao's
    ``InputError`` family, located at a line and column)."""
    lines = _Lines(text, path)
    if not len(lines) or not lines.get(0).strip():
        raise NotAMatchFile(path, key="GM002.gnubg-text", fields={}, line=1, column=1)
    first = lines.get(0)
    lang = language_of(first)
    if lang is not None:
        raise ForeignLanguage(path, key="GM013", fields={"language": lang}, line=1, column=1,
                            text=first[:40])
    sm = _SCORE_RE.match(first)
    if sm is None:
        raise _syntax(path, "GM001.gnubg-score-line", {}, 1, 1, first)
    before = _number(sm.group(1), path, 1, sm.start(1) + 1, "game count")
    names = (sm.group(2), sm.group(4))
    score = (_number(sm.group(3), path, 1, sm.start(3) + 1, "score"),
             _number(sm.group(5), path, 1, sm.start(5) + 1, "score"))
    length = _number(sm.group(6), path, 1, sm.start(6) + 1, "match length") \
        if sm.group(6) else 0
    if names[0] == names[1]:
        raise _syntax(path, "GM001.gnubg-same-names", {"name": names[0]}, 1, 1, first)
    number = before + 1
    game = m.Game(number, m.ScoreLine(names, score, line=1, column=1), line=1, column=1,
                  path=path)
    gf = GameFile(path, number, names, score, length, sm.group(7) == ", Crawford game", [], game)
    i = 1
    n = len(lines)
    # Match Information: the tags, to the first blank line after them
    while i < n and not lines.get(i).strip():
        i += 1
    if i < n and lines.get(i).strip() == "Match Information:":
        i += 1
        while i < n and lines.get(i).strip():
            line = lines.get(i)
            tm = _TAG_RE.match(line)
            if tm is None:
                raise _syntax(path, "GM001.gnubg-tag", {}, i + 1, 1, line)
            key = tm.group(1).strip()
            gf.tags.append(m.Tag(_TAG_NAMES.get(key, key), tm.group(2).strip(), line=i + 1))
            i += 1
    _Game(gf, lines, i).run()
    return gf


class _Game:
    """The move blocks of one file."""

    def __init__(self, gf: GameFile, lines: _Lines, i: int):
        self.gf = gf
        self.lines = lines
        self.i = i
        self.path = gf.path
        self.names = gf.names
        self.actions = gf.game.actions
        self.last_roll: tuple | None = None   # (player, dice, heading, kind) of the last roll

    def player(self, name: str, line: int, column: int, text: str) -> int:
        if name == self.names[0]:
            return 0
        if name == self.names[1]:
            return 1
        raise _syntax(self.path, "GM001.gnubg-player", {"name": name, "first": self.names[0],
                                                        "second": self.names[1]},
                      line, column, text)

    def run(self) -> None:
        lines, n = self.lines, len(self.lines)
        i = self.i
        while i < n:
            line = lines.get(i)
            if not line.strip():
                i += 1
                continue
            if line.startswith(ENGLISH_MOVE):
                i = self.block(i)
                continue
            sm = _STATS_RE.match(line)
            if sm is not None:
                self.gf.statistics = an.statistics(lines, i, self.path)
                return
            wm = _WINS_RE.match(line)
            if wm is not None and wm.group(1) in self.names:
                i = self.win(i, wm)
                continue
            lang = move_heading_language(line)
            if lang is not None:
                raise ForeignLanguage(self.path, key="GM013", fields={"language": lang},
                                    line=i + 1, column=1, text=line[:40])
            raise _syntax(self.path, "GM001.gnubg-line", {}, i + 1, 1, line)

    def win(self, i: int, wm: re.Match) -> int:
        line = self.lines.get(i)
        winner = self.player(wm.group(1), i + 1, 1, line)
        points = _number(wm.group(2), self.path, i + 1, wm.start(2) + 1, "points")
        if any(isinstance(a, m.Win) for a in self.actions):
            raise _syntax(self.path, "GM001.gnubg-second-win", {}, i + 1, 1, line)
        self.unanswered_double(winner, i)
        self.actions.append(m.Win(winner, points, bool(wm.group(3)), line=i + 1, column=1,
                                  move_number=self.move_number()))
        return i + 1

    def move_number(self) -> int | None:
        for a in reversed(self.actions):
            if a.move_number is not None:
                return a.move_number
        return None

    def unanswered_double(self, winner: int, i: int) -> None:
        """A double with no answer right before the doubler's opponent wins:
        gnubg's import of Backgammon Galaxy's ``Losses`` cell (the loser's
        note of the points lost), written as a double. Read as what it
        stands for: the doubler resigned, the other player wins; when the
        doubler wins, the answer left out was a drop."""
        if not self.actions or not isinstance(self.actions[-1], m.Double):
            return
        d = self.actions[-1]
        if d.player == winner:   # the answer left out: the doubler won, so it was a drop
            self.actions.append(m.Drop(1 - winner, line=d.line, column=d.column,
                                       move_number=d.move_number))
            key = "GM115.drop"
        else:
            self.actions.pop()
            self.actions.append(m.Resign(d.player, line=d.line, column=d.column,
                                         move_number=d.move_number))
            key = "GM115"
        self.gf.notices.append(m.Notice(
            "GM115", key, {"player": self.names[d.player], "winner": self.names[winner],
                           "other": self.names[1 - d.player]},
            line=d.line, column=d.column, game=self.gf.number, path=self.path))

    def block(self, i: int) -> int:
        """One ``Move number`` block from line ``i``; returns the line after it."""
        lines, n, path = self.lines, len(self.lines), self.path
        heading = lines.get(i)
        hm = _HEADING_RE.match(heading)
        if hm is None:
            raise _syntax(path, "GM001.gnubg-heading", {}, i + 1, 1, heading)
        move = _number(hm.group(1), path, i + 1, hm.start(1) + 1, "move number")
        what = hm.group(2)
        col = hm.start(2) + 1
        kind: str
        if (tm := _TO_PLAY_RE.match(what)) is not None:
            kind, who, dice = "roll", tm.group(1), (int(tm.group(2)), int(tm.group(3)))
        elif (cm := _CUBE_RE.match(what)) is not None:
            kind, who, dice = "cube", cm.group(1), None
        elif (dm := _DOUBLES_TO_RE.match(what)) is not None:
            kind, who, dice = "answer", dm.group(1), None
            value = _number(dm.group(2), path, i + 1, hm.start(2) + dm.start(2) + 1,
                            "cube value")
            last = self.actions[-1] if self.actions else None
            if isinstance(last, m.Double) and last.value is None:
                last.value = value   # the double's value is said by its answer's heading
        else:
            raise _syntax(path, "GM001.gnubg-heading", {}, i + 1, col, heading)
        player = self.player(who, i + 1, col, heading)
        head_line = i + 1
        i += 1
        pid = mid = None
        stated = None
        # the IDs, the board and the action line
        action_at = None
        while i < n:
            line = lines.get(i)
            if line.startswith(ENGLISH_MOVE) or _STATS_RE.match(line):
                break
            if pid is None and (pm := _POSITION_RE.match(line)) is not None:
                pid = (pm.group(1), i + 1, pm.start(1) + 1)
            elif mid is None and (mm := _MATCH_ID_RE.match(line)) is not None:
                mid = (mm.group(1), i + 1, mm.start(1) + 1)
            elif line.startswith("* "):
                action_at = i
                break
            elif (wm := _WINS_RE.match(line)) is not None and wm.group(1) in self.names:
                break
            i += 1
        if pid is not None and mid is not None:
            stated = self.stated(pid, mid, player if kind != "answer" else 1 - player)
        if action_at is None:
            raise _syntax(path, "GM001.gnubg-no-action", {"move": move}, head_line, 1, heading)
        line = lines.get(action_at)
        am = _ACTION_RE.match(line)
        if am is None:
            raise _syntax(path, "GM001.gnubg-action", {}, action_at + 1, 1, line)
        actor = self.player(am.group(1), action_at + 1, 3, line)
        verb = am.group(2)
        where = dict(line=action_at + 1, column=1, move_number=move)
        expected = {"roll": ("moves", "cannot move"), "cube": ("doubles",),
                    "answer": ("accepts", "rejects", "beavers")}[kind]
        word = "moves" if verb.startswith("moves ") else verb
        want_actor = player if kind != "answer" else 1 - player
        if word not in expected or actor != want_actor:
            raise _syntax(path, "GM001.gnubg-action-kind",
                          {"action": line.strip(), "heading": heading.strip()},
                          action_at + 1, 1, line)
        action: m.ActionType
        if word == "moves":
            text = am.group(3)
            at = am.start(3)
            problem = play_problem(text, path, action_at + 1, at + 1)
            if problem is not None:
                raise problem
            if _PLAY_RE.fullmatch(text) is None:
                raise _syntax(path, "GM001.gnubg-play", {"play": text}, action_at + 1, at + 1,
                              text)
            try:
                steps = m.parse_steps(text, action_at + 1, at + 1)
            except ValueError:
                raise _syntax(path, "GM001.gnubg-play", {"play": text}, action_at + 1, at + 1,
                              text) from None
            if not steps:
                raise _syntax(path, "GM001.gnubg-play", {"play": text}, action_at + 1, at + 1,
                              text)
            action = m.Play(actor, dice, steps, **where)
        elif word == "cannot move":
            if self.repeated_dance(actor, dice, move):
                self.gf.notices.append(m.Notice(
                    "GM114", "GM114", {"player": self.names[actor], "dice": f"{dice[0]}{dice[1]}"},
                    line=head_line, column=1, game=self.gf.number, path=path))
                return self.skip(action_at + 1)
            action = m.Dance(actor, dice, "", **where)
        elif word == "doubles":
            action = m.Double(actor, None, **where)
        elif word == "accepts":
            action = m.Take(actor, **where)
        elif word == "beavers":
            action = m.Double(actor, None, "beaver", **where)
        else:
            action = m.Drop(actor, **where)
        action.stated = stated
        self.actions.append(action)
        i = action_at + 1
        end = self.skip(i)
        parsed = an.block_analysis(lines, i, end, kind)
        if parsed:
            what = {"accepts": "take", "rejects": "drop", "doubles": "double"}.get(word, "roll")
            if word == "beavers":
                what = "beaver"
            action.analysis = TextAnalysis(parsed, what, actor, dice)
        if kind == "roll":
            self.last_roll = (actor, dice, word, move)
        return end

    def repeated_dance(self, player: int, dice: tuple, move: int) -> bool:
        """Whether this dance repeats the game's last action, the same
        player's dance with the same dice (gnubg's export writes the last
        dance of a game twice)."""
        if not self.actions or self.last_roll is None:
            return False
        last = self.actions[-1]
        return (isinstance(last, m.Dance) and last.player == player and last.dice == dice)

    def skip(self, i: int) -> int:
        """The line of the next block (a heading, a win, the statistics)."""
        lines, n = self.lines, len(self.lines)
        while i < n:
            line = lines.get(i)
            if line.startswith(ENGLISH_MOVE) or _STATS_RE.match(line):
                return i
            wm = _WINS_RE.match(line)
            if wm is not None and wm.group(1) in self.names:
                return i
            i += 1
        return i

    def stated(self, pid: tuple, mid: tuple, actor: int):
        """(me, opp, state) seen by ``actor`` from the stated IDs."""
        try:
            on_roll_side, other = decode_position_id(pid[0])
        except ValueError as exc:
            raise _syntax(self.path, "GM001.gnubg-id", {"what": "Position ID", "id": pid[0],
                                                        "reason": str(exc)},
                          pid[1], pid[2], pid[0]) from None
        try:
            state: MatchState = decode_match_id(mid[0])
        except ValueError as exc:
            raise _syntax(self.path, "GM001.gnubg-id", {"what": "Match ID", "id": mid[0],
                                                        "reason": str(exc)},
                          mid[1], mid[2], mid[0]) from None
        # the Position ID is seen by the player on roll (the Match ID's),
        # the doubler while a double awaits its answer
        if state.on_roll == actor:
            return (on_roll_side, other, state)
        return (other, on_roll_side, state)


# -- a match of game files ------------------------------------------------------

def assemble(files: list[GameFile], path: str = "") -> m.Match:
    """One match of the game files of a match (in any order): ordered by
    their game numbers, with a notice for a game missing between them
    (GM414) and for two files that claim the same game (GM415, the second
    is left out). The tags are the first file's."""
    if not files:
        raise NotAMatchFile(path, key="GM002.gnubg-text", fields={}, line=1, column=1)
    ordered = sorted(files, key=lambda f: (f.number, f.path))
    first = ordered[0]
    match = m.Match(first.length, tags=list(first.tags), path=path or first.path,
                    line=1, column=1)
    seen: dict[int, GameFile] = {}
    for f in ordered:
        if f.names != first.names and f.names != first.names[::-1]:
            match.notices.append(m.Notice("GM416", "GM416", {
                "file": f.path, "names": " / ".join(f.names),
                "first": " / ".join(first.names)}, line=1, column=1, game=f.number, path=f.path))
        if f.length != first.length:
            raise _syntax(f.path, "GM001.gnubg-length", {"length": f.length,
                                                         "first": first.length}, 1, 1)
        if f.number in seen:
            match.notices.append(m.Notice("GM415", "GM415", {
                "game": f.number, "file": f.path, "other": seen[f.number].path},
                line=1, column=1, game=f.number, path=f.path))
            continue
        if seen and f.number != max(seen) + 1:
            match.notices.append(m.Notice("GM414", "GM414", {
                "game": max(seen) + 1, "next": f.number, "file": f.path},
                line=1, column=1, game=f.number, path=f.path))
        seen[f.number] = f
        match.games.append(f.game)
        match.notices.extend(f.notices)
    return match
