"""The match-file reader: every cell kind, every producer's layout, the corpus."""
from __future__ import annotations

import re

import pytest

from conftest import EXAMPLES, corpus_match_files, corpus_non_match_files, needs_corpus, read
from gamao_cli import model as m
from gamao_cli.errors import NotAMatchFile, SyntaxProblem
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.formats.mat.writer import write_matches

HEAD = " 7 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"


def actions(body: str, head: str = HEAD) -> list[m.ActionType]:
    [match] = read_matches(head + body, "t.mat")
    return match.games[0].actions


def test_header_tags_and_comments_are_kept():
    text = ('; [Site "Club"]\n; [Player 1 Elo "1712,45/231"]\n; [Strange Tag "x"]\n'
            "; a plain comment\n\n" + HEAD)
    [match] = read_matches(text)
    assert [(t.name, t.value) for t in match.tags] == [
        ("Site", "Club"), ("Player 1 Elo", "1712,45/231"), ("Strange Tag", "x")]
    assert match.comments == ["; a plain comment"]
    assert match.length == 7 and match.tag("player 1 elo") == "1712,45/231"


def test_money_session_header():
    [match] = read_matches(" 0 point match\n\n Game 1\n A : 0   B : 0\n")
    assert match.length == 0 and match.is_money


@pytest.mark.parametrize("line, names, scores", [
    (" lasse : 0                       aldebaran : 0", ("lasse", "aldebaran"), (0, 0)),
    (" Marion Castlebury: 0                       Rowan Pryce: 3", ("Marion Castlebury", "Rowan Pryce"), (0, 3)),
    (" beaver_take_all : 0             lasse : 0", ("beaver_take_all", "lasse"), (0, 0)),
    (" Ken : 0                              XG-Intermediate : 0 ", ("Ken", "XG-Intermediate"), (0, 0)),
])
def test_score_lines(line, names, scores):
    [match] = read_matches(" 7 point match\n\n Game 1\n" + line + "\n")
    assert match.games[0].score.names == names
    assert match.games[0].score.scores == scores


def test_gridgammon_rating_suffix():
    [match] = read_matches(" 7 point match\n\n Game 1\n joe,1612 : 0    ann,1500 : 2\n")
    sl = match.games[0].score
    assert sl.names == ("joe", "ann") and sl.ratings == ("1612", "1500")


def test_roll_and_play_with_every_step_form():
    [a, b] = actions("  1) 62: 24/18* 13/11    55: bar/20/15 6/off(2) b/22 25/20 3/0 o\n"
                     .replace(" o\n", "\n"))
    assert isinstance(a, m.Play) and a.player == 0 and a.dice == (6, 2)
    assert [s.points for s in a.moves] == [(24, 18), (13, 11)]
    assert a.moves[0].hits == (True,) and a.moves[1].hits == (False,)
    assert b.player == 1 and b.dice == (5, 5)
    assert [s.points for s in b.moves] == [(25, 20, 15), (6, 0), (25, 22), (25, 20), (3, 0)]
    assert b.moves[1].repeat == 2
    assert [str(s) for s in b.moves] == ["bar/20/15", "6/off(2)", "b/22", "25/20", "3/0"]


def test_every_step_keeps_its_column():
    [a, b] = actions("  1) 62: 24/18 13/11             51: 13/8 6/5\n")
    line = "  1) 62: 24/18 13/11             51: 13/8 6/5"
    assert [s.column for s in a.moves] == [line.index("24/18") + 1, line.index("13/11") + 1]
    assert [s.column for s in b.moves] == [line.index("13/8") + 1, line.index("6/5") + 1]
    assert {s.line for s in a.moves + b.moves} == {5}


@pytest.mark.parametrize("cell, cls, fields", [
    ("66:", m.Dance, {"dice": (6, 6)}),
    ("64: Cannot Move", m.Dance, {"dice": (6, 4)}),
    ("61: ????", m.UnplayedRoll, {"dice": (6, 1)}),
    ("61: ???", m.UnplayedRoll, {"dice": (6, 1)}),
    ("Doubles => 4", m.Double, {"value": 4, "kind": "double"}),
    ("Double", m.Double, {"value": None, "kind": "double"}),
    ("Beavers => 4", m.Double, {"value": 4, "kind": "beaver"}),
    ("Raccoons => 8", m.Double, {"value": 8, "kind": "raccoon"}),
    ("Takes", m.Take, {}), ("Take", m.Take, {}),
    ("Drops", m.Drop, {}), ("Drop", m.Drop, {}), ("Passes", m.Drop, {}),
    ("Wins 2 point", m.Win, {"points": 2, "match": False}),
    ("Wins 1 points and the match", m.Win, {"points": 1, "match": True}),
    ("Losses 3 point", m.Loss, {"points": 3}),
    ("Resigns", m.Resign, {}),
])
def test_each_cell_kind_in_each_column(cell, cls, fields):
    for layout, player in ((f"  3) {cell}\n", 0),
                           (f"  3) 31: 8/5 6/5                 {cell}\n", 1),
                           (f"  3)                             {cell}\n", 1)):
        found = [a for a in actions(layout) if isinstance(a, cls)]
        assert len(found) == 1, layout
        assert found[0].player == player, layout
        for k, v in fields.items():
            assert getattr(found[0], k) == v


@pytest.mark.parametrize("line, expected", [
    # gnubg: right cell at column 33
    ("  1) 62: 24/18 13/11             51: 13/8 6/5", [(0, "62"), (1, "51")]),
    # Backgammon Studio: right cell at column 41, plays with repeats
    ("  2) 65: 24/18 23/18                    22: 24/22(2) 13/11(2)", [(0, "65"), (1, "22")]),
    # gammonview / XG-like: right cell at column 48, empty left cell
    ("  1)                                            16: 13/7 8/7", [(1, "16")]),
    # a long play overflowing into the right cell with a single space
    ("  3) 33: 24/21 24/21 13/10 13/10 62: 13/7 13/11", [(0, "33"), (1, "62")]),
    # a dance on the left, then the right cell
    ("  4) 66:                         32: 8/5 20/18", [(0, "66"), (1, "32")]),
    ("  4) 34:                          Doubles => 2", [(0, "34"), (1, "Doubles")]),
    # HedgeHog: a dance on the right with a trailing space
    ("  2) 55: 8/3 8/3 6/1* 6/1                13: ", [(0, "55"), (1, "13")]),
    # Backgammon Galaxy repeats the move number before the loser's cell
    (" 24) 43: 21/18 18/14              24)  Losses 2 point                     Wins 2 point and the match",
     [(0, "43"), (1, "Losses"), (0, "Wins")]),
    (" 20)  Losses 3 point                                               Wins 3 point and the match",
     [(0, "Losses"), (1, "Wins")]),
    # no padding of the move number, Takes without a leading space
    ("10) Takes                                      15: 10/5 7/6", [(0, "Takes"), (1, "15")]),
])
def test_two_cells_are_split_by_content_not_columns(line, expected):
    got = [(a.player, a.text()[:len(k)]) for a, (_p, k) in zip(actions(line + "\n"), expected)]
    assert got == expected
    assert len(actions(line + "\n")) == len(expected)


@pytest.mark.parametrize("line, player", [
    ("      Wins 1 point", 0),                                  # gnubg, left
    ("                                  Wins 2 points", 1),     # gnubg, right
    (" Wins 2 points", 0),                                      # FIBS client
    ("   Wins 1 points", 0),                                    # SampleServer
    ("  24)  Wins 4 point", 0),                                 # Backgammon Studio, numbered
    ("  23)                                    Wins 2 point", 1),
])
def test_wins_lines_with_any_indentation(line, player):
    [win] = actions(line + "\n")
    assert isinstance(win, m.Win) and win.player == player


def test_empty_numbered_lines_and_blank_lines_are_ignored():
    acts = actions("  1) 31: 8/5 6/5\n\n 14)\n  12)          \n")
    assert len(acts) == 1


def test_several_matches_in_one_file():
    text = (HEAD + "  1) 31: 8/5 6/5\n      Wins 1 point\n\n"
            '; [Site "next"]\n\n 3 point match\n\n Game 1\n C : 0   D : 0\n  1) 42: 8/4 6/4\n')
    first, second = read_matches(text)
    assert first.length == 7 and second.length == 3
    assert second.tag("Site") == "next" and second.players == ("C", "D")


def test_crlf_bom_tabs_and_no_final_newline_read_the_same():
    plain = read_matches(HEAD + "  1) 31: 8/5 6/5                 61: 13/7 8/7\n")
    crlf = read_matches((HEAD + "  1) 31: 8/5 6/5                 61: 13/7 8/7").replace("\n", "\r\n"))
    tabs = read_matches(HEAD + "  1) 31: 8/5 6/5\t\t61: 13/7 8/7   \n")
    assert plain == crlf == tabs


def test_not_a_match_file_is_one_clear_error():
    with pytest.raises(NotAMatchFile) as exc:
        read_matches("XGID=---BBaB-BbA-bC-b--BdAca---:0:0:1:00:0:5:0:9:10\n", "pos.txt")
    assert exc.value.path == "pos.txt" and exc.value.line == 1
    assert "not a match file" in str(exc.value)


def test_syntax_error_names_file_line_column_and_expectation():
    with pytest.raises(SyntaxProblem) as exc:
        read_matches(HEAD + "  1) 31: 8/5 6/5\n  2) 42: 8-4 6-4\n", "bad.mat")
    e = exc.value
    assert (e.path, e.line, e.column) == ("bad.mat", 6, 10)
    assert e.text.startswith("8-4")
    assert "play step must look like 13/7" in e.message
    assert str(e).startswith("bad.mat:6:10: ")
    assert e.expected  # says what would have been fine


# -- the real corpus ------------------------------------------------------

GAME_RE = re.compile(r"^\s*Game\s+\d+\s*$", re.M)
WINS_RE = re.compile(r"\bWins\s+\d+\s+points?\b")


@needs_corpus
def test_every_corpus_match_file_parses_with_independent_counts():
    files = corpus_match_files()
    assert len(files) >= 1800
    for path in files:
        text = read(path)
        matches = read_matches(text, str(path))
        games = sum(len(mt.games) for mt in matches)
        wins = sum(len(g.wins()) for mt in matches for g in mt.games)
        assert games == len(GAME_RE.findall(text)), path
        assert wins == len(WINS_RE.findall(text)), path


@needs_corpus
def test_corpus_files_that_are_not_match_files_get_the_clear_error():
    files = corpus_non_match_files()
    assert len(files) >= 17
    for path in files:
        with pytest.raises(NotAMatchFile):
            read_matches(read(path), str(path))


@needs_corpus
def test_round_trip_through_the_writer_for_every_corpus_file():
    for path in corpus_match_files():
        matches = read_matches(read(path), str(path))
        assert read_matches(write_matches(matches)) == matches, path


def test_prepare_text_takes_off_trailing_blanks_and_nothing_else():
    """Random lines of blanks, letters and the line breaks other than LF
    (which stay inside a line for the grammar): no line of the result ends
    in a blank, each is a prefix of its line, and only blanks went."""
    import random

    from gamao_cli.formats.mat.reader import prepare_text
    rng = random.Random(5)
    pieces = [" ", "  ", "x", "8/5", "\n", "\n", "\x0b", "\x0c", "\u2028", "\x85", "\u00a0"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(14)))
        out = prepare_text(text)
        assert out.endswith("\n")
        lines, before = out[:-1].split("\n"), text.split("\n")
        # (a last line of blanks only goes with them: the line before ends the text)
        assert len(lines) == len(before) - (before[-1].strip(" ") == "" and len(before) > 1)
        for got, line in zip(lines, before):
            assert not got.endswith((" ", "\t")) and line.startswith(got), (text, out)
            assert line[len(got):].strip(" ") == "", (text, out)   # only blanks cut
    assert prepare_text("a \x0b \n\u2028 \nb\t") == "a \x0b\n\u2028\nb\n"


# -- the parser's cache ----------------------------------------------------

def _same_reading(parser, text: str):
    from gamao_cli.formats.mat.reader import prepare_text
    return [(g.number, [(type(a).__name__, a.player, a.line, a.column) for a in g.actions])
            for mt in parser.parse(prepare_text(text), start="runs") for g in mt.games]


def test_the_parser_cache_gives_the_same_parser(tmp_path, monkeypatch):
    """The first build writes Lark's analysis to the cache folder, the next
    one loads it; both read a file alike. A cache file that cannot be read
    is rebuilt, not an error."""
    from gamao_cli.formats.mat.reader import _lark
    monkeypatch.setenv("GAMAO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("GAMAO_NO_CACHE", raising=False)
    text = (EXAMPLES / "gnubg-selfplay-5pt.mat").read_text(encoding="utf-8")
    fresh = _lark("runs")
    [cache_file] = (tmp_path / "cache").iterdir()
    loaded = _lark("runs")
    assert _same_reading(fresh, text) == _same_reading(loaded, text) != []
    cache_file.write_bytes(b"not a pickle")
    assert _same_reading(_lark("runs"), text) == _same_reading(fresh, text)


def test_installs_sharing_a_cache_folder_keep_a_cache_file_each(tmp_path, monkeypatch):
    """The cache file is named by the hash of what Lark checks (grammar,
    options, Lark's and Python's versions): another Lark (or grammar) sharing
    the folder writes a file of its own and leaves this one as it was."""
    import lark

    from gamao_cli.formats.mat.reader import _lark
    monkeypatch.setenv("GAMAO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("GAMAO_NO_CACHE", raising=False)
    _lark("runs")
    [mine] = (tmp_path / "cache").iterdir()
    assert mine.name.startswith("matchfile-runs-") and mine.name.endswith(".lark-cache")
    made = mine.read_bytes()
    monkeypatch.setattr(lark, "__version__", lark.__version__ + ".other")
    _lark("runs")
    files = sorted((tmp_path / "cache").iterdir())
    assert len(files) == 2 and mine in files and mine.read_bytes() == made
    monkeypatch.undo()
    monkeypatch.setenv("GAMAO_CACHE_DIR", str(tmp_path / "cache"))
    _lark("runs")   # the same install again: its own file, no third one
    assert len(list((tmp_path / "cache").iterdir())) == 2


def test_the_parser_cache_can_be_turned_off_or_missing(tmp_path, monkeypatch):
    from gamao_cli.formats.mat.reader import parser_cache_path
    monkeypatch.setenv("GAMAO_CACHE_DIR", str(tmp_path / "c"))
    assert parser_cache_path("matchfile-runs") == str(tmp_path / "c" / "matchfile-runs.lark-cache")
    monkeypatch.setenv("GAMAO_NO_CACHE", "1")
    assert parser_cache_path("matchfile-runs") is False
    monkeypatch.delenv("GAMAO_NO_CACHE")
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("GAMAO_CACHE_DIR", str(tmp_path / "file" / "below"))  # cannot be made
    assert parser_cache_path("matchfile-runs") is False
