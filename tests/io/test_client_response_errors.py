"""A client response whose body breaks off: the client's own error is a SourceError, sync and async alike."""

from __future__ import annotations

import http.server
from collections.abc import Iterator
from typing import Any

import aiohttp
import httpx
import pytest
import requests

from stream_mf2 import SourceError, aiter_items, iter_items
from tests.support.servers import serve_http

# Both tests read from an HTTP server on 127.0.0.1 that breaks the body off.
pytestmark = [pytest.mark.network_local]

HEAD = b'<!doctype html><div class="h-card"><span class="p-name">Ann</span></div>'


class _Truncating(http.server.BaseHTTPRequestHandler):
    """Promises 10000 bytes of HTML, sends the head only, and closes the connection."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", "10000")
        self.end_headers()
        self.wfile.write(HEAD)
        self.wfile.flush()
        self.close_connection = True


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve_http(_Truncating) as base:
        yield f"{base}/page"


def test_requests_and_httpx_read_failures_are_source_errors(url: str) -> None:
    with requests.get(url, stream=True, timeout=30) as resp, pytest.raises(SourceError, match="read failed"):
        list(iter_items(resp))
    with httpx.Client() as client, client.stream("GET", url) as resp2, pytest.raises(SourceError, match="read failed"):
        list(iter_items(resp2))


async def test_async_client_read_failures_are_source_errors(url: str) -> None:
    async with httpx.AsyncClient() as client, client.stream("GET", url) as resp:
        with pytest.raises(SourceError, match="read failed"):
            [i async for i in aiter_items(resp)]
    async with aiohttp.ClientSession() as session, session.get(url) as resp2:
        with pytest.raises(SourceError, match="read failed"):
            [i async for i in aiter_items(resp2)]
