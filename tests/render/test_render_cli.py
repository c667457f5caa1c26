"""The renderers at the command line: ``gamao position --format svg``,
``gamao convert --to html`` and ``gamao validate --format html``."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

from click.testing import CliRunner
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


def test_html_needs_its_folder():
    r = run("validate", "--format", "html", str(ILLEGAL))
    assert r.exit_code == 2 and "--html-dir" in r.output
