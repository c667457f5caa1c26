"""Self-contained HTML pages: the replay of a match file, and a report of
the diagnostics of many files that links into those replays.

:func:`replay_page` makes one page for one file: its matches' players,
lengths and games, the score before each game, every move in a list beside a
board, the cube actions and results, every diagnostic at its move, and the
GNU Backgammon Position ID, Match ID and XGID of the position shown. The page
needs nothing else: its style sheet, script and data are inline, it makes no
request to any file or host, and it works opened from disk.

The board is one inline SVG drawn by :mod:`gamao_cli.render.svg` (its first
position included, so the page shows a board before its script runs); the
positions are a compact JSON list that the page's script draws from the
same layout numbers (:meth:`~gamao_cli.render.svg.Layout.to_json`), which
keeps a 30-game match (about 1,500 positions) to a few hundred kilobytes.

A URL fragment opens the page at a position, so a diagnostic can be linked:

- ``#g3m14``: before move 14 of game 3, the same position as ``gamao position
  FILE --game 3 --move 14`` (the left player's action on that line, unless
  the line has only the right player's); ``#g3m14l`` / ``#g3m14r`` say whose
  action;
- ``#g3``: the first position of game 3; ``#g3end``: the position before its
  result line (``Wins ...``);
- ``#L9`` / ``#L9c38``: the action at that line (and column) of the file;
- ``#s120``: the 121st position of the page;
- ``#match2-g3m14`` (any of the above after ``match2-``): in the file's second
  match.

Stepping: the buttons under the board, or the keys left and right (one
action), up and down (one game), Home and End; ``F`` turns the board round.

:func:`report_page` lists the diagnostics of many files, each linking to its
position in that file's replay page (``replay.html#g3m14``).

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = " 3 point match\\n\\n Game 1\\n A : 0   B : 0\\n  1) 41: 24/23 13/9  53: 24/21 21/16*\\n"
>>> page = replay_page(read_matches(text), path="tiny.mat")
>>> page.startswith("<!DOCTYPE html>"), 'data-frag="g1m1r"' in page
(True, True)
"""
from __future__ import annotations

import html
import json
import os
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .. import kernels
from .. import model as m
from ..i18n import _, get_language, ngettext, pgettext
from ..messages import severity_word
from ..ids.board import _KERNEL as _IDS_KERNEL
from ..ids.board import board_facts
from ..ids.gnubg import MatchState
from ..replay.snapshots import Snapshot, game_state_ids
from ..replay.replay import validate_match
from ..analysis.decisions import decisions_of
from ..analysis.figures import MatchFigures, match_figures
from ..formats.textio import xml_safe
from ..model.notation import BoundedCache
from .svg import (DEFAULT_COLOURS, NAME_LIMIT, Layout, background_text, board_element,
                  escape_text, look_key, svg_text)

__all__ = ["FIELDS", "diagnostic_fragment", "replay_page", "replay_page_parts", "report_page"]

#: The fields of a position in the page's data, in order.
FIELDS = ("game", "counts", "pid", "mid", "xgid", "onRoll", "dice", "cube", "owner", "offered",
          "lastPlayer", "steps", "frag", "line", "col", "diags", "actor", "move", "analysis")

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: a count of checkers as one character (0-35; more is "z"), as the bytes
#: of a translation table: byte ``n`` of a count is its character
_COUNT_BYTES = bytes(ord(_DIGITS[min(n, 35)]) for n in range(256))
_RESULTS = (m.Win, m.Loss, m.Resign)
#: a position's dice as the page's data writes them, by the state's dice
_DICE_TEXT = {(0, 0): "", **{(d1, d2): f"{d1}{d2}" for d1 in range(1, 7) for d2 in range(1, 7)}}
#: the diagnostics of a position that has none (one for all; the JSON of a
#: tuple is a list): :func:`_add_diag` gives a position a list of its own
_NO_DIAGS: tuple = ()
_CUBE = (m.Double, m.Take, m.Drop)


#: the steps of a position no play led to (one for all: nothing changes a
#: position's steps once made)
_NO_STEPS: list = []
#: the page data's steps of a play, by its die steps: the same plays recur
#: across pages
_STEPS: BoundedCache[tuple, list[int]] = BoundedCache(16384)


def _page_steps(steps: tuple) -> list[int]:
    """A play's die steps as the page's data holds them: ``src, dst, hit``
    (1 or 0) of each step on the board, flat.

    >>> _page_steps(((24, 18, False), (13, 7, True)))
    [24, 18, 0, 13, 7, 1]
    """
    flat = _STEPS.data.get(steps)
    if flat is None:
        flat = []
        for src, dst, hit in steps:
            if 0 <= src <= 25 and 0 <= dst <= 25:
                flat += [src, dst, 1 if hit else 0]
        _STEPS.put(steps, flat)
    return flat


def _bound_positions_kernel():
    """The C twin of the page's loops (``_page_positions.c``: the position
    rows of :meth:`_Page._position_rows`, their JSON, :meth:`_Page.moves_rows`),
    bound to Action, ActionRecord and Position so that it reads their slots
    where they are, or None: not built, ``GAMAO_PURE_PYTHON`` set, or no
    board kernel for the boards' IDs (then the Python code does it all)."""
    kernel = kernels.kernel("gamao_cli.render._page_positions")
    if kernel is None or _IDS_KERNEL is None:
        return None
    from ..replay.replay import ActionRecord
    from ..rules import Position
    try:   # (else it reads every field by name)
        kernel.bind(m.Action, ActionRecord, Position)
    except (TypeError, AttributeError):
        pass
    return kernel


# (the tests set it to None to compare the kernel with the Python loop)
_POSITIONS = _bound_positions_kernel()
#: the board kernel's board_ids: None for a board the Python code must
#: look at (the kernel then leaves that position to the Python loop)
_BOARD_IDS = _IDS_KERNEL.board_ids if _IDS_KERNEL is not None else None


def _add_diag(row: list[Any], index: int) -> None:
    """Add diagnostic ``index`` to the page data's position ``row``."""
    if row[15] is _NO_DIAGS:
        row[15] = [index]
    else:
        row[15].append(index)


def _e(text: object) -> str:
    """``text`` escaped for HTML, and what XML forbids in it written as its
    escape (:func:`~gamao_cli.formats.textio.xml_safe`): every text of a
    record, a name or a message, goes into a page's sections through here,
    so a section is XML-safe as made, and is never searched whole (the
    sections of the bulk corpus are 70 MB)."""
    return xml_safe(html.escape(str(text), quote=True))


def _names(match: m.Match) -> tuple[str, str]:
    return tuple(n or _("player {number}").format(number=i + 1)  # type: ignore
                 for i, n in enumerate(match.players[:2]))


#: json.dumps(ensure_ascii=False, separators=(",", ":")) made once, without
#: its check for cycles (the page's data is lists and dicts gamao builds,
#: none holding itself): a sixth less time for a page's data
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode


def _json_for_script(data: Any) -> str:
    """JSON that cannot end the ``<script>`` element holding it."""
    text = _ENCODE(data)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _player_of(player_name: str | None, names: Sequence[str]) -> int | None:
    """Which player a diagnostic's ``player`` (a name) is, when it tells."""
    if player_name is None:
        return None
    if player_name in ("the left player", _("the left player")):
        return 0
    if player_name in ("the right player", _("the right player")):
        return 1
    if len(names) == 2 and names[0] != names[1]:
        if player_name == names[0]:
            return 0
        if player_name == names[1]:
            return 1
    return None


def diagnostic_fragment(d: Any, players: Sequence[str] | None = None, matches: int = 1) -> str:
    """The fragment (without ``#``) of a replay page that shows where a
    diagnostic is: ``g3m14`` (``r`` added when it is the right player's),
    ``L9c38`` when the move is unknown or the file holds several matches,
    ``g3`` for a game, ``""`` for none.

    >>> from gamao_cli.replay.diagnostics import Diagnostic
    >>> d = Diagnostic("GM202", "x", line=9, column=38, game=1, move=2, player="gnubgB")
    >>> diagnostic_fragment(d, ("gnubgA", "gnubgB")), diagnostic_fragment(d, matches=2)
    ('g1m2r', 'L9c38')
    """
    if matches <= 1 and d.game is not None and d.move is not None:
        side = _player_of(d.player, players or ())
        return f"g{d.game}m{d.move}" + ("r" if side == 1 else "")
    if d.line is not None:
        return f"L{d.line}" + (f"c{d.column}" if d.column is not None else "")
    if d.game is not None:
        return f"g{d.game}"
    return ""


def _games_by_number(match: m.Match) -> dict[int, list[tuple[int, m.Game]]]:
    """(index, game) of a match's games by their number, for
    :func:`_diagnostic_target` (made once a match: looking through every
    game for each diagnostic cost a match of 8,000 games a quarter of its
    page)."""
    out: dict[int, list[tuple[int, m.Game]]] = {}
    for gi, g in enumerate(match.games):
        out.setdefault(g.number, []).append((gi, g))
    return out


def _diagnostic_target(d: Any, match: m.Match, names: Sequence[str],
                       by_number: dict[int, list[tuple[int, m.Game]]] | None = None
                       ) -> tuple[Any, int | None]:
    """(the action a diagnostic is about or None, the index of its game or None)."""
    if d.game is None:
        games = list(enumerate(match.games))
    else:
        games = (by_number if by_number is not None else _games_by_number(match)).get(d.game, [])
    for gi, g in games:
        if d.move is not None:
            cands = [a for a in g.actions if a.move_number == d.move]
        elif d.line is not None:
            cands = [a for a in g.actions if a.line == d.line]
        else:
            cands = []
        if len(cands) > 1:
            side = _player_of(d.player, names)
            if side is not None:
                cands = [a for a in cands if a.player == side] or cands
        if len(cands) > 1 and d.line is not None:
            on_line = [a for a in cands if a.line == d.line]
            before = [a for a in on_line if d.column is None or a.column <= d.column]
            if before:
                cands = [max(before, key=lambda a: a.column)]
            elif on_line:
                cands = on_line
        if cands:
            return cands[0], gi
    if d.game is not None and games:
        return None, games[0][0]
    return None, None


def _diag_text(d: Any) -> str:
    return d.message + ("; " + _("legal: {plays}").format(plays=", ".join(d.legal))
                        if d.legal else "")


def _where(d: Any) -> str:
    parts = []
    if d.line is not None:
        parts.append(_("line {line}, column {column}").format(line=d.line, column=d.column)
                     if d.column is not None else _("line {line}").format(line=d.line))
    if d.game is not None:
        parts.append(_("game {game}, move {move}").format(game=d.game, move=d.move)
                     if d.move is not None else _("game {game}").format(game=d.game))
    if d.player:
        parts.append(str(d.player))
    return "; ".join(parts)


def _result_text(res: Any, names: Sequence[str]) -> str:
    from ..tables.summary import ended_word
    if res is None or res.winner is None:
        return _("no result")
    pts = res.points if res.points is not None else res.stated_points
    text = ngettext("{name} wins {n} point", "{name} wins {n} points", pts or 0).format(
        name=names[res.winner], n=pts)
    return text + (f" ({ended_word(res.ended)})" if res.ended else "")


def _html_lang() -> str:
    """The page's ``lang`` (BCP 47: ``pt-BR``)."""
    return get_language().replace("_", "-")


def _script_words() -> dict[str, Any]:
    """The words the page's script writes, as templates (``{name}`` fields)."""
    return {
        "pips": _("pips {n}"), "score": _("score {score}"),
        "scoreOf": _("score {score}/{length}"), "length": _("{n} pt"), "crawford": _("Crawford"),
        "board": _("Backgammon board, Position ID {pid}, Match ID {mid}"),
        "names": _("{board}: {top} (top) and {bottom} (bottom)"),
        "game": _("Game {game}"), "matchGame": _("Match {match}, game {game}"),
        "end": _("{where}, end"), "move": _("{where}, move {move}"),
        "status": _("{where}: {name} to act ({action})"),
        "hash": _("No position matches #{hash}; showing the first."),
        "analysisOf": _("{program}'s analysis ({depth})"),
        "candidates": _("{n} plays listed"),
        "rank": _("rank"), "play": _("play"), "equity": _("equity"), "diff": _("loss"),
        "played": _("{name} played rank {rank}, losing {error}"),
        "playedBest": _("{name} played the best play"),
        "notListed": _("{name} played a play the program did not list"),
        "forced": _("a forced play"),
        "cube": _("cube"), "noDouble": _("no double"), "doubleTake": _("double, take"),
        "doublePass": _("double, pass"), "cubeDone": _("{name}: {action}, losing {error}"),
        "luck": _("luck of the roll: {luck}"),
        "doubtful": _("doubtful"), "bad": _("bad"), "veryBad": _("very bad"),
        "did": {"no double": _("no double"), "double": _("double"), "take": _("take"),
                "pass": _("pass")},
    }


def _page_words() -> dict[str, str]:
    """The words of the replay page's frame (already escaped for HTML)."""
    words = {
        "lang": _html_lang(),
        "w_controls": _("Replay controls"),
        "w_first_title": _("First position (Home)"), "w_first_label": _("First position"),
        "w_first": _("first"),
        "w_prev_game_title": _("Previous game (Up)"), "w_prev_game_label": _("Previous game"),
        "w_prev_game": _("game"),
        "w_prev_title": _("Previous action (Left)"), "w_prev_label": _("Previous action"),
        "w_prev": _("back"),
        "w_next_title": _("Next action (Right)"), "w_next_label": _("Next action"),
        "w_next": _("next"),
        "w_next_game_title": _("Next game (Down)"), "w_next_game_label": _("Next game"),
        "w_next_game": _("game"),
        "w_last_title": _("Last position (End)"), "w_last_label": _("Last position"),
        "w_last": _("last"),
        "w_flip_title": _("Turn the board round (F)"), "w_flip_label": _("Turn the board round"),
        "w_flip": _("flip"),
        "w_position_id": _("Position ID"), "w_match_id": _("Match ID"),
        "w_noscript": _("The board shows the first position; stepping through the match needs "
                        "JavaScript."),
    }
    return {k: (v if k == "lang" else _e(v)) for k, v in words.items()}


#: how many of the program's candidates a position shows (and the play made,
#: when it ranks lower)
_CANDIDATES_SHOWN = 8


def _num(x: float | None) -> float | None:
    """A figure for the page's data: rounded, and null for NaN or infinity
    (a damaged analysis), which JSON cannot hold."""
    if x is None or x != x or x in (float("inf"), float("-inf")):
        return None
    return round(x, 6) + 0.0


def _figures(match: m.Match) -> MatchFigures | None:
    """The figures of ``match`` when its record carries an analysis."""
    if not any(getattr(a, "analysis", None) is not None for g in match.games
               for a in g.actions):
        return None
    figures = match_figures(match)
    return figures if figures.analysed else None


def _mark_word(mark: str) -> str:
    return {"doubtful": _("doubtful"), "bad": _("bad"), "very bad": _("very bad")}.get(mark, mark)


def _figures_table(figures: MatchFigures, names: Sequence[str]) -> str:
    """The players' figures (:mod:`gamao_cli.analysis.figures`, defined in
    docs/analysis.md), errors shown as positive numbers."""
    st = figures.stats()
    ch, cu, ov, lu, xg = st["checker"], st["cube"], st["overall"], st["luck"], st["xg"]

    def rate(values: list) -> list[str]:
        return [f"{abs(v):.1f}" for v in values]

    def count(values: list) -> list[str]:
        return [str(int(v)) for v in values]

    rows = [
        (_("PR (eXtreme Gammon's Performance Rating)"), "pr", [f"{v:.2f}" for v in xg["pr"]]),
        (_("decisions counted for PR"), "pr-decisions", count(xg["decisions"])),
        (_("checker error rate (mEMG per unforced move)"), "checker-rate",
         rate(ch["error_rate"])),
        (_("unforced moves"), "unforced", count(ch["unforced_moves"])),
        (_("doubtful / bad / very bad moves"), "marks",
         [f"{int(ch['doubtful'][i])} / {int(ch['bad'][i])} / {int(ch['very_bad'][i])}"
          for i in (0, 1)]),
        (_("cube error rate (mEMG per close cube decision)"), "cube-rate",
         rate(cu["error_rate"])),
        (_("cube decisions (close)"), "cube-decisions",
         [f"{int(cu['cube_decisions'][i])} ({int(cu['close_cube_decisions'][i])})"
          for i in (0, 1)]),
        (_("missed doubles / wrong doubles"), "cube-misses",
         [f"{int(cu['missed_doubles_below_cp'][i] + cu['missed_doubles_above_cp'][i])} / "
          f"{int(cu['wrong_doubles_below_dp'][i] + cu['wrong_doubles_above_tg'][i])}"
          for i in (0, 1)]),
        (_("wrong takes / wrong passes"), "answers",
         [f"{int(cu['wrong_takes'][i])} / {int(cu['wrong_passes'][i])}" for i in (0, 1)]),
        (_("overall error rate (mEMG, GNU Backgammon)"), "overall-rate", rate(ov["error_rate"])),
        (_("Snowie error rate (mEMG per move)"), "snowie-rate", rate(ov["snowie_error_rate"])),
        (_("luck rate (mEMG per move)"), "luck-rate", [
            "\u2014" if v is None else f"{v:+.1f}" for v in lu["luck_rate"]]),
    ]
    # (the words outside the f-string: the message extraction reads f-strings'
    # insides only on Python 3.12 and later)
    caption = _e(_("How well they played"))
    head = (f'<table class="figures"><caption>{caption}</caption>'
            f'<thead><tr><th scope="col"></th><th scope="col">{_e(names[0])}</th>'
            f'<th scope="col">{_e(names[1])}</th></tr></thead><tbody>')
    body = "".join(f'<tr data-figure="{key}"><th scope="row">{_e(label)}</th>'
                   f"<td>{_e(v[0])}</td><td>{_e(v[1])}</td></tr>" for label, key, v in rows)
    return head + body + "</tbody></table>"


#: an action's class -> its kind (:func:`_kind`), learnt as the page meets them
_KINDS: dict[type, str] = {}


def _kind(a: Any) -> str:
    if isinstance(a, _CUBE):
        return "cube"
    if isinstance(a, _RESULTS):
        return "result"
    if isinstance(a, m.Play):
        return "play"
    return "roll"


class _Page:
    """Collects the data and the move lists of the matches of one file."""

    def __init__(self, bottom: int):
        self.bottom = bottom
        self.snaps: list[list[Any]] = []
        self.games: list[dict[str, Any]] = []
        self.matches: list[dict[str, Any]] = []
        self.diags: list[list[Any]] = []
        self.first: list[tuple[Any, Any]] = []   # (snapshot, drawing options) of position 0
        self.sections: list[str] = []
        self.diag_items: list[str] = []
        #: the analysis shown at a position (``analysis`` field: an index here)
        self.analyses: list[dict[str, Any]] = []
        self.marks: dict[int, tuple[str, float]] = {}   # id(action) -> worst mark, its error

    def add_match(self, k: int, match: m.Match, report: Any) -> None:
        if report is None or not any(g.records for g in report.games):
            report = validate_match(match, keep_records=True)
        names = _names(match)
        prefix = "" if k == 0 else f"match{k + 1}-"
        figures = _figures(match)
        costs = figures.errors if figures is not None else {}
        base_game = len(self.games)
        results = {gi: res for gi, res in enumerate(report.games)}
        for gi, g in enumerate(match.games):
            res = results.get(gi)
            self.games.append({"match": k, "number": g.number,
                               "score": list(res.score_before) if res else [0, 0],
                               "crawford": bool(res.crawford) if res else False, "first": -1})
        # the positions, each (game index, game number, record, (Match ID,
        # XGID tail), the state's fields, the roll before it): the states'
        # IDs without the state objects
        snaps = []
        for gi, (g, res, placed) in enumerate(zip(match.games, report.games,
                                                  game_state_ids(match, report))):
            # the play that led to each recorded position: the last roll
            # before it (placed: the game's records that have a position, in
            # their order)
            prev = None
            places = iter(placed)
            here = next(places, None)
            for r in res.records:
                if here is not None and here[0] is r:
                    snaps.append((base_game + gi, g.number, r, *here[1], prev))
                    here = next(places, None)
                if isinstance(r.action, m.ROLLS):
                    prev = r
                elif isinstance(r.action, m.SetUp):
                    prev = None   # no play led to a set position: no arrows
        # fragments: the shortest that leads back to each position
        first_of: dict[tuple, int] = {}
        count_of: dict[tuple, int] = {}
        base = len(self.snaps)
        for i, (_gidx, number, r, _ids, _fields, _prev) in enumerate(snaps):
            a = r.action
            first_of.setdefault((number, a.move_number), i)
            key = (number, a.move_number, a.player)
            count_of[key] = count_of.get(key, 0) + 1
        if base == 0 and snaps:   # the page's first board, drawn in the page (see _board_svg)
            _gidx, number, r, _ids, fields, prev = snaps[0]
            played = prev is not None and prev.steps and isinstance(prev.action, m.Play)
            first = Snapshot(number, r.action, r.position, MatchState.of(*fields))
            self.first.append((first, {"last_play": prev.steps if played else None,
                                       "last_player": prev.action.player if played else None,
                                       "names": names}))
        snap_of_action: dict[int, int] = {}
        done = 0
        if _POSITIONS is not None and not costs:   # the loop of _position_rows in C
            done = _POSITIONS.position_rows(snaps, base, prefix, first_of, count_of, self.games,
                                            self.snaps, snap_of_action, _BOARD_IDS, _STEPS.data,
                                            _page_steps, _DICE_TEXT, _NO_DIAGS, _NO_STEPS, m.Play)
        self._position_rows(snaps, done, base, prefix, first_of, count_of, costs, snap_of_action)
        # diagnostics: at their action's position (a game's or the match's at its first)
        diags_of_action: dict[int, list[Any]] = {}
        game_diags: dict[int, list[Any]] = {}
        match_diags: list[Any] = []
        by_number = _games_by_number(match)
        for d in report.diagnostics:
            action, gi = _diagnostic_target(d, match, names, by_number)
            di = len(self.diags)
            where = _where(d)
            if action is not None and id(action) in snap_of_action:
                row = self.snaps[snap_of_action[id(action)]]
                frag = row[12]
                _add_diag(row, di)
            else:
                frag = diagnostic_fragment(d, names, matches=2)
                if frag.startswith("g") or frag.startswith("L"):
                    frag = prefix + frag
                target = None
                if gi is not None and self.games[base_game + gi]["first"] >= 0:
                    target = self.games[base_game + gi]["first"]
                elif gi is None and snaps:
                    target = base
                if target is not None:
                    _add_diag(self.snaps[target], di)
            self.diags.append([d.code, d.severity, _diag_text(d), where])
            if action is not None:
                diags_of_action.setdefault(id(action), []).append(d)
            elif gi is not None:
                game_diags.setdefault(gi, []).append(d)
            else:
                match_diags.append(d)
            shown = _e(where or _("the match"))
            link = f'<a href="#{_e(frag)}">{shown}</a>' if frag else shown
            multi = _("match {number}: ").format(number=k + 1) if k else ""
            self.diag_items.append(
                f'<li class="diag {_e(d.severity)}"><span class="badge {_e(d.severity)}">'
                f'{_e(d.code)}</span> {_e(multi)}{link}: {_e(_diag_text(d))}</li>')
        self.matches.append({"names": list(names), "length": match.length, "prefix": prefix})
        section = self.match_section(k, match, report, names, snap_of_action, diags_of_action,
                                     game_diags, match_diags)
        if figures is not None:   # the players' figures open the match, after its result
            at = section.index("\n", section.index('<p class="final">'))
            section = section[:at] + "\n" + _figures_table(figures, names) + section[at:]
        self.sections.append(section)

    def _position_rows(self, snaps: list[tuple], done: int, base: int, prefix: str,
                       first_of: Mapping[tuple, int], count_of: Mapping[tuple, int],
                       costs: Mapping[int, list], snap_of_action: dict[int, int]) -> None:
        """The page data's row (:data:`FIELDS`) of each position of ``snaps``
        from the ``done``-th on (the positions of a match: ``(game index,
        game number, record, state IDs, state fields, the roll before)``;
        ``base``: the page's index of the first), each action's position in
        ``snap_of_action``, each game's first position. The C kernel
        ``_page_positions.c`` does the same for the usual positions of a
        match without analysis, and leaves the rest to this loop."""
        games = self.games
        rows = self.snaps
        for i, (gidx, number, r, state_ids, fields, prev) in enumerate(snaps[done:],
                                                                         base + done):
            a = r.action
            if games[gidx]["first"] < 0:
                games[gidx]["first"] = i
            move = a.move_number
            if move is None:
                frag = f"g{number}end" if first_of[(number, None)] == i - base else f"s{i}"
            elif first_of[(number, move)] == i - base:
                frag = f"g{number}m{move}"
            elif count_of[(number, move, a.player)] == 1:
                frag = f"g{number}m{move}" + ("l" if a.player == 0 else "r")
            else:
                frag = f"s{i}"
            if frag[0] != "s":
                frag = prefix + frag
            # (MatchState's fields: cube, owner, on roll, Crawford, game state,
            # turn, offered, resignation, dice, length, score, Jacoby)
            cube, owner, on_roll, _c, _g, _t, offered, _r, dice = fields[:9]
            steps: list[int] = _NO_STEPS
            last_player = -1
            if prev is not None and prev.steps and isinstance(prev.action, m.Play):
                last_player = prev.action.player
                steps = _page_steps(prev.steps)
            pos = r.position
            me, opp = pos.me, pos.opp
            sides = me + opp if on_roll == 0 else opp + me
            try:   # each count a byte, each byte its character, at C speed
                counts = bytes(sides).translate(_COUNT_BYTES).decode("ascii")
            except ValueError:   # a count that is no byte (never in a game)
                counts = "".join(_DIGITS[min(c, 35)] for c in sides)
            pid, field = board_facts(me, opp, on_roll == 1)[:2]
            if pid is not None:
                ids = (pid, state_ids[0], field + state_ids[1])
            else:
                # the plays, replayed as written, leave checkers of both
                # players on one point (after an illegal play): no ID holds
                # that position, so it has none (its diagnostic says why)
                ids = ("", "", "")
            rows.append([gidx, counts, *ids, on_roll, _DICE_TEXT[dice], cube,
                         -1 if owner is None else owner, 1 if offered else 0, last_player,
                         steps, frag, a.line, a.column, _NO_DIAGS, a.player, move,
                         self.analysis_entry(a, costs) if costs else -1])
            snap_of_action[id(a)] = i

    def analysis_entry(self, a: Any, costs: Mapping[int, list]) -> int:
        """The index in :attr:`analyses` of what the record's analysis says
        of action ``a`` (-1: nothing): the program's candidates and the play
        made, the cube equities and what was done, each with what it cost as
        the figures count it, and the luck of the roll."""
        d = decisions_of(a) if getattr(a, "analysis", None) is not None else None
        if not d:
            return -1
        cost = {e.kind: e for e in costs.get(id(a), ())}
        entry: dict[str, Any] = {"who": a.player, "prog": d.program}
        worst: tuple[str, float] | None = None
        c = d.checker
        if c is not None:
            e = cost.get("checker")
            ranked = list(enumerate(c.candidates))
            shown = ranked[:_CANDIDATES_SHOWN]
            if c.played is not None and c.played >= _CANDIDATES_SHOWN:
                shown.append(ranked[c.played])
            entry["c"] = [[i + 1, x.play, _num(x.equity)] for i, x in shown]
            entry["n"] = len(c.candidates)
            entry["p"] = None if c.played is None else c.played + 1
            entry["e"] = _num(e.error if e is not None else c.equity_loss)
            entry["m"] = e.mark if e is not None else c.mark
            entry["f"] = bool(c.forced)
            entry["depth"] = c.depth.text if c.depth is not None else ""
            if entry["m"]:
                worst = (entry["m"], entry["e"] or 0.0)
        cube = d.cube
        if cube is not None:
            kind = next((k for k in ("no double", "double", "take", "pass") if k in cost), None)
            e = cost.get(kind) if kind else None
            entry["cube"] = {"nd": _num(cube.no_double), "dt": _num(cube.double_take),
                             "dp": _num(cube.double_pass), "u": cube.unit,
                             "did": kind, "e": _num(e.error) if e is not None else None,
                             "m": e.mark if e is not None else None,
                             "depth": cube.depth.text if cube.depth is not None else ""}
            if e is not None and e.mark and (worst is None or e.error > worst[1]):
                worst = (e.mark, e.error)
        if d.luck is not None:
            entry["luck"] = _num(d.luck.value)
        if worst is not None:
            self.marks[id(a)] = worst
        self.analyses.append(entry)
        return len(self.analyses) - 1

    def match_section(self, k: int, match: m.Match, report: Any, names: Sequence[str],
                      snap_of_action: Mapping[int, int], diags_of_action: Mapping[int, list],
                      game_diags: Mapping[int, list], match_diags: list) -> str:
        out = [f'<section class="match" data-match="{k}">']
        kind = (ngettext("{n}-point match", "{n}-point match", match.length).format(
            n=match.length) if match.length else _("money session"))
        vs = _e(_("vs"))
        out.append(f'<h2>{_e(names[0])} <span class="vs">{vs}</span> {_e(names[1])}'
                   f' <span class="kind">{_e(kind)}</span></h2>')
        fs = report.final_score
        score = f"{fs[0]}\u2013{fs[1]}"
        final = (_("Final score {score}, winner {name}").format(score=score,
                                                                name=names[report.winner])
                 if report.winner is not None else _("Final score {score}").format(score=score))
        out.append(f'<p class="final">{_e(final)}</p>')
        shown_tags = [t for t in match.tags if t.name.strip().lower() not in ("player 1", "player 2")]
        if shown_tags:
            out.append('<dl class="tags">' + "".join(
                f"<dt>{_e(t.name)}</dt><dd>{_e(t.value)}</dd>" for t in shown_tags) + "</dl>")
        out += _comments(match.comments)
        out += _diag_list(match_diags)
        results = dict(enumerate(report.games))
        for gi, g in enumerate(match.games):
            res = results.get(gi)
            out.append(f'<section class="game" data-game="{g.number}">')
            heading = _("Game {game}").format(game=g.number)
            out.append(f"<h3>{_e(heading)}</h3>")
            if res is not None:
                sb = res.score_before
                crawford = _e(_("Crawford"))
                craw = f' <span class="crawford">{crawford}</span>' if res.crawford else ""
                score = _("Score {name0} {score0}, {name1} {score1}").format(
                    name0=names[0], score0=sb[0], name1=names[1], score1=sb[1])
                out.append(f'<p class="game-score">{_e(score)}{craw}</p>')
            out += _comments(g.comments)
            out += _diag_list(game_diags.get(gi, []))
            out.append('<table class="moves"><thead><tr><th scope="col">#</th>'
                       f'<th scope="col">{_e(names[0])}</th><th scope="col">{_e(names[1])}</th>'
                       "</tr></thead><tbody>")
            made = None
            if _POSITIONS is not None:   # the table's rows in C, for a game of plain actions
                made = _POSITIONS.moves_rows(g.actions, snap_of_action, self.snaps,
                                             _SHOWN_TEXTS.data, _shown_text, _KINDS, _kind,
                                             self.marks, diags_of_action)
            if made is None:
                made = self.moves_rows(g, snap_of_action, diags_of_action)
            out += made
            out.append("</tbody></table>")
            if res is not None:
                after = list(res.score_before)
                if res.winner is not None and res.points is not None:
                    after[res.winner] += res.points
                out.append('<p class="result">' + _e(_("{result}; score {score}").format(
                    result=_result_text(res, names), score=f"{after[0]}\u2013{after[1]}"))
                    + "</p>")
            out.append("</section>")
        out.append("</section>")
        return "\n".join(out)

    def moves_rows(self, g: m.Game, snap_of_action: Mapping[int, int],
                   diags_of_action: Mapping[int, list]) -> list[str]:
        """The rows of a game's table of moves (one a move number, the
        results' a line of their own), as lines of the section. The C kernel
        ``_page_positions.c`` (``moves_rows``) makes the same lines for a
        game whose actions all have a position, a known kind, no mark and
        no diagnostic."""
        out = []
        rows: list[tuple[int | None, list, list]] = []
        at: dict[tuple, int] = {}
        for a in g.actions:
            key = ("m", a.move_number) if a.move_number is not None else ("l", a.line)
            if key not in at:
                at[key] = len(rows)
                rows.append((a.move_number, [], []))
            rows[at[key]][1 + (1 if a.player == 1 else 0)].append(a)
        for number, left, right in rows:
            cls = ' class="result-row"' if number is None else ""
            out.append(f"<tr{cls}><th scope=\"row\">{'' if number is None else number}</th>")
            for cell in (left, right):
                out.append("<td>" + " ".join(self.action_html(a, snap_of_action, diags_of_action)
                                             for a in cell) + "</td>")
            out.append("</tr>")
        return out

    def action_html(self, a: Any, snap_of_action: Mapping[int, int],
                    diags_of_action: Mapping[int, list]) -> str:
        key = id(a)
        i = snap_of_action.get(key)
        text = _shown_text(a.text())
        kind = _KINDS.get(a.__class__)
        if kind is None:
            kind = _KINDS[a.__class__] = _kind(a)
        if i is None:
            not_replayed = _e(_("not replayed"))
            out = f'<span class="act {kind} noboard" title="{not_replayed}">{text}</span>'
        else:
            frag = self.snaps[i][12]
            marked = self.marks.get(key) if self.marks else None
            if marked is None:
                # (a fragment is ASCII letters, digits and "-": nothing to escape)
                out = (f'<a class="act {kind}" href="#{frag}" data-s="{i}" '
                       f'data-frag="{frag}">{text}</a>')
            else:
                title = _e(_("{mark}: lost {error}").format(
                    mark=_mark_word(marked[0]), error=f"{marked[1]:.3f}"))
                out = (f'<a class="act {kind} mark-{marked[0].replace(" ", "-")}" '
                       f'href="#{frag}" data-s="{i}" data-frag="{frag}" title="{title}">'
                       f'{text}</a>')
        if diags_of_action:
            for d in diags_of_action.get(key, ()):
                out += (f' <span class="badge {_e(d.severity)}" title="{_e(d.code)}: '
                        f'{_e(_diag_text(d))}">{_e(d.code)}</span>')
        return out


#: an action's text as the moves table shows it, by its text: the same texts
#: recur across pages
_SHOWN_TEXTS: BoundedCache[str, str] = BoundedCache(16384)


def _shown_text(written: str) -> str:
    """An action's text (``a.text()``) as the table of moves shows it."""
    text = _SHOWN_TEXTS.data.get(written)
    if text is None:   # the same for every action written alike
        text = _SHOWN_TEXTS.put(written, f'<span class="t">{_e(written)}</span>')
    return text


def _comments(comments: Sequence[str]) -> list[str]:
    if not comments:
        return []
    return ['<div class="comments">' + "".join(f"<p>{_e(c)}</p>" for c in comments) + "</div>"]


def _diag_list(diags: Sequence[Any]) -> list[str]:
    if not diags:
        return []
    return ['<ul class="diags">' + "".join(
        f'<li class="diag {_e(d.severity)}"><span class="badge {_e(d.severity)}">{_e(d.code)}'
        f"</span> {_e(_diag_text(d))}</li>" for d in diags) + "</ul>"]


#: the background of a drawing made with background=False, as ElementTree writes it
_EMPTY_BACKGROUND = '<g class="background" />'


#: the first board of a page as text, by what it shows but the names: the
#: names are put in from :data:`_NAME_MARKS`. Most pages
#: open on the starting position with an opening roll: the same few hundred
#: drawings, each a millisecond to make
_FIRST_BOARDS: BoundedCache[tuple, tuple[str, str]] = BoundedCache(1024)
#: what stands for each player's name in a cached board (no name is made
#: of it: a board is cached with these names only, and the real names are
#: put in, escaped, where they stand)
_NAME_MARKS = ("\x00gamao-name-0\x00", "\x00gamao-name-1\x00")


def _board_svg(page: _Page, colours: Mapping[str, str] | None) -> str:
    """The page's first board: its first position, or the empty board."""
    # (the background, the same on every page of one look, is written once)
    if not page.first:
        return _board_text(board_element(None, bottom=page.bottom, colours=colours, cube=False,
                                         background=False), colours)
    snap, opts = page.first[0]
    names = opts["names"]
    last_play = opts["last_play"]
    key = (snap.position, snap.state, page.bottom, opts["last_player"],
           None if last_play is None else tuple(map(tuple, last_play)),
           look_key(colours), get_language())
    texts = _FIRST_BOARDS.get(key)
    if texts is None:
        text = _board_text(board_element(snap, bottom=page.bottom, colours=colours,
                                         background=False, **{**opts, "names": _NAME_MARKS}),
                           colours)
        at = text.index("</title>")   # the title holds the whole names, the bands' are cut
        texts = _FIRST_BOARDS.put(key, (text[:at], text[at:]))
    title, rest = texts
    for mark, name in zip(_NAME_MARKS, names):
        shown = name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "\u2026"
        title = title.replace(mark, escape_text(name))
        rest = rest.replace(mark, escape_text(shown))
    return title + rest


def _board_text(root: Any, colours: Mapping[str, str] | None) -> str:
    root.set("id", "board")
    for child in root:
        if child.get("class") == "position":
            child.set("id", "board-position")
    return svg_text(root).replace(_EMPTY_BACKGROUND, background_text(colours), 1)


def replay_page(matches_with_reports: Iterable[Any], *, path: str, bottom: int = 1,
                colours: Mapping[str, str] | None = None, title: str | None = None) -> str:
    """One self-contained HTML page replaying the matches of one file.

    ``matches_with_reports``: the file's matches, each a
    :class:`~gamao_cli.model.Match` or a ``(match, report)`` pair with the
    report of :func:`~gamao_cli.validator.validate_match` (made with
    ``keep_records=True``; a report without records, or none, is made
    again). ``path``: the file's name, shown on the page. ``bottom``: the
    player (0 left, 1 right) drawn at the bottom at first (a button turns the
    board round). ``colours``: as for :func:`gamao_cli.render.svg.board`.
    ``title``: the page's title (default: the file name and the players).
    """
    return "".join(replay_page_parts(matches_with_reports, path=path, bottom=bottom,
                                     colours=colours, title=title))


#: where the style sheet, the board, the move lists, the page's data and the
#: script go in the filled template: no value put into it can hold these
#: ("<" is escaped in every one)
_CSS_MARK = "<\x00css>"
_BOARD_MARK = "<\x00board>"
_SECTIONS_MARK = "<\x00sections>"
_DATA_MARK = "<\x00data>"
_SCRIPT_MARK = "<\x00script>"

#: the JSON of the data every page of one look and language shares, by
#: (colours, language): the text before the page's own data, and the words
#: after it (a few looks in a run)
_SHARED_JSON: BoundedCache[tuple, tuple[str, str]] = BoundedCache(64)


def _shared_json(colours: Mapping[str, str] | None) -> tuple[str, str]:
    """``(head, words)``: the page data's fields, layout and colours as the
    start of its JSON object, and its words as the object's last member,
    made once a look and language (what XML forbids already escaped)."""
    key = (look_key(colours), get_language())
    texts = _SHARED_JSON.get(key)
    if texts is None:
        head = _json_for_script({"fields": {f: i for i, f in enumerate(FIELDS)},
                                 "layout": Layout().to_json(),
                                 "colours": {**DEFAULT_COLOURS, **(colours or {})}})
        words = _json_for_script({"words": _script_words()})
        texts = _SHARED_JSON.put(key, (xml_safe(head[:-1]), xml_safe(words[1:])))
    return texts


def _page_json(page: _Page, bottom: int, colours: Mapping[str, str] | None) -> list[str]:
    """The page's data as JSON, in pieces: joined, the same text as one
    ``json.dumps`` of ``{"fields", "layout", "colours", "bottom", "matches",
    "games", "snaps", "diags", "analyses", "words"}``, the parts every page
    shares encoded once (:func:`_shared_json`), what XML forbids written as
    its escape. Each member its own piece: the positions of a big match are
    tens of megabytes of JSON, never copied into one string."""
    head, words = _shared_json(colours)
    pieces = [head]
    for name, value in (("bottom", bottom), ("matches", page.matches), ("games", page.games),
                        ("snaps", page.snaps), ("diags", page.diags),
                        ("analyses", page.analyses)):
        # the positions (most of a page's data) written in C, the same text,
        # where they hold nothing the kernel leaves to json
        text = _POSITIONS.rows_json(value) if name == "snaps" and _POSITIONS is not None \
            else None
        if text is None:
            text = _json_for_script(value)
        if not text.isascii():   # (ASCII JSON holds no control character: JSON escapes them)
            text = xml_safe(text)
        pieces += [f',"{name}":', text]
    pieces += [",", words]
    return pieces


def replay_page_parts(matches_with_reports: Iterable[Any], *, path: str, bottom: int = 1,
                      colours: Mapping[str, str] | None = None, title: str | None = None
                      ) -> Iterator[str]:
    """:func:`replay_page` piece by piece, the pieces joined being the page:
    for a writer that writes them as they come, so that the page of a big
    match is never one string (nor its bytes) in memory. The page is made
    (and its arguments checked) when the first piece is taken. Every piece
    is XML-safe: what XML 1.0 forbids (a control character in a name, a
    lone surrogate from a file name that is no UTF-8) is written as its
    escape (:func:`gamao_cli.formats.textio.xml_safe`); the style sheet and
    the script, gamao's own, are left as they are."""
    if bottom not in (0, 1):
        raise ValueError(f"bottom must be 0 or 1, got {bottom!r}")
    page = _Page(bottom)
    items = list(matches_with_reports)
    for k, item in enumerate(items):
        match, report = item if isinstance(item, tuple) else (item, None)
        page.add_match(k, match, report)
    name = os.path.basename(path) or path
    if title is None:
        title = name
        if page.matches:
            p = page.matches[0]["names"]
            title = _("{file}: {player0} vs {player1}").format(file=name, player0=p[0],
                                                                player1=p[1])
    n = len(page.snaps)
    count = sum(len(mt.games) for mt in (it[0] if isinstance(it, tuple) else it for it in items))
    summary = ", ".join([
        ngettext("{n} match", "{n} matches", len(items)).format(n=len(items)),
        ngettext("{n} game", "{n} games", count).format(n=count),
        ngettext("{n} position", "{n} positions", n).format(n=n),
        ngettext("{n} diagnostic", "{n} diagnostics", len(page.diags)).format(n=len(page.diags))])
    diag_section = ""
    if page.diag_items:
        diag_section = ('<section class="all-diags" aria-labelledby="diags-h">'
                        '<h2 id="diags-h">' + _e(_("Diagnostics")) + '</h2><ul class="diags">'
                        + "".join(page.diag_items) + "</ul></section>")
    filled = _PAGE.format(**_page_words(),
        title=_e(title), heading=_e(name), path=_e(path), summary=_e(summary), css=_CSS_MARK,
        board=_BOARD_MARK, sections=_SECTIONS_MARK,
        diagnostics=diag_section, data=_DATA_MARK, script=_SCRIPT_MARK,
        disabled="" if n else " disabled",
        pid=_e(page.snaps[0][2]) if n else "", mid=_e(page.snaps[0][3]) if n else "",
        xgid=_e("XGID=" + page.snaps[0][4]) if n else "")
    top, rest = filled.split(_CSS_MARK)
    after_css, rest = rest.split(_BOARD_MARK)
    before_sections, rest = rest.split(_SECTIONS_MARK)
    before_data, rest = rest.split(_DATA_MARK)
    before_script, tail = rest.split(_SCRIPT_MARK)
    board = _board_svg(page, colours)
    script_data = _page_json(page, bottom, colours)
    # the positions are in the JSON now: what they took goes before the
    # page is written
    page.snaps = []
    sections, page.sections = page.sections, []
    yield xml_safe(top)
    yield _CSS
    yield xml_safe(after_css)
    yield xml_safe(board)
    del board
    yield xml_safe(before_sections)
    for i, section in enumerate(sections):   # (XML-safe as made: see _e)
        if i:
            yield "\n"
        yield section
    del sections
    yield xml_safe(before_data)
    yield from script_data
    del script_data
    yield before_script
    yield _SCRIPT
    yield tail


def report_page(file_results: Iterable[Any],
                links: Mapping[str, str] | Callable[[str], str | None] | None = None, *,
                title: str = "gamao validate") -> str:
    """One HTML page listing the diagnostics of many files.

    ``file_results``: :class:`~gamao_cli.checking.FileCheck` s (anything with
    ``path`` and ``diagnostics``, and ``matches`` with the players' names),
    or ``(path, diagnostics)`` pairs. ``links``: the address of each file's
    replay page (a mapping from path, or a function of it), relative to
    where this page will be; each diagnostic then links to its position
    there (``replay.html#g3m14``).
    """
    rows = []
    totals = {"error": 0, "warning": 0, "info": 0}
    files = 0
    for r in file_results:
        files += 1
        path, diags = (r if isinstance(r, tuple) else (r.path, r.diagnostics))
        summaries = [] if isinstance(r, tuple) else list(getattr(r, "matches", []) or [])
        players = tuple(summaries[0].players) if summaries else None
        href = links.get(path) if isinstance(links, Mapping) else (links(path) if links else None)
        head = f'<a href="{_e(href)}">{_e(path)}</a>' if href else _e(path)
        counts = {"error": 0, "warning": 0, "info": 0}
        items = []
        for d in diags:
            counts[d.severity] = counts.get(d.severity, 0) + 1
            loc = _e(f"{d.line}:{d.column}" if d.line is not None and d.column is not None
                     else (str(d.line) if d.line is not None else ""))
            where = _e(_where(d))
            frag = diagnostic_fragment(d, players, matches=len(summaries) or 1)
            if href and frag:
                shown_as = where or _e(_("show"))
                where = f'<a href="{_e(href)}#{_e(frag)}">{shown_as}</a>'
            items.append(f'<tr class="{_e(d.severity)}"><td class="code"><span class="badge '
                         f'{_e(d.severity)}">{_e(d.code)}</span></td>'
                         f'<td class="sev">{_e(severity_word(d.severity))}</td>'
                         f'<td class="line">{loc}</td>'
                         f'<td class="where">{where}</td>'
                         f'<td class="msg">{_e(_diag_text(d))}</td></tr>')
        for key, v in counts.items():
            totals[key] = totals.get(key, 0) + v
        unread = " " + _("(not read)") if getattr(r, "unreadable", False) else ""
        state = "ok" if not counts["error"] and not unread else "bad"
        file_counts = _("{errors}, {warnings}").format(
            errors=ngettext("{n} error", "{n} errors", counts["error"]).format(n=counts["error"]),
            warnings=ngettext("{n} warning", "{n} warnings", counts["warning"]).format(
                n=counts["warning"]))
        rows.append(f'<section class="file {state}"><h2>{head}{_e(unread)}</h2>'
                    f'<p class="counts">{_e(file_counts)}</p>')
        if items:
            heads = "".join(f'<th scope="col">{_e(h)}</th>' for h in (
                pgettext("column", "code"), pgettext("column", "severity"),
                pgettext("column", "line"), pgettext("column", "where"),
                pgettext("column", "message")))
            rows.append('<table class="report"><thead><tr>' + heads + "</tr></thead>"
                        "<tbody>" + "".join(items) + "</tbody></table>")
        rows.append("</section>")
    summary = _("{files}: {errors}, {warnings}").format(
        files=ngettext("{n} file", "{n} files", files).format(n=files),
        errors=ngettext("{n} error", "{n} errors", totals["error"]).format(n=totals["error"]),
        warnings=ngettext("{n} warning", "{n} warnings", totals["warning"]).format(
            n=totals["warning"]))
    return _REPORT.format(title=_e(title), summary=_e(summary), css=_CSS, body="\n".join(rows),
                          lang=_html_lang())


_CSS = """
:root{--fg:#1e1e1e;--bg:#fffdf8;--muted:#5d5d5d;--line:#ddd5c4;--hl:#ffe27a;--err:#c62828;
--warn:#a86a00;--info:#1f5fbf}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,sans-serif}
header.top{padding:.6rem 1rem;border-bottom:1px solid var(--line)}
header.top h1{margin:0;font-size:1.25rem;overflow-wrap:anywhere}
header.top p{margin:.1rem 0 0;color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
main.replay{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem;padding:.6rem}
.board-pane{min-width:0}
#board{display:block;width:100%;height:auto;max-height:78vh;margin:0 auto}
.status{margin:.2rem 0 .4rem;font-weight:600;min-height:1.4em}
.status .counter{font-weight:400;color:var(--muted);margin-left:.5rem;white-space:nowrap}
.controls{display:flex;flex-wrap:wrap;gap:.35rem;justify-content:center;margin:.5rem 0}
.controls button{min-width:2.9rem;min-height:2.6rem;padding:.2rem .6rem;font:inherit;
border:1px solid #8a7b63;border-radius:.4rem;background:#f4ecdc;color:var(--fg);cursor:pointer}
.controls button:hover:not(:disabled){background:#eadbbd}
.controls button:focus-visible{outline:3px solid #2a6fd4;outline-offset:1px}
.controls button:disabled{opacity:.45;cursor:default}
dl.ids{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .6rem;margin:.4rem 0;
font-size:.9rem}
dl.ids dt{color:var(--muted)}dl.ids dd{margin:0;overflow-wrap:anywhere}
code{font-family:ui-monospace,monospace;font-size:.92em}
.here ul,.diags{list-style:none;padding:0;margin:.3rem 0}
.diag{margin:.25rem 0;padding:.3rem .5rem;border-left:4px solid var(--line);background:#faf5ea;
overflow-wrap:anywhere}
.diag.error{border-color:var(--err)}.diag.warning{border-color:var(--warn)}
.diag.info{border-color:var(--info)}
.badge{display:inline-block;padding:0 .3rem;border-radius:.25rem;font-size:.78rem;font-weight:700;
color:#fff;background:var(--muted);font-family:ui-monospace,monospace;cursor:default;
white-space:nowrap}
.badge.error{background:var(--err)}.badge.warning{background:var(--warn)}
.badge.info{background:var(--info)}
.moves-pane{min-width:0}
.match h2{font-size:1.1rem;margin:.3rem 0}.match h2 .vs,.match h2 .kind{font-weight:400;
color:var(--muted)}
.match h3{font-size:1rem;margin:.8rem 0 .1rem}
.final,.game-score,.result{margin:.1rem 0;font-size:.92rem}
.result{font-weight:600}
.crawford{font-size:.8rem;padding:0 .3rem;border:1px solid var(--muted);border-radius:.25rem}
dl.tags{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:0 .6rem;font-size:.85rem;
color:var(--muted);margin:.2rem 0}dl.tags dd{margin:0;overflow-wrap:anywhere}
.comments{font-size:.88rem;color:var(--muted);font-style:italic}
table.moves{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;font-size:.92rem}
table.moves th,table.moves td{border-bottom:1px solid var(--line);padding:.12rem .3rem;
text-align:left;vertical-align:top}
table.moves th[scope=row]{width:2.2rem;color:var(--muted);font-weight:400;text-align:right}
table.moves thead th{overflow-wrap:anywhere}
a.act{color:inherit;text-decoration:none;border-radius:.2rem;padding:0 .15rem}
a.act:hover{background:#f1e6cd;text-decoration:underline}
a.act.cube{color:#6a3d9a;font-weight:600}a.act.result{font-weight:700}
a.act.current{background:var(--hl);outline:2px solid #c9a400}
.noboard{color:var(--muted)}
a.act.mark-doubtful{background:#fff1b8}a.act.mark-bad{background:#ffd2a6}
a.act.mark-very-bad{background:#ffb3b3;font-weight:600}
.analysis{margin:.4rem 0;padding:.3rem .5rem;border:1px solid var(--line);border-radius:.3rem;
font-size:.9rem}
.analysis h2{font-size:.95rem;margin:.1rem 0 .3rem}
.analysis table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
.analysis th,.analysis td{padding:.05rem .3rem;text-align:left;border-bottom:1px solid var(--line)}
.analysis td.num,.analysis th.num{text-align:right;white-space:nowrap}
.analysis tr.played{font-weight:700;background:#eef4ff}
.analysis .verdict{margin:.3rem 0 .1rem}
.analysis .doubtful{color:#8a6d00}.analysis .bad{color:#b35300}.analysis .very-bad{color:var(--err)}
table.figures{border-collapse:collapse;margin:.4rem 0;font-size:.88rem;
font-variant-numeric:tabular-nums}
table.figures caption{text-align:left;font-weight:600;margin-bottom:.15rem}
table.figures th,table.figures td{border-bottom:1px solid var(--line);padding:.08rem .4rem;
text-align:left}
table.figures td{text-align:right;white-space:nowrap}
.all-diags{padding:0 .6rem 1rem}.all-diags h2{font-size:1.1rem}
.match.inactive{display:none}
table.report{border-collapse:collapse;width:100%;font-size:.92rem}
table.report th,table.report td{border-bottom:1px solid var(--line);padding:.2rem .4rem;
text-align:left;vertical-align:top}
table.report th,table.report td.code,table.report td.sev,table.report td.line{white-space:nowrap}
table.report td.where,table.report td.msg{overflow-wrap:anywhere}
section.file{padding:0 1rem}section.file h2{font-size:1.05rem;margin:1rem 0 .2rem;
overflow-wrap:anywhere}
.counts{margin:0 0 .3rem;color:var(--muted)}
@media (min-width:56rem){
main.replay{grid-template-columns:minmax(0,3fr) minmax(19rem,2fr);align-items:start}
.board-pane{position:sticky;top:.5rem}
.moves-pane{max-height:calc(100vh - 1.2rem);overflow:auto;position:sticky;top:.5rem;
padding-right:.3rem}
}
@media print{
body{background:#fff;font-size:10.5pt}
.controls,noscript{display:none}
main.replay{display:block;padding:0}
.board-pane{position:static;break-inside:avoid}
#board{max-height:none;width:100%;max-width:17cm}
.moves-pane{max-height:none;overflow:visible;position:static}
.match.inactive{display:block}
a{color:inherit;text-decoration:none}
a.act.current{outline:1px solid #000;background:none;font-weight:700}
.game{break-inside:avoid-page}
table.moves,table.report{page-break-inside:auto}tr{break-inside:avoid}
.badge{color:#000;background:none;border:1px solid #000}
}
"""

_SCRIPT = r"""
(function () {
"use strict";
var D = JSON.parse(document.getElementById("gamao-data").textContent);
var F = D.fields, L = D.layout, C = D.colours, S = D.snaps, G = D.games, M = D.matches;
var NS = "http://www.w3.org/2000/svg", DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";
var PIPS = {1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]]};
var svg = document.getElementById("board"), pos = document.getElementById("board-position");
var bottom = D.bottom, cur = -1, links = [], current = null;
var W = D.words;
function $(id) { return document.getElementById(id); }
function fmt(t, o) {
  return t.replace(/\{(\w+)\}/g, function (all, k) { return k in o ? String(o[k]) : all; });
}
function num(x) { var t = x.toFixed(2).replace(/\.?0+$/, ""); return t === "-0" ? "0" : t; }
function el(parent, tag, attrs, text) {
  var e = document.createElementNS(NS, tag);
  for (var k in attrs) {
    var v = attrs[k];
    e.setAttribute(k, typeof v === "number" ? num(v) : String(v));
  }
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}
function stack(slot, i, n) {
  var step = n > 1 ? Math.min(slot[4], (slot[3] - slot[4]) / (n - 1)) : slot[4];
  return [slot[0], slot[1] + slot[2] * (slot[4] / 2 + i * step)];
}
function counts(s) {
  var c = s[F.counts], out = [[], []];
  for (var p = 0; p < 2; p++) for (var i = 0; i < 26; i++) out[p].push(DIGITS.indexOf(c.charAt(p * 26 + i)));
  return out;
}
function side(player) { return player === bottom ? 0 : 1; }
function band(g, player, sd, name, score, pips) {
  var b = el(g, "g", {"class": "band", "data-player": player}), y = L.bands[sd];
  el(b, "circle", {"class": "swatch", cx: L.text.swatch, cy: y - 5, r: 7, fill: C["checker " + player],
    stroke: C["checker " + player + " edge"], "stroke-width": 1.5});
  var chars = Array.from(name);
  if (chars.length > L.nameLimit) name = chars.slice(0, L.nameLimit - 1).join("") + "\u2026";
  if (name) el(b, "text", {"class": "name", x: L.text.name, y: y, "font-size": 15, "font-weight": "bold",
    fill: C.text}, name);
  el(b, "text", {"class": "score", x: L.text.score, y: y, "font-size": 14, "text-anchor": "middle",
    fill: C.text}, score);
  el(b, "text", {"class": "pips", x: L.text.pips, y: y, "font-size": 14, "text-anchor": "end",
    fill: C.text}, fmt(W.pips, {n: pips}));
}
function checkers(g, player, sd, cnt) {
  var fill = C["checker " + player], edge = C["checker " + player + " edge"];
  for (var point = 0; point < 26; point++) {
    var n = cnt[point];
    if (!n) continue;
    var slot = L.slots[sd][point];
    for (var i = 0; i < n; i++) {
      var xy = stack(slot, i, n), a = {"class": "checker", "data-player": player, "data-point": point};
      if (point === 0) {
        var w = L.slab[0], h = L.slab[1];
        a.x = xy[0] - w / 2; a.y = xy[1] - h / 2; a.width = w; a.height = h; a.rx = 2;
        a.fill = fill; a.stroke = edge; a["stroke-width"] = 1;
        el(g, "rect", a);
      } else {
        a.cx = xy[0]; a.cy = xy[1]; a.r = L.radius; a.fill = fill; a.stroke = edge; a["stroke-width"] = 1.5;
        el(g, "circle", a);
      }
    }
    if (n > 5 && point !== 0) {
      var t = stack(slot, n - 1, n);
      el(g, "text", {"class": "count", "data-player": player, "data-point": point, x: t[0], y: t[1] + 5,
        "font-size": 15, "font-weight": "bold", "text-anchor": "middle", fill: C["count " + player]}, String(n));
    }
  }
}
function die(g, player, value, cx, cy) {
  var k = L.die, d = el(g, "g", {"class": "die", "data-player": player, "data-value": value});
  el(d, "rect", {x: cx - k / 2, y: cy - k / 2, width: k, height: k, rx: 5, fill: C["die " + player],
    stroke: C["checker " + player + " edge"], "stroke-width": 1.5});
  (PIPS[value] || []).forEach(function (p) {
    el(d, "circle", {"class": "pip", cx: cx + p[0] * k / 3.6, cy: cy + p[1] * k / 3.6, r: 3.2,
      fill: C["die " + player + " pip"]});
  });
}
function cube(g, value, owner, offered, cx, cy) {
  var k = L.cubeSize, c = el(g, "g", {"class": "cube", "data-value": value,
    "data-owner": owner === null ? "none" : owner, "data-offered": offered ? "true" : "false"});
  el(c, "rect", {x: cx - k / 2, y: cy - k / 2, width: k, height: k, rx: 4, fill: C.cube,
    stroke: C["cube edge"], "stroke-width": 1.5});
  var shown = value === 1 && owner === null && !offered ? "64" : String(value);
  var size = shown.length <= 2 ? 18 : (shown.length === 3 ? 14 : 10);
  el(c, "text", {x: cx, y: cy + size * 0.36, "font-size": size, "font-weight": "bold",
    "text-anchor": "middle", fill: C["cube text"]}, shown);
}
function arrowShapes(t, h) {
  var dx = h[0] - t[0], dy = h[1] - t[1], len = Math.sqrt(dx * dx + dy * dy);
  if (len < 1) return [["circle", {cx: h[0], cy: h[1], r: L.radius * 0.6}]];
  var ux = dx / len, uy = dy / len, hl = Math.min(16, len * 0.6), bx = h[0] - ux * hl, by = h[1] - uy * hl;
  return [["line", {x1: t[0], y1: t[1], x2: bx, y2: by, "stroke-width": 6}],
    ["polygon", {points: num(h[0]) + "," + num(h[1]) + " " + num(bx - uy * 9) + "," + num(by + ux * 9) +
      " " + num(bx + uy * 9) + "," + num(by - ux * 9)}]];
}
function anchor(sd, point, i, n) { return stack(L.slots[sd][point], Math.min(i, n - 1), n); }
function arrow(g, cnt, sd, src, dst, hit) {
  var cs = cnt[src], cd = cnt[dst];
  var tail = anchor(sd, src, cs, cs + 1), head = anchor(sd, dst, Math.max(cd - 1, 0), Math.max(cd, 1));
  var a = el(g, "g", {"class": "arrow", "data-from": src, "data-to": dst, "data-hit": hit ? "true" : "false",
    opacity: 0.8});
  arrowShapes(tail, head).forEach(function (s) {
    if (s[0] === "line") s[1].stroke = C.arrow; else s[1].fill = C.arrow;
    el(a, s[0], s[1]);
  });
  if (hit) el(g, "circle", {"class": "hit", cx: head[0], cy: head[1], r: L.radius + 3, fill: "none",
    stroke: C.hit, "stroke-width": 3});
}
function draw(i) {
  while (pos.firstChild) pos.removeChild(pos.firstChild);
  var s = S[i], g = G[s[F.game]], m = M[g.match], cnt = counts(s), onRoll = s[F.onRoll], p, k;
  for (p = 0; p < 2; p++) {
    var pips = 0;
    for (k = 1; k < 26; k++) pips += k * cnt[p][k];
    band(pos, p, side(p), m.names[p], m.length ? fmt(W.scoreOf, {score: g.score[p], length: m.length})
      : fmt(W.score, {score: g.score[p]}), pips);
  }
  if (m.length) {
    el(pos, "text", {"class": "length", x: L.column, y: L.mid - L.cubeSize / 2 - 8, "font-size": 11,
      "text-anchor": "middle", fill: C.number}, fmt(W.length, {n: m.length}));
    if (g.crawford) el(pos, "text", {"class": "crawford", x: L.column, y: L.mid + L.cubeSize / 2 + 16,
      "font-size": 10, "text-anchor": "middle", fill: C.number}, W.crawford);
  }
  for (p = 0; p < 2; p++) checkers(pos, p, side(p), cnt[p]);
  var owner = s[F.owner] < 0 ? null : s[F.owner], c;
  if (s[F.offered]) {
    c = L.dice[side(onRoll)];
    cube(pos, s[F.cube] * 2, owner, true, c[0], c[1]);
  } else {
    c = owner === null ? L.cube[0] : L.cube[1 + side(owner)];
    cube(pos, s[F.cube], owner, false, c[0], c[1]);
  }
  var dv = s[F.dice];
  if (dv && !s[F.offered]) {
    c = L.dice[side(onRoll)];
    for (k = 0; k < 2; k++) die(pos, onRoll, +dv.charAt(k), c[0] + (k - 0.5) * (L.die + 8), c[1]);
  }
  var lp = s[F.lastPlayer], st = s[F.steps];
  if (lp >= 0) for (k = 0; k + 2 < st.length; k += 3) arrow(pos, cnt[lp], side(lp), st[k], st[k + 1], !!st[k + 2]);
  var t = svg.querySelector("title");
  if (t) t.textContent = fmt(W.names, {board: fmt(W.board, {pid: s[F.pid], mid: s[F.mid]}),
    top: m.names[1 - bottom], bottom: m.names[bottom]});
  svg.setAttribute("data-bottom", bottom);
  svg.setAttribute("data-on-roll", onRoll);
  svg.setAttribute("data-position-id", s[F.pid]);
  svg.setAttribute("data-match-id", s[F.mid]);
}
function text(id, t) { var e = $(id); if (e) e.textContent = t; }
function html(tag, parent, t, cls) {
  var e = document.createElement(tag);
  if (t !== undefined && t !== null) e.textContent = t;
  if (cls) e.className = cls;
  if (parent) parent.appendChild(e);
  return e;
}
function eq(x) { return x === null || x === undefined ? "" : (x >= 0 ? "+" : "") + x.toFixed(3); }
function markClass(mk) { return mk ? mk.replace(" ", "-") : ""; }
function markWord(mk) { return mk ? W[{"doubtful": "doubtful", "bad": "bad", "very bad": "veryBad"}[mk]] : ""; }
function analysis(k, name) {
  var box = $("analysis");
  if (!box) return;
  while (box.firstChild) box.removeChild(box.firstChild);
  var a = k >= 0 ? D.analyses[k] : null;
  box.hidden = !a;
  box.removeAttribute("data-played");
  if (!a) return;
  var depth = a.c ? a.depth : (a.cube ? a.cube.depth : "");
  html("h2", box, fmt(W.analysisOf, {program: a.prog, depth: depth || "?"}));
  if (a.cube) {
    var c = a.cube, t = html("table", box, null, "cube-analysis"), row;
    [[W.noDouble, c.nd], [W.doubleTake, c.dt], [W.doublePass, c.dp]].forEach(function (r) {
      row = html("tr", t);
      html("th", row, r[0]);
      html("td", row, r[1] === null ? "" : eq(r[1]) + (c.u === "mwc" ? " MWC" : ""), "num");
    });
    if (c.did) {
      var v = html("p", box, fmt(W.cubeDone, {name: name, action: W.did[c.did] || c.did,
        error: c.e === null ? "?" : c.e.toFixed(3)}), "verdict cube-verdict " + markClass(c.m));
      if (c.m) v.textContent += " (" + markWord(c.m) + ")";
    }
  }
  if (a.c) {
    if (a.f) html("p", box, W.forced, "verdict");
    var tb = html("table", box, null, "candidates"), hr = html("tr", html("thead", tb));
    [W.rank, W.play, W.equity, W.diff].forEach(function (w, i) { html("th", hr, w, i === 1 ? "" : "num"); });
    var body = html("tbody", tb), best = a.c.length ? a.c[0][2] : 0;
    a.c.forEach(function (r) {
      var tr = html("tr", body, null, r[0] === a.p ? "played" : "");
      tr.setAttribute("data-rank", r[0]);
      html("td", tr, String(r[0]), "num");
      html("td", tr, r[1]);
      html("td", tr, eq(r[2]), "num");
      html("td", tr, r[0] === 1 ? "" : (r[2] - best).toFixed(3), "num");
    });
    var words = a.p === null ? fmt(W.notListed, {name: name})
      : (a.p === 1 ? fmt(W.playedBest, {name: name})
      : fmt(W.played, {name: name, rank: a.p, error: a.e === null ? "?" : a.e.toFixed(3)}));
    var p = html("p", box, words, "verdict checker-verdict " + markClass(a.m));
    if (a.m) p.textContent += " (" + markWord(a.m) + ")";
    if (a.p !== null) box.setAttribute("data-played", a.p);
  }
  if (a.luck !== undefined && a.luck !== null) html("p", box, fmt(W.luck, {luck: eq(a.luck)}), "luck");
}
function gameStart(i) { var g = S[i][F.game]; while (i > 0 && S[i - 1][F.game] === g) i--; return i; }
var revealing = false, hashTimer = null;
function reveal() {
  // once a frame at most: reading the layout after every step would make a
  // held-down arrow key lay the page out each time
  if (revealing) return;
  revealing = true;
  requestAnimationFrame(function () {
    revealing = false;
    var pane = $("moves"), a = current;
    if (!a || !pane || pane.scrollHeight <= pane.clientHeight + 1) return;
    var pr = pane.getBoundingClientRect(), ar = a.getBoundingClientRect();
    if (ar.top < pr.top || ar.bottom > pr.bottom) pane.scrollTop += ar.top - pr.top - pr.height / 3;
  });
}
function setHash(frag) {
  // after the last of a quick run of steps (browsers throttle history calls)
  clearTimeout(hashTimer);
  hashTimer = setTimeout(function () {
    try { history.replaceState(null, "", "#" + frag); } catch (e) { /* a file: page may refuse */ }
  }, 150);
}
function show(i, keepHash) {
  if (!S.length) return;
  i = Math.max(0, Math.min(S.length - 1, i));
  var s = S[i], g = G[s[F.game]], m = M[g.match];
  cur = i;
  draw(i);
  text("pid", s[F.pid]);
  text("mid", s[F.mid]);
  text("xgid", "XGID=" + s[F.xgid]);
  var a = links[i], what = a ? a.querySelector(".t").textContent : "";
  var where = M.length > 1 ? fmt(W.matchGame, {match: g.match + 1, game: g.number})
    : fmt(W.game, {game: g.number});
  where = s[F.move] === null ? fmt(W.end, {where: where}) : fmt(W.move, {where: where, move: s[F.move]});
  text("status-text", fmt(W.status, {where: where, name: m.names[s[F.actor]], action: what}));
  text("counter", (i + 1) + " / " + S.length);
  if (current) { current.classList.remove("current"); current.removeAttribute("aria-current"); }
  current = a || null;
  if (a) { a.classList.add("current"); a.setAttribute("aria-current", "step"); reveal(); }
  var sections = document.querySelectorAll("section.match");
  for (var k = 0; k < sections.length; k++) sections[k].classList.toggle("inactive", M.length > 1 && k !== g.match);
  var here = $("here"), list = s[F.diags];
  while (here.firstChild) here.removeChild(here.firstChild);
  if (list.length) {
    var ul = document.createElement("ul");
    list.forEach(function (di) {
      var d = D.diags[di], li = document.createElement("li"), b = document.createElement("span");
      li.className = "diag " + d[1];
      b.className = "badge " + d[1];
      b.textContent = d[0];
      li.appendChild(b);
      li.appendChild(document.createTextNode(" " + d[2] + (d[3] ? " (" + d[3] + ")" : "")));
      ul.appendChild(li);
    });
    here.appendChild(ul);
  }
  here.hidden = !list.length;
  analysis(s[F.analysis], m.names[s[F.actor]]);
  document.body.setAttribute("data-index", i);
  document.body.setAttribute("data-frag", s[F.frag]);
  $("b-first").disabled = $("b-prev").disabled = i === 0;
  $("b-last").disabled = $("b-next").disabled = i === S.length - 1;
  $("b-prev-game").disabled = i === 0;
  $("b-next-game").disabled = S[S.length - 1][F.game] === s[F.game];
  if (keepHash) clearTimeout(hashTimer); else setHash(s[F.frag]);
}
function resolve(h) {
  var r = /^(?:match(\d+)-)?(?:g(\d+)(?:m(\d+)([lr])?|(end))?|s(\d+)|L(\d+)(?:c(\d+))?)$/.exec(h), i, s, g;
  if (!r) return -1;
  if (r[6] !== undefined) return +r[6] < S.length ? +r[6] : -1;
  var k = r[1] ? +r[1] - 1 : 0;
  if (r[7] !== undefined) {
    var line = +r[7], col = r[8] === undefined ? null : +r[8], best = -1, after = -1, last = -1;
    for (i = 0; i < S.length; i++) {
      s = S[i];
      if (G[s[F.game]].match !== k) continue;
      last = i;
      if (s[F.line] === line && (col === null ? best < 0 : s[F.col] <= col)) best = i;
      else if (after < 0 && (s[F.line] > line || (s[F.line] === line && col !== null && s[F.col] > col))) after = i;
    }
    return best >= 0 ? best : (after >= 0 ? after : last);
  }
  var gn = +r[2];
  for (i = 0; i < S.length; i++) {
    s = S[i]; g = G[s[F.game]];
    if (g.match !== k || g.number !== gn) continue;
    if (r[3] !== undefined) {
      if (s[F.move] !== +r[3]) continue;
      if (r[4] && s[F.actor] !== (r[4] === "l" ? 0 : 1)) continue;
    } else if (r[5] && s[F.move] !== null) continue;
    return i;
  }
  return -1;
}
function fromHash() {
  var h = location.hash.replace(/^#/, ""), i = -1;
  try { h = decodeURIComponent(h); } catch (e) { /* keep it */ }
  if (h) i = resolve(h);
  text("hash-note", h && i < 0 ? fmt(W.hash, {hash: h}) : "");
  show(i < 0 ? 0 : i, i >= 0);
}
function next() { show(cur + 1); }
function prev() { show(cur - 1); }
function first() { show(0); }
function last() { show(S.length - 1); }
function nextGame() {
  for (var j = cur + 1; j < S.length; j++) if (S[j][F.game] !== S[cur][F.game]) { show(j); return; }
}
function prevGame() {
  var start = gameStart(cur);
  show(start < cur ? start : (cur > 0 ? gameStart(cur - 1) : 0));
}
function flip() { bottom = 1 - bottom; if (cur >= 0) draw(cur); }
var anchors = document.querySelectorAll("a.act[data-s]");
for (var k = 0; k < anchors.length; k++) links[+anchors[k].getAttribute("data-s")] = anchors[k];
$("b-first").addEventListener("click", first);
$("b-prev-game").addEventListener("click", prevGame);
$("b-prev").addEventListener("click", prev);
$("b-next").addEventListener("click", next);
$("b-next-game").addEventListener("click", nextGame);
$("b-last").addEventListener("click", last);
$("b-flip").addEventListener("click", flip);
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || !S.length) return;
  var t = e.target && e.target.tagName;
  if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") return;
  var act = {ArrowRight: next, ArrowLeft: prev, ArrowDown: nextGame, ArrowUp: prevGame,
    PageDown: nextGame, PageUp: prevGame, Home: first, End: last, f: flip, F: flip}[e.key];
  if (act) { e.preventDefault(); act(); }
});
window.addEventListener("hashchange", fromHash);
document.body.classList.add("js");
if (S.length) fromHash();
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="gamao">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header class="top"><h1>{heading}</h1><p>{path} \u00b7 {summary}</p></header>
<main class="replay">
<div class="board-pane">
<p class="status" id="status" aria-live="polite"><span id="status-text"></span><span class="counter" id="counter"></span></p>
{board}
<nav class="controls" aria-label="{w_controls}">
<button type="button" id="b-first" title="{w_first_title}" aria-label="{w_first_label}"{disabled}>{w_first}</button>
<button type="button" id="b-prev-game" title="{w_prev_game_title}" aria-label="{w_prev_game_label}"{disabled}>&#x00AB; {w_prev_game}</button>
<button type="button" id="b-prev" title="{w_prev_title}" aria-label="{w_prev_label}"{disabled}>&#x2039; {w_prev}</button>
<button type="button" id="b-next" title="{w_next_title}" aria-label="{w_next_label}"{disabled}>{w_next} &#x203A;</button>
<button type="button" id="b-next-game" title="{w_next_game_title}" aria-label="{w_next_game_label}"{disabled}>{w_next_game} &#x00BB;</button>
<button type="button" id="b-last" title="{w_last_title}" aria-label="{w_last_label}"{disabled}>{w_last}</button>
<button type="button" id="b-flip" title="{w_flip_title}" aria-label="{w_flip_label}"{disabled}>{w_flip}</button>
</nav>
<p class="hash-note" id="hash-note"></p>
<dl class="ids">
<dt>{w_position_id}</dt><dd><code id="pid">{pid}</code></dd>
<dt>{w_match_id}</dt><dd><code id="mid">{mid}</code></dd>
<dt>XGID</dt><dd><code id="xgid">{xgid}</code></dd>
</dl>
<div class="here" id="here" aria-live="polite" hidden></div>
<section class="analysis" id="analysis" aria-live="polite" hidden></section>
<noscript><p>{w_noscript}</p></noscript>
</div>
<div class="moves-pane" id="moves">
{sections}
</div>
</main>
{diagnostics}
<script type="application/json" id="gamao-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""

_REPORT = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="gamao">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header class="top"><h1>{title}</h1><p>{summary}</p></header>
<main class="report">
{body}
</main>
</body>
</html>
"""
