"""The record walker: an archive's units, framed, resynchronised and parsed into entries.

:class:`Walker` is shared by the sync, async and parallel readers
(:mod:`stream_mf2.warc.reader`, :mod:`stream_mf2.warc.parallel`); it reads the
archive through :mod:`stream_mf2.warc.framing`. Layers, and who does what:

* gzip members (``.warc.gz``): decompressed member by member
  (:class:`~stream_mf2.warc.framing.Member`). A bad or truncated member becomes a
  :class:`~stream_mf2.warc.entries.WarcError` and
  reading resumes at the next valid member. Whether a file is compressed is
  decided from its first bytes; when they are neither a gzip member nor a
  ``WARC/1.x`` line (a damaged head), that is reported and reading starts at
  the first valid member or record header, whichever comes first. A head
  that looks plain but is followed by gzip members of WARC records (a stray
  ``WARC/1.x`` line before the first member) is read as ``.warc.gz`` from the
  first member on: a valid member where a record should start, or found by the
  scan after a damaged head before any record was framed, switches the reader.
* WARC records: framed here. A record must have a ``Content-Length`` and its
  block must be followed by ``\\r\\n\\r\\n``; otherwise the record is reported,
  as is a damaged header block (:func:`~stream_mf2.warc.framing.read_head`).
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
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import replace
from typing import IO, Any, TypeAlias

from stream_mf2.core.parser import Parser
from stream_mf2.core.syntax_results import SyntaxResults, syntax_of
from stream_mf2.errors import StreamMF2Error
from stream_mf2.events import DocumentEnd, ItemEvent, MetaItemEvent
from stream_mf2.io.payload import (
    DEFAULT_MAX_DECODED_BYTES,
    DEFAULT_MAX_EXPANSION,
    HTML_TYPES,
    BodyDecoder,
    PayloadError,
    media_type,
    parse_http_head,
    sniff_html,
)
from stream_mf2.warc.entries import (
    Path,
    RecordConsumer,
    WarcEntry,
    WarcError,
    WarcExtra,
    WarcItem,
    WarcRecord,
    WarcSummary,
)
from stream_mf2.warc.framing import (
    ANY_START,
    CRLF_CRLF,
    GZIP_MAGIC,
    GZIP_START,
    MAX_WARC_HEADER,
    NEXT_RECORD,
    READ_SIZE,
    WARC_MAGIC,
    WARC_START,
    BadHead,
    Body,
    FramingError,
    Head,
    Input,
    Member,
    ReportedFramingError,
    body_pieces,
    cuts_record,
    is_http,
    read_head,
    read_http_head,
    skip_blank_lines,
    valid_gzip_start,
)
from stream_mf2.warc.prefilter import DEFAULT_MAX_PREFILTER_BYTES, Prefilter

#: Decoded bytes buffered to sniff a body without a Content-Type.
SNIFF_SIZE = 512


def select_types(item: dict[str, Any], path: Path, types: frozenset[str]) -> Iterator[tuple[Path, dict[str, Any]]]:
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


class Walker:
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
        prefilter: bool = False,
        max_prefilter_bytes: int | None = DEFAULT_MAX_PREFILTER_BYTES,
    ) -> None:
        self.inp = Input(f, summary)
        self.prefilter = prefilter
        self.max_prefilter_bytes = max_prefilter_bytes
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
        #: the syntaxes other than mf2 (``syntaxes=``): their results are item lines too
        self.syntaxes = frozenset(options.get("syntaxes", ())) - {"mf2"}
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
            first = self.inp.peek(len(WARC_MAGIC))
            if not first:
                self.gzip = False
            elif first[:3] == GZIP_MAGIC and valid_gzip_start(self.inp):
                self.gzip = True  # (a damaged first member is a damaged head: scanned past below)
            elif first.startswith(WARC_MAGIC):
                self.gzip = False
            else:
                # A damaged head: start at the first member or record, whichever comes first.
                start = self.inp.tell()
                found = self.inp.find(ANY_START)
                skipped = self.inp.tell() - start
                if not self.index_only:
                    what = "no WARC record or gzip member found" if found is None else f"{skipped} bytes skipped"
                    yield self._error(f"not a WARC record or gzip member at the start of the file: {what}", start)
                if found is None:
                    return
                self.gzip = found == GZIP_MAGIC
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
            if inp.peek(3) != GZIP_MAGIC:
                if not self.index_only:
                    yield self._error("not a gzip member: garbage between records", start)
                if not self._more_units() or inp.find(GZIP_START) is None:
                    return
                continue
            member = Member(inp)
            inp.mark()
            try:
                if self.index_only:
                    member.drain()
                else:
                    yield from self._member_records(member, start)
                    member.drain()
            except FramingError as e:
                if not self.index_only and not isinstance(e, ReportedFramingError):
                    yield self._error(str(e), start)
                # Scan again from just past this member's magic: a stray magic before a good member
                # (or damage that made zlib read on) must not cost the members it ran into.
                inp.back_to_mark()
                if not self._more_units() or inp.find(GZIP_START) is None:
                    return
                continue
            inp.mark_done()

    def _member_records(self, member: Member, start: int) -> Iterator[WarcEntry]:
        while True:
            try:
                head = read_head(member)
            except BadHead as e:
                yield self._error(f"bad WARC record: {e}", start)
                return
            if head is None:
                return
            rid, uri = head.get("WARC-Record-ID"), head.get("WARC-Target-URI")
            if head.length is None:
                yield self._error("record without a valid Content-Length", start, rid, uri)
                return
            body = Body(member, head.length)
            record = yield from self._process(head, body, start)
            try:
                done = yield from self._member_record_end(member, body, record, start, rid, uri)
            except FramingError as e:
                if isinstance(e, ReportedFramingError):
                    raise
                yield self._error(str(e), start, rid, uri)
                if record is not None:
                    yield record
                raise ReportedFramingError(str(e)) from None
            if done:
                return

    def _member_record_end(
        self, member: Member, body: Body, record: WarcRecord | None, start: int, rid: str | None, uri: str | None
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
        while len(end) < 4 and end == CRLF_CRLF[: len(end)]:
            more = member.read(4 - len(end))
            if not more:
                break
            end += more
        bad_end = end != CRLF_CRLF
        if not bad_end:
            skip_blank_lines(member)
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
            skip_blank_lines(inp)
            if not inp.peek(1):
                return
            if inp.peek(len(GZIP_MAGIC)) == GZIP_MAGIC and valid_gzip_start(inp):
                # A gzip member of WARC records where a record should start: the file is a
                # .warc.gz whose head held plain junk (a stray "WARC/1.x" line); read it as one.
                self.gzip = True
                yield from self._walk_gzip()
                return
            start = inp.tell()
            self.units += 1
            yield start
            try:
                head = read_head(inp)
            except BadHead as e:
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

    def _plain_resync(self) -> Sequence[tuple[bytes, Callable[[Input], bool]]]:
        """What a scan after a damaged record of a plain file looks for.

        Until one record has been framed, the file may still turn out to be a
        ``.warc.gz`` with plain junk before its first member (a stray ``WARC/1.x``
        line): a gzip member of WARC records counts then too. After that only a
        record header does (a record's block may hold a compressed archive).
        """
        return WARC_START if self._framed else ANY_START

    def _good_end(self, at: int) -> bool | None:
        """Is the block ending at ``at`` followed by ``\r\n\r\n``? ``None``: the file ends before ``at``.

        What follows is the next unit's business: a damaged header there is reported there.
        """
        tail = self.inp.peek_at(at, len(CRLF_CRLF))
        if not tail and self.inp.peek_at(at - 1, 1) == b"" and at > 0:
            return None
        return tail == CRLF_CRLF

    def _record_inside(self, start: int, end: int) -> int | None:
        """Offset of a record header after CRLF CRLF in the block ``[start, end)`` whose record
        the block's end cuts through (see :func:`cuts_record`); ``None``: there is none."""
        inp = self.inp
        pos = start
        while True:
            at = inp.find_in(NEXT_RECORD, pos, end)
            if at is None:
                return None
            header = at + len(CRLF_CRLF)
            # Read up to the header's end, growing: the next candidate's CRLF CRLF ends it at
            # the latest, so the reads of all candidates together stay linear in the block.
            n = 512
            while True:
                data = inp.peek_at(header, n)
                if CRLF_CRLF in data or len(data) < n or n >= MAX_WARC_HEADER:
                    break
                n = min(n * 4, MAX_WARC_HEADER)
            if cuts_record(data, end - header):
                return header
            pos = at + 1

    def _plain_seekable(self, head: Head, start: int, body_start: int) -> Iterator[WarcEntry]:
        """One record of a seekable file: its end is checked before it is parsed."""
        inp = self.inp
        length = head.length
        assert length is not None
        problem: str | None = None
        good = self._good_end(body_start + length)
        inside = self._record_inside(body_start, body_start + length) if good else None
        if good and inside is None:
            nxt: int | None = body_start + length + len(CRLF_CRLF)
        elif inside is not None:
            # The end is followed by CRLF CRLF, but the block runs into the next record
            # (a Content-Length grown up to a CRLF CRLF inside it): cut it there.
            nxt = inside
            length = nxt - len(CRLF_CRLF) - body_start
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
            if nxt is not None and (good is None or nxt < body_start + length + len(CRLF_CRLF)):
                # The block runs into the next record: cut it there, the next record is read whole.
                cut = nxt - body_start
                if inp.peek_at(nxt - len(CRLF_CRLF), len(CRLF_CRLF)) == CRLF_CRLF:
                    cut -= len(CRLF_CRLF)
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
            body = Body(inp, length)
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

    def _plain_stream(self, head: Head, start: int) -> Iterator[WarcEntry]:
        """One record of a stream: its entries are held until its end is verified."""
        inp = self.inp
        assert head.length is not None
        rid, uri = head.get("WARC-Record-ID"), head.get("WARC-Target-URI")
        body = Body(inp, head.length, watch=True)
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
        ok = not truncated and inp.peek(len(CRLF_CRLF)) == CRLF_CRLF
        if ok:
            inp.read(len(CRLF_CRLF))
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
            self.summary.unparsed -= record is not None and not record.parsed
            yield from (e for e in held if type(e) is WarcError)
            yield self._error(
                f"Content-Length {head.length} runs past the record's end into the next record; "
                "this record and the records it covers are lost (the input cannot seek back)",
                start,
                rid,
                uri,
            )
        if not ok and not truncated:
            inp.find(WARC_START)

    # -- one record -------------------------------------------------------------------------------

    def _process(self, head: Head, raw: Body, offset: int) -> _Proc:
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
            # Not parsed: the prefilter found no root class name, or the body failed before it decided.
            parsed = parser is not None
            if not parsed:
                s.unparsed += 1
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
                end.notes if end is not None else (),
                parsed,
            )

        try:
            if rtype == "response" and is_http(head, uri):
                http = parse_http_head(read_http_head(raw))
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
            pieces = body_pieces(raw, decoder)
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
            if self.prefilter:
                # Hold the body until it may hold a root class name; none: not parsed at all.
                pf = Prefilter(metaformats=bool(options.get("metaformats")), max_bytes=self.max_prefilter_bytes)
                for chunk in pieces:
                    if pf.feed(chunk):
                        break
                if not pf.finish():
                    return record(None)
                pieces = _chain([pf.held], pieces)
            parser = Parser(uri, **options)
            results = SyntaxResults(self.syntaxes) if self.syntaxes else None
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
                                uri,
                                rid,
                                date,
                                status,
                                essence,
                                ev.item,
                                self.warc_file,
                                offset,
                                base,
                                ev.children_streamed,
                            )
                        else:
                            for path, found in select_types(ev.item, base, types):
                                emitted += 1
                                yield WarcItem(uri, rid, date, status, essence, found, self.warc_file, offset, path)
                    elif type(ev) is MetaItemEvent:
                        meta = ev.item
                    elif type(ev) is DocumentEnd:
                        end = ev
                        for name, index, entry in results.finish() if results is not None else ():
                            emitted += 1
                            yield self._syntax_item(uri, rid, date, status, essence, offset, name, index, entry)
                    elif results is not None and syntax_of(ev) is not None:
                        for name, index, entry in results.add(ev):
                            emitted += 1
                            yield self._syntax_item(uri, rid, date, status, essence, offset, name, index, entry)
                    elif consumer is not None:
                        for line in consumer.lines(ev):
                            yield WarcExtra(uri, rid, self.warc_file, offset, line)
            return record(end)
        except FramingError as e:
            yield self._error(str(e), offset, rid, uri)
            yield record(None)
            raise ReportedFramingError(str(e)) from None
        except (PayloadError, StreamMF2Error) as e:
            note = f" (after {emitted} items)" if emitted else ""
            rec = record(None)
            yield self._error(f"{_one_line(e)}{note}", offset, rid, uri)
            return rec

    def _syntax_item(
        self,
        uri: str | None,
        rid: str | None,
        date: str | None,
        status: int | None,
        essence: str | None,
        offset: int,
        name: str,
        index: int,
        entry: Any,
    ) -> WarcItem:
        """The item entry of one entry of another syntax's results (its ``path``: its index in them)."""
        return WarcItem(uri, rid, date, status, essence, entry, self.warc_file, offset, (index,), syntax=name)


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
