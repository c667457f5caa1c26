"""Match summaries: who won what, game by game, and totals per player.

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = (" 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
...         "  1) 31: 8/5 6/5                 61: 13/7 8/7\\n"
...         "  2)  Doubles => 2                Drops\\n      Wins 1 point and the match\\n")
>>> s = summarise(read_matches(text, "x.mat")[0])
>>> s["winner"], s["final_score"], s["games"][0]["ended"]
(0, [1, 0], 'drop')
>>> s["totals"][0]["doubles"], s["totals"][1]["drops"]
(1, 1)
"""
from __future__ import annotations

import csv
import io
from typing import Any

from gamao_cli import model as m
from gamao_cli.analysis.figures import Figures, has_analysis, match_figures
from gamao_cli.i18n import _, ngettext, pgettext
from gamao_cli.replay.replay import MatchReport, validate_match


def summarise(match: m.Match, report: MatchReport | None = None) -> dict[str, Any]:
    """The summary of one match as a JSON-ready dict (index 0 = left player)."""
    report = report or validate_match(match)
    games = []
    totals = [{"games_won": 0, "points": 0, "gammons": 0, "backgammons": 0, "doubles": 0,
               "takes": 0, "drops": 0} for _ in range(2)]
    figures = match_figures(match) if has_analysis(match) else None
    for i, (game, result) in enumerate(zip(match.games, report.games)):
        games.append({"number": result.number, "winner": result.winner,
                      "points": result.points, "ended": result.ended and result.ended.value,
                      "cube": result.cube,
                      "moves": result.moves,
                      "analysis": _analysis(figures.games[i] if figures else None)})
        if result.winner is not None:
            t = totals[result.winner]
            t["games_won"] += 1
            t["points"] += result.points or 0
            if result.ended in ("gammon", "backgammon"):
                t["gammons"] += 1
            if result.ended == "backgammon":
                t["backgammons"] += 1
        for a in game.actions:
            if isinstance(a, m.Double):
                totals[a.player]["doubles"] += 1
            elif isinstance(a, m.Take):
                totals[a.player]["takes"] += 1
            elif isinstance(a, m.Drop):
                totals[a.player]["drops"] += 1
    return {
        "path": match.path,
        "players": list(match.players),
        "length": match.length,
        "final_score": list(report.final_score),
        # (0, 0), or the score of the first score line when the record
        # starts in the middle of the match (GM413)
        "start_score": list(report.start_score),
        "winner": report.winner,
        "games": games,
        "totals": totals,
        "errors": report.errors,
        "analysis": _analysis(figures, decisions=True),
    }


def _analysis(f: Figures | None, decisions: bool = False) -> dict[str, Any]:
    """The ``analysis`` object of a match or a game (docs/analysis.md):
    ``analysed``, and when it is, ``stats`` (section -> figure -> [player 0,
    player 1]) and for a match ``counted_decisions`` (the decisions PR counts)."""
    if f is None or not f.analysed:
        return {"analysed": False}
    return f.to_json(decisions=decisions)


def _player(s: dict[str, Any], index: int) -> str:
    return s["players"][index] or _("player {number}").format(number=index + 1)


def _winner_name(s: dict[str, Any]) -> str:
    if s["winner"] is None:
        return _("(money session)") if s["length"] == 0 else _("(not decided)")
    return _player(s, s["winner"])


def _ended_width() -> int:
    """The width of the "ended" column: its widest word in the language
    that speaks (10 in English, ``backgammon``)."""
    return max(len(ended_word(k)) for k in ("single", "gammon", "backgammon", "drop",
                                             "resign", "time"))


def ended_word(ended: str | None) -> str:
    """How a game ended (the JSON's ``ended``) as a person reads it."""
    words = {"single": pgettext("ended", "single"), "gammon": pgettext("ended", "gammon"),
             "backgammon": pgettext("ended", "backgammon"), "drop": pgettext("ended", "drop"),
             "resign": pgettext("ended", "resign"), "time": pgettext("ended", "time")}
    return words.get(ended, ended) if ended else "-"


def _columns(spec: list[tuple[str, int, str]]) -> tuple[list[str], list[int], list[str]]:
    """Headings, widths (the heading's when longer than the column's) and alignments."""
    heads = [h for h, _w, _a in spec]
    widths = [max(w, len(h)) for h, w, _a in spec]
    return heads, widths, [a for _h, _w, a in spec]


def _row(cells: list[Any], widths: list[int], aligns: list[str], seps: list[str]) -> str:
    out = ""
    for cell, width, align, sep in zip(cells, widths, aligns, seps):
        out += sep + f"{str(cell):{align}{width}}"
    return out


def table(summaries: list[dict[str, Any]]) -> str:
    """A plain-text report for people (in the language that speaks)."""
    out: list[str] = []
    game_heads, game_w, game_a = _columns([
        (_("game"), 4, ">"), (_("winner"), 20, "<"), (_("points"), 6, ">"),
        (_("ended"), _ended_width(), "<"), (_("cube"), 4, ">"), (_("moves"), 5, ">")])
    game_seps = ["  ", "  ", " ", "  ", " ", " "]
    total_heads, total_w, total_a = _columns([
        (_("player"), 20, "<"), (_("won"), 4, ">"), (_("points"), 6, ">"), (_("gammons"), 7, ">"),
        (_("doubles"), 7, ">"), (_("takes"), 5, ">"), (_("drops"), 5, ">")])
    total_seps = ["  "] + [" "] * 6
    for s in summaries:
        p1, p2 = _player(s, 0), _player(s, 1)
        length = (_("money session") if s["length"] == 0
                  else ngettext("{n}-point match", "{n}-point match", s["length"]).format(
                      n=s["length"]))
        out.append(_("{path}: {player1} vs {player2}, {length}").format(
            path=s["path"], player1=p1, player2=p2, length=length))
        start = s.get("start_score") or [0, 0]
        started = (" " + _("(the record starts at {score})").format(score=f"{start[0]}-{start[1]}")
                   if any(start) else "")
        out.append("  " + _("final score {score}, winner: {winner}").format(
            score=f"{s['final_score'][0]}-{s['final_score'][1]}", winner=_winner_name(s))
            + started)
        out.append(_row(game_heads, game_w, game_a, game_seps))
        for g in s["games"]:
            who = "-" if g["winner"] is None else _player(s, g["winner"])
            out.append(_row([g["number"], who[:game_w[1]],
                             g["points"] if g["points"] is not None else "-",
                             ended_word(g["ended"]), g["cube"], g["moves"]],
                            game_w, game_a, game_seps))
        out.append(_row(total_heads, total_w, total_a, total_seps))
        for name, t in zip((p1, p2), s["totals"]):
            out.append(_row([name[:total_w[0]], t["games_won"], t["points"], t["gammons"],
                             t["doubles"], t["takes"], t["drops"]], total_w, total_a, total_seps))
        out.extend(analysis_table(s, p1, p2))
        out.append("")
    return "\n".join(out)


#: the cell of a figure the record cannot give
UNKNOWN = "\u2014"


def _analysis_rows(st: dict[str, dict[str, list]], length: int) -> list[tuple[str, Any, Any]]:
    """(label, player 0's cell, player 1's cell) of the analysis table."""
    unit = _("MWC %") if length else _("points")

    def pair(section: str, key: str, fmt: str = "{:+.3f}") -> tuple[str, str]:
        # None: a figure the record cannot give (the luck of a record that
        # states none)
        return tuple(UNKNOWN if v is None else fmt.format(v)   # type: ignore[return-value]
                     for v in st[section][key])

    def both(label: str, cells: tuple) -> tuple[str, Any, Any]:
        return (label, cells[0], cells[1])

    c, k, lk, o, x = st["checker"], st["cube"], st["luck"], st["overall"], st["xg"]
    rows = [
        both(_("moves (unforced)"), tuple(f"{c['moves'][i]} ({c['unforced_moves'][i]})"
                                          for i in (0, 1))),
        both(_("checker error total, EMG ({unit})").format(unit=unit), tuple(
            f"{c['error_total'][i]:+.3f} ({c['error_total_mwc'][i]:+.3f})" for i in (0, 1))),
        both(_("checker error rate, mEMG"), pair("checker", "error_rate", "{:+.1f}")),
        both(_("plays marked doubtful / bad / very bad"), tuple(
            f"{c['doubtful'][i]} / {c['bad'][i]} / {c['very_bad'][i]}" for i in (0, 1))),
        both(_("cube decisions (close or actual)"), tuple(
            f"{k['cube_decisions'][i]} ({k['close_cube_decisions'][i]})" for i in (0, 1))),
        both(_("doubles / takes / passes"), tuple(
            f"{k['doubles'][i]} / {k['takes'][i]} / {k['passes'][i]}" for i in (0, 1))),
        both(_("missed doubles / wrong doubles"), tuple(
            f"{k['missed_doubles_below_cp'][i] + k['missed_doubles_above_cp'][i]} / "
            f"{k['wrong_doubles_below_dp'][i] + k['wrong_doubles_above_tg'][i]}"
            for i in (0, 1))),
        both(_("wrong takes / wrong passes"), tuple(
            f"{k['wrong_takes'][i]} / {k['wrong_passes'][i]}" for i in (0, 1))),
        both(_("cube error total, EMG ({unit})").format(unit=unit), tuple(
            f"{k['error_total'][i]:+.3f} ({k['error_total_mwc'][i]:+.3f})" for i in (0, 1))),
        both(_("cube error rate, mEMG"), pair("cube", "error_rate", "{:+.1f}")),
        both(_("luck total, EMG ({unit})").format(unit=unit), tuple(
            UNKNOWN if lk['luck_total'][i] is None else
            f"{lk['luck_total'][i]:+.3f} ({lk['luck_total_mwc'][i]:+.3f})" for i in (0, 1))),
        both(_("luck rate, mEMG"), pair("luck", "luck_rate", "{:+.1f}")),
        both(_("overall error rate, mEMG"), pair("overall", "error_rate", "{:+.1f}")),
        both(_("Snowie error rate, mEMG"), pair("overall", "snowie_error_rate", "{:+.1f}")),
        both(_("PR (decisions)"), tuple(f"{x['pr'][i]:.2f} ({x['decisions'][i]})"
                                        for i in (0, 1))),
    ]
    return rows


def analysis_table(s: dict[str, Any], p1: str, p2: str) -> list[str]:
    """The per-player analysis table of a summary's match, or the line that
    says it has none (docs/analysis.md defines each figure)."""
    a = s.get("analysis") or {}
    if not a.get("analysed"):
        return ["  " + _("no analysis in this record")]
    rows = _analysis_rows(a["stats"], s["length"])
    label_w = max(len(r[0]) for r in rows)
    cell_w = max(20, *(len(str(r[i])) for r in rows for i in (1, 2)))
    out = ["  " + _("analysis") + ":"]
    out.append(f"  {'':<{label_w}}  {p1[:cell_w]:>{cell_w}}  {p2[:cell_w]:>{cell_w}}")
    for label, left, right in rows:
        out.append(f"  {label:<{label_w}}  {left:>{cell_w}}  {right:>{cell_w}}")
    return out


#: The players are numbered 0 and 1 (the left column of a match file first),
#: as the JSON summary's indexes and the export tables' ``player0``/``score0``
#: columns number them.
CSV_FIELDS = ["path", "player0", "player1", "length", "score0", "score1", "winner", "game",
              "game_winner", "points", "ended", "cube", "moves"]


def _figure_keys() -> list[tuple[str, str]]:
    """(section, figure) of every analysis figure, in the order of :meth:`Figures.stats`."""
    return [(section, key) for section, figures in Figures().stats().items() for key in figures]


#: The analysis columns: ``section.figure.0`` and ``.1`` (players 0 and 1,
#: numbered as everywhere) for every figure of docs/analysis.md.
ANALYSIS_FIELDS = [f"{section}.{key}.{p}" for section, key in _figure_keys() for p in (0, 1)]


def _figure_cells(a: dict[str, Any] | None) -> list[Any]:
    if not a or not a.get("analysed"):
        return [""] * len(ANALYSIS_FIELDS)
    st = a["stats"]
    return [st[section][key][p] for section, key in _figure_keys() for p in (0, 1)]


def csv_text(summaries: list[dict[str, Any]]) -> str:
    """One CSV row per game, with the match's fields repeated (``winner``
    and ``game_winner`` are the winners' names), then the game's analysis
    figures (empty without analysis); a match with an analysis has one more
    row, game ``all``, with the match's figures."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS + ANALYSIS_FIELDS)
    for s in summaries:
        head = [s["path"], s["players"][0], s["players"][1], s["length"],
                s["final_score"][0], s["final_score"][1],
                "" if s["winner"] is None else s["players"][s["winner"]]]
        for g in s["games"]:
            w.writerow(head + [g["number"],
                               "" if g["winner"] is None else s["players"][g["winner"]],
                               "" if g["points"] is None else g["points"], g["ended"] or "",
                               g["cube"], g["moves"]] + _figure_cells(g.get("analysis")))
        if (s.get("analysis") or {}).get("analysed"):
            w.writerow(head + ["all", "", "", "", "", ""] + _figure_cells(s["analysis"]))
    return buf.getvalue()
