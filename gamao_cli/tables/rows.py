"""The rows of one match in the four tables (:mod:`.schema`): one row in
``matches``, one per game in ``games``, one per action in ``actions``, one
per analysed decision in ``decisions``.

Everything comes from the match as read and its replay
(:func:`gamao_cli.replay.replay.validate_match` with ``keep_records``):
results, cube, score, the position before every action and its IDs
(:func:`gamao_cli.replay.snapshots.game_state_ids`, :mod:`gamao_cli.ids.board`),
and the validator's diagnostics, each attached to the action it is about
(else to its game, else to the match). Player 0 is the left player everywhere.

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = (" 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
...         "  1) 31: 8/5 6/5                 61: 13/7 8/6\\n")
>>> rows = match_rows(read_matches(text, "ex.mat")[0], path="ex.mat", index=0, fmt="mat")
>>> a = rows.actions[1]
>>> a["kind"], a["die1"], a["die2"], a["play"], a["legal"], a["codes"]
('roll', 6, 1, None, False, 'GM202')
>>> rows.actions[0]["play"], rows.actions[0]["position_id"], rows.actions[0]["pips0"]
('8/5 6/5', '4HPwATDgc/ABMA', 167)
>>> rows.games[0]["ended"], rows.match["errors"], len(rows.match["match_id"])
('unfinished', 1, 16)
"""
from __future__ import annotations

from collections.abc import Mapping

import datetime as _dt
import hashlib
import math
import re
from dataclasses import dataclass, field
from typing import Any

from gamao_cli import kernels
from gamao_cli import model as m
from gamao_cli.analysis.decisions import CheckerDecision, decisions_of
from gamao_cli.analysis.figures import match_figures
from gamao_cli.archive.fingerprint import fingerprint
from gamao_cli.errors import GamaoError
from gamao_cli.formats.base import LazyAnalysis
from gamao_cli.ids.board import _KERNEL as _IDS_KERNEL
from gamao_cli.ids.board import board_facts, board_facts_reference
from gamao_cli.model.notation import BoundedCache, format_steps
from gamao_cli.replay.diagnostics import Diagnostic
from gamao_cli.replay.record_rules import Rules
from gamao_cli.replay.replay import ActionRecord, MatchReport, Replays
from gamao_cli.replay.snapshots import game_state_ids
from gamao_cli.rules import Position

from .schema import ANALYSIS, TABLES

Row = dict[str, Any]

#: the two texts of a play's die steps: as written in ``actions.play`` (in
#: the order played) and in :func:`canonical_text` (in the fixed order,
#: higher first): the same plays recur across an archive, so each pair is
#: formatted once, and found with one look-up (a tuple's hash is not kept:
#: each look-up hashes every step again)
_STEP_TEXTS: BoundedCache[tuple, tuple[str, str]] = BoundedCache(32768)


def _step_texts(steps: tuple) -> tuple[str, str]:
    """``(play, canonical)``: the texts of ``steps`` in ``actions.play``
    and in :func:`canonical_text`.

    >>> _step_texts(((6, 5, False), (24, 18, False)))
    ('6/5 24/18', '24/18 6/5')
    >>> _step_texts(((25, 22, True), (6, 0, False)))
    ('bar/22* 6/off', 'bar/22* 6/off')
    """
    texts = _STEP_TEXTS.data.get(steps)
    if texts is None:
        try:   # a step at a time, from the table of every step's text
            texts = (" ".join([_STEP_TEXT[s] for s in steps]),
                     " ".join([_STEP_TEXT[s] for s in sorted(steps, reverse=True)]))
        except (KeyError, TypeError):   # a point no board has (format_steps writes it)
            texts = (format_steps(steps, group=False),
                     format_steps(sorted(steps, reverse=True), group=False))
        _STEP_TEXTS.put(steps, texts)
    return texts


#: every die step's text as :func:`format_steps` writes it (a play's text
#: is theirs joined: the plays of an archive are many, a sixth of them new)
_STEP_TEXT = {(src, dst, hit): format_steps([(src, dst, hit)], group=False)
              for src in range(26) for dst in range(26) for hit in (False, True)}


_ROLL_TYPES = (m.Play, m.Dance, m.UnplayedRoll, m.IllegalPlayMarker)
_ROLL_CLASSES = frozenset(_ROLL_TYPES)
_KINDS = {m.Play: "roll", m.Dance: "roll", m.UnplayedRoll: "roll", m.IllegalPlayMarker: "roll",
          m.Take: "take", m.Drop: "drop", m.Resign: "resign", m.Win: "win", m.Loss: "loss",
          m.SetUp: "setup"}


#: the ``actions`` columns that change from action to action, in the order
#: of :attr:`ActionTable.cols` (the others are the match's or the game's, or
#: the analysis columns)
ACTION_CELLS = ("seq", "move_number", "player", "kind", "die1", "die2", "play", "play_written",
                "points", "cube_value", "cube_owner", "position_id", "match_id_gnubg", "xgid",
                "pips0", "pips1", "legal", "codes")


class ActionTable:
    """The ``actions`` rows of one match, kept by what varies: the match's
    values once (``match_id``, ``path``, ``index_in_file``), each game's
    once (``spans``: how many rows, the game's number, its score before),
    a list a column of the :data:`ACTION_CELLS` (``cols``, a value an
    action in each), and the analysis columns of the few actions that carry
    analysis (``analysis``: by row number). The Parquet writer takes the
    columns whole (:meth:`columns`); :meth:`rows` makes the rows as dicts.

    A row as a dict costs more than the row's work (a 31-key dict display,
    then pyarrow reading it back key by key): on the bulk corpus the dicts
    and their conversion were 0.7 s of an export's 3.6 s. Kept by column,
    the rows of a batch are a list joined to another a column, not the
    rows' tuples turned into columns (0.19 s of the bulk's export)."""

    __slots__ = ("match_id", "path", "index", "spans", "cols", "analysis")

    def __init__(self, path: str, index: int):
        self.match_id: str | None = None
        self.path = path
        self.index = index
        self.spans: list[tuple[int, int, int, int]] = []
        self.cols: tuple[list, ...] = tuple([] for _name in ACTION_CELLS)
        self.analysis: dict[int, Row] = {}

    def __len__(self) -> int:
        return len(self.cols[0])

    def add_cells(self, cells: list[tuple]) -> None:
        """Add rows given as tuples of the :data:`ACTION_CELLS`."""
        if cells:
            for col, values in zip(self.cols, zip(*cells)):
                col.extend(values)

    def rows(self) -> list[Row]:
        """The rows as dicts, the table's columns in order (one dict display
        a row: CSV and JSON lines write them)."""
        out = []
        append = out.append
        mid, path, index, analysis = self.match_id, self.path, self.index, self.analysis
        cells = list(zip(*self.cols))
        k = 0
        for n, game, s0, s1 in self.spans:
            for (seq, move, player, kind, die1, die2, play, written, points, cube, owner, pid,
                 mid_g, xg, pips0, pips1, legal, codes) in cells[k:k + n]:
                row = {"match_id": mid, "path": path, "index_in_file": index, "game": game,
                       "seq": seq, "move_number": move, "player": player, "kind": kind,
                       "die1": die1, "die2": die2, "play": play, "play_written": written,
                       "points": points, "cube_value": cube, "cube_owner": owner,
                       "score0": s0, "score1": s1, "position_id": pid,
                       "match_id_gnubg": mid_g, "xgid": xg, "pips0": pips0, "pips1": pips1,
                       "legal": legal, "codes": codes, "equity": None, "best_equity": None,
                       "equity_loss": None, "luck": None, "win_probability": None,
                       "gammon_probability": None, "analysis_depth": None}
                if k in analysis:
                    row.update(analysis[k])
                append(row)
                k += 1
        return out

    @staticmethod
    def columns(tables: list["ActionTable"]) -> dict[str, list | tuple]:
        """The rows of ``tables``, one after the other, as one list (or
        tuple) a column."""
        cols: dict[str, list | tuple] = {}
        total = sum(len(t) for t in tables)
        match_ids: list = []
        paths: list = []
        indexes: list = []
        games: list = []
        score0: list = []
        score1: list = []
        for t in tables:
            n = len(t)
            match_ids += [t.match_id] * n
            paths += [t.path] * n
            indexes += [t.index] * n
            for k, game, s0, s1 in t.spans:
                games += [game] * k
                score0 += [s0] * k
                score1 += [s1] * k
        cols.update(match_id=match_ids, path=paths, index_in_file=indexes, game=games,
                    score0=score0, score1=score1)
        for k, name in enumerate(ACTION_CELLS):
            column: list = []
            for t in tables:
                column += t.cols[k]
            cols[name] = column
        for name in _ANALYSIS_NAMES:
            cols[name] = [None] * total
        offset = 0
        for t in tables:
            for i, values in t.analysis.items():
                for name in _ANALYSIS_NAMES:
                    cols[name][offset + i] = values[name]
            offset += len(t)
        return {name: cols[name] for name in _ACTION_COLUMNS}


@dataclass
class MatchRows:
    match: Row
    games: list[Row] = field(default_factory=list)
    action_table: ActionTable = field(default_factory=lambda: ActionTable("", 0))
    decisions: list[Row] = field(default_factory=list)
    _actions: list[Row] | None = None

    @property
    def actions(self) -> list[Row]:
        """The ``actions`` rows as dicts (made once, when asked)."""
        if self._actions is None:
            self._actions = self.action_table.rows()
        return self._actions


def canonical_text(match: m.Match, report: MatchReport) -> str:
    """What :func:`match_id` hashes: the match as played, one line an
    action, in a form no format or producer changes: the length, the
    players, and for every game its number and the score before it (as the
    replay counts it), then every action: who, what, the dice higher first
    and a play as its die steps (from the replay) in a fixed order.

    >>> from gamao_cli.formats.mat.reader import read_matches
    >>> from gamao_cli.replay.replay import validate_match
    >>> text = " 3 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n  1) 31: 8/5 6/5    24: 13/11 13/9\\n"
    >>> [match] = read_matches(text)
    >>> print(canonical_text(match, validate_match(match, keep_records=True)), end="")
    gamao match 1
    length 3
    players Ann | Bob
    game 1 0-0
    0 roll 31 8/5 6/5
    1 roll 42 13/11 13/9
    """
    steps_of = {id(r.action): r.steps for g in report.games for r in g.records
                if r.steps is not None}
    players = match.players
    lines = ["gamao match 1", f"length {match.length}", f"players {players[0]} | {players[1]}"]
    for game, result in zip(match.games, report.games):
        lines.append(f"game {game.number} {result.score_before[0]}-{result.score_before[1]}")
        for a in game.actions:
            cls = type(a)
            if cls is m.Loss:  # a note beside the result, which some producers write
                continue
            if cls in _ROLL_CLASSES:
                cell = f"roll {max(a.dice)}{min(a.dice)}"
                if cls is m.Play:
                    steps = steps_of.get(id(a))
                    cell += " " + (_step_texts(tuple(steps))[1] if steps else a.play_text())
                elif cls is not m.Dance:
                    cell += " " + a.written
            elif cls is m.Double:
                cell = a.kind
            elif cls is m.Win:
                cell = f"win {a.points}"
            elif cls is m.SetUp:
                cell = "setup " + _set_up_text(a)
            else:
                cell = _KINDS[cls]
            lines.append(f"{a.player} {cell}")
    return "\n".join(lines) + "\n"


def _set_up_text(a: m.SetUp) -> str:
    """A set-up position in :func:`canonical_text`: the board by player
    (each side's 26 counts), the cube value and owner it sets (``=``: as
    it was)."""
    board = "=" if a.sides is None else \
        " / ".join(",".join(map(str, side)) for side in a.sides)
    cube = "=" if a.cube is None else str(a.cube)
    owner = "=" if a.cube_owner is None else \
        ("centred" if a.cube_owner == m.CENTRED else str(a.cube_owner))
    return f"{board} cube {cube} owner {owner}"


def match_id(match: m.Match, report: MatchReport | None = None) -> str:
    """The stable id of a match: the first 16 hex digits of the SHA-256 of
    :func:`canonical_text`. Where the match was read from is not in it, nor
    are tags and comments (event, date, the rule settings a producer states
    or leaves out), nor how the record spells a play, so the same match read
    from a ``.mat`` file, from its SGF or JSON conversion, or from another
    program's export of it has one id.

    >>> from gamao_cli.formats.mat.reader import read_matches
    >>> text = " 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n  1) 31: 8/5 6/5\\n"
    >>> tagged = '; [Event "Club night"]\\n\\n' + text.replace("31: 8/5 6/5", "13: 6/5 8/5")
    >>> match_id(read_matches(text, "a.mat")[0]) == match_id(read_matches(tagged, "b.txt")[0])
    True
    """
    if report is None or not any(g.records for g in report.games):
        report = Replays().of(match)
    return _hashed(canonical_text(match, report))


def _hashed(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


_DATE = re.compile(r"\s*(\d{4})[./-](\d{1,2})[./-](\d{1,2})\s*$")


def parse_date(text: str | None) -> _dt.date | None:
    """``2023.01.04``, ``2023-01-04`` or ``2023/1/4`` as a date; else None.

    >>> parse_date("2026.11.30"), parse_date("30 Nov"), parse_date("2023.02.30")
    (datetime.date(2026, 11, 30), None, None)
    """
    if not text:
        return None
    mt = _DATE.match(text)
    if not mt:
        return None
    try:
        return _dt.date(int(mt.group(1)), int(mt.group(2)), int(mt.group(3)))
    except ValueError:
        return None


def _codes(diags: list[Diagnostic]) -> str | None:
    return " ".join(d.code for d in diags) if diags else None


class _Attribution:
    """Which action (or game) each diagnostic is about: the action on the
    diagnostic's line of the same game whose cell starts at or before its
    column; without a line, the action of its move number (and dice); else
    the game; a diagnostic of no game is about the match."""

    def __init__(self, match: m.Match, report: MatchReport):
        self.on_action: dict[int, list[Diagnostic]] = {}
        self.on_game: dict[int, list[Diagnostic]] = {}
        self.on_match: list[Diagnostic] = []
        self.by_game_number: dict[int, list[Diagnostic]] = {}
        games = {}
        for gi, g in enumerate(match.games):
            games.setdefault(g.number, gi)
        for d in report.diagnostics:
            if d.game is None or d.game not in games:
                self.on_match.append(d)
                continue
            self.by_game_number.setdefault(d.game, []).append(d)
            game = match.games[games[d.game]]
            target = self._action_of(game, d)
            if target is None:
                self.on_game.setdefault(games[d.game], []).append(d)
            else:
                self.on_action.setdefault(id(target), []).append(d)

    @staticmethod
    def _action_of(game: m.Game, d: Diagnostic) -> m.ActionType | None:
        if d.line:
            best = None
            first = None
            for a in game.actions:
                if a.line != d.line:
                    continue
                if first is None:
                    first = a
                if d.column is None or a.column <= d.column:
                    if best is None or a.column >= best.column:
                        best = a
            return best or first
        if d.move is not None:
            found = [a for a in game.actions if a.move_number == d.move]
            if d.dice:
                with_dice = [a for a in found if isinstance(a, _ROLL_TYPES)
                             and f"{a.dice[0]}{a.dice[1]}" == d.dice]
                found = with_dice or found
            return found[0] if found else None
        return None


def _analysis(action: m.ActionType) -> dict[str, Any]:
    """The analysis columns from what the record carries (an action's
    ``analysis``: a mapping, or an object with attributes of the columns'
    names); null when it carries none. Nothing is computed here."""
    source = getattr(action, "analysis", None)
    if isinstance(source, LazyAnalysis):   # a reader's: the figures, not the whole mapping
        source = source.figures(_ANALYSIS_NAMES)
    out: dict[str, Any] = {}
    for col in ANALYSIS:
        value = None
        if source is not None:
            value = source.get(col.name) if isinstance(source, Mapping) else \
                getattr(source, col.name, None)
        if value is not None:
            value = str(value) if col.type == "string" else float(value)
        out[col.name] = value
    return out


#: the analysis columns of an action without analysis (the names
#: :func:`match_rows` writes in its row display)
_NO_ANALYSIS = {c.name: None for c in ANALYSIS}
_ANALYSIS_NAMES = tuple(_NO_ANALYSIS)
_ACTION_COLUMNS = tuple(c.name for c in TABLES["actions"])


def _bound_cells_kernel():
    """The C loop of :func:`_game_cells` (``_action_cells.c``), bound to the
    model's classes, or None: not built, ``GAMAO_PURE_PYTHON`` set, or no
    board kernel to give it the boards' IDs (then the Python loop does it
    all)."""
    kernel = kernels.kernel("gamao_cli.tables._action_cells")
    if kernel is None or _IDS_KERNEL is None:
        return None
    try:
        kernel.bind(m.Play, m.Dance, m.Double, m.Take, m.Drop, m.Win, m.Loss, m.PlayText,
                    ActionRecord, Position)
    except (TypeError, AttributeError):
        return None
    return kernel


# (the tests set it to None to compare the kernel with the Python loop)
_CELLS = _bound_cells_kernel()
#: the board kernel's board_facts, which answers None where the reference
#: (board_facts_reference) must say
_FACTS = _IDS_KERNEL.board_facts if _IDS_KERNEL is not None else None


def _final_owner(game: m.Game, result) -> int | None:
    """Who owns the cube when the game ends: as before its last recorded
    action, unless that action was the take that turned the cube."""
    records = result.records
    if not records:
        return None
    last = records[-1]
    if isinstance(last.action, m.Take) and result.cube != last.cube:
        offer = None
        for a in game.actions:
            if a is last.action:
                break
            if isinstance(a, m.Double):
                offer = a
        if offer is not None and offer.kind != "double":
            return offer.player
        return last.action.player
    return last.cube_owner


def match_rows(match: m.Match, *, path: str, index: int, fmt: str,
               replays: Replays | None = None) -> MatchRows:
    """The rows of ``match`` (read from ``path``, its ``index``-th match,
    in format ``fmt``) in the three tables. (A file name that is no UTF-8
    is written with its lone surrogates escaped, as every output has it.)"""
    from gamao_cli.formats.textio import escape_surrogates
    path = escape_surrogates(path)
    replays = replays or Replays()
    report = replays.of(match)
    placed = game_state_ids(match, report)
    where = _Attribution(match, report)
    try:
        rules: Rules | None = Rules.from_match(match)
    except GamaoError:
        rules = None
    players = match.players
    table = ActionTable(path, index)
    rows = MatchRows(match={}, action_table=table)
    analysed: list[tuple[m.Game, int, m.ActionType, int]] = []
    on_action = where.on_action
    # canonical_text's lines, made beside the rows from what they hold
    # (tests/test_tables.py checks that the id is match_id's)
    canonical = ["gamao match 1", f"length {match.length}", f"players {players[0]} | {players[1]}"]
    line = canonical.append
    for gi, (game, result) in enumerate(zip(match.games, report.games)):
        s0, s1 = result.score_before
        number = game.number
        line(f"game {number} {s0}-{s1}")
        game_placed = placed[gi] if gi < len(placed) else []
        rolls = None
        if _CELLS is not None:   # _game_cells in C, for the usual game (else None)
            rolls = _CELLS.game_cells(game.actions, result.records, game_placed, on_action,
                                      table.cols, canonical, _STEP_TEXTS.data, _step_texts, _FACTS,
                                      board_facts_reference)
        if rolls is None:
            rolls = _game_cells(game, result, game_placed, on_action, table, canonical, analysed)
        table.spans.append((len(game.actions), number, s0, s1))
        in_game = where.by_game_number.get(game.number, []) if gi == _first_index(match, game) else []
        rows.games.append({
            "match_id": None, "path": path, "index_in_file": index, "game": game.number, "score0": s0, "score1": s1,
            "crawford": result.crawford, "winner": result.winner, "points": result.points,
            "stated_points": result.stated_points, "ended": result.ended or "unfinished",
            "cube": result.cube, "cube_owner": _final_owner(game, result), "moves": result.moves,
            "rolls": rolls,
            "errors": sum(d.severity == "error" for d in in_game),
            "warnings": sum(d.severity == "warning" for d in in_game),
            "codes": _codes(where.on_game.get(gi, [])),
        })
    mid = _hashed("\n".join(canonical) + "\n")
    table.match_id = mid
    for row in rows.games:
        row["match_id"] = mid
    if analysed:
        actions = rows.actions
        rows.decisions = decision_rows(match, [(g, seq, a, actions[i]) for g, seq, a, i in analysed])
    rows.match = {
        "match_id": mid, "path": path, "index_in_file": index, "format": fmt,
        "player0": players[0], "player1": players[1], "length": match.length,
        "crawford": rules.crawford if rules else None,
        "jacoby": rules.jacoby if rules else None,
        "beaver": rules.beaver if rules else None,
        "variant": rules.variant if rules else match.tag("Variation"),
        "event": match.tag("Event"), "site": match.tag("Site"),
        "date": parse_date(match.tag("EventDate")),
        "score0": report.final_score[0], "score1": report.final_score[1],
        "winner": report.winner, "games": len(match.games), "actions": len(table),
        "errors": report.errors, "warnings": report.warnings,
        "infos": sum(d.severity == "info" for d in report.diagnostics),
        "codes": _codes(where.on_match),
        "fingerprint": fingerprint(match),
    }
    return rows


def _game_cells(game: m.Game, result, placed: list, on_action: dict[int, list[Diagnostic]],
                table: ActionTable, canonical: list[str],
                analysed: list[tuple[m.Game, int, m.ActionType, int]]) -> int:
    """The ``actions`` cells of one game (appended to ``table``), the lines
    of :func:`canonical_text` of its actions (to ``canonical``) and its
    analysed actions (to ``analysed``); its rolls. ``placed``: the game's
    records with their state's IDs (:func:`game_state_ids`). The C kernel
    ``_action_cells.c`` does the same for the usual game."""
    records = {id(r.action): r for r in result.records}
    ids_of = {id(r.action): ids for r, ids in placed}
    base = len(table)   # (the game's first row)
    cells: list[tuple] = []
    cell = cells.append
    line = canonical.append
    step_texts = _STEP_TEXTS.data.get
    facts = board_facts
    rolls = 0
    for seq, a in enumerate(game.actions, 1):
        cls = type(a)
        kind = a.kind if cls is m.Double else _KINDS[cls]
        rec = records.get(id(a))
        diags = on_action.get(id(a))
        die1 = die2 = play = written = points = None
        if kind == "roll":
            rolls += 1
            d1, d2 = a.dice
            die1, die2 = (d1, d2) if d1 >= d2 else (d2, d1)
            if cls is m.Play:
                written = a.play_text()
                steps = rec.steps if rec is not None else None
                if steps is not None:
                    texts = step_texts(steps) if type(steps) is tuple else None
                    play, fixed = texts or _step_texts(tuple(steps))
                    if not steps:
                        fixed = written
                else:
                    fixed = written
                line(f"{a.player} roll {die1}{die2} {fixed}")
            else:
                written = a.written
                if cls is m.Dance:
                    if rec is not None and rec.position is not None:
                        play = ""
                    line(f"{a.player} roll {die1}{die2}")
                else:
                    line(f"{a.player} roll {die1}{die2} {written}")
        else:
            if cls is m.Win or cls is m.Loss:
                points = a.points
            elif cls is m.Double and a.value is not None or cls is m.SetUp:
                written = a.text()
            if cls is not m.Loss:   # (a note beside the result: not in the text)
                line(f"{a.player} " + (
                    a.kind if cls is m.Double else f"win {a.points}" if cls is m.Win
                    else "setup " + _set_up_text(a) if cls is m.SetUp else kind))
        pid = mid_g = xg = pips0 = pips1 = None
        if rec is not None:
            cube_value, cube_owner = rec.cube, rec.cube_owner
            pos = rec.position
            if pos is not None and rec.turn is not None:
                turn = rec.turn
                ids = ids_of.get(id(a))
                pid, field, mine, theirs = facts(pos.me, pos.opp, turn == 1)
                if ids is not None and pid is not None:
                    mid_g, tail = ids[0]
                    xg = "XGID=" + field + tail
                else:   # no state, or a position no ID holds (replayed as written)
                    pid = None
                pips0, pips1 = (mine, theirs) if turn == 0 else (theirs, mine)
                checked = True
            else:
                checked = cls in (m.Win, m.Loss, m.Resign)
        else:
            cube_value = cube_owner = None
            checked = False
        if diags and any(d.severity == "error" for d in diags):
            legal = False
        else:
            legal = True if checked else None
        cell((seq, a.move_number, a.player, kind, die1, die2, play, written, points,
              cube_value, cube_owner, pid, mid_g, xg, pips0, pips1, legal,
              _codes(diags) if diags else None))
        if getattr(a, "analysis", None) is not None:
            table.analysis[base + len(cells) - 1] = _analysis(a)
            analysed.append((game, seq, a, base + len(cells) - 1))
    table.add_cells(cells)
    return rolls


def _finite(x: float | None) -> float | None:
    """A figure as the tables hold it: NaN and infinities (a damaged
    analysis) are null."""
    return x if x is None or math.isfinite(x) else None


def _candidates(checker: CheckerDecision) -> list[Row]:
    out = []
    for c in checker.candidates:
        p = c.probabilities
        chances = (None,) * 5 if p is None else (p.win, p.win_gammon, p.win_backgammon,
                                                p.lose_gammon, p.lose_backgammon)
        out.append({"play": c.play, "equity": _finite(c.equity),
                    **{name: _finite(v) for name, v in zip(_CHANCES, chances)},
                    "depth": c.depth.text if c.depth is not None else None})
    return out


_CHANCES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
_CUBE_KINDS = ("no double", "double", "take", "pass")


def decision_rows(match: m.Match, analysed: list[tuple[m.Game, int, m.ActionType, Row]]
                  ) -> list[Row]:
    """The ``decisions`` rows of the actions in ``analysed`` (each with its
    game, its ``seq`` and its ``actions`` row): the decisions the record's
    analysis holds (:func:`~gamao_cli.analysis.decisions.decisions_of`),
    each with what it cost as :func:`~gamao_cli.analysis.figures.match_figures`
    counts it."""
    costs = match_figures(match).errors
    out: list[Row] = []
    for game, seq, a, arow in analysed:
        d = decisions_of(a)
        if d is None or not d:
            continue
        cost_of = {e.kind: e for e in costs.get(id(a), ())}
        base = {"match_id": arow["match_id"], "path": arow["path"],
                "index_in_file": arow["index_in_file"], "game": game.number, "seq": seq,
                "move_number": a.move_number, "program": d.program or None}
        ids = {"position_id": arow["position_id"], "match_id_gnubg": arow["match_id_gnubg"],
               "xgid": arow["xgid"]}
        cube = d.cube
        if cube is not None:
            kind = next((k for k in _CUBE_KINDS if k in cost_of), None)
            if kind is None:    # not a decision the figures count (no cube to turn)
                kind = "double" if cube.doubled and cube.answer is None else \
                    {"take": "take", "beaver": "take", "pass": "pass"}.get(cube.answer or "",
                                                                          "no double")
            e = cost_of.get(kind)
            player = e.player if e is not None else (
                a.player if kind in ("take", "pass") else cube.player)
            out.append({**base, "player": player, "kind": kind.replace(" ", "_"),
                        "depth": cube.depth.text if cube.depth is not None else None,
                        "die1": None, "die2": None, "candidates": [], "played_rank": None,
                        "forced": None,
                        "equity_loss": _finite(e.error) if e is not None else None,
                        "equity_loss_mwc": _finite(e.error_mwc) if e is not None else None,
                        "counted": bool(e is not None and e.counted),
                        "mark": cube.answer_mark if kind in ("take", "pass") else cube.mark,
                        "no_double": _finite(cube.no_double),
                        "double_take": _finite(cube.double_take),
                        "double_pass": _finite(cube.double_pass), "cube_unit": cube.unit,
                        "luck": None, "luck_mark": None, **ids})
        checker, luck = d.checker, d.luck
        if checker is None and luck is None:
            continue
        e = cost_of.get("checker")
        dice = checker.dice if checker is not None else getattr(a, "dice", None)
        row = {**base, "player": checker.player if checker is not None else luck.player,
               "kind": "checker" if checker is not None else "roll",
               "depth": None, "die1": max(dice) if dice else None,
               "die2": min(dice) if dice else None, "candidates": [], "played_rank": None,
               "forced": None, "equity_loss": None, "equity_loss_mwc": None, "counted": False,
               "mark": None, "no_double": None, "double_take": None, "double_pass": None,
               "cube_unit": None, "luck": _finite(luck.value) if luck is not None else None,
               "luck_mark": luck.mark if luck is not None else None, **ids}
        if checker is not None:
            row.update({
                "depth": checker.depth.text if checker.depth is not None else None,
                "candidates": _candidates(checker),
                "played_rank": None if checker.played is None else checker.played + 1,
                "forced": checker.forced,
                "equity_loss": _finite(e.error) if e is not None else
                _finite(checker.equity_loss),
                "equity_loss_mwc": _finite(e.error_mwc) if e is not None else None,
                "counted": bool(e is not None and e.counted), "mark": checker.mark})
        out.append(row)
    return out


def _first_index(match: m.Match, game: m.Game) -> int:
    for i, g in enumerate(match.games):
        if g.number == game.number:
            return i
    return -1
