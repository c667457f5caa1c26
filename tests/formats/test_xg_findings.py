"""Two findings on real eXtreme Gammon files (issue 26, part 4), rebuilt
from the shared samples: a gammon that decides a match at 6-6 with the cube
at 1 (XG writes the point the winner needed), and a file whose archive
directory another program rewrote (the game data is still there, right
after the thumbnail)."""
from __future__ import annotations

import struct
import zlib

import pytest

from gamao_cli import model as m
from gamao_cli.formats.xg import records as rec
from gamao_cli.formats.xg.container import read_container
from gamao_cli.formats.xg.reader import read_xg
from gamao_cli.replay.replay import validate_match
from gamao_cli.rules import Outcome

from test_xg import CHARLOT, build_xg, charlot_streams, sample

R = rec.RECORD_SIZE


def _records(stream: bytes) -> list[bytearray]:
    return [bytearray(stream[i:i + R]) for i in range(0, len(stream), R)]


def _kind(r: bytearray) -> int:
    return r[8]


def _deciding_gammon_at_6_6() -> bytes:
    """charlot's third game (charlot1 wins a gammon, cube turned once) as
    the game that decides the match from 6-6: the cube records go (the
    cube stays at 1), the game starts at 6-6 and its end says what XG
    writes then: 1 point (the point the winner needed), a gammon, 7-6."""
    recs = _records(charlot_streams()["temp.xg"])
    head = recs[0]
    starts = [i for i, r in enumerate(recs) if _kind(r) == 1]
    third = starts[2]
    end = next(i for i in range(third, len(recs)) if _kind(recs[i]) == 4)
    game = [r for r in recs[third:end + 1] if _kind(r) != 2]   # no cube records
    struct.pack_into("<ii", game[0], 12, 6, 6)                  # the score before it
    last = game[-1]
    winner, points, term = struct.unpack_from("<3i", last, 24)
    assert (winner, term) == (1, 2), (winner, term)              # XG's player 1, a gammon
    struct.pack_into("<ii", last, 12, 7, 6)                      # the score after it
    struct.pack_into("<i", last, 28, 1)                          # the point needed
    streams = dict(charlot_streams())
    streams["temp.xg"] = b"".join(bytes(r) for r in [head, *game])
    streams.pop("temp.xgi", None)   # its analysis index is of the whole match
    return build_xg(streams)


def test_a_gammon_deciding_the_match_at_6_6_is_a_gammon_not_the_jacoby_rule():
    """At 6-6 in a 7-point match a gammon with the cube at 1 wins the
    match; XG writes the point the winner needed. A match has no Jacoby
    rule: the game is a gammon, its points capped (GM411), never a single
    game under the Jacoby rule (GM408)."""
    [match] = read_xg(_deciding_gammon_at_6_6(), "deciding.xg")
    assert match.length == 7 and len(match.games) == 1
    assert not any(isinstance(a, m.Double) for a in match.games[0].actions)
    [win] = match.games[0].wins()
    assert (win.player, win.points, win.match) == (0, 1, True)
    report = validate_match(match)
    keys = sorted(d.key for d in report.diagnostics)
    assert "GM408.gammon" not in keys
    assert [d.severity for d in report.diagnostics if d.severity != "info"] == []
    assert "GM411.needed" in keys
    [game] = report.games
    assert (game.winner, game.ended, game.points, game.cube) == (0, Outcome.GAMMON, 2, 1)
    assert report.winner == 0 and report.final_score[0] >= 7


# -- a file whose archive directory another program rewrote -------------------------

from test_xg import MATCHES   # noqa: E402  (the real matches of the samples)


def _without_directory(data: bytes) -> bytes:
    """The file as a program that keeps XG's archived streams but drops
    XG's registry and archive record writes it: the last 36 bytes are then
    compressed bytes, read as sizes that fit nothing."""
    box = read_container(data)
    return data[:box.registry_offset]


def _own_directory(data: bytes) -> bytes:
    """The file as a program that writes its own directory in place of
    XG's: a tag, then a name, offset and size for each stream (its own
    layout, 40 bytes an entry), at the end of the file."""
    box = read_container(data)
    own = b"GVDR" + b"".join(e.name.encode().ljust(32, b"\0") + struct.pack("<ii", e.offset,
                                                                           e.compressed_size)
                             for e in box.entries)
    return data[:box.registry_offset] + own


@pytest.mark.parametrize("rewrite", [_without_directory, _own_directory])
@pytest.mark.parametrize("name", sorted(MATCHES))
def test_a_rewritten_archive_is_read_from_the_game_data_after_the_thumbnail(name, rewrite):
    data = sample(name)
    whole = read_xg(data, name)
    rewritten = rewrite(data)
    start = read_container(data).entry("temp.xg").offset
    assert start == read_container(data).archive_offset   # the game data comes first
    matches = read_xg(rewritten, name)
    assert matches == whole
    [note] = matches[0].notices
    assert (note.code, note.fields["offset"], note.fields["records"]) == (
        "GM030", start, len(read_container(data).streams["temp.xg"]) // R)
    report = validate_match(matches[0])
    [info] = [d for d in report.diagnostics if d.code == "GM030"]
    assert info.severity == "info"
    assert f"registry of {note.fields['registry']}" in info.message
    assert f"byte {start}" in info.message and "thumbnail" in info.message
    before = validate_match(whole[0])
    assert sorted(d.key for d in report.diagnostics if d.code != "GM030") == \
        sorted(d.key for d in before.diagnostics)


def test_a_rewritten_archive_with_no_game_data_after_the_thumbnail_says_what_to_do():
    from gamao_cli.errors import DamagedFile
    data = bytearray(_without_directory(sample(CHARLOT)))
    start = read_container(sample(CHARLOT)).archive_offset
    data[start:start + 2] = b"\0\0"                        # no zlib stream there
    with pytest.raises(DamagedFile) as err:
        read_xg(bytes(data), "x.xg")
    message = err.value.message
    assert "another program rewrote it" in message and "save it again" in message
    assert err.value.offset == len(data) - 36
