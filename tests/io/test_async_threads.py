"""The async front ends never occupy the application's default executor.

A read from a silent server holds a thread for up to its timeout. The test gives the
event loop a default executor of one thread, starts reads from two silent servers
through ``afetch`` and ``aiter_items``, and then needs that one thread for its own
``asyncio.to_thread`` call: it must run at once (the bound only turns a hang into a
failure), because the library reads in threads of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

import stream_mf2
from tests.support.servers import serve_http

pytestmark = pytest.mark.network_local  # servers on 127.0.0.1


@contextlib.contextmanager
def _silent_server(release: threading.Event) -> Iterator[str]:
    """Sends the headers and the start of a page, then nothing until ``release``."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            body = b"<!doctype html><body><p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body) + 4))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            release.wait(60)
            with contextlib.suppress(OSError):
                self.wfile.write(b"</p>")

    with serve_http(Handler) as base:
        yield base


async def test_silent_servers_leave_the_default_executor_free() -> None:
    loop = asyncio.get_running_loop()
    app_pool = ThreadPoolExecutor(max_workers=1)
    loop.set_default_executor(app_pool)
    release = threading.Event()
    with _silent_server(release) as a, _silent_server(release) as b:
        started = [asyncio.Event(), asyncio.Event()]

        async def read(url: str, started: asyncio.Event) -> list[dict[str, Any]]:
            resp = await stream_mf2.afetch(url, timeout=60)
            started.set()
            return [item async for item in stream_mf2.aiter_items(resp, stall_timeout=60)]

        tasks = [asyncio.create_task(read(url, s)) for url, s in zip((a, b), started, strict=True)]
        for s in started:
            await asyncio.wait_for(s.wait(), 60)
        # both bodies are being read now, from servers that send nothing
        try:
            assert await asyncio.wait_for(asyncio.to_thread(lambda: "free"), 30) == "free"
        finally:
            release.set()
        assert await asyncio.gather(*tasks) == [[], []]
    app_pool.shutdown()


@pytest.mark.parametrize("name", ["MAX_THREADS"])
def test_the_pool_is_bounded_and_documented(name: str) -> None:
    from stream_mf2.io import threads

    assert isinstance(getattr(threads, name), int) and getattr(threads, name) > 0
    assert name in (threads.__doc__ or "")
