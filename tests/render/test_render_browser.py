"""Boards and replay pages in headless Chromium: the SVG paints a picture,
the page opens at deep links on the IDs ``gamao position`` prints, its own
controls step through every position, and its script draws what the SVG
module draws. Skipped where Chromium (or chromedriver, or selenium) is missing.
"""
from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from click.testing import CliRunner

from gamao_cli.cli import main as gamao
from gamao_cli.render.html import FIELDS, replay_page
from gamao_cli.render.svg import board, board_element

from render_support import (ROOT, by_player, distinct_colours, loaded, page_data, png_pixels,
                            record_files, run_chromium, screenshot, webdriver_session)

F = {f: i for i, f in enumerate(FIELDS)}
ILLEGAL = ROOT / "examples" / "illegal-play.mat"
SMALL = ROOT / "tests" / "data" / "selfplay" / "m0014.mat"


# -- pictures (the chromium command line) -----------------------------------

def test_svg_paints_a_board(tmp_path):
    _, found = loaded(ROOT / "examples" / "consolidated-notation-5pt.mat")
    match, _, snaps = found[0]
    svg = tmp_path / "board.svg"
    svg.write_text(board(snaps[6], size=640, names=match.players), encoding="utf-8")
    png = tmp_path / "board.png"
    screenshot(svg.as_uri(), png, (640, 536))
    width, height, rows = png_pixels(png)
    assert (width, height) == (640, 536)
    assert distinct_colours(png) > 100   # not blank: wood, points, checkers, text, anti-aliasing
    bpp = len(rows[0]) // width
    commonest = Counter(row[i:i + 3] for row in rows for i in range(0, len(row), bpp)).most_common(1)
    assert commonest[0][1] < 0.5 * width * height


@pytest.mark.slow
def test_page_paints_on_a_phone_and_a_desktop_and_prints(tmp_path):
    page = tmp_path / "replay.html"
    page.write_text(replay_page(loaded(ILLEGAL)[0], path="illegal-play.mat"), encoding="utf-8")
    for size in ((390, 844), (1280, 900)):
        png = tmp_path / f"page-{size[0]}.png"
        screenshot(page.as_uri() + "#g2m10", png, size)
        assert png_pixels(png)[:2] == size and distinct_colours(png) > 100
    pdf = tmp_path / "replay.pdf"
    run_chromium([f"--print-to-pdf={pdf}", "--no-pdf-header-footer", page.as_uri()])
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 20_000


# -- the page's behaviour (selenium through chromedriver) --------------------

@pytest.fixture(scope="module")
def driver():
    drv, profile = webdriver_session()
    drv.set_script_timeout(120)
    yield drv
    drv.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """file:// address of the replay page of each record."""
    folder = tmp_path_factory.mktemp("replays")
    out = {}
    for path in record_files():
        _, found = loaded(path)
        text = replay_page([(m, r) for m, r, _ in found], path=str(path.relative_to(ROOT)))
        page = folder / (path.stem + ".html")
        page.write_text(text, encoding="utf-8")
        out[path] = page.as_uri()
    return out


STATE = """return [document.getElementById('pid').textContent,
  document.getElementById('mid').textContent, document.getElementById('xgid').textContent,
  +document.body.getAttribute('data-index')];"""


_loads = iter(range(1, 1 << 30))


def open_at(driver, url: str, fragment: str):
    """Load the page afresh at a fragment (a new query string makes it a new
    document); its (Position ID, Match ID, XGID, index)."""
    driver.get(f"{url}?load={next(_loads)}#{fragment}")
    return driver.execute_script(STATE)


HASH = """
var done = arguments[arguments.length - 1], target = arguments[0];
function state() { return [document.getElementById('pid').textContent,
  document.getElementById('mid').textContent, document.getElementById('xgid').textContent,
  +document.body.getAttribute('data-index')]; }
if (location.hash === '#' + target) { done(state()); return; }
window.addEventListener('hashchange', function () { done(state()); }, {once: true});
location.hash = target;"""


def go_to(driver, fragment: str):
    """Follow a fragment in the page already open (as a click on a link does)."""
    return driver.execute_async_script(HASH, fragment)


def cli_ids(path, game: int, move: int, player: str | None = None) -> tuple[str, str, str]:
    args = ["position", str(path), "--game", str(game), "--move", str(move)]
    if player:
        args += ["--player", player]
    out = CliRunner().invoke(gamao, args)
    assert out.exit_code == 0, out.output
    pid = re.search(r"Position ID: (\S+)", out.output).group(1)
    mid = re.search(r"Match ID   : (\S+)", out.output).group(1)
    xg = re.search(r"^(XGID=\S+)$", out.output, re.M).group(1)
    return pid, mid, xg


def lines_of(path):
    _, found = loaded(path)
    snaps = found[0][2]
    seen = {}
    for s in snaps:
        if s.action.move_number:
            seen.setdefault((s.game, s.action.move_number), set()).add(s.action.player)
    return seen


def check_deep_links(driver, pages, path, fresh: int, every: int = 1) -> int:
    """For every ``every``-th line: ``#g<g>m<m>``, and ``#g<g>m<m>r`` where the
    line has both players' actions, against ``gamao position``; the page is
    loaded afresh at every ``fresh``-th line, the fragment followed in the
    open page (as a link is) at the others."""
    checked = 0
    for k, ((g, mv), players) in enumerate(sorted(lines_of(path).items())[::every]):
        frag = f"g{g}m{mv}"
        seen = open_at(driver, pages[path], frag) if k % fresh == 0 else go_to(driver, frag)
        assert seen[:3] == list(cli_ids(path, g, mv)), frag
        if len(players) == 2:
            assert go_to(driver, frag + "r")[:3] == list(cli_ids(path, g, mv, "right")), frag
        checked += 1
    return checked


def test_deep_links_show_what_gamao_position_prints(driver, pages):
    """Every line of a record (both actions where a line has two), and some
    lines of the others: the IDs shown are those of ``gamao position``."""
    assert check_deep_links(driver, pages, ILLEGAL, fresh=4) > 30
    for path in record_files()[1:4]:
        check_deep_links(driver, pages, path, fresh=1, every=40)


@pytest.mark.slow
def test_deep_links_everywhere(driver, pages):
    for path in record_files():
        check_deep_links(driver, pages, path, fresh=6)


def test_other_fragments(driver, pages):
    _, found = loaded(ILLEGAL)
    snaps = found[0][2]
    url = pages[ILLEGAL]
    win = next(i for i, s in enumerate(snaps) if s.action.move_number is None)
    assert open_at(driver, url, "g1end")[3] == win
    assert open_at(driver, url, "L14c7")[3] == win            # the GM401 line
    assert open_at(driver, url, "L9c38")[3] == \
        next(i for i, s in enumerate(snaps) if s.game == 1 and s.action.move_number == 2
             and s.action.player == 1)                        # the GM202 play
    game2 = next(i for i, s in enumerate(snaps) if s.game == 2)
    assert open_at(driver, url, "g2")[3] == game2
    assert open_at(driver, url, "s5")[3] == 5
    # a fragment that names nothing: the first position, and a note
    assert open_at(driver, url, "g9m1")[3] == 0
    assert "No position matches #g9m1" in driver.find_element("id", "hash-note").text
    # the diagnostic of the position shown is on show, with its code and message
    open_at(driver, url, "g1m2r")
    here = driver.find_element("id", "here").text
    assert "GM202" in here and "6/3 8/4 with 4-2" in here


def test_stepping_with_buttons_and_keys(driver, pages):
    """Clicking "next" from the first position to the last shows every
    position in order, each with its snapshot's IDs; keys and the game
    buttons move as they say."""
    from selenium.webdriver.common.keys import Keys
    _, found = loaded(SMALL)
    snaps = found[0][2]
    open_at(driver, pages[SMALL], "")
    nxt = driver.find_element("id", "b-next")
    for i, s in enumerate(snaps):
        assert driver.execute_script(STATE) == [s.position_id, s.match_id, s.xgid, i]
        if i < len(snaps) - 1:
            nxt.click()
    assert not nxt.is_enabled()
    body = driver.find_element("tag name", "body")
    body.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    assert driver.execute_script(STATE)[3] == len(snaps) - 3
    body.send_keys(Keys.HOME)
    assert driver.execute_script(STATE)[3] == 0
    body.send_keys(Keys.ARROW_RIGHT)
    assert driver.execute_script(STATE)[3] == 1
    body.send_keys(Keys.END)
    assert driver.execute_script(STATE)[3] == len(snaps) - 1
    # games: "game »" and the down key go to the first position of the next game
    _, found = loaded(ILLEGAL)
    snaps = found[0][2]
    open_at(driver, pages[ILLEGAL], "")
    game2 = next(i for i, s in enumerate(snaps) if s.game == 2)
    driver.find_element("id", "b-next-game").click()
    assert driver.execute_script(STATE)[3] == game2
    body = driver.find_element("tag name", "body")
    body.send_keys(Keys.ARROW_UP)
    assert driver.execute_script(STATE)[3] == 0
    body.send_keys(Keys.ARROW_DOWN)
    assert driver.execute_script(STATE)[3] == game2
    # clicking a move in the list jumps to it, and the address follows
    link = driver.find_element("css selector", 'a.act[data-frag="g2m5r"]')
    link.click()
    s = snaps[int(link.get_attribute("data-s"))]
    assert driver.execute_script(STATE)[:3] == [s.position_id, s.match_id, s.xgid]
    assert driver.current_url.endswith("#g2m5r")
    assert "current" in link.get_attribute("class")


WALK = """
var first = document.getElementById('b-first'), next = document.getElementById('b-next'), out = [];
first.click();
for (;;) {
  var c = new Array(52).fill(0);
  document.querySelectorAll('#board-position .checker').forEach(function (e) {
    c[26 * +e.getAttribute('data-player') + +e.getAttribute('data-point')] += 1; });
  var dice = Array.from(document.querySelectorAll('#board-position .die')).map(function (d) {
    return d.getAttribute('data-value'); }).join('');
  var cube = document.querySelector('#board-position .cube');
  out.push([+document.body.getAttribute('data-index'), document.getElementById('pid').textContent,
    document.getElementById('mid').textContent, document.getElementById('xgid').textContent,
    c, dice, cube.getAttribute('data-value'), cube.getAttribute('data-owner')]);
  if (next.disabled) break;
  next.click();
}
return out;
"""


@pytest.mark.parametrize("path", record_files(), ids=lambda p: p.name)
def test_walk_every_position_of_every_record(driver, pages, path):
    """The page's "next" button, pressed by its own script from first to
    last: each position in order, its IDs, and its checkers, dice and cube
    drawn as the snapshot has them."""
    _, found = loaded(path)
    snaps = [s for _, _, ss in found for s in ss]
    open_at(driver, pages[path], "")
    seen = driver.execute_script(WALK)
    assert [row[0] for row in seen] == list(range(len(snaps)))
    for row, s in zip(seen, snaps):
        st = s.state
        assert row[1:4] == [s.position_id, s.match_id, s.xgid]
        assert row[4] == list(by_player(s)[0]) + list(by_player(s)[1])
        assert row[5] == ("" if st.dice == (0, 0) or st.double_offered
                          else f"{st.dice[0]}{st.dice[1]}")
        assert int(row[6]) == (2 * st.cube if st.double_offered else st.cube)
        assert row[7] == ("none" if st.cube_owner is None else str(st.cube_owner))


def canonical(group: ET.Element) -> list[tuple]:
    """The drawing as comparable tuples: tag, attributes (numbers to 0.05), text."""
    out = []
    for e in group.iter():
        attrs = []
        for k, v in sorted(e.attrib.items()):
            if k in ("id",):
                continue
            parts = re.split(r"([ ,])", v)
            try:
                v = "".join(p if p in (" ", ",") else str(round(float(p) * 20) / 20) for p in parts)
            except ValueError:
                pass
            attrs.append((k, v))
        out.append((e.tag.split("}")[-1], tuple(attrs), (e.text or "").strip()))
    return out


DRAWINGS = """
var every = arguments[0], next = document.getElementById('b-next'), out = [];
document.getElementById('b-first').click();
for (var i = 0; ; i++) {
  if (i % every === 0) out.push(new XMLSerializer().serializeToString(
    document.getElementById('board-position')));
  if (next.disabled) break;
  next.click();
}
return out;
"""


@pytest.mark.parametrize("path", [ILLEGAL, ROOT / "examples" / "consolidated-notation-5pt.mat",
                                  ROOT / "examples" / "gnubg-selfplay-money.mat"],
                         ids=lambda p: p.name)
def test_the_page_draws_what_the_svg_module_draws(driver, pages, path):
    """Element for element, attribute for attribute, both ways up (every
    fourth position)."""
    _, found = loaded(path)
    match, _, snaps = found[0]
    names = [n or f"player {i + 1}" for i, n in enumerate(match.players)]
    data = page_data(replay_page([(m, r) for m, r, _ in found],
                                 path=str(path.relative_to(ROOT))))
    open_at(driver, pages[path], "")
    for bottom in (1, 0):
        drawings = driver.execute_script(DRAWINGS, 4)
        assert len(drawings) == (len(snaps) + 3) // 4
        for i, drawn in zip(range(0, len(snaps), 4), drawings):
            row = data["snaps"][i]
            steps = row[F["steps"]]
            py = board_element(snaps[i], bottom=bottom, names=names,
                               last_play=[steps[k:k + 3] for k in range(0, len(steps), 3)],
                               last_player=row[F["lastPlayer"]] if steps else None)
            [group] = [g for g in py if g.get("class") == "position"]
            assert canonical(ET.fromstring(drawn)) == canonical(group), (path.name, i, bottom)
        driver.find_element("id", "b-flip").click()


# -- the validate report (issue 22) ------------------------------------------

_LINES_OF = """
const lines = el => { const r = document.createRange(); r.selectNodeContents(el);
  return new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top))).size; };
const of = sel => [...document.querySelectorAll(sel)].map(el => [el.textContent, lines(el)]);
return {badges: of('table.report .badge'), heads: of('table.report th'),
        severities: of('table.report td:nth-child(2)'), lines: of('table.report td:nth-child(3)'),
        messages: of('table.report td:nth-child(5)'),
        overflow: document.documentElement.scrollWidth - window.innerWidth};
"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_report_wraps_only_free_text(driver, tmp_path, width):
    """The validate report's code badges, severities, line numbers and column
    headings are each one line (they wrapped mid-word, "GM20/2",
    "severit/y", from overflow-wrap:anywhere on every cell); long messages
    and paths still wrap, so a phone's page has no sideways scroll."""
    folder = tmp_path / ("a-folder-with-a-rather-long-name-" * 3)
    folder.mkdir()
    record = folder / "illegal-play.mat"
    record.write_bytes(ILLEGAL.read_bytes())
    out = tmp_path / "report"
    r = CliRunner().invoke(gamao, ["validate", "--format", "html", "--html-dir", str(out),
                                   str(record)])
    assert r.exit_code == 1, r.output
    driver.set_window_size(width, 900)
    try:
        driver.get((out / "index.html").as_uri())
        got = driver.execute_script(_LINES_OF)
    finally:
        driver.set_window_size(1280, 900)
    assert got["badges"] and got["heads"]
    for kind in ("badges", "heads", "severities", "lines"):
        assert all(n == 1 for _text, n in got[kind]), (kind, got[kind])
    assert got["overflow"] <= 1, got["overflow"]
    if width < 400:
        assert any(n > 1 for _text, n in got["messages"])   # the free text wraps


def test_position_svg_renders_at_its_size(driver, tmp_path):
    """``gamao position --format svg`` opened alone in Chromium is drawn at
    the width and height it states (640 by 536), arrows included."""
    out = tmp_path / "board.svg"
    r = CliRunner().invoke(gamao, ["position", str(ROOT / "examples" / "consolidated-notation-5pt.mat"),
                                   "--game", "1", "--move", "4", "--format", "svg", "-o", str(out)])
    assert r.exit_code == 0, r.output
    driver.get(out.as_uri())
    got = driver.execute_script(
        "const b = document.documentElement.getBoundingClientRect();"
        "const a = [...document.querySelectorAll('g.arrow')].map(g => g.getBoundingClientRect())"
        "  .filter(x => x.width > 0 && x.height > 0).length;"
        "return [b.width, b.height, a];")
    assert got == [640, 536, 4]
