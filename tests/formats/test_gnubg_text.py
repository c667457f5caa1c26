"""GNU Backgammon's text export (gamao_cli.formats.gnubg_text), against the
real exports of ``../shared/corpus2/gnubg-text`` (read its README.md): each
match's game files read as one match, every stated Position ID and Match ID
equal to the replay's, and the match equal to its raw record as played
(read by the match-file reader: every play as die steps, every cube action
and result; gnubg's export may have swapped the players).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gamao_cli import formats
from gamao_cli import model as m
from gamao_cli.errors import InputError, NotAMatchFile, SyntaxProblem
from gamao_cli.formats.gnubg_text import GamePaths, group_paths, read_files
from gamao_cli.formats.gnubg_text.reader import assemble, read_game
from gamao_cli.replay.check import check_file
from gamao_cli.replay.replay import validate_match

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
TEXT_DIR = SHARED / "corpus2" / "gnubg-text"

needs_text = pytest.mark.skipif(not TEXT_DIR.is_dir(),
                                reason=f"the gnubg text exports are not at {TEXT_DIR}")
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg")
                                   else None)


def _matches() -> dict[str, list[Path]]:
    """Each analysed match (folder/base name) -> its game files."""
    out: dict[str, list[Path]] = {}
    if not TEXT_DIR.is_dir():
        return out
    for folder in sorted(TEXT_DIR.glob("analysed-*")):
        for f in sorted(folder.glob("*.txt")):
            base = re.sub(r"(_\d{3})?\.txt$", "", f.name)
            out.setdefault(f"{folder.name}/{base}", []).append(f)
    return out


MATCHES = _matches()


def canonical(match: m.Match, swap: bool = False) -> list:
    """Every game's actions as the replay resolves them (plays as die
    steps), its winner and points; ``swap``: players exchanged."""
    rep = validate_match(match, keep_records=True)
    out = []
    for g, res in zip(match.games, rep.games):
        acts = []
        for r in res.records:
            a = r.action
            p = 1 - a.player if swap else a.player
            if isinstance(a, m.Play):
                moves = tuple(sorted((s, d) for s, d, *_ in r.steps)) if r.steps else \
                    tuple(sorted(a.movements()))
                acts.append(("play", p, tuple(sorted(a.dice)), moves))
            elif isinstance(a, m.Dance):
                acts.append(("dance", p, tuple(sorted(a.dice))))
            elif isinstance(a, m.Double):
                acts.append(("double", p, a.value, a.kind))
            elif isinstance(a, m.Win):
                # the points as the rules give them stand in the game's entry:
                # a record may write the points needed, another the cube's full value
                acts.append(("win", p))
            else:
                acts.append((type(a).__name__, p))
        winner = res.winner if res.winner is None or not swap else 1 - res.winner
        out.append((g.number, winner, res.points, acts))
    return out


@needs_text
@pytest.mark.parametrize("name", sorted(MATCHES))
def test_every_export_reads_clean_and_its_ids_equal_the_replay(name):
    files = MATCHES[name]
    match = read_files([str(f) for f in files])
    assert len(match.games) == len(files)
    assert [g.number for g in match.games] == list(range(1, len(files) + 1))
    stated = [a for g in match.games for a in g.actions if a.stated is not None]
    # every roll and cube action states its Position ID and Match ID
    assert len(stated) == sum(1 for g in match.games for a in g.actions
                              if not isinstance(a, m.Win))
    rep = validate_match(match)
    assert [d.format_text() for d in rep.diagnostics if d.severity != "info"] == []
    assert not any(d.code in ("GM109", "GM116") for d in rep.diagnostics)


@needs_text
@pytest.mark.parametrize("name", sorted(MATCHES))
def test_the_game_files_equal_the_raw_record(name):
    match = read_files([str(f) for f in MATCHES[name]])
    raw_path = TEXT_DIR / "raw" / (name.split("/", 1)[1] + ".txt")
    [raw] = formats.read_path(str(raw_path))
    swap = match.players != raw.players
    if swap:
        assert match.players == raw.players[::-1]
    assert canonical(match, swap) == canonical(raw)


@needs_text
def test_a_changed_match_id_or_position_id_is_found_at_its_line(tmp_path):
    name = next(n for n in MATCHES if "match1322784" in n)
    first = MATCHES[name][0]
    text = first.read_text(encoding="utf-8")
    # move 3's Match ID with the score 1-0 instead of 0-0
    assert "Match ID   : cAmrAAAAAAAE" in text
    bad = text.replace("Match ID   : cAmrAAAAAAAE", "Match ID   : cAmrABAAAAAE", 1)
    f = tmp_path / "one.txt"
    f.write_text(bad, encoding="utf-8")
    rep = validate_match(formats.read_path(str(f))[0])
    [d] = [d for d in rep.diagnostics if d.code == "GM116"]
    line = bad.splitlines().index("* llabba moves 24/16") + 1
    assert (d.path, d.line) == (str(f), line)
    assert "score" in d.message
    # and a Position ID of another position
    bad = text.replace("Position ID: 0PPgATCGZ/ABMA", "Position ID: 4HPwATDgc/ABMA", 1)
    f.write_text(bad, encoding="utf-8")
    rep = validate_match(formats.read_path(str(f))[0])
    [d] = [d for d in rep.diagnostics if d.code == "GM109"]
    assert d.line == line


@needs_text
def test_the_cli_reads_a_folder_of_game_files_as_matches(tmp_path):
    name = next(n for n in MATCHES if "match1322784" in n)
    for f in MATCHES[name]:
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "notes.txt").write_text(" 1 point match\n", encoding="utf-8")
    from gamao_cli.cli.files import iter_input_files
    units = list(iter_input_files([str(tmp_path)]))
    assert len(units) == 2
    [group] = [u for u in units if isinstance(u, GamePaths)]
    assert os.path.basename(group) == "match1322784.txt"
    assert len(group.members) == 4
    result = check_file(group)
    assert result.matches[0].games == 4
    assert [d.code for d in result.diagnostics if d.severity != "info"] == []


@needs_text
def test_a_missing_game_and_a_game_given_twice_are_said(tmp_path):
    name = next(n for n in MATCHES if "match1322784" in n)
    files = MATCHES[name]
    games = [read_game(f.read_text(encoding="utf-8"), str(f)) for f in files]
    match = assemble([games[0], games[2], games[3]])
    [d] = [d for d in validate_match(match).diagnostics if d.code == "GM414"]
    assert d.path == str(files[2]) and "game 2 is missing" in d.message
    again = read_game(files[1].read_text(encoding="utf-8"), "copy.txt")
    match = assemble(games + [again])
    assert len(match.games) == 4
    [d] = [d for d in validate_match(match).diagnostics if d.code == "GM415"]
    assert d.path == "copy.txt"


@needs_text
def test_the_last_dance_written_twice_is_read_once_with_an_info(tmp_path):
    # gnubg's slip, made on a real file: the block of the game's last dance
    # written again right after itself
    name = next(n for n in MATCHES if "DasWerl" in n)
    src = MATCHES[name][1]
    lines = src.read_text(encoding="utf-8").split("\n")
    heads = [i for i, line in enumerate(lines) if line.startswith("Move number")]
    dances = [i for i in heads if any(lines[j].startswith("* ") and
                                      lines[j].endswith("cannot move")
                                      for j in range(i, i + 20))]
    dance = dances[-1]
    end = next(i for i in heads if i > dance)
    f = tmp_path / "twice.txt"
    f.write_text("\n".join(lines[:end] + lines[dance:end] + lines[end:]), encoding="utf-8")
    clean = formats.read_path(str(src))[0]
    read = formats.read_path(str(f))[0]
    assert read.games[0].actions == clean.games[0].actions
    rep = validate_match(read)
    [d] = [d for d in rep.diagnostics if d.code == "GM114"]
    assert d.severity == "info" and d.line == end + 1
    assert [x.code for x in rep.diagnostics if x.severity != "info"] == []


def test_an_unanswered_double_before_the_other_player_wins_is_a_resignation():
    text = "\n".join([
        "The score (after 0 games) is: A 0, B 0 (match to 3 points)", "",
        "Move number 1:  A to play 31", "",
        " GNU Backgammon  Position ID: 4HPwATDgc/ABMA",
        "                 Match ID   : MIBlAAAAAAAE", "",
        "* A moves 8/5 6/5", "",
        "Move number 2:  B on roll, cube decision?", "",
        " GNU Backgammon  Position ID: sGfwATDgc/ABMA",
        "                 Match ID   : cAFqAAAAAAAE", "",
        "* B doubles", "",
        "A wins 1 point", ""])
    [match] = formats.parse_text(text, "x.txt")
    assert [type(a).__name__ for a in match.games[0].actions] == ["Play", "Resign", "Win"]
    rep = validate_match(match)
    [d] = [d for d in rep.diagnostics if d.code == "GM115"]
    assert d.severity == "info" and d.line == 15
    assert [d.code for d in rep.diagnostics if d.severity != "info"] == []


def test_an_unanswered_double_the_doubler_wins_is_a_drop():
    text = "\n".join([
        "The score (after 0 games) is: A 0, B 0 (match to 3 points)", "",
        "Move number 1:  A to play 31", "", "* A moves 8/5 6/5", "",
        "Move number 2:  B on roll, cube decision?", "", "* B doubles", "",
        "B wins 1 point", ""])
    [match] = formats.parse_text(text, "x.txt")
    assert [type(a).__name__ for a in match.games[0].actions] == ["Play", "Double", "Drop",
                                                                   "Win"]
    rep = validate_match(match)
    [d] = [d for d in rep.diagnostics if d.code == "GM115"]
    assert d.severity == "info" and d.line == 9
    assert [d.code for d in rep.diagnostics if d.severity != "info"] == []


@pytest.mark.parametrize("first, language", [
    ("Der Spielstand (nach 0 Partie) ist: a 0, b 0 (Match auf 5 Punkte)", "German"),
    ("Le score (après 0 parties) est : a 0, b 0 (match en 5 points)", "French"),
])
def test_another_language_is_named(first, language):
    assert formats.detect(first.encode()).name == "gnubg-text"
    with pytest.raises(NotAMatchFile) as exc:
        formats.parse_text(first + "\n", "x.txt")
    assert exc.value.key == "GM013"
    assert language in str(exc.value)
    assert (exc.value.line, exc.value.column) == (1, 1)


@pytest.mark.skipif(GNUBG is None, reason="Debian's gnubg is not installed")
def test_a_german_export_made_by_gnubg_is_named(tmp_path):
    mat = tmp_path / "m.mat"
    mat.write_text(" 3 point match\n\n Game 1\n A : 0     B : 0\n"
                   "  1) 31: 8/5 6/5     42: 8/4 6/4\n  2)                 Wins 2 points\n",
                   encoding="utf-8")
    env = dict(os.environ, LANGUAGE="de", LC_ALL="C.UTF-8", LANG="C.UTF-8")
    subprocess.run([GNUBG, "-t", "-q", "-r"], input=f"set display off\nimport mat {mat}\n"
                   f"export match text {tmp_path / 'de.txt'}\n", text=True, env=env,
                   capture_output=True, timeout=120)
    out = tmp_path / "de.txt"
    if not out.exists() or not out.read_text(encoding="utf-8").startswith("Der "):
        pytest.skip("gnubg wrote no German export (its German catalogue is missing)")
    result = check_file(str(out))
    [d] = result.diagnostics
    assert d.code == "GM013" and "German" in d.message


@pytest.mark.parametrize("text, key, line, column", [
    ("The score (after 0 games) is: A 0, B 0 (match to 3 points)\n\nnonsense\n",
     "GM001.gnubg-line", 3, 1),
    ("The score (after 0 games) is: A 0, B 0 (match to 3 points)\n\n"
     "Move number 1:  C to play 31\n", "GM001.gnubg-player", 3, 17),
    ("The score (after 0 games) is: A 0, B 0 (match to 99999 points)\n",
     "GM001.gnubg-number", 1, 50),
    ("The score (after 0 games) is: A 0, B 0 (match to 3 points)\n\n"
     "Move number 1:  A to play 31\n\n* A moves 8/5 6/5 junk\n", "GM001.gnubg-play", 5, 11),
    # found by the fuzzer: a step cut short was read as the steps before it
    ("The score (after 0 games) is: A 0, B 0 (match to 3 points)\n\n"
     "Move number 1:  A to play 64\n\n* A moves 24/18 13/\n", "GM001.gnubg-play", 5, 11),
    # found by the fuzzer: a tag name no match file (nor gamao's JSON) can hold
    ("The score (after 0 games) is: A 0, B 0 (match to 3 points)\n\nMatch Information:\n"
     "Ev]nt: x\n", "GM001.gnubg-tag", 4, 1),
])

def test_errors_are_located(text, key, line, column):
    with pytest.raises(SyntaxProblem) as exc:
        formats.parse_text(text, "x.txt")
    assert (exc.value.key, exc.value.line, exc.value.column) == (key, line, column)


def test_lines_may_end_in_cr_lf_or_cr_alone():
    text = ("The score (after 0 games) is: A 0, B 0 (match to 3 points)\n\n"
            "Move number 1:  A to play 31\n\n* A moves 8/5 6/5\n\nMove number 2:  B to play 42\n"
            "\n* B moves 8/4 6/4\n")
    lf = formats.parse_text(text, "lf.txt")
    for ending in ("\r\n", "\r"):
        other = formats.parse_text(text.replace("\n", ending), "x.txt")
        assert other == lf
        assert [a.line for a in other[0].games[0].actions] == \
            [a.line for a in lf[0].games[0].actions] == [5, 9]


def test_group_paths_keeps_other_files_and_singletons(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("The score (after 0 games) is: A 0, B 0\n", encoding="utf-8")
    b = tmp_path / "a_002.txt"
    b.write_text("The score (after 1 game) is: A 0, B 1\n", encoding="utf-8")
    c = tmp_path / "c.txt"
    c.write_text(" 1 point match\n", encoding="utf-8")
    d = tmp_path / "c_002.txt"
    d.write_text(" 1 point match\n", encoding="utf-8")
    out = group_paths([str(c), str(b), str(a), str(d)])
    assert out[0] == str(c) and out[2] == str(d)
    assert isinstance(out[1], GamePaths) and out[1] == str(a)
    assert out[1].members == (str(a), str(b))
    import pickle
    assert pickle.loads(pickle.dumps(out[1])).members == (str(a), str(b))
