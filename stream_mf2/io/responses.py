"""HTTP client responses as sources: httpx, requests and aiohttp, duck-typed.

None of those libraries is imported: a response is recognised by what it
offers, and read through its own streaming interface, so its content
encoding (gzip, br) is undone by the client as usual. Each is read so that
whatever has arrived is parsed at once: a slow server's items come out as
their bytes come in, not when some buffer fills or the body ends.

* httpx ``Response``: ``iter_bytes()`` / ``aiter_bytes()`` without a size
  (with a size, httpx holds pieces back until that many bytes have arrived);
* requests ``Response`` (sync only): ``raw.read1()`` of urllib3, which returns
  what one read of the socket gives (``iter_content(n)`` waits for ``n``
  bytes or the end of a body with a ``Content-Length``); a body requests
  has already read whole (``stream=False``) comes from memory;
* aiohttp ``ClientResponse`` (async only): ``content.iter_chunked(n)``, which
  returns what has arrived, at most ``n`` bytes at a time.

A body with a ``Content-Encoding`` made of ``gzip``, ``deflate`` and ``br`` is read as sent
(httpx ``iter_raw()``/``aiter_raw()``, urllib3 ``read1(decode_content=False)``) and decoded here
by :class:`~stream_mf2.io.payload.BodyDecoder`, as :func:`~stream_mf2.io.fetch.fetch` does: the
clients' decoders do not check that a compressed stream reaches its end, so a cut body parsed to
a shorter page without a word; here it is a :class:`~stream_mf2.errors.SourceError`. Other codings
(zstd, ...) and a body the client has read already are decoded by the client. aiohttp undoes the
codings in its session unless the session was made with ``auto_decompress=False``, which the
response does not tell; a ``gzip`` body goes through the gzip decoder, which passes a body
without the gzip magic (decoded by the session) through unchanged and decodes one with it.

The charset of the ``Content-Type`` header is the transport encoding and the
response URL (after redirects) the document URL, unless the caller gives
others. A response whose ``Content-Type`` names a media type other than HTML
is refused with :class:`~stream_mf2.errors.SourceError` before anything is
read: a PDF parses to no items, which is not an answer.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from stream_mf2.errors import SourceError, StreamMF2Error
from stream_mf2.io.payload import HTML_TYPES, BodyDecoder, PayloadError, media_type

__all__ = ["ClientResponse", "check_html", "client_response", "looks_binary"]

Client = Literal["httpx", "requests", "aiohttp"]


@dataclass(frozen=True, slots=True)
class ClientResponse:
    """A recognised HTTP client response and what its headers say."""

    client: Client
    response: Any
    url: str | None
    content_type: str | None
    charset: str | None

    def sync_body(self, size: int) -> Iterator[bytes]:
        """The decoded body, piece by piece (httpx and requests)."""
        resp = self.response
        if self.client == "aiohttp":
            raise TypeError("an aiohttp ClientResponse is async: use aiter_items()/aiter_events()")
        coding = _coding_to_undo(resp)
        if coding is not None and _raw_unread(resp, self.client):
            raw: Iterator[bytes] = resp.iter_raw() if self.client == "httpx" else _requests_pieces(resp, size, False)
            pieces = self._decoded(raw, coding)
        else:
            pieces = resp.iter_bytes() if self.client == "httpx" else _requests_pieces(resp, size, True)
        with self._read_errors():
            for piece in pieces:
                if piece:
                    yield bytes(piece)

    async def async_body(self, size: int) -> AsyncIterator[bytes]:
        """The decoded body, piece by piece (httpx and aiohttp)."""
        resp = self.response
        if self.client == "requests":
            raise TypeError("a requests Response is sync: use iter_items()/iter_events()")
        coding = _coding_to_undo(resp)
        if self.client == "aiohttp" and coding is not None and coding.strip().lower() in ("gzip", "x-gzip"):
            # The session decodes unless made with auto_decompress=False, which the response does
            # not tell: the gzip decoder passes a body without the gzip magic through unchanged.
            raw_pieces: AsyncIterator[bytes] | None = resp.content.iter_chunked(size)
        elif self.client == "httpx" and coding is not None and _raw_unread(resp, self.client):
            raw_pieces = resp.aiter_raw()
        else:
            raw_pieces = None
        if raw_pieces is not None and coding is not None:
            dec = BodyDecoder(chunked=False, content_encoding=coding, max_decoded_bytes=None, max_expansion=None)
            with self._read_errors():
                async for raw in raw_pieces:
                    for piece in self._decode_step(dec.feed, raw):
                        yield piece
                for piece in self._decode_step(lambda _: dec.finish(), b""):
                    yield piece
            return
        pieces = resp.aiter_bytes() if self.client == "httpx" else resp.content.iter_chunked(size)
        with self._read_errors():
            async for piece in pieces:
                if piece:
                    yield bytes(piece)

    def _decoded(self, raw: Iterator[bytes], coding: str) -> Iterator[bytes]:
        """``raw`` (the body as sent) decoded here: a truncated or corrupt body is a :class:`SourceError`."""
        dec = BodyDecoder(chunked=False, content_encoding=coding, max_decoded_bytes=None, max_expansion=None)
        for data in raw:
            yield from self._decode_step(dec.feed, data)
        yield from self._decode_step(lambda _: dec.finish(), b"")

    def _decode_step(self, step: Callable[[bytes], Iterator[bytes]], data: bytes) -> list[bytes]:
        try:
            return list(step(data))
        except PayloadError as e:
            raise SourceError(f"{self.url or 'response'}: {e}") from None

    @contextlib.contextmanager
    def _read_errors(self) -> Iterator[None]:
        """The client's own errors while reading the body (types not imported here) as :class:`SourceError`."""
        try:
            yield
        except (StreamMF2Error, GeneratorExit):
            raise
        except Exception as e:
            raise SourceError(f"{self.url or 'response'}: read failed: {_one_line(e)}") from e


#: Content codings decoded here rather than by the client (:class:`~stream_mf2.io.payload.BodyDecoder`
#: knows them and checks that each stream reaches its end; urllib3 and httpx do not).
_CODINGS = frozenset(("gzip", "x-gzip", "deflate", "br", "identity"))


def _coding_to_undo(resp: Any) -> str | None:
    """The response's ``Content-Encoding`` if it names codings to undo, all of them known here."""
    value = _header(resp, "Content-Encoding")
    if value is None:
        return None
    codings = [c.strip().lower() for c in value.split(",") if c.strip()]
    if not codings or set(codings) == {"identity"} or not set(codings) <= _CODINGS:
        return None
    return value


def _raw_unread(resp: Any, client: Client) -> bool:
    """Can the body still be read as sent (not yet read whole by the client)?"""
    if client == "httpx":
        return not getattr(resp, "is_stream_consumed", True) and callable(getattr(resp, "iter_raw", None))
    raw = getattr(resp, "raw", None)
    return callable(getattr(raw, "read1", None)) and not getattr(resp, "_content_consumed", False)


def _requests_pieces(resp: Any, size: int, decode: bool) -> Iterator[bytes]:
    """A requests body as it arrives: urllib3's ``read1`` on a streamed response (``decode``:
    with the content codings undone by urllib3; else as sent)."""
    raw = getattr(resp, "raw", None)
    read1 = getattr(raw, "read1", None)
    # requests keeps no public flag for "the body was read already" (stream=False, or
    # .content touched): its own iter_content asks _content_consumed, and so do we.
    if read1 is None or getattr(resp, "_content_consumed", False):
        yield from resp.iter_content(size)
        return
    # urllib3 returns b"" only at the end (it reads on while its decoder needs more input).
    while piece := read1(size, decode_content=decode):
        yield piece


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__


def _header(resp: Any, name: str) -> str | None:
    headers = getattr(resp, "headers", None)
    get = getattr(headers, "get", None)
    if get is None:
        return None
    value = get(name)
    return value if isinstance(value, str) else None


def client_response(obj: object) -> ClientResponse | None:
    """``obj`` as a :class:`ClientResponse` if it is one of the known clients' responses."""
    kind: Client
    if callable(getattr(obj, "iter_bytes", None)) and callable(getattr(obj, "aiter_bytes", None)):
        kind = "httpx"
    elif callable(getattr(obj, "iter_content", None)) and hasattr(obj, "raw"):
        kind = "requests"
    elif callable(getattr(getattr(obj, "content", None), "iter_chunked", None)) and hasattr(obj, "release"):
        kind = "aiohttp"
    else:
        return None
    essence, charset = media_type(_header(obj, "Content-Type"))
    url = getattr(obj, "url", None)
    return ClientResponse(kind, obj, str(url) if url is not None else None, essence, charset)


def check_html(content_type: str | None, where: str | None) -> None:
    """Refuse a response whose declared media type is not HTML (``None`` passes: sniffed later)."""
    if content_type is not None and content_type not in HTML_TYPES:
        raise SourceError(f"{where or 'response'}: not HTML (Content-Type {content_type})")


# WHATWG MIME Sniffing: "a binary data byte".
_BINARY = frozenset([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
#: Bytes looked at to tell a binary file from text.
SNIFF_BINARY_BYTES = 512


def looks_binary(head: bytes) -> bool:
    """Is ``head`` (the first bytes of a body) binary data rather than text?

    The MIME Sniffing rule for "text or binary": a UTF-16 or UTF-8 byte order
    mark means text; otherwise any binary data byte in the first 512 bytes
    means binary.
    """
    if head[:2] in (b"\xfe\xff", b"\xff\xfe") or head[:3] == b"\xef\xbb\xbf":
        return False
    return any(b in _BINARY for b in head[:SNIFF_BINARY_BYTES])
