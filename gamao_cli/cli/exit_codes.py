"""The exit codes of ``gamao``, decided in one place (as black's
``Report.return_code``): a command tells :class:`Status` what happened and
exits with :attr:`Status.code`.

>>> s = Status(); s.found(); s.unreadable(); s.code
2
>>> s.internal_error(); s.code
3
"""
from __future__ import annotations

OK = 0
FINDINGS = 1
USAGE = 2
INTERNAL = 3
INTERRUPTED = 130

HELP = """\b
Exit codes:
  0  no errors
  1  errors found (or warnings, with --strict)
  2  usage error, or a file that could not be read or is not a
     match file (the other files are still checked)
  3  internal error: a bug in gamao (please report it; GAMAO_DEBUG=1
     shows details); validate reports it as GM004 for the file it
     happened on and still checks the other files"""


class Status:
    """What a command met: the exit code is the gravest of it, a bug in
    gamao outweighing an unreadable input, which outweighs findings."""

    def __init__(self) -> None:
        self.code = OK

    def _raise_to(self, code: int) -> None:
        self.code = max(self.code, code)

    def found(self) -> None:
        """Errors (or, with --strict, warnings) in the records."""
        self._raise_to(FINDINGS)

    def unreadable(self) -> None:
        """An input that could not be read, or a usage error on one input."""
        self._raise_to(USAGE)

    def internal_error(self) -> None:
        """gamao itself failed (a bug)."""
        self._raise_to(INTERNAL)

    def merge(self, code: int) -> None:
        """A code another part of the command decided."""
        self._raise_to(code)
