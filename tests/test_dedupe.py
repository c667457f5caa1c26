"""``gamao dedupe`` and the tolerant fingerprint: the copies of real matches
are found whatever their format, and different matches of the same players
are kept apart."""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CORPUS, ROOT
from gamao_cli import formats
from gamao_cli import model as m
from gamao_cli.archive.fingerprint import fingerprint
from gamao_cli.cli import main

CORPUS2 = Path(os.environ.get("GAMAO_CORPUS2", ROOT.parent / "shared" / "corpus2"))
REAL = CORPUS2 / "real"
needs_corpora = pytest.mark.skipif(
    not (CORPUS.is_dir() and CORPUS2.is_dir()),
    reason=f"the shared corpora are not at {CORPUS} and {CORPUS2}")

_BUNDLE = ("BGChallengeAdmin__TheBackgammonChallenge__TheBackgammonChallenge__Assets__"
           "Backgammon_Assets__HistoricMatches__TextFiles__")
SNARHEIM = _BUNDLE + ("TournamentMatchBundle008__snarheim - Bonot 13pt Backgammon Studio "
                      "2022_04_15 11_19_13_1650026892.txt")
TAKADA = sorted(p.name for p in REAL.glob(_BUNDLE + "NotBundled__0?_takadaleft - Schiemann*")) \
    if REAL.is_dir() else []


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def groups_of(*paths) -> list[list[dict]]:
    r = run("dedupe", "--format", "json", "--all", "--jobs", "1", *map(str, paths))
    assert r.exit_code in (0, 2), r.output
    doc = json.loads(r.stdout)
    return [g["copies"] for g in doc["groups"]]


def group_with(groups, name: str) -> list[dict]:
    found = [g for g in groups if any(Path(c["path"]).name == name for c in g)]
    assert len(found) == 1, name
    return found[0]


# -- making copies of a real match ----------------------------------------------------

def _read(path: Path) -> m.Match:
    [match] = formats.read_path(str(path))
    return match


def swap_sides(match: m.Match) -> m.Match:
    """The same match with the players in the other columns."""
    out = copy.deepcopy(match)
    for g in out.games:
        if g.score is not None:
            g.score = m.ScoreLine(g.score.names[::-1], g.score.scores[::-1])
        for a in g.actions:
            a.player = 1 - a.player
    return out


def respell(match: m.Match) -> m.Match:
    out = copy.deepcopy(match)
    for g in out.games:
        if g.score is not None:
            a, b = g.score.names
            g.score = m.ScoreLine((a.upper(), " ".join(b.title())), g.score.scores)
    return out


def _last_roll(game: m.Game) -> int:
    return max(i for i, a in enumerate(game.actions) if isinstance(a, (m.Play, m.Dance)))


def trailing_roll(match: m.Match) -> m.Match:
    """A roll nobody played at the end of the last game (as XG writes one)."""
    out = copy.deepcopy(match)
    game = out.games[-1]
    i = _last_roll(game)
    game.actions.insert(i + 1, m.UnplayedRoll(1 - game.actions[i].player, (6, 1)))
    return out


def no_last_result(match: m.Match) -> m.Match:
    out = copy.deepcopy(match)
    out.games[-1].actions = [a for a in out.games[-1].actions if not isinstance(a, m.Win)]
    return out


def cut_last_game(match: m.Match) -> m.Match:
    """The last game cut after two thirds of its actions."""
    out = copy.deepcopy(match)
    game = out.games[-1]
    game.actions = game.actions[:len(game.actions) * 2 // 3]
    return out


def first_games(match: m.Match, n: int) -> m.Match:
    out = copy.deepcopy(match)
    out.games = out.games[:n]
    return out


def later_games(match: m.Match, start: int) -> m.Match:
    """A record that starts in the middle of the match."""
    out = copy.deepcopy(match)
    out.games = out.games[start:]
    return out


def write(match: m.Match, path: Path, fmt: str) -> Path:
    conv = formats.get(fmt).write([match])
    path.write_bytes(b"".join(c if isinstance(c, bytes) else c.encode("utf-8")
                              for c in conv.iter_chunks()))
    return path


# -- the fingerprint -------------------------------------------------------------------

@needs_corpora
def test_the_fingerprint_ignores_what_copies_disagree_on():
    match = _read(REAL / SNARHEIM)
    fp = fingerprint(match)
    for change in (swap_sides, respell, trailing_roll, no_last_result):
        assert fingerprint(change(match)) == fp, change.__name__
    # a copy holding the first games holds the first keys; one that starts
    # later, the last keys
    assert fp.startswith(fingerprint(first_games(match, 5)))
    assert fp.endswith(fingerprint(later_games(match, 4)).split(":", 1)[1])
    # and a record that is another match of the same players differs
    others = {fingerprint(_read(REAL / name)) for name in TAKADA}
    assert len(others) == len(TAKADA) == 4


@needs_corpora
def test_the_fingerprint_is_the_same_through_every_format(tmp_path):
    match = _read(REAL / SNARHEIM)
    for fmt in ("mat", "sgf", "json"):
        back = _read(write(swap_sides(match), tmp_path / f"m.{fmt}", fmt))
        assert fingerprint(back) == fingerprint(match), fmt


# -- the command on made copies --------------------------------------------------------

@needs_corpora
def test_copies_of_a_real_match_are_one_group_and_other_matches_are_not(tmp_path):
    match = _read(REAL / SNARHEIM)
    made = {
        "swapped.mat": (swap_sides(match), "mat"),
        "respelled.sgf": (respell(match), "sgf"),
        "trailing.sgf": (trailing_roll(swap_sides(match)), "sgf"),
        "no-result.json": (no_last_result(match), "json"),
        "cut.mat": (cut_last_game(respell(match)), "mat"),
        "first5.mat": (first_games(match, 5), "mat"),
        "from5.sgf": (later_games(swap_sides(match), 4), "sgf"),
    }
    for name, (mt, fmt) in made.items():
        write(mt, tmp_path / name, fmt)
    for name in TAKADA:   # four other matches of two players at one length
        (tmp_path / name).write_bytes((REAL / name).read_bytes())
    (tmp_path / "original.txt").write_bytes((REAL / SNARHEIM).read_bytes())
    # (a folder scan takes no .json: it is given by name)
    groups = groups_of(tmp_path, tmp_path / "no-result.json")
    ours = group_with(groups, "original.txt")
    assert sorted(Path(c["path"]).name for c in ours) == sorted([*made, "original.txt"])
    for name in TAKADA:
        assert len(group_with(groups, name)) == 1, name
    by_name = {Path(c["path"]).name: c for c in ours}
    kinds = {n: {d["kind"] for d in c["differences"]} for n, c in by_name.items()}
    assert [n for n, c in by_name.items() if c["best"]] == ["original.txt"]
    assert {n for n, c in by_name.items() if c["complete"]} == {
        "original.txt", "swapped.mat", "respelled.sgf", "trailing.sgf"}
    assert "sides-swapped" in kinds["swapped.mat"]
    assert "names-spelt" in kinds["respelled.sgf"] or "other-names" in kinds["respelled.sgf"]
    assert "no-results" in kinds["no-result.json"]
    assert "game-cut" in kinds["cut.mat"]
    assert "fewer-games" in kinds["first5.mat"] and "fewer-games" in kinds["from5.sgf"]
    assert by_name["from5.sgf"]["first_game"] == 5
    assert {c["format"] for c in ours} == {"mat", "sgf", "json"}


@needs_corpora
def test_the_corpora_charlot_snarheim_and_the_analysed_records():
    groups = groups_of(CORPUS, CORPUS2)
    charlot = group_with(groups, "test__charlot1-charlot2_7p_2025-11-08-2305.mat")
    assert sorted(Path(c["path"]).suffix for c in charlot) == [".mat", ".sgf", ".xg"]
    # the other match of the same players and length stays apart
    assert len(group_with(groups, "test__charlot1-charlot2_7p_2025-11-08-2308.sgf")) == 1
    # the XG and the SGF copies both carry an analysis (gnubg's SGF analysis is
    # read too): the one to keep is the most analysed, never the bare .mat
    [best] = [c for c in charlot if c["best"]]
    analysed = {c["format"]: c["analysis"]["actions"] for c in charlot if c["analysis"]}
    assert set(analysed) == {"sgf", "xg"} and all(n > 0 for n in analysed.values())
    assert best["format"] in analysed and best["analysis"]["actions"] == max(analysed.values())
    snarheim = group_with(groups, SNARHEIM)
    assert len(snarheim) == 2 and any(c["path"].endswith(" (1).txt") for c in snarheim)
    expected = json.loads((CORPUS2 / "analysed" / "expected.json").read_text(encoding="utf-8"))
    for name, facts in expected.items():
        group = group_with(groups, name)
        assert Path(facts["source"]).name in {Path(c["path"]).name for c in group}, name


# -- writing one copy of each ----------------------------------------------------------

@needs_corpora
def test_keep_writes_one_copy_of_each_match(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    match = _read(REAL / SNARHEIM)
    write(first_games(match, 5), src / "a-first.mat", "mat")
    (src / "b-full.txt").write_bytes((REAL / SNARHEIM).read_bytes())
    (src / TAKADA[0]).write_bytes((REAL / TAKADA[0]).read_bytes())
    out = tmp_path / "out"
    r = run("dedupe", str(src), "--keep", "best", "--out-dir", str(out))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == sorted(["b-full.txt", TAKADA[0]])
    assert (out / "b-full.txt").read_bytes() == (REAL / SNARHEIM).read_bytes()
    first = tmp_path / "first"
    r = run("dedupe", str(src), "--keep", "first", "--out-dir", str(first))
    assert sorted(p.name for p in first.iterdir()) == sorted(["a-first.mat", TAKADA[0]])
    # again: the files are there, and are not replaced without --force
    r = run("dedupe", str(src), "--keep", "first", "--out-dir", str(first))
    assert r.exit_code == 2 and "already exists" in r.output


def test_keep_never_writes_through_a_link_out_of_the_folder(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "m.mat").write_bytes((ROOT / "examples" / "gnubg-selfplay-5pt.mat").read_bytes())
    out = tmp_path / "out"
    out.mkdir()
    outside = tmp_path / "elsewhere.mat"
    outside.write_text("precious\n")
    (out / "m.mat").symlink_to(outside)
    r = run("dedupe", str(src), "--keep", "best", "--out-dir", str(out), "--force")
    assert r.exit_code == 2 and "outside" in r.output
    assert outside.read_text() == "precious\n"


def test_usage_errors(tmp_path):
    r = run("dedupe", str(ROOT / "examples"), "--keep", "best")
    assert r.exit_code == 2 and "--out-dir" in r.output
    r = run("dedupe", "-")
    assert r.exit_code == 2
    r = run("dedupe", str(tmp_path))
    assert r.exit_code == 2 and "no match files" in r.output


def test_unreadable_inputs_are_reported_and_the_others_grouped(tmp_path):
    (tmp_path / "bad.mat").write_text("not a match\n")
    example = ROOT / "examples" / "gnubg-selfplay-5pt.mat"
    (tmp_path / "a.mat").write_bytes(example.read_bytes())
    (tmp_path / "b.mat").write_bytes(example.read_bytes())
    r = run("dedupe", str(tmp_path))
    assert r.exit_code == 2
    assert "bad.mat" in r.stderr and "GM002" in r.stderr
    assert "2 copies" in r.stdout


def test_jobs_give_the_same_report(tmp_path):
    one = run("dedupe", "--format", "json", "--all", "--jobs", "1", str(ROOT / "tests" / "data"))
    two = run("dedupe", "--format", "json", "--all", "--jobs", "2", str(ROOT / "tests" / "data"))
    assert one.stdout == two.stdout
    assert json.loads(one.stdout)["groups"]


@needs_corpora
def test_copies_inside_archives_are_grouped_and_kept_from_them(tmp_path):
    import tarfile
    import zipfile
    match = _read(REAL / SNARHEIM)
    swapped = write(swap_sides(match), tmp_path / "swapped.sgf", "sgf")
    with zipfile.ZipFile(tmp_path / "a.zip", "w") as z:
        z.write(REAL / SNARHEIM, "in/zip-copy.txt")
        z.write(REAL / TAKADA[0], "other.txt")
    with tarfile.open(tmp_path / "b.tar.gz", "w:gz") as t:
        t.add(swapped, "tar-copy.sgf")
    swapped.unlink()
    groups = groups_of(tmp_path)
    ours = group_with(groups, "zip-copy.txt")
    assert sorted(c["path"] for c in ours) == [f"{tmp_path / 'a.zip'}!in/zip-copy.txt",
                                               f"{tmp_path / 'b.tar.gz'}!tar-copy.sgf"]
    out = tmp_path / "out"
    r = run("dedupe", str(tmp_path), "--keep", "first", "--out-dir", str(out))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["other.txt", "zip-copy.txt"]
    assert (out / "zip-copy.txt").read_bytes() == (REAL / SNARHEIM).read_bytes()


@needs_corpora
def test_the_matches_table_has_the_fingerprint(tmp_path):
    match = _read(REAL / SNARHEIM)
    src = tmp_path / "in"
    src.mkdir()
    write(swap_sides(respell(match)), src / "swapped.sgf", "sgf")
    (src / "original.txt").write_bytes((REAL / SNARHEIM).read_bytes())
    r = run("export", str(src), "-o", str(tmp_path / "t"), "--to", "jsonl", "--jobs", "1")
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for part in sorted((tmp_path / "t" / "matches").iterdir())
            for line in part.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 2
    assert rows[0]["fingerprint"] == rows[1]["fingerprint"] == fingerprint(match)
    assert rows[0]["match_id"] != rows[1]["match_id"]   # the players differ, so the ids do


@needs_corpora
def test_two_copies_that_overlap_stand_on_one_line_of_games():
    from gamao_cli.archive.dedupe import copy_of, group_all
    match = _read(REAL / SNARHEIM)
    head = copy_of(first_games(match, 5), "head.mat", 0, "mat")          # games 1-5
    middle = copy_of(first_games(later_games(match, 2), 6), "mid.mat", 0, "mat")  # 3-8
    [group] = group_all([head, middle])
    assert [(c.offset, c.complete) for c in group.copies] == [(0, False), (2, False)]
    assert head.differences[0] == {"kind": "fewer-games", "games": 5, "of": 8, "from_game": 1}
    assert middle.best and middle.differences[0]["from_game"] == 3
    assert group.fingerprint == fingerprint(first_games(match, 8))   # what they hold together
    # a third copy with another game between them is another match
    other = later_games(match, 2)
    other.games[1] = match.games[-1]
    [_, alone] = group_all([head, copy_of(other, "other.mat", 0, "mat")])
    assert [c.label for c in alone.copies] == ["other.mat"]


def test_an_out_dir_that_cannot_be_is_refused_before_reading(tmp_path):
    (tmp_path / "file").write_text("x")
    for out in (str(tmp_path / "file" / "sub"), "s3://bucket/unique"):
        r = run("dedupe", str(ROOT / "examples"), "--keep", "best", "--out-dir", out)
        assert r.exit_code == 2 and "nothing was written" in r.output, out
        assert "copies in" not in r.output     # nothing was read


def test_a_bug_of_gamao_on_one_input_is_gm008_and_exit_3(tmp_path, monkeypatch):
    from gamao_cli.archive import dedupe as d
    example = ROOT / "examples" / "gnubg-selfplay-5pt.mat"
    (tmp_path / "a.mat").write_bytes(example.read_bytes())
    (tmp_path / "b.mat").write_bytes((ROOT / "examples" / "illegal-play.mat").read_bytes())
    real = d.copy_of

    def failing(match, label, *args, **kwargs):
        if label.endswith("a.mat"):
            raise RuntimeError("boom")
        return real(match, label, *args, **kwargs)

    monkeypatch.setattr(d, "copy_of", failing)
    monkeypatch.delenv("GAMAO_DEBUG", raising=False)
    r = run("dedupe", "--all", "--jobs", "1", str(tmp_path))
    assert r.exit_code == 3
    assert "a.mat" in r.stderr and "GM008" in r.stderr
    assert "1 copy in 2 files" in r.stdout    # the other input is still read


def test_a_roll_token_kept_by_dice_and_text_is_the_one_its_movements_make():
    """roll_token keeps a play's token by its dice and play text: every play
    of the corpus (and of the local files) read after many others gets the
    token its own movements make, as written forms that display alike
    (``bar/20``, ``25/20``; ``6/4(2)``, ``6/4 6/4``) share one entry."""
    from conftest import EXAMPLES, SELFPLAY, corpus_sample
    from gamao_cli.archive.fingerprint import _play_token, roll_token
    paths = sorted(SELFPLAY.glob("*.mat")) + sorted(EXAMPLES.glob("*.mat")) + \
        (corpus_sample(bulk_step=5) if CORPUS.is_dir() else [])
    plays = 0
    for path in paths:
        try:
            matches = formats.read_path(str(path))
        except Exception:   # a file the corpus holds because it is unreadable
            continue
        for match in matches:
            for game in match.games:
                for a in game.actions:
                    if type(a) is m.Play:
                        assert roll_token(a) == _play_token(a), (path, a.line, a.play_text())
                        plays += 1
    assert plays > 1000
    for text in ("bar/20 6/4", "25/20 6/4"):
        [match] = formats.parse_text(f" 1 point match\n\n Game 1\n A : 0   B : 0\n"
                                     f"  1) 31: 8/5 6/5   52: {text}\n", "x.mat")
        assert roll_token(match.games[0].actions[1]) == "52 -25 +20 -6 +4"


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")
def test_the_fingerprint_is_the_text_of_the_game_keys_on_the_corpus():
    """fingerprint() makes only the keys; the definition is the text of
    the whole GameKeys (fingerprint_of), on a third of the corpus."""
    from conftest import corpus_sample
    from gamao_cli.archive.fingerprint import fingerprint_of, game_keys
    from gamao_cli.errors import GamaoError
    seen = 0
    for path in corpus_sample(bulk_step=3):
        try:
            matches = formats.read_path(str(path))
        except GamaoError:
            continue
        for match in matches:
            assert fingerprint(match) == fingerprint_of(match.length, game_keys(match)), path
            seen += len(match.games)
    assert seen > 1500
