"""The pre-commit hook takes the files a folder scan takes (issue 17, point 7).

The ``files:`` pattern of ``.pre-commit-hooks.yaml`` is made from the format
registry (:mod:`gamao_cli.cli.hook`); these tests hold the file to it, the
pattern to the folder scan of ``gamao validate``, and (slow) run the hook
for real with pre-commit in a throwaway git repository.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT, SELFPLAY
from gamao_cli.cli.files import iter_input_files
from gamao_cli.cli.hook import files_pattern, main, read_pattern, with_pattern

HOOKS = ROOT / ".pre-commit-hooks.yaml"

# names a repository of match records may hold: (path, taken by a scan)
NAMES = {
    "a.mat": True, "B.MAT": True, "c.Mat": True, "notes.txt": True, "LOG.TXT": True,
    "g.sgf": True, "G2.SGF": True, "deep/er/x.mat": True, "UP/Y.Txt": True,
    ".hidden.mat": False, "deep/.x.sgf": False, "m.mat.bak": False, "m.json": False,
    "README.md": False, "mat": False, "x.matt": False, "x_mat": False, "game.gam": False,
    ".mat": False, "dotted.dir/ok.sgf": True, "sub/.cache/in.mat": True,
}


def test_the_hook_file_holds_the_pattern_made_from_the_formats():
    text = HOOKS.read_text(encoding="utf-8")
    assert read_pattern(text) == files_pattern()
    try:
        import yaml  # pre-commit's own reader, where it is installed
    except ImportError:
        return
    [hook] = yaml.safe_load(text)
    assert hook["id"] == "gamao-validate" and hook["files"] == files_pattern()
    assert hook["entry"] == "gamao validate"


def test_the_pattern_covers_every_ending_a_folder_scan_takes():
    from gamao_cli import formats
    pattern = files_pattern()
    for ending in formats.file_endings():
        for name in ("x" + ending, "X" + ending.upper(), "d/x" + ending.title()):
            assert re.search(pattern, name), (pattern, name)


def test_the_hook_and_a_folder_scan_take_the_same_files(tmp_path):
    for name in NAMES:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x\n")
    scanned = {Path(p).relative_to(tmp_path).as_posix() for p in iter_input_files([str(tmp_path)])}
    hooked = {name for name in NAMES if re.search(files_pattern(), name)}
    assert scanned == hooked == {name for name, taken in NAMES.items() if taken}


def test_the_regenerating_command_rewrites_a_stale_pattern(tmp_path, capsys):
    stale = tmp_path / "hooks.yaml"
    stale.write_text(HOOKS.read_text(encoding="utf-8").replace(
        files_pattern().replace("'", "''"), r"\.(mat|sgf)$"), encoding="utf-8")
    assert read_pattern(stale.read_text()) == r"\.(mat|sgf)$"
    assert main(["--write", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == HOOKS.read_text(encoding="utf-8")
    assert files_pattern() in capsys.readouterr().out
    assert main([]) == 0 and capsys.readouterr().out.strip() == files_pattern()
    with pytest.raises(ValueError):
        with_pattern("- id: x\n")


def test_the_documented_command_prints_the_pattern():
    p = subprocess.run([sys.executable, "-m", "gamao_cli.cli.hook"], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 0 and p.stdout.strip() == files_pattern()


def _pre_commit() -> list[str] | None:
    exe = shutil.which("pre-commit") or str(Path(sys.executable).with_name("pre-commit"))
    return [exe] if os.path.exists(exe) else None


@pytest.mark.slow
def test_the_hook_in_a_throwaway_repository(tmp_path):
    """pre-commit try-repo on this checkout (its uncommitted changes too):
    pre-commit installs gamao from it into its own environment, as a user's
    repository would, and runs the hook on every file of a throwaway
    repository. The hook takes the same files as gamao validate on the
    folder, and says the same."""
    pre_commit = _pre_commit()
    if pre_commit is None:
        pytest.skip("pre-commit is not installed (pip install -e '.[slow]')")
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    repo = tmp_path / "records"
    repo.mkdir()
    shutil.copy(EXAMPLES / "illegal-play.mat", repo / "BAD.MAT")
    shutil.copy(EXAMPLES / "gnubg-selfplay-5pt.mat", repo / "good.txt")
    (repo / "sgf").mkdir()
    shutil.copy(SELFPLAY / "m0020.sgf", repo / "sgf" / "m0020.SGF")
    (repo / "README.md").write_text("not a match\n")
    (repo / ".notes.mat").write_text("not a match either, but a dot file\n")
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), GIT_AUTHOR_NAME="t",
               GIT_AUTHOR_EMAIL="t@example.invalid", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.invalid")
    git = ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]
    subprocess.run(git + ["init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run(git + ["add", "-A"], cwd=repo, check=True, env=env)
    subprocess.run(git + ["commit", "-q", "-m", "records"], cwd=repo, check=True, env=env)
    p = subprocess.run(pre_commit + ["try-repo", str(ROOT), "gamao-validate", "--all-files",
                                     "--verbose"], cwd=repo, env=env, capture_output=True,
                       text=True, timeout=900)
    out = p.stdout + p.stderr
    assert p.returncode == 1, out
    assert "BAD.MAT:9:38: GM202 error" in out and "exit code: 1" in out
    scan = subprocess.run([sys.executable, "-m", "gamao_cli", "validate", str(repo)],
                          capture_output=True, text=True)
    closing = scan.stdout.splitlines()[-1]
    assert closing == "3 files, 7 games: 2 errors, 0 warnings"  # not README.md, not .notes.mat
    assert closing in out.splitlines()
