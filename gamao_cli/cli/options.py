"""Options and arguments shared by the commands, defined once (as
pip-tools' ``scripts/options.py``)."""
from __future__ import annotations

import os
import sys

import click

from gamao_cli import formats
from gamao_cli.i18n import _

#: How every command names standard input in what it prints (the readers'
#: name for it too): ``-`` on the command line, ``<stdin>`` in messages.
STDIN = "-"
STDIN_LABEL = "<stdin>"


def label(path: str) -> str:
    """``path`` as messages name it (standard input: ``<stdin>``)."""
    return STDIN_LABEL if path == STDIN else path


def _known_prefixes() -> list[str]:
    """Every code and every prefix of one (``GM``, ``GM2``, ``GM20``, ...)."""
    from gamao_cli.messages import CODES
    out: set[str] = set()
    for code in CODES:
        for n in range(2, len(code) + 1):
            out.add(code[:n])
    return sorted(out)


def _ranges() -> str:
    """``GM0 (input, syntax), GM1 (notation), ...``: the hundreds and their categories."""
    from gamao_cli.messages import CATEGORIES, CODES, category_word
    hundreds: dict[str, list[str]] = {}
    for c in CODES.values():
        cats = hundreds.setdefault(c.code[:3], [])
        if c.category not in cats:
            cats.append(c.category)
            cats.sort(key=CATEGORIES.index)
    return ", ".join(f"{h} ({', '.join(map(category_word, cats))})"
                     for h, cats in hundreds.items()) + ";"


def check_codes(values: tuple[str, ...], option: str) -> tuple[str, ...]:
    """The codes or prefixes given to ``--select``/``--ignore``, checked: a
    renumbered code is taken as its new number (with a note on standard
    error); a code or prefix no code starts with is a usage error that
    suggests the closest codes.

    >>> check_codes(("GM2", "gm401"), "--select")
    ('GM2', 'GM401')
    """
    from gamao_cli.messages import ALIASES, CODES, title
    known = _known_prefixes()
    out: list[str] = []
    for raw in values:
        code = raw.strip().upper()
        if not code:
            continue
        if code in ALIASES:
            new = ALIASES[code]
            click.echo("gamao: " + _("{option} {code}: {code} is now {new} ({title}); the old "
                                     "code still works").format(option=option, code=code, new=new,
                                                                title=title(new)), err=True)
            code = new
        elif code not in known:
            import difflib
            close = difflib.get_close_matches(code, list(CODES), n=3, cutoff=0.6)
            hint = (_("did you mean {codes}?").format(codes=", ".join(close)) if close
                    else _("the codes are {ranges}").format(ranges=_ranges()))
            raise click.BadParameter(
                _("no code is or starts with {code!r} ({hint} gamao codes lists them)").format(
                    code=raw.strip(), hint=hint),
                param_hint=f"'{option}'")
        if code not in out:
            out.append(code)
    return tuple(out)


def _codes(ctx, param, value: tuple[str, ...]) -> tuple[str, ...] | None:
    parts: list[str] = []
    for v in value:
        parts.extend(c for c in v.split(",") if c.strip())
    return check_codes(tuple(parts), "--" + param.name) or None


def _path_type() -> click.Path:
    # readable=False: a file that cannot be read is the command's diagnostic
    # (GM004, exit 2) with the other files still done, not click's usage error
    return click.Path(allow_dash=True, readable=False)


paths_argument = click.argument("paths", nargs=-1, required=True, type=_path_type())
inputs_argument = click.argument("inputs", nargs=-1, required=True, type=_path_type())


def _endings_words() -> str:
    """``*.sgf, *.mat and *.txt``: the endings folder scans take."""
    names = ["*" + e for e in formats.file_endings()]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


glob_option = click.option("--glob", "globs", multiple=True, metavar="PATTERN",
                           help="In folders, take files whose name matches PATTERN (repeatable) "
                                f"instead of {_endings_words()} (in any case).")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                           help="Worker processes for many files (default: all cores).")
color_option = click.option("--color/--no-color", "color", default=None,
                            help="Colour the text output (default: when writing to a terminal "
                                 "and NO_COLOR is not set).")
select_option = click.option("--select", multiple=True, callback=_codes, metavar="CODES",
                             help="Report only these codes or prefixes (comma-separated, "
                                  "repeatable): GM2,GM401. An unknown one is an error.")
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


def check_output_not_a_folder(output: str | None, out_dir: bool = True) -> None:
    """A usage error when ``-o`` names an existing folder: -o names one
    output file (``out_dir``: the command has --out-dir for a folder)."""
    if output and output != STDIN and os.path.isdir(output):
        if out_dir:
            fail_usage(_("-o {output} is a folder: -o names the output file; to write into the "
                         "folder, give --out-dir {output}").format(output=output))
        fail_usage(_("-o {output} is a folder: -o names the output file, a file in it or "
                     "elsewhere").format(output=output))
