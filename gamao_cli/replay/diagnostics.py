"""Diagnostics: what the validator (and the readers) report, with stable codes.

Every diagnostic has a code that never changes meaning (like a linter's), a
category, a severity, a location (file, line, column, game, move number,
player) and a message a player understands. Illegal plays also carry the
dice, the play as written and up to five legal plays in the same notation.

The codes and the words of every message are in one table,
:mod:`gamao_cli.messages`: a diagnostic carries its message ``key`` (its
code, or ``CODE.variant``) and the ``fields`` of the message, and its
``message`` is the table's template rendered with them (what another
language needs is another table).

>>> d = Diagnostic("GM213", key="GM213", fields={"player": "Ann", "turn": Msg("player.right", {})})
>>> d.message
"Ann rolls, but it is the right player's turn"
>>> d.to_dict()["fields"]
{'player': 'Ann', 'turn': {'key': 'player.right', 'fields': {}}}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from gamao_cli.i18n import _
from gamao_cli.messages import (CODES, ERROR, INFO, WARNING, CodeInfo, Msg,  # noqa: F401
                                canonical_code, render, severity_word)


@dataclass
class Diagnostic:
    """One finding, located as precisely as the record allows.

    Made with ``key`` and ``fields``, its ``message`` is rendered from the
    message table; one made with a ``message`` of its own (and no key) says
    just that.
    """

    code: str
    message: str = ""
    path: str = ""
    line: int | None = None
    column: int | None = None
    game: int | None = None
    move: int | None = None
    player: str | None = None
    dice: str | None = None
    play: str | None = None
    legal: list[str] = field(default_factory=list)
    severity: str = ""
    category: str = ""
    # the message's key in gamao_cli.messages (a code, or CODE.variant) and
    # its fields, from which the message can be rendered in another language
    key: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.code = canonical_code(self.code)  # a renumbered code gets its new number
        info = CODES[self.code]
        if not self.severity:
            self.severity = info.severity
        if not self.category:
            self.category = info.category
        if self.key and not self.message:
            self.message = render(self.key, self.fields)
        if not self.line:   # a binary record (.xg) has no lines: 0 is none
            self.line = self.column = None
        elif not self.column:
            self.column = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "code": self.code, "category": self.category, "severity": self.severity,
            "message": self.message, "fields": jsonable(self.fields),
            "path": self.path, "line": self.line,
            "column": self.column, "game": self.game, "move": self.move,
            "player": self.player,
        }
        at = self.fields.get("at_byte")
        if type(at) is int and at >= 0:
            # a binary record's place: the byte offset, where a text has line and column
            d["byte"] = at
        if self.dice is not None:
            d["dice"] = self.dice
        if self.play is not None:
            d["play"] = self.play
        if self.legal:
            d["legal"] = list(self.legal)
        if self.key is not None:
            # which template of the table the message is: with "fields", a
            # program renders it in any language (messages.render(key, fields, lang))
            d["key"] = self.key
        return d

    def location(self) -> str:
        """``path:line:column``; with no line (a binary record), ``path: game
        3, move 12`` (or ``path: game 3``), in the language that speaks.

        >>> Diagnostic("GM411", "x", path="m.xg", line=0, column=0, game=3, move=12).location()
        'm.xg: game 3, move 12'
        """
        loc = self.path or "<input>"
        if self.line is not None:
            loc += f":{self.line}"
            if self.column is not None:
                loc += f":{self.column}"
        elif self.game is not None:
            loc += ": " + self.where()
        return loc

    def where(self) -> str:
        """``game 3, move 12``, ``game 3`` or ``""``: the place in the match,
        for a diagnostic with no line to name."""
        if self.game is None:
            return ""
        if self.move is None:
            return _("game {game}").format(game=self.game)
        return _("game {game}, move {move}").format(game=self.game, move=self.move)

    def format_text(self) -> str:
        """``path:line:col: CODE severity message`` (one line, like compilers;
        the severity and the words in the language that speaks)."""
        msg = self.message
        if self.legal:
            msg += "; " + _("legal: {plays}").format(plays=", ".join(self.legal))
        return f"{self.location()}: {self.code} {severity_word(self.severity)} {msg}"

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.column or 0, self.code)


def jsonable(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a message as JSON values: a field that is itself a
    message (:class:`~gamao_cli.messages.Msg`) becomes ``{"key": ...,
    "fields": {...}}``."""
    return {k: ({"key": v.key, "fields": jsonable(v.fields)} if isinstance(v, Msg) else v)
            for k, v in fields.items()}


class SeverityCounts:
    """Mixin of the reports that hold a ``diagnostics`` list (a file's, a
    match's): how many of them are errors, how many warnings.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Report(SeverityCounts):
    ...     diagnostics: list
    >>> r = Report([Diagnostic("GM202", "x"), Diagnostic("GM102", "y"), Diagnostic("GM103", "z")])
    >>> r.errors, r.warnings
    (1, 1)
    """

    __slots__ = ()
    diagnostics: list[Diagnostic]

    @property
    def errors(self) -> int:
        return sum(d.severity == ERROR for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == WARNING for d in self.diagnostics)
