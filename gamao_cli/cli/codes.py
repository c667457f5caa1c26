"""``gamao codes``: every code gamao reports."""
from __future__ import annotations

import json

import click

from gamao_cli.i18n import _

from . import exit_codes
from .language import Command


@click.command(cls=Command, epilog=exit_codes.epilog_for("codes"))
@click.option("--format", "-f", "fmt", type=click.Choice(("text", "json", "markdown")),
              default="text", show_default=True,
              help="text: one line per code (code, category, severity, meaning); json: a list "
                   "of objects with those four fields (and \"formerly\": the old numbers of a "
                   "renumbered code), for programs; markdown: the table of docs/codes.md.")
def codes(fmt: str) -> None:
    """List every diagnostic code with its category, severity and meaning.

    A code's first digit is its kind: GM0 the input (a file that cannot be
    read, is not a match file, or that the grammar rejects), GM1 notation,
    GM2 checker play, GM3 the cube, GM4 results and scores, GM5 what a
    conversion changes. --select and --ignore of validate take codes and
    such prefixes.

    \b
    Examples:
      gamao codes
      gamao codes | grep cube
      gamao codes --format json | jq -r '.[] | select(.severity == "info") | .code'
      gamao codes --format markdown > docs/codes.md
    """
    from gamao_cli.messages import (ALIASES, CODES, category_word, codes_markdown, severity_word,
                                    title)
    if fmt == "markdown":
        click.echo(codes_markdown(), nl=False)
    elif fmt == "json":
        # the names of the fields, the categories and the severities stay;
        # the title is in the language that speaks
        doc = []
        for c in CODES.values():
            entry = dict(c.__dict__, title=title(c.code))
            formerly = [old for old, new in ALIASES.items() if new == c.code]
            if formerly:
                entry["formerly"] = formerly
            doc.append(entry)
        click.echo(json.dumps(doc, indent=2))
    else:
        width = max(len(category_word(c.category)) for c in CODES.values())
        sev_width = max(len(severity_word(c.severity)) for c in CODES.values())
        for c in CODES.values():
            click.echo(f"{c.code}  {category_word(c.category):<{width}} "
                       f"{severity_word(c.severity):<{sev_width}} {title(c.code)}")
        for old, new in ALIASES.items():
            click.echo(_("{old}  is now {new} (the old code still works in --select and --ignore)")
                       .format(old=old, new=new))
