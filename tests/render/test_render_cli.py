"""The renderers at the command line: ``gamao position --format svg``,
``gamao convert --to html`` and ``gamao validate --format html``."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

from click.testing import CliRunner
from conftest import fail_fsync_of
from render_support import EXAMPLES, by_player, html_problems, loaded, page_data

from gamao_cli.cli import main
from gamao_cli.ids import parse_position
from gamao_cli.render.html import diagnostic_fragment
from gamao_cli.replay.snapshots import find_snapshot

ILLEGAL = EXAMPLES / "illegal-play.mat"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def checker_counts(svg: str) -> tuple[list[int], list[int]]:
    root = ET.fromstring(svg)
    found = Counter((int(e.get("data-player")), int(e.get("data-point")))
                    for e in root.iter() if (e.get("class") or "").split()[:1] == ["checker"])
    return ([found[0, p] for p in range(26)], [found[1, p] for p in range(26)])


def test_position_as_svg_draws_the_checkers_of_that_position(tmp_path):
    [match] = loaded(ILLEGAL)[0]
    for game, move in ((1, 1), (1, 3), (2, 10)):
        out = tmp_path / f"g{game}m{move}.svg"
        r = run("position", str(ILLEGAL), "--game", str(game), "--move", str(move),
                "--format", "svg", "-o", str(out))
        assert r.exit_code == 0, r.output
        snap = find_snapshot(match, game, move)
        text = out.read_text(encoding="utf-8")
        assert text.startswith("<svg") and snap.position_id in text
        assert checker_counts(text) == tuple(map(list, by_player(snap)))
    # an existing file is not replaced without --force
    r = run("position", str(ILLEGAL), "--format", "svg", "-o", str(tmp_path / "g1m1.svg"))
    assert r.exit_code == 2 and "exists" in r.output


def test_position_of_an_id_as_svg():
    ident = "4HPwATDgc/ABMA:cAmgAAAAAAAE"
    r = run("position", "--id", ident, "--format", "svg")
    assert r.exit_code == 0
    me, opp, state = parse_position(ident)
    players = (opp, me) if state.on_roll == 1 else (me, opp)
    assert checker_counts(r.output) == tuple(map(list, players))
    assert 'data-match-id="cAmgAAAAAAAE"' in r.output


def test_convert_to_html_writes_a_strict_page_of_every_position(tmp_path):
    out = tmp_path / "page.html"
    r = run("convert", str(ILLEGAL), "--to", "html", "-o", str(out))
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert html_problems(text) == []
    data = page_data(text)
    fields = data["fields"]
    ids = [(s[fields["pid"]], s[fields["mid"]]) for s in data["snaps"]]
    _matches, [(_m, _r, snaps)] = loaded(ILLEGAL)
    assert ids == [(s.position_id, s.match_id) for s in snaps]


def test_validate_html_links_every_diagnostic_to_its_position(tmp_path):
    folder = tmp_path / "report"
    r = run("validate", "--format", "html", "--html-dir", str(folder), str(EXAMPLES))
    assert r.exit_code == 1 and "2 errors" in r.output
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert html_problems(index, links=True) == []
    links = re.findall(r'href="(pages/[^"#]+)#([^"]+)"', index)
    [match] = loaded(ILLEGAL)[0]
    report = loaded(ILLEGAL)[1][0][1]
    expected = {diagnostic_fragment(d, match.players) for d in report.diagnostics}
    assert {frag for _page, frag in links} == expected
    for page, _frag in links:
        assert (folder / page).is_file() and "illegal-play" in page
    # a file with no findings gets no page
    assert sorted(p.name for p in (folder / "pages").iterdir()) == ["illegal-play.mat.html"]


def test_validate_html_stops_at_a_page_that_fails_as_it_settles(tmp_path, monkeypatch):
    """The report's pages settle (sync to disk, rename) while the next page
    is made; the disk failing at the sync of the second of three pages
    stops the report with that page's message (exit 2), writes no index and
    leaves no temporary file; the page before it is whole."""
    import shutil
    src = tmp_path / "in"
    src.mkdir()
    for name in "abc":
        shutil.copy(ILLEGAL, src / f"{name}.mat")
    fail_fsync_of(monkeypatch, ".b.mat.html.")
    folder = tmp_path / "report"
    r = run("validate", "--jobs", "1", "--format", "html", "--html-dir", str(folder), str(src))
    assert r.exit_code == 2, r.output
    assert "b.mat.html: cannot flush to disk" in r.output, r.output
    left = sorted(p.name for p in folder.rglob("*") if p.is_file())
    assert "index.html" not in left and not [n for n in left if n.endswith(".tmp")], left
    assert "a.mat.html" in left and "b.mat.html" not in left
    assert html_problems((folder / "pages" / "a.mat.html").read_text(encoding="utf-8")) == []


def test_html_needs_its_folder():
    r = run("validate", "--format", "html", str(ILLEGAL))
    assert r.exit_code == 2 and "--html-dir" in r.output


CONSOLIDATED = EXAMPLES / "consolidated-notation-5pt.mat"
_POINT = {"bar": 25, "off": 0}


def _steps(text: str) -> list[tuple[int, int, bool]]:
    """``25/21 21/17* 6/2*``: die steps as GNU Backgammon's layout writes them."""
    out = []
    for step in text.split():
        src, dst = step.rstrip("*").split("/")
        out.append((_POINT.get(src, None) or int(src), _POINT.get(dst, None) or int(dst),
                    step.endswith("*")))
    return sorted(out)


def test_position_svg_has_its_size_and_the_last_plays_arrows(tmp_path):
    """Issue 22: ``position --format svg`` has width and height, and draws
    the arrows of the play that led to the position (the README's picture
    had them, the command did not): one arrow per die step of that play, from
    and to the points the record's play (as ``convert --to mat`` writes it,
    one die step at a time) names, hits ringed."""
    mat = run("convert", str(CONSOLIDATED), "--to", "mat", "-o", "-").output
    game1 = mat.split(" Game 2")[0]
    right_play = {int(m.group(1)): m.group(2) for m in re.finditer(
        r"^\s*(\d+)\) \d\d: .*?\s{2,}\d\d: (.*?)\s*$", game1, re.M)}
    checked = 0
    for move in (2, 3, 4, 7):   # the left player on roll, after the right player's play
        if move - 1 not in right_play:
            continue
        r = run("position", str(CONSOLIDATED), "--game", "1", "--move", str(move),
                "--format", "svg")
        assert r.exit_code == 0, r.output
        root = ET.fromstring(r.output)
        assert (root.get("width"), root.get("height")) == ("640", "536")
        arrows = sorted((int(g.get("data-from")), int(g.get("data-to")),
                         g.get("data-hit") == "true")
                        for g in root.iter("{http://www.w3.org/2000/svg}g")
                        if g.get("class") == "arrow")
        assert arrows == _steps(right_play[move - 1]), (move, right_play[move - 1])
        rings = [c for c in root.iter("{http://www.w3.org/2000/svg}circle")
                 if c.get("class") == "hit"]
        assert len(rings) == sum(hit for _s, _d, hit in arrows)
        checked += 1
    assert checked >= 3


def test_position_svg_is_the_readme_picture():
    """docs/board.svg (python docs/board_svg.py) is what the command draws."""
    r = run("position", str(CONSOLIDATED), "--game", "1", "--move", "4", "--format", "svg")
    assert r.output == (EXAMPLES.parent / "docs" / "board.svg").read_text(encoding="utf-8")
