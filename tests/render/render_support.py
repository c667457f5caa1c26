"""Helpers of the render tests: the records to draw, a strict HTML check,
headless Chromium, and a PNG reader (the standard library's zlib only)."""
from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SELFPLAY = ROOT / "tests" / "data" / "selfplay"
SVG_NS = "{http://www.w3.org/2000/svg}"


def record_files() -> list[Path]:
    """The real records the render tests draw: the examples and the self-play matches."""
    return sorted(EXAMPLES.glob("*.mat")) + sorted(SELFPLAY.glob("*.mat"))


@lru_cache(maxsize=None)
def loaded(path: Path):
    """(matches, [(match, report, snapshots)]) of a record, read once per run."""
    from gamao_cli.formats import read_path
    from gamao_cli.replay.snapshots import snapshots
    from gamao_cli.replay.replay import validate_match
    matches = read_path(str(path))
    out = []
    for match in matches:
        report = validate_match(match, keep_records=True)
        out.append((match, report, snapshots(match, report)))
    return matches, out


def by_player(snap) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A snapshot's counts of players 0 and 1."""
    me, opp = snap.position.me, snap.position.opp
    return (me, opp) if snap.state.on_roll == 0 else (opp, me)


# -- HTML -----------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
# elements whose end tag HTML lets one leave out; gamao's pages never do
OPTIONAL_END = {"p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "option"}


class StrictHTML(HTMLParser):
    """Every element closed, in order (no optional end tags left out), ids
    unique, no reference to anything but a fragment or a ``data:`` address."""

    def __init__(self, links: bool = False):
        super().__init__(convert_charrefs=True)
        self.links = links   # relative links (<a href>) to other pages allowed
        self.stack: list[tuple[str, tuple[int, int]]] = []
        self.ids: dict[str, tuple[int, int]] = {}
        self.problems: list[str] = []
        self.tags: list[str] = []
        self.doctype = None

    def handle_decl(self, decl):
        self.doctype = decl

    def _attrs(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            if name == "id":
                if value in self.ids:
                    self.problems.append(f"id {value!r} twice, at {self.ids[value]} and {self.getpos()}")
                self.ids[value] = self.getpos()
            if name in ("src", "href", "xlink:href", "action", "formaction", "poster", "srcset",
                        "data", "background"):
                relative = (self.links and tag == "a" and name == "href"
                            and not re.match(r"[a-z][a-z0-9+.-]*:|//", value or "", re.I))
                if not relative and not (value or "").startswith(("#", "data:")):
                    self.problems.append(f"<{tag} {name}={value!r}> refers outside the page")
            if name == "style" and "url(" in (value or ""):
                self.problems.append(f"<{tag} style> has url(): {value!r}")
        if tag in ("link", "iframe", "object", "embed", "img", "base"):
            self.problems.append(f"<{tag}> element at {self.getpos()}")

    def handle_starttag(self, tag, attrs):
        self._attrs(tag, attrs)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self._attrs(tag, attrs)
        if tag not in VOID and not self._in_svg():
            self.problems.append(f"<{tag}/> self-closed outside SVG at {self.getpos()}")

    def _in_svg(self) -> bool:
        return any(t == "svg" for t, _ in self.stack)

    def handle_endtag(self, tag):
        if tag in VOID:
            self.problems.append(f"</{tag}> of a void element at {self.getpos()}")
            return
        if not self.stack:
            self.problems.append(f"</{tag}> with nothing open at {self.getpos()}")
            return
        top, where = self.stack.pop()
        if top != tag:
            self.problems.append(f"</{tag}> at {self.getpos()} closes <{top}> of {where}")

    def handle_data(self, data):
        if self.stack and self.stack[-1][0] == "style":
            if "url(" in data or "@import" in data:
                self.problems.append("the style sheet loads something")

    def check(self, text: str) -> list[str]:
        self.feed(text)
        self.close()
        for tag, where in self.stack:
            self.problems.append(f"<{tag}> of {where} never closed")
        if (self.doctype or "").lower() != "doctype html":
            self.problems.append(f"doctype is {self.doctype!r}")
        return self.problems


def html_problems(text: str, links: bool = False) -> list[str]:
    return StrictHTML(links).check(text)


def page_data(text: str) -> dict:
    """The JSON data a replay page carries."""
    m = re.search(r'<script type="application/json" id="gamao-data">(.*?)</script>', text, re.S)
    assert m, "the page has no data"
    return json.loads(m.group(1))


# -- Chromium -------------------------------------------------------------

def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium chromium-driver)")


# Without the background-networking flags the browser's own connections are
# refused on a closed network and slow it down.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--disable-dev-shm-usage"]


def run_chromium(args: list[str], timeout: float = 90) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="gamao-chromium-") as profile:
        return subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, timeout=timeout)


def screenshot(url: str, png: Path, size: tuple[int, int]) -> None:
    run_chromium([f"--screenshot={png}", f"--window-size={size[0]},{size[1]}", url])
    assert png.exists(), f"Chromium wrote no screenshot of {url}"


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = depth = ctype = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and ctype in (2, 6), f"PNG of depth {depth}, colour type {ctype}"
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def distinct_colours(path: Path) -> int:
    width, _, rows = png_pixels(path)
    bpp = len(rows[0]) // width
    return len({row[i:i + 3] for row in rows for i in range(0, len(row), bpp)})


def webdriver_session():
    """A Selenium WebDriver on headless Chromium through Debian's chromedriver,
    or a skip saying what is missing."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed "
                                    "(it is in the test extra: pip install -e '.[test]')")
    browser = chromium()
    driver_path = shutil.which("chromedriver") or (
        "/usr/lib/chromium/chromedriver" if Path("/usr/lib/chromium/chromedriver").exists() else None)
    if not driver_path:
        pytest.skip("chromedriver is not installed (Debian: apt-get install chromium-driver)")
    profile = tempfile.mkdtemp(prefix="gamao-webdriver-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in FLAGS + [f"--user-data-dir={profile}", "--window-size=1280,900"]:
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=driver_path)
    # Chromium and chromedriver present but not starting is a failure, not a skip
    return webdriver.Chrome(options=options, service=service), profile
