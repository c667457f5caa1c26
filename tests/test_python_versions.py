"""Which Pythons gamao supports is said in one voice: ``requires-python``,
the classifiers (each version tested), the README's first lines (both
languages) and the versions ``.ci/run`` looks for and tests on."""
from __future__ import annotations

import re
import shutil
import subprocess
import tomllib

from conftest import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _minor(text: str) -> tuple[int, int]:
    major, minor = text.split(".")
    return int(major), int(minor)


def _classified() -> list[tuple[int, int]]:
    return sorted(_minor(m) for c in PROJECT["classifiers"]
                  for m in re.findall(r"^Programming Language :: Python :: (3\.\d+)$", c))


def _lowest() -> tuple[int, int]:
    m = re.fullmatch(r">=\s*(3\.\d+)", PROJECT["requires-python"])
    assert m, PROJECT["requires-python"]
    return _minor(m.group(1))


def test_requires_python_is_the_oldest_version_classified():
    versions = _classified()
    assert versions and versions[0] == _lowest()
    # every version between the oldest and the newest tested
    assert versions == [(3, n) for n in range(versions[0][1], versions[-1][1] + 1)]


def test_no_license_classifier_beside_the_license_expression():
    assert PROJECT["license"] == "MIT"
    assert not any(c.startswith("License ::") for c in PROJECT["classifiers"])


def test_the_readmes_first_lines_say_which_python_is_needed():
    low = "%d.%d" % _lowest()
    tested = ", ".join("%d.%d" % v for v in _classified()[:-1]) + " and %d.%d" % _classified()[-1]
    en = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split("```")[0].split())
    assert f"Python {low} or newer" in en and f"CPython {tested} are tested" in en
    pt = " ".join((ROOT / "README.pt-BR.md").read_text(encoding="utf-8").split("## ")[0].split())
    assert f"Python {low} ou mais novo" in pt
    assert "testado no CPython " + tested.replace(" and ", " e ") in pt


def test_ci_looks_for_every_version_classified():
    m = re.search(r'^SUPPORTED="([\d. ]+)"$', CI, re.M)
    assert m
    looked_for = [_minor(v) for v in m.group(1).split()]
    assert looked_for[0] == _lowest()
    assert set(_classified()) <= set(looked_for)


def test_ci_picks_the_oldest_and_the_newest_python_it_finds(tmp_path):
    """.ci/run's choice of interpreters, run alone with a PATH of nothing but
    fake ``pythonX.Y`` (each answering its version, as a real one does) and a
    pyenv shim that answers for a version it does not have."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for v in ("3.12", "3.13"):
        (bin_ / f"python{v}").write_text(f"#!/bin/sh\necho {v}\n")
    (bin_ / "python3.14").write_text("#!/bin/sh\necho 'pyenv: python3.14: command not found' >&2\n"
                                     "exit 127\n")
    for p in bin_.iterdir():
        p.chmod(0o755)
    choose = CI[CI.index("SUPPORTED="):CI.index('echo "ci: Pythons found')]
    script = choose + 'echo "${found[*]}"; echo "${pythons[*]}"\n'
    p = subprocess.run([shutil.which("bash"), "-c", "set -euo pipefail\n" + script],
                       env={"PATH": str(bin_), "HOME": str(tmp_path),
                            "PYENV_ROOT": str(tmp_path / "no-pyenv")},
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    found, chosen = p.stdout.splitlines()
    assert found.split() == [str(bin_ / "python3.12"), str(bin_ / "python3.13")]
    assert chosen.split() == [str(bin_ / "python3.12"), str(bin_ / "python3.13")]

