"""``gamao convert``: write match records in another format."""
from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from gamao_cli import formats
from gamao_cli.formats import members
from gamao_cli.formats.textio import (atomic_write_soon, folders_synced_at_end, one_behind,
                                      sync_folder_later, writes_settled_in_background)
from gamao_cli.i18n import _, ngettext

from . import exit_codes
from .language import Command
from .files import iter_files, iter_input_files
from .options import (STDIN, check_output_not_a_folder, fail_usage, glob_option,
                      inputs_argument, jobs_option, label)


def _validate_hint(path: str) -> str:
    """The command that shows the errors of ``path``, as it can be typed."""
    if path == STDIN:
        return _("give the same input to gamao validate -")
    return "gamao validate " + shlex.quote(path)


def _convert_one(path: str, target: str, out: str, force: bool, strict: bool,
                 settle_later: bool = False) -> "tuple[int, list[str]] | _Settling":
    """Convert one file; return (exit code, messages), in the order they
    happened: a file that could not be written says only that. A bug of
    gamao on this file (any other exception) is its GM008 diagnostic and
    exit code 3, and the caller goes on with the other files
    (``GAMAO_DEBUG=1`` lets the exception through). ``settle_later``: in
    a :func:`~gamao_cli.formats.textio.writes_settled_in_background` block,
    an output written but not yet settled is returned as the
    :class:`_Settling` that gives them (:func:`_in_order`)."""
    from gamao_cli.cli import collector_paused
    name = label(path)
    try:
        with collector_paused():   # what a conversion makes lives until it is written
            result = _convert_steps(path, name, target, out, force, strict)
    except _Failed as failed:
        if os.environ.get("GAMAO_DEBUG") == "1":
            raise failed.exc from None
        return _internal(failed.exc, name, failed.where)
    return result if settle_later else _final(result)


def _internal(exc: Exception, name: str, where: str) -> tuple[int, list[str]]:
    """A bug of gamao's on one file: its GM008 diagnostic and exit code 3."""
    from gamao_cli.replay.check import internal_error_diagnostic
    return exit_codes.INTERNAL, [internal_error_diagnostic(exc, name, where).format_text()]


class _Failed(Exception):
    """An unexpected exception of one step of a conversion, and which."""

    def __init__(self, exc: Exception, where: str):
        super().__init__(str(exc))
        self.exc = exc
        self.where = where


def _step(where: str, call, *args, **kwargs):
    """``call(*args, **kwargs)``; an exception that is not one of gamao's
    errors (a bug) becomes :class:`_Failed` naming the step ``where``."""
    from gamao_cli.errors import GamaoError
    try:
        return call(*args, **kwargs)
    except GamaoError:
        raise
    except Exception as exc:
        raise _Failed(exc, where) from exc


def _convert_steps(path: str, name: str, target: str, out: str, force: bool,
                   strict: bool) -> "tuple[int, list[str]] | _Settling":
    from gamao_cli.errors import InputError
    from gamao_cli.formats.limits import all_digits
    from gamao_cli.replay.check import input_error_diagnostic

    try:
        matches = _step("reading", members.read_path, path)
    except InputError as exc:
        return exit_codes.USAGE, [input_error_diagnostic(exc).format_text()]
    # (a figure past 4,300 digits is written where the format holds it; the
    # JSON and .mat writers refuse it, GM507; nothing is read from here on)
    with all_digits():
        return _write_steps(matches, path, name, target, out, force, strict)


def _write_steps(matches, path: str, name: str, target: str, out: str, force: bool,
                 strict: bool) -> "tuple[int, list[str]] | _Settling":
    from gamao_cli.errors import OutputError, WriteRefused
    try:
        conv = _step("converting", formats.get(target).write, matches)
    except WriteRefused as exc:
        return exit_codes.USAGE, [f"{name}: {exc}"]
    if strict and _step("converting", lambda: conv.errors):   # (makes the whole output)
        errors = ngettext("{n} error", "{n} errors", conv.errors).format(n=conv.errors)
        return exit_codes.FINDINGS, [
            _("{name}: {errors} found by the validator; not converted (--strict; {hint} shows "
              "them)").format(name=name, errors=errors, hint=_validate_hint(path))]
    try:
        # streamed: the writer makes its output piece by piece as it is
        # written; the sync to disk and the rename may settle while the next
        # input is converted (_in_order)
        settle = _step("converting",
                       lambda: atomic_write_soon(out, conv.iter_chunks(), force=force))
    except OutputError as exc:
        return _not_written(exc, name)
    errors = ngettext("{n} error", "{n} errors", conv.errors).format(n=conv.errors)
    messages = [_("{name}: warning: {message}").format(name=name, message=w)
                for w in conv.warnings]
    if conv.errors:
        messages.append(_("{name}: warning: converted, but the validator found {errors} ({hint})")
                        .format(name=name, errors=errors, hint=_validate_hint(path)))
    return _Settling(settle, name, messages)


def _not_written(exc: Exception, name: str) -> tuple[int, list[str]]:
    return exit_codes.USAGE, [_("{error}; {name} was not converted").format(error=exc,
                                                                             name=name)]


class _Settling:
    """A conversion whose output is written but not yet settled (synced to
    disk and renamed onto its target: :func:`atomic_write_soon`): its exit
    code and messages once it has (:meth:`final`)."""

    __slots__ = ("settle", "name", "messages")

    def __init__(self, settle, name: str, messages: list[str]):
        self.settle, self.name, self.messages = settle, name, messages

    def final(self) -> tuple[int, list[str]]:
        from gamao_cli.errors import OutputError
        try:
            self.settle()
        except OutputError as exc:
            return _not_written(exc, self.name)
        except Exception as exc:   # a bug of gamao's: GM008, as _convert_one says it
            if os.environ.get("GAMAO_DEBUG") == "1":
                raise
            return _internal(exc, self.name, "converting")
        return exit_codes.OK, self.messages


def _in_order(results: Iterator) -> Iterator[tuple[int, list[str]]]:
    """The conversions' ``(exit code, messages)`` in order, each output
    settling on a thread of its own while the next input is converted (the
    disk's wait for a sync then costs no time): one conversion is held back
    until the next is made. Every output has settled when this ends, however
    it ends."""
    with writes_settled_in_background():
        for result in one_behind(results):
            yield _final(result)


def _final(result) -> tuple[int, list[str]]:
    return result.final() if isinstance(result, _Settling) else result


def _target_help() -> str:
    return "; ".join(f"{f.name}: {f.title}" for f in formats.writable()) + "."


def _make_folder(folder: str) -> None:
    """Create the --out-dir folder, or stop with a usage error that names it
    and says why (nothing is converted then)."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        reason = exc.strerror.lower() if exc.strerror else str(exc)
        if isinstance(exc, (NotADirectoryError, FileExistsError)):
            reason = _("a part of the path is a file, not a folder")
        raise click.UsageError(_("--out-dir {folder}: cannot create the folder: {reason}; nothing "
                                 "was converted").format(folder=folder, reason=reason)) from None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.exists(b) and os.path.samefile(a, b)
    except OSError:
        return False


@click.command(cls=Command, epilog=exit_codes.epilog_for("convert"))
@inputs_argument
@click.option("--to", "target", type=click.Choice([f.name for f in formats.writable()]),
              required=True, help=_target_help())
@click.option("-o", "--output", "output", type=click.Path(allow_dash=True),
              help="Output file (- for standard output). One input only.")
@click.option("--out-dir", type=click.Path(file_okay=False),
              help="Folder for the outputs (created if needed): each input's name with the "
                   "new ending.")
@click.option("--force", is_flag=True, help="Replace existing output files.")
@click.option("--strict", is_flag=True, help="Do not convert a file the validator finds errors in "
                                             "(exit code 1).")
@glob_option
@jobs_option
def convert(inputs: tuple[str, ...], target: str, output: str | None, out_dir: str | None,
            force: bool, strict: bool, globs: tuple[str, ...], jobs: int | None) -> None:
    """Convert match records to another format.

    Each output goes beside its input with the new ending, or into --out-dir,
    or to -o; standard input (-) goes to standard output unless -o says
    otherwise. Outputs are written atomically (a temporary file, then a
    rename); an existing file is replaced only with --force, and an input is
    never overwritten. An existing character device or pipe (-o /dev/null, a
    FIFO) is written to directly, without --force.

    \b
    Examples:
      gamao convert match.txt --to mat -o match.mat
      gamao convert match.mat --to json -o -
      gamao convert archive/ --to sgf --out-dir sgf/
      gamao convert archive/ --to html --out-dir pages/ --jobs 4
      cat match.mat | gamao convert - --to json > match.json
    """
    files = list(iter_input_files(inputs, globs))
    if not files:
        fail_usage(_("no match files found in {paths}").format(paths=", ".join(inputs)))
    if output and out_dir:
        fail_usage(_("give either -o/--output or --out-dir, not both"))
    check_output_not_a_folder(output)
    if output and len(files) > 1:
        fail_usage(_("-o/--output takes one input; use --out-dir for several"))
    if out_dir and STDIN in files:
        fail_usage(_("standard input (-) has no name for its output in --out-dir: use -o FILE, "
                     "or leave both out to write to standard output"))
    ending = formats.get(target).extensions[0]
    outputs = _Outputs(output, out_dir, ending)
    pairs = [(f, outputs.of(f)) for f in files]
    targets = [o for _f, o in pairs if o != "-"]
    if len(set(targets)) != len(targets):
        fail_usage(_("two inputs would be written to the same output file; use --out-dir with "
                     "inputs of different names"))
    if out_dir:
        _make_folder(out_dir)
    status = exit_codes.Status()
    with folders_synced_at_end():
        _convert_all(pairs, outputs, target, output, force, strict, jobs, status)
    sys.exit(status.code)


class _Outputs:
    """Where each input's output goes: ``-o``, standard output for standard
    input, else the input's name with the new ending, beside it or in
    ``--out-dir`` (an archive's member beside its archive, with its own
    name)."""

    def __init__(self, output: str | None, out_dir: str | None, ending: str):
        self.output, self.out_dir, self.ending = output, out_dir, ending

    def of(self, path: str) -> str:
        if self.output:
            return self.output
        if path == STDIN:
            return "-"   # a pipe in, a pipe out
        where = members.split(path)
        archive, name = where if where else (path, path)
        folder = self.out_dir if self.out_dir else str(Path(archive).parent)
        return os.path.join(folder, Path(name.replace("\\", "/")).stem + self.ending)


class _ConvertFile:
    """The conversion of one input to its output (:class:`_Outputs` says
    where), as :func:`iter_files` applies it, in worker processes for many
    inputs. (It is sent with every chunk of inputs: it holds no list of
    them. A dict of every output was 480 kB a chunk for 6,000 inputs, more
    than a pipe holds: a pool stopped by Ctrl-C could wait for ever to
    finish sending one.)"""

    def __init__(self, outputs: _Outputs, target: str, force: bool, strict: bool):
        self.outputs = outputs
        self.target = target
        self.force = force
        self.strict = strict

    def __call__(self, path: str) -> "tuple[int, list[str]] | _Settling":
        return _convert_one(path, self.target, self.outputs.of(path), self.force, self.strict,
                            settle_later=True)

    #: how :func:`iter_files` (and a worker, for its chunk) takes the calls'
    #: results: in order, each output settling while the next is made
    in_order = staticmethod(_in_order)


def _convert_all(pairs: list[tuple[str, str]], outputs: _Outputs, target: str,
                 output: str | None, force: bool, strict: bool, jobs: int | None,
                 status: "exit_codes.Status") -> None:
    """Convert each (input, output) pair, in worker processes for many
    inputs; what each says is written in input order, as it comes."""
    todo = [(f, out) for f, out in pairs if f == STDIN or out == "-" or not _same_file(f, out)]
    results = iter_files(_ConvertFile(outputs, target, force, strict), [f for f, _o in todo],
                         jobs, progress=False)
    taken = set(todo)
    try:
        for f, out in pairs:
            if (f, out) not in taken:
                if output:
                    why = _("-o {output} is the input file itself").format(output=output)
                else:
                    why = _("converted to {target}, it would be written over itself").format(
                        target=target)
                click.echo(_("{path}: refusing to overwrite the input: {why}; give another -o (or "
                             "--out-dir)").format(path=f, why=why), err=True)
                status.unreadable()
                continue
            code, messages = next(results)
            if out != "-":   # (a worker's output: its folder is synced here, at the end)
                sync_folder_later(os.path.dirname(out) or os.curdir)
            for msg in messages:
                click.echo(msg, err=True)
            status.merge(code)
    except BaseException:   # (an interrupt: the workers stopped, every output settled)
        results.close()
        raise
    # none left: taking the end lets the workers finish as a pool does when
    # its work is done (a pool terminated instead, its idle workers waiting
    # on the pool's queue, can wait for ever), and every output has settled
    # before the folders are synced
    for _rest in results:
        pass
