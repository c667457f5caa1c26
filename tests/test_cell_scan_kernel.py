"""The C kernel of the match-file reader (``formats/mat/_cell_scan.c``)
against the Python loop it stands in for (``MatchFileBuilder._runs``, the
reference): the same reading of the whole corpus, and of random move text,
down to every action's line, column, move number and side, or the same
exception."""
from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamao_cli import kernels
from gamao_cli.formats.mat import reader

from conftest import CORPUS, read

KERNEL = kernels.kernel("gamao_cli.formats.mat._cell_scan")

pytestmark = pytest.mark.skipif(
    KERNEL is None or reader._CELL_SCAN is None,
    reason="the C kernel gamao_cli.formats.mat._cell_scan is not built "
           "(no compiler at install time) or GAMAO_PURE_PYTHON is set")

CORPUS2 = CORPUS.parent / "corpus2"
_MISSING = object()


def snap(o, depth=0):
    """Everything an object holds, as plain data (each slot of each class of
    its MRO, each dataclass field), for an exact comparison."""
    if isinstance(o, (list, tuple)):
        return (type(o).__name__, [snap(x, depth) for x in o])
    if isinstance(o, dict):
        return ("dict", sorted((k, snap(v, depth)) for k, v in o.items()))
    if isinstance(o, (str, int, float, bool, type(None), frozenset)) or callable(o):
        return (type(o).__name__, o)
    names = []
    for cls in type(o).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if name not in ("__weakref__", "__dict__") and name not in names:
                names.append(name)
    if dataclasses.is_dataclass(o):
        names += [f.name for f in dataclasses.fields(o) if f.name not in names]
    out = [type(o).__name__]
    out += [(n, snap(getattr(o, n, _MISSING), depth + 1)) for n in names]
    if isinstance(o, reader.m.Play):   # the steps made from the text, too
        out.append(("moves", snap(o.moves, depth + 1)))
    return tuple(out)


def outcome(fn):
    """What ``fn()`` gives, or the exception it raises, as plain data."""
    try:
        return ("ok", snap(fn()))
    except Exception as exc:  # noqa: BLE001 - any difference counts
        return ("raises", type(exc).__name__, str(exc), exc.args,
                getattr(exc, "line", None), getattr(exc, "column", None),
                snap(getattr(exc, "actions_so_far", None)))


def both_ways(fn):
    """(with the kernel, without it)."""
    with_kernel = outcome(fn)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "_CELL_SCAN", None)
        pure = outcome(fn)
    return with_kernel, pure


def _corpus_files():
    files = []
    for folder in (CORPUS, CORPUS2):
        if folder.is_dir():
            files += sorted(p for p in folder.rglob("*") if p.is_file())
    return files


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")
def test_whole_corpus_read_alike():
    """Every file of the corpus (bulk included) and corpus2 that decodes as
    text: the reader with the kernel and without it reads the same matches,
    or fails alike."""
    read_files = 0
    for i, path in enumerate(_corpus_files()):
        try:
            text = read(path)
        except Exception:  # noqa: BLE001 - not text: not the mat reader's
            continue
        if i % 10 == 0:   # the kernel meets cells not yet in the cache too
            reader._ROLL_PLAYS.clear()
        with_kernel, pure = both_ways(lambda: reader.read_matches(text, str(path)))
        assert with_kernel == pure, path
        read_files += with_kernel[0] == "ok"
    assert read_files > 1700


def test_kernel_in_use():
    """The differential tests compare two different things: the reader's
    _runs goes through the kernel."""
    calls = []
    real = reader._CELL_SCAN

    def spy(*args):
        calls.append(args[1])
        return real(*args)

    reader._CELL_SCAN = spy
    try:
        [mt] = reader.read_matches(
            " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   62: 24/18 13/11\n")
    finally:
        reader._CELL_SCAN = real
    assert calls and len(mt.games[0].actions) == 2


# -- random move text ---------------------------------------------------------
# Built with a random.Random of a seed that hypothesis draws, so that the odds of the
# odd pieces stay low (hypothesis's own choices favour the edges, and one odd
# piece makes the whole text junk): mostly cells the kernel takes, now and
# then one it must leave to the regular expression.

_RARE = 0.006


def _pick(rng, common, rare, odds=_RARE):
    return rng.choice(rare if rng.random() < odds else common)


def _point(rng):
    return _pick(rng, ["1", "6", "13", "24", "25", "0", "100", "999", "bar", "Bar", "BAR", "bAr",
                       "b", "B", "off", "Off", "OFF", "o", "O"],
                 ["1000", "12345", "ba", "of", "٣", "1٣", "x", "Ｂar", "ſ", ""])


def _step(rng):
    text = _point(rng) + _pick(rng, ["", "", "*"], ["**", "٭"])
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text += _pick(rng, ["/"], ["-", "//", "\\"]) + _point(rng) + \
            _pick(rng, ["", "", "*"], ["**"])
    return text + _pick(rng, ["", "", "", "(2)", "(3)"],
                        ["(12)", "(", "(2", "()", "(٣)", "(2)(2)"])


def _roll_play(rng):
    text = _pick(rng, ["31", "66", "52", "64", "00"], ["3١", "7", "٣١"]) + ":" + \
        _pick(rng, [" ", " ", "  ", "\t", "   "], ["", "\u00a0"])
    for i in range(rng.choice([1, 2, 2, 2, 3, 4])):
        if i:
            text += _pick(rng, [" ", " ", "\t"], ["  ", "", "\u3000"])
        text += _step(rng)
    return text


_OTHER_CELLS = ["66:", "61: ????", "31: Cannot Move", "31: cannot  move", "62: Concedes",
                "31: Illegal play (0;0;1)", "Doubles => 2", "Doubles", "Beavers => 4", "Takes",
                "Drops", "Pass", "Wins 2 points", "Wins 1 point and the match", "wins 4 POINTS",
                "Loss 2 points", "Resigns", "Resign gammon", "????", "Concedes",
                # dances and what the cells tried before ROLL may take after one
                "66:", "44:", "66:  Cannot Move", "66:     ????", "66:      ????", "66: Resigns",
                "66: resignsx", "66: Illegal play", "66:\tillegal   PLAY (1;2)", "66: Cannot",
                "66: ?", "66: ??", "66: Concede", "66:\t\tiLLEGAL play",
                # the other cells the kernel takes, and spellings next to theirs it must leave
                "Doubles => 2", "Double => 16", "Doubles => 0032", "Doubles ==> 4", "Doubles=>8",
                "Doubles\t=>\t2", "Doubles => 2x", "Doubles =>", "Doubles => x", "Doubles =",
                "Doubles  ", "Doublesx", "DOUBLES => 2", "doubles => 2", "Doub", "Dou", "Do",
                "Doubles => 1234567890123456789", "Double", "Take", "Takes_", "Takes2", "TAKES",
                "Tak", "Drop", "Drops", "Dropsy", "Dr", "drops", "Wins 1 point", "Wins 2 points",
                "Wins 10 points and the match", "Wins 1 point  and\tthe  match",
                "Wins 1 point and the matchx", "Wins 1 point and the", "Wins 1 point And the match",
                "Wins 1 point and", "Wins 1 point a", "Wins 1 point   ", "Wins 1 pointsx",
                "Wins 1 pointx", "Wins  3\tpoints", "Wins x points", "Wins 1", "Wins",
                "Wins 12345678901234567890 points", "Loss 1 point", "Losses 2 points",
                "Losses 2 points and the match", "Losse 2 points", "Losses 2 pointsx", "Loss 2",
                "LOSSES 1 point", "66: Cannot Move", "66: Cannot\tMove", "66:\tCannot  Movex",
                "66: Cannot Mov", "66: Cannotmove", "66:Cannot Move"]
_JUNK = ["junk", "é", "٣", "12:", "8/5", "x1", "31: 8/5 6/5 junk", "Takesx", "31: 8/5x",
         "Takeſ", "Doubles => ٣", "Wins 1 pointſ", "Wins 1 point é", "Wins 1 point and the matché",
         "66: Cannot Moveé", "\r", "Drops\u00a0"]


def _cell(rng):
    if rng.random() < 0.8:
        return _roll_play(rng)
    return _pick(rng, _OTHER_CELLS, _JUNK, 0.03)


def _line(rng):
    text = rng.choice(["", " ", "  ", "\t", "    ", " " * 22, " " * 23, " " * 26, "\t\t\t"])
    if rng.random() < 0.7:
        text += _pick(rng, ["1)", "12)", "999)", "07)"],
                      ["١)", "1234567890123456789012)", "123456789012345678)", "x)"])
    for _ in range(rng.choice([0, 1, 2, 2, 2, 3])):
        text += _pick(rng, [" ", "  ", "     ", "      ", "       ", "                ", "\t",
                            "\t\t", " \t", "   \t   "], [""])
        if rng.random() < 0.1:
            text += _pick(rng, ["12) ", "3)\t"], ["4)", "١) "], 0.2)
        text += _cell(rng)
    return text


def _move_text(rng):
    lines = [_line(rng) if rng.random() < 0.85 else "" for _ in range(rng.randrange(9))]
    return "\n" + "\n".join(lines) + rng.choice(["\n", "\n", "\n\n", "\n \n\t", ""]) + \
        rng.choice(["", " ", "  ", "\t", "\n", "\n\n "])


def _runs(text: str, start: int, number):
    reader._parser()
    actions = []
    try:
        reader._parser().options.transformer._runs(text, start, 7, -3, number, actions)
    except Exception as exc:
        exc.actions_so_far = actions
        raise
    return actions


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64))
def test_random_move_text_alike(seed):
    """_runs with the kernel and without: the same actions, or the same
    exception after the same actions."""
    rng = random.Random(seed)
    text, line = _move_text(rng), _line(rng)
    # from a line break (a game's move text after its score line) ...
    k, p = both_ways(lambda: _runs(text, 0, None))
    assert k == p
    # ... and from a line's first cell (MOVES: after its move number)
    head = "  5)" + line + text
    k, p = both_ways(lambda: _runs(head, 4, 5))
    assert k == p


def test_random_move_text_reads_something():
    """The generated text is not all junk: the common cells go through the
    kernel and make plays (a guard on the property above)."""
    text = "\n  1) 31: 8/5 6/5      \t 62: 24/18 13/11\n  2)                 66: bar/18(2) 13/7*\n"
    k, p = both_ways(lambda: _runs(text, 0, None))
    assert k == p and k[0] == "ok" and len(k[1][1]) == 3
