"""``fetch`` against hostile local servers: every way a server can stall or mislead it.

* A server that sends one byte at a time, in its headers or its body, never lets a
  read time out: the request's total ``deadline`` ends it (library and ``--deadline``).
* A redirect to ``ftp://`` or ``file://`` is refused before anything connects to it,
  with a message that names the redirect.
* A 3xx without ``Location``, too many redirects, and ``max_redirects=0`` each name
  their own cause.
* Two different ``Content-Length`` values are a framing error (RFC 9112 section 6.3), and
  so is a malformed chunk-size line (section 7.1), named in the message (``fetch``,
  ``afetch`` and the page command), not reported as the connection closing.
"""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

import stream_mf2
from stream_mf2.errors import SourceError
from tests.support.servers import serve_http

pytestmark = pytest.mark.network_local  # servers on 127.0.0.1

PAGE = b"<!doctype html><body><div class=h-card><p class=p-name>Ann</p></div></body>"


class _Quiet(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _serve(do_get: Any) -> Iterator[str]:
    handler = type("Handler", (_Quiet,), {"do_GET": do_get})
    with serve_http(handler) as base:
        yield base


# -- the total deadline --------------------------------------------------------------------------


class _Drip:
    """Sends ``data`` one byte at a time, a byte every ``pace`` seconds, until ``stop`` is set."""

    def __init__(self) -> None:
        self.stop = threading.Event()

    def drip(self, wfile: Any, data: bytes, pace: float = 0.05) -> None:
        for i in range(len(data)):
            if self.stop.wait(pace):  # the pace of a slow server, not a synchronisation
                return
            try:
                wfile.write(data[i : i + 1])
                wfile.flush()
            except OSError:  # the client shut the connection down: its deadline passed
                return


@pytest.fixture(params=["headers", "body"])
def dripping(request: pytest.FixtureRequest) -> Iterator[str]:
    drip = _Drip()
    where = request.param
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n"

    def do_get(self: BaseHTTPRequestHandler) -> None:
        if where == "headers":
            drip.drip(self.wfile, head + PAGE * 1000)
        else:
            self.wfile.write(head + PAGE[:40])
            self.wfile.flush()
            drip.drip(self.wfile, PAGE * 1000)

    yield from _serve(do_get)
    drip.stop.set()


def test_deadline_ends_a_dripping_server(dripping: str) -> None:
    with (
        pytest.raises(SourceError, match=r"within the deadline of 0.5 s \(deadline\)"),
        stream_mf2.fetch(dripping, timeout=10, deadline=0.5) as resp,
    ):
        list(stream_mf2.iter_items(resp))


def test_deadline_flag_of_the_page_command(dripping: str) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "stream_mf2", "--timeout", "10", "--deadline", "0.5", dripping],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert r.returncode == 1
    assert "deadline of 0.5 s" in r.stderr and "Traceback" not in r.stderr


def test_deadline_leaves_a_prompt_server_alone() -> None:
    def do_get(self: BaseHTTPRequestHandler) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    for base in _serve(do_get):
        doc = stream_mf2.parse(stream_mf2.fetch(base, deadline=30))
        assert doc["items"][0]["properties"]["name"] == ["Ann"]


def test_bad_deadline_or_timeout_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="deadline"):
        stream_mf2.fetch("http://127.0.0.1:9/", deadline=0)
    with pytest.raises(ValueError, match="timeout"):
        stream_mf2.fetch("http://127.0.0.1:9/", timeout=-1)


# -- redirects -----------------------------------------------------------------------------------


@pytest.fixture
def listener() -> Iterator[tuple[int, list[bool]]]:
    """A TCP port that records whether anything connected to it."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    sock.settimeout(0.0)
    accepted: list[bool] = []
    yield sock.getsockname()[1], accepted
    try:
        conn, _ = sock.accept()
        conn.close()
        accepted.append(True)
    except BlockingIOError:
        pass
    sock.close()


def _redirect(location: str | None, status: int = 302) -> Iterator[str]:
    def do_get(self: BaseHTTPRequestHandler) -> None:
        self.send_response(status)
        if location is not None:
            self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    yield from _serve(do_get)


def test_redirect_to_ftp_is_refused_before_connecting(listener: tuple[int, list[bool]]) -> None:
    port, accepted = listener
    for base in _redirect(f"ftp://127.0.0.1:{port}/page.html"):
        with pytest.raises(SourceError, match="refused: only http and https redirects are followed"):
            stream_mf2.fetch(base)
    assert accepted == []


def test_redirect_to_file_names_the_redirect() -> None:
    for base in _redirect("file:///etc/passwd"):
        with pytest.raises(SourceError, match="redirect to file:///etc/passwd refused"):
            stream_mf2.fetch(base)


def test_3xx_without_location_says_so() -> None:
    for base in _redirect(None):
        with pytest.raises(SourceError, match="without a Location header"):
            stream_mf2.fetch(base)


def test_redirect_with_redirects_off_says_so() -> None:
    for base in _redirect("/elsewhere"):
        with pytest.raises(SourceError, match="max_redirects=0 follows none"):
            stream_mf2.fetch(base, max_redirects=0)


def test_redirect_loop_says_so() -> None:
    for base in _redirect("/again"):
        with pytest.raises(SourceError, match=r"more than 3 redirects, or a redirect loop"):
            stream_mf2.fetch(base, max_redirects=3)


# -- framing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lengths", "ok"), [(["10", "2000"], False), (["10, 2000"], False), ([str(len(PAGE))] * 2, True)]
)
def test_two_different_content_lengths_are_a_framing_error(lengths: list[str], ok: bool) -> None:
    def do_get(self: BaseHTTPRequestHandler) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        for value in lengths:
            self.send_header("Content-Length", value)
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(PAGE)

    for base in _serve(do_get):
        if ok:
            assert stream_mf2.parse(stream_mf2.fetch(base))["items"]
        else:
            with pytest.raises(SourceError, match="framing error: Content-Length given with different values"):
                stream_mf2.fetch(base)


def _chunked(body: bytes) -> Iterator[str]:
    """A server whose response says ``Transfer-Encoding: chunked`` and sends ``body`` as its raw framing."""

    def do_get(self: BaseHTTPRequestHandler) -> None:
        self.wfile.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + body
        )
        self.wfile.flush()
        self.close_connection = True

    yield from _serve(do_get)


def _framed(*chunks: bytes) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks)


# A chunk-size line is 1*HEXDIG, optional extensions, CRLF (RFC 9112 section 7.1). http.client reads
# "0x2a" and "+2a" as numbers and words anything else as "connection closed".
BAD_SIZE_LINES = [b"zz\r\n", b"0x2a\r\n", b"-5\r\n", b"\r\n"]


@pytest.mark.parametrize("line", BAD_SIZE_LINES, ids=lambda b: repr(b))
@pytest.mark.parametrize("where", ["first", "later"])
def test_malformed_chunk_size_line_is_a_framing_error(line: bytes, where: str) -> None:
    body = (line if where == "first" else _framed(PAGE[:30]) + line) + PAGE[30:] + b"\r\n0\r\n\r\n"
    for base in _chunked(body):
        want = "framing error: bad chunk-size line " + re.escape(repr(line))
        with pytest.raises(SourceError, match=want) as info, stream_mf2.fetch(base) as resp:
            list(stream_mf2.iter_items(resp))
        assert "connection closed" not in str(info.value)


def test_malformed_chunk_size_line_from_afetch() -> None:
    async def run(base: str) -> None:
        resp = await stream_mf2.afetch(base)
        async for _ in stream_mf2.aiter_items(resp):
            pass

    for base in _chunked(_framed(PAGE[:30]) + b"zz\r\n" + PAGE[30:]):
        with pytest.raises(SourceError, match=r"framing error: bad chunk-size line b'zz\\r\\n'"):
            asyncio.run(run(base))


def test_malformed_chunk_size_line_from_the_page_command() -> None:
    for base in _chunked(_framed(PAGE[:30]) + b"g1\r\n" + PAGE[30:]):
        r = subprocess.run(
            [sys.executable, "-m", "stream_mf2", base], capture_output=True, text=True, check=False, timeout=120
        )
        assert r.returncode == 1
        assert "framing error: bad chunk-size line b'g1\\r\\n'" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("extension", [b"", b";name=value", b" ;a=b"])
def test_well_formed_chunked_bodies_still_parse(extension: bytes) -> None:
    """Chunk extensions, a chunk per byte and trailer fields, as RFC 9112 allows them."""
    body = b"".join(b"1%s\r\n%s\r\n" % (extension, PAGE[i : i + 1]) for i in range(len(PAGE)))
    for base in _chunked(body + b"0\r\nX-Trailer: 1\r\n\r\n"):
        with stream_mf2.fetch(base) as resp:
            assert stream_mf2.parse(resp)["items"][0]["properties"]["name"] == ["Ann"]


def test_chunked_body_cut_short_says_so() -> None:
    for base in _chunked(_framed(PAGE[:30]) + b"100\r\n" + PAGE[30:]):
        with pytest.raises(SourceError, match="truncated before the last chunk"), stream_mf2.fetch(base) as resp:
            list(stream_mf2.iter_items(resp))


def test_chunked_body_ends_at_the_last_chunk_on_a_kept_alive_connection() -> None:
    """The body ends at the last chunk, not when the server closes (it keeps the connection open)."""
    release = threading.Event()

    def do_get(self: BaseHTTPRequestHandler) -> None:
        self.wfile.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
            + _framed(PAGE)
            + b"0\r\n\r\n"
        )
        self.wfile.flush()
        release.wait(60)  # held open until the test is done: only the framing can end the body

    try:
        for base in _serve(do_get):
            with stream_mf2.fetch(base, timeout=30) as resp:
                assert stream_mf2.parse(resp)["items"][0]["properties"]["name"] == ["Ann"]
    finally:
        release.set()
