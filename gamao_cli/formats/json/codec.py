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
import math
import sys
from typing import Any, Callable, Iterable, Iterator, Sequence

from gamao_cli import model as m
from gamao_cli.errors import NotAMatchFile, SchemaProblem, SyntaxProblem, WriteRefused
from gamao_cli.messages import Msg
from gamao_cli.ids.board import board_facts
from gamao_cli.model import parse_steps
from gamao_cli.replay.replay import GameResult, Replays, validate_match
from gamao_cli.replay.snapshots import game_state_ids

from ..base import LazyAnalysis, Note, WriteResult
from ..limits import MAX_DIGITS, MAX_JSON_DEPTH, fits, play_problem, too_long
from ..mat.reader import roll_play_readable
from ..textio import escape_surrogates
from . import locate
from .schema import violations

FORMAT_NAME = "gamao-match"
VERSION = 1

_TYPES = {
    m.Play: "play", m.Dance: "dance", m.UnplayedRoll: "unplayed", m.IllegalPlayMarker: "illegal",
    m.Double: "double", m.Take: "take", m.Drop: "drop", m.Win: "win", m.Loss: "loss",
    m.Resign: "resign", m.SetUp: "setup",
}
_CLASSES = {v: k for k, v in _TYPES.items()}


def _action_json(a: m.ActionType, record, state: tuple[str, str] | None = None
                 ) -> dict[str, Any]:
    """An action's document; ``record``: its replay's, ``state``: the Match
    ID and XGID tail of the state before it (:func:`game_state_ids`)."""
    d: dict[str, Any] = {"type": _TYPES[type(a)], "player": a.player, "move": a.move_number,
                         "line": a.line, "column": a.column}
    if isinstance(a, m.Play):
        d["dice"] = list(a.dice)
        d["play"] = a.play_text()
    elif isinstance(a, (m.Dance, m.UnplayedRoll, m.IllegalPlayMarker)):
        d["dice"] = list(a.dice)
        if a.written:
            d["written"] = a.written
    elif isinstance(a, m.Resign):
        if a.word != "Resigns":
            d["written"] = a.word
    elif isinstance(a, m.Double):
        d["kind"] = a.kind
        d["value"] = a.value
    elif isinstance(a, (m.Win, m.Loss)):
        d["points"] = a.points
        if isinstance(a, m.Win):
            d["match"] = a.match
    elif isinstance(a, m.SetUp):
        d["board"] = None if a.sides is None else [list(side) for side in a.sides]
        d["set_cube"] = a.cube
        d["set_cube_owner"] = "centred" if a.cube_owner == m.CENTRED else a.cube_owner
        if a.written:
            d["written"] = a.written
    analysis = a.analysis
    if analysis is not None:
        d["analysis"] = analysis.copy() if isinstance(analysis, (dict, LazyAnalysis)) \
            else dict(analysis)
    if record is not None:
        if record.steps is not None and isinstance(a, m.Play):
            d["steps"] = [{"from": s, "to": t, "hit": h} for s, t, h in record.steps]
        d["cube"] = record.cube
        d["cube_owner"] = record.cube_owner
        pos = record.position
        if pos is not None and record.turn is not None:
            d["on_roll"] = record.turn
            pid, field = board_facts(pos.me, pos.opp, record.turn == 1)[:2]
            if pid is not None:
                d["position_id"] = pid
                if state is not None:   # (the Match ID and XGID tail of its state)
                    d["match_id"] = state[0]
                    d["xgid"] = "XGID=" + field + state[1]
            # else an illegal play replayed as written left a position no ID
            # can hold (both players on one point): no IDs then
    return d


def _game_json(game: m.Game, result, states: dict) -> dict[str, Any]:
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
        "actions": [_action_json(a, records.get(id(a)), states.get(id(a)))
                    for a in game.actions],
        "comments": list(game.comments),
        "result": {"winner": result.winner, "points": result.points,
                   "stated_points": result.stated_points, "ended": result.ended,
                   "cube": result.cube, "moves": result.moves},
    }


def _match_json(match: m.Match, games, report) -> dict[str, Any]:
    """The document of one match; ``games(match, report)`` gives its games
    (a list, or an iterator that makes them one at a time)."""
    return {
        "format": FORMAT_NAME,
        "version": VERSION,
        "path": match.path,
        "length": match.length,
        "players": list(match.players),
        "tags": [{"name": t.name, "value": t.value} for t in match.tags],
        "comments": list(match.comments),
        "games": games(match, report),
        "final_score": list(report.final_score),
        "winner": report.winner,
        "diagnostics": [_diagnostic_json(d) for d in report.diagnostics],
    }


def _diagnostic_json(d) -> dict[str, Any]:
    """A diagnostic as the schema has it: a line or column is from 1 (an
    action made in Python has none, 0: null)."""
    out = d.to_dict()
    for key in ("line", "column"):
        if out.get(key) is not None and out[key] < 1:
            out[key] = None
    return out


def match_to_json(match: m.Match) -> dict[str, Any]:
    """The JSON document of one match (a dict ready for :func:`json.dumps`)."""
    return _match_json(match, lambda *made: list(_games_one_by_one(*made)),
                       Replays().of(match))


class _OneGame:
    """The replay of one game, as :func:`game_state_ids` takes a match's."""

    __slots__ = ("games",)

    def __init__(self, result) -> None:
        self.games = [result]


def _games_one_by_one(match: m.Match, report):
    """The document of each game, made when asked for: the positions of one
    game at a time are in memory, never those of the whole match."""
    results = list(report.games)
    # a match the replay could not play (an unknown variant): its games are
    # written all the same, without what the replay adds
    results += [GameResult(g.number) for g in match.games[len(results):]]
    for g, r in zip(match.games, results):
        view = m.Match(match.length, [g], match.tags, match.comments, match.path)
        states = {id(rec.action): ids for placed in game_state_ids(view, _OneGame(r))
                  for rec, (ids, _fields) in placed} if r.records else {}
        yield _game_json(g, r, states)


# Laid out one item a line, indented; everything else is written on one line
# (by json's C encoder, which json.dumps uses only without indentation).
_LAID_OUT = ("matches", "games")


def _lay_out(value: Any, pad: str, where: tuple = (), seen: list | None = None
             ) -> Iterator[str]:
    """The JSON of ``value`` in pieces: a dict one key a line, the lists
    named in :data:`_LAID_OUT` and ``actions`` one item a line; each game a
    piece of its own (so that a match of thousands of games is written
    game by game). ``where``: the JSON path of ``value``, for a refusal;
    ``seen`` gets the JSON path of each figure that is no number (NaN,
    infinity), written ``null``."""
    if not isinstance(value, dict):
        yield _compact(value, where, seen)
        return
    yield "{"
    sep = "\n"
    for key, v in value.items():
        yield f"{sep}{pad} {_compact(key, where)}: "
        sep = ",\n"
        if key == "actions" and v:
            # every action on a line of its own, all encoded at C speed
            # (an int too long to write: the loop below says where)
            inner = pad + "  "
            try:
                text = (",\n" + inner).join(map(_ENCODE_ITEM, v))
            except ValueError:
                pass
            else:
                yield "[\n" + inner + escape_surrogates(text) + f"\n{pad} ]"
                continue
        if key in _LAID_OUT or key == "actions":
            inner = pad + "  "
            yield "["
            first = True
            for i, item in enumerate(v):
                yield ("\n" if first else ",\n") + inner
                first = False
                if key == "actions":
                    yield _compact(item, where + (key, i), seen)
                elif key == "games":
                    yield "".join(_lay_out(item, inner, where + (key, i), seen))
                else:
                    yield from _lay_out(item, inner, where + (key, i), seen)
            yield "]" if first else f"\n{pad} ]"
        else:
            yield _compact(v, where + (key,), seen)
    yield f"\n{pad}}}"


# json.dumps(value, ensure_ascii=False, allow_nan=False) makes an encoder a
# call: one for all
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
_ENCODE = _ENCODER.encode


def _item_encoder() -> Callable[[Any], str]:
    """What :data:`_ENCODE` does to a dict, without the encoder's Python
    wrapper around its C function, which JSONEncoder.encode makes anew at
    every call (a third of the cost of an action's line): json's C encoder
    with the same settings, made once (no check for a value that contains
    itself: an action is a tree gamao builds). Where this Python has no C
    encoder, or it does not write what :data:`_ENCODE` writes, it is
    :data:`_ENCODE`."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return _ENCODE
    try:
        c_encode = make(None, _ENCODER.default, json.encoder.encode_basestring, None, ": ", ", ",
                        False, False, False)
    except TypeError:   # another signature: not this json
        return _ENCODE

    def encode(value: Any, _encode=c_encode, _join="".join) -> str:
        return _join(_encode(value, 0))

    sample = {"a": [1, -2.5, None, True, {"b": "ç\u2028\x00\"", "c": []}], "d": {}}
    try:
        if encode(sample) != _ENCODE(sample):
            return _ENCODE
    except Exception:
        return _ENCODE
    return encode


#: an action's line: :data:`_ENCODE` of a dict, at C speed
_ENCODE_ITEM = _item_encoder()


def _compact(value: Any, where: tuple = (), seen: list | None = None) -> str:
    """``value`` as strict JSON on one line: a float that is no number
    (NaN, infinity: JSON has none) is ``null`` (its path added to ``seen``);
    an int of more than MAX_DIGITS digits, which no reader of gamao's reads
    back, is refused."""
    try:
        text = _ENCODE(value)
    except ValueError as exc:
        if "Out of range float" not in str(exc):   # an int of more digits than Python writes
            raise _number_refusal(value, where) from None
        value = _no_nan(value, where, seen if seen is not None else [])
        try:
            text = _ENCODE(value)
        except ValueError:
            raise _number_refusal(value, where) from None
    if len(text) > MAX_DIGITS and _number_refusal_at(value, where) is not None:
        raise _number_refusal(value, where)
    # (a lone surrogate, from a file name that is no UTF-8, as its JSON escape)
    return escape_surrogates(text)


def _no_nan(v: Any, at: tuple, seen: list) -> Any:
    """``v`` with every float that is no number replaced by None (its JSON
    path appended to ``seen``)."""
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        seen.append(at)
        return None
    if isinstance(v, dict):
        return {k: _no_nan(x, at + (k,), seen) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_no_nan(x, at + (i,), seen) for i, x in enumerate(v)]
    return v


def json_path(at: tuple) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in at)


def _number_refusal(value: Any, where: tuple) -> WriteRefused:
    """The refusal to write ``value``, which holds an int of more than
    MAX_DIGITS digits (a cube doubled thousands of times, a running score):
    no reader of gamao's would read it back."""
    at = _number_refusal_at(value, where) or where
    return WriteRefused("GM507.number", {"format": "JSON", "at": json_path(at),
                                         "limit": MAX_DIGITS})


def _number_refusal_at(v: Any, at: tuple) -> tuple | None:
    """The JSON path of the first int of more than MAX_DIGITS digits in ``v``."""
    if isinstance(v, int) and not isinstance(v, bool) and not fits(v):
        return at
    items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
    for k, sub in items:
        got = _number_refusal_at(sub, at + (k,))
        if got is not None:
            return got
    return None


def iter_dumps(docs: Iterable[dict[str, Any]], count: int, seen: list | None = None
               ) -> Iterator[str]:
    """:func:`dumps` in pieces, for ``count`` documents given one at a time
    (``seen``: as :func:`_lay_out` takes it)."""
    if count == 1:
        body: Any = next(iter(docs))
    else:
        body = {"format": FORMAT_NAME + "s", "version": VERSION, "matches": docs}
    yield from _lay_out(body, "", (), seen)
    yield "\n"


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
    return "".join(iter_dumps(docs, len(docs)))


def write_json(matches: Sequence[m.Match], replays: Replays | None = None) -> WriteResult:
    """``matches`` as gamao's JSON, made when the result's chunks are taken:
    one match replayed at a time (kept only in ``replays``, when given), its
    games written one at a time, so that memory holds one match's replay and
    one game's positions. Refuses (:class:`WriteRefused`) no matches at all,
    which no reader reads back, and a number too long to read back."""
    if not matches:
        raise WriteRefused("GM507.no-matches", {"format": Msg("written.json-file", {})})
    result = WriteResult()

    def docs() -> Iterator[dict[str, Any]]:
        for match in matches:
            report = replays.of(match) if replays is not None else \
                validate_match(match, keep_records=True)
            result.add_errors(report.errors)
            yield _match_json(match, _games_one_by_one, report)

    seen: list = []

    def chunks() -> Iterator[str]:
        yield from iter_dumps(docs(), len(matches), seen)
        if seen:   # figures that are no number (an engine's NaN, infinity)
            result.note(Note("GM509", {"n": len(seen), "first": json_path(seen[0])}))

    result.set_chunks(chunks())
    return result


# -- reading ---------------------------------------------------------------
#
# A document is checked before any model object is made: it must be JSON
# within the bounds every reader keeps (formats.limits: numbers, nesting),
# say it is gamao's JSON of a version this gamao reads, follow the schema
# (json/schema.py; GM007 with the JSON path, line and column of the first
# violations), and hold plays the match-file grammar reads. Building the
# model then cannot fail.


def _shown(value: Any) -> str:
    """A JSON value as the file writes it (``null``, ``"x"``), never Python's
    ``None``; cut to 40 characters."""
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 40 else shown[:39] + "…"


def _bad(path: str, key: str, **fields: Any) -> SyntaxProblem:
    return SyntaxProblem(path, key=key, fields=fields, line=1, column=1)

MORE_VIOLATIONS = 5   # how many violations a GM007 message names


class _Refused(Exception):
    """A number or constant :func:`json.loads` must not turn into a value."""

    def __init__(self, key: str, literal: str):
        self.key, self.literal = key, literal


def _parse_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _Refused("GM001.json-range", literal)
    return value


def _parse_constant(literal: str) -> float:
    raise _Refused("GM001.json-constant", literal)


def _frames() -> int:
    n, f = 0, sys._getframe()
    while f is not None:
        n += 1
        f = f.f_back
    return n


def _nested_deeper(doc: Any, limit: int) -> bool:
    """Whether arrays and objects in ``doc`` nest more than ``limit`` levels
    (the outermost container is level 1), without recursion."""
    if not isinstance(doc, (list, dict)):
        return False
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        for child in (value.values() if isinstance(value, dict) else value):
            if isinstance(child, (list, dict)):
                if depth >= limit:
                    return True
                stack.append((child, depth + 1))
    return False


def _loads(text: str, path: str) -> Any:
    """``json.loads`` within the bounds: no number of more than MAX_DIGITS
    digits, no Infinity or NaN, no float beyond range, no nesting much deeper
    than MAX_JSON_DEPTH (the recursion limit is lowered while parsing)."""
    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(_frames() + MAX_JSON_DEPTH + 24)
        try:
            doc = json.loads(text, parse_float=_parse_float, parse_constant=_parse_constant)
        finally:
            sys.setrecursionlimit(old)
        # Since CPython 3.12 the C decoder counts its nesting apart from the
        # recursion limit, so the lowered limit above stops it only on 3.11:
        # the depth is measured on the value too, the same on every version.
        if _nested_deeper(doc, MAX_JSON_DEPTH):
            raise RecursionError
        return doc
    except json.JSONDecodeError as exc:
        raise SyntaxProblem(path, key="GM001.json-syntax", fields={"detail": _json_reason(exc.msg)},
                            line=exc.lineno, column=exc.colno) from None
    except _Refused as exc:
        line, column = locate.find_literal(text, exc.literal) or (1, 1)
        raise SyntaxProblem(path, key=exc.key, fields={"found": exc.literal[:40]}, line=line,
                            column=column) from None
    except RecursionError:
        line, column = locate.deeper_than(text, MAX_JSON_DEPTH) or (1, 1)
        raise SyntaxProblem(path, key="GM001.json-depth", fields={"limit": MAX_JSON_DEPTH},
                            line=line, column=column) from None
    except ValueError as exc:   # an int of more digits than Python converts
        found = locate.find_long_number(text, MAX_DIGITS)
        if found is None:
            raise SyntaxProblem(path, key="GM001.json-syntax", line=1, column=1, fields={
                "detail": Msg("json.other", {"detail": str(exc)})}) from None
        literal, (line, column) = found
        raise too_long(literal, path, line, column) from None


def _schema_problem(doc: Any, text: str, path: str) -> SyntaxProblem | None:
    found = violations(doc, MORE_VIOLATIONS + 1)
    if not found:
        return None
    first = found[0]
    line, column = locate.locate(text, first.parts)
    problem = Msg(first.key, first.fields)
    if len(found) == 1:
        return SchemaProblem(path, key="GM007.schema", line=line, column=column,
                             fields={"at": first.path, "problem": problem})
    more = found[1:MORE_VIOLATIONS]
    paths = ", ".join(v.path for v in more) + (", ..." if len(found) > MORE_VIOLATIONS else "")
    return SchemaProblem(path, key="GM007.schema-more", line=line, column=column,
                         fields={"at": first.path, "problem": problem, "more": len(found) - 1,
                                 "paths": paths, "violations": [
                                     {"at": v.path, "key": v.key, "fields": v.fields}
                                     for v in found]})


def _play_problem(play: str, path: str, text: str, parts: tuple) -> SyntaxProblem | None:
    """What makes the text of a play unreadable (formats.limits' bounds, or
    a play the match-file grammar does not read), located in the JSON text."""
    problem = play_problem(play, path, None, None)
    if problem is None and (not play or not roll_play_readable(play)
                            or " ".join(str(s) for s in parse_steps(play)) != play):
        problem = SyntaxProblem(path, key="GM001.json-play", fields={"play": play[:60]})
    if problem is None:
        return None
    line, column = locate.locate(text, parts)
    problem.line, problem.column = line, column
    problem.args = (problem.describe(),)
    return problem


def _action_from_json(d: dict[str, Any]) -> m.ActionType:
    action = _action_fields_from_json(d)
    analysis = d.get("analysis")
    if isinstance(analysis, dict):
        action.analysis = analysis
    return action


def _action_fields_from_json(d: dict[str, Any]) -> m.ActionType:
    cls = _CLASSES[d["type"]]
    player = d["player"]
    kw = {"line": d.get("line") or 0, "column": d.get("column") or 0, "move_number": d.get("move")}
    if cls is m.Play:
        return m.Play(player, dice=tuple(d["dice"]), moves=parse_steps(d["play"], kw["line"],
                                                                      kw["column"]), **kw)
    if cls in (m.Dance, m.UnplayedRoll, m.IllegalPlayMarker):
        extra = {"written": d["written"]} if "written" in d else {}
        return cls(player, dice=tuple(d["dice"]), **extra, **kw)
    if cls is m.Double:
        return m.Double(player, value=d.get("value"), kind=d.get("kind", "double"), **kw)
    if cls is m.Win:
        return m.Win(player, points=d["points"], match=bool(d.get("match")), **kw)
    if cls is m.Loss:
        return m.Loss(player, points=d["points"], **kw)
    if cls is m.SetUp:
        board = d["board"]
        owner = d.get("set_cube_owner")
        return m.SetUp(player, None if board is None else (tuple(board[0]), tuple(board[1])),
                       d.get("set_cube"), m.CENTRED if owner == "centred" else owner,
                       written=d.get("written", ""), **kw)
    if cls is m.Resign and "written" in d:
        return m.Resign(player, word=d["written"], **kw)
    return cls(player, **kw)


def _shown(value: Any) -> str:
    """A JSON value as the file writes it (``null``, ``"x"``), never Python's ``None``."""
    return json.dumps(value, ensure_ascii=False)


def match_from_json(doc: dict[str, Any], path: str = "") -> m.Match:
    """The match of a document that follows the schema (see :func:`read_json`)."""
    match = m.Match(doc["length"], path=path)
    match.tags = [m.Tag(t["name"], t["value"]) for t in doc.get("tags", [])]
    match.comments = list(doc.get("comments", []))
    for g in doc.get("games", []):
        sl = g.get("score_line")
        score = None if sl is None else m.ScoreLine(
            tuple(sl["names"]), tuple(sl["scores"]), tuple(sl.get("ratings") or (None, None)),
            line=sl.get("line") or 0)
        game = m.Game(g["number"], score, line=g.get("line") or 0)
        game.actions = [_action_from_json(a) for a in g.get("actions", [])]
        game.comments = list(g.get("comments", []))
        match.games.append(game)
    return match


def _check_plays(docs: list, text: str, path: str, prefix: tuple) -> None:
    for k, doc in enumerate(docs):
        for gi, g in enumerate(doc.get("games", ())):
            for ai, a in enumerate(g.get("actions", ())):
                if a["type"] == "play":
                    parts = prefix + ((k,) if prefix else ()) + ("games", gi, "actions", ai, "play")
                    problem = _play_problem(a["play"], path, text, parts)
                    if problem is not None:
                        raise problem


def read_json(text: str, path: str = "") -> list[m.Match]:
    """Read gamao's JSON (one match or ``{"matches": [...]}``) back into matches.

    Raises :class:`NotAMatchFile` when the text is no gamao JSON (of any
    version), :class:`SyntaxProblem` when it is not JSON within the bounds
    of :mod:`gamao_cli.formats.limits` or holds a play the match-file
    grammar does not read, :class:`SchemaProblem` (GM007) when it breaks the
    schema; each with a line and column.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    doc = _loads(text, path)
    if not isinstance(doc, dict):
        raise NotAMatchFile(path, key="GM002.json", line=1, column=1)
    fmt = doc.get("format")
    if fmt not in (FORMAT_NAME, FORMAT_NAME + "s"):
        if "format" not in doc:
            raise NotAMatchFile(path, key="GM002.json-no-format", fields={"wanted": FORMAT_NAME},
                                line=1, column=1)
        raise NotAMatchFile(path, key="GM002.json-format", line=1, column=1,
                            fields={"format": _shown(fmt), "wanted": FORMAT_NAME})
    if doc.get("version") != VERSION:
        if "version" not in doc:
            raise _bad(path, "GM001.json-no-version", supported=VERSION)
        raise _bad(path, "GM001.json-version", version=_shown(doc["version"]), supported=VERSION)
    problem = _schema_problem(doc, text, path)
    if problem is not None:
        raise problem
    if fmt == FORMAT_NAME:
        docs, prefix = [doc], ()
    else:
        docs, prefix = doc["matches"], ("matches",)
        if not docs:
            raise NotAMatchFile(path, key="GM002.json-no-matches", line=1, column=1)
    _check_plays(docs, text, path, prefix)
    return [match_from_json(d, path) for d in docs]


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
