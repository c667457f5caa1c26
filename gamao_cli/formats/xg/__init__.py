"""eXtreme Gammon's binary files: ``.xg`` matches and ``.xgp`` positions.

:mod:`.container` reads the file (its header and the archive of
zlib-compressed streams), :mod:`.records` the fixed-size records of the
game stream, :mod:`.reader` maps them to the match model; ``FORMAT.md`` in
this folder describes the layout as it was checked on real files.

Reading a match also gives every action what the file states of it: the
position before it (``action.stated``, which the replay checks against its
own) and XG's analysis (``action.analysis``: see :func:`analysis_of`), which
the JSON writer keeps. A position file (``.xgp``) holds no match: ``gamao
position`` draws it (:func:`read_position`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Sequence

from ..base import Capabilities, LazyAnalysis, Source, WriteResult
from .play_text import play_text as _play_text

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match
    from gamao_cli.replay.replay import Replays

    from .reader import XgPosition

MAGIC = b"RGMH"


class XgFormat:
    name = "xg"
    title = "eXtreme Gammon (.xg, .xgp)"
    extensions = (".xg", ".xgp")
    capabilities = Capabilities(read=True, write=False, binary=True)
    scanned = True

    def sniff(self, head: bytes) -> bool:
        return head[:4] == MAGIC

    def read(self, source: Source) -> Iterator[Match]:
        from .reader import is_position_file, matches_of, open_records
        box, recs, located = open_records(source.read_bytes(), source.label)
        if is_position_file(box, recs):
            return iter(())   # a position, not a match: `gamao position` draws it
        matches = []
        no_doubles = _no_doubles(recs)
        for match, games in matches_of(box, recs, located, source.label):
            for stated_actions in games:
                for s in stated_actions:
                    if s.me is not None:
                        s.action.stated = (s.me, s.opp)
                    if s.record is not None and _has_analysis(s.action, s.record):
                        s.action.analysis = Analysis(s.action, s.record,
                                                     no_doubles.get(id(s.record)))
            matches.append(match)
        return iter(matches)

    def read_text(self, text: str, label: str = "") -> list[Match]:
        raise TypeError("eXtreme Gammon files are bytes, not text")

    def write(self, matches: Sequence[Match], replays: Replays | None = None) -> WriteResult:
        raise ValueError("gamao does not write eXtreme Gammon files")

    def __repr__(self) -> str:
        return f"<format {self.name}>"


def read_position(data: bytes, label: str = "") -> XgPosition:
    """The position of an ``.xgp`` file (raises ``InputError`` for anything else)."""
    from .reader import read_xgp
    return read_xgp(data, label)


# -- analysis ---------------------------------------------------------------

_NOT_ANALYSED = -1000.0


def _figure(value: float) -> float | None:
    """An XG figure, ``None`` for XG's 'not analysed' (-1000)."""
    return None if value <= _NOT_ANALYSED + 0.5 else round(float(value), 6)


_UNREAD = object()


def _evaluation(e: Any) -> dict[str, float]:
    return {"win": round(e.win, 6), "gammon": round(e.gammon, 6),
            "backgammon": round(e.backgammon, 6), "opp_win": round(e.opp_win, 6),
            "opp_gammon": round(e.opp_gammon, 6), "opp_backgammon": round(e.opp_backgammon, 6),
            "equity": round(e.equity, 6)}


_KINDS: tuple | None = None


def _kinds() -> tuple:
    """(XG's move record, its cube record, the model's roll actions, its
    cube actions): imported once, on first use (not at start-up), since
    :func:`_has_analysis` runs for every record of a match."""
    global _KINDS
    if _KINDS is None:
        from gamao_cli import model as m

        from . import records as r
        _KINDS = (r.CheckerMove, r.CubeAction, (m.Play, m.Dance, m.UnplayedRoll),
                  (m.Double, m.Take, m.Drop))
    return _KINDS


def _is_checker(action: Any, record: Any) -> bool:
    move, _cube, rolls, _cubes = _kinds()
    return isinstance(record, move) and isinstance(action, rolls)


def _has_analysis(action: Any, record: Any) -> bool:
    move, cube, rolls, cubes = _KINDS or _kinds()
    return (isinstance(record, move) and isinstance(action, rolls)) or \
        (isinstance(record, cube) and isinstance(action, cubes))


def _no_doubles(recs: Sequence[Any]) -> dict[int, Any]:
    """The cube records where a player did not double (``double == 0``),
    keyed by the ``id`` of the move record of that player's roll that
    follows them: GNU Backgammon keeps a no-double on the roll's record,
    and so does the decisions model."""
    from . import records as r
    out: dict[int, Any] = {}
    pending: dict[int, Any] = {}
    for rec in recs:
        kind = type(rec)
        if kind is r.CubeAction:
            if rec.double == 0:
                pending[rec.player] = rec
            else:
                pending.pop(rec.player, None)
        elif kind is r.CheckerMove:
            cube = pending.pop(rec.player, None)
            if cube is not None:
                out[id(rec)] = cube
        elif kind is r.GameHeader or kind is r.GameEnd:
            pending.clear()
    return out


class Analysis(LazyAnalysis):
    """XG's analysis of one action (:func:`analysis_of`), read from its
    record when first looked at: checking a match needs none of it, writing
    its JSON all of it. A read-only mapping; ``dict(analysis)`` is the plain
    dict; :attr:`decisions` is the same analysis in
    :mod:`gamao_cli.analysis.decisions` (with, on a roll, the cube decision
    its player made before it: ``no_double``, the cube record where he did
    not double)."""

    __slots__ = ("_source", "_data", "_decisions", "_flags")

    def __init__(self, action: Any, record: Any, no_double: Any = None):
        self._source: tuple | None = (action, record, no_double)
        self._data: dict | None = None
        self._decisions: Any = _UNREAD
        self._flags = (record.invalid, record.flagged)

    def __bool__(self) -> bool:   # without decoding
        return True

    def get(self, key: str, default: Any = None) -> Any:
        # XG's own marks are fields of the record: no need to decode the rest
        if key == "invalid" and self._data is None:
            return self._flags[0]
        return super().get(key, default)

    @property
    def decisions(self) -> Any:
        if self._decisions is _UNREAD:
            from .decisions import decisions
            # _source is kept until the mapping is made, which makes this first
            self._decisions = decisions(*self._source)
        return self._decisions

    def _dict(self) -> dict:
        if self._data is None:
            action, record, _no_double = self._source
            data = analysis_of(action, record) or {}
            if self.decisions is not None:
                data["decisions"] = self.decisions.to_json()
            self._data = data
            self._source = None
        return self._data



def _play_figures(record: Any, out: dict[str, Any]) -> dict[str, Any]:
    """The figures of the play made (see :func:`analysis_of`)."""
    figures: dict[str, Any] = {"analysis_depth": f"XG level {record.analysis_level}"}
    error = out["error"]
    if error is not None:
        figures["equity_loss"] = round(-error, 6) + 0.0   # never -0.0
    candidates = out.get("candidates") or []
    if not candidates:
        return figures
    best = max(c["equity"] for c in candidates)
    figures["best_equity"] = best
    played = sorted(record.steps)
    made = next((c for c, raw in zip(candidates, record.candidates)
                 if sorted(raw.steps) == played), None)
    if made is not None:
        figures.update(equity=made["equity"], win_probability=made["win"],
                       gammon_probability=made["gammon"])
    elif error is not None:
        figures["equity"] = round(best + error, 6)
    return figures


def analysis_of(action: Any, record: Any) -> dict | None:
    """XG's analysis of one action as a JSON-ready dict (None when XG has
    none for it). Plays: ``error`` (the size of the mistake, 0 for the best
    play; None when not analysed), ``luck``, ``equity_before``, ``level``
    (XG's analysis level), ``choice`` (the index of XG's choice in
    ``candidates``), ``candidates`` (the engine's list, best first: each
    ``play`` in die-step notation and its seven figures), ``flagged``,
    ``invalid`` (XG's own mark: 0 fine, 1 error, 2 invalid). Cube actions:
    the errors of the double and of the answers, and the cubeful equities
    of no double, double/take and double/pass with their 7-figure
    evaluations.

    Both also hold the figures the analysts' tables (``gamao export``) have
    columns for, where XG gives them: ``equity`` (of the play made: its
    candidate's, else the best's plus XG's error), ``best_equity``,
    ``equity_loss`` (XG's error, as a loss: >= 0), ``luck``,
    ``win_probability`` and ``gammon_probability`` (of the play made), and
    ``analysis_depth`` (XG's level number: ``XG level N``)."""
    from gamao_cli import model as m

    from . import records as r
    if isinstance(record, r.CheckerMove) and isinstance(action, (m.Play, m.Dance,
                                                                 m.UnplayedRoll)):
        out: dict[str, Any] = {"source": "eXtreme Gammon", "error": _figure(record.error),
                               "luck": _figure(record.luck),
                               "equity_before": _figure(record.initial_equity),
                               "level": record.analysis_level, "flagged": record.flagged,
                               "invalid": record.invalid}
        if record.candidates:
            out["choice"] = record.choice
            out["candidates"] = [{"play": _play_text(c.steps), "level": c.level,
                                  **_evaluation(c.evaluation)} for c in record.candidates]
        out.update(_play_figures(record, out))
        return out
    if isinstance(record, r.CubeAction) and isinstance(action, (m.Double, m.Take, m.Drop)):
        out = {"source": "eXtreme Gammon", "error_double": _figure(record.error_double),
               "error_take": _figure(record.error_take),
               "error_beaver": _figure(record.error_beaver),
               "error_raccoon": _figure(record.error_raccoon), "flagged": record.flagged}
        error = out["error_double"] if isinstance(action, m.Double) else out["error_take"]
        out["equity_loss"] = None if error is None else round(-error, 6) + 0.0
        a = record.analysis
        if a is not None:
            out["analysis_depth"] = f"XG level {a.level}"
            out.update({"level": a.level,
                        "equity_no_double": round(a.equity_no_double, 6),
                        "equity_double_take": round(a.equity_double_take, 6),
                        "equity_double_pass": round(a.equity_double_pass, 6),
                        "no_double": _evaluation(a.no_double),
                        "double": _evaluation(a.double)})
        return out
    return None
