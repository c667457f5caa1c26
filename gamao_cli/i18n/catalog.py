"""Refreshing gamao's catalogues with Babel: extract, update, compile.

``python -m gamao_cli.i18n refresh`` (no ``make``, no gettext tools: Babel,
from the ``test`` extra) does what these three would::

    pybabel extract -F gamao_cli/i18n/babel.cfg -k N_ --add-location=file \\
        -o gamao.pot .                        # plus click's own words (below)
    pybabel update -i gamao.pot -d gamao_cli/i18n/locale -D gamao --ignore-obsolete
    pybabel compile -d gamao_cli/i18n/locale -D gamao

The template holds gamao's message ids (found by the extraction method of
:mod:`gamao_cli.i18n.extract`) and click's own (``Usage:``, ``Options``,
``Show this message and exit.``, its error messages: click calls
``gettext.gettext``, the process's default domain, which the ``gamao``
command points at this catalogue; see :mod:`gamao_cli.cli.language`), read
from the installed click with Babel's ``python`` method. ``update`` keeps
every translation, marks as fuzzy the ones whose English changed (a
translator checks them and removes the flag), and adds the new ids
untranslated; ``compile`` writes the ``.mo`` of the translated, non-fuzzy
ones. ``python -m gamao_cli.i18n check`` lists what is missing.

The ``.mo`` is committed beside its ``.po`` (a test checks that it is what
compiling the ``.po`` gives), so that a wheel, an sdist or an editable
install speaks Portuguese without Babel or a build step.
"""
from __future__ import annotations

import io
import os
import string
import sys
from dataclasses import dataclass, field
from typing import Iterable

from . import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(PACKAGE_DIR)
MAPPING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "babel.cfg")
#: the comment that marks click's own message ids in the catalogue
CLICK_COMMENT = "click's own words"


def po_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", DOMAIN + ".po")


def mo_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", DOMAIN + ".mo")


def click_version() -> str:
    from importlib.metadata import version
    return version("click")


def _method_map() -> tuple[list[tuple[str, str]], dict]:
    from babel.messages.frontend import parse_mapping_cfg
    with open(MAPPING, encoding="utf-8") as fh:
        return parse_mapping_cfg(fh, MAPPING)


def extract_template():
    """The template (a Babel ``Catalog``) of every message id: gamao's, then click's."""
    import click
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

    from gamao_cli import __version__

    from .extract import KEYWORDS

    template = Catalog(project="gamao", version=__version__, charset="utf-8",
                       msgid_bugs_address="", fuzzy=False)
    method_map, options_map = _method_map()
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, method_map, options_map, keywords={**DEFAULT_KEYWORDS, **KEYWORDS},
            comment_tags=("i18n:",), strip_comment_tags=True):
        template.add(message, None, [(filename.replace(os.sep, "/"), lineno)],
                     auto_comments=comments, context=context)
    click_dir = os.path.dirname(click.__file__)
    for filename, lineno, message, comments, context in extract_from_dir(
            click_dir, [("**.py", "python")], keywords=DEFAULT_KEYWORDS):
        template.add(message, None, [("click/" + filename.replace(os.sep, "/"), lineno)],
                     auto_comments=[CLICK_COMMENT + f" (click {click_version()})"],
                     context=context)
    return template


def read(lang: str):
    from babel.messages.pofile import read_po
    with open(po_path(lang), "rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def _po_bytes(catalog) -> bytes:
    from babel.messages.pofile import write_po
    buf = io.BytesIO()
    write_po(buf, catalog, width=96, ignore_obsolete=True, include_lineno=False,
             sort_by_file=False)
    return buf.getvalue()


def mo_bytes(catalog) -> bytes:
    """The compiled ``.mo`` of ``catalog`` (its translated, non-fuzzy messages)."""
    from babel.messages.mofile import write_mo
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def _state(catalog) -> list:
    return sorted((str(m.id), str(m.string), m.context or "", sorted(m.flags),
                   sorted(set(f for f, _l in m.locations)), list(m.auto_comments))
                  for m in catalog if m.id)


def update(lang: str, template) -> bool:
    """Update the ``.po`` of ``lang`` from ``template``; True if it changed."""
    catalog = read(lang)
    before = _state(catalog)
    creation = catalog.creation_date
    catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
    if _state(catalog) == before:
        return False
    catalog.creation_date = creation if creation else catalog.creation_date
    with open(po_path(lang), "wb") as fh:
        fh.write(_po_bytes(catalog))
    return True


def compile_mo(lang: str) -> bool:
    """Write the ``.mo`` of ``lang`` from its ``.po``; True if it changed."""
    data = mo_bytes(read(lang))
    path = mo_path(lang)
    if os.path.exists(path):
        with open(path, "rb") as fh:
            if fh.read() == data:
                return False
    with open(path, "wb") as fh:
        fh.write(data)
    return True


# -- what the tests and `check` look at --------------------------------------

def placeholders(text: str) -> list[str]:
    """The placeholders of a message, sorted: ``{name!r}`` fields as written
    (name, conversion, format), and ``%(name)s`` / ``%s`` ones.

    >>> placeholders("{where}{n} plays of {name!r} at {x:>3}, %(prog)s %d")
    ['%(prog)s', '%d', '{name!r}', '{n}', '{where}', '{x:>3}']
    """
    out = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        parsed = [(text, None, None, None)]
    literal = []
    for lit, name, spec, conv in parsed:
        literal.append(lit)
        if name is not None:
            out.append("{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}")
    import re
    for lit in literal:
        out += re.findall(r"%(?:\([A-Za-z_]\w*\))?[-#0 +]*\d*(?:\.\d+)?[sdirfgxX]", lit)
    return sorted(out)


@dataclass
class Problems:
    missing: list[str] = field(default_factory=list)       # not in the .po at all
    untranslated: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    placeholders: list[tuple[str, str]] = field(default_factory=list)
    #: message id -> where it comes from (its table key or --help, its files)
    origin: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.missing or self.untranslated or self.fuzzy or self.placeholders)

    def _from(self, message: str) -> str:
        where = self.origin.get(message)
        return f"\n      from {where}" if where else ""

    def lines(self) -> list[str]:
        """One entry per problem: what is wrong, the English message id, and
        where it comes from (``MESSAGES['GM008']`` in gamao_cli/messages.py)."""
        out = [f"missing (not in the .po: run refresh): {m!r}{self._from(m)}"
               for m in self.missing]
        out += [f"untranslated (empty msgstr): {m!r}{self._from(m)}" for m in self.untranslated]
        out += [f"fuzzy (check it, then remove the flag): {m!r}{self._from(m)}"
                for m in self.fuzzy]
        out += [f"placeholders differ: {m!r} -> {t!r}{self._from(m)}"
                for m, t in self.placeholders]
        return out


def _key(message) -> tuple[str, str]:
    mid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
    return (message.context or "", mid)


def problems(lang: str, template, include_click: bool = True) -> Problems:
    """What the ``.po`` of ``lang`` lacks for ``template``: ids missing,
    untranslated or fuzzy, and translations whose placeholders differ from
    their English."""
    catalog = read(lang)
    have = {_key(m): m for m in catalog if m.id}
    out = Problems()
    for t in template:
        if not t.id:
            continue
        if not include_click and any(CLICK_COMMENT in c for c in t.auto_comments):
            continue
        name = t.id if isinstance(t.id, str) else t.id[0]
        files = sorted(set(f for f, _l in t.locations))
        out.origin[name] = "; ".join(
            [c for c in t.auto_comments if not c.startswith("fields:")][:2]
            + ([", ".join(files[:3])] if files else []))
        m = have.get(_key(t))
        if m is None:
            out.missing.append(name)
            continue
        strings = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
        if not all(strings):
            out.untranslated.append(name)
        elif m.fuzzy:
            out.fuzzy.append(name)
        ids = list(m.id) if isinstance(m.id, (list, tuple)) else [m.id]
        # each form of a plural against the English form it stands for
        # (Portuguese, like English, has a singular and a plural)
        for i, s in enumerate(strings):
            english = ids[min(i, len(ids) - 1)]
            if s and sorted(set(placeholders(s))) != sorted(set(placeholders(english))):
                out.placeholders.append((name, s))
    return out


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    usage = ("usage: python -m gamao_cli.i18n refresh   (extract, update every .po, compile)\n"
             "       python -m gamao_cli.i18n check     (what a catalogue lacks)\n"
             "       python -m gamao_cli.i18n compile   (the .mo files from the .po files)")
    if args not in (["refresh"], ["check"], ["compile"]):
        print(usage, file=sys.stderr)
        return 2
    langs = [lang for lang in LANGUAGES if lang != SOURCE]
    if args[0] == "compile":
        for lang in langs:
            print(f"{mo_path(lang)}: {'written' if compile_mo(lang) else 'unchanged'}")
        return 0
    template = extract_template()
    if args[0] == "refresh":
        for lang in langs:
            print(f"{po_path(lang)}: {'updated' if update(lang, template) else 'unchanged'}")
            print(f"{mo_path(lang)}: {'written' if compile_mo(lang) else 'unchanged'}")
    status = 0
    for lang in langs:
        found = problems(lang, template)
        total = sum(1 for t in template if t.id)
        print(f"{lang}: {total} message ids, {total - len(found.missing) - len(found.untranslated)}"
              f" translated, {len(found.fuzzy)} fuzzy, {len(found.placeholders)} with other "
              "placeholders")
        if args[0] == "check" and found:
            print(f"  in {po_path(lang)}:")
            print("\n".join("  " + line for line in found.lines()))
            status = 1
    return status
