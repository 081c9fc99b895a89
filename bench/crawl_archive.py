"""A crawl-like ``.warc.gz`` for the prefilter row of :mod:`bench.warc_bench`.

Web Data Commons' extraction from Common Crawl found microformats on about one
page in ten; this archive has the same mix. It is generated from fixed inputs
(never committed), so every run reads the same records:

* HTML ``response`` records, about one in ten with microformats: the
  ``fixtures/bench`` pages that carry them (h-entry, h-card, h-event, h-product,
  mf1 hCard/hAtom, windows-1252), the pages of a crawl otherwise; and nine in ten
  *plain* pages: the same fixture pages with every root class name renamed
  (``h-entry`` to ``x-entry``, ``vcard`` to ``xvcard``: the same markup, property
  classes and size, no item), the news page without microformats, and synthetic
  news-like pages (``bench.streams`` ``plain``) of 20-120 KB;
* a ``request`` record before each response, CSS / JavaScript / image
  responses now and then, a ``warcinfo`` record first;
* bodies plain, ``Content-Encoding: gzip`` or ``Transfer-Encoding: chunked`` by turn.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

from bench.run import FIXTURES
from bench.streams import stream_bytes
from bench.warc_bench import _http_body

#: The fixture pages with microformats (the two pages over 1 MB are left out: a crawl's
#: pages are mostly under 200 KB, and one of them would weigh as much as fifty others).
MARKUP_PAGES = (
    "blog-home.html",
    "events.html",
    "legacy-cms-windows-1252.html",
    "product.html",
    "profile.html",
    "wordpress-mf1.html",
)
#: One HTML record in this many carries microformats.
MARKUP_EVERY = 10

_MF1 = "adr|geo|hentry|hfeed|hnews|hproduct|hrecipe|hresume|hreview-aggregate|hreview|vcard|vevent"
_CLASS = re.compile(rb"""(class\s*=\s*)("[^"]*"|'[^']*')""", re.IGNORECASE)
_ROOT = re.compile(rb"(?<![\w-])(h-[a-z0-9-]+|(?:%s)(?![\w-]))" % _MF1.encode())


def _plain(page: bytes) -> bytes:
    """``page`` with its root class names renamed: the same page with no item."""

    def one(m: re.Match[bytes]) -> bytes:
        return m.group(1) + _ROOT.sub(lambda r: b"x" + r.group(1), m.group(2))

    return _CLASS.sub(one, page)


def _ctype(name: str) -> str:
    return "text/html; charset=windows-1252" if "1252" in name else "text/html; charset=utf-8"


def _pages() -> tuple[list[tuple[str, str, bytes]], list[tuple[str, str, bytes]]]:
    """(path, content type, body) of the pages with markup, and of the plain pages."""
    markup = [(f"/{n[:-5]}", _ctype(n), (FIXTURES / n).read_bytes()) for n in MARKUP_PAGES]
    plain = [(f"/plain-{p[1:]}", c, _plain(b)) for p, c, b in markup]
    plain.append(("/news", "text/html; charset=utf-8", (FIXTURES / "news-no-microformats.html").read_bytes()))
    rng = random.Random(26)
    for i in range(12):
        plain.append((f"/article-{i}", "text/html", stream_bytes("plain", rng.randrange(20_000, 120_000))))
    return markup, plain


_ASSETS = (
    ("/style.css", "text/css", b"body{font:16px/1.5 sans-serif}.nav a{color:#333}\n" * 300),
    ("/app.js", "application/javascript", b"window.q=window.q||[];q.push({slot:1,ok:1<2});\n" * 400),
    ("/logo.png", "image/png", b"\x89PNG\r\n\x1a\n" + random.Random(3).randbytes(20_000)),
)


def write_crawl_archive(path: Path, size: int) -> dict[str, Any]:
    """Write a crawl-like ``.warc.gz`` of about ``size`` HTTP body bytes to ``path``; what is in it."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    markup, plain = _pages()
    html = markup_records = produced = n = 0
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        w.write_record(w.create_warcinfo_record(path.name, {"software": "bench.crawl_archive"}))
        while produced < size:
            if n % 4 == 3:
                name, ctype, payload = _ASSETS[(n // 4) % len(_ASSETS)]
            elif html % MARKUP_EVERY == 0:
                name, ctype, payload = markup[(html // MARKUP_EVERY) % len(markup)]
                html += 1
                markup_records += 1
            else:
                name, ctype, payload = plain[html % len(plain)]
                html += 1
            uri = f"https://site{n % 41}.example{name}?n={n}"
            body, transfer = _http_body(payload, n)
            host = uri.split("/")[2]
            req = StatusAndHeaders("GET / HTTP/1.1", [("Host", host)], is_http_request=True)
            w.write_record(w.create_warc_record(uri, "request", http_headers=req))
            headers = [("Content-Type", ctype), *transfer]
            if not transfer or transfer[0][0] != "Transfer-Encoding":
                headers.append(("Content-Length", str(len(body))))
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            w.write_record(w.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))
            produced += len(body)
            n += 1
    return {"bytes": path.stat().st_size, "responses": n, "html_records": html, "markup_records": markup_records}
