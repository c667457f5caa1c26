"""Property tests: real corpus files, mutated, never make gamao fail.

Each example takes a match file of the shared corpus and damages it the way
files get damaged: bytes flipped, the file cut short, lines deleted, repeated
or swapped, random Unicode inserted, the cells of a move line shuffled. Then:

- ``check_file`` (what ``gamao validate`` runs) returns a result: matches,
  or diagnostics each with a location (a line, or a byte offset for bytes
  that are no text); never an exception, never an internal error other than
  the bugs already known (``fuzz/common.py``, each with an xfail test);
- ``gamao convert`` (its per-file step) agrees with validate on whether the
  file is readable, and says why with the same diagnostic;
- reading a file match by match (big files) gives exactly what reading it
  whole gives: the same matches with the same lines and columns, or the same
  error at the same place.

The corpus is found as the other tests find it; without it these tests skip.
``GAMAO_FUZZ_EXAMPLES=N`` tries N examples per property (default 100).
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, corpus_match_files, needs_corpus
from gamao_cli import formats
from gamao_cli.formats import mat as loading
from gamao_cli.replay.check import check_file, input_error_diagnostic
from gamao_cli.errors import InputError
from gamao_cli.formats import parse_text as load_text
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.formats.mat.streaming import iter_text_matches
from gamao_cli.formats.textio import decode_bytes

sys.path.insert(0, str(ROOT / "fuzz"))
from common import is_known, is_known_text  # noqa: E402

pytestmark = needs_corpus

# small and middle-sized files keep each example fast; the big ones are
# covered by the corpus tests and the slow tests
_FILES = [p for p in corpus_match_files() if p.stat().st_size <= 48_000]
# a fixed, varied sample: every named producer's files plus some of bulk/
_rng = random.Random(20261130)
_SAMPLE = [p for p in _FILES if "bulk" not in p.parts]
_SAMPLE += _rng.sample([p for p in _FILES if "bulk" in p.parts],
                       min(120, sum("bulk" in p.parts for p in _FILES)))

# GAMAO_FUZZ_EXAMPLES=5000 explores longer (locally; CI keeps the default)
PROPERTY = settings(max_examples=int(os.environ.get("GAMAO_FUZZ_EXAMPLES", "100")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _shuffle_cells(line: bytes, rnd: random.Random) -> bytes:
    parts = line.split(b"  ")
    cells = [p for p in parts if p.strip()]
    if len(cells) < 2:
        return line
    i, j = rnd.sample(range(len(parts)), 2)
    parts[i], parts[j] = parts[j], parts[i]
    return b"  ".join(parts)


def mutate(data: bytes, ops: list[tuple[str, int, int, str]]) -> bytes:
    """Apply the damage ``ops`` (name, two numbers, some text) to ``data``."""
    for name, a, b, text in ops:
        if name == "flip" and data:
            i = a % len(data)
            data = data[:i] + bytes([data[i] ^ (1 << (b % 8))]) + data[i + 1:]
        elif name == "cut" and data:
            data = data[:a % (len(data) + 1)]
        elif name == "insert":
            i = a % (len(data) + 1)
            data = data[:i] + text.encode("utf-8", "surrogatepass") + data[i:]
        else:
            lines = _lines(data)
            i, j = a % len(lines), b % len(lines)
            if name == "delete":
                del lines[i]
            elif name == "repeat":
                lines[i:i] = [lines[i]] * (1 + b % 3)
            elif name == "swap":
                lines[i], lines[j] = lines[j], lines[i]
            elif name == "cells":
                lines[i] = _shuffle_cells(lines[i], random.Random(b))
            data = b"\n".join(lines)
    return data


damage = st.lists(st.tuples(
    st.sampled_from(["flip", "cut", "insert", "delete", "repeat", "swap", "cells"]),
    st.integers(min_value=0, max_value=1 << 30), st.integers(min_value=0, max_value=1 << 30),
    st.text(max_size=12)), min_size=1, max_size=6)


def _located(d) -> bool:
    return d.line is not None or "(at byte " in d.message


def _readable_by_convert(path: str, out: str) -> tuple[int, list[str]]:
    from gamao_cli.cli.convert import _convert_one
    return _convert_one(path, "mat", out, True, False)


@PROPERTY
@given(source=st.sampled_from(_SAMPLE or [Path("missing")]), ops=damage)
def test_mutated_corpus_files_never_crash_and_validate_agrees_with_convert(tmp_path_factory,
                                                                          source, ops):
    folder = tmp_path_factory.mktemp("mutant")
    path = folder / "mutant.mat"
    path.write_bytes(mutate(source.read_bytes(), ops))
    result = check_file(str(path))
    if result.internal_error is not None:
        exc_type, _, message = result.internal_error.partition(": ")
        assert is_known_text(exc_type, message), result.internal_error
        return
    assert all(_located(d) for d in result.diagnostics), result.diagnostics
    try:
        code, messages = _readable_by_convert(str(path), str(folder / "out.mat"))
    except Exception as exc:  # a crash in the converter: known bugs only
        assert is_known(exc), repr(exc)
        return
    if result.unreadable:
        assert code == 2 and messages == [result.diagnostics[0].format_text()]
        assert not (folder / "out.mat").exists()
    else:
        assert code == 0, messages
        load_text((folder / "out.mat").read_text(encoding="utf-8"), "out.mat")


def _dump(matches) -> list:
    out = []
    for mt in matches:
        out.append(("match", mt.length, mt.line, mt.column, [(t.name, t.value, t.line) for t in mt.tags],
                    list(mt.comments)))
        for g in mt.games:
            out.append(("game", g.number, g.line, g.column, g.score and (
                g.score.names, g.score.scores, g.score.line, g.score.column), list(g.comments)))
            for a in g.actions:
                steps = [(s.line, s.column) for s in getattr(a, "moves", ())]
                out.append((repr(a), a.line, a.column, steps))
    return out


def _read(fn) -> tuple:
    try:
        return ("ok", _dump(fn()))
    except InputError as exc:
        return ("error", type(exc).__name__, exc.line, exc.column, exc.message, exc.text,
                exc.expected)
    except Exception as exc:
        if is_known(exc):
            return ("known", type(exc).__name__)
        raise


@PROPERTY
@given(sources=st.lists(st.sampled_from(_SAMPLE or [Path("missing")]), min_size=2, max_size=4),
       ops=st.one_of(st.just([]), damage))
def test_reading_match_by_match_is_reading_the_whole(sources, ops):
    data = b"\n".join(s.read_bytes() for s in sources)
    try:
        text, _ = decode_bytes(mutate(data, ops), "x.mat")
    except InputError:
        return
    whole = _read(lambda: load_text(text, "x.mat"))
    if whole[0] == "known" or formats.detect(text.encode("utf-8", "surrogatepass")).name != "mat":
        return
    assert _read(lambda: list(iter_text_matches(text, "x.mat", read_matches))) == whole


@PROPERTY
@given(source=st.sampled_from(_SAMPLE or [Path("missing")]), ops=damage,
       chunk=st.integers(min_value=4, max_value=4096))
def test_a_big_mutated_file_validates_as_a_small_one(tmp_path_factory, monkeypatch_session,
                                                     source, ops, chunk):
    path = tmp_path_factory.mktemp("big") / "mutant.mat"
    path.write_bytes(mutate(source.read_bytes(), ops))
    whole = check_file(str(path))
    with monkeypatch_session.context() as mp:
        mp.setattr(loading, "STREAM_MIN_BYTES", 0)
        mp.setattr("gamao_cli.formats.textio.CHUNK_SIZE", chunk)
        streamed = check_file(str(path))
    assert streamed.unreadable == whole.unreadable
    assert streamed.encoding == whole.encoding or whole.unreadable
    assert [d.format_text() for d in streamed.diagnostics] == \
        [d.format_text() for d in whole.diagnostics]
    assert [mt.to_dict() for mt in streamed.matches] == [mt.to_dict() for mt in whole.matches]


@pytest.fixture(scope="session")
def monkeypatch_session():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_the_mutations_do_damage():
    """The mutator itself: each operation changes what it should."""
    data = b"a\nbb  cc\nd"
    assert mutate(data, [("delete", 0, 0, "")]) == b"bb  cc\nd"
    assert mutate(data, [("repeat", 2, 1, "")]) == b"a\nbb  cc\nd\nd\nd"
    assert mutate(data, [("swap", 0, 2, "")]) == b"d\nbb  cc\na"
    assert mutate(data, [("cut", 3, 0, "")]) == b"a\nb"
    assert mutate(data, [("insert", 1, 0, "é")]) == b"a\xc3\xa9\nbb  cc\nd"
    assert mutate(data, [("flip", 0, 0, "")]) == b"`\nbb  cc\nd"
    assert mutate(data, [("cells", 1, 3, "")]) == b"a\ncc  bb\nd"


def test_input_error_diagnostics_always_have_a_location():
    for raw in (b"\x00\x01", b"hello", b" 1 point match\n\n Game 1\n  1) 31: 8/5\n"):
        try:
            load_text(decode_bytes(raw, "x")[0], "x")
        except InputError as exc:
            assert _located(input_error_diagnostic(exc))
