"""The ``files:`` pattern of the pre-commit hook, made from the format
registry so that the hook takes exactly the files a folder scan of
``gamao validate`` takes: a name with an ending a format reads
(:func:`gamao_cli.formats.file_endings`, in any case) that does not start
with a dot.

``.pre-commit-hooks.yaml`` holds the pattern written out (pre-commit reads
it there); after adding a format, regenerate it with::

    python -m gamao_cli.cli.hook --write .pre-commit-hooks.yaml

and ``python -m gamao_cli.cli.hook`` prints it. A test checks that the file
holds what this module makes.

>>> pattern = files_pattern((".sgf", ".mat"))
>>> pattern
'(?i)(^|/)[^/.][^/]*\\\\.(sgf|mat)$'
>>> import re
>>> [bool(re.search(pattern, p)) for p in ("a/b.MAT", "x.sgf", "a/.hidden.mat", "m.mat.bak")]
[True, True, False, False]
"""
from __future__ import annotations

import re
import sys

from .files import default_endings

_FILES_LINE = re.compile(r"^(?P<indent>\s*)files:.*$", re.M)


def files_pattern(endings: tuple[str, ...] | None = None) -> str:
    """The regular expression (Python's, as pre-commit uses) of the paths
    a folder scan takes."""
    endings = endings if endings is not None else default_endings()
    names = "|".join(re.escape(e.lstrip(".").lower()) for e in endings)
    return r"(?i)(^|/)[^/.][^/]*\.(" + names + r")$"


def yaml_value(pattern: str) -> str:
    """``pattern`` as a single-quoted YAML scalar (no escapes but '')."""
    return "'" + pattern.replace("'", "''") + "'"


def read_pattern(hooks_yaml: str) -> str | None:
    """The ``files:`` pattern a ``.pre-commit-hooks.yaml`` text holds."""
    m = _FILES_LINE.search(hooks_yaml)
    if not m:
        return None
    value = m.group(0).split("files:", 1)[1].strip()
    if value.startswith("'") and value.endswith("'"):
        return value[1:-1].replace("''", "'")
    return value


def with_pattern(hooks_yaml: str, pattern: str | None = None) -> str:
    """The text of a ``.pre-commit-hooks.yaml`` with its ``files:`` set to
    ``pattern`` (default: :func:`files_pattern`)."""
    pattern = pattern if pattern is not None else files_pattern()
    if not _FILES_LINE.search(hooks_yaml):
        raise ValueError("no files: line to set")
    return _FILES_LINE.sub(lambda m: f"{m.group('indent')}files: {yaml_value(pattern)}",
                           hooks_yaml, count=1)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print(files_pattern())
        return 0
    if len(args) == 2 and args[0] == "--write":
        path = args[1]
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        new = with_pattern(text)
        if new != text:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(new)
        print(f"{path}: files: {yaml_value(files_pattern())}")
        return 0
    print("usage: python -m gamao_cli.cli.hook [--write .pre-commit-hooks.yaml]", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
