"""``gamao validate --format html``: a folder holding the report page
(``index.html``) and a replay page of every file with findings, each
diagnostic of the report linking to its position there."""
from __future__ import annotations

import os
import re
from typing import Iterable

from gamao_cli.formats.textio import atomic_write, escape_surrogates



def page_name(path: str, taken: set[str]) -> str:
    """A file name for the replay page of ``path``, unique in the folder."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(path) or "stdin").strip("._") or "file"
    name, n = f"{stem}.html", 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}.html"
    taken.add(name)
    return name


def write_html_report(results: Iterable, folder: str) -> str:
    """Write the report and the replay pages; return the report's path.
    Raises :class:`gamao_cli.errors.OutputError` when the folder cannot be
    written (nothing partial is left: each page is written atomically)."""
    from gamao_cli.formats import members
    from gamao_cli.errors import InputError, OutputError
    from gamao_cli.render.html import replay_page, report_page
    from gamao_cli.replay.replay import Replays

    results = list(results)
    try:
        os.makedirs(os.path.join(folder, "pages"), exist_ok=True)
    except OSError as exc:
        from gamao_cli.i18n import _
        raise OutputError(_("{folder}: cannot make the report's folder ({reason})").format(
            folder=folder, reason=exc.strerror)) from None
    links: dict[str, str] = {}
    taken: set[str] = set()
    replays = Replays()
    for r in results:
        if r.unreadable or not r.diagnostics or r.path == "<stdin>":
            continue
        try:
            matches = members.read_path(r.path)
        except InputError:
            continue
        name = page_name(r.path, taken)
        page = replay_page([(mt, replays.of(mt)) for mt in matches], path=r.path)
        atomic_write(os.path.join(folder, "pages", name), escape_surrogates(page), force=True)
        links[r.path] = f"pages/{name}"
    index = os.path.join(folder, "index.html")
    atomic_write(index, escape_surrogates(report_page(results, links)), force=True)
    return index
