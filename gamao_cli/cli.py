"""The ``gamao`` command: validate, convert, summary, position, codes.

Domain errors are caught here, at the boundary, and become a one-line
message and a documented exit code; an unexpected internal error prints one
line with a hint to report it and exits 3 (set ``GAMAO_DEBUG=1`` for the
traceback).
"""
from __future__ import annotations

import fnmatch
import functools
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Callable, Iterable, Iterator

import click

from . import __version__
from .checking import FileCheck, check_file, input_error_diagnostic
from .errors import GamaoError, InputError, OutputError
from .reporters import FORMATS, STREAMED, Tally, render, stream

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

EXIT_CODES_HELP = """\b
Exit codes:
  0  no errors
  1  errors found (or warnings, with --strict)
  2  usage error, or a file that could not be read or is not a
     match file (the other files are still checked)
  3  internal error: a bug in gamao (please report it; GAMAO_DEBUG=1
     shows details); validate reports it as GM004 for the file it
     happened on and still checks the other files"""

DEFAULT_ENDINGS = (".mat", ".txt", ".sgf")
PROGRESS_MIN_FILES = 20


# -- shared options (defined once, reused by the commands) ------------------

def _codes(ctx, param, value: tuple[str, ...]) -> tuple[str, ...] | None:
    out: list[str] = []
    for v in value:
        out.extend(c.strip().upper() for c in v.split(",") if c.strip())
    return tuple(out) or None


paths_argument = click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
glob_option = click.option("--glob", "globs", multiple=True, metavar="PATTERN",
                           help="In folders, take files whose name matches PATTERN (repeatable) "
                                "instead of *.mat, *.txt and *.sgf.")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                           help="Worker processes for many files (default: all cores).")
color_option = click.option("--color/--no-color", "color", default=None,
                            help="Colour the text output (default: when writing to a terminal "
                                 "and NO_COLOR is not set).")


# -- finding files --------------------------------------------------------

def iter_input_files(paths: Iterable[str], globs: tuple[str, ...] = ()) -> Iterator[str]:
    """Expand folders recursively (following links, each real folder once)."""
    seen_dirs: set[str] = set()
    for p in paths:
        if p == "-" or not os.path.isdir(p):
            yield p
            continue
        for root, dirs, files in os.walk(p, followlinks=True):
            real = os.path.realpath(root)
            if real in seen_dirs:
                dirs[:] = []
                continue
            seen_dirs.add(real)
            dirs.sort()
            for name in sorted(files):
                if name.startswith("."):
                    continue
                if globs:
                    if not any(fnmatch.fnmatch(name, g) for g in globs):
                        continue
                elif not name.lower().endswith(DEFAULT_ENDINGS):
                    continue
                yield os.path.join(root, name)


def _use_colour(option: bool | None) -> bool:
    if option is not None:
        return option
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


# -- running over many files ----------------------------------------------

def iter_files(func: Callable[[str], FileCheck], files: list[str], jobs: int | None,
               label: str = "Checking", pool_min_bytes: int = 256 * 1024) -> Iterator[FileCheck]:
    """Apply ``func`` to each file and give the results in input order as they
    come, in worker processes when there are many files and they hold enough
    to be worth starting the workers (``pool_min_bytes`` in all: starting
    them costs about what checking 100 kB does)."""
    jobs = jobs or os.cpu_count() or 1
    show = sys.stderr.isatty() and len(files) >= PROGRESS_MIN_FILES
    worth = False
    if jobs > 1 and len(files) >= 4 and "-" not in files:
        size = 0
        for f in files:
            try:
                size += os.path.getsize(f)
            except OSError:
                pass
            if size >= pool_min_bytes:
                worth = True
                break
    if not worth:
        it: Iterable[FileCheck] = map(func, files)
        pool = None
    else:
        import multiprocessing
        if sys.platform != "win32":
            # forked workers inherit the parser built here rather than each
            # building its own
            from .matfile_reader import _parser
            _parser()
        pool = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(jobs)
        it = pool.imap(func, files, chunksize=max(1, min(32, len(files) // (jobs * 8) or 1)))
    try:
        if show:
            with click.progressbar(it, length=len(files), label=label, file=sys.stderr) as bar:
                yield from bar
        else:
            yield from it
    finally:
        if pool is not None:
            pool.close()
            pool.join()


def run_files(func: Callable[[str], FileCheck], files: list[str], jobs: int | None,
              label: str = "Checking", pool_min_bytes: int = 256 * 1024) -> list[FileCheck]:
    """:func:`iter_files`, all the results in a list."""
    return list(iter_files(func, files, jobs, label, pool_min_bytes))


def _fail_usage(message: str) -> None:
    raise click.UsageError(message)


# -- the command group ----------------------------------------------------

class GamaoGroup(click.Group):
    """Turns domain errors into messages and crashes into exit code 3."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except GamaoError as exc:
            click.echo(f"gamao: {exc}", err=True)
            ctx.exit(EXIT_USAGE)
        except BrokenPipeError:
            ctx.exit(EXIT_OK)
        except KeyboardInterrupt:
            click.echo("gamao: interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:  # an internal error: one line, unless debugging
            if os.environ.get("GAMAO_DEBUG") == "1":
                traceback.print_exc()
            else:
                click.echo(f"gamao: internal error: {type(exc).__name__}: {exc} "
                           "(this is a bug in gamao: please report it with the input file; "
                           "GAMAO_DEBUG=1 shows the traceback)", err=True)
            ctx.exit(EXIT_INTERNAL)


@click.group(cls=GamaoGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=EXIT_CODES_HELP)
@click.version_option(__version__, "--version", "-V", prog_name="gamao")
def main() -> None:
    """Read, validate, convert and summarise backgammon match records
    (.mat match files of GNU Backgammon, eXtreme Gammon, Backgammon Galaxy,
    Backgammon Studio and others; GNU Backgammon SGF; gamao JSON).

    \b
    Examples:
      gamao validate examples/
      gamao validate --format github matches/
      gamao convert game.mat --to json -o game.json
      gamao summary --format csv matches/ > results.csv

    Shell completion (bash): eval "$(_GAMAO_COMPLETE=bash_source gamao)"
    (zsh: zsh_source, fish: fish_source).
    """


# -- validate -------------------------------------------------------------

@main.command(epilog=EXIT_CODES_HELP)
@paths_argument
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: path:line:col: CODE severity message; json: one document; jsonl: one "
                   "object per diagnostic; github: GitHub Actions annotations; junit: JUnit XML.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary line (text format).")
@click.option("--strict", is_flag=True, help="Warnings fail too (exit code 1).")
@click.option("--select", multiple=True, callback=_codes, metavar="CODES",
              help="Report only these codes or prefixes (comma-separated, repeatable): GM2,GM401.")
@click.option("--ignore", multiple=True, callback=_codes, metavar="CODES",
              help="Do not report these codes or prefixes (comma-separated, repeatable).")
@glob_option
@jobs_option
@color_option
def validate(paths: tuple[str, ...], fmt: str, quiet: bool, strict: bool,
             select: tuple[str, ...] | None, ignore: tuple[str, ...] | None,
             globs: tuple[str, ...], jobs: int | None, color: bool | None) -> None:
    """Replay every game of the match files in PATHS under the rules of
    backgammon and report every illegal play, cube action, wrong result and
    wrong score line, with file, line and column.

    PATHS are files, folders (searched recursively for *.mat, *.txt and
    *.sgf) or - for standard input.

    \b
    Examples:
      gamao validate match.mat
      gamao validate --strict --jobs 4 archive/
      gamao validate --format json --ignore GM103 match.mat
      cat match.mat | gamao validate -
    """
    files = list(iter_input_files(paths, globs))
    if not files:
        _fail_usage("no match files found in " + ", ".join(paths))
    func = functools.partial(check_file, select=select, ignore=ignore)
    colour = fmt == "text" and _use_colour(color)
    if fmt in STREAMED:
        # written file by file: memory does not grow with the number of files
        tally = stream(fmt, iter_files(func, files, jobs),
                       lambda text: click.echo(text, nl=False, color=colour),
                       colour=colour, quiet=quiet, strict=strict)
    else:  # one document listing every file
        results = run_files(func, files, jobs)
        click.echo(render(fmt, results, colour=colour, quiet=quiet, strict=strict), nl=False,
                   color=colour)
        tally = Tally.of(results, strict)
    if tally.internal_error:
        sys.exit(EXIT_INTERNAL)   # a bug in gamao outweighs what the files hold
    if tally.counts["unreadable"]:
        sys.exit(EXIT_USAGE)
    if tally.failed:
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_OK)


# -- convert --------------------------------------------------------------

def _convert_one(path: str, target: str, out: str, force: bool, strict: bool) -> tuple[int, list[str]]:
    """Convert one file; return (exit code, messages)."""
    from .conversion import convert
    from .loading import load_path
    from .textio import atomic_write

    label = "<stdin>" if path == "-" else path
    try:
        matches, _enc = load_path(path)
    except InputError as exc:
        return EXIT_USAGE, [input_error_diagnostic(exc).format_text()]
    try:
        conv = convert(matches, target)
    except ValueError as exc:
        return EXIT_USAGE, [f"{label}: {exc}"]
    messages = [f"{label}: warning: {w}" for w in conv.warnings]
    if conv.errors:
        if strict:
            return EXIT_FINDINGS, messages + [
                f"{label}: {conv.errors} {'error' if conv.errors == 1 else 'errors'} found by the "
                "validator; not converted (--strict)"]
        messages.append(f"{label}: warning: converted, but the validator found {conv.errors} "
                        f"{'error' if conv.errors == 1 else 'errors'} (gamao validate {label})")
    try:
        atomic_write(out, conv.text, force=force)
    except OutputError as exc:
        return EXIT_USAGE, messages + [str(exc)]
    return EXIT_OK, messages


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("inputs", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--to", "target", type=click.Choice(("mat", "json", "sgf")), required=True,
              help="mat: GNU Backgammon's match-file layout, one die step per step; json: gamao's "
                   "JSON (every action, steps, positions, scores); sgf: GNU Backgammon's SGF.")
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
    from .conversion import EXTENSIONS

    files = list(iter_input_files(inputs, globs))
    if not files:
        _fail_usage("no match files found in " + ", ".join(inputs))
    if output and out_dir:
        _fail_usage("give either -o/--output or --out-dir, not both")
    if output and len(files) > 1:
        _fail_usage("-o/--output takes one input; use --out-dir for several")
    jobs: list[tuple[str, str]] = []
    for f in files:
        if output:
            out = output
        else:
            base = "stdin" if f == "-" else Path(f).stem
            folder = out_dir if out_dir else ("." if f == "-" else str(Path(f).parent))
            out = os.path.join(folder, base + EXTENSIONS[target])
        jobs.append((f, out))
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    targets = [o for _f, o in jobs if o != "-"]
    if len(set(targets)) != len(targets):
        _fail_usage("two inputs would be written to the same output file; use --out-dir with "
                    "inputs of different names")
    worst = EXIT_OK
    for f, out in jobs:
        if f != "-" and out != "-" and os.path.exists(out) and os.path.samefile(f, out):
            click.echo(f"{f}: refusing to overwrite the input file (choose -o or --out-dir)", err=True)
            worst = max(worst, EXIT_USAGE)
            continue
        code, messages = _convert_one(f, target, out, force, strict)
        for msg in messages:
            click.echo(msg, err=True)
        worst = max(worst, code)
    sys.exit(worst)


# -- summary --------------------------------------------------------------

def _summaries_of(path: str) -> tuple[list[dict], str | None]:
    from .loading import load_path
    from .summary import summarise
    try:
        matches, _ = load_path(path)
    except InputError as exc:
        return [], input_error_diagnostic(exc).format_text()
    return [summarise(mt) for mt in matches], None


@main.command(epilog=EXIT_CODES_HELP)
@paths_argument
@click.option("--format", "-f", "fmt", type=click.Choice(("table", "json", "csv")), default="table",
              show_default=True, help="table for people, json or csv for programs.")
@glob_option
def summary(paths: tuple[str, ...], fmt: str, globs: tuple[str, ...]) -> None:
    """Summarise matches: players, length, final score and winner; each game's
    winner, points, how it ended, cube and moves; totals per player.

    In JSON, index 0 is the left-column player (player 1 of the match file).

    \b
    Examples:
      gamao summary match.mat
      gamao summary --format json archive/ | jq '.[].winner'
    """
    from .summary import csv_text, table

    files = list(iter_input_files(paths, globs))
    if not files:
        _fail_usage("no match files found in " + ", ".join(paths))
    all_summaries: list[dict] = []
    code = EXIT_OK
    for f in files:
        summaries, error = _summaries_of(f)
        if error:
            click.echo(error, err=True)
            code = EXIT_USAGE
        all_summaries.extend(summaries)
    if fmt == "json":
        click.echo(json.dumps(all_summaries, indent=2, ensure_ascii=False))
    elif fmt == "csv":
        click.echo(csv_text(all_summaries), nl=False)
    else:
        click.echo(table(all_summaries), nl=False)
    sys.exit(code)


# -- position -------------------------------------------------------------

@main.command(epilog=EXIT_CODES_HELP)
@click.argument("file", required=False, type=click.Path(allow_dash=True))
@click.option("--game", "-g", type=click.IntRange(min=1), default=1, show_default=True,
              help="Game number.")
@click.option("--move", "-m", type=click.IntRange(min=1), default=1, show_default=True,
              help="Move number (the numbered line of the match file).")
@click.option("--player", type=click.Choice(("left", "right")), default=None,
              help="Whose action on that line (default: the first on it).")
@click.option("--id", "ident", metavar="ID",
              help="Show this position instead: an XGID, or a GNU Backgammon Position ID "
                   "with an optional :MatchID.")
def position(file: str | None, game: int, move: int, player: str | None,
             ident: str | None) -> None:
    """Print the position before a move of a match, as an ASCII board with its
    GNU Backgammon Position ID, Match ID and XGID; or the board of an ID.

    \b
    Examples:
      gamao position match.mat --game 2 --move 14
      gamao position match.mat -g 2 -m 14 --player right
      gamao position --id 'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10'
      gamao position --id 4HPwATDgc/ABMA:MACmAAAAAAAE
    """
    from .loading import load_path
    from .positions import board_from_id, find_snapshot

    if ident:
        try:
            click.echo(board_from_id(ident))
        except ValueError as exc:
            click.echo(f"gamao: {exc}", err=True)
            sys.exit(EXIT_USAGE)
        return
    if not file:
        _fail_usage("give a match FILE or --id")
    try:
        matches, _ = load_path(file)
    except InputError as exc:
        click.echo(input_error_diagnostic(exc).format_text(), err=True)
        sys.exit(EXIT_USAGE)
    side = None if player is None else (0 if player == "left" else 1)
    match = matches[0]
    try:
        snap = find_snapshot(match, game, move, side)
    except LookupError as exc:
        click.echo(f"gamao: {file}: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    names = tuple(n or f"player {i + 1}" for i, n in enumerate(match.players))
    who = names[snap.action.player]
    click.echo(f"{file}: game {game}, move {move}: {who} to act ({snap.action.text()})")
    click.echo(snap.board(names))
    click.echo(f"XGID={snap.xgid.split('=', 1)[1]}")


# -- codes ----------------------------------------------------------------

@main.command()
@click.option("--format", "-f", "fmt", type=click.Choice(("text", "json", "markdown")),
              default="text", show_default=True)
def codes(fmt: str) -> None:
    """List every diagnostic code with its category, severity and meaning."""
    from .diagnostics import CODES, codes_markdown
    if fmt == "markdown":
        click.echo(codes_markdown(), nl=False)
    elif fmt == "json":
        click.echo(json.dumps([c.__dict__ for c in CODES.values()], indent=2))
    else:
        for c in CODES.values():
            click.echo(f"{c.code}  {c.category:<8} {c.severity:<7} {c.title}")


if __name__ == "__main__":  # pragma: no cover
    main()
