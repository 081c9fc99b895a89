"""Real servers for tests, started on 127.0.0.1 and stopped after.

* :func:`serve_http`: any request handler class on a threaded HTTP server.
* :func:`range_server`: a threaded HTTP server for files of a folder, with
  ``Range: bytes=a-b`` support (206 / 416), that logs each request's path and
  range header. Fixture: ``http_files``.
* :func:`s3_server`: moto's S3 server mode (``ThreadedMotoServer``) on a
  random port, with an s3fs filesystem configured against it and the
  environment a subprocess needs (``FSSPEC_S3_ENDPOINT_URL`` and test keys).
  Fixture: ``s3`` (session-wide); skipped with the reason when moto or s3fs
  cannot start.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

_RANGE_RE = re.compile(r"bytes=(\d+)-(\d*)\Z")


@dataclass
class RangeServer:
    """A running file server: ``url(name)`` for a file under ``root``; ``requests`` logs (path, range)."""

    root: Path
    base: str
    requests: list[tuple[str, str | None]] = field(default_factory=list)
    #: Extra response headers by file name (e.g. ``{"bomb.html": {"Content-Encoding": "gzip"}}``).
    headers: dict[str, dict[str, str]] = field(default_factory=dict)

    def url(self, name: str) -> str:
        return f"{self.base}/{name}"


def _handler(server: RangeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            rng = self.headers.get("Range")
            server.requests.append((self.path, rng))
            path = server.root / self.path.lstrip("/")
            if not path.is_file():
                self._send(404, b"not found")
                return
            data = path.read_bytes()
            extra = server.headers.get(self.path.lstrip("/"), {})
            if rng is None:
                self._send(200, data, extra)
                return
            m = _RANGE_RE.match(rng.strip())
            if m is None:
                self._send(200, data)
                return
            first = int(m.group(1))
            last = int(m.group(2)) if m.group(2) else len(data) - 1
            if first >= len(data):
                self._send(416, b"", {"Content-Range": f"bytes */{len(data)}"})
                return
            last = min(last, len(data) - 1)
            self._send(206, data[first : last + 1], {"Content-Range": f"bytes {first}-{last}/{len(data)}"})

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Accept-Ranges", "bytes")
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

    return Handler


@contextlib.contextmanager
def serve_http(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """A threaded HTTP server of ``handler`` on 127.0.0.1 (a random port) until the block ends; its base URL."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(10)


@dataclass
class Gatekeeper:
    """A site that serves ``body`` only to the client it knows: ``agent`` as its User-Agent and
    ``cookie`` in a Cookie header (403 and a short refusal page otherwise). ``seen`` lists each
    request's (User-Agent, Cookie), so a test can check what a command sent."""

    agent: str
    cookie: str
    body: bytes
    content_type: str = "text/html; charset=utf-8"
    seen: list[tuple[str | None, str | None]] = field(default_factory=list)

    def handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                agent, cookie = self.headers.get("User-Agent"), self.headers.get("Cookie")
                site.seen.append((agent, cookie))
                ok = agent == site.agent and cookie == site.cookie
                body = site.body if ok else b"<!doctype html><title>Forbidden</title><p>Bots need a key."
                self.send_response(200 if ok else 403)
                self.send_header("Content-Type", site.content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return _Handler


@contextlib.contextmanager
def range_server(root: Path) -> Iterator[RangeServer]:
    """Serve the files of ``root`` on 127.0.0.1 (a random port) until the block ends."""
    server = RangeServer(root, "")
    with serve_http(_handler(server)) as base:
        server.base = base
        yield server


@pytest.fixture
def http_files(tmp_path: Path) -> Iterator[RangeServer]:
    """A range-capable HTTP server for the files put in ``tmp_path / "www"``."""
    root = tmp_path / "www"
    root.mkdir()
    with range_server(root) as server:
        yield server


@dataclass
class S3Server:
    """moto's S3 server: ``endpoint``, an s3fs filesystem ``fs``, and ``env`` for subprocesses."""

    endpoint: str
    fs: Any
    env: dict[str, str]

    def put(self, key: str, data: bytes) -> str:
        """Store ``data`` at ``bucket/key`` (the bucket is made when needed); return its ``s3://`` URL."""
        bucket = key.split("/", 1)[0]
        if not self.fs.exists(bucket):
            self.fs.mkdir(bucket)
        with self.fs.open(key, "wb") as f:
            f.write(data)
        self.fs.invalidate_cache()
        return f"s3://{key}"


_KEYS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1"}


@contextlib.contextmanager
def s3_server() -> Iterator[S3Server]:
    """Start moto's S3 server on 127.0.0.1 and point fsspec's ``s3`` protocol at it (in this process too)."""
    try:
        import fsspec
        import s3fs
        from moto.server import ThreadedMotoServer
    except ImportError as e:  # pragma: no cover - the test extra installs them
        pytest.skip(f"S3 tests need moto[server] and s3fs: {e}")
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    try:
        server.start()
    except Exception as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"moto's S3 server cannot start: {type(e).__name__}: {e}")
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    saved_env = {k: os.environ.get(k) for k in _KEYS}
    os.environ.update(_KEYS)
    saved_conf = fsspec.config.conf.get("s3")
    fsspec.config.conf["s3"] = {"endpoint_url": endpoint, "key": "testing", "secret": "testing"}
    try:
        fs = s3fs.S3FileSystem(endpoint_url=endpoint, key="testing", secret="testing", skip_instance_cache=True)
        env = {**_KEYS, "FSSPEC_S3_ENDPOINT_URL": endpoint, "FSSPEC_S3_KEY": "testing", "FSSPEC_S3_SECRET": "testing"}
        yield S3Server(endpoint, fs, env)
    finally:
        if saved_conf is None:
            fsspec.config.conf.pop("s3", None)
        else:
            fsspec.config.conf["s3"] = saved_conf
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        server.stop()


@pytest.fixture(scope="session")
def s3() -> Iterator[S3Server]:
    """One moto S3 server for the test session."""
    with s3_server() as server:
        yield server
