"""``media_type`` remembers the Content-Type values it has seen (a crawl repeats a few; parsing
one builds an ``email`` message): the walker's records get the same answer as parsing each, past
the memory's size too, and the memory stays bounded."""

from __future__ import annotations

import io

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from stream_mf2.io.payload import (
    HTML_TYPES,
    MEDIA_TYPE_MEMORY,
    _parse_media_type,
    _remembered_media_type,
    media_type,
)
from stream_mf2.warc.entries import WarcRecord
from stream_mf2.warc.reader import iter_warc

_PAGE = b"<!doctype html><p>caf\xc3\xa9</p>"


def _content_types(n: int) -> list[str]:
    """``n`` distinct Content-Type values, HTML or not, with known, unknown and quoted charsets."""
    kinds = ["text/html", "TEXT/HTML", "application/xhtml+xml", "text/plain", "image/png"]
    charsets = ["utf-8", "UTF-8", "windows-1252", '"latin1"', "x-no-such-label", "shift_jis"]
    out: list[str] = []
    i = 0
    while len(out) < n:
        kind = kinds[i % len(kinds)]
        charset = charsets[(i // len(kinds)) % len(charsets)]
        out.append(f"{kind}; charset={charset}; v={i}" if i % 3 else f"{kind};charset={charset} ; x={i}")
        i += 1
    return out


def _archive(ctypes: list[str]) -> bytes:
    out = io.BytesIO()
    w = WARCWriter(out, gzip=True)
    for i, ctype in enumerate(ctypes * 2):  # (each value twice: the second is remembered)
        http = StatusAndHeaders("200 OK", [("Content-Type", ctype), ("Content-Length", str(len(_PAGE)))],
                                protocol="HTTP/1.1")  # fmt: skip
        uri = f"https://example.com/{i}"
        w.write_record(w.create_warc_record(uri, "response", payload=io.BytesIO(_PAGE), http_headers=http))
    return out.getvalue()


def test_remembered_media_types_are_those_of_the_parse() -> None:
    ctypes = _content_types(3 * MEDIA_TYPE_MEMORY)
    records = [e for e in iter_warc(io.BytesIO(_archive(ctypes))) if isinstance(e, WarcRecord)]
    want = [_parse_media_type(c) for c in ctypes * 2]
    html = [(essence, charset) for essence, charset in want if essence is None or essence in HTML_TYPES]
    assert len(records) == len(html) > 2 * MEDIA_TYPE_MEMORY
    for record, (essence, charset) in zip(records, html, strict=True):
        assert record.content_type == essence
        # A known transport charset decodes the page (no BOM, no <meta>): it is the record's encoding.
        assert (record.encoding_source == "transport") == (charset is not None)


def test_the_memory_is_bounded() -> None:
    ctypes = _content_types(5 * MEDIA_TYPE_MEMORY)
    _remembered_media_type.cache_clear()
    sizes: list[int] = []
    for ctype in ctypes:
        assert media_type(ctype) == _parse_media_type(ctype)
        sizes.append(_remembered_media_type.cache_info().currsize)
    assert max(sizes) == MEDIA_TYPE_MEMORY
    long = "text/html; charset=utf-8; x=" + "a" * 300
    _remembered_media_type.cache_clear()
    assert media_type(long) == _parse_media_type(long) and _remembered_media_type.cache_info().currsize == 0
