"""The READMEs tell the truth: every ``$ `` command of their ``console``
blocks, run in a clean copy of the repository with the installed ``gamao``,
prints what the README shows.

A README is ``README.md`` and any ``README.*.md`` beside it (a translation,
``README.pt-BR.md``, is picked up as soon as it exists). In the output a
README shows, ``...`` stands for any text, over any number of lines (as
doctest's ELLIPSIS); every other line must be printed as shown (standard
output and standard error together, trailing spaces aside). The commands of
one block run one after the other in the same shell and folder, so
``echo $?`` sees the exit code of the command before it.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

READMES = sorted([ROOT / "README.md", *ROOT.glob("README.*.md")])
_FENCE = re.compile(r"^```(?P<lang>[\w-]*)\s*$")
_MARK = "@@gamao-readme-test-end-of-command@@"
# what a copy of a checkout without git (an unpacked sdist) leaves out
_NOT_TRACKED = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis"}


def code_blocks(text: str) -> list[tuple[str, int, list[str]]]:
    """Every fenced block of a Markdown text: (language, first line, lines)."""
    blocks: list[tuple[str, int, list[str]]] = []
    lang = None
    for number, line in enumerate(text.splitlines(), 1):
        m = _FENCE.match(line)
        if lang is None:
            if m:
                lang, start, body = m.group("lang"), number + 1, []
        elif line.strip() == "```":
            blocks.append((lang, start, body))
            lang = None
        else:
            body.append(line)
    return blocks


def console_commands(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The ``$ `` commands of a console block, each with the output shown."""
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def shown_matches(shown: list[str], printed: str) -> bool:
    """Whether ``printed`` is the output ``shown`` (``...``: any text)."""
    want = "\n".join(line.rstrip() for line in shown).rstrip("\n")
    got = "\n".join(line.rstrip() for line in printed.splitlines()).rstrip("\n")
    pattern = ".*?".join(re.escape(part) for part in want.split("..."))
    return re.fullmatch(pattern, got, re.S) is not None


def test_the_comparison_takes_ellipses_and_nothing_else():
    assert shown_matches(["a", " ...", "z"], "a\n b\n c\nz")
    assert shown_matches(['"totals": [...]'], '"totals": [\n  1,\n  2\n]')
    assert not shown_matches(["a", "b"], "a\nc")
    assert not shown_matches(["a"], "a\nb")        # nothing more than shown
    assert not shown_matches([], "something")      # a command shown silent prints nothing
    assert shown_matches(["x  "], "x")


def clean_copy(dest: Path) -> Path:
    """The files of the repository copied to ``dest``: git's tracked files
    and those it would track (not ignored), as they are in the work tree; in
    a checkout without git (an unpacked sdist), every file but build and
    cache folders."""
    try:
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], capture_output=True,
                                check=True).stdout.decode().split("\0")
        names = [n for n in listed if n and (ROOT / n).is_file()]
    except (OSError, subprocess.CalledProcessError):
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()
                 and not _NOT_TRACKED & set(p.relative_to(ROOT).parts)
                 and not any(part.endswith(".egg-info") for part in p.relative_to(ROOT).parts)]
    for name in names:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    return dest


def _installed_gamao() -> str | None:
    exe = shutil.which("gamao") or str(Path(sys.executable).with_name("gamao"))
    return exe if os.path.exists(exe) else None


def _blocks_of(readme: Path):
    blocks = [(start, console_commands(body))
              for lang, start, body in code_blocks(readme.read_text(encoding="utf-8"))
              if lang == "console"]
    return [pytest.param(readme, start, commands, id=f"{readme.name}:{start}")
            for start, commands in blocks]


CASES = [case for readme in READMES for case in _blocks_of(readme)]


def test_every_readme_has_console_blocks_to_check():
    assert READMES[0].name == "README.md"
    for readme in READMES:
        assert any(case.values[0] == readme for case in CASES), f"{readme.name} has no console block"


@pytest.mark.parametrize("readme, start, commands", CASES)
def test_readme_console_block_prints_what_it_shows(readme, start, commands, tmp_path):
    exe = _installed_gamao()
    if exe is None:
        pytest.skip("the gamao console script is not installed (pip install -e .)")
    repo = clean_copy(tmp_path / "repo")
    # the shared records beside the copy, where they are beside the repository
    # (the tour reads eXtreme Gammon samples from ../shared)
    shared = ROOT.parent / "shared"
    uses_shared = any("../shared/" in command for command, _shown in commands)
    if uses_shared:
        if not shared.is_dir():
            pytest.skip(f"this block reads ../shared, which is not at {shared}")
        (tmp_path / "shared").symlink_to(shared, target_is_directory=True)
    script = ["exec 2>&1"]
    for command, _shown in commands:
        # each command, then a mark; (exit $rc) gives the next command its $?
        script += [command, f"__rc=$?; printf '\\n{_MARK}\\n'; (exit $__rc)"]
    env = dict(os.environ, PATH=os.path.dirname(exe) + os.pathsep + os.environ.get("PATH", ""),
               PYTHONUNBUFFERED="1")
    env.pop("NO_COLOR", None)
    for name in ("GAMAO_DEBUG", "COLUMNS"):
        env.pop(name, None)
    before = {p for p in repo.rglob("*") if p.is_file()}
    p = subprocess.run(["bash", "-c", "\n".join(script)], cwd=repo, env=env, capture_output=True,
                       text=True, timeout=300)
    printed = p.stdout.split(f"\n{_MARK}\n")
    assert len(printed) == len(commands) + 1, p.stdout
    for (command, shown), out in zip(commands, printed):
        assert shown_matches(shown, out), (
            f"{readme.name} (block at line {start}): $ {command}\n--- shown:\n"
            + "\n".join(shown) + "\n--- printed:\n" + out)
    left = _not_ignored(repo, {p for p in repo.rglob("*") if p.is_file()} - before)
    assert not left, (f"{readme.name} (block at line {start}) leaves files in the checkout "
                      f"that .gitignore does not hold: {left}")


def _not_ignored(repo: Path, new: set[Path]) -> list[str]:
    """The files of ``new`` (under ``repo``) that the repository's .gitignore
    does not ignore (what a user running a README's examples in a checkout
    would see in ``git status``)."""
    names = sorted(str(p.relative_to(repo)) for p in new
                   if "__pycache__" not in p.relative_to(repo).parts)
    if not names or shutil.which("git") is None:
        return names if shutil.which("git") else []
    if not (repo / ".git").exists():
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
    p = subprocess.run(["git", "-C", str(repo), "check-ignore", "--no-index", "--stdin"],
                       input="\n".join(names) + "\n", capture_output=True, text=True)
    ignored = set(p.stdout.split("\n"))
    return [n for n in names if n not in ignored]


def test_readme_starts_with_its_two_set_up_commands():
    """The first two blocks of README.md set up a fresh machine: install and
    check the examples; install the tests and run them (CI runs the same,
    .ci/run; tests/test_packaging.py runs the first in a fresh venv)."""
    blocks = code_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    first, second = blocks[0], blocks[1]
    assert first[0] == second[0] == "sh"
    assert first[2] == ["python3 -m venv .venv && . .venv/bin/activate && pip install . "
                        "&& gamao validate examples/"]
    assert second[2] == ["python3 -m venv .venv && . .venv/bin/activate && pip install -e "
                         "'.[test]' && python -m pytest -q"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8") if (ROOT / ".ci" / "run").exists() else ""
    if ci:
        assert "pip install -q -e '.[test]'" in ci and "python -m pytest -q" in ci


_PATH_IN_TICKS = re.compile(r"`((?:gamao_cli|grammar|tests|docs|examples|bench|fuzz)/[\w./-]+)`")


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.name)
def test_the_files_a_readme_names_exist(readme):
    text = readme.read_text(encoding="utf-8")
    named = set(_PATH_IN_TICKS.findall(text)) | set(re.findall(r"\]\(((?!https?:)[^)#]+)\)", text))
    assert named
    missing = sorted(n for n in named if not (ROOT / n.rstrip("/")).exists())
    assert not missing, f"{readme.name} names files that are not there: {missing}"


# -- what the docs say of the commands and formats (issue 22) ----------------

def _commands_table(readme: Path) -> dict[str, str]:
    """The rows of a README's table of commands: command name -> the row."""
    rows: dict[str, str] = {}
    for line in readme.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `gamao (\w+)", line)
        if m:
            rows.setdefault(m.group(1), "")
            rows[m.group(1)] += line
    return rows


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.name)
def test_the_commands_table_has_every_command_and_choice(readme):
    import click
    from gamao_cli import formats
    from gamao_cli.cli import main
    rows = _commands_table(readme)
    assert set(main.commands) <= set(rows), sorted(set(main.commands) - set(rows))
    for name in ("validate", "convert", "summary", "export", "codes"):
        for p in main.commands[name].params:
            if p.name in ("fmt", "target", "to") and isinstance(p.type, click.Choice):
                for choice in p.type.choices:
                    assert re.search(rf"[ \\|]{choice}\b", rows[name]), (name, choice)
    for ending in formats.file_endings():   # what a folder scan takes
        assert f"`*{ending}`" in rows["validate"], ending


def test_every_place_that_lists_the_folder_scans_endings_lists_them_all():
    from gamao_cli import formats
    from gamao_cli.cli import main
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    hook = text[text.index("The hook takes the files"):text.index("## Commands")]
    assert all(f"`*{e}`" in hook for e in formats.file_endings()), hook[:200]
    validate_help = main.commands["validate"].help
    assert all(f"*{e}" in validate_help for e in formats.file_endings())


def test_gamao_is_named_with_every_format_it_reads():
    """The package description and the top-level help name each format a
    record is read in (.xg was missing); docs/tables.md's format column
    lists every reader."""
    import tomllib
    from gamao_cli import formats
    from gamao_cli.cli import main
    description = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    for text in (description, main.help):
        assert ".mat" in text and "SGF" in text and "JSON" in text and ".xg" in text, text
    tables = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")
    [row] = [line for line in tables.splitlines() if line.startswith("| `format` |")]
    assert all(f"`{f.name}`" in row for f in formats.readable()), row
    assert "being added" not in tables and "once read" not in tables


def test_no_install_line_asks_a_package_index_for_gamao():
    """gamao is not on a package index: an extra is installed from a
    checkout (pip install '.[parquet]'), never as gamao[parquet]."""
    texts = [p for p in [*READMES, *(ROOT / "docs").glob("*.md")]]
    texts += list((ROOT / "gamao_cli").rglob("*.py"))
    texts.append(ROOT / "gamao_cli" / "i18n" / "locale" / "pt_BR" / "LC_MESSAGES" / "gamao.po")
    found = [f"{p.relative_to(ROOT)}:{n}" for p in texts
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"pip install ['\"]?gamao\[", line)]
    assert not found, found
