"""Conversions between mat, SGF and JSON keep what the target can hold."""
from __future__ import annotations

import pytest

from conftest import (CORPUS, EXAMPLES, SELFPLAY, corpus_match_files, corpus_sample,
                      needs_corpus, read)
from gamao_cli import convert
from gamao_cli.formats import parse_text as load_text
from gamao_cli.formats.mat.reader import read_matches

FORMATS = ("mat", "sgf", "json")


def _matches(name: str):
    return read_matches((EXAMPLES / name).read_text(), name)


@pytest.mark.parametrize("first", FORMATS)
@pytest.mark.parametrize("second", FORMATS)
def test_every_pair_of_formats_round_trips(first, second):
    """mat -> first -> second -> mat gives the canonical match file."""
    for name in ("gnubg-selfplay-5pt.mat", "consolidated-notation-5pt.mat",
                 "gnubg-selfplay-money.mat"):
        original = _matches(name)
        canonical = convert(original, "mat").text
        a = load_text(convert(original, first).text, "a")
        b = load_text(convert(a, second).text, "b")
        assert convert(b, "mat").text == canonical, (name, first, second)


def test_game_comments_travel_between_sgf_and_mat():
    [match] = _matches("gnubg-selfplay-5pt.mat")
    match.games[0].comments.append("move 3 W: a bold play")
    sgf = convert([match], "sgf").text
    assert "C[a bold play]" in sgf
    [from_sgf] = load_text(sgf, "x.sgf")
    assert from_sgf.games[0].comments == ["move 3 W: a bold play"]
    mat = convert([from_sgf], "mat").text
    assert "; move 3 W: a bold play" in mat
    [back] = load_text(mat, "x.mat")
    assert back.games[0].comments == ["; move 3 W: a bold play"]


def test_selfplay_sgf_and_mat_convert_to_the_same_canonical_file():
    for mat in sorted(SELFPLAY.glob("*.mat")):
        from_mat = convert(load_text(mat.read_text(), str(mat)), "mat").text
        sgf = mat.with_suffix(".sgf")
        from_sgf = convert(load_text(sgf.read_text(), str(sgf)), "mat").text
        # tags differ (SGF carries the rules, the .mat only a date): compare games
        assert from_mat[from_mat.index(" point match"):] == from_sgf[from_sgf.index(" point match"):], mat


# ------------------------------------------------------------------ the corpus

def round_trip_failures(paths, routes=(("json",), ("sgf",))) -> list[str]:
    """``mat -> F -> ... -> mat`` for each route of formats F, for each match
    file: the canonical match file (``convert(read_matches(text), "mat")``)
    again, or a failure naming the file and the route."""
    failures = []
    for path in paths:
        matches = read_matches(read(path), str(path))
        canonical = convert(matches, "mat").text
        for route in routes:
            name = " -> ".join(route)
            try:
                through = matches
                for fmt in route:
                    through = load_text(convert(through, fmt).text, f"x.{fmt}")
                again = convert(through, "mat").text
            except Exception as exc:  # noqa: BLE001 - reported with the file
                failures.append(f"{path.name} via {name}: {type(exc).__name__}: {exc}")
                continue
            if again != canonical:
                failures.append(f"{path.name} via {name}: {_first_difference(canonical, again)}")
    return failures


def _first_difference(expected: str, got: str) -> str:
    for n, (a, b) in enumerate(zip(expected.splitlines(), got.splitlines()), 1):
        if a != b:
            return f"line {n}: {a!r} became {b!r}"
    return f"{len(expected.splitlines())} lines became {len(got.splitlines())}"


@needs_corpus
def test_round_trip_through_json_and_sgf_gives_the_canonical_file_for_a_corpus_sample():
    """Every match file outside ``bulk/`` and every 25th of ``bulk/``."""
    files = corpus_sample(bulk_step=25)
    assert len(files) > 100
    assert round_trip_failures(files) == []


@pytest.mark.slow
@needs_corpus
def test_round_trip_through_json_and_sgf_gives_the_canonical_file_for_every_corpus_file():
    files = corpus_match_files()
    assert round_trip_failures(files) == []


@needs_corpus
def test_round_trip_between_sgf_and_json_for_the_corpus_outside_bulk():
    """mat -> sgf -> json -> mat and mat -> json -> sgf -> mat: each target keeps
    what the other held (the files outside ``bulk/``, which hold every kind of
    cell SGF needs gamao's private properties for)."""
    files = [p for p in corpus_match_files() if "bulk" not in p.relative_to(CORPUS).parts]
    assert round_trip_failures(files, routes=(("sgf", "json"), ("json", "sgf"))) == []
