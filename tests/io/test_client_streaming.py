"""HTTP client responses stream: an item comes out while the server still holds the rest.

A local server sends a page in two parts and sends the second only once the test has
received the first item (or after a bound, when the client held the first part back).
Every client the input rule accepts (httpx sync and async, requests, aiohttp, and the
library's own ``fetch``) must hand over the first item before the body ends, whether the
body has a ``Content-Length``, is chunked, or is gzip-compressed.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

import stream_mf2
from tests.support.servers import serve_http

pytestmark = pytest.mark.network_local  # servers on 127.0.0.1

FIRST = (
    b"<!doctype html><html><head><title>t</title></head><body>"
    b"<article class=h-entry><h1 class=p-name>First</h1></article><p>"
)
REST = b"<article class=h-entry><h1 class=p-name>Second</h1></article></body></html>"
#: How long the server waits for the test to see the first item before it sends the rest anyway.
BOUND = 30.0


class Trickle:
    """Serves ``/page`` in two parts; ``go`` releases the second; ``early`` tells whether it was."""

    def __init__(self, framing: str) -> None:
        self.framing = framing  # "length", "chunked" or "gzip"
        self.go = threading.Event()
        self.early: list[bool] = []

    def handler(self) -> type[BaseHTTPRequestHandler]:
        trickle = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                first, rest = FIRST, REST
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                if trickle.framing == "gzip":
                    z = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
                    first = z.compress(first) + z.flush(zlib.Z_SYNC_FLUSH)
                    rest = z.compress(rest) + z.flush()
                    self.send_header("Content-Encoding", "gzip")
                if trickle.framing == "chunked":
                    self.send_header("Transfer-Encoding", "chunked")
                    first = b"%x\r\n%s\r\n" % (len(first), first)
                    rest = b"%x\r\n%s\r\n0\r\n\r\n" % (len(rest), rest)
                else:
                    self.send_header("Content-Length", str(len(first) + len(rest)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(first)
                self.wfile.flush()
                trickle.early.append(trickle.go.wait(BOUND))
                self.wfile.write(rest)
                self.wfile.flush()

        return Handler


@pytest.fixture(params=["length", "chunked", "gzip"])
def trickle(request: pytest.FixtureRequest) -> Iterator[tuple[Trickle, str]]:
    t = Trickle(request.param)
    with serve_http(t.handler()) as base:
        yield t, base + "/page"
    t.go.set()


def _names(items: Iterator[dict[str, Any]], t: Trickle) -> list[str]:
    names = []
    for item in items:
        names.append(item["properties"]["name"][0])
        t.go.set()  # the first item is here: let the server send the rest
    return names


def test_httpx_sync(trickle: tuple[Trickle, str]) -> None:
    httpx = pytest.importorskip("httpx")
    t, url = trickle
    with httpx.Client() as client, client.stream("GET", url) as resp:
        assert _names(stream_mf2.iter_items(resp), t) == ["First", "Second"]
    assert t.early == [True]


def test_requests(trickle: tuple[Trickle, str]) -> None:
    requests = pytest.importorskip("requests")
    t, url = trickle
    with requests.get(url, stream=True, timeout=60) as resp:
        assert _names(stream_mf2.iter_items(resp), t) == ["First", "Second"]
    assert t.early == [True]


def test_requests_body_read_already(trickle: tuple[Trickle, str]) -> None:
    # stream=False: requests reads the body itself; the items come from memory, all of them.
    requests = pytest.importorskip("requests")
    t, url = trickle
    t.go.set()
    resp = requests.get(url, timeout=60)
    assert _names(stream_mf2.iter_items(resp), t) == ["First", "Second"]


def test_fetch(trickle: tuple[Trickle, str]) -> None:
    t, url = trickle
    with stream_mf2.fetch(url) as resp:
        assert _names(stream_mf2.iter_items(resp), t) == ["First", "Second"]
    assert t.early == [True]


async def test_httpx_async(trickle: tuple[Trickle, str]) -> None:
    httpx = pytest.importorskip("httpx")
    t, url = trickle
    names = []
    async with httpx.AsyncClient() as client, client.stream("GET", url) as resp:
        async for item in stream_mf2.aiter_items(resp):
            names.append(item["properties"]["name"][0])
            t.go.set()
    assert names == ["First", "Second"]
    assert t.early == [True]


async def test_aiohttp(trickle: tuple[Trickle, str]) -> None:
    aiohttp = pytest.importorskip("aiohttp")
    t, url = trickle
    names = []
    async with aiohttp.ClientSession() as session, session.get(url) as resp:
        async for item in stream_mf2.aiter_items(resp):
            names.append(item["properties"]["name"][0])
            t.go.set()
    assert names == ["First", "Second"]
    assert t.early == [True]
