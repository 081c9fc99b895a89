"""The input rule: str/bytes are content, os.PathLike a path, streams and HTTP client responses are read."""

from __future__ import annotations

import asyncio
import io
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import pytest
import requests

from stream_mf2 import SourceError, aiter_events, aiter_items, iter_events, iter_items, parse
from tests.support.api_server import LATIN_PAGE, PAGE, LocalServer, local_server

URL = "http://example.com/dir/"
WANT = parse(PAGE, URL)


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    with local_server() as s:
        yield s


def test_a_string_is_content_never_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "page.html").write_bytes(PAGE)
    monkeypatch.chdir(tmp_path)
    assert list(iter_items("page.html")) == [] == parse("page.html")["items"]
    assert list(iter_items(PAGE.decode(), URL)) == WANT["items"]
    assert list(iter_items(Path("page.html"), URL)) == WANT["items"]
    assert parse(Path("page.html"), URL) == WANT
    assert parse(PAGE, URL) == WANT == parse(PAGE.decode(), URL) == parse(bytearray(PAGE), URL)


async def test_async_string_is_content(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE)
    assert [i async for i in aiter_items(PAGE.decode(), URL)] == WANT["items"]
    assert [i async for i in aiter_items(path, URL)] == WANT["items"]
    assert [i async for i in aiter_items(str(path), URL)] == []  # the text of a path, not the file
    # sync iterables are async sources too
    assert [i async for i in aiter_items([PAGE[:50], PAGE[50:]], URL)] == WANT["items"]


def test_parse_reads_every_kind_of_source(tmp_path: Path) -> None:
    assert parse(io.BytesIO(PAGE), URL) == WANT
    assert parse(io.StringIO(PAGE.decode()), URL) == WANT
    assert parse(iter([PAGE[:10], PAGE[10:]]), URL) == WANT
    a, b = socket.socketpair()
    with a, b:
        b.sendall(PAGE)
        b.shutdown(socket.SHUT_WR)
        assert parse(a, URL) == WANT


BAD: list[Any] = [None, 12345, 1.5, {"a": 1}, object()]


@pytest.mark.parametrize("bad", BAD, ids=lambda b: type(b).__name__)
def test_wrong_types_are_a_type_error_naming_what_is_accepted(bad: Any) -> None:
    for call in (iter_items, iter_events, parse, aiter_items, aiter_events):
        with pytest.raises(TypeError) as e:
            call(bad)  # raised by the call itself, before any iteration
        text = str(e.value)
        assert "str" in text and "os.PathLike" in text and type(bad).__name__ in text, (call, text)


def test_async_sources_in_sync_front_ends_and_back() -> None:
    async def agen() -> AsyncIterator[bytes]:
        yield PAGE

    gen = agen()
    with pytest.raises(TypeError, match="aiter_items"):
        iter_items(gen)
    asyncio.run(gen.aclose())
    a, b = socket.socketpair()
    with a, b, pytest.raises(TypeError, match="socket"):
        aiter_items(a)


def test_a_nul_byte_in_a_path_is_a_source_error() -> None:
    with pytest.raises(SourceError, match="cannot open"):
        list(iter_items(Path("bad\0name.html")))
    with pytest.raises(SourceError, match="cannot open"):
        parse(Path("bad\0name.html"))


async def test_a_nul_byte_in_a_path_is_a_source_error_async() -> None:
    with pytest.raises(SourceError, match="cannot open"):
        [i async for i in aiter_items(Path("bad\0name.html"))]


@pytest.mark.parametrize("chunk_size", [1, 7, 300, 65536])
def test_binary_files_are_refused_in_every_chunking(tmp_path: Path, chunk_size: int) -> None:
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    with pytest.raises(SourceError, match="not HTML"):
        list(iter_items(binary, chunk_size=chunk_size))
    # a control byte past the first 512 bytes is content, not a sign of a binary file
    late = tmp_path / "late.html"
    late.write_bytes(PAGE + b" " * 600 + b"\x01")
    assert list(iter_items(late, URL, chunk_size=chunk_size)) == WANT["items"]
    # UTF-16 text is full of NUL bytes, but its byte order mark says text
    utf16 = tmp_path / "utf16.html"
    utf16.write_bytes(PAGE.decode().encode("utf-16"))
    assert list(iter_items(utf16, URL, chunk_size=chunk_size)) == WANT["items"]
    # a short text file (under 512 bytes) is judged on what there is
    short = tmp_path / "short.html"
    short.write_bytes(b'<p class="h-card">x</p>')
    assert len(list(iter_items(short, chunk_size=chunk_size))) == 1


async def test_binary_files_are_refused_async(tmp_path: Path) -> None:
    binary = tmp_path / "data.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(SourceError, match="binary data"):
        [i async for i in aiter_items(binary, chunk_size=5)]


# -- HTTP client responses, duck-typed ---------------------------------------------------------------


@pytest.mark.network_local
def test_httpx_responses(server: LocalServer) -> None:
    url = server.base + "/page"
    with httpx.Client() as client:
        with client.stream("GET", url) as resp:
            assert list(iter_items(resp)) == parse(PAGE, url)["items"]
        assert parse(client.get(url)) == parse(PAGE, url)  # a read response works too
        with client.stream("GET", server.base + "/latin") as resp:
            # the header's charset is the transport encoding, the response URL the base
            assert list(iter_items(resp)) == parse(LATIN_PAGE, encoding="iso-8859-1")["items"]
        with client.stream("GET", server.base + "/pdf") as resp, pytest.raises(SourceError, match="application/pdf"):
            iter_items(resp)
        with client.stream("GET", server.base + "/gzip") as resp:
            assert parse(resp, url) == parse(PAGE, url)


@pytest.mark.network_local
async def test_httpx_async_response(server: LocalServer) -> None:
    url = server.base + "/page"
    async with httpx.AsyncClient() as client, client.stream("GET", url) as resp:
        assert [i async for i in aiter_items(resp)] == parse(PAGE, url)["items"]
    async with httpx.AsyncClient() as client, client.stream("GET", server.base + "/latin") as resp:
        assert [i async for i in aiter_items(resp)] == parse(LATIN_PAGE, encoding="iso-8859-1")["items"]


@pytest.mark.network_local
def test_requests_response(server: LocalServer) -> None:
    url = server.base + "/page"
    with requests.get(url, stream=True, timeout=30) as resp:
        assert list(iter_items(resp)) == parse(PAGE, url)["items"]
    with requests.get(server.base + "/latin", stream=True, timeout=30) as resp:
        assert list(iter_items(resp)) == parse(LATIN_PAGE, encoding="iso-8859-1")["items"]
    with requests.get(server.base + "/page", stream=True, timeout=30) as resp, pytest.raises(TypeError, match="sync"):
        aiter_items(resp)


@pytest.mark.network_local
async def test_aiohttp_response(server: LocalServer) -> None:
    url = server.base + "/page"
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as resp:
            assert [i async for i in aiter_items(resp)] == parse(PAGE, url)["items"]
        async with session.get(server.base + "/latin") as resp:
            assert [i async for i in aiter_items(resp)] == parse(LATIN_PAGE, encoding="iso-8859-1")["items"]
        async with session.get(server.base + "/pdf") as resp:
            with pytest.raises(SourceError, match="application/pdf"):
                aiter_items(resp)
        async with session.get(url) as resp:
            with pytest.raises(TypeError, match="async"):
                iter_items(resp)
