"""Part-file writers of the three tables: Parquet (``pyarrow``, the extra
``gamao[parquet]``), CSV and JSON lines (nothing extra). Each writes one
part file of one table, its columns those of :mod:`.schema` in order, and
holds at most :data:`BATCH_ROWS` rows in memory: full batches go out as
they fill (a Parquet row group each).

How values are written: CSV has a header line; a null is an empty field and
an empty string is ``""`` (so the two differ); booleans are ``true`` and
``false``; dates ``YYYY-MM-DD``. JSON lines: one object a line with every
column, null as ``null``.

>>> import io
>>> out = io.BytesIO()
>>> w = CsvPart(out, "games")
>>> w.add([{"match_id": "ab", "path": "x.mat", "index_in_file": 0, "game": 1, "score0": 0, "score1": 0, "crawford": False,
...         "winner": 1, "points": 2, "stated_points": None, "ended": "drop", "cube": 2,
...         "cube_owner": None, "moves": 12, "rolls": 13, "errors": 0, "warnings": 0,
...         "codes": ""}])
>>> w.close()
>>> print(out.getvalue().decode())
match_id,path,index_in_file,game,score0,score1,crawford,winner,points,stated_points,ended,cube,cube_owner,moves,rolls,errors,warnings,codes
ab,x.mat,0,1,0,0,false,1,2,,drop,2,,12,13,0,0,""
<BLANKLINE>
"""
from __future__ import annotations

import datetime as _dt
import json
import math
import os
from typing import IO, Any, Iterable

from gamao_cli.formats.textio import escape_surrogates

from .rows import ActionTable
from .schema import CANDIDATE_FIELDS, TABLES, TABLES_VERSION

#: Rows a writer holds before writing them out (a Parquet row group).
BATCH_ROWS = 16 * 1024

ENDINGS = {"parquet": ".parquet", "csv": ".csv", "jsonl": ".jsonl"}


def _need_pyarrow():
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        from gamao_cli.errors import GamaoError
        from gamao_cli.i18n import _
        raise GamaoError(_("Parquet output needs pyarrow: pip install pyarrow (in a checkout of "
                           "gamao: pip install '.[parquet]'), or use --to csv or --to jsonl")) from None


def arrow_schema(table: str):
    """The pyarrow schema of a table (with the tables' version in its metadata)."""
    _need_pyarrow()
    import pyarrow as pa
    types = {"string": pa.string(), "bool": pa.bool_(), "int8": pa.int8(), "int16": pa.int16(),
             "int32": pa.int32(), "int64": pa.int64(), "float64": pa.float64(),
             "date": pa.date32()}
    types["list<candidate>"] = pa.list_(pa.struct(
        [pa.field(name, types[t]) for name, t, _doc in CANDIDATE_FIELDS]))
    fields = [pa.field(c.name, types[c.type], nullable=c.nullable,
                       metadata={"doc": c.doc}) for c in TABLES[table]]
    return pa.schema(fields, metadata={"gamao.table": table,
                                       "gamao.tables_version": str(TABLES_VERSION)})


class _Part:
    def __init__(self, fh: IO[bytes], table: str):
        self.fh = fh
        self.table = table
        self.columns = [c.name for c in TABLES[table]]
        self.rows: list[dict[str, Any]] = []
        self.count = 0

    def add(self, rows: Iterable[dict[str, Any]] | ActionTable) -> None:
        if isinstance(rows, ActionTable):
            rows = rows.rows()
        self.rows.extend(rows)
        if len(self.rows) >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        if self.rows:
            self.count += len(self.rows)
            self._write(self.rows)
            self.rows = []

    def _write(self, rows: list[dict[str, Any]]) -> None:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:
        self.flush()


class ParquetPart(_Part):
    def __init__(self, fh: IO[bytes], table: str):
        super().__init__(fh, table)
        _need_pyarrow()
        import pyarrow.parquet as pq
        self.schema = arrow_schema(table)
        self.writer = pq.ParquetWriter(fh, self.schema, compression="zstd",
                                       use_dictionary=_dictionary_columns(table))
        self.tables: list[ActionTable] = []
        self.pending = 0

    def add(self, rows: Iterable[dict[str, Any]] | ActionTable) -> None:
        if not isinstance(rows, ActionTable):
            super().add(rows)
            return
        self.tables.append(rows)
        self.pending += len(rows)
        if self.pending >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        if self.tables:
            tables, self.tables = self.tables, []
            self.count += self.pending
            self.pending = 0
            self._write_columns(ActionTable.columns(tables))
        super().flush()

    def _write(self, rows: list[dict[str, Any]]) -> None:
        try:
            table = self._table(rows)
        except UnicodeEncodeError:   # a lone surrogate (a file name that is no UTF-8)
            table = self._table([{k: _text(v) for k, v in r.items()} for r in rows])
        self.writer.write_table(table)

    def _write_columns(self, columns: dict[str, list | tuple]) -> None:
        """Rows given column by column (:meth:`ActionTable.columns`), each
        column read by pyarrow in one pass: a third of the time of reading
        the same rows as dicts (:meth:`_table`)."""
        import pyarrow as pa
        schema = self.schema
        arrays = []
        for f in schema:
            values = columns[f.name]
            try:
                arrays.append(pa.array(values, type=f.type))
            except UnicodeEncodeError:   # a lone surrogate (a file name that is no UTF-8)
                arrays.append(pa.array([_text(v) for v in values], type=f.type))
        self.writer.write_table(pa.Table.from_arrays(arrays, schema=schema))

    def _table(self, rows: list[dict[str, Any]]):
        """The rows as a table of the schema: read by pyarrow in one pass
        over the rows, as one array of structs whose fields are the
        columns (half the time of a column at a time, each taken from
        every row)."""
        import pyarrow as pa
        schema = self.schema
        return pa.Table.from_struct_array(pa.array(rows, type=pa.struct(list(schema)))
                                          ).replace_schema_metadata(schema.metadata)

    def close(self) -> None:
        self.flush()
        self.writer.close()


#: the ``actions`` columns that are nearly all distinct (a position's
#: Position ID and XGID: on the bulk corpus 200,000 and 220,000 of them in
#: 227,000 rows), written without a dictionary: pyarrow would build one for
#: each and drop it when it outgrows its page (the bulk's action parts 0.90x
#: the bytes without them; the plays' texts and Match IDs, which recur, keep
#: theirs: without one they take more bytes and memory)
_DISTINCT = {"actions": frozenset({"position_id", "xgid"})}


def _dictionary_columns(table: str) -> bool | list[str]:
    """pyarrow's ``use_dictionary`` for ``table``: every column but its
    :data:`_DISTINCT` ones (True for a table without such columns)."""
    distinct = _DISTINCT.get(table)
    if not distinct:
        return True
    return [c.name for c in TABLES[table] if c.name not in distinct]


def _text(v: Any) -> Any:
    """A string with every lone surrogate (a byte of a file name that is no
    UTF-8, or a player's name from JSON) written as its escape ``\\udcXX``,
    as every output of gamao writes it; anything else as it is."""
    return escape_surrogates(v) if isinstance(v, str) else v


def _utf8(out: str) -> bytes:
    try:
        return out.encode("utf-8")
    except UnicodeEncodeError:   # lone surrogates: their escapes (in JSON, the JSON escape)
        return escape_surrogates(out).encode("utf-8")


def _csv_field(v: Any) -> str:
    if v is None:
        return ""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        if v == "" or any(ch in v for ch in ',"\n\r'):
            return '"' + v.replace('"', '""') + '"'
        return v
    if isinstance(v, _dt.date):
        return v.isoformat()
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, list):   # a list<candidate>: its JSON text
        return _csv_field(json.dumps(v, ensure_ascii=False, allow_nan=False))
    return str(v)


class CsvPart(_Part):
    def __init__(self, fh: IO[bytes], table: str):
        super().__init__(fh, table)
        fh.write((",".join(self.columns) + "\n").encode("utf-8"))

    def _write(self, rows: list[dict[str, Any]]) -> None:
        names = self.columns
        out = "".join(",".join([_csv_field(r[n]) for n in names]) + "\n" for r in rows)
        self.fh.write(_utf8(out))


def _json_default(v: Any) -> Any:
    if isinstance(v, _dt.date):
        return v.isoformat()
    raise TypeError(f"cannot write {type(v).__name__} as JSON")


def _number_or_null(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


class JsonlPart(_Part):
    def _write(self, rows: list[dict[str, Any]]) -> None:
        names = self.columns
        # strict JSON: a figure that is no number (NaN, infinity) is null
        dumps = json.JSONEncoder(ensure_ascii=False, default=_json_default,
                                 allow_nan=False).encode
        try:
            out = "".join(dumps({n: r[n] for n in names}) + "\n" for r in rows)
        except ValueError:
            out = "".join(dumps({n: _number_or_null(r[n]) for n in names}) + "\n" for r in rows)
        self.fh.write(_utf8(out))


WRITERS = {"parquet": ParquetPart, "csv": CsvPart, "jsonl": JsonlPart}


def check_available(to: str) -> None:
    """Raise a one-line error now if ``to`` needs a package that is missing.

    pyarrow is looked for, not imported: importing it starts a thread of
    its own, and ``export --jobs N`` then forks its workers from this
    process, where a fork of a process with threads can deadlock on a lock
    another thread held (Python 3.12 and later warn of it). Each writer
    imports it where it writes (:func:`_need_pyarrow`, in the worker)."""
    if to == "parquet" and not _pyarrow_installed():
        _need_pyarrow()   # raises the one-line error


def _pyarrow_installed() -> bool:
    """Whether pyarrow and its parquet module can be found, without
    importing either (``find_spec`` of ``pyarrow.parquet`` would import
    pyarrow itself)."""
    import importlib.util
    try:
        spec = importlib.util.find_spec("pyarrow")
    except (ImportError, ValueError):   # ValueError: sys.modules["pyarrow"] is None
        return False
    if spec is None:
        return False
    return any(os.path.exists(os.path.join(where, "parquet"))
               for where in spec.submodule_search_locations or ())
