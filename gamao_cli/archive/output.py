"""Writing the matches an archive command keeps into one folder
(``gamao dedupe --out-dir``, ``gamao select -o``): one file a match, each
written atomically (:func:`gamao_cli.formats.textio.atomic_write`), never
over an existing file without ``--force``, never over an input, and never
through a link that leads out of the folder.

A match that is the only one of its input is written as the input's bytes
(its format, analysis and everything else kept), unless a format is asked
for; else it is converted, to that format or, when none is asked, to its
own (gamao JSON when gamao cannot write its own).

>>> f = Folder("out", force=False)
>>> f.name_for(Where("a/m.mat"), 0, alone=True), f.name_for(Where("b/M.mat"), 0, alone=True)
('m.mat', 'M-2.mat')
>>> f.name_for(Where("z.zip", "zip", "x/games.txt"), 1, alone=False, ending=".sgf")
'games-2.sgf'
"""
from __future__ import annotations

import os
import posixpath
from typing import Callable

from gamao_cli import formats
from gamao_cli.errors import OutputError
from gamao_cli.i18n import _

from .dedupe import Where


class Folder:
    """The output folder and the names given in it so far."""

    def __init__(self, folder: str, force: bool = False):
        self.folder = folder
        self.force = force
        self._taken: set[str] = set()

    def make(self) -> None:
        """Create the folder (a usage problem when it cannot be)."""
        from gamao_cli.tables import storage
        if storage.is_url(self.folder):
            raise OutputError(_("{folder}: the copies are written into a local folder, not a "
                                "URL").format(folder=self.folder))
        try:
            os.makedirs(self.folder, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror.lower() if exc.strerror else str(exc)
            if isinstance(exc, (NotADirectoryError, FileExistsError)):
                reason = _("a part of the path is a file, not a folder")
            raise OutputError(_("{folder}: cannot create the folder: {reason}").format(
                folder=self.folder, reason=reason)) from None

    def name_for(self, where: Where, index: int, alone: bool, ending: str | None = None) -> str:
        """A name in the folder for match ``index`` of the input at
        ``where``: the input's own name (its member's, in an archive), with
        ``-N`` after the stem for the N-th match of an input holding several
        and for a name already given (names that differ only in case are
        the same name: some file systems say so)."""
        base = posixpath.basename((where.member or where.path).replace("\\", "/"))
        base = base.lstrip(".") or "match"
        stem, ext = os.path.splitext(base)
        if ending is not None:
            ext = ending
        if not alone:
            stem = f"{stem}-{index + 1}"
        name = stem + ext
        n = 1
        while name.casefold() in self._taken:
            n += 1
            name = f"{stem}-{n}{ext}"
        self._taken.add(name.casefold())
        return name

    def target(self, name: str) -> str:
        """The path of ``name`` in the folder, refused when it is a link
        that leads out of the folder."""
        path = os.path.join(self.folder, name)
        if os.path.islink(path):
            inside = os.path.realpath(self.folder)
            real = os.path.realpath(path)
            if os.path.commonpath([inside, real]) != inside:
                raise OutputError(_("{path}: is a link to {real}, outside {folder}; nothing was "
                                    "written").format(path=path, real=real, folder=self.folder))
        return path

    def write_soon(self, name: str, data, inputs: tuple[str, ...] = ()) -> Callable[[], bool]:
        """Write ``data`` (bytes, or a writer's chunks) as ``name``, the files
        ``inputs`` never written over; its end (the sync to disk, the rename)
        is left to the innermost
        :func:`~gamao_cli.formats.textio.writes_settled_in_background`
        block's thread, if any: the returned call waits for it. Raises
        :class:`OutputError` (nothing left behind) when it cannot be written,
        here or from that call."""
        from gamao_cli.formats.textio import atomic_write_soon
        path = self.target(name)
        for src in inputs:
            try:
                if os.path.exists(path) and os.path.samefile(src, path):
                    raise OutputError(_("{path}: is the input itself; nothing was written")
                                      .format(path=path))
            except OSError:
                pass
        return atomic_write_soon(path, data, force=self.force)


def payload(source, index: int, alone: bool, to: str | None):
    """What to write for match ``index`` of ``source`` (a
    :class:`~gamao_cli.formats.Source`): its bytes, or the match
    converted (see the module's text); and the ending of the name, None
    for the input's own. Raises gamao's ``InputError`` or ``WriteRefused``."""
    fmt = formats.detect(source.head())
    if alone and to is None:
        return source.read_bytes(), None
    target = to or (fmt.name if fmt.capabilities.write else "json")
    matches = formats.read_source(source)
    for i, match in enumerate(matches):
        if i == index:
            conv = formats.get(target).write([match])
            ending = None if to is None and target == fmt.name else \
                formats.get(target).extensions[0]
            return conv.iter_chunks(), ending
    raise OutputError(_("{path}: holds no match {number} any more; nothing was written").format(
        path=source.label, number=index + 1))
