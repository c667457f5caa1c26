"""The optional compiled kernels: C twins of a few hot paths (``setup.py``).

A kernel is an extension module beside the Python code it speeds up, which
stays the reference and the fallback: :func:`kernel` gives the module, or
``None`` when it was not built (``pip install .`` without a compiler) or
when ``GAMAO_PURE_PYTHON`` is set to anything but ``""`` or ``"0"``. The
callers keep their Python path for ``None``, and the tests run both on the
whole corpus and compare.
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType


def pure_python() -> bool:
    """Whether ``GAMAO_PURE_PYTHON`` asks for the Python code only."""
    return os.environ.get("GAMAO_PURE_PYTHON", "") not in ("", "0")


def kernel(name: str) -> ModuleType | None:
    """The compiled module ``name`` (``gamao_cli.replay._play_run``), or None
    when it is not installed or :func:`pure_python` says not to use it."""
    if pure_python():
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def available() -> dict[str, bool]:
    """Each kernel of ``setup.py`` and whether it is in use (the tests
    check it; ``bench/throughput.py`` prints it beside its figures)."""
    return {name: kernel(name) is not None for name in KERNEL_NAMES}


KERNEL_NAMES = ("gamao_cli.formats.mat._cell_scan", "gamao_cli.replay._play_run",
                "gamao_cli.ids._ids", "gamao_cli.tables._action_cells",
                "gamao_cli.render._page_positions")
