"""Every error a reader raises names its message by a key of the one
message table (gamao_cli.messages) and carries its fields; its words are
rendered from there, and are what they were before the table held them
(each expectation below is the text the readers wrote inline before).
"""
from __future__ import annotations

import random

import pytest

from conftest import EXAMPLES
from gamao_cli import formats
from gamao_cli.errors import InputError
from gamao_cli.formats.sgf.reader import read_sgf
from gamao_cli.messages import MESSAGES, READER_MESSAGES, Msg, jsonable, render, render_input
from gamao_cli.replay.check import input_error_diagnostic

HDR = " 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"

# (message key, how the input is read, the input, the error's str())
CASES = [
    ('GM002.no-header', 'text', 'hello\n',
     'x.in:1:1: not a match file: no "N point match" header line'),
    ('GM001.score-line', 'text', ' 1 point match\n\n Game 1\n  1) 31: 8/5 6/5\n',
     'x.in:4:3: a score line ("Name : 0   Name : 0") must follow the Game line (found \'1) 31: 8/5 6/5\'); expected a score line ("Name : 0   Name : 0")'),
    ('GM001.not-a-cell', 'text', ' 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) 31: 8/5 hello\n',
     'x.in:5:14: this is not a move, cube action or result (found \'hello\'); expected "Wins N point", "Game N", "N point match", a move line ("7) 62: 24/18 13/11"), a tag (; [Name "value"])'),
    ('GM001.step', 'text', ' 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) 31: 8-5 6-5\n',
     'x.in:5:10: a play step must look like 13/7, 24/18*, bar/22 or 6/off(2) (found \'8-5 6-5\'); expected "Wins N point", "Game N", "N point match", a move line ("7) 62: 24/18 13/11"), a tag (; [Name "value"])'),
    ('GM001.eof', 'text', ' 1 point match\n\n Game 1\n Ann : 0   Bob : 0\n  1)  Doubles => 2\n Game 2\n',
     'x.in:6:8: the file ends in the middle of a match; expected a score line ("Name : 0   Name : 0")'),
    ('GM001.line', 'text', '; [Site "x"]\n 1 point match\n\n Game 1\n Ann : 0   Bob : 0\n  1) 31: 8/5 6/5\n Wins\n',
     'x.in:7:2: cannot read this line (found \'Wins\'); expected "Wins N point", "Game N", "N point match", a move line ("7) 62: 24/18 13/11"), a tag (; [Name "value"])'),
    ('GM001.repeat', 'text', ' 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) 31: 8/5(12)\n',
     "x.in:5:13: a step repeated 12 times: a roll moves a checker at most 4 times (more than 9 is not read) (found '(12)')"),
    ('GM001.long-number', 'text', ' 1 point match\n\n Game 1\n Ann : 99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999  Bob : 0\n',
     "x.in:4:8: a number of 5000 digits: gamao reads numbers of at most 4300 digits (found '99999999999999999999...')"),
    ('GM002.not-sgf', 'sgf', '(x',
     'x.in:1:1: not an SGF file: it does not start with "(;"'),
    ('GM002.sgf-other-game', 'text', '(;FF[4]GM[1])',
     'x.in:1:8: an SGF file for another game (GM[1]); backgammon is GM[6]'),
    ('GM001.sgf-eof', 'text', '(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]',
     'x.in:1:59: the SGF text ends inside a game tree (a ")" is missing); expected "(" (a game tree), a property name (W, B, MI...), a value in brackets ([...]), ")" (the end of a game tree), ";" (a node)'),
    ('GM001.sgf-value-open', 'text', '(;GM[6]PW[Ann;W(31hefe)\n',
     'x.in:1:10: a property value is not closed with "]" (write \\] for a "]" inside it) (found \'[Ann;W(31hefe)\'); expected a value in brackets ([...])'),
    ('GM001.sgf-not-sgf', 'text', '(;GM[6]@)',
     'x.in:1:8: this is not SGF: expected a property, a node or a game tree (found \'@)\'); expected "(" (a game tree), a property name (W, B, MI...), a value in brackets ([...]), ")" (the end of a game tree), ";" (a node)'),
    ('GM001.sgf-value-alone', 'text', '(;GM[6])[x]',
     'x.in:1:9: a value in brackets must follow a property name (found \'[x]\'); expected "(" (a game tree), ")" (the end of a game tree)'),
    ('GM001.sgf-prop-outside', 'text', '(;GM[6])W[31]',
     'x.in:1:9: a property must stand in a node (after ";") (found \'W[31]\'); expected "(" (a game tree), ")" (the end of a game tree)'),
    ('GM001.sgf-unexpected', 'text', '(;GM[6](;W[31hefe]);B[62agln])',
     'x.in:1:20: unexpected text in the SGF game tree (found \';B[62agln])\'); expected "(" (a game tree), ")" (the end of a game tree)'),
    ('GM001.sgf-points', 'text', '(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]AE[ab];W[31hefe])',
     'x.in:1:61: AE[ab]: a point is one letter a-z, a range is two ("a:y") (found \'ab\')'),
    ('GM001.sgf-cell', 'text', '(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob];XA[Q][loss][2])',
     "x.in:1:60: game 1: XA[Q][loss][2] is not a cell gamao writes (loss, resign, unplayed, illegal or win, after W or B) (found 'Q')"),
    ('GM001.sgf-move', 'text', '(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob];W[3hefe])',
     'x.in:1:62: game 1: W[3hefe] is not a move: expected two dice and letter pairs ("31hefe"), a dance ("66"), double, take or drop (found \'3hefe\')'),
    ('GM001.sgf-from-off', 'text', '(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob];W[31zefe])',
     "x.in:1:64: game 1: W[31zefe]: ze moves a checker from off the board (found '31zefe')"),
    ('GM001.sgf-onto-bar', 'text', '(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob];W[31hyef])',
     "x.in:1:64: game 1: W[31hyef]: hy moves a checker onto the bar (found '31hyef')"),
    ('GM001.sgf-cube-value', 'text', '(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob];CV[3];W[31hefe])',
     "x.in:1:60: game 1: CV[3] is not a cube value (1, 2, 4, 8 and so on) (found '3')"),
    ('GM001.sgf-cube-owner', 'text', '(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob];CP[x];W[31hefe])',
     "x.in:1:60: game 1: CP[x] is not a cube owner (c centred, w White, b Black) (found 'x')"),
    ('GM002.json-format', 'text', '{"format": "other"}',
     'x.in:1:1: not a gamao JSON match: its "format" is "other", not "gamao-match"'),
    ('GM002.json-no-format', 'text', '{"a": 1}',
     'x.in:1:1: not a gamao JSON match: it has no "format": "gamao-match"'),
    ('GM001.json-version', 'text', '{"format": "gamao-match", "version": 7}',
     'x.in:1:1: gamao JSON: its version 7 is not supported (this gamao reads version 1)'),
    ('GM001.json-no-version', 'text', '{"format": "gamao-match"}',
     'x.in:1:1: gamao JSON: it has no "version" (this gamao reads version 1)'),
    ('GM001.json-syntax', 'text', '{"format": ',
     'x.in:1:12: not valid JSON: Expecting value'),
    ('GM003.nul', 'bytes', b' 1 point match\n\x00',
     'x.in: byte 15: not a text file: a NUL byte (binary data?)'),
    ('GM003.control', 'bytes', b' 1 point match\n\x01',
     'x.in: byte 15: not a text file: control byte 0x01 (binary data?)'),
    ('GM003.control-char', 'bytes', b'\xff\xfe \x001\x00 \x00p\x00o\x00i\x00n\x00t\x00\x01\x00',
     'x.in: byte 18: not a text file: control character U+0001 in UTF-16-LE text'),
    ('GM003.utf8-after-bom', 'bytes', b'\xef\xbb\xbf 1 point\xff',
     'x.in: byte 11: invalid UTF-8 after a UTF-8 byte order mark: byte 0xFF'),
    ('GM003.utf16', 'bytes', b'\xff\xfe1\x00 \x00p',
     'x.in: byte 6: invalid UTF-16-LE (after a byte order mark): odd number of bytes at byte 0x70'),
    ('GM004.cannot-read', 'path', '/nonexistent/gamao-x.mat',
     '/nonexistent/gamao-x.mat: cannot read: no such file or directory'),
]


def _raise(kind, data):
    if kind == "bytes":
        return formats.parse_bytes(data, "x.in")
    if kind == "path":
        return formats.read_path(data)
    if kind == "sgf":
        return read_sgf(data, "x.in")
    return formats.parse_text(data, "x.in")


@pytest.mark.parametrize("key, kind, data, expected", CASES, ids=[c[0] for c in CASES])
def test_each_reader_message_has_its_key_and_its_old_words(key, kind, data, expected):
    with pytest.raises(InputError) as exc:
        _raise(kind, data)
    e = exc.value
    assert e.key == key
    assert str(e) == expected
    assert e.message == render(e.key, e.fields)
    assert e.expected == [render(k, {}) for k in e.expected_keys]


@pytest.mark.parametrize("key, kind, data, expected", CASES, ids=[c[0] for c in CASES])
def test_the_diagnostic_renders_back_from_its_key_and_fields(key, kind, data, expected):
    with pytest.raises(InputError) as exc:
        _raise(kind, data)
    d = input_error_diagnostic(exc.value)
    assert d.key == key
    assert d.message == render_input(d.key, d.fields)
    # the message is the error's, without its location (which the diagnostic holds)
    assert expected == f"{exc.value.location()}: {d.message.replace(' (at byte ' + str(exc.value.offset) + ')', '')}"
    if exc.value.offset is not None and exc.value.line is None:
        assert d.fields["at_byte"] == exc.value.offset
    for k in d.fields.get("expected", []):
        assert k in MESSAGES


def test_every_reader_message_is_used_by_the_readers():
    """No key of the readers' table is dead: each is named in the source
    (or is one of the keys made from a word, listed here)."""
    import pathlib
    import gamao_cli
    src = "".join(p.read_text(encoding="utf-8") for p in
                  pathlib.Path(gamao_cli.__file__).parent.rglob("*.py")
                  if p.name != "messages.py")
    made = {"utf16.bom", "utf16.no-bom", "sgf.length", "sgf.game"}   # "utf16." + how, "sgf." + key
    # a family whose key the source makes from a word ("GM014." + what,
    # f"GM010.{problem}"): each key's word must be written in the source
    import re
    families = set(re.findall(r'"([A-Za-z0-9.-]+\.)" \+', src)) | \
        set(re.findall(r'f"([A-Za-z0-9.-]+\.)\{', src))

    def built(k: str) -> bool:
        return any(k.startswith(f) and f'"{k[len(f):]}"' in src for f in families)
    unused = [k for k in READER_MESSAGES if f'"{k}"' not in src and k not in made
              and not built(k)]
    assert unused == []


def test_fields_are_jsonable():
    with pytest.raises(InputError) as exc:
        formats.parse_bytes(b"\xff\xfe1\x00 \x00p", "x.in")
    fields = jsonable(input_error_diagnostic(exc.value).fields)
    assert fields["how"] == {"key": "utf16.bom", "fields": {}}
    assert fields["at"] == {"key": "byte.hex", "fields": {"byte": 0x70}}
    assert isinstance(exc.value.fields["reason"], Msg)


def _mutants(n: int = 400):
    rng = random.Random(7)
    seeds = [p.read_bytes() for p in sorted(EXAMPLES.glob("*"))]
    junk = [b"(", b")", b"[", b"]", b";", b":", b"/", b"*", b"\x00", b"\xff", b"(99)", b"\n",
            b"Game 1", b"Doubles", b"W[", b"{", b"99999"]
    for _ in range(n):
        d = bytearray(rng.choice(seeds)[:3000])
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(d))
            if rng.random() < 0.5:
                d[i:i + rng.randint(1, 30)] = b""
            else:
                d[i:i] = rng.choice(junk)
        yield bytes(d)


def test_every_error_of_mutated_records_comes_from_the_table():
    seen = set()
    for data in _mutants():
        try:
            formats.parse_bytes(data, "m.mat")
        except InputError as e:
            assert e.key in MESSAGES, e
            assert e.message == render(e.key, e.fields)
            d = input_error_diagnostic(e)
            assert d.message == render_input(d.key, d.fields)
            seen.add(e.key)
    assert len(seen) >= 4, seen
