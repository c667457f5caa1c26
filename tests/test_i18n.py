"""gamao in Brazilian Portuguese (issue 16).

- the language is chosen as gettext chooses it (``LANGUAGE``, ``LC_ALL``,
  ``LC_MESSAGES``, ``LANG``), ``--lang`` wins, ``pt``/``pt_PT`` give
  ``pt_BR``, anything else English without an error; worker processes, Dask
  tasks and the library speak what the caller chose;
- the catalogue holds every message id a fresh Babel extraction finds (and
  every template of the message table), each translated, none fuzzy, with
  the placeholders of its English; the committed ``.mo`` is what compiling
  the ``.po`` gives;
- every code's message, rendered in Portuguese from a real example, differs
  from the English and holds no English sentence; so does every template of
  the table, every ``--help``, the closing line, the summary, the boards and
  the HTML pages;
- machine output does not change with the language: codes, severities,
  field names, the structure of json, jsonl, github and junit, exit codes.
"""
from __future__ import annotations

import gettext
import json
import pickle
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import click
import pytest
from click.testing import CliRunner

from conftest import CORPUS, EXAMPLES, ROOT
from gamao_cli import formats, i18n
from gamao_cli.cli import main
from gamao_cli.formats.mat.reader import read_matches
from gamao_cli.messages import CODES, MESSAGES, Msg, render
from gamao_cli.replay.replay import validate_match

babel = pytest.importorskip("babel")
from gamao_cli.i18n import catalog  # noqa: E402  (needs Babel)

PT = "pt_BR"
NO_ENV = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}
ILLEGAL = str(EXAMPLES / "illegal-play.mat")


def run(*args: str, env: dict | None = None, input: str | None = None):
    return CliRunner().invoke(main, list(args), env={**NO_ENV, **(env or {})}, input=input,
                              prog_name="gamao")


# -- what is English -------------------------------------------------------------------

#: Words that are English and not Portuguese (``a``, ``no``, ``do``, ``as``,
#: ``legal`` are both, and are left out).
ENGLISH = set("""
the is are was were be been being of to in on and or but not with for by from that this
which what when while where has have had can cannot does did it its there their they them
game games match matches play plays point points moves roll rolls rolled player players
file files line would could should must only more than after before written kept left right
cell cells step steps checker checkers die dice score result rules gives give other programs
property private holds reads back says every first own way target format ignore ignored
unknown known standard already ended never answered rest replay replayed found shows show
found error errors warning warnings info infos usage options option show exit help read
required default
""".split())

#: Names and notation a Portuguese sentence keeps as they are written.
KEPT = ["GNU Backgammon", "eXtreme Gammon", "Backgammon Galaxy", "Backgammon Studio", "Snowie",
        "Illegal play", "Losses N point", "Position ID", "Match ID", "Doubles =>", "Wins",
        "Losses", "Takes", "Drops", "Resigns", "BAR", "Pip counts"]


def english_words(text: str, values=()) -> list[str]:
    """The English words of ``text`` once the values of its fields, what is
    quoted, SGF properties with their values (``XR[not written]``) and the
    names and notation it keeps are taken out."""
    for v in sorted((str(v) for v in values if str(v)), key=len, reverse=True):
        text = re.sub(r"(?<!\w)" + re.escape(v) + r"(?!\w)", " ", text)
    text = re.sub(r"\"[^\"]*\"|'[^']*'|\b[A-Z]{1,2}\[[^\]]*\]|--?[a-z][\w-]*|[\w.:-]*/[\w./*-]*",
                  " ", " ".join(text.split()))
    for name in KEPT:
        text = text.replace(name, " ")
    # whole words (a Portuguese word with an accent, "forçada", is no "for")
    return [w for w in re.findall(r"[^\W\d_]+", text) if w.lower() in ENGLISH]


def test_the_english_check_sees_english():
    assert english_words("o dado 6 não é jogado") == []
    assert english_words("the die is left unplayed") == ["the", "die", "is", "left"]
    assert english_words("Wins 2 points: a reprodução", ["Wins 2 points"]) == []
    assert english_words('a tag "Jacoby" e XR[not written] ficam') == []


def _values(fields) -> list[str]:
    out: list[str] = []
    for v in (fields or {}).values():
        if isinstance(v, Msg):
            continue   # rendered in the language: its words are checked too
        if isinstance(v, (list, tuple)):
            out += [str(x) for x in v]
        else:
            out.append(str(v))
    return out


# -- choosing the language ----------------------------------------------------------------

@pytest.mark.parametrize("env, lang", [
    ({"LANG": "pt_BR.UTF-8"}, PT),
    ({"LANG": "pt_PT.UTF-8"}, PT),
    ({"LANG": "pt"}, PT),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "pt_BR.UTF-8"}, "en"),      # LC_ALL before LANG
    ({"LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_US.UTF-8"}, PT),    # LC_MESSAGES before LANG
    ({"LC_ALL": "pt_BR.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, PT),  # LC_ALL before LC_MESSAGES
    ({"LANGUAGE": "pt_BR", "LC_ALL": "en_US.UTF-8"}, PT),           # LANGUAGE first
    ({"LANGUAGE": "fr:de:pt", "LANG": "en_US.UTF-8"}, PT),          # the first gamao has
    ({"LANGUAGE": "", "LANG": "pt_BR.UTF-8"}, PT),                  # empty is not set
    ({}, "en"),
])
def test_the_environment_chooses_as_gettext_does(env, lang):
    assert i18n.from_environment(env) == lang
    out = run("codes", env=env).output
    assert ("GM202  jogada" in out) == (lang == PT), out[:200]


@pytest.mark.parametrize("args, lang", [
    (["--lang", "pt_BR"], PT), (["--lang", "pt"], PT), (["--lang=pt_PT"], PT),
    (["--lang", "pt-BR"], PT), (["--lang", "en"], "en"), (["--lang", "de"], "en"),
    (["--lang", "xx_YY.UTF-8"], "en"),
])
def test_lang_wins_over_the_environment_and_an_unknown_one_is_english(args, lang):
    r = run(*args, "codes", env={"LANGUAGE": "pt_BR" if lang == "en" else "en",
                                 "LANG": "pt_BR.UTF-8" if lang == "en" else "en_US.UTF-8"})
    assert r.exit_code == 0, r.output
    assert ("GM202  jogada" in r.output) == (lang == PT)


def test_a_run_leaves_the_process_as_it_found_it():
    import os
    before = (i18n.get_language(), gettext.textdomain(), os.environ.get("LANGUAGE"))
    run("--lang", "pt_BR", "codes")
    run("validate", "--bogus", env={"LANG": "pt_BR.UTF-8"})
    assert (i18n.get_language(), gettext.textdomain(), os.environ.get("LANGUAGE")) == before


def test_the_same_codes_and_exit_codes_in_every_language(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text("nothing here\n")
    for args in (["validate", str(EXAMPLES)], ["validate", str(bad), ILLEGAL],
                 ["validate", "--strict", ILLEGAL], ["summary", ILLEGAL, str(bad)],
                 ["codes", "--select"], ["validate", "--select", "GM9", ILLEGAL],
                 ["position", ILLEGAL, "--game", "9"], ["convert", str(bad), "--to", "sgf"]):
        en, pt = run(*args), run("--lang", "pt_BR", *args)
        assert pt.exit_code == en.exit_code, args
        codes = [re.findall(r"\bGM\d{3}\b", r.output) for r in (en, pt)]
        assert codes[0] == codes[1], args


def test_the_workers_speak_the_callers_language(monkeypatch):
    """--jobs: worker processes started fresh (spawned, as on Windows; forked
    ones would inherit the language anyway) speak the caller's language."""
    import functools
    import multiprocessing
    from gamao_cli.cli.files import iter_files
    spawn = multiprocessing.get_context("spawn")
    monkeypatch.setattr(multiprocessing, "get_context", lambda method=None: spawn)
    work = functools.partial(render, fields={})
    with i18n.language(PT):
        got = list(iter_files(work, ["GM502"] * 4, 2, pool_min_bytes=0))
    assert got == [render("GM502", {}, lang=PT)] * 4


def test_work_sent_elsewhere_carries_the_language():
    """What a Dask worker or a spawned process gets: the wrapped function,
    pickled, called in a fresh interpreter, speaks the caller's language."""
    with i18n.language(PT):
        task = i18n.InLanguage(render)
    data = pickle.dumps(task)
    code = ("import pickle, sys; task = pickle.loads(sys.stdin.buffer.read()); "
            "print(task('GM502', {}))")
    p = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode("utf-8").strip() == render("GM502", {}, lang=PT)


def test_the_library_speaks_english_unless_told():
    assert render("GM502", {}).startswith("Backgammon Galaxy's")
    assert render("GM502", {}, lang=PT).startswith("As células")
    with i18n.language("pt"):
        assert render("GM502", {}).startswith("As células")
    assert render("GM502", {}, lang="de") == render("GM502", {})


def test_a_message_inside_a_message_speaks_the_same_language():
    fields = {"where": Msg("where.match-game", {"match": 2, "game": 3}), "tags": "Event"}
    assert render("GM503.tag", fields, lang=PT).startswith("partida 2: jogo 3: o SGF não tem")
    assert render("GM503.tag", fields).startswith("match 2: game 3: SGF has no")


def test_plurals_count_as_the_language_does():
    with i18n.language(PT):
        n = [i18n.ngettext("{n} file", "{n} files", k).format(n=k) for k in (0, 1, 2)]
    assert n == ["0 arquivos", "1 arquivo", "2 arquivos"]


def test_the_i18n_package_imports_nothing_of_gamao():
    """Every layer uses it (messages, render, tables, cli): it may not use them."""
    import ast
    for name in ("__init__.py",):
        tree = ast.parse((ROOT / "gamao_cli" / "i18n" / name).read_text(encoding="utf-8"))
        imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [m for m in imported if m and m.startswith("gamao_cli")]


# -- the catalogue ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def template():
    return catalog.extract_template()


def test_every_message_id_is_translated_none_fuzzy_with_its_placeholders(template):
    found = catalog.problems(PT, template, include_click=False)
    assert not found, (
        f"{len(found.missing) + len(found.untranslated) + len(found.fuzzy)} message id(s) "
        f"without a Portuguese translation in {catalog.po_path(PT)}: run "
        "`python -m gamao_cli.i18n refresh`, translate each msgid named below (no fuzzy "
        "flag, the same {placeholders}), run refresh again\n" + "\n".join(found.lines()))


def test_clicks_words_are_translated_too(template):
    """click's message ids, as the installed click has them (a catalogue made
    with another click may lack a few: refresh and translate them)."""
    po = catalog.read(PT)
    made_with = {c.split("(click ")[1].rstrip(")") for m in po for c in m.auto_comments
                 if catalog.CLICK_COMMENT in c}
    if catalog.click_version() not in made_with:
        pytest.skip(f"the catalogue holds click {made_with}'s words; click "
                    f"{catalog.click_version()} is installed")
    found = catalog.problems(PT, template, include_click=True)
    assert not found, "\n".join(found.lines())
    assert len([m for m in template if m.id and any(
        catalog.CLICK_COMMENT in c for c in m.auto_comments)]) > 50


def test_the_extraction_finds_every_template_and_title_of_the_table(template):
    ids = {m.id for m in template if m.id}
    assert set(MESSAGES.values()) <= ids
    assert {c.title for c in CODES.values()} <= ids
    from gamao_cli.cli.exit_codes import MEANINGS
    assert {text for meanings in MEANINGS.values() for text in meanings.values()} <= ids


def test_the_placeholder_check_sees_a_wrong_translation(tmp_path, monkeypatch):
    po = catalog.read(PT)
    [entry] = [m for m in po if m.id == "no match files found in {paths}"]
    entry.string = "nenhum arquivo de partida encontrado em {path}"
    [other] = [m for m in po if m.id == "Exporting"]
    other.flags.add("fuzzy")
    path = tmp_path / "pt_BR" / "LC_MESSAGES" / "gamao.po"
    path.parent.mkdir(parents=True)
    path.write_bytes(catalog._po_bytes(po))
    monkeypatch.setattr(catalog, "LOCALE_DIR", str(tmp_path))
    found = catalog.problems(PT, [m for m in po if m.id in (entry.id, other.id)])
    assert [m for m, _t in found.placeholders] == [entry.id] and found.fuzzy == [other.id]


def test_an_untranslated_message_is_named_with_its_key(tmp_path, monkeypatch, template):
    """What a helper who added a message reads when the test fails: the
    English msgid, and the key and file it comes from."""
    english = MESSAGES["GM302"]
    po = catalog.read(PT)
    [entry] = [m for m in po if m.id == english]
    entry.string = ""
    po.delete(MESSAGES["GM301"])   # and one the catalogue does not have at all
    path = tmp_path / "pt_BR" / "LC_MESSAGES" / "gamao.po"
    path.parent.mkdir(parents=True)
    path.write_bytes(catalog._po_bytes(po))
    monkeypatch.setattr(catalog, "LOCALE_DIR", str(tmp_path))
    found = catalog.problems(PT, template, include_click=False)
    assert found.untranslated == [english] and found.missing == [MESSAGES["GM301"]]
    text = "\n".join(found.lines())
    assert f"untranslated (empty msgstr): {english!r}\n      from MESSAGES['GM302']" in text
    assert "gamao_cli/messages.py" in text and "MESSAGES['GM301']" in text


def test_the_committed_mo_is_what_compiling_the_po_gives():
    fresh = gettext.GNUTranslations(__import__("io").BytesIO(catalog.mo_bytes(catalog.read(PT))))
    with open(catalog.mo_path(PT), "rb") as fh:
        shipped = gettext.GNUTranslations(fh)
    assert shipped._catalog == fresh._catalog and len(fresh._catalog) > 400
    assert shipped.plural(0) == shipped.plural(2) == 1 and shipped.plural(1) == 0


def test_the_catalogue_ships_in_the_package():
    import tomllib
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["gamao_cli.i18n"]
    assert "locale/*/LC_MESSAGES/*.mo" in patterns
    assert Path(catalog.mo_path(PT)).is_file()


# -- every code, from a real example ------------------------------------------------------

def _one_game(body: str, length: int = 5, tags: str = "") -> str:
    return f"{tags}\n {length} point match\n\n Game 1\n Ann : 0                        Bob : 0\n{body}"


_OPEN = "  1) 31: 8/5 6/5                 61: 13/7 8/7\n"
_G1 = (" 5 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
       "  1) 41: 13/9 24/23              53: 24/21 21/16* \n"
       "  2) 21: 25/23 6/5               64: 24/20* 16/10 \n"
       "  3) 63: 25/22 13/7              41: 13/9 10/9 \n"
       "  4) 31: 6/5* 8/5                65: \n"
       "  5) 65: 23/18 13/7              42: 25/23 13/9 \n"
       "  6)  Doubles => 2                Drops\n"
       "      Wins 1 point\n")
_BASE = (EXAMPLES / "gnubg-selfplay-5pt.mat").read_text()


#: records of two producers' quirks (tests/test_record_quirks.py)
QUIRKS = Path(__file__).resolve().parent / "data" / "quirks"


def _validated(text: str):
    return [d for mt in read_matches(text, "m.mat") for d in validate_match(mt).diagnostics]


def _checked(path) -> list:
    from gamao_cli.replay.check import check_file
    return check_file(str(path)).diagnostics


def _base(line: int, old: str, new: str) -> str:
    lines = _BASE.split("\n")
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    return "\n".join(lines)


def _notes(text_or_matches, to: str) -> list:
    matches = (read_matches(text_or_matches, "m.mat") if isinstance(text_or_matches, str)
               else text_or_matches)
    return formats.get(to).write(matches).notes


def _file(tmp: Path, name: str, data: bytes) -> Path:
    path = tmp / name
    path.write_bytes(data)
    return path


def _xg_stated(tmp):
    """An eXtreme Gammon record, as the reader makes it: it states the
    position before its first action (here a wrong one: GM109) and marks a
    play invalid (GM110)."""
    from gamao_cli import model as m
    from gamao_cli.replay.stated import XG_INVALID
    [match] = read_matches(_one_game(_OPEN), "m.xg")
    play = [a for a in match.games[0].actions if isinstance(a, m.Play)][1]
    play.analysis = {"invalid": XG_INVALID}
    play.stated = None
    first = match.games[0].actions[0]
    first.stated = ((0,) * 26, (0,) * 26)   # the record states positions: they are checked
    return validate_match(match).diagnostics


def _xg_rewritten(tmp):
    """An eXtreme Gammon file whose archive record another program dropped
    (GM030): built from the shared sample, read from its game data."""
    from gamao_cli.formats.xg.container import read_container
    path = (CORPUS.parent / "corpus2" / "xg"
            / "kevung__gbf__data__charlot1-charlot2_7p_2025-11-08-2305.xg")
    if not path.is_file():
        pytest.skip(f"needs the shared XG sample ({path})")
    data = path.read_bytes()
    return _checked(_file(tmp, "r.xg", data[:read_container(data).registry_offset]))


def _json_of(text: str) -> bytes:
    """A record as gamao's JSON (which the test then breaks)."""
    data = formats.get("json").write(read_matches(text, "m.mat")).text.encode("utf-8")
    assert b'"length": 5' in data
    return data


def _refusal(text: str, to: str, **changes) -> list:
    """The refusal of the writer of ``to`` (GM507) for the record ``text``
    changed by ``changes`` (a comment that reads back as a tag...)."""
    from gamao_cli.errors import WriteRefused
    [match] = read_matches(text, "m.mat")
    for k, v in changes.items():
        setattr(match, k, v)
    with pytest.raises(WriteRefused) as exc:
        formats.get(to).write([match]).text
    return [exc.value]


def _corpus(name: str):
    def make(tmp):
        path = CORPUS / name
        if not path.is_file():
            pytest.skip(f"needs the shared corpus ({path})")
        return _checked(path)
    return make


_GT_HEAD = "The score (after {n} games) is: {a} 0, {b} {s} (match to 3 points)\n\n"
_GT_OPEN = ("Move number 1:  {a} to play 31\n\n GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n"
            "                 Match ID   : {mid}\n\n* {a} moves 8/5 6/5\n\n")


def _gnubg_text(tmp, rest: str = "", mid: str = "MIBlAAAAAAAE", **head):
    """A GNU Backgammon text export (formats/gnubg_text), checked."""
    fields = {"n": 0, "a": "A", "b": "B", "s": 0, **head}
    text = _GT_HEAD.format(**fields) + _GT_OPEN.format(mid=mid, a=fields["a"]) + rest
    return _validated_as(formats.parse_text(text, "g.txt"))


def _validated_as(matches) -> list:
    return [d for mt in matches for d in validate_match(mt).diagnostics]


def _game_files(*heads):
    """One match of game files whose score lines say ``heads`` ((games
    before, left name, right score) each)."""
    from gamao_cli.formats.gnubg_text.reader import assemble, read_game

    def make(tmp):
        files = [read_game(_GT_HEAD.format(n=n, a=a, b="B", s=s) + _GT_OPEN.format(
            mid="MIBlAAAAAAAE", a=a), f"g{k}.txt") for k, (n, a, s) in enumerate(heads)]
        return _validated_as([assemble(files)])
    return make


def _bgf_unscored(tmp):
    import gzip
    import json
    record = {"matchlen": 0, "nameGreen": "A", "nameRed": "B", "finalGreen": 1,
              "finalRed": 0, "games": [{"scoreGreen": 0, "scoreRed": 0, "wonPoints": 0, "moves": [
                  {"player": -1, "green": 1, "red": 3, "from": [8, 6, -1, -1],
                   "to": [5, 5, -1, -1]},
                  {"player": -1, "green": 7, "red": 4, "from": [-1] * 4, "to": [-1] * 4}]}]}
    data = b'{"format":"BGF","compress":true,"useSmile":false}\n' + \
        gzip.compress(json.dumps(record).encode())
    return _checked(_file(tmp, "u.bgf", data))


def _sgf(names: str) -> str:
    return ("(;FF[4]GM[6]CA[UTF-8]MI[length:5][game:1][ws:0][bs:0]" + names +
            "RU[]RE[W+1];W[31hefe];B[61mgho];W[double];B[drop])")


def _dialect(name: str):
    """A diagnostic of a producer's dialect, from the example records of
    ``tests/test_dialects.py`` (GM112: a 0/0 step; GM218: a forced play left
    out; GM413: a record that starts mid-match)."""
    def make(tmp):
        import test_dialects as td
        from gamao_cli.rules import Position
        if name == "GM112":
            bear = td.snowie(Position.from_points({2: 1, 0: 14}, {24: 2, 0: 13}), 0)
            text = td.HEAD.format(length=5) + td.game(1, (0, 0), (
                "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
                f"  2) 11: Illegal play ({bear})\n"
                "  3)                             21: 24/22 22/21\n"
                "  4) 21: 2/off 0/0\n"
                "      Wins 1 point\n"))
        elif name == "GM218":
            turns, i = td._find(lambda turns, i, plays: len(plays) == 1)
            text = td._record(turns, i)
        else:
            text = td.MID_MATCH
        return _validated(text)
    return make


def _over_budget(tmp):
    """An archive member over gamao's inflation budget (GM009)."""
    import io
    from gamao_cli.formats import archives
    from gamao_cli.replay.check import input_error_diagnostic
    from hostile_cases import zip_bomb
    data = zip_bomb([("big.mat", archives.MAX_MEMBER_BYTES + 1, None)])
    got = list(archives.iter_members("x.zip", "zip", opener=lambda: io.BytesIO(data)))
    return [input_error_diagnostic(got[0])]


def _out_of_range(tmp):
    """A match whose length no int32 column holds (GM012), as export says it."""
    from gamao_cli.tables.export import Item, Job, Partition, run_partition
    p = _file(tmp, "a.mat", _one_game("  1) 31: 8/5 6/5\n", length=10 ** 12).encode())
    job = Job(out=str(tmp / "t"), to="jsonl")
    return run_partition(job, Partition(0, (Item(str(p), "file"),))).diagnostics


def _no_number(tmp):
    """A figure that is no number written as JSON null (GM509)."""
    from gamao_cli import formats
    [match] = formats.read_path(ILLEGAL)
    match.games[0].actions[1].analysis = {"equity": float("nan")}
    result = formats.get("json").write([match])
    "".join(result.iter_chunks())
    return result.notes


def _member_named(name: str):
    """Export of a zip holding a member of this name: GM010 (a name leading
    out of the archive) or GM011 (a key other than the name), as said."""
    def make(tmp):
        import io
        import tarfile
        from gamao_cli.tables.export import Item, Job, Partition, run_partition
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
            data = _BASE.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        p = _file(tmp, "a.tar", buf.getvalue())
        job = Job(out=str(tmp / "t"), to="jsonl")
        return run_partition(job, Partition(0, (Item(str(p), "tar"),))).diagnostics
    return make


def _internal(tmp):
    """gamao's own failure on a file (GM008), as check_file reports it."""
    from gamao_cli.replay.check import internal_error_diagnostic
    return [internal_error_diagnostic(RuntimeError("boom"), str(tmp / "a.mat"), "reading")]


#: code -> what makes a diagnostic (or a writer's note) of it, in the
#: language that speaks
EXAMPLES_OF = {
    "GM001": lambda tmp: _checked(_file(tmp, "a.mat", _one_game("  1) 31: 8/5 6/x\n").encode())),
    "GM002": lambda tmp: _checked(_file(tmp, "a.mat", b"nothing here\n")),
    "GM003": lambda tmp: _checked(_file(tmp, "a.mat", b" 1 point match\n\x00\x01\x02")),
    "GM004": lambda tmp: _checked(tmp / "not-there.mat"),
    "GM005": lambda tmp: _validated(_one_game(_OPEN, tags='; [Variation "Tavla"]')),
    "GM006": lambda tmp: _checked(_file(tmp, "a.xg", b"RGMH" + b"\x00" * 40)),
    "GM008": _internal,
    "GM030": _xg_rewritten,
    "GM009": _over_budget,
    "GM010": _member_named("../up.mat"),
    "GM011": _member_named("100%.mat"),
    "GM012": _out_of_range,
    "GM007": lambda tmp: _checked(_file(tmp, "a.json", _json_of(_G1).replace(
        b'"length": 5', b'"length": "five"'))),
    "GM013": lambda tmp: _checked(_file(tmp, "de.txt", "Der Spielstand (nach 0 Partie) ist: "
                                        "a 0, b 0 (Match auf 5 Punkte)\n".encode())),
    "GM014": lambda tmp: _checked(_file(tmp, "v.bgf", b'{"format":"BGF","compress":false,'
                                        b'"useSmile":false}\n{"matchlen":3,"games":'
                                        b'[{"gameMode":2,"moves":[]}]}')),
    "GM114": lambda tmp: _gnubg_text(tmp, "Move number 2:  B to play 66\n\n* B cannot move\n\n"
                                     "Move number 3:  B to play 66\n\n* B cannot move\n\n"),
    "GM115": lambda tmp: _gnubg_text(tmp, "Move number 2:  B on roll, cube decision?\n\n"
                                     "* B doubles\n\nA wins 1 point\n"),
    "GM116": lambda tmp: _gnubg_text(tmp, mid="cAizAAAAAAAE"),
    "GM117": _bgf_unscored,
    "GM414": _game_files((0, "A", 0), (2, "A", 1)),
    "GM415": _game_files((0, "A", 0), (0, "A", 0)),
    "GM416": _game_files((0, "A", 0), (1, "C", 1)),
    "GM101": lambda tmp: _validated(_G1.replace("41: 13/9 24/23", "47: 13/9 24/23")),
    "GM102": lambda tmp: _validated(_G1.replace("41: 13/9 24/23", "41: 13/9* 24/23")),
    "GM103": lambda tmp: _validated(_G1.replace("53: 24/21 21/16*", "53: 24/21 21/16")),
    "GM104": lambda tmp: _validated(_G1.replace(" Game 1", " Game 2")),
    "GM106": lambda tmp: _validated(_one_game(_OPEN + "  2)                             "
                                             "Losses 1 point\n      Wins 2 points\n")),
    "GM107": lambda tmp: _validated(_G1.replace("41: 13/9 24/23", "41: 13/9 27/23")),
    "GM108": lambda tmp: _validated(_G1.replace("41: 13/9 24/23", "41: 13/9 0/23")),
    "GM109": _xg_stated,
    "GM110": _xg_stated,
    "GM111": lambda tmp: _validated(_one_game("  1)                             31: 8/5 6/5\n"
                                             "  2) 00: ????\n"
                                             "  3)                              Wins 1 point\n")),
    "GM112": _dialect("GM112"),
    "GM218": _dialect("GM218"),
    "GM413": _dialect("GM413"),
    "GM125": lambda tmp: _validated(_one_game("; Set Pos=-b----E-C---eE---c-e----B-/0\n" + _OPEN)),
    "GM126": lambda tmp: _checked(QUIRKS / "net-movement.sgf"),
    "GM417": lambda tmp: _checked(QUIRKS / "money-full-score.sgf"),
    "GM219": lambda tmp: [d for mt in formats.parse_text(
        "(;FF[4]GM[6]MI[length:5][game:0][ws:0][bs:0]PW[Ann]PB[Bob];W[31hefe];PL[B]AE[a:y]"
        "AW" + "[f]" * 16 + "AB" + "[s]" * 15 + ";B[61mgho])", "x.sgf")
        for d in validate_match(mt).diagnostics],
    "GM201": lambda tmp: _validated(_G1.replace("41: 13/9 24/23", "44: 13/9 24/23")),
    "GM202": lambda tmp: _validated(_base(9, "63: 25/22 13/7", "63: 25/22 13/8")),
    "GM203": lambda tmp: _validated(_base(7, "53: 24/21 21/16*", "53: 24/19 24/21")),
    "GM204": lambda tmp: _validated(_base(8, "21: 25/23 6/5", "21: 13/11 6/5")),
    "GM205": lambda tmp: _validated(_base(13, "62: 13/11 13/7", "62: 6/0 13/11")),
    "GM207": lambda tmp: _validated(_base(9, "63: 25/22 13/7", "63: 25/22 13/7 7/4")),
    "GM208": lambda tmp: _validated(_base(9, "63: 25/22 13/7", "63: 25/22 12/6")),
    "GM209": lambda tmp: _validated(_base(9, "63: 25/22 13/7", "63: 25/22 7/13")),
    "GM210": lambda tmp: _validated(_base(9, "63: 25/22 13/7", "63: 25/22")),
    "GM212": lambda tmp: _validated(_base(9, "41: 13/9 10/9", "41:")),
    "GM213": lambda tmp: _validated(_one_game("  1) 31: 8/5 6/5\n  2) 61: 13/7 8/7\n")),
    "GM214": lambda tmp: _validated(_one_game(_OPEN + "      Wins 1 point\n  2) 62: 13/7 13/11\n")),
    "GM215": lambda tmp: _validated(_G1.replace("41: 13/9 24/23", "41: 13/9 27/23")),
    "GM301": lambda tmp: _validated("\n".join(_BASE.split("\n")[:46] + [
        " 15)  Doubles => 4                Takes"] + _BASE.split("\n")[46:])),
    "GM302": lambda tmp: _validated(_base(3, " 5 point match", " 2 point match")),
    "GM303": lambda tmp: _validated(_base(41, " Doubles => 2                Takes", " Takes")),
    "GM304": lambda tmp: _validated(_one_game(_OPEN + "  2)  Doubles => 2\n  3) 62: 13/7 13/11\n")),
    "GM305": lambda tmp: _validated(_one_game(_OPEN + "  2)  Doubles => 2                "
                                             "Beavers => 4\n  3)  Drops\n"
                                             "                                  Wins 2 points\n")),
    "GM306": lambda tmp: _validated(_base(41, "Doubles => 2", "Doubles => 4")),
    "GM307": lambda tmp: _validated(_one_game(_OPEN + "  2)  Doubles => 2                Drops\n"
                                             "      Wins 1 point\n", tags='; [CubeLimit "1"]')),
    "GM308": lambda tmp: _validated(_one_game(_OPEN + "  2)                             "
                                             "Doubles => 2\n")),
    "GM401": lambda tmp: _validated(_base(19, "Wins 1 point", "Wins 2 points")),
    "GM402": lambda tmp: _validated(_base(22, "Player_1 : 1", "Player_1 : 2")),
    "GM403": lambda tmp: _validated(_one_game(_OPEN + "      Wins 1 point and the match\n\n Game 2\n"
                                             " Ann : 1                        Bob : 0\n"
                                             "  1) 31: 8/5 6/5\n      Wins 1 point\n", length=1)),
    "GM404": lambda tmp: _validated(_one_game(_OPEN + "\n Game 2\n Ann : 0                        "
                                             "Bob : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n")),
    "GM405": lambda tmp: _validated(_one_game(_OPEN + "      Wins 4 points\n")),
    "GM406": lambda tmp: _validated(_one_game(_OPEN + "  2)  Doubles => 2                Drops\n"
                                             "                                  Wins 1 point\n")),
    # a single game of Backgammon Galaxy's "16 point match" (its money play):
    # a gammon with the cube at 1, written as 1 point
    "GM408": _corpus("bulk/lasse/match8239468.txt"),
    "GM409": lambda tmp: _validated(_one_game("  1) 31: 8/5 6/5                 61: ????\n"
                                             "      Wins 5 points\n")),
    "GM410": lambda tmp: _validated(_G1),
    "GM411": _corpus("bulk/Llabba/match1281172.txt"),
    "GM412": lambda tmp: _validated(_one_game(_OPEN + "      Wins 5 points and the match\n")),
    "GM501": lambda tmp: _notes(formats.parse_text(_sgf("PW[A:nn]PB[Bob,1600]"), "x.sgf"), "mat"),
    "GM502": lambda tmp: _notes(_one_game(_OPEN + "  2)                             "
                                          "Losses 1 point\n      Wins 1 point\n"), "mat"),
    "GM503": lambda tmp: _notes(_one_game(_OPEN + "      Wins 1 point\n",
                                          tags='; [Beaver "On"]'), "sgf"),
    "GM504": lambda tmp: _notes(_one_game(_OPEN, tags='; [Variation "Tavla"]'), "sgf"),
    "GM505": lambda tmp: _notes(_one_game(_OPEN + "      Wins 1 point\n",
                                          tags='; [Site "x"]\n; [Round "2"\x0b]'), "sgf"),
    "GM506": lambda tmp: _notes(_one_game(_OPEN + "  2)  Doubles => 2                Drops\n"),
                                "sgf"),
    "GM507": lambda tmp: _refusal(_one_game(_OPEN + "      Wins 1 point\n"), "mat",
                                  comments=['; [Site "x"]']),
    "GM509": _no_number,
}

#: Codes no short record shows: GM105 and GM407 are never reported; GM206
#: and GM211 need a bearing-off or a blocked position, which takes a whole
#: game to reach. Their templates are checked with the
#: others (below).
NO_EXAMPLE = {"GM105", "GM407", "GM206", "GM211"}


def test_every_code_has_an_example_or_says_why_not():
    assert set(EXAMPLES_OF) | NO_EXAMPLE == set(CODES)
    assert not set(EXAMPLES_OF) & NO_EXAMPLE


def _first(found: list, code: str) -> tuple:
    """(message, key, fields) of the first diagnostic or note of ``code``
    (a note renders its message when asked: ask here, in the language)."""
    from gamao_cli.formats.base import Note
    for d in found:
        if d.code == code:
            # a writer's note is always rendered from the table: by its code
            # when it has no variant
            key = (d.key or d.code) if isinstance(d, Note) else d.key
            return d.message, key, d.fields
    raise AssertionError(f"no {code} in {[d.code for d in found]}")


@pytest.mark.parametrize("code", sorted(EXAMPLES_OF))
def test_every_code_speaks_portuguese_from_a_real_example(code, tmp_path):
    make = EXAMPLES_OF[code]
    with i18n.language("en"):
        english, key, _fields = _first(make(tmp_path), code)
    with i18n.language(PT):
        portuguese, _key, fields = _first(make(tmp_path), code)
    if key is None:
        pytest.xfail(f"{code}: its message is written where it is made, not in "
                     "gamao_cli.messages, so no catalogue can translate it yet")
    assert portuguese != english
    assert not english_words(portuguese, _values(fields)), portuguese


def _sample(template: str) -> dict:
    from gamao_cli.i18n.extract import fields_of
    return {name: 7 for name in fields_of(template)}


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_template_of_the_table_is_portuguese(key):
    fields = _sample(MESSAGES[key])
    english, portuguese = render(key, fields), render(key, fields, lang=PT)
    words = re.sub(r"\{[^}]*\}", "", MESSAGES[key])
    if not re.search(r"[A-Za-z]{3}", words):
        return   # a template of fields alone ("{reason}")
    if english_words(english, ["7"]):   # (notation alone, '"Takes"', reads the same)
        assert portuguese != english
    assert not english_words(portuguese, ["7"]), portuguese


def test_every_code_s_meaning_is_portuguese():
    from gamao_cli.messages import title
    for code in CODES:
        assert title(code, PT) != title(code) and not english_words(title(code, PT)), code


def test_docs_codes_pt_br_md_is_what_gamao_codes_writes_in_portuguese():
    """docs/codes.pt-BR.md: gamao --lang pt_BR codes --format markdown > docs/codes.pt-BR.md"""
    out = run("--lang", "pt_BR", "codes", "--format", "markdown").output
    assert (ROOT / "docs" / "codes.pt-BR.md").read_text(encoding="utf-8") == out
    assert out.startswith("| código | categoria | gravidade | significado |")
    assert all(f"| {code} |" in out for code in CODES)


# -- what a person reads, command by command ------------------------------------------------

def _commands():
    return ["gamao", *sorted(main.commands)]


def _help(command: str, lang: str | None = None) -> str:
    args = ([] if command == "gamao" else [command]) + ["--help"]
    r = run(*(["--lang", lang] if lang else []), *args)
    assert r.exit_code == 0, r.output
    return r.output


def _spaced(text: str) -> str:
    return " ".join(text.split())


def _flat(text: str) -> str:
    """``text`` without its blanks (click wraps lines, at blanks and hyphens)."""
    return "".join(text.split())


@pytest.mark.parametrize("command", _commands())
def test_every_help_is_portuguese(command):
    from gamao_cli.cli.language import help_messages
    english, portuguese = _help(command), _help(command, PT)
    assert portuguese.startswith("Uso: gamao") and "\nOpções:\n" in portuguese
    assert "Mostra esta mensagem e sai." in portuguese and "Códigos de saída:" in portuguese
    cmd = main if command == "gamao" else main.commands[command]
    texts = help_messages(cmd.help or "")
    for p in cmd.params:
        texts += help_messages(getattr(p, "help", None) or "")
    for text in filter(str.strip, texts):
        assert _flat(text) in _flat(english), text   # (the check would see it)
        assert _flat(text) not in _flat(portuguese), text
    # what is left of English: option names, metavars, choices, examples
    prose = "\n".join(line for line in portuguese.splitlines()
                      if not line.lstrip().startswith(("gamao ", "cat ", "duckdb ", "eval ")))
    for name in KEPT:
        prose = prose.replace(name, " ")
    # option names, choices ([text|json]), ranges ([x>=1]) and metavars are not prose
    prose = re.sub(r"--?[\w-]+|\[[^\]|]*\|[^\]]*\]|\[x[^\]]*\]|\b[A-Z_]{2,}\b", " ",
                   _spaced(prose))
    choices = [c for p in cmd.params if isinstance(p.type, click.Choice) for c in p.type.choices]
    # the commands' names (gamao help) are not prose
    choices += list(cmd.commands) if isinstance(cmd, click.Group) else [cmd.name]
    assert not english_words(prose, choices), english_words(prose, choices)


def test_clicks_own_errors_speak_portuguese():
    r = run("--lang", "pt_BR", "validate", "--format", "nope", ILLEGAL)
    assert r.exit_code == 2
    assert "Uso: gamao validate" in r.output and "Erro: Valor inválido para" in r.output
    assert "não é um destes" in r.output
    r = run("validate", env={"LANG": "pt_BR.UTF-8"})
    assert r.exit_code == 2 and "Falta o argumento 'PATHS...'" in r.output
    r = run("--lang", "pt_BR", "--version")
    assert r.output.startswith("gamao, versão ")


def test_the_closing_line_counts_in_portuguese(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text("nothing here\n")
    out = run("validate", str(EXAMPLES), str(bad), env={"LANG": "pt_BR.UTF-8"}).output
    assert out.splitlines()[-1] == "5 arquivos, 15 jogos: 3 erros, 0 avisos (1 arquivo não lido)"
    head = "\n".join(_BASE.splitlines()[:12]) + "\n"
    out = run("--lang", "pt_BR", "validate", "-", input=head).output
    assert out.splitlines()[-1] == ("1 arquivo, 1 jogo: 0 erros, 0 avisos, 2 informações "
                                    "(informações não mostradas: --show-info)")


def test_the_text_report_says_the_severity_and_the_legal_plays_in_portuguese():
    out = run("--lang", "pt_BR", "validate", ILLEGAL).output
    first = out.splitlines()[0]
    assert first.startswith(f"{ILLEGAL}:9:38: GM202 erro ")
    assert "; jogadas legais: 8/4 6/4, 13/9 6/4" in first


def test_the_summary_table_is_portuguese():
    out = run("--lang", "pt_BR", "summary", ILLEGAL).output
    assert out.splitlines()[:3] == [
        f"{ILLEGAL}: gnubgA x gnubgB, partida de 3 pontos",
        "  placar final 1-4, vencedor: gnubgB",
        "  jogo  vencedor             pontos  fim         cubo lances"]
    assert "     2  gnubgB                    4  gamão          2     39" in out
    assert "  jogador              venceu pontos  gamões  dobras aceites recusas" in out
    assert not english_words(out.replace("gnubgA", "").replace("gnubgB", "").replace(
        ILLEGAL, ""))


def test_the_summary_json_and_csv_do_not_change():
    for fmt in ("json", "csv"):
        assert run("--lang", "pt_BR", "summary", "--format", fmt, ILLEGAL).output == \
            run("summary", "--format", fmt, ILLEGAL).output


def test_the_board_captions_are_portuguese_where_gnubg_translates_them():
    out = run("--lang", "pt_BR", "position", ILLEGAL, "-g", "2", "-m", "5").output
    lines = out.splitlines()
    assert lines[0] == f"{ILLEGAL}: jogo 2, lance 5: vez de gnubgA (41: 24/23 13/9)"
    assert lines[1] == " GNU Backgammon  ID da posição: bBviASjgc8MDIA"
    assert lines[2] == "                 ID da partida: AQFmABAAAAAE"
    assert lines[3].endswith("O: gnubgA (Cubo: 2)") and lines[4].endswith("1 ponto")
    assert lines[5].endswith("Lançou 41") and lines[9].endswith("partida de 3 pontos")
    assert "|BAR|" in lines[9] and lines[-2] == "Pip counts: O 148, X 145"   # as gnubg keeps them
    english = run("position", ILLEGAL, "-g", "2", "-m", "5").output.splitlines()
    # the drawing itself is the same
    assert [line[:44] for line in lines[3:-2]] == [line[:44] for line in english[3:-2]]


def test_the_html_pages_speak_portuguese(tmp_path):
    from gamao_cli.render.html import replay_page
    [match] = formats.read_path(ILLEGAL)
    with i18n.language(PT):
        page = replay_page([match], path=ILLEGAL)
    assert '<html lang="pt-BR">' in page
    for words in ("Controles da reprodução", "Jogo anterior", "Girar o tabuleiro",
                  "Placar final 1\u20134, vencedor gnubgB", "<h3>Jogo 2</h3>",
                  '"status":"{where}: vez de {name} ({action})"', "Tabuleiro de gamão",
                  "1 partida, 2 jogos", "jogadas legais: "):
        assert words in page, words
    r = run("--lang", "pt_BR", "validate", "--format", "html", "--html-dir",
            str(tmp_path / "report"), ILLEGAL)
    index = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert r.exit_code == 1 and "1 arquivo: 2 erros, 0 avisos" in index
    assert "<th scope=\"col\">gravidade</th>" in index and "<td class=\"sev\">erro</td>" in index


# -- machine output -----------------------------------------------------------------------

def _without_messages(doc):
    if isinstance(doc, dict):
        return {k: ("..." if k == "message" else _without_messages(v)) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_without_messages(v) for v in doc]
    return doc


def test_json_and_jsonl_keep_their_structure_and_codes(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text("nothing here\n")
    args = ["validate", "--format", "json", str(EXAMPLES), str(bad)]
    en, pt = json.loads(run(*args).output), json.loads(run("--lang", "pt_BR", *args).output)
    assert _without_messages(pt) == _without_messages(en)
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "gamao_cli" / "schemas" / "validate.schema.json").read_text())
    jsonschema.validate(pt, schema)
    args[2] = "jsonl"
    en_l = [json.loads(x) for x in run(*args).output.splitlines()]
    pt_l = [json.loads(x) for x in run("--lang", "pt_BR", *args).output.splitlines()]
    assert [_without_messages(d) for d in pt_l] == [_without_messages(d) for d in en_l]


def test_json_keeps_the_key_and_fields_a_program_renders_in_any_language():
    from gamao_cli.replay.diagnostics import Diagnostic
    fields = {"where": Msg("where.game", {"game": 2}), "tags": "Event"}
    with i18n.language(PT):
        d = Diagnostic("GM503", render("GM503.tag", fields), key="GM503.tag", fields=fields)
    doc = json.loads(json.dumps(d.to_dict()))
    assert doc["key"] == "GM503.tag"
    assert doc["fields"] == {"where": {"key": "where.game", "fields": {"game": 2}},
                             "tags": "Event"}

    def rebuilt(value):
        if isinstance(value, dict) and set(value) == {"key", "fields"}:
            return Msg(value["key"], {k: rebuilt(v) for k, v in value["fields"].items()})
        return value
    again = {k: rebuilt(v) for k, v in doc["fields"].items()}
    assert render(doc["key"], again, lang=PT) == doc["message"]
    assert render(doc["key"], again, lang="en").startswith("game 2: SGF has no property")


def test_a_program_renders_what_gamao_wrote_in_json_in_the_other_language(tmp_path):
    """The contract of "key" and "fields": from a JSON diagnostic alone (a
    play's, an input error's, one with a message inside), the message of
    either language."""
    from gamao_cli.messages import render_input
    bad = tmp_path / "bad.mat"
    bad.write_text(_one_game("  1) 31: 8/5 6/x\n"))
    args = ["validate", "--format", "jsonl", ILLEGAL, str(bad), str(tmp_path / "gone.mat")]
    en = [json.loads(x) for x in run(*args).output.splitlines()]
    pt = [json.loads(x) for x in run("--lang", "pt_BR", *args).output.splitlines()]
    assert len(en) == len(pt) >= 4

    def rebuilt(value):
        if isinstance(value, dict) and set(value) == {"key", "fields"}:
            return Msg(value["key"], {k: rebuilt(v) for k, v in value["fields"].items()})
        return value
    for e, p in zip(en, pt):
        assert e["key"] == p["key"] and e["fields"] == p["fields"]
        fields = {k: rebuilt(v) for k, v in p["fields"].items()}
        make = render_input if e["code"] in ("GM001", "GM002", "GM003", "GM007") else render
        assert make(p["key"], fields, lang=PT) == p["message"] != e["message"], p
        assert make(p["key"], fields, lang="en") == e["message"]


def test_github_and_junit_keep_their_structure():
    for fmt in ("github", "junit"):
        en = run("validate", "--format", fmt, str(EXAMPLES)).output
        pt = run("--lang", "pt_BR", "validate", "--format", fmt, str(EXAMPLES)).output
        if fmt == "github":
            heads = [[line.split("::")[1] for line in out.splitlines() if line.startswith("::")]
                     for out in (en, pt)]
            assert heads[0] == heads[1] and heads[0]   # ::error file=...,title=GM202 play::
        else:
            def shape(xml):
                return [(el.tag, {k: v for k, v in el.attrib.items() if k != "message"})
                        for el in ET.fromstring(xml).iter()]
            assert shape(pt) == shape(en)


def test_a_nested_message_in_json_renders_in_the_language_asked(tmp_path):
    """Issue 22: ``render(key, fields, lang=...)`` with the fields of a JSON
    report as they are (a nested message is ``{"key": ..., "fields": ...}``
    there) gives the report's message, not a Python dict inside it."""
    gone = str(tmp_path / "gone.mat")
    args = ["validate", "--format", "jsonl", gone]
    en = [json.loads(x) for x in run(*args).output.splitlines()]
    pt = [json.loads(x) for x in run("--lang", "pt_BR", *args).output.splitlines()]
    nested = [(e, p) for e, p in zip(en, pt)
              if any(isinstance(v, dict) and set(v) == {"key", "fields"}
                     for v in p["fields"].values())]
    assert nested, pt
    for e, p in nested:
        assert render(p["key"], p["fields"], lang=PT) == p["message"] != e["message"]
        assert render(p["key"], p["fields"], lang="en") == e["message"]
        assert "'key'" not in render(p["key"], p["fields"], lang=PT)
    # a message two levels down
    inner = {"key": "where.match-game", "fields": {"match": 2, "game": 3}}
    assert render("GM503.tag", {"where": inner, "tags": "Event"},
                  lang=PT).startswith("partida 2: jogo 3: o SGF não tem")


def test_a_command_first_run_in_portuguese_speaks_english_in_a_later_run():
    """Each command's module is imported by its first run: its exit codes'
    epilog is defined in English then, whatever that run speaks, so a later
    run of the same process in English shows no Portuguese (the epilog used
    to be made in the first run's language, and stayed so). Run in a fresh
    interpreter, where no module of a command is imported yet."""
    script = (
        "from click.testing import CliRunner\n"
        "from gamao_cli.cli import main\n"
        "r = CliRunner()\n"
        "for cmd in ('codes', 'convert', 'validate', 'summary', 'position', 'export',\n"
        "            'dedupe', 'select', 'help'):\n"
        "    pt = r.invoke(main, ['--lang', 'pt_BR', cmd, '--help']).output\n"
        "    en = r.invoke(main, ['--lang', 'en', cmd, '--help']).output\n"
        "    assert 'Códigos de saída:' in pt and 'Exit codes:' not in pt, (cmd, pt)\n"
        "    assert 'Exit codes:' in en and 'Códigos de saída' not in en, (cmd, en)\n"
        "print('ok')\n")
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, env={**__import__("os").environ, "LANG": "C.UTF-8"})
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr[-3000:]
