"""Replay every game of a match under the rules and report what is wrong.

The validator walks each game action by action, keeping the position, the
cube and whose turn it is (:class:`~gamao_cli.rules.cube.CubeState`) and the
running score. Each illegal play, cube action, wrong score line or wrong
result becomes a :class:`Diagnostic`, and the replay goes on from the
position as written (RULES.md, "Irregularities"), so one error hides no
other. Only a play that cannot be applied at all (no checker on its starting
point) stops the replay of that game; the game's stated result still counts
for the score.

Every diagnostic carries its code, a message key (``CODE`` or
``CODE.variant``) and the fields of its message, which is rendered from the
one message table (:mod:`gamao_cli.messages`).

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = '''
...  1 point match
...
...  Game 1
...  Ann : 0                        Bob : 0
...   1) 31: 8/5 6/5                 61: 13/7 8/6
... '''
>>> report = validate_match(read_matches(text, "ex.mat")[0])
>>> [d] = [d for d in report.diagnostics if d.code == "GM202"]
>>> d.format_text()
'ex.mat:6:43: GM202 error 13/7 8/6 with 6-1: 8/6 moves 2 pips, but no die shows 2; legal: 13/7 7/6, 13/7 8/7, 13/7 24/23, 13/7 6/5, 24/18 8/7'
>>> d.key, d.fields["play"], d.fields["problem"].key
('GM202', '13/7 8/6', 'rules.distance.no-die')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from gamao_cli import kernels
from gamao_cli import model as m
from gamao_cli import rules as board
from gamao_cli.errors import UnknownVariant
from gamao_cli.messages import Msg
from gamao_cli.model.notation import format_steps, shape_of
from gamao_cli.rules import CubeState, Offer, Outcome, Position, Resolver, Why
from gamao_cli.rules.position import _position
from gamao_cli.rules.resolve import fewer_dice_plan, other_order_plan, play_plan, steps_of_plan

from .diagnostics import Diagnostic, SeverityCounts
from .record_rules import Rules
from .stated import has_stated, with_stated_checks

MAX_ALTERNATIVES = 5

#: The code of each problem of a written play (:data:`gamao_cli.rules.PROBLEMS`).
PROBLEM_CODES = {
    "distance": "GM202",
    "blocked": "GM203",
    "bar": "GM204",
    "bearoff-outside": "GM205",
    "bearoff-higher": "GM206",
    "too-many": "GM207",
    "no-checker": "GM208",
    "backwards": "GM209",
}

# how a game ended (the values of GameResult.ended)
SINGLE, GAMMON, BACKGAMMON = Outcome.SINGLE, Outcome.GAMMON, Outcome.BACKGAMMON
DROP, RESIGN, TIME = Outcome.DROP, Outcome.RESIGN, Outcome.TIME

#: The resolver replays share when none is given: its memos are pure (see
#: :class:`~gamao_cli.rules.Resolver`), kept from one match to the next
#: because the same plays recur across an archive. ``RESOLVER.clear()``
#: empties them.
RESOLVER = Resolver()

_ROLLS = frozenset((m.Play, m.Dance, m.UnplayedRoll))
_DIE = frozenset(range(1, 7))


def _bound_kernel():
    """The C run of plays (``_play_run.c``), bound to the model's classes,
    or None: not built, ``GAMAO_PURE_PYTHON`` set, or a model it cannot read
    (then the Python loop of :meth:`_GameReplay.plays` does it all)."""
    kernel = kernels.kernel("gamao_cli.replay._play_run")
    if kernel is None:
        return None
    try:
        kernel.bind(m.Play, m.PlayText, m.Dance)
    except (TypeError, AttributeError):
        return None
    try:   # the memo of a plain text made in the loop (else by the Python loop)
        kernel.bind_memo(shape_of)
    except (TypeError, AttributeError):
        pass
    return kernel


# (the tests set it to None to compare the kernel with the Python loop)
_play_run = _bound_kernel()


def _bind_records() -> bool:
    """Whether the kernel makes the records of a replay that keeps them
    (``run_records``): bound to ActionRecord and Position, defined below."""
    if _play_run is None:
        return False
    try:
        _play_run.bind_records(ActionRecord, Position)
    except (TypeError, AttributeError):
        return False
    return True
_LEFT, _RIGHT, _NOBODY = Msg("player.left", {}), Msg("player.right", {}), Msg("player.nobody", {})


@dataclass(slots=True)
class ActionRecord:
    """One action as replayed: the position before it (seen by the player on
    roll, ``turn``), the cube, and for plays the die steps that were taken."""

    action: m.ActionType
    turn: int | None
    position: Position | None
    cube: int
    cube_owner: int | None
    steps: tuple[tuple[int, int, bool], ...] | None = None


_records_bound = _bind_records()


@dataclass
class GameResult:
    number: int
    winner: int | None = None
    points: int | None = None          # what the game added to the score
    stated_points: int | None = None   # what its Wins line says
    #: where the Jacoby rule counted a gammon or backgammon single: the
    #: points it would have won without the rule (GM417)
    full_points: int | None = None
    ended: Outcome | None = None       # how it ended; None: no result (unfinished)
    cube: int = 1
    moves: int = 0
    score_before: tuple[int, int] = (0, 0)
    crawford: bool = False
    records: list[ActionRecord] = field(default_factory=list)

    @property
    def outcome(self) -> Outcome:
        """How the game ended, :attr:`Outcome.UNFINISHED` for no result."""
        return self.ended or Outcome.UNFINISHED


@dataclass
class MatchReport(SeverityCounts):
    match: m.Match
    games: list[GameResult] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    final_score: tuple[int, int] = (0, 0)
    winner: int | None = None
    plays: int = 0
    #: the score the record starts from: (0, 0), or the first score line's
    #: when the record starts in the middle of a match (GM413)
    start_score: tuple[int, int] = (0, 0)


Fields = dict[str, Any]


class _GameReplay:
    """The state of one game being replayed."""

    def __init__(self, v: "_MatchValidator", game: m.Game, start: Position, crawford: bool,
                 keep_records: bool):
        self.v = v
        self.game = game
        self.start = start
        # The position, seen by the player on roll: a Position (None: none
        # can be replayed), or while plays are replayed the fast way the side
        # arrays themselves (``me``, ``opp``), changed in place; ``pos``
        # gives the position either way.
        self._pos: Position | None = None
        self._pos_ok = True
        self.me: list[int] = []
        self.opp: list[int] = []
        self._sides_ok = False
        rules = v.rules
        self.cube = CubeState(crawford=crawford, enabled=rules.cube, money=v.match.length == 0,
                              beavers=rules.beaver)
        self.broken = False
        self.after_end_reported = False
        # (winner, outcome) once the rules end the game (a bear-off or a drop)
        self.end: tuple[int, Outcome] | None = None
        self.resigning: int | None = None
        self.unplayed_roll: m.ActionType | None = None
        self._unplayed_alternatives: list[str] = []
        # the position before the roll left unplayed, seen by its roller
        self._unplayed_pos: Position | None = None
        self.win: m.Win | None = None
        self.keep = keep_records
        # nothing stands in the way of the fast path (see calm())
        self.quiet = True
        self.marks_hits = v.marks_hits
        self.resolver = v.resolver
        self.play_in_place = v.resolver.play_in_place
        self.losses: list[m.Loss] = []
        self.records: list[ActionRecord] = []
        self.moves = 0
        self.stated_reported = False   # a GM109 of this game was said (stated.py)

    # -- helpers -------------------------------------------------------
    def report(self, code: str, key: str, fields: Fields,
               action: m.Action | m.Game | m.ScoreLine | None = None,
               *, line: int | None = None, column: int | None = None, player: int | None = None,
               dice: tuple[int, int] | None = None, play: str | None = None,
               legal: list[str] | None = None) -> None:
        if action is not None:
            line = line if line is not None else action.line
            column = column if column is not None else action.column
        if player is None and isinstance(action, m.Action):
            player = action.player
        self.v.add(Diagnostic(
            code, key=key, fields=fields, line=line, column=column, game=self.game.number,
            move=getattr(action, "move_number", None),
            player=str(self.v.name(player)) if player is not None else None,
            dice=f"{dice[0]}{dice[1]}" if dice else None, play=play, legal=legal or []))

    def name(self, player: int | None) -> str | Msg:
        return self.v.name(player)

    def alternatives(self, pos: Position, d1: int, d2: int,
                     written: tuple[tuple[int, int], ...] = ()) -> list[str]:
        """Up to five legal plays, those closest to what was written first."""
        plays = self.resolver.legal_plays(pos, d1, d2)
        srcs = {s for s, _d in written}
        dsts = {d for _s, d in written}

        def closeness(steps) -> int:
            return len(srcs & {s for s, _d, _h in steps}) + len(dsts & {d for _s, d, _h in steps})

        ranked = sorted((-closeness(steps), format_steps(steps)) for steps in plays.values() if steps)
        out: list[str] = []
        for _score, text in ranked:
            if text not in out:
                out.append(text)
            if len(out) == MAX_ALTERNATIVES:
                break
        return out

    def cannot_replay(self, a: m.Action, key: str = "GM215") -> None:
        """Stop replaying this game at ``a`` (GM215, once a game): its later
        actions are not checked and its stated result is used. ``key`` is
        the message (``GM215.marker``: a record's Illegal play marker)."""
        if not self.broken:
            self.report("GM215", key, {"game": self.game.number, "action": a.text()}, a)
        self.broken = True
        self.calm()

    def calm(self) -> None:
        """Settle :attr:`quiet` after a change of what it depends on: whether
        plays may take the fast path (the game not over, no roll left
        unplayed, nothing broken; a pending offer is the cube's)."""
        self.quiet = (self.end is None and self.win is None and self.unplayed_roll is None
                      and not self.broken)

    def ended(self) -> bool:
        return self.end is not None or self.win is not None

    def after_end(self, action: m.Action) -> bool:
        """Report (once) an action after the end of the game."""
        if not self.ended():
            return False
        if not self.after_end_reported:
            self.after_end_reported = True
            self.report("GM214", "GM214", {"action": action.text()}, action)
        return True

    def check_unplayed_roll(self, next_action: m.ActionType | None = None) -> None:
        """A roll with no play, while a play existed, must end the game. When
        the game goes on (``next_action`` follows), the record left the play
        out: the only legal play is a forced play the record did not write
        (GM218, a warning; GNU Backgammon plays it in), and the replay plays
        it; with several, it is an error (GM212) and the replay goes on
        from the legal play the plays that follow single out, if one does."""
        if self.unplayed_roll is None:
            return
        a = self.unplayed_roll
        before = self._unplayed_pos
        self.unplayed_roll = None
        self._unplayed_pos = None
        self.calm()
        d1, d2 = a.dice
        fields: Fields = {"player": self.name(a.player), "d1": d1, "d2": d2}
        plays = self.resolver.legal_plays(before, d1, d2) if before is not None else {}
        if len(plays) == 1:
            [(after, steps)] = plays.items()
            if not steps:   # no legal play after all: nothing was left out
                return
            text = format_steps(steps)
            self.report("GM218", "GM218", {**fields, "play": text}, a, dice=a.dice, play=text)
            self.reconstruct(a, after)
            return
        best = self.best_reconstruction(a, plays, next_action) if next_action is not None \
            else None
        if best is None:
            self.report("GM212", "GM212" if next_action is None else "GM212.not-reconstructed",
                        fields, a, dice=a.dice, legal=self._unplayed_alternatives)
            return
        after, steps, count = best
        text = format_steps(steps)
        self.report("GM212", "GM212.reconstructed", {**fields, "play": text, "plays": count}, a,
                    dice=a.dice, play=text, legal=self._unplayed_alternatives)
        self.reconstruct(a, after)

    def reconstruct(self, a: m.ActionType, after: Position) -> None:
        """Go on as if ``a``'s roller had reached ``after`` (seen by them):
        the roll's turn is over, the opponent is on roll."""
        self.pos = after.swapped()
        if board.game_over(after):
            self.end = (a.player, board.outcome_of(after))
            self.calm()

    #: How many of the plays after a roll left unplayed are replayed to
    #: find which legal play the record's later plays presuppose.
    LOOKAHEAD = 6

    def best_reconstruction(self, a: m.ActionType, plays: dict, next_action: m.ActionType
                            ) -> tuple[Position, tuple, int] | None:
        """Of the legal ``plays`` of the roll ``a`` left unplayed, the one
        after which the record's next plays (up to :attr:`LOOKAHEAD`) replay
        as legal the longest, with how many; None when no single one does
        better than all the others."""
        actions = self.game.actions
        at = next((i for i, x in enumerate(actions) if x is next_action), None)
        if at is None:
            return None
        later = [x for x in actions[at:] if x.__class__ in (m.Play, m.Dance)][:self.LOOKAHEAD]
        scored = []
        for after, steps in plays.items():
            pos = after.swapped()
            player = 1 - a.player
            count = 0
            for x in later:
                if x.player != player:
                    break
                d1, d2 = x.dice
                if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                    break
                if x.__class__ is m.Dance:
                    if board.die_playable(pos, d1) or board.die_playable(pos, d2):
                        break
                    new = pos
                else:
                    try:
                        res = self.resolver.resolve_play(pos, x.movements(), d1, d2)
                    except ValueError:   # a point off the board (GM107, GM108)
                        break
                    if not res.legal:
                        break
                    new = res.position
                count += 1
                pos = new.swapped()
                player = 1 - player
            scored.append((count, after, steps))
        scored.sort(key=lambda t: -t[0])
        if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            return None
        count, after, steps = scored[0]
        return after, steps, count

    def begin_turn(self, action: m.Action, dice: tuple[int, int] | None) -> None:
        """Settle whose turn it is before a roll (and any offer left waiting)."""
        for r in self.cube.roll(action.player):
            why = r.why
            if why is Why.UNANSWERED:
                dbl = r.offer
                self.report("GM304", "GM304", {"action": dbl.text(), "player": self.name(r.player)},
                            dbl)
            elif why is Why.OPENING:
                self.pos = self.start
                if dice and dice[0] == dice[1] and not self.v.rules.automatic_doubles:
                    self.report("GM201", "GM201", {"d1": dice[0], "d2": dice[1]}, action,
                                dice=dice)
            else:  # Why.OUT_OF_TURN
                self.report("GM213", "GM213", {"player": self.name(action.player),
                                               "turn": self.name(r.player)}, action, dice=dice)
                self.swap_sides()

    def record(self, action: m.ActionType, steps=None) -> None:
        if self.keep:
            cube = self.cube
            self.records.append(ActionRecord(action, cube.turn, self.pos, cube.value, cube.owner,
                                             steps))

    @property
    def pos(self) -> Position | None:
        """The position, seen by the player on roll."""
        if not self._pos_ok:
            self._pos = _position(tuple(self.me), tuple(self.opp))
            self._pos_ok = True
        return self._pos

    @pos.setter
    def pos(self, position: Position | None) -> None:
        self._pos = position
        self._pos_ok = True
        self._sides_ok = False

    def swap_sides(self) -> None:
        """The position as the other player sees it."""
        if self._sides_ok:
            self.me, self.opp = self.opp, self.me
            self._pos_ok = False
        elif self._pos is not None:
            self._pos = self._pos.swapped()

    def end_turn(self, new_pos: Position | None) -> None:
        self.pos = new_pos.swapped() if new_pos is not None else None
        self.cube.end_turn()

    # -- actions -------------------------------------------------------
    def play(self, a: m.Play) -> None:
        """Replay a play. The fast path takes a legal play on the player's
        turn in an ordinary moment of the game (no pending double, nothing
        to report), read as :func:`board.resolve_play` would read it; it
        changes the state exactly as :meth:`play_in_full` would then.
        Anything else, and whatever would need a diagnostic, goes the full
        way."""
        cube = self.cube
        if self.quiet and cube.pending is None:
            d1, d2 = a.dice
            turn = cube.turn
            if turn is None and d1 != d2:  # the opening roll: no double (GM201), from the start
                self.pos = self.start
                turn = a.player
            if turn == a.player and d1 in _DIE and d2 in _DIE:
                if not self._sides_ok:
                    pos = self.pos
                    if pos is None:
                        return self.play_in_full(a)
                    self.me, self.opp = list(pos.me), list(pos.opp)
                    self._sides_ok = True
                # the position before, for the record (made before the
                # side arrays change)
                before = self.pos if self.keep else None
                me = self.me
                off = me[0]
                shape = a.shape or a.play_shape()
                hits = self.play_in_place(me, self.opp, shape[0], d1, d2,
                                          shape[1] if self.marks_hits else None)
                if hits is not None:
                    if before is not None:   # what play_in_full records of it
                        self.records.append(ActionRecord(
                            a, a.player, before, cube.value, cube.owner,
                            self.resolver.steps_in_place(shape[0], d1, d2, hits)))
                    self._pos_ok = False
                    self.moves += 1
                    if me[0] != off and not any(me[1:]):  # the last checker borne off
                        self.end = (a.player, board.outcome_of(
                            _position(tuple(me), tuple(self.opp))))
                        self.quiet = False
                    self.me, self.opp = self.opp, me  # as the opponent, next on roll, sees it
                    cube.turn = 1 - a.player
                    return
        self.play_in_full(a)

    def plays(self, actions: list, i: int) -> int:
        """Replay the play ``actions[i]`` and the plays after it, in a row,
        as :meth:`play` replays each (a validation without records: its
        fast path, else :meth:`play_in_full`), in one loop on local
        variables: the side arrays, whose turn it is; and the dances in
        between of a player on the bar whose two entry points are held (what
        :meth:`dance` does then: the turn passes, nothing to report, its
        record kept when records are). Returns the index of the first
        action not replayed: the first that is not a play or such a dance
        (any other dance, a cube action), or the one after the first play
        that goes the full way (out of turn, dice off the die, an irregular
        play: the loop stops there), or after the play that ends the game.

        Each play's die steps (:meth:`Resolver.plan`) are kept with its text
        (:class:`~gamao_cli.model.PlayText`), which all the plays written
        alike share, and played by :func:`~gamao_cli.rules.resolve.play_plan`.
        A checker moved by both dice, written as one movement, whose
        written order is blocked is played the other way round
        (:func:`~gamao_cli.rules.resolve.other_order_plan`: the only other
        reading of that movement) before the play goes the full way.

        With records kept (the writers' replay) each play gets the record
        :meth:`play` gives it: the position before it, the cube, its die
        steps (:func:`~gamao_cli.rules.resolve.steps_of_plan`, also for a
        play of fewer dice than the roll, whose written-order reading is
        then the full path's: tests/test_fast_paths.py), and a dance on the
        bar the record :meth:`dance` gives it.

        Without records, when the optional C kernel is built
        (``_play_run.c``; :mod:`gamao_cli.kernels`), the loop hands it the
        plain stretches: its ``run`` plays, on C copies of the side arrays,
        every play in a row that is its text's memo for the same roll and
        whose plan plays whole (play_plan's tests, in its order), and the
        dances on the bar as above, and stops,
        the arrays as they were, at the first action that is anything else
        (no memo yet, a play of fewer dice, a play that fails, out of turn,
        the play that bears off the last checker): this loop handles that
        one as it would without the kernel, then hands on the rest. With
        records kept, the kernel's ``run_records`` does the same and
        appends each play's record as this loop would (a dance is this
        loop's: it records it and hands on the rest). This
        Python loop is the reference; tests/test_play_run_kernel.py runs the
        corpus both ways and compares."""
        cube = self.cube
        turn = cube.turn
        if not self.quiet or cube.pending is not None or turn is None:
            self.play(actions[i])   # the opening, or what goes the full way
            return i + 1
        if not self._sides_ok:
            pos = self.pos
            if pos is None:
                self.play_in_full(actions[i])
                return i + 1
            self.me, self.opp = list(pos.me), list(pos.opp)
            self._sides_ok = True
        me, opp = self.me, self.opp
        marks = self.marks_hits
        plan_of, fewer = self.resolver.plan, self.resolver.play_fewer_in_place
        Play, Dance, die = m.Play, m.Dance, _DIE
        start, n = i, len(actions)
        # with records kept: where they go, and the position before the play
        # (the first from self.pos, as play() takes it; None: to be made)
        records = self.records if self.keep else None
        before = self.pos if records is not None else None
        kept = None
        danced = 0   # of the actions replayed, the dances (no plays)
        run = run_kept = None
        if _play_run is not None:
            if records is None:
                run = _play_run.run
            elif _records_bound:
                run_kept = _play_run.run_records
        while i < n:
            if run is not None or run_kept is not None:
                if run is not None:
                    j, dances = run(actions, i, me, opp, turn, marks)
                else:
                    j, before, kept = run_kept(actions, i, me, opp, turn, marks, records,
                                               cube.value, cube.owner, before, kept)
                    dances = 0
                if j != i:
                    danced += dances
                    if (j - i) & 1:   # as the player on roll after those actions sees it
                        me, opp = opp, me
                        turn = 1 - turn
                    i = j
                    if i == n:
                        break
            a = actions[i]
            if a.__class__ is not Play:
                if a.__class__ is Dance and a.player == turn and me[25]:
                    d1, d2 = a.dice
                    if d1 in die and d2 in die and opp[d1] > 1 and opp[d2] > 1:
                        # a dance on the bar, both entry points held: what
                        # dance() does then (nothing to report, the record
                        # of no steps; the turn passes)
                        if records is not None:
                            if before is None:
                                before = _position(kept or tuple(me), tuple(opp))
                            records.append(ActionRecord(a, turn, before, cube.value,
                                                        cube.owner, ()))
                            kept = before.opp   # (the next mover's side, unchanged)
                            before = None
                        i += 1
                        danced += 1
                        me, opp = opp, me
                        turn = 1 - turn
                        continue
                break   # (never the first: the caller gives a play)
            d1, d2 = a.dice
            if a.player != turn or d1 not in die or d2 not in die:
                # out of turn, dice off the die: the full way, as play() sends it
                self._done(me, opp, turn, i - start, danced)
                self.play_in_full(a)
                return i + 1
            roll = d1 << 3 | d2
            written = a._written   # the text's memo, while the play is its text
            memo = written.plan if written is not None and a._moves is None else None
            if memo is None or memo[0] != roll:
                shape = a.shape or a.play_shape()
                plan = plan_of(shape[0], d1, d2)
                # (the roll, its plan, the hits marked, the plan of a play of
                # fewer dice, the die steps of the plan when it hits nothing:
                # made when a record first needs them, never in a validation)
                memo = (roll, plan, shape[1],
                        () if plan else fewer_dice_plan(shape[0], d1, d2), None)
                if written is not None and a._moves is None:
                    written.plan = memo
            plan = memo[1]
            off = me[0]
            whole = bool(plan)
            if not whole:
                plan = memo[3]   # a play of fewer dice than the roll, or none
            if plan:
                if records is not None and before is None:
                    # (the mover's side is the one the play before did not
                    # change when it hit nothing: its tuple is kept)
                    before = _position(kept or tuple(me), tuple(opp))
                if whole:
                    hits = play_plan(me, opp, plan, memo[2] if marks else None)
                else:
                    hits = fewer(me, opp, plan, d1, d2, memo[2] if marks else None)
            else:
                hits = None
            other = False
            if hits is None and whole:
                # one checker moved by both dice, written as one movement,
                # its written order blocked: the other order of its dice
                # (what the full path reads then; not "6/1 1/0", steps the
                # full path reads the other way with a note, GM126)
                alt = other_order_plan(plan)
                if alt and len((a.shape or a.play_shape())[0]) == 1:
                    hits = play_plan(me, opp, alt, memo[2] if marks else None)
                    plan, other = alt, True
            if hits is None:
                # the full way (with the state as the plays before left it)
                self._done(me, opp, turn, i - start, danced)
                self.play_in_full(a)
                return i + 1
            if records is not None:   # what play() records of it
                if hits or not whole or other:
                    steps = steps_of_plan(plan, hits)
                else:
                    steps = memo[4]
                    if steps is None:
                        steps = steps_of_plan(plan, ())
                        memo = memo[:4] + (steps,)
                        if written is not None and a._moves is None:
                            written.plan = memo
                records.append(ActionRecord(a, turn, before, cube.value, cube.owner, steps))
                kept = None if hits else before.opp
                before = None
            i += 1
            if me[0] != off and not any(me[1:]):  # the last checker borne off
                self.end = (turn, board.outcome_of(_position(tuple(me), tuple(opp))))
                self.quiet = False
                self._done(opp, me, 1 - turn, i - start, danced)
                return i
            me, opp = opp, me   # as the opponent, next on roll, sees it
            turn = 1 - turn
        self._done(me, opp, turn, i - start, danced)
        return i

    def _done(self, me: list[int], opp: list[int], turn: int, done: int, danced: int) -> None:
        """The state :meth:`plays` leaves after ``done`` actions, ``danced``
        of them dances: the side arrays, seen by ``turn``, the player on
        roll."""
        if done:
            self.me, self.opp = me, opp
            self._pos_ok = False
            self.moves += done - danced
            self.cube.turn = turn

    def play_in_full(self, a: m.Play) -> None:
        if self.after_end(a):
            return
        self.check_unplayed_roll(a)
        d1, d2 = a.dice
        self.begin_turn(a, a.dice)
        self.moves += 1
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            self.report("GM101", "GM101", {"d1": d1, "d2": d2}, a, dice=a.dice)
            self.record(a)
            self.broken = True
            self.calm()
            self.end_turn(self.pos)
            return
        if self.broken or self.pos is None:
            self.record(a)
            self.end_turn(self.pos)
            return
        pos = self.pos
        moves = a.movements()
        text = a.play_text()
        if (0, 0) in moves and any(mv != (0, 0) for mv in moves):
            # "21: 2/off 0/0" (OpenGammon, Foxamon): the die with no checker
            # left to move, written as a step from off to off (beside a
            # real step: a play of nothing but 0/0 stays GM108)
            moves = tuple(mv for mv in moves if mv != (0, 0))
            self.report("GM112", "GM112", {"play": text}, a, dice=a.dice, play=text)
        # a point the board has not, or a step from off: nothing can replay it
        unplayable = _off_the_board(a, moves)
        if unplayable is not None:
            code, fields, step = unplayable
            self.report(code, code, {"play": text, **fields}, a,
                        line=step.line if step else a.line,
                        column=step.column if step else a.column,
                        dice=a.dice, play=text)
            self.record(a)
            self.cannot_replay(a)
            self.end_turn(None)
            return
        res = self.resolver.resolve_play(pos, moves, d1, d2,
                                         a.marked_hits() if self.v.marks_hits else None)
        if res.legal:
            self.record(a, res.steps)
            new = res.position
            self.check_hits(a, res.steps)
        elif res.ok:
            most = board.max_dice_playable(pos, d1, d2)
            legal = self.alternatives(pos, d1, d2, moves)
            fields: Fields = {"play": text, "d1": d1, "d2": d2}
            used = res.dice_used
            if used < most:
                left = most - used
                code = "GM210"
                key = "GM210" + {(True, True): ".one-used-one-left", (True, False): ".one-used",
                                 (False, True): ".one-left", (False, False): ""}[
                                     (used == 1, left == 1)]
                fields.update(used=used, most=most, left=left)
            else:
                code = key = "GM211"
                fields["higher"] = max(d1, d2)
            self.report(code, key, fields, a, dice=a.dice, play=text, legal=legal)
            self.record(a, res.steps)
            new = res.position
        else:
            step = self.step_at(a, res.index)
            problem = Msg(res.key, res.fields) if res.key else ""
            try:
                new, _hits = board.apply_steps_as_written(pos, moves)
            except ValueError:
                new = None
            # Steps that do not work in the order written ("6/1 1/off" with
            # 5-2 and a checker on the 4) but leave a legal play's position
            # ("6/4 4/off"): the record wrote the checkers' net movement, as
            # Backgammon Studio does and GNU Backgammon keeps; the play is
            # that legal one (GM126, an info), never an error.
            steps = self.resolver.legal_plays(pos, d1, d2).get(new) if new is not None else None
            if steps:
                self.report("GM126", "GM126", {"play": text, "d1": d1, "d2": d2,
                                               "problem": problem,
                                               "legal": format_steps(steps)}, a,
                            line=step.line if step else a.line,
                            column=step.column if step else a.column,
                            dice=a.dice, play=text)
                self.record(a, steps)
            else:
                legal = self.alternatives(pos, d1, d2, moves)
                code = PROBLEM_CODES.get(res.problem, "GM202")
                self.report(code, code, {"play": text, "d1": d1, "d2": d2, "problem": problem}, a,
                            line=step.line if step else a.line,
                            column=step.column if step else a.column,
                            dice=a.dice, play=text, legal=legal)
                if new is None:
                    self.record(a)
                    self.cannot_replay(a)
                    self.end_turn(None)
                    return
                self.record(a)
        if board.game_over(new):
            self.end = (a.player, board.outcome_of(new))
            self.calm()
        self.end_turn(new)

    def step_at(self, a: m.Play, index: int | None) -> m.Step | None:
        """The written step that holds movement number ``index``."""
        if index is None:
            return None
        n = 0
        for step in a.moves:
            n += (len(step.points) - 1) * step.repeat
            if index < n:
                return step
        return a.moves[-1] if a.moves else None

    def check_hits(self, a: m.Play, steps) -> None:
        marked = a.marked_hits()
        actual = {dst for _src, dst, hit in steps if hit}
        if not marked and not (actual and self.v.marks_hits):
            return
        text = a.play_text()
        for p in sorted(marked - actual):
            self.report("GM102", "GM102", {"play": text, "point": p}, a, dice=a.dice, play=text)
        if self.v.marks_hits:
            written_points = {p for step in a.moves for p in step.points[1:]}
            for p in sorted((actual - marked) & written_points):
                self.report("GM103", "GM103", {"play": text, "point": p}, a, dice=a.dice,
                            play=text)

    def dance(self, a: m.Dance | m.UnplayedRoll) -> None:
        if isinstance(a, m.UnplayedRoll):
            if self.ended():
                return  # Backgammon Studio: a roll never played because the game ended
            if a.dice == (0, 0):
                return self.no_roll(a)
        if self.after_end(a):
            return
        self.check_unplayed_roll(a)
        d1, d2 = a.dice
        self.begin_turn(a, a.dice)
        self.record(a, ())
        pos = self.pos
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            self.report("GM101", "GM101", {"d1": d1, "d2": d2}, a, dice=a.dice)
        elif isinstance(a, m.UnplayedRoll) and a.resigns:
            # "62: Concedes": rolled, then resigned
            self.resigning = a.player
        elif not self.broken and pos is not None:
            if isinstance(a, m.UnplayedRoll) or board.die_playable(pos, d1) or (
                    d2 != d1 and board.die_playable(pos, d2)):  # max dice > 0
                # legal only as "roll, then resign": the game must end next
                self.unplayed_roll = a
                self._unplayed_pos = pos
                self.calm()
                self._unplayed_alternatives = self.alternatives(pos, d1, d2)
        self.swap_sides()
        self.cube.end_turn()

    def no_roll(self, a: m.UnplayedRoll) -> None:
        """Backgammon Studio's ``00: ????``: the player on roll gave up (or
        lost on time) before rolling; the Wins line that follows says which."""
        if self.after_end(a):
            return
        self.check_unplayed_roll(a)
        self.begin_turn(a, None)
        self.record(a, ())
        self.report("GM111", "GM111", {"action": a.text(), "player": self.name(a.player)}, a)
        self.resigning = a.player

    def double(self, a: m.Double) -> None:
        if self.after_end(a):
            return
        self.check_unplayed_roll(a)
        if a.kind != "double":
            return self.redouble(a)
        self.record(a)
        player = {"player": self.name(a.player)}
        for r in self.cube.double(a.player, a.value, a):
            why = r.why
            if why is Why.WRONG_VALUE:
                self.report("GM306", "GM306", {"action": a.text(), "cube": r.offer,
                                               "value": 2 * r.offer}, a)
            elif why is Why.NO_CUBE:
                self.report("GM307", "GM307", {}, a)
            elif why is Why.CRAWFORD:
                self.report("GM302", "GM302", {}, a)
            elif why is Why.BEFORE_OPENING:
                self.report("GM308", "GM308.before-opening", player, a)
            elif why is Why.PENDING:
                self.report("GM308", "GM308.pending", player, a)
            elif why is Why.NOT_YOUR_TURN:
                self.report("GM308", "GM308", {**player, "turn": self.name(r.player)}, a)
            else:  # Why.NOT_OWNER
                self.report("GM301", "GM301", {**player, "owner": self.name(r.player)}, a)

    def redouble(self, a: m.Double) -> None:
        """A beaver or a raccoon."""
        self.record(a)
        kind = Offer.BEAVER if a.kind == "beaver" else Offer.RACCOON
        action = {"action": a.text()}
        for r in self.cube.redouble(a.player, kind, a.value, a):
            why = r.why
            if why is Why.NOTHING_TO_ANSWER:
                self.report("GM303", "GM303.no-" + r.offer, action, a)
            elif why is Why.BEAVER_IN_MATCH:
                self.report("GM305", "GM305.match", action, a)
            elif why is Why.BEAVER_BY_RULES:
                self.report("GM305", "GM305.rules", action, a)
            else:  # Why.WRONG_VALUE
                self.report("GM306", "GM306.redouble", {**action, "cube": r.offer,
                                                        "value": 2 * r.offer}, a)

    def take(self, a: m.Take) -> None:
        if self.after_end(a):
            return
        self.record(a)
        if self.cube.take(a.player):
            self.report("GM303", "GM303.take", {"player": self.name(a.player)}, a)

    def drop(self, a: m.Drop) -> None:
        if self.after_end(a):
            return
        self.record(a)
        winner, refused = self.cube.drop(a.player)
        if refused:
            self.report("GM303", "GM303.drop", {"player": self.name(a.player)}, a)
            return
        self.end = (winner, DROP)
        self.calm()

    def loss(self, a: m.Loss) -> None:
        """Backgammon Galaxy's ``Losses N point``: a note beside the result.
        On a move line its column names the loser; a line of its own says
        nothing about the side. It is checked against the result at the end."""
        self.record(a)
        self.losses.append(a)

    def resign(self, a: m.Resign) -> None:
        if self.after_end(a):
            return
        self.record(a)
        self.unplayed_roll = None
        self.calm()
        # "Resigned Game" (OpenGammon) stands in the winner's column: it
        # does not say who gave up (the Wins line does)
        self.resigning = None if a.word[:8].lower() == "resigned" else a.player
        if a.word[:1] == "?":   # "????" with no dice: did not roll
            self.report("GM111", "GM111.no-dice", {"action": a.text(),
                                                   "player": self.name(a.player)}, a)

    def win_line(self, a: m.Win) -> None:
        if self.win is not None:
            self.after_end_reported = True
            self.report("GM214", "GM214.result", {"action": a.text()}, a)
            return
        self.record(a)
        self.win = a
        self.unplayed_roll = None
        self.calm()

    def illegal_play_marker(self, a: m.IllegalPlayMarker) -> None:
        """Snowie's ``31: Illegal play (...)``: an irregular play, with the
        position after it in Snowie's text format (:mod:`gamao_cli.ids.snowie`).
        The replay goes on from that position (GM110, a warning: the record
        itself marks the play illegal); a marker that states no position it
        can read stops the replay of the game (GM215)."""
        if self.after_end(a):
            return
        self.check_unplayed_roll(a)
        self.begin_turn(a, a.dice)
        self.record(a)
        self.moves += 1
        stated = _snowie_position(a.written, self.start)
        if stated is None or self.broken:
            self.cannot_replay(a, "GM215.marker")
            self.end_turn(None)
            return
        sides = _orient(stated, self.pos, a.player, self.v.names)
        after = Position(sides[a.player], sides[1 - a.player])
        self.report("GM110", "GM110.snowie", {"action": a.text(), "player": self.name(a.player),
                                              "d1": a.dice[0], "d2": a.dice[1]},
                    a, dice=a.dice)
        if board.game_over(after):
            self.end = (a.player, board.outcome_of(after))
            self.calm()
        self.end_turn(after)

    def set_up(self, a: m.SetUp) -> None:
        """A position the record sets inside the game (GNU Backgammon's SGF
        set-up nodes, eXtreme Gammon's ``; Set Pos=``): the game goes on
        from it, ``a.player`` on roll and the cube as it says (GM125, an
        info: no play of the record's leads there). A position no game can
        hold (a side without its checkers, both sides on one point) is an
        error (GM219) and stops the replay of the game."""
        if self.after_end(a):
            return
        self.check_unplayed_roll(a)
        self.record(a)
        cube = self.cube
        player = a.player
        if a.sides is not None:
            problem = _impossible(a.sides, sum(self.start.me))
            if problem is not None:
                key, fields = problem
                self.report("GM219", key, {"action": a.text(), **fields}, a)
                self.cannot_replay(a)
                self.end_turn(None)
                return
            new = Position(a.sides[player], a.sides[1 - player])
        elif cube.turn is None:
            new = self.start
        else:
            new = self.pos if cube.turn == player or self.pos is None else self.pos.swapped()
        owner = a.cube_owner
        cube.set_up(player, a.cube, None if owner == m.CENTRED else owner, owner is not None)
        self.pos = new
        if new is not None and not self.broken:
            if not any(new.opp[1:]):   # the other player has borne off every checker
                self.end = (1 - player, board.outcome_of(new.swapped()))
            elif not any(new.me[1:]):
                self.end = (player, board.outcome_of(new))
        key = "GM125" if a.sides is not None else "GM125.cube"
        if cube.owner is not None:
            key += "-owned" if a.sides is None else ".owned"
        self.report("GM125", key, {"action": a.text(), "player": self.name(player),
                                   "position": _position_id(new) if new is not None else "",
                                   "cube": cube.value, "owner": self.name(cube.owner)}, a)
        self.calm()

    # -- the end of the game ---------------------------------------------
    def finish(self, result: GameResult, last_game: bool) -> None:
        v = self.v
        a = self.win
        if a is None and self.end is None and self.unplayed_roll is not None and \
                self.game.actions and self.game.actions[-1] is self.unplayed_roll:
            # the record stops after the dice of a roll: that is where it
            # ends (GM410 or GM404 below), not a play left out
            self.unplayed_roll = None
        self.check_unplayed_roll()
        score = v.score
        cube = self.cube.value
        turned = self.cube.turned
        result.cube = cube
        result.moves = self.moves
        if self.end is not None:
            winner, outcome = self.end
            mult = outcome.multiplier
            expected = cube * mult
            result.ended = outcome
            if outcome is not DROP and mult > 1 and not turned and v.rules.jacoby:
                expected = cube
                result.ended = SINGLE
                result.full_points = cube * mult
            result.winner = winner
            result.points = expected
            if a is None:
                return
            result.stated_points = a.points
            action = {"action": a.text()}
            if a.player != winner:
                self.report("GM406", "GM406", {**action, "player": self.name(a.player),
                                               "winner": self.name(winner)}, a)
                return
            if a.points == expected:
                return
            # A match has no Jacoby rule: a game that decides it, written for
            # the points the winner needed, is capped (GM411) before it is
            # read as a gammon counted single (GM408), even when the two agree
            # (at 6-6 in a 7-point match a gammon with the cube at 1 needs 1).
            if self.capped(a, expected, winner):
                return
            if (outcome is not DROP and mult > 1 and not turned
                    and v.rules.jacoby is None and a.points == cube):
                self.report("GM408", f"GM408.{outcome}", action, a)
                result.points = a.points
                result.ended = SINGLE
                result.full_points = cube * mult
                return
            self.report("GM401", f"GM401.{outcome}" + ("-one" if expected == 1 else ""),
                        {**action, "points": expected}, a)
            return
        if a is None:
            if self.broken:
                return
            if last_game:
                self.report("GM410", "GM410", {"game": self.game.number}, self.game)
            else:
                self.report("GM404", "GM404", {"game": self.game.number}, self.game)
            return
        # a Wins line before the game is over: a resignation (or a loss on time)
        winner = a.player
        result.winner = winner
        result.stated_points = a.points
        action = {"action": a.text()}
        if self.resigning is not None and self.resigning == winner:
            self.report("GM406", "GM406.resigned", {**action, "player": self.name(winner)}, a)
        if self.broken:
            result.ended = RESIGN
            result.points = a.points
            return
        valid = (cube, 2 * cube, 3 * cube)
        last = self.last_roll()
        # a roll never played ("????"): a resignation or a loss on time; one
        # the record says was conceded ("62: Concedes") is a resignation
        unplayed = isinstance(last, m.UnplayedRoll) and not last.resigns
        if a.points in valid:
            result.ended = RESIGN
            result.points = a.points
        elif a.points < 3 * cube and self.capped(a, 3 * cube, winner):
            result.ended = RESIGN
            result.points = a.points
        elif a.match and v.match.length and a.points == v.match.length - score[winner]:
            result.ended = RESIGN
            result.points = a.points
            self.report("GM412", "GM412", {**action, "cube": cube,
                                           "loser": self.name(1 - winner)}, a)
        elif unplayed:
            result.ended = TIME
            needed = (v.match.length - score[winner]) if v.match.length else a.points
            result.points = max(needed, 0)
            self.report("GM409", "GM409", {**action, "loser": self.name(1 - winner)}, a)
        else:
            result.ended = RESIGN
            result.points = a.points
            self.report("GM405", "GM405", {**action, "cube": cube, "double": 2 * cube,
                                           "triple": 3 * cube}, a)

    def last_roll(self) -> m.ActionType | None:
        """The game's last roll (a play, a dance or a roll never played)."""
        for a in reversed(self.game.actions):
            if a.__class__ in _ROLLS:
                return a
        return None

    def capped(self, a: m.Win, expected: int, winner: int) -> bool:
        """Backgammon Galaxy writes, for the game that decides a match, fewer
        points than the rules give: the points the winner still needed, or
        the match length. The match result is the same; say so (GM411)."""
        v = self.v
        if not v.match.length or a.points >= expected:
            return False
        needed = v.match.length - v.score[winner]
        if a.points < needed or a.points not in (needed, v.match.length):
            return False
        self.report("GM411", "GM411.needed" if a.points == needed else "GM411.length",
                    {"action": a.text(), "expected": expected, "points": a.points}, a)
        return True

    def check_losses(self, result: GameResult) -> None:
        for a in self.losses:
            if result.winner is not None and a.move_number is not None and \
                    a.player == result.winner:
                self.report("GM106", "GM106", {"action": a.text(),
                                               "player": self.name(a.player)}, a)
            if result.stated_points is not None and a.points != result.stated_points:
                self.report("GM106", "GM106.points", {"action": a.text(),
                                                      "points": result.stated_points}, a)


#: The handler of each kind of action.
_HANDLERS: dict[type, Callable[[_GameReplay, Any], None]] = {
    m.Play: _GameReplay.play,
    m.Dance: _GameReplay.dance,
    m.UnplayedRoll: _GameReplay.dance,
    m.Double: _GameReplay.double,
    m.Take: _GameReplay.take,
    m.Drop: _GameReplay.drop,
    m.Win: _GameReplay.win_line,
    m.Resign: _GameReplay.resign,
    m.Loss: _GameReplay.loss,
    m.IllegalPlayMarker: _GameReplay.illegal_play_marker,
    m.SetUp: _GameReplay.set_up,
}
#: The same, every play the full way (``validate_match(..., fast=False)``).
_FULL_HANDLERS = {**_HANDLERS, m.Play: _GameReplay.play_in_full}


class _MatchValidator:
    def __init__(self, match: m.Match, keep_records: bool, resolver: Resolver, fast: bool):
        self.match = match
        self.keep = keep_records
        self.resolver = resolver
        self.handlers = _HANDLERS if fast else _FULL_HANDLERS
        self.report_obj = MatchReport(match)
        self.names = match.players
        self.score = [0, 0]
        # the running score without the Jacoby rule, and whether a score
        # line that counts so was said (GM417: money sessions only)
        self.full_score = [0, 0]
        self.full_said = False
        self.marks_hits = _marks_hits(match)
        # the file of each game read from a file of its own (gnubg's text export)
        self.game_paths = {g.number: g.path for g in match.games if g.path}

    def add(self, d: Diagnostic) -> None:
        if not d.path:
            d.path = (self.game_paths.get(d.game) if self.game_paths and d.game else None) \
                or self.match.path
        self.report_obj.diagnostics.append(d)

    def diagnostic(self, code: str, key: str, fields: Fields, where: m.Game | m.Match | m.ScoreLine,
                   **kw: Any) -> None:
        self.add(Diagnostic(code, key=key, fields=fields, line=where.line, column=where.column,
                            **kw))

    def name(self, player: int | None) -> str | Msg:
        """A player's name in messages (a message for an unnamed player)."""
        if player is None:
            return _NOBODY
        n = self.names[player] if player < len(self.names) else ""
        return n or (_LEFT if player == 0 else _RIGHT)

    def run(self) -> MatchReport:
        match = self.match
        rep = self.report_obj
        try:
            self.rules = Rules.from_match(match)
        except UnknownVariant as exc:
            self.diagnostic("GM005", "GM005", {"name": exc.name, "known": ", ".join(exc.known)},
                            match)
            return rep
        for n in match.notices:   # what the reader noticed (a producer's slips)
            self.add(Diagnostic(n.code, key=n.key, fields=n.fields, line=n.line,
                                column=n.column, game=n.game, path=n.path))
        start = board.start_position(self.rules.variant)
        length = match.length
        crawford_done = False
        decided_at: tuple[int, int] | None = None
        previous_number = 0
        games = match.games
        handlers = self.handlers
        # plays in a row, in one loop (_GameReplay.plays), when each would
        # take play(): no stated positions to check
        Play = m.Play
        in_a_row = handlers.get(Play) is _GameReplay.play
        started = self.start_in_the_middle(games)
        for gi, game in enumerate(games):
            skipped = game.number > previous_number + 1 and gi > 0
            # (a record that starts in the middle of the match may start at
            # any game number)
            if game.number != previous_number + 1 and not (gi == 0 and started) and not (
                    skipped and self.missing_games(game, previous_number)):
                self.diagnostic("GM104", "GM104", {"game": game.number, "previous": previous_number},
                                game, game=game.number)
            previous_number = game.number
            if decided_at is not None:
                self.diagnostic("GM403", "GM403", {"game": game.number, "score0": decided_at[0],
                                                   "score1": decided_at[1]},
                                game, game=game.number)
            if gi > 0 or not started:
                self.check_score_line(game, games[gi + 1] if gi + 1 < len(games) else None)
            # The Crawford game follows the game in which a player *reached*
            # match point: never the first game (a 1-point match has none).
            # A record that starts in the middle of a match at match point
            # starts with the Crawford game, unless that game doubles (then
            # it is post-Crawford; the record cannot say more).
            first = gi == 0 and not (started and not any(
                a.__class__ is m.Double for a in game.actions))
            crawford = board.crawford_game(length, self.score, self.rules.crawford,
                                           crawford_done, first)
            crawford_done = crawford_done or crawford
            result = GameResult(game.number, score_before=(self.score[0], self.score[1]),
                                crawford=crawford)
            g = _GameReplay(self, game, start, crawford, self.keep)
            actions = game.actions
            i, n = 0, len(actions)
            while i < n:
                a = actions[i]
                if a.__class__ is Play and in_a_row:
                    i = g.plays(actions, i)
                    continue
                i += 1
                try:
                    handler = handlers[a.__class__]
                except KeyError:  # no action of the model: nothing to replay
                    continue
                handler(g, a)
            g.finish(result, last_game=gi == len(games) - 1)
            rep.plays += g.moves
            g.check_losses(result)
            result.records = g.records
            rep.games.append(result)
            if result.winner is not None and result.points is not None and decided_at is None:
                self.score[result.winner] += result.points
                self.full_score[result.winner] += result.full_points or result.points
                if length and self.score[result.winner] >= length:
                    decided_at = (self.score[0], self.score[1])
                    rep.winner = result.winner
        rep.final_score = decided_at or (self.score[0], self.score[1])
        if length and decided_at is None and games:
            last = games[-1]
            self.diagnostic("GM410", "GM410.match", {"score0": self.score[0],
                                                     "score1": self.score[1], "length": length},
                            last, game=last.number)
        rep.diagnostics.sort(key=Diagnostic.sort_key)
        return rep

    def start_in_the_middle(self, games: list[m.Game]) -> bool:
        """A record whose first score line is not 0-0 starts in the middle
        of the match (a resumed session, a transcription that begins at
        4-3): its score lines and final score count from there (GM413, an
        info). A score a match cannot reach (at or beyond its length, or
        negative) is no start: the score line is checked as any other."""
        if not games or games[0].score is None:
            return False
        sl = games[0].score
        s0, s1 = sl.scores
        if s0 is None or s1 is None or (s0, s1) == (0, 0) or min(s0, s1) < 0:
            return False
        length = self.match.length
        if length and max(s0, s1) >= length:
            return False
        self.score = [s0, s1]
        self.full_score = [s0, s1]
        self.report_obj.start_score = (s0, s1)
        self.diagnostic("GM413", "GM413", {"score0": s0, "score1": s1}, sl,
                        game=games[0].number)
        return True

    def _gap(self, game: m.Game) -> tuple[int, int] | None:
        """The stated score of ``game`` when it is ahead of the running
        score for both players (games left out can only add points), and
        not beyond the match; else None."""
        sl = game.score
        if sl is None or None in sl.scores:
            return None
        stated = (sl.scores[0], sl.scores[1])
        running = self.score
        if stated == tuple(running) or stated[0] < running[0] or stated[1] < running[1]:
            return None
        length = self.match.length
        if length and max(stated) >= length:
            return None
        games = self.report_obj.games
        prev = games[-1] if games else None
        if prev is not None and prev.winner is not None and prev.stated_points is not None \
                and prev.points is not None and prev.stated_points != prev.points:
            # the previous game's Wins line disagrees with the rules (an error
            # of its own): a score line that counts it is no gap
            alt = list(running)
            alt[prev.winner] += prev.stated_points - prev.points
            if tuple(alt) == stated:
                return None
        return stated

    def missing_games(self, game: m.Game, previous: int) -> bool:
        """Games left out of the record, where its numbers skip them: the
        score line of ``game`` is ahead of the running score, so the
        record goes on from it (GM413, an info, in place of GM104 and
        GM402)."""
        stated = self._gap(game)
        if stated is None:
            return False
        first, last = previous + 1, game.number - 1
        self.diagnostic("GM413", "GM413.gap" if last > first else "GM413.gap-one",
                        {"game": game.number, "score0": stated[0], "score1": stated[1],
                         "running0": self.score[0], "running1": self.score[1],
                         "first": first, "last": last}, game.score, game=game.number)
        self.score = list(stated)
        self.full_score = list(stated)
        return True

    @staticmethod
    def _confirms(game: m.Game, next_game: m.Game, stated: tuple[int, int]) -> bool:
        """Whether the score line of ``next_game`` agrees with ``stated``,
        ``game``'s, and the result ``game``'s Wins line states: the score
        lines agree with themselves, so the gap before ``game`` is games
        left out, not a wrong score line."""
        nl = next_game.score
        wins = game.wins()
        if nl is None or None in nl.scores or not wins:
            return False
        win = wins[0]
        expected = list(stated)
        expected[win.player] += win.points
        return list(nl.scores) == expected

    def check_score_line(self, game: m.Game, next_game: m.Game | None = None) -> None:
        sl = game.score
        if sl is None or self.full_counted(game):
            return
        stated = self._gap(game)
        if stated is not None and next_game is not None and self._confirms(game, next_game,
                                                                           stated):
            self.diagnostic("GM413", "GM413.gap-unnumbered",
                            {"game": game.number, "score0": stated[0], "score1": stated[1],
                             "running0": self.score[0], "running1": self.score[1]},
                            sl, game=game.number)
            self.score = list(stated)
            self.full_score = list(stated)
            return
        for player in (0, 1):
            stated = sl.scores[player]
            if stated is not None and stated != self.score[player]:
                name = self.name(player)
                self.diagnostic("GM402", "GM402", {"player": name, "stated": stated,
                                                   "running": self.score[player]},
                                sl, game=game.number, player=str(name))


    def full_counted(self, game: m.Game) -> bool:
        """Whether ``game``'s score line, in a money session whose results
        apply the Jacoby rule, is the running score counted without it (the
        session's gammons in full): a producer's way of keeping the score
        (GM417, an info, said at the first such line), not a wrong one."""
        sl = game.score
        if self.match.length or self.full_score == self.score or sl is None:
            return False
        if list(sl.scores) != self.full_score:
            return False
        if not self.full_said:
            self.full_said = True
            self.diagnostic("GM417", "GM417", {
                "player0": self.name(0), "player1": self.name(1),
                "stated0": sl.scores[0], "stated1": sl.scores[1],
                "running0": self.score[0], "running1": self.score[1]},
                sl, game=game.number)
        return True


def _off_the_board(a: m.Play, moves) -> tuple[str, Fields, m.Step | None] | None:
    """(code, fields, written step) for a play that moves from or to a point
    the board has not (GM107), or from off (GM108); else None."""
    bad = next((p for mv in moves for p in mv if not 0 <= p <= 25), None)
    if bad is not None:
        return "GM107", {"point": bad}, next((st for st in a.moves if bad in st.points), None)
    if any(src == 0 for src, _dst in moves):
        return "GM108", {}, next((st for st in a.moves if 0 in st.points[:-1]), None)
    return None


def _snowie_position(written: str, start: Position):
    """The position an ``Illegal play (...)`` cell states (its sides by
    player), or None when it states none that can be replayed."""
    from gamao_cli.ids.snowie import parse_snowie_position, position_text

    text = position_text(written)
    if text is None:
        return None
    return parse_snowie_position(text, checkers=sum(start.me))


def _orient(stated, before: Position | None, mover: int, names: tuple[str, str]):
    """The sides (by player) of a Snowie position stated after ``mover``'s
    irregular play. Snowie's text says whose point of view its points take
    (field 4), and GNU Backgammon's import follows it; but exporters write
    field 4 otherwise (eXtreme Gammon always 0, some the mover's point of
    view under the other player's number). So: an irregular play moves the
    mover's checkers only (the opponent's can only be hit, to the bar), and
    when the opponent's checkers of the position ``before`` fit only one
    reading, that one is taken; else the first name of the text (field 5),
    when it is one player's name of the record; else field 4."""
    sides = stated.sides
    def fits(candidate) -> bool:
        if before is None:
            return True
        was, now = before.opp, candidate[1 - mover]
        hit = sum(was[p] - now[p] for p in range(1, 25))
        return (all(now[p] <= was[p] for p in range(1, 25)) and now[0] == was[0]
                and now[25] - was[25] == hit)
    flipped = (sides[1], sides[0])
    as_written, other = fits(sides), fits(flipped)
    if as_written != other:
        return sides if as_written else flipped
    first = stated.first_name.strip()
    if first and names[0] != names[1] and first in names:
        return sides if names.index(first) == stated.turn else flipped
    return sides


def _impossible(sides, checkers: int) -> tuple[str, Fields] | None:
    """(message key, fields) of what makes a set-up position one no game can
    hold: a count below 0, a side whose checkers are not ``checkers``, both
    sides on one point; None for a position a game can hold."""
    for side in sides:
        if len(side) != 26 or any(n < 0 for n in side):
            return "GM219.counts", {}
        if sum(side) != checkers:
            return "GM219.checkers", {"count": sum(side), "checkers": checkers}
    for p in range(1, 25):
        if sides[0][p] and sides[1][25 - p]:
            return "GM219.shared", {"point": p}
    return None


def _position_id(pos: Position) -> str:
    from gamao_cli.ids import position_id
    try:
        return position_id(pos.me, pos.opp)
    except ValueError:
        return ""


def _marks_hits(match: m.Match) -> bool:
    """Whether any play of the match marks a hit with ``*``."""
    Play = m.Play
    for g in match.games:
        for a in g.actions:
            if type(a) is Play:
                written = a._written   # a play still its text: no mark without a "*"
                if written is not None and a._moves is None and "*" not in written.text:
                    continue
                if (a.shape or a.play_shape())[1]:
                    return True
    return False


def validate_match(match: m.Match, *, keep_records: bool = False,
                   resolver: Resolver | None = None, fast: bool = True) -> MatchReport:
    """Replay a match and return its report (diagnostics, results, final score).

    ``resolver`` holds the rules' memos (:data:`RESOLVER` when not given);
    ``fast=False`` replays every play the full way (the report is the same:
    the fast path only takes plays it can replay exactly as the full one).
    A record that states the position before its actions (eXtreme Gammon's)
    has them checked against the replay (:mod:`.stated`)."""
    validator = _MatchValidator(match, keep_records, resolver or RESOLVER, fast)
    if has_stated(match):
        validator.handlers = with_stated_checks(validator.handlers)
    return validator.run()


class Replays:
    """The replays (with every action's record) of the matches a caller
    works on, each made once: writers and renderers ask it for the replay of
    a match rather than replaying it again."""

    def __init__(self) -> None:
        self._reports: dict[int, tuple[m.Match, MatchReport]] = {}

    def of(self, match: m.Match) -> MatchReport:
        """The replay of ``match`` (``keep_records=True``)."""
        entry = self._reports.get(id(match))
        if entry is None or entry[0] is not match:
            entry = (match, validate_match(match, keep_records=True))
            self._reports[id(match)] = entry
        return entry[1]
