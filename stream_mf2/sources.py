"""Items out of files, sockets, iterables and async streams, as they complete.

Sync front ends (:func:`iter_items`, :func:`iter_events`) take

* a path (``str`` or :class:`os.PathLike`): the file is opened, read and closed;
  a ``str`` is always a path, never HTML text (wrap text in a list: ``[html]``);
* ``bytes`` / ``bytearray`` / ``memoryview``: a whole document;
* a binary (or text) file object: anything with ``read(n)``;
* a connected :class:`socket.socket`: read with ``recv`` until the peer closes;
* an open ``http(s)://`` response (``stream_mf2._http.fetch``, what the command
  line does with a URL): its decoded body pieces;
* any iterable of ``bytes`` / ``str`` chunks (a generator, an HTTP response's
  ``iter_content()``, …).

Async front ends (:func:`aiter_items`, :func:`aiter_events`) take a path
(opened with aiofiles), an :class:`asyncio.StreamReader` or an aiofiles file
(anything whose ``read(n)`` is awaitable), or any async iterable of chunks (an
HTTP client's byte stream).

Input is read in chunks of at most ``chunk_size`` bytes, and larger chunks
handed in by an iterable are split, so the parser never works on more than one
chunk at a time. The async front ends additionally feed at most
``slice_size`` bytes between two awaits, so a large chunk cannot starve the
event loop.

Stalled streams. The parser holds back up to 1024 bytes while it looks for a
``<meta charset>``. A network peer that sends a short page and then pauses
would stall every item behind that decision. Sockets, URL responses and async
sources are therefore read with a ``stall_timeout`` (default 0.5 s) while the
encoding is undecided: when no data arrives within it, the parser is told to
decide now (:meth:`Parser.commit_encoding`) and items keep flowing. After the
decision a socket gets its own timeout back; a timeout then raises
:class:`SourceError`. File objects over a pipe, socket or terminal (standard
input in a pipeline) are watched the same way with :func:`select.select` (not
on Windows). A URL response cannot be watched that way (http.client and TLS
buffer bytes the descriptor no longer shows, and a chunked body can block
between chunks), so its body is read in a thread and handed over through a
small queue; waiting on the queue is what times out, and the read itself is
never cancelled, as with the async sources. Regular files and plain iterables
cannot stall in that sense and are read as they come.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import queue
import select
import socket
import stat
import sys
import threading
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Callable, Generator, Iterable, Iterator
from typing import Any, TypeAlias

import aiofiles

from stream_mf2._http import UrlResponse
from stream_mf2._parser import Parser
from stream_mf2.errors import SourceError
from stream_mf2.events import Event, ItemEvent

#: Default read size.
DEFAULT_CHUNK_SIZE = 64 * 1024
#: Default bytes fed between two awaits in the async front ends.
DEFAULT_SLICE_SIZE = 16 * 1024
#: Default seconds without data, while the encoding is undecided, before it is decided anyway.
DEFAULT_STALL_TIMEOUT = 0.5

Chunk: TypeAlias = bytes | bytearray | memoryview | str
# ``None`` in a chunk stream means "the source stalled": decide the encoding now.
_MaybeChunk: TypeAlias = Chunk | None


def _as_chunk(chunk: object) -> Chunk:
    if isinstance(chunk, bytes | bytearray | memoryview | str):
        return chunk
    raise TypeError(f"a source must give bytes or str chunks, not {type(chunk).__name__}")


def _split(chunk: Chunk, size: int) -> Iterator[Chunk]:
    if len(chunk) <= size:
        yield chunk
        return
    view = memoryview(chunk) if not isinstance(chunk, str) else chunk
    for i in range(0, len(chunk), size):
        part = view[i : i + size]
        yield part if isinstance(part, str) else bytes(part)


def _path_chunks(path: str | os.PathLike[str], size: int) -> Iterator[_MaybeChunk]:
    try:
        f = open(path, "rb")  # noqa: SIM115  # closed in the finally below, also on early exit
    except OSError as e:
        raise SourceError(f"cannot open {os.fspath(path)!r}: {e.strerror or e}") from e
    try:
        yield from _reader_chunks(f, size)
    finally:
        f.close()


def _pollable_fd(f: Any) -> int | None:
    """The descriptor of a pipe, socket or terminal behind ``f`` (these can stall), else ``None``."""
    if sys.platform == "win32":  # select() takes sockets only there
        return None
    try:
        fd = f.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both of the latter
        return None
    return fd if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode) else None


def _reader_chunks(
    f: Any, size: int, stall_timeout: float | None = None, undecided: Callable[[], bool] = lambda: False
) -> Iterator[_MaybeChunk]:
    # read1 returns what is there instead of waiting for ``size`` bytes: a pipe streams.
    read = getattr(f, "read1", None) or f.read
    fd = _pollable_fd(f) if stall_timeout is not None else None
    while True:
        if fd is not None and undecided():
            # After read1 the buffer is drained, so the descriptor tells whether more is coming.
            ready, _, _ = select.select([fd], [], [], stall_timeout)
            if not ready:
                yield None
                continue
        try:
            data = read(size)
        except OSError as e:
            raise SourceError(f"read failed: {e}") from e
        if data is None:  # a non-blocking raw file with nothing yet: wait for more
            continue
        if not data:
            return
        yield _as_chunk(data)


def _socket_chunks(
    sock: socket.socket, size: int, stall_timeout: float | None, undecided: Callable[[], bool]
) -> Iterator[_MaybeChunk]:
    original = sock.gettimeout()
    short = stall_timeout if original is None or stall_timeout is None else min(original, stall_timeout)
    try:
        while True:
            waiting = stall_timeout is not None and undecided()
            sock.settimeout(short if waiting else original)
            try:
                data = sock.recv(size)
            except TimeoutError as e:
                if waiting:
                    yield None
                    continue
                raise SourceError("socket read timed out") from e
            except OSError as e:
                raise SourceError(f"socket read failed: {e}") from e
            if not data:
                return
            yield data
    finally:
        with contextlib.suppress(OSError):  # the socket may have been closed meanwhile
            sock.settimeout(original)


# The URL reader thread's last message when the body ended normally.
_END = object()
#: Pieces a URL reader thread may read ahead of the parser (bounded memory for a slow consumer).
_URL_AHEAD = 4


def _url_chunks(resp: UrlResponse, stall_timeout: float | None, undecided: Callable[[], bool]) -> Iterator[_MaybeChunk]:
    if stall_timeout is None:
        yield from resp
        return
    handoff: queue.Queue[object] = queue.Queue(maxsize=_URL_AHEAD)
    stop = threading.Event()

    def put(message: object) -> bool:
        # A timed put, so a consumer that stopped early never leaves this thread blocked on a full queue.
        while not stop.is_set():
            try:
                handoff.put(message, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def pump() -> None:
        try:
            for piece in resp:
                if not put(piece):
                    return
            put(_END)
        except BaseException as e:  # handed to the consumer and raised there
            put(e)

    reader = threading.Thread(target=pump, name="stream-mf2 URL reader", daemon=True)
    reader.start()
    try:
        while True:
            try:
                message = handoff.get(timeout=stall_timeout if undecided() else None)
            except queue.Empty:
                yield None  # the server stalled
                continue
            if message is _END:
                return
            if isinstance(message, BaseException):
                raise message
            yield _as_chunk(message)
    finally:
        stop.set()
        if reader.is_alive():
            resp.interrupt()  # stopped early: wake the thread if it sits in a read


def _sync_chunks(
    source: object, size: int, stall_timeout: float | None, undecided: Callable[[], bool]
) -> Iterator[_MaybeChunk]:
    if isinstance(source, str | os.PathLike):
        return _path_chunks(source, size)
    if isinstance(source, bytes | bytearray | memoryview):
        return iter([source])
    if isinstance(source, socket.socket):
        return _socket_chunks(source, size, stall_timeout, undecided)
    if isinstance(source, UrlResponse):
        return _url_chunks(source, stall_timeout, undecided)
    if callable(getattr(source, "read", None)):
        return _reader_chunks(source, size, stall_timeout, undecided)
    if isinstance(source, Iterable):
        return (_as_chunk(c) for c in source)
    raise TypeError(f"unsupported source type {type(source).__name__}")


def iter_events(
    source: Any,
    url: str | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    stall_timeout: float | None = DEFAULT_STALL_TIMEOUT,
    **options: Any,
) -> Generator[Event, None, None]:
    """Parse ``source`` and yield events as they become known.

    :class:`~stream_mf2.events.ItemEvent` for each top-level item as soon as its
    outermost root closes, :class:`~stream_mf2.events.MetaItemEvent` at the end
    of ``<head>`` (with ``metaformats=True``), and one
    :class:`~stream_mf2.events.DocumentEnd` last with the rels. ``options`` are
    the :class:`~stream_mf2.Parser` options (``encoding``, ``text``, ``lang``,
    ``metaformats``, ``stream_children``, limits). Raises :class:`~stream_mf2.errors.SourceError`
    when the source cannot be read.
    """
    if chunk_size < 1:
        raise ValueError("chunk_size must be positive")
    parser = Parser(url, **options)
    fed = False  # deciding on no bytes at all would only throw the prescan away
    text_input = False  # str chunks need no encoding decision

    def undecided() -> bool:
        return not text_input and parser.encoding is None

    chunks = _sync_chunks(source, chunk_size, stall_timeout, undecided)
    try:
        for chunk in chunks:
            if chunk is None:  # the source stalled
                if fed and undecided():
                    parser.commit_encoding()
                    yield from parser.feed_events(b"")
                continue
            fed = True
            text_input = isinstance(chunk, str)
            for part in _split(chunk, chunk_size):
                yield from parser.feed_events(part if not isinstance(part, bytearray | memoryview) else bytes(part))
        yield from parser.close_events()
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()  # a file we opened is closed now, also when the caller stops early


def iter_items(source: Any, url: str | None = None, **options: Any) -> Generator[dict[str, Any], None, None]:
    """Parse ``source`` and yield each top-level item as soon as it completes.

    Takes the same sources and options as :func:`iter_events`. With
    ``stream_children`` the children of a container item are yielded too, as
    they close and before their container (which then leaves them out); use
    :func:`iter_events` for their ``path``.
    """
    events = iter_events(source, url, **options)
    try:
        for event in events:
            if type(event) is ItemEvent:
                yield event.item
    finally:
        events.close()  # closes a file it opened, also when the caller stops early


async def _apath_chunks(path: str | os.PathLike[str], size: int) -> AsyncIterator[Chunk]:
    try:
        f = await aiofiles.open(path, "rb")
    except OSError as e:
        raise SourceError(f"cannot open {os.fspath(path)!r}: {e.strerror or e}") from e
    try:
        while True:
            try:
                data = await f.read(size)
            except OSError as e:
                raise SourceError(f"read failed: {e}") from e
            if not data:
                return
            yield data
    finally:
        await f.close()


async def _areader_chunks(reader: Any, size: int) -> AsyncIterator[Chunk]:
    while True:
        try:
            data = reader.read(size)
            if inspect.isawaitable(data):
                data = await data
        except OSError as e:
            raise SourceError(f"read failed: {e}") from e
        if not data:
            return
        yield _as_chunk(data)


async def _aiter_chunks(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]:
    try:
        async for chunk in source:
            yield _as_chunk(chunk)
    except OSError as e:
        raise SourceError(f"read failed: {e}") from e


async def _abytes(data: Chunk) -> AsyncIterator[Chunk]:
    yield data


def _async_chunks(source: object, size: int) -> AsyncIterator[Chunk]:
    if isinstance(source, str | os.PathLike):
        return _apath_chunks(source, size)
    if isinstance(source, bytes | bytearray | memoryview):
        return _abytes(source)
    if callable(getattr(source, "read", None)):
        return _areader_chunks(source, size)
    if isinstance(source, AsyncIterable):
        return _aiter_chunks(source)
    raise TypeError(f"unsupported async source type {type(source).__name__}")


async def aiter_events(
    source: Any,
    url: str | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    slice_size: int = DEFAULT_SLICE_SIZE,
    stall_timeout: float | None = DEFAULT_STALL_TIMEOUT,
    **options: Any,
) -> AsyncGenerator[Event, None]:
    """Async version of :func:`iter_events`.

    Between two slices of at most ``slice_size`` bytes the generator yields to
    the event loop. While the encoding is undecided a read that takes longer
    than ``stall_timeout`` seconds makes the parser decide it (see the module
    docs); the read itself is never cancelled.
    """
    if chunk_size < 1 or slice_size < 1:
        raise ValueError("chunk_size and slice_size must be positive")
    parser = Parser(url, **options)
    chunks = _async_chunks(source, chunk_size)
    pending: asyncio.Future[Chunk] | None = None
    text_input = False  # str chunks need no encoding decision
    fed = False  # deciding on no bytes at all would only throw the prescan away
    try:
        while True:
            if stall_timeout is not None and not text_input and parser.encoding is None:
                pending = asyncio.ensure_future(chunks.__anext__())
                done, _ = await asyncio.wait({pending}, timeout=stall_timeout)
                if not done and fed and parser.encoding is None:
                    parser.commit_encoding()
                    for event in parser.feed_events(b""):
                        yield event
                try:
                    chunk = await pending
                except StopAsyncIteration:
                    break
                finally:
                    pending = None
            else:
                try:
                    chunk = await chunks.__anext__()
                except StopAsyncIteration:
                    break
            text_input = isinstance(chunk, str)
            fed = True
            for part in _split(chunk, slice_size):
                for event in parser.feed_events(part if not isinstance(part, bytearray | memoryview) else bytes(part)):
                    yield event
                # Let other tasks run between slices, even when the reader had data buffered.
                await asyncio.sleep(0)
        for event in parser.close_events():
            yield event
    finally:
        if pending is not None and not pending.done():
            # Stopped early while a read was in flight: cancel it and let it finish unwinding
            # before the chunk generator is closed.
            pending.cancel()
            await asyncio.wait({pending})
        aclose = getattr(chunks, "aclose", None)
        if aclose is not None:
            await aclose()


async def aiter_items(source: Any, url: str | None = None, **options: Any) -> AsyncGenerator[dict[str, Any], None]:
    """Async version of :func:`iter_items`: each top-level item as soon as it completes."""
    events = aiter_events(source, url, **options)
    try:
        async for event in events:
            if type(event) is ItemEvent:
                yield event.item
    finally:
        # Close the inner generator now (an in-flight read is cancelled), not whenever
        # the event loop's finalizer gets to it.
        await events.aclose()
