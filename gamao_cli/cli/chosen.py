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

    written = 0
    for where, source in read_inputs(list(wanted), os.getcwd()):
        for c in wanted.get(where, []):
            try:
                if isinstance(source, InputError):
                    raise source
                data, ending = payload(source, c.index, c.alone, to)
                folder.write(folder.name_for(where, c.index, c.alone, ending), data,
                             inputs=(where.path,))
                written += 1
            except InputError as exc:
                click.echo(input_error_diagnostic(exc).format_text(), err=True)
                status.unreadable()
            except (OutputError, WriteRefused) as exc:
                click.echo(f"gamao: {exc}", err=True)
                status.unreadable()
    return written
