"""Microformats out of WARC archives, record by record, with every problem reported.

:func:`iter_warc` yields, in archive order, for each HTML ``response`` /
``resource`` record a :class:`WarcItem` per item and then one
:class:`WarcRecord` (always, even when the record has no item: it carries the
record's position, encoding, ``rels`` and ``rel-urls``), and a
:class:`WarcError` for each damaged record or stretch of the file; the
:class:`WarcSummary` on the returned reader counts records, HTML records,
items, errors and skipped records.

Layers, and who does what:

* gzip members (``.warc.gz``): decompressed here, member by member, with
  :mod:`zlib`. A bad or truncated member becomes a :class:`WarcError` and
  reading resumes at the next valid member. Whether a file is compressed is
  decided from its first bytes; when they are neither a gzip member nor a
  ``WARC/1.x`` line (a damaged head), that is reported and reading starts at
  the first valid member or record header, whichever comes first. A head
  that looks plain but is followed by gzip members of WARC records (a stray
  ``WARC/1.x`` line before the first member) is read as ``.warc.gz`` from the
  first member on: a valid member where a record should start, or found by the
  scan after a damaged head before any record was framed, switches the reader.
* WARC records: framed here. A record must have a ``Content-Length`` and its
  block must be followed by ``\\r\\n\\r\\n``; otherwise the record is reported.
  A field name must be a token: a control byte in one is damage, reported.
  So are two different values of a field a record has once (two records'
  header blocks run together, the bytes between them lost).
  In an uncompressed file the reader then resynchronises at the next
  ``WARC/1.x`` record header: a seekable file is looked ahead before the
  record is parsed, so a ``Content-Length`` that runs into the next record is
  cut at that record (whose items are never attributed to the damaged one),
  also when its end falls on a CRLF CRLF inside that record (a record header
  in the block whose record the block's end cuts through; whole records in a
  block are its content); a header line that ends in the next record's
  ``WARC/1.x`` line (bytes lost inside it) is reported and the scan starts
  again from the damaged record's start;
  a non-seekable stream holds a record's entries until its end is verified.
* HTTP: status line and headers parsed here (bounded), then the body is
  de-chunked and decoded (gzip, deflate, br) step by step by
  :mod:`stream_mf2.io.payload`, so no record is ever held whole in memory.
  Decompression is capped (``max_decoded_bytes``, ``max_expansion``): past the
  cap the record stops with an error and reading goes on.

Which records are HTML: the HTTP ``Content-Type`` for ``response`` records,
the record ``Content-Type`` for ``resource`` records; a record without a type
is sniffed (WHATWG MIME Sniffing). The HTTP charset is the transport
encoding, the target URI the document URL. ``revisit`` records and non-HTML
records are counted and skipped.

Offsets are byte offsets in the file: of the gzip member for compressed
archives, of the record for uncompressed ones; a :class:`WarcRecord`'s
``length`` spans the member (compressed) or the record and its trailing
``\\r\\n\\r\\n`` (uncompressed), which is what a CDX index holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
import zlib
from collections.abc import AsyncIterator, Callable, Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import IO, Any, ClassVar, Final, Protocol, TypeAlias, TypedDict, Unpack

from stream_mf2.core.options import OPTION_NAMES, ParseOptions, check_options
from stream_mf2.core.parser import Parser
from stream_mf2.errors import SourceError, StreamMF2Error
from stream_mf2.events import DocumentEnd, ItemEvent, MetaItemEvent
from stream_mf2.io.payload import (
    DEFAULT_MAX_DECODED_BYTES,
    DEFAULT_MAX_EXPANSION,
    HTML_TYPES,
    MAX_HTTP_HEADER,
    BodyDecoder,
    PayloadError,
    media_type,
    parse_http_head,
    sniff_html,
)

#: Bytes read from the archive at a time.
READ_SIZE = 64 * 1024
#: Decoded bytes buffered to sniff a body without a Content-Type.
SNIFF_SIZE = 512
#: Largest block of WARC record headers accepted.
MAX_WARC_HEADER = 64 * 1024
#: Compressed bytes of a gzip member kept from a non-seekable input, so that the scan for the
#: next member after a damaged one starts inside it (a stray gzip magic swallows what follows).
MAX_REPLAY = 4 * 1024 * 1024

_GZIP_MAGIC = b"\x1f\x8b\x08"
_WARC_MAGIC = b"WARC/1."
_WARC_LINE_RE = re.compile(rb"WARC/1\.\d\r?\n\Z")
#: An HTTP/WARC field name (RFC 9110 token).
_TOKEN_RE = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_END = b"\r\n\r\n"
#: What a record swallowing the next one looks like inside its block.
_NEXT_RECORD = b"\r\n\r\nWARC/1."

Path: TypeAlias = tuple[int | str, ...]


@dataclass(frozen=True, slots=True)
class WarcItem:
    """One item of one HTML record.

    ``path`` locates the item in the record's whole-document ``items``: the
    top-level index first, then keys and indexes (``(0, "children", 3)``,
    ``(1, "properties", "author", 0)``); ``()`` only when built by hand.
    ``children_streamed`` counts the children of a container that were written
    as items of their own before it (``stream_children``).
    """

    kind: ClassVar[str] = "item"

    uri: str | None
    record_id: str | None
    date: str | None
    status: int | None  #: HTTP status; ``None`` for ``resource`` records
    content_type: str | None  #: media type essence (``text/html``), ``None`` when sniffed
    item: dict[str, Any]
    warc_file: str | None = None  #: the archive's name (path or URL as given)
    offset: int | None = None  #: the record's offset in the archive (see the module docs)
    path: Path = ()
    children_streamed: int = 0


@dataclass(frozen=True, slots=True)
class WarcRecord:
    """One HTML record, after its items: position, encoding, ``rels``, counts."""

    kind: ClassVar[str] = "record"

    uri: str | None
    record_id: str | None
    date: str | None
    status: int | None
    content_type: str | None
    warc_type: str  #: ``response`` or ``resource``
    encoding: str | None  #: the encoding the page was decoded with (Encoding Standard name)
    #: how it was chosen: ``bom``, ``transport`` (HTTP charset), ``option`` (the ``encoding``
    #: option), ``meta``, ``xml``, ``utf8-detect``, ``default``, ``meta-change``, ``meta-reparse``
    encoding_source: str | None
    warc_file: str | None
    offset: int | None
    length: int | None  #: bytes of the record in the archive (see the module docs)
    items: int  #: item entries written for this record
    rels: dict[str, list[str]] = field(default_factory=dict)
    rel_urls: dict[str, dict[str, Any]] = field(default_factory=dict)
    meta_item: dict[str, Any] | None = None  #: with ``metaformats=True``, when the head gives one


@dataclass(frozen=True, slots=True)
class WarcError:
    """A record (or a stretch of the file, or the whole input) that could not be read."""

    kind: ClassVar[str] = "error"

    record_id: str | None
    offset: int | None
    uri: str | None
    message: str
    warc_file: str | None = None
    scope: str = "record"  #: ``record`` (a record or stretch of the archive) or ``file`` (the input)


@dataclass(frozen=True, slots=True)
class WarcExtra:
    """A line that a reader's ``consumer`` made from one of a record's parser events.

    Yielded only when a :class:`RecordConsumer` is given, before the record's
    :class:`WarcRecord`; ``line`` is the consumer's (e.g. a Website Parse
    Template page, ``{"kind": "wpt", ...}``), the other fields locate the record.
    """

    kind: ClassVar[str] = "extra"

    uri: str | None
    record_id: str | None
    warc_file: str | None
    offset: int | None
    line: dict[str, Any]


class RecordConsumer(Protocol):
    """Turns the parser events of HTML records that are not mf2's into lines (:class:`WarcExtra`).

    The reader calls :meth:`start` when a record's parse starts, then
    :meth:`lines` with every event other than items, the meta item and the
    document end. It must be picklable to go to :func:`iter_warc_parallel`'s
    workers (each gets its own copy).
    """

    def start(self) -> None:
        """A record starts: forget what a record that ended in an error left."""

    def lines(self, event: object) -> list[dict[str, Any]]:
        """The lines for ``event`` (often none)."""
        ...


WarcEntry: TypeAlias = WarcItem | WarcRecord | WarcError | WarcExtra


@dataclass(slots=True)
class WarcSummary:
    """Counts over everything read so far; final once iteration ends."""

    kind: ClassVar[str] = "summary"

    records: int = 0  #: WARC records seen (every type)
    html_records: int = 0  #: records parsed as HTML
    items: int = 0  #: items yielded
    errors: int = 0  #: errors yielded
    skipped_non_html: int = 0  #: response / resource records that are not HTML
    skipped_revisit: int = 0  #: revisit records
    skipped_other: int = 0  #: request, warcinfo, metadata, … records
    bytes_read: int = 0  #: bytes read from the archive
    seconds: float = 0.0  #: wall-clock time spent reading

    COUNTS: ClassVar[tuple[str, ...]] = (
        "records",
        "html_records",
        "items",
        "errors",
        "skipped_non_html",
        "skipped_revisit",
        "skipped_other",
        "bytes_read",
    )

    @property
    def skipped(self) -> int:
        """All skipped records."""
        return self.skipped_non_html + self.skipped_revisit + self.skipped_other

    def add(self, other: WarcSummary) -> None:
        """Add another summary's counts (from a worker) to this one."""
        for name in self.COUNTS:
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


class _Buffered:
    """A read buffer with push-back, peeking and line reading; :meth:`_fill` gives more raw bytes.

    The buffer is consumed by moving an index, so reading small pieces (header lines) out of a
    large buffer copies only what is read.
    """

    def __init__(self) -> None:
        self._buf = b""
        self._i = 0

    def _fill(self, n: int) -> bytes:
        """At most ``n`` more bytes from the source; ``b""`` at its end."""
        raise NotImplementedError

    def _consumed(self, n: int) -> None:
        """``n`` bytes were handed out (negative: given back)."""

    def _extend(self, more: bytes) -> None:
        if self._i:
            self._buf = self._buf[self._i :] + more
            self._i = 0
        else:
            self._buf += more

    def read(self, n: int | None = -1) -> bytes:
        if n is None or n < 0:
            n = READ_SIZE
        i = self._i
        if i < len(self._buf):
            data = self._buf[i : i + n]
            i += len(data)
            if i >= len(self._buf):
                self._buf = b""
                self._i = 0
            else:
                self._i = i
        else:
            data = self._fill(n)
        self._consumed(len(data))
        return data

    def readline(self, limit: int) -> bytes:
        """One line (with its ``\\n``), at most ``limit`` bytes."""
        while True:
            i = self._i
            idx = self._buf.find(b"\n", i, i + limit)
            if idx >= 0:
                return self.read(idx + 1 - i)
            if len(self._buf) - i >= limit:
                return self.read(limit)
            more = self._fill(READ_SIZE)
            if not more:
                return self.read(len(self._buf) - i)
            self._extend(more)

    def peek(self, n: int) -> bytes:
        while len(self._buf) - self._i < n:
            more = self._fill(max(n - (len(self._buf) - self._i), READ_SIZE))
            if not more:
                break
            self._extend(more)
        return self._buf[self._i : self._i + n]

    def unread(self, data: bytes) -> None:
        if data:
            self._buf = data + self._buf[self._i :]
            self._i = 0
            self._consumed(-len(data))


class _Input(_Buffered):
    """The archive file with push-back, absolute offsets and forward scanning."""

    def __init__(self, f: IO[bytes], summary: WarcSummary) -> None:
        super().__init__()
        self._f = f
        self._summary = summary
        self._mark = 0
        self._record: bytearray | None = None
        try:
            self._pos = f.tell()
            self._seekable = f.seekable()
        except (OSError, AttributeError, ValueError):
            self._pos = 0
            self._seekable = False

    def _fill(self, n: int) -> bytes:
        try:
            data = self._f.read(n)
        except OSError as e:
            raise SourceError(f"read failed: {e}") from e
        self._summary.bytes_read += len(data)
        return data

    def _consumed(self, n: int) -> None:
        self._pos += n

    def read(self, n: int | None = -1) -> bytes:
        data = super().read(n)
        rec = self._record
        if rec is not None and data:
            if len(rec) + len(data) > MAX_REPLAY:
                self._record = None  # too much to keep: a failure resumes where reading stopped
            else:
                rec += data
        return data

    def unread(self, data: bytes) -> None:
        super().unread(data)
        rec = self._record
        if rec is not None and data:
            del rec[max(0, len(rec) - len(data)) :]  # what is given back is always the last bytes read

    def mark(self) -> None:
        """Start keeping the bytes read (a gzip member), so that a failure can scan them again."""
        self._mark = self._pos
        self._record = bytearray() if not self._seekable else None

    def mark_done(self) -> None:
        """The marked member was read: stop keeping its bytes."""
        self._record = None

    def back_to_mark(self) -> None:
        """Go back to just after the mark, to scan a failed member's bytes for the next member."""
        mark = self._mark
        if self._pos <= mark:
            while self._pos <= mark and self.read(mark + 1 - self._pos):
                pass
        elif self._seekable:
            self.seek(mark + 1)
        elif self._record is not None:
            rec = bytes(self._record[1:])
            self._record = None
            self.unread(rec)
        self._record = None

    def tell(self) -> int:
        return self._pos

    def seekable(self) -> bool:
        return self._seekable

    def seek(self, pos: int) -> None:
        self._f.seek(pos)
        self._buf = b""
        self._i = 0
        self._pos = pos

    def peek_at(self, pos: int, n: int) -> bytes:
        """``n`` bytes at ``pos`` without moving (seekable inputs only)."""
        held = len(self._buf) - self._i
        if self._pos <= pos and pos + n <= self._pos + held:
            start = self._i + pos - self._pos
            return self._buf[start : start + n]
        raw = self._pos + held
        try:
            self._f.seek(pos)
            data = self._f.read(n)
            self._f.seek(raw)
        except OSError as e:
            raise SourceError(f"read failed: {e}") from e
        return data

    def next_record_from(self, pos: int) -> int | None:
        """Offset of the first valid ``WARC/1.x`` record header at or after ``pos`` (seekable only)."""
        here, buf, i = self._pos, self._buf, self._i
        self.seek(pos)
        found = self.find(((_WARC_MAGIC, _valid_warc_start),)) is not None
        at = self._pos
        self._f.seek(here + len(buf) - i)
        self._pos, self._buf, self._i = here, buf, i
        return at if found else None

    def find_in(self, needle: bytes, start: int, end: int) -> int | None:
        """Offset of the first ``needle`` wholly inside ``[start, end)`` without moving (seekable only)."""
        raw = self._pos + len(self._buf) - self._i
        keep = len(needle) - 1
        try:
            self._f.seek(start)
            pos, tail = start, b""
            while pos < end:
                data = self._f.read(min(READ_SIZE, end - pos))
                if not data:
                    break
                window = tail + data
                idx = window.find(needle)
                if idx >= 0:
                    return pos - len(tail) + idx
                tail = window[-keep:] if keep else b""
                pos += len(data)
            return None
        except OSError as e:
            raise SourceError(f"read failed: {e}") from e
        finally:
            with contextlib.suppress(OSError):
                self._f.seek(raw)

    def find(self, targets: Sequence[tuple[bytes, Callable[[_Input], bool]]]) -> bytes | None:
        """Skip to the first occurrence of a target's magic that its check accepts; ``None`` at EOF."""
        keep = max(len(m) for m, _ in targets) - 1
        while True:
            best = -1
            hit: tuple[bytes, Callable[[_Input], bool]] | None = None
            for target in targets:
                idx = self._buf.find(target[0], self._i)
                if idx >= 0 and (best < 0 or idx < best):
                    best, hit = idx, target
            if hit is None:
                # Keep a possible partial match at the end of the buffer, read on.
                self.read(max(0, len(self._buf) - self._i - keep))
                more = self._fill(READ_SIZE)
                if not more:
                    self.read(len(self._buf) - self._i)
                    return None
                self._extend(more)
                continue
            self.read(best - self._i)
            if hit[1](self):
                return hit[0]
            self.read(1)


def _valid_gzip_start(inp: _Input) -> bool:
    head = inp.peek(READ_SIZE)
    try:
        out = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 16)
    except zlib.error:
        return False
    return out.startswith(b"WARC/")


def _valid_warc_start(inp: _Input) -> bool:
    line = inp.peek(len(_WARC_MAGIC) + 3)
    return line[len(_WARC_MAGIC) : len(_WARC_MAGIC) + 1].isdigit() and line.find(b"\n", len(_WARC_MAGIC)) > 0


_CONTENT_LENGTH_RE = re.compile(rb"(?im)^content-length[ \t]*:[ \t]*(\d+)[ \t]*\r?$")


def _cuts_record(head: bytes, room: int) -> bool:
    """Does a block that ends ``room`` bytes after ``head`` (bytes from a ``WARC/1.x`` line
    that follows CRLF CRLF inside the block) cut through the record ``head`` starts?

    A block whose end is followed by CRLF CRLF still frames wrongly when its
    ``Content-Length`` grew over the next record up to a CRLF CRLF inside it (the end of
    its header block or of its HTTP head). A record wholly inside a block (an archive
    stored as a record's payload) is content; one the block's end cuts through is the
    next record, run into. Text that is not a record header with a ``Content-Length`` is
    content too.
    """
    line_end = head.find(b"\n") + 1
    if not line_end or not _WARC_LINE_RE.match(head[:line_end]):
        return False
    end = head.find(b"\r\n\r\n")
    if end < 0:
        return False  # a header longer than what was looked at: cannot tell, content
    match = _CONTENT_LENGTH_RE.search(head, line_end, end + 2)
    if match is None:
        return False
    return end + 4 > room or end + 4 + int(match.group(1)) > room


_ANY_START = ((_GZIP_MAGIC, _valid_gzip_start), (_WARC_MAGIC, _valid_warc_start))
_WARC_START = ((_WARC_MAGIC, _valid_warc_start),)
_GZIP_START = ((_GZIP_MAGIC, _valid_gzip_start),)


class _Member(_Buffered):
    """The decompressed bytes of one gzip member, with line reading."""

    def __init__(self, inp: _Input) -> None:
        super().__init__()
        self._inp = inp
        self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._tail = b""
        self.done = False

    def _fill(self, n: int) -> bytes:
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
                return out
        return b""

    def drain(self) -> None:
        self._buf = b""
        self._i = 0
        while self._fill(READ_SIZE):
            pass


#: Named fields a record has at most once (WARC 1.1, section 5: all but
#: ``WARC-Concurrent-To`` and ``WARC-Protocol``, which may repeat). Two different
#: values of one of them are damage; a repeat of the same value is tolerated.
_SINGLE_FIELDS: Final = frozenset(
    (
        "content-length",
        "content-type",
        "warc-block-digest",
        "warc-date",
        "warc-filename",
        "warc-identified-payload-type",
        "warc-ip-address",
        "warc-payload-digest",
        "warc-profile",
        "warc-record-id",
        "warc-refers-to",
        "warc-refers-to-date",
        "warc-refers-to-target-uri",
        "warc-segment-number",
        "warc-segment-origin-id",
        "warc-segment-total-length",
        "warc-target-uri",
        "warc-truncated",
        "warc-type",
        "warc-warcinfo-id",
    )
)


class _Head:
    """A WARC record's header block."""

    __slots__ = ("headers", "length")

    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers
        cl = headers.get("content-length", "")
        self.length: int | None = int(cl) if cl.isascii() and cl.isdigit() else None

    def get(self, name: str) -> str | None:
        return self.headers.get(name.lower())


class _BadHead(Exception):
    """A damaged record header block; ``raw`` holds the bytes read for it."""

    def __init__(self, message: str, raw: bytes) -> None:
        super().__init__(message)
        self.raw = raw


def _read_head(readline: Callable[[int], bytes]) -> _Head | None:
    """Read one record's header block; ``None`` at the end of the stream."""
    line = readline(MAX_WARC_HEADER)
    if not line:
        return None
    raw = [line]
    if not _WARC_LINE_RE.match(line):
        raise _BadHead(f"not a WARC record header: {line[:40]!r}", line)
    size = len(line)
    headers: dict[str, str] = {}
    last: str | None = None
    while True:
        line = readline(MAX_WARC_HEADER)
        raw.append(line)
        size += len(line)
        if not line or not line.endswith(b"\n"):
            if size > MAX_WARC_HEADER:
                raise _BadHead("WARC record header too long", b"".join(raw))
            raise _BadHead("WARC record header truncated", b"".join(raw))
        if size > MAX_WARC_HEADER:
            raise _BadHead("WARC record header too long", b"".join(raw))
        if line in (b"\r\n", b"\n"):
            return _Head(headers)
        if b"WARC/1." in line[-12:] and _WARC_LINE_RE.search(line):
            # The next record's version line run into this header line ("Content-Length:WARC/1.0"):
            # bytes were lost here. Reading on would take the next record's header block for
            # this one's and lose that record; the scan from this record's start finds it.
            raise _BadHead("WARC record header runs into the next record's header", b"".join(raw))
        if line[0] in (9, 32) and last is not None:
            headers[last] += " " + line.strip().decode("utf-8", "replace")  # folded line
            continue
        name, sep, value = line.partition(b":")
        name = name.rstrip(b" \t")
        # A field name is a token (WARC 1.1, section 4): a control byte in it (a stray CR
        # before "Content-Length") is damage to report, not something to strip away.
        if not sep or _TOKEN_RE.fullmatch(name) is None:
            raise _BadHead(f"bad WARC header line {line[:40]!r}", b"".join(raw))
        key = name.decode("ascii").lower()
        text = value.strip().decode("utf-8", "replace")
        if key not in headers:
            headers[key] = text
            last = key
        elif key in _SINGLE_FIELDS and headers[key] != text:
            # Two values for a field a record has once: two records' header blocks run
            # together (the bytes between them lost), so this head is neither record's.
            raise _BadHead(f"WARC header field {name.decode('ascii')!r} given twice", b"".join(raw))
        else:
            last = None


class _Body:
    """A record's block: at most ``length`` bytes of a stream, counted; watches for a swallowed record."""

    def __init__(self, stream: _Input | _Member, length: int, *, watch: bool = False) -> None:
        self._s = stream
        self.length = length
        self.count = 0
        self._watch = watch
        self._tail = b""
        self.swallowed = False  #: the block held ``\r\n\r\nWARC/1.`` (``watch`` only)
        self._cut = False  # a record header in the block whose record the block's end cuts through
        self._capture: bytearray | None = None  # the bytes of such a candidate header so far
        self._capture_at = 0  # its offset in the block

    def _seen(self, data: bytes) -> bytes:
        offset = self.count
        self.count += len(data)
        if self._watch and data:
            if self._capture is not None:
                seen = len(self._capture)
                self._capture += data
                self._check(seen)
            window = self._tail + data
            base = offset - len(self._tail)  # the block offset of window[0]
            i = window.find(_NEXT_RECORD)
            while i >= 0:
                self.swallowed = True
                if self._capture is None and not self._cut:
                    # (a capture still open here ends at this candidate's CRLF CRLF: one at a time)
                    self._capture = bytearray(window[i + len(_END) :])
                    self._capture_at = base + i + len(_END)
                    self._check(0)
                i = window.find(_NEXT_RECORD, i + 1)
            self._tail = window[-(len(_NEXT_RECORD) - 1) :]
        return data

    def _check(self, seen: int) -> None:
        """Judge the candidate header once its end (or the size limit) is in; ``seen``:
        bytes of it already searched for the end (searched again from 3 before them only)."""
        capture = self._capture
        assert capture is not None
        if capture.find(_END, max(0, seen - len(_END) + 1)) >= 0 or len(capture) >= MAX_WARC_HEADER:
            self._capture = None
            if _cuts_record(bytes(capture[:MAX_WARC_HEADER]), self.length - self._capture_at):
                self._cut = True

    @property
    def runs_into_record(self) -> bool:
        """Once the block is read (``watch`` only): does a record header in it start a record
        its end cuts through (see :func:`_cuts_record`)? A header still open at the block's
        end ends with the CRLF CRLF that follows the block."""
        capture = self._capture
        if capture is not None and not self._cut:
            return _cuts_record(bytes(capture) + _END, len(capture))
        return self._cut

    def read(self, n: int) -> bytes:
        left = self.length - self.count
        if left <= 0:
            return b""
        return self._seen(self._s.read(min(n, left)))

    def readline(self, n: int) -> bytes:
        left = self.length - self.count
        if left <= 0:
            return b""
        return self._seen(self._s.readline(min(n, left)))

    def skip(self) -> None:
        """Read to the end of the block (or of the stream)."""
        while self.read(READ_SIZE):
            pass


def _skip_blank_lines(stream: _Input | _Member) -> None:
    """Blank lines between records are tolerated (some writers add more than the two required)."""
    while True:
        p = stream.peek(2)
        if p != b"\r\n" and p[:1] != b"\n":
            return
        stream.readline(2)


def _read_http_head(raw: _Body) -> bytes:
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


def _is_http(head: _Head, uri: str | None) -> bool:
    ctype = (head.get("Content-Type") or "").lower()
    if ctype.startswith("application/http"):
        return True
    return uri is not None and uri.lower().startswith(("http:", "https:"))


def _body_pieces(raw: _Body, body: BodyDecoder) -> Iterator[bytes]:
    while True:
        data = raw.read(READ_SIZE)
        if not data:
            break
        yield from body.feed(data)
    if raw.count < raw.length:
        raise PayloadError(f"record truncated: {raw.count} of {raw.length} bytes")
    yield from body.finish()


def _select(item: dict[str, Any], path: Path, types: frozenset[str]) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Items of ``types`` in ``item`` (itself, children, item-valued properties), in document order."""
    stack: list[tuple[Path, dict[str, Any]]] = [(path, item)]
    while stack:
        p, it = stack.pop()
        if not types.isdisjoint(it.get("type", ())):
            yield p, it
        nested: list[tuple[Path, dict[str, Any]]] = []
        for name, values in it.get("properties", {}).items():
            for k, v in enumerate(values):
                if isinstance(v, dict) and "type" in v:
                    nested.append(((*p, "properties", name, k), v))
        for j, child in enumerate(it.get("children", ())):
            nested.append(((*p, "children", j), child))
        stack.extend(reversed(nested))


_Proc: TypeAlias = Generator[WarcEntry, None, WarcRecord | None]


class _Walker:
    """Walks an archive and yields entries; shared by the sync, async and parallel readers.

    Besides entries it yields, at the start of every unit (gzip member, or record of an
    uncompressed file), the unit's offset as an ``int``: everything yielded before it is
    complete, so a reader started there (with the same ``gzip``) yields exactly the rest.
    """

    def __init__(
        self,
        f: IO[bytes],
        summary: WarcSummary,
        options: dict[str, Any],
        *,
        max_units: int | None = None,
        index_only: bool = False,
        gzip: bool | None = None,
        warc_file: str | None = None,
        types: frozenset[str] | None = None,
        max_decoded_bytes: int | None = DEFAULT_MAX_DECODED_BYTES,
        max_expansion: float | None = DEFAULT_MAX_EXPANSION,
        consumer: RecordConsumer | None = None,
    ) -> None:
        self.inp = _Input(f, summary)
        self.gzip = gzip  # None: decide from the first bytes
        self.summary = summary
        self.options = options
        self.max_units = max_units
        self.index_only = index_only  # yield unit offsets (ints) only, without processing records
        self.units = 0
        self.warc_file = warc_file
        self.types = types
        self.max_decoded_bytes = max_decoded_bytes
        self.max_expansion = max_expansion
        self.consumer = consumer
        self._framed = False  # a record of an uncompressed file had a valid header block

    def _error(
        self, message: str, offset: int | None, record_id: str | None = None, uri: str | None = None
    ) -> WarcError:
        self.summary.errors += 1
        return WarcError(record_id, offset, uri, message, self.warc_file)

    def _more_units(self) -> bool:
        return self.max_units is None or self.units < self.max_units

    def walk(self) -> Iterator[WarcEntry | int]:
        if self.gzip is None:
            first = self.inp.peek(len(_WARC_MAGIC))
            if not first:
                self.gzip = False
            elif first[:3] == _GZIP_MAGIC and _valid_gzip_start(self.inp):
                self.gzip = True  # (a damaged first member is a damaged head: scanned past below)
            elif first.startswith(_WARC_MAGIC):
                self.gzip = False
            else:
                # A damaged head: start at the first member or record, whichever comes first.
                start = self.inp.tell()
                found = self.inp.find(_ANY_START)
                skipped = self.inp.tell() - start
                if not self.index_only:
                    what = "no WARC record or gzip member found" if found is None else f"{skipped} bytes skipped"
                    yield self._error(f"not a WARC record or gzip member at the start of the file: {what}", start)
                if found is None:
                    return
                self.gzip = found == _GZIP_MAGIC
        s = self.summary
        for entry in self._walk_gzip() if self.gzip else self._walk_plain():
            if type(entry) is WarcItem:
                s.items += 1
            yield entry

    # -- compressed archives: one unit per gzip member ------------------------------------------

    def _walk_gzip(self) -> Iterator[WarcEntry | int]:
        inp = self.inp
        while self._more_units() and inp.peek(1):
            start = inp.tell()
            self.units += 1
            yield start
            if inp.peek(3) != _GZIP_MAGIC:
                if not self.index_only:
                    yield self._error("not a gzip member: garbage between records", start)
                if not self._more_units() or inp.find(_GZIP_START) is None:
                    return
                continue
            member = _Member(inp)
            inp.mark()
            try:
                if self.index_only:
                    member.drain()
                else:
                    yield from self._member_records(member, start)
                    member.drain()
            except _FramingError as e:
                if not self.index_only and not isinstance(e, _ReportedFramingError):
                    yield self._error(str(e), start)
                # Scan again from just past this member's magic: a stray magic before a good member
                # (or damage that made zlib read on) must not cost the members it ran into.
                inp.back_to_mark()
                if not self._more_units() or inp.find(_GZIP_START) is None:
                    return
                continue
            inp.mark_done()

    def _member_records(self, member: _Member, start: int) -> Iterator[WarcEntry]:
        while True:
            try:
                head = _read_head(member.readline)
            except _BadHead as e:
                yield self._error(f"bad WARC record: {e}", start)
                return
            if head is None:
                return
            rid, uri = head.get("WARC-Record-ID"), head.get("WARC-Target-URI")
            if head.length is None:
                yield self._error("record without a valid Content-Length", start, rid, uri)
                return
            body = _Body(member, head.length)
            record = yield from self._process(head, body, start)
            try:
                done = yield from self._member_record_end(member, body, record, start, rid, uri)
            except _FramingError as e:
                if isinstance(e, _ReportedFramingError):
                    raise
                yield self._error(str(e), start, rid, uri)
                if record is not None:
                    yield record
                raise _ReportedFramingError(str(e)) from None
            if done:
                return

    def _member_record_end(
        self, member: _Member, body: _Body, record: WarcRecord | None, start: int, rid: str | None, uri: str | None
    ) -> Generator[WarcEntry, None, bool]:
        """After a record of a member: check its end, yield its record entry; ``True`` if the member is done."""
        truncated = body.count < body.length
        body.skip()
        if body.count < body.length:
            if not truncated or record is None:  # not yet reported by the record's parse
                yield self._error(f"record truncated: {body.count} of {body.length} bytes", start, rid, uri)
            if record is not None:
                member.drain()
                yield replace(record, length=self.inp.tell() - start)
            return True
        end = member.read(4)
        while len(end) < 4 and end == _END[: len(end)]:
            more = member.read(4 - len(end))
            if not more:
                break
            end += more
        bad_end = end != _END
        if not bad_end:
            _skip_blank_lines(member)
        more_records = not bad_end and bool(member.peek(1))
        if bad_end:
            yield self._bad_length(start, rid, uri)
        if record is not None:
            if not more_records:
                member.drain()
                record = replace(record, length=self.inp.tell() - start)
            yield record
        return not more_records

    def _bad_length(self, offset: int, rid: str | None, uri: str | None) -> WarcError:
        return self._error("record not followed by \\r\\n\\r\\n (wrong Content-Length?)", offset, rid, uri)

    # -- uncompressed archives: one unit per record ---------------------------------------------

    def _walk_plain(self) -> Iterator[WarcEntry | int]:
        inp = self.inp
        while self._more_units():
            _skip_blank_lines(inp)
            if not inp.peek(1):
                return
            if inp.peek(len(_GZIP_MAGIC)) == _GZIP_MAGIC and _valid_gzip_start(inp):
                # A gzip member of WARC records where a record should start: the file is a
                # .warc.gz whose head held plain junk (a stray "WARC/1.x" line); read it as one.
                self.gzip = True
                yield from self._walk_gzip()
                return
            start = inp.tell()
            self.units += 1
            yield start
            try:
                head = _read_head(inp.readline)
            except _BadHead as e:
                if not self.index_only:
                    yield self._error(f"bad WARC record: {e}", start)
                inp.unread(e.raw[1:])  # rescan from the byte after the damaged record's start
                if inp.find(self._plain_resync()) is None:
                    return
                continue
            if head is None:
                return
            rid, uri = head.get("WARC-Record-ID"), head.get("WARC-Target-URI")
            body_start = inp.tell()
            if head.length is None:
                if not self.index_only:
                    yield self._error("record without a valid Content-Length", start, rid, uri)
                if inp.find(self._plain_resync()) is None:
                    return
                continue
            self._framed = True
            if inp.seekable():
                yield from self._plain_seekable(head, start, body_start)
            else:
                yield from self._plain_stream(head, start)

    def _plain_resync(self) -> Sequence[tuple[bytes, Callable[[_Input], bool]]]:
        """What a scan after a damaged record of a plain file looks for.

        Until one record has been framed, the file may still turn out to be a
        ``.warc.gz`` with plain junk before its first member (a stray ``WARC/1.x``
        line): a gzip member of WARC records counts then too. After that only a
        record header does (a record's block may hold a compressed archive).
        """
        return _WARC_START if self._framed else _ANY_START

    def _good_end(self, at: int) -> bool | None:
        """Is the block ending at ``at`` followed by ``\r\n\r\n``? ``None``: the file ends before ``at``.

        What follows is the next unit's business: a damaged header there is reported there.
        """
        tail = self.inp.peek_at(at, len(_END))
        if not tail and self.inp.peek_at(at - 1, 1) == b"" and at > 0:
            return None
        return tail == _END

    def _record_inside(self, start: int, end: int) -> int | None:
        """Offset of a record header after CRLF CRLF in the block ``[start, end)`` whose record
        the block's end cuts through (see :func:`_cuts_record`); ``None``: there is none."""
        inp = self.inp
        pos = start
        while True:
            at = inp.find_in(_NEXT_RECORD, pos, end)
            if at is None:
                return None
            header = at + len(_END)
            # Read up to the header's end, growing: the next candidate's CRLF CRLF ends it at
            # the latest, so the reads of all candidates together stay linear in the block.
            n = 512
            while True:
                data = inp.peek_at(header, n)
                if _END in data or len(data) < n or n >= MAX_WARC_HEADER:
                    break
                n = min(n * 4, MAX_WARC_HEADER)
            if _cuts_record(data, end - header):
                return header
            pos = at + 1

    def _plain_seekable(self, head: _Head, start: int, body_start: int) -> Iterator[WarcEntry]:
        """One record of a seekable file: its end is checked before it is parsed."""
        inp = self.inp
        length = head.length
        assert length is not None
        problem: str | None = None
        good = self._good_end(body_start + length)
        inside = self._record_inside(body_start, body_start + length) if good else None
        if good and inside is None:
            nxt: int | None = body_start + length + len(_END)
        elif inside is not None:
            # The end is followed by CRLF CRLF, but the block runs into the next record
            # (a Content-Length grown up to a CRLF CRLF inside it): cut it there.
            nxt = inside
            length = nxt - len(_END) - body_start
            problem = (
                f"Content-Length {head.length} runs past the record's end into the next record "
                f"(at offset {nxt}): the record was read up to there"
            )
            good = False
        else:
            # The file ends inside the block (truncated, or a Content-Length too large that
            # runs over the records after it to the end), or the block is not followed by
            # CRLF CRLF: a record header inside the declared block is where it really ends.
            nxt = inp.next_record_from(body_start)
            if nxt is not None and (good is None or nxt < body_start + length + len(_END)):
                # The block runs into the next record: cut it there, the next record is read whole.
                cut = nxt - body_start
                if inp.peek_at(nxt - len(_END), len(_END)) == _END:
                    cut -= len(_END)
                problem = (
                    f"Content-Length {length} runs past the record's end into the next record "
                    f"(at offset {nxt}): the record was read up to there"
                )
                length = cut
                good = False
            elif good is None:
                nxt = None  # truncated: the file ends inside the block
            else:
                problem = "record not followed by \\r\\n\\r\\n (wrong Content-Length?)"
        rid, uri = head.get("WARC-Record-ID"), head.get("WARC-Target-URI")
        if not self.index_only:
            body = _Body(inp, length)
            record = yield from self._process(head, body, start)
            if good is None and record is None:
                body.skip()
                if body.count < body.length:  # not reported by a record's parse
                    yield self._error(f"record truncated: {body.count} of {body.length} bytes", start, rid, uri)
            if problem is not None:
                yield self._error(problem, start, rid, uri)
            if record is not None:
                end = nxt if nxt is not None else body_start + length
                yield replace(record, length=end - start)
        if nxt is None:
            # Nothing valid follows: read on to the end so the summary counts every byte.
            inp.seek(body_start + length)
            while inp.read(READ_SIZE):
                pass
        elif inp.tell() != nxt:
            ahead = nxt - inp.tell()
            if 0 < ahead <= READ_SIZE:
                while ahead > 0:  # a read gives what is buffered first, maybe less than asked
                    got = len(inp.read(ahead))
                    if not got:
                        break
                    ahead -= got
            else:
                inp.seek(nxt)

    def _plain_stream(self, head: _Head, start: int) -> Iterator[WarcEntry]:
        """One record of a stream: its entries are held until its end is verified."""
        inp = self.inp
        assert head.length is not None
        rid, uri = head.get("WARC-Record-ID"), head.get("WARC-Target-URI")
        body = _Body(inp, head.length, watch=True)
        held: list[WarcEntry] = []
        record = None
        if not self.index_only:
            proc = self._process(head, body, start)
            while True:
                try:
                    held.append(next(proc))
                except StopIteration as stop:
                    record = stop.value
                    break
        body.skip()
        truncated = body.count < body.length
        ok = not truncated and inp.peek(len(_END)) == _END
        if ok:
            inp.read(len(_END))
        if record is not None:
            record = replace(record, length=inp.tell() - start)
        # A block followed by CRLF CRLF may still have run into the next record, up to a
        # CRLF CRLF inside it (its header's end or its HTTP head's end).
        if (ok and not body.runs_into_record) or truncated or not body.swallowed:
            yield from held
            if not ok and not truncated:
                yield self._bad_length(start, rid, uri)
            if record is not None:
                yield record
        else:
            # The block ran into the records after it, and the stream cannot go back: drop what
            # was parsed (it mixes records) and say so.
            self.summary.html_records -= record is not None
            yield from (e for e in held if type(e) is WarcError)
            yield self._error(
                f"Content-Length {head.length} runs past the record's end into the next record; "
                "this record and the records it covers are lost (the input cannot seek back)",
                start,
                rid,
                uri,
            )
        if not ok and not truncated:
            inp.find(_WARC_START)

    # -- one record -------------------------------------------------------------------------------

    def _process(self, head: _Head, raw: _Body, offset: int) -> _Proc:
        """Parse one record: yield its item (and error) entries, return its record entry (HTML only)."""
        s = self.summary
        s.records += 1
        rid = head.get("WARC-Record-ID")
        uri = head.get("WARC-Target-URI")
        date = head.get("WARC-Date")
        rtype = (head.get("WARC-Type") or "").lower()
        if rtype == "revisit":
            s.skipped_revisit += 1
            return None
        if rtype not in ("response", "resource"):
            s.skipped_other += 1
            return None
        emitted = 0
        parser: Parser | None = None
        essence: str | None = None
        status: int | None = None
        meta: dict[str, Any] | None = None
        option_encoding = self.options.get("encoding") is not None

        def record(end: DocumentEnd | None) -> WarcRecord:
            enc = parser.encoding if parser is not None else None
            source = parser.encoding_source if parser is not None else None
            if source == "transport" and option_encoding:
                source = "option"
            return WarcRecord(
                uri,
                rid,
                date,
                status,
                essence,
                rtype,
                enc,
                source,
                self.warc_file,
                offset,
                None,
                emitted,
                end.rels if end is not None else {},
                end.rel_urls if end is not None else {},
                meta,
            )

        try:
            if rtype == "response" and _is_http(head, uri):
                http = parse_http_head(_read_http_head(raw))
                status = http.status
                ctype = http.get("Content-Type")
                te = ",".join(http.get_all("Transfer-Encoding")).lower()
                chunked = "chunked" in [t.strip() for t in te.split(",")]
                coding = ",".join(http.get_all("Content-Encoding")) or None
            else:
                ctype = head.get("Content-Type")
                chunked = False
                coding = None
            essence, charset = media_type(ctype)
            if essence is not None and essence not in HTML_TYPES:
                s.skipped_non_html += 1
                return None
            decoder = BodyDecoder(
                chunked=chunked,
                content_encoding=coding,
                max_decoded_bytes=self.max_decoded_bytes,
                max_expansion=self.max_expansion,
            )
            pieces = _body_pieces(raw, decoder)
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
                    return None
                pieces = _chain(first, pieces)
        except (PayloadError, StreamMF2Error) as e:
            yield self._error(_one_line(e), offset, rid, uri)
            return None
        s.html_records += 1
        options = dict(self.options)
        if options.get("encoding") is None:
            options["encoding"] = charset
        types = self.types
        consumer = self.consumer
        top = 0  # index of the next top-level item
        try:
            parser = Parser(uri, **options)
            if consumer is not None:
                consumer.start()
            end: DocumentEnd | None = None
            for piece in _chain_end(pieces):
                events = parser.feed_events(piece) if piece is not None else parser.close_events()
                for ev in events:
                    if type(ev) is ItemEvent:
                        if ev.path:
                            base: Path = (ev.path[0], "children", *ev.path[1:])
                        else:
                            base = (top,)
                            top += 1
                        if types is None:
                            emitted += 1
                            yield WarcItem(
                                uri, rid, date, status, essence, ev.item, self.warc_file, offset, base,
                                ev.children_streamed,
                            )
                        else:
                            for path, found in _select(ev.item, base, types):
                                emitted += 1
                                yield WarcItem(uri, rid, date, status, essence, found, self.warc_file, offset, path)
                    elif type(ev) is MetaItemEvent:
                        meta = ev.item
                    elif type(ev) is DocumentEnd:
                        end = ev
                    elif consumer is not None:
                        for line in consumer.lines(ev):
                            yield WarcExtra(uri, rid, self.warc_file, offset, line)
            return record(end)
        except _FramingError as e:
            yield self._error(str(e), offset, rid, uri)
            yield record(None)
            raise _ReportedFramingError(str(e)) from None
        except (PayloadError, StreamMF2Error) as e:
            note = f" (after {emitted} items)" if emitted else ""
            rec = record(None)
            yield self._error(f"{_one_line(e)}{note}", offset, rid, uri)
            return rec


def _chain(first: list[bytes], rest: Iterator[bytes]) -> Iterator[bytes]:
    yield from first
    yield from rest


def _chain_end(pieces: Iterator[bytes]) -> Iterator[bytes | None]:
    """The pieces, then ``None`` for the end of the body."""
    yield from pieces
    yield None


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return text or type(e).__name__


def _open(source: str | os.PathLike[str] | IO[bytes]) -> tuple[IO[bytes], bool]:
    if isinstance(source, str | os.PathLike):
        try:
            return open(source, "rb"), True  # closed by the reader
        except (OSError, ValueError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise SourceError(f"cannot open {os.fspath(source)!r}: {reason}") from e
    return source, False


class _Window:
    """``length`` bytes of a file from where it stands: a record picked out by offset and length."""

    def __init__(self, f: IO[bytes], length: int) -> None:
        self._f = f
        self._left = length

    def read(self, n: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        data = self._f.read(self._left if n is None or n < 0 else min(n, self._left))
        self._left -= len(data)
        return data

    def seekable(self) -> bool:
        return False

    def tell(self) -> int:
        return self._f.tell()


class WarcReaderOptions(TypedDict, total=False):
    """The reader options of :func:`iter_warc`, :func:`aiter_warc` and :func:`iter_warc_parallel`.

    ``types`` (default ``None``: every item), ``warc_file`` (default: the path),
    ``max_decoded_bytes`` (default ``DEFAULT_MAX_DECODED_BYTES``) and
    ``max_expansion`` (default ``DEFAULT_MAX_EXPANSION``) and ``consumer`` (default
    ``None``: items only); see :func:`iter_warc`.
    """

    types: Sequence[str] | frozenset[str] | str | None
    warc_file: str | None
    max_decoded_bytes: int | None
    max_expansion: float | None
    consumer: RecordConsumer | None


class WarcOptions(ParseOptions, WarcReaderOptions, total=False):
    """Every keyword option of the WARC entry points: the reader's and the parser's."""


_PARSER_OPTIONS = frozenset(OPTION_NAMES)


def _check_options(options: WarcOptions, where: str) -> None:
    """The parser options among ``options`` are checked as every entry point checks them."""
    check_options({k: v for k, v in options.items() if k not in _READER_OPTIONS}, where)


#: Reader options a parallel reader passes on to its workers' readers.
_READER_OPTIONS = frozenset(WarcReaderOptions.__annotations__)


def _check_call(source: object, options: dict[str, Any], where: str, allowed: frozenset[str] = _PARSER_OPTIONS) -> None:
    """Refuse a wrong source or option name at call time, not when iteration starts."""
    if not isinstance(source, str | os.PathLike) and not callable(getattr(source, "read", None)):
        raise TypeError(f"{where}() takes a path (str or os.PathLike) or a binary file object, not {type(source).__name__}")
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise TypeError(
            f"{where}() got unknown option(s) {', '.join(unknown)}; parser options are {', '.join(sorted(_PARSER_OPTIONS))}"
        )


def _types_option(types: Sequence[str] | frozenset[str] | str | None) -> frozenset[str] | None:
    if types is None:
        return None
    if isinstance(types, str):
        types = types.split(",")
    found = frozenset(t.strip() for t in types if t.strip())
    return found or None


class WarcReader:
    """Iterate once over a WARC archive's entries; :attr:`summary` counts as it goes.

    Build it with :func:`iter_warc`.
    """

    def __init__(
        self,
        source: str | os.PathLike[str] | IO[bytes],
        *,
        offset: int | None = None,
        length: int | None = None,
        start: int | None = None,
        max_units: int | None = None,
        gzip: bool | None = None,
        warc_file: str | None = None,
        types: Sequence[str] | frozenset[str] | str | None = None,
        max_decoded_bytes: int | None = DEFAULT_MAX_DECODED_BYTES,
        max_expansion: float | None = DEFAULT_MAX_EXPANSION,
        consumer: RecordConsumer | None = None,
        **options: Any,
    ) -> None:
        _check_call(source, options, "iter_warc")
        if length is not None and length < 0:
            raise ValueError("length must be >= 0")
        self.summary = WarcSummary()
        self._gzip = gzip
        self._source = source
        self._start = start if offset is None else offset
        self._length = length
        self._max_units = max_units
        self._options = options
        self._used = False
        if warc_file is None and isinstance(source, str | os.PathLike):
            warc_file = os.fspath(source)
        self._warc_file = warc_file
        self._types = _types_option(types)
        self._max_decoded_bytes = max_decoded_bytes
        self._max_expansion = max_expansion
        self._consumer = consumer
        #: Where the unit being read starts (the resume point after the last complete one).
        self.position: int | None = None
        #: ``True`` for a gzip-compressed archive once known.
        self.gzip: bool | None = gzip

    def __iter__(self) -> Iterator[WarcEntry]:
        return (e for e in self.iter_with_positions() if not isinstance(e, int))

    def iter_with_positions(self) -> Iterator[WarcEntry | int]:
        """Entries, and the offset of each unit as it starts (see :class:`_Walker`): for resuming."""
        if self._used:
            raise StreamMF2Error("a WarcReader can be iterated only once")
        self._used = True
        return self._run()

    def _run(self) -> Iterator[WarcEntry | int]:
        f, owned = _open(self._source)
        t0 = time.perf_counter()
        try:
            if self._start is not None:
                try:
                    f.seek(self._start)
                except (OSError, ValueError) as e:
                    raise SourceError(f"cannot seek to offset {self._start}: {e}") from e
            stream: Any = f if self._length is None else _Window(f, self._length)
            walker = _Walker(
                stream,
                self.summary,
                self._options,
                max_units=self._max_units,
                gzip=self._gzip,
                warc_file=self._warc_file,
                types=self._types,
                max_decoded_bytes=self._max_decoded_bytes,
                max_expansion=self._max_expansion,
                consumer=self._consumer,
            )
            for entry in walker.walk():
                if isinstance(entry, int):
                    self.position = entry
                    self.gzip = walker.gzip
                yield entry
        finally:
            self.summary.seconds += time.perf_counter() - t0
            if owned:
                f.close()


def iter_warc(
    source: str | os.PathLike[str] | IO[bytes],
    *,
    offset: int | None = None,
    length: int | None = None,
    **options: Unpack[WarcOptions],
) -> WarcReader:
    """Items and records of every HTML record of a WARC archive (``.warc`` or ``.warc.gz``).

    ``source`` is a path (``str`` or ``os.PathLike``: an archive is never given
    as content) or a binary file object (a non-seekable stream works, with less
    recovery for damaged uncompressed archives); anything else, or an unknown
    option name, raises :class:`TypeError` at once. Iterating yields
    :class:`WarcItem`, :class:`WarcRecord` and :class:`WarcError` entries in
    archive order; ``reader.summary`` is final when iteration ends.

    Reader options: ``offset`` and ``length`` (read only that stretch of the
    file, as a CDX index gives one record), ``types`` (``"h-entry,h-card"`` or
    a set: yield only items of those types, found at any depth, each with its
    ``path``), ``warc_file`` (the name written in entries; default the path),
    ``max_decoded_bytes`` and ``max_expansion`` (the decompression cap of
    :class:`stream_mf2.io.payload.BodyDecoder`, defaults ``DEFAULT_MAX_DECODED_BYTES``
    and ``DEFAULT_MAX_EXPANSION``; ``None`` turns one off): one definition,
    :class:`WarcReaderOptions`, for the three WARC entry points. Every
    other option is a :class:`~stream_mf2.Parser` option (``stream_children``,
    ``metaformats``, …); an ``encoding`` option overrides every record's HTTP
    charset. ``consumer`` (a :class:`RecordConsumer`) turns the parser's other
    events (e.g. those of the ``wpt`` option) into :class:`WarcExtra` entries.
    """
    _check_options(options, "iter_warc")
    return WarcReader(source, offset=offset, length=length, **options)


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


def aiter_warc(
    source: str | os.PathLike[str] | IO[bytes],
    *,
    offset: int | None = None,
    length: int | None = None,
    **options: Unpack[WarcOptions],
) -> AsyncWarcReader:
    """Async version of :func:`iter_warc`: ``async for entry in aiter_warc(path): …``."""
    _check_options(options, "aiter_warc")
    return AsyncWarcReader(source, offset=offset, length=length, **options)


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
        _check_call(path, options, "iter_warc_parallel", _PARSER_OPTIONS | _READER_OPTIONS)
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
            head = self._head_errors()
            yield from head
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

    def _head_errors(self) -> list[WarcEntry]:
        """The error for a damaged head of the file, which no unit covers."""
        reader = WarcReader(self._path, max_units=0, **self._options)
        entries = list(reader)
        self.summary.add(reader.summary)
        self.summary.bytes_read -= reader.summary.bytes_read
        return entries

    def _collect(self, fut: Future[tuple[list[WarcEntry], WarcSummary]]) -> Iterator[WarcEntry]:
        entries, summary = fut.result()
        self.summary.add(summary)
        yield from entries


def iter_warc_parallel(
    path: str | os.PathLike[str],
    workers: int,
    *,
    batch_units: int = BATCH_UNITS,
    batch_bytes: int = BATCH_BYTES,
    **options: Unpack[WarcOptions],
) -> ParallelWarcReader:
    """Like :func:`iter_warc`, with ``workers`` processes; output order is archive order.

    Workers get runs of consecutive records, at most ``batch_units`` records or
    ``batch_bytes`` bytes each.
    """
    _check_options(options, "iter_warc_parallel")
    return ParallelWarcReader(path, workers, batch_units=batch_units, batch_bytes=batch_bytes, **options)
