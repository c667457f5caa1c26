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

from gamao_cli import model as m
from gamao_cli.ids import position_id

from .diagnostics import Diagnostic

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


def check_stated(g, a: m.ActionType) -> None:
    """Check what ``a`` states against the replay ``g`` (a game's replay of
    :mod:`.replay`) before ``a`` is replayed: the position it states (the
    first disagreement of a game, GM109) and XG's own invalid mark (GM110).
    Made inside the replay, so that a record of stated positions keeps the
    replay's fast path (no position is kept for each action)."""
    # ``is not None``, never the mapping's truth: XG's analysis is decoded
    # when first looked at, and its truth (its length) would decode it all
    analysis = a.analysis
    if type(a) is m.Play and analysis is not None and analysis.get("invalid") == XG_INVALID:
        _say(g, a, "GM110", {"cell": a.text()}, dice=f"{a.dice[0]}{a.dice[1]}",
             play=a.play_text())
    if a.stated is None or g.stated_reported:
        return
    turn = g.cube.turn
    if turn is None and type(a) is not m.Play:
        return   # before the opening roll only a play has a position to state
    pos = g.start if turn is None else g.pos
    if pos is None:
        return
    if turn is not None and turn != a.player:
        pos = pos.swapped()
    me, opp = a.stated
    if tuple(me) == pos.me and tuple(opp) == pos.opp:
        return
    g.stated_reported = True
    _say(g, a, "GM109", {"cell": a.text(), "stated": _pid(me, opp),
                         "replayed": _pid(pos.me, pos.opp)})


def _say(g, a: m.ActionType, code: str, fields: dict, **kw) -> None:
    # an XG action has no line (0): the diagnostic then has none
    g.v.add(Diagnostic(code, key=code, fields=fields, line=a.line or None,
                       column=a.column or None, game=g.game.number, move=a.move_number,
                       player=str(g.name(a.player)), **kw))


def with_stated_checks(handlers: dict) -> dict:
    """``handlers`` (the replay's table of action kinds), each preceded by
    :func:`check_stated`."""
    def checked(handler):
        def run(g, a):
            check_stated(g, a)
            handler(g, a)
        return run
    return {cls: checked(handler) for cls, handler in handlers.items()}
