"""SVG boards (gamao_cli.render.svg) read back as XML: what is drawn is the
position that was given, for real records and both ways up."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from gamao_cli.rules import Position, start_position
from gamao_cli.ids import MatchState
from gamao_cli.render import svg as rsvg
from gamao_cli.render.svg import board

from render_support import ROOT, SVG_NS, by_player, loaded, record_files


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG_NS + "svg"
    return root


def classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def checker_counts(root: ET.Element) -> Counter:
    return Counter((int(e.get("data-player")), int(e.get("data-point")))
                   for e in classed(root, "checker"))


def expected_counts(snap) -> Counter:
    return Counter({(p, i): n for p, side in enumerate(by_player(snap))
                    for i, n in enumerate(side) if n})


def centre(e: ET.Element) -> tuple[float, float]:
    if e.tag == SVG_NS + "circle":
        return float(e.get("cx")), float(e.get("cy"))
    return (float(e.get("x")) + float(e.get("width")) / 2,
            float(e.get("y")) + float(e.get("height")) / 2)


def number_columns(root: ET.Element) -> dict[int, float]:
    return {int(e.text): float(e.get("x")) for e in classed(root, "number")}


def check_geometry(root: ET.Element, bottom: int) -> None:
    """Each checker stands on its point as the bottom player's numbers say."""
    cols = number_columns(root)
    assert sorted(cols) == list(range(1, 25))
    bar_x = (cols[7] + cols[6]) / 2
    for e in classed(root, "checker"):
        player, point = int(e.get("data-player")), int(e.get("data-point"))
        x, y = centre(e)
        lower = y > rsvg.MID
        if 1 <= point <= 24:
            q = point if player == bottom else 25 - point
            assert abs(x - cols[q]) < 0.01, (player, point, x)
            assert lower == (q <= 12), (player, point, y)
        elif point == 25:
            assert abs(x - bar_x) < 0.01
            assert lower == (player == bottom)
        else:
            assert x > cols[1], "borne-off checkers lie in the tray beside the home boards"
            assert lower == (player == bottom)


def snaps_of(path, step: int = 1):
    _, found = loaded(path)
    return [(match, s) for match, _, snaps in found for s in snaps[::step]]


@pytest.mark.parametrize("path", record_files(), ids=lambda p: p.name)
def test_checkers_drawn_are_the_position(path):
    """Every third position of every record, the bottom player taking turns."""
    for i, (match, snap) in enumerate(snaps_of(path, 3)):
        bottom = i % 2
        root = parse(board(snap, bottom=bottom, names=match.players))
        assert checker_counts(root) == expected_counts(snap), (path.name, i)
        check_geometry(root, bottom)


@pytest.mark.slow
@pytest.mark.parametrize("path", record_files(), ids=lambda p: p.name)
def test_checkers_drawn_are_the_position_everywhere(path):
    for match, snap in snaps_of(path):
        for bottom in (0, 1):
            root = parse(board(snap, bottom=bottom, names=match.players))
            assert checker_counts(root) == expected_counts(snap)
            check_geometry(root, bottom)


def test_state_is_drawn():
    """Dice, cube, pips, score and the IDs of a replayed position."""
    seen_owner = set()
    for path in sorted((ROOT / "examples").glob("*.mat")):
        match, _, snaps = loaded(path)[1][0]
        check_state(match, snaps if path.name == "illegal-play.mat" else snaps[::3], seen_owner)
    assert seen_owner == {0, 1}


def check_state(match, snaps, seen_owner):
    for snap in snaps:
        st = snap.state
        root = parse(board(snap, bottom=1, names=match.players))
        assert root.get("data-position-id") == snap.position_id
        assert root.get("data-match-id") == snap.match_id
        dice = [(int(d.get("data-player")), int(d.get("data-value"))) for d in classed(root, "die")]
        if st.dice != (0, 0) and not st.double_offered:
            assert dice == [(st.on_roll, st.dice[0]), (st.on_roll, st.dice[1])]
        else:
            assert dice == []
        [cube] = classed(root, "cube")
        owner = cube.get("data-owner")
        rect = cube.find(SVG_NS + "rect")
        y = float(rect.get("y")) + float(rect.get("height")) / 2
        if st.double_offered:
            assert cube.get("data-offered") == "true"
            assert int(cube.get("data-value")) == 2 * st.cube
        else:
            assert int(cube.get("data-value")) == st.cube
            assert owner == ("none" if st.cube_owner is None else str(st.cube_owner))
            if st.cube_owner is None:
                assert y == rsvg.MID
            else:
                seen_owner.add(st.cube_owner)
                assert (y > rsvg.MID) == (st.cube_owner == 1)   # player 1 at the bottom
        pips = {int(b.get("data-player")): b for b in classed(root, "band")}
        for p, side in enumerate(by_player(snap)):
            [text] = [t.text for t in pips[p] if t.get("class") == "pips"]
            assert text == f"pips {sum(i * side[i] for i in range(1, 26))}"
            [score] = [t.text for t in pips[p] if t.get("class") == "score"]
            assert score == (f"score {st.score[p]}/{st.length}" if st.length
                             else f"score {st.score[p]}")


def test_last_play_arrows_and_hits():
    path = ROOT / "examples" / "illegal-play.mat"
    _, report, snaps = loaded(path)[1][0]
    records = [r for g in report.games for r in g.records
               if r.position is not None and r.turn is not None]
    assert len(records) == len(snaps)
    hits = 0
    # each play drawn on the position after it
    for rec, snap in zip(records, snaps[1:]):
        if not rec.steps:
            continue
        root = parse(board(snap, last_play=rec.steps, last_player=rec.action.player))
        arrows = classed(root, "arrow")
        assert [(int(a.get("data-from")), int(a.get("data-to"))) for a in arrows] == \
            [(s, d) for s, d, _ in rec.steps]
        assert len(classed(root, "hit")) == sum(h for _, _, h in rec.steps)
        hits += sum(h for _, _, h in rec.steps)
    assert hits > 0


def test_a_standalone_document():
    """No external font, image or file; a view box and a title; names escaped."""
    names = ('<b>"Ana" & co</b>', "Bruno\u00a0Lima")
    text = board(start_position(), names=names, size=400)
    root = parse(text)
    assert root.get("viewBox") == f"0 0 {rsvg.num(rsvg.WIDTH)} {rsvg.num(rsvg.HEIGHT)}"
    assert root.get("width") == "400"
    title = root.find(SVG_NS + "title")
    assert title is not None and names[0] in title.text
    assert [t.text for t in classed(root, "name")] == list(names)
    assert not re.search(r"href|<image|url\(|@import|@font-face", text)
    families = {e.get("font-family") for e in root.iter() if e.get("font-family")}
    assert families == {"sans-serif"}
    assert "<b>" not in text   # escaped, not markup


def test_bare_position_state_and_options():
    pos = start_position()
    st = MatchState(cube=4, cube_owner=0, on_roll=1, dice=(6, 2), length=7, score=(3, 5),
                    crawford=False)
    root = parse(board(pos, state=st, bottom=0, numbers=False, pips=False, dice=False))
    assert classed(root, "number") == [] and classed(root, "pips") == []
    assert classed(root, "die") == []
    [cube] = classed(root, "cube")
    assert (cube.get("data-value"), cube.get("data-owner")) == ("4", "0")
    # without a state, ``me`` is player 0's and the cube is centred
    me = list(pos.me)
    me[13], me[0] = 0, 5
    root = parse(board(Position(tuple(me), pos.opp)))
    assert checker_counts(root)[(0, 0)] == 5 and checker_counts(root)[(1, 13)] == 5
    assert classed(root, "cube")[0].get("data-owner") == "none"
    # the empty board
    root = parse(board())
    assert classed(root, "checker") == [] and len(classed(root, "point")) == 24


def test_colours_home_and_errors():
    root = parse(board(start_position(), colours={"checker 0": "#ff0000", "point dark": "#00ff00"}))
    assert {e.get("fill") for e in classed(root, "checker") if e.get("data-player") == "0"} == {"#ff0000"}
    assert {e.get("fill") for e in classed(root, "dark")} == {"#00ff00"}
    with pytest.raises(ValueError, match="unknown colour"):
        board(start_position(), colours={"checker 3": "#000"})
    with pytest.raises(ValueError, match="bottom"):
        board(start_position(), bottom=2)
    with pytest.raises(ValueError, match="home"):
        board(start_position(), home="up")
    # home on the left: point 1 at the bottom left, the tray on the left too
    root = parse(board(start_position(), home="left"))
    cols = number_columns(root)
    assert cols[1] < cols[12] and cols[24] < cols[13]
    offs = [centre(e)[0] for e in classed(parse(board(Position(
        (15,) + (0,) * 25, (15,) + (0,) * 25), home="left")), "checker")]
    assert offs and all(x < cols[1] for x in offs)


def test_tall_stacks_fit_and_are_counted():
    me = [0] * 26
    me[6], me[25] = 14, 1
    opp = [0] * 26
    opp[0] = 15
    root = parse(board(Position(tuple(me), tuple(opp))))
    ys = sorted(centre(e)[1] for e in classed(root, "checker") if e.get("data-point") == "6")
    assert len(ys) == 14 and ys[0] > rsvg.MID and ys[-1] < rsvg.FIELD_BOTTOM
    assert [t.text for t in classed(root, "count")] == ["14"]
    offs = [centre(e)[1] for e in classed(root, "checker") if e.get("data-point") == "0"]
    assert len(offs) == 15 and all(rsvg.FIELD_TOP < y < rsvg.MID for y in offs)


def test_docs_board_is_up_to_date():
    """docs/board.svg is what docs/board_svg.py draws now."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("board_svg", ROOT / "docs" / "board_svg.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert (ROOT / "docs" / "board.svg").read_text(encoding="utf-8") == mod.drawing(), \
        "run python docs/board_svg.py"


@pytest.mark.parametrize("colours, numbers, home", [
    (None, True, "right"), ({"field": "#123456", "point dark": "#000"}, True, "right"),
    (None, False, "left")])
def test_a_drawing_without_its_background_and_the_background_written_once_are_the_drawing(
        colours, numbers, home):
    """What the replay page writes (the drawing with background=False, the
    background put in from background_text) is the whole drawing, for
    looks of their own too; the background is made once a look."""
    state = MatchState(cube=2, cube_owner=1, on_roll=0, dice=(5, 3), length=7, score=(2, 4))
    kwargs = dict(state=state, names=("Ann", "Bob"), colours=colours, numbers=numbers,
                  home=home)
    whole = ET.tostring(rsvg.board_element(start_position(), **kwargs), encoding="unicode")
    empty = ET.tostring(rsvg.board_element(start_position(), background=False, **kwargs),
                        encoding="unicode")
    assert empty.count('<g class="background" />') == 1 and len(empty) < len(whole)
    joined = empty.replace('<g class="background" />',
                           rsvg.background_text(colours, numbers=numbers, home=home))
    assert joined == whole
    assert rsvg.background_text(colours, numbers=numbers, home=home) is \
        rsvg.background_text(dict(colours or {}), numbers=numbers, home=home)


@pytest.mark.parametrize("path", record_files()[:6], ids=lambda p: p.name)
def test_svg_text_is_elementtrees_text_of_every_drawing(path):
    """svg_text (the drawings' own serialisation) writes the same text as
    ElementTree's ``tostring`` for every position of the records, with both
    players at the bottom, the last play's arrows, and names and colours
    holding what XML escapes (quotes, ampersands, angle brackets, tabs and
    line breaks in attributes)."""
    names = ('Ann "the <cube>" & co', "Bo\tb\r\nX" + "y" * 40)
    colours = {"field": '#123"<&>', "arrow": "a\tb\nc\rd"}
    count = 0
    for match, snap in snaps_of(path, 2):
        for bottom in (0, 1):
            for opts in ({"names": match.players}, {"names": names, "colours": colours,
                                                    "home": "left", "background": False}):
                el = rsvg.board_element(snap, bottom=bottom,
                                        last_play=((24, 20, True), (13, 7, False)), **opts)
                assert rsvg.svg_text(el) == ET.tostring(el, encoding="unicode")
                count += 1
    assert count > 8


def test_svg_text_hands_other_trees_to_elementtree():
    """A tree the drawings never build (a namespaced tag, a tail, a comment,
    a non-string attribute) is written by ElementTree itself, as before."""
    root = ET.Element("svg", {"a": "1"})
    ET.SubElement(root, "{http://www.w3.org/2000/svg}g").tail = "after"
    root.append(ET.Comment("note"))
    assert rsvg.svg_text(root) == ET.tostring(root, encoding="unicode")
    assert 'ns0:g' in rsvg.svg_text(root)
    plain = ET.Element("svg", {"b": "x"})
    ET.SubElement(plain, "g").tail = "t"
    assert rsvg.svg_text(plain) == ET.tostring(plain, encoding="unicode") == '<svg b="x"><g />t</svg>'
