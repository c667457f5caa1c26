#!/usr/bin/env python3
"""Correctness guard for speed work: the diagnostics of every corpus file,
before and after a change, must be the same, code for code.

    python bench/same_diagnostics.py save  OUT.jsonl [--gamao CMD]
    python bench/same_diagnostics.py check BEFORE.jsonl [--gamao CMD]

``save`` runs ``gamao validate --format jsonl --jobs 1`` (by default this
checkout's, ``python -m gamao_cli``; ``--gamao`` names another, for instance
an untouched build's ``gamao`` script) on every file of ``../shared/corpus``
and ``../shared/corpus2`` (named one by one, so that a file with an ending
the folder scan skips is checked too; PROVENANCE.tsv and README.md left
out) and writes its diagnostics, one JSON object a line, sorted. ``check``
runs the same and compares with a saved file: every diagnostic (code,
severity, location, message, fields, legal plays) must be in both; it prints
the differences, the first twenty of each side, and exits 1 when there are
any. The exit code and closing line of the command are compared too.
"""
from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPORA = (SHARED / "corpus", SHARED / "corpus2")
SKIP = {"PROVENANCE.tsv", "README.md"}


def corpus_files() -> list[str]:
    files = []
    for folder in CORPORA:
        if not folder.is_dir():
            raise SystemExit(f"no corpus at {folder}")
        files += sorted(str(p) for p in folder.rglob("*") if p.is_file() and p.name not in SKIP)
    return files


def run(gamao: list[str]) -> list[str]:
    files = corpus_files()
    res = subprocess.run([*gamao, "validate", "--format", "jsonl", "--jobs", "1", "--no-color",
                          *files], capture_output=True, text=True, cwd=str(ROOT))
    if res.returncode not in (0, 1, 2):  # 2: some corpus files are unreadable
        raise SystemExit(f"gamao validate failed (exit {res.returncode}):\n{res.stderr[-2000:]}")
    lines = []
    for line in res.stdout.splitlines():
        if line.strip():
            lines.append(json.dumps(json.loads(line), sort_keys=True, ensure_ascii=False))
    lines.sort()
    lines.append(json.dumps({"exit": res.returncode, "files": len(files)}))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=["save", "check"])
    ap.add_argument("file", type=Path)
    ap.add_argument("--gamao", default=f"{shlex.quote(sys.executable)} -m gamao_cli",
                    help="the command that runs gamao (default: this checkout's)")
    args = ap.parse_args()
    got = run(shlex.split(args.gamao))
    if args.action == "save":
        args.file.write_text("\n".join(got) + "\n", encoding="utf-8")
        print(f"{len(got) - 1} diagnostics saved to {args.file}")
        return
    want = args.file.read_text(encoding="utf-8").splitlines()
    only_before = sorted(set(want) - set(got))
    only_after = sorted(set(got) - set(want))
    if len(want) != len(got) and not (only_before or only_after):
        only_before = ["(the same diagnostics, but a different number of repeats)"]
    if not (only_before or only_after):
        print(f"the same {len(got) - 1} diagnostics as {args.file}")
        return
    print(f"DIFFERENT: {len(only_before)} only before, {len(only_after)} only after")
    for label, lines in (("before", only_before), ("after", only_after)):
        for line in lines[:20]:
            print(f"  only {label}: {line[:400]}")
    sys.exit(1)


if __name__ == "__main__":
    main()
