"""Output writers of the WARC runner, chosen by the output's name.

* ``X.jsonl`` (or any other name): JSON Lines, one schema line per entry.
* ``X.jsonl.gz``: the same, gzip-compressed as it is written.
* ``X.jsonl.zst``: the same, Zstandard-compressed as it is written (``zstd`` extra).
* ``X.parquet`` (``parquet`` extra, pyarrow): three files, ``X.parquet`` with the
  ``item`` lines (of every syntax: a ``syntax`` column, the item as JSON text), ``X.records.parquet`` with the ``record`` lines and
  ``X.errors.parquet`` with the ``error`` lines (schemas in :data:`ITEM_COLUMNS`,
  :data:`RECORD_COLUMNS`, :data:`ERROR_COLUMNS`); ``summary`` lines are not
  stored (use ``--summary-json``). Rows are written in row groups of at most
  :data:`ROW_GROUP_ROWS` rows as records complete, so memory stays bounded.
  Website Parse Template runs (``stream-mf2 wpt``) choose their tables
  (``tables``): ``X.wpt.parquet`` holds the ``wpt`` page lines
  (:data:`WPT_COLUMNS`), ``X.wpt-matches.parquet`` the ``wpt-match`` lines and
  the ``wpt-errors`` lines of ``--matches`` (:data:`WPT_MATCH_COLUMNS`),
  ``X.wpt-records.parquet`` the ``wpt-record`` lines of ``--records``
  (:data:`WPT_RECORD_COLUMNS`) and ``X.wpt-jsonld.parquet`` the ``wpt-jsonld`` lines
  of ``--jsonld`` (:data:`WPT_JSONLD_COLUMNS`).

Which of these a name means, and where it is written, is decided once by
:func:`stream_mf2.warc.target.resolve_output`. A regular file is written under a
temporary name (``<name>.partial``) and renamed into place, after an ``fsync``,
only when the run completes: a reader never sees a half-written output. A FIFO
or a character device is written in place, as a stream.

:meth:`Writer.checkpoint` makes everything written so far durable and returns a
token (a JSON object); :func:`open_writer` with ``resume=token`` reopens the
temporary output exactly at that point (compressed outputs end a gzip member /
zstd frame at each checkpoint, Parquet ends a part file), so a killed run can go
on where it was checkpointed. The token holds the size and SHA-256 of what was
checkpointed (of each part file, for Parquet): a temporary output that is
shorter or different is refused (:class:`OutputError`), never patched up.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import zlib
from collections.abc import Sequence
from typing import IO, Any

from stream_mf2.errors import MissingExtra
from stream_mf2.io.json_output import dumps
from stream_mf2.warc.target import PARTIAL, OutputError, OutputTarget, open_stream, resolve_output

#: Most rows in one Parquet row group.
ROW_GROUP_ROWS = 8192
#: Most bytes of JSON text buffered for one Parquet row group.
ROW_GROUP_BYTES = 32 * 1024 * 1024

#: A checkpoint token: what :func:`open_writer` needs to resume, with the size and checksum to verify.
Token = dict[str, Any]


class OutputExtraMissing(OutputError, MissingExtra):
    """Writing this output format needs an extra that is not installed."""


def _missing(what: str, extra: str, module: str) -> OutputError:
    return OutputExtraMissing(f"writing {what} needs {module}: pip install 'stream-mf2[{extra}]'", extra=extra)


def _fsync_dir(path: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(os.path.dirname(os.path.abspath(path)) or ".", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _commit(tmp: str, final: str) -> None:
    """Move a finished (fsynced) temporary file into place, durably: the one write-then-rename step."""
    os.replace(tmp, final)
    _fsync_dir(final)


def write_json_atomic(path: str, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` so that a reader (or a restart) sees the old file or the new one."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f)
        f.flush()
        os.fsync(f.fileno())
    _commit(tmp, path)


class Writer:
    """Writes schema lines (dicts with a ``kind``) somewhere."""

    def write(self, line: dict[str, Any]) -> None:
        raise NotImplementedError

    def checkpoint(self) -> Token:
        """Make everything written so far durable; return a token for :func:`open_writer`'s ``resume``."""
        raise NotImplementedError

    def close(self) -> None:
        """Finish and move the output into place."""
        raise NotImplementedError

    def abandon(self) -> None:
        """Stop without committing (the temporary output stays, for a resume)."""


class _Compressor:
    """Identity: bytes pass through."""

    def compress(self, data: bytes) -> bytes:
        return data

    def end(self) -> bytes:
        """End the current member / frame (a point where the file may be cut and appended to)."""
        return b""


class _Gzip(_Compressor):
    def __init__(self) -> None:
        self._obj = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        self._empty = True

    def compress(self, data: bytes) -> bytes:
        self._empty = False
        return self._obj.compress(data)

    def end(self) -> bytes:
        if self._empty:
            return b""
        out = self._obj.flush(zlib.Z_FINISH)
        self._obj = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # a new member starts
        self._empty = True
        return out


class _Zstd(_Compressor):
    def __init__(self) -> None:
        try:
            import zstandard
        except ImportError:
            raise _missing(".zst output", "zstd", "zstandard") from None
        self._z = zstandard
        self._obj = zstandard.ZstdCompressor(level=3).compressobj()
        self._empty = True

    def compress(self, data: bytes) -> bytes:
        self._empty = False
        out: bytes = self._obj.compress(data)
        return out

    def end(self) -> bytes:
        if self._empty:
            return b""
        out: bytes = self._obj.flush(self._z.COMPRESSOBJ_FLUSH_FINISH)
        self._obj = self._z.ZstdCompressor(level=3).compressobj()
        self._empty = True
        return out


def _sha256_prefix(f: IO[bytes], size: int) -> Any:
    """The running SHA-256 of the first ``size`` bytes of ``f`` (read in blocks)."""
    import hashlib  # (only with --resume: a run without checkpoints hashes nothing)

    h = hashlib.sha256()
    f.seek(0)
    left = size
    while left:
        block = f.read(min(left, 1 << 20))
        if not block:
            break
        h.update(block)
        left -= len(block)
    return h


def _bad_resume(name: str, why: str) -> OutputError:
    return OutputError(
        f"cannot resume {name}: {why}; remove it and its .checkpoint.json to start the run again"
    )


class JsonlWriter(Writer):
    """JSON Lines to a file (atomically, through ``.partial``), to a special file in place, or to a stream.

    ``path`` ``None`` writes to ``stream`` (standard output by default); a
    ``target`` of kind ``stream`` (a FIFO, a character device) is opened and
    written in place. Checkpoint tokens are ``{"offset", "sha256"}``: the size of
    the temporary file and the checksum of those bytes. The checksum is brought up to
    date only when a checkpoint asks for it, from the bytes written since the last one
    read back from the file: a run without checkpoints hashes nothing.
    """

    def __init__(
        self,
        path: str | None,
        *,
        compressor: _Compressor | None = None,
        resume: Token | None = None,
        stream: Any = None,
        target: OutputTarget | None = None,
    ) -> None:
        self._path = path
        self._comp = compressor or _Compressor()
        self._buf: list[bytes] = []
        self._size = 0
        self._hash: Any = None  # the SHA-256 of the temporary file's first bytes, from the first checkpoint
        self._hashed = 0  # bytes of the temporary file that self._hash covers
        self._tmp: str | None = None
        self._owned = False  # a special file this writer opened (and closes)
        if target is not None and target.kind == "stream":
            self._f: IO[bytes] = open_stream(target)
            self._owned = True
            return
        if path is None:
            self._f = stream if stream is not None else sys.stdout.buffer
            return
        self._tmp = path + PARTIAL
        try:
            if resume is None:
                # (read too: a checkpoint hashes what was written since the last one)
                self._f = open(self._tmp, "w+b")  # noqa: SIM115  # closed in close()
                return
            self._f = open(self._tmp, "r+b")  # noqa: SIM115
        except OSError as e:
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from None
        try:
            self._resume(resume)
        except BaseException:
            self._f.close()
            raise

    def _resume(self, token: Token) -> None:
        """Go on at a checkpoint: the temporary file must hold exactly the checkpointed bytes first."""
        name = self._tmp or ""
        offset, digest = token.get("offset"), token.get("sha256")
        if type(offset) is not int or offset < 0 or not isinstance(digest, str):
            raise _bad_resume(name, "its checkpoint is from another version or damaged")
        size = os.fstat(self._f.fileno()).st_size
        if size < offset:
            raise _bad_resume(name, f"it holds {size} bytes, fewer than the {offset} its checkpoint made durable")
        h = _sha256_prefix(self._f, offset)
        if h.hexdigest() != digest:
            raise _bad_resume(name, "its first bytes are not those its checkpoint made durable")
        self._hash = h
        self._hashed = offset
        self._f.truncate(offset)
        self._f.seek(offset)

    def _out(self, data: bytes) -> None:
        self._f.write(data)

    def _catch_up(self) -> str:
        """The SHA-256 of the temporary file's bytes so far: those written since the last call are read back."""
        f = self._f
        end = f.tell()
        if self._hash is None:
            import hashlib

            self._hash = hashlib.sha256()
        if self._hashed < end:
            f.seek(self._hashed)
            left = end - self._hashed
            while left:
                block = f.read(min(left, 1 << 20))
                if not block:
                    raise OutputError(f"cannot checkpoint {self._tmp}: it is shorter than what was written")
                self._hash.update(block)
                left -= len(block)
            self._hashed = end
            f.seek(end)
        return str(self._hash.hexdigest())

    def write(self, line: dict[str, Any]) -> None:
        self._buf.append(dumps(line))
        self._size += 1
        if self._size >= 256:
            self._drain()

    def write_bytes(self, data: bytes) -> None:
        """Write ``data`` as it is (already encoded: the page command's whole-document JSON)."""
        self._buf.append(data)
        self._size += 1
        if self._size >= 256:
            self._drain()

    def discard(self) -> None:
        """Stop and remove the temporary output (a run that cannot be resumed and failed)."""
        self.abandon()
        if self._tmp is not None:
            with contextlib.suppress(OSError):
                os.remove(self._tmp)

    def _drain(self) -> None:
        if self._buf:
            data = self._comp.compress(b"".join(self._buf))
            self._buf.clear()
            self._size = 0
            if data:
                self._out(data)

    def flush(self) -> None:
        self._drain()
        self._f.flush()

    def checkpoint(self) -> Token:
        self._drain()
        self._out(self._comp.end())
        self._f.flush()
        if self._tmp is None:
            return {}
        os.fsync(self._f.fileno())
        return {"offset": self._f.tell(), "sha256": self._catch_up()}

    def close(self) -> None:
        self._drain()
        self._out(self._comp.end())
        self._f.flush()
        if self._owned:
            self._f.close()
            return
        if self._tmp is None or self._path is None:
            return
        os.fsync(self._f.fileno())
        self._f.close()
        _commit(self._tmp, self._path)

    def abandon(self) -> None:
        if self._tmp is not None or self._owned:
            with contextlib.suppress(OSError):
                self._drain()
                self._f.flush()
                self._f.close()


# -- Parquet --------------------------------------------------------------------------------------

#: Columns of the items table (``X.parquet``); JSON values are JSON text.
ITEM_COLUMNS: tuple[tuple[str, str], ...] = (
    ("syntax", "string"),  # "mf2", "json-ld", "microdata", ... (schema 4)
    ("source", "string"),  # over HTML pages (stream-mf2 wpt --items): the input as named; WARC rows: null
    ("warc_file", "string"),
    ("offset", "int64"),
    ("record_id", "string"),
    ("uri", "string"),
    ("path", "json"),  # e.g. [0, "children", 3]
    ("children-streamed", "int64"),
    ("type", "list<string>"),  # the item's types, for filtering without parsing the JSON (item_types)
    ("item", "json"),  # an mf2 item, or one entry of another syntax's results
)
#: Columns of the records table (``X.records.parquet``).
RECORD_COLUMNS: tuple[tuple[str, str], ...] = (
    ("warc_file", "string"),
    ("offset", "int64"),
    ("length", "int64"),
    ("record_id", "string"),
    ("uri", "string"),
    ("date", "string"),
    ("status", "int64"),
    ("content_type", "string"),
    ("warc_type", "string"),
    ("encoding", "string"),
    ("encoding_source", "string"),
    ("items", "int64"),
    ("rels", "json"),
    ("rel-urls", "json"),
    ("meta-item", "json"),
    ("notes", "json"),  # the recoveries that changed the record's output (schema 2)
    ("parsed", "bool"),  # false: the prefilter left the record unparsed (schema 3)
)
#: Columns of the errors table (``X.errors.parquet``).
ERROR_COLUMNS: tuple[tuple[str, str], ...] = (
    ("source", "string"),  # over HTML pages (stream-mf2 wpt): the page that could not be read; WARC rows: null
    ("warc_file", "string"),
    ("offset", "int64"),
    ("record_id", "string"),
    ("uri", "string"),
    ("scope", "string"),
    ("error", "string"),  # the message (WarcError.message)
)

#: Columns of the WPT pages table (``X.wpt.parquet``): one row per page (record) and applied template.
WPT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("source", "string"),  # over HTML pages: the input as named (a path, a URL, -); WARC rows: null
    ("warc_file", "string"),
    ("offset", "int64"),
    ("record_id", "string"),
    ("uri", "string"),
    ("template", "string"),
    ("host", "string"),
    ("url", "string"),
    ("url_captures", "json"),
    ("blocks", "json"),
    ("errors", "json"),
)
#: Columns of the WPT matches table (``X.wpt-matches.parquet``); a ``wpt-errors`` row has no block.
WPT_MATCH_COLUMNS: tuple[tuple[str, str], ...] = (
    ("source", "string"),  # over HTML pages: the input as named (a path, a URL, -); WARC rows: null
    ("warc_file", "string"),
    ("offset", "int64"),
    ("record_id", "string"),
    ("uri", "string"),
    ("template", "string"),
    ("url", "string"),
    ("block", "int64"),
    ("concept", "string"),
    ("match", "json"),
    ("errors", "json"),
)

#: Columns of the WPT records table (``X.wpt-records.parquet``, ``--records``): one row per record;
#: ``errors`` only on a page's own record (``block`` null).
WPT_RECORD_COLUMNS: tuple[tuple[str, str], ...] = (
    ("source", "string"),  # over HTML pages: the input as named (a path, a URL, -); WARC rows: null
    ("warc_file", "string"),
    ("offset", "int64"),
    ("record_id", "string"),
    ("uri", "string"),
    ("template", "string"),
    ("host", "string"),
    ("url", "string"),
    ("block", "string"),
    ("xpath", "string"),
    ("data", "json"),
    ("errors", "json"),
)
#: Columns of the WPT JSON-LD table (``X.wpt-jsonld.parquet``, ``--jsonld``): one row per page.
WPT_JSONLD_COLUMNS: tuple[tuple[str, str], ...] = (
    ("source", "string"),  # over HTML pages: the input as named (a path, a URL, -); WARC rows: null
    ("warc_file", "string"),
    ("offset", "int64"),
    ("record_id", "string"),
    ("uri", "string"),
    ("template", "string"),
    ("url", "string"),
    ("jsonld", "json"),
    ("errors", "json"),
)

#: Columns added to a table since parts of a resumable run could have been written without
#: them, null in every row such a run writes (``source`` names an HTML page, and runs over
#: pages are not resumed): a resumed run reads an earlier part without them as null.
ADDED_NULL_COLUMNS = frozenset({"source"})

_TABLES: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "item": ("", ITEM_COLUMNS),
    "record": (".records", RECORD_COLUMNS),
    "error": (".errors", ERROR_COLUMNS),
    "wpt": (".wpt", WPT_COLUMNS),
    "wpt-match": (".wpt-matches", WPT_MATCH_COLUMNS),
    "wpt-record": (".wpt-records", WPT_RECORD_COLUMNS),
    "wpt-jsonld": (".wpt-jsonld", WPT_JSONLD_COLUMNS),
}
#: Line kinds stored in another kind's table.
_TABLE_OF = {"wpt-errors": "wpt-match"}
#: The tables of an output when none are named: those of ``stream-mf2 warc``.
DEFAULT_TABLES = ("item", "record", "error")


def table_columns(tables: Sequence[str] | None = None) -> dict[str, list[str]]:
    """The column names of each Parquet table of an output with ``tables`` (default :data:`DEFAULT_TABLES`)."""
    kinds = dict.fromkeys(_TABLE_OF.get(t, t) for t in (tables or DEFAULT_TABLES))
    return {kind: [name for name, _ in _TABLES[kind][1]] for kind in kinds}


def parquet_paths(path: str, tables: Sequence[str] = DEFAULT_TABLES) -> dict[str, str]:
    """The file of each table for the output name ``path`` (``X.parquet``)."""
    stem = path[: -len(".parquet")] if path.endswith(".parquet") else path
    return {kind: f"{stem}{_TABLES[kind][0]}.parquet" for kind in tables}


def _pa() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise _missing(".parquet output", "parquet", "pyarrow") from None
    return pyarrow


def _schema(pa: Any, columns: tuple[tuple[str, str], ...]) -> Any:
    types = {
        "string": pa.string(),
        "json": pa.string(),
        "int64": pa.int64(),
        "bool": pa.bool_(),
        "list<string>": pa.list_(pa.string()),
    }
    from stream_mf2.warc.schema import SCHEMA_VERSION

    return pa.schema(
        [pa.field(name, types[t]) for name, t in columns],
        metadata={"stream_mf2.schema": str(SCHEMA_VERSION)},
    )


def _cell(value: Any, kind: str) -> Any:
    if kind == "json":
        return None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return value


#: Where the items of a syntax other than mf2 say their types (the ``type`` column).
_TYPE_KEYS = {"microdata": "type", "json-ld": "@type", "rdfa": "@type"}


def item_types(syntax: str, item: Any) -> list[str]:
    """The ``type`` column of an item row: an mf2 item's ``type``; a microdata item's ``type``, a
    JSON-LD or RDFa entry's ``@type`` (a string or a list); ``[]`` for the others."""
    key = "type" if syntax == "mf2" else _TYPE_KEYS.get(syntax)
    value = item.get(key) if key is not None and isinstance(item, dict) else None
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def file_digest(path: str) -> tuple[int, str]:
    """Size and SHA-256 (hex) of a file, read once in blocks (Parquet part files, Dask parts)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        return size, _sha256_prefix(f, size).hexdigest()


def _part_number(name: str) -> int:
    """The part number of a part file ``<kind>-<NNNNNN>.parquet`` (a kind may hold ``-``); -1 if none."""
    stem = name.removesuffix(".parquet")
    number = stem.rsplit("-", 1)[-1]
    return int(number) if number.isdigit() else -1


class ParquetWriter(Writer):
    """Three Parquet tables (items, records, errors), written in row groups as records complete.

    Rows go to part files under ``<X.parquet>.partial.d/``; a checkpoint ends the
    current parts. :meth:`close` joins the parts of each table into its final file
    (row group by row group, so memory stays bounded) and renames it into place.
    """

    def __init__(self, path: str, *, resume: Token | None = None, tables: Sequence[str] = DEFAULT_TABLES) -> None:
        self._pa = _pa()
        tables = tuple(dict.fromkeys(_TABLE_OF.get(t, t) for t in tables))
        unknown = sorted(set(tables) - set(_TABLES))
        if unknown:
            raise ValueError(f"no Parquet table for line kinds {unknown}")
        self._paths = parquet_paths(path, tables)
        self._dir = path + PARTIAL + ".d"
        self._part = 0
        self._writers: dict[str, Any] = {}
        self._rows: dict[str, list[dict[str, Any]]] = {k: [] for k in tables}
        self._bytes = 0
        self._schemas = {k: _schema(self._pa, _TABLES[k][1]) for k in tables}
        # Finished part files: name -> [size, sha256] (what a checkpoint token vouches for).
        self._done: dict[str, list[Any]] = {}
        # Parts of an earlier run without some ADDED_NULL_COLUMNS (filled in by close()).
        self._short: set[str] = set()
        try:
            if resume is None:
                shutil.rmtree(self._dir, ignore_errors=True)
                os.makedirs(self._dir)
            else:
                self._resume(resume)
        except OSError as e:
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from None

    def _resume(self, token: Token) -> None:
        """Go on at a checkpoint: every part it vouches for must be there, unchanged; later parts go."""
        parts, files = token.get("parts"), token.get("files")
        if type(parts) is not int or parts < 0 or not isinstance(files, dict):
            raise _bad_resume(self._dir, "its checkpoint is from another version or damaged")
        for name, (size, digest) in files.items():
            try:
                actual = list(file_digest(os.path.join(self._dir, name)))
            except OSError:
                raise _bad_resume(self._dir, f"its part {name} is missing") from None
            if actual != [size, digest]:
                raise _bad_resume(self._dir, f"its part {name} is not the one its checkpoint made durable")
        for name in files:
            self._check_columns(name)
        for name in os.listdir(self._dir):
            if name not in files and _part_number(name) >= parts:
                os.remove(os.path.join(self._dir, name))
        self._part = parts
        self._done = {name: list(v) for name, v in files.items()}

    def _check_columns(self, name: str) -> None:
        """A part an earlier run wrote must have this version's columns, or lack only columns
        added since that are null in every row a resumable run writes (:data:`ADDED_NULL_COLUMNS`):
        those are filled in when the tables are joined. Anything else is refused, never joined
        into a table of two schemas."""
        kind = name.removesuffix(".parquet").rsplit("-", 1)[0]
        want = self._schemas.get(kind)
        if want is None:
            raise _bad_resume(self._dir, f"its part {name} is of no table of this run")
        have = self._pa.parquet.read_schema(os.path.join(self._dir, name))
        if have.equals(want, check_metadata=False):
            return
        missing = [f.name for f in want if f.name not in have.names]
        kept = self._pa.schema([f for f in want if f.name in have.names])
        if missing and set(missing) <= ADDED_NULL_COLUMNS and have.equals(kept, check_metadata=False):
            self._short.add(name)
            return
        raise _bad_resume(
            self._dir,
            f"its part {name} has other columns than this version writes (written by another version of "
            f"stream-mf2?): {', '.join(have.names)}",
        )

    def _conform(self, name: str, table: Any, schema: Any) -> Any:
        """A row group of the part ``name`` with this version's columns (added ones null)."""
        if name not in self._short:
            return table
        pa = self._pa
        n = table.num_rows
        columns = [table.column(f.name) if f.name in table.column_names else pa.nulls(n, f.type) for f in schema]
        return pa.Table.from_arrays(columns, schema=schema)

    def write(self, line: dict[str, Any]) -> None:
        kind = line["kind"]
        kind = _TABLE_OF.get(kind, kind)
        if kind not in self._rows:
            return
        cols = _TABLES[kind][1]
        row = {name: _cell(line.get(name), t) for name, t in cols}
        if kind == "item":
            # (a page's item line names its syntax only with --syntaxes: without, every item is mf2)
            row["syntax"] = syntax = line.get("syntax", "mf2")
            row["type"] = item_types(syntax, line["item"])
            row["children-streamed"] = line.get("children-streamed", 0)
            self._bytes += len(row["item"] or "")
        self._rows[kind].append(row)
        # A row group is cut where a record completes, once it is big enough; inside a record
        # with a great many items only at four times that, so memory stays bounded either way.
        items = len(self._rows.get("item", ()))
        if kind != "item":
            if items >= ROW_GROUP_ROWS or self._bytes >= ROW_GROUP_BYTES or len(self._rows[kind]) >= ROW_GROUP_ROWS:
                self._flush()
        elif items >= 4 * ROW_GROUP_ROWS or self._bytes >= 4 * ROW_GROUP_BYTES:
            self._flush()

    def _flush(self) -> None:
        pa = self._pa
        for kind, rows in self._rows.items():
            if not rows:
                continue
            w = self._writers.get(kind)
            if w is None:
                name = os.path.join(self._dir, f"{kind}-{self._part:06d}.parquet")
                w = self._writers[kind] = pa.parquet.ParquetWriter(name, self._schemas[kind])
            w.write_table(pa.Table.from_pylist(rows, schema=self._schemas[kind]))
            rows.clear()
        self._bytes = 0

    def _end_part(self) -> None:
        self._flush()
        for w in self._writers.values():
            w.close()
        for kind in self._writers:
            name = f"{kind}-{self._part:06d}.parquet"
            with open(os.path.join(self._dir, name), "rb") as f:
                os.fsync(f.fileno())
            self._done[name] = list(file_digest(os.path.join(self._dir, name)))  # (as JSON holds it)
        self._writers.clear()
        self._part += 1

    def checkpoint(self) -> Token:
        self._end_part()
        _fsync_dir(os.path.join(self._dir, "x"))
        return {"parts": self._part, "files": dict(self._done)}

    def close(self) -> None:
        pa = self._pa
        self._end_part()
        parts = sorted(os.listdir(self._dir))
        for kind, final in self._paths.items():
            tmp = final + PARTIAL
            schema = self._schemas[kind]
            with pa.parquet.ParquetWriter(tmp, schema) as out:
                pending: list[Any] = []
                rows = 0
                for name in parts:
                    if name.removesuffix(".parquet").rsplit("-", 1)[0] != kind:
                        continue  # (the parts of "wpt" and of "wpt-match" share a prefix)
                    pf = pa.parquet.ParquetFile(os.path.join(self._dir, name))
                    for i in range(pf.num_row_groups):
                        table = self._conform(name, pf.read_row_group(i), schema)
                        pending.append(table)
                        rows += table.num_rows
                        if rows >= ROW_GROUP_ROWS:
                            out.write_table(pa.concat_tables(pending))
                            pending, rows = [], 0
                if pending or rows == 0:
                    out.write_table(pa.concat_tables(pending) if pending else schema.empty_table())
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
        for final in self._paths.values():
            _commit(final + PARTIAL, final)
        shutil.rmtree(self._dir, ignore_errors=True)

    def abandon(self) -> None:
        with contextlib.suppress(Exception):
            for w in self._writers.values():
                w.close()


def partial_exists(output: OutputTarget | str) -> bool:
    """Whether an unfinished output (its temporary files) exists for ``output`` (a name or a resolved target)."""
    target = output if isinstance(output, OutputTarget) else resolve_output(output)
    if target.kind != "file":
        return False
    if target.format == "parquet":
        return os.path.isdir(target.partial + ".d")
    return os.path.exists(target.partial)


def open_writer(
    output: OutputTarget | str | None,
    *,
    resume: Token | None = None,
    stream: Any = None,
    tables: Sequence[str] | None = None,
) -> Writer:
    """The writer for an output (a name, resolved by :func:`~stream_mf2.warc.target.resolve_output`,
    or a resolved target); standard output (``None``, ``-``) writes JSON Lines to ``stream``.

    ``tables``: the line kinds a Parquet output has tables for (default :data:`DEFAULT_TABLES`).
    ``resume``: a token from :meth:`Writer.checkpoint` of an earlier run (a ``file`` target only).
    """
    target = output if isinstance(output, OutputTarget) else resolve_output(output)
    if target.kind == "stdout":
        return JsonlWriter(None, stream=stream)
    if resume is not None and not target.resumable:
        raise OutputError(f"cannot resume {target.name}: only a regular file output can be resumed")
    compressor = {"jsonl.gz": _Gzip, "jsonl.zst": _Zstd}.get(target.format, _Compressor)()
    if target.kind == "stream":
        return JsonlWriter(None, compressor=compressor, target=target)
    assert target.path is not None
    if target.format == "parquet":
        return ParquetWriter(target.path, resume=resume, tables=tables or DEFAULT_TABLES)
    return JsonlWriter(target.path, compressor=compressor, resume=resume)
