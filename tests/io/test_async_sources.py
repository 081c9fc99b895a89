"""Async sources: StreamReader, aiofiles, async iterables; items flow early and the loop stays responsive."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiofiles
import pytest

from stream_mf2.core.events import Event
from stream_mf2.core.parser import parse
from stream_mf2.errors import SourceError
from stream_mf2.events import DocumentEnd, ItemEvent
from stream_mf2.io.sources import aiter_events, aiter_items
from tests.support.pages import make_page, split_every
from tests.support.stalling_servers import slow_server

URL = "http://example.com/dir/page.html"
PAGE = make_page(12)


def expected(page: bytes = PAGE, **options: Any) -> dict[str, Any]:
    result: dict[str, Any] = parse(page, URL, **options)
    return result


async def agen(pieces: list[bytes], delay: float = 0.0) -> AsyncIterator[bytes]:
    for p in pieces:
        if delay:
            await asyncio.sleep(delay)
        yield p


def check(events: list[Event], page: bytes = PAGE) -> None:
    want = expected(page)
    assert [e.item for e in events if isinstance(e, ItemEvent)] == want["items"]
    end = events[-1]
    assert isinstance(end, DocumentEnd)
    assert (end.rels, end.rel_urls) == (want["rels"], want["rel-urls"])


async def test_async_iterable_and_bytes() -> None:
    check([e async for e in aiter_events(agen(split_every(PAGE, 11)), URL)])
    check([e async for e in aiter_events(PAGE, URL, slice_size=100)])


async def test_path_and_aiofiles_file(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE)
    check([e async for e in aiter_events(path, URL, chunk_size=50)])
    check([e async for e in aiter_events(PAGE.decode(), URL)])
    async with aiofiles.open(path, "rb") as f:
        check([e async for e in aiter_events(f, URL, chunk_size=33)])
    with pytest.raises(SourceError, match="cannot open"):
        [e async for e in aiter_events(tmp_path / "missing.html")]
    with pytest.raises(TypeError):
        aiter_events(12345)


@pytest.mark.network_local
async def test_stream_reader_first_item_before_the_last_byte() -> None:
    pieces = split_every(PAGE, 120)
    with slow_server(pieces, [0.1] * len(pieces)) as server:
        reader, writer = await asyncio.open_connection(server.host, server.port)
        try:
            events = aiter_events(reader, URL)
            first = await events.__anext__()
            sent_when_first = server.sent
            finished_when_first = server.finished.is_set()
            rest = [e async for e in events]
        finally:
            writer.close()
            await writer.wait_closed()
    assert isinstance(first, ItemEvent)
    assert not finished_when_first and sent_when_first < len(PAGE)
    check([first, *rest])


@pytest.mark.network_local
async def test_stalled_stream_decides_the_encoding() -> None:
    head = b'<!doctype html><div class="h-card"><span class="p-name">Ann</span></div>\n'
    tail = b'<div class="h-card"><span class="p-name">Bob</span></div>'
    for stall, early in ((0.2, True), (None, False)):
        with slow_server([head, tail], [1.0, 0.0]) as server:
            reader, writer = await asyncio.open_connection(server.host, server.port)
            try:
                items = aiter_items(reader, URL, stall_timeout=stall)
                first = await items.__anext__()
                sent_when_first = server.sent
                rest = [i async for i in items]
            finally:
                writer.close()
                await writer.wait_closed()
        assert [first, *rest] == expected(head + tail)["items"]
        assert (sent_when_first == len(head)) is early, (stall, sent_when_first)


async def test_big_chunk_does_not_block_the_loop() -> None:
    big = make_page(3000)  # ~1 MB handed over as one chunk
    ticks = 0
    stop = False

    async def ticker() -> None:
        nonlocal ticks
        while not stop:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    t0 = time.perf_counter()
    items = [i async for i in aiter_items(agen([big]), URL, slice_size=16 * 1024)]
    elapsed = time.perf_counter() - t0
    stop = True
    await task
    assert len(items) == 3000
    slices = len(big) // (16 * 1024)
    # The ticker ran between (almost) every two slices: the loop was never held for a whole chunk.
    assert ticks >= slices, (ticks, slices, elapsed)


@pytest.mark.network_local
async def test_early_exit_cancels_a_pending_read() -> None:
    head = b'<!doctype html><div class="h-card">Ann</div>\n'
    with slow_server([head, b"<p>late</p>"], [3.0, 0.0]) as server:
        reader, writer = await asyncio.open_connection(server.host, server.port)
        try:
            items = aiter_items(reader, URL, stall_timeout=0.1)
            t0 = time.monotonic()
            first = await items.__anext__()
            await items.aclose()  # a read is in flight: it must be cancelled, not awaited
            assert time.monotonic() - t0 < 2.0
        finally:
            writer.close()
            await writer.wait_closed()
    assert first["type"] == ["h-card"]
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
