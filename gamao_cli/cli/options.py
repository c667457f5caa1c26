"""Options and arguments shared by the commands, defined once (as
pip-tools' ``scripts/options.py``)."""
from __future__ import annotations

import os
import sys

import click

from gamao_cli import formats


def _codes(ctx, param, value: tuple[str, ...]) -> tuple[str, ...] | None:
    out: list[str] = []
    for v in value:
        out.extend(c.strip().upper() for c in v.split(",") if c.strip())
    return tuple(out) or None


paths_argument = click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
def _endings_words() -> str:
    """``*.sgf, *.mat and *.txt``: the endings folder scans take."""
    names = ["*" + e for e in formats.file_endings()]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


glob_option = click.option("--glob", "globs", multiple=True, metavar="PATTERN",
                           help="In folders, take files whose name matches PATTERN (repeatable) "
                                f"instead of {_endings_words()}.")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                           help="Worker processes for many files (default: all cores).")
color_option = click.option("--color/--no-color", "color", default=None,
                            help="Colour the text output (default: when writing to a terminal "
                                 "and NO_COLOR is not set).")
select_option = click.option("--select", multiple=True, callback=_codes, metavar="CODES",
                             help="Report only these codes or prefixes (comma-separated, "
                                  "repeatable): GM2,GM401.")
ignore_option = click.option("--ignore", multiple=True, callback=_codes, metavar="CODES",
                             help="Do not report these codes or prefixes (comma-separated, "
                                  "repeatable).")
strict_option = click.option("--strict", is_flag=True, help="Warnings fail too (exit code 1).")


def use_colour(option: bool | None) -> bool:
    """Whether to colour text output: as asked, else on a terminal without NO_COLOR."""
    if option is not None:
        return option
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def fail_usage(message: str) -> None:
    raise click.UsageError(message)
