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
from gamao_cli.ids import MatchState, match_id, position_id
from gamao_cli.messages import Msg

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
    me, opp = a.stated[0], a.stated[1]
    if len(a.stated) > 2 and not getattr(g, "match_id_reported", False):
        _check_match_id(g, a, a.stated[2])
    if tuple(me) == pos.me and tuple(opp) == pos.opp:
        return
    g.stated_reported = True
    _say(g, a, "GM109", {"cell": a.text(), "stated": _pid(me, opp),
                         "replayed": _pid(pos.me, pos.opp)})


_ANSWERS = (m.Take, m.Drop)


def replayed_state(g, a: m.ActionType) -> dict:
    """What a Match ID says before ``a``, as the replay ``g`` has it."""
    cube = g.cube
    answer = type(a) in _ANSWERS or (type(a) is m.Double and a.kind != "double")
    dice = tuple(sorted(a.dice, reverse=True)) if type(a) in (m.Play, m.Dance) else (0, 0)
    score = g.v.score
    return {"cube": cube.value, "cube owner": cube.owner,
            "player on roll": 1 - a.player if answer else a.player, "player to act": a.player,
            "double offered": answer, "dice": dice, "match length": g.v.match.length,
            "score": (score[0], score[1]), "Crawford game": cube.crawford}


def _stated_fields(state: MatchState) -> dict:
    return {"cube": state.cube, "cube owner": state.cube_owner,
            "player on roll": state.on_roll, "player to act": state.turn,
            "double offered": state.double_offered,
            "dice": tuple(sorted(state.dice, reverse=True)), "match length": state.length,
            "score": state.score, "Crawford game": state.crawford}


def _check_match_id(g, a: m.ActionType, state: MatchState) -> None:
    replayed = replayed_state(g, a)
    stated = _stated_fields(state)
    for what, value in stated.items():
        if replayed[what] != value:
            g.match_id_reported = True
            try:
                ours = match_id(MatchState(
                    cube=min(replayed["cube"], 1 << 15), cube_owner=replayed["cube owner"],
                    on_roll=replayed["player on roll"], crawford=replayed["Crawford game"],
                    game_state=state.game_state, turn=replayed["player to act"],
                    double_offered=replayed["double offered"], dice=replayed["dice"],
                    length=min(replayed["match length"], (1 << 15) - 1),
                    score=tuple(min(x, (1 << 15) - 1) for x in replayed["score"]),
                    jacoby=state.jacoby))
            except ValueError:
                ours = "-"
            _say(g, a, "GM116", {"cell": a.text(), "stated": match_id(state),
                                 "what": Msg("matchid." + what.replace(" ", "-"), {}),
                                 "stated_value": _shown(g, what, value), "replayed": ours,
                                 "replayed_value": _shown(g, what, replayed[what])})
            return


def _shown(g, what: str, value):
    """A Match ID field's value as a message says it: a player by name, a
    centred cube, yes or no, dice as 64, a score as 1-0."""
    if what in ("player on roll", "player to act") or (what == "cube owner" and value is not None):
        return str(g.name(value))
    if what == "cube owner":
        return Msg("matchid.centred", {})
    if isinstance(value, bool):
        return Msg("matchid.yes" if value else "matchid.no", {})
    if what == "dice":
        return "-" if value == (0, 0) else f"{value[0]}{value[1]}"
    if what == "score":
        return f"{value[0]}-{value[1]}"
    return value


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
