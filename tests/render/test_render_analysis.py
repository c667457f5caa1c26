"""The analysis on the replay page, read in headless Chromium: at a move,
the program's candidates with their equities and the error of the play made
(the record's own analysis: GNU Backgammon's in an analysed SGF, eXtreme
Gammon's in an ``.xg``); the move list coloured as GNU Backgammon marks a
doubtful, bad or very bad move; the players' figures opening the match, the
figures ``gamao summary`` gives. Skipped where Chromium, chromedriver or
selenium is missing, or the test corpus is not there.
"""
from __future__ import annotations

import shutil

import pytest

from gamao_cli.analysis.decisions import decisions_of
from gamao_cli.analysis.figures import match_figures
from gamao_cli.render.html import replay_page

from render_support import ROOT, loaded, webdriver_session

CORPUS2 = ROOT.parent / "shared" / "corpus2"
SGF = CORPUS2 / "analysed" / ("BGChallengeAdmin__TheBackgammonChallenge__TheBackgammonChallenge__"
                              "Assets__Backgammon_Assets__HistoricMatches__TextFiles__NotBundled__"
                              "02_ipe-sam_11p_2022-07-10_1659882137.sgf")
XG = CORPUS2 / "xg" / "kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg"
pytestmark = pytest.mark.skipif(not (SGF.is_file() and XG.is_file()),
                                reason=f"the analysed records of the test corpus are not in {CORPUS2}")

PANEL = """var box = document.getElementById('analysis');
var rows = Array.from(box.querySelectorAll('table.candidates tbody tr')).map(function (tr) {
  return Array.from(tr.children).map(function (td) { return td.textContent; })
    .concat([tr.classList.contains('played')]); });
var v = box.querySelector('.checker-verdict'), h = box.querySelector('h2');
return {hidden: box.hidden, rows: rows, verdict: v ? v.textContent : null,
  verdictClass: v ? v.className : null, head: h ? h.textContent : null,
  index: +document.body.getAttribute('data-index')};"""

FIGURES = """return Array.from(document.querySelectorAll(
  'section.match[data-match="0"] table.figures tbody tr')).map(function (tr) {
  return [tr.getAttribute('data-figure')].concat(
    Array.from(tr.querySelectorAll('td')).map(function (td) { return td.textContent; })); });"""


@pytest.fixture(scope="module")
def driver():
    drv, profile = webdriver_session()
    yield drv
    drv.quit()
    shutil.rmtree(profile, ignore_errors=True)


def page_of(path, tmp_path):
    _, found = loaded(path)
    page = tmp_path / (path.stem[-20:] + ".html")
    page.write_text(replay_page([(m, r) for m, r, _ in found], path=path.name), encoding="utf-8")
    return page.as_uri(), found[0]


def _open(driver, url: str, index: int) -> dict:
    driver.get(f"{url}?i={index}#s{index}")
    return driver.execute_script(PANEL)


@pytest.mark.parametrize("path", [SGF, XG], ids=["gnubg-sgf", "xg"])
def test_a_move_shows_its_candidates_and_the_error_made(driver, tmp_path, path):
    url, (match, _report, snaps) = page_of(path, tmp_path)
    errors = match_figures(match).errors
    # a move where the player chose another play than the program's best
    index, checker = next((i, d.checker) for i, s in enumerate(snaps)
                          if (d := decisions_of(s.action)) is not None and d.checker is not None
                          and d.checker.played not in (None, 0)
                          and d.checker.played < 8 and len(d.checker.candidates) > 2)
    seen = _open(driver, url, index)
    assert seen["index"] == index and not seen["hidden"]
    program = "GNU Backgammon" if path is SGF else "eXtreme Gammon"
    assert seen["head"].startswith(f"{program}'s analysis")
    shown = [(int(rank), play, float(eq)) for rank, play, eq, _loss, _played in seen["rows"]]
    assert shown == [(i + 1, c.play, pytest.approx(c.equity, abs=0.0006))
                     for i, c in enumerate(checker.candidates[:8])]
    assert [r[4] for r in seen["rows"]] == [i == checker.played for i in range(len(shown))]
    cost = next(e for e in errors[id(snaps[index].action)] if e.kind == "checker")
    who = match.players[snaps[index].action.player]
    assert seen["verdict"].startswith(
        f"{who} played rank {checker.played + 1}, losing {cost.error:.3f}")
    # a position with no analysis (a result line) shows none
    end = next(i for i, s in enumerate(snaps) if s.action.move_number is None)
    assert _open(driver, url, end)["hidden"]


def test_a_bad_move_is_marked_in_the_list_and_at_the_board(driver, tmp_path):
    url, (match, _report, snaps) = page_of(SGF, tmp_path)
    errors = match_figures(match).errors
    index, cost = next((i, e) for i, s in enumerate(snaps) for e in errors.get(id(s.action), ())
                       if e.kind == "checker" and e.mark == "bad")
    seen = _open(driver, url, index)
    assert "bad" in seen["verdictClass"].split() and seen["verdict"].endswith("(bad)")
    link = driver.find_element("css selector", f'a.act[data-s="{index}"]')
    assert "mark-bad" in link.get_attribute("class").split()
    assert link.get_attribute("title") == f"bad: lost {cost.error:.3f}"
    plain = driver.find_element("css selector", "a.act:not([class*=mark-])")
    assert link.value_of_css_property("background-color") != \
        plain.value_of_css_property("background-color")
    marked = driver.find_elements("css selector", "a.act.mark-doubtful, a.act.mark-bad, "
                                                  "a.act.mark-very-bad")
    worst = {id(a) for a, es in ((s.action, errors.get(id(s.action), ())) for s in snaps)
             if any(e.mark for e in es)}
    assert len(marked) == len(worst)


@pytest.mark.parametrize("path", [SGF, XG], ids=["gnubg-sgf", "xg"])
def test_the_players_figures_open_the_match(driver, tmp_path, path):
    url, (match, _report, _snaps) = page_of(path, tmp_path)
    driver.get(url)
    rows = {r[0]: r[1:] for r in driver.execute_script(FIGURES)}
    st = match_figures(match).stats()
    assert rows["pr"] == [f"{v:.2f}" for v in st["xg"]["pr"]]
    assert rows["checker-rate"] == [f"{abs(v):.1f}" for v in st["checker"]["error_rate"]]
    assert rows["cube-rate"] == [f"{abs(v):.1f}" for v in st["cube"]["error_rate"]]
    assert rows["unforced"] == [str(int(v)) for v in st["checker"]["unforced_moves"]]
    assert rows["luck-rate"] == [f"{v:+.1f}" for v in st["luck"]["luck_rate"]]
    heads = driver.find_elements("css selector", 'section.match[data-match="0"] table.figures th')
    assert [h.text for h in heads[1:3]] == list(match.players)


def test_no_analysis_no_panel(driver, tmp_path):
    url, (match, _report, snaps) = page_of(ROOT / "examples" / "illegal-play.mat", tmp_path)
    assert _open(driver, url, 3)["hidden"] is True
    assert driver.find_elements("css selector", "table.figures") == []
