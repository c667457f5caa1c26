"""What a record states besides its cells, checked against the replay.

eXtreme Gammon's files state the position before every action
(``action.stated``) and mark plays XG itself judged invalid
(``action.analysis["invalid"]``). The replay computes the position on its
own; where the two disagree the record contradicts itself, and that is a
finding (GM109, the first of each game: every later position of that game
then differs too). A play XG marks invalid is said (GM110) whatever gamao's
replay makes of it, so that XG's own verdict is never hidden.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from gamao_cli import model as m
from gamao_cli.ids import position_id

from gamao_cli.messages import render

from .diagnostics import Diagnostic

if TYPE_CHECKING:  # pragma: no cover
    from .replay import MatchReport

#: XG's mark of a play it refused (its InvalidM 2).
XG_INVALID = 2


def has_stated(match: m.Match) -> bool:
    """Whether the record states positions (the first actions of a game tell)."""
    return any(a.stated is not None for g in match.games for a in g.actions[:2])


def _pid(side_me, side_opp) -> str:
    try:
        return position_id(side_me, side_opp)
    except ValueError:
        return "(no Position ID: " + " ".join(map(str, side_me)) + " / " + \
            " ".join(map(str, side_opp)) + ")"


def stated_diagnostics(match: m.Match, report: MatchReport, names) -> list[Diagnostic]:
    """The findings of the stated positions and marks of ``match`` against
    its replay (``report`` made with ``keep_records=True``)."""
    out: list[Diagnostic] = []
    for result in report.games:
        reported = False
        for rec in result.records:
            a = rec.action
            if a.analysis and a.analysis.get("invalid") == XG_INVALID and isinstance(a, m.Play):
                out.append(Diagnostic(
                    "GM110", render("GM110", {"cell": a.text()}),
                    key="GM110", fields={"cell": a.text()}, path=match.path, line=a.line or None,
                    column=a.column or None, game=result.number, move=a.move_number,
                    player=names(a.player), dice=f"{a.dice[0]}{a.dice[1]}", play=a.play_text()))
            if reported or a.stated is None or rec.position is None or rec.turn is None:
                continue
            pos = rec.position if rec.turn == a.player else rec.position.swapped()
            me, opp = a.stated
            if tuple(me) == pos.me and tuple(opp) == pos.opp:
                continue
            reported = True
            stated, replayed = _pid(me, opp), _pid(pos.me, pos.opp)
            fields = {"cell": a.text(), "stated": stated, "replayed": replayed}
            out.append(Diagnostic(
                "GM109", render("GM109", fields), key="GM109", fields=fields,
                path=match.path, line=a.line or None, column=a.column or None,
                game=result.number, move=a.move_number, player=names(a.player)))
    return out
