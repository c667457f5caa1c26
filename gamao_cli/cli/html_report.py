"""``gamao validate --format html``: a folder holding the report page
(``index.html``) and a replay page of every file with findings, each
diagnostic of the report linking to its position there."""
from __future__ import annotations

import os
import re
from typing import Iterable

from gamao_cli.formats.textio import (atomic_write, atomic_write_soon, folders_synced_at_end,
                                      link_refused, one_behind, writes_settled_in_background,
                                      xml_safe)



def page_name(path: str, taken: set[str]) -> str:
    """A file name for the replay page of ``path``, unique in the folder."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(path) or "stdin").strip("._") or "file"
    name, n = f"{stem}.html", 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}.html"
    taken.add(name)
    return name


def _check_folder(path: str) -> None:
    """Refuse a report folder (or its ``pages/``) that is a symbolic link:
    the pages would be written wherever it leads."""
    from gamao_cli.errors import OutputError
    from gamao_cli.i18n import _
    if os.path.islink(path):
        raise OutputError(_("{folder}: is a symbolic link; gamao writes the report only into a "
                            "real folder; nothing was written").format(folder=path))


def write_html_report(results: Iterable, folder: str, force: bool = False) -> str:
    """Write the report and the replay pages; return the report's path.
    Raises :class:`gamao_cli.errors.OutputError` when the folder cannot be
    written (nothing partial is left: each page is written atomically) or,
    without ``force``, when a page of it is there already (checked before
    any page is written). No page is written through a symbolic link."""
    from gamao_cli.formats import members
    from gamao_cli.errors import InputError, OutputError
    from gamao_cli.i18n import _
    from gamao_cli.render.html import report_page

    results = list(results)
    pages_dir = os.path.join(folder, "pages")
    _check_folder(folder)
    _check_folder(pages_dir)
    todo: list[tuple[object, str, list]] = []
    taken: set[str] = set()
    for r in results:
        if r.unreadable or not r.diagnostics or r.path == "<stdin>":
            continue
        try:
            matches = members.read_path(r.path)
        except InputError:
            continue
        todo.append((r, page_name(r.path, taken), matches))
    index = os.path.join(folder, "index.html")
    if not force:
        for target in [index] + [os.path.join(pages_dir, name) for _r, name, _m in todo]:
            if os.path.islink(target):
                raise OutputError(link_refused(target))
            if os.path.lexists(target):
                raise OutputError(_("{path}: already exists (use --force to overwrite it); "
                                    "nothing was written").format(path=target))
    try:
        os.makedirs(pages_dir, exist_ok=True)
    except OSError as exc:
        raise OutputError(_("{folder}: cannot make the report's folder ({reason})").format(
            folder=folder, reason=exc.strerror)) from None
    _check_folder(pages_dir)
    links: dict[str, str] = {}
    with folders_synced_at_end():
        _write_pages(todo, pages_dir, links, force)
    atomic_write(index, xml_safe(report_page(results, links)), force=force)
    return index


def _write_pages(todo, pages_dir: str, links: dict[str, str], force: bool) -> None:
    """Each record's page into ``pages_dir`` (its link into ``links``)."""
    from gamao_cli.replay.replay import Replays
    replays = Replays()
    # each page's sync to disk and rename settle while the next page is made
    # (as convert's outputs do); a page that fails as it settles stops the
    # report before the page after the next is made
    with writes_settled_in_background():
        for settle in one_behind(_staged_pages(todo, pages_dir, links, force, replays)):
            settle()   # (raises the OutputError of its page)


def _staged_pages(todo, pages_dir: str, links: dict[str, str], force: bool, replays):
    """Each record's page written to its temporary file, as the call that
    settles it (:func:`atomic_write_soon`)."""
    from gamao_cli.cli import collector_paused
    from gamao_cli.render.html import replay_page_parts
    for r, name, matches in todo:
        # (as convert --to html writes a page: piece by piece, the collector
        # paused while it is made)
        with collector_paused():
            parts = replay_page_parts([(mt, replays.of(mt)) for mt in matches], path=r.path)
            settle = atomic_write_soon(os.path.join(pages_dir, name), parts,
                                       force=force)   # (XML-safe)
        links[r.path] = f"pages/{name}"
        yield settle
