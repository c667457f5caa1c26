"""The package's layout keeps the pipeline's order: no import cycle, and no
layer imports what comes after it (readers -> model -> rules -> replay,
converters, renderers, tables -> cli). As pip-tools'
``tests/test_circular_imports.py``: every module is also imported alone, in
a fresh interpreter, so that no order of first imports can meet a cycle."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gamao_cli"


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imports(name: str) -> set[str]:
    """The gamao_cli modules ``name`` imports, at the top or in a function
    (imports for type checking only are left out)."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _is_type_checking(node):
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # "from package import module" imports the module; "from module
            # import name" the module
            targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target
                       for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            targets = []
        for t in targets:
            while t and t not in MODULES:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def test_the_layout_has_the_modules_of_the_pipeline():
    for name in ("gamao_cli.formats", "gamao_cli.formats.base", "gamao_cli.formats.mat",
                 "gamao_cli.formats.sgf", "gamao_cli.formats.json", "gamao_cli.formats.xg",
                 "gamao_cli.model", "gamao_cli.model.notation", "gamao_cli.rules",
                 "gamao_cli.rules.steps", "gamao_cli.replay.replay", "gamao_cli.ids",
                 "gamao_cli.render.text", "gamao_cli.messages", "gamao_cli.cli"):
        assert name in MODULES, name


def test_no_import_cycle():
    cycles = []

    def walk(node: str, stack: list[str], done: set[str]) -> None:
        for nxt in sorted(GRAPH[node]):
            if nxt in stack:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in done:
                done.add(nxt)
                walk(nxt, stack + [nxt], done)

    for name in MODULES:
        walk(name, [name], {name})
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles[:5])


def test_the_cycle_check_sees_a_cycle():
    """The walk above on a graph with a cycle (so its silence means something)."""
    saved = dict(GRAPH)
    try:
        GRAPH["gamao_cli.model.notation"] = GRAPH["gamao_cli.model.notation"] | {"gamao_cli.model"}
        with pytest.raises(AssertionError, match="import cycles"):
            test_no_import_cycle()
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


#: What each layer may not import: what comes after it in the pipeline.
FORBIDDEN = {
    "gamao_cli.model": ("gamao_cli.rules", "gamao_cli.formats", "gamao_cli.replay",
                        "gamao_cli.ids", "gamao_cli.render", "gamao_cli.tables",
                        "gamao_cli.cli"),
    "gamao_cli.rules": ("gamao_cli.formats", "gamao_cli.replay", "gamao_cli.ids",
                        "gamao_cli.render", "gamao_cli.tables", "gamao_cli.cli"),
    "gamao_cli.ids": ("gamao_cli.formats", "gamao_cli.replay", "gamao_cli.render",
                      "gamao_cli.tables", "gamao_cli.cli"),
    "gamao_cli.replay": ("gamao_cli.render", "gamao_cli.tables", "gamao_cli.cli"),
    "gamao_cli.render": ("gamao_cli.cli",),
    "gamao_cli.tables": ("gamao_cli.cli",),
    "gamao_cli.archive": ("gamao_cli.cli",),
    "gamao_cli.archive.fingerprint": ("gamao_cli.tables", "gamao_cli.render", "gamao_cli.replay",
                                      "gamao_cli.cli"),
    "gamao_cli.formats": ("gamao_cli.render", "gamao_cli.tables", "gamao_cli.cli"),
    # the analysis knows the model (and the decisions the readers fill), never
    # a format, a display or the CLI
    "gamao_cli.analysis": ("gamao_cli.formats", "gamao_cli.render", "gamao_cli.tables",
                           "gamao_cli.cli"),
    "gamao_cli.messages": tuple(f"gamao_cli.{p}" for p in ("model", "rules", "formats", "replay",
                                                          "ids", "render", "tables", "cli")),
    # the errors render their messages from the one table, and know nothing else
    "gamao_cli.errors": tuple(f"gamao_cli.{p}" for p in ("model", "rules", "formats", "replay",
                                                        "ids", "render", "tables", "cli")),
}


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_what_comes_after_it(layer):
    wrong = [(name, target) for name, targets in GRAPH.items()
             if name == layer or name.startswith(layer + ".")
             for target in targets if target.startswith(FORBIDDEN[layer])]
    assert not wrong, wrong


@pytest.mark.parametrize("module", sorted(set(MODULES) - {"gamao_cli.__main__"}))  # runs gamao
def test_every_module_imports_alone(module):
    p = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
