"""Reading a WARC archive's bytes: gzip members, record framing, WARC and HTTP heads.

The pieces :class:`~stream_mf2.warc.walker.Walker` puts together; none of them
yields entries:

* :class:`Input`: the archive file with push-back, absolute offsets and forward
  scanning (:meth:`Input.find` for the next valid gzip member or record header);
  on a seekable file it looks ahead without moving (:meth:`Input.peek_at`,
  :meth:`Input.find_in`, :meth:`Input.next_record_from`); of a non-seekable one it
  keeps the compressed bytes of the member being read (at most ``MAX_REPLAY``),
  so that the scan after a damaged member starts inside it.
* :class:`Member`: one gzip member, decompressed step by step with :mod:`zlib`;
  a bad or truncated member raises :class:`FramingError`.
* :func:`read_head`: a WARC record's header block, bounded (``MAX_WARC_HEADER``);
  parsed in one pass when it is wholly in the buffer and every line is a plain
  field line, read line by line otherwise (which is what reports damage).
  A field name must be a token: a control byte in one is damage, reported.
  So are two different values of a field a record has once (two records'
  header blocks run together, the bytes between them lost), and a header line
  that ends in the next record's ``WARC/1.x`` line (bytes lost inside it).
* :class:`Body`: a record's block, counted; on a non-seekable stream it watches
  for a record header in the block whose record the block's end cuts through
  (:func:`cuts_record`).
* :func:`read_http_head` (bounded) and :func:`body_pieces`: a ``response``
  record's HTTP head, then its body de-chunked and decoded step by step by
  :class:`stream_mf2.io.payload.BodyDecoder`, so no record is ever held whole in memory.
"""

from __future__ import annotations

import contextlib
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Final

from stream_mf2.errors import SourceError
from stream_mf2.io.payload import MAX_HTTP_HEADER, BodyDecoder, PayloadError
from stream_mf2.warc.entries import WarcSummary

#: Bytes read from the archive at a time.
READ_SIZE = 64 * 1024
#: Compressed bytes a gzip member is inflated from at a time. Smaller than what a call may give
#: out (READ_SIZE): at the usual ratios (4 to 6) a call then takes all of them, where 64 KiB left
#: zlib to copy the bytes it had not taken into ``unconsumed_tail`` again and again; and a
#: member's end gives fewer bytes back to the archive's buffer.
INFLATE_READ = 16 * 1024
#: Largest block of WARC record headers accepted.
MAX_WARC_HEADER = 64 * 1024
#: Compressed bytes of a gzip member kept from a non-seekable input, so that the scan for the
#: next member after a damaged one starts inside it (a stray gzip magic swallows what follows).
MAX_REPLAY = 4 * 1024 * 1024

GZIP_MAGIC = b"\x1f\x8b\x08"
WARC_MAGIC = b"WARC/1."
_WARC_LINE_RE = re.compile(rb"WARC/1\.\d\r?\n\Z")
#: An HTTP/WARC field name (RFC 9110 token).
_TOKEN_RE = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
CRLF_CRLF = b"\r\n\r\n"
#: What a record swallowing the next one looks like inside its block.
NEXT_RECORD = b"\r\n\r\nWARC/1."


class FramingError(Exception):
    """The archive's framing (gzip member, record boundary) is damaged: resynchronise."""


class ReportedFramingError(FramingError):
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

    def head_block(self, limit: int, first_line: bool) -> int:
        """Where the first blank line (``\r\n`` or ``\n``) of what follows ends, when it is held.

        A blank line is looked for in the next ``limit`` bytes, after the first line when
        ``first_line`` (a record's ``WARC/1.x`` line), or from the first byte. The answer is
        the number of bytes up to and including it, or ``0`` when it is not (yet) in the
        buffer: the caller then reads line by line. Nothing is consumed; when the buffer is
        empty, it is filled once, as :meth:`readline` would.
        """
        if self._i >= len(self._buf):
            more = self._fill(READ_SIZE)
            if not more:
                return 0
            self._extend(more)
        buf = self._buf
        i = self._i
        end = min(len(buf), i + limit)
        if first_line:
            at = buf.find(b"\n", i, end)
            if at < 0:
                return 0
        elif buf.startswith(b"\n", i):
            return 1
        elif buf.startswith(b"\r\n", i) and end - i >= 2:
            return 2
        else:
            at = i
        # The blank line after a line: "\n\r\n" or "\n\n", whichever comes first.
        crlf = buf.find(b"\n\r\n", at, end)
        lf = buf.find(b"\n\n", at, crlf + 2 if crlf >= 0 else end)
        if lf >= 0:
            return lf + 2 - i
        if crlf >= 0:
            return crlf + 3 - i
        return 0

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


class Input(_Buffered):
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
        found = self.find(((WARC_MAGIC, _valid_warc_start),)) is not None
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

    def find(self, targets: Sequence[tuple[bytes, Callable[[Input], bool]]]) -> bytes | None:
        """Skip to the first occurrence of a target's magic that its check accepts; ``None`` at EOF."""
        keep = max(len(m) for m, _ in targets) - 1
        while True:
            best = -1
            hit: tuple[bytes, Callable[[Input], bool]] | None = None
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


def valid_gzip_start(inp: Input) -> bool:
    head = inp.peek(READ_SIZE)
    try:
        out = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 16)
    except zlib.error:
        return False
    return out.startswith(b"WARC/")


def _valid_warc_start(inp: Input) -> bool:
    line = inp.peek(len(WARC_MAGIC) + 3)
    return line[len(WARC_MAGIC) : len(WARC_MAGIC) + 1].isdigit() and line.find(b"\n", len(WARC_MAGIC)) > 0


_CONTENT_LENGTH_RE = re.compile(rb"(?im)^content-length[ \t]*:[ \t]*(\d+)[ \t]*\r?$")


def cuts_record(head: bytes, room: int) -> bool:
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


ANY_START = ((GZIP_MAGIC, valid_gzip_start), (WARC_MAGIC, _valid_warc_start))
WARC_START = ((WARC_MAGIC, _valid_warc_start),)
GZIP_START = ((GZIP_MAGIC, valid_gzip_start),)


class Member(_Buffered):
    """The decompressed bytes of one gzip member, with line reading."""

    def __init__(self, inp: Input) -> None:
        super().__init__()
        self._inp = inp
        self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._tail = b""
        self.done = False

    def _fill(self, n: int) -> bytes:
        while not self.done:
            data = self._tail or self._inp.read(INFLATE_READ)
            if not data:
                raise FramingError("truncated gzip member (file ends inside it)")
            try:
                out = self._obj.decompress(data, n)
            except zlib.error as e:
                # Give the bytes back so the scan for the next member starts inside this chunk.
                self._inp.unread(data)
                self.done = True
                raise FramingError(f"corrupt gzip member: {e}") from None
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


class Head:
    """A WARC record's header block."""

    __slots__ = ("headers", "length")

    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers
        cl = headers.get("content-length", "")
        self.length: int | None = int(cl) if cl.isascii() and cl.isdigit() else None

    def get(self, name: str) -> str | None:
        return self.headers.get(name.lower())


class BadHead(Exception):
    """A damaged record header block; ``raw`` holds the bytes read for it."""

    def __init__(self, message: str, raw: bytes) -> None:
        super().__init__(message)
        self.raw = raw


#: A header block's field lines (after the ``WARC/1.x`` line) when every one is a plain
#: ``name: value`` line (no folded line, no control byte in a name): the fast path of :func:`read_head`.
_FIELD_RE = re.compile(rb"([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*:([^\n]*)\n")


def _fast_head(block: bytes, first: int) -> dict[str, str] | None:
    """The fields of a whole header block held in memory (``block[first:]``: its field lines
    and its blank line), or ``None`` when a line is not a plain field line or the block has
    something the line-by-line reading reports (a repeated field, a ``WARC/1.`` in a line):
    :func:`read_head` then reads it line by line. Same fields, same order as that reading."""
    if block.find(b"WARC/1.", first) >= 0:
        return None
    headers: dict[str, str] = {}
    pos = first
    blank = len(block) - (2 if block.endswith(b"\r\n") else 1)
    for m in _FIELD_RE.finditer(block, first, blank):
        if m.start() != pos:
            return None
        pos = m.end()
        key = m.group(1).decode("ascii").lower()
        if key in headers:
            return None
        # (bytes.strip: ASCII whitespace only, as the line-by-line reading strips)
        headers[key] = m.group(2).strip().decode("utf-8", "replace")
    if pos != blank:
        return None
    return headers


def read_head(stream: _Buffered) -> Head | None:
    """Read one record's header block; ``None`` at the end of the stream.

    A block wholly in ``stream``'s buffer, of plain field lines, is parsed at once
    (:func:`_fast_head`); anything else is read line by line, which also reports damage.
    """
    n = stream.head_block(MAX_WARC_HEADER, True)
    if n:
        block = stream.peek(n)
        first = block.find(b"\n") + 1
        if _WARC_LINE_RE.match(block, 0, first) is not None:
            headers = _fast_head(block, first)
            if headers is not None:
                stream.read(n)
                return Head(headers)
    return _read_head_lines(stream.readline)


def _read_head_lines(readline: Callable[[int], bytes]) -> Head | None:
    """Read one record's header block line by line; ``None`` at the end of the stream."""
    line = readline(MAX_WARC_HEADER)
    if not line:
        return None
    raw = [line]
    if not _WARC_LINE_RE.match(line):
        raise BadHead(f"not a WARC record header: {line[:40]!r}", line)
    size = len(line)
    headers: dict[str, str] = {}
    last: str | None = None
    while True:
        line = readline(MAX_WARC_HEADER)
        raw.append(line)
        size += len(line)
        if not line or not line.endswith(b"\n"):
            if size > MAX_WARC_HEADER:
                raise BadHead("WARC record header too long", b"".join(raw))
            raise BadHead("WARC record header truncated", b"".join(raw))
        if size > MAX_WARC_HEADER:
            raise BadHead("WARC record header too long", b"".join(raw))
        if line in (b"\r\n", b"\n"):
            return Head(headers)
        if b"WARC/1." in line[-12:] and _WARC_LINE_RE.search(line):
            # The next record's version line run into this header line ("Content-Length:WARC/1.0"):
            # bytes were lost here. Reading on would take the next record's header block for
            # this one's and lose that record; the scan from this record's start finds it.
            raise BadHead("WARC record header runs into the next record's header", b"".join(raw))
        if line[0] in (9, 32) and last is not None:
            headers[last] += " " + line.strip().decode("utf-8", "replace")  # folded line
            continue
        name, sep, value = line.partition(b":")
        name = name.rstrip(b" \t")
        # A field name is a token (WARC 1.1, section 4): a control byte in it (a stray CR
        # before "Content-Length") is damage to report, not something to strip away.
        if not sep or _TOKEN_RE.fullmatch(name) is None:
            raise BadHead(f"bad WARC header line {line[:40]!r}", b"".join(raw))
        key = name.decode("ascii").lower()
        text = value.strip().decode("utf-8", "replace")
        if key not in headers:
            headers[key] = text
            last = key
        elif key in _SINGLE_FIELDS and headers[key] != text:
            # Two values for a field a record has once: two records' header blocks run
            # together (the bytes between them lost), so this head is neither record's.
            raise BadHead(f"WARC header field {name.decode('ascii')!r} given twice", b"".join(raw))
        else:
            last = None


class Body:
    """A record's block: at most ``length`` bytes of a stream, counted; watches for a swallowed record."""

    def __init__(self, stream: Input | Member, length: int, *, watch: bool = False) -> None:
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
            i = window.find(NEXT_RECORD)
            while i >= 0:
                self.swallowed = True
                if self._capture is None and not self._cut:
                    # (a capture still open here ends at this candidate's CRLF CRLF: one at a time)
                    self._capture = bytearray(window[i + len(CRLF_CRLF) :])
                    self._capture_at = base + i + len(CRLF_CRLF)
                    self._check(0)
                i = window.find(NEXT_RECORD, i + 1)
            self._tail = window[-(len(NEXT_RECORD) - 1) :]
        return data

    def _check(self, seen: int) -> None:
        """Judge the candidate header once its end (or the size limit) is in; ``seen``:
        bytes of it already searched for the end (searched again from 3 before them only)."""
        capture = self._capture
        assert capture is not None
        if capture.find(CRLF_CRLF, max(0, seen - len(CRLF_CRLF) + 1)) >= 0 or len(capture) >= MAX_WARC_HEADER:
            self._capture = None
            if cuts_record(bytes(capture[:MAX_WARC_HEADER]), self.length - self._capture_at):
                self._cut = True

    @property
    def runs_into_record(self) -> bool:
        """Once the block is read (``watch`` only): does a record header in it start a record
        its end cuts through (see :func:`cuts_record`)? A header still open at the block's
        end ends with the CRLF CRLF that follows the block."""
        capture = self._capture
        if capture is not None and not self._cut:
            return cuts_record(bytes(capture) + CRLF_CRLF, len(capture))
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

    def head_block(self, limit: int) -> int:
        """:meth:`_Buffered.head_block` (from the first byte) within the block's bytes left."""
        left = self.length - self.count
        if left <= 0:
            return 0
        return self._s.head_block(min(limit, left), False)

    def skip(self) -> None:
        """Read to the end of the block (or of the stream)."""
        while self.read(READ_SIZE):
            pass


def skip_blank_lines(stream: Input | Member) -> None:
    """Blank lines between records are tolerated (some writers add more than the two required)."""
    while True:
        p = stream.peek(2)
        if p != b"\r\n" and p[:1] != b"\n":
            return
        stream.readline(2)


def read_http_head(raw: Body) -> bytes:
    """A response's HTTP head (status and header lines, without the blank line that ends it)."""
    n = raw.head_block(MAX_HTTP_HEADER)
    if n:
        block = raw.read(n)
        return block[: -2 if block.endswith(b"\r\n") else -1]
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


def is_http(head: Head, uri: str | None) -> bool:
    ctype = (head.get("Content-Type") or "").lower()
    if ctype.startswith("application/http"):
        return True
    return uri is not None and uri.lower().startswith(("http:", "https:"))


def body_pieces(raw: Body, body: BodyDecoder) -> Iterator[bytes]:
    while True:
        data = raw.read(READ_SIZE)
        if not data:
            break
        yield from body.feed(data)
    if raw.count < raw.length:
        raise PayloadError(f"record truncated: {raw.count} of {raw.length} bytes")
    yield from body.finish()
