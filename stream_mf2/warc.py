"""Microformats out of WARC archives, record by record, with every problem reported.

:func:`iter_warc` yields a :class:`WarcItem` for each top-level item of each
HTML ``response`` / ``resource`` record, and a :class:`WarcError` for each
damaged record; the :class:`WarcSummary` on the returned reader counts
records, HTML records, items, errors and skipped records.

Layers, and who does what:

* gzip members (``.warc.gz``): decompressed here, member by member, with
  :mod:`zlib`. warcio's own decompression writes a corrupt member to stderr
  and truncates it silently; here a bad or truncated member becomes a
  :class:`WarcError` and reading resumes at the next valid member.
* WARC records: warcio's ``WARCIterator`` (an ``ArchiveIterator``) (with ``no_record_parse``, so
  HTTP headers reach us raw). An uncompressed file whose record headers are
  damaged is resynchronised at the next ``WARC/1.x`` line when it is seekable.
* HTTP: status line and headers parsed here (bounded), then the body is
  de-chunked and decoded (gzip, deflate, br) step by step by
  :mod:`stream_mf2._payload`, so no record is ever held whole in memory.

Which records are HTML: the HTTP ``Content-Type`` for ``response`` records,
the record ``Content-Type`` for ``resource`` records; a record without a type
is sniffed (WHATWG MIME Sniffing). The HTTP charset is the transport
encoding, the target URI the document URL. ``revisit`` records and non-HTML
records are counted and skipped.

Offsets in :class:`WarcError` are byte offsets in the file: of the gzip
member for compressed archives, of the record for uncompressed ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import IO, Any, TypeAlias

from warcio.archiveiterator import WARCIterator

from stream_mf2._parser import Parser
from stream_mf2._payload import (
    HTML_TYPES,
    MAX_HTTP_HEADER,
    BodyDecoder,
    PayloadError,
    media_type,
    parse_http_head,
    sniff_html,
)
from stream_mf2.errors import SourceError, StreamMF2Error

#: Bytes read from the archive at a time.
READ_SIZE = 64 * 1024
#: Decoded bytes buffered to sniff a body without a Content-Type.
SNIFF_SIZE = 512

_GZIP_MAGIC = b"\x1f\x8b\x08"
_WARC_MAGIC = b"WARC/1."


@dataclass(frozen=True, slots=True)
class WarcItem:
    """One top-level item of one HTML record."""

    uri: str | None
    record_id: str | None
    date: str | None
    status: int | None  #: HTTP status; ``None`` for ``resource`` records
    content_type: str | None  #: media type essence (``text/html``), ``None`` when sniffed
    item: dict[str, Any]


@dataclass(frozen=True, slots=True)
class WarcError:
    """A record (or a stretch of the file) that could not be read."""

    record_id: str | None
    offset: int | None
    uri: str | None
    message: str


WarcEntry: TypeAlias = WarcItem | WarcError


@dataclass(slots=True)
class WarcSummary:
    """Counts over everything read so far; final once iteration ends."""

    records: int = 0  #: WARC records seen (every type)
    html_records: int = 0  #: records parsed as HTML
    items: int = 0  #: items yielded
    errors: int = 0  #: errors yielded
    skipped_non_html: int = 0  #: response / resource records that are not HTML
    skipped_revisit: int = 0  #: revisit records
    skipped_other: int = 0  #: request, warcinfo, metadata, … records
    bytes_read: int = 0  #: bytes read from the archive
    seconds: float = 0.0  #: wall-clock time spent reading

    @property
    def skipped(self) -> int:
        """All skipped records."""
        return self.skipped_non_html + self.skipped_revisit + self.skipped_other

    def add(self, other: WarcSummary) -> None:
        """Add another summary's counts (from a worker) to this one."""
        for name in (
            "records",
            "html_records",
            "items",
            "errors",
            "skipped_non_html",
            "skipped_revisit",
            "skipped_other",
            "bytes_read",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, Any]:
        """The counts as a plain dict, ``skipped`` included."""
        d = asdict(self)
        d["skipped"] = self.skipped
        return d


class _FramingError(Exception):
    """The archive's framing (gzip member, record boundary) is damaged: resynchronise."""


class _ReportedFramingError(_FramingError):
    """A framing error already reported with its record's id; only resynchronise."""


class _Input:
    """The archive file with push-back, absolute offsets and forward scanning."""

    def __init__(self, f: IO[bytes], summary: WarcSummary) -> None:
        self._f = f
        self._buf = b""
        self._summary = summary
        try:
            self._pos = f.tell()
            self._seekable = f.seekable()
        except (OSError, AttributeError, ValueError):
            self._pos = 0
            self._seekable = False

    def _raw(self, n: int) -> bytes:
        try:
            data = self._f.read(n)
        except OSError as e:
            raise SourceError(f"read failed: {e}") from e
        self._summary.bytes_read += len(data)
        return data

    def read(self, n: int | None = -1) -> bytes:
        if n is None or n < 0:
            n = READ_SIZE
        if self._buf:
            data, self._buf = self._buf[:n], self._buf[n:]
        else:
            data = self._raw(n)
        self._pos += len(data)
        return data

    def unread(self, data: bytes) -> None:
        if data:
            self._buf = data + self._buf
            self._pos -= len(data)

    def peek(self, n: int) -> bytes:
        while len(self._buf) < n:
            more = self._raw(max(n - len(self._buf), READ_SIZE))
            if not more:
                break
            self._buf += more
        return self._buf[:n]

    def tell(self) -> int:
        return self._pos

    def seekable(self) -> bool:
        return self._seekable

    def seek(self, pos: int) -> None:
        self._f.seek(pos)
        self._buf = b""
        self._pos = pos

    def find(self, magic: bytes, valid: Callable[[_Input], bool]) -> bool:
        """Skip to the next occurrence of ``magic`` that ``valid`` accepts; ``False`` at EOF."""
        while True:
            idx = self._buf.find(magic) if len(self._buf) >= len(magic) else -1
            if idx < 0:
                # Keep a possible partial match at the end of the buffer, read on.
                self.read(max(0, len(self._buf) - (len(magic) - 1)))
                more = self._raw(READ_SIZE)
                if not more:
                    self.read(len(self._buf))
                    return False
                self._buf += more
                continue
            self.read(idx)
            if valid(self):
                return True
            self.read(1)


def _valid_gzip_start(inp: _Input) -> bool:
    head = inp.peek(READ_SIZE)
    try:
        out = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 16)
    except zlib.error:
        return False
    return out.startswith(b"WARC/")


def _valid_warc_start(inp: _Input) -> bool:
    return inp.peek(len(_WARC_MAGIC) + 2)[len(_WARC_MAGIC) :][:1].isdigit()


class _Member:
    """The decompressed bytes of one gzip member, as a file-like warcio can read."""

    def __init__(self, inp: _Input) -> None:
        self._inp = inp
        self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._tail = b""
        self._out = 0
        self.done = False

    def tell(self) -> int:
        return self._out

    def read(self, n: int | None = -1) -> bytes:
        if n is None or n < 0:
            n = READ_SIZE
        while not self.done:
            data = self._tail or self._inp.read(READ_SIZE)
            if not data:
                raise _FramingError("truncated gzip member (file ends inside it)")
            try:
                out = self._obj.decompress(data, n)
            except zlib.error as e:
                # Give the bytes back so the scan for the next member starts inside this chunk.
                self._inp.unread(data)
                self.done = True
                raise _FramingError(f"corrupt gzip member: {e}") from None
            self._tail = self._obj.unconsumed_tail
            if self._obj.eof:
                self.done = True
                # Everything after the member is in unused_data. When the output limit was
                # reached in the same call, CPython leaves those same bytes in
                # unconsumed_tail too: giving both back would read the next members twice.
                self._inp.unread(self._obj.unused_data)
                self._tail = b""
            if out:
                self._out += len(out)
                return out
        return b""

    def drain(self) -> None:
        while self.read(READ_SIZE):
            pass


class _Records(WARCIterator):  # type: ignore[misc]
    """warcio's record iterator, WARC only (a stray HTML line can look like an ARC header).

    Between records warcio skips blank lines; when the first line after a record is not
    blank (a wrong Content-Length) it skips that line too and counts it in ``err_count``,
    which we report as an error entry. Its own version also prints a warning to stderr;
    this one leaves the reporting to us.
    """

    def _consume_blanklines(self) -> tuple[bytes | None, int]:
        skipped = 0
        first = True
        while True:
            line: bytes = self.reader.readline()
            if not line:
                return None, skipped
            if line.strip() and not first:
                return line, skipped
            if line.strip():
                self.err_count += 1
            skipped += len(line)
            first = False


class _Counting:
    """Counts the bytes read from a record's stream."""

    def __init__(self, stream: Any) -> None:
        self._s = stream
        self.count = 0

    def read(self, n: int) -> bytes:
        data: bytes = self._s.read(n)
        self.count += len(data)
        return data

    def readline(self, n: int) -> bytes:
        data: bytes = self._s.readline(n)
        self.count += len(data)
        return data


def _read_http_head(raw: _Counting) -> bytes:
    lines: list[bytes] = []
    total = 0
    while True:
        line = raw.readline(MAX_HTTP_HEADER)
        if not line:
            if not lines:
                raise PayloadError("empty HTTP response")
            raise PayloadError("HTTP headers truncated")
        total += len(line)
        if total > MAX_HTTP_HEADER:
            raise PayloadError("HTTP headers too long")
        if line in (b"\r\n", b"\n"):
            return b"".join(lines)
        lines.append(line)


def _is_http(record: Any, uri: str | None) -> bool:
    ctype = (record.content_type or "").lower()
    if ctype.startswith("application/http"):
        return True
    return uri is not None and uri.lower().startswith(("http:", "https:"))


def _body_pieces(raw: _Counting, length: int | None, body: BodyDecoder) -> Iterator[bytes]:
    while True:
        data = raw.read(READ_SIZE)
        if not data:
            break
        yield from body.feed(data)
    if length is not None and raw.count < length:
        raise PayloadError(f"record truncated: {raw.count} of {length} bytes")
    yield from body.finish()


class _Walker:
    """Walks an archive and yields entries; shared by the sync, async and parallel readers."""

    def __init__(
        self,
        f: IO[bytes],
        summary: WarcSummary,
        options: dict[str, Any],
        *,
        max_units: int | None = None,
        index_only: bool = False,
        gzip: bool | None = None,
    ) -> None:
        self.inp = _Input(f, summary)
        self.gzip = gzip  # None: decide from the first bytes
        self.summary = summary
        self.options = options
        self.max_units = max_units
        self.index_only = index_only  # yield unit offsets (ints) instead of processing records
        self.units = 0

    def _error(
        self, message: str, offset: int | None, record_id: str | None = None, uri: str | None = None
    ) -> WarcError:
        self.summary.errors += 1
        return WarcError(record_id, offset, uri, message)

    def _more_units(self) -> bool:
        return self.max_units is None or self.units < self.max_units

    def walk(self) -> Iterator[WarcEntry | int]:
        if self.gzip is None:
            self.gzip = self.inp.peek(2) == _GZIP_MAGIC[:2]
        if self.gzip:
            yield from self._walk_gzip()
        else:
            yield from self._walk_plain()

    # -- compressed archives: one unit per gzip member ------------------------------------------

    def _walk_gzip(self) -> Iterator[WarcEntry | int]:
        inp = self.inp
        while self._more_units() and inp.peek(1):
            start = inp.tell()
            self.units += 1
            if self.index_only:
                yield start
            if inp.peek(3) != _GZIP_MAGIC:
                if not self.index_only:
                    yield self._error("not a gzip member: garbage between records", start)
                if not self._more_units() or not inp.find(_GZIP_MAGIC, _valid_gzip_start):
                    return
                continue
            member = _Member(inp)
            try:
                if self.index_only:
                    member.drain()
                else:
                    yield from self._records(member, start)
                    member.drain()
            except _FramingError as e:
                if not self.index_only and not isinstance(e, _ReportedFramingError):
                    yield self._error(str(e), start)
                if inp.tell() <= start:
                    # The bytes given back start at this member: step past its magic, or the
                    # scan would find the same (damaged) member again.
                    inp.read(start + 1 - inp.tell())
                if not self._more_units() or not inp.find(_GZIP_MAGIC, _valid_gzip_start):
                    return

    def _records(self, member: _Member, offset: int) -> Iterator[WarcEntry]:
        it = _Records(member, no_record_parse=True)
        records = iter(it)
        prev: Any = None
        while True:
            warned = it.err_count
            record: Any = None
            failure: Exception | None = None
            try:
                record = next(records)  # first finishes the previous record
            except StopIteration:
                pass
            except _FramingError:
                raise
            except Exception as e:  # warcio raises plain exceptions for damaged headers
                failure = e
            if it.err_count > warned and prev is not None:
                yield self._bad_length(offset, prev)
            if failure is not None:
                yield self._error(f"bad WARC record: {_one_line(failure)}", offset)
                member.drain()
                return
            if record is None:
                return
            prev = record
            try:
                yield from self._process(record, offset)
            except _FramingError as e:
                yield self._error(str(e), offset, _header(record, "WARC-Record-ID"), _header(record, "WARC-Target-URI"))
                raise _ReportedFramingError(str(e)) from None

    def _bad_length(self, offset: int, record: Any) -> WarcError:
        return self._error(
            "record not followed by a blank line (wrong Content-Length?)",
            offset,
            _header(record, "WARC-Record-ID"),
            _header(record, "WARC-Target-URI"),
        )

    # -- uncompressed archives: one unit per record ---------------------------------------------

    def _walk_plain(self) -> Iterator[WarcEntry | int]:
        inp = self.inp
        while self._more_units() and inp.peek(1):
            it = _Records(inp, no_record_parse=True)
            records = iter(it)
            offset = it.offset
            prev: Any = None
            while self._more_units():
                warned = it.err_count
                record: Any = None
                failure: Exception | None = None
                try:
                    record = next(records)  # first finishes the previous record
                except StopIteration:
                    pass
                except Exception as e:
                    failure = e
                if it.err_count > warned and prev is not None and not self.index_only:
                    yield self._bad_length(offset, prev)
                if failure is not None:
                    offset = it.offset  # warcio has moved it to the start of the record it failed on
                    self.units += 1
                    if self.index_only:
                        yield offset
                    else:
                        yield self._error(f"bad WARC record: {_one_line(failure)}", offset)
                    break
                if record is None:
                    return
                offset = it.offset
                prev = record
                self.units += 1
                if self.index_only:
                    yield offset
                else:
                    yield from self._process(record, offset)
            else:
                if prev is not None and not self.index_only:
                    yield from self._check_last_length(it, offset, prev)
                return
            # warcio gave up at ``offset``: resume at the next record header, if we can go back.
            if not self._more_units():
                return
            if not inp.seekable():
                if not self.index_only:
                    yield self._error("cannot resynchronise a non-seekable uncompressed archive", offset)
                return
            inp.seek(offset + 1)
            if not inp.find(_WARC_MAGIC, _valid_warc_start):
                return

    def _check_last_length(self, it: _Records, offset: int, record: Any) -> Iterator[WarcError]:
        """Report a wrong Content-Length of the last record read when no further record is asked for.

        warcio notices the damage only when it finishes a record, on the way to the next one. A
        parallel worker reads exactly one record (``max_units=1``) and never asks for the next, so
        it finishes the record here, as the single-process walk would, and reports the same error.
        """
        warned = it.err_count
        try:
            it.read_to_end()
        except Exception:  # a failure past this record belongs to the next unit, whose worker reports it
            return
        if it.err_count > warned:
            yield self._bad_length(offset, record)

    # -- one record -------------------------------------------------------------------------------

    def _process(self, record: Any, offset: int) -> Iterator[WarcEntry]:
        s = self.summary
        s.records += 1
        rid = _header(record, "WARC-Record-ID")
        uri = _header(record, "WARC-Target-URI")
        date = _header(record, "WARC-Date")
        rtype = (record.rec_type or "").lower()
        if rtype == "revisit":
            s.skipped_revisit += 1
            return
        if rtype not in ("response", "resource"):
            s.skipped_other += 1
            return
        raw = _Counting(record.raw_stream)
        length: int | None = record.length if isinstance(record.length, int) else None
        emitted = 0
        try:
            status: int | None = None
            if rtype == "response" and _is_http(record, uri):
                head = parse_http_head(_read_http_head(raw))
                status = head.status
                ctype = head.get("Content-Type")
                te = ",".join(head.get_all("Transfer-Encoding")).lower()
                chunked = "chunked" in [t.strip() for t in te.split(",")]
                coding = ",".join(head.get_all("Content-Encoding")) or None
            else:
                ctype = record.content_type
                chunked = False
                coding = None
            essence, charset = media_type(ctype)
            if essence is not None and essence not in HTML_TYPES:
                s.skipped_non_html += 1
                return
            pieces = _body_pieces(raw, length, BodyDecoder(chunked=chunked, content_encoding=coding))
            if essence is None:
                first: list[bytes] = []
                size = 0
                for p in pieces:
                    first.append(p)
                    size += len(p)
                    if size >= SNIFF_SIZE:
                        break
                if not sniff_html(b"".join(first)[:SNIFF_SIZE]):
                    s.skipped_non_html += 1
                    return
                pieces = _chain(first, pieces)
            s.html_records += 1
            options = dict(self.options)
            if options.get("encoding") is None:
                options["encoding"] = charset
            parser = Parser(uri, **options)
            for p in pieces:
                for item in parser.feed(p):
                    emitted += 1
                    s.items += 1
                    yield WarcItem(uri, rid, date, status, essence, item)
            for item in parser.close():
                emitted += 1
                s.items += 1
                yield WarcItem(uri, rid, date, status, essence, item)
        except (PayloadError, StreamMF2Error) as e:
            note = f" (after {emitted} items)" if emitted else ""
            yield self._error(f"{_one_line(e)}{note}", offset, rid, uri)


def _chain(first: list[bytes], rest: Iterator[bytes]) -> Iterator[bytes]:
    yield from first
    yield from rest


def _header(record: Any, name: str) -> str | None:
    value = record.rec_headers.get_header(name)
    return value if isinstance(value, str) else None


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return text or type(e).__name__


def _open(source: str | os.PathLike[str] | IO[bytes]) -> tuple[IO[bytes], bool]:
    if isinstance(source, str | os.PathLike):
        try:
            return open(source, "rb"), True  # closed by the reader
        except OSError as e:
            raise SourceError(f"cannot open {os.fspath(source)!r}: {e.strerror or e}") from e
    return source, False


class WarcReader:
    """Iterate once over a WARC archive's entries; :attr:`summary` counts as it goes.

    Build it with :func:`iter_warc`.
    """

    def __init__(
        self,
        source: str | os.PathLike[str] | IO[bytes],
        *,
        start: int | None = None,
        max_units: int | None = None,
        gzip: bool | None = None,
        **options: Any,
    ) -> None:
        self.summary = WarcSummary()
        self._gzip = gzip
        self._source = source
        self._start = start
        self._max_units = max_units
        self._options = options
        self._used = False

    def __iter__(self) -> Iterator[WarcEntry]:
        if self._used:
            raise StreamMF2Error("a WarcReader can be iterated only once")
        self._used = True
        return self._run()

    def _run(self) -> Iterator[WarcEntry]:
        f, owned = _open(self._source)
        t0 = time.perf_counter()
        try:
            if self._start is not None:
                f.seek(self._start)
            walker = _Walker(f, self.summary, self._options, max_units=self._max_units, gzip=self._gzip)
            for entry in walker.walk():
                if not isinstance(entry, int):
                    yield entry
        finally:
            self.summary.seconds += time.perf_counter() - t0
            if owned:
                f.close()


def iter_warc(source: str | os.PathLike[str] | IO[bytes], **options: Any) -> WarcReader:
    """Items of every HTML record of a WARC archive (``.warc`` or ``.warc.gz``).

    ``source`` is a path or a binary file object (a non-seekable stream works,
    with less recovery for damaged uncompressed archives). Iterating yields
    :class:`WarcItem` and :class:`WarcError` entries in archive order;
    ``reader.summary`` is final when iteration ends. ``options`` are Parser
    options; an ``encoding`` option overrides every record's HTTP charset.
    """
    return WarcReader(source, **options)


def _take(it: Iterator[WarcEntry], n: int, budget: float) -> tuple[list[WarcEntry], bool]:
    out: list[WarcEntry] = []
    deadline = time.perf_counter() + budget
    for entry in it:
        out.append(entry)
        if len(out) >= n or time.perf_counter() > deadline:
            return out, False
    return out, True


class AsyncWarcReader:
    """Async iteration over a WARC archive; the reading runs in a worker thread.

    Entries are handed over in small batches (at most 64 entries or 50 ms of
    work), so the event loop is never blocked by archive reading or parsing.
    """

    def __init__(self, source: str | os.PathLike[str] | IO[bytes], **options: Any) -> None:
        self._reader = WarcReader(source, **options)

    @property
    def summary(self) -> WarcSummary:
        """Counts so far; final once iteration ends."""
        return self._reader.summary

    def __aiter__(self) -> AsyncIterator[WarcEntry]:
        return self._run()

    async def _run(self) -> AsyncIterator[WarcEntry]:
        it = iter(self._reader)
        try:
            while True:
                batch, done = await asyncio.to_thread(_take, it, 64, 0.05)
                for entry in batch:
                    yield entry
                if done:
                    return
        finally:
            close = getattr(it, "close", None)
            # If we were cancelled while a batch was being read, the thread still runs the
            # generator and it cannot be closed from here; it is then finalised when dropped.
            if close is not None:
                with contextlib.suppress(ValueError):
                    close()


def aiter_warc(source: str | os.PathLike[str] | IO[bytes], **options: Any) -> AsyncWarcReader:
    """Async version of :func:`iter_warc`: ``async for entry in aiter_warc(path): …``."""
    return AsyncWarcReader(source, **options)


# -- parallel reading ----------------------------------------------------------------------------


def _units(path: str | os.PathLike[str]) -> Iterator[tuple[int, bool]]:
    f, _ = _open(path)
    with f:
        walker = _Walker(f, WarcSummary(), {}, index_only=True)
        for unit in walker.walk():
            if isinstance(unit, int):
                yield unit, bool(walker.gzip)


def _run_units(
    path: str, offset: int, count: int, gzip: bool, options: dict[str, Any]
) -> tuple[list[WarcEntry], WarcSummary]:
    """Read ``count`` consecutive units from ``offset``, as the single-process walk would."""
    reader = WarcReader(path, start=offset, max_units=count, gzip=gzip, **options)
    entries = list(reader)
    return entries, reader.summary


#: A task for a worker is a run of consecutive units: at most this many ...
BATCH_UNITS = 64
#: ... spanning at most this many bytes of the archive. One task per record would make
#: the per-task cost (a pickled call, an open and a seek) rival the parsing of the small
#: records (requests, redirects, revisits) that make up half of a typical crawl.
BATCH_BYTES = 1 << 20


class ParallelWarcReader:
    """Reads one archive with several processes; entries come out in archive order.

    The parent scans the archive for unit boundaries (gzip members, or records
    of an uncompressed file) and hands runs of consecutive units (``batch_units``,
    ``batch_bytes``) to workers, each of which seeks to its run and reads it as the
    single-process walk would. At most ``4 * workers`` runs are in flight. The
    summary is the sum of the workers' summaries (``bytes_read`` counts the
    workers' reads).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        workers: int,
        *,
        batch_units: int = BATCH_UNITS,
        batch_bytes: int = BATCH_BYTES,
        **options: Any,
    ) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        if batch_units < 1:
            raise ValueError("batch_units must be at least 1")
        self.summary = WarcSummary()
        self._path = os.fspath(path)
        self._workers = workers
        self._batch_units = batch_units
        self._batch_bytes = batch_bytes
        self._options = options

    def _batches(self) -> Iterator[tuple[int, int, bool]]:
        """(first offset, unit count, gzip) for each run of consecutive units."""
        first = -1
        count = 0
        gzip = False
        for offset, gz in _units(self._path):
            if count and (count >= self._batch_units or offset - first >= self._batch_bytes):
                yield first, count, gzip
                count = 0
            if not count:
                first, gzip = offset, gz
            count += 1
        if count:
            yield first, count, gzip

    def __iter__(self) -> Iterator[WarcEntry]:
        t0 = time.perf_counter()
        window = 4 * self._workers
        try:
            with ProcessPoolExecutor(max_workers=self._workers) as pool:
                pending: list[Future[tuple[list[WarcEntry], WarcSummary]]] = []
                for offset, count, gz in self._batches():
                    pending.append(pool.submit(_run_units, self._path, offset, count, gz, self._options))
                    if len(pending) >= window:
                        yield from self._collect(pending.pop(0))
                while pending:
                    yield from self._collect(pending.pop(0))
        finally:
            self.summary.seconds += time.perf_counter() - t0

    def _collect(self, fut: Future[tuple[list[WarcEntry], WarcSummary]]) -> Iterator[WarcEntry]:
        entries, summary = fut.result()
        self.summary.add(summary)
        yield from entries


def iter_warc_parallel(path: str | os.PathLike[str], workers: int, **options: Any) -> ParallelWarcReader:
    """Like :func:`iter_warc`, with ``workers`` processes; output order is archive order."""
    return ParallelWarcReader(path, workers, **options)
