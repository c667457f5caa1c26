"""Packaging (issue 17, point 3): what pyproject.toml says, and (slow) the
sdist and the wheel as a user gets them.

The slow tests build the sdist and the wheel with ``python -m build`` (the
wheel from the sdist, so the sdist must be complete), install the wheel into
a fresh virtual environment and run ``gamao validate examples/``, run a quick
part of the sdist's own test suite from the unpacked sdist, build with the
lowest and the highest setuptools pyproject.toml allows, and run the
README's first command in a clean copy. They need the network (PyPI) and
``pip install -e '.[test,slow]'``; run them with ``python -m pytest -m slow``.
"""
from __future__ import annotations

import email
import os
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from test_readme import clean_copy

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# tracked files an sdist need not hold: git's own, and CI's script
NOT_IN_SDIST = {".gitignore", ".ci/run"}
# what the quick part of the sdist's test suite runs
SDIST_TESTS = ["tests/test_cli.py", "tests/test_readme.py", "tests/test_run_files.py",
               "tests/test_precommit_hook.py", "tests/test_packaging.py",
               "tests/test_position_ids.py", "gamao_cli/cli"]


def test_every_package_folder_is_listed():
    """A new folder of gamao_cli (a format, say) cannot be left out of the
    wheel: every folder with an __init__.py is in [tool.setuptools] packages,
    and every package listed is a folder (or a package-dir of its own)."""
    tool = PYPROJECT["tool"]["setuptools"]
    listed = set(tool["packages"])
    mapped = tool.get("package-dir", {})
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "gamao_cli").rglob("__init__.py")
             if "__pycache__" not in p.parts}
    assert "gamao_cli.schemas" in found and "gamao_cli.formats.mat" in found
    assert listed - set(mapped) == found
    for name, folder in mapped.items():
        assert name in listed and (ROOT / folder).is_dir()


def test_the_license_is_an_spdx_string_with_its_file():
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Permission is hereby granted" in text
    assert "classifiers" not in project or not any(
        c.startswith("License ::") for c in project["classifiers"])


def test_setuptools_is_bounded_on_both_sides():
    [req] = [r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    lowest, highest = _bounds(req)
    assert lowest >= (77, 0, 3)      # the first to take license = "MIT" and license-files
    assert highest is not None


def _bounds(req: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    low = high = None
    for part in req.removeprefix("setuptools").split(","):
        part = part.strip()
        if part.startswith(">="):
            low = tuple(int(x) for x in part[2:].split("."))
        elif part.startswith("<"):
            high = tuple(int(x) for x in part[1:].split("."))
    assert low is not None, req
    return low, high


# -- slow: the sdist and the wheel ---------------------------------------------

def _run(args: list[str], **kw) -> subprocess.CompletedProcess:
    p = subprocess.run(args, capture_output=True, text=True, timeout=900, **kw)
    assert p.returncode == 0, f"{args}\n{p.stdout}\n{p.stderr}"
    return p


def _venv(path: Path) -> Path:
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / "bin" / "python"


def _tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no list of tracked files to hold the sdist to")
    return [n for n in out.splitlines() if n and (ROOT / n).is_file()]


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> tuple[Path, Path]:
    try:
        import build  # noqa: F401
    except ImportError:
        pytest.skip("build is not installed (pip install -e '.[slow]')")
    tmp = tmp_path_factory.mktemp("dists")
    src = clean_copy(tmp / "src")
    _run([sys.executable, "-m", "build", "--outdir", str(tmp / "out"), str(src)])
    [sdist] = (tmp / "out").glob("*.tar.gz")
    [wheel] = (tmp / "out").glob("*.whl")
    return sdist, wheel


@pytest.mark.slow
def test_the_sdist_holds_every_file_its_tests_need(dists):
    sdist, _wheel = dists
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        pkg_info = email.message_from_bytes(tar.extractfile(f"{sdist.name[:-7]}/PKG-INFO").read())
    missing = sorted(set(_tracked()) - NOT_IN_SDIST - names)
    assert not missing, f"the sdist lacks {missing}"
    for needed in ("tests/conftest.py", "tests/data/selfplay/m0001.mat", "tests/regressions",
                   "examples/illegal-play.mat", "docs/codes.md", "grammar/matchfile.lark",
                   "LICENSE", ".pre-commit-hooks.yaml"):
        assert needed in names
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert pkg_info["License-Expression"] == "MIT" and pkg_info["License-File"] == "LICENSE"


@pytest.mark.slow
def test_the_wheel_holds_every_package_and_its_data(dists):
    _sdist, wheel = dists
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        [meta] = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = email.message_from_bytes(z.read(meta))
    for package in PYPROJECT["tool"]["setuptools"]["packages"]:
        folder = package.replace(".", "/")
        assert any(n.startswith(folder + "/") for n in names), (package, sorted(names))
    assert {"gamao_cli/grammar/matchfile.lark", "gamao_cli/grammar/sgf.lark",
            "gamao_cli/schemas/match.schema.json", "gamao_cli/schemas/validate.schema.json",
            "gamao_cli/i18n/locale/pt_BR/LC_MESSAGES/gamao.mo"} <= names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert metadata["License-Expression"] == "MIT"


@pytest.mark.slow
def test_the_wheel_installs_into_a_fresh_venv_and_validates_the_examples(dists, tmp_path):
    _sdist, wheel = dists
    python = _venv(tmp_path / "venv")
    _run([str(python), "-m", "pip", "install", "-q", str(wheel)])
    work = clean_copy(tmp_path / "work")
    p = subprocess.run([str(python.with_name("gamao")), "validate", "examples/"], cwd=work,
                       capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    assert p.stdout.splitlines()[-1] == "4 files, 15 games: 2 errors, 0 warnings"
    # the catalogue came with the wheel: no Babel, no build step
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    p = subprocess.run([str(python.with_name("gamao")), "validate", "examples/"], cwd=work,
                       capture_output=True, text=True, env={**env, "LANG": "pt_BR.UTF-8"})
    assert p.returncode == 1, p.stderr
    assert p.stdout.splitlines()[-1] == "4 arquivos, 15 jogos: 2 erros, 0 avisos"


@pytest.mark.slow
def test_the_wheel_holds_the_compiled_kernels(dists):
    """Built where a compiler is (this machine, CI): each kernel of setup.py
    is in the wheel, and the sdist holds its C source."""
    sdist, wheel = dists
    from gamao_cli.kernels import KERNEL_NAMES
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    with tarfile.open(sdist) as tar:
        sources = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for kernel in KERNEL_NAMES:
        path = kernel.replace(".", "/")
        assert any(n.startswith(path + ".") and n.endswith(".so") for n in names), kernel
        assert path + ".c" in sources


@pytest.mark.slow
def test_without_a_compiler_the_install_goes_on_and_gamao_runs_its_python(tmp_path):
    """Issue 23: pip install . on a machine without a compiler keeps working.
    The compiler is made one that always fails (CC, LDSHARED: /bin/false);
    the kernels are left out, and gamao gives what it gives with them."""
    python = _venv(tmp_path / "venv")
    src = clean_copy(tmp_path / "src")
    env = {**os.environ, "CC": "/bin/false", "CXX": "/bin/false", "LDSHARED": "/bin/false"}
    env = {k: v for k, v in env.items() if not k.startswith("GAMAO")}
    _run([str(python), "-m", "pip", "install", "-q", str(src)], env=env)
    p = _run([str(python), "-c", "from gamao_cli import kernels; print(kernels.available())"],
             cwd=tmp_path)
    assert "True" not in p.stdout and "False" in p.stdout, p.stdout
    ours = subprocess.run([str(python.with_name("gamao")), "validate", "--format", "json",
                           "examples/"], cwd=src, capture_output=True, text=True)
    built = subprocess.run([sys.executable, "-m", "gamao_cli", "validate", "--format", "json",
                            "examples/"], cwd=src, capture_output=True, text=True)
    assert (ours.returncode, ours.stdout) == (built.returncode, built.stdout) == \
        (1, built.stdout)


@pytest.mark.slow
def test_the_sdists_own_tests_run_from_the_unpacked_sdist(dists, tmp_path):
    sdist, wheel = dists
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    [unpacked] = [p for p in tmp_path.iterdir() if p.is_dir()]
    python = _venv(tmp_path / "venv")
    _run([str(python), "-m", "pip", "install", "-q", str(wheel), "pytest>=7", "hypothesis>=6",
          "jsonschema>=4"])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "GAMAO"))}
    env["PATH"] = str(python.parent) + os.pathsep + env.get("PATH", "")
    p = subprocess.run([str(python), "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                        *SDIST_TESTS], cwd=unpacked, env=env, capture_output=True, text=True,
                       timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert " passed" in p.stdout.splitlines()[-1]


@pytest.mark.slow
@pytest.mark.parametrize("end", ["lowest", "highest"])
def test_the_wheel_builds_with_either_end_of_the_setuptools_range(end, tmp_path):
    """Without build isolation, with the setuptools pyproject.toml allows at
    each end: both take license = "MIT" and license-files."""
    [req] = [r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    lowest, _highest = _bounds(req)
    pin = "setuptools==" + ".".join(map(str, lowest)) if end == "lowest" else req
    python = _venv(tmp_path / "venv")
    _run([str(python), "-m", "pip", "install", "-q", pin])
    src = clean_copy(tmp_path / "src")
    _run([str(python), "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps",
          "-w", str(tmp_path / "out"), str(src)])
    [wheel] = (tmp_path / "out").glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        [meta] = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        assert email.message_from_bytes(z.read(meta))["License-Expression"] == "MIT"
    version = _run([str(python), "-c", "import setuptools; print(setuptools.__version__)"])
    print(end, "setuptools", version.stdout.strip())


@pytest.mark.slow
def test_the_readmes_first_command_on_a_clean_copy(tmp_path):
    """The README's first block, as it stands, in a clean copy: a fresh venv,
    pip install ., gamao validate examples/ (which ends with exit code 1)."""
    from test_readme import code_blocks
    [command] = code_blocks((ROOT / "README.md").read_text(encoding="utf-8"))[0][2]
    work = clean_copy(tmp_path / "clone")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(sys.prefix))
    p = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True,
                       text=True, timeout=900)
    assert p.returncode == 1, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.stdout.splitlines()[-1] == "4 files, 15 games: 2 errors, 0 warnings"
    assert (work / ".venv" / "bin" / "gamao").exists()
