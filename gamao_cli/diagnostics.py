"""Diagnostics: what the validator (and the readers) report, with stable codes.

Every diagnostic has a code that never changes meaning (like a linter's), a
category, a severity, a location (file, line, column, game, move number,
player) and a message a player understands. Illegal plays also carry the
dice, the play as written and up to five legal plays in the same notation.

The table :data:`CODES` is the single source of the codes; ``docs/codes.md``
is generated from it (``gamao codes --format markdown > docs/codes.md``) and a
test checks that the two agree.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)
CATEGORIES = ("syntax", "notation", "play", "cube", "score")


@dataclass(frozen=True)
class CodeInfo:
    code: str
    category: str
    severity: str
    title: str


def _c(code: str, category: str, severity: str, title: str) -> CodeInfo:
    return CodeInfo(code, category, severity, title)


CODES: dict[str, CodeInfo] = {c.code: c for c in [
    # input that cannot be read at all
    _c("GM001", "syntax", ERROR, "the grammar rejects this text"),
    _c("GM002", "syntax", ERROR, "not a match file"),
    _c("GM003", "syntax", ERROR, "the file's bytes are in no known text encoding"),
    _c("GM004", "syntax", ERROR, "the file cannot be read"),
    _c("GM005", "syntax", ERROR, "unknown variant in the record's rules"),
    # notation: what is written, independent of legality
    _c("GM101", "notation", ERROR, "a die is not 1-6"),
    _c("GM102", "notation", WARNING, "a hit mark where no checker is hit"),
    _c("GM103", "notation", INFO, "a hit that the record does not mark"),
    _c("GM104", "notation", WARNING, "game numbers out of sequence"),
    _c("GM105", "notation", WARNING, "a cell in the wrong player's column"),
    _c("GM106", "notation", WARNING, "the Losses cell disagrees with the result"),
    # checker play
    _c("GM201", "play", ERROR, "the opening roll is a double"),
    _c("GM202", "play", ERROR, "a step of a distance no die shows"),
    _c("GM203", "play", ERROR, "a checker lands on or passes a blocked point"),
    _c("GM204", "play", ERROR, "a checker moves while one is on the bar"),
    _c("GM205", "play", ERROR, "bearing off with checkers outside the home board"),
    _c("GM206", "play", ERROR, "bearing off with a higher die while a checker stands higher"),
    _c("GM207", "play", ERROR, "more steps than the roll gives"),
    _c("GM208", "play", ERROR, "no checker on the point a step starts from"),
    _c("GM209", "play", ERROR, "a checker moves backwards"),
    _c("GM210", "play", ERROR, "a die left unplayed that could be played"),
    _c("GM211", "play", ERROR, "only one die can be played and it must be the higher"),
    _c("GM212", "play", ERROR, "no play written although a legal play exists"),
    _c("GM213", "play", ERROR, "a player rolls out of turn"),
    _c("GM214", "play", ERROR, "an action after the game has ended"),
    _c("GM215", "play", WARNING, "the rest of the game cannot be replayed"),
    _c("GM216", "notation", ERROR, "a point that does not exist (beyond 25)"),
    _c("GM217", "notation", ERROR, "a step that starts from off (a borne-off checker never moves)"),
    # the cube
    _c("GM301", "cube", ERROR, "a double by a player who does not own the cube"),
    _c("GM302", "cube", ERROR, "a double in the Crawford game"),
    _c("GM303", "cube", ERROR, "a take, drop or beaver with no double to answer"),
    _c("GM304", "cube", ERROR, "a double that is never answered"),
    _c("GM305", "cube", ERROR, "a beaver or raccoon where the rules do not allow it"),
    _c("GM306", "cube", WARNING, "the cube value written is not the double of the cube"),
    _c("GM307", "cube", ERROR, "a double where the record's rules allow no cube"),
    _c("GM308", "cube", ERROR, "a double when it is not the player's turn to roll"),
    # results and scores
    _c("GM401", "score", ERROR, "the points won differ from what the rules give"),
    _c("GM402", "score", ERROR, "the score line differs from the running score"),
    _c("GM403", "score", ERROR, "a game after the match was already won"),
    _c("GM404", "score", ERROR, "a game with no result"),
    _c("GM405", "score", ERROR, "a resignation for other than 1, 2 or 3 times the cube"),
    _c("GM406", "score", ERROR, "the wrong player wins"),
    _c("GM407", "score", ERROR, "a game ends without a reason (no last checker off, drop or resignation)"),
    _c("GM408", "score", INFO, "which Jacoby rule a money game's result implies"),
    _c("GM409", "score", INFO, "a game lost on time"),
    _c("GM410", "score", INFO, "the record stops before the match is decided"),
    _c("GM411", "score", INFO, "the deciding game's points are capped (points needed or match length)"),
    _c("GM412", "score", INFO, "a player gives up the whole match"),
]}


@dataclass
class Diagnostic:
    """One finding, located as precisely as the record allows."""

    code: str
    message: str
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

    def __post_init__(self) -> None:
        info = CODES[self.code]
        if not self.severity:
            self.severity = info.severity
        if not self.category:
            self.category = info.category

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "code": self.code, "category": self.category, "severity": self.severity,
            "message": self.message, "path": self.path, "line": self.line,
            "column": self.column, "game": self.game, "move": self.move,
            "player": self.player,
        }
        if self.dice is not None:
            d["dice"] = self.dice
        if self.play is not None:
            d["play"] = self.play
        if self.legal:
            d["legal"] = list(self.legal)
        return d

    def location(self) -> str:
        loc = self.path or "<input>"
        if self.line is not None:
            loc += f":{self.line}"
            if self.column is not None:
                loc += f":{self.column}"
        return loc

    def format_text(self) -> str:
        """``path:line:col: CODE severity message`` (one line, like compilers)."""
        msg = self.message
        if self.legal:
            msg += "; legal: " + ", ".join(self.legal)
        return f"{self.location()}: {self.code} {self.severity} {msg}"

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.column or 0, self.code)


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


def codes_markdown() -> str:
    """The documentation table of every code."""
    rows = ["| code | category | severity | meaning |", "| --- | --- | --- | --- |"]
    for c in CODES.values():
        rows.append(f"| {c.code} | {c.category} | {c.severity} | {c.title} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":  # pragma: no cover - documentation helper
    print(codes_markdown(), end="")
