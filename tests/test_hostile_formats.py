"""Hostile input beyond the match-file reader (issue 18): SGF's numbers and
private properties, bombs of repeats and steps, sizes, and writers that must
write what gamao reads back or refuse with a coded reason (GM507). The JSON
reader's own cases are in ``tests/test_json_schema.py``.
"""
from __future__ import annotations

import json
import os
import re

import pytest

from conftest import EXAMPLES, ROOT
from gamao_cli import convert, formats
from gamao_cli import model as m
from gamao_cli.errors import InputError, SyntaxProblem, WriteRefused
from gamao_cli.formats import WriteResult
from gamao_cli.formats.json.codec import iter_dumps
from gamao_cli.formats.limits import MAX_DIGITS, MAX_MOVEMENTS
from gamao_cli.formats.textio import atomic_write
from gamao_cli.messages import CODES, MESSAGES
from gamao_cli.replay.check import check_file

REGRESSIONS = ROOT / "tests" / "regressions"
SGF = "(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]"
HDR = " 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
[CLEAN] = formats.read_path(str(EXAMPLES / "gnubg-selfplay-5pt.mat"))


def _error(text: str, label: str) -> InputError:
    with pytest.raises(InputError) as exc:
        formats.parse_text(text, label)
    assert exc.value.line and exc.value.column, exc.value
    return exc.value


# -- SGF: every number bounded, every bomb refused with a location -------------

@pytest.mark.parametrize("name, text, column", [
    ("RE", SGF + "RE[W+" + "9" * 5000 + "];W[31hefe])", 64),
    ("MI length", SGF.replace("length:1", "length:" + "9" * 5000) + ";W[31hefe])", 15),
    ("XA win", SGF + ";W[31hefe];XA[W][win][" + "9" * 5000 + "])", 80),
    ("XL score", SGF + "XL[" + "9" * 5000 + "][0];W[31hefe])", 61),
    ("CV", SGF + ";CV[" + "9" * 5000 + "];W[31hefe])", 60),
])
def test_an_sgf_number_of_5000_digits_is_a_located_error(name, text, column):
    e = _error(text, "n.sgf")
    assert e.key == "GM001.long-number" and (e.line, e.column) == (1, column)
    assert f"5000 digits: gamao reads numbers of at most {MAX_DIGITS} digits" in str(e)


def test_a_negative_sgf_game_number_or_length_is_an_error():
    assert _error(SGF.replace("game:0", "game:-3") + ";W[31hefe])", "n.sgf").key == \
        "GM001.sgf-negative"
    assert _error(SGF.replace("length:1", "length:-3") + ";W[31hefe])", "n.sgf").key == \
        "GM001.sgf-negative"


@pytest.mark.parametrize("spelling, key", [
    ("8/5(999999999)", "GM001.repeat"),
    ("8/5 " * 100_000, "GM001.movements"),
])
def test_a_bomb_in_sgf_xs_is_refused_before_it_is_expanded(spelling, key):
    e = _error(SGF + ";W[31hefe]XS[" + spelling + "])", "x.sgf")
    assert e.key == key and e.line == 1


def test_an_sgf_play_of_a_million_letter_pairs_is_refused():
    e = _error(SGF + ";W[31" + "he" * 1_000_000 + "])", "x.sgf")
    assert e.key == "GM001.movements" and e.fields["count"] == 1_000_000
    # the first letter pair past the bound: after ";W[31" and 64 pairs
    assert e.column == len(SGF) + 3 + 3 + 2 * MAX_MOVEMENTS


def test_a_cube_doubled_past_4300_digits_in_sgf_is_refused_where_it_passes():
    # 2 ** 14286 has 4,301 digits: each double node doubles the cube
    nodes = "".join(";W[double];B[take];B[double];W[take]" for _ in range(7143))
    e = _error(SGF + nodes + ")", "c.sgf")
    assert e.key == "GM001.sgf-cube-too-big" and e.line == 1
    # the 14,285th double (2 ** 14285 has 4,301 digits): W's of round 7,142
    assert e.column == len(SGF) + 7142 * len(";W[double];B[take];B[double];W[take]") + 2


# -- the match file: a play of megabytes ------------------------------------

def test_a_play_line_of_megabytes_is_refused_before_the_line_is_cut_into_cells():
    text = HDR + "  1) 31: " + "8/5 " * 1_250_000 + "\n"
    e = _error(text, "p.mat")
    # the 65th movement's step, on the play's line
    assert (e.key, e.line, e.column) == ("GM001.movements", 5, 10 + 4 * MAX_MOVEMENTS)
    assert e.fields["count"] == 1_250_000


def test_a_play_of_65_movements_is_refused_and_one_of_64_reaches_the_validator(tmp_path):
    e = _error(HDR + "  1) 31: " + "8/5 " * 65 + "\n", "p.mat")
    assert e.key == "GM001.movements"
    p = tmp_path / "p.mat"
    p.write_text(HDR + "  1) 31: " + "8/5 " * 64 + "\n", encoding="utf-8")
    r = check_file(str(p))
    assert not r.unreadable and "GM207" in [d.code for d in r.diagnostics]


# -- writers: what they write reads back, or they refuse (GM507) -------------------

def _match(**changes) -> m.Match:
    [match] = formats.read_path(str(EXAMPLES / "illegal-play.mat"))
    for k, v in changes.items():
        setattr(match, k, v)
    return match


def _refused(matches, target) -> WriteRefused:
    with pytest.raises(WriteRefused) as exc:
        convert(matches, target).text
    e = exc.value
    assert e.code == "GM507" and CODES[e.code].severity == "error" and e.key in MESSAGES
    assert str(e) == e.message and e.message
    return e


@pytest.mark.parametrize("target", ["mat", "sgf"])
def test_a_negative_match_length_is_refused(target):
    assert "-1" in _refused([_match(length=-1)], target).message


def test_a_line_break_in_a_name_is_refused_for_a_match_file():
    match = _match()
    match.games[0].score.names = ("Ann\nBob", "Cy")
    assert "line break" in _refused([match], "mat").message


@pytest.mark.parametrize("dice", [(10, 1), (-1, 3), (6, 12)])
@pytest.mark.parametrize("target", ["mat", "sgf"])
def test_dice_no_digit_can_write_are_refused(dice, target):
    match = _match()
    play = next(a for a in match.games[0].actions if isinstance(a, m.Play))
    play.dice = dice
    _refused([match], target)


def test_dice_outside_1_to_6_that_a_digit_writes_read_back(tmp_path):
    """The grammar reads 0-9 (the validator says GM101): written, they read back."""
    match = _match()
    play = next(a for a in match.games[0].actions if isinstance(a, m.Play))
    play.dice = (7, 1)
    for target in ("mat", "sgf", "json"):
        [back] = formats.parse_text(convert([match], target).text, f"b.{target}")
        assert next(a for a in back.games[0].actions if isinstance(a, m.Play)).dice == (7, 1)


def test_a_repeat_of_20_unresolved_is_refused_for_a_match_file():
    match = _match()
    play = next(a for a in match.games[0].actions if isinstance(a, m.Play))
    play.moves = (m.Step((8, 5), (False,), 20),)
    e = _refused([match], "mat")
    assert e.key == "GM507.mat-play" and "(20)" in e.message


@pytest.mark.parametrize("target", ["mat", "sgf"])
def test_a_cube_of_x_is_refused(target):
    match = _match()
    match.games[0].actions.insert(2, m.Double(0, "x"))
    _refused([match], target)


@pytest.mark.parametrize("target", ["mat", "sgf", "json"])
def test_no_matches_at_all_are_refused(target):
    assert _refused([], target).key == "GM507.no-matches"


def test_a_number_past_the_limit_is_refused_by_every_writer():
    match = _match()
    match.games[0].actions.append(m.Win(0, 10 ** MAX_DIGITS))
    for target in ("mat", "sgf"):
        _refused([match], target)
    with pytest.raises(WriteRefused) as exc:
        "".join(iter_dumps([{"format": "x", "games": [{"cube": 10 ** MAX_DIGITS}]}], 1))
    assert exc.value.key == "GM507.number" and exc.value.fields["at"] == "$.games[0].cube"


@pytest.mark.parametrize("numbers", [[1, 1, 1], [0, 1, 2], [3, 2, 1], [5, 0, 9], [2, 3, 4]])
def test_sgf_keeps_game_numbers_mi_cannot_give_and_reads_back_one_match(numbers):
    """Repeated, zero or reversed game numbers read back as several matches
    (a new match starts at MI[game:0]): MI numbers such games in order and
    gamao's XN keeps the number."""
    match = _match()
    game = match.games[0]
    match.games = [m.Game(n, game.score, list(game.actions)) for n in numbers]
    for pair in ([match], [match, _match()]):
        conv = convert(pair, "sgf")
        back = formats.parse_text(conv.text, "n.sgf")
        assert len(back) == len(pair)
        assert [g.number for g in back[0].games] == numbers
        # other programs (without gamao's private properties) see as many matches
        theirs = re.sub(r"X[A-Z](?:\[(?:[^\]\\]|\\.)*\])+", "", conv.text)
        assert "XN[" not in theirs and len(formats.parse_text(theirs, "t.sgf")) == len(pair)


def test_sgf_keeps_a_cube_value_the_node_does_not_give():
    """A Doubles cell whose written value is not twice the cube (GM306) or
    has none reads back as written (gamao's XV), where SGF's node alone gives
    twice the cube (found by fuzz/fuzz_reader.py mat)."""
    text = HDR + "  1)  Doubles => 2                Takes\n  2)  Doubles => 2" \
        "                Takes\n  3)  Doubles                    Takes\n"
    [match] = formats.parse_text(text, "c.mat")
    conv = convert([match], "sgf")
    assert "XV[2][double]" in conv.text and "XV[][double]" in conv.text
    [back] = formats.parse_text(conv.text, "c.sgf")
    values = [a.value for a in back.games[0].actions if isinstance(a, m.Double)]
    assert values == [2, 2, None]
    assert convert([back], "mat").text == convert([match], "mat").text


def test_json_of_a_match_in_an_unknown_variant_keeps_its_games():
    """The replay plays no game of an unknown variant: the JSON writer wrote
    none of them (found by fuzz/fuzz_reader.py mat)."""
    [match] = formats.read_path(str(REGRESSIONS / "unknown-variant-json.mat"))
    doc = json.loads(convert([match], "json").text)
    assert len(doc["games"]) == 1 and len(doc["games"][0]["actions"]) == 2
    [back] = formats.parse_text(json.dumps(doc), "u.json")
    assert back == match


def test_a_cell_after_an_illegal_play_marker_is_not_swallowed():
    """The grammar reads the rest of an "Illegal play" cell's line as its
    text: the right cell goes on a line of its own (found by
    tests/test_round_trip_property.py)."""
    match = _match()
    game = match.games[0]
    game.actions[:2] = [m.IllegalPlayMarker(0, (3, 1), "Illegal play (8/5)"), m.Resign(1)]
    [back] = formats.parse_text(convert([match], "mat").text, "i.mat")
    assert [type(a) for a in back.games[0].actions[:2]] == [m.IllegalPlayMarker, m.Resign]


def test_a_later_match_keeps_its_comments():
    """Comment lines before a later match's header belong to the game
    before them: without a tag line, they go after the header."""
    a, b = _match(), _match(tags=[], comments=["; about the second match"])
    back = formats.parse_text(convert([a, b], "mat").text, "c.mat")
    assert back[1].comments == ["; about the second match"] and back[0].games[-1].comments == \
        a.games[-1].comments


def test_a_comment_that_reads_as_a_tag_is_refused_for_a_match_file():
    e = _refused([_match(comments=['; [Site "x"]'])], "mat")
    assert e.key == "GM507.mat-comment"


@pytest.mark.parametrize("tags", [True, False])
def test_a_comment_that_looks_like_a_tag_but_is_none_is_written_where_it_reads_back(tags):
    """``; [Player 2 Elo #2,00/0"]`` (a damaged tag line of a real Backgammon
    Galaxy file, found by test_fuzz_properties) is read as a comment; the
    writer refused every line of that look, so that convert --to mat of a
    file gamao reads failed. Before the length line (the first match, or
    after the tags) it reads back as the same comment; after it (a later
    match without tags) it would not, and is still refused."""
    odd = '; [Player 2 Elo #2,00/0"]'
    text = f'{odd}\n 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n' \
        "  1) 31: 8/5 6/5\n"
    [read] = formats.parse_text(text, "c.mat")
    assert read.comments == [odd]
    [back] = formats.parse_text(convert([read], "mat").text, "back.mat")
    assert back.comments == [odd]
    later = _match(tags=[m.Tag("Site", "x")] if tags else [], comments=[odd])
    if tags:
        back = formats.parse_text(convert([_match(), later], "mat").text, "two.mat")
        assert len(back) == 2 and back[1].comments == [odd]
    else:
        assert _refused([_match(), later], "mat").key == "GM507.mat-comment"


def test_a_game_without_a_score_line_gets_one_with_a_note():
    match = _match()
    match.games[1].score = None
    conv = convert([match], "mat")
    [back] = formats.parse_text(conv.text, "s.mat")
    assert back.games[1].score.names == match.players
    assert [n.key for n in conv.notes] == ["GM504.no-score-line"]


# -- streaming --------------------------------------------------------------

def test_writers_give_their_output_in_pieces_and_the_notes_after():
    match = _match()
    for target in ("mat", "sgf", "json"):
        result = formats.get(target).write([match])
        assert not result.consumed
        pieces = list(result.iter_chunks())
        assert len(pieces) >= len(match.games) > 1 and result.consumed
        assert result.errors == 2
        assert "".join(pieces) == convert([match], target).text


def test_atomic_write_takes_chunks_and_can_take_them_back(tmp_path):
    out = tmp_path / "o.mat"
    result = formats.get("mat").write([_match()])
    assert not atomic_write(out, result.iter_chunks(), commit=lambda: result.errors == 0)
    assert os.listdir(tmp_path) == []
    result = formats.get("mat").write([_match()])
    assert atomic_write(out, result.iter_chunks(), commit=lambda: True)
    assert out.read_text() == convert([_match()], "mat").text


def test_a_writer_refusing_midway_leaves_nothing(tmp_path):
    def chunks():
        yield "a"
        raise WriteRefused("GM507.no-matches", {"format": "x"})
    with pytest.raises(WriteRefused):
        atomic_write(tmp_path / "o.x", WriteResult(chunks=chunks()).iter_chunks())
    assert os.listdir(tmp_path) == []


def test_the_text_of_a_streamed_result_is_there_for_callers_that_read_it_first():
    result = formats.get("json").write([CLEAN])
    assert result.warnings == [] and result.errors == 0   # makes the output
    assert json.loads(result.text)["length"] == CLEAN.length


def test_reading_a_bounded_error_is_a_syntax_problem():
    assert issubclass(type(_error(HDR + "  1) 31: 8/5(12)\n", "r.mat")), SyntaxProblem)


def test_the_fuzz_harness_reads_every_format_of_the_registry(monkeypatch):
    """fuzz/fuzz_reader.py FORMAT runs common.one_input_format with the
    format's reader: the examples, written in each format, keep the contract
    (every writer's output reads back), and a new crash is not swallowed."""
    monkeypatch.syspath_prepend(str(ROOT / "fuzz"))
    import common
    matches = [CLEAN, _match()]
    xg_sample = ROOT.parent / "shared" / "corpus2" / "xg" / \
        "kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
    for fmt in formats.readable():
        if fmt.capabilities.write:
            data = convert(matches, fmt.name).text.encode("utf-8")
        elif fmt.name == "xg" and xg_sample.is_file():   # gamao reads .xg, never writes it
            data = xg_sample.read_bytes()
        else:
            continue
        common.one_input_format(data, fmt.name, "fuzz" + fmt.extensions[0], convert=True)
        common.one_input_format(data[: len(data) // 2], fmt.name, "fuzz", convert=True)
    monkeypatch.setattr(common, "round_trip_problems", lambda ms: ["a new bug"])
    with pytest.raises(AssertionError, match="a new bug"):
        common.one_input_format(convert([CLEAN], "json").text.encode(), "json", "f.json",
                                convert=True)


def test_the_fuzz_contract_locates_a_binary_format_by_byte_and_a_text_by_line(monkeypatch):
    """common.check_input_error takes an error of a binary format (XG)
    located by a byte offset inside the bytes read, and nothing less: no
    offset, an offset past the end, a text format's error with no line, or a
    message that is not its key's all break the contract."""
    from gamao_cli.errors import DamagedFile
    monkeypatch.syspath_prepend(str(ROOT / "fuzz"))
    import common
    good = DamagedFile("f.xg", key="GM006.xg-header-version", fields={"version": 2}, offset=4)
    common.check_input_error(good, binary=True, size=9000)
    for bad, kwargs in [
            (DamagedFile("f.xg", key="GM006.xg-header-version", fields={"version": 2}),
             {"binary": True}),
            (good, {"binary": True, "size": 3}),
            (good, {}),                                  # read as a text format: no line
            (DamagedFile("f.xg", "header version 2", offset=4), {"binary": True}),
            (DamagedFile("f.xg", "words of another key", key="GM006.xg-header-version",
                         fields={"version": 2}, offset=4), {"binary": True})]:
        with pytest.raises(AssertionError):
            common.check_input_error(bad, **kwargs)
    # the harness on damaged XG files: every one read or refused within the contract
    data = convert([CLEAN], "json").text.encode()   # not an XG file at all
    for junk in (b"", b"RGMH", b"RGMH" + bytes(9000), data):
        common.one_input_format(junk, "xg", "fuzz.xg", convert=False)


def test_make_seeds_builds_xg_seeds_that_reach_the_records(tmp_path, monkeypatch):
    """fuzz/make_seeds.py writes seeds-xg at run time from the shared XG
    files: each no longer than the bound, the repacked ones readable (a
    match with a game, or a position), all within the fuzz contract."""
    folder = ROOT.parent / "shared" / "corpus2" / "xg"
    if not folder.is_dir():
        pytest.skip(f"no XG samples in {folder}")
    monkeypatch.syspath_prepend(str(ROOT / "fuzz"))
    import common
    import make_seeds
    n = make_seeds.xg_seeds(folder, tmp_path / "seeds-xg", 32768)
    seeds = sorted((tmp_path / "seeds-xg").iterdir())
    assert n == len(seeds) >= 6
    games = 0
    for p in seeds:
        data = p.read_bytes()
        assert len(data) <= 32768 and data[:4] == b"RGMH"
        try:
            games += sum(len(mt.games) for mt in formats.get("xg").read(
                formats.Source.from_bytes(data, "s.xg")))
        except InputError:
            pass
        common.one_input_format(data, "xg", "fuzz.xg", convert=True)
    assert games >= 3     # the first game of each of the three matches, at least


def test_a_match_of_no_games_among_others_is_said_to_be_left_out_of_sgf():
    """SGF has a game tree per game: a match of no games cannot stand in it,
    and the writer says so (found by fuzz/fuzz_reader.py mat: it read back
    as one match fewer, which the harness took for a silent loss)."""
    empty = m.Match(13, [], [m.Tag("Site", "x")])
    conv = convert([empty, _match()], "sgf")
    assert [n.key for n in conv.notes if n.code == "GM504"] == ["GM504.no-games"]
    assert len(formats.parse_text(conv.text, "e.sgf")) == 1


def test_sgf_xt_or_xc_gamao_did_not_write_are_ignored():
    """XT with a tag name holding '"' (a tag line cannot) made gamao write
    JSON and a match file it could not read (found by fuzz/fuzz_reader.py
    sgf): XT and XC that do not hold a match file's tags and comment lines
    are not gamao's, and are ignored."""
    text = (SGF + 'PC[Club]XT[Site][Club][Player"2 Elo][0]XC[no marker]GC[a comment]'
            ";W[31hefe])")
    [match] = formats.parse_text(text, "x.sgf")
    assert [(t.name, t.value) for t in match.tags] == [("Site", "Club")]
    assert match.comments == ["; a comment"]
    for target in ("mat", "json", "sgf"):
        [back] = formats.parse_text(convert([match], target).text, f"b.{target}")
        assert back.tags == match.tags and back.comments == match.comments


def test_atomic_write_sends_chunks_to_standard_output_and_devices(capfdbinary, tmp_path):
    assert atomic_write("-", iter(["a", b"b", "\u00e7"]))
    assert capfdbinary.readouterr().out == "ab\u00e7".encode()
    assert atomic_write("/dev/null", iter(["x"] * 3))
    with pytest.raises(Exception) as exc:
        atomic_write(tmp_path / "o.mat", iter(["a", "\udc80"]))
    assert "cannot encode" in str(exc.value) and os.listdir(tmp_path) == []


def test_a_comment_with_a_vertical_tab_is_said_to_read_back_from_sgf_as_a_space(monkeypatch):
    """SGF's text turns a tab, vertical tab or form feed into a space, so a
    comment line ``; [EventDate "x"<VT>]`` read back from SGF is a tag line,
    which no match file can hold as a comment (found by fuzz/fuzz_reader.py
    mat, 2026-12-01). The SGF writer says so (GM505), and the fuzz contract
    holds."""
    monkeypatch.syspath_prepend(str(ROOT / "fuzz"))
    import common
    body = (EXAMPLES / "gnubg-selfplay-5pt.mat").read_text()
    text = '; [Site "x"]\n; [EventDate "2024.09.11"\x0b]\n' + body[body.index(" 5 point match"):]
    [match] = formats.parse_text(text, "vt.mat")
    assert any("\x0b" in c for c in match.comments)
    notes = convert([match], "sgf").notes
    assert [n.key for n in notes if n.code == "GM505"] == ["GM505.sgf-space"]
    back = formats.parse_text(convert([match], "sgf").text, "vt.sgf")
    assert not any("\x0b" in c for c in back[0].comments)   # what the note says
    common.one_input_format(text.encode(), "mat", "vt.mat", convert=True)


def test_a_tag_name_ending_in_a_no_break_space_reads_back_from_sgf(monkeypatch):
    """The match-file reader strips spaces and tabs from a tag's name, not a
    no-break space (``; [Site\\xa0 "x"]`` keeps ``Site\\xa0``); the SGF reader
    took such a name for one gamao never writes and ignored XT, so the tag
    read back as ``Site`` (found by fuzz/fuzz_reader.py mat, 2026-12-01)."""
    monkeypatch.syspath_prepend(str(ROOT / "fuzz"))
    import common
    body = (EXAMPLES / "gnubg-selfplay-5pt.mat").read_text()
    text = '; [Site\xa0 "BackgammonGalaxy"]\n' + body[body.index(" 5 point match"):]
    [match] = formats.parse_text(text, "nbsp.mat")
    assert match.tags[0].name == "Site\xa0"
    [back] = formats.parse_text(convert([match], "sgf").text, "nbsp.sgf")
    assert back.tags == match.tags
    common.one_input_format(text.encode(), "mat", "nbsp.mat", convert=True)
