"""The C loop of a replay page's position rows
(gamao_cli/render/_page_positions.c) against the Python loop it speeds up
(``_Page._position_rows``), the reference:

* the page of every file of the shared corpora, made with the kernel and
  without it: the same text, byte for byte (its data, fragments, links);
* a position the kernel cannot read (a board no ID holds, a player that is
  no 0 or 1, a side that is no tuple) stops it there, that row not made,
  and the Python loop makes the rest the same way;
* the positions' JSON written in C (``rows_json``) is ``_json_for_script``'s
  text for any rows of plain values, and anything else is left to it;
* a game's table of moves made in C (``moves_rows``) is ``moves_rows``'s,
  and a game with an action it does not make (no position, a mark, a
  diagnostic) is left to Python whole.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPUS, both_corpora_files, outcome_digest
from gamao_cli import kernels
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.render import html

KERNEL = kernels.kernel("gamao_cli.render._page_positions")
pytestmark = pytest.mark.skipif(
    KERNEL is None or html._POSITIONS is None,
    reason="the C kernel gamao_cli.render._page_positions is not built (or GAMAO_PURE_PYTHON "
           "is set): nothing to compare the Python page with")

def _page(path: Path) -> str:
    """A file's page (a digest of it)."""
    return outcome_digest(path, lambda matches: "".join(
        html.replay_page_parts(matches, path=path.name)))


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")
def test_every_page_of_the_corpus_is_the_same_with_and_without_the_kernel(monkeypatch):
    files = both_corpora_files()
    assert len(files) > 1700
    done, kernel = [], html._POSITIONS

    class Counting:
        rows_json = kernel.rows_json
        moves_rows = kernel.moves_rows

        @staticmethod
        def position_rows(snaps, *rest):
            got = kernel.position_rows(snaps, *rest)
            done.append((got, len(snaps)))
            return got
    monkeypatch.setattr(html, "_POSITIONS", Counting)
    with_kernel = {p: _page(p) for p in files}
    # the kernel made the rows (of every page without analysis: the corpus
    # has no board it declines; the unit test below stops it)
    assert sum(k for k, _n in done) > 200_000
    monkeypatch.setattr(html, "_POSITIONS", None)
    differ = [p for p in files if _page(p) != with_kernel[p]]
    assert not differ, differ[:10]


_TEXT = (" 3 point match\n\n Game 1\n A : 0   B : 0\n"
         "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
         "  2) 64: 24/18 13/9              66: 24/18(2) 13/7(2)\n")


def _args(snaps, page):
    return [snaps, 0, "", {}, {}, page.games, page.snaps, {}, html._BOARD_IDS, {},
            html._page_steps, html._DICE_TEXT, html._NO_DIAGS, html._NO_STEPS,
            html.m.Play]


def _snaps_of(text: str = _TEXT):
    """A page's positions as add_match hands them to the loop, and the
    page (its games), by running add_match with a kernel that only keeps
    its arguments."""
    seen = []

    class Keeping:
        @staticmethod
        def moves_rows(*args):
            return None   # (the table of moves: Python's)

        @staticmethod
        def position_rows(*args):
            seen.append(args)
            return len(args[0])   # "all made": nothing for Python either
    saved = html._POSITIONS
    html._POSITIONS = Keeping
    try:
        page = html._Page(1)
        page.add_match(0, read_matches(text)[0], None)
    finally:
        html._POSITIONS = saved
    [args] = seen
    return list(args), page


def test_a_position_the_kernel_cannot_read_stops_it_there():
    args, page = _snaps_of()
    snaps = args[0]
    assert len(snaps) == 4 and page.snaps == []
    # the Python loop's rows of the same positions, made by the page itself
    reference = html._Page(1)
    saved = html._POSITIONS
    html._POSITIONS = None
    try:
        reference.add_match(0, read_matches(_TEXT)[0], None)
    finally:
        html._POSITIONS = saved
    args[6] = page.snaps = []
    for game in page.games:
        game["first"] = -1
    assert KERNEL.position_rows(*args) == 4
    # (the reference's rows have their diagnostics, added after the loop)
    for row in reference.snaps:
        row[15] = html._NO_DIAGS
    assert page.snaps == reference.snaps and args[7] == {
        id(s[2].action): k for k, s in enumerate(snaps)}
    # a side that is no tuple at the third position: two rows made, none of it
    odd = list(snaps)
    r = odd[2][2]
    position = type(r.position)(list(r.position.me), r.position.opp)
    odd[2] = odd[2][:2] + (type(r)(r.action, r.turn, position, r.cube, r.cube_owner, r.steps),) \
        + odd[2][3:]
    args[0], args[6], args[7] = odd, [], {}
    assert KERNEL.position_rows(*args) == 2
    assert args[6] == reference.snaps[:2] and len(args[7]) == 2
    # a board the board kernel declines (no ID holds it) at the first
    args[0], args[6], args[7] = snaps, [], {}
    args[8] = lambda me, opp, bottom: None
    assert KERNEL.position_rows(*args) == 0 and args[6] == [] and args[7] == {}
    with pytest.raises(TypeError):
        KERNEL.position_rows(snaps)


def test_the_rows_json_is_the_page_datas_json():
    rows = [[0, "0000005030000500000000002000000050300005000000000020", "4HPwATDgc/ABMA",
             "MIBlAAAAAAAE", "-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:3:10", 0, "31", 1,
             -1, 0, -1, [], "g1m1", 5, 6, (), 0, 1, -1],
            [1, "", "", "", "", 1, "", 2, 0, 1, 0, [24, 18, 0, 13, 7, 1], "s12", 0, 0, [3, 4],
             1, None, 7, True, False, 10 ** 17]]
    assert KERNEL.rows_json(rows) == html._json_for_script(rows)
    assert KERNEL.rows_json([]) == "[]"


@pytest.mark.parametrize("odd", [
    0.5,                      # a float: json writes it
    "a<b", "a&b", 'say "x"', "back\\slash", "tab\there",   # escapes, JSON's or the script's
    "Jos\u00e9",              # not ASCII
    10 ** 30,                 # an int no long long holds
    {"a": 1},                 # another type
    [[[[1]]]],                # nested deeper than a row's lists
])
def test_the_rows_json_leaves_what_it_does_not_write_to_python(odd):
    assert KERNEL.rows_json([[1, odd]]) is None
    assert KERNEL.rows_json(("no", "list")) is None


from hypothesis import given, strategies as st   # noqa: E402

_PLAIN = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e,
                                        blacklist_characters='"\\<>&'), max_size=12)
_ANY_TEXT = st.text(max_size=6)
_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 63, 2 ** 63 - 1), _PLAIN)


@given(st.lists(st.lists(st.one_of(_LEAF, st.lists(st.integers(-5, 30), max_size=6)),
                         max_size=20), max_size=5))
def test_plain_rows_are_written_as_json_writes_them(rows):
    assert KERNEL.rows_json(rows) == html._json_for_script(rows)


@given(st.lists(st.lists(st.one_of(_LEAF, _ANY_TEXT, st.floats(allow_nan=False)), max_size=8),
                max_size=4))
def test_any_rows_are_written_as_json_writes_them_or_left_to_it(rows):
    text = KERNEL.rows_json(rows)
    assert text is None or text == html._json_for_script(rows)


def _moves_args(text: str = _TEXT):
    page = html._Page(1)
    match = read_matches(text)[0]
    seen = []
    real = html._Page.moves_rows

    def keeping(self, g, snap_of_action, diags_of_action):
        seen.append((g, snap_of_action, diags_of_action))
        return real(self, g, snap_of_action, diags_of_action)
    saved = html._POSITIONS
    html._POSITIONS = None
    html._Page.moves_rows = keeping
    try:
        page.add_match(0, match, None)
    finally:
        html._POSITIONS = saved
        html._Page.moves_rows = real
    [(game, snap_of_action, diags_of_action)] = seen
    return page, game, snap_of_action, diags_of_action


def test_the_kernels_table_of_moves_is_pythons():
    page, game, snap_of_action, diags = _moves_args(_TEXT + "  3)                              Wins 1 point\n")
    args = [game.actions, snap_of_action, page.snaps, html._SHOWN_TEXTS.data, html._shown_text,
            html._KINDS, html._kind, {}, {}]
    made = KERNEL.moves_rows(*args)
    assert made == page.moves_rows(game, snap_of_action, {})
    assert made[0] == '<tr><th scope="row">1</th>' and made[-4] == '<tr><th scope="row">3</th>'
    assert 'data-frag="g1m1r"' in made[2]
    # an action with a mark, with a diagnostic, or with no position: the game to Python
    a = game.actions[2]
    assert KERNEL.moves_rows(*args[:7], {id(a): ("bad", 0.1)}, {}) is None
    assert KERNEL.moves_rows(*args[:8], {id(a): ["GM201"]}) is None
    assert KERNEL.moves_rows(game.actions, {k: v for k, v in snap_of_action.items() if k != id(a)},
                             *args[2:]) is None
    with pytest.raises(TypeError):
        KERNEL.moves_rows(game.actions)
