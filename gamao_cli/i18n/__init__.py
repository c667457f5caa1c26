"""gamao in other languages: which language speaks, and its gettext catalogue.

English is the source language: every message is written in English in the
code (the message table :mod:`gamao_cli.messages`, ``_()`` calls in the
command line, the ``--help`` texts), and that English text is the message id
(``msgid``) a catalogue translates. A catalogue is a gettext ``.po`` file
under ``locale/<language>/LC_MESSAGES/gamao.po`` of this package, compiled to
the ``.mo`` beside it; ``python -m gamao_cli.i18n refresh`` extracts the
message ids again with Babel, updates the ``.po`` and compiles the ``.mo``
(see :mod:`gamao_cli.i18n.catalog`).

Which language speaks:

- the ``gamao`` command takes it from ``--lang`` (which wins), else from the
  environment as gettext does: the first of ``LANGUAGE``, ``LC_ALL``,
  ``LC_MESSAGES`` and ``LANG`` that is set and not empty (``LANGUAGE`` may
  list several, ``pt_BR:en``: the first gamao has wins);
- the library speaks English unless told otherwise: :func:`set_language`
  for the process, ``with language("pt_BR"):`` for a block, or
  ``gamao_cli.messages.render(key, fields, lang="pt_BR")`` for one message.
  (A library that changed its words with the user's ``LANG`` would surprise
  the programs that read them.)

``pt`` and ``pt_PT`` (and any ``pt_*``) fall back to ``pt_BR``, the one
Portuguese gamao has; a language gamao has no catalogue for falls back to
English without an error, as gettext does.

>>> resolve("pt_BR.UTF-8"), resolve("pt"), resolve("pt_PT"), resolve("de_DE"), resolve("C")
('pt_BR', 'pt_BR', 'pt_BR', 'en', 'en')
>>> from_environment({"LANGUAGE": "", "LC_ALL": "fr_FR.UTF-8", "LANG": "pt_BR.UTF-8"})
'en'
>>> from_environment({"LANGUAGE": "fr:pt_BR", "LANG": "en_US.UTF-8"})
'pt_BR'
>>> with language("pt_BR"):
...     print(ngettext("{n} file", "{n} files", 4).format(n=4))
4 arquivos
>>> print(ngettext("{n} file", "{n} files", 4).format(n=4))
4 files

Work done elsewhere (worker processes, a Dask cluster) speaks the language
of the caller when it is wrapped in :class:`InLanguage`.
"""
from __future__ import annotations

import contextvars
import functools
import gettext as _gettext
import os
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping

__all__ = ["DOMAIN", "LOCALE_DIR", "SOURCE", "LANGUAGES", "resolve", "from_environment",
           "set_language", "get_language", "language", "translations", "gettext", "ngettext",
           "pgettext", "N_", "number", "InLanguage"]

#: The gettext domain of gamao's catalogue (``gamao.po``, ``gamao.mo``).
DOMAIN = "gamao"
#: The folder of the catalogues: ``<LOCALE_DIR>/<language>/LC_MESSAGES/gamao.mo``.
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
#: The language the messages are written in.
SOURCE = "en"
#: The languages gamao speaks: the source and every catalogue.
LANGUAGES = (SOURCE, "pt_BR")
#: The environment variables gettext reads the language from, in its order.
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

# a bare language that stands for one of gamao's catalogues
_FALLBACK = {"pt": "pt_BR"}


def _normalize(name: str) -> str | None:
    """The language gamao speaks for a locale name (``pt_BR.UTF-8``,
    ``pt-br``, ``en_GB@euro``), or None when it has no catalogue for it."""
    base = name.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if not base:
        return None
    if base in ("C", "POSIX"):
        return SOURCE
    lang, _sep, country = base.partition("_")
    lang = lang.lower()
    if lang == SOURCE:
        return SOURCE
    full = f"{lang}_{country.upper()}" if country else lang
    if full in LANGUAGES:
        return full
    return _FALLBACK.get(lang)


def resolve(name: str | None) -> str:
    """The language gamao speaks when asked for ``name`` (``--lang``, or a
    locale name): one of :data:`LANGUAGES`, English for a language it has
    no catalogue for (or none)."""
    if not name:
        return SOURCE
    for part in name.split(":"):
        lang = _normalize(part)
        if lang is not None:
            return lang
    return SOURCE


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, read as gettext reads it: the
    first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set
    and not empty decides; in a list (``LANGUAGE=fr:pt_BR``) the first
    language gamao has wins; none of them: English."""
    environ = os.environ if environ is None else environ
    for var in ENVIRONMENT:
        value = environ.get(var)
        if value:
            return resolve(value)
    return SOURCE


# the process's language (threads see it), and a block's (with language(...))
_process_language = SOURCE
_block_language: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "gamao_language", default=None)


def set_language(name: str | None) -> str:
    """Make ``name`` (resolved by :func:`resolve`) the language of the
    process; returns the language set."""
    global _process_language
    _process_language = resolve(name)
    return _process_language


def get_language() -> str:
    """The language that speaks here: a block's, else the process's."""
    return _block_language.get() or _process_language


@contextmanager
def language(name: str | None) -> Iterator[str]:
    """Speak ``name`` (resolved by :func:`resolve`) inside the block, in this
    thread (or task) only."""
    token = _block_language.set(resolve(name))
    try:
        yield _block_language.get()  # type: ignore[misc]
    finally:
        _block_language.reset(token)


@functools.lru_cache(maxsize=None)
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang`` (a language of :data:`LANGUAGES`); English,
    or a catalogue that is not there, translates nothing."""
    if lang == SOURCE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def gettext(message: str) -> str:
    """``message`` (its English, the message id) in the language that speaks."""
    lang = get_language()
    if lang == SOURCE:
        return message
    return translations(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for the count ``n``, in the
    language that speaks (``.format(n=n)`` it then)."""
    return translations(get_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` gives it (the same English word
    can need two translations)."""
    return translations(get_language()).pgettext(context, message)


_ = gettext


def number(n: int) -> str:
    """A whole number with its thousands grouped as the language that speaks
    writes them (``12,345`` in English, ``12.345`` in Portuguese).

    >>> number(12345), number(7)
    ('12,345', '7')
    """
    text = f"{n:,}"
    return text.replace(",", ".") if get_language() == "pt_BR" else text


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it here (it is
    translated where it is used, with :func:`gettext`)."""
    return message


class InLanguage:
    """``func`` called in the language that spoke when this was made: for
    work done in worker processes or on a Dask cluster, which start in
    English. Picklable when ``func`` is.

    >>> with language("pt_BR"):
    ...     f = InLanguage(get_language)
    >>> get_language(), f()
    ('en', 'pt_BR')
    """

    def __init__(self, func: Callable[..., Any], lang: str | None = None):
        self.func = func
        self.lang = resolve(lang) if lang else get_language()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with language(self.lang):
            return self.func(*args, **kwargs)

    def __repr__(self) -> str:
        return f"InLanguage({self.func!r}, {self.lang!r})"
