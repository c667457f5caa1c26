"""Reading a big match file one match at a time.

An archive of thousands of matches, one after another in one file, is read
with memory that does not grow with the file: :class:`~gamao_cli.formats.textio.DecodedFile`
decodes it piece by piece, :func:`match_chunks` cuts the lines at the match
boundaries, and each chunk goes to :func:`gamao_cli.formats.mat.reader.read_matches`
on its own; :func:`shift_lines` then makes every line number true to the
whole file.

Where a match starts: at its ``N point match`` line, or at the first tag line
(``; [Name "value"]``) of the tag, comment and blank lines just before it.
This is where the grammar (``match: (TAG | COMMENT)* LENGTH COMMENT* game*``)
starts a new match when it reads the whole file: a tag line always opens a
new match, a comment line before the first tag still belongs to the game
before it. The first chunk runs at least to the first ``N point match`` line,
so that deciding whether the text is a match file at all sees what it sees in
the whole file.

The result is the same as reading the whole text at once - the same matches,
the same error with the same line and column - which the tests check on the
corpus and on mutated files. One case needs care: a chunk that ends in the
middle of a match (a ``Game N`` line with nothing after it) fails at its end,
where the whole file fails at the next chunk's first line; so when a chunk
fails on its last line, it is read again together with the next chunk. And
every chunk but the first is read after a one-line stand-in match (then
dropped), so that the parser's state - on which the wording of a syntax error
depends - is the one it has in the whole text after a match.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, Iterator

from gamao_cli import model as m
from gamao_cli.errors import InputError, SyntaxProblem

from .reader import read_matches

# The grammar's LENGTH terminal on a line of its own (indentation and trailing
# blanks allowed, as prepare_text and _NL treat them).
_LENGTH_LINE = re.compile(r"[ \t]*\d+[ \t]+points?[ \t]+match[ \t]*\n?", re.I)
# The grammar's TAG terminal: ";" "[" ... "]" with nothing after it.
_TAG_LINE = re.compile(r"[ \t]*;[ \t]*\[[^\n]*\][ \t]*\n?")
# The grammar's COMMENT terminal (and blank lines, which _NL swallows).
_COMMENT_OR_BLANK = re.compile(r"[ \t]*(?:[;#\[][^\n]*)?\n?")


def match_chunks(lines: Iterable[str]) -> Iterator[tuple[str, int]]:
    """Group lines (each ending in ``"\\n"``, the last one maybe not) into
    ``(text, first line number)``, one match per chunk (see the module)."""
    chunk: list[str] = []      # lines of the current chunk
    run: list[str] = []        # tag, comment and blank lines after it, held back
    first_tag: int | None = None  # index in ``run`` of its first tag line
    start = 1                  # line number of chunk[0]
    seen_length = False
    number = 0
    for line in lines:
        number += 1
        if _LENGTH_LINE.fullmatch(line):
            if seen_length:
                cut = len(run) if first_tag is None else first_tag
                chunk.extend(run[:cut])
                if chunk:
                    yield "".join(chunk), start
                chunk = run[cut:]
                start = number - len(chunk)
            else:
                chunk.extend(run)
            chunk.append(line)
            seen_length = True
            run = []
            first_tag = None
        elif _COMMENT_OR_BLANK.fullmatch(line):
            if first_tag is None and _TAG_LINE.fullmatch(line):
                first_tag = len(run)
            run.append(line)
        else:
            if run:
                chunk.extend(run)
                run = []
                first_tag = None
            chunk.append(line)
    chunk.extend(run)
    if chunk:
        yield "".join(chunk), start


def shift_lines(matches: list[m.Match], offset: int) -> list[m.Match]:
    """Add ``offset`` to the line number of every object of ``matches``."""
    if not offset:
        return matches
    for mt in matches:
        if mt.line:
            mt.line += offset
        for tag in mt.tags:
            if tag.line:
                tag.line += offset
        for game in mt.games:
            if game.line:
                game.line += offset
            if game.score is not None and game.score.line:
                game.score.line += offset
            for a in game.actions:
                if getattr(a, "_moves", 0) is None and getattr(a, "_written", None) is not None:
                    # a Play whose steps are made on first use, from its line
                    a.line += offset
                    continue
                moves = getattr(a, "moves", None)  # made now, before the line moves
                if a.line:
                    a.line += offset
                if moves:
                    for step in moves:
                        if step.line:
                            step.line += offset
    return matches


def _shift_error(exc: InputError, offset: int) -> InputError:
    if offset and exc.line is not None:
        exc.line += offset
        exc.args = (exc.describe(),)
    return exc


def _last_line(text: str) -> int:
    """The number of the last line of ``text`` that is not blank."""
    lines = text.rstrip(" \t\n").split("\n")
    return len(lines)


Reader = Callable[[str, str], "list[m.Match]"]

# The stand-in match read before every chunk but the first (see iter_chunk_matches).
PLACEHOLDER = "0 point match\n"


def split_lines(text: str) -> list[str]:
    """``text`` cut after each ``"\n"`` (and only there, unlike ``splitlines``)."""
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def iter_chunk_matches(chunks: Iterable[tuple[str, int]], path: str = "",
                       reader: Reader = read_matches) -> Iterator[m.Match]:
    """Read each chunk with ``reader`` (``read_matches``); the matches, in
    order, with line numbers true to the whole text. Raises what reading the
    whole text at once would raise."""
    read_matches = reader
    it = iter(chunks)
    ahead: tuple[str, int] | None = next(it, None)
    if ahead is None:  # no lines at all: what the reader says of an empty text
        yield from read_matches("", path)
        return
    prefix = ""
    while ahead is not None:
        text, first = ahead
        ahead = next(it, None)
        if first == 1:
            # later chunks are read after a stand-in match, so that the parser
            # is where it is in the whole text after a match (its error
            # messages depend on that), blank start included
            prefix = (" " if text[:1] in (" ", "\t", "\n") else "") + PLACEHOLDER
        else:
            text = prefix + text
        shift = first - 1 - text.count("\n", 0, len(prefix) if first > 1 else 0)
        try:
            matches = read_matches(text, path)
        except SyntaxProblem as exc:
            if ahead is None or exc.line is None or exc.line < _last_line(text):
                raise _shift_error(exc, shift) from None
            # the chunk stops in the middle of a match: read on into the next one
            text += ahead[0]
            ahead = next(it, None)
            try:
                matches = read_matches(text, path)
            except InputError as exc2:
                raise _shift_error(exc2, shift) from None
        except InputError as exc:
            raise _shift_error(exc, shift) from None
        if first > 1:
            matches = matches[1:]  # the stand-in
        yield from shift_lines(matches, shift)


#: Consecutive matches are read together up to this many characters: a
#: parse costs the same setting up for a one-line match as for a long one
#: (a file of 400,000 one-line matches took 33 s read one by one).
BATCH_CHARS = 256 * 1024


def batched(chunks: Iterable[tuple[str, int]], size: int | None = None) -> Iterator[tuple[str, int]]:
    """Consecutive chunks of :func:`match_chunks` joined into chunks of at
    least ``size`` (:data:`BATCH_CHARS`) characters (the last maybe fewer);
    each still starts and ends at a match boundary, with the line number of
    its first line."""
    if size is None:
        size = BATCH_CHARS
    parts: list[str] = []
    length = 0
    first = 1
    for text, start in chunks:
        if not parts:
            first = start
        parts.append(text)
        length += len(text)
        if length >= size:
            yield "".join(parts), first
            parts, length = [], 0
    if parts:
        yield "".join(parts), first


def iter_file_matches(lines: Iterable[str], path: str = "",
                      reader: Reader = read_matches) -> Iterator[m.Match]:
    """The matches of a match file given as lines, read a batch of matches
    at a time (:func:`batched`)."""
    return iter_chunk_matches(batched(match_chunks(lines)), path, reader)


def iter_text_matches(text: str, path: str = "", reader: Reader = read_matches) -> Iterator[m.Match]:
    """The matches of the text of a match file, read one match at a time."""
    return iter_file_matches(split_lines(text), path, reader)
