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
written (``/dev/full``) is "cannot write standard output", exit code 2. A
reader that goes away (``gamao validate big/ | head -1``) ends what is
printed, quietly: standard output then goes to the null device (as the
Python documentation's note on SIGPIPE shows), the command still does every
input (a conversion is still written, a file still checked), and its exit
code is what its findings give, never 0 because the reader left.
"""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, MutableMapping

import click

from gamao_cli.errors import GamaoError, StdoutError, WorkerDied
from gamao_cli.i18n import _

from . import exit_codes
from .language import LANG_HELP, Group, print_version, set_lang

#: The commands: name -> (module of this package, the command's name in it).
#: Each module is imported when its command is first looked up, so that a
#: run of one command does not import the others (``convert`` alone, with
#: its writers, was a sixth of the start-up of ``gamao validate``).
COMMANDS = {
    "validate": ("validate", "validate"),
    "convert": ("convert", "convert"),
    "summary": ("summary", "summary"),
    "position": ("position", "position"),
    "export": ("export", "export"),
    "codes": ("codes", "codes"),
    "dedupe": ("dedupe", "dedupe"),
    "select": ("select", "select"),
    "help": ("help", "help_command"),
}


class _Commands(MutableMapping):
    """A group's commands by name (what ``click.Group.commands`` holds),
    each imported from :data:`COMMANDS` when first looked up; a command
    added (``add_command``) is kept as given. Listing the names imports
    nothing; listing the commands imports them all (``gamao --help``)."""

    def __init__(self, lazy: dict[str, tuple[str, str]]):
        self._lazy = dict(lazy)
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        command = self._loaded.get(name)
        if command is None:
            module, attr = self._lazy[name]   # KeyError: no such command
            import importlib
            command = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
            self._loaded[name] = command
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._lazy.pop(name, None)
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        found = self._lazy.pop(name, None) is not None
        if self._loaded.pop(name, None) is None and not found:
            raise KeyError(name)

    def __iter__(self):
        yield from self._lazy
        yield from (n for n in self._loaded if n not in self._lazy)

    def __len__(self) -> int:
        return len(self._lazy.keys() | self._loaded.keys())

    def __contains__(self, name: object) -> bool:
        return name in self._lazy or name in self._loaded


def _to_devnull(stream) -> None:
    """Point ``stream``'s file descriptor at the null device, so that what is
    still written (or buffered, and flushed when Python exits) goes nowhere
    without an error."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, AttributeError):
        return
    os.dup2(null, fd)
    os.close(null)


class _Stdout:
    """``sys.stdout`` while gamao runs: an ``OSError`` of writing it becomes
    :class:`~gamao_cli.errors.StdoutError` (one of gamao's errors, exit code
    2), not a crash taken for a bug. A broken pipe (the reader has gone) is
    nothing to say and no failure: from then on what is written goes to the
    null device, and the command goes on to its end and its exit code. Its
    ``buffer`` (where converted records are written as bytes) does the same
    for a broken pipe; its other errors are the buffer's. Everything else is
    the stream's."""

    def __init__(self, stream):
        self._stream = stream
        self.reader_gone = False

    def write(self, text):
        if self.reader_gone:
            return len(text)
        return self._guard(self._stream.write, text)

    def flush(self):
        if self.reader_gone:
            return None
        return self._guard(self._stream.flush)

    def gone(self) -> None:
        """The reader has gone: write nothing more."""
        if not self.reader_gone:
            self.reader_gone = True
            _to_devnull(self._stream)

    def _guard(self, call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            self.gone()
            return len(args[0]) if args else None
        except OSError as exc:
            raise StdoutError(exc) from None

    @property
    def buffer(self):
        return _Buffer(self, self._stream.buffer)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class _Buffer:
    """``sys.stdout.buffer`` while gamao runs: a broken pipe is the reader
    gone (:meth:`_Stdout.gone`); everything else is the buffer's."""

    def __init__(self, stdout: _Stdout, buffer):
        self._stdout = stdout
        self._buffer = buffer

    def write(self, data):
        if self._stdout.reader_gone:
            return len(data)
        try:
            return self._buffer.write(data)
        except BrokenPipeError:
            self._stdout.gone()
            return len(data)

    def flush(self):
        if self._stdout.reader_gone:
            return None
        try:
            return self._buffer.flush()
        except BrokenPipeError:
            self._stdout.gone()
            return None

    def __getattr__(self, name):
        return getattr(self._buffer, name)


def _stdout_failed(exc: StdoutError) -> None:
    """Say that standard output cannot be written, and point its file
    descriptor at the null device, so that what is still buffered does not
    fail again when Python exits (which would make the exit code 120)."""
    click.echo(f"gamao: {exc}", err=True)
    _to_devnull(sys.stdout._stream if isinstance(sys.stdout, _Stdout) else sys.stdout)


def _escaping(stream) -> None:
    """Write what ``stream``'s encoding cannot hold escaped (backslashreplace)."""
    try:
        stream.reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError, OSError):
        pass


#: The garbage collector's first threshold while the command runs (Python's
#: is 700): a run makes millions of short-lived objects and almost no cycles,
#: and the collections Python's default makes cost about 7% of a validation.
GC_THRESHOLD = 10_000


def _tune_gc() -> None:
    """The collector's settings for a run of the command: what is imported
    by now (modules, the grammar's tables) is moved out of its sight for good
    (``gc.freeze``, so that no collection walks it again), and collections
    are made less often. Worker processes are forked from this one and
    inherit both."""
    import gc
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 20, 100)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the ``with`` block, then
    as it was: for building one big output (a conversion of one file),
    where what is made lives until it is written, so that every collection
    on the way walks objects that cannot be garbage (a match of 7,911 games
    to HTML: 15 collections of the middle generation, 0.3 s of 4 s) and
    almost nothing made is a cycle (about a hundred unreachable objects at
    the end of such a run; reference counting frees the rest)."""
    import gc
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _exit_without_teardown(exc: SystemExit) -> None:
    """End the command's process now with ``exc``'s exit code, skipping the
    interpreter's teardown: freeing every object one by one (the memos of
    plays and plans a run fills, the modules) cost about a tenth of a
    validation of the bulk corpus, for nothing, since the process is ending.

    What an ordinary exit does that matters is done first: standard output
    and standard error are flushed and the ``atexit`` functions run. Only
    for an exit code that is a number, and only when no other thread runs
    (an ordinary exit would wait for it). Else, and when a flush fails,
    nothing is done here and the exit goes on as usual (which reports the
    failure as before)."""
    code = exc.code
    if code is None:
        code = 0
    if type(code) is not int or not 0 <= code <= 255:
        return
    import threading
    if threading.active_count() != 1 or not _flushed():
        return
    import atexit
    atexit._run_exitfuncs()
    if _flushed():   # (what the atexit functions wrote)
        os._exit(code)


def _flushed() -> bool:
    """Flush standard output and standard error: whether both went."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:
        return False
    return True


class GamaoGroup(Group):
    """Turns domain errors into messages and crashes into exit code 3; a run
    speaks the language of ``--lang`` or the environment
    (:class:`gamao_cli.cli.language.Group`)."""

    def __call__(self, *args, **kwargs):
        # the command itself (the ``gamao`` script, ``python -m gamao_cli``),
        # not a caller's own process that runs ``main`` (a test's CliRunner)
        _tune_gc()
        return super().__call__(*args, **kwargs)

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
            # a broken pipe _Stdout did not see (a stream of its own): the
            # command stopped there, so its findings are not known
            _to_devnull(sys.stdout._stream if isinstance(sys.stdout, _Stdout) else sys.stdout)
            ctx.exit(exit_codes.USAGE)
        except KeyboardInterrupt:
            click.echo("gamao: " + _("interrupted"), err=True)
            ctx.exit(exit_codes.INTERRUPTED)
        except WorkerDied:   # (not a bug of gamao as such: say what is known)
            click.echo("gamao: " + _("a worker process ended in the middle of the run (killed, "
                                     "for instance by the system for lack of memory, or "
                                     "crashed); the run was stopped: run it again with --jobs 1 "
                                     "to see on which input"), err=True)
            ctx.exit(exit_codes.INTERNAL)
        except Exception as exc:  # an internal error: one line, unless debugging
            if os.environ.get("GAMAO_DEBUG") == "1":
                import traceback
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
    Backgammon Studio and others; GNU Backgammon SGF; eXtreme Gammon's .xg
    matches and .xgp positions; gamao JSON).

    \b
    Examples:
      gamao validate examples/
      gamao validate --format github matches/
      gamao convert game.mat --to json -o game.json
      gamao summary --format csv matches/ > results.csv
      gamao help validate

    Shell completion (bash): eval "$(_GAMAO_COMPLETE=bash_source gamao)"
    (zsh: zsh_source, fish: fish_source).
    """


main.commands = _Commands(COMMANDS)


def run() -> None:
    """The ``gamao`` command (the script and ``python -m gamao_cli``):
    :data:`main`, whose exit then skips the interpreter's teardown
    (:func:`_exit_without_teardown`). A program that calls ``main()``
    itself gets click's ordinary ``SystemExit``."""
    try:
        main()
    except SystemExit as exc:
        _exit_without_teardown(exc)
        raise


__all__ = ["main", "run"]
