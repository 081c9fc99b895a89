"""Sync sources: paths, bytes, file objects, iterables and sockets give what parse() gives, as it streams."""

from __future__ import annotations

import io
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from stream_mf2.core.parser import parse
from stream_mf2.errors import SourceError
from stream_mf2.events import DocumentEnd, ItemEvent
from stream_mf2.io.fetch import fetch
from stream_mf2.io.sources import iter_events, iter_items
from tests.support.pages import make_page, split_every
from tests.support.stalling_servers import STALL_HEAD, STALL_TAIL, slow_server, stalling_http_server

URL = "http://example.com/dir/page.html"
PAGE = make_page(12)


def expected(page: bytes = PAGE, **options: Any) -> dict[str, Any]:
    result: dict[str, Any] = parse(page, URL, **options)
    return result


def socket_from_bytes(data: bytes, piece: int = 100) -> socket.socket:
    """A connected socket whose peer (a thread) writes ``data`` in pieces and closes."""
    a, b = socket.socketpair()

    def write() -> None:
        with b:
            for p in split_every(data, piece):
                b.sendall(p)

    threading.Thread(target=write, daemon=True).start()
    return a


SOURCES: dict[str, Callable[[Path], Any]] = {
    "bytes": lambda tmp: PAGE,
    "bytearray": lambda tmp: bytearray(PAGE),
    "text": lambda tmp: PAGE.decode(),
    "path-pathlike": lambda tmp: tmp,
    "binary-file": lambda tmp: io.BytesIO(PAGE),
    "buffered-file": lambda tmp: tmp.open("rb"),
    "text-file": lambda tmp: io.StringIO(PAGE.decode()),
    "iter-bytes": lambda tmp: iter(split_every(PAGE, 7)),
    "list-memoryview": lambda tmp: [memoryview(p) for p in split_every(PAGE, 300)],
    "iter-str": lambda tmp: (PAGE.decode()[i : i + 5] for i in range(0, len(PAGE.decode()), 5)),
    "socket": lambda tmp: socket_from_bytes(PAGE),
}


@pytest.mark.parametrize("kind", list(SOURCES))
@pytest.mark.parametrize("chunk_size", [1, 13, 65536])
def test_every_source_gives_what_parse_gives(tmp_path: Path, kind: str, chunk_size: int) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE)
    source = SOURCES[kind](path)
    events = list(iter_events(source, URL, chunk_size=chunk_size))
    want = expected()
    assert [e.item for e in events if isinstance(e, ItemEvent)] == want["items"]
    end = events[-1]
    assert isinstance(end, DocumentEnd)
    assert (end.rels, end.rel_urls) == (want["rels"], want["rel-urls"])
    assert len(want["items"]) == 12
    if hasattr(source, "close"):
        source.close()


def test_iter_items_and_options(tmp_path: Path) -> None:
    assert list(iter_items(PAGE, URL, text="normalized", lang=True)) == expected(text="normalized", lang=True)["items"]
    latin = make_page(2, charset_meta=False).decode().encode("latin-1")
    assert list(iter_items([latin], URL, encoding="iso-8859-1")) == expected(latin, encoding="iso-8859-1")["items"]


def test_items_arrive_before_the_source_ends() -> None:
    pulled = 0

    def chunks() -> Any:
        nonlocal pulled
        for p in split_every(PAGE, 64):
            pulled += 1
            yield p

    it = iter_items(chunks(), URL)
    next(it)
    assert pulled < len(split_every(PAGE, 64)) // 2


def test_errors_are_typed(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot open"):
        list(iter_items(tmp_path / "missing.html"))
    with pytest.raises(TypeError):
        iter_items(12345)
    with pytest.raises(TypeError):
        list(iter_items([b"<p>", 5]))
    with pytest.raises(ValueError):
        iter_items(PAGE, chunk_size=0)


def test_opened_file_is_closed_on_early_exit(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE)
    fds = Path("/proc/self/fd")
    if not fds.is_dir():
        pytest.skip("needs /proc/self/fd to count open files")
    before = len(list(fds.iterdir()))
    gen = iter_items(path, URL, chunk_size=256)
    next(gen)
    assert len(list(fds.iterdir())) == before + 1
    gen.close()  # the generator's finally closes the file it opened
    assert len(list(fds.iterdir())) == before


@pytest.mark.network_local
def test_socket_first_item_before_the_last_byte() -> None:
    pieces = split_every(PAGE, 120)
    with slow_server(pieces, [0.1] * len(pieces)) as server:
        sock = socket.create_connection((server.host, server.port), timeout=10)
        with sock:
            events = iter_events(sock, URL)
            first = next(events)
            sent_when_first = server.sent
            finished_when_first = server.finished.is_set()
            rest = list(events)
    assert isinstance(first, ItemEvent)
    assert not finished_when_first and sent_when_first < len(PAGE)
    want = expected()
    assert [first.item, *[e.item for e in rest if isinstance(e, ItemEvent)]] == want["items"]
    end = rest[-1]
    assert isinstance(end, DocumentEnd) and end.rels == want["rels"]


@pytest.mark.network_local
def test_stalled_socket_decides_the_encoding_and_items_flow() -> None:
    # Shorter than the 1024-byte prescan window and no <meta charset>: without the stall
    # timeout the decoder would hold everything until the peer closes.
    head = b'<!doctype html><div class="h-card"><span class="p-name">Ann</span></div>\n'
    tail = b'<div class="h-card"><span class="p-name">Bob</span></div>'
    for stall, early in ((0.2, True), (None, False)):
        with slow_server([head, tail], [1.0, 0.0]) as server:
            sock = socket.create_connection((server.host, server.port), timeout=10)
            with sock:
                t0 = time.monotonic()
                items = iter_items(sock, URL, stall_timeout=stall)
                first = next(items)
                waited = time.monotonic() - t0
                sent_when_first = server.sent
                rest = list(items)
                assert sock.gettimeout() == 10  # the caller's timeout is restored
        assert [first, *rest] == expected(head + tail)["items"]
        assert (sent_when_first == len(head)) is early, (stall, sent_when_first)
        if early:
            assert waited < 0.9


@pytest.mark.network_local
def test_socket_timeout_after_the_decision_is_a_source_error() -> None:
    with slow_server([PAGE[:1100], PAGE[1100:]], [1.5, 0.0]) as server:
        sock = socket.create_connection((server.host, server.port), timeout=0.3)
        with sock, pytest.raises(SourceError, match="timed out"):
            list(iter_items(sock, URL))


def test_stalled_pipe_decides_the_encoding() -> None:
    if not hasattr(os, "pipe") or sys.platform == "win32":
        pytest.skip("needs POSIX pipes")
    head = b'<!doctype html><div class="h-card"><span class="p-name">Ann</span></div>\n'
    tail = b"<p>late</p>"
    for stall, early in ((0.2, True), (None, False)):
        r, w = os.pipe()
        written_tail = threading.Event()

        def writer(w: int = w, done: threading.Event = written_tail) -> None:
            os.write(w, head)
            time.sleep(1.0)
            os.write(w, tail)
            done.set()
            os.close(w)

        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        with os.fdopen(r, "rb") as f:
            items = iter_items(f, URL, stall_timeout=stall)
            first = next(items)
            tail_was_written = written_tail.is_set()
            rest = list(items)
        thread.join(10)
        assert [first, *rest] == expected(head + tail)["items"]
        assert tail_was_written is not early, stall


def test_text_mode_pipe_with_a_stall() -> None:
    if sys.platform == "win32":
        pytest.skip("needs POSIX pipes")
    page = make_page(2, charset_meta=False)
    r, w = os.pipe()

    def writer() -> None:
        os.write(w, page[:100])
        time.sleep(0.5)  # longer than the stall timeout: str input needs no decision, nothing breaks
        os.write(w, page[100:])
        os.close(w)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    with os.fdopen(r, "r", encoding="utf-8") as f:
        items = list(iter_items(f, URL, stall_timeout=0.1))
    thread.join(10)
    assert items == parse(page.decode(), URL)["items"]


# -- http(s) URL responses -----------------------------------------------------------------------




@pytest.mark.network_local
@pytest.mark.parametrize("framing", ["length", "chunked", "close", "gzip"])
def test_stalled_url_decides_the_encoding_and_items_flow(framing: str) -> None:
    with stalling_http_server(STALL_HEAD, STALL_TAIL) as server:
        url = f"{server.base}/{framing}"
        with fetch(url, timeout=10) as resp:
            t0 = time.monotonic()
            items = iter_items(resp, url, stall_timeout=0.2)
            first = next(items)
            waited = time.monotonic() - t0
            tail_was_sent = server.tail_sent.is_set()
            server.release.set()
            rest = list(items)
    assert not tail_was_sent and waited < 3
    assert [first, *rest] == parse(STALL_HEAD + STALL_TAIL, url)["items"]


@pytest.mark.network_local
def test_url_without_stall_timeout_waits_for_the_prescan() -> None:
    with stalling_http_server(STALL_HEAD, STALL_TAIL, hold=0.5) as server:
        url = f"{server.base}/chunked"
        with fetch(url, timeout=10) as resp:
            items = iter_items(resp, url, stall_timeout=None)
            first = next(items)
            tail_was_sent = server.tail_sent.is_set()
            rest = list(items)
    assert tail_was_sent  # the first item came only after the whole body
    assert [first, *rest] == parse(STALL_HEAD + STALL_TAIL, url)["items"]


@pytest.mark.network_local
def test_url_stopped_early_while_the_server_stalls() -> None:
    # The reader thread sits in a read; closing the generator must not wait for the server.
    with stalling_http_server(STALL_HEAD, STALL_TAIL, hold=8.0) as server:
        url = f"{server.base}/length"
        resp = fetch(url, timeout=10)
        items = iter_items(resp, url, stall_timeout=0.2)
        next(items)
        t0 = time.monotonic()
        items.close()
        resp.close()
        assert time.monotonic() - t0 < 2
        assert not server.tail_sent.is_set()


@pytest.mark.network_local
def test_url_read_errors_reach_the_consumer() -> None:
    # The server closes before the promised Content-Length: the error of the reading thread is
    # raised in the consumer, after the items that were complete.
    with stalling_http_server(STALL_HEAD, STALL_TAIL, hold=0.6) as server:
        url = f"{server.base}/short"
        with fetch(url, timeout=10) as resp:
            items = iter_items(resp, url, stall_timeout=0.2)
            got: list[dict[str, Any]] = []
            with pytest.raises(SourceError, match="connection closed before the end of the body"):
                for item in items:
                    got.append(item)
    assert got == parse(STALL_HEAD + STALL_TAIL, url)["items"]
