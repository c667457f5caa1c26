"""Write matches as SGF in GNU Backgammon's dialect (GM[6]).

One game tree per game, as GNU Backgammon saves a match::

    (;FF[4]GM[6]CA[UTF-8]AP[gamao:0.1.0]MI[length:7][game:0][ws:0][bs:0]PW[Ann]PB[Bob]
    DT[2024-05-01]RU[Crawford]RE[W+2]
    ;W[31hefe]
    ;B[62agln]
    ...)

- ``MI``, ``PW``, ``PB`` and ``RU`` head every game (GNU Backgammon needs
  them there: the score, and ``RU[Crawford:CrawfordGame]`` marks the
  Crawford game); the rest of the match-wide information (``DT``, ``EV``,
  ``RO``, ``PC``, ``AN``, ``WR``, ``BR``, ``GC``) stands in the first game
  only. The tags they come from are those :mod:`gamao_cli.formats.sgf.reader` makes
  of them, so that a match read back says the same.
- Plays are written one die step per letter pair, from the validator's
  replay (:func:`gamao_cli.replay.replay.validate_match` with
  ``keep_records=True``), so consolidated plays (``24/13``, ``13/11(2)``)
  are expanded; a play the replay could not resolve is written as its
  movements stand.
- ``RE`` comes from the game's ``Wins`` line (its player and stated points),
  with ``R`` when the validator finds the game was resigned (or lost on
  time); ``XR[and the match]`` keeps the words "and the match". A game that
  ended without a ``Wins`` line gets the result the rules give, for other
  programs, and ``XR[not written]``, for gamao.
- An action's analysis, where the record holds one in
  :mod:`gamao_cli.analysis.decisions` (eXtreme Gammon's, GNU Backgammon's),
  is written as GNU Backgammon writes its own: ``A`` (the candidates and the
  rank of the play made), ``DA`` (the cube decision; in a match as winning
  chances, from the equities with the match equity table at the decision's
  score) and ``LU`` (:func:`gamao_cli.formats.sgf.analysis.properties`), so
  that GNU Backgammon loads it with its analysis and prints the figures
  gamao gives (a test runs gnubg). A depth SGF has no word for (another
  program's, a rollout's) is written as 0-ply, with a warning.
- Comments: :attr:`Game.comments <gamao_cli.model.Game>` of the form ``"move
  N W: text"`` (as the reader makes them) go back on the node of that
  action, all others on the game's root node.
- What SGF cannot hold goes into gamao's private properties (listed in
  :mod:`gamao_cli.formats.sgf.reader`), so that gamao reads its own SGF back into
  the same match and the same canonical match file, while other programs
  (GNU Backgammon ignores unknown two-letter properties) see a normal SGF
  file: a cell SGF has no node for (Backgammon Galaxy's ``Losses``,
  ``61: ????`` rolls never played, ``Resigns``, Snowie's ``Illegal play``
  markers, a ``Wins`` cell that is not the game's last action) is a node of
  its own holding only ``XA``, where it stands; ``XS`` keeps a dance's
  ``Cannot Move`` and the text of a play the replay could not resolve;
  ``XE`` score-line ratings; ``XL`` a missing score line or score; ``XT``
  every tag; ``XC`` match comments GC cannot give back; ``XI[implied]``
  marks the take of a beaver that the record leaves out. The conversion's
  warnings say what is kept only for gamao, and what SGF cannot hold at all
  (tabs, which SGF reads as spaces; a game numbered 0).

>>> from gamao_cli.formats.mat.reader import read_matches
>>> text = (" 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
...         "  1) 31: 8/5 6/5                 65: 24/13\\n      Wins 1 point\\n")
>>> print(write_sgf(read_matches(text)).text, end="")
(;FF[4]GM[6]CA[UTF-8]AP[gamao:0.1.0]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[W+1R]
;W[31hefe]
;B[65aggl])
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Sequence

from gamao_cli import __version__
from gamao_cli import model as m
from gamao_cli.analysis.decisions import decisions_of
from gamao_cli.analysis.figures import decision_states
from gamao_cli.analysis.met import KAZAROSS_XG2
from gamao_cli.errors import UnknownVariant, WriteRefused
from gamao_cli.formats.base import Note, WriteResult, analysis_note, analysis_programs
from gamao_cli.messages import Msg
from gamao_cli.model.notation import move_numbers as _move_numbers
from gamao_cli.replay.replay import RESIGN, TIME, GameResult, Replays, Rules, validate_match
from gamao_cli.rules import VARIANTS, variant_by_key

from ..limits import MAX_DIGITS, fits
from .analysis import properties as analysis_properties
from .reader import (_SPACE_RE, COMMENTS_PROPERTY, CUBE_KINDS, CUBE_PROPERTY, EXTRA_PROPERTY,
                     ILLEGAL, IMPLIED, IMPLIED_PROPERTY, LOSS, MATCH_FLAG, MATCH_WORDS, NO_SCORE_LINE,
                     NOT_WRITTEN, NUMBER_PROPERTY, RATINGS_PROPERTY, RESIGN_CELL, SCORE_PROPERTY,
                     SPELLING_PROPERTY, TAGS_PROPERTY, UNPLAYED, WIN, cube_offer, gc_comments,
                     point_letter)

APPLICATION = f"gamao:{__version__}"

#: Tags written as root properties of the first game (sgf_reader's mapping).
PROPERTY_OF_TAG = {
    "site": "PC",
    "event": "EV",
    "round": "RO",
    "player1elo": "WR",
    "player2elo": "BR",
    "eventdate": "DT",
    "transcriber": "AN",
}
#: Order of the first game's root properties (GNU Backgammon's).
INFO_ORDER = ("WR", "BR", "DT", "EV", "RO", "PC", "AN", "GC")
#: Tags SGF holds through RU, or through PW/PB.
RULE_TAGS = {"crawford", "jacoby", "cubelimit", "variation"}
NAME_TAGS = {"player1": 0, "player2": 1}

_DOT_DATE = re.compile(r"(\d{4})\.(\d{2})\.(\d{2})$")
_MOVE_COMMENT = re.compile(r"move (\d+) ([WB]): (.*)$", re.S)

def escape(value: str) -> str:
    """A property value with ``\\`` and ``]`` escaped.

    >>> escape("a]b\\\\c")
    'a\\\\]b\\\\\\\\c'
    """
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _tag_key(name: str) -> str:
    return "".join(name.split()).lower()


def _prop(name: str, *values: str) -> str:
    return name + "".join(f"[{escape(v)}]" for v in values)


def _int(value: str | None) -> int | None:
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _has_tab(match: m.Match) -> bool:
    texts = [t for tag in match.tags for t in (tag.name, tag.value)] + list(match.comments)
    for g in match.games:
        texts += g.comments
        if g.score is not None:
            texts += [n for n in g.score.names] + [r for r in g.score.ratings if r]
        texts += [a.written for a in g.actions if isinstance(a, (m.Dance, m.UnplayedRoll,
                                                                  m.IllegalPlayMarker))]
    return any("\t" in t for t in texts)


def move_numbers(actions: list[m.ActionType]) -> list[int | None]:
    """The move number of each action in the match-file layout (None for
    ``Wins`` cells, which close the line they stand on)."""
    numbers = _move_numbers((a.player, isinstance(a, m.Win)) for a in actions)
    return [None if isinstance(a, m.Win) else n for a, n in zip(actions, numbers)]


class _MatchWriter:
    def __init__(self, match: m.Match, number: int | None = None, replays: Replays | None = None):
        self.match = match
        self.keep = replays is not None
        self.replays = replays or Replays()
        self.number = number   # the match's place in a file of several
        self.notes: list[Note] = []
        self.counts: Counter[tuple[str, str]] = Counter()   # (what, how it is written)
        self.states: dict = {}
        self.unsaid: Counter[str] = Counter()   # analysis depths SGF cannot say
        self.unwritten = 0   # actions whose analysis SGF cannot spell

    def warn(self, key: str, game: int | None = None, **fields: Any) -> None:
        """Note ``key`` (``CODE.variant`` of :mod:`gamao_cli.messages`), once,
        placed in the match (when the file holds several) and the game."""
        fields["where"] = self.where(game)
        note = Note(key.partition(".")[0], fields, key=key)
        if note not in self.notes:
            self.notes.append(note)

    def where(self, game: int | None = None) -> Msg | str:
        """What starts each note: the match's place when a file holds several
        (the caller names the file), and the game's."""
        if game is None:
            return Msg("where.match", {"match": self.number}) if self.number else ""
        if self.number:
            return Msg("where.match-game", {"match": self.number, "game": game})
        return Msg("where.game", {"game": game})

    # -- match-wide ------------------------------------------------------------
    def info_properties(self) -> dict[str, str]:
        """Root properties of the first game from the tags and comments."""
        props: dict[str, str] = {}
        dropped = []
        names = self.match.players
        for tag in self.match.tags:
            key = _tag_key(tag.name)
            prop = PROPERTY_OF_TAG.get(key)
            if prop is not None:
                value = tag.value
                if prop == "DT":
                    dm = _DOT_DATE.match(value.strip())
                    if dm:
                        value = "-".join(dm.groups())
                if prop not in props:
                    props[prop] = value
                    continue
            elif key in RULE_TAGS or key == "beaver":
                continue   # handled with the rules
            elif key in NAME_TAGS and tag.value.strip() == names[NAME_TAGS[key]]:
                continue   # PW / PB hold it
            dropped.append(tag.name)
        if dropped:
            self.warn("GM503.tags" if len(dropped) > 1 else "GM503.tag", tags=", ".join(dropped),
                      prop=TAGS_PROPERTY)
        if self.match.tags:
            # every tag, in order, so that gamao reads the match file's tags back
            props[TAGS_PROPERTY] = [v for t in self.match.tags for v in (t.name, t.value)]
        if self.match.comments:
            lines = []
            for c in self.match.comments:
                if c.startswith("; "):
                    c = c[2:]
                elif c[:1] in (";", "#"):
                    c = c[2:] if c[1:2] == " " else c[1:]
                lines.append(c)
            props["GC"] = "\n".join(lines)
            spaced = [c for c in self.match.comments if _SPACE_RE.search(c)]
            # (XT keeps the tags as simple text: only a tab makes it space them all)
            spaced += [t.name for t in self.match.tags if "\t" in t.name + t.value]
            if spaced:
                # SGF's text has no tab, vertical tab or form feed: they read
                # back as spaces (and a comment may then read back as a tag)
                self.warn("GM505.sgf-space", text=spaced[0])
            if gc_comments(props["GC"]) != self.match.comments:
                # lines GC cannot give back as they are ("#...", ";x"): kept for gamao
                props[COMMENTS_PROPERTY] = list(self.match.comments)
                self.warn("GM503.comments", prop=COMMENTS_PROPERTY)
        return props

    def rules(self) -> tuple[Rules, bool]:
        """The match's rules, and whether its variant could be read."""
        try:
            return Rules.from_match(self.match), True
        except UnknownVariant as exc:
            self.warn("GM504.variant", variant=exc.name, known=", ".join(VARIANTS))
            return Rules(length=self.match.length), False

    def rule_words(self, rules: Rules, result: GameResult | None) -> list[str] | None:
        """The words of ``RU`` (None: write no ``RU``), as GNU Backgammon
        writes them: ``NoCube``, ``Crawford``, ``CrawfordGame``, ``Jacoby``,
        ``Nackgammon``, ``Hypergammon1``-``3``."""
        words = []
        if not rules.cube:
            words.append("NoCube")
        limit = self.match.tag("CubeLimit")
        n = _int(limit)
        if n is not None and 1 < n < 64:
            self.warn("GM503.cubelimit", n=n)
        if self.match.length > 1 and rules.crawford:
            # GNU Backgammon writes no Crawford rule for 1-point matches
            words.append("Crawford")
            if result is not None and result.crawford:
                words.append("CrawfordGame")
        if rules.jacoby:
            words.append("Jacoby")
        elif rules.jacoby is False and self.match.length:
            self.warn("GM503.jacoby", value=self.match.tag('Jacoby'))
        if self.match.tag("Beaver") is not None:
            self.warn("GM503.beaver", value=self.match.tag('Beaver'))
        word = variant_by_key(rules.variant).sgf_rule
        if word:
            words.append(word)
        explicit_off = (self.match.length and not rules.crawford) or \
            (not self.match.length and rules.jacoby is False)
        if words or explicit_off:
            return words
        return None

    # -- games -----------------------------------------------------------------
    def write(self) -> str:
        return "".join(self.iter_write())

    def game_numbers(self) -> list[tuple[int, int | None]]:
        """For each game, the ``game`` of its ``MI`` and the number its ``XN``
        keeps (None: MI says it). MI[game:N-1] gives game N, as GNU
        Backgammon writes it, unless the reader would read it otherwise: a
        game:0 after the first game (which starts a new match), or a first
        game not numbered 1 in a file of several matches (which would join
        the match before), or a number below 1; MI then numbers the games in
        order and XN keeps the number."""
        out = []
        for i, game in enumerate(self.match.games):
            n = game.number
            if i == 0:
                fine = n >= 1 and (not self.number or n == 1)
            else:
                fine = n >= 2
            out.append((n - 1, None) if fine else (i, n))
        return out

    def iter_write(self):
        match = self.match
        report = self.replays.of(match) if self.keep else validate_match(match, keep_records=True)
        self.errors = report.errors
        rules, known = self.rules()
        steps_of: dict[int, tuple] = {}
        for res in report.games:
            for rec in res.records:
                if rec.steps is not None and isinstance(rec.action, m.Play):
                    steps_of[id(rec.action)] = rec.steps
        results = {id(g): r for g, r in zip(match.games, report.games)} if \
            len(report.games) == len(match.games) else {}
        self.states = decision_states(match) if any(
            a.analysis is not None for g in match.games for a in g.actions) else {}
        info = self.info_properties()
        if _has_tab(match):
            self.warn("GM504.tabs")
        if not match.games:
            self.warn("GM504.no-games")
            return
        setup = None
        if known and rules.variant != "backgammon" and not variant_by_key(rules.variant).sgf_rule:
            setup = self.setup_node(rules.variant)
            self.warn("GM506.setup", variant=match.tag('Variation'))
        numbers = self.game_numbers()
        for gi, game in enumerate(match.games):
            result = results.get(id(game))
            yield self.game_tree(game, result, rules, info if gi == 0 else {},
                                 steps_of, setup, numbers[gi])
        for (what, written), n in self.counts.items():
            self.warn("GM503.kept-" + what, n=n, written=written)
        if self.unsaid:
            self.warn("GM504.analysis-depth", n=sum(self.unsaid.values()),
                      depths=", ".join(sorted(self.unsaid)))
        if self.unwritten:
            self.warn("GM504.analysis", n=self.unwritten, format="gamao's SGF")

    def game_tree(self, game: m.Game, result: GameResult | None, rules: Rules,
                  info: dict[str, str], steps_of: dict, setup: str | None,
                  numbering: tuple[int, int | None] | None = None) -> str:
        match = self.match
        sl = game.score
        names = sl.names if sl is not None else match.players
        stated = sl.scores if sl is not None else (None, None)
        before = result.score_before if result is not None else (0, 0)
        scores = [s if s is not None else b for s, b in zip(stated, before)]
        mi_game, kept_number = numbering or (max(game.number - 1, 0), None)
        root = [
            "FF[4]GM[6]CA[UTF-8]",
            _prop("AP", APPLICATION),
            _prop("MI", f"length:{match.length}", f"game:{mi_game}",
                  f"ws:{scores[0]}", f"bs:{scores[1]}"),
            _prop("PW", names[0]),
            _prop("PB", names[1]),
        ]
        for key in INFO_ORDER:
            if key in info and info[key] != "":
                root.append(_prop(key, info[key]))
        if info.get(TAGS_PROPERTY):
            root.append(_prop(TAGS_PROPERTY, *info[TAGS_PROPERTY]))
        if info.get(COMMENTS_PROPERTY):
            root.append(_prop(COMMENTS_PROPERTY, *info[COMMENTS_PROPERTY]))
        if kept_number is not None:
            root.append(_prop(NUMBER_PROPERTY, str(kept_number)))
            self.counts["numbers", ""] += 1
        for name in names:
            back = " ".join(name.replace("\t", " ").split("\n")).strip() if "\t" not in name \
                else None
            if back is not None and back != name:
                self.warn("GM504.name", name=name, back=back)
        if sl is None:
            root.append(_prop(SCORE_PROPERTY, NO_SCORE_LINE))
            self.counts["no-score-line", ""] += 1
        elif None in sl.scores:
            root.append(_prop(SCORE_PROPERTY, *("" if s is None else str(s) for s in sl.scores)))
            self.counts["no-score", ""] += 1
        if sl is not None and any(sl.ratings):
            root.append(_prop(RATINGS_PROPERTY, *(r or "" for r in sl.ratings)))
            self.counts["ratings", ""] += 1
        words = self.rule_words(rules, result)
        if words is not None:
            root.append(_prop("RU", ":".join(words)))
        wins = [i for i, a in enumerate(game.actions) if isinstance(a, m.Win)]
        # the usual record: one Wins cell, the game's last action, which RE holds;
        # any other Wins cells stand as gamao's own nodes (XA) where they are
        win_in_re = len(wins) == 1 and wins[0] == len(game.actions) - 1
        if wins:
            win = game.actions[wins[0]]
            resigned = result is not None and result.ended in (RESIGN, TIME)
            root.append(_prop("RE", f"{'WB'[win.player]}+{win.points}{'R' if resigned else ''}"))
            if win_in_re and win.match:
                root.append(_prop(MATCH_FLAG, MATCH_WORDS))
            if not win_in_re:
                self.warn("GM503.wins" if len(wins) > 1 else "GM503.win", game.number)
            if result is not None and result.ended == TIME:
                self.warn("GM504.time", game.number)
        elif result is not None and result.winner is not None and result.points is not None:
            # no Wins line, but the game ended (borne off, or a dropped double):
            # GNU Backgammon writes its result, so do we, and say for gamao
            # that the record does not
            root.append(_prop("RE", f"{'WB'[result.winner]}+{result.points}"))
            root.append(_prop(MATCH_FLAG, NOT_WRITTEN))
            self.warn("GM506.no-wins", game.number)
        # the nodes, each with the comments of its action
        numbers = move_numbers(game.actions)
        index = {(n, a.player): i for i, (a, n) in enumerate(zip(game.actions, numbers))
                 if n is not None}
        by_action: dict[int, list[str]] = {}
        root_comments: list[str] = []
        placed = []
        for c in game.comments:
            mo = _MOVE_COMMENT.match(c)
            i = index.get((int(mo.group(1)), "WB".index(mo.group(2)))) if mo else None
            if i is not None:
                by_action.setdefault(i, []).append(mo.group(3))
                placed.append((i, c))
            else:
                root_comments.append(c)
        # the reader gives the root's comments first, then the nodes' in
        # order: when that is not the order of the record, all of them stay
        # on the root (in order), which gamao reads back the same; so do they
        # when a node would hold two (its C holds one text)
        if placed and (root_comments + [c for _i, c in sorted(placed, key=lambda p: p[0])]
                       != list(game.comments) or any(len(v) > 1 for v in by_action.values())):
            by_action, root_comments = {}, list(game.comments)
        nodes = [setup] if setup else []
        answer: int | None = None   # who must answer a beaver (raccoon)
        cube = _CubeAsRead()
        for i, a in enumerate(game.actions):
            if answer is not None and isinstance(a, (m.Play, m.Dance, m.Win)):
                # gnubg's match files leave out the take of a beaver; its SGF has
                # it: written for other programs, marked for gamao to leave out
                nodes.append(f"{'WB'[answer]}[take]" + _prop(IMPLIED_PROPERTY, IMPLIED))
                cube.take()
                self.warn("GM506.beaver-take", game.number)
            answer = None
            if isinstance(a, m.Double) and a.kind in ("beaver", "raccoon") and a.player in (0, 1):
                answer = 1 - a.player
            if isinstance(a, m.Win) and win_in_re:
                node = None
            else:
                node = self.action_node(game, a, steps_of)
            if node is None:
                # an action SGF cannot hold: its comment goes to the root node
                root_comments.extend(by_action.get(i, ()))
                continue
            if isinstance(a, m.Double) and a.player in (0, 1):
                if cube.offer(a.player) != (a.kind, a.value):
                    # the cube action as written, which the node alone does not give
                    node += _prop(CUBE_PROPERTY, "" if a.value is None else str(a.value), a.kind)
                    self.counts["cube", ""] += 1
            elif isinstance(a, m.Take):
                cube.take()
            elif isinstance(a, m.Drop):
                cube.pending = None
            elif isinstance(a, m.SetUp):
                cube.pending = None
                if a.cube is not None:
                    cube.cube = a.cube
            if getattr(a, "analysis", None) is not None:
                node += self.analysis_node(a, steps_of)
            if i in by_action:
                node += _prop("C", "\n".join(by_action[i]))
            nodes.append(node)
        if root_comments:
            root.append(_prop("C", "\n".join(root_comments)))
        nodes.insert(0, "(;" + "".join(root))
        return "\n;".join(nodes) + ")\n"

    def analysis_node(self, a: m.ActionType, steps_of: dict) -> str:
        """The analysis of ``a`` as GNU Backgammon's ``A``, ``DA`` and ``LU``
        (:func:`gamao_cli.formats.sgf.analysis.properties`), or nothing."""
        d = decisions_of(a)
        kind = _ANALYSIS_KINDS.get(type(a))
        if d is None or kind is None:
            return ""
        steps = steps_of.get(id(a))
        played = tuple((s, t) for s, t, _hit in steps) if steps is not None else None
        try:
            text, unsaid = analysis_properties(d, kind, self.states.get(id(a)), KAZAROSS_XG2,
                                               point_letter, played)
        except ValueError:   # a candidate SGF cannot spell: the action's analysis is left out
            self.unwritten += 1
            return ""
        self.unsaid.update(unsaid)
        return text

    def action_node(self, game: m.Game, a: m.ActionType, steps_of: dict) -> str | None:
        colour = "WB"[a.player] if a.player in (0, 1) else None
        if colour is None:
            self.warn("GM504.no-player", game.number, cell=a.text())
            return None
        if isinstance(a, m.Play):
            steps = steps_of.get(id(a))
            pairs = [(s, d) for s, d, _hit in steps] if steps is not None else m.play_shape(a.moves)[0]
            letters = []
            for src, dst in pairs:
                try:
                    if src == m.OFF or dst == m.BAR:
                        raise ValueError
                    letters.append(point_letter(src, a.player) + point_letter(dst, a.player))
                except ValueError:
                    self.warn("GM504.step", game.number, cell=a.text(), step=f"{src}/{dst}")
            node = f"{colour}[{a.dice[0]}{a.dice[1]}{''.join(letters)}]"
            if steps is None:
                # the replay could not resolve the play: SGF holds its movements;
                # the text as written (steps, hit marks) is kept for gamao
                node += _prop(SPELLING_PROPERTY, a.play_text())
                self.counts["unresolved", ""] += 1
            return node
        if isinstance(a, m.Dance):
            node = f"{colour}[{a.dice[0]}{a.dice[1]}]"
            if a.written:
                node += _prop(SPELLING_PROPERTY, a.written)
                self.counts["dance", a.written] += 1
            return node
        if isinstance(a, m.SetUp):
            return self.set_up_node(a, colour)
        if isinstance(a, m.Double):
            return f"{colour}[double]"
        if isinstance(a, m.Take):
            return f"{colour}[take]"
        if isinstance(a, m.Drop):
            return f"{colour}[drop]"
        # what SGF cannot hold: a node of its own with gamao's private
        # property only (other programs see an empty node)
        if isinstance(a, m.Win):
            values = [WIN, str(a.points)] + ([MATCH_WORDS] if a.match else [])
            what = None   # noted in game_tree
        elif isinstance(a, m.Loss):
            values = [LOSS, str(a.points)]
            what = "losses"
        elif isinstance(a, m.UnplayedRoll):
            values = [UNPLAYED, f"{a.dice[0]}{a.dice[1]}", a.written]
            what = "unplayed"
        elif isinstance(a, m.Resign):
            values = [RESIGN_CELL] + ([] if a.word == "Resigns" else ["", a.word])
            what = "resigns"
        elif isinstance(a, m.IllegalPlayMarker):
            values = [ILLEGAL, f"{a.dice[0]}{a.dice[1]}", a.written]
            what = "illegal"
        else:
            self.warn("GM504.cell", game.number, cell=a.text())
            return None
        if what is not None:
            self.counts[what, ""] += 1
        return _prop(EXTRA_PROPERTY, colour, *values)

    @staticmethod
    def set_up_node(a: m.SetUp, colour: str) -> str:
        """A position set inside a game, as GNU Backgammon writes one:
        ``PL`` (the player on roll), the cube (``CV``, ``CP``) when it sets
        it, then ``AE[a:y]`` and each side's checkers, point 1 up to the bar
        (``AW`` White's, ``AB`` Black's)."""
        node = _prop("PL", colour)
        if a.cube is not None:
            node += _prop("CV", str(a.cube))
        if a.cube_owner is not None:
            node += _prop("CP", "c" if a.cube_owner == m.CENTRED else "wb"[a.cube_owner])
        if a.sides is not None:
            node += _prop("AE", "a:y")
            for name, player in (("AW", 0), ("AB", 1)):
                side = a.sides[player]
                letters = [point_letter(p, player) for p in range(1, 26) for _ in range(side[p])]
                if letters:
                    node += _prop(name, *letters)
        return node

    @staticmethod
    def setup_node(variant: str) -> str:
        """``AE[a:y]AW[..]AB[..]``: the start position of a variant GNU
        Backgammon's RU cannot name."""
        start = VARIANTS[variant]
        white = [point_letter(p, 0) for p in range(25, 0, -1) for _ in range(start.me[p])]
        black = [point_letter(p, 1) for p in range(25, 0, -1) for _ in range(start.opp[p])]
        return _prop("AE", "a:y") + _prop("AW", *white) + _prop("AB", *black)


_ANALYSIS_KINDS = {m.Play: "roll", m.Dance: "roll", m.Double: "double", m.Take: "take",
                   m.Drop: "drop"}


class _CubeAsRead:
    """The cube as :mod:`.reader` follows it through a game's nodes (a
    double node is a double, or a beaver of the double it answers), so that
    the writer knows what a node reads back as."""

    def __init__(self) -> None:
        self.cube = 1
        self.pending: tuple[int, str, int] | None = None

    def offer(self, player: int) -> tuple[str, int]:
        kind, value = cube_offer(self.pending, player, self.cube)
        self.pending = (player, kind, value)
        return kind, value

    def take(self) -> None:
        if self.pending is not None:
            self.cube = self.pending[2]
            self.pending = None


def refusal(match: m.Match, number: int | None = None) -> WriteRefused | None:
    """Why ``match`` cannot be written as SGF that reads back into it, or None."""
    where: Msg | str = Msg("where.match", {"match": number}) if number else ""
    values = [match.length] + [g.number for g in match.games]
    for g in match.games:
        if g.score is not None:
            values.extend(s for s in g.score.scores if s is not None)
        for a in g.actions:
            dice = getattr(a, "dice", None)
            if dice is not None and not all(type(d) is int and 0 <= d <= 9 for d in dice):
                return WriteRefused("GM507.sgf-dice", {"where": where, "game": g.number,
                                                       "cell": a.text()})
            if isinstance(a, (m.Win, m.Loss)):
                values.append(a.points)
                if type(a.points) is not int or a.points < 0:
                    return WriteRefused("GM507.sgf-points", {"where": where, "game": g.number,
                                                             "cell": a.text()})
            if isinstance(a, m.Double) and (a.kind not in CUBE_KINDS or a.value is not None and (
                    type(a.value) is not int or a.value < 0)):
                return WriteRefused("GM507.sgf-cube", {"where": where, "game": g.number,
                                                       "value": a.value, "kind": a.kind})
            if isinstance(a, m.Double) and a.value is not None:
                values.append(a.value)
    if match.length < 0:
        return WriteRefused("GM507.sgf-length", {"where": where, "length": match.length})
    for n in values:
        if type(n) is not int:
            return WriteRefused("GM507.mat-not-a-number", {"where": where, "format": "SGF",
                                                           "what": Msg("written.number", {}), "value": n})
        if not fits(n):
            return WriteRefused("GM507.mat-number", {"where": where, "format": "SGF",
                                                     "what": Msg("written.number", {}), "limit": MAX_DIGITS})
    return None


def write_sgf(matches: Sequence[m.Match], replays: Replays | None = None) -> WriteResult:
    """Write ``matches`` as one SGF collection (the games of all matches, one
    after another; each match's first game is ``MI[game:0]``), made when the
    result's chunks are taken: one match replayed at a time (kept only in
    ``replays``, when given), one game tree a chunk. A match SGF cannot hold
    so that it reads back, or no matches, is refused (GM507) first."""
    if not matches:
        raise WriteRefused("GM507.no-matches", {"format": Msg("written.sgf-file", {})})
    several = len(matches) > 1
    for k, match in enumerate(matches, 1):
        problem = refusal(match, k if several else None)
        if problem is not None:
            raise problem
    conv = WriteResult()

    def chunks():
        for k, match in enumerate(matches, 1):
            w = _MatchWriter(match, k if several else None, replays)
            yield from w.iter_write()
            conv.add_errors(w.errors)
            for note in w.notes:
                conv.note(note)

        # what SGF holds of an analysis is what the decisions model holds on a
        # roll, a double or an answer; an analysis outside it (a JSON file's
        # free-form figures, the luck of a roll never played) is left out
        left = [a for match in matches for g in match.games for a in g.actions
                if a.analysis is not None
                and (decisions_of(a) is None or type(a) not in _ANALYSIS_KINDS)]
        if left:
            conv.note(Note("GM504", {"where": "", "n": len(left), "format": "gamao's SGF",
                                     "program": analysis_programs(left)},
                           key="GM504.analysis"))

    conv.set_chunks(chunks())
    return conv
