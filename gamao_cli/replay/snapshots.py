"""Positions of a replayed match: the state before every action, with its
GNU Backgammon Position ID / Match ID and XGID.

Player numbers are gamao's: 0 is the left column of a match file (gnubg's
player 0), 1 the right. In an XGID the right player sits at the bottom.

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = " 5 point match\\n\\n Game 1\\n A : 0   B : 0\\n  1) 41: 24/23 13/9  53: 24/21 21/16*\\n"
>>> [match] = read_matches(text)
>>> snaps = snapshots(match)
>>> snaps[0].position_id, snaps[0].match_id
('4HPwATDgc/ABMA', 'MACmAAAAAAAE')
>>> snaps[1].position_id, snaps[1].match_id
('4HPhASjgc/ABMA', 'cImuAAAAAAAE')
"""
from __future__ import annotations

from typing import Any, Callable

from gamao_cli import model as m
from gamao_cli.ids import GAME_NONE, GAME_PLAYING, MatchState
from gamao_cli.ids.board import board_ids, state_ids, state_ids_of
from gamao_cli.model.notation import BoundedCache
from gamao_cli.rules import Position

from . import replay as _replay
from .replay import MatchReport, Rules, validate_match

_ROLLS = m.ROLLS
_OFFERS = (m.Take, m.Drop)
#: the replay's C kernel, bound to its records (``_play_run.placed``: the
#: loop of :func:`_placed` for a game), or None: the Python loop does it all
#: (the tests set it to None to compare the two)
_KERNEL = _replay._play_run if _replay._records_bound else None
_MISSING: Any = object()
#: MatchStates by what makes them (see :func:`snapshots`); about 1 KB an
#: entry with its IDs
_STATES: BoundedCache[tuple, MatchState | None] = BoundedCache(1 << 14)
#: their IDs alone (see :func:`game_state_ids`), by the same fields
_STATE_IDS: BoundedCache[tuple, tuple[tuple[str, str], tuple] | None] = BoundedCache(1 << 14)


class Snapshot:
    """The state before one action: ``game`` (its number), ``action``,
    ``position`` (seen by the player on roll) and ``state`` (the
    :class:`MatchState` of its Match ID), with that position's IDs.

    The IDs are worked out when first asked for: the Position ID and the
    XGID's board from one look at the board (:func:`board_ids`), the Match
    ID and the rest of the XGID once a state (snapshots of equal states
    share their state). A position no ID can hold (both players on one
    point, after an illegal play replayed as written) raises ``ValueError``
    at each ID."""

    __slots__ = ("game", "action", "position", "state", "_board")

    def __init__(self, game: int, action: m.ActionType, position: Position,
                 state: MatchState) -> None:
        self.game = game
        self.action = action
        self.position = position
        self.state = state
        self._board: tuple[str, str] | None = None

    def __repr__(self) -> str:
        return (f"Snapshot(game={self.game!r}, action={self.action!r}, "
                f"position={self.position!r}, state={self.state!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Snapshot:
            return NotImplemented
        return (self.game, self.action, self.position, self.state) == \
            (other.game, other.action, other.position, other.state)

    __hash__ = None  # type: ignore[assignment]   (as a dataclass's: mutable)

    def _board_ids(self) -> tuple[str, str]:
        found = self._board
        if found is None:
            pos = self.position
            found = self._board = board_ids(pos.me, pos.opp, self.state.on_roll == 1)
        return found

    @property
    def position_id(self) -> str:
        return self._board_ids()[0]

    @property
    def match_id(self) -> str:
        # (the snapshots of one state share it: see snapshots())
        return state_ids(self.state)[0]

    @property
    def xgid(self) -> str:
        return "XGID=" + self._board_ids()[1] + state_ids(self.state)[1]


def snapshots(match: m.Match, report: MatchReport | None = None) -> list[Snapshot]:
    """The state before every action the replay could place, in order.
    ``report``: a report made with ``keep_records=True`` (else one is made)."""
    if report is None or not any(g.records for g in report.games):
        report = validate_match(match, keep_records=True)
    out: list[Snapshot] = []
    for game, states in zip(match.games, game_states(match, report)):
        number = game.number
        out += [Snapshot(number, r.action, r.position, state) for r, state in states]
    return out


def game_states(match: m.Match, report: MatchReport) -> list[list[tuple[Any, MatchState]]]:
    """For each game of ``report`` (made with ``keep_records=True``), the
    records the replay could place, each with the :class:`MatchState`
    before its action: what :func:`snapshots` makes its snapshots of. No
    games when the match's rules cannot be read."""
    return _placed(match, report, _STATES, _state_or_none)


def game_state_ids(match: m.Match, report: MatchReport
                   ) -> list[list[tuple[Any, tuple[tuple[str, str], tuple]]]]:
    """:func:`game_states` with, in place of each state, its ``(Match ID,
    XGID tail)`` (:func:`~gamao_cli.ids.board.state_ids`) and its fields
    (in :class:`MatchState`'s order: ``MatchState.of(*fields)`` is the
    state), made without the state objects: for a caller that wants only
    the IDs and fields (an export's rows, a page's positions)."""
    return _placed(match, report, _STATE_IDS, _ids_and_fields)


def _ids_and_fields(*fields: Any) -> tuple[tuple[str, str], tuple] | None:
    ids = state_ids_of(*fields)
    return None if ids is None else (ids, fields)


def _state_or_none(*fields: Any) -> MatchState | None:
    try:
        return MatchState.of(*fields)
    except ValueError:
        return None


def _placed(match: m.Match, report: MatchReport, cache: BoundedCache[tuple, Any],
            make: Callable[..., Any]) -> list[list[tuple[Any, Any]]]:
    """For each game, its records with a position, each with ``make`` of
    the :class:`MatchState` fields before its action (kept in ``cache`` by
    the fields); a record whose ``make`` is None is left out."""
    try:
        rules = Rules.from_match(match)
    except Exception:
        return []
    jacoby = bool(rules.jacoby) if match.length == 0 else False
    length = min(match.length, (1 << 15) - 1)
    out: list[list[tuple[Any, Any]]] = []
    # one value for all the actions of equal states (a MatchState is
    # frozen, and keeps its Match ID and XGID tail once worked out): a
    # match repeats a few thousand states over its actions, and the games
    # of a money session or the matches of an archive the same states again
    for result in report.games:
        made = cache.data
        first_roll = True
        score = tuple(min(s, (1 << 15) - 1) for s in result.score_before)
        crawford = result.crawford
        if _KERNEL is not None:   # the same loop in C (None: left to this one)
            found = _KERNEL.placed(result.records, _ROLLS, _OFFERS, m.Double, crawford, score,
                                   length, jacoby, made, cache.put, make)
            if found is not None:
                out.append(found)
                continue
        placed: list[tuple[Any, Any]] = []
        out.append(placed)
        for r in result.records:
            if r.position is None or r.turn is None:
                continue
            a = r.action
            on_roll = r.turn
            turn = on_roll
            dice = (0, 0)
            offered = False
            roll = isinstance(a, _ROLLS)
            if roll:
                d1, d2 = a.dice
                if 1 <= d1 <= 6 and 1 <= d2 <= 6:
                    dice = (d1, d2) if d1 >= d2 else (d2, d1)
            elif isinstance(a, _OFFERS) or (isinstance(a, m.Double) and a.kind != "double"):
                turn = a.player
                offered = True
            # GNU Backgammon's Match ID says "no game" before the opening
            # roll is played; gamao writes what gnubg writes.
            game_state = GAME_PLAYING
            if roll and first_roll:
                game_state = GAME_NONE
                first_roll = False
            cube = r.cube   # (a Match ID holds the cube as 4 bits of log2: clamped)
            key = (cube if cube <= 1 << 15 else 1 << 15, r.cube_owner, on_roll, crawford,
                   game_state, turn, offered, 0, dice, length, score, jacoby)
            value = made.get(key, _MISSING)
            if value is _MISSING:
                value = cache.put(key, make(*key))
            if value is not None:
                placed.append((r, value))
    return out


def last_play(report: MatchReport, action: Any) -> tuple[tuple, int] | None:
    """The die steps ``(src, dst, hit)`` of the roll just before ``action``
    in its game, and the player who made them: the play that led to the
    position before ``action`` (what a board draws as arrows, as the replay
    page does). None when that roll moved nothing (a dance) or there is none.
    ``report``: made with ``keep_records=True``."""
    for res in report.games:
        prev = None
        for r in res.records:
            if r.action is action:
                if prev is not None and isinstance(prev.action, m.Play) and prev.steps:
                    return tuple(prev.steps), prev.action.player
                return None
            if isinstance(r.action, _ROLLS):
                prev = r
    return None


def find_snapshot(match: m.Match, game: int, move: int, player: int | None = None) -> Snapshot:
    """The state before move ``move`` of game ``game`` (the left player's
    action on that line unless ``player`` says otherwise)."""
    candidates = [s for s in snapshots(match) if s.game == game and s.action.move_number == move]
    if player is not None:
        candidates = [s for s in candidates if s.action.player == player]
    # a position the record sets stands on the line of the action after it:
    # the move is that action (the set position is the one before it)
    candidates = [s for s in candidates if s.action.__class__ is not m.SetUp] or candidates
    if not candidates:
        raise LookupError(f"game {game} has no move {move}" +
                          ("" if player is None else f" for player {player + 1}"))
    return candidates[0]
