"""SGF against GNU Backgammon itself (Debian's ``/usr/games/gnubg``).

(a) gnubg's own exports agree: each self-play match of ``tests/data/selfplay``
    is loaded into gnubg from its SGF and exported again as a match file and
    as SGF; the stored pair and the fresh pair all read into the same match
    (length, players, games with every action).
(b) our SGF is gnubg's SGF: our export of each self-play match and of real
    corpus match files (those gnubg scores as the record does, see
    ``clean_corpus_files``) loads into gnubg with the same games, winners, points,
    resignations and final score, and the same position (Position ID) before
    every roll as gamao's replay; gnubg's match-file export of our SGF of a
    self-play match reads into the original match.
(c) gamao's private properties change nothing for gnubg: our SGF of a match
    with every kind of cell only gamao keeps (and of the real match files that
    have such cells) loads into the same match as the same SGF without them.

gnubg runs once per test group with ``tests/gnubg_scripts/dump_sgf.py``
(``gnubg -t -q -r -p``: the ``gnubg`` wheel's ``load match`` crashes on SGF).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import CORPUS, SELFPLAY, corpus_match_files, needs_corpus, read
from gamao_cli import model as m
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.ids import position_id
from gamao_cli.formats.sgf.reader import read_sgf
from gamao_cli.formats.sgf.writer import write_sgf as convert
from gamao_cli.replay.replay import RESIGN, TIME, validate_match

GNUBG = Path(os.environ.get("GNUBG", "/usr/games/gnubg"))
SCRIPT = Path(__file__).resolve().parent / "gnubg_scripts" / "dump_sgf.py"

pytestmark = [
    pytest.mark.gnubg,
    pytest.mark.skipif(not GNUBG.exists(), reason=f"needs Debian's GNU Backgammon at {GNUBG} "
                       "(apt-get install gnubg); the gnubg wheel cannot load SGF"),
]

# gnubg recomputes what these diagnostics accept as written (Galaxy's capped
# points of a match's last game, a loss on time, a Jacoby game in a match,
# a resignation worth the match): such files are not compared.
NOT_GNUBGS_SCORE = {"GM408", "GM409", "GM411", "GM412"}
# what gnubg says when it cannot read something
PROBLEM_WORDS = re.compile(r"error|invalid|illegal|unknown|unrecognised|no such file|cannot",
                           re.I)


def selfplay_sgfs() -> list[Path]:
    return sorted(SELFPLAY.glob("m*.sgf"))


def run_gnubg(paths: list[Path], workdir: Path, export: Path | None = None) -> dict:
    """Load every file in one gnubg process; what gnubg made of each, by path."""
    listing = workdir / "files.txt"
    listing.write_text("".join(f"{p}\n" for p in paths), encoding="utf-8")
    out = workdir / "gnubg.json"
    env = dict(os.environ, GAMAO_GNUBG_LIST=str(listing), GAMAO_GNUBG_OUT=str(out))
    if export is not None:
        export.mkdir(exist_ok=True)
        env["GAMAO_GNUBG_EXPORT"] = str(export)
    for _attempt in range(2):  # a gnubg starting beside another may fail on ~/.gnubg: retry
        proc = subprocess.run([str(GNUBG), "-t", "-q", "-r", "-p", str(SCRIPT)], env=env,
                              capture_output=True, text=True, timeout=900, cwd=workdir)
        if out.exists():
            break
    assert out.exists(), f"gnubg wrote nothing (rc {proc.returncode}): {proc.stderr[-2000:]}"
    return json.loads(out.read_text(encoding="utf-8"))


def problems(messages: str) -> list[str]:
    return [line.strip() for line in messages.splitlines() if PROBLEM_WORDS.search(line)]


def same_record(a: m.Match, b: m.Match, what: str) -> None:
    assert (a.length, a.players, len(a.games)) == (b.length, b.players, len(b.games)), what
    for ga, gb in zip(a.games, b.games):
        assert (ga.number, ga.score) == (gb.number, gb.score), f"{what}: game {ga.number}"
        assert ga.actions == gb.actions, f"{what}: game {ga.number}"


# ------------------------------------------------------------------ (a)

@pytest.fixture(scope="module")
def gnubg_reexports(tmp_path_factory):
    sgfs = selfplay_sgfs()
    if not sgfs:
        pytest.skip(f"no self-play pairs in {SELFPLAY}")
    work = tmp_path_factory.mktemp("gnubg_a")
    export = work / "export"
    return run_gnubg(sgfs, work, export), export


@pytest.mark.parametrize("sgf", selfplay_sgfs(), ids=lambda p: p.stem)
def test_gnubgs_exports_of_a_selfplay_match_read_into_one_match(sgf, gnubg_reexports):
    dumped, export = gnubg_reexports
    assert problems(dumped[str(sgf)]["messages"]) == []
    [stored_sgf] = read_sgf(sgf.read_text("utf-8"), str(sgf))
    [stored_mat] = read_matches(sgf.with_suffix(".mat").read_text("utf-8"), str(sgf))
    fresh_sgf_path = export / sgf.name
    fresh_mat_path = export / sgf.with_suffix(".mat").name
    [fresh_sgf] = read_sgf(fresh_sgf_path.read_text("utf-8"), str(fresh_sgf_path))
    [fresh_mat] = read_matches(fresh_mat_path.read_text("utf-8"), str(fresh_mat_path))
    same_record(stored_sgf, stored_mat, "stored .sgf / stored .mat")
    same_record(stored_sgf, fresh_sgf, "stored .sgf / gnubg's new .sgf")
    same_record(stored_sgf, fresh_mat, "stored .sgf / gnubg's new .mat")


# ------------------------------------------------------------------ (b)

def clean_corpus_files() -> list[Path]:
    """Real match files gnubg scores as the record does: those outside
    ``bulk/`` and every 20th of ``bulk/``, less the ones the validator finds
    errors in or reads a result of that gnubg recomputes."""
    files = corpus_match_files()
    plain = [p for p in files if "bulk" not in p.relative_to(CORPUS).parts]
    bulk = [p for p in files if "bulk" in p.relative_to(CORPUS).parts]
    out = []
    for path in plain + bulk[::20]:
        try:
            matches = read_matches(read(path), str(path))
        except Exception:
            continue
        if len(matches) != 1:
            continue
        report = validate_match(matches[0])
        if report.errors or any(d.code in NOT_GNUBGS_SCORE for d in report.diagnostics):
            continue
        out.append(path)
    return out


def our_view(match: m.Match) -> dict:
    """Games, results and the position before every roll, by gamao's replay."""
    report = validate_match(match, keep_records=True)
    games = []
    for res in report.games:
        boards = [position_id(r.position.me, r.position.opp) for r in res.records
                  if isinstance(r.action, (m.Play, m.Dance)) and r.position is not None]
        games.append({"winner": res.winner, "points": res.points,
                      "resigned": res.ended in (RESIGN, TIME), "boards": boards})
    return {"length": match.length, "players": list(match.players), "games": games,
            "final": list(report.final_score)}


def gnubg_view(dumped: dict) -> dict:
    games = []
    final = [0, 0]
    for g in dumped.get("games", []):
        games.append({"winner": g["winner"], "points": g["points"], "resigned": g["resigned"],
                      "boards": [a[4] for a in g["actions"] if a[0] == "move"]})
        final = list(g["score"])
        if g["winner"] is not None:
            final[g["winner"]] += g["points"]
    return {"length": dumped.get("length"), "players": dumped.get("players"), "games": games,
            "final": final}


@pytest.fixture(scope="module")
def our_exports_in_gnubg(tmp_path_factory):
    work = tmp_path_factory.mktemp("gnubg_b")
    sources = [p.with_suffix(".mat") for p in selfplay_sgfs()]
    if CORPUS.is_dir():
        sources += clean_corpus_files()
    if not sources:
        pytest.skip("no self-play pairs and no corpus")
    written = {}
    for i, src in enumerate(sources):
        [match] = read_matches(read(src), str(src))
        conv = convert([match])
        sgf = work / f"{i:04d}_{src.stem[:40].replace(' ', '_')}.sgf"
        sgf.write_text(conv.text, encoding="utf-8")
        written[src] = (sgf, match)
    export = work / "export"
    dumped = run_gnubg([sgf for sgf, _m in written.values()], work, export)
    return written, dumped, export


def _check_in_gnubg(src: Path, our_exports_in_gnubg) -> None:
    written, dumped, export = our_exports_in_gnubg
    sgf, match = written[src]
    d = dumped[str(sgf)]
    assert problems(d["messages"]) == [], src
    ours, theirs = our_view(match), gnubg_view(d)
    assert (theirs["length"], theirs["players"]) == (ours["length"], ours["players"])
    assert len(theirs["games"]) == len(ours["games"])
    for n, (a, b) in enumerate(zip(ours["games"], theirs["games"]), 1):
        for key in ("winner", "points", "resigned"):
            assert a[key] == b[key], f"game {n}: {key}"
        assert a["boards"] == b["boards"], f"game {n}: positions"
    assert theirs["final"] == ours["final"]


@pytest.mark.parametrize("mat", [p.with_suffix(".mat") for p in selfplay_sgfs()],
                         ids=lambda p: p.stem)
def test_our_sgf_of_a_selfplay_match_is_gnubgs_match(mat, our_exports_in_gnubg):
    _check_in_gnubg(mat, our_exports_in_gnubg)
    written, _dumped, export = our_exports_in_gnubg
    sgf, match = written[mat]
    gnubg_mat = export / sgf.with_suffix(".mat").name
    [again] = read_matches(gnubg_mat.read_text("utf-8"), str(gnubg_mat))
    same_record(match, again, "gnubg's .mat of our SGF")


def test_our_sgf_of_real_match_files_is_gnubgs_match(our_exports_in_gnubg):
    written, _dumped, _export = our_exports_in_gnubg
    corpus = [src for src in written if SELFPLAY not in src.parents]
    if not corpus:
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    assert len(corpus) >= 40
    failures = []
    for src in corpus:
        try:
            _check_in_gnubg(src, our_exports_in_gnubg)
        except AssertionError as exc:
            failures.append(f"{src.name}: {exc}")
    assert failures == []


# ------------------------------------------------------------------ (c)
# gamao's private properties (XA nodes, XS, XE, XL, XI, XC, XR[not written])
# change nothing for gnubg: our SGF and the same SGF without them load into
# the same match.

PRIVATE_CELLS = (
    "; [Site \"Club\"]\n# a comment gnubg's GC does not write\n\n 5 point match\n\n"
    " Game 1\n Ann,1612 : 0                   Bob,1498.5 : 0\n"
    "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
    "  2) 54: ????\n"
    "                                  Wins 1 point\n\n"
    " Game 2\n Ann : 0                        Bob : 1\n"
    "  1) 43: 24/20 13/10              Resigns\n"
    "      Wins 1 point\n\n"
    " Game 3\n Ann : 1                        Bob : 1\n"
    "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
    "  2) 21: Illegal play (position set)\n"
    "  3) Losses 1 point               Wins 1 point\n\n"
    " Game 4\n Ann : 1                        Bob : 2\n"
    "  1) 31: 8/5 6/5                  Doubles => 2\n"
    "  2)  Drops\n")
BEAVER = (" 0 point match\n\n Game 1\n A : 0                          B : 0\n"
          "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
          "  2)  Doubles => 2                Beavers => 4\n"
          "  3) 52: 13/11 13/8              21: 13/11 6/5\n")


def carrying_corpus_files() -> list[Path]:
    """Match files outside ``bulk/`` with cells only gamao's private
    properties carry (Losses, ????, Resigns, "Cannot Move")."""
    out = []
    for path in corpus_match_files():
        if "bulk" in path.relative_to(CORPUS).parts:
            continue
        matches = read_matches(read(path), str(path))
        if any(isinstance(a, (m.Loss, m.UnplayedRoll, m.Resign, m.IllegalPlayMarker))
               or isinstance(a, m.Dance) and a.written
               for mt in matches for g in mt.games for a in g.actions):
            out.append(path)
    return out


@pytest.fixture(scope="module")
def private_and_stripped(tmp_path_factory):
    from test_sgf import strip_private
    work = tmp_path_factory.mktemp("gnubg_c")
    sources = {"private_cells": PRIVATE_CELLS, "beaver": BEAVER}
    if CORPUS.is_dir():
        sources.update({p.stem[:40].replace(" ", "_"): read(p) for p in carrying_corpus_files()})
    pairs = {}
    for i, (name, text) in enumerate(sources.items()):
        [match] = read_matches(text, name)
        sgf = convert([match]).text
        ours, theirs = work / f"{i:03d}_ours.sgf", work / f"{i:03d}_plain.sgf"
        ours.write_text(sgf, encoding="utf-8")
        theirs.write_text(strip_private(sgf), encoding="utf-8")
        pairs[name] = (ours, theirs, sgf, match)
    dumped = run_gnubg([p for ours, plain, _t, _m in pairs.values() for p in (ours, plain)], work)
    return pairs, dumped


def _loaded(dumped: dict, match: m.Match) -> bool:
    """Whether gnubg's dump is of this match (a file gnubg cannot load leaves
    the one before in place)."""
    return (dumped.get("players") == list(match.players)
            and len(dumped.get("games", [])) == len(match.games))


def test_private_properties_change_nothing_for_gnubg(private_and_stripped):
    pairs, dumped = private_and_stripped
    _ours, _plain, sgf, _match = pairs["private_cells"]
    for prop in ("XA[W][unplayed]", "XA[B][resign]", "XA[W][illegal]", "XA[W][loss]",
                 "XE[1612]", "XC[", "XR[not written]"):
        assert prop in sgf, prop
    assert "XI[implied]" in pairs["beaver"][2]
    for name in ("private_cells", "beaver"):
        ours, plain, _sgf, match = pairs[name]
        a, b = dict(dumped[str(ours)]), dict(dumped[str(plain)])
        assert problems(a["messages"]) == [], name
        assert _loaded(a, match) and _loaded(b, match), name
        a.pop("messages"), b.pop("messages")
        assert a == b, name
    # the match as gnubg sees it: four games, the results RE gives
    games = dumped[str(pairs["private_cells"][0])]["games"]
    assert [(g["winner"], g["points"], g["resigned"]) for g in games] == [
        (1, 1, True), (0, 1, True), (1, 1, True), (1, 1, False)]


@needs_corpus
def test_private_properties_of_real_match_files_change_nothing_for_gnubg(private_and_stripped):
    pairs, dumped = private_and_stripped
    real = [name for name in pairs if name not in ("private_cells", "beaver")]
    assert len(real) >= 15
    kinds = set()
    for name in real:
        ours, plain, sgf, match = pairs[name]
        kinds.update(k for k in ("XA[", "XS[") if k in sgf)
        a, b = dict(dumped[str(ours)]), dict(dumped[str(plain)])
        assert _loaded(a, match), name
        said = [p.replace(str(ours), "FILE") for p in problems(a.pop("messages"))]
        assert said == [p.replace(str(plain), "FILE") for p in problems(b.pop("messages"))], name
        assert a == b, name
    assert kinds == {"XA[", "XS["}
