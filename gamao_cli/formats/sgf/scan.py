"""A fast reading of SGF's game trees: the trees the grammar
(``grammar/sgf.lark``, parsed by Lark with :class:`~.reader.SgfBuilder`)
gives, made by one regular expression and a loop, for a text the grammar
accepts; for any other text it gives None and the grammar reads it (and says
what is wrong, where). The grammar is the definition: this is only quicker
(an analysed record is a few thousand tokens a game, and Lark spends about
a third of an export of analysed SGF on them), and
``tests/formats/test_sgf_scan.py`` holds the two to the same trees on every
SGF file of the corpora and on damaged copies of them.

Tokens as the grammar has them: ``(``, ``)``, ``;``, an identifier
``[A-Za-z]+``, a bracketed value (escapes included, line ends too), and
between any two of them the white space ``[ \\t\\f\\v\\r\\n]*``; lines and
columns as Lark counts them (from 1, a line ended by ``\\n``).

>>> from gamao_cli.formats.sgf.reader import ANALYSIS_PROPERTIES, KEPT, _TEXT
>>> def scan(text): return scan_trees(text, KEPT, ANALYSIS_PROPERTIES, _TEXT)
>>> text = "(;FF[4]GM[6]C[two\\nlines](;B[31hefe])(;W[52]))"
>>> [t] = scan(text)
>>> [sorted(n) for n in t.nodes], len(t.children), t.children[0].nodes[0]["B"].values_at
([['C', 'GM']], 2, [(2, 10)])
>>> scan("(;FF[4]GM[6]") is None, scan("(;FF[4] GM)") is None
(True, True)
"""
from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from typing import Any

from .trees import SgfProp, SgfTree, _ident, unescape

#: One token after the white space before it: the group that matched says
#: which (1 a parenthesis, 2 ";", 3 an identifier, 4 a value).
_TOKEN = re.compile(r"[ \t\f\v\r\n]*(?:([()])|(;)|([A-Za-z]+)|(\[[^\]\\]*(?:\\.[^\]\\]*)*\]))",
                    re.S)
_WHITE = re.compile(r"[ \t\f\v\r\n]*\Z")


def scan_trees(text: str, kept: AbstractSet[str], raw_values: AbstractSet[str],
               text_values: AbstractSet[str]) -> list[SgfTree] | None:
    """The game trees of ``text`` (:class:`~.trees.SgfTree`, as
    :func:`~.reader.parse_trees` gives them), or None when the grammar
    would not read the text as it is (the caller then parses it with the
    grammar). As the reader keeps them: only the properties in ``kept``,
    those in ``raw_values`` with their values as written (no escape
    removed, no place of each value), those in ``text_values`` with their
    line ends kept."""
    KEPT, RAW, TEXT = kept, raw_values, text_values
    match = _TOKEN.match
    count, rfind = text.count, text.rfind
    trees: list[Any] = []
    stack: list[Any] = []      # the open trees, innermost last
    tree: SgfTree | None = None
    branched = False           # the innermost tree has a variation (no node may follow)
    node: dict[str, Any] | None = None
    # the property being read: its values (None: no property), and how
    values: list[str] | None = None
    values_at: list[tuple[int, int]] = []
    name = ""
    keep = raw = as_text = False
    prop_at = (0, 0)
    pos, line, start_of_line = 0, 1, 0
    end = len(text)
    while pos < end:
        mt = match(text, pos)
        if mt is None:
            if _WHITE.match(text, pos) is None:
                return None
            break
        kind = mt.lastindex
        at = mt.start(kind)
        newlines = count("\n", pos, at)
        if newlines:
            line += newlines
            start_of_line = rfind("\n", pos, at) + 1
        pos = mt.end()
        if kind == 4:              # a value: of the property being read
            if values is None:
                return None
            if keep:
                value = mt.group(4)
                if raw:
                    values.append(value[1:-1])
                else:
                    values.append(unescape(value, as_text))
                    values_at.append((line, at - start_of_line + 1))
            else:
                values.append("")
            newlines = count("\n", at, pos)
            if newlines:
                line += newlines
                start_of_line = rfind("\n", at, pos) + 1
            continue
        if values is not None:     # the property before ends here
            if not values:
                return None
            if keep:
                old = node.get(name)
                if old is None:
                    node[name] = SgfProp(name, values, prop_at[0], prop_at[1],
                                         [] if raw else values_at)
                else:   # a repeated property: its values add up
                    old.values.extend(values)
                    if not raw:
                        old.values_at.extend(values_at)
            values = None
        column = at - start_of_line + 1
        if kind == 3:              # an identifier: a property of the node
            if node is None:
                return None
            name = _ident(mt.group(3))
            keep = name in KEPT
            raw = name in RAW
            as_text = name in TEXT
            values = []
            values_at = []
            prop_at = (line, column)
        elif kind == 2:            # a node
            if tree is None or branched:
                return None
            node = {}
            tree.nodes.append(node)
        elif mt.group(1) == "(":   # a tree: at the top, or a variation
            if tree is not None:
                if not tree.nodes:
                    return None
                tree_of = tree
                stack.append((tree, True))
            else:
                tree_of = None
            tree = SgfTree(line, column, [], [])
            if tree_of is not None:
                tree_of.children.append(tree)
            branched = False
            node = None
        else:                      # ")": the tree ends
            if tree is None or not tree.nodes:
                return None
            if stack:
                tree, branched = stack.pop()
            else:
                trees.append(tree)
                tree = None
            node = None
    return _closed(trees, stack if tree is None else [tree], values)


def _closed(trees: list[Any], open_trees: list[Any], values: list[str] | None
            ) -> list[Any] | None:
    """The trees, when the text ended with every tree closed (and at least
    one); else None."""
    return trees if trees and not open_trees and values is None else None
