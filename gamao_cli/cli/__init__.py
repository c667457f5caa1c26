"""The ``gamao`` command: one module per command (:mod:`.validate`,
:mod:`.convert`, :mod:`.summary`, :mod:`.position`, :mod:`.codes`), the
options they share (:mod:`.options`), the reports of ``validate``
(:mod:`.reporters`) and the exit codes (:mod:`.exit_codes`).

Domain errors are caught here, at the boundary, and become a one-line
message and a documented exit code; an unexpected internal error prints one
line with a hint to report it and exits 3 (set ``GAMAO_DEBUG=1`` for the
traceback). Standard output is watched here too, for every command: what it
cannot encode (a file name holding bytes that are no UTF-8, decoded as lone
surrogates) is written escaped (``\\udcff``), and an output that cannot be
written (``/dev/full``) is "cannot write standard output", exit code 2.
"""
from __future__ import annotations

import os
import sys
import traceback

import click

from gamao_cli.errors import GamaoError, StdoutError
from gamao_cli.i18n import _

from . import exit_codes
from .language import LANG_HELP, Group, print_version, set_lang
# (the commands under names of their own: the modules keep theirs)
from .codes import codes as codes_command
from .convert import convert as convert_command
from .dedupe import dedupe as dedupe_command
from .export import export as export_command
from .position import position as position_command
from .select import select as select_command
from .summary import summary as summary_command
from .validate import validate as validate_command


class _Stdout:
    """``sys.stdout`` while gamao runs: an ``OSError`` of writing it becomes
    :class:`~gamao_cli.errors.StdoutError` (one of gamao's errors, exit code
    2), not a crash taken for a bug; a broken pipe stays ``BrokenPipeError``
    (the reader has gone: nothing to say). Everything else is the stream's."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._guard(self._stream.write, text)

    def flush(self):
        return self._guard(self._stream.flush)

    def _guard(self, call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StdoutError(exc) from None

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _stdout_failed(exc: StdoutError) -> None:
    """Say that standard output cannot be written, and point its file
    descriptor at the null device, so that what is still buffered does not
    fail again when Python exits (which would make the exit code 120)."""
    click.echo(f"gamao: {exc}", err=True)
    stream = sys.stdout._stream if isinstance(sys.stdout, _Stdout) else sys.stdout
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, AttributeError):
        return
    os.dup2(null, fd)
    os.close(null)


def _escaping(stream) -> None:
    """Write what ``stream``'s encoding cannot hold escaped (backslashreplace)."""
    try:
        stream.reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError, OSError):
        pass


class GamaoGroup(Group):
    """Turns domain errors into messages and crashes into exit code 3; a run
    speaks the language of ``--lang`` or the environment
    (:class:`gamao_cli.cli.language.Group`)."""

    def main(self, *args, **kwargs):
        stdout = sys.stdout
        if stdout is not None:
            _escaping(stdout)
            sys.stdout = _Stdout(stdout)
        try:
            return super().main(*args, **kwargs)
        except StdoutError as exc:   # outside a command: gamao --help, --version
            _stdout_failed(exc)
            sys.exit(exit_codes.USAGE)
        finally:
            if isinstance(sys.stdout, _Stdout):
                sys.stdout = stdout

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except StdoutError as exc:
            _stdout_failed(exc)
            ctx.exit(exit_codes.USAGE)
        except GamaoError as exc:
            click.echo(f"gamao: {exc}", err=True)
            ctx.exit(exit_codes.USAGE)
        except BrokenPipeError:
            ctx.exit(exit_codes.OK)
        except KeyboardInterrupt:
            click.echo("gamao: " + _("interrupted"), err=True)
            ctx.exit(exit_codes.INTERRUPTED)
        except Exception as exc:  # an internal error: one line, unless debugging
            if os.environ.get("GAMAO_DEBUG") == "1":
                traceback.print_exc()
            else:
                click.echo("gamao: " + _("internal error: {error} (this is a bug in gamao: "
                                         "please report it with the input file; GAMAO_DEBUG=1 "
                                         "shows the traceback)").format(
                    error=f"{type(exc).__name__}: {exc}"), err=True)
            ctx.exit(exit_codes.INTERNAL)


@click.group(cls=GamaoGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=exit_codes.HELP)
@click.option("--version", "-V", is_flag=True, expose_value=False, is_eager=True,
              callback=print_version, help="Show the version and exit.")
@click.option("--lang", metavar="LANG", expose_value=False, is_eager=True, callback=set_lang,
              help=LANG_HELP)
def main() -> None:
    """Read, validate, convert and summarise backgammon match records
    (.mat match files of GNU Backgammon, eXtreme Gammon, Backgammon Galaxy,
    Backgammon Studio and others; GNU Backgammon SGF; gamao JSON).

    \b
    Examples:
      gamao validate examples/
      gamao validate --format github matches/
      gamao convert game.mat --to json -o game.json
      gamao summary --format csv matches/ > results.csv

    Shell completion (bash): eval "$(_GAMAO_COMPLETE=bash_source gamao)"
    (zsh: zsh_source, fish: fish_source).
    """


for _command in (validate_command, convert_command, summary_command, position_command,
                 export_command, codes_command, dedupe_command, select_command):
    main.add_command(_command)

__all__ = ["main"]
