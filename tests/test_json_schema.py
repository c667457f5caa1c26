"""gamao's JSON reader checks a document against its schema before it builds
the model (issue 18, part 1): its own checker (gamao_cli.formats.json.schema)
must agree with the ``jsonschema`` package on which documents are valid, and
every broken document must give a located GM007 (or another located input
error), never a Python exception.
"""
from __future__ import annotations

import copy
import json
import re

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource

from conftest import EXAMPLES, ROOT
from gamao_cli import convert, formats
from gamao_cli.errors import InputError, SchemaProblem
from gamao_cli.formats.json.schema import KEYWORDS, violations
from gamao_cli.replay.check import input_error_diagnostic

SCHEMAS = ROOT / "gamao_cli" / "schemas"


def _validator():
    registry = Registry().with_resources(
        (f"https://gamao.invalid/schemas/{p.name}", Resource.from_contents(json.loads(p.read_text())))
        for p in SCHEMAS.glob("*.json"))
    schema = json.loads((SCHEMAS / "match.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema, registry=registry)


VALIDATOR = _validator()
[_MATCH] = formats.read_path(str(EXAMPLES / "illegal-play.mat"))
for _g in _MATCH.games:
    del _g.actions[12:]   # small documents keep each example fast
DOC = json.loads(convert([_MATCH], "json").text)
TWO = json.loads(convert([_MATCH, _MATCH], "json").text)


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, prefix + (i,))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "play", "double", "8/5 6/5", "gamao-match", "a\nb", "XGID=x", "; c",
                       "AAAAAAAAAAAAAA", "beaver"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["type", "player", "dice", "play", "name", "value", "x"]), inner, max_size=3),
    max_leaves=6)


def _edit(doc, path, value, delete):
    target = doc
    for part in path[:-1]:
        target = target[part]
    if delete and isinstance(target, dict):
        target.pop(path[-1], None)
    elif delete and isinstance(target, list):
        del target[path[-1]]
    else:
        target[path[-1]] = value


@st.composite
def edited_documents(draw):
    doc = copy.deepcopy(draw(st.sampled_from([DOC, TWO])))
    paths = [p for p in _paths(doc) if p]
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        try:
            _edit(doc, path, draw(JSON_VALUES), draw(st.booleans()))
        except (KeyError, IndexError, TypeError):
            pass
        paths = [p for p in _paths(doc) if p]
    return doc


def _stricter_only(found) -> bool:
    """Violations that only gamao's checker finds, on purpose: an integer
    written 1.0, and a final line break where the pattern's "$" (which
    Python's re, which jsonschema uses, lets match before it) ends the text."""
    return all(v.key == "json.type" and v.fields["found"] == "number"
               or v.key == "json.pattern" for v in found)


PROPERTY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(edited_documents())
def test_the_checker_agrees_with_jsonschema(doc):
    theirs = VALIDATOR.is_valid(doc)
    ours = violations(doc, limit=50)
    if theirs:
        assert not ours or _stricter_only(ours), ours
    else:
        assert ours, list(VALIDATOR.iter_errors(doc))[:3]


@PROPERTY
@given(edited_documents())
def test_an_edited_document_reads_or_is_a_located_error(doc):
    text = json.dumps(doc, indent=1)
    try:
        matches = formats.parse_text(text, "e.json")
    except InputError as exc:
        assert exc.line is not None and exc.line >= 1 and exc.column >= 1, exc
        d = input_error_diagnostic(exc)
        if isinstance(exc, SchemaProblem):
            assert d.code == "GM007" and d.message.startswith("$")
        return
    assert matches and not violations(doc)


def test_the_schema_uses_only_keywords_the_checker_applies():
    def keywords(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k not in ("properties", "$defs"):
                    yield k
                for sub in (v.values() if k in ("properties", "$defs") else [v]):
                    yield from keywords(sub)
        elif isinstance(node, list):
            for x in node:
                yield from keywords(x)
    for p in SCHEMAS.glob("*.json"):
        used = set(keywords(json.loads(p.read_text()))) - {"$schema"}
        # enum/const values are data, not keywords: only dicts' keys are looked at
        assert used <= KEYWORDS, (p.name, used - KEYWORDS)


def _broken(edit) -> str:
    doc = copy.deepcopy(DOC)
    edit(doc)
    return json.dumps(doc, indent=1)


@pytest.mark.parametrize("name, edit, at", [
    ("games is a string", lambda d: d.__setitem__("games", "abc"), "$.games"),
    ("games of numbers", lambda d: d.__setitem__("games", [1, 2]), "$.games[0]"),
    ("an action that is no object", lambda d: d["games"][0]["actions"].__setitem__(0, 5),
     "$.games[0].actions[0]"),
    ("three dice", lambda d: d["games"][0]["actions"][0].__setitem__("dice", [3, 1, 2]),
     "$.games[0].actions[0].dice"),
    ("dice as a string", lambda d: d["games"][0]["actions"][0].__setitem__("dice", "31"),
     "$.games[0].actions[0].dice"),
    ("a float die", lambda d: d["games"][0]["actions"][0].__setitem__("dice", [3.5, 1]),
     "$.games[0].actions[0].dice[0]"),
    ("points as a string", lambda d: d["games"][0]["actions"].__setitem__(
        0, {"type": "win", "player": 0, "points": "2"}), "$.games[0].actions[0].points"),
    ("an unknown action", lambda d: d["games"][0]["actions"].__setitem__(
        0, {"type": "cube", "player": 0}), "$.games[0].actions[0].type"),
    ("one name", lambda d: d["games"][0]["score_line"].__setitem__("names", ["Ann"]),
     "$.games[0].score_line.names"),
    ("three names", lambda d: d["games"][0]["score_line"].__setitem__("names", ["a", "b", "c"]),
     "$.games[0].score_line.names"),
    ("a null name", lambda d: d["games"][0]["score_line"].__setitem__("names", ["a", None]),
     "$.games[0].score_line.names[1]"),
    ("a null tag", lambda d: d["tags"].insert(0, {"name": None, "value": "x"}), "$.tags[0].name"),
    ("a number for a name", lambda d: d.__setitem__("players", [1, "b"]), "$.players[0]"),
    ("a length of 5.0", lambda d: d.__setitem__("length", 5.0), "$.length"),
    ("a negative length", lambda d: d.__setitem__("length", -1), "$.length"),
    ("a name over two lines", lambda d: d["games"][0]["score_line"].__setitem__(
        "names", ["a\nb", "c"]), "$.games[0].score_line.names[0]"),
])
def test_a_broken_document_is_a_located_gm006_naming_its_json_path(name, edit, at):
    text = _broken(edit)
    with pytest.raises(SchemaProblem) as exc:
        formats.parse_text(text, "b.json")
    e = exc.value
    assert e.fields["at"] == at and str(e).startswith(f"b.json:{e.line}:{e.column}: {at}: ")
    # the line and column are those of the value at that path
    lines = text.split("\n")
    found = lines[e.line - 1][e.column - 1:]
    doc = json.loads(text)
    value = doc
    for part in re.findall(r"\.(\w+)|\[(\d+)\]", at):
        value = value[part[0]] if part[0] else value[int(part[1])]
    assert found.startswith(json.dumps(value, indent=1).split("\n")[0])
    assert input_error_diagnostic(e).code == "GM007"


@pytest.mark.parametrize("name, text, key", [
    ("a length of 5,000 digits", '"length": ' + "9" * 5000, "GM001.long-number"),
    ("a score of 5,000 digits", '"final_score": [' + "7" * 5000 + ", 0]", "GM001.long-number"),
    ("Infinity", '"length": Infinity', "GM001.json-constant"),
    ("NaN", '"length": NaN', "GM001.json-constant"),
    ("1e400", '"length": 1e400', "GM001.json-range"),
    ("nested 2,000 levels", '"comments": ' + "[" * 2000 + "]" * 2000, "GM001.json-depth"),
    ("a repeat bomb in a play", None, "GM001.repeat"),
    ("a play of a million steps", None, "GM001.movements"),
])
def test_numbers_nesting_and_repeats_are_bounded(name, text, key):
    base = json.dumps(DOC, indent=1)
    if text is None:
        doc = copy.deepcopy(DOC)
        doc["games"][0]["actions"][0]["play"] = (
            "8/5(999999999)" if key == "GM001.repeat" else "8/5 " * 250_000 + "6/5")
        src = json.dumps(doc, indent=1)
    else:
        prop = text.split(":")[0]
        src = re.sub(re.escape(prop) + r": [^,\n]*(?:, [^,\n]*\])?", lambda _m: text, base, count=1)
    with pytest.raises(InputError) as exc:
        formats.parse_text(src, "n.json")
    assert exc.value.key == key and exc.value.line and exc.value.column
    line = src.split("\n")[exc.value.line - 1]
    assert line.strip(), line


def test_a_document_of_no_matches_is_not_a_match_record():
    with pytest.raises(InputError) as exc:
        formats.parse_text('{"format": "gamao-matchs", "version": 1, "matches": []}', "z.json")
    assert exc.value.key == "GM002.json-no-matches"


def test_every_document_gamao_writes_follows_the_schema_for_both_checkers():
    for doc in (DOC, TWO):
        assert VALIDATOR.is_valid(doc) and violations(doc) == []


def test_a_document_written_before_diagnostics_had_fields_still_reads():
    """gamao's JSON (version 1) gained the diagnostics' ``fields`` with the
    message table; a file written before has none, and must still read."""
    doc = copy.deepcopy(DOC)
    assert doc["diagnostics"], "the example has diagnostics"
    for d in doc["diagnostics"]:
        d.pop("fields")
    assert violations(doc) == [] and VALIDATOR.is_valid(doc)
    [back] = formats.parse_text(json.dumps(doc), "old.json")
    assert back == formats.parse_text(json.dumps(DOC), "new.json")[0]


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=4),
    max_leaves=20)


@given(st.dictionaries(st.text(max_size=8), _JSON_VALUES, max_size=6))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_action_line_encoder_writes_what_the_json_encoder_writes(value):
    """The writer encodes each action with json's C encoder called
    directly (codec._ENCODE_ITEM): the same text as JSONEncoder.encode with
    the writer's settings, or the same ValueError (NaN, infinity, an int
    too long to write)."""
    from gamao_cli.formats.json import codec

    def outcome(encode):
        try:
            return encode(value)
        except ValueError as e:
            return ("ValueError", str(e))
    assert codec._ENCODE_ITEM is not codec._ENCODE or json.encoder.c_make_encoder is None
    assert outcome(codec._ENCODE_ITEM) == outcome(codec._ENCODE)
    assert outcome(codec._ENCODE_ITEM) == outcome(
        lambda v: json.dumps(v, ensure_ascii=False, allow_nan=False))
