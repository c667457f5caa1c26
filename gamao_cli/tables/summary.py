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
from gamao_cli.replay.replay import MatchReport, validate_match


def summarise(match: m.Match, report: MatchReport | None = None) -> dict[str, Any]:
    """The summary of one match as a JSON-ready dict (index 0 = left player)."""
    report = report or validate_match(match)
    games = []
    totals = [{"games_won": 0, "points": 0, "gammons": 0, "backgammons": 0, "doubles": 0,
               "takes": 0, "drops": 0} for _ in range(2)]
    for game, result in zip(match.games, report.games):
        games.append({"number": result.number, "winner": result.winner,
                      "points": result.points, "ended": result.ended and result.ended.value,
                      "cube": result.cube,
                      "moves": result.moves})
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
    }


def _winner_name(s: dict[str, Any]) -> str:
    if s["winner"] is None:
        return "(money session)" if s["length"] == 0 else "(not decided)"
    return s["players"][s["winner"]] or f"player {s['winner'] + 1}"


def table(summaries: list[dict[str, Any]]) -> str:
    """A plain-text report for people."""
    out: list[str] = []
    for s in summaries:
        p1, p2 = (n or f"player {i + 1}" for i, n in enumerate(s["players"]))
        length = "money session" if s["length"] == 0 else f"{s['length']}-point match"
        out.append(f"{s['path']}: {p1} vs {p2}, {length}")
        start = s.get("start_score") or [0, 0]
        out.append(f"  final score {s['final_score'][0]}-{s['final_score'][1]}, "
                   f"winner: {_winner_name(s)}"
                   + (f" (the record starts at {start[0]}-{start[1]})" if any(start) else ""))
        out.append(f"  {'game':>4}  {'winner':<20} {'points':>6}  {'ended':<10} {'cube':>4} {'moves':>5}")
        for g in s["games"]:
            who = "-" if g["winner"] is None else (s["players"][g["winner"]] or f"player {g['winner'] + 1}")
            out.append(f"  {g['number']:>4}  {who[:20]:<20} {g['points'] if g['points'] is not None else '-':>6}"
                       f"  {g['ended'] or '-':<10} {g['cube']:>4} {g['moves']:>5}")
        out.append(f"  {'player':<20} {'won':>4} {'points':>6} {'gammons':>7} {'doubles':>7} {'takes':>5} {'drops':>5}")
        for name, t in zip((p1, p2), s["totals"]):
            out.append(f"  {name[:20]:<20} {t['games_won']:>4} {t['points']:>6} {t['gammons']:>7} "
                       f"{t['doubles']:>7} {t['takes']:>5} {t['drops']:>5}")
        out.append("")
    return "\n".join(out)


CSV_FIELDS = ["path", "player1", "player2", "length", "score1", "score2", "winner", "game",
              "game_winner", "points", "ended", "cube", "moves"]


def csv_text(summaries: list[dict[str, Any]]) -> str:
    """One CSV row per game, with the match's fields repeated."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for s in summaries:
        for g in s["games"]:
            w.writerow([s["path"], s["players"][0], s["players"][1], s["length"],
                        s["final_score"][0], s["final_score"][1],
                        "" if s["winner"] is None else s["players"][s["winner"]], g["number"],
                        "" if g["winner"] is None else s["players"][g["winner"]],
                        "" if g["points"] is None else g["points"], g["ended"] or "", g["cube"],
                        g["moves"]])
    return buf.getvalue()
