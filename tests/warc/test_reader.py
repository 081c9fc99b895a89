"""WARC reading: payload decoding step by step, and archives written with warcio.

Every archive is written inside the test (``tmp_path``) with warcio's own
writer; damage is done to the bytes afterwards. Expected item counts come from
:func:`stream_mf2.parse` of each page's decoded body, so the tests check that
the WARC layer hands every HTML body over intact and reports every problem. The records
and their writers are in :mod:`tests.support.warc_records`.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import zlib
from pathlib import Path
from typing import Any

import brotli
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_mf2.core.parser import Parser
from stream_mf2.io.payload import (
    OUT_MAX,
    BodyDecoder,
    ChunkedDecoder,
    PayloadError,
    decode_body,
    media_type,
    parse_http_head,
    sniff_html,
)
from stream_mf2.warc import walker as warc_walker
from stream_mf2.warc.entries import WarcEntry, WarcError, WarcItem, WarcSummary
from stream_mf2.warc.parallel import ParallelWarcReader, iter_warc_parallel
from stream_mf2.warc.reader import aiter_warc, iter_warc
from tests.support.chunking import chunkings
from tests.support.warc_records import (
    SJIS_NAME,
    Rec,
    chunked,
    expected_items,
    filler,
    http_block,
    page,
    response,
    standard_records,
    write_archive,
    write_record,
)

# -- payload decoding (no parser involved) ---------------------------------------------------------


def run(decoder: BodyDecoder, pieces: list[bytes]) -> bytes:
    out = bytearray()
    for p in pieces:
        for piece in decoder.feed(p):
            assert len(piece) <= OUT_MAX
            out += piece
    for piece in decoder.finish():
        out += piece
    return bytes(out)


BODY = b"<!doctype html><p class=h-card>Hello, world!</p>" * 3


def test_chunked_every_split() -> None:
    wire = chunked(BODY, [1, 7, 30], ext=True, trailer=b"X-Trailer: yes\r\n")
    for label, pieces in chunkings(wire, splits=True):
        assert run(BodyDecoder(chunked=True, content_encoding=None), pieces) == BODY, label


@pytest.mark.parametrize("coding", ["gzip", "deflate", "deflate-raw", "br", "gzip, br"])
def test_content_codings_every_chunking(coding: str) -> None:
    def enc(name: str, data: bytes) -> bytes:
        if name == "gzip":
            return gzip.compress(data)
        if name == "deflate":
            return zlib.compress(data)
        if name == "deflate-raw":
            c = zlib.compressobj(wbits=-15)
            return c.compress(data) + c.flush()
        return bytes(brotli.compress(data))

    data = BODY
    header = []
    for name in [c.strip() for c in coding.split(",")]:
        data = enc(name, data)
        header.append("deflate" if name == "deflate-raw" else name)
    for label, pieces in chunkings(data, splits=False):
        got = run(BodyDecoder(chunked=False, content_encoding=", ".join(header)), pieces)
        assert got == BODY, (coding, label)


def test_gzip_multi_member_and_chunked_together() -> None:
    wire = chunked(gzip.compress(BODY[:40]) + gzip.compress(BODY[40:]), [3, 5])
    assert run(BodyDecoder(chunked=True, content_encoding="gzip"), [wire]) == BODY


def test_output_is_bounded_for_a_compression_bomb() -> None:
    # With the expansion cap off (it would stop these bombs), output still comes in bounded pieces.
    bomb = gzip.compress(b"a" * (20 * OUT_MAX))
    pieces = list(decode_body([bomb], chunked=False, content_encoding="gzip", max_expansion=None))
    assert sum(map(len, pieces)) == 20 * OUT_MAX
    assert max(map(len, pieces)) <= OUT_MAX
    br = brotli.compress(b"b" * (20 * OUT_MAX))
    br_pieces = list(decode_body([br], chunked=False, content_encoding="br", max_expansion=None))
    assert sum(map(len, br_pieces)) == 20 * OUT_MAX
    assert max(map(len, br_pieces)) <= OUT_MAX


@pytest.mark.parametrize(
    ("wire", "coding", "chunked_", "message"),
    [
        (chunked(BODY, [5])[:-9], None, True, "truncated"),
        (b"5\r\nhello\r\nzz\r\n", None, True, "bad chunk-size"),
        (b"5\r\nhelloXX0\r\n\r\n", None, True, "not followed by CRLF"),
        (gzip.compress(BODY)[:-12], "gzip", False, "truncated"),
        (gzip.compress(BODY)[:10] + b"\xff" * 20, "gzip", False, "gzip body"),
        (brotli.compress(BODY)[:-3], "br", False, "br body"),
        (BODY, "compress", False, "unsupported content-encoding"),
    ],
    # Explicit ids: the wire bytes hold a gzip mtime, and xdist workers must collect the same ids.
    ids=["chunked-truncated", "bad-chunk-size", "chunk-not-crlf", "gzip-truncated", "gzip-garbage", "br-truncated", "compress"],
)
def test_damaged_bodies_raise(wire: bytes, coding: str | None, chunked_: bool, message: str) -> None:
    with pytest.raises(PayloadError, match=message):
        list(decode_body([wire], chunked=chunked_, content_encoding=coding))


def test_lenient_fallbacks_before_any_output() -> None:
    # Stored already de-chunked / decompressed, with the original headers kept.
    assert b"".join(decode_body([BODY], chunked=True, content_encoding=None)) == BODY
    assert b"".join(decode_body([BODY[:1], BODY[1:]], chunked=False, content_encoding="gzip")) == BODY
    short = b"x"
    assert b"".join(decode_body([short], chunked=True, content_encoding="gzip")) == short
    # ...but once a valid chunk was seen, a later bad line is an error.
    dec = ChunkedDecoder()
    assert b"".join(dec.feed(b"3\r\nabc\r\n")) == b"abc"
    with pytest.raises(PayloadError):
        list(dec.feed(b"<html>\r\n"))


@settings(max_examples=300, deadline=None)
@given(
    data=st.one_of(
        st.binary(max_size=300),
        st.builds(lambda b, n: chunked(b, [n]), st.binary(max_size=200), st.integers(1, 50)),
        st.builds(lambda b, k: gzip.compress(b)[:k], st.binary(max_size=200), st.integers(0, 300)),
    ),
    cut=st.integers(0, 300),
    is_chunked=st.booleans(),
    coding=st.sampled_from([None, "gzip", "deflate", "br", "gzip, br", "identity"]),
)
def test_any_body_decodes_or_raises_payload_error(data: bytes, cut: int, is_chunked: bool, coding: str | None) -> None:
    # Never anything but decoded bytes or PayloadError, however the input is damaged or split.
    try:
        out = b"".join(decode_body([data[:cut], data[cut:]], chunked=is_chunked, content_encoding=coding))
    except PayloadError:
        return
    assert isinstance(out, bytes)


def test_http_head_media_type_and_sniffing() -> None:
    head = parse_http_head(b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html;\r\n charset=Shift_JIS\r\nX-A: 1\r\n")
    assert (head.status, head.reason, head.get("x-a")) == (404, "Not Found", "1")
    assert media_type(head.get("content-type")) == ("text/html", "Shift_JIS")
    assert media_type('application/xhtml+xml; charset="utf-8"') == ("application/xhtml+xml", "utf-8")
    assert media_type("text/html; charset=no-such-charset") == ("text/html", None)
    assert media_type(None) == (None, None)
    with pytest.raises(PayloadError):
        parse_http_head(b"HTTP/1.1 OK\r\n")
    with pytest.raises(PayloadError):
        parse_http_head(b"HTTP/1.1 200 OK\r\nno colon here\r\n")
    assert sniff_html(b"\xef\xbb\xbf  <!DOCTYPE HTML><html>")
    assert sniff_html(b"\n<p>hello")
    assert sniff_html(b"<!-- comment -->")
    assert not sniff_html(b"<paragraph>")
    assert not sniff_html(b"%PDF-1.4")
    assert not sniff_html(b'{"json": true}')


# -- archives ------------------------------------------------------------------------------------------


def read_all(path: Path, **options: object) -> tuple[list[WarcItem], list[WarcError], WarcSummary]:
    reader = iter_warc(path, **options)
    entries = list(reader)
    items = [e for e in entries if isinstance(e, WarcItem)]
    errors = [e for e in entries if isinstance(e, WarcError)]
    return items, errors, reader.summary


def check_clean(
    recs: list[Rec], items: list[WarcItem], errors: list[WarcError], summary: WarcSummary, n_errors: int = 0
) -> None:
    assert len(errors) == n_errors
    want = [(r.uri, it) for r in recs if r.html is not None for it in expected_items(r)]
    assert [(i.uri, i.item) for i in items] == want
    assert summary.records == len(recs)
    assert summary.html_records == sum(r.html is not None for r in recs)
    assert summary.items == len(want)
    assert summary.errors == n_errors
    assert summary.skipped_non_html == sum(r.skipped == "non_html" for r in recs)
    assert summary.skipped_revisit == sum(r.skipped == "revisit" for r in recs)
    assert summary.skipped_other == sum(r.skipped == "other" for r in recs)


@pytest.mark.parametrize("compress", [True, False], ids=["gzip-per-record", "uncompressed"])
def test_clean_archive(tmp_path: Path, compress: bool) -> None:
    recs = standard_records()
    path = tmp_path / ("a.warc.gz" if compress else "a.warc")
    write_archive(path, recs, compress=compress)
    items, errors, summary = read_all(path)
    check_clean(recs, items, errors, summary)
    # Metadata travels with every item.
    by_uri = {i.uri: i for i in items}
    assert by_uri["http://a.example/404"].status == 404
    assert by_uri["http://a.example/res.html"].status is None
    assert by_uri["http://a.example/sniffed"].content_type is None
    assert by_uri["http://a.example/br"].content_type == "application/xhtml+xml"
    assert all(i.record_id and i.record_id.startswith("<urn:uuid:") and i.date for i in items)
    # The charset from the HTTP header alone decided the Shift_JIS page.
    assert by_uri["http://a.example/sjis"].item["properties"]["name"] == [SJIS_NAME]


@pytest.mark.parametrize("size", [12_000, 16_000, *(pytest.param(n, marks=pytest.mark.slow) for n in (70_000, 300_000))])
def test_gzip_members_that_inflate_past_the_read_size(tmp_path: Path, size: int) -> None:
    # A small, highly compressible member whose output is cut at the read size while the
    # rest of the archive is already in the input buffer: the bytes after the member must be
    # given back once, or the next members are read twice (negative offsets, endless loops).
    recs = []
    for i in range(4):
        body = (b"<p class=h-card>x</p>" * (size // 21 + 1))[:size]
        recs.append(response(f"http://a.example/{i}", body, [("Content-Type", "text/html")], html=body))
    path = tmp_path / "a.warc.gz"
    write_archive(path, recs, compress=True)
    items, errors, summary = read_all(path)
    check_clean(recs, items, errors, summary)
    assert summary.bytes_read == path.stat().st_size
    assert list(iter_warc_parallel(path, 2)) == list(iter_warc(path))


def test_clean_archive_from_a_non_seekable_stream(tmp_path: Path) -> None:
    recs = standard_records()
    path = tmp_path / "a.warc.gz"
    write_archive(path, recs, compress=True)

    class Pipe(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self._b = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def readinto(self, b: bytearray) -> int:  # type: ignore[override]
            data = self._b.read(min(len(b), 1000))
            b[: len(data)] = data
            return len(data)

    items, errors, summary = read_all(Pipe(path.read_bytes()))  # type: ignore[arg-type]
    check_clean(recs, items, errors, summary)


def test_corrupt_gzip_member_in_the_middle(tmp_path: Path) -> None:
    recs = standard_records()
    path = tmp_path / "a.warc.gz"
    offsets = write_archive(path, recs, compress=True)
    bad = 2  # the chunked + gzip page
    data = bytearray(path.read_bytes())
    start = offsets[bad] + 10  # just past the 10-byte gzip header: the first deflate block header
    data[start : start + 16] = b"\xff" * 16
    path.write_bytes(bytes(data))
    items, errors, summary = read_all(path)
    assert len(errors) == 1 and summary.errors == 1
    assert errors[0].offset == offsets[bad]
    assert "gzip" in errors[0].message
    others = [r for i, r in enumerate(recs) if i != bad]
    assert [i.item for i in items] == [it for r in others if r.html is not None for it in expected_items(r)]
    assert summary.records == len(recs) - 1


def test_truncated_last_record_gzip(tmp_path: Path) -> None:
    recs = standard_records()
    last = page(1, "last", extra=f"<p>{filler(30000, 1)}</p>").encode()
    recs.append(Rec("response", "http://a.example/last", http_block(last, [("Content-Type", "text/html")]), html=last))
    path = tmp_path / "a.warc.gz"
    offsets = write_archive(path, recs, compress=True)
    data = path.read_bytes()
    path.write_bytes(data[: (offsets[-1] + len(data)) // 2])
    items, errors, summary = read_all(path)
    assert len(errors) == 1
    assert errors[0].uri == "http://a.example/last"
    assert errors[0].record_id is not None and errors[0].offset == offsets[-1]
    assert "truncated" in errors[0].message
    assert [i.item for i in items] == [it for r in recs[:-1] if r.html is not None for it in expected_items(r)]
    assert summary.records == len(recs)


def test_truncated_last_record_uncompressed(tmp_path: Path) -> None:
    recs = standard_records()
    last = page(1, "last", extra=f"<p>{filler(5000, 2)}</p>").encode()
    recs.append(Rec("response", "http://a.example/last", http_block(last, [("Content-Type", "text/html")]), html=last))
    path = tmp_path / "a.warc"
    offsets = write_archive(path, recs, compress=False)
    data = path.read_bytes()
    path.write_bytes(data[: offsets[-1] + 3000])
    items, errors, _ = read_all(path)
    assert len(errors) == 1
    assert errors[0].uri == "http://a.example/last" and "truncated" in errors[0].message
    assert errors[0].offset == offsets[-1]
    assert [i.item for i in items] == [it for r in recs[:-1] if r.html is not None for it in expected_items(r)]


def test_damaged_record_header_uncompressed_resynchronises(tmp_path: Path) -> None:
    recs = standard_records()
    path = tmp_path / "a.warc"
    offsets = write_archive(path, recs, compress=False)
    bad = 3  # the Shift_JIS page
    data = bytearray(path.read_bytes())
    assert data[offsets[bad] : offsets[bad] + 8] == b"WARC/1.0"
    data[offsets[bad] : offsets[bad] + 4] = b"WARX"
    path.write_bytes(bytes(data))
    items, errors, summary = read_all(path)
    assert len(errors) == 1 and errors[0].offset == offsets[bad]
    others = [r for i, r in enumerate(recs) if i != bad]
    assert [i.item for i in items] == [it for r in others if r.html is not None for it in expected_items(r)]
    assert summary.records == len(recs) - 1


def test_bad_http_headers_and_bad_chunking_are_per_record(tmp_path: Path) -> None:
    recs = standard_records()
    good = page(1, "good").encode()
    broken = [
        Rec(
            "response",
            "http://a.example/bad-status",
            b"HTTP/1.1 OK\r\nContent-Type: text/html\r\n\r\n" + good,
            raw=True,
        ),
        Rec("response", "http://a.example/bad-header", b"HTTP/1.1 200 OK\r\nbroken header\r\n\r\n" + good, raw=True),
        Rec(
            "response",
            "http://a.example/bad-chunks",
            http_block(b"5\r\n<html\r\n" + good, [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")]),
        ),
    ]
    for compress in (True, False):
        path = tmp_path / f"b{compress}.warc"
        write_archive(path, [*recs[:3], *broken, *recs[3:]], compress=compress)
        items, errors, summary = read_all(path)
        assert [e.uri for e in errors] == [r.uri for r in broken]
        assert all(e.record_id for e in errors)
        assert [i.item for i in items] == [it for r in recs if r.html is not None for it in expected_items(r)]
        assert summary.records == len(recs) + len(broken)


def test_garbage_between_gzip_members(tmp_path: Path) -> None:
    recs = standard_records()
    path = tmp_path / "a.warc.gz"
    blobs = [write_record(r, compress=True) for r in recs]
    path.write_bytes(b"".join(blobs[:4]) + b"this is not gzip" + b"".join(blobs[4:]))
    items, errors, summary = read_all(path)
    assert errors[0].offset == sum(map(len, blobs[:4])) and "garbage" in errors[0].message
    check_clean(recs, items, errors, summary, n_errors=1)  # every record still read


def test_encoding_option_overrides_http_charset(tmp_path: Path) -> None:
    body = page(0, "x", extra='<p class="h-card"><span class="p-name">caf\xe9</span></p>').encode("latin-1")
    rec = Rec("response", "http://a.example/x", http_block(body, [("Content-Type", "text/html; charset=utf-8")]))
    path = tmp_path / "a.warc"
    write_archive(path, [rec], compress=False)
    items, _, _ = read_all(path)
    assert items[0].item["properties"]["name"] == ["caf\ufffd"]
    items, _, _ = read_all(path, encoding="windows-1252")
    assert items[0].item["properties"]["name"] == ["caf\xe9"]


def test_async_and_parallel_match_sync(tmp_path: Path) -> None:
    recs = standard_records()
    for compress in (True, False):
        path = tmp_path / f"a{compress}.warc"
        offsets = write_archive(path, recs, compress=compress)
        data = bytearray(path.read_bytes())
        if compress:
            data[offsets[2] + 10 : offsets[2] + 26] = b"\xff" * 16  # one corrupt member
        path.write_bytes(bytes(data))
        sync_reader = iter_warc(path)
        sync_entries = list(sync_reader)

        async def collect(path: Path) -> tuple[list[WarcEntry], WarcSummary]:
            reader = aiter_warc(path)
            return [e async for e in reader], reader.summary

        async_entries, async_summary = asyncio.run(collect(path))
        assert async_entries == sync_entries
        par = iter_warc_parallel(path, 2)
        par_entries = list(par)
        assert par_entries == sync_entries
        for s in (async_summary, par.summary):
            assert (s.records, s.html_records, s.items, s.errors, s.skipped) == (
                sync_reader.summary.records,
                sync_reader.summary.html_records,
                sync_reader.summary.items,
                sync_reader.summary.errors,
                sync_reader.summary.skipped,
            )


@pytest.mark.parametrize("batch", [(1, 1 << 20), (2, 1 << 20), (3, 1 << 20), (64, 1 << 20), (64, 2_000)])
def test_parallel_batches_match_sync(tmp_path: Path, batch: tuple[int, int]) -> None:
    # Workers read runs of consecutive units; wherever a run starts or ends, the entries
    # and the summary must be those of the single-process walk, damaged records included.
    units, span = batch
    recs = standard_records()
    for compress in (True, False):
        path = tmp_path / f"a{compress}.warc"
        offsets = write_archive(path, recs, compress=compress)
        data = bytearray(path.read_bytes())
        if compress:
            data[offsets[2] + 10 : offsets[2] + 26] = b"\xff" * 16  # one corrupt member
        else:
            data[offsets[3] + 5 : offsets[3] + 9] = b"XXXX"  # one damaged record header
        path.write_bytes(bytes(data))
        sync_reader = iter_warc(path)
        sync_entries = list(sync_reader)
        par = ParallelWarcReader(path, 2, batch_units=units, batch_bytes=span)
        assert list(par) == sync_entries
        s, p = sync_reader.summary, par.summary
        assert (p.records, p.html_records, p.items, p.errors, p.skipped) == (
            s.records,
            s.html_records,
            s.items,
            s.errors,
            s.skipped,
        )


def test_payload_is_streamed_not_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A 6 MB page in one record: the parser must see it in bounded pieces.
    big = page(3, "big", extra="<p>" + filler(6_000_000, 3) + "</p>").encode()
    headers = [("Content-Type", "text/html"), ("Content-Encoding", "gzip")]
    rec = response("http://a.example/big", gzip.compress(big), headers, html=big)
    path = tmp_path / "big.warc.gz"
    write_archive(path, [rec], compress=True)
    sizes: list[int] = []

    class Recording:
        """The real parser, noting the size of every piece it is fed (a wrapper:
        the parser's class may be compiled, and compiled classes are not subclassed)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self._parser = Parser(*args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._parser, name)

        def feed_events(self, data: bytes | str) -> list[Any]:
            sizes.append(len(data))
            return self._parser.feed_events(data)

    monkeypatch.setattr(warc_walker, "Parser", Recording)
    items, errors, _ = read_all(path)
    assert errors == [] and len(items) == 3
    assert sum(sizes) == len(big) and max(sizes) <= OUT_MAX


def test_wrong_content_length_is_reported(tmp_path: Path) -> None:
    recs = standard_records()
    # A record in the middle (the plain UTF-8 page) and the last one (the 404 page); each body ends
    # with "</html>", 7 bytes the reader will not see. A parallel worker reads one record and never
    # asks for the next, so the last record of an uncompressed archive needs its own check there.
    for bad in (1, len(recs) - 1):
        for compress in (True, False):
            blobs = []
            for i, rec in enumerate(recs):
                data = write_record(rec, compress=False)
                if i == bad:
                    head, sep, rest = data.partition(b"\r\n\r\n")
                    length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
                    head = head.replace(b"Content-Length: %d" % length, b"Content-Length: %d" % (length - 7))
                    data = head + sep + rest
                blobs.append(gzip.compress(data) if compress else data)
            path = tmp_path / f"cl{bad}{compress}.warc"
            path.write_bytes(b"".join(blobs))
            sync_reader = iter_warc(path)
            sync_entries = list(sync_reader)
            items = [e for e in sync_entries if isinstance(e, WarcItem)]
            errors = [e for e in sync_entries if isinstance(e, WarcError)]
            assert len(errors) == 1 and "Content-Length" in errors[0].message, errors
            assert errors[0].offset == sum(map(len, blobs[:bad]))
            assert errors[0].uri == recs[bad].uri
            # The short record lost only its closing tag: every item, its own included, is still there.
            check_clean(recs, items, errors, sync_reader.summary, n_errors=1)
            # The parallel reader reports the same error record, in the same place, and counts it.
            par = iter_warc_parallel(path, 2)
            assert list(par) == sync_entries, (bad, compress)
            assert par.summary.errors == 1


_ARCHIVES: dict[bool, bytes] = {}


def _archive_bytes(compress: bool) -> bytes:
    if compress not in _ARCHIVES:
        _ARCHIVES[compress] = b"".join(write_record(r, compress=compress) for r in standard_records())
    return _ARCHIVES[compress]


@settings(max_examples=80, deadline=None)
@given(
    compress=st.booleans(),
    flips=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), max_size=4),
    keep=st.floats(0.05, 1.0),
)
def test_damaged_archives_never_raise(compress: bool, flips: list[tuple[float, int]], keep: float) -> None:
    # Whatever the damage, reading yields entries (items and errors) and never raises, and the
    # summary agrees with what was yielded.
    data = bytearray(_archive_bytes(compress))
    for where, value in flips:
        data[int(where * len(data))] = value
    data = data[: max(1, int(keep * len(data)))]
    reader = iter_warc(io.BytesIO(bytes(data)))
    entries = list(reader)
    assert reader.summary.errors == sum(isinstance(e, WarcError) for e in entries)
    assert reader.summary.items == sum(isinstance(e, WarcItem) for e in entries)
    assert all(e.message for e in entries if isinstance(e, WarcError))


def test_parallel_reader_rejects_bad_settings(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="workers"):
        ParallelWarcReader(tmp_path / "a.warc", 0)
    with pytest.raises(ValueError, match="batch_units"):
        ParallelWarcReader(tmp_path / "a.warc", 2, batch_units=0)
