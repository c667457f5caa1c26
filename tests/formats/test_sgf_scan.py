"""The fast reading of SGF's trees (gamao_cli/formats/sgf/scan.py) against
the grammar (grammar/sgf.lark, parsed by Lark): the same trees -- every
kept property's values, the line and column of each property, value and
tree -- on every SGF file of the corpora, on gamao's own SGF of the
examples, and on damaged copies of them, where the fast reading must either
give the grammar's trees or leave the text to the grammar (None), and must
leave to it every text the grammar refuses."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import CORPUS, EXAMPLES, SELFPLAY
from lark.exceptions import UnexpectedInput

from gamao_cli.formats.sgf import scan
from gamao_cli.formats.sgf.reader import (
    _TEXT,
    ANALYSIS_PROPERTIES,
    KEPT,
    _parser,
    parse_trees,
)
from gamao_cli.formats.textio import decode_bytes

CORPUS2 = CORPUS.parent / "corpus2"
DATA = Path(__file__).resolve().parents[1] / "data"


def scan_trees(text: str):
    """The fast reading, keeping what the reader keeps."""
    return scan.scan_trees(text, KEPT, ANALYSIS_PROPERTIES, _TEXT)


def dump(trees) -> list:
    """Everything of the trees the reader reads, as plain values."""
    def tree(t):
        return [t.line, t.column,
                [[(name, p.values, p.line, p.column, p.values_at) for name, p in node.items()]
                 for node in t.nodes],
                [tree(c) for c in t.children]]
    return [tree(t) for t in trees]


def grammar_trees(text: str):
    """The grammar's trees of ``text``, or None when it refuses it."""
    try:
        return _parser().parse(text)
    except UnexpectedInput:
        return None


def sgf_texts() -> list[tuple[str, str]]:
    files = [p for root in (CORPUS, CORPUS2, DATA) if root.is_dir()
             for p in sorted(root.rglob("*.sgf"))]
    out = []
    for p in files:
        text = decode_bytes(p.read_bytes(), str(p))[0]
        out.append((str(p), text[1:] if text.startswith("\ufeff") else text))
    return out


def gamao_sgf_texts() -> list[tuple[str, str]]:
    """gamao's own SGF (its XA nodes, escapes, comments) of the examples and
    the self-play records."""
    from gamao_cli import formats
    from gamao_cli.errors import GamaoError
    from gamao_cli.formats.sgf.writer import write_sgf
    out = []
    for p in sorted(EXAMPLES.glob("*.mat")) + sorted(SELFPLAY.glob("*.mat"))[:6]:
        try:
            matches = formats.read_path(str(p))
            out.append((str(p), write_sgf(matches).text))
        except GamaoError:   # an example that is no match, or one SGF cannot hold
            continue
    return out


def test_the_fast_reading_gives_the_grammars_trees_on_every_sgf_file():
    texts = sgf_texts() + gamao_sgf_texts()
    assert len(texts) > 20
    for label, text in texts:
        expected = grammar_trees(text)
        assert expected is not None, label
        fast = scan_trees(text)
        assert fast is not None, label   # a file of a real program: the fast way
        assert dump(fast) == dump(expected), label


def _damaged(text: str, rng: random.Random) -> str:
    """``text`` with one small damage where SGF's syntax lives: a bracket,
    parenthesis, semicolon, backslash or letter dropped, doubled or put
    in; a line end or space put in; or the text cut."""
    specials = [i for i, ch in enumerate(text) if ch in "[]();\\" or ch.isalpha()] or [0]
    i = rng.choice(specials) if rng.random() < 0.8 else rng.randrange(len(text) + 1)
    what = rng.randrange(5)
    if what == 0:
        return text[:i] + text[i + 1:]
    if what == 1:
        return text[:i] + text[i:i + 1] + text[i:]
    if what == 2:
        return text[:i] + rng.choice("[]();\\aZ") + text[i:]
    if what == 3:
        return text[:i] + rng.choice(["\n", " ", "\r\n", "\t", "\x0b", "\u00a0"]) + text[i:]
    return text[:i]


def test_on_damaged_sgf_the_fast_reading_gives_the_grammars_trees_or_leaves_it_to_the_grammar():
    rng = random.Random(20261204)
    sources = []
    for _label, t in sgf_texts() + gamao_sgf_texts():
        if len(t) > 30_000:   # an analysed record: its first nodes, closed (the grammar is slow)
            cut = t.find(";", 20_000)
            t = t[:cut] + ")" if cut > 0 else ""
        if grammar_trees(t) is not None:
            sources.append(t)
    assert len(sources) > 30
    taken = refused = 0
    for n in range(1000):
        text = rng.choice(sources)
        for _ in range(rng.choice((1, 1, 2, 3))):
            text = _damaged(text, rng)
        expected = grammar_trees(text)
        fast = scan_trees(text)
        if expected is None:
            assert fast is None, (n, text[:200])
            refused += 1
        elif fast is not None:
            assert dump(fast) == dump(expected), n
            taken += 1
    assert taken > 200 and refused > 200, (taken, refused)


@pytest.mark.parametrize("text", [
    "", "  ", "(", "()", "(;)", "(;)(;)", "(;A[1](;B[2]))", "(;A[1](;B[2]);C[3])",
    "(;A)", "(;A[1]B)", "(;[1])", ";A[1]", "(;A[1]))", "(;A[1]", "(;A[x\\]y]\n)",
    "(;A[1][2]A[3])", "(;a[1]Ab[2]CoPyright[3])", "(;A[1]\n\n  ;B[2\n3] C[4])\n\n",
    "(;A[1])x", "(;A[1]) (;B[2])", "(\u00a0;A[1])", "(;A[1] [2])", "(;C[a\\\nb]GC[x\\\\]])",
])
def test_the_fast_reading_of_small_texts_is_the_grammars(text):
    expected = grammar_trees(text)
    fast = scan_trees(text)
    if expected is None:
        assert fast is None
    else:
        assert fast is not None and dump(fast) == dump(expected)


def test_a_text_the_grammar_refuses_gets_the_grammars_message():
    from gamao_cli.errors import SyntaxProblem
    with pytest.raises(SyntaxProblem) as exc:
        parse_trees("(;GM[6]\n;B[31]C)", "x.sgf")
    assert (exc.value.line, exc.value.column) == (2, 8)   # the ")" after C
