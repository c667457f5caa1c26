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
  only. The tags they come from are those :mod:`gamao_cli.sgf_reader` makes
  of them, so that a match read back says the same.
- Plays are written one die step per letter pair, from the validator's
  replay (:func:`gamao_cli.validator.validate_match` with
  ``keep_records=True``), so consolidated plays (``24/13``, ``13/11(2)``)
  are expanded; a play the replay could not resolve is written as its
  movements stand.
- ``RE`` comes from the game's ``Wins`` line (its player and stated points),
  with ``R`` when the validator finds the game was resigned (or lost on
  time); ``XR[and the match]``, a private property GNU Backgammon ignores,
  keeps the words "and the match". A game that ended without a ``Wins``
  line gets the result the rules give (so it reads back with one).
- Comments: :attr:`Game.comments <gamao_cli.model.Game>` of the form ``"move
  N W: text"`` (as the reader makes them) go back on the node of that
  action, all others on the game's root node.
- What SGF cannot hold is left out and said in the conversion's warnings:
  Backgammon Galaxy's ``Losses`` cells, ``????`` rolls never played,
  ``Resigns`` cells (the ``R`` of ``RE`` says it), Snowie's ``Illegal play``
  markers, score-line ratings, tags without an SGF property.

>>> from gamao_cli.matfile_reader import read_matches
>>> text = (" 1 point match\\n\\n Game 1\\n Ann : 0   Bob : 0\\n"
...         "  1) 31: 8/5 6/5                 65: 24/13\\n      Wins 1 point\\n")
>>> print(convert(read_matches(text)).text, end="")
(;FF[4]GM[6]CA[UTF-8]AP[gamao:0.1.0]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[W+1R]
;W[31hefe]
;B[65aggl])
"""
from __future__ import annotations

import re
from collections import Counter

from . import __version__
from . import model as m
from .board import VARIANTS
from .conversion import Conversion
from .errors import UnknownVariant
from .notation import movements
from .sgf_reader import MATCH_FLAG, point_letter
from .validator import RESIGN, TIME, GameResult, Rules, validate_match

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

#: RU words of the variants GNU Backgammon knows (by variant key).
_RULE_OF_VARIANT = {"nackgammon": "Nackgammon", "hypergammon1": "Hypergammon1",
                    "hypergammon2": "Hypergammon2", "hypergammon3": "Hypergammon3"}


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


def move_numbers(actions: list[m.ActionType]) -> list[int | None]:
    """The move number of each action in the match-file layout (the number
    :mod:`gamao_cli.matfile_writer` writes; None for ``Wins`` lines)."""
    out: list[int | None] = []
    number = 0
    has_left = has_right = False
    for a in actions:
        if isinstance(a, (m.Win, m.Loss)):
            out.append(None)
            continue
        if a.player == m.LEFT:
            number += 1
            has_left, has_right = True, False
        else:
            if has_right or not has_left:
                number += 1
                has_left = False
            has_right = True
        out.append(number)
    return out


class _MatchWriter:
    def __init__(self, match: m.Match, prefix: str = ""):
        self.match = match
        self.prefix = prefix
        self.warnings: list[str] = []
        self._said: set[str] = set()
        self.counts: Counter[str] = Counter()

    def warn(self, text: str) -> None:
        if text not in self._said:
            self._said.add(text)
            self.warnings.append(text)

    def label(self) -> str:
        """What starts each warning: the match's place when a file holds several
        (the caller names the file)."""
        return self.prefix

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
            self.warn(f"{self.label()}SGF has no property for the tag"
                      f"{'s' if len(dropped) > 1 else ''} {', '.join(dropped)}: kept only in "
                      "gamao's private property XT, which other programs ignore")
        if self.match.tags:
            # every tag, in order, so that gamao reads the match file's tags back
            props["XT"] = [v for t in self.match.tags for v in (t.name, t.value)]
        if self.match.comments:
            lines = []
            for c in self.match.comments:
                if c.startswith("; "):
                    c = c[2:]
                elif c[:1] in (";", "#"):
                    c = c[1:]
                lines.append(c)
            props["GC"] = "\n".join(lines)
        return props

    def rules(self) -> tuple[Rules, bool]:
        """The match's rules, and whether its variant could be read."""
        try:
            return Rules.from_match(self.match), True
        except UnknownVariant as exc:
            self.warn(f"{self.label()}{exc}: the games are written as standard backgammon")
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
            self.warn(f"{self.label()}SGF cannot say the cube limit {n}: not written")
        if self.match.length > 1 and rules.crawford:
            # GNU Backgammon writes no Crawford rule for 1-point matches
            words.append("Crawford")
            if result is not None and result.crawford:
                words.append("CrawfordGame")
        if rules.jacoby:
            words.append("Jacoby")
        elif rules.jacoby is False and self.match.length:
            self.warn(f"{self.label()}SGF's RU names the rules that are on: the tag Jacoby "
                      f"\"{self.match.tag('Jacoby')}\" of a match is not written")
        if self.match.tag("Beaver") is not None:
            self.warn(f"{self.label()}SGF cannot say whether beavers are allowed: the tag Beaver "
                      f"\"{self.match.tag('Beaver')}\" is not written")
        word = _RULE_OF_VARIANT.get(rules.variant)
        if word:
            words.append(word)
        explicit_off = (self.match.length and not rules.crawford) or \
            (not self.match.length and rules.jacoby is False)
        if words or explicit_off:
            return words
        return None

    # -- games -----------------------------------------------------------------
    def write(self) -> str:
        match = self.match
        report = validate_match(match, keep_records=True)
        self.errors = report.errors
        rules, known = self.rules()
        steps_of: dict[int, tuple] = {}
        for res in report.games:
            for rec in res.records:
                if rec.steps is not None and isinstance(rec.action, m.Play):
                    steps_of[id(rec.action)] = rec.steps
        results = {id(g): r for g, r in zip(match.games, report.games)} if \
            len(report.games) == len(match.games) else {}
        info = self.info_properties()
        if not match.games:
            self.warn(f"{self.label()}the match has no games: SGF cannot hold it")
            return ""
        setup = None
        if known and rules.variant not in _RULE_OF_VARIANT and rules.variant != "backgammon":
            setup = self.setup_node(rules.variant)
            self.warn(f"{self.label()}GNU Backgammon's SGF has no rule for the variant "
                      f"{match.tag('Variation')}: each game starts with a set-up node")
        out = []
        for gi, game in enumerate(match.games):
            result = results.get(id(game))
            out.append(self.game_tree(game, result, rules, info if gi == 0 else {},
                                      steps_of, setup))
        for what, n in self.counts.items():
            self.warn(f"{self.label()}{n} {what}")
        return "".join(out)

    def game_tree(self, game: m.Game, result: GameResult | None, rules: Rules,
                  info: dict[str, str], steps_of: dict, setup: str | None) -> str:
        match = self.match
        names = game.score.names if game.score is not None else match.players
        stated = game.score.scores if game.score is not None else (None, None)
        before = result.score_before if result is not None else (0, 0)
        scores = [s if s is not None else b for s, b in zip(stated, before)]
        if game.score is not None and any(game.score.ratings):
            self.warn(f"{self.label()}score-line ratings (\"name,1612\") are not written: SGF "
                      "has no place for them")
        root = [
            "FF[4]GM[6]CA[UTF-8]",
            _prop("AP", APPLICATION),
            _prop("MI", f"length:{match.length}", f"game:{max(game.number - 1, 0)}",
                  f"ws:{scores[0]}", f"bs:{scores[1]}"),
            _prop("PW", names[0]),
            _prop("PB", names[1]),
        ]
        for key in INFO_ORDER:
            if key in info and info[key] != "":
                root.append(_prop(key, info[key]))
        if info.get("XT"):
            root.append(_prop("XT", *info["XT"]))
        words = self.rule_words(rules, result)
        if words is not None:
            root.append(_prop("RU", ":".join(words)))
        win = next((a for a in game.actions if isinstance(a, m.Win)), None)
        if win is not None:
            resigned = result is not None and result.ended in (RESIGN, TIME)
            root.append(_prop("RE", f"{'WB'[win.player]}+{win.points}{'R' if resigned else ''}"))
            if win.match:
                root.append(_prop(MATCH_FLAG, "and the match"))
            if result is not None and result.ended == TIME:
                self.warn(f"{self.label()}game {game.number}: SGF cannot say that a game was "
                          "lost on time; it is written as resigned")
        elif result is not None and result.winner is not None and result.points is not None:
            # no Wins line, but the game ended (borne off, or a dropped double):
            # GNU Backgammon writes its result, so do we
            root.append(_prop("RE", f"{'WB'[result.winner]}+{result.points}"))
        # the nodes, each with the comments of its action
        numbers = move_numbers(game.actions)
        index = {(n, a.player): i for i, (a, n) in enumerate(zip(game.actions, numbers))
                 if n is not None}
        by_action: dict[int, list[str]] = {}
        root_comments: list[str] = []
        for c in game.comments:
            mo = _MOVE_COMMENT.match(c)
            i = index.get((int(mo.group(1)), "WB".index(mo.group(2)))) if mo else None
            if i is not None:
                by_action.setdefault(i, []).append(mo.group(3))
            else:
                root_comments.append(c)
        nodes = [setup] if setup else []
        answer: int | None = None   # who must answer a beaver (raccoon)
        for i, a in enumerate(game.actions):
            if answer is not None and isinstance(a, (m.Play, m.Dance, m.Win)):
                # gnubg's match files leave out the take of a beaver; its SGF has it
                nodes.append(f"{'WB'[answer]}[take]")
                self.warn(f"{self.label()}game {game.number}: the take of the beaver is "
                          "implied; written out as GNU Backgammon's SGF has it")
            answer = None
            if isinstance(a, m.Double) and a.kind in ("beaver", "raccoon") and a.player in (0, 1):
                answer = 1 - a.player
            node = self.action_node(game, a, steps_of)
            if node is None:
                # an action SGF cannot hold: its comment goes to the root node
                root_comments.extend(by_action.get(i, ()))
                continue
            if i in by_action:
                node += _prop("C", "\n".join(by_action[i]))
            nodes.append(node)
        if root_comments:
            root.append(_prop("C", "\n".join(root_comments)))
        nodes.insert(0, "(;" + "".join(root))
        return "\n;".join(nodes) + ")\n"

    def action_node(self, game: m.Game, a: m.ActionType, steps_of: dict) -> str | None:
        colour = "WB"[a.player] if a.player in (0, 1) else None
        if colour is None:
            return None
        if isinstance(a, m.Play):
            steps = steps_of.get(id(a))
            pairs = [(s, d) for s, d, _hit in steps] if steps is not None else movements(a.moves)
            letters = []
            for src, dst in pairs:
                try:
                    if src == m.OFF or dst == m.BAR:
                        raise ValueError
                    letters.append(point_letter(src, a.player) + point_letter(dst, a.player))
                except ValueError:
                    self.warn(f"{self.label()}game {game.number}: {a.text()}: the step "
                              f"{src}/{dst} has no SGF spelling and is left out")
            return f"{colour}[{a.dice[0]}{a.dice[1]}{''.join(letters)}]"
        if isinstance(a, m.Dance):
            return f"{colour}[{a.dice[0]}{a.dice[1]}]"
        if isinstance(a, m.Double):
            return f"{colour}[double]"
        if isinstance(a, m.Take):
            return f"{colour}[take]"
        if isinstance(a, m.Drop):
            return f"{colour}[drop]"
        if isinstance(a, m.Win):
            return None
        if isinstance(a, m.Loss):
            self.counts["Backgammon Galaxy \"Losses N point\" cell(s) left out: SGF has no "
                        "place for them (RE holds the result)"] += 1
        elif isinstance(a, m.UnplayedRoll):
            self.counts["roll(s) never played (\"61: ????\") left out: SGF has no place for "
                        "them"] += 1
        elif isinstance(a, m.Resign):
            self.counts["\"Resigns\" cell(s) left out: in SGF the R of RE says the game was "
                        "resigned"] += 1
        elif isinstance(a, m.IllegalPlayMarker):
            self.counts["Snowie \"Illegal play\" marker(s) left out: SGF cannot set a position "
                        "in the middle of a game"] += 1
        return None

    @staticmethod
    def setup_node(variant: str) -> str:
        """``AE[a:y]AW[..]AB[..]``: the start position of a variant GNU
        Backgammon's RU cannot name."""
        start = VARIANTS[variant]
        white = [point_letter(p, 0) for p in range(25, 0, -1) for _ in range(start.me[p])]
        black = [point_letter(p, 1) for p in range(25, 0, -1) for _ in range(start.opp[p])]
        return _prop("AE", "a:y") + _prop("AW", *white) + _prop("AB", *black)


def convert(matches: list[m.Match]) -> Conversion:
    """Write ``matches`` as one SGF collection (the games of all matches, one
    after another; each match's first game is ``MI[game:0]``)."""
    conv = Conversion("")
    parts = []
    for k, match in enumerate(matches, 1):
        w = _MatchWriter(match, f"match {k}: " if len(matches) > 1 else "")
        parts.append(w.write())
        conv.errors += w.errors
        conv.warnings.extend(w.warnings)
        if k > 1 and match.games and match.games[0].number != 1:
            conv.warnings.append(f"{w.label()}its first game is numbered "
                                 f"{match.games[0].number}: read back, it may join the match "
                                 "before it")
    conv.text = "".join(parts)
    return conv
