"""Writing the matches ``gamao dedupe --keep`` and ``gamao select -o``
chose into their output folder: one file a match, read again from its
input (a file, or an archive's member), each refusal said and counted."""
from __future__ import annotations

import os
from typing import Any, Iterable

import click

from . import exit_codes


def write_chosen(chosen: Iterable[Any], folder: Any, to: str | None,
                 status: exit_codes.Status) -> int:
    """Write each chosen match (an object with ``where``, ``index`` and
    ``alone``: what the archive tools keep of one) into ``folder``, in its
    input's own format or converted ``to`` one; the number written."""
    from gamao_cli.formats.textio import folders_synced_at_end

    wanted: dict[Any, list] = {}
    for c in chosen:
        wanted.setdefault(c.where, []).append(c)
    with folders_synced_at_end():
        return _write_wanted(wanted, folder, to, status)


def _write_wanted(wanted: dict[Any, list], folder: Any, to: str | None,
                  status: exit_codes.Status) -> int:
    from gamao_cli.errors import OutputError
    from gamao_cli.formats.textio import one_behind, writes_settled_in_background

    written = 0
    # each file's sync and rename settle while the next is read and written
    with writes_settled_in_background():
        for settle, problem in one_behind(_staged(wanted, folder, to)):
            if settle is not None:
                try:
                    settle()
                    written += 1
                except OutputError as exc:
                    problem = f"gamao: {exc}"
            if problem is not None:
                click.echo(problem, err=True)
                status.unreadable()
    return written


def _staged(wanted: dict[Any, list], folder: Any, to: str | None):
    """For each chosen match, in its inputs' order: the call that settles
    its file (:meth:`~gamao_cli.archive.output.Folder.write_soon`), or what
    stopped it being written."""
    from gamao_cli.archive.inputs import read_inputs
    from gamao_cli.archive.output import payload
    from gamao_cli.errors import InputError, OutputError, WriteRefused
    from gamao_cli.replay.check import input_error_diagnostic
    for where, source in read_inputs(list(wanted), os.getcwd()):
        for c in wanted.get(where, []):
            settle = problem = None
            try:
                if isinstance(source, InputError):
                    raise source
                data, ending = payload(source, c.index, c.alone, to)
                settle = folder.write_soon(folder.name_for(where, c.index, c.alone, ending),
                                           data, inputs=(where.path,))
            except InputError as exc:
                problem = input_error_diagnostic(exc).format_text()
            except (OutputError, WriteRefused) as exc:
                problem = f"gamao: {exc}"
            yield settle, problem
