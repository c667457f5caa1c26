"""Conversions between mat, SGF and JSON keep what the target can hold."""
from __future__ import annotations

import pytest

from conftest import EXAMPLES, SELFPLAY
from gamao_cli.conversion import convert
from gamao_cli.loading import load_text
from gamao_cli.matfile_reader import read_matches

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
