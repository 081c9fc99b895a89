"""Servers on 127.0.0.1 that hold part of a response back, for the stall rule of the sources.

* :func:`slow_server`: an asyncio TCP server for one connection that writes ``pieces[i]`` and
  then sleeps ``delays[i]`` seconds (raw bytes, no HTTP).
* :func:`stalling_http_server`: an ``http.server`` that sends a head, waits for ``release``,
  then the tail, in the framing the path names; :data:`STALL_HEAD` / :data:`STALL_TAIL` are
  a head shorter than the prescan window and its tail.
"""

from __future__ import annotations

import asyncio
import http.server
import threading
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

#: A server never lives longer than this, whatever the test does.
SERVER_LIFETIME = 20.0


@dataclass
class SlowServer:
    """A running server: where it listens and how far it got."""

    host: str
    port: int
    sent: int = 0  # bytes written so far
    finished: threading.Event = field(default_factory=threading.Event)  # set after the last byte


@contextmanager
def slow_server(pieces: Sequence[bytes], delays: Sequence[float]) -> Iterator[SlowServer]:
    """An asyncio TCP server on 127.0.0.1 (own loop, own thread) for one connection.

    It writes ``pieces[i]`` and then sleeps ``delays[i]`` seconds, sets
    ``finished`` and closes the connection. It stops after that connection,
    or after :data:`SERVER_LIFETIME` seconds, whichever comes first.
    """
    ready = threading.Event()
    box: dict[str, SlowServer] = {}
    stop: list[Callable[[], object]] = []
    loop = asyncio.new_event_loop()

    async def main() -> None:
        done = asyncio.Event()

        handlers: set[asyncio.Task[None]] = set()

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            if task is not None:
                handlers.add(task)
            state = box["state"]
            try:
                for piece, delay in zip(pieces, delays, strict=True):
                    writer.write(piece)
                    await writer.drain()
                    state.sent += len(piece)
                    await asyncio.sleep(delay)
                state.finished.set()
                writer.close()
                await writer.wait_closed()
            except (ConnectionError, OSError):
                pass  # the client went away early: fine for a test server
            finally:
                done.set()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        host, port = server.sockets[0].getsockname()[:2]
        box["state"] = SlowServer(host, port)
        stop.append(lambda: loop.call_soon_threadsafe(done.set))
        ready.set()
        try:
            await asyncio.wait_for(done.wait(), SERVER_LIFETIME)
        except TimeoutError:
            pass
        finally:
            for task in handlers:  # stopped early: end a handler that is still sending
                task.cancel()
            await asyncio.gather(*handlers, return_exceptions=True)
            server.close()
            await server.wait_closed()

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    try:
        if not ready.wait(5):
            raise RuntimeError("test server did not start")
        yield box["state"]
    finally:
        if stop and not box["state"].finished.is_set():
            stop[0]()  # the test ended early: do not wait for the lifetime to run out
        thread.join(SERVER_LIFETIME + 5)
        loop.close()


@dataclass
class StallingServer:
    """Where a stalling HTTP server listens; it sends the tail only once ``release`` is set.

    ``tail_sent`` is set just before the tail is written, so an item seen while it is unset
    came from the head alone.
    """

    base: str
    release: threading.Event
    tail_sent: threading.Event


@contextmanager
def stalling_http_server(head: bytes, tail: bytes, hold: float = 5.0) -> Iterator[StallingServer]:
    """A local http.server that sends ``head``, waits for ``release`` (at most ``hold`` s), then ``tail``.

    The path picks the framing: ``/length`` (Content-Length), ``/chunked``, ``/close`` (HTTP/1.0,
    the body ends when the connection closes), ``/gzip`` (chunked, gzip flushed after the head) and
    ``/short`` (a Content-Length larger than the body).
    No charset in Content-Type, so the parser has to find the encoding in the body.
    """
    release = threading.Event()
    tail_sent = threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

        def do_GET(self) -> None:
            pieces = [head, tail]
            if self.path == "/gzip":
                z = zlib.compressobj(wbits=31)
                pieces = [z.compress(head) + z.flush(zlib.Z_SYNC_FLUSH), z.compress(tail) + z.flush()]
            chunked = self.path in ("/chunked", "/gzip")
            if self.path == "/close":
                self.protocol_version = "HTTP/1.0"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            if chunked:
                self.send_header("Transfer-Encoding", "chunked")
            elif self.path in ("/length", "/short"):
                # /short promises 100 bytes more than it sends, then closes
                self.send_header("Content-Length", str(len(head) + len(tail) + 100 * (self.path == "/short")))
            if self.path == "/gzip":
                self.send_header("Content-Encoding", "gzip")
            self.end_headers()
            try:
                for n, piece in enumerate(pieces):
                    if n:
                        release.wait(hold)
                        # set before the write, not after it: a client can read the tail and
                        # finish before this thread runs again, and the tests must not race that
                        tail_sent.set()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                    self.wfile.flush()
                if chunked:
                    self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass  # the client went away early: fine for a test server
            self.close_connection = True

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield StallingServer(f"http://127.0.0.1:{server.server_address[1]}", release, tail_sent)
    finally:
        release.set()
        server.shutdown()
        server.server_close()
        thread.join(10)


# Shorter than the 1024-byte prescan window and no <meta charset>: without the stall rule the
# decoder holds everything until the server sends the rest.
STALL_HEAD = b'<!doctype html><div class="h-card"><span class="p-name">Ann</span></div>\n'
STALL_TAIL = b'<div class="h-card"><span class="p-name">Bob</span></div>'
