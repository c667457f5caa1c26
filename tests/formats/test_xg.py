"""The eXtreme Gammon reader (gamao_cli.formats.xg) on the shared samples,
against GNU Backgammon's export of the same match, and on damaged bytes.

The samples live in ``../shared/corpus2/xg`` beside the repository (or under
``$GAMAO_SHARED/corpus2/xg``); tests that need them skip when they are absent.
"""
from __future__ import annotations

import os
import struct
import zlib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamao_cli import model as m
from gamao_cli.errors import DamagedFile, InputError, NotAMatchFile
from gamao_cli.formats.xg import records as rec
from gamao_cli.formats.xg.container import (ARCHIVE_RECORD_SIZE, HEADER_SIZE, read_container)
from gamao_cli.formats.xg.reader import (open_records, read_xg, read_xg_records,
                                         read_xg_with_positions, read_xgp)
from gamao_cli.formats import read_path
from gamao_cli.ids import parse_xgid, position_id
from gamao_cli.replay.replay import validate_match

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
XG_DIR = SHARED / "corpus2" / "xg"
CHARLOT = "kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
TWIN = SHARED / "corpus" / "kevung__gnubgparser" / "test__charlot1-charlot2_7p_2025-11-08-2305.mat"

#: The real matches: games, rolls (plays and dances), plays the validator counts.
MATCHES = {
    CHARLOT: (4, 189, 171),
    "kevung__gbf__data__match_with_comment.xg": (8, 179, 167),
    "kevung__gbf__data__test.xg": (7, 334, 297),
}
POSITIONS = (
    "halheinrich__BgQuiz_Blazor__BgQuiz_Blazor.E2eTests__Fixtures__BothAnalysis.xgp",
    "halheinrich__BgQuiz_Blazor__BgQuiz_Blazor.E2eTests__Fixtures__TooGoodAndTake.xgp",
)
#: Insti/xgdatatools' two files are fixtures its Ruby tests made by hand, not
#: files XG wrote (create_proper_xg_file.rb in that repository): demo.xg has no
#: archive at all, example.xg archives a 578-byte stand-in for temp.xg.
SYNTHETIC = {
    "Insti__xgdatatools__demo.xg": "the archive record gives a registry of",
    "Insti__xgdatatools__example.xg": "not a whole number of 2560-byte records",
}


def sample(name: str) -> bytes:
    path = XG_DIR / name
    if not path.is_file():
        pytest.skip(f"the XG sample {name} is not in {XG_DIR} (set GAMAO_SHARED to the shared "
                    "folder)")
    return path.read_bytes()


def every_sample() -> list[Path]:
    return sorted(p for p in XG_DIR.glob("*.xg*")) if XG_DIR.is_dir() else []


# -- building files -------------------------------------------------------------

def build_xg(streams: dict[str, bytes], *, header: bytes | None = None,
             entry_crc: dict[str, int] | None = None, osize: dict[str, int] | None = None,
             count: int | None = None) -> bytes:
    """An XG container around ``streams``, CRCs right unless overridden."""
    head = bytearray(header[:HEADER_SIZE] if header else b"RGMH" + bytes(HEADER_SIZE - 4))
    struct.pack_into("<II", head, 4, 1, HEADER_SIZE)
    struct.pack_into("<qI", head, 12, 0, 0)
    body = b""
    registry = b""
    for name, content in streams.items():
        packed = zlib.compress(content)
        entry = bytearray(532)
        entry[0] = len(name)
        entry[1:1 + len(name)] = name.encode()
        crc = (entry_crc or {}).get(name, zlib.crc32(content))
        size = (osize or {}).get(name, len(content))
        struct.pack_into("<iiiIBB", entry, 512, size, len(packed), len(body), crc, 0, 6)
        registry += bytes(entry)
        body += packed
    reg = zlib.compress(registry)
    crc = zlib.crc32(body + reg)
    record = struct.pack("<IiiiiI12x", crc, count if count is not None else len(streams), 1,
                         len(reg), len(body), 1)
    return bytes(head) + body + reg + record


def charlot_streams() -> dict[str, bytes]:
    return dict(read_container(sample(CHARLOT)).streams)


# -- the samples ------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(MATCHES))
def test_sample_matches_read(name):
    games, rolls, plays = MATCHES[name]
    matches = read_xg(sample(name), name)
    assert len(matches) == 1
    match = matches[0]
    assert match.path == name
    assert len(match.games) == games
    assert sum(isinstance(a, (m.Play, m.Dance, m.UnplayedRoll)) for g in match.games
               for a in g.actions) == rolls
    report = validate_match(match)
    assert report.plays == plays
    problems = [d.format_text() for d in report.diagnostics if d.severity in ("error", "warning")]
    assert problems == []
    assert report.winner is not None


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_synthetic_fixtures_are_refused(name):
    with pytest.raises(DamagedFile) as info:
        read_xg(sample(name), name)
    assert SYNTHETIC[name] in info.value.message
    assert info.value.offset is not None


def test_every_file_in_the_folder_reads_or_is_refused():
    files = every_sample()
    if not files:
        pytest.skip(f"no XG samples in {XG_DIR}")
    for path in files:
        data = path.read_bytes()
        try:
            if path.suffix.lower() == ".xgp":
                read_xgp(data, str(path))
            else:
                read_xg(data, str(path))
        except InputError as exc:
            assert exc.offset is not None, path
            assert path.name in SYNTHETIC, f"{path.name}: {exc}"


@pytest.mark.parametrize("name", sorted(MATCHES) + list(POSITIONS))
def test_every_play_replays_to_the_stated_position_after(name):
    _box, records = read_xg_records(sample(name), name)
    moves = [x for x in records if isinstance(x, rec.CheckerMove) and x.played]
    assert all(rec.check_move(x, records[0].checkers) for x in moves)


def test_tags_of_a_sample():
    match = read_xg(sample("kevung__gbf__data__test.xg"))[0]
    tags = {t.name: t.value for t in match.tags}
    assert tags["Event"] == "HSBT Paris 2023"
    assert tags["Site"] == "Paris, Fédération Française de Bridge"
    assert tags["Round"] == "Tableau Or 2"
    assert tags["EventDate"] == "2023.11.26"
    assert tags["Player 1"] == "Kévin Unger" and tags["Player 2"] == "Maxence Job"
    assert tags["Crawford"] == "On" and tags["Variation"] == "Backgammon"
    assert match.length == 7


def test_move_comments_are_kept():
    match = read_xg(sample("kevung__gbf__data__match_with_comment.xg"))[0]
    assert match.games[0].comments == [
        "move 2, Nicolas HARMAND: coup assez difficile",
        "move 3, Nicolas HARMAND: les double 66 sont toujpurs difficiles à trouver"]


def test_records_pickle_and_copy_with_their_bytes():
    # a move or cube record keeps a view of its bytes in the game stream,
    # not a copy; pickled or copied, it carries the bytes themselves, and
    # what it decodes from them later (the engine's list, the cube
    # analysis) is the same
    import copy
    import pickle
    _box, recs, _located = open_records(sample(CHARLOT), "c.xg")
    moves = [r for r in recs if isinstance(r, rec.CheckerMove)]
    cubes = [r for r in recs if isinstance(r, rec.CubeAction)]
    assert moves and cubes and all(isinstance(r.raw, memoryview) for r in moves + cubes)
    for r in moves + cubes:
        back = pickle.loads(pickle.dumps(r))
        assert back == r and type(back.raw) is bytes and back.raw == bytes(r.raw)
        assert copy.deepcopy(r) == r
    for r in moves:
        assert pickle.loads(pickle.dumps(r)).candidates == r.candidates
    for r in cubes:
        assert pickle.loads(pickle.dumps(r)).analysis == r.analysis
    assert any(r.candidates for r in moves) and any(r.analysis for r in cubes)


def test_resigned_games_end_with_resign_and_win():
    match = read_xg(sample("kevung__gbf__data__match_with_comment.xg"))[0]
    game = match.games[0]
    unplayed, resign, win = game.actions[-3:]
    assert isinstance(unplayed, m.UnplayedRoll) and unplayed.player == 1
    assert isinstance(resign, m.Resign) and resign.player == 1
    assert isinstance(win, m.Win) and (win.player, win.points) == (0, 2)
    last = match.games[-1].wins()[0]
    assert last.match and (last.player, last.points) == (1, 4)


# -- against GNU Backgammon's export of the same match ------------------------------

def _plays(report_game):
    return [x for x in report_game.records if isinstance(x.action, (m.Play, m.Dance))]


def test_charlot_equals_its_gnubg_twin():
    data = sample(CHARLOT)
    if not TWIN.is_file():
        pytest.skip(f"GNU Backgammon's twin {TWIN.name} is not in {TWIN.parent}")
    (xg_match, stated), = read_xg_with_positions(data, CHARLOT)
    (mat_match,) = read_path(str(TWIN))
    assert xg_match.players == mat_match.players == ("charlot1", "charlot2")
    assert xg_match.length == mat_match.length == 7
    assert len(xg_match.games) == len(mat_match.games)
    xg_report = validate_match(xg_match, keep_records=True)
    mat_report = validate_match(mat_match, keep_records=True)
    compared = 0
    for gx, gm, rx, rm, stated_game in zip(xg_match.games, mat_match.games, xg_report.games,
                                           mat_report.games, stated):
        assert gx.score.scores == gm.score.scores
        assert [(w.player, w.points) for w in gx.wins()] == [(w.player, w.points) for w in gm.wins()]
        px, pm = _plays(rx), _plays(rm)
        assert len(px) == len(pm)
        by_action = {id(s.action): s for s in stated_game}
        assert [s.action for s in stated_game] == gx.actions
        for a, b in zip(px, pm):
            assert (a.action.player, a.action.dice) == (b.action.player, b.action.dice)
            assert Counter(a.steps) == Counter(b.steps), (a.action.text(), b.action.text())
            s = by_action[id(a.action)]
            assert (s.me, s.opp) == (a.position.me, a.position.opp)
            assert (s.me, s.opp) == (b.position.me, b.position.opp)
            compared += 1
    assert compared == 189


def test_stated_positions_agree_with_the_replay_in_every_sample():
    for name in MATCHES:
        for match, stated in read_xg_with_positions(sample(name), name):
            report = validate_match(match, keep_records=True)
            for game, states in zip(report.games, stated):
                by_action = {id(s.action): s for s in states}
                for x in game.records:
                    if isinstance(x.action, (m.Play, m.Dance, m.UnplayedRoll)):
                        s = by_action[id(x.action)]
                        assert (s.me, s.opp) == (x.position.me, x.position.opp), name


def test_move_numbers_follow_the_match_file_layout():
    match = read_xg(sample(CHARLOT))[0]
    if not TWIN.is_file():
        pytest.skip(f"GNU Backgammon's twin {TWIN.name} is not in {TWIN.parent}")
    (twin,) = read_path(str(TWIN))
    for gx, gm in zip(match.games, twin.games):
        mine = [(type(a).__name__, a.player, a.move_number) for a in gx.actions
                if isinstance(a, (m.Play, m.Dance, m.Double, m.Take, m.Drop))]
        theirs = [(type(a).__name__, a.player, a.move_number) for a in gm.actions
                  if isinstance(a, (m.Play, m.Dance, m.Double, m.Take, m.Drop))]
        assert mine == theirs


# -- position files -------------------------------------------------------------------

def _xgid_chars(raw) -> str:
    return "".join("-" if n == 0 else chr((ord("A") if n > 0 else ord("a")) + abs(n) - 1)
                   for n in raw)


@pytest.mark.parametrize("name", POSITIONS)
def test_position_files(name):
    data = sample(name)
    pos = read_xgp(data, name)
    assert sum(pos.me[1:]) + pos.me[0] == 15 and sum(pos.opp[1:]) + pos.opp[0] == 15
    assert pos.decision == "cube" and pos.dice is None
    # the file states no XGID or Position ID anywhere ...
    box = read_container(data, name)
    texts = [box.header.game_name, box.header.save_name, box.header.comments,
             *(s.decode("latin-1") for s in box.streams.values())]
    stated = [t for t in texts if "XGID=" in t]
    # ... so check the three copies of the position it does hold against each other
    raw = pos.decision_record.position
    assert pos.xgid().split("=")[1].split(":")[0] == _xgid_chars(raw)
    parsed = parse_xgid(pos.xgid())
    assert position_id(parsed.me, parsed.opp) == pos.position_id()
    analysis = pos.decision_record.analysis
    assert analysis is not None
    assert rec.sides(analysis.position) == (pos.me, pos.opp)   # the mover's view, mover positive
    if any(pos.game.position):
        assert pos.game.position == raw
    for text in stated:
        found = text[text.index("XGID="):].split()[0]
        parsed_found = parse_xgid(found)
        assert position_id(parsed_found.me, parsed_found.opp) == pos.position_id()


def test_position_file_details():
    pos = read_xgp(sample(POSITIONS[1]))
    assert (pos.length, pos.score, pos.cube, pos.cube_owner) == (5, (3, 1), 1, None)
    assert pos.decision_record.analysis.away == (2, 4)
    first = read_xgp(sample(POSITIONS[0]))
    assert first.length == 0 and first.jacoby
    assert first.checker_analysis is not None and first.checker_analysis.dice == (6, 5)
    assert len(first.checker_analysis.candidates) == 25


# -- damaged bytes ---------------------------------------------------------------------

def _reads_or_refuses(data: bytes) -> None:
    try:
        matches = read_xg(data, "damaged.xg")
    except InputError as exc:
        assert exc.offset is not None and 0 <= exc.offset <= len(data), exc
        assert str(exc)
        return
    for match in matches:
        validate_match(match)


def test_wrong_magic():
    data = bytearray(sample(CHARLOT))
    data[:4] = b"RGMX"
    with pytest.raises(NotAMatchFile) as info:
        read_xg(bytes(data), "x.xg")
    assert info.value.offset == 0
    assert "expected 'RGMH'" in info.value.message
    for junk in (b"", b"RG", b"; [Site \"x\"]\n 1 point match\n"):
        with pytest.raises(NotAMatchFile):
            read_xg(junk)


def test_truncated_at_many_offsets():
    data = sample(CHARLOT)
    cuts = set(range(0, len(data), max(1, len(data) // 300)))
    cuts |= {1, 3, 4, 5, HEADER_SIZE - 1, HEADER_SIZE, HEADER_SIZE + 1,
             len(data) - ARCHIVE_RECORD_SIZE, len(data) - 1}
    whole = read_xg(data, "whole.xg")
    game_data_end = (read_container(data).entry("temp.xg").offset
                     + read_container(data).entry("temp.xg").compressed_size)
    for cut in sorted(cuts):
        if cut >= game_data_end and cut < len(data):
            # the game data, which comes first, is whole: read from there
            # (its archive record gone: GM030, tests/formats/test_xg_findings.py)
            matches = read_xg(data[:cut], "cut.xg")
            assert matches == whole and matches[0].notices[0].code == "GM030"
            continue
        with pytest.raises(InputError) as info:
            read_xg(data[:cut], "cut.xg")
        assert info.value.offset is not None


def test_flipped_bytes_in_the_archive_fail_its_checksum():
    data = sample(CHARLOT)
    box = read_container(data)
    start, end = box.archive_offset, box.record_offset
    for at in range(start, end, max(1, (end - start) // 150)):
        bad = bytearray(data)
        bad[at] ^= 0x5A
        with pytest.raises(DamagedFile) as info:
            read_xg(bytes(bad))
        assert "checksum" in info.value.message


def test_a_stream_whose_crc_does_not_match():
    streams = charlot_streams()
    data = build_xg(streams, entry_crc={"temp.xg": zlib.crc32(streams["temp.xg"]) ^ 1})
    with pytest.raises(DamagedFile) as info:
        read_xg(data)
    assert "temp.xg" in info.value.message and "checksum" in info.value.message
    assert read_xg(build_xg(streams))   # the builder itself makes readable files


def test_absurd_sizes_and_counts_are_errors_not_allocations():
    streams = charlot_streams()
    for kwargs in ({"osize": {"temp.xg": 0x7FFFFFFF}}, {"osize": {"temp.xg": 1000}},
                   {"count": 3}):
        with pytest.raises(DamagedFile):
            read_xg(build_xg(streams, **kwargs))
    # a count XG never writes: no archive record of XG's; the game data
    # after the thumbnail is read instead, with an info (GM030)
    whole = read_xg(build_xg(streams))
    for count in (1 << 30, 0, -5):
        matches = read_xg(build_xg(streams, count=count))
        assert matches == whole and matches[0].notices[0].code == "GM030"
    without_game_first = {"temp.xgc": b"{\\rtf1 a comment}", **streams}
    for count in (1 << 30, 0, -5):
        with pytest.raises(DamagedFile):
            read_xg(build_xg(without_game_first, count=count))


def test_garbage_inside_a_zlib_stream_with_matching_crcs():
    data = bytearray(build_xg({"temp.xg": charlot_streams()["temp.xg"]}))
    box = read_container(bytes(data))
    at = box.entries[0].offset + 100
    data[at:at + 8] = b"\xff" * 8
    # recompute the archive CRC so that only zlib (or the entry CRC) can notice
    crc = zlib.crc32(bytes(data[box.archive_offset:box.record_offset]))
    struct.pack_into("<I", data, box.record_offset, crc)
    with pytest.raises(DamagedFile):
        read_xg(bytes(data))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_flips_and_cuts_in_the_file(draw):
    data = bytearray(sample(POSITIONS[0] if draw.draw(st.booleans()) else CHARLOT))
    for _ in range(draw.draw(st.integers(1, 4))):
        at = draw.draw(st.integers(0, len(data) - 1))
        data[at] ^= draw.draw(st.integers(1, 255))
    if draw.draw(st.booleans()):
        del data[draw.draw(st.integers(0, len(data))):]
    _reads_or_refuses(bytes(data))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_damage_inside_the_game_stream(draw):
    """Damage the decompressed records and wrap them in a valid container,
    so that the record decoding itself meets the bad bytes."""
    stream = bytearray(charlot_streams()["temp.xg"])
    record = draw.draw(st.integers(0, len(stream) // rec.RECORD_SIZE - 1))
    for _ in range(draw.draw(st.integers(1, 6))):
        at = record * rec.RECORD_SIZE + draw.draw(st.integers(0, 320))
        stream[at] = draw.draw(st.integers(0, 255))
    if draw.draw(st.booleans()):
        del stream[draw.draw(st.integers(0, len(stream))):]
    _reads_or_refuses(build_xg({"temp.xg": bytes(stream)}))


def test_a_container_without_a_game_stream():
    with pytest.raises(NotAMatchFile) as info:
        read_xg(build_xg({"temp.xgi": b"x" * 10}))
    assert "no temp.xg" in info.value.message


def _edited_charlot(edit) -> bytes:
    streams = charlot_streams()
    stream = bytearray(streams["temp.xg"])
    edit(stream)
    streams["temp.xg"] = bytes(stream)
    return build_xg(streams)


def test_an_unlimited_session_is_a_money_match():
    def money(stream):
        struct.pack_into("<i", stream, 92, rec.UNLIMITED)
        stream[101:103] = b"\x01\x01"          # Jacoby, beaver

    match = read_xg(_edited_charlot(money))[0]
    tags = {t.name: t.value for t in match.tags}
    assert match.length == 0 and match.is_money
    assert (tags["Jacoby"], tags["Beaver"]) == ("On", "On") and "Crawford" not in tags
    assert not any(w.match for g in match.games for w in g.wins())


def test_a_beaver_and_its_answer():
    def beaver(stream):
        at = 38 * rec.RECORD_SIZE              # charlot2 doubles, charlot1 takes
        assert struct.unpack_from("<iii", stream, at + 12) == (-1, 1, 1)
        struct.pack_into("<ii", stream, at + 20, 2, 1)   # beaver, taken

    game = read_xg(_edited_charlot(beaver))[0].games[0]
    i = next(k for k, a in enumerate(game.actions) if isinstance(a, m.Double))
    assert game.actions[i:i + 3] == [m.Double(1, 2), m.Double(0, 4, "beaver"), m.Take(1)]


def test_a_huge_count_of_automatic_doubles_is_damage_not_a_huge_cube():
    """Found by test_random_damage_inside_the_game_stream: a game header
    saying 10,000 automatic doubles made a cube of 2**10000, whose value no
    message could print (Python's 4,300-digit limit)."""
    def many(stream):
        at = 1 * rec.RECORD_SIZE                  # the first game header
        struct.pack_into("<i", stream, at + 64, 10_000)

    with pytest.raises(DamagedFile) as err:
        read_xg(_edited_charlot(many))
    assert "automatic doubles" in str(err.value) and err.value.offset is not None
