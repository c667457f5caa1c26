"""``gamao export``: the tables against GNU Backgammon's own view of its
self-play matches, read back by DuckDB as an analyst reads them; the same
rows in every output form, with any number of jobs, from archives and from
URLs; match ids that do not depend on the format read."""
from __future__ import annotations

import gzip
import io
import re
import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CORPUS, EXAMPLES, ROOT, SELFPLAY, corpus_sample, needs_corpus
from gamao_cli import formats
from gamao_cli.cli import main
from gamao_cli.messages import CODES
from gamao_cli.tables.rows import match_id
from gamao_cli.tables.schema import TABLES

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

IDS = SELFPLAY / "ids"
DOCS = ROOT / "docs"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def export(tmp: Path, *inputs, to: str = "parquet", extra: tuple[str, ...] = ()) -> Path:
    out = tmp / f"out-{to}"
    r = run("export", *map(str, inputs), "-o", str(out), "--to", to, *extra)
    assert r.exit_code == 0, r.output
    return out


def rows(out: Path, table: str, to: str = "parquet", order: str | None = None,
         columns: str = "*", where: bool = True) -> list[tuple]:
    """A table as DuckDB reads it, in input order (``where=False``: without
    the path of the copy, to compare copies of the same matches)."""
    if not where:
        columns = "* EXCLUDE (path)"
    src = _reader(out, table, to)
    order = order or {"matches": "path, index_in_file", "games": "path, index_in_file, game",
                      "actions": "path, index_in_file, game, seq",
                      "decisions": "path, index_in_file, game, seq, kind"}[table]
    return duckdb.sql(f"SELECT {columns} FROM {src} ORDER BY {order}").fetchall()


_DUCK_TYPES = {"string": "VARCHAR", "bool": "BOOLEAN", "int8": "TINYINT", "int16": "SMALLINT",
               "int32": "INTEGER", "int64": "BIGINT", "float64": "DOUBLE", "date": "DATE",
               "list<candidate>": "STRUCT(play VARCHAR, equity DOUBLE, win DOUBLE, "
                                  "win_gammon DOUBLE, win_backgammon DOUBLE, lose_gammon DOUBLE, "
                                  "lose_backgammon DOUBLE, depth VARCHAR)[]"}


def _reader(out: Path, table: str, to: str) -> str:
    glob = f"'{out}/{table}/*.{to}'"
    if to == "parquet":
        return f"read_parquet({glob})"
    types = {c.name: _DUCK_TYPES[c.type] for c in TABLES[table]}
    if to == "csv":   # a list is its JSON text there
        types = {k: "VARCHAR" if v.endswith("[]") else v for k, v in types.items()}
    cols = "{" + ", ".join(f"'{k}': '{v}'" for k, v in types.items()) + "}"
    if to == "csv":
        src = f"read_csv({glob}, header=true, columns={cols}, allow_quoted_nulls=false)"
        lists = [c.name for c in TABLES[table] if c.type.startswith("list<")]
        if lists:   # read the JSON text back as the list it is
            casts = ", ".join(f"CAST({n}::JSON AS {_DUCK_TYPES['list<candidate>']}) AS {n}"
                              for n in lists)
            src = f"(SELECT * REPLACE ({casts}) FROM {src})"
        return src
    return f"read_json({glob}, format='newline_delimited', columns={cols})"


@pytest.fixture(scope="module")
def selfplay_tables(tmp_path_factory) -> Path:
    return export(tmp_path_factory.mktemp("selfplay"), SELFPLAY)


# -- GNU Backgammon's view ----------------------------------------------------------

def gnubg_games(sgf: Path) -> list[dict]:
    """Each game of a GNU Backgammon SGF as gnubg saved it: winner (W = White =
    the left player, 0), points, resigned, Crawford game."""
    out = []
    for tree in sgf.read_text(encoding="utf-8").split("(;FF[4]")[1:]:
        root = tree.split("\n;", 1)[0]
        re_ = re.search(r"RE\[([WB])\+(\d+)(R?)\]", root)
        out.append({"winner": 0 if re_.group(1) == "W" else 1, "points": int(re_.group(2)),
                    "resigned": re_.group(3) == "R",
                    "crawford": "RU[Crawford:CrawfordGame]" in root})
    return out


def gnubg_rolls(ids: Path) -> dict[int, list[tuple[str, str]]]:
    """game -> [(Position ID, Match ID)] GNU Backgammon printed before every roll."""
    out: dict[int, list] = {}
    for line in ids.read_text().splitlines():
        game, _move, what, pos, mid = line.split("\t")
        if " to play " in what:
            out.setdefault(int(game), []).append((pos, mid))
    return out


def selfplay_names() -> list[str]:
    return sorted(p.stem for p in IDS.glob("*.ids"))


def test_there_are_reference_matches():
    assert len(selfplay_names()) >= 12


@pytest.mark.parametrize("ext", ["sgf", "mat"])
@pytest.mark.parametrize("name", selfplay_names())
def test_tables_equal_gnubgs_view(selfplay_tables, name, ext):
    path = str(SELFPLAY / f"{name}.{ext}")
    [(_mid, n_games, fmt)] = duckdb.sql(
        f"SELECT match_id, games, format FROM '{selfplay_tables}/matches/*.parquet' "
        f"WHERE path = '{path}'").fetchall()
    assert fmt == ext
    theirs = gnubg_games(SELFPLAY / f"{name}.sgf")
    games = duckdb.sql(
        f"SELECT game, winner, points, ended, crawford, rolls FROM "
        f"'{selfplay_tables}/games/*.parquet' WHERE path = '{path}' ORDER BY game").fetchall()
    assert n_games == len(games) == len(theirs)
    rolls = gnubg_rolls(IDS / f"{name}.ids")
    for (game, winner, points, ended, crawford, n_rolls), g in zip(games, theirs):
        assert (winner, points) == (g["winner"], g["points"]), f"game {game}"
        assert (ended == "resign") == g["resigned"], f"game {game}: {ended}"
        assert crawford == g["crawford"], f"game {game}"
        assert n_rolls == len(rolls[game]), f"game {game}"
        ours = duckdb.sql(
            f"SELECT position_id, match_id_gnubg FROM '{selfplay_tables}/actions/*.parquet' "
            f"WHERE path = '{path}' AND game = {game} AND kind = 'roll' ORDER BY seq").fetchall()
        assert [p for p, _m in ours] == [p for p, _m in rolls[game]], f"game {game}"
        # a .mat file does not say whether a money session plays the Jacoby
        # rule (gnubg's SGF does): the Match ID holds it, so only the SGF's
        # Match IDs are gnubg's for a money session
        if ext == "sgf" or "RU[Jacoby]" not in (SELFPLAY / f"{name}.sgf").read_text():
            assert [m for _p, m in ours] == [m for _p, m in rolls[game]], f"game {game}"


def test_the_winner_and_score_of_every_match_add_up(selfplay_tables):
    bad = duckdb.sql(f"""
        SELECT m.path FROM '{selfplay_tables}/matches/*.parquet' m
        JOIN (SELECT path, index_in_file, sum(points) FILTER (WHERE winner = 0) AS p0,
                     sum(points) FILTER (WHERE winner = 1) AS p1
              FROM '{selfplay_tables}/games/*.parquet' GROUP BY ALL) g USING (path, index_in_file)
        WHERE coalesce(g.p0, 0) <> m.score0 OR coalesce(g.p1, 0) <> m.score1
           OR (m.length > 0 AND m.winner <> (m.score1 >= m.length)::INT)""").fetchall()
    assert bad == []


def test_a_clean_record_has_only_legal_actions(selfplay_tables):
    assert duckdb.sql(f"SELECT count(*) FROM '{selfplay_tables}/actions/*.parquet' "
                      "WHERE legal IS NOT TRUE OR codes IS NOT NULL").fetchall() == [(0,)]
    assert duckdb.sql(f"SELECT sum(errors + warnings) FROM "
                      f"'{selfplay_tables}/matches/*.parquet'").fetchall() == [(0,)]


def test_pips_xgid_and_play_before_the_opening_roll(selfplay_tables):
    [first] = duckdb.sql(f"SELECT pips0, pips1, xgid, play, play_written, die1 >= die2 "
                         f"FROM '{selfplay_tables}/actions/*.parquet' WHERE seq = 1 "
                         "LIMIT 1").fetchall()
    assert first[:2] == (167, 167)
    assert first[2].startswith("XGID=-b----E-C---eE---c-e----B-:0:0:")
    assert first[5] is True
    # every play is one die step a die (four for doubles), unless it is
    # forced shorter; no consolidated step such as 24/13 remains
    plays = duckdb.sql(f"SELECT die1, die2, play FROM '{selfplay_tables}/actions/*.parquet' "
                       "WHERE kind = 'roll'").fetchall()
    for d1, d2, play in plays:
        steps = play.split() if play else []
        assert len(steps) <= (4 if d1 == d2 else 2)
        for s in steps:
            a, b = s.rstrip("*").split("/")
            a = 25 if a == "bar" else int(a)
            b = 0 if b == "off" else int(b)
            assert a - b in (d1, d2) or b == 0, (d1, d2, play)


# -- the match id -------------------------------------------------------------------

def _same_match_three_ways(path: Path) -> list:
    [mat] = formats.read_path(str(path))
    sgf = formats.get("sgf").write([mat]).text
    json_ = formats.get("json").write([mat]).text
    [from_sgf] = formats.parse_text(sgf, "x.sgf")
    [from_json] = formats.parse_text(json_, "x.json")
    return [mat, from_sgf, from_json]


@pytest.mark.parametrize("path", sorted(SELFPLAY.glob("*.mat")) + sorted(EXAMPLES.glob("*.mat")),
                         ids=lambda p: p.name)
def test_match_id_is_the_same_from_mat_sgf_and_json(path):
    ids = {match_id(m) for m in _same_match_three_ways(path)}
    assert len(ids) == 1


def test_match_id_through_the_command_and_differs_between_matches(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    for name in ("m0020", "m0035"):
        mat, from_sgf, from_json = _same_match_three_ways(SELFPLAY / f"{name}.mat")
        shutil.copy(SELFPLAY / f"{name}.mat", src / f"{name}.mat")
        (src / f"{name}-converted.sgf").write_text(formats.get("sgf").write([mat]).text)
        (src / f"{name}-converted.json").write_text(formats.get("json").write([mat]).text)
    out = export(tmp_path, src / "m0020.mat", src / "m0020-converted.sgf",
                 src / "m0020-converted.json", src / "m0035.mat", src / "m0035-converted.sgf",
                 src / "m0035-converted.json")
    got = rows(out, "matches", columns="format, match_id", order="path")
    by_format = {}
    for fmt, mid in got:
        by_format.setdefault(fmt, []).append(mid)
    assert by_format["mat"] == by_format["sgf"] == by_format["json"]
    assert len(set(by_format["mat"])) == 2
    # and the actions of the three copies are the same rows
    n = duckdb.sql(f"SELECT match_id, count(*) FROM '{out}/actions/*.parquet' "
                   "GROUP BY match_id").fetchall()
    per_match = {m: c for m, c in n}
    single = duckdb.sql(f"SELECT match_id, actions FROM '{out}/matches/*.parquet'").fetchall()
    assert all(per_match[m] == 3 * c for m, c in single)


def test_a_change_in_one_play_changes_the_id():
    [a] = formats.read_path(str(SELFPLAY / "m0020.mat"))
    text = (SELFPLAY / "m0020.mat").read_text().replace("13/8 24/20", "24/20 13/8", 1)
    [same] = formats.parse_text(text, "b.mat")
    text = (SELFPLAY / "m0020.mat").read_text().replace("42: 6/4 8/4", "42: 8/4 6/4", 1)
    [b] = formats.parse_text(text, "b.mat")
    text = (SELFPLAY / "m0020.mat").read_text().replace("gnubgB", "someone")
    [c] = formats.parse_text(text, "c.mat")
    text = (SELFPLAY / "m0020.mat").read_text().replace("54: 13/8 24/20", "54: 13/9 24/20", 1)
    [d] = formats.parse_text(text, "d.mat")
    # the same die steps, written in another order
    assert match_id(a) == match_id(same) == match_id(b)
    assert match_id(c) != match_id(a)   # another player
    assert match_id(d) != match_id(a)   # another play (an illegal one)


# -- every output form, every way of running ---------------------------------------------

@pytest.mark.parametrize("to", ["csv", "jsonl"])
def test_csv_and_jsonl_hold_the_rows_parquet_holds(tmp_path, selfplay_tables, to):
    src = [SELFPLAY, EXAMPLES]
    parquet = export(tmp_path, *src, to="parquet")
    other = export(tmp_path, *src, to=to)
    for table in TABLES:
        assert rows(other, table, to) == rows(parquet, table), table
    header = (other / "actions" / "part-00000.csv").read_text().splitlines()[0] if to == "csv" \
        else None
    if header is not None:
        assert header.split(",") == [c.name for c in TABLES["actions"]]


def test_the_parquet_schema_is_the_documented_one(selfplay_tables):
    import pyarrow.parquet as pq
    for table, cols in TABLES.items():
        schema = pq.read_schema(next((selfplay_tables / table).glob("*.parquet")))
        assert schema.names == [c.name for c in cols]
        assert schema.metadata[b"gamao.table"] == table.encode()
        for c, f in zip(cols, schema):
            assert f.nullable == c.nullable, c.name


def test_jobs_give_the_same_files(tmp_path):
    one = tmp_path / "one"
    two = tmp_path / "two"
    for out, jobs in ((one, "1"), (two, "2")):
        r = run("export", str(SELFPLAY), str(EXAMPLES), "-o", str(out), "--jobs", jobs,
                "--part-files", "3", "--to", "jsonl")
        assert r.exit_code == 0, r.output
    for table in TABLES:
        a = sorted(p.name for p in (one / table).iterdir())
        assert a == sorted(p.name for p in (two / table).iterdir())
        assert len(a) == 10  # 28 inputs, 3 a part
        for name in a:
            assert (one / table / name).read_bytes() == (two / table / name).read_bytes()


def test_errors_are_columns_and_unreadable_files_exit_2(tmp_path):
    bad = tmp_path / "not-a-record.mat"
    bad.write_text("hello\n")
    r = run("export", str(EXAMPLES / "illegal-play.mat"), str(bad), "-o", str(tmp_path / "o"))
    assert r.exit_code == 2
    assert f"{bad}:1:1: GM002" in r.output
    assert "Traceback" not in r.output
    got = rows(tmp_path / "o", "actions", columns="codes, legal, play, play_written")
    illegal = [g for g in got if g[1] is False]
    assert illegal and all(g[0] for g in illegal)
    [(errors, match_codes)] = duckdb.sql(
        f"SELECT errors, codes FROM '{tmp_path}/o/matches/*.parquet'").fetchall()
    game_codes = [c for (c,) in rows(tmp_path / "o", "games", columns="codes")]
    codes = " ".join(c for c in [g[0] for g in got] + game_codes + [match_codes] if c).split()
    assert errors == sum(CODES[c].severity == "error" for c in codes) >= 1


def test_an_action_figure_no_column_holds_is_gm012_and_the_other_matches_go(tmp_path):
    """A note of a loss of three billion points (beside a result of one):
    ``actions.points`` is an int32, so that match is not exported (GM012,
    checked on the actions' cells before any row is written), the file's
    next match is."""
    rec = (" 1 point match\n\n Game 1\n Ann : 0   Bob : 0\n"
           "  1) 31: 8/5 6/5                 Loss {points} points\n  2) Wins 1 point\n")
    src = tmp_path / "big.mat"
    src.write_text(rec.format(points=3_000_000_000) + "\n" + rec.format(points=1))
    r = run("export", str(src), "-o", str(tmp_path / "o"), "--to", "csv")
    assert r.exit_code == 2, r.output
    assert "GM012" in r.output and "actions.points" in r.output and "3000000000" in r.output
    # where the record states it: the Loss cell's line and column
    cell = rec.splitlines()[4].index("Loss") + 1
    assert f"{src}:5:{cell}: GM012" in r.output, r.output
    assert [row[2] for row in rows(tmp_path / "o", "matches", "csv")] == [1]   # index_in_file


@pytest.mark.parametrize("length, score, line, column", [
    (0, 3_000_000_000, 4, "matches.score0"),       # a money session's score line
    (3_000_000_000, 0, 1, "matches.length"),     # the match's first line
])
def test_a_score_or_length_no_column_holds_is_gm012_at_its_line(tmp_path, length, score, line,
                                                                 column):
    """A score line of three billion points, a length of three billion:
    GM012 names the line that states it (the columns are int32)."""
    src = tmp_path / "big.mat"
    src.write_text(f" {length} point match\n\n Game 1\n Ann : {score}   Bob : 0\n"
                   "  1) 31: 8/5 6/5\n")
    r = run("export", str(src), "-o", str(tmp_path / "o"), "--to", "csv")
    assert r.exit_code == 2, r.output
    assert f"{src}:{line}:2: GM012" in r.output and column in r.output, r.output


def test_an_earlier_export_is_kept_unless_force(tmp_path):
    out = export(tmp_path, EXAMPLES / "gnubg-selfplay-5pt.mat")
    r = run("export", str(EXAMPLES), "-o", str(out))
    assert r.exit_code == 2 and "--force" in r.output
    assert len(rows(out, "matches")) == 1
    r = run("export", str(EXAMPLES), "-o", str(out), "--force")
    assert r.exit_code == 0, r.output
    assert len(rows(out, "matches")) == len(list(EXAMPLES.glob("*.mat")))


def test_no_inputs_and_stdin_are_usage_errors(tmp_path):
    assert run("export", str(tmp_path), "-o", str(tmp_path / "o")).exit_code == 2
    assert run("export", "-", "-o", str(tmp_path / "o")).exit_code == 2


# -- archives ---------------------------------------------------------------------

def _archives(folder: Path) -> None:
    mats = sorted(SELFPLAY.glob("*.mat"))
    with zipfile.ZipFile(folder / "mats.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for p in mats:
            z.write(p, f"records/{p.name}")
        z.writestr("records/README", "not taken: no record ending")
        z.writestr("__MACOSX/records/._m0001.mat", b"\x00\x05junk")
    with tarfile.open(folder / "mats.tar", "w") as t:
        for p in mats:
            t.add(p, p.name)
    with tarfile.open(folder / "mats.tar.gz", "w:gz") as t:
        for p in mats:
            t.add(p, p.name)
    for p in mats[:2]:
        (folder / (p.name + ".gz")).write_bytes(gzip.compress(p.read_bytes()))


def test_archives_give_the_rows_of_their_files(tmp_path):
    folder = tmp_path / "archives"
    folder.mkdir()
    _archives(folder)
    plain = export(tmp_path / "a", *sorted(SELFPLAY.glob("*.mat")))
    for name in ("mats.zip", "mats.tar", "mats.tar.gz"):
        out = export(tmp_path / name, folder / name, extra=("--part-files", "5"))
        paths = [p for (p,) in rows(out, "matches", columns="path")]
        assert paths == sorted(f"{folder / name}!{'records/' if name.endswith('zip') else ''}"
                               f"{p.name}" for p in SELFPLAY.glob("*.mat"))
        for table in ("games", "actions"):
            assert rows(out, table, where=False) == rows(plain, table, where=False), (name, table)
    out = export(tmp_path / "gz", folder, extra=("--glob", "*.mat.gz"))
    assert [p for (p,) in rows(out, "matches", columns="path")] == [
        f"{folder}/{p.name}.gz!{p.name}" for p in sorted(SELFPLAY.glob("*.mat"))[:2]]


def test_a_zip_is_spread_over_parts(tmp_path):
    folder = tmp_path / "archives"
    folder.mkdir()
    _archives(folder)
    out = export(tmp_path, folder / "mats.zip", extra=("--part-files", "4", "--jobs", "2"))
    assert len(list((out / "actions").glob("*.parquet"))) == 3


def test_damaged_archives_are_diagnostics_not_crashes(tmp_path):
    good = SELFPLAY / "m0020.mat"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(good, "a.mat")
        z.write(good, "b.mat")
    data = bytearray(buf.getvalue())
    # damage a.mat's compressed bytes (its CRC no longer matches)
    start = data.index(b"a.mat") + len(b"a.mat") + 20
    data[start:start + 8] = b"\xff" * 8
    (tmp_path / "damaged.zip").write_bytes(bytes(data))
    (tmp_path / "cut.tar.gz").write_bytes(gzip.compress(b"x" * 600)[:30])
    (tmp_path / "cut.zip").write_bytes(buf.getvalue()[:40])
    r = run("export", str(tmp_path / "damaged.zip"), str(tmp_path / "cut.tar.gz"),
            str(tmp_path / "cut.zip"), "-o", str(tmp_path / "o"))
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    assert f"{tmp_path / 'damaged.zip'}!a.mat: GM004" in r.output
    assert f"{tmp_path / 'cut.zip'}" in r.output
    assert f"{tmp_path / 'cut.tar.gz'}" in r.output
    # the member after the damaged one is still read
    assert [p for (p,) in rows(tmp_path / "o", "matches", columns="path")] == [
        f"{tmp_path / 'damaged.zip'}!b.mat"]


# -- URLs through fsspec ----------------------------------------------------------------

def test_file_urls_in_and_out(tmp_path):
    pytest.importorskip("fsspec")
    src = tmp_path / "src"
    shutil.copytree(SELFPLAY, src, ignore=shutil.ignore_patterns("*.sgf", "ids", "*.py", "*.md"))
    folder = tmp_path / "archives"
    folder.mkdir()
    _archives(folder)
    out_url = f"file://{tmp_path}/url-out"
    r = run("export", f"file://{src}", f"file://{folder}/mats.zip", "-o", out_url,
            "--part-files", "5")
    assert r.exit_code == 0, r.output
    plain = export(tmp_path, src, folder / "mats.zip", extra=("--part-files", "5"))
    for table in ("games", "actions"):
        assert rows(tmp_path / "url-out", table, where=False) == rows(plain, table, where=False)
    paths = [p for (p,) in rows(tmp_path / "url-out", "matches", columns="path")]
    assert paths[0].startswith("file://") and any(".zip!records/" in p for p in paths)


def test_memory_urls(tmp_path):
    fsspec = pytest.importorskip("fsspec")
    fs = fsspec.filesystem("memory")
    for p in sorted(SELFPLAY.glob("*.mat"))[:3]:
        fs.pipe(f"/gamao-test/in/{p.name}", p.read_bytes())
    r = run("export", "memory://gamao-test/in/", "-o", "memory://gamao-test/out", "--to",
            "jsonl", "--jobs", "1")
    assert r.exit_code == 0, r.output
    lines = fs.cat("/gamao-test/out/matches/part-00000.jsonl").decode().splitlines()
    assert len(lines) == 3 and '"path": "memory:///gamao-test/in/m0001.mat"' in lines[0]
    fs.rm("/gamao-test", recursive=True)


# -- the documentation ------------------------------------------------------------------

def _doc_columns(text: str, table: str) -> list[tuple[str, str, str]]:
    """(name, type, nullable) of the table of ``table``'s columns in docs/tables.md."""
    section = text.split(f"## `{table}`", 1)[1].split("\n## ", 1)[0]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0].startswith("`"):
            out.append((cells[0].strip("`"), cells[1].strip("`"), cells[2]))
    return out


def test_docs_tables_md_is_the_schema():
    text = (DOCS / "tables.md").read_text(encoding="utf-8")
    for table, cols in TABLES.items():
        assert _doc_columns(text, table) == [
            (c.name, c.type, "yes" if c.nullable else "no") for c in cols], table


def _sql_blocks(text: str) -> list[tuple[str, str]]:
    """(query, the output shown after it) of each ```sql block followed by a ```text block."""
    # (a query shown without its output, as the decisions table's, is not one)
    return re.findall(r"```sql\n((?:(?!```).)*?)```\s*\n```text\n(.*?)```", text, re.S)


def _box_rows(shown: str) -> tuple[list[str], list[tuple[str, ...]]]:
    """The header and rows of a table as DuckDB prints it (box drawing)."""
    lines = [[c.strip() for c in line.strip().strip("│").split("│")]
             for line in shown.splitlines() if line.startswith("│")]
    return lines[0], [tuple(r) for r in lines[2:]]


def _shown(value) -> str:
    return "NULL" if value is None else str(value)


@pytest.mark.parametrize("doc", ["docs/tables.md", "README.md"])
def test_the_documented_queries_give_the_documented_output(tmp_path, doc):
    """The queries of the docs, run on the export the docs make (the
    self-play match files), print the rows the docs show."""
    text = (DOCS.parent / doc).read_text(encoding="utf-8")
    blocks = _sql_blocks(text)
    assert len(blocks) >= 2
    out = export(tmp_path, SELFPLAY, extra=("--glob", "*.mat"))
    for query, shown in blocks:
        # the README compares a local export with one made on a Dask cluster
        # (tables-dask/); that the two are equal is tested in
        # test_export_dask.py: here both are the local export
        rel = duckdb.sql(query.replace("'tables/", f"'{out}/").replace("'tables-dask/", f"'{out}/"))
        header, expect = _box_rows(shown)
        assert header == list(rel.columns), query
        got = [tuple(_shown(v) for v in r) for r in rel.fetchall()]
        assert got == expect, query


def test_progress_bar_when_asked(tmp_path):
    # (click draws the bar itself only on a terminal; elsewhere it prints its label)
    r = run("export", str(SELFPLAY), "-o", str(tmp_path / "o"), "--progress", "--part-files", "5")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Exporting")
    r = run("export", str(SELFPLAY), "-o", str(tmp_path / "p"), "--no-progress")
    assert "Exporting" not in r.output


_FORK_PROBE = """
import os, sys
seen = []
os.register_at_fork(before=lambda: seen.append(
    ("pyarrow" in sys.modules, len(os.listdir("/proc/self/task")))))
from gamao_cli.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    print("exit", exc.code)
print("forks", seen)
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir() or not hasattr(__import__("os"), "register_at_fork"),
                    reason="needs Linux's /proc/self/task and os.register_at_fork")
def test_export_forks_its_workers_before_pyarrow_starts_a_thread(tmp_path):
    """``export --jobs 2`` forks its workers from a process with one thread:
    the parent only looks for pyarrow (importing it starts a thread, and a
    fork of a process with threads can deadlock; Python 3.12+ warns of it)."""
    import subprocess
    import sys
    folder = tmp_path / "in"
    folder.mkdir()
    for i, f in enumerate(sorted(EXAMPLES.glob("*.mat"))):
        shutil.copy(f, folder / f"{i}-{f.name}")
    res = subprocess.run([sys.executable, "-c", _FORK_PROBE, "export", str(folder), "--to",
                          "parquet", "-o", str(tmp_path / "out"), "--jobs", "2",
                          "--part-files", "1"], capture_output=True, text=True, cwd=ROOT)
    assert "exit 0" in res.stdout, res.stdout + res.stderr
    forks = eval(res.stdout.split("forks ", 1)[1])
    assert forks and all(f == (False, 1) for f in forks), forks
    assert "fork()" not in res.stderr   # no DeprecationWarning about threads
    assert list((tmp_path / "out" / "actions").glob("*.parquet"))


def test_parquet_without_pyarrow_is_one_line_and_exit_2(tmp_path):
    """Where pyarrow cannot be found, ``--to parquet`` says so in one line
    before anything is written."""
    import subprocess
    import sys
    probe = ("import sys\n"
             "class Hide:\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name == 'pyarrow' or name.startswith('pyarrow.'):\n"
             "            raise ModuleNotFoundError(name)\n"
             "sys.meta_path.insert(0, Hide())\n"
             "from gamao_cli.cli import main\n"
             "main(sys.argv[1:])\n")
    res = subprocess.run([sys.executable, "-c", probe, "export", str(EXAMPLES), "--to",
                          "parquet", "-o", str(tmp_path / "out")],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 2, res.stderr
    assert "needs pyarrow" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "out").exists()


@needs_corpus
def test_parquet_columns_are_the_rows_read_one_by_one():
    """The actions' Parquet parts are written column by column
    (``ActionTable.columns``); pyarrow reading the same rows as dicts, one
    struct a row (how they were written before, and how the CSV and JSON
    lines writers still take them), gives the same table, for the matches
    of the corpus (every seventh bulk file) and corpus2, batched several
    matches a row group as an export batches them, a path with a lone
    surrogate (a file name that is no UTF-8) among them."""
    import pyarrow as pa
    from gamao_cli.tables.rows import ActionTable, match_rows
    from gamao_cli.tables.writers import ParquetPart
    corpus2 = CORPUS.parent / "corpus2"
    files = corpus_sample(bulk_step=7) + sorted(
        p for p in corpus2.rglob("*") if p.is_file() and p.name.lower().endswith(formats.file_endings()))
    part = ParquetPart(io.BytesIO(), "actions")
    written: list[pa.Table] = []
    part.writer.write_table = written.append   # (the tables, not their bytes)
    tables: list[ActionTable] = []
    expected = []
    checked = 0
    for n, path in enumerate(files):
        try:
            matches = formats.read_path(str(path))
        except Exception:   # (the corpus's files that are no match: not this test's)
            continue
        label = str(path) + ("\udcff" if n % 50 == 0 else "")
        for i, match in enumerate(matches):
            r = match_rows(match, path=label, index=i, fmt="mat")
            tables.append(r.action_table)
            expected.extend(r.actions)
            if r.action_table.analysis:
                checked += 1
        if len(expected) >= 4000 or n == len(files) - 1:
            written.clear()
            part._write_columns(ActionTable.columns(tables))
            part._write(expected)
            assert len(written) == 2 and written[0].num_rows == len(expected)
            assert written[0].equals(written[1]), path
            tables, expected = [], []
    assert checked, "no action with analysis was compared"


def test_parquet_actions_write_the_positions_ids_without_a_dictionary(tmp_path):
    """The actions' Position ID and XGID, nearly all distinct, are written
    plain (no dictionary page), the other columns with a dictionary; duckdb
    reads every value back as the CSV export has it."""
    pq = pytest.importorskip("pyarrow.parquet")
    duckdb = pytest.importorskip("duckdb")
    src = tmp_path / "in.mat"
    src.write_text(" 3 point match\n\n Game 1\n Ann : 0   Bob : 0\n"
                   "  1) 31: 8/5 6/5                 61: 13/7 8/7\n"
                   "  2) 42: 13/9 13/11              Doubles => 2\n"
                   "  3)  Takes                      \n")
    assert run("export", str(src), "-o", str(tmp_path / "p")).exit_code == 0
    assert run("export", str(src), "-o", str(tmp_path / "c"), "--to", "csv").exit_code == 0
    [part] = (tmp_path / "p" / "actions").glob("*.parquet")
    meta = pq.ParquetFile(part).metadata
    names = meta.schema.names
    def encodings(name):
        return set(meta.row_group(0).column(names.index(name)).encodings)
    for name in ("position_id", "xgid"):
        assert not encodings(name) & {"PLAIN_DICTIONARY", "RLE_DICTIONARY"}, name
    for name in ("kind", "play", "match_id_gnubg", "path"):
        assert encodings(name) & {"PLAIN_DICTIONARY", "RLE_DICTIONARY"}, name
    got = duckdb.sql(f"SELECT seq, position_id, xgid FROM '{part}' ORDER BY seq").fetchall()
    want = duckdb.sql(f"SELECT seq, position_id, xgid FROM "
                      f"'{tmp_path}/c/actions/*.csv' ORDER BY seq").fetchall()
    assert got == want and len(got) == 5 and got[0][1] == "4HPwATDgc/ABMA"
