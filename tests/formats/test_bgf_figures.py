"""gamao's figures of BGBlitz ``.bgf`` files (every game of
``../shared/corpus2/bgf``) against BGBlitz's own figures in the same file
(``prGreen``/``prRed`` and ``luck`` of each game, kept as the result's
stated figures, never read into gamao's). docs/analysis.md ("BGBlitz's
figures") says how BGBlitz defines each, as measured here:

- BGBlitz's error totals and counts (``checkerError``/``checkerCnt``,
  ``cubeError``/``cubeCnt``) are the sums and counts of its rated
  decisions (a ``pr`` error that is not -99): gamao's PR decisions
  (``xg.decisions``, ``xg.error_total``) are exactly those;
- ``cube.error_total`` (gnubg's definition: every analysed cube decision)
  equals BGBlitz's ``cubeError``: the cube decisions BGBlitz does not rate
  cost nothing;
- ``checker.error_total`` (every unforced play) is BGBlitz's
  ``checkerError`` plus the losses of the few unforced plays BGBlitz does
  not rate (at most 0.0012 EMG a game on the samples);
- in match play the errors as match winning chances (``*ErrMWP``) are
  BGBlitz's, through its match equity table; gamao's use Kazaross-XG2, so
  they differ by the two tables' difference (:data:`MWC_BOUND`);
- a game's ``luck`` is not the sum of its rolls' luck: it is Red's result
  less the two players' skill difference, ``result(Red) - (errors(Red) -
  errors(Green))`` with errors negative as BGBlitz states them, in points
  for money (equal here to 1e-6) and in match winning chances in a match
  (within :data:`LUCK_BOUND`: the result's chance is read from each
  program's own table, 62.35% to lead 2-0 in a 7-point match in BGBlitz's
  cube analysis, 62.64% in Kazaross-XG2).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from gamao_cli import formats
from gamao_cli import model as m
from gamao_cli.analysis.decisions import decisions_of
from gamao_cli.analysis.figures import _scores, match_figures
from gamao_cli.analysis.met import KAZAROSS_XG2, CubeState

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAMAO_SHARED", ROOT / ".." / "shared"))
BGF_DIR = SHARED / "corpus2" / "bgf"
FILES = sorted(BGF_DIR.glob("*.bgf")) if BGF_DIR.is_dir() else []
needs_bgf = pytest.mark.skipif(not FILES, reason=f"the BGBlitz samples are not at {BGF_DIR}")

#: the largest gap of a match-winning-chance error total (a fraction): the
#: two match equity tables (measured 0.0028)
MWC_BOUND = 0.003
#: the largest gap of a match game's luck (a fraction; measured 0.0071)
LUCK_BOUND = 0.008
EXACT = 1e-6


def _games(path: Path):
    """Each game with a stated figure: (game, score before it, its figures,
    BGBlitz's stated figures)."""
    [match] = formats.read_path(str(path))
    figures = match_figures(match)
    out = []
    for (game, score), gf in zip(_scores(match), figures.games):
        stated = [a.analysis["stated_figures"] for a in game.actions
                  if isinstance(a, m.Win) and a.analysis]
        if stated:
            out.append((game, score, gf, stated[0]))
    return match, out


def _unrated_losses(game: m.Game, player: int) -> float:
    """The losses of the player's unforced plays BGBlitz does not rate."""
    total = 0.0
    for a in game.actions:
        d = decisions_of(a)
        c = d.checker if d is not None else None
        if c is not None and c.player == player and not c.forced and c.counts is False:
            total += c.equity_loss or 0.0
    return total


@needs_bgf
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_gamao_s_figures_against_bgblitz_s_own(path):
    match, games = _games(path)
    assert games
    mwc_gaps = []
    for game, score, gf, stated in games:
        ours = gf.stats()
        for i in (0, 1):
            s = stated[str(i)]
            where = (game.number, i)
            assert ours["xg"]["decisions"][i] == s["checkerCnt"] + s["cubeCnt"], where
            assert ours["xg"]["error_total"][i] == pytest.approx(
                -(s["checkerError"] + s["cubeError"]), abs=EXACT), where
            assert ours["cube"]["error_total"][i] == pytest.approx(s["cubeError"], abs=EXACT)
            assert ours["checker"]["error_total"][i] == pytest.approx(
                s["checkerError"] - _unrated_losses(game, i), abs=EXACT), where
            assert _unrated_losses(game, i) <= 0.0015
            if match.length:
                counted = [0.0, 0.0]   # checker, cube: what the rated decisions cost
                for errors in gf.errors.values():
                    for e in errors:
                        if e.player == i and e.counted:
                            counted[e.kind != "checker"] += e.error_mwc
                for ours_mwc, theirs in zip(counted, (s["checkerErrMWP"], s["cubeErrMWP"])):
                    mwc_gaps.append(abs(ours_mwc + theirs))
    assert max(mwc_gaps, default=0.0) <= MWC_BOUND


@needs_bgf
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_bgblitz_s_game_luck_is_red_s_result_less_the_skill_difference(path):
    match, games = _games(path)
    for game, score, gf, stated in games:
        [win] = [a for a in game.actions if isinstance(a, m.Win)][:1]
        errors = [0.0, 0.0]    # of the rated decisions: EMG for money, MWC in a match
        for lst in gf.errors.values():
            for e in lst:
                if e.counted:
                    errors[e.player] += e.error_mwc if match.length else e.error
        if match.length:
            s = CubeState(match.length, score, 1, None, 1)
            result = (KAZAROSS_XG2.after_game(s, 1, win.points, win.player)
                      - KAZAROSS_XG2.at_score(s, 1))
        else:
            result = win.points if win.player == 1 else -win.points
        luck = result + errors[1] - errors[0]
        bound = LUCK_BOUND if match.length else EXACT
        assert abs(luck - stated["luck"]["luckPlain"]) <= bound, game.number


@needs_bgf
def test_the_cube_and_the_luck_are_mapped():
    """A take's decision is the doubler's (his chances, not the taker's); a
    roll's luck is the roll's, normalised to a 1-cube."""
    [match] = formats.read_path(str(BGF_DIR / "5nqfGw9bWG3deTaU.bgf"))
    acts = match.games[0].actions
    [double] = [a for a in acts if isinstance(a, m.Double)][:1]
    take = acts[acts.index(double) + 1]
    assert isinstance(take, m.Take)
    d, t = decisions_of(double).cube, decisions_of(take).cube
    assert (d.player, d.doubled, d.answer, d.unit) == (1, True, None, "mwc")
    assert (t.player, t.doubled, t.answer) == (1, True, "take")
    assert (t.no_double, t.double_take, t.double_pass) == pytest.approx(
        (d.no_double, d.double_take, d.double_pass))
    # BGBlitz: Green's take was wrong by 0.34342677 EMG (0.02 of the match)
    assert t.stated_errors == {"take": pytest.approx(0.34342677)}
    first = decisions_of(acts[0])
    # match play: luckWeighted, luckPlain (0.00853599 MWC) times 2 / (W - L)
    assert first.luck.value == pytest.approx(0.14335518)
    assert first.cube is None    # the opening roll: no cube decision
    second = decisions_of(acts[1])
    assert second.cube is not None and not second.cube.doubled and second.cube.counts is False


def _through(match: m.Match, target: str, tmp_path: Path) -> m.Match:
    result = formats.get(target).write([match])
    out = tmp_path / f"back.{target}"
    if result.data is not None:
        out.write_bytes(result.data)
    else:
        out.write_text(result.text, encoding="utf-8")
    [back] = formats.read_path(str(out))
    return back


@needs_bgf
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_the_analysis_survives_json_and_sgf(path, tmp_path):
    """gamao's JSON keeps every decision, so every figure; SGF (GNU
    Backgammon's properties) keeps the candidates with their steps, the
    cube equities and the luck, so GNU Backgammon's counts and checker and
    luck figures, but not BGBlitz's own errors and ratings (PR's decisions
    are then gamao's, a match's cube errors recomputed from the chances)."""
    [match] = formats.read_path(str(path))
    ours = match_figures(match).stats()
    assert match_figures(_through(match, "json", tmp_path)).stats() == ours
    back = match_figures(_through(match, "sgf", tmp_path)).stats()
    for section in ("checker", "cube", "luck", "overall"):
        for figure, pair in ours[section].items():
            if isinstance(pair[0], int):
                assert back[section][figure] == pair, (section, figure)
            elif match.length and section in ("cube", "overall") and "error" in figure:
                # a match's cube errors come back from the chances SGF holds
                # through gamao's table, not as BGBlitz's own EMG errors
                continue
            else:
                # SGF's decimals (equities 6, luck 5); a rate is per thousand
                tolerance = 0.1 if "rate" in figure else 0.001
                if figure.endswith("_mwc") and match.length:
                    tolerance *= 100
                assert back[section][figure] == pytest.approx(pair, abs=tolerance), \
                    (section, figure)


def test_a_cube_decision_at_a_score_past_the_match_s_end_is_not_measured(tmp_path):
    """Found by ``fuzz/fuzz_reader.py bgf`` (2026-12-02): a game at 0-10 in
    a 7-point match with BGBlitz's cube analysis (match winning chances):
    winning and losing the cube give the same chance there, and turning the
    chances into equity divided by zero in the figures (and so in
    ``convert --to sgf``). The decision is now not measured; the rest is."""
    import gzip
    import json
    cube = {"eqNoDouble": "0.60", "eqDoubleTake": "0.70", "eqDoublePass": "0.65"}
    roll = {"type": "amove", "player": -1, "green": 3, "red": 1, "from": [8, 6, -1, -1],
            "to": [5, 5, -1, -1], "equity": {"emg": "0.1", "cubeDecision": cube},
            "moveAnalysis": [{"move": {"from": [8, 6, -1, -1], "to": [5, 5, -1, -1]},
                              "eq": {"emg": "0.1"}, "played": True}],
            "luck": {"luckPlain": "0.01", "luckWeighted": "0.1"},
            "pr": {"cubeError": "0.0", "checkerError": "0.0"}}
    record = {"matchlen": 7, "games": [{"scoreGreen": 0, "scoreRed": 10, "moves": [roll]}]}
    data = (b'{"format":"BGF","version":"1.0","compress":true,"useSmile":false}\n'
            + gzip.compress(json.dumps(record).encode()))
    from gamao_cli.formats.bgf.reader import read_bgf
    match = read_bgf(data, "past-the-end.bgf")
    assert decisions_of(match.games[0].actions[0]).cube is not None
    stats = match_figures(match).stats()
    assert stats["cube"]["cube_decisions"] == [0, 0]
    assert stats["luck"]["luck_total"] == [0.1, 0.0]
    # convert --to sgf raised ZeroDivisionError; it writes, and reads back
    assert len(_through(match, "sgf", tmp_path).games) == 1
