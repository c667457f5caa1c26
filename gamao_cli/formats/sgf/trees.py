"""SGF's game trees as the reader keeps them: a tree's nodes, each a dict
of its kept properties (:class:`SgfProp`: identifier, values with their
escapes removed, where it stands), and its variations. Made from the text by
the grammar (:class:`~.reader.SgfBuilder`) or, quicker, by
:func:`~.scan.scan_trees`, which give the same trees."""
from __future__ import annotations

import re

_ESCAPE_RE = re.compile(r"\\(\r\n|\n\r|\n|\r|.)", re.S)
_SPACE_RE = re.compile(r"[\t\v\f]")


class SgfProp:
    """One property: its identifier, its values (escapes removed) and where
    it stands; ``values_at`` holds the (line, column) of each ``[``."""

    __slots__ = ("name", "values", "line", "column", "values_at")

    def __init__(self, name: str, values: list[str], line: int, column: int,
                 values_at: list[tuple[int, int]]):
        self.name = name
        self.values = values
        self.line = line
        self.column = column
        self.values_at = values_at

    @property
    def value(self) -> str:
        return self.values[0] if self.values else ""

    def __repr__(self) -> str:
        return f"SgfProp({self.name!r}, {self.values!r})"


class SgfTree:
    """A game tree: its nodes (each a dict of kept properties) and variations."""

    __slots__ = ("line", "column", "nodes", "children")

    def __init__(self, line: int, column: int, nodes: list[dict[str, SgfProp]],
                 children: list["SgfTree"]):
        self.line = line
        self.column = column
        self.nodes = nodes
        self.children = children

    def main_line(self) -> list[dict[str, SgfProp]]:
        """The nodes of the main line: this sequence, then the first variation's."""
        nodes: list[dict[str, SgfProp]] = []
        tree: SgfTree | None = self
        while tree is not None:
            nodes.extend(tree.nodes)
            tree = tree.children[0] if tree.children else None
        return nodes


def unescape(raw: str, text: bool = False) -> str:
    """The value of a bracketed SGF value without its brackets and escapes.

    >>> unescape(r"[a\\]b\\\\c]")
    'a]b\\\\c'
    >>> unescape("[two\\nlines]"), unescape("[two\\nlines]", text=True)
    ('two lines', 'two\\nlines')
    """
    s = raw[1:-1]
    if "\\" in s:
        s = _ESCAPE_RE.sub(lambda mo: "" if mo.group(1) in ("\n", "\r", "\r\n", "\n\r")
                           else mo.group(1), s)
    if "\r" in s:
        s = s.replace("\r\n", "\n").replace("\r", "\n")
    if text:
        return _SPACE_RE.sub(" ", s)
    if "\n" in s or "\t" in s:
        s = _SPACE_RE.sub(" ", s.replace("\n", " "))
    return s


def _ident(tok: str) -> str:
    # FF[3] allowed lower-case letters inside identifiers ("AddBlack" = "AB")
    return tok if tok.isupper() else "".join(ch for ch in tok if ch.isupper())
