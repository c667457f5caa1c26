"""SGF (GNU Backgammon's GM[6] dialect): the grammar, the reader, the writer.

Fast, without GNU Backgammon: the grammar's edge cases, the reader's mapping
(checked against gnubg's own ``.mat`` and ``.sgf`` exports of the same
self-play matches in ``tests/data/selfplay``), the real SGF files of the
corpus, gamao's private properties, and the round trip ``mat -> SGF ->
model`` for every match file of the self-play set and the corpus (a sample of
``bulk/``; all of it with ``-m slow``): exact as gamao reads it, and as other
programs see it (the private properties removed) the same games less the
cells only gamao keeps. ``test_sgf_gnubg.py`` loads the SGF into GNU
Backgammon.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from conftest import CORPUS, SELFPLAY, corpus_sample, needs_corpus, read
from gamao_cli import model as m
from gamao_cli.rules import apply_step, start_position
from gamao_cli import convert as convert_to
from gamao_cli.formats.mat.writer import write_canonical as to_mat
from gamao_cli.errors import NotAMatchFile, SyntaxProblem
from gamao_cli.formats import parse_text as load_text
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.model import play_shape
from gamao_cli.analysis.decisions import decisions_of
from gamao_cli.formats.sgf.reader import letter_point, parse_trees, point_letter, read_sgf, unescape
from gamao_cli.formats.sgf.writer import write_sgf as convert
from gamao_cli.replay.replay import Rules, validate_match

HEAD = "(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:7][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[Crawford]"


def one_game(body: str, head: str = HEAD, result: str = "") -> m.Game:
    [match] = read_sgf(head + result + body + ")", "t.sgf")
    [game] = match.games
    return game


def selfplay_pairs() -> list[Path]:
    return sorted(SELFPLAY.glob("m*.sgf"))


needs_selfplay = pytest.mark.skipif(
    not selfplay_pairs(), reason=f"no self-play pairs in {SELFPLAY} (see its README.md)")


# ------------------------------------------------------------------ grammar

def test_escaped_brackets_and_backslashes_in_values():
    [tree] = parse_trees(r"(;GM[6]C[a \] b \\ c \x]PW[back\\])")
    node = tree.nodes[0]
    assert node["C"].value == "a ] b \\ c x"
    assert node["PW"].value == "back\\"


def test_soft_line_breaks_and_line_ends_in_text_and_simple_text():
    [tree] = parse_trees("(;GM[6]C[one\\\ntwo\nthree\r\nfour]PW[Ann\nLee])")
    node = tree.nodes[0]
    assert node["C"].value == "onetwo\nthree\nfour"     # Text keeps line ends
    assert node["PW"].value == "Ann Lee"                # SimpleText: a space
    assert unescape("[a\tb]") == "a b"


def test_multi_value_properties_with_whitespace_and_newlines_between():
    text = ("\n  ( ;\tGM [6]\r\n MI[length:5]  [game:2]\n[ws:1]\n\t[bs:3]\n"
            "PW[Ann]PB[Bob]\n ;\n W\n[31hefe]\n)\n\n")
    [match] = read_sgf(text)
    assert match.length == 5
    g = match.games[0]
    assert g.number == 3 and g.score.scores == (1, 3)
    assert g.actions[0].text() == "31: 8/5 6/5"


def test_repeated_property_values_add_up_and_ff3_identifiers():
    [tree] = parse_trees("(;GM[6]AW[a][b]AW[c];PlayerWhite[Ann])")
    assert tree.nodes[0]["AW"].values == ["a", "b", "c"]
    assert tree.nodes[1]["PW"].value == "Ann"


def test_unknown_properties_are_skipped_and_the_analysis_kept_as_written():
    text = (HEAD + "GS[M:1 2][C:3]\n;W[31hefe]A[0][hefe E ver 3 0.5 0C 0 1 0.0 1]LU[0.1]"
            "MR[]ZZ[x\\]y]DA[1];B[62agln]BM[2]DO[1]GB[1]GW[1]BC[1]DC[1]CR[1])")
    [tree] = parse_trees(text)
    assert set(tree.nodes[1]) == {"W", "A", "LU", "DA"}
    assert set(tree.nodes[2]) == {"B", "BM", "DO", "GB", "GW", "BC", "DC"}
    assert "GS" not in tree.nodes[0]
    actions = read_sgf(text)[0].games[0].actions
    assert len(actions) == 2
    # the A and DA values here are cut short: what can be read is (the luck)
    first = decisions_of(actions[0])
    assert first.checker is None and first.cube is None and first.luck.value == 0.1
    # marks without a figure say nothing gamao can count
    assert decisions_of(actions[1]) is None


def test_variations_follow_the_main_line():
    text = HEAD + ";W[31hefe](;B[62agln];W[42hdfd])(;B[11abab]))"
    [match] = read_sgf(text)
    assert [a.text() for a in match.games[0].actions] == [
        "31: 8/5 6/5", "62: 24/18 13/11", "42: 8/4 6/4"]


@pytest.mark.parametrize("text, message, line, column", [
    ("(;GM[6]PW[Ann;W(31hefe)\n", "not closed", 1, 10),
    ("(;GM[6]\nPW[Ann]\n;W[31hefe]", "ends inside a game tree", 3, 11),
    ("(;GM[6]PW[Ann])?", "not SGF", 1, 16),
    ("(;GM[6]PW[Ann])x", "must stand in a node", 1, 16),
    ("(;GM[6]PW[Ann])(PB[Bob])", "must stand in a node", 1, 17),
    ("(;[Ann])", "must follow a property name", 1, 3),
])
def test_syntax_errors_name_line_and_column(text, message, line, column):
    with pytest.raises(SyntaxProblem) as exc:
        read_sgf(text, "bad.sgf")
    e = exc.value
    assert message in e.message and (e.line, e.column) == (line, column), e.describe()
    assert e.path == "bad.sgf"


def test_not_sgf_and_other_games_are_not_match_files():
    with pytest.raises(NotAMatchFile):
        read_sgf(" 7 point match\n", "x.mat")
    with pytest.raises(NotAMatchFile, match="GM\\[1\\]"):
        read_sgf("(;FF[4]GM[1]SZ[19];B[dd])", "go.sgf")


def test_bad_move_values_are_syntax_problems():
    for body in (";W[31hef]", ";W[hello]", ";W[31zefe]", ";W[31hyfe]", ";W[]"):
        with pytest.raises(SyntaxProblem, match="game 1"):
            one_game(body)


def test_a_large_analysed_file_reads_quickly():
    path = max(selfplay_pairs() or [Path("/nonexistent")], key=lambda p: p.stat().st_size
               if p.exists() else 0)
    if not path.exists():
        pytest.skip("no self-play SGF")
    text = path.read_text("utf-8")
    read_sgf(text)  # build the parser first
    t0 = time.perf_counter()
    read_sgf(text)
    elapsed = time.perf_counter() - t0
    assert elapsed < 0.1 + len(text) / 1e6, f"{len(text)} chars in {elapsed:.2f}s"


# ------------------------------------------------------------------ reader

def test_letters_are_whites_points_and_blacks_count_the_other_way():
    assert [letter_point(c, 0) for c in "ahxyz"] == [1, 8, 24, 25, 0]
    assert [letter_point(c, 1) for c in "ahxyz"] == [24, 17, 1, 25, 0]
    for p in range(26):
        for player in (0, 1):
            assert letter_point(point_letter(p, player), player) == p


def test_moves_are_in_the_movers_numbering_with_hits_from_the_replay():
    # the opening of tests/data/selfplay/m0001 (gnubg: "42: 6/4* 8/4")
    g = one_game(";B[32adln];W[42fdhd];B[22yblnsusu];W[64mgga]")
    a, b, c, d = g.actions
    assert (a.player, a.text()) == (1, "32: 24/21 13/11")
    assert (b.player, b.text()) == (0, "42: 6/4* 8/4")
    assert c.text() == "22: 25/23 13/11 6/4 6/4"
    assert d.text() == "64: 13/7 7/1*"      # Black's last checker on its 24-point
    assert [s.hits for s in b.moves] == [(True,), (False,)]
    assert all(s.bar == "25" and s.off == "0" for x in (a, b, c, d) for s in x.moves)


def test_dance_cube_actions_beaver_and_raccoon():
    g = one_game(";W[31hefe];B[66];W[double];B[take];B[double];W[double];B[double];W[drop]",
                 head=HEAD.replace("length:7", "length:0").replace("RU[Crawford]", ""))
    kinds = [(type(a).__name__, a.player, getattr(a, "value", None), getattr(a, "kind", None))
             for a in g.actions]
    assert kinds == [("Play", 0, None, None), ("Dance", 1, None, None),
                     ("Double", 0, 2, "double"), ("Take", 1, None, None),
                     ("Double", 1, 4, "double"), ("Double", 0, 8, "beaver"),
                     ("Double", 1, 16, "raccoon"), ("Drop", 0, None, None)]


def test_a_beaver_as_gnubg_writes_it_validates():
    # gnubg 1.07's SGF of a beaver; its .mat export leaves out the take
    head = HEAD.replace("length:7", "length:0").replace("RU[Crawford]", "RU[Jacoby]")
    g = one_game(";W[31hefe];B[62agln];W[double];B[double];W[take];W[52mkmh];B[21lnst]",
                 head=head, result="RE[B+4R]")
    assert [a.text() for a in g.actions[2:5]] == ["Doubles => 2", "Beavers => 4", "Takes"]
    match = m.Match(0, [g], [m.Tag("Jacoby", "On"), m.Tag("Beaver", "On")])
    report = validate_match(match)
    assert report.diagnostics == [] and report.games[0].cube == 4


def test_result_becomes_the_last_action_and_keeps_its_position():
    g = one_game(";W[31hefe];B[double];W[drop]", result="RE[B+1]")
    win = g.actions[-1]
    assert isinstance(win, m.Win) and (win.player, win.points, win.match) == (1, 1, False)
    assert (win.line, win.column) == (1, len(HEAD) + 1)
    g = one_game(";W[31hefe]", result="RE[W+6R]XR[and the match]")
    assert g.actions[-1] == m.Win(0, 6, True)
    g = one_game(";W[31hefe]", result="RE[B+R]")
    assert not any(isinstance(a, m.Win) for a in g.actions) and g.comments == ["result: B+R"]


def test_every_action_has_the_line_and_column_of_its_property():
    g = one_game("\n;W[31hefe]\n ;B[double]\n;W[take]")
    assert [(a.line, a.column) for a in g.actions] == [(2, 2), (3, 3), (4, 2)]
    assert [(s.line, s.column) for s in g.actions[0].moves] == [(2, 6), (2, 8)]


def test_move_numbers_follow_the_match_file_layout():
    g = one_game(";B[32adln];W[42fdhd];W[double];B[take];B[11abab]")
    assert [a.move_number for a in g.actions] == [1, 2, 3, 3, 4]


def test_games_matches_scores_and_match_wide_information():
    text = (
        "(;FF[4]GM[6]AP[GNU Backgammon:1.07]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]"
        "WR[1500]BR[1600]DT[2024-05-01]EV[Open]RO[Final]PC[Oslo]AN[Tim]GC[first\\]\nsecond]"
        "RU[Crawford]RE[W+2];W[31hefe])\n"
        "(;FF[4]GM[6]MI[length:3][game:1][ws:2][bs:0]PW[Ann]PB[Bob]RU[Crawford:CrawfordGame]"
        "RE[B+1];B[31hefe])\n"
        "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[Cy]PB[Di]RU[Jacoby];W[31hefe])\n"
        "(;FF[4]GM[6]MI[length:0][game:1][ws:0][bs:0]PW[Cy]PB[Di];W[31hefe])\n"
        "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[Ed]PB[Flo]RU[NoCube:Nackgammon];W[31hefe])\n")
    a, b, c = read_sgf(text, "x.sgf")
    assert (a.length, a.players, [g.number for g in a.games]) == (3, ("Ann", "Bob"), [1, 2])
    assert a.games[1].score == m.ScoreLine(("Ann", "Bob"), (2, 0))
    assert [(t.name, t.value) for t in a.tags] == [
        ("Site", "Oslo"), ("Event", "Open"), ("Round", "Final"), ("Player 1 Elo", "1500"),
        ("Player 2 Elo", "1600"), ("EventDate", "2024.05.01"), ("Transcriber", "Tim")]
    # RU[Crawford] is a match's default: no tag says it
    assert a.comments == ["; first]", "; second"]
    assert (b.length, b.players, len(b.games), b.tag("Jacoby")) == (0, ("Cy", "Di"), 2, "On")
    assert b.games[1].score.names == ("Cy", "Di")
    assert (c.tag("Variation"), c.tag("CubeLimit"), c.tag("Jacoby")) == ("NackGammon", "1", "Off")
    rules = Rules.from_match(c)
    assert (rules.variant, rules.cube) == ("nackgammon", False)
    assert all(mt.path == "x.sgf" for mt in (a, b, c))


@pytest.mark.parametrize("ru, ap, length, tags", [
    ("RU[Crawford]", "", 5, {}),                           # the default of a match
    ("RU[]", "", 5, {"Crawford": "Off"}),
    ("", "", 5, {}),                                       # says nothing
    ("", "AP[GNU Backgammon:1.07.001]", 5, {"Crawford": "Off"}),   # gnubg writes rules that are on
    ("", "AP[GNU Backgammon:1.07.001]", 0, {"Jacoby": "Off"}),
    ("RU[Jacoby]", "", 0, {"Jacoby": "On"}),
    ("RU[Hypergammon2]", "", 0, {"Variation": "HyperGammon2", "Jacoby": "Off"}),
])
def test_rules_become_tags_the_validator_reads(ru, ap, length, tags):
    [match] = read_sgf(f"(;GM[6]{ap}MI[length:{length}][game:0][ws:0][bs:0]{ru};W[21])")
    assert {t.name: t.value for t in match.tags} == tags


def test_comments_are_kept_with_the_action_they_belong_to():
    g = one_game(";B[32adln]C[nice];W[42fdhd]C[ouch\\]];W[double];B[take]C[brave]"
                 ";PL[B]C[after the take]",
                 result="C[about the game]")
    assert g.comments == ["about the game", "move 1 B: nice", "move 2 W: ouch]",
                          "move 3 B: brave", "move 3 B: after the take"]


def test_setup_nodes_at_the_start_are_accepted_when_they_set_the_start_position():
    white = "".join(f"[{c}]" for c in "fffffhhhmmmmmxx")
    black = "".join(f"[{c}]" for c in "sssssqqqlllllaa")
    g = one_game(f";PL[W]DI[31]CV[1]CP[c];AE[a:y]AW{white}AB{black};W[31hefe]")
    assert [a.text() for a in g.actions] == ["31: 8/5 6/5"]
    # AW/AB may come in any order, a point list may be a range
    g = one_game(f";AB{black}AE[a:x][y]AW{white};W[31hefe]")
    assert len(g.actions) == 1


def test_a_first_game_set_up_as_another_variant_sets_the_variation():
    nack = start_position("nackgammon")
    white = "".join(f"[{point_letter(p, 0)}]" * nack.me[p] for p in range(1, 25))
    black = "".join(f"[{point_letter(p, 1)}]" * nack.opp[p] for p in range(1, 25))
    head = HEAD.replace("RU[Crawford]", "")
    [match] = read_sgf(head + f";AE[a:y]AW{white}AB{black};W[31hefe])")
    assert match.tag("Variation") == "NackGammon"
    assert Rules.from_match(match).variant == "nackgammon"


@pytest.mark.parametrize("body, message", [
    (";AE[a:y]AW[a]AB[x];W[31hefe]", "set-up position"),
    (";CV[2];W[31hefe]", "cube"),
    (";CP[w];W[31hefe]", "owner"),
    (";W[31hefe];AE[f]", "middle of the game"),
    (";AE[b:a]", "range"),
])
def test_setups_the_model_cannot_hold_are_clear_errors(body, message):
    with pytest.raises(SyntaxProblem, match=message) as exc:
        one_game(body)
    assert exc.value.line == 1 and exc.value.column > 1


def test_a_setup_equal_to_the_position_in_the_middle_is_harmless():
    after, _hit = apply_step(apply_step(start_position(), 8, 5)[0], 6, 5)
    white = "".join(f"[{point_letter(p, 0)}]" * after.me[p] for p in range(1, 25))
    black = "".join(f"[{point_letter(p, 1)}]" * after.opp[p] for p in range(1, 25))
    g = one_game(f";W[31hefe];AE[a:y]AW{white}AB{black}CV[1];B[62agln]")
    assert len(g.actions) == 2


def test_gibbon_resignation_nodes():
    g = one_game(";W[31hefe];B[resign:2];W[reject];B[resign:2];W[accept]", result="RE[W+2Resign]")
    assert [type(a).__name__ for a in g.actions] == ["Play", "Resign", "Win"]
    assert g.actions[1].player == 1 and g.actions[2] == m.Win(0, 2)


def test_loading_recognises_sgf_by_its_content():
    [match] = load_text("\n  (;GM[6]MI[length:1][game:0][ws:0][bs:0];W[31hefe])", "a.txt")
    assert match.length == 1 and match.path == "a.txt"


# ------------------------------------------------------------------ gnubg's pairs

def same_record(a: m.Match, b: m.Match) -> None:
    """Length, players and every game (number, score line, actions) equal."""
    assert (a.length, a.players, len(a.games)) == (b.length, b.players, len(b.games))
    for ga, gb in zip(a.games, b.games):
        assert (ga.number, ga.score) == (gb.number, gb.score)
        assert ga.actions == gb.actions, f"game {ga.number}"


@needs_selfplay
@pytest.mark.parametrize("sgf", selfplay_pairs(), ids=lambda p: p.stem)
def test_gnubgs_sgf_and_mat_exports_read_into_the_same_match(sgf):
    [from_sgf] = read_sgf(sgf.read_text("utf-8"), str(sgf))
    [from_mat] = read_matches(sgf.with_suffix(".mat").read_text("utf-8"), str(sgf))
    same_record(from_sgf, from_mat)
    assert from_sgf.games == from_mat.games
    assert validate_match(from_sgf).diagnostics == []


def test_the_selfplay_set_covers_every_length():
    lengths = {read_matches(p.with_suffix(".mat").read_text("utf-8"))[0].length
               for p in selfplay_pairs()}
    if not lengths:
        pytest.skip(f"no self-play pairs in {SELFPLAY}")
    assert lengths >= {0, 1, 3, 5, 7, 11}


# ------------------------------------------------------------------ corpus SGF

def corpus_sgf_files() -> list[Path | None]:
    # [None] without the corpus, so that needs_corpus says why the test is skipped
    return sorted(CORPUS.rglob("*.sgf")) if CORPUS.is_dir() else [None]


@needs_corpus
@pytest.mark.parametrize("path", corpus_sgf_files(), ids=lambda p: p.name[:40] if p else "none")
def test_every_real_sgf_file_reads_and_replays(path):
    [match] = read_sgf(read(path), str(path))
    assert match.length in (3, 7) and match.games
    report = validate_match(match)
    assert report.errors == 0, [d.format_text() for d in report.diagnostics]
    assert report.winner is not None or match.length == 0
    mat = path.with_suffix(".mat")
    if mat.exists() and "gnubgparser" in str(path):  # gnubg 1.08's own pair
        same_record(match, read_matches(read(mat), str(mat))[0])


@needs_corpus
def test_gibbon_sgf_file():
    path = CORPUS / "gitGNU__gnu_gibbon" / "src__7point.sgf"
    [match] = read_sgf(read(path), str(path))
    assert match.players == ("JoeBlack", "SnowWhite") and len(match.games) == 9
    assert validate_match(match).final_score == (8, 5)
    assert any(isinstance(a, m.Resign) for a in match.games[3].actions)


# ------------------------------------------------------------------ writer

def write_read(text: str) -> tuple[list[m.Match], list[m.Match], "object"]:
    matches = read_matches(text, "w.mat")
    conv = convert(matches)
    return matches, read_sgf(conv.text, "w.sgf"), conv


W_HEAD = " 5 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"


def test_writer_expands_consolidated_plays_and_writes_gnubgs_layout():
    text = W_HEAD + ("  1) 65: 24/13                    62: 24/18* 13/11\n"
                     "  2) 22: bar/23 13/11(2) 6/4     \n")
    _src, [back], conv = write_read(text)
    lines = conv.text.splitlines()
    assert lines[0].startswith("(;FF[4]GM[6]CA[UTF-8]AP[gamao:")
    assert "MI[length:5][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[Crawford]" in lines[0]
    # the last play enters from the bar, where the replay finds no checker (the
    # hit of 24/18* hits nothing): SGF holds its movements, XS the text as written
    assert lines[1:] == [";W[65xrrm]", ";B[62agln]", ";W[22ywmkmkfd]XS[bar/23 13/11(2) 6/4])"]
    assert back.games[0].actions[0].text() == "65: 24/18 18/13"
    assert back.games[0].actions[2].text() == "22: bar/23 13/11(2) 6/4"
    assert any("could not resolve" in w and "XS" in w for w in conv.warnings)
    [legal] = read_matches(W_HEAD + "  1) 65: 24/13                    62: 24/18 13/11\n"
                           "  2) 22: bar/23 13/11(2) 6/4\n".replace("bar/23", "24/22"))
    text = convert([legal]).text
    assert "XS" not in text and text.splitlines()[-1] == ";W[22xvmkmkfd])"


def test_writer_escapes_values_and_keeps_non_ascii_names():
    text = ('; [Event "Cup ]\\\\ 2024"]\n\n 1 point match\n\n Game 1\n'
            ' Jürgen ]x : 0                Ñúñez\\ : 0\n  1) 31: 8/5 6/5\n')
    src, [back], conv = write_read(text)
    assert "PW[Jürgen \\]x]PB[Ñúñez\\\\]" in conv.text and "CA[UTF-8]" in conv.text
    assert back.players == ("Jürgen ]x", "Ñúñez\\")
    assert back.tag("Event") == src[0].tag("Event")


def test_writer_keeps_and_the_match_and_resignations():
    text = W_HEAD.replace(" 5 point", " 3 point") + (
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
        "      Wins 3 points and the match\n")
    src, [back], conv = write_read(text)
    assert "RE[W+3R]XR[and the match]" in conv.text
    assert back.games[0].actions == src[0].games[0].actions


def strip_private(sgf: str) -> str:
    """The SGF as other programs see it: gamao's private properties (``X``
    and a capital letter) removed, and the nodes left empty by that."""
    text = _PRIVATE.sub("", sgf)
    return _EMPTY_NODE.sub("", text)


_PRIVATE = re.compile(r"\bX[A-Z](?:\s*\[(?:[^\]\\]|\\.)*\])+", re.S)
_EMPTY_NODE = re.compile(r"\n;(?=\n|\))")


def test_writer_warns_about_what_sgf_cannot_hold():
    text = ('; [Match ID "123"]\n; [Beaver "On"]\n\n 0 point match\n\n Game 1\n'
            ' Ann,1612 : 0                   Bob : 0\n'
            '  1) 31: 8/5 6/5                 62: ????\n'
            ' 2)  Losses 1 point                 Wins 1 point\n')
    [src], [back], conv = write_read(text)
    said = " | ".join(conv.warnings)
    for words in ("Match ID", "Beaver", "ratings", "Losses", "never played"):
        assert words in said, words
    # what SGF has no place for is kept for gamao only, and the warnings say so
    for words in ("ratings (\"name,1612\"): the ratings kept only in gamao's private property XE",
                  "\"Losses N point\" cell(s) kept only in gamao's private property XA",
                  "never played (\"61: ????\") kept only in gamao's private property XA"):
        assert words in said, words
    # RU cannot say it: beyond the tags in XT, nothing does
    assert "the tag Beaver \"On\" is kept only in gamao's private property XT" in said
    assert back == src
    assert [type(a).__name__ for a in back.games[0].actions] == ["Play", "UnplayedRoll", "Loss",
                                                                "Win"]
    assert back.games[0].score.ratings == ("1612", None)
    # other programs see the play and the result only
    [theirs] = read_sgf(strip_private(conv.text))
    assert [type(a).__name__ for a in theirs.games[0].actions] == ["Play", "Win"]


def test_private_properties_carry_every_cell_sgf_cannot_hold():
    text = ('; [Site "Club"]\n# a comment not in gnubg form\n;no space\n\n'
            ' 0 point match\n\n Game 1\n'
            ' Ann,1612 : 0                   Bob,1498.5 : 0\n'
            '  1) 31: 8/5 6/5                 66: Cannot Move\n'
            '  2) 42: 8/4 6/4                 62: ????\n'
            '  3)  Resigns                    Wins 1 point\n\n'
            ' Game 2\n Ann : 0                        Bob : 1\n'
            '  1) 21: Illegal play (position set)\n'
            '  1)                             43: 24/20 13/10\n'
            '  2) 31: 8/5 6/5\n'
            '      Wins 2 points\n'
            '  3) 52: 13/8 13/11              Losses 2 point\n\n'
            ' Game 3\n Ann : 2                        Bob : 1\n'
            '  1) 31: 8/5 6/5                 Doubles => 2\n'
            '  2)  Drops\n')
    [src] = read_matches(text, "x.mat")
    conv = convert([src])
    sgf = conv.text
    assert ";B[66]XS[Cannot Move]" in sgf
    assert ";XA[B][unplayed][62][????]" in sgf and ";XA[W][resign]" in sgf
    assert "XE[1612][1498.5]" in sgf and "XC[# a comment" in sgf
    assert ";XA[W][illegal][21][Illegal play (position set)]" in sgf
    # game 2's Wins cell is not its last action: it stands where it was
    assert ";XA[W][win][2]\n;W[52" in sgf and ";XA[B][loss][2])" in sgf
    assert "RE[B+1]XR[not written]" in sgf   # game 3 has no Wins line
    [back] = read_sgf(sgf, "x.sgf")
    assert back == src
    assert back.games[0].actions[1].written == "Cannot Move"
    assert convert([back]).text == sgf
    assert to_mat([back]).text == to_mat([src]).text
    said = " | ".join(conv.warnings)
    for words in ("XS", "XE", "XA", "XC", "not the game's last action", "Illegal play",
                  "no Wins line"):
        assert words in said, words
    # other programs see a normal SGF: the cells they know, RE for the results
    [theirs] = read_sgf(strip_private(sgf), "y.sgf")
    assert [[type(a).__name__ for a in g.actions] for g in theirs.games] == [
        ["Play", "Dance", "Play", "Win"], ["Play", "Play", "Play", "Win"],
        ["Play", "Double", "Drop", "Win"]]
    assert theirs.games[1].actions[-1] == m.Win(0, 2)
    assert theirs.comments[0] == "; a comment not in gnubg form"


def test_a_play_the_replay_cannot_resolve_keeps_its_text():
    text = W_HEAD + ("  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
                     "  2) 64: bar/21* 6/2             11: 25/24 6/5(2)\n")
    [src], [back], conv = write_read(text)
    assert "XS[bar/21* 6/2]" in conv.text and "XS[25/24 6/5(2)]" in conv.text
    assert back.games[0].actions == src.games[0].actions
    assert back.games[0].actions[2].text() == "64: bar/21* 6/2"
    assert to_mat([back]).text == to_mat([src]).text
    # a spelling that does not match the letters is not trusted
    forged = conv.text.replace("XS[bar/21* 6/2]", "XS[13/7 13/11]")
    [back] = read_sgf(forged)
    assert back.games[0].actions[2].text() == "64: 25/21 6/2"


def test_private_properties_gamao_does_not_write_are_errors():
    with pytest.raises(SyntaxProblem, match="not a cell gamao writes"):
        read_sgf(HEAD + ";XA[W][castle][3])")
    with pytest.raises(SyntaxProblem, match="not a cell gamao writes"):
        read_sgf(HEAD + ";XA[Q][loss][1])")
    with pytest.raises(SyntaxProblem, match="not a cell gamao writes"):
        read_sgf(HEAD + ";XA[][loss][1])")
    with pytest.raises(SyntaxProblem, match="not a cell gamao writes"):
        read_sgf(HEAD + ";XA[B][unplayed][6])")


def test_writer_puts_comments_back_on_their_nodes():
    sgf = HEAD + "C[about]\n;B[32adln]C[nice];W[42fdhd];W[double]C[bold])"
    [match] = read_sgf(sgf)
    text = convert([match]).text
    assert "C[about]" in text and ";B[32adln]C[nice]" in text and ";W[double]C[bold]" in text
    [back] = read_sgf(text)
    assert back.games[0].comments == match.games[0].comments


def test_writer_sets_up_a_variant_gnubg_cannot_name():
    text = '; [Variation "LongGammon"]\n\n 0 point match\n\n Game 1\n A : 0   B : 0\n' \
           "  1) 31: 24/21 24/23              62: 24/18 24/22\n"
    src, [back], conv = write_read(text)
    assert "AE[a:y]" in conv.text and any("LongGammon" in w for w in conv.warnings)
    assert back.tag("Variation") == "LongGammon"
    assert back.games == src[0].games


def test_writer_marks_the_crawford_game_and_explicit_rules():
    text = ('; [Crawford "On"]\n\n 3 point match\n\n Game 1\n A : 0   B : 0\n'
            "  1) 31: 8/5 6/5\n      Wins 2 points\n\n"
            " Game 2\n A : 2   B : 0\n  1) 31: 8/5 6/5\n")
    _src, [back], conv = write_read(text)
    first, second = conv.text.splitlines()[0], conv.text.split("\n(")[1]
    assert "RU[Crawford]" in first and "RU[Crawford:CrawfordGame]" in second
    assert back.tag("Crawford") == "On"
    _src, [back], conv = write_read(text.replace('"On"', '"Off"'))
    assert "RU[]" in conv.text and back.tag("Crawford") == "Off"


def test_conversion_dispatches_to_the_sgf_writer():
    matches = read_matches(W_HEAD + "  1) 31: 8/5 6/5\n")
    assert convert_to(matches, "sgf").text == convert(matches).text


def test_several_matches_read_back_as_several():
    one = read_matches(W_HEAD + "  1) 31: 8/5 6/5\n")[0]
    two = read_matches(W_HEAD.replace("5 point", "0 point") + "  1) 42: 8/4 6/4\n")[0]
    back = read_sgf(convert([one, two, one]).text)
    assert [(b.length, len(b.games)) for b in back] == [(5, 1), (0, 1), (5, 1)]


# ------------------------------------------------------------------ round trip

# cells SGF has no node for: gamao keeps them in its private XA nodes, which
# other programs do not see; the words the writer's warning says it with
CARRIED = {
    m.Loss: "\"Losses N point\" cell(s) kept only in gamao's private property XA",
    m.UnplayedRoll: "never played (\"61: ????\") kept only in gamao's private property XA",
    m.Resign: "\"Resigns\" cell(s) kept only in gamao's private property XA",
    m.IllegalPlayMarker: "\"Illegal play\" marker(s) kept only in gamao's private property XA",
}
# what SGF truly cannot hold, even privately: the warning that says so, and
# what it makes of the canonical match file read back from our SGF
ALLOWED_DIFFERENCES = {
    "SGF reads a tab as a space": lambda text: text.replace("\t", " "),
}
# tags the reader makes: written to SGF properties (EventDate, Site...) or RU
HELD_TAGS = {"site", "event", "round", "player1elo", "player2elo", "eventdate", "transcriber"}


def _key(name: str) -> str:
    return "".join(name.split()).lower()


def _without_implied_takes(actions: list) -> list:
    """Actions less a take right after a beaver or raccoon (GNU Backgammon's
    SGF writes it, its match file leaves it out)."""
    return [a for k, a in enumerate(actions)
            if not (isinstance(a, m.Take) and k and isinstance(actions[k - 1], m.Double)
                    and actions[k - 1].kind != "double")]


def check_round_trip(path: Path, text: str) -> list[str]:
    """Our SGF of a match file, read by gamao, gives the canonical match file
    (gamao's canonical ``mat`` conversion of the original) and the match it
    reads into, tags and comments as the original has them; read as other
    programs see it (gamao's private properties removed) it gives the same
    games, results, rules and tags, less the cells only gamao keeps, and a
    play the validator could not resolve (an illegal play as written) keeps
    its movements, not its step grouping or hit marks. Returns the allowed
    differences (warnings of :data:`ALLOWED_DIFFERENCES`) met."""
    originals = read_matches(text, str(path))
    canonical_text = to_mat(originals).text
    canonical = read_matches(canonical_text, str(path))
    conv = convert(originals)
    said = " | ".join(conv.warnings)
    allowed = [words for words in ALLOWED_DIFFERENCES if words in said]
    # gamao reads its own SGF back
    back = read_sgf(conv.text, str(path) + ".sgf")
    expected = canonical_text
    for words in allowed:
        expected = ALLOWED_DIFFERENCES[words](expected)
    assert to_mat(back).text == expected
    assert len(back) == len(originals)
    if not allowed:
        for orig, can, got in zip(originals, canonical, back):
            assert (got.length, got.tags, got.comments) == (orig.length, orig.tags, orig.comments)
            assert got.games == can.games
    for cls, words in CARRIED.items():
        if any(isinstance(a, cls) for mt in originals for g in mt.games for a in g.actions):
            assert words in said, cls.__name__
    # other programs: what they see (with the allowed differences)
    # MI cannot give some numbers (game 0, repeated, going back): other
    # programs see the games numbered in order; gamao reads XN
    renumbered = "private property XN" in said
    untab = (lambda v: v.replace("\t", " ")) if "SGF reads a tab as a space" in allowed else str
    theirs = read_sgf(strip_private(conv.text), str(path) + ".sgf")
    assert len(theirs) == len(canonical)
    for orig, can, got in zip(originals, canonical, theirs):
        assert (got.length, got.players) == (can.length, tuple(map(untab, can.players)))
        assert len(got.games) == len(can.games)
        report = validate_match(orig, keep_records=True)
        unresolved = {id(r.action) for res in report.games for r in res.records
                      if isinstance(r.action, m.Play) and r.steps is None}
        for go, gc, gb in zip(orig.games, can.games, got.games):
            assert gb.number == gc.number or renumbered
            if gc.score is not None:
                assert gb.score.names == tuple(map(untab, gc.score.names))
                assert gb.score.scores == gc.score.scores
            dropped = tuple(CARRIED) + (m.Win,)
            kept = _without_implied_takes(
                [(o, c) for o, c in zip(go.actions, gc.actions) if not isinstance(c, dropped)])
            seen = _without_implied_takes([b for b in gb.actions if not isinstance(b, m.Win)])
            assert len(kept) == len(seen), f"game {gc.number}"
            for (o, c), b in zip(kept, seen):
                if id(o) in unresolved:
                    assert (b.player, b.dice) == (c.player, c.dice)
                    assert play_shape(b.moves)[0] == play_shape(c.moves)[0], f"game {gc.number}: {c.text()}"
                else:
                    assert b == c, f"game {gc.number}: {c.text()} | {b.text()}"
            wins = [(a.player, a.points) for a in gc.actions if isinstance(a, m.Win)]
            if wins:   # RE gives the first Wins cell
                assert [(a.player, a.points) for a in gb.actions if isinstance(a, m.Win)] == wins[:1]
        ra, rb = Rules.from_match(orig), Rules.from_match(got)
        if orig.length:
            ra.jacoby = rb.jacoby = None   # RU cannot say "Jacoby off" in a match
        ra.beaver = rb.beaver = None       # nor anything about beavers
        assert ra == rb
        held = {(_key(t.name), untab(t.value)) for t in orig.tags if _key(t.name) in HELD_TAGS}
        assert held == {(_key(t.name), t.value) for t in got.tags if _key(t.name) in HELD_TAGS}
        if not any("lost on time" in w for w in conv.warnings):
            assert validate_match(got).final_score == report.final_score
    return allowed


@needs_selfplay
@pytest.mark.parametrize("mat", [p.with_suffix(".mat") for p in selfplay_pairs()],
                         ids=lambda p: p.stem)
def test_round_trip_of_selfplay_matches_is_exact(mat):
    [src] = read_matches(mat.read_text("utf-8"), str(mat))
    [back] = read_sgf(convert([src]).text)
    assert back.games == src.games
    check_round_trip(mat, mat.read_text("utf-8"))


def test_what_sgf_cannot_hold_even_privately_is_said_and_an_allowed_difference(tmp_path):
    text = ('; [Event "Cup\t2024"]\n\n 1 point match\n\n Game 0\n'
            ' Ann : 0                        Bob : 0\n  1) 31: 8/5 6/5\n')
    conv = convert(read_matches(text))
    assert any("tab" in w for w in conv.warnings)
    # a game 0 is kept for gamao (XN); other programs see game 1
    assert any("private property XN" in w for w in conv.warnings)
    assert "MI[length:1][game:0]" in conv.text and "XN[0]" in conv.text
    allowed = check_round_trip(tmp_path / "x.mat", text)
    assert sorted(allowed) == sorted(ALLOWED_DIFFERENCES)
    [back] = read_sgf(conv.text)
    assert back.tag("Event") == "Cup 2024" and back.games[0].number == 0
    [theirs] = read_sgf(strip_private(conv.text))
    assert theirs.games[0].number == 1


@needs_corpus
def test_round_trip_of_corpus_match_files_and_a_bulk_sample():
    files = corpus_sample(bulk_step=10)
    assert len(files) > 100
    allowed = {path.name: a for path in files if (a := check_round_trip(path, read(path)))}
    assert allowed == {}, "the corpus meets differences only allowed for made-up records"


@pytest.mark.slow
@needs_corpus
def test_round_trip_of_every_corpus_match_file():
    files = corpus_sample(bulk_step=1)
    allowed = {path.name: a for path in files if (a := check_round_trip(path, read(path)))}
    assert allowed == {}, "the corpus meets differences only allowed for made-up records"


def test_a_game_ended_without_a_wins_line_gets_its_result():
    # for other programs; gamao reads it back as the record has it
    [src], [back], conv = write_read(W_HEAD + "  1)  Doubles => 2                Drops\n")
    assert "RE[W+1]XR[not written]" in conv.text and back == src
    assert any("no Wins line" in w for w in conv.warnings)
    [theirs] = read_sgf(strip_private(conv.text))
    assert theirs.games[0].actions[-1] == m.Win(0, 1)


def test_writer_writes_the_take_gnubgs_match_file_leaves_out_after_a_beaver():
    text = (' 0 point match\n\n Game 1\n A : 0                          B : 0\n'
            '  1) 31: 8/5 6/5                 62: 24/18 13/11\n'
            '  2)  Doubles => 2                Beavers => 4\n'
            '  3) 52: 13/11 13/8              21: 13/11 6/5\n')
    [src], [back], conv = write_read(text)
    assert ";W[double]\n;B[double]\n;W[take]XI[implied]\n;W[52mkmh]" in conv.text
    assert any("beaver" in w and "XI" in w for w in conv.warnings)
    assert back == src     # gamao reads the take back as implied
    assert [a.text() for a in back.games[0].actions[2:5]] == ["Doubles => 2", "Beavers => 4",
                                                              "52: 13/11 13/8"]
    [theirs] = read_sgf(strip_private(conv.text))   # as GNU Backgammon's SGF has it
    assert [a.text() for a in theirs.games[0].actions[2:5]] == ["Doubles => 2", "Beavers => 4",
                                                                "Takes"]
