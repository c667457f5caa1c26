"""BGBlitz ``.bgf`` files to gamao's match model.

A ``.bgf`` file is one JSON header line (``{"format":"BGF","version":"1.0",
"compress":true,"useSmile":true}``), then the match: gzip-compressed (when
``compress``) Smile (when ``useSmile``; :mod:`.smile`), else JSON text. The
match holds its rules and names (``matchlen``, 0 for a money session;
``nameGreen``, ``nameRed``; ``useCrawford``, ``useJacoby``, ``useBeaver``,
``cubeLimit``; ``date``, ``event``, ``site``, ...) and its ``games``, each
with its ``moves``: records of ``type`` ``amove``, each by ``player`` -1
(Green, gamao's player 0, the left column) or 1 (Red, the right column),
with the dice ``green`` and ``red`` and up to four movements ``from`` ->
``to`` (-1 unused) in the mover's own numbering (25 the bar, 0 off). A
``green`` of 7 marks an action that is no roll, its kind in ``red``: 1
double, 2 take, 3 pass, 4 the game's end (the player wins the game's
``wonPoints``), 5 a roll with no play (its dice in ``from[0]`` and
``to[0]``), 9 a resignation.

BGBlitz's analysis goes with each action (``action.analysis``, see
:func:`analysis_of`), and its figures of a game (``prGreen``, ``prRed``:
error totals and counts; ``luck``) with the game's result, as the record's
stated figures.

Errors are gamao's :class:`~gamao_cli.errors.InputError` family: a file
that is not BGBlitz's is :class:`~gamao_cli.errors.NotAMatchFile`; damaged
bytes (gzip, Smile) or a record that is not what BGBlitz writes are
:class:`~gamao_cli.errors.DamagedFile`, at a byte offset in the file (the
offset of the compressed data, with the offset in the decompressed data
said in the message, as for eXtreme Gammon's streams).
"""
from __future__ import annotations

import json
import zlib
from typing import Any

from gamao_cli import model as m
from gamao_cli.errors import DamagedFile, NotAMatchFile, NotYetRead

from ..limits import MAX_JSON_DEPTH
from .decisions import BgfAnalysis, candidate_equity
from .smile import SmileError, decode

#: The largest decompressed match read (the samples take 0.5 MB; a long
#: money session analysed at depth a few MB).
MAX_INFLATED = 256 * 1024 * 1024
#: The most games and the most records a game read.
MAX_GAMES = 10_000
MAX_MOVES = 10_000

#: BGBlitz's starting position (``initial.points``: Green's checkers positive).
START = [2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5, -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2, 0, 0, 0, 0]

_SPECIAL = 7   # a "green" die of 7: an action that is no roll, its kind in "red"
_DOUBLE, _TAKE, _PASS, _END, _DANCE, _RESIGN = 1, 2, 3, 4, 5, 9

#: The header key of each match-file tag (the names XG's and gnubg's .mat use).
_TAGS = (("event", "Event"), ("site", "Site"), ("location", "Location"),
         ("round", "Round"), ("date", "EventDate"))


#: the kind of decision each action's analysis is (see :mod:`.decisions`)
_KINDS = {m.Play: "roll", m.Dance: "roll", m.Double: "double", m.Take: "take",
          m.Drop: "pass"}


def _damaged(path: str, key: str, fields: dict, offset: int) -> DamagedFile:
    return DamagedFile(path, key=key, fields=fields, offset=offset)


def _header(data: bytes, path: str) -> tuple[dict, int]:
    nl = data.find(b"\n", 0, 4096)
    if nl < 0:
        raise NotAMatchFile(path, key="GM002.bgf-header", fields={}, offset=0)
    try:
        header = json.loads(data[:nl].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise NotAMatchFile(path, key="GM002.bgf-header", fields={}, offset=0) from None
    if not isinstance(header, dict) or header.get("format") != "BGF":
        raise NotAMatchFile(path, key="GM002.bgf-header", fields={}, offset=0)
    return header, nl + 1


def _inflate(body: bytes, path: str, at: int) -> bytes:
    d = zlib.decompressobj(wbits=47)   # gzip or zlib, from its header
    try:
        out = d.decompress(body, MAX_INFLATED)
    except zlib.error as exc:
        raise _damaged(path, "GM006.bgf-inflate", {"reason": str(exc)}, at) from None
    if d.unconsumed_tail:
        raise _damaged(path, "GM006.bgf-too-big", {"limit": MAX_INFLATED}, at)
    if not d.eof:
        raise _damaged(path, "GM006.bgf-cut", {}, at)
    return out


def _depth(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``value`` nests at most ``limit`` levels (measured, not recursed)."""
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return False
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return True


def load(data: bytes, path: str = "") -> dict:
    """The match record of a ``.bgf`` file as plain values."""
    header, at = _header(data, path)
    body = data[at:]
    if header.get("compress", False):
        body = _inflate(body, path, at)
    if header.get("useSmile", False):
        try:
            record = decode(body)
        except SmileError as exc:
            raise _damaged(path, "GM006.bgf-smile", {
                "at": exc.offset, "size": len(body),
                "problem": _smile_problem(exc)}, at) from None
    else:
        try:
            record = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise _damaged(path, "GM006.bgf-json", {"reason": str(exc)[:200]}, at) from None
        if not _depth(record):
            raise _damaged(path, "GM006.bgf-json", {"reason": "nested too deep"}, at)
    if not isinstance(record, dict):
        raise _damaged(path, "GM006.bgf-field", {"field": "(the match)",
                                                 "problem": "not an object"}, at)
    return record


def _smile_problem(exc: SmileError) -> str:
    from gamao_cli.messages import render
    return render("bgf.smile." + exc.problem, exc.fields)


class _Fields:
    """Typed access to a record's fields, each error naming the field."""

    def __init__(self, path: str, at: int):
        self.path = path
        self.at = at

    def fail(self, where: str, problem: str) -> DamagedFile:
        return _damaged(self.path, "GM006.bgf-field", {"field": where, "problem": problem},
                        self.at)

    def get(self, obj: dict, key: str, kind, where: str, default: Any = ...) -> Any:
        if not isinstance(obj, dict):
            raise self.fail(where, "not an object")
        if key not in obj or obj[key] is None:
            if default is not ...:
                return default
            raise self.fail(f"{where}.{key}", "missing")
        v = obj[key]
        if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
            raise self.fail(f"{where}.{key}", f"not a whole number ({v!r:.40})")
        if kind is not int and not isinstance(v, kind):
            raise self.fail(f"{where}.{key}", f"not a {kind.__name__} ({v!r:.40})")
        return v

    def number(self, obj: dict, key: str, where: str, lo: int, hi: int,
               default: Any = ...) -> int:
        v = self.get(obj, key, int, where, default)
        if v is default:
            return v
        if not lo <= v <= hi:
            raise self.fail(f"{where}.{key}", f"{v} is not in {lo}..{hi}")
        return v


def _figure(v: Any) -> float | None:
    """A BGBlitz figure (written as a decimal string), None for its
    'not analysed' marks (-99, -999) and for what is no number."""
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    if x != x or x in (-99.0, -999.0) or abs(x) > 1e9:
        return None
    return x


def _evaluation(e: Any) -> dict | None:
    if not isinstance(e, dict):
        return None
    out = {}
    for key, name in (("myWins", "win"), ("myGammon", "gammon"),
                      ("myBackGammon", "backgammon"), ("oppWins", "opp_win"),
                      ("oppGammon", "opp_gammon"), ("oppBackGammon", "opp_backgammon"),
                      ("equity", "equity"), ("emg", "emg"), ("matchEquity", "match_equity")):
        x = _figure(e.get(key))
        if x is not None:
            out[name] = x
    cd = e.get("cubeDecision")
    if isinstance(cd, dict):
        cube = {}
        for key, name in (("eqNoDouble", "no_double"), ("eqDoubleTake", "double_take"),
                          ("eqDoublePass", "double_pass"), ("eqCubeLess", "cubeless"),
                          ("eqCubeFul", "cubeful")):
            x = _figure(cd.get(key))
            if x is not None:
                cube[name] = x
        for key, name in (("stateOnMove", "proper_on_roll"), ("stateOther", "proper_answer")):
            if isinstance(cd.get(key), str):
                cube[name] = cd[key][:40]
        if cd.get("hasDoubled") is True:
            cube["doubled"] = True
        if cube:
            out["cube"] = cube
    return out or None


def _play_text(mv: dict) -> str | None:
    fr, to = mv.get("from"), mv.get("to")
    if not isinstance(fr, list) or not isinstance(to, list):
        return None
    parts = []
    for a, b in zip(fr[:4], to[:4]):
        if not isinstance(a, int) or not isinstance(b, int) or a < 0 or b < 0:
            continue
        parts.append(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}")
    return " ".join(parts)


def _steps(mv: dict) -> list[list[int]]:
    """A candidate's die steps, (from, to) in the mover's numbering (25 the
    bar, 0 off), as BGBlitz lists them (one a die); none when a movement is
    not on the board."""
    fr, to = mv.get("from"), mv.get("to")
    if not isinstance(fr, list) or not isinstance(to, list):
        return []
    out = []
    for a, b in zip(fr[:4], to[:4]):
        if a == -1 and b == -1:
            continue
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, int) \
                or not isinstance(b, int) or not (0 < a <= 25 and 0 <= b < 25):
            return []
        out.append([a, b])
    return out


def analysis_of(rec: dict) -> dict | None:
    """BGBlitz's analysis of one action: ``equity_before`` (the evaluation
    before it, with the cube analysis, ``cube``), ``candidates``
    (``moveAnalysis``: each play, its evaluation, its depth, whether it was
    played), ``luck`` and ``luck_weighted``, ``cube_error`` and
    ``checker_error`` (BGBlitz's own error of the action, its ``pr``) and
    ``cube_counted``/``checker_counted`` (False where BGBlitz writes -99: a
    decision its figures leave out), ``ply``."""
    out: dict[str, Any] = {"source": "BGBlitz"}
    before = _evaluation(rec.get("equity")) or _evaluation(rec.get("dancingEquity"))
    if before:
        out["equity_before"] = before
    cands = rec.get("moveAnalysis")
    if isinstance(cands, list) and cands:
        lst = []
        for c in cands[:64]:
            if not isinstance(c, dict) or not isinstance(c.get("move"), dict):
                continue
            item: dict[str, Any] = {"play": _play_text(c["move"])}
            steps = _steps(c["move"])
            if steps:
                item["steps"] = steps
            ev = _evaluation(c.get("eq"))
            if ev:
                item.update({k: v for k, v in ev.items() if k != "cube"})
                if "cubeful" in ev.get("cube", {}):
                    item["cubeful"] = ev["cube"]["cubeful"]
            if isinstance(c.get("ply"), int) and not isinstance(c.get("ply"), bool):
                item["ply"] = c["ply"]
            if c.get("played") is True:
                item["played"] = True
            lst.append(item)
        if lst:
            out["candidates"] = lst
            eqs = [candidate_equity(c) for c in lst if candidate_equity(c) is not None]
            if eqs:
                out["best_equity"] = max(eqs)
            made = next((c for c in lst if c.get("played")), None)
            if made is not None and candidate_equity(made) is not None:
                out["equity"] = candidate_equity(made)
    luck = rec.get("luck")
    if isinstance(luck, dict):
        for key, name in (("luckPlain", "luck"), ("luckWeighted", "luck_weighted")):
            x = _figure(luck.get(key))
            if x is not None:
                out[name] = x
    pr = rec.get("pr")
    if isinstance(pr, dict):
        for key, name in (("cubeError", "cube_error"), ("checkerError", "checker_error")):
            x = _figure(pr.get(key))
            if x is not None:
                out[name] = x
                if name == "checker_error":
                    out["equity_loss"] = round(-x, 8) + 0.0
            # BGBlitz writes -99 for a decision its figures leave out
            if pr.get(key) is not None:
                out[name.replace("_error", "_counted")] = x is not None
    elif pr is None and "pr" in rec and ("equity_before" in out or "candidates" in out):
        # an evaluated action BGBlitz does not rate (a roll with no play, a
        # forced play): its figures leave it out
        out["cube_counted"] = out["checker_counted"] = False
    ply = rec.get("ply")
    if isinstance(ply, int) and not isinstance(ply, bool):
        out["ply"] = ply
        out["analysis_depth"] = f"BGBlitz {ply}-ply"
    return out if len(out) > 1 else None


def stated_figures(obj: dict) -> dict | None:
    """BGBlitz's own figures of a game or a match (``prGreen``, ``prRed``,
    ``luck``), kept as the record states them: per side (0 Green, 1 Red)
    the error totals and counts."""
    out: dict[str, Any] = {}
    for side, key in ((0, "prGreen"), (1, "prRed")):
        pr = obj.get(key)
        if not isinstance(pr, dict):
            continue
        f: dict[str, Any] = {}
        for k in ("cubeError", "checkerError", "cubeErrMWP", "checkerErrMWP"):
            x = _figure(pr.get(k))
            if x is not None:
                f[k] = x
        for k in ("cubeCnt", "checkerCnt"):
            if isinstance(pr.get(k), int) and not isinstance(pr.get(k), bool):
                f[k] = pr[k]
        for k in ("mapCntCube", "mapCntMove"):
            if isinstance(pr.get(k), dict):
                f[k] = {str(a)[:40]: b for a, b in list(pr[k].items())[:16]
                        if isinstance(b, int) and not isinstance(b, bool)}
        out[str(side)] = f
    luck = obj.get("luck")
    if isinstance(luck, dict):
        out["luck"] = {k: _figure(luck.get(k)) for k in ("luckPlain", "luckWeighted")}
    return out or None


def _name(v: Any) -> str:
    return v[:200] if isinstance(v, str) else ""


def read_bgf(data: bytes, path: str = "") -> m.Match:
    """The match of a ``.bgf`` file's bytes."""
    header, at = _header(data, path)
    rec = load(data, path)
    f = _Fields(path, at)
    length = f.number(rec, "matchlen", "match", 0, (1 << 15) - 1)
    names = (_name(rec.get("nameGreen")), _name(rec.get("nameRed")))
    tags = [m.Tag("Player 1", names[0]), m.Tag("Player 2", names[1])]
    for key, tag in _TAGS:
        v = rec.get(key)
        if isinstance(v, str) and v.strip():
            tags.append(m.Tag(tag, v.strip()[:500]))
    if length:
        tags.append(m.Tag("Crawford", "On" if rec.get("useCrawford", True) else "Off"))
    else:
        tags.append(m.Tag("Jacoby", "On" if rec.get("useJacoby") else "Off"))
        tags.append(m.Tag("Beaver", "On" if rec.get("useBeaver") else "Off"))
    limit = rec.get("cubeLimit")
    if rec.get("useCube") is False:
        tags.append(m.Tag("CubeLimit", "1"))   # played without the cube
    elif isinstance(limit, int) and not isinstance(limit, bool) and 1 < limit <= 1 << 15:
        tags.append(m.Tag("CubeLimit", str(limit)))
    games = f.get(rec, "games", list, "match")
    if len(games) > MAX_GAMES:
        raise f.fail("match.games", f"{len(games)} games (gamao reads at most {MAX_GAMES})")
    match = m.Match(length, tags=tags, path=path)
    for gi, g in enumerate(games):
        game, ender = _game(f, g, gi + 1, names, length)
        match.games.append(game)
        if ender is not None and gi == len(games) - 1:
            _last_points(match, rec, g, game, ender)
    return match


def _last_points(match: m.Match, rec: dict, g: dict, game: m.Game, ender: int) -> None:
    """BGBlitz ends the last game of a record with 0 points won, its match's
    final score (``finalGreen``, ``finalRed``) counting the points: read as
    the win the final score gives, with an info (GM117)."""
    finals = (rec.get("finalGreen"), rec.get("finalRed"))
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in finals):
        return
    before = game.score.scores if game.score else (0, 0)
    gained = [finals[i] - (before[i] or 0) for i in (0, 1)]
    if gained[1 - ender] != 0 or not 0 < gained[ender] <= 1 << 15:
        return
    game.actions.append(m.Win(ender, gained[ender], move_number=_last_move(game)))
    match.notices.append(m.Notice("GM117", "GM117", {
        "game": game.number, "points": gained[ender], "player": match.players[ender],
        "final0": finals[0], "final1": finals[1]}, game=game.number))


def _last_move(game: m.Game) -> int | None:
    return game.actions[-1].move_number if game.actions else None


def _game(f: _Fields, g: dict, number: int, names: tuple[str, str], length: int
          ) -> tuple[m.Game, int | None]:
    """The game of record ``g``, and the player whose end record says no
    points won (None when there is none)."""
    where = f"game {number}"
    _plain_start(f, g, number)
    score = (f.number(g, "scoreGreen", where, 0, 1 << 30, 0),
             f.number(g, "scoreRed", where, 0, 1 << 30, 0))
    game = m.Game(number, m.ScoreLine(names, score))
    moves = f.get(g, "moves", list, where)
    if len(moves) > MAX_MOVES:
        raise f.fail(f"{where}.moves", f"{len(moves)} records (gamao reads at most "
                                       f"{MAX_MOVES})")
    won = f.number(g, "wonPoints", where, 0, 1 << 30, 0)
    ender = None
    move_number = 0
    last_player = None
    for k, mv in enumerate(moves):
        w = f"{where}.moves[{k}]"
        if not isinstance(mv, dict):
            raise f.fail(w, "not an object")
        who = f.get(mv, "player", int, w)
        if who not in (-1, 1):
            raise f.fail(f"{w}.player", f"{who} (expected -1 or 1)")
        player = 0 if who == -1 else 1
        green = f.number(mv, "green", w, 0, 7)
        red = f.number(mv, "red", w, 0, 9)
        # a match-file line holds the left player's action, then the right's
        if player == 0 or last_player != 0:
            move_number += 1
        last_player = player
        kw = dict(move_number=move_number)
        action: m.ActionType | None
        if green == _SPECIAL:
            if red == _DOUBLE:
                cube = _cube_before(game)
                action = m.Double(player, cube * 2, **kw)
            elif red == _TAKE:
                action = m.Take(player, **kw)
            elif red == _PASS:
                action = m.Drop(player, **kw)
            elif red == _RESIGN:
                action = m.Resign(player, **kw)
            elif red == _END:
                if won == 0:
                    ender = player
                    continue
                action = m.Win(player, won, **kw)
                figures = stated_figures(g)
                if figures:
                    action.analysis = {"source": "BGBlitz", "stated_figures": figures}
            elif red == _DANCE:
                fr = f.get(mv, "from", list, w)
                to = f.get(mv, "to", list, w)
                d1 = fr[0] if fr else None
                d2 = to[0] if to else None
                if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                           for d in (d1, d2)):
                    raise f.fail(f"{w}.from", f"a roll with no play needs its dice "
                                              f"({d1!r}, {d2!r})")
                action = m.Dance(player, (d1, d2), "", **kw)
            else:
                raise f.fail(f"{w}.red", f"{red}: no action BGBlitz writes")
        else:
            if not (1 <= green <= 6 and 1 <= red <= 6):
                raise f.fail(w, f"dice {green}-{red}")
            action = _play(f, mv, w, player, (green, red), kw)
        if action.analysis is None and type(action) is not m.Win:
            parsed = analysis_of(mv)
            if parsed is not None:
                dice = action.dice if isinstance(action, (m.Play, m.Dance)) else None
                action.analysis = BgfAnalysis(parsed, player, dice, _KINDS.get(type(action)),
                                              length == 0)
        game.actions.append(action)
    return game, ender


def _plain_start(f: _Fields, g: dict, number: int) -> None:
    """Refuse, saying why (GM014), a game BGBlitz starts from a set-up
    position, with the cube set, or in a variant: gamao reads only games
    played from the start."""
    initial = g.get("initial")
    mode = g.get("gameMode", 0)
    what = None
    if mode not in (0, None):
        what = "variant"
    elif isinstance(initial, dict):
        if initial.get("points", START) != START:
            what = "position"
        elif initial.get("cube", 1) not in (1, None) or initial.get("cubeOwner", 0) not in (0, None):
            what = "cube"
        elif initial.get("egyptian"):
            what = "variant"
    if what is not None:
        raise NotYetRead(f.path, key="GM014." + what, fields={"game": number, "mode": mode},
                         offset=f.at)


def _cube_before(game: m.Game) -> int:
    cube = 1
    for a in game.actions:
        if isinstance(a, m.Double) and a.value:
            cube = a.value
    return cube


def _play(f: _Fields, mv: dict, w: str, player: int, dice: tuple[int, int],
          kw: dict) -> m.ActionType:
    fr = f.get(mv, "from", list, w)
    to = f.get(mv, "to", list, w)
    if len(fr) > 4 or len(to) > 4 or len(fr) != len(to):
        raise f.fail(f"{w}.from", "more than four movements, or from and to of other sizes")
    steps = []
    for a, b in zip(fr, to):
        if not isinstance(a, int) or not isinstance(b, int) or isinstance(a, bool) \
                or isinstance(b, bool):
            raise f.fail(f"{w}.from", f"a point that is no number ({a!r}, {b!r})")
        if a == -1 and b == -1:
            continue
        if not (0 <= a <= 25 and 0 <= b <= 25):
            raise f.fail(f"{w}.from", f"a movement {a} -> {b} off the board")
        steps.append(m.Step((a, b), (False,), 1, "bar", "off"))
    if not steps:
        return m.Dance(player, dice, "", **kw)
    return m.Play(player, dice, tuple(steps), **kw)
