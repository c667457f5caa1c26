"""``gamao convert``: write match records in another format."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from gamao_cli import formats

from . import exit_codes
from .files import iter_input_files
from .options import fail_usage, glob_option


def _convert_one(path: str, target: str, out: str, force: bool, strict: bool) -> tuple[int, list[str]]:
    """Convert one file; return (exit code, messages)."""
    from gamao_cli.errors import InputError, OutputError
    from gamao_cli.formats.textio import atomic_write
    from gamao_cli.replay.check import input_error_diagnostic

    label = "<stdin>" if path == "-" else path
    try:
        matches = formats.read_path(path)
    except InputError as exc:
        return exit_codes.USAGE, [input_error_diagnostic(exc).format_text()]
    try:
        conv = formats.get(target).write(matches)
    except ValueError as exc:
        return exit_codes.USAGE, [f"{label}: {exc}"]
    messages = [f"{label}: warning: {w}" for w in conv.warnings]
    if conv.errors:
        if strict:
            return exit_codes.FINDINGS, messages + [
                f"{label}: {conv.errors} {'error' if conv.errors == 1 else 'errors'} found by the "
                "validator; not converted (--strict)"]
        messages.append(f"{label}: warning: converted, but the validator found {conv.errors} "
                        f"{'error' if conv.errors == 1 else 'errors'} (gamao validate {label})")
    try:
        atomic_write(out, conv.data if conv.data is not None else conv.text, force=force)
    except OutputError as exc:
        return exit_codes.USAGE, messages + [str(exc)]
    return exit_codes.OK, messages


def _target_help() -> str:
    return "; ".join(f"{f.name}: {f.title}" for f in formats.writable()) + "."


@click.command(epilog=exit_codes.HELP)
@click.argument("inputs", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--to", "target", type=click.Choice([f.name for f in formats.writable()]),
              required=True, help=_target_help())
@click.option("-o", "--output", "output", type=click.Path(allow_dash=True),
              help="Output file (- for standard output). One input only.")
@click.option("--out-dir", type=click.Path(file_okay=False),
              help="Folder for the outputs: each input's name with the new ending.")
@click.option("--force", is_flag=True, help="Replace existing output files.")
@click.option("--strict", is_flag=True, help="Do not convert a file the validator finds errors in.")
@glob_option
def convert(inputs: tuple[str, ...], target: str, output: str | None, out_dir: str | None,
            force: bool, strict: bool, globs: tuple[str, ...]) -> None:
    """Convert match records to another format.

    Outputs are written atomically (a temporary file, then a rename); an
    existing file is replaced only with --force, and an input is never
    overwritten. An existing character device or pipe (-o /dev/null, a
    FIFO) is written to directly, without --force.

    \b
    Examples:
      gamao convert match.txt --to mat -o match.mat
      gamao convert match.mat --to json -o -
      gamao convert archive/ --to sgf --out-dir sgf/
    """
    files = list(iter_input_files(inputs, globs))
    if not files:
        fail_usage("no match files found in " + ", ".join(inputs))
    if output and out_dir:
        fail_usage("give either -o/--output or --out-dir, not both")
    if output and len(files) > 1:
        fail_usage("-o/--output takes one input; use --out-dir for several")
    ending = formats.get(target).extensions[0]
    jobs: list[tuple[str, str]] = []
    for f in files:
        if output:
            out = output
        else:
            base = "stdin" if f == "-" else Path(f).stem
            folder = out_dir if out_dir else ("." if f == "-" else str(Path(f).parent))
            out = os.path.join(folder, base + ending)
        jobs.append((f, out))
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    targets = [o for _f, o in jobs if o != "-"]
    if len(set(targets)) != len(targets):
        fail_usage("two inputs would be written to the same output file; use --out-dir with "
                   "inputs of different names")
    status = exit_codes.Status()
    for f, out in jobs:
        if f != "-" and out != "-" and os.path.exists(out) and os.path.samefile(f, out):
            click.echo(f"{f}: refusing to overwrite the input file (choose -o or --out-dir)", err=True)
            status.unreadable()
            continue
        code, messages = _convert_one(f, target, out, force, strict)
        for msg in messages:
            click.echo(msg, err=True)
        status.merge(code)
    sys.exit(status.code)
