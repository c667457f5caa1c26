"""gamao's JSON form of a match, and reading it back.

The document (schema: ``gamao_cli/schemas/match.schema.json``, versioned by
``"version"``) holds the match model with every action as written, plus what
the replay adds: the die steps of each play with hits, the cube, the
position before each action as GNU Backgammon Position ID and Match ID and
as an XGID, each game's result and the running score.

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = (" 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
...         "  1) 31: 8/5 6/5                 61: 13/7 8/7\\n")
>>> doc = match_to_json(read_matches(text, "x.mat")[0])
>>> doc["games"][0]["actions"][0]["steps"]
[{'from': 8, 'to': 5, 'hit': False}, {'from': 6, 'to': 5, 'hit': False}]
>>> read_json(dumps([doc]))[0] == read_matches(text)[0]
True
"""
from __future__ import annotations

import json
from typing import Any

from gamao_cli import model as m
from gamao_cli.errors import NotAMatchFile, SyntaxProblem
from gamao_cli.messages import Msg
from gamao_cli.ids import position_id
from gamao_cli.model import parse_steps
from gamao_cli.replay.replay import Replays
from gamao_cli.replay.snapshots import snapshots

FORMAT_NAME = "gamao-match"
VERSION = 1

_TYPES = {
    m.Play: "play", m.Dance: "dance", m.UnplayedRoll: "unplayed", m.IllegalPlayMarker: "illegal",
    m.Double: "double", m.Take: "take", m.Drop: "drop", m.Win: "win", m.Loss: "loss",
    m.Resign: "resign",
}
_CLASSES = {v: k for k, v in _TYPES.items()}


def _action_json(a: m.ActionType, record, snap=None) -> dict[str, Any]:
    d: dict[str, Any] = {"type": _TYPES[type(a)], "player": a.player, "move": a.move_number,
                         "line": a.line, "column": a.column}
    if isinstance(a, m.Play):
        d["dice"] = list(a.dice)
        d["play"] = a.play_text()
    elif isinstance(a, (m.Dance, m.UnplayedRoll, m.IllegalPlayMarker)):
        d["dice"] = list(a.dice)
        if a.written:
            d["written"] = a.written
    elif isinstance(a, m.Double):
        d["kind"] = a.kind
        d["value"] = a.value
    elif isinstance(a, (m.Win, m.Loss)):
        d["points"] = a.points
        if isinstance(a, m.Win):
            d["match"] = a.match
    if record is not None:
        if record.steps is not None and isinstance(a, m.Play):
            d["steps"] = [{"from": s, "to": t, "hit": h} for s, t, h in record.steps]
        d["cube"] = record.cube
        d["cube_owner"] = record.cube_owner
        if record.position is not None and record.turn is not None:
            d["on_roll"] = record.turn
            try:
                d["position_id"] = position_id(record.position.me, record.position.opp)
            except ValueError:
                # an illegal play replayed as written can leave a position no
                # ID can hold (both players on one point): no IDs then
                snap = None
    if snap is not None:
        try:
            d["match_id"] = snap.match_id
            d["xgid"] = snap.xgid
        except ValueError:
            pass
    return d


def _game_json(game: m.Game, result, snaps: dict) -> dict[str, Any]:
    records = {id(r.action): r for r in result.records}
    sl = game.score
    return {
        "number": game.number,
        "line": game.line,
        "score_line": None if sl is None else {
            "names": list(sl.names), "scores": list(sl.scores),
            "ratings": list(sl.ratings), "line": sl.line},
        "score_before": list(result.score_before),
        "crawford": result.crawford,
        "actions": [_action_json(a, records.get(id(a)), snaps.get(id(a)))
                    for a in game.actions],
        "comments": list(game.comments),
        "result": {"winner": result.winner, "points": result.points,
                   "stated_points": result.stated_points, "ended": result.ended,
                   "cube": result.cube, "moves": result.moves},
    }


def _match_json(match: m.Match, games, replays: Replays | None = None) -> dict[str, Any]:
    """The document of one match; ``games(match, report, snaps)`` gives its games
    (a list, or an iterator that makes them one at a time)."""
    report = (replays or Replays()).of(match)
    snaps = {id(s.action): s for s in snapshots(match, report)}
    return {
        "format": FORMAT_NAME,
        "version": VERSION,
        "path": match.path,
        "length": match.length,
        "players": list(match.players),
        "tags": [{"name": t.name, "value": t.value} for t in match.tags],
        "comments": list(match.comments),
        "games": games(match, report, snaps),
        "final_score": list(report.final_score),
        "winner": report.winner,
        "diagnostics": [d.to_dict() for d in report.diagnostics],
    }


def match_to_json(match: m.Match) -> dict[str, Any]:
    """The JSON document of one match (a dict ready for :func:`json.dumps`)."""
    return _match_json(match, lambda *made: list(_games_one_by_one(*made)))


def _games_one_by_one(match: m.Match, report, snaps):
    for g, r in zip(match.games, report.games):
        yield _game_json(g, r, snaps)


# Laid out one item a line, indented; everything else is written on one line
# (by json's C encoder, which json.dumps uses only without indentation).
_LAID_OUT = ("matches", "games")


def _lay_out(value: Any, pad: str, out: list[str]) -> None:
    """Append the JSON of ``value`` to ``out``: a dict one key a line, the
    lists named in :data:`_LAID_OUT` and ``actions`` one item a line."""
    if not isinstance(value, dict):
        out.append(_compact(value))
        return
    out.append("{")
    sep = "\n"
    for key, v in value.items():
        out.append(f"{sep}{pad} {_compact(key)}: ")
        sep = ",\n"
        if key in _LAID_OUT or key == "actions":
            inner = pad + "  "
            out.append("[")
            first = True
            for item in v:
                out.append(("\n" if first else ",\n") + inner)
                first = False
                if key == "actions":
                    out.append(_compact(item))
                else:
                    _lay_out(item, inner, out)
            out.append("]" if first else f"\n{pad} ]")
        else:
            out.append(_compact(v))
    out.append(f"\n{pad}}}")


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def dumps(docs: list[dict[str, Any]]) -> str:
    """One match: its document; several: ``{"matches": [...]}``. Each game
    and each action is on a line of its own.

    >>> print(dumps([{"format": "x", "games": [{"number": 1, "actions": [{"a": 1}, {"b": 2}]}]}]))
    {
     "format": "x",
     "games": [
      {
       "number": 1,
       "actions": [
        {"a": 1},
        {"b": 2}
       ]
      }
     ]
    }
    <BLANKLINE>
    """
    body: Any = docs[0] if len(docs) == 1 else {"format": FORMAT_NAME + "s", "version": VERSION,
                                                 "matches": docs}
    out: list[str] = []
    _lay_out(body, "", out)
    out.append("\n")
    return "".join(out)


def write_json(matches: list[m.Match], replays: Replays | None = None) -> tuple[str, int]:
    """The JSON text of ``matches`` and the number of errors the validator
    found, made one game at a time (the documents of a match of thousands of
    games are never all in memory at once)."""
    replays = replays or Replays()
    docs = [_match_json(mt, _games_one_by_one, replays) for mt in matches]
    errors = sum(1 for d in docs for x in d["diagnostics"] if x["severity"] == "error")
    return dumps(docs), errors


# -- reading ---------------------------------------------------------------

def _bad(path: str, key: str, **fields: Any) -> SyntaxProblem:
    return SyntaxProblem(path, key=key, fields=fields, line=1, column=1)


def _action_from_json(d: dict[str, Any], path: str) -> m.ActionType:
    cls = _CLASSES.get(d.get("type"))
    if cls is None:
        raise _bad(path, "GM001.json-action-type", type=d.get("type"))
    player = d["player"]
    if player not in (0, 1):
        raise _bad(path, "GM001.json-player", player=player)
    kw = {"line": d.get("line") or 0, "column": d.get("column") or 0, "move_number": d.get("move")}
    if cls is m.Play:
        moves = parse_steps(d["play"], kw["line"], kw["column"])
        if " ".join(str(s) for s in moves) != " ".join(d["play"].split()):
            raise _bad(path, "GM001.json-play", play=d["play"])
        return m.Play(player, dice=tuple(d["dice"]), moves=moves, **kw)
    if cls in (m.Dance, m.UnplayedRoll, m.IllegalPlayMarker):
        extra = {"written": d["written"]} if "written" in d else {}
        return cls(player, dice=tuple(d["dice"]), **extra, **kw)
    if cls is m.Double:
        return m.Double(player, value=d.get("value"), kind=d.get("kind", "double"), **kw)
    if cls is m.Win:
        return m.Win(player, points=d["points"], match=bool(d.get("match")), **kw)
    if cls is m.Loss:
        return m.Loss(player, points=d["points"], **kw)
    return cls(player, **kw)


def match_from_json(doc: dict[str, Any], path: str = "") -> m.Match:
    if doc.get("format") != FORMAT_NAME:
        raise NotAMatchFile(path, key="GM002.json-format", fields={"format": doc.get("format")},
                            line=1, column=1)
    if doc.get("version") != VERSION:
        raise _bad(path, "GM001.json-version", version=doc.get("version"), supported=VERSION)
    match = m.Match(int(doc["length"]), path=path)
    match.tags = [m.Tag(t["name"], t["value"]) for t in doc.get("tags", [])]
    match.comments = list(doc.get("comments", []))
    for g in doc.get("games", []):
        sl = g.get("score_line")
        score = None if sl is None else m.ScoreLine(
            tuple(sl["names"]), tuple(sl["scores"]), tuple(sl.get("ratings") or (None, None)),
            line=sl.get("line") or 0)
        game = m.Game(int(g["number"]), score, line=g.get("line") or 0)
        game.actions = [_action_from_json(a, path) for a in g.get("actions", [])]
        game.comments = list(g.get("comments", []))
        match.games.append(game)
    return match


def read_json(text: str, path: str = "") -> list[m.Match]:
    """Read gamao's JSON (one match or ``{"matches": [...]}``) back into matches."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SyntaxProblem(path, key="GM001.json-syntax", fields={"detail": _json_reason(exc.msg)},
                            line=exc.lineno, column=exc.colno) from None
    try:
        if isinstance(doc, dict) and "matches" in doc:
            return [match_from_json(d, path) for d in doc["matches"]]
        if isinstance(doc, dict):
            return [match_from_json(doc, path)]
    except (KeyError, TypeError, ValueError) as exc:
        raise _bad(path, "GM001.json-shape", error=type(exc).__name__, detail=str(exc)) from None
    raise NotAMatchFile(path, key="GM002.json", line=1, column=1)


#: The message key of each reason :mod:`json` gives for text that is not JSON.
_JSON_REASONS = {
    "Expecting value": "json.expecting-value",
    "Expecting property name enclosed in double quotes": "json.expecting-name",
    "Expecting ':' delimiter": "json.expecting-colon",
    "Expecting ',' delimiter": "json.expecting-comma",
    "Unterminated string starting at": "json.unterminated-string",
    "Invalid control character at": "json.control-character",
    "Invalid \\escape": "json.bad-escape",
    "Invalid \\uXXXX escape": "json.bad-unicode-escape",
    "Extra data": "json.extra-data",
}


def _json_reason(msg: str) -> Msg:
    key = _JSON_REASONS.get(msg)
    return Msg(key, {}) if key else Msg("json.other", {"detail": msg})
