"""Validate files: read, parse, replay, and collect what is wrong.

:func:`check_file` is what ``gamao validate`` runs for each file, in this
process or in a worker; it never raises for bad input: a file that cannot be
read or is not a match file becomes a result with a diagnostic and
``unreadable`` set (exit code 2 in the CLI).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .diagnostics import Diagnostic
from .errors import EncodingProblem, InputError, NotAMatchFile, SyntaxProblem, UnknownVariant
from .loading import load_path
from .validator import validate_match


@dataclass
class MatchSummary:
    """What validate reports of a match besides diagnostics."""

    players: tuple[str, str]
    length: int
    games: int
    plays: int
    final_score: tuple[int, int]
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.players), "length": self.length, "games": self.games,
                "plays": self.plays, "final_score": list(self.final_score),
                "winner": self.winner}


@dataclass
class FileCheck:
    path: str
    matches: list[MatchSummary] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unreadable: bool = False
    encoding: str | None = None

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)

    @property
    def games(self) -> int:
        return sum(mt.games for mt in self.matches)

    @property
    def plays(self) -> int:
        return sum(mt.plays for mt in self.matches)

    def ok(self, strict: bool = False) -> bool:
        if self.unreadable or self.errors:
            return False
        return not (strict and self.warnings)

    def to_dict(self, strict: bool = False) -> dict[str, Any]:
        return {"path": self.path, "ok": self.ok(strict),
                "matches": [mt.to_dict() for mt in self.matches],
                "diagnostics": [d.to_dict() for d in self.diagnostics]}


def input_error_diagnostic(exc: InputError) -> Diagnostic:
    """The diagnostic for a file that could not be read as a record."""
    if isinstance(exc, NotAMatchFile):
        code = "GM002"
    elif isinstance(exc, EncodingProblem):
        code = "GM003"
    elif isinstance(exc, SyntaxProblem):
        code = "GM001"
    else:
        code = "GM004"
    message = exc.message
    if exc.text:
        message += f" (found {exc.text!r})"
    if exc.expected:
        message += "; expected " + ", ".join(exc.expected)
    if exc.offset is not None and exc.line is None:
        message += f" (at byte {exc.offset})"
    return Diagnostic(code, message, path=exc.path, line=exc.line, column=exc.column)


def _selected(code: str, select: Iterable[str] | None, ignore: Iterable[str] | None) -> bool:
    if select and not any(code.startswith(s) for s in select):
        return False
    if ignore and any(code.startswith(s) for s in ignore):
        return False
    return True


def check_file(path: str, select: tuple[str, ...] | None = None,
               ignore: tuple[str, ...] | None = None) -> FileCheck:
    """Read, parse and validate one file (``"-"``: standard input)."""
    result = FileCheck("<stdin>" if path == "-" else path)
    try:
        matches, result.encoding = load_path(path)
    except InputError as exc:
        result.unreadable = True
        result.diagnostics.append(input_error_diagnostic(exc))
        return result
    for match in matches:
        report = validate_match(match)
        result.matches.append(MatchSummary(
            players=match.players, length=match.length, games=len(match.games),
            plays=report.plays, final_score=report.final_score, winner=report.winner))
        for d in report.diagnostics:
            if _selected(d.code, select, ignore):
                result.diagnostics.append(d)
    return result
