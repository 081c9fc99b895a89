"""Damaged WARC archives: written with warcio, then bytes flipped, inserted, deleted or cut.

:func:`check_archive` checks, for one archive and one list of damage operations:

* the undamaged archive gives every HTML record's items (exactly those of
  ``stream_mf2.parse`` of its body) and no error;
* after the damage, every *good* record (bytes untouched, or a gzip member that
  still inflates to the same record) gives exactly its items, attributed to it,
  and no error names it;
* every record whose damage is detectable is reported by a :class:`WarcError`
  (naming its record id, or with an offset inside its damaged bytes):
  a gzip member that no longer inflates, a plain record whose length changed,
  a plain record whose ``WARC/1.x`` line or ``Content-Length`` line changed,
  a record cut by the end of the file.

Damage in a plain record's payload or other header values cannot be detected
(WARC readers do not check digests here); such a record may give other items,
but never under a good record's id.
"""

from __future__ import annotations

import gzip
import io
import re
import zlib
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from warcio.warcwriter import WARCWriter

import stream_mf2
from stream_mf2 import WarcError, WarcItem
from stream_mf2.errors import StreamMF2Error

from .inputs import tag_soup
from .invariants import Finding, _origin


@dataclass(frozen=True)
class Record:
    rtype: str
    uri: str
    block: bytes
    ctype: str
    html: bytes | None = None  # the HTML body of an HTML record
    charset: str | None = None  # its transport charset


@dataclass(frozen=True)
class Damage:
    kind: str  # "flip", "insert", "delete", "truncate"
    record: int
    offset: int  # in the record's bytes (0 with "insert": junk before the record)
    arg: bytes | int = b""  # inserted bytes, deleted length, flipped bit


def _http(body: bytes, headers: list[tuple[str, str]]) -> bytes:
    head = [b"HTTP/1.1 200 OK"] + [f"{k}: {v}".encode() for k, v in headers]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


@st.composite
def records(draw: st.DrawFn) -> list[Record]:
    """A warcinfo record, then 2 to 6 records: HTML responses (some gzip-encoded, some
    with a drawn soup body), a request, a revisit, a non-HTML response, an HTML resource."""
    out = [Record("warcinfo", "", b"software: fuzz\r\n", "application/warc-fields")]
    for i in range(draw(st.integers(2, 6))):
        uri = f"http://a.example/r{i}"
        kind = draw(st.sampled_from(("html", "html", "html", "soup", "gzip", "request", "revisit", "png", "resource")))
        page = (
            f'<!doctype html><title>r{i}</title><link rel=me href="/me{i}">'
            f'<div class="h-entry"><a class="p-name u-url" href="/e{i}">entry {i}</a></div>'
            f'<p class="h-card">card {i}</p>'
        ).encode()
        if kind == "soup":
            page = draw(tag_soup(max_pieces=30)).encode("utf-8", "surrogatepass")
        html_type = [("Content-Type", "text/html; charset=utf-8")]
        if kind in ("html", "soup"):
            block = _http(page, html_type)
            out.append(Record("response", uri, block, "application/http; msgtype=response", page, "utf-8"))
        elif kind == "gzip":
            body = gzip.compress(page, mtime=0)
            block = _http(body, [*html_type, ("Content-Encoding", "gzip")])
            out.append(Record("response", uri, block, "application/http; msgtype=response", page, "utf-8"))
        elif kind == "request":
            block = f"GET /r{i} HTTP/1.1\r\nHost: a.example\r\n\r\n".encode()
            out.append(Record("request", uri, block, "application/http; msgtype=request"))
        elif kind == "revisit":
            out.append(Record("revisit", uri, _http(b"", html_type), "application/http; msgtype=response"))
        elif kind == "png":
            block = _http(b"\x89PNG\r\n\x1a\n" + bytes(64), [("Content-Type", "image/png")])
            out.append(Record("response", uri, block, "application/http; msgtype=response"))
        else:
            out.append(Record("resource", uri, page, "text/html", page))
    return out


def record_id(i: int) -> str:
    return f"<urn:uuid:00000000-0000-4000-8000-{i:012d}>"


def write(recs: list[Record], compress: bool) -> list[bytes]:
    """Each record's bytes as warcio writes it (one gzip member per record when compressing)."""
    out = []
    for i, rec in enumerate(recs):
        buf = io.BytesIO()
        writer = WARCWriter(buf, gzip=compress)
        headers = {"WARC-Record-ID": record_id(i), "WARC-Date": "2026-01-01T00:00:00Z"}
        record = writer.create_warc_record(
            rec.uri, rec.rtype, payload=io.BytesIO(rec.block), warc_content_type=rec.ctype, warc_headers_dict=headers
        )
        writer.write_record(record)
        out.append(buf.getvalue())
    return out


@st.composite
def damages(draw: st.DrawFn, sizes: list[int]) -> list[Damage]:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        rec = draw(st.integers(0, len(sizes) - 1))
        size = sizes[rec]
        kind = draw(st.sampled_from(("flip", "flip", "insert", "delete", "truncate")))
        offset = draw(st.integers(0, size - 1))
        if kind == "flip":
            out.append(Damage(kind, rec, offset, draw(st.integers(0, 7))))
        elif kind == "insert":
            junk = draw(st.one_of(st.binary(min_size=1, max_size=8), st.sampled_from((b"WARC/1.0\r\n", b"\x1f\x8b\x08"))))
            out.append(Damage(kind, rec, offset, junk))
        elif kind == "delete":
            out.append(Damage(kind, rec, offset, draw(st.integers(1, 40))))
        else:
            out.append(Damage(kind, rec, offset))
    return out


def apply(parts: list[bytes], ops: list[Damage]) -> tuple[list[bytes], list[bytes], int | None]:
    """The damaged bytes of each record, the junk inserted before each, and the record the
    file is cut in (``None``: not cut). Offsets are in the undamaged record's bytes."""
    damaged = [bytearray(p) for p in parts]
    before = [b""] * len(parts)
    cut: tuple[int, int] | None = None
    # from the highest offset down, so earlier offsets stay valid
    for op in sorted(ops, key=lambda o: (o.record, o.offset), reverse=True):
        buf = damaged[op.record]
        if op.kind == "truncate":
            if cut is None or (op.record, op.offset) < cut:
                cut = (op.record, op.offset)
        elif op.kind == "flip":
            assert isinstance(op.arg, int)
            buf[op.offset] ^= 1 << op.arg
        elif op.kind == "insert":
            assert isinstance(op.arg, bytes)
            if op.offset == 0:
                before[op.record] = op.arg + before[op.record]
            else:
                buf[op.offset : op.offset] = op.arg
        else:
            assert isinstance(op.arg, int)
            del buf[op.offset : op.offset + op.arg]
    out = [bytes(b) for b in damaged]
    if cut is None:
        return out, before, None
    rec, offset = cut
    # the cut offset is in the undamaged bytes: move it by what was inserted or deleted before it
    for op in ops:
        if op.record == rec and op.offset < offset:
            if op.kind == "insert" and op.offset > 0:  # (at 0 it goes before the record)
                assert isinstance(op.arg, bytes)
                offset += len(op.arg)
            elif op.kind == "delete":
                assert isinstance(op.arg, int)
                offset -= min(op.arg, offset - op.offset)
    if offset >= len(out[rec]):  # nothing is left to cut (deleted bytes took its place)
        return out, before, None
    if offset == 0:  # cut right before the record: it is gone whole, nothing of it to report
        return out[:rec], before[:rec], None
    out[rec] = out[rec][:offset]
    return out[: rec + 1], before[: rec + 1], rec


def _same_member(original: bytes, damaged: bytes) -> bool:
    """Does the damaged gzip member still inflate to exactly the original record (one member)?"""
    try:
        d = zlib.decompressobj(wbits=31)
        data = d.decompress(damaged) + d.flush()
    except zlib.error:
        return False
    return d.eof and not d.unused_data and data == gzip.decompress(original)


def _header_lines(record: bytes) -> tuple[bytes, bytes | int]:
    """A plain record's ``WARC/1.x`` line and ``Content-Length`` value (what framing reads).

    Lines end at LF, as every reader takes them: junk inserted between the CR and LF
    of another header line only changes that line's value (undetectable), not these;
    neither does blank space around the Content-Length value or before its colon, or a
    leading zero in it (the same number)."""
    head = record.split(b"\r\n\r\n", 1)[0]
    lines = [line.removesuffix(b"\r") for line in head.split(b"\n")]
    length = next((line for line in lines if re.match(rb"(?i)content-length[ \t]*:", line)), b":")
    value = length.partition(b":")[2].strip()
    # any WARC/1.x version line frames a record: a flipped version digit is undetectable
    version = b"WARC/1.x" if re.fullmatch(rb"WARC/1\.\d", lines[0]) else lines[0]
    return version, int(value) if value.isdigit() else value


def _boundary_intact(record: bytes) -> bool:
    """Whether a plain record (and what follows it) still reads as framed: its header block
    ends, a Content-Length is there, and CRLF CRLF follows that many bytes of block."""
    head, sep, _ = record.partition(b"\r\n\r\n")
    match = re.search(rb"(?im)^content-length:\s*(\d+)\s*$", head)
    if not sep or match is None:
        return False
    end = len(head) + 4 + int(match.group(1))
    return record[end : end + 4] == b"\r\n\r\n"


def read(data: bytes) -> list[Any]:
    return list(stream_mf2.iter_warc(io.BytesIO(data)))


def check_archive(recs: list[Record], compress: bool, ops: list[Damage]) -> None:
    parts = write(recs, compress)
    whole = b"".join(parts)
    label = "warc.gz" if compress else "warc"
    try:
        clean = read(whole)
    except StreamMF2Error as exc:
        raise Finding("warc-clean", f"{label}: {type(exc).__name__}: {exc}", f"warc-clean:{type(exc).__name__}", whole) from exc
    expected: dict[str, list[tuple[str | None, dict[str, Any]]]] = {}
    for i, rec in enumerate(recs):
        if rec.html is not None:
            expected[record_id(i)] = [(rec.uri, item) for item in stream_mf2.parse(rec.html, rec.uri, encoding=rec.charset)["items"]]
    got_clean = _by_record(clean)
    errors = [e for e in clean if isinstance(e, WarcError)]
    if errors or got_clean != {k: v for k, v in expected.items() if v}:
        raise Finding(
            "warc-clean",
            f"{label}: undamaged archive: {len(errors)} error(s), items differ: {got_clean != expected}",
            "warc-clean",
            whole,
            extra={"errors": repr(errors)[:2000]},
        )

    damaged, before, cut = apply(parts, ops)
    data = b"".join(b + d for b, d in zip(before, damaged, strict=True))
    try:
        entries = read(data)
    except StreamMF2Error as exc:
        # iter_warc reports damage per record; a damaged archive must not stop it
        raise Finding("warc-raised", f"{label}: {type(exc).__name__}: {exc}", f"warc-raised:{type(exc).__name__}", data) from exc
    except Exception as exc:
        raise Finding(
            "undocumented-exception",
            f"iter_warc({label}): {type(exc).__name__}: {exc}"[:500],
            f"undocumented-exception:{type(exc).__name__}@{_origin(exc)}",
            data,
        ) from exc
    # Items of the damaged archive are keyed by their record's position as well as its id: a
    # flipped WARC-Record-ID can give a damaged record another record's id (undetectable), and
    # that record's items are still the damaged record's own.
    got = _by_record_at(entries)
    errors = [e for e in entries if isinstance(e, WarcError)]
    touches = _touches(parts, ops)
    position = 0
    spans: list[tuple[int, int]] = []
    for junk, part in zip(before, damaged, strict=True):
        position += len(junk)
        spans.append((position, position + len(part)))
        position += len(part)
    good_records = {
        i
        for i in range(len(damaged))
        if damaged[i] == parts[i] or (compress and cut != i and _same_member(parts[i], damaged[i]))
    }
    for i, rec in enumerate(recs):
        rid = record_id(i)
        if i >= len(damaged):
            continue  # cut away whole: nothing is left to report
        now = damaged[i]
        if i in good_records:
            want = expected.get(rid, [])
            if got.get((spans[i][0], rid), []) != want:
                raise Finding(
                    "warc-good-record",
                    f"{label}: record {i} ({rec.rtype} {rec.uri}) is intact but gives other items",
                    f"warc-good-record:{label}:{_kinds(touches)}",
                    data,
                    extra={"touches": touches, "ops": repr(ops), "want": repr(want)[:1500], "got": repr(got.get((spans[i][0], rid)))[:1500]},
                )
            # (an error about another record whose flipped id names this one has another offset)
            named = [e for e in errors if e.record_id == rid and e.offset == spans[i][0]]
            if named:
                raise Finding(
                    "warc-good-record",
                    f"{label}: record {i} is intact but reported: {named[0].message}",
                    f"warc-good-record-reported:{label}:{_kinds(touches)}",
                    data,
                    extra={"touches": touches, "ops": repr(ops)},
                )
            continue
        original = parts[i]
        following = b"".join(b + d for b, d in zip(before[i + 1 :], damaged[i + 1 :], strict=True))
        # A plain record's framing is its WARC/1.x line, its Content-Length and its block's
        # length: bytes inserted or deleted in the block (or its closing CRLF CRLF) break it;
        # in the other header lines they only change values no reader can check.
        # Bytes added or removed in the block still leave it readable as intact when the
        # Content-Length then ends where CRLF CRLF follows (an HTTP head ends with one):
        # no reader can tell, so only a broken boundary must be reported.
        framing = (
            len(now) != len(original)
            and any(
                t.split(":")[1] != "head" and t.split(":")[2] != "flip" for t in touches if t.split(":")[0] == str(i)
            )
            and not _boundary_intact(now + following)
        )
        heads = _header_lines(now), _header_lines(original)
        # A Content-Length changed to another number that still ends where CRLF CRLF follows
        # (16 -> 14 when the block ends with CRLF: the rest reads as a blank line between
        # records) frames a record as well as the right one: no reader of the framing can
        # tell, as with bytes added to or removed from the block above.
        changed = heads[0] != heads[1] and not (
            heads[0][0] == heads[1][0]
            and isinstance(heads[0][1], int)
            and len(now.split(b"\r\n\r\n", 1)[0]) + 4 + heads[0][1] <= len(now)  # not into the next record
            and _boundary_intact(now + following)
        )
        if compress or cut == i or framing or changed:
            # an error reports the stretch from its offset to the next record read: it covers
            # this record when it lies between the last good record before it and its end
            stretch = max((spans[j][1] for j in range(i) if j in good_records), default=0)
            end = spans[i][1]
            if not any(e.record_id == rid or (e.offset is not None and stretch <= e.offset <= end) for e in errors):
                raise Finding(
                    "warc-damage-unreported",
                    f"{label}: record {i} ({rec.rtype}) is damaged but not reported",
                    f"warc-damage-unreported:{label}:{_kinds(touches)}",
                    data,
                    extra={"touches": touches, "ops": repr(ops), "errors": repr(errors)[:1500]},
                )


def _touches(parts: list[bytes], ops: list[Damage]) -> list[str]:
    """What each damage hits, for the known-defect list: ``"<record>:head:<kind>"`` (the WARC
    header block), ``"<record>:body:<kind>"``, ``"<record>:tail:<kind>"`` (the blank line after a plain record)."""
    out = []
    for op in ops:
        part = parts[op.record]
        head = len(part.split(b"\r\n\r\n", 1)[0]) + 4
        # "tail": the CRLF CRLF that ends a plain record
        where = "head" if op.offset < head else "tail" if op.offset >= len(part) - 4 else "body"
        out.append(f"{op.record}:{where}:{op.kind}")
    return out


def _kinds(touches: list[str]) -> str:
    """What the damage hit, without record numbers (a signature's part): ``body:flip+head:insert``."""
    return "+".join(sorted({t.split(":", 1)[1] for t in touches}))


def _by_record(entries: list[Any]) -> dict[str, list[tuple[str | None, dict[str, Any]]]]:
    out: dict[str, list[tuple[str | None, dict[str, Any]]]] = {}
    for entry in entries:
        if isinstance(entry, WarcItem):
            out.setdefault(entry.record_id or "", []).append((entry.uri, entry.item))
    return out


def _by_record_at(entries: list[Any]) -> dict[tuple[int | None, str], list[tuple[str | None, dict[str, Any]]]]:
    """Items by their record's offset and id."""
    out: dict[tuple[int | None, str], list[tuple[str | None, dict[str, Any]]]] = {}
    for entry in entries:
        if isinstance(entry, WarcItem):
            out.setdefault((entry.offset, entry.record_id or ""), []).append((entry.uri, entry.item))
    return out
