"""The language of the ``gamao`` command: ``--lang``, the environment, and
``--help`` in that language.

:func:`session` sets the language of a run of ``gamao`` (``--lang``, found
before click parses anything, so that even click's own usage errors speak
it; else the environment, as gettext reads it) for gamao's messages
(:mod:`gamao_cli.i18n`) and for click's: click translates its own words
(``Usage:``, ``Options``, ``Show this message and exit.``, its error
messages) with ``gettext.gettext``, the process's default text domain
(``messages`` unless an application binds its own). The session binds the
domain ``gamao`` to gamao's catalogue, which holds click's words too, makes
it the default domain, and sets ``LANGUAGE`` to the language chosen (gettext
reads the language from there); all three are put back when the run ends.

:class:`Command` and :class:`Group` show their help, their options' help
and the exit codes in the language of the session: the texts are kept in
English on the click objects (they are the message ids) and looked up when
the help is written.
"""
from __future__ import annotations

import gettext as _stdlib_gettext
import inspect
import os
from contextlib import contextmanager
from typing import Iterator, Sequence

import click

from gamao_cli import i18n
from gamao_cli.i18n import N_, _

from . import exit_codes

#: click writes ``[required]`` after a required option's help with
#: ``gettext(extra["required"])``, an id Babel cannot see there: it is here.
CLICK_REQUIRED = N_("required")

LANG_HELP = N_("The language of messages and help: pt_BR (pt and pt_PT give it too) or en "
               "(default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, as gettext reads them; "
               "a language gamao does not have gives English).")


def lang_from_args(args: Sequence[str]) -> str | None:
    """The value of the group's ``--lang`` in ``args`` (before the command's
    name), or None.

    >>> lang_from_args(["--lang", "pt", "validate", "x"]), lang_from_args(["--lang=en", "codes"])
    ('pt', 'en')
    >>> lang_from_args(["validate", "--lang", "pt"]) is None
    True
    """
    for i, arg in enumerate(args):
        if arg == "--lang":
            return args[i + 1] if i + 1 < len(args) else None
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
        if arg == "--" or not arg.startswith("-"):
            return None
    return None


@contextmanager
def session(requested: str | None, environ=None) -> Iterator[str]:
    """Speak ``requested`` (``--lang``) or the environment's language for a
    run of the command, click's words included (see the module's text)."""
    environ = os.environ if environ is None else environ
    lang = i18n.resolve(requested) if requested else i18n.from_environment(environ)
    old_lang = i18n.get_language()
    old_domain = _stdlib_gettext.textdomain()
    old_env = os.environ.get("LANGUAGE")
    i18n.set_language(lang)
    _stdlib_gettext.bindtextdomain(i18n.DOMAIN, i18n.LOCALE_DIR)
    _stdlib_gettext.textdomain(i18n.DOMAIN)
    os.environ["LANGUAGE"] = lang   # what gettext.gettext (click's) reads
    try:
        yield lang
    finally:
        i18n.set_language(old_lang)
        _stdlib_gettext.textdomain(old_domain)
        if old_env is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = old_env


def set_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """The callback of ``--lang`` (:func:`session` has already read it when
    the command runs from :meth:`Group.main`; this covers other callers)."""
    if value:
        i18n.set_language(value)


def help_paragraphs(text: str) -> list[str]:
    r"""The paragraphs of a help text as click shows it (its indentation
    removed), each a message id: a paragraph changed in English leaves the
    others' translations as they are.

    >>> help_paragraphs("Check files.\n\n    More words\n    here.")
    ['Check files.', 'More words\nhere.']
    """
    return inspect.cleandoc(text).split("\n\n")


def _examples(paragraph: str) -> tuple[str, list[str]] | None:
    """(heading, lines) of a paragraph of examples (click's ``\\b``, a heading
    ending in ``:``, then indented commands), whose commands are not words
    to translate; None for other paragraphs."""
    lines = paragraph.split("\n")
    if (len(lines) > 2 and lines[0] == "\b" and lines[1].endswith(":")
            and all(line.startswith("  ") for line in lines[2:])):
        return lines[1], lines[2:]
    return None


def help_messages(text: str) -> list[str]:
    """The message ids of a help text: its paragraphs, or the heading of a
    paragraph of examples."""
    out = []
    for para in help_paragraphs(text):
        examples = _examples(para)
        out.append(examples[0] if examples else para)
    return out


def translate_help(text: str) -> str:
    """A help text in the language that speaks, paragraph by paragraph (the
    commands of its examples as they are)."""
    out = []
    for para in help_paragraphs(text):
        examples = _examples(para)
        if examples:
            out.append("\n".join(["\b", _(examples[0]), *examples[1]]))
        else:
            out.append(_(para))
    return "\n\n".join(out)


class _Translated:
    """Help written in the language that speaks (a mixin of click's classes)."""

    @contextmanager
    def _translated(self, ctx: click.Context | None = None) -> Iterator[None]:
        saved: list[tuple[object, str, object]] = []

        def put(obj: object, attr: str, value: object) -> None:
            saved.append((obj, attr, getattr(obj, attr)))
            setattr(obj, attr, value)

        if i18n.get_language() != i18n.SOURCE:
            cmd: click.Command = self  # type: ignore[assignment]
            for attr in ("help", "short_help"):
                if getattr(cmd, attr, None):
                    put(cmd, attr, translate_help(getattr(cmd, attr)))
            name = "gamao" if isinstance(cmd, click.Group) else cmd.name
            if cmd.epilog and name in exit_codes.MEANINGS and cmd.epilog == exit_codes.epilog_for(name):
                put(cmd, "epilog", exit_codes.help_for(name))
            for p in cmd.params:
                if getattr(p, "help", None):
                    put(p, "help", translate_help(p.help))  # type: ignore[attr-defined]
        if ctx is not None:
            # click makes its help option once, in the language of that run
            help_option = self.get_help_option(ctx)  # type: ignore[attr-defined]
            if help_option is not None:
                put(help_option, "help", _stdlib_gettext.gettext("Show this message and exit."))
        try:
            yield
        finally:
            for obj, attr, value in reversed(saved):
                setattr(obj, attr, value)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with self._translated(ctx):
            super().format_help(ctx, formatter)  # type: ignore[misc]

    def get_short_help_str(self, limit: int = 45) -> str:
        with self._translated():
            return super().get_short_help_str(limit)  # type: ignore[misc]


class Command(_Translated, click.Command):
    """A ``gamao`` command whose help speaks the session's language."""


class Group(_Translated, click.Group):
    """The ``gamao`` group: its help speaks the session's language, and a
    run of it is a :func:`session`."""

    def main(self, args: Sequence[str] | None = None, *a, **kw):  # type: ignore[override]
        import sys
        argv = list(sys.argv[1:] if args is None else args)
        with session(lang_from_args(argv)):
            return super().main(argv, *a, **kw)


def print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``: click's words, in the session's language."""
    if not value or ctx.resilient_parsing:
        return
    from gamao_cli import __version__
    click.echo(_stdlib_gettext.gettext("%(prog)s, version %(version)s")
               % {"prog": "gamao", "version": __version__})
    ctx.exit()
