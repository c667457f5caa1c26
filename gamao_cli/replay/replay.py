"""Replay every game of a match under the rules and report what is wrong.

The validator walks each game action by action, keeping the position, the
cube, whose turn it is and the running score. Each illegal play, cube action,
wrong score line or wrong result becomes a :class:`Diagnostic`, and the
replay goes on from the position as written (RULES.md, "Irregularities"), so
one error hides no other. Only a play that cannot be applied at all (no
checker on its starting point) stops the replay of that game; the game's
stated result still counts for the score.

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = '''
...  1 point match
...
...  Game 1
...  Ann : 0                        Bob : 0
...   1) 31: 8/5 6/5                 61: 13/7 8/6
... '''
>>> report = validate_match(read_matches(text, "ex.mat")[0])
>>> [d.format_text() for d in report.diagnostics if d.code == "GM202"][0]
'ex.mat:6:43: GM202 error 13/7 8/6 with 6-1: 8/6 moves 2 pips, but no die shows 2; legal: 13/7 7/6, 13/7 8/7, 13/7 24/23, 13/7 6/5, 24/18 8/7'
"""
from __future__ import annotations

from dataclasses import dataclass, field

from gamao_cli import model as m
from gamao_cli import rules as board
from gamao_cli.errors import UnknownVariant
from gamao_cli.model.notation import format_steps
from gamao_cli.rules import Position

from .diagnostics import Diagnostic, SeverityCounts
from .record_rules import Rules
from .stated import has_stated, stated_diagnostics

MAX_ALTERNATIVES = 5

_play_in_written_order = board.play_in_written_order

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

# how a game ended
SINGLE, GAMMON, BACKGAMMON = "single", "gammon", "backgammon"
DROP, RESIGN, TIME = "drop", "resign", "time"
_KIND_BY_MULT = {1: SINGLE, 2: GAMMON, 3: BACKGAMMON}


@dataclass
class ActionRecord:
    """One action as replayed: the position before it (seen by the player on
    roll, ``turn``), the cube, and for plays the die steps that were taken."""

    action: m.ActionType
    turn: int | None
    position: Position | None
    cube: int
    cube_owner: int | None
    steps: tuple[tuple[int, int, bool], ...] | None = None


@dataclass
class GameResult:
    number: int
    winner: int | None = None
    points: int | None = None          # what the game added to the score
    stated_points: int | None = None   # what its Wins line says
    ended: str | None = None           # single, gammon, backgammon, drop, resign, time
    cube: int = 1
    moves: int = 0
    score_before: tuple[int, int] = (0, 0)
    crawford: bool = False
    records: list[ActionRecord] = field(default_factory=list)


@dataclass
class MatchReport(SeverityCounts):
    match: m.Match
    games: list[GameResult] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    final_score: tuple[int, int] = (0, 0)
    winner: int | None = None
    plays: int = 0


class _GameReplay:
    """The state of one game being replayed."""

    def __init__(self, v: "_MatchValidator", game: m.Game, start: Position, crawford: bool,
                 keep_records: bool):
        self.v = v
        self.game = game
        self.start = start
        self.pos: Position | None = None
        self.turn: int | None = None
        self.cube = 1
        self.owner: int | None = None
        self.cube_turned = False
        self.pending: tuple[int, str, m.Double] | None = None
        self.crawford = crawford
        self.broken = False
        self.after_end_reported = False
        # (winner, kind, multiplier) once the rules end the game
        self.end: tuple[int, str, int] | None = None
        self.resigning: int | None = None
        self.unplayed_roll: m.ActionType | None = None
        self.win: m.Win | None = None
        self.keep = keep_records
        self.marks_hits = self.v.marks_hits
        self.losses: list[m.Loss] = []
        self.records: list[ActionRecord] = []
        self.moves = 0

    # -- helpers -------------------------------------------------------
    def report(self, code: str, message: str, action: m.Action | m.Game | m.ScoreLine | None = None,
               *, line: int | None = None, column: int | None = None, player: int | None = None,
               dice: tuple[int, int] | None = None, play: str | None = None,
               legal: list[str] | None = None) -> None:
        if action is not None:
            line = line if line is not None else action.line
            column = column if column is not None else action.column
        if player is None and isinstance(action, m.Action):
            player = action.player
        self.v.add(Diagnostic(
            code, message, line=line, column=column, game=self.game.number,
            move=getattr(action, "move_number", None),
            player=self.v.name(player) if player is not None else None,
            dice=f"{dice[0]}{dice[1]}" if dice else None, play=play, legal=legal or []))

    def alternatives(self, pos: Position, d1: int, d2: int,
                     written: list[tuple[int, int]] = ()) -> list[str]:
        """Up to five legal plays, those closest to what was written first."""
        plays = board.legal_plays(pos, d1, d2)
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

    def cannot_replay(self, a: m.Action, message: str | None = None) -> None:
        """Stop replaying this game at ``a`` (GM215, once a game): its later
        actions are not checked and its stated result is used. ``message``
        replaces the usual one."""
        if not self.broken:
            self.report("GM215", message or f"the rest of game {self.game.number} cannot be "
                        f"replayed after {a.text()}; its stated result is used", a)
        self.broken = True

    def ended(self) -> bool:
        return self.end is not None or self.win is not None

    def after_end(self, action: m.Action) -> bool:
        """Report (once) an action after the end of the game."""
        if not self.ended():
            return False
        if not self.after_end_reported:
            self.after_end_reported = True
            self.report("GM214", f"{action.text()}: the game has already ended", action)
        return True

    def check_unplayed_roll(self) -> None:
        """A roll with no play, while a play existed, must end the game."""
        if self.unplayed_roll is not None:
            a = self.unplayed_roll
            self.unplayed_roll = None
            self.report("GM212", f"{self.v.name(a.player)} rolled {a.dice[0]}-{a.dice[1]} and "
                        "played nothing, but a legal play exists and the game goes on",
                        a, dice=a.dice, legal=self._unplayed_alternatives)

    def begin_turn(self, action: m.Action, dice: tuple[int, int] | None) -> bool:
        """Settle whose turn it is before a roll; False if the roll can't be replayed."""
        player = action.player
        if self.pending is not None:
            offerer, kind, dbl = self.pending
            if kind != "double" and player != offerer:
                # GNU Backgammon writes no take after a beaver (or raccoon):
                # the doubler rolling on accepts it
                self.cube *= 2
                self.cube_turned = True
                self.owner = offerer
            else:
                self.report("GM304", f"{dbl.text()} by {self.v.name(offerer)} is never "
                            "answered (no take or drop follows)", dbl)
            self.pending = None
        if self.turn is None:
            self.turn = player
            self.pos = self.start
            if dice and dice[0] == dice[1] and not self.v.rules.automatic_doubles:
                self.report("GM201", f"the opening roll {dice[0]}-{dice[1]} is a double: each "
                            "player rolls one die and equal dice are rolled again", action, dice=dice)
        elif player != self.turn:
            self.report("GM213", f"{self.v.name(player)} rolls, but it is "
                        f"{self.v.name(self.turn)}'s turn", action, dice=dice)
            if self.pos is not None:
                self.pos = self.pos.swapped()
            self.turn = player
        return True

    def record(self, action: m.ActionType, steps=None) -> None:
        if self.keep:
            self.records.append(ActionRecord(action, self.turn, self.pos, self.cube, self.owner, steps))

    def end_turn(self, new_pos: Position | None) -> None:
        self.pos = new_pos.swapped() if new_pos is not None else None
        self.turn = 1 - self.turn if self.turn is not None else None

    # -- actions -------------------------------------------------------
    def play(self, a: m.Play) -> None:
        """Replay a play. The fast path takes a legal play on the player's
        turn in an ordinary moment of the game (no pending double, nothing
        to report), read as :func:`board.resolve_play` would read it; it
        changes the state exactly as :meth:`play_in_full` would then.
        Anything else, and whatever would need a diagnostic, goes the full
        way."""
        turn = self.turn
        if (self.end is None and self.win is None and self.pending is None
                and self.unplayed_roll is None and not self.broken and not self.keep):
            d1, d2 = a.dice
            if turn is None:  # the opening roll: no double (GM201), from the start
                pos = self.start if d1 != d2 else None
            else:
                pos = self.pos if turn == a.player else None
            if pos is not None and 0 < d1 < 7 and 0 < d2 < 7:
                shape = a.shape or a.play_shape()
                done = _play_in_written_order(pos, shape[0], d1, d2)
                if done is not None and (not self.marks_hits or (
                        shape[1] == set(done[1]) if done[1] else not shape[1])):
                    after = done[0]  # as the opponent sees it
                    self.moves += 1
                    if after.opp[0] != pos.me[0] and not any(after.opp[1:]):  # borne off
                        self.end = (a.player, "bearoff", board.result_multiplier(after.swapped()))
                    self.pos = after
                    self.turn = 1 - a.player
                    return
        self.play_in_full(a)

    def play_in_full(self, a: m.Play) -> None:
        if self.after_end(a):
            return
        self.check_unplayed_roll()
        d1, d2 = a.dice
        self.begin_turn(a, a.dice)
        self.moves += 1
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            self.report("GM101", f"{a.dice[0]}{a.dice[1]}: a die shows 1 to 6", a, dice=a.dice)
            self.record(a)
            self.broken = True
            self.end_turn(self.pos)
            return
        if self.broken or self.pos is None:
            self.record(a)
            self.end_turn(self.pos)
            return
        pos = self.pos
        moves = a.movements()
        # a point the board has not, or a step from off: nothing can replay it
        unplayable = _off_the_board(a, moves)
        if unplayable is not None:
            code, message, step = unplayable
            self.report(code, f"{a.play_text()}: {message}", a,
                        line=step.line if step else a.line,
                        column=step.column if step else a.column,
                        dice=a.dice, play=a.play_text())
            self.record(a)
            self.cannot_replay(a)
            self.end_turn(None)
            return
        res = board.resolve_play(pos, moves, d1, d2,
                                 a.marked_hits() if self.v.marks_hits else None)
        if res.ok and board.play_is_legal(pos, d1, d2, res):
            self.record(a, res.steps)
            new = res.position
            self.check_hits(a, res.steps)
        elif res.ok:
            most = board.max_dice_playable(pos, d1, d2)
            legal = self.alternatives(pos, d1, d2, moves)
            if res.dice_used < most:
                left = most - res.dice_used
                msg = (f"{a.play_text()} with {d1}-{d2} uses {res.dice_used} "
                       f"{'die' if res.dice_used == 1 else 'dice'}, but {most} can be played: "
                       f"{left} {'die is' if left == 1 else 'dice are'} left unplayed")
                code = "GM210"
            else:
                msg = (f"{a.play_text()} with {d1}-{d2}: only one die can be played, and "
                       f"then it must be the higher one ({max(d1, d2)})")
                code = "GM211"
            self.report(code, msg, a, dice=a.dice, play=a.play_text(), legal=legal)
            self.record(a, res.steps)
            new = res.position
        else:
            step = self.step_at(a, res.index)
            legal = self.alternatives(pos, d1, d2, moves)
            code = PROBLEM_CODES.get(res.problem, "GM202")
            self.report(code, f"{a.play_text()} with {d1}-{d2}: {res.message}", a,
                        line=step.line if step else a.line,
                        column=step.column if step else a.column,
                        dice=a.dice, play=a.play_text(), legal=legal)
            try:
                new, _hits = board.apply_steps_as_written(pos, moves)
            except ValueError:
                self.record(a)
                self.cannot_replay(a)
                self.end_turn(None)
                return
            self.record(a)
        if board.game_over(new):
            self.end = (a.player, "bearoff", board.result_multiplier(new))
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
        for p in sorted(marked - actual):
            self.report("GM102", f"{a.play_text()}: the hit mark on {p} hits nothing "
                        "(no lone opposing checker there)", a, dice=a.dice, play=a.play_text())
        if self.v.marks_hits:
            written_points = {p for step in a.moves for p in step.points[1:]}
            for p in sorted((actual - marked) & written_points):
                self.report("GM103", f"{a.play_text()} hits on {p} but does not mark it "
                            "with '*'", a, dice=a.dice, play=a.play_text())

    def dance(self, a: m.Dance | m.UnplayedRoll) -> None:
        if isinstance(a, m.UnplayedRoll) and self.ended():
            return  # Backgammon Studio: a roll never played because the game ended
        if self.after_end(a):
            return
        self.check_unplayed_roll()
        d1, d2 = a.dice
        self.begin_turn(a, a.dice)
        self.record(a, ())
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            self.report("GM101", f"{d1}{d2}: a die shows 1 to 6", a, dice=a.dice)
        elif not self.broken and self.pos is not None:
            if isinstance(a, m.UnplayedRoll) or board.die_playable(self.pos, d1) or (
                    d2 != d1 and board.die_playable(self.pos, d2)):  # max dice > 0
                # legal only as "roll, then resign": the game must end next
                self.unplayed_roll = a
                self._unplayed_alternatives = self.alternatives(self.pos, d1, d2)
        self.end_turn(self.pos)

    def double(self, a: m.Double) -> None:
        if self.after_end(a):
            return
        self.check_unplayed_roll()
        if a.kind != "double":
            return self.beaver(a)
        p = a.player
        rules = self.v.rules
        self.record(a)
        if not rules.cube:
            self.report("GM307", "the record's rules allow no doubling cube", a)
        elif self.crawford:
            self.report("GM302", "no doubling in the Crawford game (the first game after a "
                        "player reaches match point)", a)
        elif self.turn is None:
            self.report("GM308", f"{self.v.name(p)} doubles before the opening roll", a)
        elif self.pending is not None:
            self.report("GM308", f"{self.v.name(p)} doubles while a double waits for an answer", a)
        elif p != self.turn:
            self.report("GM308", f"{self.v.name(p)} doubles, but it is {self.v.name(self.turn)}'s "
                        "turn to roll", a)
        elif self.owner not in (None, p):
            self.report("GM301", f"{self.v.name(p)} doubles, but {self.v.name(self.owner)} owns "
                        "the cube", a)
        if a.value is not None and a.value != 2 * self.cube:
            self.report("GM306", f"{a.text()}: the cube is at {self.cube}, so a double makes it "
                        f"{2 * self.cube}", a)
        self.pending = (p, "double", a)
        self.turn = p

    def beaver(self, a: m.Double) -> None:
        p = a.player
        self.record(a)
        want = "double" if a.kind == "beaver" else "beaver"
        if self.pending is None or self.pending[0] == p or self.pending[1] != want:
            self.report("GM303", f"{a.text()}: there is no {want} to answer", a)
            return
        rules = self.v.rules
        if self.v.match.length != 0 or rules.beaver is False:
            where = "in a match" if self.v.match.length else "under this record's rules"
            self.report("GM305", f"{a.text()}: beavers are not allowed {where}", a)
        # a beaver (raccoon) takes the double (beaver) and redoubles at once
        self.cube *= 2
        self.cube_turned = True
        if a.value is not None and a.value != 2 * self.cube:
            self.report("GM306", f"{a.text()}: after the take the cube is at {self.cube}, so "
                        f"the redouble makes it {2 * self.cube}", a)
        self.pending = (p, a.kind, a)

    def take(self, a: m.Take) -> None:
        if self.after_end(a):
            return
        self.record(a)
        if self.pending is None or self.pending[0] == a.player:
            self.report("GM303", f"{self.v.name(a.player)} takes, but no double was offered to "
                        "them", a)
            return
        offerer, kind, _dbl = self.pending
        self.cube *= 2
        self.cube_turned = True
        self.owner = a.player if kind == "double" else offerer
        self.pending = None

    def drop(self, a: m.Drop) -> None:
        if self.after_end(a):
            return
        self.record(a)
        if self.pending is None or self.pending[0] == a.player:
            self.report("GM303", f"{self.v.name(a.player)} drops, but no double was offered to "
                        "them", a)
            return
        offerer = self.pending[0]
        self.pending = None
        self.end = (offerer, DROP, 1)

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
        self.resigning = a.player

    def win_line(self, a: m.Win) -> None:
        if self.win is not None:
            self.after_end_reported = True
            self.report("GM214", f"{a.text()}: the game's result was already given", a)
            return
        self.record(a)
        self.win = a
        self.unplayed_roll = None

    # -- the end of the game ---------------------------------------------
    def finish(self, result: GameResult, last_game: bool) -> None:
        v = self.v
        a = self.win
        self.check_unplayed_roll()
        score = v.score
        result.cube = self.cube
        result.moves = self.moves
        if self.end is not None:
            winner, kind, mult = self.end
            if kind == DROP:
                expected = self.cube
                result.ended = DROP
            else:
                expected = self.cube * mult
                result.ended = _KIND_BY_MULT[mult]
                if mult > 1 and not self.cube_turned:
                    if v.rules.jacoby:
                        expected = self.cube
                        result.ended = SINGLE
            result.winner = winner
            result.points = expected
            if a is None:
                return
            result.stated_points = a.points
            if a.player != winner:
                self.report("GM406", f"{a.text()} is written for {v.name(a.player)}, but "
                            f"{v.name(winner)} wins the game", a)
                return
            if a.points == expected:
                return
            if (kind != DROP and mult > 1 and not self.cube_turned
                    and v.rules.jacoby is None and a.points == self.cube):
                self.report("GM408", f"{a.text()}: a {result.ended} with the cube not turned "
                            "counted as a single game: the record plays the Jacoby rule", a)
                result.points = a.points
                result.ended = SINGLE
                return
            if self.capped(a, expected, winner):
                return
            self.report("GM401", f"{a.text()}: the rules give {expected} "
                        f"{'point' if expected == 1 else 'points'} ({self._why(kind, mult)})", a)
            return
        if a is None:
            if self.broken:
                return
            if last_game:
                self.report("GM410", f"game {self.game.number} has no result: the record stops "
                            "before the game ends", self.game)
            else:
                self.report("GM404", f"game {self.game.number} has no result (no Wins line) and "
                            "the game has not ended", self.game)
            return
        # a Wins line before the game is over: a resignation (or a loss on time)
        winner = a.player
        result.winner = winner
        result.stated_points = a.points
        if self.resigning is not None and self.resigning == winner:
            self.report("GM406", f"{a.text()} is written for {v.name(winner)}, who resigned", a)
        if self.broken:
            result.ended = RESIGN
            result.points = a.points
            return
        valid = (self.cube, 2 * self.cube, 3 * self.cube)
        unplayed = isinstance(self._last_roll, m.UnplayedRoll)
        if a.points in valid:
            result.ended = RESIGN
            result.points = a.points
        elif a.points < 3 * self.cube and self.capped(a, 3 * self.cube, winner):
            result.ended = RESIGN
            result.points = a.points
        elif a.match and v.match.length and a.points == v.match.length - score[winner]:
            result.ended = RESIGN
            result.points = a.points
            self.report("GM412", f"{a.text()}: more than a resignation can win with the cube "
                        f"at {self.cube}; {v.name(1 - winner)} gave up the match", a)
        elif unplayed:
            result.ended = TIME
            needed = (v.match.length - score[winner]) if v.match.length else a.points
            result.points = max(needed, 0)
            self.report("GM409", f"{a.text()} after a roll never played: "
                        f"{v.name(1 - winner)} lost on time", a)
        else:
            result.ended = RESIGN
            result.points = a.points
            self.report("GM405", f"{a.text()}: a resignation wins {self.cube}, {2 * self.cube} or "
                        f"{3 * self.cube} points with the cube at {self.cube}", a)

    _last_roll: m.ActionType | None = None

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
        self.report("GM411", f"{a.text()}: the rules give {expected}, but the record writes "
                    f"{'the points the winner needed' if a.points == needed else 'the match length'}"
                    f" ({a.points}); the match result is the same", a)
        return True

    def check_losses(self, result: GameResult) -> None:
        for a in self.losses:
            if result.winner is not None and a.move_number is not None and \
                    a.player == result.winner:
                self.report("GM106", f"{a.text()} is written for {self.v.name(a.player)}, "
                            "who wins the game", a)
            if result.stated_points is not None and a.points != result.stated_points:
                self.report("GM106", f"{a.text()} but the game is won by "
                            f"{result.stated_points}", a)

    @staticmethod
    def _why(kind: str, mult: int) -> str:
        if kind == DROP:
            return "a dropped double wins the cube value before the double"
        return {1: "a single game", 2: "a gammon", 3: "a backgammon"}[mult] + " times the cube"


class _MatchValidator:
    def __init__(self, match: m.Match, keep_records: bool):
        self.match = match
        self.keep = keep_records
        self.report_obj = MatchReport(match)
        self.names = match.players
        self.score = [0, 0]
        self.marks_hits = _marks_hits(match)

    def add(self, d: Diagnostic) -> None:
        d.path = self.match.path
        self.report_obj.diagnostics.append(d)

    def name(self, player: int | None) -> str:
        if player is None:
            return "nobody"
        n = self.names[player] if player < len(self.names) else ""
        return n or ("the left player" if player == 0 else "the right player")

    def run(self) -> MatchReport:
        match = self.match
        rep = self.report_obj
        try:
            self.rules = Rules.from_match(match)
        except UnknownVariant as exc:
            self.add(Diagnostic("GM005", str(exc), line=match.line, column=match.column))
            return rep
        start = board.start_position(self.rules.variant)
        length = match.length
        crawford_done = False
        decided_at: tuple[int, int] | None = None
        previous_number = 0
        games = match.games
        Play = m.Play
        for gi, game in enumerate(games):
            if game.number != previous_number + 1:
                self.add(Diagnostic("GM104", f"Game {game.number} follows Game {previous_number}",
                                    line=game.line, column=game.column, game=game.number))
            previous_number = game.number
            if decided_at is not None:
                self.add(Diagnostic("GM403", f"game {game.number} is played after the match was "
                                    f"won {decided_at[0]}-{decided_at[1]}", line=game.line,
                                    column=game.column, game=game.number))
            self.check_score_line(game)
            crawford = False
            # The Crawford game follows the game in which a player *reached*
            # match point: never the first game (a 1-point match has none).
            if self.rules.crawford and length and not crawford_done and gi > 0 and \
                    length - 1 in self.score:
                crawford = True
                crawford_done = True
            result = GameResult(game.number, score_before=(self.score[0], self.score[1]),
                                crawford=crawford)
            g = _GameReplay(self, game, start, crawford, self.keep)
            play = g.play
            last_roll = None
            for a in game.actions:
                cls = type(a)
                if cls is Play:
                    play(a)
                    last_roll = a
                elif cls is m.Dance or cls is m.UnplayedRoll:
                    g.dance(a)
                    last_roll = a
                elif cls is m.Double:
                    g.double(a)
                elif cls is m.Take:
                    g.take(a)
                elif cls is m.Drop:
                    g.drop(a)
                elif cls is m.Win:
                    g.win_line(a)
                elif cls is m.Resign:
                    g.resign(a)
                elif cls is m.Loss:
                    g.loss(a)
                elif cls is m.IllegalPlayMarker:
                    g.record(a)
                    g.cannot_replay(a, f"{a.text()}: the record sets a position gamao cannot "
                                    "replay; the rest of the game is not checked")
            g._last_roll = last_roll
            g.finish(result, last_game=gi == len(games) - 1)
            rep.plays += g.moves
            g.check_losses(result)
            result.records = g.records
            rep.games.append(result)
            if result.winner is not None and result.points is not None and decided_at is None:
                self.score[result.winner] += result.points
                if length and self.score[result.winner] >= length:
                    decided_at = (self.score[0], self.score[1])
                    rep.winner = result.winner
        rep.final_score = decided_at or (self.score[0], self.score[1])
        if length and decided_at is None and games:
            last = games[-1]
            self.add(Diagnostic("GM410", f"the record stops at {self.score[0]}-{self.score[1]} in "
                                f"a {length}-point match: nobody has won yet",
                                line=last.line, column=last.column, game=last.number))
        rep.diagnostics.sort(key=Diagnostic.sort_key)
        return rep

    def check_score_line(self, game: m.Game) -> None:
        sl = game.score
        if sl is None:
            return
        for player in (0, 1):
            stated = sl.scores[player]
            if stated is not None and stated != self.score[player]:
                self.add(Diagnostic(
                    "GM402", f"the score line gives {self.name(player)} {stated}, but the games "
                    f"before make it {self.score[player]}", line=sl.line, column=sl.column,
                    game=game.number, player=self.name(player)))


def _off_the_board(a: m.Play, moves) -> tuple[str, str, m.Step | None] | None:
    """(code, message, written step) for a play that moves from or to a
    point the board has not (GM216), or from off (GM217); else None."""
    bad = next((p for mv in moves for p in mv if not 0 <= p <= 25), None)
    if bad is not None:
        return "GM216", (f"there is no point {bad} (points run from 1 to 24, with 25 or bar for "
                         "the bar and 0 or off for borne off)"), \
            next((st for st in a.moves if bad in st.points), None)
    if any(src == 0 for src, _dst in moves):
        return "GM217", "a step starts from off (0): a checker borne off never moves again", \
            next((st for st in a.moves if 0 in st.points[:-1]), None)
    return None


def _marks_hits(match: m.Match) -> bool:
    """Whether any play of the match marks a hit with ``*``."""
    Play = m.Play
    for g in match.games:
        for a in g.actions:
            if type(a) is Play and (a.shape or a.play_shape())[1]:
                return True
    return False


def validate_match(match: m.Match, *, keep_records: bool = False) -> MatchReport:
    """Replay a match and return its report (diagnostics, results, final score).

    A record that states the position before its actions (eXtreme Gammon's)
    has them checked against the replay (:mod:`.stated`)."""
    stated = has_stated(match)
    validator = _MatchValidator(match, keep_records or stated)
    report = validator.run()
    if stated:
        report.diagnostics.extend(stated_diagnostics(match, report, validator.name))
        report.diagnostics.sort(key=Diagnostic.sort_key)
        if not keep_records:
            for result in report.games:
                result.records = []
    return report


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
