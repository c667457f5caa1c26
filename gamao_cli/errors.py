"""Domain errors: everything gamao raises on bad input derives from GamaoError.

The CLI catches these at its boundary and turns them into a one-line message
and a documented exit code; a Python traceback never reaches the user.
"""
from __future__ import annotations

from dataclasses import dataclass, field


class GamaoError(Exception):
    """Base class of every error gamao reports about its input or output."""


@dataclass
class InputError(GamaoError):
    """A file could not be read as a match record.

    ``line`` and ``column`` are 1-based; ``offset`` is a byte offset, used when
    the problem is the bytes themselves (an undecodable file).
    """

    path: str
    message: str
    line: int | None = None
    column: int | None = None
    text: str = ""
    expected: list[str] = field(default_factory=list)
    offset: int | None = None

    def __post_init__(self) -> None:
        super().__init__(self.describe())

    def location(self) -> str:
        where = self.path or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        elif self.offset is not None:
            where += f": byte {self.offset}"
        return where

    def describe(self) -> str:
        msg = f"{self.location()}: {self.message}"
        if self.text:
            msg += f" (found {self.text!r})"
        if self.expected:
            msg += "; expected " + ", ".join(self.expected)
        return msg

    def __str__(self) -> str:  # dataclass would otherwise replace Exception's str
        return self.describe()


class NotAMatchFile(InputError):
    """The text is not a backgammon match record at all."""


class SyntaxProblem(InputError):
    """The text looks like a match record but the grammar rejects part of it."""


class EncodingProblem(InputError):
    """The bytes are in no text encoding gamao knows."""


class OutputError(GamaoError):
    """An output file could not be written (nothing partial was left behind)."""


class UnknownVariant(GamaoError):
    """A record names a variant (``Variation`` tag / SGF ``RU``) gamao does not know."""

    def __init__(self, name: str, known: tuple[str, ...] = ()):
        self.name = name
        self.known = known
        super().__init__(f"unknown variant {name!r} (known: {', '.join(known)})")


class DamagedFile(InputError):
    """A binary record whose bytes are damaged (bad checksum, cut short, impossible values)."""
