"""``gamao export``'s work, apart from the command line: finding the
inputs, cutting them into partitions, and turning one partition into one
part file of each table.

The plan is the same whoever runs it: :func:`plan` lists the inputs
(folders searched as ``validate`` searches them, plus archives; a ``.zip``
is opened to list its members, which are spread over partitions like
files; a tar, compressed or not, and a ``.gz`` are read whole by one task)
and cuts them, in input order, into partitions of at most
:data:`PART_FILES` inputs or :data:`PART_BYTES` bytes. Partition ``k``
writes ``matches/part-k``, ``games/part-k`` and ``actions/part-k``
(:func:`run_partition`), so a run with one process, with ``--jobs N`` or on
a Dask cluster writes the same files with the same rows in the same order;
reading ``DIR/actions/*.parquet`` in name order gives the input order.

Memory: a task holds one match (and its replay) at a time and at most
:data:`~gamao_cli.tables.writers.BATCH_ROWS` rows per table; the client
holds the plan (a few dozen bytes an input) and each partition's counts.
"""
from __future__ import annotations

import contextlib
import dataclasses
import fnmatch
import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from gamao_cli import formats
from gamao_cli import model as m
from gamao_cli.errors import InputError
from gamao_cli.formats import archives
from gamao_cli.i18n import _, ngettext
from gamao_cli.replay.diagnostics import Diagnostic

from . import storage
from .rows import ACTION_CELLS, match_rows
from .schema import TABLES
from .writers import ENDINGS, WRITERS

#: A partition holds at most this many inputs (files or zip members)...
PART_FILES = 256
#: ... or about this many bytes of input.
PART_BYTES = 8 << 20


@dataclass(frozen=True)
class Item:
    """One input of a partition: a file (``kind="file"``), one member of a
    zip, or a whole tar or ``.gz``; ``path`` is a local path or a URL."""

    path: str
    kind: str
    member: str | None = None
    size: int = 0


@dataclass(frozen=True)
class Partition:
    index: int
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Job:
    """What every task needs to know: the output folder (a path or URL every
    worker reaches), the output form, and which archive members to take."""

    out: str
    to: str = "parquet"
    globs: tuple[str, ...] = ()
    #: the client's working folder: a worker started elsewhere finds the
    #: relative paths the command was given there (the tables keep them as
    #: given, so a cluster's rows are a local run's)
    cwd: str = ""

    def local(self, path: str) -> str:
        """Where a worker opens ``path``."""
        if storage.is_url(path) or os.path.isabs(path) or not self.cwd:
            return path
        return os.path.join(self.cwd, path)


@dataclass
class PartResult:
    """What a task sends back: counts, and the diagnostics of the inputs it
    could not read (the records' own diagnostics are in the tables)."""

    index: int
    files: int = 0
    matches: int = 0
    games: int = 0
    actions: int = 0
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    unreadable: int = 0
    internal_error: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: why the part could not be written (the output's fault, not an
    #: input's): the export stops and the earlier one is kept
    output_error: str = ""


def part_name(index: int, to: str) -> str:
    return f"part-{index:05d}{ENDINGS[to]}"


# -- the plan ------------------------------------------------------------------

def _taken(name: str, globs: tuple[str, ...]) -> bool:
    if name.startswith("."):
        return False
    if globs:
        return any(fnmatch.fnmatch(name, g) for g in globs)
    return name.lower().endswith(formats.file_endings()) or archives.is_archive_name(name)


def iter_inputs(paths: Iterable[str], globs: tuple[str, ...] = ()) -> Iterator[str]:
    """Every input file: files as given, folders searched recursively for
    match records and archives (or files matching ``globs``), links
    followed, each real folder once; URLs listed through ``fsspec``."""
    seen: set[str] = set()
    for p in paths:
        if storage.is_url(p):
            folder, files = storage.list_url(p)
            for f in files:
                if not folder or _taken(f.rstrip("/").rsplit("/", 1)[-1], globs):
                    yield f
            continue
        if not os.path.isdir(p):
            yield p
            continue
        for root, dirs, names in os.walk(p, followlinks=True):
            real = os.path.realpath(root)
            if real in seen:
                dirs[:] = []
                continue
            seen.add(real)
            dirs.sort()
            for name in sorted(names):
                if _taken(name, globs):
                    yield os.path.join(root, name)


def _read_once(path: str) -> bool:
    import stat
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def items_of(path: str, globs: tuple[str, ...] = ()) -> list[Item]:
    """The items of one input: itself, or a zip's members. Raises
    :class:`InputError` for an archive that cannot be listed."""
    if not storage.is_url(path) and _read_once(path):
        # a FIFO or device: looking at its first bytes would consume them;
        # it is read whole, once, as a record (formats.base.Source)
        return [Item(path, "file", None, 0)]
    op = storage.opener(path)
    kind = archives.kind_of_path(path, op)
    size = storage.size(path)
    if kind == "zip":
        return [Item(path, "zip", mem.name, mem.size)
                for mem in archives.list_members(path, "zip", globs=globs, opener=op)]
    if kind in ("tar", "gz"):
        return [Item(path, kind, None, size * 4)]
    return [Item(path, "file", None, size)]


def plan(paths: Iterable[str], globs: tuple[str, ...] = (), part_files: int = PART_FILES,
         part_bytes: int = PART_BYTES) -> tuple[list[Partition], list[Diagnostic]]:
    """The partitions of the inputs, and the diagnostics of archives that
    could not even be listed."""
    from gamao_cli.replay.check import input_error_diagnostic
    parts: list[Partition] = []
    problems: list[Diagnostic] = []
    current: list[Item] = []
    held = 0

    def close() -> None:
        nonlocal current, held
        if current:
            parts.append(Partition(len(parts), tuple(current)))
            current, held = [], 0

    for path in iter_inputs(paths, globs):
        try:
            items = items_of(path, globs)
        except InputError as exc:
            problems.append(input_error_diagnostic(exc))
            continue
        for item in items:
            if current and (len(current) >= part_files or held + item.size > part_bytes):
                close()
            current.append(item)
            held += max(item.size, 0)
    close()
    return parts, problems


# -- one partition ---------------------------------------------------------------

_URL_HEAD = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")
_KEY_ESCAPED = re.compile("[%!\ud800-\udfff]")


def _key_escape(m: "re.Match[str]") -> str:
    c = ord(m.group())
    if 0xDC80 <= c <= 0xDCFF:     # a byte that is no UTF-8 (os.fsdecode's surrogate)
        return f"%{c - 0xDC00:02X}"
    if c >= 0xD800:               # another lone surrogate (from a JSON name, say)
        return f"%u{c:04X}"
    return f"%{c:02X}"


def path_key(path: str) -> str:
    """The ``path`` column of a file: its name as given, except that a
    byte that is no UTF-8 is ``%XX``, another lone surrogate ``%uXXXX``, and
    ``%`` and ``!`` are ``%25`` and ``%21`` (a URL's ``scheme://`` kept):
    lossless, and no file's key is a member's (below), whose ``!`` is the
    only one left.

    >>> path_key("a/b.mat"), path_key("x.zip!m.mat"), path_key("bad" + chr(0xDCFF) + ".mat")
    ('a/b.mat', 'x.zip%21m.mat', 'bad%FF.mat')
    """
    if not _KEY_ESCAPED.search(path):
        return path
    head = _URL_HEAD.match(path)
    cut = head.end() if head else 0
    return path[:cut] + _KEY_ESCAPED.sub(_key_escape, path[cut:])


def member_key(archive: str, name: str) -> str:
    """The ``path`` column of an archive member: the archive's key, ``!``,
    the member's name (``%``, bytes that are no UTF-8 and lone surrogates
    escaped as in :func:`path_key`; a ``!`` kept, since the first bare one
    ends the archive's key): ``archive.zip!member.mat``, as every command
    names a member.

    >>> member_key("x.zip", "m.mat"), member_key("a!b.zip", "c!d%.mat")
    ('x.zip!m.mat', 'a%21b.zip!c!d%25.mat')
    """
    inner = name if not re.search("[%\ud800-\udfff]", name) else \
        re.sub("[%\ud800-\udfff]", _key_escape, name)
    return f"{path_key(archive)}!{inner}"


def _renamed(label: str, name: str, key: str) -> InputError:
    why = "GM011.bytes" if re.search("[\ud800-\udfff]", name) else "GM011.escape"
    from gamao_cli.messages import Msg
    return InputError(path=label, key="GM011", fields={"name": name, "key": key,
                                                       "why": Msg(why, {})})


def _sources(items: tuple[Item, ...], job: Job):
    """(label, key, source or None, error) for each input of a partition,
    in order (``key``: its ``path`` in the tables); consecutive members of
    one zip are read in one pass over it. A member stored under another
    key than its name is said so (an info, GM011) before it."""
    i = 0
    while i < len(items):
        item = items[i]
        if item.kind == "file":
            i += 1
            key = path_key(item.path)
            if storage.is_url(item.path):
                try:
                    data = storage.read_bytes(item.path)
                except InputError as exc:
                    yield item.path, key, None, exc
                    continue
                yield item.path, key, formats.Source.from_bytes(data, label=item.path), None
            else:
                yield item.path, key, formats.Source(job.local(item.path), label=item.path), \
                    None
            continue
        if item.kind == "zip":
            j = i
            while j < len(items) and items[j].kind == "zip" and items[j].path == item.path:
                j += 1
            names = [it.member for it in items[i:j]]
            i = j
        else:
            names = None
            i += 1
        try:
            it = archives.iter_members(job.local(item.path), item.kind, names=names,
                                       globs=job.globs, opener=storage.opener(item.path),
                                       label=item.path)
            while True:
                try:
                    got = next(it)
                except StopIteration:
                    break
                except InputError as exc:  # the archive itself: nothing more of it
                    yield exc.path or item.path, path_key(item.path), None, exc
                    break
                # named as every command names a member: archive.zip!member.mat
                raw = got.path if isinstance(got, InputError) else got.label
                name = raw[len(item.path) + 1:] if raw.startswith(item.path + ":") else ""
                label = _member_label(item.path, raw)
                key = member_key(item.path, name) if name else path_key(raw)
                if isinstance(got, InputError):
                    got = dataclasses.replace(got, path=label)
                    yield label, key, None, got
                    continue
                if name and key.partition("!")[2] != name:
                    yield label, key, None, _renamed(label, name, key)
                yield label, key, formats.Source.from_bytes(got.read_bytes(), label=label), None
        except InputError as exc:  # a URL that cannot be opened
            yield item.path, path_key(item.path), None, exc


def _member_label(archive: str, label: str) -> str:
    """``archive!member`` for the archive module's ``archive:member``."""
    from gamao_cli.formats.members import member_name
    prefix = archive + ":"
    return member_name(archive, label[len(prefix):]) if label.startswith(prefix) else label


#: :func:`_sources` for the archive tools (``gamao dedupe``, ``gamao select``),
#: which read the partitions of :func:`plan` as export does.
iter_sources = _sources


def run_partition(job: Job, part: Partition) -> PartResult:
    """Read every input of ``part`` and write its rows as part
    ``part.index`` of each table under ``job.out``. Never raises for bad
    input: an input that cannot be read is a diagnostic (and counted), a bug
    of gamao on one input a GM008 diagnostic, and the task goes on."""
    from gamao_cli.errors import OutputError
    result = PartResult(part.index)
    try:
        _write_partition(job, part, result)
    except OutputError as exc:
        result.output_error = str(exc)
    except OSError as exc:   # the output folder refuses (read-only, full, gone)
        from gamao_cli.formats.textio import os_reason
        where = exc.filename if isinstance(exc.filename, str) else job.out
        result.output_error = _("{path}: cannot write: {reason}").format(
            path=where, reason=os_reason(exc))
    return result


def _write_partition(job: Job, part: Partition, result: PartResult) -> None:
    from gamao_cli.replay.check import input_error_diagnostic, internal_error_diagnostic
    out = storage.Output(job.local(job.out))
    out.makedirs("matches")
    out.makedirs("games")
    out.makedirs("actions")
    out.makedirs("decisions")
    name = part_name(part.index, job.to)
    writer_cls = WRITERS[job.to]
    with out.open("matches", name) as fm, out.open("games", name) as fg, \
            out.open("actions", name) as fa, out.open("decisions", name) as fd:
        writers = {"matches": writer_cls(fm, "matches"), "games": writer_cls(fg, "games"),
                   "actions": writer_cls(fa, "actions"),
                   "decisions": writer_cls(fd, "decisions")}
        for label, key, source, problem in _sources(part.items, job):
            if problem is not None and problem.key == "GM011":   # said, then read
                result.diagnostics.append(input_error_diagnostic(problem))
                continue
            result.files += 1
            if problem is not None:
                result.unreadable += 1
                result.diagnostics.append(input_error_diagnostic(problem))
                continue
            _export_source(source, label, writers, result, input_error_diagnostic,
                           internal_error_diagnostic, key=key)
        for w in writers.values():
            w.close()


_RANGES = {"int8": 1 << 7, "int16": 1 << 15, "int32": 1 << 31, "int64": 1 << 63}
_INT_COLUMNS = {t: [(c.name, _RANGES[c.type]) for c in cols if c.type in _RANGES]
                for t, cols in TABLES.items()}
#: the action columns whose figures can outgrow their game's (a stated cube value)
_ACTION_CHECKED = [(n, r) for n, r in _INT_COLUMNS["actions"] if n in ("cube_value", "points")]
#: the same, each with its place in an action's cells (``ActionTable.cols``)
_ACTION_CHECKED_AT = [(ACTION_CELLS.index(n), n, r) for n, r in _ACTION_CHECKED]


def _out_of_range(rows, label: str, match=None) -> InputError | None:
    """The GM012 error of a match holding a figure its table's column
    cannot hold (a length or score of thousands of digits in an int32),
    checked before any row of it is written; None when all fit. With
    ``match`` (the match the rows are of), the error names where the
    record states that figure: the action's line and column, the game's
    score line (its heading for the game's other figures), the match's
    first line."""
    def check(table: str, row: dict, columns, where=None) -> InputError | None:
        for name, bound in columns:
            v = row.get(name)
            if v is not None and not -bound <= v < bound:
                shown = str(v) if -10 ** 18 < v < 10 ** 18 else None
                path, line, column = _figure_place(label, where, name)
                return InputError(path=path, line=line, column=column,
                                  key="GM012" if shown else "GM012.long",
                                  fields={"column": f"{table}.{name}", "value": shown,
                                          "type": next(c.type for c in TABLES[table]
                                                       if c.name == name)})
        return None
    games = match.games if match is not None else []
    problem = check("matches", rows.match, _INT_COLUMNS["matches"], match)
    for gi, g in enumerate(rows.games):
        problem = problem or check("games", g, _INT_COLUMNS["games"],
                                   games[gi] if gi < len(games) else None)
    if problem is None:   # the first action with a figure out of range
        cols = rows.action_table.cols
        found = [(k, order, at, name, bound)   # each column's first, the first row's first
                 for order, (at, name, bound) in enumerate(_ACTION_CHECKED_AT)
                 if (k := _first_outside(cols[at], bound)) is not None]
        if found:
            k, _order, at, name, bound = min(found)
            return check("actions", {name: cols[at][k]}, [(name, bound)], _action_at(games, k))
    return problem


def _first_outside(column: list, bound: int) -> int | None:
    """The first row of ``column`` whose figure an int column of ``bound``
    cannot hold (None: every one fits)."""
    return next((k for k, v in enumerate(column) if v is not None and not -bound <= v < bound),
                None)


def _action_at(games, k: int):
    """``(game, action)``: the ``k``-th action of the games, counted across
    them (the order of :attr:`ActionTable.cols`); None past the last."""
    for g in games:
        if k < len(g.actions):
            return g, g.actions[k]
        k -= len(g.actions)
    return None


def _figure_place(label: str, where, column: str) -> tuple[str, int | None, int | None]:
    """``(path, line, column)`` of the element of the record that states a
    figure of ``column``: an action, a game (a score: its score line), the
    match (its final score: the last game's score line); a place the reader did not record (0) is None. A game read from
    a file of its own (GNU Backgammon's text export) is in that file."""
    path = label
    if where is None:
        return path, None, None
    if isinstance(where, tuple):   # an action, in its game
        game, where = where
        path = game.path or path
    elif isinstance(where, m.Match) and column.startswith("score") and where.games:
        where = where.games[-1]   # the final score: the last game's score line
    if isinstance(where, m.Game):
        path = where.path or path
        if column.startswith("score") and where.score is not None and where.score.line:
            where = where.score
    return path, where.line or None, (where.column or None) if where.line else None


def _export_source(source, label, writers, result, input_error_diagnostic,
                   internal_error_diagnostic, key: str | None = None) -> None:
    where = "reading"
    index = 0
    try:
        fmt = formats.detect(source.head()).name
        for match in formats.read_source(source):
            where = "checking"
            rows = match_rows(match, path=label if key is None else key, index=index, fmt=fmt)
            too_big = _out_of_range(rows, label, match)
            if too_big is not None:   # this match only: the file's others are exported
                result.unreadable += 1
                result.diagnostics.append(input_error_diagnostic(too_big))
                index += 1
                where = "reading"
                continue
            writers["matches"].add([rows.match])
            writers["games"].add(rows.games)
            writers["actions"].add(rows.action_table)
            writers["decisions"].add(rows.decisions)
            result.matches += 1
            result.games += len(rows.games)
            result.actions += len(rows.action_table)
            result.errors += rows.match["errors"]
            result.warnings += rows.match["warnings"]
            result.infos += rows.match["infos"]
            index += 1
            where = "reading"
    except InputError as exc:
        result.unreadable += 1
        d = input_error_diagnostic(exc)
        if index:
            d.message += " " + ngettext("(the match before it is in the tables)",
                                        "(the {n} matches before it are in the tables)",
                                        index).format(n=index)
        result.diagnostics.append(d)
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except Exception as exc:  # a bug in gamao: say so, go on with the next input
        if os.environ.get("GAMAO_DEBUG") == "1":
            raise
        result.unreadable += 1
        result.internal_error = True
        result.diagnostics.append(internal_error_diagnostic(exc, label, where))


# -- running the partitions ------------------------------------------------------------

class Staging:
    """Where an export is written before it replaces the earlier one.

    :func:`prepare_output` checks the output folder ``out`` (an earlier
    export there is refused unless ``force``) and changes nothing; then
    :meth:`create` makes a new folder inside ``out``
    (``out/.gamao-export-<id>/``, beside the table folders, so that the
    rename that swaps it in stays on one file system) with ``matches/``,
    ``games/`` and ``actions/``, into which every partition writes.
    :meth:`commit`, once every part is written, swaps each new table
    folder in for the old one (whatever else the old folder held is moved
    into the new one; a table folder that is a symbolic link is replaced as
    a link, its target left as it was) and removes the old parts;
    :meth:`discard`, on any failure before, removes the new folder, so the
    earlier export stays as it was. On a URL (object stores have no
    rename) the new parts are written under ``out/.gamao-export-<id>/`` the
    same way and moved into place, each over the old part of its name, only
    once all are written; then the old parts left over are removed.
    """

    def __init__(self, out: str, force: bool):
        import uuid
        self.out = out
        self.force = force
        self.output = storage.Output(out)
        self.id = uuid.uuid4().hex[:12]
        self.name = f".gamao-export-{self.id}"
        self.stage = self.output.join(self.name)
        self.created = False
        #: old table folders that could not be removed after the swap
        self.leftovers: list[str] = []

    def check(self) -> None:
        from gamao_cli.errors import OutputError
        o = self.output
        if not o.remote:
            if os.path.exists(self.out) and not os.path.isdir(self.out):
                raise OutputError(_("{path}: is not a folder").format(path=self.out))
            for t in TABLES:
                if os.path.islink(o.join(t)) and not self.force:
                    raise OutputError(_(
                        "{path}: is a symbolic link; gamao does not write through it (--force "
                        "replaces the link itself, never its target)").format(path=o.join(t)))
        old = [(t, n) for t in TABLES for n in o.list(t) if n.startswith("part-")]
        if old and not self.force:
            raise OutputError(_("{folder} already holds part files of an export; choose another "
                                "folder or use --force to replace them").format(
                                    folder=o.join(old[0][0])))

    def create(self) -> None:
        for t in TABLES:
            self.output.makedirs(self.name, t)
        self.created = True

    def commit(self) -> None:
        from gamao_cli.errors import OutputError
        o = self.output
        try:
            if o.remote:
                self._commit_remote()
            else:
                self._commit_local()
        except OSError as exc:
            raise OutputError(_("{path}: cannot put the new tables in place: {reason}").format(
                path=self.out, reason=exc)) from None

    def _commit_local(self) -> None:
        """Swap the new table folders in: first every old one is renamed
        aside (undone if one cannot be), then every new one is renamed into
        place, then the old ones are removed."""
        import shutil
        o = self.output
        moved: list[tuple[str, str]] = []     # (from, to) renames done, to undo on failure
        try:
            for t in TABLES:
                old, new = o.join(t), o.join(self.name, t)
                if os.path.isdir(old) and not os.path.islink(old):
                    for n in sorted(os.listdir(old)):   # what is not a part of the export stays
                        if not n.startswith(("part-", ".part-")):
                            os.rename(os.path.join(old, n), os.path.join(new, n))
                            moved.append((os.path.join(old, n), os.path.join(new, n)))
                if os.path.lexists(old):
                    aside = o.join(f".gamao-old-{self.id}-{t}")   # a link moves as a link
                    os.rename(old, aside)
                    moved.append((old, aside))
        except OSError:
            for a, b in reversed(moved):
                with contextlib.suppress(OSError):
                    os.rename(b, a)
            raise
        for t in TABLES:
            os.rename(o.join(self.name, t), o.join(t))
        os.rmdir(o.join(self.name))
        self.created = False
        for t in TABLES:
            aside = o.join(f".gamao-old-{self.id}-{t}")
            if os.path.islink(aside):
                os.unlink(aside)
            elif os.path.lexists(aside):
                shutil.rmtree(aside, ignore_errors=True)   # never follows a link
                if os.path.lexists(aside):
                    self.leftovers.append(aside)

    def _commit_remote(self) -> None:
        o = self.output
        base = o.inner.rstrip("/")
        for t in TABLES:
            o.makedirs(t)
            new = o.list(f"{self.name}/{t}")
            for n in new:   # each new part over the old one of its name...
                o.fs.mv(f"{base}/{self.name}/{t}/{n}", f"{base}/{t}/{n}")
            for n in o.list(t):   # ... then the old parts the new export has not
                if n.startswith("part-") and n not in new:
                    o.remove(t, n)
        self.discard()

    def discard(self) -> None:
        """Remove the new folder (best effort: a failure is already being said)."""
        if not self.created:
            return
        self.created = False
        o = self.output
        try:
            if o.remote:
                path = f"{o.inner.rstrip('/')}/{self.name}"
                if o.fs.exists(path):
                    o.fs.rm(path, recursive=True)
            else:
                import shutil
                shutil.rmtree(self.stage, ignore_errors=True)
        except Exception:
            pass


def prepare_output(out: str, force: bool) -> Staging:
    """The :class:`Staging` of an export into ``out``, checked: a folder
    that already holds part files is refused unless ``force``. Nothing is
    written or removed yet."""
    staging = Staging(out, force)
    staging.check()
    return staging


def _call(args: tuple[Job, Partition]) -> PartResult:
    return run_partition(*args)


def run_local(job: Job, parts: list[Partition], jobs: int = 1) -> Iterator[PartResult]:
    """The partitions' results in order, in ``jobs`` worker processes."""
    if jobs <= 1 or len(parts) <= 1:
        for p in parts:
            yield run_partition(job, p)
        return
    from gamao_cli.i18n import InLanguage
    from gamao_cli.worker_pool import Quietly, new_pool, watched
    with new_pool(min(jobs, len(parts))) as pool:   # (its end terminates the workers)
        yield from watched(pool, pool.imap(Quietly(InLanguage(_call)), [(job, p) for p in parts],
                                           chunksize=1))
