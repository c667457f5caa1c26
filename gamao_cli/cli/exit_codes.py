"""The exit codes of ``gamao``, decided in one place (as black's
``Report.return_code``): a command tells :class:`Status` what happened and
exits with :attr:`Status.code`; the group in :mod:`gamao_cli.cli` turns a
crash into :data:`INTERNAL`, a usage error into :data:`USAGE`.

Which codes each command can give, and what they mean there, is
:data:`MEANINGS`; :func:`help_for` writes the ``Exit codes:`` part of each
command's ``--help`` from it, so the help of ``summary`` does not promise the
findings of ``validate``.

>>> s = Status(); s.found(); s.unreadable(); s.code
2
>>> s.internal_error(); s.code
3
>>> print(help_for("codes").replace("\\b\\n", ""))
Exit codes:
  0    the codes were listed
  2    usage error, or standard output that cannot be written
  3    internal error: a bug in gamao (please report it; GAMAO_DEBUG=1
       shows the traceback)
  130  interrupted (Ctrl-C)
"""
from __future__ import annotations

import textwrap

from gamao_cli.i18n import _

OK = 0
FINDINGS = 1
USAGE = 2
INTERNAL = 3
INTERRUPTED = 130

_INTERNAL = "internal error: a bug in gamao (please report it; GAMAO_DEBUG=1 shows the traceback)"
_INTERRUPTED = "interrupted (Ctrl-C)"

#: command -> {exit code: what it means for that command}
MEANINGS: dict[str, dict[int, str]] = {
    "validate": {
        OK: "no errors (warnings and infos do not fail)",
        FINDINGS: "errors found (or warnings, with --strict)",
        USAGE: "usage error, or a file that could not be read or is not a match file "
               "(the other files are still checked), or standard output or GitHub's step "
               "summary ($GITHUB_STEP_SUMMARY, with --format github) that cannot be written",
        INTERNAL: _INTERNAL + "; reported as GM008 for the file it happened on, and the "
                  "other files are still checked",
        INTERRUPTED: _INTERRUPTED,
    },
    "convert": {
        OK: "every input converted (errors the validator finds are warnings here)",
        FINDINGS: "with --strict: an input the validator finds errors in was not converted",
        USAGE: "usage error, an input that could not be read or is not a match file, or an "
               "output that could not be written (the other inputs are still converted)",
        INTERNAL: _INTERNAL + "; reported as GM008 for the input it happened on, and the "
                  "other inputs are still converted",
        INTERRUPTED: _INTERRUPTED,
    },
    "summary": {
        OK: "every file summarised",
        USAGE: "usage error, or a file that could not be read or is not a match file "
               "(the other files are still summarised), or standard output that cannot be "
               "written",
        INTERNAL: _INTERNAL + "; reported as GM008 for the file it happened on, and the "
                  "other files are still summarised",
        INTERRUPTED: _INTERRUPTED,
    },
    "position": {
        OK: "the board was printed",
        USAGE: "usage error, a file that could not be read, is not a match file or holds no "
               "match, a game or move the file does not have, a move whose position the "
               "record's illegal plays leave impossible (it says why), an ID that cannot be "
               "read, or an output (standard output or -o) that cannot be written",
        INTERNAL: _INTERNAL,
        INTERRUPTED: _INTERRUPTED,
    },
    "export": {
        OK: "every input was read and its tables written (the errors the records hold are "
            "columns of the tables, not a failure)",
        USAGE: "usage error, an input that could not be read or is not a match file (the "
               "others are still exported), an output folder that holds an earlier export "
               "(see --force), a Dask scheduler that cannot be reached, or standard output "
               "that cannot be written",
        INTERNAL: _INTERNAL + "; the other inputs are still exported",
        INTERRUPTED: _INTERRUPTED,
    },
    "dedupe": {
        OK: "every input was read (and, with --out-dir, one copy of each match written)",
        USAGE: "usage error, an input that could not be read or is not a match file (the "
               "others are still grouped), a copy that could not be written, a Dask scheduler "
               "that cannot be reached, or standard output that cannot be written",
        INTERNAL: _INTERNAL + "; reported as GM008 for the input it happened on, and the "
                  "others are still grouped",
        INTERRUPTED: _INTERRUPTED,
    },
    "select": {
        OK: "every input was read (and, with -o, every match picked written), whether or not "
            "a match was picked",
        USAGE: "usage error, an input that could not be read or is not a match file (the "
               "others are still read), a match that could not be written, a Dask scheduler "
               "that cannot be reached, or standard output that cannot be written",
        INTERNAL: _INTERNAL + "; reported as GM008 for the input it happened on, and the "
                  "others are still read",
        INTERRUPTED: _INTERRUPTED,
    },
    "codes": {
        OK: "the codes were listed",
        USAGE: "usage error, or standard output that cannot be written",
        INTERNAL: _INTERNAL,
        INTERRUPTED: _INTERRUPTED,
    },
}
MEANINGS["help"] = {
    OK: "the help was printed",
    USAGE: "usage error (a command gamao does not have), or standard output that cannot be "
           "written",
    INTERNAL: _INTERNAL,
    INTERRUPTED: _INTERRUPTED,
}
MEANINGS["gamao"] = {
    OK: "success (validate: no errors)",
    FINDINGS: "validate: errors found (or warnings, with --strict); convert --strict: an "
              "input with errors was not converted",
    USAGE: "usage error, or a file that could not be read or is not a match file, or an "
           "output that could not be written (standard output included)",
    INTERNAL: _INTERNAL,
    INTERRUPTED: _INTERRUPTED,
}


def help_for(command: str) -> str:
    """The ``Exit codes:`` epilog of ``command``'s help (click keeps the
    lines as they are after its ``\\b`` marker), in the language that
    speaks (the meanings are message ids of the catalogue)."""
    lines = ["\b", _("Exit codes:")]
    for code, meaning in sorted(MEANINGS[command].items()):
        wrapped = textwrap.wrap(_(meaning), 66)
        lines.append(f"  {code:<4} {wrapped[0]}")
        lines.extend(f"       {more}" for more in wrapped[1:])
    return "\n".join(lines)


def epilog_for(command: str) -> str:
    """:func:`help_for` in the source language (English), whatever language
    speaks when the command's module is imported: what a command is defined
    with. Its help shows it in the language that speaks when it is shown
    (:class:`gamao_cli.cli.language.Command`); an epilog made in the
    language of the first run that imported the module would stay in that
    language for every later run of the same process."""
    from gamao_cli import i18n
    with i18n.language(i18n.SOURCE):
        return help_for(command)


#: The group's exit codes (``gamao --help``). A command shows its own:
#: ``epilog=epilog_for(name)``, with its entry in :data:`MEANINGS`.
HELP = epilog_for("gamao")


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
        """An input that could not be read, an output that could not be
        written, or a usage error on one input."""
        self._raise_to(USAGE)

    def internal_error(self) -> None:
        """gamao itself failed (a bug)."""
        self._raise_to(INTERNAL)

    def merge(self, code: int) -> None:
        """A code another part of the command decided."""
        self._raise_to(code)
