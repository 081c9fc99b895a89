"""A local HTTP server for the API, fetch and example tests (127.0.0.1, a free port).

Routes: ``/page`` (UTF-8, charset in the header), ``/latin`` (ISO-8859-1 named only in the
header), ``/notype`` (HTML without a Content-Type), ``/pdf`` (``application/pdf``),
``/binary`` (binary data without a Content-Type), ``/gzip`` (gzip Content-Encoding),
``/redirect`` (302 to ``/sub/final``), ``/redirect3`` (three hops), ``/loop`` (redirects to
itself), ``/big`` (:data:`BIG_SIZE` bytes of HTML), ``/missing`` (404). Every request's headers
are recorded in :attr:`LocalServer.requests`, so tests check on the server side what was sent.
"""

from __future__ import annotations

import contextlib
import gzip
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

PAGE = (
    "<!doctype html><html lang=en><head><title>t</title><link rel=me href=https://me.example/></head><body>"
    '<div class="h-card"><a class="u-url p-name" href="/ann">Ann Émile</a></div>'
    '<article class="h-entry"><h1 class="p-name">Post</h1><a class="u-author h-card" href="/ann">Ann</a>'
    '<time class="dt-published" datetime="2024-01-02T03:04:05.678Z">then</time></article>'
    "</body></html>"
).encode()
LATIN_PAGE = '<div class="h-card"><span class="p-name">Zoë</span></div>'.encode("iso-8859-1")
FINAL_PAGE = b'<div class="h-entry"><a class="u-url p-name" href="post/1">One</a></div>'
BIG_SIZE = 300_000
BIG_PAGE = b'<div class="h-card"><p class="p-name">' + b"x" * BIG_SIZE + b"</p></div>"


@dataclass
class LocalServer:
    base: str
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)

    def headers_for(self, path: str) -> dict[str, str]:
        """The headers of the last request for ``path`` (names lower-cased)."""
        for p, headers in reversed(self.requests):
            if p == path:
                return headers
        raise KeyError(path)


@contextmanager
def local_server() -> Iterator[LocalServer]:
    """Start the server on 127.0.0.1; stop it after."""
    record: list[tuple[str, dict[str, str]]] = []
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

        def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            with lock:
                record.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
            html = "text/html"
            routes: dict[str, tuple[int, bytes, dict[str, str]]] = {
                "/page": (200, PAGE, {"Content-Type": f"{html}; charset=utf-8"}),
                "/latin": (200, LATIN_PAGE, {"Content-Type": f"{html}; charset=iso-8859-1"}),
                "/notype": (200, PAGE, {}),
                "/pdf": (200, b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\x00\x01\x02", {"Content-Type": "application/pdf"}),
                "/binary": (200, b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4, {}),
                "/gzip": (200, gzip.compress(PAGE), {"Content-Type": html, "Content-Encoding": "gzip"}),
                "/redirect": (302, b"", {"Location": "/sub/final"}),
                "/redirect3": (302, b"", {"Location": "/redirect2"}),
                "/redirect2": (302, b"", {"Location": "/redirect"}),
                "/loop": (302, b"", {"Location": "/loop"}),
                "/sub/final": (200, FINAL_PAGE, {"Content-Type": html}),
                "/big": (200, BIG_PAGE, {"Content-Type": html}),
            }
            status, body, headers = routes.get(self.path, (404, b"not found", {"Content-Type": "text/plain"}))
            # the client may go away early (a size limit): fine for a test server
            with contextlib.suppress(OSError):
                self._send(status, body, headers)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield LocalServer(f"http://127.0.0.1:{server.server_address[1]}", record)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
