"""Every Python source of the project holds only text every supported CPython
takes, now and in the versions announced.

Since 3.13 CPython encodes docstrings as UTF-8 when it compiles them (to
strip their indentation), so a lone surrogate written as an escape in a
(non-raw) docstring stops the module from importing at all, while one in an
ordinary string literal is still taken; since 3.12 an invalid escape sequence is a
SyntaxWarning, announced to become a SyntaxError. Both are caught here on any
version, the oldest included, so that no interpreter is needed to find them.
"""
from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    p for folder in ("gamao_cli", "tests", "bench", "fuzz") for p in (ROOT / folder).rglob("*.py")
)


def _ids(path: Path) -> str:
    return str(path.relative_to(ROOT))


def problems(source: str, name: str) -> list[str]:
    """What in ``source`` a supported or announced CPython refuses."""
    found = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # invalid escapes: SyntaxWarning / DeprecationWarning
        try:
            tree = compile(source, name, "exec", ast.PyCF_ONLY_AST | ast.PyCF_TYPE_COMMENTS)
        except SyntaxError as exc:
            return [f"{name}:{exc.lineno}: {exc.msg}"]
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        doc = node.body[0] if node.body else None
        if not (isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
                and isinstance(doc.value.value, str)):
            continue
        try:
            doc.value.value.encode("utf-8")
        except UnicodeEncodeError as exc:
            found.append(f"{name}:{doc.lineno}: a lone surrogate {doc.value.value[exc.start]!a} "
                         "in a docstring (write the escape in a raw string or as \\\\u)")
    return found


def test_the_check_finds_what_313_refuses():
    # a docstring as cli/__init__.py had it before 3.13 refused it
    bad = 'def f():\n    """written escaped (``\\udcff``)"""\n'
    assert problems(bad, "bad.py") == [
        "bad.py:2: a lone surrogate '\\udcff' in a docstring "
        "(write the escape in a raw string or as \\\\u)"]
    assert problems('x = "\\d"\n', "esc.py")[0].startswith("esc.py:1: ")
    # a raw docstring, and a lone surrogate in an ordinary literal, are taken everywhere
    assert problems('r"""``\\udcff``"""\nx = "\\udcff"\n', "good.py") == []


@pytest.mark.parametrize("path", SOURCES, ids=_ids)
def test_source_has_only_text_cpython_takes(path: Path):
    assert problems(path.read_text(encoding="utf-8"), _ids(path)) == []


_GETTEXT = {"_", "N_", "ngettext", "pgettext", "npgettext"}


def gettext_in_fstrings(source: str, name: str) -> list[str]:
    """Where ``source`` calls a gettext function inside an f-string: Babel's
    extraction sees those calls on Python 3.12 and later only (PEP 701 made
    an f-string's inside code to the tokenizer), so the catalogue made on
    3.11 would lack the message and its words stay English."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) \
                        and inner.func.id in _GETTEXT:
                    found.append(f"{name}:{inner.lineno}: {inner.func.id}() inside an f-string")
    return found


def test_the_check_finds_gettext_in_an_fstring():
    assert gettext_in_fstrings('x = f"<b>{_e(_(\'Hi\'))}</b>"\n', "a.py") == [
        "a.py:1: _() inside an f-string"]
    assert gettext_in_fstrings('w = _("Hi")\nx = f"<b>{w}</b>"\n', "b.py") == []


@pytest.mark.parametrize("path", [p for p in SOURCES if p.parts[len(ROOT.parts)] == "gamao_cli"],
                         ids=_ids)
def test_no_message_is_hidden_in_an_fstring(path: Path):
    assert gettext_in_fstrings(path.read_text(encoding="utf-8"), _ids(path)) == []
