"""Validate files: read, parse, replay, and collect what is wrong.

:func:`check_file` is what ``gamao validate`` runs for each file, in this
process or in a worker; it never raises for bad input: a file that cannot be
read or is not a match file becomes a result with a diagnostic and
``unreadable`` set (exit code 2 in the CLI). A big match file is read and
checked one match at a time (:func:`gamao_cli.formats.iter_path`), so memory
does not grow with the file; the result is the same as reading it whole (a
syntax error in a later match makes the whole file unreadable, as it does
when the file is read at once).

An unexpected exception while reading or replaying one file (a bug in
gamao) does not stop the others: that file gets a GM008 diagnostic saying
so, ``unreadable`` and ``internal_error`` are set, and the CLI goes on with
the next file (and exits 3, the code of an internal error, at the end).
``GAMAO_DEBUG=1`` lets the exception through instead.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Iterable

from gamao_cli.errors import (DamagedFile, EncodingProblem, InputError, NotAMatchFile, OverBudget,
                              SchemaProblem, SyntaxProblem)
from gamao_cli.formats.members import iter_path   # files, and archives' members

from gamao_cli.messages import render, render_input

from .diagnostics import Diagnostic, SeverityCounts
from .replay import validate_match


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
class FileCheck(SeverityCounts):
    path: str
    matches: list[MatchSummary] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unreadable: bool = False
    encoding: str | None = None
    # "ExceptionType: message" when gamao itself failed on this file (a bug)
    internal_error: str | None = None

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
    """The diagnostic for a file that could not be read as a record.

    Its ``key`` and ``fields`` are the error's, with what the message adds
    to them: ``found`` (the text found there), ``expected`` (the message
    keys of what would have been fine) and ``at_byte`` (the byte offset, when
    there is no line); :func:`gamao_cli.messages.render_input` renders the
    whole message from them.
    """
    if getattr(type(exc), "code", None):   # a kind with a code of its own
        code = type(exc).code
    elif isinstance(exc, NotAMatchFile):
        code = "GM002"
    elif isinstance(exc, EncodingProblem):
        code = "GM003"
    elif isinstance(exc, DamagedFile):
        code = "GM006"
    elif isinstance(exc, OverBudget):
        code = "GM009"
    elif isinstance(exc, SchemaProblem):
        code = "GM007"
    elif isinstance(exc, SyntaxProblem):
        code = "GM001"
    elif exc.key is not None and exc.key.partition(".")[0] in ("GM010", "GM011", "GM012"):
        code = exc.key.partition(".")[0]
    else:
        code = "GM004"
    fields = dict(exc.fields)
    if exc.text:
        fields["found"] = exc.text
    if exc.expected:
        fields["expected"] = list(exc.expected_keys) if exc.expected_keys else list(exc.expected)
    if exc.offset is not None and exc.line is None:
        fields["at_byte"] = exc.offset
    if exc.key is not None:
        message = render_input(exc.key, fields)
    else:  # an error made without a key: its words as they are
        message = exc.message
        if exc.text:
            message += " " + render("input.found", {"text": exc.text})
        if exc.expected:
            message += "; " + render("input.expected", {"words": ", ".join(exc.expected)})
        if "at_byte" in fields:
            message += " " + render("input.at-byte", {"offset": exc.offset})
    return Diagnostic(code, message, path=exc.path, line=exc.line, column=exc.column,
                      key=exc.key, fields=fields)


def _selected(code: str, select: Iterable[str] | None, ignore: Iterable[str] | None) -> bool:
    if select and not any(code.startswith(s) for s in select):
        return False
    if ignore and any(code.startswith(s) for s in ignore):
        return False
    return True


def internal_error_diagnostic(exc: BaseException, path: str, where: str,
                              line: int | None = None) -> Diagnostic:
    """The diagnostic (GM008) for a file that made gamao itself fail
    ``where``: "reading", "checking", "converting" or "summarising" (each
    has its message), or another word (the message "GM008.internal")."""
    what = f"{type(exc).__name__}: {exc}"
    if len(what) > 300:
        what = what[:300] + "..."
    if where in ("reading", "checking", "converting", "summarising"):
        return Diagnostic("GM008", key=f"GM008.internal-{where}", fields={"error": what},
                          path=path, line=line)
    return Diagnostic("GM008", key="GM008.internal", fields={"where": where, "error": what},
                      path=path, line=line)


def _debugging() -> bool:
    return os.environ.get("GAMAO_DEBUG") == "1"


def check_file(path: str, select: tuple[str, ...] | None = None,
               ignore: tuple[str, ...] | None = None) -> FileCheck:
    """Read, parse and validate one file (``"-"``: standard input)."""
    result = FileCheck("<stdin>" if path == "-" else path)
    where = "reading"
    match: object = None
    try:
        matches, source = iter_path(path)
        result.encoding = source.encoding
        for match in matches:
            where = "checking"
            report = validate_match(match)
            result.matches.append(MatchSummary(
                players=match.players, length=match.length, games=len(match.games),
                plays=report.plays, final_score=report.final_score, winner=report.winner))
            for d in report.diagnostics:
                if _selected(d.code, select, ignore):
                    result.diagnostics.append(d)
            where = "reading"
        result.encoding = source.encoding
    except InputError as exc:
        # as if the file had been read whole: nothing but the reason it cannot be
        result.matches.clear()
        result.diagnostics[:] = [input_error_diagnostic(exc)]
        result.unreadable = True
        result.encoding = None
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except Exception as exc:  # a bug in gamao: report it, go on with the other files
        if _debugging():
            raise
        line = getattr(match, "line", None) if where == "checking" else None
        result.matches.clear()
        result.diagnostics[:] = [internal_error_diagnostic(exc, result.path, where, line or None)]
        result.unreadable = True
        result.internal_error = f"{type(exc).__name__}: {exc}"[:1000]
    return result
