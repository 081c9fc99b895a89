"""Items out of documents, files, sockets, HTTP responses and async streams, as they complete.

The input rule (one rule for :func:`parse`, :func:`iter_items`,
:func:`iter_events`, :func:`aiter_items`, :func:`aiter_events`; the WARC and
WPT readers follow it where they take documents):

* ``str`` is the document's text and ``bytes`` / ``bytearray`` / ``memoryview``
  its bytes. A string is never a path or a URL: ``iter_items("page.html")``
  parses the nine characters ``page.html``;
* an :class:`os.PathLike` (``pathlib.Path("page.html")``) is a file, opened,
  read and closed; a binary file (MIME Sniffing's binary data bytes in its
  first 512 bytes) is refused with :class:`SourceError`. A binary file object
  (standard input included; sync or async) is sniffed and refused the same way; its first
  512 bytes are held back for that until they have come, the stream ends or
  (while the encoding is undecided) it stalls, which then decides on what came;
* a file object (anything with ``read(n)``, binary or text), a connected
  :class:`socket.socket`, an iterable of ``bytes``/``str`` chunks and (async
  front ends) an async iterable or an object with an awaitable ``read(n)`` are
  streams;
* an HTTP response is a stream whose ``Content-Type`` charset is the transport
  encoding and whose final URL is the document URL (unless ``encoding`` /
  ``url`` are given): one from :func:`stream_mf2.fetch` / :func:`stream_mf2.afetch`,
  an httpx ``Response`` (``iter_bytes`` / ``aiter_bytes``), a requests
  ``Response`` (sync) or an aiohttp ``ClientResponse`` (async). A declared
  ``Content-Type`` that is not HTML is refused with :class:`SourceError`;
* URLs go through the fetch API: ``iter_items(stream_mf2.fetch(url))``;
* anything else (``None``, an ``int``, a ``dict``) is a :class:`TypeError`
  naming what is accepted, raised when the function is called.

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
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, Unpack

import aiofiles

from stream_mf2.core.options import ParseOptions, check_options
from stream_mf2.core.parser import Parser, document_result
from stream_mf2.errors import SourceError
from stream_mf2.events import DocumentEnd, ItemEvent
from stream_mf2.io.fetch import UrlResponse
from stream_mf2.io.notes import log_notes
from stream_mf2.io.payload import HTML_TYPES
from stream_mf2.io.responses import SNIFF_BINARY_BYTES, ClientResponse, check_html, client_response, looks_binary
from stream_mf2.io.threads import run_in_thread

if TYPE_CHECKING:
    from stream_mf2.core.events import Event  # (it names every consumer's events)

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
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        raise SourceError(f"cannot open {os.fspath(path)!r}: {getattr(e, 'strerror', None) or e}") from e
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
    drained = False  # the first read may find bytes a caller peeked at (buffered, not in the pipe)
    while True:
        if fd is not None and drained and undecided():
            # After read1 the buffer is drained, so the descriptor tells whether more is coming.
            # (Before any read a stall changes nothing: the stall rule needs bytes fed.)
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
        drained = True
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
        try:
            yield from resp
        finally:
            resp.close()
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
            reader.join(1.0)  # the shut-down connection makes its read return at once
        resp.close()


def _no_binary(chunks: Iterator[_MaybeChunk], where: str) -> Iterator[_MaybeChunk]:
    """Pass ``chunks`` through, refusing binary data (:func:`looks_binary` on the first 512 bytes).

    The bytes are held back until 512 have come or the stream ends, so the answer
    does not depend on how the source splits them (a stall decides with what came).
    """
    head = b""
    try:
        for chunk in chunks:
            if chunk is None and not head:
                yield None
                continue
            if chunk is not None and not isinstance(chunk, str):
                head += bytes(chunk)
                if len(head) < SNIFF_BINARY_BYTES:
                    continue
            if head and looks_binary(head):
                raise SourceError(f"{where}: not HTML (binary data)")
            if head:
                yield head
            if chunk is None or isinstance(chunk, str):
                yield chunk
            break
        else:
            if head and looks_binary(head):
                raise SourceError(f"{where}: not HTML (binary data)")
            if head:
                yield head
            return
        yield from chunks
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()


#: What a source may be, for the error message (the rule is in the module docstring).
ACCEPTED = (
    "HTML text (str), HTML bytes (bytes, bytearray, memoryview), a path (os.PathLike, e.g. pathlib.Path),"
    " a file object with read(), a socket, an HTTP response (stream_mf2.fetch, httpx, requests, aiohttp)"
    " or an iterable of bytes/str chunks"
)
ACCEPTED_ASYNC = (
    "HTML text (str), HTML bytes (bytes, bytearray, memoryview), a path (os.PathLike, e.g. pathlib.Path),"
    " an object with an awaitable read() (asyncio.StreamReader, aiofiles), an HTTP response"
    " (stream_mf2.fetch/afetch, httpx, aiohttp) or an (async) iterable of bytes/str chunks"
)


class _Plan:
    """What a source is: its chunks (made lazily) and the URL and charset it brings."""

    __slots__ = ("charset", "url")

    def __init__(self, url: str | None = None, charset: str | None = None) -> None:
        self.url = url
        self.charset = charset


_Chunks = TypeVar("_Chunks")


def _response_plan(
    source: object,
    url_chunks: Callable[[UrlResponse], _Chunks],
    client_chunks: Callable[[ClientResponse], _Chunks],
    no_binary: Callable[[_Chunks, str], _Chunks],
    wrong_client: tuple[str, str],
) -> tuple[_Chunks, _Plan] | None:
    """The plan of an HTTP response source (``None`` for any other source), sync or async alike.

    Its final URL and charset go into the plan; a declared ``Content-Type`` that is not HTML
    is refused, and a body without one (or, from :func:`stream_mf2.fetch`, with a type that was
    not required to be HTML) is sniffed for binary data with ``no_binary``. A client of the
    other kind (``wrong_client``: its name and the message) is a ``TypeError``.
    """
    if isinstance(source, UrlResponse):
        chunks = url_chunks(source)
        if source.content_type not in HTML_TYPES:
            chunks = no_binary(chunks, source.url)
        return chunks, _Plan(source.url, source.charset)
    client = client_response(source)
    if client is None:
        return None
    if client.client == wrong_client[0]:
        raise TypeError(wrong_client[1])
    check_html(client.content_type, client.url)
    body = client_chunks(client)
    if client.content_type is None:
        body = no_binary(body, client.url or "response")
    return body, _Plan(client.url, client.charset)


def _sync_plan(
    source: object, size: int, stall_timeout: float | None, undecided: Callable[[], bool]
) -> tuple[Iterator[_MaybeChunk], _Plan]:
    """Apply the input rule (module docstring) to a sync source; ``TypeError`` for anything else."""
    if isinstance(source, str):
        return iter([source]), _Plan()
    if isinstance(source, bytes | bytearray | memoryview):
        return iter([source]), _Plan()
    if isinstance(source, os.PathLike):
        where = _path_name(source)
        return _no_binary(_path_chunks(source, size), where), _Plan()
    if isinstance(source, socket.socket):
        return _socket_chunks(source, size, stall_timeout, undecided), _Plan()
    response = _response_plan(
        source,
        lambda resp: _url_chunks(resp, stall_timeout, undecided),
        lambda client: client.sync_body(size),
        _no_binary,
        ("aiohttp", "an aiohttp ClientResponse is async: use aiter_items()/aiter_events()"),
    )
    if response is not None:
        return response
    if callable(getattr(source, "read", None)):
        # Standard input and file objects are sniffed as files are (text ones give str: nothing to sniff).
        return _no_binary(_reader_chunks(source, size, stall_timeout, undecided), _reader_name(source)), _Plan()
    if isinstance(source, AsyncIterable) and not isinstance(source, Iterable):
        raise TypeError(f"{type(source).__name__} is an async source: use aiter_items()/aiter_events()")
    if isinstance(source, Iterable) and not isinstance(source, dict):
        return (_as_chunk(c) for c in source), _Plan()
    raise TypeError(f"a source is {ACCEPTED}; not {type(source).__name__}")


def _reader_name(f: object) -> str:
    """How a file object is named in errors: its ``name`` (``<stdin>``, a path) or ``file object``."""
    name = getattr(f, "name", None)
    if isinstance(name, bytes):
        name = name.decode("utf-8", "replace")
    return name if isinstance(name, str) and name else "file object"


def _path_name(path: os.PathLike[Any]) -> str:
    name = os.fspath(path)
    return name if isinstance(name, str) else name.decode("utf-8", "replace")


def iter_events(
    source: object,
    url: str | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    stall_timeout: float | None = DEFAULT_STALL_TIMEOUT,
    **options: Unpack[ParseOptions],
) -> Generator[Event, None, None]:
    """Parse ``source`` and yield events as they become known.

    ``source`` follows the input rule (module docstring): ``str`` and ``bytes``
    are the document itself, an :class:`os.PathLike` is a file to open, and
    file objects, sockets, HTTP responses and iterables of chunks are streams.
    Anything else is a :class:`TypeError`, raised by this call.

    :class:`~stream_mf2.events.ItemEvent` for each top-level item as soon as its
    outermost root closes, :class:`~stream_mf2.events.MetaItemEvent` at the end
    of ``<head>`` (with ``metaformats=True``), and one
    :class:`~stream_mf2.events.DocumentEnd` last with the rels. ``options`` are
    the :class:`~stream_mf2.Parser` options (:class:`stream_mf2.ParseOptions`:
    ``encoding``, ``default_encoding``, ``detect_utf8``, ``text``, ``lang``,
    ``metaformats``, ``filter_roots``, ``stream_children``,
    ``collect_parse_errors``, and the limits ``max_token_chars``, ``max_depth``,
    ``max_kept_nodes``, ``max_held_items``, ``max_nested_html_chars``,
    ``max_reparse_bytes``), checked by this call: an unknown one is a
    :class:`TypeError`, a bad value a :class:`ValueError`. For an HTTP response,
    ``url`` defaults to its final URL and ``encoding`` to its charset. Raises
    :class:`~stream_mf2.errors.SourceError` when the source cannot be read or is
    not HTML (a non-HTML ``Content-Type``, binary data in a file).
    """
    check_options(options, "iter_events")
    if chunk_size < 1:
        raise ValueError("chunk_size must be positive")
    state: list[Parser] = []

    def undecided() -> bool:
        return bool(state) and state[0].awaiting_encoding

    chunks, plan = _sync_plan(source, chunk_size, stall_timeout, undecided)
    if url is None:
        url = plan.url
    if plan.charset is not None and options.get("encoding") is None:
        options["encoding"] = plan.charset
    parser = Parser(url, **options)
    state.append(parser)
    return _events(parser, chunks, chunk_size)


def _events(parser: Parser, chunks: Iterator[_MaybeChunk], chunk_size: int) -> Generator[Event, None, None]:
    fed = False  # deciding on no bytes at all would only throw the prescan away
    try:
        for chunk in chunks:
            if chunk is None:  # the source stalled
                if fed and parser.encoding is None:
                    parser.commit_encoding()
                    yield from parser.feed_events(b"")
                continue
            fed = True
            for part in _split(chunk, chunk_size):
                yield from parser.feed_events(part if not isinstance(part, bytearray | memoryview) else bytes(part))
        for event in parser.close_events():
            if type(event) is DocumentEnd:
                log_notes(event, parser.url)
            yield event
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()  # a file we opened is closed now, also when the caller stops early


def parse_source(doc: object, url: str | None = None, **options: Unpack[ParseOptions]) -> dict[str, Any]:
    """:func:`stream_mf2.parse` for a source other than ``str``/``bytes``: read it to the end.

    ``doc`` follows the input rule (module docstring); see :func:`stream_mf2.parse`
    for the result and the options.
    """
    check_options(options, "parse")
    events = list(iter_events(doc, url, stall_timeout=None, **options))
    return document_result(events, wpt=options.get("wpt") is not None, syntaxes=options.get("syntaxes"))


def iter_items(
    source: object,
    url: str | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    stall_timeout: float | None = DEFAULT_STALL_TIMEOUT,
    **options: Unpack[ParseOptions],
) -> Generator[dict[str, Any], None, None]:
    """Parse ``source`` and yield each top-level item as soon as it completes.

    Takes the same sources and options as :func:`iter_events`, checked by this call.
    Options (keywords, :class:`stream_mf2.ParseOptions`): ``encoding``,
    ``default_encoding``, ``detect_utf8``, ``text``, ``lang``, ``metaformats``,
    ``filter_roots``, ``stream_children``, ``collect_parse_errors``, and the
    limits ``max_token_chars``, ``max_depth``, ``max_kept_nodes``,
    ``max_held_items``, ``max_nested_html_chars``, ``max_item_chars``, ``max_output_ratio``, ``output_floor_chars``, ``max_reparse_bytes``.
    With ``stream_children`` the children of a container item are yielded too,
    as they close and before their container (which then leaves them out); use
    :func:`iter_events` for their ``path``.
    """
    check_options(options, "iter_items")
    return _items(iter_events(source, url, chunk_size=chunk_size, stall_timeout=stall_timeout, **options))


def _items(events: Generator[Event, None, None]) -> Generator[dict[str, Any], None, None]:
    try:
        for event in events:
            if type(event) is ItemEvent:
                yield event.item
    finally:
        events.close()  # closes a file it opened, also when the caller stops early


async def _apath_chunks(path: str | os.PathLike[str], size: int) -> AsyncIterator[Chunk]:
    try:
        f = await aiofiles.open(path, "rb")
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        raise SourceError(f"cannot open {os.fspath(path)!r}: {getattr(e, 'strerror', None) or e}") from e
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


async def _async_from_sync(chunks: Iterable[object]) -> AsyncIterator[Chunk]:
    for chunk in chunks:
        yield _as_chunk(chunk)


async def _aurl_chunks(resp: UrlResponse) -> AsyncIterator[Chunk]:
    """A :class:`UrlResponse` read in the library's worker threads (:mod:`stream_mf2.io.threads`), a piece at a time."""
    pieces = iter(resp)
    done = False
    try:
        while True:
            piece = await run_in_thread(next, pieces, None)
            if piece is None:
                done = True
                return
            yield piece
    finally:
        if not done:
            resp.interrupt()  # stopped early: a read still running in the thread returns now
        resp.close()


class _Reads:
    """The chunks of an async stream, each waited for at most a stall timeout.

    A read that outlasts the timeout stays in flight (it is never cancelled by a stall)
    and the next call goes on waiting for it; :meth:`aclose` cancels one still in flight.
    """

    __slots__ = ("_chunks", "_pending")

    def __init__(self, chunks: AsyncIterator[Chunk]) -> None:
        self._chunks = chunks
        self._pending: asyncio.Future[Chunk] | None = None

    async def next(self, timeout: float | None) -> Chunk | None:
        """The next chunk, or ``None`` when ``timeout`` seconds passed first; ``StopAsyncIteration`` at the end."""
        if self._pending is None:
            if timeout is None:
                return await self._chunks.__anext__()
            self._pending = asyncio.ensure_future(self._chunks.__anext__())
        if timeout is not None:
            done, _ = await asyncio.wait({self._pending}, timeout=timeout)
            if not done:
                return None
        try:
            return await self._pending
        finally:
            self._pending = None

    async def aclose(self) -> None:
        if self._pending is not None and not self._pending.done():
            # Stopped early while a read was in flight: cancel it and let it finish unwinding
            # before the chunk generator is closed.
            self._pending.cancel()
            await asyncio.wait({self._pending})
        aclose = getattr(self._chunks, "aclose", None)
        if aclose is not None:
            await aclose()


async def _ano_binary(
    chunks: AsyncIterator[Chunk], where: str, stall_timeout: float | None = None
) -> AsyncIterator[Chunk]:
    """Async :func:`_no_binary`: refuse binary data, judged on the first 512 bytes.

    With ``stall_timeout`` (a stream that can stall), a wait of that long for more of a short
    head decides on what came, as the sync version does at a stall: the parser then gets the
    head, and its own stall rule can decide the encoding and let items out.
    """
    reads = _Reads(chunks)
    head = b""
    text: Chunk | None = None  # a str chunk: nothing to sniff, it goes after the head
    try:
        while len(head) < SNIFF_BINARY_BYTES:
            try:
                chunk = await reads.next(stall_timeout if head else None)
            except StopAsyncIteration:
                break
            if chunk is None:
                break  # stalled: decide on the head; the read in flight is awaited below
            if isinstance(chunk, str):
                text = chunk
                break
            head += bytes(chunk)
        if head and looks_binary(head):
            raise SourceError(f"{where}: not HTML (binary data)")
        if head:
            yield head
        if text is not None:
            yield text
        while True:
            try:
                chunk = await reads.next(None)
            except StopAsyncIteration:
                return
            assert chunk is not None  # no timeout, no stall
            yield chunk
    finally:
        await reads.aclose()


def _async_plan(source: object, size: int, stall_timeout: float | None) -> tuple[AsyncIterator[Chunk], _Plan]:
    """Apply the input rule (module docstring) to an async source; ``TypeError`` for anything else."""
    if isinstance(source, str | bytes | bytearray | memoryview):
        return _abytes(source), _Plan()
    if isinstance(source, os.PathLike):
        return _ano_binary(_apath_chunks(source, size), _path_name(source)), _Plan()
    response = _response_plan(
        source,
        _aurl_chunks,
        lambda client: client.async_body(size),
        _ano_binary,
        ("requests", "a requests Response is sync: use iter_items()/iter_events(), or httpx/aiohttp here"),
    )
    if response is not None:
        return response
    if isinstance(source, socket.socket):
        raise TypeError("a socket is a sync source: use iter_items(), or asyncio.open_connection() here")
    if callable(getattr(source, "read", None)):
        # File objects (aiofiles, asyncio.StreamReader) are sniffed as files are; text ones give str.
        return _ano_binary(_areader_chunks(source, size), _reader_name(source), stall_timeout), _Plan()
    if isinstance(source, AsyncIterable):
        return _aiter_chunks(source), _Plan()
    if isinstance(source, Iterable) and not isinstance(source, dict):
        return _async_from_sync(source), _Plan()
    raise TypeError(f"an async source is {ACCEPTED_ASYNC}; not {type(source).__name__}")


def aiter_events(
    source: object,
    url: str | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    slice_size: int = DEFAULT_SLICE_SIZE,
    stall_timeout: float | None = DEFAULT_STALL_TIMEOUT,
    **options: Unpack[ParseOptions],
) -> AsyncGenerator[Event, None]:
    """Async version of :func:`iter_events` (same input rule and options, see :class:`stream_mf2.ParseOptions`).

    Sources are async or sync: a path (read with aiofiles), anything with an
    awaitable ``read(n)`` (:class:`asyncio.StreamReader`, aiofiles), an async
    iterable of chunks, an httpx or aiohttp response (``aiter_bytes`` /
    ``content.iter_chunked``), a :func:`stream_mf2.afetch` response, and the
    ``str``/``bytes``/iterable sources of :func:`iter_events`. Options and the
    source type are checked by this call (``TypeError``/``ValueError``).
    Options (keywords, :class:`stream_mf2.ParseOptions`): ``encoding``,
    ``default_encoding``, ``detect_utf8``, ``text``, ``lang``, ``metaformats``,
    ``filter_roots``, ``stream_children``, ``collect_parse_errors``, and the
    limits ``max_token_chars``, ``max_depth``, ``max_kept_nodes``,
    ``max_held_items``, ``max_nested_html_chars``, ``max_item_chars``, ``max_output_ratio``, ``output_floor_chars``, ``max_reparse_bytes``.

    Between two slices of at most ``slice_size`` bytes the generator yields to
    the event loop. While the encoding is undecided a read that takes longer
    than ``stall_timeout`` seconds makes the parser decide it (see the module
    docs); the read itself is never cancelled.
    """
    check_options(options, "aiter_events")
    if chunk_size < 1 or slice_size < 1:
        raise ValueError("chunk_size and slice_size must be positive")
    chunks, plan = _async_plan(source, chunk_size, stall_timeout)
    if url is None:
        url = plan.url
    if plan.charset is not None and options.get("encoding") is None:
        options["encoding"] = plan.charset
    return _aevents(Parser(url, **options), chunks, slice_size, stall_timeout)


async def _aevents(
    parser: Parser, chunks: AsyncIterator[Chunk], slice_size: int, stall_timeout: float | None
) -> AsyncGenerator[Event, None]:
    reads = _Reads(chunks)
    text_input = False  # str chunks need no encoding decision
    fed = False  # deciding on no bytes at all would only throw the prescan away
    try:
        while True:
            waiting = stall_timeout is not None and not text_input and parser.encoding is None
            try:
                chunk = await reads.next(stall_timeout if waiting else None)
                if chunk is None:  # the source stalled
                    if fed and parser.encoding is None:
                        parser.commit_encoding()
                        for event in parser.feed_events(b""):
                            yield event
                    chunk = await reads.next(None)
            except StopAsyncIteration:
                break
            assert chunk is not None  # no timeout, no stall
            text_input = isinstance(chunk, str)
            fed = True
            for part in _split(chunk, slice_size):
                for event in parser.feed_events(part if not isinstance(part, bytearray | memoryview) else bytes(part)):
                    yield event
                # Let other tasks run between slices, even when the reader had data buffered.
                await asyncio.sleep(0)
        for event in parser.close_events():
            if type(event) is DocumentEnd:
                log_notes(event, parser.url)
            yield event
    finally:
        await reads.aclose()


def aiter_items(
    source: object,
    url: str | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    slice_size: int = DEFAULT_SLICE_SIZE,
    stall_timeout: float | None = DEFAULT_STALL_TIMEOUT,
    **options: Unpack[ParseOptions],
) -> AsyncGenerator[dict[str, Any], None]:
    """Async version of :func:`iter_items`: each top-level item as soon as it completes.

    Same sources and options as :func:`aiter_events`, checked by this call.
    Options (keywords, :class:`stream_mf2.ParseOptions`): ``encoding``,
    ``default_encoding``, ``detect_utf8``, ``text``, ``lang``, ``metaformats``,
    ``filter_roots``, ``stream_children``, ``collect_parse_errors``, and the
    limits ``max_token_chars``, ``max_depth``, ``max_kept_nodes``,
    ``max_held_items``, ``max_nested_html_chars``, ``max_item_chars``, ``max_output_ratio``, ``output_floor_chars``, ``max_reparse_bytes``.
    """
    check_options(options, "aiter_items")
    return _aitems(
        aiter_events(source, url, chunk_size=chunk_size, slice_size=slice_size, stall_timeout=stall_timeout, **options)
    )


async def _aitems(events: AsyncGenerator[Event, None]) -> AsyncGenerator[dict[str, Any], None]:
    try:
        async for event in events:
            if type(event) is ItemEvent:
                yield event.item
    finally:
        # Close the inner generator now (an in-flight read is cancelled), not whenever
        # the event loop's finalizer gets to it.
        await events.aclose()
