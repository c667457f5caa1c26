"""What gamao writes it reads back (issue 18, part 6), as a property: for any
match a reader accepts, every writer either refuses it with a coded reason
(GM507) or writes what its own reader reads back into the same match (the
same canonical match file; for JSON, equal matches).

The matches are built by Hypothesis strategies from the model's pieces -
plays of any steps, cube actions of any value, results, odd names, tags and
comments, game numbers repeated, zero or reversed, pieces of real games -
then written in one format and read back with its reader: that reading is
the match "a reader accepts". ``fuzz/common.round_trip_problems`` is the
check the fuzz harness makes too.

``GAMAO_ROUND_TRIP_EXAMPLES=N`` tries N examples (default 150).
"""
from __future__ import annotations

import copy
import os
import sys

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, ROOT
from gamao_cli import formats
from gamao_cli import model as m
from gamao_cli.errors import InputError, WriteRefused

sys.path.insert(0, str(ROOT / "fuzz"))
from common import round_trip_problems  # noqa: E402

SETTINGS = settings(max_examples=int(os.environ.get("GAMAO_ROUND_TRIP_EXAMPLES", "150")),
                    deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                          HealthCheck.filter_too_much])

_REAL = [g for p in sorted(EXAMPLES.glob("*.mat")) for mt in formats.read_path(str(p))
         for g in mt.games]

TEXT = st.text(st.sampled_from("abAB z09:,.;#[]()*/\\\"'-_\tçÑ→"), max_size=12)
NAMES = st.one_of(st.sampled_from(["Ann", "Bob", "gnubg", "Snow (libgsgf):0.2.0", "Bob,1500",
                                   " padded ", "a\tb", ""]), TEXT)
POINTS = st.integers(0, 25)


@st.composite
def steps(draw):
    n = draw(st.integers(2, 3))
    points = tuple(draw(POINTS) for _ in range(n))
    hits = tuple(draw(st.booleans()) for _ in range(n - 1))
    repeat = draw(st.sampled_from([1, 1, 1, 2, 3, 4]))
    return m.Step(points, hits, repeat)


DICE = st.tuples(st.integers(1, 6), st.integers(1, 6)) | st.tuples(st.integers(0, 9),
                                                                     st.integers(0, 9))


@st.composite
def actions(draw, player):
    kind = draw(st.sampled_from(["play"] * 6 + ["dance", "double", "take", "drop", "win",
                                                "loss", "resign", "unplayed", "illegal"]))
    if kind == "play":
        return m.Play(player, draw(DICE), tuple(draw(st.lists(steps(), min_size=1, max_size=4))))
    if kind == "dance":
        return m.Dance(player, draw(DICE), draw(st.sampled_from(["", "Cannot Move"])))
    if kind == "double":
        return m.Double(player, draw(st.none() | st.sampled_from([0, 1, 2, 4, 8, 3, 2 ** 64])),
                        draw(st.sampled_from(["double", "double", "beaver", "raccoon"])))
    if kind == "take":
        return m.Take(player)
    if kind == "drop":
        return m.Drop(player)
    if kind == "win":
        return m.Win(player, draw(st.integers(0, 12)), draw(st.booleans()))
    if kind == "loss":
        return m.Loss(player, draw(st.integers(0, 12)))
    if kind == "resign":
        return m.Resign(player)
    if kind == "unplayed":
        return m.UnplayedRoll(player, draw(DICE), "????")
    return m.IllegalPlayMarker(player, draw(DICE), "Illegal play (8/5)")


@st.composite
def games(draw, number):
    if _REAL and draw(st.booleans()):
        real = draw(st.sampled_from(_REAL))
        cut = draw(st.integers(0, len(real.actions)))
        acts = [copy.copy(a) for a in real.actions[:cut]]
    else:
        acts = []
        player = draw(st.integers(0, 1))
        for _ in range(draw(st.integers(0, 8))):
            acts.append(draw(actions(player)))
            player = draw(st.sampled_from([1 - player, 1 - player, player]))
    score = None if draw(st.integers(0, 9)) == 0 else m.ScoreLine(
        (draw(NAMES), draw(NAMES)),
        (draw(st.none() | st.integers(-1, 30)), draw(st.none() | st.integers(-1, 30))),
        (draw(st.none() | st.sampled_from(["1500", "1612.5"])), None))
    comments = draw(st.lists(st.sampled_from(["; a comment", "# hash", "move 1 W: nice",
                                              "plain text", "; trailing  "]), max_size=2))
    return m.Game(number, score, acts, comments)


@st.composite
def matches(draw):
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 11, 25]))
    count = draw(st.integers(1, 3))
    numbering = draw(st.sampled_from(["plain", "plain", "from-zero", "repeated", "reversed",
                                      "gaps"]))
    numbers = {"plain": list(range(1, count + 1)), "from-zero": list(range(count)),
               "repeated": [1] * count, "reversed": list(range(count, 0, -1)),
               "gaps": [1 + 3 * i for i in range(count)]}[numbering]
    tags = [m.Tag(n, v) for n, v in draw(st.lists(
        st.tuples(st.sampled_from(["Site", "Event", "Round", "Player 1", "Jacoby", "Crawford",
                                   "EventDate", "Transcriber", "Note"]),
                  st.sampled_from(["x", "On", "Off", "2024.05.01", "a \"quoted\" ]", ""])),
        max_size=3))]
    comments = draw(st.lists(st.sampled_from(["; about the match", "# other", ";x",
                                              '; [Looks "like a tag"]']), max_size=2))
    return m.Match(length, [draw(games(n)) for n in numbers], tags, comments)


@st.composite
def accepted(draw):
    """Matches a reader accepted: built, written in one format, read back."""
    built = draw(st.lists(matches(), min_size=1, max_size=2))
    source = draw(st.sampled_from(["mat", "sgf", "json"]))
    fmt = formats.get(source)
    try:
        text = fmt.write(built).text
    except WriteRefused:
        assume(False)
    try:
        return list(fmt.read_text(text, f"built.{source}"))
    except InputError as exc:   # a writer's output its reader refuses: the bug itself
        raise AssertionError(f"{source}: gamao cannot read its own output: {exc}\n{text}")


@SETTINGS
@given(accepted())
def test_every_writer_output_of_an_accepted_match_reads_back(read):
    assert round_trip_problems(read) == []


@SETTINGS
@given(st.lists(matches(), min_size=1, max_size=2))
def test_every_writer_refuses_or_writes_what_reads_back(built):
    """The same for matches made in Python (the library's callers), which
    no reader checked: a writer refuses them or writes what reads back."""
    assert round_trip_problems(built) == []
