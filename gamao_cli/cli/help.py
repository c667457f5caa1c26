"""``gamao help [COMMAND]``: the help of gamao, or of one of its commands
(the same as ``gamao --help`` and ``gamao COMMAND --help``)."""
from __future__ import annotations

import click

from gamao_cli.i18n import _

from . import exit_codes
from .language import Command
from .options import fail_usage


@click.command(name="help", cls=Command, epilog=exit_codes.epilog_for("help"))
@click.argument("command", required=False, metavar="[COMMAND]")
@click.pass_context
def help_command(ctx: click.Context, command: str | None) -> None:
    """Show the help of gamao, or of COMMAND (the same as gamao --help and
    gamao COMMAND --help).

    \b
    Examples:
      gamao help
      gamao help validate
    """
    parent = ctx.parent
    assert parent is not None
    group = parent.command
    if command is None:
        click.echo(group.get_help(parent))
        return
    cmd = group.get_command(parent, command)  # type: ignore[attr-defined]
    if cmd is None:
        names = ", ".join(group.list_commands(parent))  # type: ignore[attr-defined]
        fail_usage(_("no command {command!r}: the commands are {names}").format(
            command=command, names=names))
    with click.Context(cmd, info_name=command, parent=parent) as sub:
        click.echo(cmd.get_help(sub))
