"""The Lark grammars of the text formats (``grammar/*.lark``, shipped inside
the package as ``gamao_cli/grammar``), and where Lark keeps its analysis of
them between runs."""
from __future__ import annotations

import hashlib
import os
import sys
from importlib import resources
from pathlib import Path


def grammar_text(name: str) -> str:
    """The text of a grammar file: from the installed package, else from the
    source tree's ``grammar/`` folder (running from a checkout)."""
    try:
        return resources.files("gamao_cli.grammar").joinpath(name).read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (Path(__file__).resolve().parents[2] / "grammar" / name).read_text("utf-8")


def parser_cache_key(grammar: str, options: dict) -> str:
    """What Lark hashes to tell whether a cache file is its own (the grammar,
    the options that shape the parser, Lark's version and Python's), hashed
    the same way (SHA-256), cut to 16 hex digits: the cache file is named by
    it, so that installs sharing a home (another gamao, another Lark, another
    Python) keep a file each instead of overwriting one another's."""
    import lark
    unhashable = ("transformer", "postlex", "lexer_callbacks", "edit_terminals", "_plugins",
                  "cache")
    shaped = "".join(k + str(v) for k, v in options.items() if k not in unhashable)
    text = grammar + shaped + lark.__version__ + str(sys.version_info[:2])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def parser_cache_path(name: str, key: str = "") -> str | bool:
    """Where Lark keeps its analysis of the grammar between runs, so that a
    run does not spend a tenth of a second redoing it: ``$GAMAO_CACHE_DIR``,
    else ``$XDG_CACHE_HOME/gamao``, else ``~/.cache/gamao``, in the file
    ``NAME-KEY.lark-cache`` (``key``: :func:`parser_cache_key`). ``False``
    (no cache) when ``GAMAO_NO_CACHE=1`` or the folder cannot be made. Lark
    checks that a cache file was made from the same grammar, options and
    Lark version, and builds the parser anew when it was not or cannot be
    read."""
    if os.environ.get("GAMAO_NO_CACHE") == "1":
        return False
    folder = os.environ.get("GAMAO_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "gamao")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    return os.path.join(folder, f"{name}-{key}.lark-cache" if key else f"{name}.lark-cache")
