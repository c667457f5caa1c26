"""What the fuzz harness and the property tests share: the contract every
reader and writer must keep, and the bugs already known (each has a
regression test; see README.md).

The contract: for any bytes, reading them as a file of a format gives
matches or an :class:`~gamao_cli.errors.InputError` with a location (a line
and column; or a byte offset inside the bytes, for bytes in no text
encoding and for every error of a binary format); what was read replays (``validate_match``)
without an exception; and every writer either refuses with
:class:`~gamao_cli.errors.WriteRefused` or writes what its own reader reads
back into the same matches (:func:`round_trip_problems`).
"""
from __future__ import annotations

import os
import re

from gamao_cli.errors import EncodingProblem, InputError, WriteRefused

# (exception type name, message pattern, regression test) of bugs reported to
# the lead but not fixed yet: the harness ignores them so that a run goes on
# to find new ones. Remove an entry when its xfail test starts passing.
KNOWN_BUGS: list[tuple[str, str, str]] = [
]

_KNOWN = [(name, re.compile(pat)) for name, pat, _test in KNOWN_BUGS]

#: Notes by which a writer says that what it writes reads back otherwise
#: (a name changed, what the target cannot hold left out or changed).
CHANGING_NOTES = ("GM501", "GM504", "GM505")


def is_known(exc: BaseException) -> bool:
    """Whether ``exc`` is one of :data:`KNOWN_BUGS` (unless ``FUZZ_ALL=1``)."""
    return is_known_text(type(exc).__name__, str(exc))


def is_known_text(type_name: str, message: str) -> bool:
    """The same, from the exception's type name and message."""
    if os.environ.get("FUZZ_ALL") == "1":
        return False
    return any(type_name == name and pat.search(message) for name, pat in _KNOWN)


def check_input_error(exc: InputError, *, binary: bool = False, size: int | None = None) -> None:
    """An input error must name its message by a key of the message table
    (its words rendered from the key and fields) and say where: a line (and
    column) in a text; a byte offset for bytes in no text encoding
    (:class:`EncodingProblem`) and for a ``binary`` format's file (such as
    eXtreme Gammon's, whose errors are located by byte only), an offset
    inside the ``size`` bytes read when it is given."""
    from gamao_cli.messages import MESSAGES, render
    assert exc.key in MESSAGES, exc
    assert exc.message == render(exc.key, exc.fields), exc
    if isinstance(exc, EncodingProblem) or binary:
        assert exc.offset is not None and exc.offset >= 0, exc
        assert size is None or exc.offset <= size, (exc, size)
        return
    assert exc.line is not None and exc.line >= 1, exc
    assert exc.column is None or exc.column >= 1, exc


def canonical(matches) -> str:
    """The canonical match file of ``matches``: what "the same matches" means."""
    from gamao_cli import convert
    return convert(matches, "mat").text


def round_trip_problems(matches, targets=None) -> list[str]:
    """Write ``matches`` in every writable format (or ``targets``) and read
    each output back with that format's reader: what breaks the contract.

    A writer may refuse (:class:`WriteRefused`, with its coded message);
    otherwise its output must read back, into as many matches, with the same
    canonical match file - unless a note says the target could not hold
    everything (:data:`CHANGING_NOTES`); the JSON output must read back
    into equal matches."""
    from gamao_cli import formats
    problems = []
    try:
        reference = canonical(matches)
    except WriteRefused:
        reference = None
    for fmt in formats.writable():
        if targets is not None and fmt.name not in targets:
            continue
        if not fmt.capabilities.read:
            continue   # a page for people (html): nothing to read back
        try:
            result = fmt.write(matches)
        except WriteRefused as exc:
            assert exc.code == "GM507" and exc.message, exc
            continue
        data = result.data if result.data is not None else result.text
        try:
            if isinstance(data, bytes):
                back = formats.parse_bytes(data, f"back.{fmt.name}")
            else:
                back = list(fmt.read_text(data, f"back.{fmt.name}"))
        except InputError as exc:
            problems.append(f"{fmt.name}: gamao cannot read its own output: {exc}\n{str(data)[:3000]}")
            continue
        changed = any(n.code in CHANGING_NOTES for n in result.notes)
        if changed:
            continue   # the writer says what it changed or left out (a match of no games)
        if len(back) != len(matches):
            problems.append(f"{fmt.name}: {len(matches)} match(es) read back as {len(back)}")
            continue
        if fmt.name == "json" and back != list(matches):
            problems.append("json: the matches read back differ")
        if reference is not None:
            try:
                again = canonical(back)
            except WriteRefused as exc:
                problems.append(f"{fmt.name}: read back, the matches cannot be written: {exc}")
                continue
            if again != reference:
                problems.append(f"{fmt.name}: read back, the canonical match file differs:\n"
                                f"{_first_difference(reference, again)}")
    return problems


def _first_difference(expected: str, got: str) -> str:
    for n, (a, b) in enumerate(zip(expected.splitlines(), got.splitlines()), 1):
        if a != b:
            return f"line {n}: {a!r} became {b!r}"
    return f"{len(expected.splitlines())} lines became {len(got.splitlines())}"


def exercise_matches(matches, *, reread) -> None:
    """Replay what a reader returned; with ``reread``, write it in every
    format and check that each output reads back (:func:`round_trip_problems`)."""
    from gamao_cli.replay.replay import validate_match

    for match in matches:
        report = validate_match(match)
        for d in report.diagnostics:
            assert d.line is None or d.line >= 0, d
    if not matches or not reread:
        return
    problems = round_trip_problems(matches)
    if problems:
        raise AssertionError("\n".join(problems))


def _run(read, data: bytes, path: str, convert: bool, binary: bool = False) -> None:
    try:
        matches = read()
    except InputError as exc:
        check_input_error(exc, binary=binary, size=len(data))
        return
    except Exception as exc:
        if is_known(exc):
            return
        raise
    try:
        exercise_matches(matches, reread=convert)
    except Exception as exc:
        if is_known(exc):
            return
        raise


def one_input(data: bytes, path: str, read, *, convert: bool) -> None:
    """Decode ``data`` as the bytes of the file ``path``, ``read`` the text
    (``read(text, path)`` gives matches), then replay what was read and, with
    ``convert``, check that every writer's output reads back (see
    :func:`exercise_matches`). Raises on a break of the contract, unless it
    is one of :data:`KNOWN_BUGS`."""
    from gamao_cli.formats.textio import decode_bytes

    try:
        text, _enc = decode_bytes(data, path)
    except InputError as exc:
        check_input_error(exc, size=len(data))
        return
    _run(lambda: read(text, path), data, path, convert)


def one_input_format(data: bytes, name: str, path: str, *, convert: bool) -> None:
    """What the harness does with one input: read ``data`` with the reader of
    the format ``name`` of the registry (as the file ``path``), then as
    :func:`one_input`."""
    from gamao_cli import formats

    fmt = formats.get(name)
    _run(lambda: list(fmt.read(formats.Source.from_bytes(data, path))), data, path, convert,
         binary=fmt.capabilities.binary)
