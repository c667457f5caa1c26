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
    from gamao_cli.archive.inputs import read_inputs
    from gamao_cli.archive.output import payload
    from gamao_cli.errors import InputError, OutputError, WriteRefused
    from gamao_cli.replay.check import input_error_diagnostic

    from gamao_cli.formats.textio import writes_settled_in_background

    def said(problem: str) -> None:
        click.echo(problem, err=True)
        status.unreadable()

    written = 0
    held = None   # the file before: written, its sync and rename settling
    with writes_settled_in_background():
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
                written += _settled(held, said)   # (what the file before says, first)
                held = settle
                if problem is not None:
                    said(problem)
        written += _settled(held, said)
    return written


def _settled(settle, said) -> int:
    """1 when the write ``settle`` waits for went (0 for none); its
    :class:`~gamao_cli.errors.OutputError` said, 0."""
    from gamao_cli.errors import OutputError
    if settle is None:
        return 0
    try:
        settle()
    except OutputError as exc:
        said(f"gamao: {exc}")
        return 0
    return 1
