"""The optional compiled kernels (setup.py, gamao_cli/kernels.py): the loader
gives a kernel or None, GAMAO_PURE_PYTHON turns them off, and where a C
compiler is at hand they are built (else the differential tests, which run
each kernel against its Python reference on the whole corpus, would skip
and prove nothing). The slow tests of tests/test_packaging.py install a
wheel built without a compiler and run it."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig

import pytest

from conftest import ROOT
from gamao_cli import kernels


def _setup_kernels() -> list[tuple[str, str]]:
    """(module, source) of each Extension setup.py declares."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Extension":
            name = node.args[0].value
            [source] = [e.value for e in node.args[1].elts]
            out.append((name, source))
    return out


def test_setup_py_and_the_loader_name_the_same_kernels():
    declared = _setup_kernels()
    assert [name for name, _src in declared] == list(kernels.KERNEL_NAMES)
    for name, source in declared:
        assert (ROOT / source).is_file(), source
        # the source lies beside the Python module it speeds up
        assert source == name.replace(".", "/") + ".c"


@pytest.mark.parametrize("value, pure", [("1", True), ("yes", True), ("", False), ("0", False)])
def test_gamao_pure_python_turns_the_kernels_off(monkeypatch, value, pure):
    monkeypatch.setenv("GAMAO_PURE_PYTHON", value)
    assert kernels.pure_python() is pure
    for name in kernels.KERNEL_NAMES:
        if pure:
            assert kernels.kernel(name) is None
    assert not pure or not any(kernels.available().values())


def test_a_kernel_that_is_not_there_is_none():
    assert kernels.kernel("gamao_cli.replay._no_such_kernel") is None


def test_the_kernels_are_built_where_a_compiler_is():
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler ({cc}): gamao runs its Python code only")
    if os.environ.get("GAMAO_PURE_PYTHON", "") not in ("", "0"):
        pytest.skip("GAMAO_PURE_PYTHON is set")
    missing = [name for name, ok in kernels.available().items() if not ok]
    assert not missing, (f"{missing} not built although {cc} is here: reinstall "
                         "(pip install -e .) after a change of setup.py or a kernel's source")


def test_the_command_says_nothing_of_the_kernels_either_way(tmp_path):
    """The same output and exit code with the kernels and without them."""
    out = []
    for pure in ("", "1"):
        env = {**os.environ, "GAMAO_PURE_PYTHON": pure}
        p = subprocess.run([sys.executable, "-m", "gamao_cli", "validate", "--format", "json",
                            "examples/"], cwd=ROOT, env=env, capture_output=True, text=True)
        out.append((p.returncode, p.stdout, p.stderr))
    assert out[0] == out[1]
    assert out[0][0] == 1   # the examples hold two errors
