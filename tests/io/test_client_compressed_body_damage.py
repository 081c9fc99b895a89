"""A client response whose compressed body is cut short or corrupt is a SourceError, not a short page.

``stream_mf2.fetch`` decodes the body itself and reports ``gzip body: truncated compressed
data``. The clients' own decoders (urllib3 under requests, httpx) do not check that a gzip or
brotli stream reached its end, so a body whose ``Content-Length`` is right but whose compressed
data stops early (a proxy that cut it, a broken cache entry) parsed to whatever came out: a
page with fewer items and no word. The same bytes now give the same error through every
source (requests, httpx sync and async). aiohttp undoes the codings in its session (unless made
with ``auto_decompress=False``, whose gzip bodies are decoded here; see the last test).
"""

from __future__ import annotations

import gzip
import http.server
from collections.abc import Iterator
from typing import Any, ClassVar

import aiohttp
import brotli
import httpx
import pytest
import requests

from stream_mf2 import SourceError, aiter_items, fetch, iter_items, parse
from tests.support.servers import serve_http
from tests.support.suites import REPO

pytestmark = [pytest.mark.network_local]

#: An IndieWeb home page: an h-card and an h-feed of entries.
PAGE = (REPO / "fixtures" / "realworld" / "indieweb-home-feed.html").read_bytes()


def _bodies() -> dict[str, tuple[str, bytes]]:
    whole = gzip.compress(PAGE)
    return {
        "/gzip": ("gzip", whole),
        "/gzip-cut": ("gzip", whole[: len(whole) // 2]),
        "/gzip-corrupt": ("gzip", whole[:200] + bytes(b ^ 0x5A for b in whole[200:400]) + whole[400:]),
        "/br": ("br", brotli.compress(PAGE)),
        "/br-cut": ("br", brotli.compress(PAGE)[:-20]),
    }


class _Compressed(http.server.BaseHTTPRequestHandler):
    """Serves each body of :func:`_bodies` whole, with a right ``Content-Length``."""

    protocol_version = "HTTP/1.1"
    bodies: ClassVar[dict[str, tuple[str, bytes]]] = _bodies()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        coding, body = self.bodies[self.path]
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serve_http(_Compressed) as url:
        yield url


def _sync_results(url: str) -> list[object]:
    """What each sync source gives for ``url``: the items, or the error's message."""
    out: list[object] = []
    for read in (
        lambda: list(iter_items(fetch(url))),
        lambda: _with_requests(url),
        lambda: _with_httpx(url),
    ):
        try:
            out.append(read())
        except SourceError as e:
            out.append(str(e).split(": ", 1)[1])
    return out


def _with_requests(url: str) -> list[dict[str, Any]]:
    with requests.get(url, stream=True, timeout=30, headers={"Accept-Encoding": "gzip, br"}) as resp:
        return list(iter_items(resp))


def _with_httpx(url: str) -> list[dict[str, Any]]:
    with httpx.Client() as client, client.stream("GET", url, headers={"Accept-Encoding": "gzip, br"}) as resp:
        return list(iter_items(resp))


@pytest.mark.parametrize("path", ["/gzip", "/br"])
def test_a_whole_compressed_body_parses_the_same_everywhere(base: str, path: str) -> None:
    want = parse(PAGE, url=base + path)["items"]
    assert len(want) >= 2
    assert _sync_results(base + path) == [want, want, want]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/gzip-cut", "gzip body: truncated compressed data"),
        ("/gzip-corrupt", "gzip body: "),
        ("/br-cut", "br body: truncated compressed data"),
    ],
)
def test_a_damaged_compressed_body_is_a_source_error_everywhere(base: str, path: str, message: str) -> None:
    got = _sync_results(base + path)
    assert all(isinstance(g, str) and g.startswith(message) for g in got), got
    assert len(set(got)) == 1, got


async def test_async_httpx_reports_a_cut_body(base: str) -> None:
    async with httpx.AsyncClient() as client, client.stream("GET", base + "/gzip-cut") as resp:
        with pytest.raises(SourceError, match="gzip body: truncated compressed data"):
            [i async for i in aiter_items(resp)]
    async with httpx.AsyncClient() as client, client.stream("GET", base + "/gzip") as resp:
        assert [i async for i in aiter_items(resp)] == parse(PAGE, url=base + "/gzip")["items"]



def test_a_body_the_client_read_already_is_taken_as_decoded(base: str) -> None:
    """``requests.get`` without ``stream=True`` and ``httpx.get`` read the body whole: it is parsed from memory."""
    want = parse(PAGE, url=base + "/gzip")["items"]
    assert list(iter_items(requests.get(base + "/gzip", timeout=30))) == want
    assert list(iter_items(httpx.get(base + "/gzip"))) == want


async def test_aiohttp_without_auto_decompress_gets_the_page(base: str) -> None:
    """A session made with ``auto_decompress=False`` hands over the gzip bytes as sent: they were
    parsed as text, to no items and no error. A gzip body (its magic tells) is now decoded here,
    and a cut one reported; a body the session decoded passes through unchanged."""
    want = parse(PAGE, url=base + "/gzip")["items"]
    async with aiohttp.ClientSession(auto_decompress=False) as session:
        async with session.get(base + "/gzip") as resp:
            assert [i async for i in aiter_items(resp)] == want
        async with session.get(base + "/gzip-cut") as resp:
            with pytest.raises(SourceError, match="gzip body: truncated compressed data"):
                [i async for i in aiter_items(resp)]
    async with aiohttp.ClientSession() as session, session.get(base + "/gzip") as resp:
        assert [i async for i in aiter_items(resp)] == want
