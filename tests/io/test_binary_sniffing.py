"""Standard input and caller file objects are sniffed for binary data, as files and HTTP bodies are."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from stream_mf2 import SourceError, aiter_items, iter_items, parse
from tests.support.api_server import PAGE
from tests.support.chunking import one_by_one, random_chunks, whole
from tests.support.suites import REPO

URL = "http://example.com/dir/"
WANT = parse(PAGE, URL)
BINARY = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8


class Pieces:
    """A binary file object whose reads return the given pieces, one per call (at most ``n`` bytes)."""

    def __init__(self, pieces: list[bytes], name: object = None) -> None:
        self._data = [p for p in pieces if p]
        if name is not None:
            self.name = name

    def read(self, n: int = -1) -> bytes:
        if not self._data:
            return b""
        piece = self._data[0]
        if 0 <= n < len(piece):
            self._data[0] = piece[n:]
            return piece[:n]
        self._data.pop(0)
        return piece


def _chunkings(data: bytes) -> list[list[bytes]]:
    return [whole(data), [*one_by_one(data[:1100]), data[1100:]], *(random_chunks(data, seed) for seed in range(5))]


@pytest.mark.parametrize("chunk_size", [1, 7, 512, 65536])
def test_binary_file_objects_are_refused_in_every_chunking(chunk_size: int) -> None:
    for pieces in _chunkings(BINARY):
        with pytest.raises(SourceError, match=r"^file object: not HTML \(binary data\)$"):
            list(iter_items(Pieces(pieces), chunk_size=chunk_size))
    with pytest.raises(SourceError, match=r"^image\.png: not HTML"):
        list(iter_items(Pieces([BINARY], "image.png")))


@pytest.mark.parametrize("chunk_size", [1, 7, 512, 65536])
def test_text_in_file_objects_still_parses_in_every_chunking(chunk_size: int) -> None:
    late = PAGE + b" " * 600 + b"\x01"  # a control byte past the first 512 bytes is content
    short = b'<p class="h-card">x</p>'  # under 512 bytes: judged on what there is
    utf16 = PAGE.decode().encode("utf-16")  # NUL bytes, but the byte order mark says text
    for data in (PAGE, late, utf16):
        for pieces in _chunkings(data):
            assert list(iter_items(Pieces(pieces), URL, chunk_size=chunk_size)) == WANT["items"]
    for pieces in _chunkings(short):
        assert len(list(iter_items(Pieces(pieces), chunk_size=chunk_size))) == 1
    # a text file object gives str: there are no bytes to sniff
    assert list(iter_items(io.StringIO("\x01" + PAGE.decode()), URL, chunk_size=chunk_size)) == WANT["items"]


def test_a_real_binary_file_object_names_its_file(tmp_path: Path) -> None:
    path = tmp_path / "data.bin"
    path.write_bytes(BINARY)
    with open(path, "rb") as f, pytest.raises(SourceError, match=r"data\.bin: not HTML"):
        list(iter_items(f))


def test_a_pipe_with_a_short_head_still_gives_its_items_while_the_writer_waits() -> None:
    """The 512 bytes held back for sniffing do not hold items back: a stall decides on what came."""
    if sys.platform == "win32":
        pytest.skip("needs POSIX pipes")
    head = b'<!doctype html><div class="h-card"><span class="p-name">Ann</span></div>\n'
    r, w = os.pipe()
    first_item_seen = threading.Event()

    def writer() -> None:
        os.write(w, head)
        first_item_seen.wait(60)  # a bound against a hang only; the assertion below says which happened
        os.write(w, b"<p>late</p>")
        os.close(w)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    with os.fdopen(r, "rb") as f:
        items = iter_items(f, URL, stall_timeout=0.1)
        first = next(items)
        came_before_the_tail = not first_item_seen.is_set()
        first_item_seen.set()
        rest = list(items)
    thread.join(10)
    assert came_before_the_tail
    assert [first, *rest] == parse(head + b"<p>late</p>", URL)["items"]


def _cli(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "stream_mf2", *args, "-"], input=stdin, capture_output=True,
                          env=env, timeout=120, check=False)


def test_standard_input_is_sniffed_like_a_file() -> None:
    refused = _cli(BINARY)
    assert refused.returncode == 1
    assert refused.stderr.decode().strip().endswith("<stdin>: not HTML (binary data)")
    assert b"Traceback" not in refused.stderr
    ok = _cli(PAGE, "--url", URL)
    assert ok.returncode == 0, ok.stderr


class AsyncPieces:
    """An async file object (awaitable ``read(n)``) over the given pieces, as aiofiles and StreamReader are."""

    def __init__(self, pieces: list[bytes]) -> None:
        self._sync = Pieces(pieces)

    async def read(self, n: int = -1) -> bytes:
        await asyncio.sleep(0)
        return self._sync.read(n)


async def test_async_binary_file_objects_are_refused_in_every_chunking() -> None:
    for chunk_size in (1, 7, 512, 65536):
        for pieces in _chunkings(BINARY):
            with pytest.raises(SourceError, match=r"^file object: not HTML \(binary data\)$"):
                [i async for i in aiter_items(AsyncPieces(pieces), chunk_size=chunk_size)]
        for data in (PAGE, PAGE + b" " * 600 + b"\x01", PAGE.decode().encode("utf-16")):
            for pieces in _chunkings(data):
                got = [i async for i in aiter_items(AsyncPieces(pieces), URL, chunk_size=chunk_size)]
                assert got == WANT["items"]


async def test_an_aiofiles_binary_file_is_refused_by_name(tmp_path: Path) -> None:
    import aiofiles

    path = tmp_path / "data.bin"
    path.write_bytes(BINARY)
    async with aiofiles.open(path, "rb") as f:
        with pytest.raises(SourceError, match=r"data\.bin: not HTML"):
            [i async for i in aiter_items(f)]
