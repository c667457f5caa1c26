"""eXtreme Gammon files everywhere a format goes: detection by content,
folder scans, validate, summary, convert (to every writable format and back),
position, GNU Backgammon's reading of the conversion, damaged files at the
command line, and the replay's check of the positions XG states."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamao_cli import formats
from gamao_cli import model as m
from gamao_cli.cli import main
from gamao_cli.ids import decode_match_id
from gamao_cli.replay.replay import validate_match
from gamao_cli.replay.snapshots import snapshots

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
XG_DIR = SHARED / "corpus2" / "xg"
MATCHES = ("kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg",
           "kevung__gbf__data__match_with_comment.xg", "kevung__gbf__data__test.xg")
POSITIONS = ("halheinrich__BgQuiz_Blazor__BgQuiz_Blazor.E2eTests__Fixtures__BothAnalysis.xgp",
             "halheinrich__BgQuiz_Blazor__BgQuiz_Blazor.E2eTests__Fixtures__TooGoodAndTake.xgp")
SYNTHETIC = ("Insti__xgdatatools__demo.xg", "Insti__xgdatatools__example.xg")


def path_of(name: str) -> Path:
    path = XG_DIR / name
    if not path.is_file():
        pytest.skip(f"the XG sample {name} is not in {XG_DIR} (set GAMAO_SHARED to the shared "
                    "folder)")
    return path


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_registry_knows_xg_by_its_bytes_not_its_name(tmp_path):
    data = path_of(MATCHES[2]).read_bytes()
    assert formats.detect(data[:64]).name == "xg"
    disguised = tmp_path / "match.mat"
    disguised.write_bytes(data)
    [match] = formats.read_path(str(disguised))
    assert match.players == ("Kévin Unger", "Maxence Job") and len(match.games) == 7
    assert ".xg" in formats.file_endings() and ".xgp" in formats.file_endings()


@pytest.mark.parametrize("name", MATCHES)
def test_every_real_match_validates_with_no_error_or_warning(name):
    r = run("validate", str(path_of(name)))
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1].endswith(": 0 errors, 0 warnings")


def test_a_folder_scan_takes_the_xg_files_and_a_position_file_holds_no_match():
    if not XG_DIR.is_dir():
        pytest.skip(f"no XG samples in {XG_DIR}")
    r = run("validate", "--format", "json", str(XG_DIR))
    doc = json.loads(r.output)
    by_name = {Path(f["path"]).name: f for f in doc["files"]}
    assert set(MATCHES) | set(POSITIONS) | set(SYNTHETIC) <= set(by_name)
    for name in MATCHES:
        assert by_name[name]["ok"] and by_name[name]["matches"]
    for name in POSITIONS:
        assert by_name[name]["ok"] and by_name[name]["matches"] == []
    for name in SYNTHETIC:   # hand-made fixtures of another project, not XG's files
        [d] = by_name[name]["diagnostics"]
        assert d["code"] == "GM006" and "at byte" in d["message"]
    assert r.exit_code == 2


@pytest.mark.parametrize("fmt", [f.name for f in formats.writable() if f.capabilities.read])
@pytest.mark.parametrize("name", MATCHES)
def test_conversion_to_every_writable_format_reads_back_the_same_games(name, fmt, tmp_path):
    [match] = formats.read_path(str(path_of(name)))
    out = tmp_path / f"out.{fmt}"
    r = run("convert", str(path_of(name)), "--to", fmt, "-o", str(out))
    assert r.exit_code == 0, r.output
    if fmt == "mat":   # the analysis XG carries is said to be dropped, never silently
        assert "analysis of" in r.output and "not carried" in r.output
    elif fmt == "sgf":   # SGF carries it, as GNU Backgammon's A, DA and LU, but on a
        # roll never played (an XA node of gamao's), which is said
        unplayed = sum(1 for g in match.games for a in g.actions
                       if isinstance(a, m.UnplayedRoll) and a.analysis is not None)
        assert ("not carried" in r.output) == bool(unplayed)
        if unplayed:
            assert f"the analysis of {unplayed} action(s)" in r.output
    [back] = formats.read_path(str(out))
    assert back.length == match.length and back.players == match.players
    assert len(back.games) == len(match.games)
    for g, h in zip(match.games, back.games):
        assert h.number == g.number and h.score == g.score
        # as written by the replay, every play is its die steps: compare those
        ours = [(a.player, type(a).__name__, getattr(a, "dice", None)) for a in g.actions]
        theirs = [(a.player, type(a).__name__, getattr(a, "dice", None)) for a in h.actions]
        assert theirs == ours, (fmt, g.number)
    assert validate_match(back).final_score == validate_match(match).final_score
    if fmt == "sgf":
        from gamao_cli.analysis.decisions import decisions_of
        pairs = [(decisions_of(a), decisions_of(b)) for g, h in zip(match.games, back.games)
                 for a, b in zip(g.actions, h.actions)]
        assert sum(x is not None for x, _y in pairs) > 100
        for (x, y), a in zip(pairs, [a for g in match.games for a in g.actions]):
            if x is None or isinstance(a, m.UnplayedRoll):
                continue
            if x.checker is not None and x.checker.played is not None:
                assert [round(c.equity, 6) for c in y.checker.candidates] == \
                    [round(c.equity, 6) for c in x.checker.candidates]
                assert y.checker.played == x.checker.played
            if x.cube is not None:
                assert y.cube is not None and y.cube.doubled == x.cube.doubled
            if x.luck is not None:
                assert y.luck.value == pytest.approx(x.luck.value, abs=1e-5)
    if fmt == "json":
        kept = [a.analysis and dict(a.analysis) for g in back.games for a in g.actions]
        assert kept == [a.analysis and dict(a.analysis) for g in match.games for a in g.actions]
        assert sum(x is not None for x in kept) > 100


@pytest.mark.gnubg
@pytest.mark.parametrize("name", MATCHES)
def test_gnubg_reads_the_match_file_gamao_writes_of_an_xg_match_alike(name, tmp_path):
    """.xg -> .mat -> GNU Backgammon's `import mat`: the same games, winners,
    points and final score as gamao's own replay of the .xg."""
    pytest.importorskip("gnubg", reason="the gnubg wheel is not installed (pip install gnubg)")
    [match] = formats.read_path(str(path_of(name)))
    out = tmp_path / "converted.mat"
    assert run("convert", str(path_of(name)), "--to", "mat", "-o", str(out)).exit_code == 0
    script = ROOT / "tests" / "gnubg_scripts" / "dump_mat.py"
    p = subprocess.run([sys.executable, str(script), str(out)], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    gn = json.loads(p.stdout)[str(out)]
    report = validate_match(match)
    assert len(gn["games"]) == len(report.games)
    for ours, theirs in zip(report.games, gn["games"]):
        assert list(ours.score_before) == theirs["score"], ours.number
        assert (ours.winner, ours.points) == (theirs["winner"], theirs["points"]), ours.number
        assert (ours.ended in ("resign", "time")) == theirs["resigned"], ours.number


@pytest.mark.parametrize("name", MATCHES)
def test_every_position_xg_states_is_the_replays(name):
    """XG's stated position before each action equals the position gamao's
    replay reaches there (so the check below has teeth, and no false alarm)."""
    [match] = formats.read_path(str(path_of(name)))
    snaps = {id(s.action): s for s in snapshots(match)}
    checked = 0
    for g in match.games:
        for a in g.actions:
            if a.stated is None or id(a) not in snaps:
                continue
            s = snaps[id(a)]
            pos = s.position if s.state.on_roll == a.player else s.position.swapped()
            assert (tuple(a.stated[0]), tuple(a.stated[1])) == (pos.me, pos.opp), a.text()
            checked += 1
    assert checked > 150


def test_a_stated_position_the_replay_does_not_reach_is_reported_once_a_game():
    [match] = formats.read_path(str(path_of(MATCHES[0])))
    game = match.games[1]
    plays = [a for a in game.actions if isinstance(a, m.Play)]
    for a in plays[3:6]:   # the record now contradicts itself from its fourth play on
        me, opp = a.stated
        a.stated = (me[:6] + (me[6] + 1,) + me[7:], opp)
    report = validate_match(match)
    found = [d for d in report.diagnostics if d.code == "GM109"]
    assert len(found) == 1 and found[0].game == game.number
    assert found[0].move == plays[3].move_number and found[0].severity == "error"
    assert found[0].fields["replayed"] != found[0].fields["stated"]


@pytest.mark.parametrize("name", POSITIONS)
def test_position_of_an_xgp_prints_its_board_and_ids(name):
    from gamao_cli.formats.xg import read_position
    pos = read_position(path_of(name).read_bytes(), name)
    r = run("position", str(path_of(name)))
    assert r.exit_code == 0, r.output
    assert f"Position ID: {pos.position_id()}" in r.output
    mid = r.output.split("Match ID   : ")[1].split()[0]
    ms = decode_match_id(mid)
    assert (ms.on_roll, ms.cube, ms.cube_owner, ms.length, ms.score) == \
        (pos.player, pos.cube, pos.cube_owner, pos.length, pos.score)
    assert r.output.splitlines()[-1].startswith("XGID=")


@pytest.mark.parametrize("cut", [100, 8240, "half"])
def test_a_damaged_file_is_exit_2_with_its_byte_offset(cut, tmp_path):
    data = path_of(MATCHES[0]).read_bytes()
    bad = tmp_path / "cut.xg"
    bad.write_bytes(data[:len(data) // 2 if cut == "half" else cut])
    for command in ("validate", "summary", "convert"):
        args = [command, str(bad)] + (["--to", "json", "-o", "-"] if command == "convert" else [])
        r = run(*args)
        assert r.exit_code == 2, (command, r.output)
        assert "byte" in r.output and "Traceback" not in r.output
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(flipped))
    r = run("validate", str(bad))
    assert r.exit_code == 2 and "GM006" in r.output and "at byte" in r.output


def test_a_file_cut_after_its_game_data_is_read_with_an_info(tmp_path):
    """The last 40 bytes gone (the archive record with them): the game
    data, which comes first, is whole; it is read, and the info says how."""
    data = path_of(MATCHES[0]).read_bytes()
    cut = tmp_path / "cut.xg"
    cut.write_bytes(data[:-40])
    r = run("validate", "--show-info", str(cut))
    assert r.exit_code == 0, r.output
    assert "GM030 info" in r.output and "after the thumbnail" in r.output


def test_export_carries_xgs_own_figures_for_every_analysed_play(tmp_path):
    """The analysis columns of ``gamao export`` hold what the file's move
    records say, read here straight from the records: the error as a loss,
    the luck, and the level."""
    import csv

    from gamao_cli.formats.xg import records as rec
    from gamao_cli.formats.xg.reader import read_xg_records

    path = path_of(MATCHES[2])
    out = tmp_path / "tables"
    r = run("export", str(path), "-o", str(out), "--to", "csv")
    assert r.exit_code == 0, r.output
    [part] = (out / "actions").glob("*.csv")
    rows = [row for row in csv.DictReader(part.open(encoding="utf-8")) if row["kind"] == "roll"]
    _box, records = read_xg_records(path.read_bytes(), str(path))
    moves = [x for x in records if isinstance(x, rec.CheckerMove)]
    assert len(rows) == len(moves)
    analysed = 0
    for row, move in zip(rows, moves):
        assert (int(row["die1"]), int(row["die2"])) == tuple(sorted(move.dice, reverse=True))
        if move.error <= -999:
            assert row["equity_loss"] == ""
            continue
        analysed += 1
        assert abs(float(row["equity_loss"]) + move.error) < 1e-6
        assert abs(float(row["luck"]) - move.luck) < 1e-6
        assert row["analysis_depth"] == f"XG level {move.analysis_level}"
        assert float(row["best_equity"]) >= float(row["equity"]) - 1e-9
    assert analysed > 300


def test_validating_a_match_decodes_none_of_xgs_analysis_yet_says_xgs_invalid_mark():
    """The replay asks every play for XG's invalid mark (GM110): read from
    the record as it is, without decoding the analysis (XG's candidates and
    figures), which only the writers need."""
    import dataclasses

    from gamao_cli.formats.xg import Analysis
    from gamao_cli.replay.stated import XG_INVALID
    [match] = formats.read_path(str(path_of(MATCHES[0])))
    analyses = [a.analysis for g in match.games for a in g.actions
                if isinstance(a.analysis, Analysis)]
    assert len(analyses) > 150
    assert not [d for d in validate_match(match).diagnostics if d.code == "GM110"]
    assert all(x._data is None for x in analyses)   # nothing decoded
    play = next(a for a in match.games[1].actions
                if isinstance(a, m.Play) and isinstance(a.analysis, Analysis))
    action, record, no_double = play.analysis._source
    play.analysis = Analysis(action, dataclasses.replace(record, invalid=XG_INVALID), no_double)
    [found] = [d for d in validate_match(match).diagnostics if d.code == "GM110"]
    assert found.game == match.games[1].number and found.move == play.move_number
    assert play.analysis["invalid"] == XG_INVALID and play.analysis["candidates"]


def _contradicted_xg(monkeypatch):
    """The charlot match as read, with two faults no line can point at: game
    2's result wins a point too many (GM401, a game), and game 2's fourth
    play's stated position is off (GM109, a game and a move); every command
    that checks the file reads it so."""
    from gamao_cli.replay import check
    path = str(path_of(MATCHES[0]))
    [match] = formats.read_path(path)
    game = match.games[1]
    game.actions[-1].points += 1
    play = [a for a in game.actions if isinstance(a, m.Play)][3]
    me, opp = play.stated
    play.stated = (me[:6] + (me[6] + 1,) + me[7:], opp)
    source = formats.open_source(path)
    monkeypatch.setattr(check, "iter_path", lambda p: (iter([match]), source))
    return path, game.number, play.move_number


def test_a_diagnostic_with_no_line_names_its_game_and_move_in_every_report(monkeypatch, tmp_path):
    """Issue 22: an .xg file has no lines; its whole-game diagnostics were
    ``file:0:0:``. Each report names the game (and move) instead, and the
    JSON report's line and column are null, as its schema wants."""
    import jsonschema
    from xml.etree import ElementTree as ET
    path, game, move = _contradicted_xg(monkeypatch)
    text = run("validate", "--jobs", "1", path).output.splitlines()
    assert f"{path}: game {game}, move {move}: GM109 error" in "\n".join(text)
    assert any(line.startswith(f"{path}: game {game}: GM401 error") for line in text), text
    assert ":0:0" not in "\n".join(text)

    doc = json.loads(run("validate", "--jobs", "1", "--format", "json", path).output)
    schema = json.loads((ROOT / "gamao_cli" / "schemas" / "validate.schema.json").read_text())
    jsonschema.validate(doc, schema)
    [f] = doc["files"]
    got = {d["code"]: d for d in f["diagnostics"]}
    assert (got["GM109"]["line"], got["GM109"]["column"], got["GM109"]["game"],
            got["GM109"]["move"]) == (None, None, game, move)
    assert (got["GM401"]["line"], got["GM401"]["game"], got["GM401"]["move"]) == (None, game, None)

    gh = run("validate", "--jobs", "1", "--format", "github", path).output
    [gm109] = [x for x in gh.splitlines() if "GM109" in x]
    assert "line=" not in gm109 and "col=" not in gm109
    assert f"::game {game}, move {move}: " in gm109

    junit = ET.fromstring(run("validate", "--jobs", "1", "--format", "junit", path).output)
    body = "".join(el.text or "" for el in junit.iter("failure"))
    assert f"{path}: game {game}, move {move}: GM109" in body and ":0:0" not in body

    pt = run("--lang", "pt_BR", "validate", "--jobs", "1", path).output
    assert f"{path}: jogo {game}, lance {move}: GM109 erro" in pt

    r = run("validate", "--jobs", "1", "--format", "html", "--html-dir", str(tmp_path / "h"), path)
    page = (tmp_path / "h" / "index.html").read_text(encoding="utf-8")
    assert r.exit_code == 1 and "line 0" not in page and f"game {game}, move {move}" in page
