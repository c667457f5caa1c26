"""The C loop of the actions table's rows (gamao_cli/tables/_action_cells.c)
against the Python loop it speeds up (``rows._game_cells``), the reference:

* every match of the shared corpora, its rows made with the kernel and
  without it: the same rows in all four tables (every column), the same
  match id;
* a game the kernel cannot read (an action of another class, one with a
  diagnostic or analysis, records not in the actions' order, dice that are
  not two ints) is declined before anything is made;
* a failure in the middle of a game (a board function raising) leaves
  nothing of that game behind and raises.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPUS, both_corpora_files, outcome_digest
from gamao_cli import kernels
from gamao_cli import model as m
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.ids.board import board_facts_reference
from gamao_cli.replay.replay import validate_match
from gamao_cli.replay.snapshots import game_state_ids
from gamao_cli.tables import rows

KERNEL = kernels.kernel("gamao_cli.tables._action_cells")
pytestmark = pytest.mark.skipif(
    KERNEL is None or rows._CELLS is None,
    reason="the C kernel gamao_cli.tables._action_cells is not built (or GAMAO_PURE_PYTHON is "
           "set): nothing to compare the Python rows with")

def _tables(path: Path) -> str:
    """Every match of a file as the four tables' rows (a digest of them)."""
    def rows_of(matches):
        out = []
        for k, match in enumerate(matches):
            r = rows.match_rows(match, path=str(path), index=k, fmt="any")
            out.append((r.match, r.games, r.actions, r.decisions))
        return out
    return outcome_digest(path, rows_of)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")
def test_every_match_of_the_corpus_has_the_same_rows_with_and_without_the_kernel(monkeypatch):
    files = both_corpora_files()
    assert len(files) > 1700
    made, kernel = [], rows._CELLS

    class Counting:
        @staticmethod
        def game_cells(*args):
            got = kernel.game_cells(*args)
            made.append(got is not None)
            return got
    monkeypatch.setattr(rows, "_CELLS", Counting)
    with_kernel = {p: _tables(p) for p in files}
    # the kernel made most games' rows, and left some to Python
    assert sum(made) > 4000 and not all(made)
    monkeypatch.setattr(rows, "_CELLS", None)
    differ = [p for p in files if _tables(p) != with_kernel[p]]
    assert not differ, differ[:10]


_GAME = (" 3 point match\n\n Game 1\n A : 0   B : 0\n"
         "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
         "  2)  Doubles => 2                Takes\n"
         "  3) 64: 24/18 13/9              66:\n"
         "  4)                              Wins 2 points\n")


def _game_args(text: str = _GAME, *, on_action=None, records=None, placed=None):
    [match] = read_matches(text)
    report = validate_match(match, keep_records=True)
    game, result = match.games[0], report.games[0]
    cols = tuple([] for _name in rows.ACTION_CELLS)
    return (game.actions, result.records if records is None else records,
            game_state_ids(match, report)[0] if placed is None else placed,
            on_action or {}, cols, [], {}, rows._step_texts, rows._FACTS, board_facts_reference)


def test_the_kernel_makes_a_plain_games_rows_as_python_does():
    args = _game_args()
    assert KERNEL.game_cells(*args) == 4   # the rolls: 31, 42, 64 and the dance 66
    cols, lines = args[4], args[5]
    # the Python loop's cells and lines of the same game
    [match] = read_matches(_GAME)
    report = validate_match(match, keep_records=True)
    table = rows.ActionTable("x", 0)
    canonical: list[str] = []
    assert rows._game_cells(match.games[0], report.games[0], game_state_ids(match, report)[0],
                            {}, table, canonical, []) == 4
    assert cols == table.cols and lines == canonical
    assert lines[:3] == ["0 roll 31 8/5 6/5", "1 roll 42 8/4 6/4", "0 double"]
    assert cols[rows.ACTION_CELLS.index("xgid")][0].startswith("XGID=")


@pytest.mark.parametrize("change", [
    "a set-up position",     # an action of a class the kernel does not know
    "a diagnostic",          # on one action
    "analysis",              # on one action
    "records out of order",
    "a record of no action",
    "dice of floats",
])
def test_what_the_kernel_cannot_read_is_left_to_python(change):
    args = list(_game_args())
    actions, records = list(args[0]), list(args[1])
    if change == "a set-up position":
        actions.insert(0, m.SetUp(0, None))
    elif change == "a diagnostic":
        args[3] = {id(actions[2]): ["a diagnostic"]}
    elif change == "analysis":
        actions[1].analysis = {"equity": 0.1}
    elif change == "records out of order":
        records[0], records[1] = records[1], records[0]
    elif change == "a record of no action":
        records.append(records[0])
    else:
        actions[0] = m.Play(0, (3.0, 1), m.parse_steps("8/5 6/5"))
    args[0], args[1] = actions, records
    assert KERNEL.game_cells(*args) is None
    assert all(col == [] for col in args[4]) and args[5] == []


def test_a_failure_in_the_middle_of_a_game_leaves_nothing_of_it():
    args = list(_game_args())
    calls = []

    def failing(me, opp, bottom):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("no board")
        return board_facts_reference(me, opp, bottom)
    args[8] = failing
    cols, lines = args[4], args[5]
    for col in cols:
        col.append("earlier")   # a row of an earlier game stays
    with pytest.raises(RuntimeError, match="no board"):
        KERNEL.game_cells(*args)
    assert all(col == ["earlier"] for col in cols) and lines == []
    with pytest.raises(TypeError):
        KERNEL.game_cells(args[0])
