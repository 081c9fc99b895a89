"""Fetch an ``http(s)://`` URL as a stream of body pieces, with urllib.

Redirects are followed (urllib's default handler); :attr:`UrlResponse.url` is
the final URL, the base URL of the document. The charset of the
``Content-Type`` header is :attr:`UrlResponse.charset`, the transport-layer
encoding. ``Transfer-Encoding: chunked`` and a ``Content-Encoding`` (gzip,
deflate, br) are undone step by step here (:mod:`stream_mf2.io.payload`):
:mod:`http.client` reads a malformed chunk-size line as the connection closing,
where RFC 9112 section 7.1 makes it a framing error, reported with the line.
Bodies are read with ``read1`` so pieces arrive as the server sends them.

This is the public fetch API, :func:`fetch` and :func:`afetch` (exported as
``stream_mf2.fetch`` / ``stream_mf2.afetch``): request headers, a
``User-Agent``, a timeout per read, a total deadline (:mod:`stream_mf2.io.deadline`),
a redirect limit and a size limit on the decoded body. A response whose
``Content-Type`` is not HTML is refused before its body is read; so is a
response whose framing is ambiguous (two different ``Content-Length`` values,
RFC 9112 section 6.3). Only ``http`` and ``https`` redirects are followed.

A response is a source for :func:`stream_mf2.io.sources.iter_events` (and
``parse``, ``iter_items``, the async front ends), which uses its final URL as
the document URL, its charset as the transport encoding, applies the stall rule
of the other network sources to it (see :mod:`stream_mf2.io.sources`) and closes
it when the body has been read or iteration stops.
"""

from __future__ import annotations

import functools
import http.client
import socket
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping
from types import TracebackType
from typing import IO, Any, TypedDict, Unpack

from stream_mf2.errors import LimitExceeded, SourceError
from stream_mf2.io.deadline import Deadline
from stream_mf2.io.payload import HTML_TYPES, BodyDecoder, PayloadError, media_type
from stream_mf2.io.threads import run_in_thread

#: Seconds to wait for the connection and for each read.
DEFAULT_TIMEOUT = 30.0
#: Seconds for the whole request: connection, redirects, headers and body.
DEFAULT_DEADLINE = 600.0
#: Largest piece read at once.
READ_SIZE = 64 * 1024
#: Redirects followed by default.
DEFAULT_MAX_REDIRECTS = 10
#: Default limit on a decoded (decompressed) body, in bytes.
DEFAULT_MAX_BYTES = 256 * 1024 * 1024

_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"


def _user_agent() -> str:
    from stream_mf2._version import __version__

    return f"stream-mf2/{__version__}"


class UrlResponse:
    """An open HTTP response. Iterate for decoded body pieces; close when done."""

    def __init__(
        self,
        resp: http.client.HTTPResponse,
        url: str,
        *,
        max_bytes: int | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        self._resp = resp
        self._max_bytes = max_bytes
        self._deadline = deadline
        #: The final URL, after redirects.
        self.url = url
        #: The HTTP status of the final response.
        self.status = resp.status
        ctype = resp.headers.get("Content-Type")
        essence, charset = media_type(ctype)
        #: Media type essence (``text/html``), or ``None`` when absent.
        self.content_type = essence
        #: The charset label from ``Content-Type``, if it names a known encoding.
        self.charset = charset
        coding = ",".join(resp.headers.get_all("Content-Encoding") or []) or None
        # http.client de-chunks when ``chunked`` is set (it is set from the headers and read
        # only by its body reads); turned off, read1 gives the raw framing, checked by
        # ChunkedDecoder without the lenient start that archived bodies need.
        chunked = bool(resp.chunked)
        resp.chunked = False
        try:
            self._body = BodyDecoder(chunked=chunked, content_encoding=coding, lenient_chunked=False)
        except PayloadError as e:
            resp.close()
            raise SourceError(f"{url}: {e}") from None

    def __iter__(self) -> Iterator[bytes]:
        total = 0
        limit = self._max_bytes
        for piece in self._pieces():
            total += len(piece)
            if limit is not None and total > limit:
                self.close()
                raise LimitExceeded(
                    f"{self.url}: the decoded body is larger than {limit} bytes (max_bytes)",
                    limit="max_bytes",
                    value=limit,
                )
            yield piece

    def _pieces(self) -> Iterator[bytes]:
        try:
            while True:
                data = self._resp.read1(READ_SIZE)
                if not data:
                    _check_deadline(self._deadline, self.url)
                    # read1 (unlike read) ends quietly when the server closes before the
                    # Content-Length is reached: ``length`` is then what was still owed.
                    if self._resp.length:
                        raise http.client.IncompleteRead(b"", self._resp.length)
                    break
                yield from self._body.feed(data)
                if self._body.done:
                    break  # the last chunk: what the server sends after it is not the body
            yield from self._body.finish()
        except PayloadError as e:
            self.close()
            raise SourceError(f"{self.url}: {e}") from None
        except (http.client.HTTPException, OSError) as e:
            _check_deadline(self._deadline, self.url)
            raise SourceError(f"{self.url}: read failed: {_describe(e)}") from None

    def close(self) -> None:
        """Close the connection."""
        if self._deadline is not None:
            self._deadline.cancel()
        self._resp.close()

    @property
    def closed(self) -> bool:
        """Whether the connection is closed (by :meth:`close`, or once the parser has read the body)."""
        return self._resp.isclosed()

    def interrupt(self) -> None:
        """Make a read blocked in another thread return now, by shutting the connection down.

        :func:`stream_mf2.io.sources.iter_events` reads a response in a thread (see its stall
        rule); a consumer that stops early calls this so that the thread does not sit in a
        read until the server sends more or the timeout runs out. Call :meth:`close` after.
        """
        try:
            fd = self._resp.fileno()
        except (AttributeError, OSError, ValueError):  # already closed
            return
        try:
            sock = socket.socket(fileno=fd)
        except OSError:  # not a socket this platform can wrap (the read then ends with its timeout)
            return
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the peer is gone already
        finally:
            sock.detach()  # the descriptor stays the response's, closed by close()

    def __enter__(self) -> UrlResponse:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _check_deadline(deadline: Deadline | None, url: str) -> None:
    """Report a request cut by its deadline as such (its sockets were shut down)."""
    if deadline is not None and deadline.passed:
        raise SourceError(f"{url}: no complete response within the deadline of {deadline.seconds:g} s (deadline)")


def _content_length(resp: http.client.HTTPResponse, url: str) -> None:
    """Two different ``Content-Length`` values leave the body's end unknown: a framing error."""
    values = {v.strip() for field in resp.headers.get_all("Content-Length") or [] for v in field.split(",")}
    if len(values) > 1:
        resp.close()
        raise SourceError(
            f"{url}: framing error: Content-Length given with different values ({', '.join(sorted(values))})"
        )


def _describe(e: BaseException) -> str:
    if isinstance(e, http.client.IncompleteRead):
        return "connection closed before the end of the body"
    if isinstance(e, TimeoutError | socket.timeout):
        return "timed out"
    return " ".join(str(e).split()) or type(e).__name__


def is_url(arg: str) -> bool:
    """Is ``arg`` an ``http://`` or ``https://`` URL?"""
    return arg[:8].lower().startswith(("http://", "https://"))


class _RefusedRedirect(urllib.error.URLError):
    """A redirect to a scheme other than http(s): refused before any connection to it."""


class _Redirects(urllib.request.HTTPRedirectHandler):
    """urllib's redirect handling with our own limit (its class attribute says 10), http(s) only.

    urllib itself follows ``ftp://`` redirects (and connects to the FTP host
    before anything could refuse the body); here such a redirect is an error.
    """

    def http_error_302(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: Any) -> Any:
        # Checked before urllib's own scheme test, which lets ftp:// through and words
        # its refusal of file:// as an HTTP error.
        location = headers.get("Location") or headers.get("URI")
        if location:
            newurl = urllib.parse.urljoin(req.full_url, location)
            if not is_url(newurl):
                raise _RefusedRedirect(f"redirect to {newurl} refused: only http and https redirects are followed")
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    def redirect_request(
        self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: Any, newurl: str
    ) -> urllib.request.Request | None:
        if self.max_redirections == 0:
            return None
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _redirect_handler(limit: int) -> _Redirects:
    """A redirect handler following at most ``limit`` redirects (urllib reads the limits from the class)."""

    class Limited(_Redirects):
        max_redirections = limit
        max_repeats = min(urllib.request.HTTPRedirectHandler.max_repeats, limit)

    return Limited()


def _connections(deadline: Deadline) -> list[urllib.request.BaseHandler]:
    """HTTP and HTTPS handlers whose connections register their socket with ``deadline``
    as soon as it exists (before the TLS handshake, the request and the headers)."""

    def watched(cls: type[http.client.HTTPConnection]) -> Any:
        def make(host: str, **kwargs: Any) -> http.client.HTTPConnection:
            conn = cls(host, **kwargs)
            # http.client opens every socket through the instance attribute _create_connection
            # (socket.create_connection); wrapping it catches the socket before the TLS
            # handshake, in one place for plain and TLS connections alike.
            create = conn.__dict__.get("_create_connection", socket.create_connection)

            def create_watched(*args: Any, **kw: Any) -> socket.socket:
                sock: socket.socket = create(*args, **kw)
                deadline.watch(sock)
                return sock

            conn.__dict__["_create_connection"] = create_watched
            return conn

        return make

    class Http(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(watched(http.client.HTTPConnection), req)

    class Https(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            context = getattr(self, "_context", None)  # the handler's SSL context (None: the default)
            return self.do_open(watched(http.client.HTTPSConnection), req, context=context)

    return [Http(), Https()]


def fetch(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    user_agent: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    deadline: float | None = DEFAULT_DEADLINE,
    max_redirects: int = DEFAULT_MAX_REDIRECTS,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    require_html: bool = True,
) -> UrlResponse:
    """Open ``url`` (``http`` or ``https`` only) and return the response, following redirects.

    ``headers`` are sent with the request (they replace the defaults of the same
    name: ``Accept``, ``Accept-Encoding``); ``user_agent`` sets ``User-Agent``
    (default ``stream-mf2/VERSION``). ``timeout`` is in seconds, for the
    connection and for each read; ``deadline`` (seconds, ``None``: none) bounds
    the whole request, body included, however slowly the server sends. At most
    ``max_redirects`` redirects are followed (``0``: none; a redirect is then an
    error), and only to ``http``/``https`` URLs. A decoded body larger
    than ``max_bytes`` (``None``: no limit) stops with
    :class:`~stream_mf2.errors.LimitExceeded` (``limit="max_bytes"``) while it is
    read. With ``require_html`` (the default) a ``Content-Type`` other than
    ``text/html`` or ``application/xhtml+xml`` is a
    :class:`~stream_mf2.errors.SourceError`; a response without one is sniffed
    for binary data when it is parsed.

    The response is a source for ``parse``, ``iter_items``, ``iter_events``
    (which apply the stall rule to it) and their async versions; use it as a
    context manager, or let the parser close it at the end of the body.

    Raises :class:`~stream_mf2.errors.SourceError` with a one-line reason for
    bad URLs, connection failures, HTTP error statuses and non-HTML types.
    """
    if not isinstance(url, str):
        raise TypeError(f"url must be a str, not {type(url).__name__}")
    if not is_url(url):
        raise SourceError(f"not an http(s) URL: {url!r}")
    if max_redirects < 0:
        raise ValueError("max_redirects must be >= 0")
    if max_bytes is not None and max_bytes < 0:
        raise ValueError("max_bytes must be >= 0 or None")
    if not timeout > 0:
        raise ValueError("timeout must be > 0")
    if deadline is not None and not deadline > 0:
        raise ValueError("deadline must be > 0 or None")
    sent = {"User-Agent": _user_agent(), "Accept": _ACCEPT, "Accept-Encoding": "gzip, deflate, br"}
    given = dict(headers or {})
    if user_agent is not None:
        given["User-Agent"] = user_agent
    for name, value in given.items():
        # HTTP header names are case-insensitive: a given name replaces a default of any case.
        sent = {known: v for known, v in sent.items() if known.lower() != name.lower()}
        sent[name] = value
    watch = Deadline(deadline) if deadline is not None else None
    handlers = [_redirect_handler(max_redirects), *(_connections(watch) if watch is not None else [])]
    opener = urllib.request.build_opener(*handlers)
    try:
        req = urllib.request.Request(url, headers=sent)
        resp = opener.open(req, timeout=timeout)
    except (http.client.HTTPException, OSError, ValueError) as e:  # URLError and HTTPError are OSErrors
        if watch is not None:
            watch.cancel()
        _check_deadline(watch, url)
        raise SourceError(_open_failure(url, e, max_redirects)) from None
    except BaseException:
        if watch is not None:
            watch.cancel()
        raise
    if not isinstance(resp, http.client.HTTPResponse):  # pragma: no cover - only http(s) gets here
        resp.close()
        raise SourceError(f"not an http(s) URL: {url!r}")
    _content_length(resp, url)
    response = UrlResponse(resp, resp.geturl(), max_bytes=max_bytes, deadline=watch)
    if require_html and response.content_type is not None and response.content_type not in HTML_TYPES:
        response.close()
        raise SourceError(f"{response.url}: not HTML (Content-Type {response.content_type})")
    return response


def _open_failure(url: str, e: Exception, max_redirects: int) -> str:
    """The one-line reason a request failed before its body (the cause named, not guessed)."""
    if isinstance(e, urllib.error.HTTPError):
        e.close()
        if 300 <= e.code < 400:
            if not (e.headers.get("Location") or e.headers.get("URI")):
                return f"{url}: HTTP {e.code} {e.reason} without a Location header"
            if max_redirects == 0:
                return f"{url}: HTTP {e.code} {e.reason}: a redirect, and max_redirects=0 follows none"
            return f"{url}: HTTP {e.code} {e.reason} (more than {max_redirects} redirects, or a redirect loop)"
        return f"{url}: HTTP {e.code} {e.reason}"
    if isinstance(e, urllib.error.URLError):
        reason = e.reason
        return f"cannot fetch {url}: {_describe(reason) if isinstance(reason, BaseException) else reason}"
    return f"cannot fetch {url}: {_describe(e)}"


class FetchOptions(TypedDict, total=False):
    """The keyword options of :func:`fetch` and :func:`afetch` (see :func:`fetch`)."""

    headers: Mapping[str, str] | None
    user_agent: str | None
    timeout: float
    deadline: float | None
    max_redirects: int
    max_bytes: int | None
    require_html: bool


async def afetch(url: str, **options: Unpack[FetchOptions]) -> UrlResponse:
    """Async :func:`fetch` (same options, :class:`FetchOptions`): the request runs in one of the
    library's worker threads (:mod:`stream_mf2.io.threads`, not asyncio's default executor).

    The event loop stays free. Pass the response to ``aiter_items``/``aiter_events``,
    which read its body in a worker thread too, with the stall rule of the async sources.
    """
    return await run_in_thread(functools.partial(fetch, url, **options))
