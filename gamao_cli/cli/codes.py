"""``gamao codes``: every code gamao reports."""
from __future__ import annotations

import json

import click


@click.command()
@click.option("--format", "-f", "fmt", type=click.Choice(("text", "json", "markdown")),
              default="text", show_default=True)
def codes(fmt: str) -> None:
    """List every diagnostic code with its category, severity and meaning."""
    from gamao_cli.messages import CODES, codes_markdown
    if fmt == "markdown":
        click.echo(codes_markdown(), nl=False)
    elif fmt == "json":
        click.echo(json.dumps([c.__dict__ for c in CODES.values()], indent=2))
    else:
        width = max(len(c.category) for c in CODES.values())
        for c in CODES.values():
            click.echo(f"{c.code}  {c.category:<{width}} {c.severity:<7} {c.title}")
