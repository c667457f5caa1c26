"""The fast paths of the reader and the validator against the full ones.

Each fast path must give exactly what the plain path gives:

* the reader parses with the start symbol ``runs`` (runs of lines as one
  token, split by the builder) and falls back to the line-by-line ``start``
  on a syntax error: both must build the same models, lines and columns
  included, and accept the same files;
* plays keep their text and make their steps when asked (``Play.from_text``);
  their shape is read without the steps;
* the validator replays a plainly legal play with
  ``board.play_in_written_order`` instead of ``resolve_play``;
* ``board.play_is_legal`` answers from ``max_dice_playable`` when it can,
  instead of listing the legal plays.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from lark.exceptions import UnexpectedInput

from conftest import EXAMPLES, SELFPLAY, corpus_match_files, needs_corpus, read
from gamao_cli import rules as board
from gamao_cli import model as m
from gamao_cli.rules import legal_plays, play_in_written_order, play_is_legal, resolve_play
from gamao_cli.formats.mat.reader import (_NotMoveText, _line_parser, _parser,
                                          looks_like_match_file, prepare_text, read_matches)
from gamao_cli.model import parse_steps
from gamao_cli.model.notation import shape_of
from gamao_cli.replay.replay import validate_match

DATA = Path(__file__).resolve().parent / "data"


def local_match_files() -> list[Path]:
    return sorted(p for d in (DATA, SELFPLAY, EXAMPLES) if d.is_dir()
                  for p in d.glob("*.mat"))


def dump(matches: list[m.Match]) -> list:
    """Everything a model says, lines and columns included."""
    out = []
    for mt in matches:
        out.append(("match", mt.length, mt.line, mt.column,
                    [(t.name, t.value, t.line) for t in mt.tags], mt.comments))
        for g in mt.games:
            sl = g.score
            out.append(("game", g.number, g.line, g.column, g.comments,
                        sl and (sl.names, sl.scores, sl.ratings, sl.line, sl.column)))
            for a in g.actions:
                fields = {k: getattr(a, k) for k in ("dice", "value", "kind", "points", "match",
                                                     "written") if hasattr(a, k)}
                row = (type(a).__name__, a.player, a.line, a.column, a.move_number, fields)
                if isinstance(a, m.Play):
                    row += ([(s.points, s.hits, s.repeat, s.bar, s.off, s.line, s.column)
                             for s in a.moves], a.movements(), a.marked_hits())
                out.append(row)
    return out


def both_ways(text: str):
    """(what ``runs`` gives, what ``start`` gives): a dump, or "error".
    (``runs`` takes move text as any lines and checks them while cutting
    them into cells: move text that is not move lines is its error.)"""
    text = prepare_text(text)
    got = []
    for parser, start in ((_parser(), "runs"), (_line_parser(), "start")):
        try:
            got.append(dump(parser.parse(text, start=start)))
        except (UnexpectedInput, _NotMoveText):
            got.append("error")
    return got


# -- the reader -----------------------------------------------------------

def test_runs_and_lines_read_every_local_file_alike():
    files = local_match_files()
    assert files
    for path in files:
        fast, lines = both_ways(read(path))
        assert fast != "error", path
        assert fast == lines, path


@needs_corpus
def test_runs_and_lines_read_every_corpus_file_alike():
    for path in corpus_match_files():
        text = read(path)
        if looks_like_match_file(text):
            fast, lines = both_ways(text)
            assert fast == lines, path


JUNK = ["hello", "8-4", "*", "/", ")", " 12)", "Game 3", '; [Site "x"]', "; note", "# c",
        "[x]", "\t", "   ", "", "Wins 2 points", "Doubles => 2", "Takes", "66:", "61: ????",
        "Cannot Move", "bar/", "25/20*", "(2)", " 7 point match", "Losses 1 point", " 24)  ",
        "x : 0   y : 0"]


def test_runs_and_lines_agree_on_broken_files():
    """Mutated files: the same models, or both reject the file."""
    rng = random.Random(7)
    files = local_match_files()
    rejected = 0
    for _ in range(300):
        lines = read(rng.choice(files)).split("\n")
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(lines))
            op = rng.randrange(4)
            if op == 0:
                j = rng.randrange(len(lines[i]) + 1)
                lines[i] = lines[i][:j] + rng.choice(JUNK) + lines[i][j:]
            elif op == 1:
                lines.insert(i, rng.choice(JUNK))
            elif op == 2:
                del lines[i]
            else:
                lines.insert(i, lines[i])
        fast, slow = both_ways("\n".join(lines))
        assert fast == slow
        rejected += fast == "error"
    assert 30 < rejected < 270  # both kinds were tried


@pytest.mark.parametrize("line, expected", [
    # a move number repeated before the first cell: the gap before it counts
    ("  24)   24)  Losses 2 point", [("Loss", 0, 14)]),
    ("  24)          24)  Losses 2 point", [("Loss", 1, 21)]),
    ("  24)  24)          Losses 2 point      Wins 2 point", [("Loss", 0, 21), ("Win", 1, 41)]),
    ("  3)                         4)  Takes    5) Drops", [("Take", 1, 34), ("Drop", 0, 46)]),
])
def test_repeated_move_numbers(line, expected):
    text = " 7 point match\n\n Game 1\n A : 0    B : 0\n" + line + "\n"
    [match] = read_matches(text)
    got = [(type(a).__name__, a.player, a.column) for a in match.games[0].actions]
    assert got == expected
    fast, lines = both_ways(text)
    assert fast == lines


def test_a_play_makes_its_steps_when_asked():
    text = (" 7 point match\n\n Game 1\n A : 0    B : 0\n"
            "  1) 62: 24/18* 13/11    55: bar/20/15 6/off(2)\n")
    [match] = read_matches(text)
    a, b = match.games[0].actions
    assert a._moves is None  # not made yet
    assert a.movements() == ((24, 18), (13, 11)) and a.marked_hits() == frozenset({18})
    assert a.moves == parse_steps("24/18* 13/11", 5, 10)
    assert [(s.line, s.column) for s in b.moves] == [(5, 30), (5, 40)]
    eager = m.Play(0, (6, 2), parse_steps("24/18* 13/11", 5, 10), line=5, column=6,
                   move_number=1)
    assert a == eager and repr(a) == repr(eager)
    assert a != m.Play(1, (6, 2), eager.moves)
    with pytest.raises(TypeError):
        hash(a)
    a.moves = parse_steps("24/16", 5, 10)
    assert a.movements() == ((24, 16),) and a.text() == "62: 24/16"


def test_shape_of_without_steps_is_the_shape_of_the_steps():
    texts = {"24/18*/13 8/5(2)", "bar/20/15 6/off(2) b/22 25/20 3/0", "OFF/1", "B/24*",
             "13/7* 7/1*(2)", "24*/18"}
    for path in local_match_files():
        for mt in read_matches(read(path)):
            for g in mt.games:
                texts.update(a.play_text() for a in g.actions if isinstance(a, m.Play))
    for text in texts:
        assert shape_of(text) == m.play_shape(parse_steps(text, 0, 0)), text


def test_a_play_text_is_displayed_as_its_steps_write_themselves():
    """display_text (a play's text as play_text gives it, word by word from
    a memo) is its definition, the steps of parse_steps written one space
    apart: on the examples' plays and on random texts of step characters,
    spaces, tabs and other white space (which it leaves to the definition)."""
    from gamao_cli.model.records import _STEP_DISPLAY, display_text

    def definition(text):
        return " ".join(str(st) for st in parse_steps(text))
    texts = {"24/18*/13 8/5(2)", "bar/20/15 6/off(2) b/22 25/20 3/0", " 8/5\t6/5 ", "8/5(2)(3)",
             "8/5 (2)", "8/5\n6/5", "8/5\xa06/5", "8/5\x0b6/5", "13/7*(2)x", ""}
    for path in local_match_files():
        for mt in read_matches(read(path)):
            for g in mt.games:
                texts.update(a.play_text() for a in g.actions if isinstance(a, m.Play))
    rng = random.Random(3)
    alphabet = list("0123456789/*()bBarOofF") + [" ", " ", "\t", "\n", "\r", "\xa0", "\x0b"]
    texts.update("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 20)))
                 for _ in range(3000))
    for text in sorted(texts):
        try:
            want = definition(text)
        except Exception as e:   # no steps (no reader gives it): the same refusal
            with pytest.raises(type(e)):
                display_text(text)
            continue
        assert display_text(text) == want, repr(text)
        assert display_text(text) == want, repr(text)   # from the memo the second time
    assert len(_STEP_DISPLAY.data) > 100


def test_header_checks_match_their_line_by_line_definition():
    from gamao_cli.formats.mat.reader import _HEADER_RE, _has_header

    def looks(text):  # FORMATS.md, line by line
        for line in text.splitlines():
            s = line.lstrip()
            if s.startswith("; ["):
                return True
            if s[:1].isdigit():
                return bool(_HEADER_RE.match(line))
        return False

    rng = random.Random(1)
    parts = ["; [x]", "; x", " 7 point match", "7 points match", "  \u00b2", " \u00e9",
             "\xa0; [", "\u3000 3 point match", "12) 31:", "", "Game 1", "\ufeff; [a]",
             " 0 point MATCH", "x", "\t\t5 point match junk", "\u0663 point match",
             "3 point matc", " ", "\x1f4 point match"]
    breaks = ["\n", "\n", "\n", "\r\n", "\r", "\x0c", "\u2028"]
    for _ in range(20000):
        text = "".join(rng.choice(parts) + rng.choice(breaks) for _ in range(rng.randint(0, 6)))
        if rng.random() < 0.3:
            text = text.rstrip("\n\r")
        assert looks_like_match_file(text) == looks(text), repr(text)
        assert _has_header(text) == any(_HEADER_RE.match(x) for x in text.splitlines()), \
            repr(text)


# -- the validator ----------------------------------------------------------

def report_dump(match, fast: bool = True, keep_records: bool = False) -> tuple:
    try:
        report = validate_match(match, fast=fast, keep_records=keep_records)
    except ValueError as exc:  # a movement off the board (0/3, 24/227): both paths raise
        return ("raised", str(exc))
    return ([d.to_dict() for d in report.diagnostics], report.final_score, report.winner,
            report.plays, [(g.winner, g.points, g.stated_points, g.ended, g.cube, g.moves)
                           for g in report.games],
            # with keep_records, every action's record: the position before
            # it, whose turn, the cube, the die steps taken
            [[(id(r.action), r.turn, r.position, r.cube, r.cube_owner, r.steps)
              for r in g.records] for g in report.games])


def test_the_fast_replay_reports_what_the_full_replay_reports():
    matches = [mt for p in local_match_files() for mt in read_matches(read(p), str(p))]
    # and some broken ones: wrong plays, hits, dice
    rng = random.Random(3)
    for _ in range(150):
        p = rng.choice(local_match_files())
        text = read(p)
        plays = [i for i, ch in enumerate(text) if ch == "/"]
        for _ in range(3):
            i = rng.choice(plays)
            text = text[:i - 1] + rng.choice("0123456789") + text[i:]
        try:
            matches.extend(read_matches(text, "broken.mat"))
        except Exception:
            pass
    fast = [report_dump(mt) for mt in matches]
    full = [report_dump(mt, fast=False) for mt in matches]
    assert fast == full
    assert any(f[0] for f in fast)  # some diagnostics were compared
    # the records the writers take (keep_records): the same either way
    fast = [report_dump(mt, keep_records=True) for mt in matches]
    assert fast == [report_dump(mt, fast=False, keep_records=True) for mt in matches]
    assert sum(len(g) for f in fast if f[0] != "raised" for g in f[-1]) > 10_000


def test_plays_out_of_turn_and_dice_off_the_die_in_a_row_go_the_full_way():
    # the plays of a game are replayed in a row; one the fast path does not
    # take (the same player twice, a 7 on a die) goes the full way and the
    # replay goes on after it (it once looped on such a play forever)
    text = (" 1 point match\n\n Game 1\n A : 0                          B : 0\n"
            "  1) 31: 8/5 6/5                    62: 24/18 13/11\n"
            "  2) 64: 24/18 13/9\n"
            "  3) 71: 13/6 13/12                  52: 13/8 13/11\n"
            "  4) 21: 6/4 5/4                    43: 24/20 13/10\n")
    [match] = read_matches(text, "turns.mat")
    fast = report_dump(match)
    assert fast == report_dump(match, fast=False)
    codes = [d["code"] for d in fast[0]]
    assert "GM213" in codes and "GM101" in codes, codes
    assert fast[3] == 7   # every play replayed


@needs_corpus
def test_the_fast_replay_matches_the_full_replay_on_the_corpus():
    files = corpus_match_files()[::7]
    matches = []
    for p in files:
        try:
            matches.extend(read_matches(read(p), str(p)))
        except Exception:
            pass
    fast = [report_dump(mt) for mt in matches]
    assert fast == [report_dump(mt, fast=False) for mt in matches]
    fast = [report_dump(mt, keep_records=True) for mt in matches]
    assert fast == [report_dump(mt, fast=False, keep_records=True) for mt in matches]


CORPUS2 = Path(__file__).resolve().parents[2] / "shared" / "corpus2"


@pytest.mark.skipif(not CORPUS2.is_dir(), reason=f"the second corpus is not at {CORPUS2}")
def test_the_fast_replay_matches_the_full_replay_on_every_format_of_the_second_corpus():
    """As above, on ../shared/corpus2: the real records, GNU Backgammon's
    SGF and text exports, eXtreme Gammon's and BGBlitz's files, whose
    plays come as die steps ("6/1 1/0") as often as movements."""
    from gamao_cli.errors import GamaoError
    from gamao_cli.formats import members
    matches = []
    for p in sorted(CORPUS2.rglob("*")):
        if p.is_file() and p.suffix.lower() not in (".json", ".md", ".tsv", ".csv"):
            try:
                matches.extend(members.read_path(str(p)))
            except GamaoError:
                pass
    assert len(matches) > 150
    for keep in (False, True):
        assert [report_dump(mt, keep_records=keep) for mt in matches] == \
            [report_dump(mt, fast=False, keep_records=keep) for mt in matches]


# -- the board ----------------------------------------------------------------

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def random_positions(n: int, seed: int) -> list[board.Position]:
    rng = random.Random(seed)
    out = []
    variants = ["backgammon", "nackgammon", "hypergammon3", "longgammon"]
    while len(out) < n:
        pos = board.start_position(rng.choice(variants))
        while len(out) < n:
            out.append(pos)
            after = rng.choice(list(legal_plays(pos, rng.randint(1, 6), rng.randint(1, 6))))
            if board.game_over(after):
                break
            pos = after.swapped()
    return out


def readings(pos, d1, d2, rng):
    """Movement lists to try: every legal play, its first steps alone, and
    a few single steps of either die."""
    plays = list(legal_plays(pos, d1, d2).values())
    rng.shuffle(plays)
    for steps in plays[:6]:
        for k in range(len(steps) + 1):
            yield [(s, t) for s, t, _h in steps[:k]]
    for src in rng.sample(range(1, 26), 6):
        for d in (d1, d2):
            yield [(src, max(src - d, 0))]


def test_play_is_legal_is_its_definition():
    rng = random.Random(11)
    checked = shortcut = 0
    for pos in random_positions(400, seed=5):
        for d1, d2 in rng.sample(ROLLS, 4):
            full = 4 if d1 == d2 else 2
            for moves in readings(pos, d1, d2, rng):
                res = resolve_play(pos, moves, d1, d2)
                if not res.ok:
                    continue
                expected = res.dice_used == full or res.position in legal_plays(pos, d1, d2)
                assert play_is_legal(pos, d1, d2, res) == expected, (pos, d1, d2, moves)
                assert res.legal == expected, (pos, d1, d2, moves)
                checked += 1
                shortcut += res.dice_used < full
    assert checked > 3000 and shortcut > 500


def test_a_roll_can_be_played_when_either_die_can():
    for pos in random_positions(600, seed=8):
        for d1, d2 in ROLLS:
            assert (board.max_dice_playable(pos, d1, d2) > 0) == (
                board.die_playable(pos, d1) or board.die_playable(pos, d2))


def test_play_in_written_order_is_resolve_plays_reading():
    rng = random.Random(13)
    taken = 0
    for pos in random_positions(400, seed=6):
        for d1, d2 in rng.sample(ROLLS, 4):
            for moves in readings(pos, d1, d2, rng):
                got = play_in_written_order(pos, tuple(moves), d1, d2)
                res = resolve_play(pos, moves, d1, d2)
                if got is None:
                    continue
                taken += 1
                after, hits = got
                assert res.ok and res.dice_used == (4 if d1 == d2 else 2)
                assert after == res.position.swapped()
                assert sorted(hits) == sorted(t for _s, t, h in res.steps if h)
                assert play_is_legal(pos, d1, d2, res)
    assert taken > 1000


def _kernel_reading(me, opp, plan):
    """A plan played die step by die step with the kernel itself
    (die_step, move_checker): the hits, or None at the first refused step."""
    from gamao_cli.rules.steps import POINT, die_step, move_checker
    hits = []
    for cur, d in plan:
        t = die_step(me, opp, cur, d)
        if t < 0:
            return None
        t &= POINT
        if move_checker(me, opp, cur, t):
            hits.append(t)
    return tuple(hits)


def test_play_plan_applies_the_kernels_rule():
    from gamao_cli.rules.resolve import _written_order_plan, play_plan
    rng = random.Random(17)
    played = refused = unmarked = 0
    for pos in random_positions(500, seed=9):
        for d1, d2 in rng.sample(ROLLS, 4):
            for moves in readings(pos, d1, d2, rng):
                found = _written_order_plan(moves, d1, d2)
                if not found or not found[0]:
                    continue
                plan = tuple(found[0])
                me, opp = list(pos.me), list(pos.opp)
                kme, kopp = list(pos.me), list(pos.opp)
                expected = _kernel_reading(kme, kopp, plan)
                got = play_plan(me, opp, plan, None)
                assert got == expected, (pos, plan)
                if got is None:
                    assert (me, opp) == (list(pos.me), list(pos.opp))  # as they were
                    refused += 1
                    continue
                assert (me, opp) == (kme, kopp)
                played += 1
                # hit marks that are not the hits: refused, the arrays as they were
                wrong = frozenset(set(got) ^ {rng.randint(1, 24)})
                me, opp = list(pos.me), list(pos.opp)
                assert play_plan(me, opp, plan, wrong) is None
                assert (me, opp) == (list(pos.me), list(pos.opp))
                me, opp = list(pos.me), list(pos.opp)
                assert play_plan(me, opp, plan, frozenset(got)) == got
                unmarked += not got
    assert played > 3000 and refused > 1000 and unmarked > 1000


def tight_positions(n: int, seed: int) -> list[board.Position]:
    """Positions where a roll often cannot be played in full: checkers on
    the bar against a home board of made points, and the last checkers of
    a bear-off."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        me, opp = [0] * 26, [0] * 26
        if rng.random() < 0.5:   # on the bar against made points
            me[25] = rng.randint(1, 3)
            left = 15 - me[25]
            for p in rng.sample(range(1, 7), rng.randint(3, 6)):
                opp[p] = 2
            opp[rng.randint(13, 24)] = 15 - sum(opp)
            while left:
                p = rng.randint(1, 24)
                if not opp[25 - p]:
                    me[p] += 1
                    left -= 1
        else:                    # bearing off the last checkers
            for _ in range(rng.randint(1, 4)):
                me[rng.randint(1, 6)] += 1
            me[0] = 15 - sum(me)
            for p in rng.sample(range(1, 25), 5):
                opp[p] += 3
        out.append(board.Position(tuple(me), tuple(opp)))
    return out


def test_a_play_of_fewer_dice_is_resolve_plays_reading():
    from gamao_cli.rules.resolve import Resolver, fewer_dice_plan, steps_of_plan
    resolver = Resolver(memo=False)
    rng = random.Random(19)
    taken = left = 0
    for pos in tight_positions(400, seed=10):
        for d1, d2 in rng.sample(ROLLS, 8):
            for moves in readings(pos, d1, d2, rng):
                plan = fewer_dice_plan(tuple(moves), d1, d2)
                if not plan:
                    continue
                me, opp = list(pos.me), list(pos.opp)
                hits = resolver.play_fewer_in_place(me, opp, plan, d1, d2)
                res = resolve_play(pos, moves, d1, d2)
                if hits is None:
                    assert (me, opp) == (list(pos.me), list(pos.opp))
                    left += 1
                    continue
                taken += 1
                assert res.legal and res.dice_used == len(plan) < (4 if d1 == d2 else 2)
                assert res.position == board.Position(tuple(me), tuple(opp))
                assert sorted(hits) == sorted(t for _s, t, h in res.steps if h)
                # and its steps (what a record keeps) are resolve_play's
                assert steps_of_plan(plan, hits) == res.steps
    assert taken > 500 and left > 500, (taken, left)


def test_one_checker_moved_by_both_dice_the_other_way_is_resolve_plays_reading():
    """A movement of one checker by both dice whose written order is
    blocked, read the other way round (what the replay's run of plays does
    before it sends a play the full way): where that plays, it is what
    resolve_play reads of the movement (position, hits, steps); where it
    does not, resolve_play finds no legal reading either."""
    from gamao_cli.rules.resolve import Resolver, other_order_plan, play_plan, steps_of_plan
    resolver = Resolver(memo=False)
    rng = random.Random(23)
    taken = refused = 0
    for pos in random_positions(1500, seed=12) + tight_positions(300, seed=13):
        for d1, d2 in rng.sample([r for r in ROLLS if r[0] != r[1]], 6):
            for src in rng.sample(range(2, 26), 8):
                dst = max(src - d1 - d2, 0)
                moves = ((src, dst),)
                plan = resolver.plan(moves, d1, d2)
                if not plan:
                    continue
                me, opp = list(pos.me), list(pos.opp)
                if play_plan(me, opp, plan, None) is not None:
                    continue   # the written order plays: not this case
                alt = other_order_plan(plan)
                assert alt and alt[0][1] == plan[1][1] and alt[1][1] == plan[0][1]
                hits = play_plan(me, opp, alt, None)
                res = resolve_play(pos, moves, d1, d2)
                if hits is None:
                    assert (me, opp) == (list(pos.me), list(pos.opp))
                    assert not res.legal
                    refused += 1
                    continue
                taken += 1
                assert res.legal and res.dice_used == 2
                assert res.position == board.Position(tuple(me), tuple(opp))
                assert steps_of_plan(alt, hits) == res.steps
    assert taken > 200 and refused > 200, (taken, refused)


def _rows_columns_check(match, at: dict) -> int:
    """Every action's row (``at``: by game number and seq) holds the
    table's columns, in its order, and its analysis columns are those of
    the action's whole analysis mapping (nulls without one): a reader's
    lazy analysis gives the rows its figures without making the mapping
    (``LazyAnalysis.figures``), here made whole and read as a plain dict.
    The actions with analysis so checked."""
    from types import SimpleNamespace
    from gamao_cli.formats.base import LazyAnalysis
    from gamao_cli.tables.rows import _analysis
    from gamao_cli.tables.schema import ANALYSIS, TABLES
    columns = [c.name for c in TABLES["actions"]]
    analysed = 0
    for game in match.games:
        for seq, a in enumerate(game.actions, 1):
            row = at[(game.number, seq)]
            assert list(row) == columns
            source = getattr(a, "analysis", None)
            if isinstance(source, LazyAnalysis):
                source = source.copy()
            expected = _analysis(SimpleNamespace(analysis=source))
            assert {c.name: row[c.name] for c in ANALYSIS} == expected
            analysed += any(v is not None for v in expected.values())
    return analysed


def _rows_reference_check(match) -> int:
    """An export's rows against the functions they stand for: the match id
    is :func:`match_id` (the hash of :func:`canonical_text`), and the IDs
    and pips of every action with a snapshot are the snapshot's IDs and its
    position's :meth:`pip_count`. The actions so checked."""
    from gamao_cli.replay.snapshots import snapshots
    from gamao_cli.tables.rows import match_id, match_rows
    report = validate_match(match, keep_records=True)
    rows = match_rows(match, path="x", index=0, fmt="mat")
    mid = match_id(match, report)
    assert rows.match["match_id"] == mid
    assert {r["match_id"] for r in rows.actions + rows.games} <= {mid}
    by_action = {}
    for game in match.games:
        for seq, a in enumerate(game.actions, 1):
            by_action[id(a)] = (game.number, seq)
    at = {(r["game"], r["seq"]): r for r in rows.actions}
    _rows_columns_check(match, at)
    checked = 0
    for s in snapshots(match, report):
        row = at[by_action[id(s.action)]]
        try:
            ids = (s.position_id, s.match_id, s.xgid)
        except ValueError:
            ids = (None, None, None)
        assert (row["position_id"], row["match_id_gnubg"], row["xgid"]) == ids, row
        mine, theirs = s.position.pip_count()
        assert (row["pips0"], row["pips1"]) == ((mine, theirs) if s.state.on_roll == 0
                                                 else (theirs, mine)), row
        checked += 1
    return checked


def test_export_rows_give_the_reference_ids_pips_and_match_id():
    checked = 0
    for path in local_match_files():
        for match in read_matches(read(path)):
            checked += _rows_reference_check(match)
    assert checked > 1000


@needs_corpus
def test_export_rows_give_the_reference_ids_pips_and_match_id_on_the_corpus():
    from conftest import corpus_sample
    checked = 0
    for path in corpus_sample(bulk_step=3):
        try:
            matches = read_matches(read(path))
        except Exception:   # a file the corpus holds because it is unreadable
            continue
        for match in matches:
            checked += _rows_reference_check(match)
    assert checked > 60_000


@pytest.mark.skipif(not CORPUS2.is_dir(), reason=f"the second corpus is not at {CORPUS2}")
def test_export_rows_hold_the_records_analysis_on_the_second_corpus():
    """The rows' columns (above) on the files of ../shared/corpus2 that
    carry analysis, of every reader that has it (GNU Backgammon's SGF, every
    sixth, and text exports, eXtreme Gammon's and BGBlitz's files)."""
    from gamao_cli.errors import GamaoError
    from gamao_cli.formats import members
    from gamao_cli.tables.rows import match_rows
    checked = analysed = 0
    files = sorted((CORPUS2 / "analysed").glob("*.sgf"))[::6]
    for folder in ("gnubg-text", "xg", "bgf"):
        files += sorted((CORPUS2 / folder).rglob("*"))
    for p in files:
        if p.is_file() and p.suffix.lower() not in (".json", ".md", ".tsv", ".csv"):
            try:
                matches = members.read_path(str(p))
            except GamaoError:
                continue
            for match in matches:
                rows = match_rows(match, path="x", index=0, fmt="x")
                analysed += _rows_columns_check(
                    match, {(r["game"], r["seq"]): r for r in rows.actions})
                checked += len(rows.actions)
    assert checked > 8_000 and analysed > 5_000, (checked, analysed)
