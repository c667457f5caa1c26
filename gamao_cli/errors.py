"""Domain errors: everything gamao raises on bad input derives from GamaoError.

The CLI catches these at its boundary and turns them into a one-line message
and a documented exit code; a Python traceback never reaches the user.

An :class:`InputError` carries a stable message ``key`` and the ``fields`` of
its message; its words are rendered from the one message table
(:mod:`gamao_cli.messages`), so that another language can render the same
error from the same key and fields:

>>> e = SyntaxProblem("r.mat", key="GM001.repeat", fields={"count": "12", "limit": 9},
...                   line=5, column=13, text="(12)")
>>> print(e)
r.mat:5:13: a step repeated 12 times: a roll moves a checker at most 4 times (more than 9 is not read) (found '(12)')
>>> e.key, e.fields["count"], e.message[:20]
('GM001.repeat', '12', 'a step repeated 12 t')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence


class GamaoError(Exception):
    """Base class of every error gamao reports about its input or output."""


@dataclass
class InputError(GamaoError):
    """A file could not be read as a match record.

    ``line`` and ``column`` are 1-based; ``offset`` is a byte offset, used when
    the problem is the bytes themselves (an undecodable file).

    ``key`` names the message in :data:`gamao_cli.messages.MESSAGES` and
    ``fields`` holds its fields; ``message`` is the rendered text (given
    directly only by code that has no key for it). ``expected_keys`` are the
    message keys of what would have been fine there; ``expected`` holds them
    rendered.
    """

    path: str
    message: str = ""
    line: int | None = None
    column: int | None = None
    text: str = ""
    expected: list[str] = field(default_factory=list)
    offset: int | None = None
    key: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    expected_keys: Sequence[str] = ()

    def __post_init__(self) -> None:
        from gamao_cli.messages import render
        if self.key is not None and not self.message:
            self.message = render(self.key, self.fields)
        if self.expected_keys and not self.expected:
            self.expected = [render(k, {}) for k in self.expected_keys]
        super().__init__(self.describe())

    def location(self) -> str:
        from gamao_cli.messages import render
        where = self.path or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        elif self.offset is not None:
            where += ": " + render("input.byte", {"offset": self.offset})
        return where

    def describe(self) -> str:
        from gamao_cli.messages import render
        msg = f"{self.location()}: {self.message}"
        if self.text:
            msg += " " + render("input.found", {"text": self.text})
        if self.expected:
            msg += "; " + render("input.expected", {"words": ", ".join(self.expected)})
        return msg

    def __str__(self) -> str:  # dataclass would otherwise replace Exception's str
        return self.describe()


class NotAMatchFile(InputError):
    """The text is not a backgammon match record at all."""


class ForeignLanguage(NotAMatchFile):
    """A record in another language than the one gamao reads (GNU
    Backgammon's translated text export): code GM013, naming the language."""

    code = "GM013"


class NotYetRead(InputError):
    """A record of a kind gamao does not read yet (a game BGBlitz starts
    from a set-up position or in a variant): code GM014, saying which."""

    code = "GM014"


class SyntaxProblem(InputError):
    """The text looks like a match record but the grammar rejects part of it."""


class EncodingProblem(InputError):
    """The bytes are in no text encoding gamao knows."""


class SchemaProblem(SyntaxProblem):
    """A JSON document that does not follow gamao's schema (code GM006)."""


class OutputError(GamaoError):
    """An output file could not be written (nothing partial was left behind)."""


class StdoutError(OutputError):
    """Standard output cannot be written (a full disk, /dev/full, an I/O
    error): the command stops with exit code 2, saying so."""

    def __init__(self, exc: OSError):
        from gamao_cli.messages import render
        self.reason = exc.strerror or str(exc)
        super().__init__(render("cli.stdout", {"reason": self.reason}))


class WriteRefused(GamaoError, ValueError):
    """A writer refuses to write a match it cannot write so that gamao reads
    it back into the same match (a newline in a name, a negative match
    length, dice outside 1-6...). ``code``, ``key`` and ``fields`` are those
    of its message in :mod:`gamao_cli.messages` (``code`` GM507, an error).

    (A :class:`ValueError` too: callers that treat a writer's ``ValueError``
    as "cannot convert this file" keep doing so.)
    """

    def __init__(self, key: str, fields: dict[str, Any] | None = None):
        from gamao_cli.messages import render
        self.key = key
        self.code = key.partition(".")[0]
        self.fields = dict(fields or {})
        self.message = render(key, self.fields)
        super().__init__(self.message)


class UnknownVariant(GamaoError):
    """A record names a variant (``Variation`` tag / SGF ``RU``) gamao does not know."""

    def __init__(self, name: str, known: tuple[str, ...] = ()):
        self.name = name
        self.known = known
        super().__init__(f"unknown variant {name!r} (known: {', '.join(known)})")


class OverBudget(InputError):
    """Input whose decompression would go beyond what gamao inflates (code
    GM009): an XG stream, an archive member or a compressed archive larger
    than its budget (a decompression bomb, or a file no program writes)."""


class DamagedFile(InputError):
    """A binary record whose bytes are damaged (bad checksum, cut short, impossible values)."""


class WorkerDied(Exception):
    """One of the worker processes of a ``--jobs`` run ended in the middle of
    it: killed (by the system, for lack of memory; by a user) or crashed.
    Its task's result will never come, so the command stops instead of
    waiting for ever (:func:`gamao_cli.worker_pool.watched`); not one of
    gamao's input or output errors (:class:`GamaoError`)."""
