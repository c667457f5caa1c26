"""The validator: mutations of a real GNU Backgammon match, each caught on its
line; self-play matches validate clean; real producers' quirks are no errors."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import EXAMPLES, SELFPLAY, corpus_match_files, needs_corpus, read
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.replay.replay import validate_match

BASE = (EXAMPLES / "gnubg-selfplay-5pt.mat").read_text()
BASE_LINES = BASE.split("\n")


def mutate(line_no: int, old: str, new: str) -> str:
    """Replace text on one line (1-based) of the base match, or insert a line
    before it when ``old`` is None."""
    lines = list(BASE_LINES)
    if old is None:
        lines.insert(line_no - 1, new)
    else:
        assert old in lines[line_no - 1], (line_no, lines[line_no - 1])
        lines[line_no - 1] = lines[line_no - 1].replace(old, new, 1)
    return "\n".join(lines)


def diagnostics(text: str):
    [match] = read_matches(text, "m.mat")
    return validate_match(match).diagnostics


def test_the_base_match_is_clean():
    assert diagnostics(BASE) == []


MUTATIONS = [
    # (what, line, old text, new text, code)
    ("wrong distance", 9, "63: 25/22 13/7", "63: 25/22 13/8", "GM202"),
    ("blocked point", 7, "53: 24/21 21/16*", "53: 24/19 24/21", "GM203"),
    ("ignoring the bar", 8, "21: 25/23 6/5", "21: 13/11 6/5", "GM204"),
    ("a die left unplayed", 9, "63: 25/22 13/7", "63: 25/22", "GM210"),
    ("a step too many", 9, "63: 25/22 13/7", "63: 25/22 13/7 7/4", "GM207"),
    ("bearing off from outside home", 13, "62: 13/11 13/7", "62: 6/0 13/11", "GM205"),
    ("an opening double", 7, "41: 13/9 24/23              53: 24/21 21/16*",
     "44: 24/20 24/20 13/9 13/9 53: 24/21 13/8", "GM201"),
    ("a dance while a play exists", 9, "41: 13/9 10/9", "41:", "GM212"),
    ("no checker on the source point", 9, "63: 25/22 13/7", "63: 25/22 12/6", "GM208"),
    ("a backwards step", 9, "63: 25/22 13/7", "63: 25/22 7/13", "GM209"),
    ("a wrong Wins N", 19, "Wins 1 point", "Wins 2 points", "GM401"),
    ("a wrong score line", 22, "Player_1 : 1", "Player_1 : 2", "GM402"),
    ("a take with no double", 41, " Doubles => 2                Takes", " Takes", "GM303"),
    ("a double by the player who does not own the cube", 47, None,
     " 15)  Doubles => 4                Takes", "GM301"),
    ("a double in the Crawford game", 3, " 5 point match", " 2 point match", "GM302"),
    ("a wrong cube value", 41, "Doubles => 2", "Doubles => 4", "GM306"),
]


@pytest.mark.parametrize("what, line, old, new, code", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_each_mutation_is_caught_on_its_line(what, line, old, new, code):
    found = diagnostics(mutate(line, old, new))
    where = {"GM302": 28}.get(code, line)  # the Crawford game's double stands on line 28
    # GM215 (the rest of the game cannot be replayed) may join a play that
    # cannot be applied at all; nothing else may.
    on_line = [d for d in found if d.line == where and d.code != "GM215"]
    assert [d.code for d in on_line] == [code], [d.format_text() for d in found]
    earlier = [d for d in found if d.line is not None and d.line < where and d.severity == "error"]
    assert earlier == []
    d = on_line[0]
    assert d.message and d.game is not None and d.path == "m.mat"


def test_illegal_play_names_dice_play_and_legal_alternatives():
    text = mutate(9, "63: 25/22 13/7", "63: 25/22 13/8")
    [d] = [d for d in diagnostics(text) if d.line == 9]
    assert (d.dice, d.play, d.player, d.move, d.game) == ("63", "25/22 13/8", "Player_1", 3, 1)
    assert d.column == text.split("\n")[8].index("13/8") + 1
    assert d.message == "25/22 13/8 with 6-3: 13/8 moves 5 pips, but no die shows 5"
    assert 1 <= len(d.legal) <= 5 and "bar/22 13/7" in d.legal


def test_replay_goes_on_after_an_illegal_play():
    """Two independent mistakes in one game: both are reported."""
    text = mutate(9, "63: 25/22 13/7", "63: 25/22 13/8")
    text = text.replace("Wins 1 point", "Wins 3 points", 1)
    assert [d.code for d in diagnostics(text)] == ["GM202", "GM401"]


def test_final_score_and_winner():
    [match] = read_matches(BASE)
    report = validate_match(match)
    assert report.final_score == (1, 9) and report.winner == 1
    assert [(g.winner, g.points, g.ended) for g in report.games] == \
        [(0, 1, "drop"), (1, 1, "drop"), (1, 8, "resign")]   # gnubg resigned a gammon


def test_games_after_the_match_is_won_are_flagged():
    extra = BASE + "\n Game 4\n Player_1 : 1                   Player_2 : 9\n  1) 31: 8/5 6/5\n"
    codes = [d.code for d in diagnostics(extra)]
    assert "GM403" in codes


# -- self-play and real files --------------------------------------------------

def selfplay_mats():
    return sorted(SELFPLAY.glob("*.mat"))


def test_selfplay_matches_validate_without_any_diagnostic():
    files = selfplay_mats() + [EXAMPLES / "gnubg-selfplay-5pt.mat", EXAMPLES / "gnubg-selfplay-money.mat"]
    for path in files:
        for match in read_matches(path.read_text(), str(path)):
            report = validate_match(match)
            assert report.diagnostics == [], [d.format_text() for d in report.diagnostics]


@needs_corpus
def test_real_producers_quirks_are_not_errors():
    """Backgammon Galaxy and Backgammon Studio quirks: no error, ever.

    The only real files with errors are the ones checked by hand and listed
    here (true illegal plays in real records)."""
    known = {
        "samples__mat__5nqfGw9bWG3deTaU.mat": {"GM207"},        # the deliberate illegal play
        "samples__mat__hQ8sVn2LbTdF4wRm.mat": {"GM209", "GM202"},
    }
    seen: dict[str, set[str]] = {}
    infos: set[str] = set()
    for path in corpus_match_files():
        for match in read_matches(read(path), str(path)):
            ds = validate_match(match).diagnostics
            errors = {d.code for d in ds if d.severity == "error"}
            infos |= {d.code for d in ds if d.severity == "info"}
            if errors:
                seen[path.name] = seen.get(path.name, set()) | errors
    assert seen == known
    # the quirks are recognised for what they are
    assert {"GM408", "GM409", "GM410", "GM411", "GM412"} <= infos


# -- results against GNU Backgammon ---------------------------------------------

def _gnubg_results(paths):
    """What GNU Backgammon (the gnubg wheel, in a subprocess) makes of files."""
    import json
    import subprocess
    import sys

    pytest.importorskip("gnubg", reason="the gnubg wheel is not installed (pip install gnubg)")
    script = Path(__file__).parent / "gnubg_scripts" / "dump_mat.py"
    p = subprocess.run([sys.executable, str(script), *map(str, paths)], capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)


@pytest.mark.gnubg
def test_selfplay_results_equal_gnubg():
    paths = selfplay_mats() + [EXAMPLES / "gnubg-selfplay-5pt.mat", EXAMPLES / "gnubg-selfplay-money.mat"]
    assert len(paths) >= 12
    theirs = _gnubg_results(paths)
    for path in paths:
        [match] = read_matches(path.read_text(), str(path))
        report = validate_match(match)
        g = theirs[str(path)]
        assert len(report.games) == len(g["games"]), path
        for ours, gn in zip(report.games, g["games"]):
            assert list(ours.score_before) == gn["score"], (path, ours.number)
            assert ours.winner == gn["winner"], (path, ours.number)
            assert ours.points == gn["points"], (path, ours.number)
            assert (ours.ended in ("resign", "time")) == gn["resigned"], (path, ours.number)
        last = g["games"][-1]
        final = list(last["score"])
        final[last["winner"]] += last["points"]
        assert list(report.final_score) == final, path


# -- rules read from the record's tags --------------------------------------------

def _one_game(body: str, length: int = 0, tags: str = "") -> str:
    return f"{tags}\n {length} point match\n\n Game 1\n Ann : 0                        Bob : 0\n{body}"


def test_beaver_in_a_money_session_is_fine_and_counts():
    text = _one_game("  1) 31: 8/5 6/5                 61: 13/7 8/7\n"
                     "  2)  Doubles => 2                Beavers => 4\n"
                     "  3)  Takes                       Drops\n", tags='; [Beaver "On"]')
    # Bob beavers (cube 4, his), Ann takes; then Bob "Drops": nothing to answer
    codes = [d.code for d in diagnostics(text) if d.severity == "error"]
    assert codes == ["GM303"]


def test_beaver_in_a_match_is_an_error():
    text = _one_game("  1) 31: 8/5 6/5                 61: 13/7 8/7\n"
                     "  2)  Doubles => 2                Beavers => 4\n"
                     "  3)  Drops\n"
                     "                                  Wins 2 points\n", length=5)
    ds = diagnostics(text)
    assert [d.code for d in ds if d.severity == "error"] == ["GM305"]
    [match] = read_matches(text)
    assert validate_match(match).games[0].points == 2   # the beaver's value before its redouble


def test_nackgammon_starts_from_its_own_position():
    text = _one_game("  1) 31: 23/20 6/5                61: 13/7 8/7\n", length=3,
                     tags='; [Variation "Nackgammon"]')
    ds = diagnostics(text)
    assert [d.code for d in ds if d.severity == "error"] == []
    # the same play in standard backgammon has no checker on 23
    plain = text.replace('; [Variation "Nackgammon"]', "")
    assert "GM208" in [d.code for d in diagnostics(plain)]


def test_unknown_variant_is_a_clear_error():
    text = _one_game("  1) 31: 8/5 6/5\n", length=3, tags='; [Variation "Tavla"]')
    [d] = diagnostics(text)
    assert d.code == "GM005" and "Tavla" in d.message


def test_no_cube_rule():
    text = _one_game("  1) 31: 8/5 6/5                 61: 13/7 8/7\n"
                     "  2)  Doubles => 2                Drops\n      Wins 1 point\n",
                     length=5, tags='; [CubeLimit "1"]')
    assert [d.code for d in diagnostics(text) if d.severity == "error"] == ["GM307"]


def test_a_beaver_followed_by_the_doublers_roll_is_accepted():
    """GNU Backgammon's match files write no take after a beaver."""
    text = _one_game("  1) 31: 8/5 6/5                 61: 13/7 8/7\n"
                     "  2)  Doubles => 2                Beavers => 4\n"
                     "  3) 62: 13/7 13/11\n", tags='; [Beaver "On"]')
    assert [d.code for d in diagnostics(text) if d.severity != "info"] == []
    [match] = read_matches(text)
    assert validate_match(match).games[0].cube == 4


@pytest.mark.parametrize("body, column, message", [
    ("  1) 31: 8/5 6/5                 62: 24/18 12/10\n", 34,
     "the rest of game 1 cannot be replayed after 62: 24/18 12/10; its stated result is used"),
    ("  1) 31: 8/5 0/1\n", 6,
     "the rest of game 1 cannot be replayed after 31: 8/5 0/1; its stated result is used"),
    ("  1) 45: 999/995 6/1\n", 6,
     "the rest of game 1 cannot be replayed after 45: 999/995 6/1; its stated result is used"),
    ("  1) 31: Illegal play (xyz)\n", 6,
     "31: Illegal play (xyz): the record sets a position gamao cannot replay; the rest of the "
     "game is not checked"),
], ids=["no checker", "from off", "no such point", "illegal-play marker"])
def test_a_game_that_cannot_be_replayed_says_so_once(body, column, message):
    """Whatever stops the replay, GM215 comes once, where it stopped; the
    rest of the game (another marker, a play from off) is not checked."""
    text = (" 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n" + body
            + "  2) 31: Illegal play (abc)\n  3) 62: 0/4 13/7\n      Wins 1 point\n")
    found = diagnostics(text)
    assert [(d.line, d.column, d.message) for d in found if d.code == "GM215"] == \
        [(5, column, message)]
    assert not [d for d in found if d.line and d.line > 5 and d.code.startswith("GM2")
                and d.code != "GM213"]


# -- every message is a template of the message table and its fields ---------------

CELLS = ["Doubles => 2", "Doubles => 4", "Takes", "Drops", "Beavers => 4", "Raccoons => 8",
         "Wins 1 point", "Wins 3 points", "Wins 6 points and the match", "Resigns", "61: ????",
         "55:", "Losses 1 point", "64: bar/21 13/7", "66: 24/off", "31: 0/3", "42: 30/26",
         "11: 24/23 24/23 6/5(2)", "43: 6/2* 6/3"]
TAGS = ['; [Variation "Nackgammon"]', '; [Variation "Tavla"]', '; [Jacoby "On"]',
        '; [Crawford "Off"]', '; [CubeLimit "1"]', '; [Beaver "Off"]']


def mutated_records(n: int, seed: int) -> list[str]:
    """Records broken at random (digits, dice, cells, tags, the match length)."""
    import random
    import re
    rng = random.Random(seed)
    files = sorted(SELFPLAY.glob("*.mat")) + sorted(EXAMPLES.glob("*.mat"))
    out = []
    for _ in range(n):
        lines = rng.choice(files).read_text().split("\n")
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(lines))
            op = rng.randrange(6)
            if op == 0 and re.search(r"\d", lines[i]):
                j = rng.choice([k for k, c in enumerate(lines[i]) if c.isdigit()])
                lines[i] = lines[i][:j] + rng.choice("0123456789") + lines[i][j + 1:]
            elif op == 1:
                lines.insert(i, f"  {rng.randint(1, 30)}) {rng.choice(CELLS)}   "
                                f"{rng.choice(CELLS)}")
            elif op == 2:
                lines[i] = re.sub(r"Wins \d+", f"Wins {rng.randint(1, 9)}", lines[i])
            elif op == 3:
                lines.insert(min(2, len(lines)), rng.choice(TAGS))
            elif op == 4:
                lines[i] = re.sub(r"\d+ point match", f"{rng.choice([0, 1, 3])} point match",
                                  lines[i])
            else:
                del lines[i]
        out.append("\n".join(lines))
    return out


def _from_json(fields: dict):
    from gamao_cli.messages import Msg
    return {k: Msg(v["key"], _from_json(v["fields"])) if isinstance(v, dict) else v
            for k, v in fields.items()}


def test_every_diagnostic_is_its_message_template_filled_with_its_fields():
    import jsonschema

    from gamao_cli.errors import GamaoError
    from gamao_cli.messages import MESSAGES, render

    schema = json.loads((Path(__file__).resolve().parents[1] / "gamao_cli" / "schemas" /
                         "validate.schema.json").read_text())["$defs"]["diagnostic"]
    keys = set()
    for text in mutated_records(150, seed=11) + [BASE]:
        try:
            matches = read_matches(text, "m.mat")
        except GamaoError:
            continue
        for match in matches:
            for d in validate_match(match).diagnostics:
                assert d.key in MESSAGES, d.key
                assert d.message == render(d.key, d.fields)
                doc = d.to_dict()
                jsonschema.validate(doc, schema)
                assert json.loads(json.dumps(doc))["fields"] == doc["fields"]
                # what a translation needs: the key and the JSON fields say it all
                assert render(d.key, _from_json(doc["fields"])) == d.message
                keys.add(d.key)
    codes = {k.split(".")[0] for k in keys}
    assert len(codes) >= 30, sorted(codes)
    assert {"GM202", "GM203", "GM204", "GM205", "GM206", "GM207", "GM208", "GM209", "GM213",
            "GM301", "GM303.take", "GM303.no-beaver", "GM401.single-one", "GM402"} <= keys


def test_every_message_key_the_replay_and_the_rules_use_is_in_the_table():
    import ast
    import re

    import gamao_cli
    from gamao_cli.messages import CODES, MESSAGES

    pattern = re.compile(r"(GM\d{3}(\.[\w+-]+)?|rules\.[\w.-]+|player\.\w+|input(\.[\w-]+)?)")
    root = Path(gamao_cli.__file__).parent
    found = set()
    for path in [*root.glob("rules/*.py"), *root.glob("replay/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    pattern.fullmatch(node.value):
                found.add(node.value)
    assert len(found) > 60
    # a code is a key unless its messages are variants of it ("GM303.take"); the
    # codes of unreadable files (GM001-GM004, GM006, GM007) take the reader's sentence;
    # the beginnings of keys made from parts are checked below
    unreadable = {"GM001", "GM002", "GM003", "GM004", "GM006", "GM007"}
    assert sorted(k for k in found if k not in MESSAGES and k not in unreadable
                  and not k.endswith(("-", "."))
                  and not (k in CODES and any(m.startswith(k + ".") for m in MESSAGES))) == []
    # the keys made from parts
    dynamic = ([f"GM401.{o}{one}" for o in ("single", "gammon", "backgammon", "drop")
                for one in ("", "-one")] + ["GM408.gammon", "GM408.backgammon",
                                            "GM303.no-double", "GM303.no-beaver",
                                            "GM008.internal-reading", "GM008.internal-checking",
                                            "GM008.internal-converting",
                                            "GM008.internal-summarising"]
               + [f"GM210{v}" for v in ("", ".one-used", ".one-left", ".one-used-one-left")])
    assert [k for k in dynamic if k not in MESSAGES] == []
