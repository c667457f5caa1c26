#!/usr/bin/env python3
"""Benchmark: the instructions whole gamao commands execute, this checkout
against a baseline checkout, counted by Valgrind's callgrind.

On a shared machine the seconds of the same work drift by tens of percent
from one minute to the next, so a change of a few percent cannot be told
from the noise by timing. An instruction count can: callgrind counts the
instructions a process executes, the same for the same binary, input and
environment whatever else the machine does. (Instructions are not time:
a cache miss costs more than an add; read the count beside the seconds of
``bench/throughput.py`` and ``bench/export.py``, not instead of them.)

Each command runs once as it is (which compiles any module whose ``.pyc``
is missing or stale, as an installed gamao has them compiled), then once
under ``valgrind --tool=callgrind`` (about 50 times slower than without), with this checkout's interpreter and then with the
baseline's (``--baseline PATH``: a checkout of gamao from before a change,
with its own venv in ``PATH/.venv``), in the same run, on the same inputs;
it prints both counts and their ratio, and whether the two wrote the same
output files (a speed change must not change an output byte). Commands
(``--only`` picks some):

* ``validate``: ``gamao validate --quiet --jobs 1`` of the inputs;
* ``export``: ``gamao export --to csv --jobs 1`` of them (CSV: no pyarrow
  in the count, whose own code is not gamao's);
* ``html``: ``gamao convert --to html --out-dir`` of them;
* ``json``: ``gamao convert --to json --out-dir`` of them (both with
  ``--jobs 1`` where ``convert`` has it).

    python bench/instructions.py --baseline ../gamao-before \\
        [--inputs ../shared/corpus/bulk/Llabba] [--only validate html]

Without ``--baseline`` it counts this checkout alone. Skipped, with a
message, where Valgrind is not installed (Debian: ``apt-get install
valgrind``). It asserts nothing.
"""
from __future__ import annotations

import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "corpus" / "bulk" / "Llabba"

COMMANDS = {
    "validate": lambda src, out: ["validate", "--quiet", "--jobs", "1", src],
    "export": lambda src, out: ["export", src, "--to", "csv", "--jobs", "1", "-o", out],
    "html": lambda src, out: ["convert", src, "--to", "html", "--out-dir", out],
    "json": lambda src, out: ["convert", src, "--to", "json", "--out-dir", out],
}


def one_process(python: str, args: list[str], cwd: Path) -> list[str]:
    """``args`` of a ``convert`` with ``--jobs 1`` when that checkout's
    ``convert`` has ``--jobs`` (its workers would be counted too)."""
    if args[0] != "convert":
        return args
    shown = subprocess.run([python, "-m", "gamao_cli", "convert", "--help"], capture_output=True,
                           text=True, cwd=cwd).stdout
    return args + ["--jobs", "1"] if "--jobs" in shown else args

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def count(python: str, args: list[str], cwd: Path, out: Path) -> int:
    """The instructions ``python -m gamao_cli ARGS`` executes (its children
    too: callgrind follows them); ``out``: where it writes, emptied before
    the counted run."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # once without valgrind first: the modules are compiled (and their .pyc
    # written) there, so that the count is of gamao's work, not of compiling
    # what an installed gamao has compiled already
    subprocess.run([python, "-m", "gamao_cli", *args], capture_output=True, cwd=cwd, env=env)
    shutil.rmtree(out, ignore_errors=True)
    res = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                          "--callgrind-out-file=/dev/null", python, "-m", "gamao_cli", *args],
                         capture_output=True, text=True, cwd=cwd, env=env)
    found = [int(n) for n in _COLLECTED.findall(res.stderr)]
    if not found:
        sys.exit(f"callgrind counted nothing for {' '.join(args)} (exit {res.returncode}):\n"
                 f"{res.stderr[-2000:]}")
    return sum(found)


def same_files(a: Path, b: Path) -> bool:
    """Whether two output folders hold the same files, byte for byte."""
    if not a.exists() and not b.exists():
        return True
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return False
    _match, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    return not mismatch and not errors and all(
        same_files(a / d, b / d) for d in cmp.common_dirs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=Path, default=DEFAULT, help="a file or folder of records")
    ap.add_argument("--baseline", type=Path, help="a checkout of gamao with its venv in .venv")
    ap.add_argument("--only", nargs="+", choices=sorted(COMMANDS), default=list(COMMANDS))
    opts = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is not installed (Debian: apt-get install valgrind)")
        return
    if not opts.inputs.exists():
        print(f"skipped: no inputs at {opts.inputs}")
        return
    sides = [("this", Path(sys.executable), ROOT)]
    if opts.baseline is not None:
        base_python = opts.baseline / ".venv" / "bin" / "python"
        if not base_python.exists():
            sys.exit(f"no interpreter at {base_python}: make the baseline's venv first")
        sides.append(("baseline", base_python, opts.baseline.resolve()))
    src = str(opts.inputs.resolve())
    print(f"instructions (callgrind) of whole commands on {src}")
    for name in opts.only:
        counts = {}
        with tempfile.TemporaryDirectory() as tmp:
            outs = {}
            for side, python, cwd in sides:
                out = Path(tmp) / side
                args = one_process(str(python), COMMANDS[name](src, str(out)), cwd)
                counts[side] = count(str(python), args, cwd, out)
                outs[side] = out
            line = f"{name:9}: this {counts['this'] / 1e9:7.3f} G"
            if "baseline" in counts:
                same = same_files(outs["this"], outs["baseline"]) if name != "export" else None
                line += (f", baseline {counts['baseline'] / 1e9:7.3f} G, this/baseline "
                         f"{counts['this'] / counts['baseline']:.3f}")
                if same is not None:
                    line += ", the same outputs" if same else ", OUTPUTS DIFFER"
            print(line, flush=True)


if __name__ == "__main__":
    main()
