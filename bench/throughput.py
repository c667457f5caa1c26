#!/usr/bin/env python3
"""Benchmark: gamao's throughput next to GNU Backgammon's importer and the floor.

One run times, on the bulk corpus and on a GNU Backgammon self-play corpus:

* the floor: Python reading every file and splitting it into tokens with
  one regular expression;
* ``gamao validate`` in this process: parse only (read, decode and parse each
  file, as ``gamao validate`` does) and full validation (``check_file`` on
  each file: parse, replay every game under the rules, scores);
* ``gamao validate --quiet`` as the command, in a subprocess, with
  ``--jobs 1`` and ``--jobs 2``;
* GNU Backgammon's C importer (the ``gnubg`` wheel: ``import mat "PATH"``
  then ``gnubg.match()`` for each file), in a subprocess so that a crash of
  gnubg cannot end the benchmark (skipped with a message when the wheel is
  missing);
* Debian's GNU Backgammon program (``/usr/games/gnubg -t -q -r``, its
  display off, one ``import mat "PATH"`` a file, every file in one process)
  against the command ``gamao validate --quiet --jobs 1`` of the same files,
  both in CPU seconds of the whole process (start-up included), in the same
  rounds (which goes first alternates), with their ratio: the figure of the
  target "validate --jobs 1 at most 5x gnubg's importer". The three bulk
  files gnubg 1.07 crashes on (:data:`GNUBG_CRASHES`) are left out of both
  (skipped with a message when the program is missing);
* with ``--baseline PATH`` (a checkout of gamao from before a change, with
  its own venv in ``PATH/.venv``): full validation (``check_file`` on each
  file, in-process) by that checkout and by this one, each in a child
  process started with its checkout's interpreter and timed inside it (wall
  and CPU time), in the same rounds as the other figures (which of the two
  goes first alternates from round to round); printed with their ratio, the
  figure that says whether a change made validation slower.

The run is ``--repeat`` rounds, each timing every figure once, one after the
other (wall time, ``time.perf_counter``; gamao's caches emptied first, as in
a fresh process): each figure is the median over the rounds, each ratio the
median of the rounds' ratios, so that figures compared were measured moments
apart (on a shared machine the speed of the same work drifts over minutes).
Printed besides: the ratios gamao/gnubg and gamao/floor, checker plays
replayed per second, and peak memory (``ru_maxrss`` of this process for the
in-process runs, of the child for each subprocess: the children are started
by a small launcher process, so that they do not count this process's
memory). It asserts nothing.

    python bench/throughput.py [--corpus ../shared/corpus/bulk] [--selfplay DIR]
                               [--repeat 3] [--no-cli] [--no-gnubg] [--no-gnubg-program]
                               [--baseline ../baseline [--baseline-python PY]]

The self-play corpus is ``tests/data/selfplay/*.mat`` when present, else one
generated with ``python3 ../shared/tools/selfplay.py -n 24 --out /tmp/sp
--jobs 4`` (needs Debian's gnubg program).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Subprocesses are started by a small launcher process of their own, started
# before this one grows: a child's ru_maxrss counts the memory of the process
# it was forked from, so children of this process would all show this
# process's size. The launcher reads one JSON job a line and answers with the
# child's wall time, ru_maxrss (from wait4), exit code and output.
LAUNCHER = r"""
import json, os, subprocess, sys, tempfile, time
for line in sys.stdin:
    job = json.loads(line)
    with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as fout, \
            tempfile.TemporaryFile() as ferr:
        fin.write(job.get("input", "").encode())
        fin.seek(0)
        t = time.perf_counter()
        proc = subprocess.Popen(job["cmd"], cwd=job.get("cwd"), stdin=fin, stdout=fout,
                                stderr=ferr)
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        fout.seek(0)
        ferr.seek(0)
        print(json.dumps({"seconds": seconds, "maxrss_kb": usage.ru_maxrss,
                          "cpu": usage.ru_utime + usage.ru_stime,
                          "code": proc.returncode,
                          "stdout": fout.read().decode(errors="replace")[-4000:],
                          "stderr": ferr.read().decode(errors="replace")[-4000:]}), flush=True)
"""
_launcher = subprocess.Popen([sys.executable, "-c", LAUNCHER], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)


def launch(cmd: list[str], input: str = "", cwd: str | None = None) -> dict:
    """Run ``cmd`` from the launcher; its wall time, ru_maxrss, exit code, output."""
    _launcher.stdin.write(json.dumps({"cmd": cmd, "input": input, "cwd": cwd}) + "\n")
    _launcher.stdin.flush()
    return json.loads(_launcher.stdout.readline())


from gamao_cli.formats.mat import reader as matfile_reader  # noqa: E402
from gamao_cli.model import notation  # noqa: E402
from gamao_cli.replay import replay  # noqa: E402
from gamao_cli.replay.check import check_file  # noqa: E402
from gamao_cli.errors import InputError  # noqa: E402
from gamao_cli.formats import read_path  # noqa: E402
from gamao_cli.formats.mat.reader import _parser  # noqa: E402

SHARED = ROOT.parent / "shared"
DEFAULT_BULK = SHARED / "corpus" / "bulk"
SELFPLAY_TOOL = SHARED / "tools" / "selfplay.py"
FLOOR_TOKEN = re.compile(r"\S+")

# Run in a child process: import every file with GNU Backgammon's C importer
# and fetch the match; gnubg prints to the C-level standard output, which is
# sent to /dev/null around the loop.
GNUBG_CHILD = r"""
import json, os, sys, time
paths = json.loads(sys.stdin.read())
repeat = int(sys.argv[1])
import gnubg
keep = os.dup(1)
null = os.open(os.devnull, os.O_WRONLY)
times, games = [], 0
try:
    os.dup2(null, 1)
    for _ in range(repeat):
        games = 0
        t = time.perf_counter()
        for p in paths:
            gnubg.command('import mat "%s"' % p)
            games += len(gnubg.match().get("games", []))
        times.append(time.perf_counter() - t)
finally:
    sys.stdout.flush()
    os.dup2(keep, 1)
print(json.dumps({"times": times, "games": games}))
"""

# Run in a child process with a checkout's own interpreter: full validation
# of every file (check_file, what ``gamao validate`` runs for each file) by
# the checkout in argv[1], timed inside the child (the parser is built
# first, untimed, as in this process). Both layouts of gamao are known: the
# packages of today and the flat modules from before the restructuring.
VALIDATE_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
paths = json.loads(sys.stdin.read())
try:
    from gamao_cli.replay.check import check_file
    from gamao_cli.formats.mat.reader import _parser
except ImportError:
    from gamao_cli.checking import check_file
    from gamao_cli.matfile_reader import _parser
import gamao_cli
_parser()
t, c = time.perf_counter(), time.process_time()
plays = errors = 0
for p in paths:
    r = check_file(p)
    plays += r.plays
    errors += r.errors
print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - c,
                  "plays": plays, "errors": errors, "module": gamao_cli.__file__}))
"""


# Debian's GNU Backgammon (1.07), driven by commands on standard input.
GNUBG_PROGRAM = "/usr/games/gnubg"
# The bulk files gnubg 1.07's importer crashes on (left out of its comparison).
GNUBG_CRASHES = ("lasse/match8320876.txt", "lasse/match8562506.txt", "lasse/match8600489.txt")


def run_gnubg_program(paths: list[str]) -> dict | str:
    """Debian's gnubg importing every file of ``paths`` in one process: its
    CPU seconds (user + system, start-up included), wall seconds, peak
    memory."""
    if not os.access(GNUBG_PROGRAM, os.X_OK):
        return f"skipped: {GNUBG_PROGRAM} is not installed (apt-get install gnubg)"
    commands = "set display off\n" + "".join(f'import mat "{p}"\n' for p in paths)
    got = launch([GNUBG_PROGRAM, "-t", "-q", "-r"], input=commands)
    if got["code"] != 0:
        return f"gnubg failed (exit code {got['code']}): {got['stderr'].strip()[-300:]}"
    return got


def run_gamao_command(paths: list[str]) -> dict | str:
    """``gamao validate --quiet --jobs 1`` of ``paths``: CPU seconds of the
    whole process (start-up included), wall seconds, peak memory."""
    got = launch([sys.executable, "-m", "gamao_cli", "validate", "--quiet", "--no-color",
                  "--jobs", "1", *paths], cwd=str(ROOT))
    if got["code"] not in (0, 1):
        return f"exit code {got['code']}: {got['stderr'].strip()[-300:]}"
    return got


def corpus_files(folder: Path, pattern: str = "*") -> list[str]:
    return sorted(str(p) for p in folder.rglob(pattern)
                  if p.is_file() and p.name not in ("PROVENANCE.tsv", "README.md"))


def selfplay_files(option: str | None) -> tuple[list[str], str]:
    if option:
        return corpus_files(Path(option), "*.mat"), option
    data = ROOT / "tests" / "data" / "selfplay"
    files = corpus_files(data, "*.mat") if data.is_dir() else []
    if files:
        return files, str(data)
    out = Path(tempfile.gettempdir()) / "sp"
    files = corpus_files(out, "*.mat") if out.is_dir() else []
    if not files and SELFPLAY_TOOL.exists():
        print(f"generating a self-play corpus in {out} (GNU Backgammon plays itself)...",
              flush=True)
        subprocess.run([sys.executable, str(SELFPLAY_TOOL), "-n", "24", "--out", str(out),
                        "--jobs", "4"], check=False)
        files = corpus_files(out, "*.mat") if out.is_dir() else []
    return files, str(out)


def cold_caches() -> None:
    """Empty what gamao keeps between files (the reader's cells, the shapes
    of plays, the replay's plans of plays and legal plays), so that every
    run is timed as a fresh process (the command) would run."""
    matfile_reader._ROLL_PLAYS.clear()
    notation._STEP_SHAPES.clear()
    notation._SHAPES.clear()
    notation._STEP_MOVES.clear()
    replay.RESOLVER.clear()


def run_floor(paths: list[str]) -> int:
    n = 0
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as f:
            n += len(FLOOR_TOKEN.findall(f.read()))
    return n


def run_parse(paths: list[str]) -> int:
    games = 0
    for p in paths:
        try:
            matches = read_path(p)
        except InputError:
            continue
        games += sum(len(mt.games) for mt in matches)
    return games


def run_validate(paths: list[str]) -> tuple[int, int, int]:
    plays = games = errors = 0
    for p in paths:
        r = check_file(p)
        plays += r.plays
        games += r.games
        errors += r.errors
    return plays, games, errors


def run_cli(folder_or_files: list[str], jobs: int, repeat: int) -> tuple[float, int, int, float] | str:
    """Median wall time, the peak ru_maxrss (kB) of the command's processes
    (the largest of the main process and its workers), exit code, median
    CPU time (user + system, workers included)."""
    cmd = [sys.executable, "-m", "gamao_cli", "validate", "--quiet", "--no-color",
           "--jobs", str(jobs), *folder_or_files]
    times, cpu, rss, code = [], [], 0, 0
    for _ in range(repeat):
        got = launch(cmd, cwd=str(ROOT))
        code = got["code"]
        if code not in (0, 1):  # 1: the corpus holds errors
            return f"exit code {code}: {got['stderr'].strip()[-300:]}"
        times.append(got["seconds"])
        cpu.append(got["cpu"])
        rss = max(rss, got["maxrss_kb"])
    return statistics.median(times), rss, code, statistics.median(cpu)


def run_validate_child(root: Path, python: str, paths: list[str]) -> dict | str:
    """Full validation of ``paths`` by the checkout ``root`` in a child
    process run by ``python``: its wall and CPU seconds, plays, errors."""
    got = launch([python, "-c", VALIDATE_CHILD, str(root)], input=json.dumps(paths),
                 cwd=str(root))
    if got["code"] != 0:
        return f"exit code {got['code']}: {got['stderr'].strip()[-300:]}"
    try:
        out = json.loads(got["stdout"].strip().splitlines()[-1])
    except (ValueError, IndexError):
        return f"the child said nothing readable: {got['stdout'][-300:]!r}"
    out["maxrss_kb"] = got["maxrss_kb"]
    return out


def run_gnubg(paths: list[str], repeat: int) -> dict | str:
    try:
        import importlib.util
        if importlib.util.find_spec("gnubg") is None:
            return "skipped: the gnubg wheel is not installed (pip install gnubg)"
    except ImportError:
        return "skipped: the gnubg wheel is not installed (pip install gnubg)"
    usable = [p for p in paths if '"' not in p]  # gnubg's command syntax
    got = launch([sys.executable, "-c", GNUBG_CHILD, str(repeat)], input=json.dumps(usable))
    if got["code"] != 0:
        return f"gnubg's importer failed (exit code {got['code']}): {got['stderr'].strip()[-300:]}"
    try:
        out = json.loads(got["stdout"].strip().splitlines()[-1])
    except (ValueError, IndexError):
        return f"gnubg's importer said nothing readable: {got['stdout'][-300:]!r}"
    out["median"] = statistics.median(out["times"])
    out["files"] = len(usable)
    out["maxrss_kb"] = got["maxrss_kb"]
    return out


def mb(kb: int) -> str:
    return f"{kb / 1024:.0f} MB"


def timed(func) -> tuple[float, object]:
    cold_caches()
    t = time.perf_counter()
    result = func()
    return time.perf_counter() - t, result


def bench_corpus(name: str, where: str, paths: list[str], args) -> None:
    """Each round times every figure once, one after the other, so that the
    ratios are taken between figures measured moments apart (on a shared
    machine the speed of the same work drifts by tens of percent over
    minutes); each figure printed is the median over the rounds, each ratio
    the median of the rounds' ratios."""
    size = sum(os.path.getsize(p) for p in paths)
    print(f"\n== {name}: {where} ({len(paths)} files, {size / 1e6:.1f} MB), "
          f"{args.repeat} rounds", flush=True)
    rounds: list[dict] = []
    gnubg_note = "skipped (--no-gnubg)"
    program_note = "skipped (--no-gnubg-program)"
    cli_note: dict[int, str] = {}
    baseline_note: dict[str, str] = {}
    info: dict = {}
    for _ in range(args.repeat):
        got: dict = {}
        got["floor"], info["tokens"] = timed(lambda: run_floor(paths))
        got["parse"], info["games"] = timed(lambda: run_parse(paths))
        got["full"], (info["plays"], _g, info["errors"]) = timed(lambda: run_validate(paths))
        info["self_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if args.cli:
            for jobs in (1, 2):
                c = run_cli(paths if len(paths) < 200 else [where], jobs, 1)
                if isinstance(c, str):
                    cli_note[jobs] = c
                else:
                    got[f"jobs{jobs}"], rss, info["code"], got[f"cpu{jobs}"] = c
                    info[f"rss{jobs}"] = max(info.get(f"rss{jobs}", 0), rss)
        if args.baseline:
            pair = [("ours", ROOT, sys.executable), ("base", args.baseline, args.baseline_python)]
            if len(rounds) % 2:   # every other round the baseline goes first
                pair.reverse()
            for who, root, python in pair:
                c = run_validate_child(root, python, paths)
                if isinstance(c, str):
                    baseline_note[who] = c
                else:
                    got[f"{who}_wall"], got[f"{who}_cpu"] = c["seconds"], c["cpu"]
                    info[f"{who}_plays"], info[f"{who}_errors"] = c["plays"], c["errors"]
                    info[f"{who}_kb"] = max(info.get(f"{who}_kb", 0), c["maxrss_kb"])
        if args.gnubg_program:
            crashes = {str(Path(where) / c) for c in GNUBG_CRASHES}
            both = [p for p in paths if p not in crashes and '"' not in p]
            pair = [("deb_gnubg", run_gnubg_program), ("deb_gamao", run_gamao_command)]
            if len(rounds) % 2:   # every other round gamao goes first
                pair.reverse()
            for who, run in pair:
                c = run(both)
                if isinstance(c, str):
                    program_note = c
                else:
                    got[f"{who}_cpu"], got[f"{who}_wall"] = c["cpu"], c["seconds"]
                    info[f"{who}_kb"] = max(info.get(f"{who}_kb", 0), c["maxrss_kb"])
            info["deb_files"] = len(both)
        if args.gnubg:
            g = run_gnubg(paths, 1)
            if isinstance(g, str):
                gnubg_note = g
            else:
                got["gnubg"] = g["median"]
                info["gnubg_games"], info["gnubg_files"] = g["games"], g["files"]
                info["gnubg_kb"] = max(info.get("gnubg_kb", 0), g["maxrss_kb"])
        rounds.append(got)

    def med(key: str) -> float:
        return statistics.median(r[key] for r in rounds)

    def ratio(top: str, bottom: str) -> float:
        return statistics.median(r[top] / r[bottom] for r in rounds)

    have = set.intersection(*(set(r) for r in rounds))
    plays = info["plays"]
    print(f"floor (read + one-regex tokenise) : {med('floor'):7.3f} s  ({info['tokens']} tokens)")
    print(f"gamao parse only, in-process      : {med('parse'):7.3f} s  ({info['games']} games)"
          f"  = {ratio('parse', 'floor'):5.1f} x floor")
    print(f"gamao validate, in-process        : {med('full'):7.3f} s  ({plays} plays, "
          f"{info['errors']} errors found)  = {ratio('full', 'floor'):5.1f} x floor, "
          f"{plays / med('full'):,.0f} plays/s")
    print(f"  peak memory of this process (ru_maxrss): {mb(info['self_kb'])}")
    cli = {}
    for jobs in (1, 2):
        if f"jobs{jobs}" in have:
            t = med(f"jobs{jobs}")
            cli[jobs] = (t, info[f"rss{jobs}"])
            print(f"gamao validate --jobs {jobs} (command)  : {t:7.3f} s  {plays / t:,.0f} plays/s, "
                  f"CPU {med(f'cpu{jobs}'):.2f} s, peak memory of the largest process "
                  f"{mb(info[f'rss{jobs}'])} (exit code {info['code']})")
        elif args.cli:
            print(f"gamao validate --jobs {jobs} (command)  : failed, {cli_note.get(jobs)}")
    scaling = None
    if {"jobs1", "jobs2"} <= have:
        scaling = ratio("jobs1", "jobs2")
        print(f"  --jobs 2 is {scaling:.2f}x as fast as --jobs 1 (CPU time "
              f"{ratio('cpu2', 'cpu1'):.2f}x; load average {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} cores)")
    full_gnubg = None
    if "gnubg" in have:
        print(f"GNU Backgammon import mat + match(): {med('gnubg'):7.3f} s  "
              f"({info['gnubg_files']} files, {info['gnubg_games']} games; peak memory of the "
              f"child {mb(info['gnubg_kb'])})")
        full_gnubg = ratio("full", "gnubg")
        print(f"  ratio gamao/gnubg: parse only {ratio('parse', 'gnubg'):.1f}x, full validation "
              f"{full_gnubg:.1f}x"
              + "".join(f", --jobs {j} {ratio(f'jobs{j}', 'gnubg'):.1f}x" for j in cli))
    else:
        print(f"GNU Backgammon import mat + match(): {gnubg_note}")
    program_ratio = None
    if {"deb_gnubg_cpu", "deb_gamao_cpu"} <= have:
        program_ratio = ratio("deb_gamao_cpu", "deb_gnubg_cpu")
        print(f"Debian's gnubg -t (import mat, {info['deb_files']} files, gnubg's three crashes "
              f"left out): CPU {med('deb_gnubg_cpu'):.2f} s (wall {med('deb_gnubg_wall'):.2f} s, "
              f"peak {mb(info['deb_gnubg_kb'])})")
        print(f"  gamao validate --jobs 1, the same files: CPU {med('deb_gamao_cpu'):.2f} s "
              f"(wall {med('deb_gamao_wall'):.2f} s, peak {mb(info['deb_gamao_kb'])}); "
              f"ratio gamao/gnubg {program_ratio:.1f}x CPU (both start-up included; per round: "
              + ", ".join(f"{r['deb_gamao_cpu'] / r['deb_gnubg_cpu']:.1f}" for r in rounds) + ")")
    else:
        print(f"Debian's gnubg -t importer: {program_note}")
    print(f"  ratio gamao/floor: parse only {ratio('parse', 'floor'):.1f}x, "
          f"full validation {ratio('full', 'floor'):.1f}x")
    if args.baseline:
        if {"ours_wall", "base_wall"} <= have:
            for who, label in (("ours", f"this checkout ({ROOT})"),
                               ("base", f"baseline ({args.baseline})")):
                w = med(f"{who}_wall")
                print(f"full validation, {label}: {w:7.3f} s wall, {med(f'{who}_cpu'):7.3f} s "
                      f"CPU  ({info[f'{who}_plays']} plays, {info[f'{who}_errors']} errors, "
                      f"{info[f'{who}_plays'] / w:,.0f} plays/s; child peak memory "
                      f"{mb(info[f'{who}_kb'])})")
            print(f"  ratio this/baseline: {ratio('ours_wall', 'base_wall'):.3f}x wall, "
                  f"{ratio('ours_cpu', 'base_cpu'):.3f}x CPU (median of the rounds' ratios; "
                  "below 1: this checkout is faster); per round: "
                  + ", ".join(f"{r['ours_wall'] / r['base_wall']:.3f}" for r in rounds))
            if (info["ours_plays"], info["ours_errors"]) != (info["base_plays"], info["base_errors"]):
                print("  NOTE: the two checkouts count different plays or errors")
        else:
            print(f"full validation against the baseline: failed, {baseline_note}")
    print_targets(ratio("parse", "floor"), full_gnubg, scaling,
                  max([info["self_kb"]] + [rss for _t, rss in cli.values()]), program_ratio)


def print_targets(parse_floor: float, full_gnubg: float | None, scaling: float | None,
                  peak_kb: int, program_ratio: float | None = None) -> None:
    """The targets of the throughput issue, each with what this run measured."""
    def verdict(ok: bool) -> str:
        return "holds" if ok else "MISSED"

    print("  targets:")
    print(f"    parse only <= 10x the floor          : {parse_floor:5.1f}x  "
          f"{verdict(parse_floor <= 10)}")
    print("    full validation <= 9x gnubg's import : "
          + (f"{full_gnubg:5.1f}x  {verdict(full_gnubg <= 9)}" if full_gnubg is not None
             else "  -    not measured"))
    print("    --jobs 2 >= 1.8x as fast as --jobs 1 : "
          + (f"{scaling:5.2f}x {verdict(scaling >= 1.8)}" if scaling is not None
             else "  -    not measured"))
    print(f"    peak memory < 100 MB                 : {mb(peak_kb):>6} "
          f"{verdict(peak_kb < 100 * 1024)}")
    print("    validate --jobs 1 <= 5x Debian gnubg's importer (CPU): "
          + (f"{program_ratio:5.1f}x  {verdict(program_ratio <= 5)}" if program_ratio is not None
             else "  -    not measured"), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_BULK, help="the bulk corpus")
    ap.add_argument("--selfplay", help="a folder of GNU Backgammon self-play .mat files")
    ap.add_argument("--repeat", type=int, default=5, help="rounds (medians over them)")
    ap.add_argument("--no-cli", dest="cli", action="store_false", help="skip the command runs")
    ap.add_argument("--no-gnubg", dest="gnubg", action="store_false",
                    help="skip GNU Backgammon's importer (the gnubg wheel)")
    ap.add_argument("--no-gnubg-program", dest="gnubg_program", action="store_false",
                    help="skip Debian's gnubg program against gamao validate --jobs 1")
    ap.add_argument("--baseline", type=Path,
                    help="a checkout of gamao to compare full validation with (e.g. ../baseline)")
    ap.add_argument("--baseline-python",
                    help="the baseline's interpreter (default: BASELINE/.venv/bin/python)")
    args = ap.parse_args()
    if args.baseline:
        args.baseline = args.baseline.resolve()
        if not args.baseline_python:
            venv = args.baseline / ".venv" / "bin" / "python"
            args.baseline_python = str(venv) if venv.exists() else sys.executable
    t = time.perf_counter()
    _parser()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; "
          f"building the parser took {time.perf_counter() - t:.2f} s (not timed below)")
    from gamao_cli import kernels
    in_use = [name.rsplit(".", 1)[1] for name, ok in kernels.available().items() if ok]
    print("compiled kernels in use: " + (", ".join(in_use) if in_use else
                                         "none (the Python code alone)"))
    bulk = corpus_files(args.corpus) if args.corpus.is_dir() else []
    if bulk:
        bench_corpus("bulk corpus", str(args.corpus), bulk, args)
    else:
        print(f"no bulk corpus at {args.corpus}")
    sp, where = selfplay_files(args.selfplay)
    if sp:
        bench_corpus("GNU Backgammon self-play corpus", where, sp, args)
    else:
        print("no self-play corpus (tests/data/selfplay is missing and none could be generated)")


if __name__ == "__main__":
    main()
