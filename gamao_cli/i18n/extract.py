"""gamao's Babel extraction method: every message id of a source file.

Registered in ``babel.cfg`` (beside this module) as the method ``gamao``
for every ``gamao_cli/**.py``, so that ``pybabel extract -F
gamao_cli/i18n/babel.cfg`` finds, in each file:

- the ``_()``, ``gettext()``, ``ngettext()``, ``pgettext()`` and ``N_()``
  calls, as Babel's own ``python`` method does;
- the values of the message tables a module holds (:data:`TABLES`: the
  templates of :data:`gamao_cli.messages.MESSAGES` and the titles of
  :data:`gamao_cli.messages.CODES`, the exit codes' meanings), read from the
  imported module, so a template built from pieces (``_NAME + _NAME_COLON``)
  is found as the code renders it and nobody has to wrap a table entry; each
  comes with its key as a comment for the translator;
- the ``--help`` texts of the ``gamao`` commands defined in the file (a
  command's help, each option's), read from the click objects as click
  shows them.

The templates are looked up at run time by their English
(:func:`gamao_cli.messages.render` is ``gettext(template).format_map(fields)``),
so what is extracted is exactly what is looked up.
"""
from __future__ import annotations

import ast
import importlib
import io
import os
import string
from typing import Any, Iterable, Iterator

from babel.messages.extract import extract_python

#: module -> the names of its module-level tables of message texts
TABLES: dict[str, tuple[str, ...]] = {
    "gamao_cli.messages": ("MESSAGES", "CODES"),
    "gamao_cli.cli.exit_codes": ("MEANINGS",),
}

#: Babel's keywords, and the ones gamao adds
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3), "N_": None}


def module_name(path: str) -> str | None:
    """The dotted name of a source file of the ``gamao_cli`` package."""
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    if "gamao_cli" not in parts:
        return None
    i = len(parts) - 1 - parts[::-1].index("gamao_cli")
    mod = parts[i:]
    mod[-1] = os.path.splitext(mod[-1])[0]
    if mod[-1] == "__init__":
        mod.pop()
    return ".".join(mod)


def fields_of(template: str) -> list[str]:
    """The fields a template formats, in order (``{name!r}`` -> ``name``)."""
    out = []
    for _text, name, _spec, _conv in string.Formatter().parse(template):
        if name is not None and name not in out:
            out.append(name)
    return out


def _key_lines(source: str) -> dict[str, int]:
    """The line of each string that is a dict key or a call's first argument
    in ``source`` (where a table entry is written)."""
    lines: dict[str, int] = {}
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return lines
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for k in node.keys:
                if isinstance(k, ast.Constant) and isinstance(k.value, (str, int)):
                    lines.setdefault(str(k.value), k.lineno)
        elif isinstance(node, ast.Call) and node.args:
            a = node.args[0]
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                lines.setdefault(a.value, a.lineno)
    return lines


def table_messages(module: str) -> Iterator[tuple[str, str, list[str]]]:
    """(key, English text, comments) of every entry of the tables of
    ``module``; the key is the entry's own (``GM501.colon``, ``GM202``, an
    exit code), where its line is found."""
    mod = importlib.import_module(module)
    for name in TABLES.get(module, ()):
        yield from _walk(name, None, getattr(mod, name))


def _walk(path: str, key: Any, value: Any) -> Iterator[tuple[str, str, list[str]]]:
    if isinstance(value, str):
        fields = fields_of(value)
        yield (str(key), value,
               [path] + ([f"fields: {', '.join(fields)}"] if fields else []))
    elif hasattr(value, "title") and hasattr(value, "severity"):   # a CodeInfo
        yield (str(key), value.title,
               [f"the meaning of {key} ({value.category}, {value.severity}) in gamao codes"])
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(f"{path}[{k!r}]", k, v)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _walk(f"{path}[{i}]", key, v)


def _commands() -> Iterable[Any]:
    """Every click command of ``gamao`` (the group first)."""
    from gamao_cli.cli import main
    yield main
    yield from main.commands.values()


def help_texts(module: str) -> Iterator[tuple[int, str, list[str]]]:
    """(line, text, comments) of the ``--help`` texts of the commands whose
    function is defined in ``module``: the command's help and short help,
    each option's help (click's own help option, and the texts click
    writes, come from click's catalogue part)."""
    if not module.startswith("gamao_cli.cli"):
        return
    from gamao_cli.cli.language import help_messages
    for cmd in _commands():
        callback = cmd.callback
        if callback is None or callback.__module__ != module:
            continue
        line = callback.__code__.co_firstlineno
        name = cmd.name or "gamao"
        for attr in ("help", "short_help"):
            text = getattr(cmd, attr, None)
            where = "gamao --help" if name == "gamao" else f"gamao {name} --help"
            for para in help_messages(text) if text else ():
                yield line, para, [f"{where}: the command's {attr.replace('_', ' ')}"]
        for p in cmd.params:
            text = getattr(p, "help", None)
            opt = "/".join(getattr(p, "opts", None) or [p.name])
            for para in help_messages(text) if text else ():
                yield line, para, [f"{where}: {opt}"]


def extract(fileobj, keywords, comment_tags, options) -> Iterator[tuple[int, Any, Any, list[str]]]:
    """Babel's extraction method ``gamao`` (see the module's text)."""
    data = fileobj.read()
    yield from extract_python(io.BytesIO(data), keywords, comment_tags, options)
    module = module_name(getattr(fileobj, "name", "") or "")
    if module is None:
        return
    source = data.decode("utf-8")
    if module in TABLES:
        lines = _key_lines(source)
        for key, text, comments in table_messages(module):
            yield lines.get(key, 1), None, text, comments
    for line, text, comments in help_texts(module):
        yield line, None, text, comments
