"""What the fuzz harnesses share: the contract every reader must keep, and
the bugs already known (each has a regression test; see README.md).

The contract: for any bytes, decoding gives text or an
:class:`~gamao_cli.errors.EncodingProblem` with a byte offset; reading gives
matches or an :class:`~gamao_cli.errors.InputError` with a location; what
was read replays (``validate_match``) and converts to every format without
an exception, and the match-file output reads back.
"""
from __future__ import annotations

import os
import re

from gamao_cli.errors import EncodingProblem, InputError

# (exception type name, message pattern, regression test) of bugs reported to
# the lead but not fixed yet: the harness ignores them so that a run goes on
# to find new ones. Remove an entry when its xfail test starts passing.
KNOWN_BUGS: list[tuple[str, str, str]] = [
]

_KNOWN = [(name, re.compile(pat)) for name, pat, _test in KNOWN_BUGS]


def is_known(exc: BaseException) -> bool:
    """Whether ``exc`` is one of :data:`KNOWN_BUGS` (unless ``FUZZ_ALL=1``)."""
    return is_known_text(type(exc).__name__, str(exc))


def is_known_text(type_name: str, message: str) -> bool:
    """The same, from the exception's type name and message."""
    if os.environ.get("FUZZ_ALL") == "1":
        return False
    return any(type_name == name and pat.search(message) for name, pat in _KNOWN)


def check_input_error(exc: InputError) -> None:
    """An input error must say where: a line (and column) or a byte offset."""
    if isinstance(exc, EncodingProblem):
        assert exc.offset is not None and exc.offset >= 0, exc
        return
    assert exc.line is not None and exc.line >= 1, exc
    assert exc.column is None or exc.column >= 1, exc


def exercise_matches(matches, *, reread) -> None:
    """Replay and convert what a reader returned; the .mat output reads back."""
    from gamao_cli import convert
    from gamao_cli.replay.replay import validate_match

    for match in matches:
        report = validate_match(match)
        for d in report.diagnostics:
            assert d.line is None or d.line >= 0, d
    if not matches:
        return
    out = convert(matches, "mat").text
    convert(matches, "json")
    convert(matches, "sgf")
    if reread:
        from gamao_cli.formats.mat.reader import read_matches
        try:
            read_matches(out, "converted.mat")
        except InputError as exc:
            raise AssertionError(f"gamao cannot read its own .mat output: {exc}\n{out[:2000]}")


def one_input(data: bytes, path: str, read, *, convert: bool) -> None:
    """What each harness does with one input: decode ``data`` as the bytes of
    the file ``path``, ``read`` the text (``read(text, path)`` gives matches),
    then replay what was read and, with ``convert``, convert it (see
    :func:`exercise_matches`). Raises on a break of the contract, unless it is
    one of :data:`KNOWN_BUGS`."""
    from gamao_cli.formats.textio import decode_bytes
    from gamao_cli.replay.replay import validate_match

    try:
        text, _enc = decode_bytes(data, path)
    except InputError as exc:
        check_input_error(exc)
        return
    try:
        matches = read(text, path)
    except InputError as exc:
        check_input_error(exc)
        return
    except Exception as exc:
        if is_known(exc):
            return
        raise
    try:
        if convert:
            exercise_matches(matches, reread=True)
        else:
            for mt in matches:
                validate_match(mt)
    except Exception as exc:
        if is_known(exc):
            return
        raise
