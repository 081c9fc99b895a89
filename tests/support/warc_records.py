"""WARC records written for the tests, and what reading each one must give.

Archives are written with warcio's own writer (:func:`write_record`), or byte for byte
where warcio would repair the damage a test needs (``Rec.raw``). :func:`standard_records`
is one record of every kind the reader must tell apart; :func:`expected_items` is what
:func:`stream_mf2.parse` gives for a record's decoded HTML body.
"""

from __future__ import annotations

import gzip
import io
import random
import uuid
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import brotli
from warcio.warcwriter import WARCWriter

from stream_mf2.core.parser import parse


def chunked(body: bytes, sizes: list[int], *, ext: bool = False, trailer: bytes = b"") -> bytes:
    """``body`` in chunked transfer coding with the given chunk sizes (the rest in one chunk)."""
    out = bytearray()
    pos = 0
    for n in [*sizes, len(body)]:
        part = body[pos : pos + n]
        pos += len(part)
        if part:
            out += b"%x%s\r\n%s\r\n" % (len(part), b";name=value" if ext else b"", part)
        if pos >= len(body):
            break
    out += b"0\r\n" + trailer + b"\r\n"
    return bytes(out)


SJIS_NAME = "山田太郎"


def page(n_items: int, tag: str, *, extra: str = "") -> str:
    cards = "".join(
        f'<div class="h-card"><a class="p-name u-url" href="/p/{tag}/{i}">{tag} {i}</a></div>' for i in range(n_items)
    )
    return f'<!doctype html><html><head><title>{tag}</title><link rel="me" href="/me"></head><body>{extra}{cards}</body></html>'


def filler(n: int, seed: int) -> str:
    """Text that does not compress much, so a cut in the gzip member lands inside it."""
    rng = random.Random(seed)
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(n))


def http_block(body: bytes, headers: list[tuple[str, str]], status: str = "200 OK") -> bytes:
    lines = [f"HTTP/1.1 {status}".encode()] + [f"{k}: {v}".encode() for k, v in headers]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


@dataclass
class Rec:
    """One record to write, and what reading it must give."""

    rtype: str
    uri: str
    block: bytes
    ctype: str | None = "application/http; msgtype=response"
    html: bytes | None = None  # the decoded HTML body, if it is an HTML record
    charset: str | None = None
    skipped: str | None = None  # "non_html", "revisit", "other"
    raw: bool = False  # write byte for byte, bypassing warcio's writer
    headers: dict[str, str] = field(default_factory=dict)


def write_raw_record(rec: Rec, *, compress: bool) -> bytes:
    """A response record written byte for byte (warcio's writer would repair a broken HTTP head)."""
    head = (
        f"WARC/1.0\r\nWARC-Type: {rec.rtype}\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
        f"WARC-Target-URI: {rec.uri}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n"
        f"Content-Type: {rec.ctype}\r\nContent-Length: {len(rec.block)}\r\n\r\n"
    ).encode()
    data = head + rec.block + b"\r\n\r\n"
    return gzip.compress(data) if compress else data


def write_record(rec: Rec, *, compress: bool) -> bytes:
    if rec.raw:
        return write_raw_record(rec, compress=compress)
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=compress)
    kwargs = {"warc_content_type": rec.ctype} if rec.ctype else {}
    record = writer.create_warc_record(rec.uri, rec.rtype, payload=io.BytesIO(rec.block), **kwargs)
    writer.write_record(record)
    return buf.getvalue()


def response(
    uri: str,
    wire_body: bytes,
    headers: list[tuple[str, str]],
    *,
    html: bytes | None = None,
    status: str = "200 OK",
    **kw: str | None,
) -> Rec:
    """An HTTP response record; ``html`` is the decoded body when it is an HTML record."""
    return Rec("response", uri, http_block(wire_body, headers, status), html=html, **kw)  # type: ignore[arg-type]


def standard_records() -> list[Rec]:
    """One record of every kind the reader must tell apart, in a fixed order."""
    a = "http://a.example"
    html = [("Content-Type", "text/html")]
    p1 = page(2, "plain").encode()
    p2 = page(3, "chunked-gzip").encode()
    p3 = page(0, "sjis", extra=f'<p class="h-card"><span class="p-name">{SJIS_NAME}</span></p>').encode("shift_jis")
    p4 = page(1, "resource").encode()
    p5 = page(2, "deflate").encode()
    raw_deflate = zlib.compressobj(wbits=-15)
    p6 = page(1, "brotli").encode()
    p7 = page(2, "sniffed").encode()
    p8 = page(1, "not-found").encode()
    return [
        Rec("warcinfo", "", b"software: tests\r\n", ctype="application/warc-fields", skipped="other"),
        response(f"{a}/one", p1, [("Content-Type", "text/html; charset=utf-8")], html=p1, charset="utf-8"),
        response(
            f"{a}/two",
            chunked(gzip.compress(p2), [7, 100, 3]),
            [*html, ("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")],
            html=p2,
        ),
        response(f"{a}/sjis", p3, [("Content-Type", "text/html; charset=Shift_JIS")], html=p3, charset="Shift_JIS"),
        Rec(
            "request",
            f"{a}/two",
            b"GET /two HTTP/1.1\r\nHost: a.example\r\n\r\n",
            ctype="application/http; msgtype=request",
            skipped="other",
        ),
        response(
            f"{a}/img.png", b"\x89PNG\r\n\x1a\n" + bytes(200), [("Content-Type", "image/png")], skipped="non_html"
        ),
        Rec("revisit", f"{a}/one", http_block(b"", html), skipped="revisit"),
        Rec("resource", f"{a}/res.html", p4, ctype="text/html", html=p4),
        response(
            f"{a}/deflate",
            raw_deflate.compress(p5) + raw_deflate.flush(),
            [*html, ("Content-Encoding", "deflate")],
            html=p5,
        ),
        response(
            f"{a}/br",
            brotli.compress(p6),
            [("Content-Type", "application/xhtml+xml"), ("Content-Encoding", "br")],
            html=p6,
        ),
        response(f"{a}/sniffed", p7, [], html=p7),
        response(f"{a}/doc.pdf", b"%PDF-1.4\n" + bytes(100), [], skipped="non_html"),
        response(f"{a}/404", p8, html, html=p8, status="404 Not Found"),
    ]


def expected_items(rec: Rec) -> list[dict[str, object]]:
    assert rec.html is not None
    items: list[dict[str, object]] = parse(rec.html, rec.uri, encoding=rec.charset)["items"]
    return items


def write_archive(path: Path, recs: list[Rec], *, compress: bool) -> list[int]:
    """Write ``recs``; return each record's byte offset."""
    offsets = []
    with path.open("wb") as f:
        for rec in recs:
            offsets.append(f.tell())
            f.write(write_record(rec, compress=compress))
    return offsets


def html_archive(path: Path, bodies: list[bytes], *, uri: str = "https://a.example/{}") -> Path:
    """A ``.warc.gz`` of one ``text/html`` response per body (target URIs ``uri.format(i)``)."""
    import io as _io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=True)
        for i, body in enumerate(bodies):
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
            record = writer.create_warc_record(uri.format(i), "response", payload=_io.BytesIO(body), http_headers=headers)
            writer.write_record(record)
    return path
