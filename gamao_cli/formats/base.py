"""The one interface every format implements, and what it reads from and writes.

A format is a class with a name, its file endings, what it can do
(:class:`Capabilities`), a sniffer that looks at the first bytes of an input
*before* any decoding, a reader that yields matches from a :class:`Source`,
and a writer that turns matches into a :class:`WriteResult` (the data and
coded notes about what the target format could not hold). The registry in
:mod:`gamao_cli.formats` lists them in detection order.
"""
from __future__ import annotations

import codecs
import os
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Iterator, Protocol, Sequence

from gamao_cli.errors import InputError

from . import textio

if TYPE_CHECKING:  # pragma: no cover
    from gamao_cli.model import Match
    from gamao_cli.replay.replay import Replays

#: How many bytes of an input the sniffers see.
HEAD_SIZE = 64 * 1024
#: The most bytes read from an input that can be read only once (a FIFO, a
#: device): it is held in memory whole.
STREAM_LIMIT = 1 << 30


class LazyAnalysis(Mapping):
    """An action's analysis as a reader keeps it: a read-only, JSON-ready
    mapping made from the record only when first looked at (:meth:`_dict`,
    which each reader's subclass gives; checking a match decodes none of
    it), with the decisions model beside it (``decisions``). ``get("invalid")``
    answers without decoding: eXtreme Gammon's mark, which only its records
    carry (its subclass says it)."""

    __slots__ = ()

    def _dict(self) -> dict:   # pragma: no cover (every subclass has its own)
        raise NotImplementedError

    def get(self, key: str, default: Any = None) -> Any:
        if key == "invalid":
            return default
        return self._dict().get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self._dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._dict()!r})"

    def copy(self) -> dict:
        """The plain dict (a copy), as ``dict(analysis)`` makes it but without
        looking each key up through the mapping."""
        return dict(self._dict())

    def figures(self, names: Iterable[str]) -> dict[str, Any]:
        """``{name: self.get(name)}`` of ``names``, keys of the mapping's
        figures (``equity``, ``luck``, ...; not ``"decisions"``): what an
        export's columns read. A subclass that can gives them without making
        the whole mapping, whose ``"decisions"`` (every candidate as JSON)
        costs many times the figures."""
        return {name: self.get(name) for name in names}


class ParsedAnalysis(LazyAnalysis):
    """The analysis of a reader that parses it with the record (GNU
    Backgammon's text export, BGBlitz): the parsed dict as the mapping, with
    ``"decisions"`` added, and the decisions model made by ``decode(parsed,
    *args)`` when first read."""

    __slots__ = ("_parsed", "_decode", "_args", "_decisions", "_data")

    def __init__(self, parsed: dict, decode: Callable[..., Any], *args: Any):
        self._parsed = parsed
        self._decode = decode
        self._args: tuple | None = args
        self._decisions: Any = None
        self._data: dict | None = None

    def __bool__(self) -> bool:
        return True

    @property
    def decisions(self) -> Any:
        if self._args is not None:
            self._decisions = self._decode(self._parsed, *self._args)
            self._args = None
        return self._decisions

    def figures(self, names: Iterable[str]) -> dict[str, Any]:
        # the parsed dict holds them (the mapping adds only "decisions")
        parsed = self._parsed
        return {name: parsed.get(name) for name in names}

    def _dict(self) -> dict:
        if self._data is None:
            data = dict(self._parsed)
            a = self.decisions
            if a is not None:
                data["decisions"] = a.to_json()
            self._data = data
        return self._data


@dataclass(frozen=True)
class Capabilities:
    """What a format can do: ``read`` and ``write`` matches; ``streamable``:
    a big input is read match by match in bounded memory; ``binary``: its
    files are bytes, not text."""

    read: bool = True
    write: bool = True
    streamable: bool = False
    binary: bool = False


class Source:
    """One input: a file (``"-"`` is standard input) or bytes in memory.

    ``label`` names it in messages. The bytes are read on demand:
    :meth:`head` for sniffing, :meth:`read_bytes` for binary readers,
    :meth:`read_text` (and :meth:`decoded`, piece by piece, for big files)
    for text readers, which also set :attr:`encoding`. Operating-system
    errors become :class:`~gamao_cli.errors.InputError`.
    """

    def __init__(self, path: str, *, data: bytes | None = None, label: str | None = None):
        self.path = path
        self.label = label if label is not None else ("<stdin>" if path == "-" else path)
        self._data = data
        self._head: bytes | None = None
        self._whole: bytes | None = None   # a small file's bytes, read by head()
        self._head_is_all = False   # whether _head holds every byte of the file
        self.encoding: str | None = None

    @classmethod
    def from_bytes(cls, data: bytes, label: str = "") -> "Source":
        return cls(label, data=bytes(data), label=label)

    @property
    def in_memory(self) -> bool:
        return self._data is not None or self.path == "-" or self._is_stream()

    def _is_stream(self) -> bool:
        """Whether the path is a FIFO, a character device or another input
        that is not a regular file (``/dev/stdin``, ``<(cmd)``): it can be
        read only once, so it is read whole, once, and kept
        (:data:`STREAM_LIMIT` at most)."""
        if not hasattr(self, "_stream"):
            st = self._stat()
            self._stream = st is not None and not stat.S_ISREG(st.st_mode) \
                and not stat.S_ISDIR(st.st_mode)
        return self._stream

    def _stat(self) -> os.stat_result | None:
        """The path's ``os.stat``, asked once (None when it fails): a source
        is read once, right after it is made, and both :meth:`_is_stream`
        and :meth:`size` want it."""
        if not hasattr(self, "_st"):
            try:
                self._st = os.stat(self.path)
            except (OSError, ValueError):
                self._st = None
        return self._st

    def size(self) -> int | None:
        """The size in bytes of a regular file (None for streams and devices)."""
        if self._data is not None:
            return len(self._data)
        if self.path == "-":
            return None
        st = self._stat()
        if st is None:
            return None
        return st.st_size if stat.S_ISREG(st.st_mode) else None

    def _fail(self, exc: OSError, key: str = "GM004.cannot-read") -> InputError:
        return textio.cannot_read(self.label, exc, key)

    def read_bytes(self) -> bytes:
        """Every byte of the input (standard input is read once and kept)."""
        if self._data is None:
            if self.path == "-":
                try:
                    self._data = sys.stdin.buffer.read()
                except OSError as exc:
                    raise self._fail(exc, "GM004.cannot-read-stdin") from None
            elif self._is_stream():   # read once: a second open would find it empty
                self._data = textio.read_file_bytes(self.path, limit=STREAM_LIMIT)
            else:
                whole = self._whole   # read by head(), once
                if whole is not None:
                    self._whole = None
                    return whole
                return textio.read_file_bytes(self.path)
        return self._data

    def head(self, size: int = HEAD_SIZE) -> bytes:
        """The first ``size`` bytes (fewer for a shorter input). A regular
        file no bigger than the head is read whole, once: :meth:`read_bytes`
        then gives those bytes (most records are that small, and one read
        costs less than two)."""
        if self._head is None or (len(self._head) < size and not self._head_is_all):
            if self.in_memory:
                self._head = self.read_bytes()[:size]
            else:
                whole = self.size()
                if whole is not None and whole <= size:
                    self._whole = self._head = textio.read_file_bytes(self.path)
                    # every byte, read to the end: a later head, of any size,
                    # is these bytes (it read the file again, for each sniffer)
                    self._head_is_all = True
                else:
                    self._head = textio.read_file_head(self.path, size)
        return self._head[:size]

    def read_text(self) -> str:
        """The whole input decoded (:func:`~gamao_cli.formats.textio.decode_bytes`)."""
        text, self.encoding = textio.decode_bytes(self.read_bytes(), self.label)
        return text

    def decoded(self) -> textio.DecodedFile:
        """The input decoded piece by piece, for big files (a regular file only)."""
        decoded = textio.open_decoded(self.path)
        self.encoding = decoded.encoding
        return decoded


def head_text(head: bytes) -> str:
    """The first bytes of an input as text, for sniffing: UTF-16 (with a byte
    order mark, or guessed from its NUL bytes) or UTF-8, undecodable bytes
    replaced. Only the structure characters a sniffer looks for matter."""
    if head.startswith(codecs.BOM_UTF8):
        return head[3:].decode("utf-8", "replace")
    for bom, codec in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if head.startswith(bom):
            body = head[2:]
            return body[:len(body) & ~1].decode(codec, "replace")
    if 0 in head:
        guess = textio.guess_utf16(head)
        if guess is not None:
            return head[:len(head) & ~1].decode(guess, "replace")
    return head.decode("utf-8", "replace")


@dataclass(frozen=True)
class Note:
    """Something a writer says about its output (what the target format
    cannot hold, what only gamao reads back): a stable code and the fields
    of its message, rendered from the one message table
    (:mod:`gamao_cli.messages`)."""

    code: str
    fields: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)
    key: str | None = None   # the message variant, when the code has several

    @property
    def message(self) -> str:
        from gamao_cli.messages import render
        return render(self.key or self.code, self.fields)

    def __str__(self) -> str:
        return self.message


class WriteResult:
    """A writer's output: the data (text, or bytes for a binary format), its
    coded ``notes``, and how many errors the replay found in what was written
    (``gamao convert --strict`` refuses to write those).

    The data may be given whole (``text``, ``data``) or as ``chunks``, an
    iterable (a generator) that makes it piece by piece, so that a big match
    is written in bounded memory: :meth:`iter_chunks` hands the pieces over
    as they are made (once), :func:`~gamao_cli.formats.textio.atomic_write`
    takes them. A writer making chunks adds its notes and errors as it goes:
    they are complete once the chunks are consumed. Reading :attr:`text`,
    :attr:`data`, :attr:`notes`, :attr:`errors` or :attr:`warnings` while
    chunks are pending makes the whole output at once (what small outputs
    and callers that need the notes first do).

    >>> r = WriteResult(chunks=iter(["a", "b"]))
    >>> list(r.iter_chunks()), r.consumed
    (['a', 'b'], True)
    >>> WriteResult(chunks=iter(["a", "b"])).text
    'ab'
    """

    def __init__(self, text: str = "", notes: list[Note] | None = None, errors: int = 0,
                 data: bytes | None = None, chunks: "Iterable[str | bytes] | None" = None):
        self._text = text
        self._notes: list[Note] = list(notes or [])
        self._errors = errors
        self._data = data
        self._chunks = iter(chunks) if chunks is not None else None
        self.consumed = chunks is None   # whether the data is all made

    # -- what a writer fills in --------------------------------------------
    def note(self, note: Note) -> None:
        """Add ``note`` unless an equal one is already there."""
        if note not in self._notes:
            self._notes.append(note)

    def add_errors(self, n: int) -> None:
        self._errors += n

    def set_chunks(self, chunks: "Iterable[str | bytes]") -> None:
        """Make the data from ``chunks`` (a writer's generator, which fills
        in the notes and errors as it goes)."""
        self._chunks = iter(chunks)
        self.consumed = False

    # -- what a caller reads -------------------------------------------------
    def iter_chunks(self) -> Iterator[str | bytes]:
        """The data, piece by piece; chunks pending are made as they are
        taken (and not kept)."""
        if self._chunks is None:
            yield self._data if self._data is not None else self._text
            return
        chunks, self._chunks = self._chunks, None
        for chunk in chunks:
            yield chunk
        self.consumed = True

    def _make(self) -> None:
        if self._chunks is None:
            return
        parts = list(self.iter_chunks())
        if parts and isinstance(parts[0], bytes):
            self._data = b"".join(parts)   # type: ignore[arg-type]
        else:
            self._text = "".join(parts)    # type: ignore[arg-type]

    @property
    def text(self) -> str:
        self._make()
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._chunks = None
        self.consumed = True
        self._text = value

    @property
    def data(self) -> bytes | None:
        self._make()
        return self._data

    @data.setter
    def data(self, value: bytes | None) -> None:
        self._chunks = None
        self.consumed = True
        self._data = value

    @property
    def notes(self) -> list[Note]:
        if not self.consumed:
            self._make()
        return self._notes

    @property
    def errors(self) -> int:
        if not self.consumed:
            self._make()
        return self._errors

    @errors.setter
    def errors(self, value: int) -> None:
        self._errors = value

    @property
    def warnings(self) -> list[str]:
        """The notes as sentences."""
        return [n.message for n in self.notes]


def analysis_note(matches: Sequence[Match], fmt: str) -> Note | None:
    """The note a writer gives when its format cannot carry the analysis
    some actions hold (an engine's figures: eXtreme Gammon's, GNU
    Backgammon's, BGBlitz's), so it is never lost silently; None when no
    action holds any."""
    actions = [a for match in matches for g in match.games for a in g.actions
               if a.analysis is not None]
    if not actions:
        return None
    return Note("GM504", {"where": "", "n": len(actions), "format": fmt,
                          "program": analysis_programs(actions)}, key="GM504.analysis")


def analysis_programs(actions: Sequence[Any]) -> str:
    """The programs whose analysis ``actions`` carry, as a note names them
    (``eXtreme Gammon``, ``BGBlitz, GNU Backgammon``; ``?`` for one that
    does not say)."""
    programs: set[str] = set()
    for a in actions:
        source = a.analysis.get("source") if hasattr(a.analysis, "get") else None
        programs.add(source if isinstance(source, str) and source else "?")
    return ", ".join(sorted(programs))


class Format(Protocol):
    """The interface of one format (one sub-package of :mod:`gamao_cli.formats`)."""

    name: ClassVar[str]
    title: ClassVar[str]
    extensions: ClassVar[tuple[str, ...]]   # the first is what a converted file gets
    capabilities: ClassVar[Capabilities]
    scanned: ClassVar[bool]   # whether folder scans take files with these endings

    def sniff(self, head: bytes) -> bool:
        """Whether the first bytes of an input (before any decoding) are this format's."""
        ...

    def read(self, source: Source) -> Iterator[Match]:
        """The matches of ``source``; raises only gamao's :class:`InputError` family."""
        ...

    def write(self, matches: Sequence[Match], replays: Replays | None = None) -> WriteResult:
        """``matches`` in this format. ``replays`` gives each match's replay
        (made on demand when not given)."""
        ...


class TextFormat:
    """What the text formats share: reading decodes the whole input (with
    :func:`~gamao_cli.formats.textio.decode_bytes`) and hands the text to
    :meth:`read_text`; sniffing looks at the first bytes as text."""

    name: ClassVar[str]
    title: ClassVar[str]
    extensions: ClassVar[tuple[str, ...]]
    capabilities: ClassVar[Capabilities] = Capabilities()
    scanned: ClassVar[bool] = True

    def sniff(self, head: bytes) -> bool:  # pragma: no cover - every format has its own
        raise NotImplementedError

    def read(self, source: Source) -> Iterator[Match]:
        return iter(self.read_text(source.read_text(), source.label))

    def read_text(self, text: str, label: str = "") -> list[Match]:  # pragma: no cover
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<format {self.name}>"
